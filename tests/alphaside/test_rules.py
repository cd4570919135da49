"""rules.py on ints and arrays alike, against values read off the rulebook by hand."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from sims.alphaside import rules
from sims.alphaside.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def p():
    return load_catalog(CATALOGS).params


def test_each_face_of_the_d10(p) -> None:
    faces = np.arange(1, 11)
    # Accuracy 0: faces 4..10 hit; -3: a face needs 7 (7..10, crits 9-10 among them);
    # +3: 2..10 (a 1 still misses); crits 9-10 whatever the Accuracy
    hit = {a: np.flatnonzero(rules.is_hit(faces, a, 9, p)) + 1 for a in (-3, 0, 3)}
    assert hit[0].tolist() == [4, 5, 6, 7, 8, 9, 10]
    assert hit[-3].tolist() == [7, 8, 9, 10] and hit[3].tolist() == list(range(2, 11))
    assert (np.flatnonzero(rules.is_crit(faces, 9, p)) + 1).tolist() == [9, 10]
    assert (np.flatnonzero(rules.is_crit(faces, 7, p)) + 1).tolist() == [7, 8, 9, 10]
    # a crit always hits: at Accuracy -6 only the crits 9-10 reach
    assert (np.flatnonzero(rules.is_hit(faces, -6, 9, p)) + 1).tolist() == [9, 10]
    assert bool(rules.is_hit(10, -9, 9, p)) and not bool(rules.is_hit(1, 9, 9, p))


def test_die_chances(p) -> None:
    assert rules.die_chances(0, 9, p) == (Fraction(7, 10), Fraction(1, 5))
    assert rules.die_chances(-3, 9, p) == (Fraction(2, 5), Fraction(1, 5))
    assert rules.die_chances(3, 9, p) == (Fraction(9, 10), Fraction(1, 5))
    assert rules.die_chances(-3, 7, p) == (Fraction(2, 5), Fraction(2, 5))
    assert rules.disarmed_hit_chance(0, 9, p) == Fraction(49, 100)


def test_damage_shields_damage_plus_fracture(p) -> None:
    assert rules.combat_damage(3, 1) == 2 and rules.combat_damage(1, 2) == 0
    # Damage+1 after Shields whenever a hit was rolled: 1 hit on 2 Shields deals 1
    assert rules.combat_damage(1, 2, 1) == 1 and rules.combat_damage(0, 0, 1) == 0
    # Fracture: 3 after Shields takes 3 more; 2 does not trigger it
    assert rules.combat_damage(4, 1, 0, True, p) == 6 and rules.combat_damage(3, 1, 0, True, p) == 2
    np.testing.assert_array_equal(
        rules.combat_damage(np.array([0, 2, 5]), np.array([1, 1, 1])), [0, 1, 4]
    )
    assert rules.blocked(3, 2) == 2 and rules.collision(1, p) == 1 and rules.collision(3, p) == 0


def test_expected_damage_by_hand(p) -> None:
    # one die at Accuracy 0, no Shields: 7/10; against 1 Shield: 0; with Damage+1 on a crit
    # (1/5) and 1 Shield: the crit's hit is blocked, the +1 lands: 1/5
    assert rules.expected_damage(1, 0, 9, 0, 0, p) == Fraction(7, 10)
    assert rules.expected_damage(1, 0, 9, 1, 0, p) == 0
    assert rules.expected_damage(1, 0, 9, 1, 1, p) == Fraction(1, 5)
    # two dice, 1 Shield: damage 1 only when both hit: (7/10)^2 = 49/100
    assert rules.expected_damage(2, 0, 9, 1, 0, p) == Fraction(49, 100)


def test_movement_and_the_timeline(p) -> None:
    assert rules.advance_hexes(2, False, False, p) == 5  # 3 + Speed
    assert rules.advance_hexes(2, False, True, p) == 4  # -1 starting Engaged
    assert rules.advance_hexes(2, True, False, p) == 0  # Slowed
    assert rules.dash_hexes(False, p) == p.dash_hexes and rules.engaged(1) and not rules.engaged(2)
    assert rules.last_time(p) == 20 and rules.phase_of(10, p) == 0 and rules.phase_of(11, p) == 1
    assert rules.after_defeat(9, p) == 11
    three = dataclasses.replace(p, phases=3)
    assert rules.last_time(three) == 30 and rules.deck_size(three) == 12


def test_winner_more_vp_else_the_side_that_acted_last():
    """004 Goal of the game: the most VP wins; tied scores go to the last side to act.
    Python ints on ints, the same codes on arrays."""
    cases = [((5, 3, rules.SIDE_B), rules.SIDE_A), ((2, 4, rules.SIDE_A), rules.SIDE_B)]
    cases += [((3, 3, rules.SIDE_A), rules.SIDE_A), ((0, 0, rules.SIDE_B), rules.SIDE_B)]
    for args, want in cases:
        got = rules.winner(*args)
        assert got == want and type(got) is int, (args, got)
    vp_a, vp_b, last = (np.array(x) for x in zip(*(args for args, _ in cases), strict=True))
    assert rules.winner(vp_a, vp_b, last).tolist() == [want for _, want in cases]
    assert rules.RESULTS == ("a", "b")
