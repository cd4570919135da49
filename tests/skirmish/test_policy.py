"""Every predicate of ``sims/skirmish/policy.py`` two ways, as ``test_formulas.py`` does
the rules: the same answer on Python ints and bools and on NumPy arrays over a grid of
its inputs (``agree``), and hand-derived values at its edges, written as literals with
the policy field of ``policies.toml`` they come from."""

from __future__ import annotations

import numpy as np

from sims.skirmish import policy
from tests.skirmish.test_formulas import agree

BOOL = [False, True]
QUICK = [0, 1, 2, 3]  # Quick actions left; 3 after an Overcharge


def test_overcharge_stabilize_vent_ints_and_arrays():
    heat, reactor = list(range(0, 14)), [4, 6, 10, 12]
    agree(policy.overcharges, {"heat": heat, "reactor": reactor, "below_percent": [0, 34, 50, 100]})
    agree(
        policy.stabilizes, {"effects": list(range(0, 5)), "at_effects": [1, 2, 99], "quick": QUICK}
    )
    agree(policy.vents, {"heat": heat, "reactor": reactor, "at_percent": [0, 50, 100, 999]})


def test_overcharge_stabilize_vent_edges():
    # brawler: overcharge_below_percent 34 with Reactor Cap 12: Heat 4 is 33% -> yes, 5 no
    assert policy.overcharges(4, 12, 34) is True
    assert policy.overcharges(5, 12, 34) is False
    assert policy.overcharges(0, 12, 0) is False  # 0 = never, even at Heat 0
    # careful: stabilize_at_effects 2, a Full action needed
    assert policy.stabilizes(2, 2, 2) is True
    assert policy.stabilizes(1, 2, 3) is False
    assert policy.stabilizes(5, 2, 1) is False
    assert policy.stabilizes(98, 99, 3) is False  # 99 = never in play
    # careful: vent_at_percent 50 with Reactor Cap 10: Heat 5 vents, 4 does not
    assert policy.vents(5, 10, 50) is True
    assert policy.vents(4, 10, 50) is False
    assert policy.vents(0, 10, 0) is False  # nothing to vent at Heat 0
    assert policy.vents(12, 12, 999) is False  # 999 = never below 10x the Cap


def test_target_and_strike_option():
    agree(policy.target_rank, {"distance": list(range(0, 12)), "mech": list(range(0, 6))}, mechs=6)
    # nearest first, ties to the lower index
    assert policy.target_rank(3, 5, 6) < policy.target_rank(4, 0, 6)
    assert policy.target_rank(3, 1, 6) < policy.target_rank(3, 2, 6)
    agree(policy.strike_option, {"arm_alive": BOOL, "legs_alive": BOOL})
    assert policy.strike_option(True, False) == policy.PUNCH == 0  # F11.1: an arm punches
    assert policy.strike_option(False, True) == policy.KICK == 1  # else intact legs kick
    assert policy.strike_option(False, False) == policy.NO_STRIKE == -1


def test_charge_move_boost_ints_and_arrays():
    agree(
        policy.charges,
        {
            "charge": BOOL,
            "quick": QUICK,
            "distance": list(range(0, 14)),
            "reach": [0, 1, 4, 6, 12],
            "melee_option": BOOL,
            "free": BOOL,
        },
    )
    agree(policy.move_goal, {"adjacent": BOOL, "max_optimal": [1, 4, 8]})
    agree(
        policy.boosts,
        {
            "boost": BOOL,
            "quick": QUICK,
            "reaches": BOOL,
            "speed": [0, 1, 4],
            "distance": [1, 4, 6],
            "goal": [1, 4],
            "free": BOOL,
        },
    )


def test_charge_move_boost_edges():
    # F11.3 as battle.py reads it: 2+ hexes away, an adjacent hex within reach: the Move
    # left, then the Charge's own run of Speed (a Move may come first, E)
    assert policy.charges(True, 2, 2, 1, True) is True  # one hex to adjacency
    assert policy.charges(True, 2, 2, 0, True) is False  # cannot move (Speed 0)
    assert policy.charges(True, 2, 1, 4, True) is False  # already adjacent
    assert policy.charges(True, 2, 5, 4, True) is True  # stood up (no Move): a run of 4
    assert policy.charges(True, 2, 6, 4, True) is False
    assert policy.charges(True, 2, 11, 5 + 5, True) is True  # Move 5, then a run of 5
    assert policy.charges(True, 2, 12, 5 + 5, True) is False
    assert policy.charges(True, 1, 3, 4, True) is False  # a Full action
    assert policy.charges(True, 2, 3, 4, False) is False  # no melee weapon, no strike
    assert policy.charges(False, 3, 3, 4, True) is False
    assert policy.charges(True, 2, 3, 4, True, False) is False  # Grappled (F11.5)
    assert policy.move_goal(True, 8) == 1 and policy.move_goal(False, 8) == 8
    assert policy.boosts(True, 2, False, 4, 6, 4) is True
    assert policy.boosts(True, 2, True, 4, 6, 4) is False  # a weapon reaches
    assert policy.boosts(True, 2, False, 4, 4, 4) is False  # at its goal
    assert policy.boosts(True, 2, False, 0, 6, 4) is False  # cannot move
    assert policy.boosts(True, 1, False, 4, 6, 4) is False
    assert policy.boosts(True, 2, False, 4, 6, 4, False) is False  # Grappled (F11.5)


