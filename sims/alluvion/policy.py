"""Alluvion Knights policy: the choices an Armor's policy makes, written once for both
engines (``catalogs/alluvion/policies.toml``, compiled into a Battle's policy fields;
``battle.py``'s round procedure says where each is asked).

Each predicate takes Python ints and bools (the reference engine asks one Armor at a
time) or NumPy arrays (the vector engine asks a battle a column) and answers in kind,
like the formulas of ``rules.py``. What a choice then does (the dice spent, the moves)
stays with the engines; the rules each follows are ``rules.py``'s.

The rulebook leaves every choice to the player (001 Actions: "Actions may be repeated";
Attacking: "Assign the highest or preferred dice"); these are the engines' choices
(ASSUMPTIONS.md "Policies"): the rocket (1), the target (3, 4), which action (3a-3f:
break free, clear infantry, Spot, grapple, move and its goal, attack), the attack kind
(3f) and the defender's die (3f). ``tests/alluvion/test_policy.py`` holds each to
hand-derived choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

DEFENSE = {"block": 0, "highest": 1}  # the ``defense`` policy's codes in a Battle
ATTACKS = ("close", "ranged", "smart")  # 3f's attack kinds (rules.attack_case's words)
CLOSE, RANGED, SMART = range(3)  # their codes in the vector engine
NO_ATTACK = -1  # no attack reaches

# The conditions are bools (Python or NumPy): ``&`` and ``|`` serve both; ``_not`` and
# ``_where`` take the plain Python path on scalars.


def _not(condition: Any) -> Any:
    """Not: ``~True`` is -2, so never ``~`` on a Python bool."""
    return np.logical_not(condition) if type(condition) is np.ndarray else not condition


def _where(condition: Any, yes: Any, no: Any) -> Any:
    """``np.where`` on arrays; on scalars, the Python conditional."""
    if type(condition) is np.ndarray:
        return np.where(condition, yes, no)
    return yes if condition else no


def fires_rocket(rockets_left: Any, rockets_from: Any, round_: Any) -> Any:
    """1 Pools (001 Attacking: single-shot rockets): the rocket die joins this round's
    Attack pool when the Armor has a rocket left and its policy fires from this round on
    (``rockets_from``; 0 never)."""
    return (rockets_left > 0) & (rockets_from > 0) & (round_ >= rockets_from)


def blocks(defense: Any) -> Any:
    """3f (001 Defending): policy ``block`` spends the smallest die that makes the attack
    miss (else the smallest); ``highest`` spends the highest."""
    return defense == DEFENSE["block"]


# ---- 3. an action: the first of a-g that applies (battle.py; ASSUMPTIONS.md "Policies") ----


def tries_to_break_free(grappled: Any, first_action: Any) -> Any:
    """3a (001 Grappling: "can't move or break free until they contest"; # reading
    "Policies"): a grappled Armor spends its first action trying to break free."""
    return grappled & first_action


def clears_infantry(clear_infantry: Any, last_action: Any, squad_in_range: Any) -> Any:
    """3b (001 Dealing with Infantry): policy ``clear_infantry`` dedicates its last action
    to an enemy squad with soldiers within direct fire range."""
    return clear_infantry & last_action & squad_in_range


def spots(
    spotter: Any, last_action: Any, die_left: Any, ally_yet_to_act: Any, within_reach: Any
) -> Any:
    """3c (001 Spotting: "only Spot after you Attack or when forgoing an Attack"): policy
    ``spotter`` spends its last action Spotting the target for an operable ally yet to take
    its turn, with a Spot or Skill die unspent and the target within its reach."""
    return spotter & last_action & die_left & ally_yet_to_act & within_reach


def grapples(
    grapple: Any,
    distance: Any,
    grappling: Any,
    grappled: Any,
    target_grappled: Any,
    skill_left: Any,
) -> Any:
    """3d (001 Grappling: "one target at a time"): policy ``grapple`` grapples an adjacent
    target (``distance`` <= 1) when neither it nor the target is in a grapple and it has a
    Skill die unspent."""
    return (
        grapple
        & (distance <= 1)
        & _not(grappling)
        & _not(grappled)
        & _not(target_grappled)
        & skill_left
    )


def closes_in(approach: Any, hand_to_hand: Any, reaches: Any) -> Any:
    """3e: the Armor moves to 1 hex from its target when its policy ``approach``es with a
    usable Hand-to-Hand system, or when no attack reaches the target (reading R8)."""
    return (approach & hand_to_hand) | _not(reaches)


def move_goal(close_in: Any, direct_fire_range: Any) -> Any:
    """3e: the distance the Armor moves to: 1 hex when it closes in (:func:`closes_in`),
    else direct fire range (001 General Combat Info: 20 hexes)."""
    return _where(close_in, 1, direct_fire_range)


def first_target(lead_ok: Any, second_ok: Any, lead: Any) -> Any:
    """3 (# reading "Policies": "Targets: the first operable enemy Armor"; 4: a squad's,
    the first within direct fire range): the enemy side's lead slot ``lead`` when it
    qualifies (``lead_ok``), else the slot after it when that one does, else -1."""
    return _where(lead_ok, lead, _where(second_ok, lead + 1, -1))


def attack_kind(close_quarters: Any, smart: Any, ranged: Any) -> Any:
    """3f (# reading "Which attack"): close quarters with a usable Hand-to-Hand system at
    1 hex (``close_quarters``), else Smart with a usable Smart system, else ranged with a
    usable Direct Fire system or this round's rocket die (``ranged``); else
    ``NO_ATTACK`` (codes ``CLOSE``, ``RANGED``, ``SMART``)."""
    return _where(close_quarters, CLOSE, _where(smart, SMART, _where(ranged, RANGED, NO_ATTACK)))


def moves(
    hold: Any, grappled: Any, close_in: Any, beyond_range: Any, distance: Any, goal: Any
) -> Any:
    """3e (001 Move): the Armor moves unless its policy ``hold``s (keeping its cover) or it
    is grappled ("The grappled target can't move"), when it closes in or its target is
    beyond direct fire range, and only while it is farther than its goal."""
    return _not(hold) & _not(grappled) & (close_in | beyond_range) & (distance > goal)


def attacks(reaches: Any, die_left: Any) -> Any:
    """3f (001 Actions): otherwise the Armor attacks when an attack reaches the target and
    an Attack or Skill die is unspent (else the action is lost, 3g)."""
    return reaches & die_left
