"""rules.py on ints and arrays alike, against values read off the rulebook by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sims.alluvion import rules
from sims.alluvion.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def p():
    return load_catalog(CATALOGS).params


def test_hit_and_margin(p) -> None:
    # Attack 5 + Spot 0 - Defense 4 = 1 >= 1: a hit rolling 1 d6; 4 - 4 = 0 misses
    assert rules.is_hit(5, 0, 4, p) and rules.margin(5, 0, 4, p) == 1
    assert not rules.is_hit(4, 0, 4, p) and rules.margin(4, 0, 4, p) == 0
    # Spot 3 turns 3 v 5 into a hit of margin 1; against 0 Defense 8 + 2 = 10 dice
    assert rules.margin(3, 3, 5, p) == 1 and rules.margin(8, 2, 0, p) == 10
    a, s, d = np.array([5, 4, 3, 8]), np.array([0, 0, 3, 2]), np.array([4, 4, 5, 0])
    np.testing.assert_array_equal(rules.margin(a, s, d, p), [1, 0, 1, 10])
    off = type(p)(**{**p.__dict__, "spot_adds_to_margin": "off"})
    assert rules.margin(3, 3, 5, off) == 1  # a hit always rolls at least one die
    assert rules.margin(8, 2, 0, off) == 8


def test_direct_hit_faces(p) -> None:
    # Damage: close 4-6 (3 faces), exposed 5-6 (2), cover 6 (1), smart 4-6 (3) of a d6
    assert [rules.direct_hit_chance(c, p) for c in range(4)] == [(3, 6), (2, 6), (1, 6), (3, 6)]
    np.testing.assert_array_equal(rules.direct_from(np.array([0, 1, 2, 3]), p), [4, 5, 6, 4])
    assert rules.attack_case("close", True) == rules.CLOSE
    assert rules.attack_case("smart", True) == rules.SMART_CASE
    np.testing.assert_array_equal(
        rules.attack_case("ranged", np.array([True, False])), [rules.COVER, rules.EXPOSED]
    )


def test_systems_lost_every_two_direct_hits(p) -> None:
    assert rules.systems_lost(0, 1, p) == 0 and rules.systems_lost(1, 2, p) == 1
    assert rules.systems_lost(1, 5, p) == 2  # 2 and 4 are crossed
    np.testing.assert_array_equal(rules.systems_lost(np.array([0, 3]), np.array([4, 4]), p), [2, 1])


def test_loss_die_names_the_live_systems_in_turn(p) -> None:
    # 3 live systems: faces 1..5 name systems 0, 1, 2, 0, 1; a 6 the pilot
    assert [rules.loss_target(f, 3, p) for f in range(1, 7)] == [0, 1, 2, 0, 1, -1]
    np.testing.assert_array_equal(
        rules.loss_target(np.arange(1, 7), np.full(6, 3), p), [0, 1, 2, 0, 1, -1]
    )
    # live counts R1 D2: system 0 is resistive, 1 and 2 direct fire
    live = np.array([1, 0, 0, 0, 0, 2, 0])
    assert [int(rules.kind_of(live, i)) for i in range(3)] == [0, 5, 5]
    assert rules.chosen_kind(live) == rules.DIRECT_FIRE


def test_moving_spotting_grappling(p) -> None:
    assert rules.hexes_moved(9, 4, p) == 4  # 13 m is 4 whole hexes of 3 m
    reach_range, reach_cover = np.array([20, 20, 0]), np.array([False, True, True])
    spot = [
        bool(rules.can_spot(s, 15, c, reach_range[s], reach_cover[s]))
        for s in range(3)
        for c in (False, True)
    ]
    assert spot == [True, False, True, True, True, True]
    assert not rules.can_spot(1, 25, False, 20, True) and rules.can_spot(2, 40, True, 0, True)
    assert rules.grapples(5, 4) and not rules.grapples(4, 4)
    assert rules.breaks_free(5, 4) and not rules.breaks_free(4, 4)


def test_infantry_morale_batteries(p) -> None:
    assert rules.soldiers_fall(4, 6) == 4 and rules.soldiers_fall(6, 2) == 2
    assert rules.routs(8, 7) and not rules.routs(7, 7)
    assert rules.morale_check_due(1, 2, False) and not rules.morale_check_due(0, 2, False)
    assert rules.morale_check_due(0, 2, True)
    assert rules.shuts_down(1, p) and not rules.shuts_down(2, p)


def test_winner_at_the_end_step():
    """One side beaten: the other wins; both: a draw; neither: a draw at the round cap,
    the battle goes on before it. Python ints on bools, the same codes on arrays."""
    cases = [  # (beaten_a, beaten_b, at_cap) -> winner
        ((True, False, False), rules.SIDE_B),
        ((False, True, False), rules.SIDE_A),
        ((True, True, False), rules.DRAW),
        ((True, False, True), rules.SIDE_B),
        ((False, False, True), rules.DRAW),
        ((False, False, False), rules.ONGOING),
    ]
    for args, want in cases:
        got = rules.winner(*args)
        assert got == want and type(got) is int, (args, got)
    a, b, cap = (np.array(x) for x in zip(*(args for args, _ in cases), strict=True))
    assert rules.winner(a, b, cap).tolist() == [want for _, want in cases]
    assert rules.RESULTS[rules.SIDE_A] == "a" and rules.RESULTS[rules.DRAW] == "draw"
