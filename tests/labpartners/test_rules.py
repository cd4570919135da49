"""The Battle formulas of rules.py on hand-worked values, and the same answer on Python
ints and on NumPy arrays (DESIGN.md "One rule, one place": both engines, the DP and the
tables call these)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from sims.labpartners import battle, rules
from sims.labpartners.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def p(catalog):
    return catalog.params


# (power, lesson, has_head, form, type) -> damage, worked from the rulebook's order:
# Power + lesson - 1 without a Head, then Form +1/-1, then Type x2 / x0.5 (down, min 1)
ARM_CASES = [
    ((2, 0, 1, 0, 0), 2),  # plain Power 2
    ((2, 1, 1, 0, 0), 3),  # + lesson
    ((2, 0, 0, 0, 0), 1),  # no Head: -1
    ((2, 0, 1, 1, 0), 3),  # weak Form +1
    ((2, 0, 1, -1, 0), 1),  # resisted Form -1
    ((2, 0, 1, 1, 1), 6),  # (2 + 1) x 2
    ((3, 0, 1, 0, -1), 1),  # 3 // 2 = 1
    ((1, 0, 1, 0, -1), 1),  # 1 // 2 = 0, at least 1 when resisted
    ((3, 1, 1, 1, -1), 2),  # (3 + 1 + 1) // 2 = 2
    ((1, 0, 0, -1, 1), 0),  # 1 - 1 - 1 < 0 -> 0; x2 is still 0
    ((1, 0, 0, 0, -1), 0),  # 0 before the Type step stays 0 (nothing to halve)
    ((3, 1, 0, 1, 1), 8),  # (3 + 1 - 1 + 1) x 2
]


@pytest.mark.parametrize(("args", "want"), ARM_CASES)
def test_arm_damage_in_the_rulebook_order(p, args, want):
    assert rules.arm_damage(*args, p) == want


def test_arm_damage_on_arrays_equals_ints(p):
    args = np.array([a for a, _ in ARM_CASES]).T
    got = rules.arm_damage(*args, p)
    assert got.tolist() == [w for _, w in ARM_CASES]


def test_combo_crit_and_bonus(p):
    # both Arms Power 2 and both damaging: +1; one dealt nothing: no combo
    assert rules.combo(2, 2, 3, 1, p) == 1
    assert rules.combo(2, 2, 3, 0, p) == 0
    assert rules.combo(1, 2, 3, 1, p) == 0
    # crit doubles the Arm, then the per-Arm bonus: 3 x 2 + 1 = 7; an Arm at 0 gets none
    assert rules.arm_hit(3, True, 1, p) == 7
    assert rules.arm_hit(3, False, 1, p) == 4
    assert rules.arm_hit(0, True, 1, p) == 0
    assert rules.arm_hit(1, False, -2, p) == 0  # a negative bonus never takes HP back
    assert rules.volley(7, 4, 1) == 12
    hits = rules.arm_hit(
        np.array([3, 3, 0, 1]), np.array([True, False, True, False]), np.array([1, 1, 1, -2]), p
    )
    assert hits.tolist() == [7, 4, 0, 0]


def test_accuracy_speed_and_crit_chance(p):
    # Battle/crits: 1 base, +1 Clockwork, +1 lesson -> 5%, 10%, 15%; no Head or immune: 0
    assert [rules.accuracy(1, c, les, 0, p) for c, les in [(0, 0), (1, 0), (1, 1)]] == [1, 2, 3]
    assert rules.accuracy(0, 1, 1, 0, p) == 0 and rules.accuracy(1, 1, 1, 1, p) == 0
    assert [rules.p_crit(a, p) for a in (0, 1, 2, 3)] == [
        0,
        Fraction(1, 20),
        Fraction(1, 10),
        Fraction(3, 20),
    ]
    assert rules.crits(3, 3) and not rules.crits(4, 3)
    # Battle/initiative: 2, +1 Beast, +1 lesson; no Legs 0; ties go to the mech
    assert [rules.mech_speed(1, b, les, p) for b, les in [(0, 0), (1, 0), (1, 1)]] == [2, 3, 4]
    assert rules.mech_speed(0, 1, 1, p) == 0
    assert rules.mech_acts_first(2, 2, False) and not rules.mech_acts_first(2, 3, False)
    assert rules.mech_acts_first(0, 4, True)


def test_incoming_punch_and_regen(p):
    # Torso Armor 2, fully: 5 -> 3, 2 -> 0 (nothing); no Torso: doubled, 5 -> 10
    assert [rules.incoming(d, 1, p) for d in (5, 2, 1)] == [3, 0, 0]
    assert rules.incoming(5, 0, p) == 10
    assert rules.incoming(5, 1, p, armor=0) == 5
    got = rules.incoming(np.array([5, 2, 5]), np.array([True, True, False]), p)
    assert got.tolist() == [3, 0, 10]
    # the punch: 1 with a Head; without, d3 = 1 misses (1 time in 3)
    assert rules.punch(1, 1, p) == 1
    assert [rules.punch(0, r, p) for r in (1, 2, 3)] == [0, 1, 1]
    assert rules.regenerate(10, 1, 14) == 11 and rules.regenerate(14, 1, 14) == 14


def test_grades_at_their_edges(catalog):
    # grades.toml order: C (win), D+ (< 25%), D (<= 50%), D- (<= 75%), F; hp_start 20:
    # left 4 = 20% D+, left 5 = 25% D, left 10 = 50% D, left 15 = 75% D-, left 16 = 80% F
    g = catalog.grades
    ids = {left: g[rules.grade_index(0, left, 20, g)].id for left in (0, 4, 5, 10, 11, 15, 16)}
    assert ids == {0: "d_plus", 4: "d_plus", 5: "d", 10: "d", 11: "d_minus", 15: "d_minus", 16: "f"}
    assert g[rules.grade_index(1, 0, 20, g)].id == "c"
    assert rules.gpa(rules.grade_index(0, 4, 20, g), g) == Fraction(13, 10)
    won = np.array([1, 0, 0, 0])
    left = np.array([0, 5, 15, 16])
    assert rules.grade_index(won, left, 20, g).tolist() == [0, 2, 3, 4]


def test_lesson(p):
    assert [bool(rules.lesson_took(m, p)) for m in range(6)] == [False] * 3 + [True] * 3
    assert rules.lesson_bonus(True, True, p) == 1 and rules.lesson_bonus(True, False, p) == 0


def test_compiled_battle_reads_the_rules(catalog):
    """mechsuit_lesson (3 Mechsuit parts: the lesson takes) v gorgadon (weak Mechsuit and
    Sonic, resists Vehicle and Projectile), worked by hand from the catalog."""
    b = battle.catalog_battle(catalog, "mechsuit_lesson", "gorgadon")
    # Legs legs-mechsuit-energy: 4 HP, Speed 2 + lesson 1 = 3; Torso mechsuit: 5 + 1 = 6;
    # Head head-clockwork-energy: 3 HP, Accuracy 1 + 1 = 2
    assert b.hp[:5].tolist() == [4, 6, 3, 3, 3]
    assert b.speed[0] == 3 and b.acc[2] == 2
    # arm_1 arms-mechsuit-energy-2: 2 + 1 lesson + 1 weak Form = 4 (no Head: 3)
    # arm_2 arms-beast-projectile-2: 2, resisted Type: 1 (no Head: 1 // 2 -> at least 1)
    assert b.dmg_head[3:5].tolist() == [4, 1] and b.dmg_nohead[3:5].tolist() == [3, 1]
    # the lesson took, so Gorgadon's debuff: -1 damage per attack (5 -> 4)
    assert b.damage == 4 and b.kaiju_hp == 20 and b.kaiju_speed == 2
    # priority torso, legs, head, arms -> slots 1, 0, 2, 3, 4
    assert b.priority.tolist() == [1, 0, 2, 3, 4]


def test_traits_and_debuffs(catalog):
    # thick_hide: +4 HP, weak Sonic; swift: +1 Speed, weak Beast (flip order)
    cards = battle.mech_cards(catalog, catalog.mechs["beast_pack"])
    f = battle.foe(
        catalog.kaiju["thornmaw"],
        [catalog.traits["thick_hide"], catalog.traits["swift"]],
        cards,
        "beast",
        catalog.params,
    )
    # Thornmaw 18 HP + 4; Speed 2 + 1, then its debuff (2+ Beast parts): -1 -> 2
    assert f.hp == 22 and f.speed == 2 and f.debuffed
    assert "sonic" in f.weak_types and "beast" in f.weak_forms
    # a kaiju both weak and resistant to a Type after a Trait is neither: Cinderwyrm
    # resists Energy, Howler adds Energy as a weakness; arms-beast-energy-1 is Beast
    # (resisted: -1) and Energy (neither now): 1 - 1 = 0, nothing to halve or double
    howl = battle.foe(
        catalog.kaiju["cinderwyrm"], [catalog.traits["howler"]], cards, "beast", catalog.params
    )
    assert {"energy"} <= howl.weak_types & howl.resist_types
    b = battle.compile_battle(catalog, cards, "beast", howl, catalog.policies["steady"])
    # beast_pack's lesson took (5 Beast parts): arm_2 = 1 + 1 lesson - 1 Form = 1, Type 0
    assert b.dmg_head[4] == 1


def test_every_slot_and_spare_combination_compiles(catalog):
    """Gaps in any slot compile (a gap has no hit points and deals nothing)."""
    mech = catalog.mechs["mechsuit_lesson"]
    for mask in itertools.product((0, 1), repeat=5):
        cards = [
            c if keep else None
            for c, keep in zip(battle.mech_cards(catalog, mech), mask, strict=True)
        ]
        f = battle.foe(catalog.kaiju["gorgadon"], [], cards, mech.lesson, catalog.params)
        b = battle.compile_battle(catalog, cards, mech.lesson, f, catalog.policies["steady"])
        assert b.present[:5].tolist() == list(mask)
        assert (b.hp[:5] > 0).tolist() == [bool(m) for m in mask]


def test_trait_clamps():
    """Traits never take a kaiju below 1 HP or its damage, Speed and regen below 0:
    Frenzy's weakness set to -20 HP on Lumenyx (14 HP) leaves 1; Shrouded's -20 damage
    leaves 0; Ancient's -20 Speed leaves 0 (then Lumenyx's Speed 3 + 0 - 20 -> 0)."""
    cat = load_catalog(
        CATALOGS,
        overrides={
            "trait.frenzy.weakness_amount": 20,
            "trait.shrouded.weakness_amount": 20,
            "trait.ancient.weakness_amount": 20,
        },
    )
    f = battle.foe(
        cat.kaiju["lumenyx"],
        [cat.traits[t] for t in ("frenzy", "shrouded", "ancient")],
        (),
        "beast",
        cat.params,
    )
    # frenzy: +1 damage then -20 HP -> 1; shrouded: -20 damage -> 0; ancient: +1 regen,
    # -20 Speed -> 0
    assert (f.hp, f.damage, f.speed, f.regen) == (1, 0, 0, 2)


def test_result_codes_and_the_kaiju_defeated():
    """000 Battle: a win, the city or the mech destroyed (the engines' ``result`` codes);
    the kaiju is defeated at 0 HP or below, on ints and arrays alike."""
    assert rules.RESULTS[rules.WIN] == "win" and rules.RESULTS[rules.CITY] == "city"
    assert rules.RESULTS[rules.DESTROYED] == "destroyed" and rules.ONGOING not in range(3)
    assert rules.kaiju_defeated(0) and rules.kaiju_defeated(-3) and not rules.kaiju_defeated(1)
    assert rules.kaiju_defeated(np.array([-1, 0, 1])).tolist() == [True, True, False]
