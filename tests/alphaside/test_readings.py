"""ALPHASIDE's readings as data (catalogs/alphaside/readings.toml) and its two reading
switches, each alternative against numbers derived by hand from the rulebook (004) and
the game procedure (sims/alphaside/battle.py's docstring, reference.py's readings R1..R17).

``damage_x``: "Each hit deals 1 damage. Damage+X effects add to that combat damage. Each
active Shield blocks 1 damage" (Damage, Shields & defeat). ``after_shields`` (in force):
max(hits - Shields, 0) + X; ``before_shields``: max(hits + X - Shields, 0), the Shields
flipping for X too; X only with a hit rolled, either way.

``advance``: "It is a free move, so you can Advance before or after your Primary Action"
(Playing on ALPHASIDE). ``either``: a unit attacks first and Advances after when its
policy's weapon weighs strictly more from where it stands than from where the Advance
would take it (reading R17).
"""

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sims.alphaside import KIND_FILES, claims, reference, rules, vector
from sims.alphaside.battle import compile_battle, duel, sample_scenarios
from sims.alphaside.catalog import load_catalog
from sims.core import readings
from sims.core.batch import ScriptedDice
from sims.core.claims import run_claims
from tests.conformance import replay
from tests.conftest import CATALOGS

RULEBOOK = Path(__file__).parents[2] / ".." / "shared" / "seeds" / "004_1f484c5fe6094f24.txt"
BEFORE = {"damage_x": "before_shields"}
EITHER = {"advance": "either"}
STOP = {"push_end": "stop"}
ONE = np.zeros(1, np.int64)
SHORT = {"phases": 1, "tactics_deck": 12, "spaces": 4, "tactics_draw": 0}
KEEP = [(k, k) for k in range(9, 1, -1)]  # one side's shuffle that keeps squad order


def d10(*faces: int) -> list[tuple[int, int]]:
    return [(10, f) for f in faces]


def scripted(battle, script) -> dict[str, int]:
    """One game on a script in both engines: every face read, the same numbers."""
    out = {}
    for engine in (reference, vector):
        dice = ScriptedDice(script)
        res = engine.play_dice([battle], ONE, dice)
        assert dice.used == len(script), f"{engine.__name__} read {dice.used} of {len(script)}"
        out[engine.__name__] = {k: v.item() for k, v in res.items()}
    assert out[vector.__name__] == out[reference.__name__]
    return out[vector.__name__]


@pytest.fixture(scope="module")
def book() -> readings.Readings:
    return readings.load(CATALOGS, "alphaside")


# ---- readings.toml ------------------------------------------------------------------------


def test_readings_load_and_agree_with_the_game(book):
    assert len(book.readings) >= 20
    assert readings.problems(book, load_catalog, CATALOGS) == []
    assert {"damage_x", "advance"} <= set(book.parameters)
    assert book.by_id("damage_x").taken == "after_shields"
    assert book.by_id("advance").alternatives == ("either",)


def test_assumptions_section_is_the_generated_one(book):
    text = (CATALOGS / "alphaside" / "ASSUMPTIONS.md").read_text()
    assert readings.section_of(text) == readings.render(book)
    assert "## Placeholders" in text and "## What the rulebook fixes" in text


def test_quoted_words_are_the_rulebooks(book):
    """Every quoted sentence is the rulebook's own (whitespace aside)."""
    if not RULEBOOK.is_file():
        pytest.skip("the rulebook seed is not beside the checkout")
    flat = " ".join(RULEBOOK.read_text().split())
    for r in book.readings:
        said = re.findall(r'"([^"]+)"', r.words) if r.words.startswith("(") else [r.words]
        for words in said:
            for sentence in re.split(r"(?<=\.) ", words):
                assert sentence in flat, (r.id, sentence)


