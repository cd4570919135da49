"""The exact battle DP: equal (exact Fractions) to the brute force over every die face on
tiny battles, sums to 1, hand-derived values on one-round battles, and the reference
engine's means within 4 standard errors of its exact values. Card numbers as derived in
test_reference.py's docstring (mechsuit_lesson: arm_1 4, arm_2 1 v Gorgadon, combo +1,
Accuracy 2)."""

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from sims.labpartners import exact_battle as ex
from sims.labpartners import reference as ref
from sims.labpartners.battle import card_battle, catalog_battle, metrics, with_params
from sims.labpartners.catalog import SLOTS, load_catalog
from tests.conftest import CATALOGS

MECHSUIT = {
    "legs": "legs-mechsuit-energy",
    "torso": "torso-mechsuit-melee",
    "head": "head-clockwork-energy",
    "arm_1": "arms-mechsuit-energy-2",
    "arm_2": "arms-beast-projectile-2",
}
ONE_ARM = {k: v for k, v in MECHSUIT.items() if k != "arm_2"}  # arm_2 a gap


@pytest.fixture(scope="module")
def cat():
    return load_catalog(CATALOGS)


def custom(cat, slots: dict, lesson: str, kaiju: str, policy: str = "steady", spares=()):
    """A mech of the named cards (missing slots are gaps) against a catalog kaiju."""
    return card_battle(cat, [slots.get(s) for s in SLOTS], lesson, kaiju, (), policy, spares)


def tiny(cat) -> dict:
    """Battles of 2-3 rounds (a d4 or d6 crit die where two Arms roll, so every face
    sequence can be walked) where each rule of the round comes up."""
    g = catalog_battle(cat, "mechsuit_lesson", "gorgadon")
    cw = catalog_battle(cat, "mechsuit_lesson", "cinderwyrm")
    arms_pile = ((), (), (), ("arms-beast-melee-3", "arms-beast-melee-1"))
    return {
        # crits on a d4 (Accuracy 2: half the faces), 3 rounds
        "crits": with_params(g, battle_rounds=3, crit_die=4),
        # Thornmaw at 7 a hit takes an Arm a round: rebuilds from the spares, the
        # punch at punch_finish, Torso loss and doubled damage later
        "rebuild": with_params(
            replace(
                custom(cat, MECHSUIT, "mechsuit", "thornmaw", spares=arms_pile),
                damage=7,
                kaiju_hp=14,
            ),
            battle_rounds=3,
            crit_die=6,
        ),
        # the keystone policy rebuilds a lost Torso from the spares
        "keystone": with_params(
            replace(
                custom(
                    cat,
                    MECHSUIT,
                    "mechsuit",
                    "gorgadon",
                    "keystone",
                    spares=((), ("torso-vehicle-melee",), (), ()),
                ),
                damage=8,
            ),
            battle_rounds=3,
            crit_die=4,
        ),
        # the headless punch (a d3, a miss on 1): wins, misses, the mech destroyed
        "punch": with_params(
            replace(custom(cat, {"torso": "torso-vehicle-melee"}, "beast", "gorgadon"), kaiju_hp=2),
            battle_rounds=3,
        ),
        # two attacks, the kaiju's per-Arm bonus (Trivex), regen added
        "two_attacks": with_params(
            replace(catalog_battle(cat, "beast_pack", "trivex"), regen=2, kaiju_hp=20),
            battle_rounds=2,
            crit_die=6,
        ),
        # the Torso (HP 6) lost in round 1 to 8 - 2 = 6, the damage doubled after
        "torso_lost": with_params(replace(g, damage=8, kaiju_hp=14), battle_rounds=3, crit_die=4),
        # each campaign intervention (effect on the compiled battle), first round or
        # when its trigger comes
        "redirect": with_params(
            replace(cw, effect=1, intervene_when=1), battle_rounds=2, crit_die=4
        ),
        "max_power": with_params(
            replace(g, effect=2, intervene_when=1, kaiju_hp=15), battle_rounds=3, crit_die=4
        ),
        "sure_crit": with_params(
            replace(g, effect=3, intervene_when=3, intervene_at=14, kaiju_hp=18),
            battle_rounds=3,
            crit_die=4,
        ),
        "restore": with_params(
            replace(g, effect=4, intervene_when=4, damage=8, kaiju_hp=18),
            battle_rounds=3,
            crit_die=4,
        ),
        "null_attack": with_params(
            replace(cw, effect=5, intervene_when=1, kaiju_hp=8), battle_rounds=3, crit_die=4
        ),
        # the real d20 on one Arm (arm_2's card gone) over 2 rounds
        "d20": with_params(
            replace(custom(cat, ONE_ARM, "mechsuit", "gorgadon"), kaiju_hp=9), battle_rounds=2
        ),
    }


@pytest.mark.parametrize(
    "name",
    [
        "crits",
        "rebuild",
        "keystone",
        "punch",
        "two_attacks",
        "torso_lost",
        "redirect",
        "max_power",
        "sure_crit",
        "restore",
        "null_attack",
        "d20",
    ],
)
def test_dp_equals_brute_force(cat, name):
    b = tiny(cat)[name]
    dp = ex.outcome(b)
    assert dp == ex.brute_force(b)
    assert sum(dp.joint.values()) == 1
    assert len(dp.joint) >= 2, "a battle that can go more than one way"
    # the rules the battle is there for do come up (the reference engine's tallies)
    played = ref.play([b], np.zeros(500, np.int64), np.random.default_rng(5))
    for tally in EVENTS[name]:
        assert played[tally].max() > 0, tally


