"""Alluvion Knights policy: the choices an Armor's policy makes, written once for both
engines (``catalogs/alluvion/policies.toml``, compiled into a Battle's policy fields;
``battle.py``'s round procedure says where each is asked).

Each predicate takes Python ints and bools (the reference engine asks one Armor at a
time) or NumPy arrays (the vector engine asks a battle a column) and answers in kind,
like the formulas of ``rules.py``. What a choice then does (the dice spent, the moves)
stays with the engines.
"""

from __future__ import annotations

from typing import Any

DEFENSE = {"block": 0, "highest": 1}  # the ``defense`` policy's codes in a Battle


def fires_rocket(rockets_left: Any, rockets_from: Any, round_: Any) -> Any:
    """1 Pools (001 Attacking: single-shot rockets): the rocket die joins this round's
    Attack pool when the Armor has a rocket left and its policy fires from this round on
    (``rockets_from``; 0 never)."""
    return (rockets_left > 0) & (rockets_from > 0) & (round_ >= rockets_from)


def blocks(defense: Any) -> Any:
    """3f (001 Defending): policy ``block`` spends the smallest die that makes the attack
    miss (else the smallest); ``highest`` spends the highest."""
    return defense == DEFENSE["block"]