def test_grapple_throw_break_ints_and_arrays():
    agree(policy.breaks, {"break_grapple": BOOL, "quick": QUICK, "grappled": BOOL})
    agree(policy.throws, {"grapple": BOOL, "quick": QUICK, "grappled": BOOL})
    agree(
        policy.grapples,
        {
            "grapple": BOOL,
            "quick": QUICK,
            "distance": [0, 1, 2, 5],
            "free": BOOL,
            "target_free": BOOL,
        },
    )


def test_grapple_throw_break_edges():
    # F11.5: Grapple and Break are Full actions, Throw a Quick one
    assert policy.breaks(True, 2, True) is True
    assert policy.breaks(True, 1, True) is False  # a Full action
    assert policy.breaks(True, 2, False) is False  # not in a grapple
    assert policy.breaks(False, 3, True) is False  # the policy stays (break_grapple false)
    assert policy.throws(True, 1, True) is True
    assert policy.throws(True, 0, True) is False
    assert policy.throws(True, 2, False) is False
    assert policy.grapples(True, 2, 1, True, True) is True  # adjacent
    assert policy.grapples(True, 2, 0, True, True) is True  # the same hex on the track
    assert policy.grapples(True, 2, 2, True, True) is False  # not adjacent
    assert policy.grapples(True, 1, 1, True, True) is False  # a Full action
    assert policy.grapples(True, 2, 1, False, True) is False  # already in a grapple
    assert policy.grapples(True, 2, 1, True, False) is False  # the target is in one


def test_attack_choices_ints_and_arrays():
    agree(
        policy.holds_overwatch,
        {"overwatch": BOOL, "quick": QUICK, "reaches": BOOL, "has_ranged": BOOL},
    )
    agree(policy.overwatch_rank, {"weapon_long": list(range(0, 16)), "mount": [0, 1, 2]})
    agree(
        policy.barrages,
        {
            "barrage": BOOL,
            "quick": QUICK,
            "two_reach": BOOL,
            "heat": [0, 3, 6],
            "weapons_heat": [0, 2, 5],
            "reactor": [6, 10],
        },
        barrage_heat=1,
    )
    agree(policy.aims, {"aimed": BOOL, "quick": QUICK, "reaches": BOOL, "shots": [0, 1, 2, 3]})
    agree(
        policy.tries_lock_on,
        {
            "lock_on": BOOL,
            "quick": QUICK,
            "locked": BOOL,
            "distance": list(range(0, 10)),
            "sensors": [0, 4, 8],
        },
    )


def test_attack_choices_edges():
    assert policy.holds_overwatch(True, 2, False, True) is True
    assert policy.holds_overwatch(True, 2, True, True) is False  # something reaches: fire
    assert policy.holds_overwatch(True, 2, False, False) is False  # melee only
    # Overwatch holds the longest long Range; equal ranges: the lower mount
    assert policy.overwatch_rank(9, 2) > policy.overwatch_rank(8, 0)
    assert policy.overwatch_rank(9, 0) > policy.overwatch_rank(9, 1) > policy.overwatch_rank(9, 2)
    ranks = policy.overwatch_rank(np.array([[6, 9, 9]]), np.arange(3))
    assert ranks.argmax(axis=1).tolist() == [1]
    # Barrage: Heat 3 + weapons 5 + barrage 2 = 10 is within Reactor Cap 10, 11 is not
    assert policy.barrages(True, 2, True, 3, 5, 2, 10) is True
    assert policy.barrages(True, 2, True, 4, 5, 2, 10) is False
    assert policy.barrages(True, 2, False, 0, 0, 2, 10) is False  # one weapon reaches
    assert policy.aims(True, 2, True, 1) is True
    assert policy.aims(True, 2, True, 2) is False  # a burst weapon is not aimed
    assert policy.tries_lock_on(True, 2, False, 8, 8) is True  # at Sensors range
    assert policy.tries_lock_on(True, 2, False, 9, 8) is False
    assert policy.tries_lock_on(True, 2, True, 1, 8) is False  # Locked already
    assert policy.tries_lock_on(True, 1, False, 1, 8) is False  # Fire needs the last Quick


def test_spare_quick_actions():
    agree(
        policy.strikes,
        {
            "strike": BOOL,
            "struck": BOOL,
            "has_target": BOOL,
            "distance": [0, 1, 2],
            "option": [-1, 0, 1],
        },
    )
    agree(policy.braces, {"brace": BOOL, "boosted": BOOL, "braced": BOOL})
    assert policy.strikes(True, False, True, 1, policy.KICK) is True
    assert policy.strikes(True, True, True, 1, policy.PUNCH) is False  # once per activation
    assert policy.strikes(True, False, True, 2, policy.PUNCH) is False  # not adjacent
    assert policy.strikes(True, False, False, 0, policy.PUNCH) is False  # no target left
    assert policy.strikes(True, False, True, 1, policy.NO_STRIKE) is False
    assert policy.braces(True, False, False) is True
    assert policy.braces(True, True, False) is False  # it Boosted
    assert policy.braces(True, False, True) is False  # Braced already


def test_guard():
    agree(policy.guards, {"guard": BOOL, "quick": QUICK, "shield": BOOL, "ally_near": BOOL})
    assert policy.guards(True, 2, True, True) is True  # E5: Full, a Shield arm, an ally
    assert policy.guards(True, 1, True, True) is False  # a Full action
    assert policy.guards(True, 2, False, True) is False  # no intact Shield arm
    assert policy.guards(True, 2, True, False) is False  # no adjacent ally
    assert policy.guards(False, 3, True, True) is False
