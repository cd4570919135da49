"""Alluvion's readings as data (catalogs/alluvion/readings.toml) and the reading switches
it declares: ``skill_dice_use`` (fill | any), ``initiative_tie`` (sum | roll),
``direct_hits_carry`` (battle | attack), each held to values derived by hand from the
rulebook (001 Skill, Wild Dice; Initiative; Damage) and played alike by both engines.

Numbers used (rules.toml): Skill 2d6 a round; Attack 1d6 for the first weapon system,
1d8 for each later one; no Defense dice without a defensive system; a hit on Attack +
Spot - Defense >= 1 rolls that many d6; ranged Direct Hits on 5-6 against an exposed
target; 2 Direct Hits a system, a loss die each (1: live system 0); one action where
``actions = 1``; start range 12 (inside direct fire range 20: a knight:D's gunline
policy holds and fires). Policy gunline (a loadout code's default) blocks: the smallest
die that makes the attack miss, else the smallest.
"""

from __future__ import annotations

import re
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from sims.alluvion import reference, rules, vector
from sims.alluvion.battle import duel
from sims.alluvion.catalog import load_catalog
from sims.alluvion.exact import first_two
from sims.core import readings
from sims.core.batch import ScriptedDice
from tests.conftest import CATALOGS

ONE = np.zeros(1, np.int64)
D2_A = (2, 1)  # the initiative d2: 1 A first
ALTERNATIVES = [
    {"skill_dice_use": "any"},
    {"initiative_tie": "roll"},
    {"direct_hits_carry": "attack"},
]


def catalog(**overrides):
    return load_catalog(CATALOGS, overrides=overrides)


@pytest.fixture(scope="module")
def read() -> readings.Readings:
    return readings.load(CATALOGS, "alluvion")


# ---- the file ---------------------------------------------------------------------------


def test_readings_load_and_match_the_game(read):
    assert len(read.readings) >= 30
    assert readings.problems(read, load_catalog, CATALOGS) == []
    # the switches this game declares, with the value in force
    want = {
        "smart_defense": "ecm",
        "spot_adds_to_margin": "on",
        "system_loss": "roll",
        "direct_hits_carry": "battle",
        "skill_dice_use": "fill",
        "initiative_tie": "sum",
        "pilot_hp": 3,
        "start_range": 12,
        "round_cap": 10,
    }
    assert {k: r.taken for k, r in read.parameters.items()} == want
    assert read.parameters["round_cap"].alternatives == (30,)


def test_assumptions_section_is_generated_from_the_file(read):
    text = (CATALOGS / "alluvion" / "ASSUMPTIONS.md").read_text()
    assert readings.section_of(text) == readings.render(read)


def test_words_quote_the_rulebook(read):
    """Each reading's words are the rulebook's own (001), or say in parentheses what it
    leaves out. The seed lives beside the repository when it is there."""
    seeds = sorted((CATALOGS.parent.parent / "shared" / "seeds").glob("001_*.txt"))
    if not seeds:
        pytest.skip("the 001 rulebook is not beside this checkout")
    text = re.sub(r"\s+", " ", seeds[0].read_text())
    for r in read.readings:
        if not r.words.startswith("("):
            assert re.sub(r"\s+", " ", r.words) in text, r.id


def test_placeholder_extremes_load(read):
    """Every placeholder at the low and the high end of its range: a valid catalog."""
    from sims.alluvion.catalog import KIND_FILES

    items = readings.placeholders(read, CATALOGS, KIND_FILES)
    assert {p.name for p in items} >= {"chassis.knight.base_move", "policy.striker.rockets_from"}
    assert not any(p.name.endswith(".slots") for p in items)  # they would break loadouts
    for end in ("low", "high"):
        load_catalog(CATALOGS, overrides={p.name: getattr(p, end) for p in items})


# ---- the rules --------------------------------------------------------------------------


def test_skill_replaces_by_hand():
    fill, any_ = (SimpleNamespace(skill_dice_use=v) for v in ("fill", "any"))
    # fill: a Skill die only once the pool is spent (face 0)
    assert [rules.skill_replaces(p, s, fill) for p, s in ((3, 5), (0, 5), (0, 0))] == [
        False,
        True,
        False,
    ]
    # any: whenever the Skill die is higher; the pool's die at equal faces
    assert [rules.skill_replaces(p, s, any_) for p, s in ((3, 5), (5, 5), (6, 2), (0, 0))] == [
        True,
        False,
        False,
        False,
    ]
    got = rules.skill_replaces(np.array([3, 5, 0]), np.array([5, 5, 4]), any_)
    assert got.tolist() == [True, False, True]