def test_placeholder_ranges_keep_the_catalog_valid_and_the_claims(book):
    """At both ends of every range at once the catalog loads, compiles its battles and
    still reproduces every rulebook claim."""
    items = readings.placeholders(book, CATALOGS, KIND_FILES)
    names = {p.name for p in items}
    assert "unit.bulwark.hp" in names and "weapon.rifle.strength" in names
    assert not any(n.endswith(".crit_from") for n in names)  # the page names crit faces
    assert (
        next(p for p in items if p.name == "unit.bulwark.hp").low,
        next(p for p in items if p.name == "unit.bulwark.hp").high,
    ) == (6, 10)  # 8 HP, a quarter either way
    for end in ("low", "high"):
        c = load_catalog(CATALOGS, overrides={p.name: getattr(p, end) for p in items})
        sample_scenarios(c)
        results = run_claims(CATALOGS / "alphaside" / "claims.toml", claims.CHECKS, c)
        assert all(r.passed for r in results), [r.claim.id for r in results if not r.passed]


# ---- damage_x ---------------------------------------------------------------------------


def test_damage_x_by_hand():
    after = load_catalog(CATALOGS).params
    before = load_catalog(CATALOGS, overrides=BEFORE).params
    hits, shields, plus = np.array([0, 1, 2, 3]), 2, 1
    # after: max(h - 2, 0) + 1 with a hit: 0, 0 + 1, 0 + 1, 1 + 1
    assert rules.combat_damage(hits, shields, plus, False, after).tolist() == [0, 1, 1, 2]
    # before: max(h + 1 - 2, 0) with a hit: 0, 0, 1, 2
    assert rules.combat_damage(hits, shields, plus, False, before).tolist() == [0, 0, 1, 2]
    # no hit, no Damage+X either way, no Shield flipped by it
    assert int(rules.combat_damage(0, 0, 2, False, before)) == 0
    assert int(rules.met_by_shields(0, 2, before)) == 0
    # 1 hit + 1 against 2 Shields: before flips both, after only the one the hit met
    assert int(rules.blocked(rules.met_by_shields(1, 1, before), 2)) == 2
    assert int(rules.blocked(rules.met_by_shields(1, 1, after), 2)) == 1
    # Fracture counts the damage after Shields: 4 hits + 1 against 2 Shields is 3 -> +3
    assert int(rules.combat_damage(4, 2, 1, True, before)) == 6
    assert int(rules.combat_damage(2, 2, 1, True, before)) == 1  # 1 < 3: no Fracture


def test_damage_x_expected_and_damage_table():
    """One die, Accuracy 0, crit Damage+2 against 2 Shields: only a crit (9-10, 1/5)
    damages; after Shields 0 + 2, before max(1 + 2 - 2, 0) = 1. Two dice, Damage+1, 2
    Shields (damage.csv's damage_1): after, any crit deals 1 (1 - (4/5)^2 = 9/25); before,
    only two hits with a crit (7/10^2 - 1/2^2 = 6/25)."""
    after, before = load_catalog(CATALOGS), load_catalog(CATALOGS, overrides=BEFORE)
    assert rules.expected_damage(1, 0, 9, 2, 2, after.params) == Fraction(2, 5)
    assert rules.expected_damage(1, 0, 9, 2, 2, before.params) == Fraction(1, 5)
    assert claims.damage_dist(after, 2, 0, 2, "damage_1") == {
        "0": Fraction(16, 25),
        "1": Fraction(9, 25),
    }
    assert claims.damage_dist(before, 2, 0, 2, "damage_1") == {
        "0": Fraction(19, 25),
        "1": Fraction(6, 25),
    }


