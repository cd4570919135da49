"""Mecha Skirmish policy: the choices a mech makes in its activation, written once for
both engines.

Every mech walks the same decision list (``battle.py``, "Activation"); its policy
(``catalogs/skirmish/policies.toml``, compiled into a Battle's ``p_*`` fields) switches
steps on and sets their thresholds. Each predicate here is one step's condition: given
Python ints and bools it returns a Python bool (or int), given NumPy arrays it returns
arrays, like the formulas of ``rules.py`` (``tests/skirmish/test_policy.py`` holds each
to itself on ints and arrays over a grid and to hand-derived values at its edges). Plain
arithmetic and comparisons need no conversion: Python ints in, Python ints out.

What a step then does (the rolls, the moves, the attacks) stays with the engines; the
rules each step follows are ``rules.py``'s. A predicate that is a conjunction lists its
conditions cheapest first, so the vector engine may read a costly one only on the rows
where the others hold (it says so where it does).
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import numpy as np

from sims.skirmish.rules import _plain

PUNCH, KICK, NO_STRIKE = 0, 1, -1  # strike options (F11.1), as both engines code them
FULL = 2  # a Full action takes both Quick actions (E)


# The three helpers below take the plain Python path when no argument is an array: the
# reference engine asks them one mech at a time, and NumPy's scalar calls would cost it
# a fifth of its speed. The answer is the same either way (test_policy.py).


def _all(*conditions: Any) -> Any:
    """Every condition holds: a Python bool on ints and bools, a bool array on arrays."""
    if np.ndarray in map(type, conditions):
        return _plain(reduce(np.logical_and, conditions))
    return all(conditions)


def _not(condition: Any) -> Any:
    """Not: ``~True`` is -2, so never ``~`` on a Python bool."""
    return np.logical_not(condition) if type(condition) is np.ndarray else not condition


def _where(condition: Any, yes: Any, no: Any) -> Any:
    """``np.where`` on arrays; on scalars, the Python conditional."""
    if type(condition) is np.ndarray or type(no) is np.ndarray or type(yes) is np.ndarray:
        return _plain(np.where(condition, yes, no))
    return _plain(yes if condition else no)


# ---- 2. Overcharge (G3) ----------------------------------------------------------------


def overcharges(heat: Any, reactor: Any, below_percent: Any) -> Any:
    """Overcharge (free, a third Quick action) while Heat is under ``below_percent`` of
    Reactor Cap (``overcharge_below_percent``; 0 never)."""
    return heat * 100 < below_percent * reactor


# ---- 3. Stabilize (Full) or Vent (Quick) -----------------------------------------------


def stabilizes(effects: Any, at_effects: Any, quick: Any) -> Any:
    """Stabilize when the mech carries ``at_effects`` lasting crit effects
    (``stabilize_at_effects``; 99 never) and has a Full action left."""
    return _all(effects >= at_effects, quick >= FULL)


def vents(heat: Any, reactor: Any, at_percent: Any) -> Any:
    """Vent (when it does not Stabilize) at Heat >= ``at_percent`` of Reactor Cap
    (``vent_at_percent``; 999 never), never at Heat 0."""
    return _all(heat > 0, heat * 100 >= at_percent * reactor)


# ---- 4. target -------------------------------------------------------------------------


def target_rank(distance: Any, mech: Any, mechs: int) -> Any:
    """Order of enemies as targets, lowest first: the nearest, ties to the lowest index
    (``mech`` in 0..mechs-1)."""
    return distance * mechs + mech


# ---- 5. Charge, or Move then Boost -----------------------------------------------------


def charges(
    charge: Any, quick: Any, distance: Any, reach: Any, melee_option: Any, free: Any = True
) -> Any:
    """Charge (Full, F11.3) when the policy charges, the mech is ``free`` to move (not
    Grappled, F11.5), the target is 2+ hexes away and an adjacent hex is within ``reach``
    (the Move left, then the Charge's own Speed: a Move may come first, E), and a melee
    weapon or strike exists."""
    return _all(charge, quick >= FULL, free, distance >= 2, distance <= reach + 1, melee_option)


def move_goal(adjacent: Any, max_optimal: Any) -> Any:
    """The distance a mech moves toward: 1 for an ``adjacent`` policy, else the longest
    optimal Range among its working ranged weapons (``max_optimal``)."""
    return _where(adjacent, 1, max_optimal)


def boosts(
    boost: Any, quick: Any, reaches: Any, speed: Any, distance: Any, goal: Any, free: Any = True
) -> Any:
    """Boost (Quick: move again) after the Move when the policy boosts, a Full action is
    left, no weapon reaches, the mech can move (Speed, and ``free``: not Grappled, F11.5)
    and it is not at its goal."""
    return _all(boost, quick >= FULL, free, _not(reaches), speed > 0, distance != goal)


def guards(guard: Any, quick: Any, shield: Any, ally_near: Any) -> Any:
    """Guard (Full, E5) after the Move, instead of a Boost and an attack, when the policy
    does (``guard``: an escort), a Full action is left, the mech has an intact Shield arm
    and a living ally is adjacent."""
    return _all(guard, quick >= FULL, shield, ally_near)


# ---- 3b, 6a, 6. Grapple, Throw and Break (F11.5) ---------------------------------------


def breaks(break_grapple: Any, quick: Any, grappled: Any) -> Any:
    """Break (Full, F11.5) before moving, when the policy does (``break_grapple``), the mech
    is in a grapple and a Full action is left."""
    return _all(break_grapple, quick >= FULL, grappled)


def throws(grapple: Any, quick: Any, grappled: Any) -> Any:
    """Throw (Quick, F11.5) before attacking, when the policy grapples (``grapple``), the
    mech is in a grapple and a Quick action is left."""
    return _all(grapple, quick >= 1, grappled)


def grapples(grapple: Any, quick: Any, distance: Any, free: Any, target_free: Any) -> Any:
    """Grapple (Full, F11.5) instead of attacking when the policy does (``grapple``), a
    Full action is left, the target is adjacent and neither mech is in a grapple (a
    reading: one grapple at a time)."""
    return _all(grapple, quick >= FULL, distance <= 1, free, target_free)


# ---- 6. Attack: Overwatch, else Barrage, else Aimed Shot, else Lock On and Fire --------


def holds_overwatch(overwatch: Any, quick: Any, reaches: Any, has_ranged: Any) -> Any:
    """Hold Overwatch (Full, E5) when the policy does, nothing reaches the target and a
    working ranged weapon exists."""
    return _all(overwatch, quick >= FULL, _not(reaches), has_ranged)


def overwatch_rank(weapon_long: Any, mount: Any) -> Any:
    """Which ranged weapon Overwatch holds: the highest rank, the longest long Range,
    ties to the lower mount (0..2)."""
    return weapon_long * 4 + (3 - mount)


def barrages(
    barrage: Any,
    quick: Any,
    two_reach: Any,
    heat: Any,
    weapons_heat: Any,
    barrage_heat: Any,
    reactor: Any,
) -> Any:
    """Barrage (Full, E) with the two best weapons in reach when the policy does and the
    Heat after it (``weapons_heat``: the two weapons' Heat; ``barrage_heat``) stays
    within Reactor Cap."""
    return _all(barrage, quick >= FULL, two_reach, heat + weapons_heat + barrage_heat <= reactor)


def aims(aimed: Any, quick: Any, reaches: Any, shots: Any) -> Any:
    """Aimed Shot (Full, E, at the Core) when the policy aims and the best weapon in
    reach fires one shot (``shots``)."""
    return _all(aimed, quick >= FULL, reaches, shots == 1)


def tries_lock_on(lock_on: Any, quick: Any, locked: Any, distance: Any, sensors: Any) -> Any:
    """Lock On (Quick, E) before a single Fire when the policy does, both Quick actions
    are left, and the target is not Locked and within Sensors."""
    return _all(lock_on, quick >= FULL, _not(locked), distance <= sensors)


# ---- 7. spare Quick actions: Strike once when adjacent, else Brace ----------------------


def strike_option(arm_alive: Any, legs_alive: Any) -> Any:
    """F11.1 which strike: a punch with an intact arm, else a kick with intact legs,
    else none (``PUNCH``, ``KICK``, ``NO_STRIKE``)."""
    return _where(arm_alive, PUNCH, _where(legs_alive, KICK, NO_STRIKE))


def strikes(strike: Any, struck: Any, has_target: Any, distance: Any, option: Any) -> Any:
    """Strike (Quick, F11.1) once per activation when the policy strikes, a target is
    adjacent (``distance`` is read only with ``has_target``) and a strike option exists."""
    return _all(strike, _not(struck), has_target, distance <= 1, option != NO_STRIKE)


def braces(brace: Any, boosted: Any, braced: Any) -> Any:
    """Brace (Quick, E) with a spare Quick action when the policy does, the mech did not
    Boost and is not Braced already."""
    return _all(brace, _not(boosted), _not(braced))


def smokes(smoke: Any, launcher: Any, smoking: Any) -> Any:
    """Smoke (Quick, H5; once per activation, it lasts until the next) with a spare Quick
    action after a Strike, before a Brace, when the policy does and the smoke launcher
    Back is intact."""
    return _all(smoke, launcher, _not(smoking))