EVENTS = {
    "crits": ("crits",),
    "rebuild": ("rebuilds", "punches", "parts_lost"),
    "keystone": ("rebuilds", "parts_lost"),
    "punch": ("punches", "parts_lost"),
    "two_attacks": ("crits", "parts_lost"),
    "torso_lost": ("parts_lost",),
    "redirect": ("intervened",),
    "max_power": ("intervened", "parts_lost"),
    "sure_crit": ("intervened", "crits"),
    "restore": ("intervened", "parts_lost"),
    "null_attack": ("intervened",),
    "d20": ("crits",),
}


def test_sums_to_one_on_every_catalog_battle(cat):
    for m in cat.mechs:
        for k in cat.kaiju:
            for policy in cat.policies:
                o = ex.outcome(catalog_battle(cat, m, k, policy=policy))
                assert sum(o.joint.values()) == 1
                assert sum(o.grades.values()) == 1
                assert sum(o.p_result(c) for c in range(3)) == 1


def test_one_arm_wins_only_on_a_crit(cat):
    # arm_1 alone (4 a hit, 8 on a crit at Accuracy 2 of 20) v Gorgadon at 5 HP, one
    # round: a win only on the crit, P = 2/20 = 1/10; else 1 of 5 HP left (20%, under
    # 25%): D+ 1.3. E[GPA] = 2 * 1/10 + 13/10 * 9/10 = 20/100 + 117/100 = 137/100.
    b = with_params(
        replace(custom(cat, ONE_ARM, "mechsuit", "gorgadon"), kaiju_hp=5), battle_rounds=1
    )
    o = ex.outcome(b)
    assert o.p_win == Fraction(1, 10)
    assert o.p_result(1) == Fraction(9, 10)
    assert o.hp_left_dist() == {0: Fraction(1, 10), 1: Fraction(9, 10)}
    assert o.gpa_dist() == {Fraction(2): Fraction(1, 10), Fraction(13, 10): Fraction(9, 10)}
    assert o.expected_gpa == Fraction(137, 100)
    assert o.rounds_dist() == {1: Fraction(1)} and o.expected_rounds == 1
    # Two rounds at 9 HP: 4 + 4 = 8 falls short, any crit wins (8 + 4 = 12):
    # P = 1 - (18/20)^2 = 19/100, else 1 HP left after round 2.
    # (a crit in round 1 leaves 1 HP: never a win in round 1)
    o = ex.outcome(with_params(replace(b, kaiju_hp=9), battle_rounds=2))
    assert o.joint == {(0, 0, 2): Fraction(19, 100), (1, 1, 2): Fraction(81, 100)}


def test_two_arms_one_round(cat):
    # Both Arms v Gorgadon at 9 HP, one round: arm_1 crit (2/20): 8 + (1 or 2) + 1 >= 10:
    # a win. Else arm_2 crit (18/20 * 2/20 = 9/100): 4 + 2 + 1 = 7, 2 left (22%: D+
    # 1.3); no crit (18/20 * 18/20 = 81/100): 6, 3 left (33%: D 1.0).
    # E[GPA] = 2/10 + 13/10 * 9/100 + 81/100 = 1127/1000.
    b = with_params(
        replace(catalog_battle(cat, "mechsuit_lesson", "gorgadon"), kaiju_hp=9), battle_rounds=1
    )
    o = ex.outcome(b)
    assert o.joint == {
        (0, 0, 1): Fraction(1, 10),
        (1, 2, 1): Fraction(9, 100),
        (1, 3, 1): Fraction(81, 100),
    }
    assert o.expected_gpa == Fraction(1127, 1000)


def test_headless_punch_one_round(cat):
    # Only a Torso, the kaiju at 1 HP: the d3 punch hits on 2 or 3: P(win) = 2/3.
    b = custom(cat, {"torso": "torso-vehicle-melee"}, "beast", "gorgadon")
    o = ex.outcome(with_params(replace(b, kaiju_hp=1), battle_rounds=1))
    assert o.p_win == Fraction(2, 3) and o.p_result(1) == Fraction(1, 3)


@pytest.mark.parametrize(
    "mech, kaiju, traits, policy",
    [
        ("mechsuit_lesson", "gorgadon", ("spined",), "steady"),
        ("mechsuit_lesson", "thornmaw", ("spined",), "keystone"),
        ("heavy_hitter", "thornmaw", (), "steady"),
    ],
)
def test_reference_within_4_standard_errors(cat, mech, kaiju, traits, policy):
    b = catalog_battle(cat, mech, kaiju, traits=traits, policy=policy)
    o = ex.outcome(b)
    n = 4000
    got = metrics(ref.play([b], np.zeros(n, np.int64), np.random.default_rng(2024)))
    win = {1: o.p_win, 0: 1 - o.p_win}
    for name, dist in (
        ("win", win),
        ("gpa", o.gpa_dist()),
        ("rounds", o.rounds_dist()),
        ("kaiju_hp_left", o.hp_left_dist()),
    ):
        mean = sum(v * q for v, q in dist.items())
        var = sum(v * v * q for v, q in dist.items()) - mean * mean
        se = math.sqrt(float(var) / n)
        assert abs(got[name].mean() - float(mean)) <= 4 * se + 1e-12, name