def test_first_two_by_hand():
    """One d6 in the pool, 2d6 Skill. fill: the pool's die first, then the higher Skill
    die: P(6, 6) = 1/6 * P(highest of 2d6 = 6) = 1/6 * 11/36 = 11/216. any: the top two of
    3d6: P(at least two 6s) = 3 * (1/6)^2 * 5/6 + (1/6)^3 = 16/216."""
    assert first_two((6,), (6, 6))[(6, 6)] == Fraction(11, 216)
    assert first_two((6,), (6, 6), True)[(6, 6)] == Fraction(16, 216)
    # any: P(first die 1) needs all three dice 1: 1/216; fill: the pool's d6 alone, 1/6
    p_any = sum(p for (a, _), p in first_two((6,), (6, 6), True).items() if a == 1)
    p_fill = sum(p for (a, _), p in first_two((6,), (6, 6)).items() if a == 1)
    assert (p_any, p_fill) == (Fraction(1, 216), Fraction(1, 6))


def test_initiative_first_by_hand():
    tie_sum, tie_roll = (SimpleNamespace(initiative_tie=v) for v in ("sum", "roll"))
    # Aces 6 v 5: A first either way; equal Aces 5, sums 7 v 9: B with sum, the d2 with
    # roll; equal Aces and sums: the d2 either way
    for params, want in ((tie_sum, [0, 1, -1]), (tie_roll, [0, -1, -1])):
        got = [
            rules.initiative_first(6, 5, 8, 9, params),
            rules.initiative_first(5, 5, 7, 9, params),
            rules.initiative_first(5, 5, 8, 8, params),
        ]
        assert got == want
        arr = rules.initiative_first(
            np.array([6, 5, 5]),
            np.array([5, 5, 5]),
            np.array([8, 7, 8]),
            np.array([9, 9, 8]),
            params,
        )
        assert arr.tolist() == want


def test_systems_lost_by_hand():
    battle, attack = (
        SimpleNamespace(direct_hits_carry=v, hits_per_system=2) for v in ("battle", "attack")
    )
    # (before, now): 1 -> 2 loses one over the battle, none within the attack (1 hit);
    # 0 -> 3 one either way; 1 -> 5 two either way (2 + the carried one / 4 within)
    pairs = ((1, 2), (0, 3), (1, 5), (3, 4))
    assert [rules.systems_lost(b, n, battle) for b, n in pairs] == [1, 1, 2, 1]
    assert [rules.systems_lost(b, n, attack) for b, n in pairs] == [0, 1, 2, 0]


# ---- both engines on scripted dice ------------------------------------------------------


def scripted(battle, script) -> dict[str, int]:
    """One battle on a script in both engines: every face read, the same numbers."""
    out = {}
    for engine in (reference, vector):
        dice = ScriptedDice(script)
        res = engine.play_dice([battle], ONE, dice)
        assert dice.used == len(script), f"{engine.__name__} read {dice.used} of {len(script)}"
        out[engine.__name__] = {k: v.item() for k, v in res.items()}
    assert out[vector.__name__] == out[reference.__name__]
    return out[vector.__name__]


def test_skill_dice_any_scripted():
    """knight:D v knight:D, one action, one round; neither has a Defense die.
    A0 Skill 5, 2, Attack 3; B0 Skill 4, 1, Attack 2. Initiative: Ace 5 > 4, A first.
    any: A0 attacks with its Skill 5 (higher than its Attack 3). B0 blocks from its Skill
    dice 4, 1: neither makes 5 miss (5 - 4 = 1 hits), so the smallest, 1: a hit of
    margin 4, four damage dice 1 (no Direct Hit). B0 attacks with its Skill 4 (higher
    than 2); A0 blocks with its last Skill die 2: margin 2, two dice 1. A draw at the cap.
    fill: A0 attacks with 3 against B0's highest Skill 4: a miss; B0 with 2 against A0's
    Skill 5: a miss; no damage dice are read."""
    pools = [(6, 5), (6, 2), (6, 3), (6, 4), (6, 1), (6, 2)]
    any_ = scripted(
        duel(catalog(round_cap=1, actions=1, skill_dice_use="any"), "knight:D", "knight:D"),
        pools + [(6, 1)] * 4 + [(6, 1)] * 2,
    )
    want = dict(winner=2, attacks_a=1, hits_a=1, attacks_b=1, hits_b=1, direct_hits_a=0)
    assert {k: any_[k] for k in want} == want
    fill = scripted(
        duel(catalog(round_cap=1, actions=1), "knight:D", "knight:D"),
        pools,
    )
    want = dict(winner=2, attacks_a=1, hits_a=0, attacks_b=1, hits_b=0)
    assert {k: fill[k] for k in want} == want