def test_damage_x_hand_traced_game():
    """Grunt v bulwark, Bases 4 hexes apart, one Phase of 4 spaces, no cards.
    t1 A grunt: no enemy, Advance to hex 3, Energize (token 3). t1 B bulwark deploys on
    hex 4 (2 Shields): keep_range cannot back off its Base, so 1 hex to hex 3; Vulcan
    (per TL, token 2): misses. t2 bulwark backs off to hex 4 (Engaged: 2 hexes, 1 room);
    Vulcan (token 3): misses. t3 A (B acted last) grunt at 1 hex: Rifle (token 6):
    9, 1, 1, 1 = one hit, a crit, Damage+1 against 2 Shields: after 0 + 1 = 1, before
    max(1 + 1 - 2, 0) = 0. t3, t4 the bulwark's Vulcan misses twice. 0 VP each: B, the
    last to act, wins."""
    script = KEEP + KEEP + d10(1, 1) + d10(1, 1) + d10(9, 1, 1, 1) + d10(1, 1) + d10(1, 1)
    common = dict(winner=1, attacks_a=1, attacks_b=4, hits_a=1, crits_a=1, tl_attack_a=3)
    for sets, dealt in (({}, 1), (BEFORE, 0)):
        c = load_catalog(CATALOGS, overrides={**SHORT, "board_length": 4, **sets})
        out = scripted(duel(c, "grunt", "bulwark"), script)
        assert {k: out[k] for k in common} == common
        assert (out["damage_a"], out["damage_w0_a"]) == (dealt, dealt)


# ---- advance ----------------------------------------------------------------------------


def test_advance_either_hand_traced_game():
    """Sniper (A) v grunt (B), Bases 8 hexes apart, one Phase of 4 spaces, no cards.
    t1 A sniper: no enemy, Advance 3 to hex 3, Energize (Energy 1, token 3). t1 B grunt
    deploys on hex 8, Advances 3 to hex 5 (2 from the sniper): Rifle (token 4), misses.
    t3 A sniper, the grunt 2 hexes away. Per TL, its Vulcan (2 dice at 7/10, 1 TL: 1.4)
    outweighs its Long Rifle (about 0.84).
    - before: it backs off 3 hexes to its Base (hex 0, 5 away), where only the Long Rifle
      reaches: Targeting (+1), 3 dice miss, token 7. t4 B grunt closes to 2 hexes, Rifle
      (token 7), misses. 0 VP each, B acted last: B wins.
    - either: the Vulcan from 2 hexes weighs more, so it attacks first (Targeting +1, 2
      dice miss, token 4), then backs off to hex 0. t4 both there, A acted last: B's
      grunt closes in, Rifle, misses (token 7); A's sniper cannot back off its Base (its
      Advance changes nothing, so it comes first): Vulcan, misses (token 5). A acted
      last: A wins."""
    miss4 = d10(1, 1, 1, 1)
    before = KEEP + KEEP + miss4 + d10(1, 1, 1) + miss4
    either = KEEP + KEEP + miss4 + d10(1, 1) + miss4 + d10(1, 1)
    c = load_catalog(CATALOGS, overrides={**SHORT, "board_length": 8})
    out = scripted(duel(c, "sniper", "grunt"), before)
    want = dict(winner=1, attacks_a=1, tl_attack_a=4, tl_w0_a=4, tl_w1_a=0, activations_a=2)
    assert {k: out[k] for k in want} == want
    c = load_catalog(CATALOGS, overrides={**SHORT, "board_length": 8, **EITHER})
    out = scripted(duel(c, "sniper", "grunt"), either)
    want = dict(winner=0, attacks_a=2, tl_attack_a=2, tl_w0_a=0, tl_w1_a=2, activations_a=3)
    assert {k: out[k] for k in want} == want
    assert (out["attacks_b"], out["tl_attack_b"]) == (2, 6)


