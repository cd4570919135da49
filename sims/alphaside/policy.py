"""ALPHASIDE policy: the choices a unit's policy makes, written once for both engines
(``catalogs/alphaside/policies.toml``, compiled into a Battle's ``approach``, ``choice``
and ``use_abilities`` fields; ``battle.py``'s game procedure says where each is asked).

Each predicate takes Python numbers (the reference engine asks one unit at a time) or
NumPy arrays (the vector engine, one row a unit of a stacked game) and answers in kind,
like the formulas of ``rules.py``. What a choice then does (the moves, the attack) stays
with the engines; the rules each follows are ``rules.py``'s.

The rulebook leaves every choice to the player; these are the engines' (ASSUMPTIONS.md
"The Timeline and activations", readings R3, R4, R6, R7): the Command abilities (3b,
3f), the target (3c), the Advance's goal (3d), the primary action (3e) and the weapon
(3f). ``tests/alphaside/test_policy.py`` holds each to hand-derived choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def advance_goal(keep_range: Any, shortest: Any, longest: Any) -> Any:
    """3d Advance (004 Movement; # reading R6): the distance a unit moves to from its
    target: its shortest weapon range (policy ``close``) or its longest
    (``keep_range``)."""
    if isinstance(keep_range, np.ndarray):
        return np.where(keep_range, longest, shortest)
    return longest if keep_range else shortest


def weapon_weight(expected: Any, tl: Any, per_tl: Any) -> Any:
    """3f (# reading R7): a weapon's weight in the policy's choice: its expected damage
    against the target's active Shields (``strongest``), or that per TL it costs
    (``per_tl``; a weapon costs at least 1 TL). The first weapon with a strictly greater
    weight is chosen."""
    if isinstance(expected, np.ndarray):
        return np.where(per_tl, expected / np.maximum(tl, 1), expected)
    return expected / max(tl, 1) if per_tl else expected


def _not(condition: Any) -> Any:
    """Not: ``~True`` is -2, so never ``~`` on a Python bool."""
    return np.logical_not(condition) if type(condition) is np.ndarray else not condition


# ---- 3c. the target (004 Attacking: "Declare the weapon and the target"; # reading R4) ----

TARGET_RANK = 8  # enemies a side fields, rounded up to a power of two (rank >> 3, rank & 7)


def target_rank(distance: Any, enemy: Any) -> Any:
    """3c (ASSUMPTIONS "The Timeline and activations"; reading R4): the enemies on the
    board ranked as targets, lowest first: the nearest, ties to the lower slot (``enemy``:
    the slot within its side, 0..4); ``rank // TARGET_RANK`` is the distance."""
    return distance * TARGET_RANK + enemy


# ---- 3b, 3f. Command abilities (004 Upgrades & Energy: "Energy pays for abilities";
# reading R3: tried in the unit's ability order, each at most once an activation) ----


def uses_repair(use_abilities: Any, energy: Any, cost: Any, hp: Any, full_hp: Any) -> Any:
    """3b: a policy with ``ability`` uses a repair ability when the unit's HP is below full
    and its Energy pays the cost."""
    return use_abilities & (energy >= cost) & (hp < full_hp)


def uses_shields(use_abilities: Any, energy: Any, cost: Any, enemy_on_board: Any) -> Any:
    """3b: a policy with ``ability`` uses a shields ability when an enemy is on the board
    and its Energy pays the cost."""
    return use_abilities & (energy >= cost) & enemy_on_board


def uses_attack_ability(use_abilities: Any, energy: Any, cost: Any) -> Any:
    """3f: a policy with ``ability`` uses every strength and accuracy ability on its attack
    that its Energy pays for."""
    return use_abilities & (energy >= cost)


# ---- 3e. the primary action (004: "Attack, Dash, Energize or Rescue — one per activation") --


def energizes(has_target: Any) -> Any:
    """3e (ASSUMPTIONS "The Timeline and activations"): Energize when no enemy is on the
    board."""
    return _not(has_target)


def dashes(has_target: Any, weapon_in_range: Any) -> Any:
    """3e: Dash toward the target when no weapon reaches it (else Attack)."""
    return has_target & _not(weapon_in_range)


def outweighs(weight: Any, best_weight: Any, has_best: Any) -> Any:
    """3f (reading R7): a weapon in range replaces the choice so far when there is none yet
    or its :func:`weapon_weight` is strictly greater (ties: the first weapon)."""
    return _not(has_best) | (weight > best_weight)


# ---- 3d. when the Advance comes (004 Playing on ALPHASIDE: "It is a free move, so you
# can Advance before or after your Primary Action"; rules parameter ``advance``) ----


def advances_after(in_now: Any, weight_now: Any, in_then: Any, weight_then: Any) -> Any:
    """3d with ``advance = either`` (reading R17): Advance after the attack when a weapon
    reaches the target from where the unit stands (``in_now``) and the weight of the
    policy's choice there (:func:`weapon_weight`) beats the choice from where the Advance
    first would take it, strictly (none in range there: any weight beats it); else
    Advance first."""
    return in_now & (_not(in_then) | (weight_now > weight_then))
