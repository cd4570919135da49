"""ALPHASIDE policy: the choices a unit's policy makes, written once for both engines
(``catalogs/alphaside/policies.toml``, compiled into a Battle's ``approach``, ``choice``
and ``use_abilities`` fields; ``battle.py``'s game procedure says where each is asked).

Each predicate takes Python numbers (the reference engine asks one unit at a time) or
NumPy arrays (the vector engine, one row a unit of a stacked game) and answers in kind,
like the formulas of ``rules.py``. What a choice then does (the moves, the attack) stays
with the engines.
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