def test_advance_after_lands_where_the_advance_goes():
    """The reference state after t3 of the game above (either): the sniper attacked from
    hex 3 and then stood on its Base (hex 0); its Slow was never set."""
    c = load_catalog(CATALOGS, overrides={**SHORT, "board_length": 8, **EITHER})
    b = duel(c, "sniper", "grunt")
    dice = ScriptedDice(KEEP + KEEP + d10(1, 1, 1, 1) + d10(1, 1))
    s = reference.setup(b, dice)
    st = reference.static(b)
    for t in range(1, 4):
        while (m := reference.next_up(s, t)) is not None:
            reference.activate(b, st, s, dice, m, t)
    sniper, grunt = s.mechs[0], s.mechs[5]
    assert (sniper.pos, sniper.time, grunt.pos, grunt.time) == (0, 4, 5, 4)
    assert s.tally["tl_w1"][0] == 1 and s.tally["attacks"][0] == 1


# ---- push_end ---------------------------------------------------------------------------


def test_push_end_hand_traced_game():
    """Bulwark (A, assault here, Field Repair for 1 Energy) v grunt with 1 Shield, Bases 4
    hexes apart, one Phase of 4 spaces, no cards (tests/alphaside/test_reference.py's
    push game). t1 A: to hex 3, Energize. t1 B grunt to hex 3, Rifle: 9, 9, 5, 1 = 3 hits,
    Damage+1: 3 - 2 + 1 = 2. t3 A: repair; Cannon: 10, 6, 1, 1, 1 = 2 hits, a crit: Push
    2, but the grunt has 1 hex to its Base. collision: 2 - 1 Shield = 1, then 2 hits - 0
    Shields = 2: 3 dealt. stop: no damage from the end, the Shield still up: 2 - 1 = 1
    dealt. t4 B: Rifle misses. 0 VP each: B wins."""
    script = KEEP + KEEP + d10(9, 9, 5, 1) + d10(10, 6, 1, 1, 1) + d10(1, 1, 1, 1)
    small = {**SHORT, "tactics_deck": 9, "tactics_per_phase": 0, "board_length": 4}
    fields = {"unit.bulwark.policy": "assault", "ability.field_repair.energy": 1}
    for sets, dealt in (({}, 3), (STOP, 1)):
        c = load_catalog(CATALOGS, overrides={**small, **fields, "unit.grunt.shields": 1, **sets})
        out = scripted(duel(c, "bulwark", "grunt"), script)
        want = dict(winner=1, hits_a=2, crits_a=1, damage_b=2, damage_a=dealt, damage_w0_a=dealt)
        assert {k: out[k] for k in want} == want


# ---- the engines agree under each alternative -------------------------------------------


@pytest.mark.parametrize("sets", [BEFORE, EITHER, STOP, {**BEFORE, **EITHER, **STOP}], ids=str)
def test_vector_replays_the_references_dice(sets):
    """The reference's dice on every sample battle, replayed: the vector engine reads
    every face in the same order and gives the same results."""
    c = load_catalog(CATALOGS, overrides=sets)
    for i, (_, b) in enumerate(sample_scenarios(c)):
        for seed in range(4):  # an artillery or a sniper Advancing after (R17) among them
            replay((reference.play_dice, vector.play_dice), b, np.random.default_rng(40 * i + seed))


@pytest.mark.parametrize("sets", [BEFORE, EITHER, STOP], ids=str)
def test_reference_and_vector_within_four_standard_errors(sets):
    """Independent dice: the two engines' means of every result on a squad game and a
    duel agree within 4 standard errors."""
    c = load_catalog(CATALOGS, overrides=sets)
    for b, n_ref in (
        (compile_battle(c, "zeon_strike", "federation_line"), 100),
        (duel(c, "artillery", "bulwark"), 300),
    ):
        v = vector.play([b], np.zeros(3000, np.int32), np.random.default_rng(5))
        r = reference.play([b], np.zeros(n_ref, np.int32), np.random.default_rng(6))
        for key in ("winner", "vp_a", "vp_b", "damage_a", "damage_b", "attacks_a"):
            x, y = v[key].astype(float), r[key].astype(float)
            se = np.sqrt(x.var() / len(x) + y.var() / len(y))
            assert abs(x.mean() - y.mean()) <= 4 * se + 1e-9, (b.label, key)