def test_initiative_tie_roll_scripted():
    """Equal Aces 5, sums 7 (A) and 9 (B). sum: B first, no d2; roll: the d2 is read (1:
    A first). Every attack misses (Attack 1 against the highest Skill die 5)."""
    pools = [(6, 5), (6, 2), (6, 1), (6, 5), (6, 4), (6, 1)]
    for tie, script in (("sum", pools), ("roll", pools + [D2_A])):
        c = catalog(round_cap=1, actions=1, initiative_tie=tie)
        out = scripted(duel(c, "knight:D", "knight:D"), script)
        assert (out["winner"], out["hits_a"], out["hits_b"]) == (2, 0, 0)


def test_direct_hits_carry_attack_scripted():
    """knight:DD (Attack 1d6 + 1d8) v knight:D, no Skill dice, one round. Pools: A0 3
    and 2, B0 1; the d2 puts A first. A0's 3 and 2 hit (no Defense dice), each rolling one
    Direct Hit (5; 6). battle: the second makes 2, a system: the loss die 1 takes B0's
    only system, A wins. attack: each attack's one hit is lost; B0 then hits with 1
    (margin 1, a die 1) and the battle is a draw."""
    script = [(6, 3), (8, 2), (6, 1), D2_A, (6, 5), (6, 1), (6, 1), (6, 6), (6, 1), (6, 1)]
    for carry, want in (
        ("battle", dict(winner=0, systems_lost_b=1, direct_hits_a=2, hits_b=0)),
        ("attack", dict(winner=2, systems_lost_b=0, direct_hits_a=2, hits_b=1)),
    ):
        c = catalog(round_cap=1, skill_dice=0, direct_hits_carry=carry)
        out = scripted(duel(c, "knight:DD", "knight:D"), script)
        assert {k: out[k] for k in want} == want, carry


# ---- reference and vector agree under each alternative ----------------------------------


@pytest.mark.parametrize("overrides", ALTERNATIVES, ids=lambda o: "-".join(map(str, *o.items())))
def test_engines_agree_within_4_se(overrides):
    """brawler v phantom (grapples, Skill dice on every pool, ECM against Smart) and
    gunner v lancer: side A's score, hits and rounds within 4 standard errors."""
    c = catalog(**overrides)
    battles = [duel(c, "brawler", "phantom"), duel(c, "gunner", "lancer")]
    n = 300
    ids = np.repeat(np.arange(len(battles)), n)
    ref = reference.play(battles, ids, np.random.default_rng(1))
    vec = vector.play(battles, ids, np.random.default_rng(2))
    for i in range(len(battles)):
        rows = slice(i * n, (i + 1) * n)
        for key in ("winner", "hits_a", "hits_b", "rounds"):
            x = ref[key][rows].astype(float)
            y = vec[key][rows].astype(float)
            if key == "winner":
                x, y = (x == 0) + (x == 2) / 2, (y == 0) + (y == 2) / 2
            se = np.sqrt(x.var() / n + y.var() / n)
            assert abs(x.mean() - y.mean()) <= 4 * max(se, 1e-9), (i, key)


def test_reference_dice_replayed_under_every_alternative():
    """The reference's dice on random battles (squads, morale, ambushes, cover), replayed
    into the vector engine under all three alternatives at once: the same faces read,
    the same results."""
    from tests.alluvion.test_vector import random_battles
    from tests.conformance import replay

    c = catalog(**{k: v for o in ALTERNATIVES for k, v in o.items()})
    for i, b in enumerate(random_battles(c, 12, 5)):
        for seed in range(2):
            replay((reference.play_dice, vector.play_dice), b, np.random.default_rng(10 * i + seed))
