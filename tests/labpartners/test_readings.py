"""Lab Partners' readings as data (catalogs/labpartners/readings.toml): they load and
agree with the game, ASSUMPTIONS.md holds their generated section, the placeholder ranges
keep the catalog valid and the rulebook claims true; and the two new reading switches,
each against a battle traced by hand from the rulebook, in both engines, and the engines
within 4 standard errors of each other under each alternative."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sims.core import readings as R
from sims.core.batch import ScriptedDice
from sims.core.claims import run_claims
from sims.core.runner import simulate
from sims.labpartners import battle as bt
from sims.labpartners import reference, rules, vector
from sims.labpartners.catalog import KIND_FILES, SLOTS, load_catalog
from sims.labpartners.claims import CHECKS, round_one_hits
from tests.conftest import CATALOGS

GAME = "labpartners"
ONE = np.zeros(1, np.int64)


@pytest.fixture(scope="module")
def readings() -> R.Readings:
    return R.load(CATALOGS, GAME)


def test_readings_load_and_agree_with_the_game(readings) -> None:
    assert R.problems(readings, load_catalog, CATALOGS) == []
    ids = {r.id for r in readings.readings}
    # the switches the rules already had, and the two new ones, are readings
    for name in ("kaiju_targets", "resisted_floor", "rebuild_source", "battle_rounds"):
        assert readings.parameters[name].switchable, name
    assert {"battle_end", "arm_damage_order", "tactician", "turn", "scoring"} <= ids
    assert readings.by_id("kaiju_targets").taken == "priority"
    assert readings.by_id("resisted_floor").alternatives == ("always",)


def test_assumptions_md_holds_the_generated_section(readings) -> None:
    text = (CATALOGS / GAME / "ASSUMPTIONS.md").read_text()
    assert R.section_of(text) == R.render(readings)
    # the hand-written readings prose is gone; the placeholders table stays
    assert "## Readings (the engines" not in text and "## Placeholders" in text


def test_placeholder_ranges_keep_the_catalog_valid_and_the_claims_true(readings) -> None:
    items = R.placeholders(readings, CATALOGS, KIND_FILES)
    names = {p.name for p in items}
    assert "kaiju.gorgadon.hp" in names and "trait.thick_hide.strength_amount" in names
    # the rulebook's numbers never move: the kaiju Speeds, and the attack counts
    assert not any(n.endswith((".speed", ".attacks")) for n in names)
    # the claims' two-attack kaiju: 3..4 (2 is soaked whole, 5 kills the claim's Head)
    by = {p.name: (p.low, p.high) for p in items}
    assert by["kaiju.cinderwyrm.damage"] == (3, 4) and by["kaiju.gorgadon.hp"] == (15, 25)
    for side in ("low", "high"):
        catalog = load_catalog(CATALOGS, overrides={p.name: getattr(p, side) for p in items})
        failed = [
            r.claim.id
            for r in run_claims(CATALOGS / GAME / "claims.toml", CHECKS, catalog)
            if not r.passed
        ]
        assert failed == [], side


# ---- kaiju_targets: "a two-attack kaiju hits the two most-intact parts" ------------------

# Cinderwyrm (assumed: HP 16, 2 attacks of 3, priority Head, Torso, Legs, Arms; Speed 4,
# the rulebook's) against an armless mech: Legs 4 HP, Torso 5, Head 3 (rules.toml), no
# lesson (2 Mechsuit parts). The kaiju acts first (4 > 2); each attack deals 3 - 2 Armor
# = 1, 6 once the Torso is gone; the mech punches 1 (with no Head, a d3 that misses on 1).
MECH = {
    "legs": "legs-mechsuit-energy",
    "torso": "torso-mechsuit-melee",
    "head": "head-beast-energy",
}


def _both(battle: bt.Battle, script: list[tuple[int, int]]) -> dict[str, int]:
    """One battle in both engines on a script: every face read, the same numbers."""
    out = []
    for engine in (reference, vector):
        dice = ScriptedDice(script)
        res = engine.play_dice([battle], ONE, dice)
        assert dice.used == len(script), engine.__name__
        out.append({k: v.item() for k, v in res.items()})
    assert out[0] == out[1]
    return out[0]


def _cinderwyrm(targets: str) -> bt.Battle:
    catalog = load_catalog(CATALOGS, overrides={"kaiju_targets": targets})
    cards = tuple(catalog.cards[MECH[s]] if s in MECH else None for s in SLOTS)
    foe = bt.foe(catalog.kaiju["cinderwyrm"], [], cards, "mechsuit", catalog.params)
    return bt.compile_battle(catalog, cards, "mechsuit", foe, catalog.policies["steady"])


def test_kaiju_targets_round_one() -> None:
    """Round 1: by the list, Head (3 -> 2) and Torso (5 -> 4); by the most HP left, the
    Torso (5) and then, of the parts not hit yet, the Legs (4 against the Head's 3)."""
    args = ("cinderwyrm", "mechsuit", MECH)
    assert round_one_hits(load_catalog(CATALOGS), *args) == ["torso", "head"]
    most = load_catalog(CATALOGS, overrides={"kaiju_targets": "most_hp"})
    assert round_one_hits(most, *args) == ["legs", "torso"]


def test_kaiju_targets_priority_traced() -> None:
    """(Legs, Torso, Head HP after the kaiju) R1 4,4,2; R2 4,3,1; R3 the Head falls, the
    second attack takes the Torso: 4,2,-; R4 Torso and Legs 3,1,-; R5 the Torso falls and
    the second attack, doubled (6), the Legs: destroyed. Punches R1-R4 (R3, R4 on a d3: 3
    and 3 hit): 16 - 4 = 12 left."""
    got = _both(_cinderwyrm("priority"), [(3, 3), (3, 3)])
    assert got["result"] == rules.DESTROYED and got["rounds"] == 5
    assert (got["parts_lost"], got["punches"], got["kaiju_hp_left"]) == (3, 4, 12)


def test_kaiju_targets_most_hp_traced() -> None:
    """Most HP left first, ties to the earlier down the list (Head, Torso, Legs):
    R1 Torso 5->4, Legs 4->3; R2 Torso 4->3, Head 3->2 (tie with the Legs at 3: the Head
    is earlier); R3 Torso 3->2 (tie with the Legs), Legs 3->2; R4 Head 2->1, Torso 2->1;
    R5 Legs 2->1, Head 1->0 (falls; the mech punches on a d3); R6 the Torso falls, the
    Legs take 6: destroyed. Punches R1-R5: 16 - 5 = 11 left."""
    got = _both(_cinderwyrm("most_hp"), [(3, 3)])
    assert got["result"] == rules.DESTROYED and got["rounds"] == 6
    assert (got["parts_lost"], got["punches"], got["kaiju_hp_left"]) == (3, 5, 11)


def test_one_attack_kaiju_keeps_its_list() -> None:
    """most_hp reads the parenthesis of a two-attack kaiju: Gorgadon (1 attack) still
    takes the Torso first (its list: Torso, Legs, Head, Arms) whatever the HP."""
    for targets in ("priority", "most_hp"):
        catalog = load_catalog(CATALOGS, overrides={"kaiju_targets": targets})
        assert round_one_hits(catalog, "gorgadon", "mechsuit", MECH) == ["torso"]


# ---- resisted_floor: "min 1 if resisted" on an Arm already at 0 ----------------------------


def test_resisted_floor_arm_damage() -> None:
    """Power 1, Form resisted (-1) = 0 before the Type step; Type resisted: 0 (positive)
    or 1 (always). Power 1 with no Head (-1) likewise. Power 3, Form -1 = 2, halved 1 in
    both. Not resisted, an Arm at 0 stays at 0 in both."""
    for floor, want in (("positive", 0), ("always", 1)):
        p = load_catalog(CATALOGS, overrides={"resisted_floor": floor}).params
        assert rules.arm_damage(1, 0, 1, -1, -1, p) == want
        assert rules.arm_damage(1, 0, 0, 0, -1, p) == want
        assert rules.arm_damage(3, 0, 1, -1, -1, p) == 1
        assert rules.arm_damage(1, 0, 1, -1, 0, p) == 0


def test_resisted_floor_traced() -> None:
    """Gorgadon (assumed: HP 20, resists the Vehicle Form and the Projectile Type; Speed 2,
    the rulebook's) against Legs, Torso, a Beast Head (Accuracy 1) and one Arm
    arms-vehicle-projectile-1, for one round (the mech first: it wins the tie). positive:
    the Arm deals 0, rolls no crit die: 20 left. always: it deals 1 and rolls the d20; a
    1 crits (1 <= Accuracy 1): 2 damage, 18 left."""
    mech = {**MECH, "arm_1": "arms-vehicle-projectile-1"}
    out = {}
    for floor, script in (("positive", []), ("always", [(20, 1)])):
        catalog = load_catalog(CATALOGS, overrides={"resisted_floor": floor})
        cards = tuple(catalog.cards[mech[s]] if s in mech else None for s in SLOTS)
        foe = bt.foe(catalog.kaiju["gorgadon"], [], cards, "clockwork", catalog.params)
        b = bt.compile_battle(catalog, cards, "clockwork", foe, catalog.policies["steady"])
        out[floor] = _both(bt.with_params(b, battle_rounds=1), script)
    assert (out["positive"]["kaiju_hp_left"], out["positive"]["crits"]) == (20, 0)
    assert (out["always"]["kaiju_hp_left"], out["always"]["crits"]) == (18, 1)


# ---- the engines under each alternative ------------------------------------------------------


@pytest.mark.parametrize(
    "sets, kaiju",
    [
        ({"kaiju_targets": "most_hp"}, ["cinderwyrm", "trivex"]),
        ({"resisted_floor": "always"}, ["gorgadon", "cinderwyrm", "lumenyx"]),
    ],
)
def test_engines_agree_under_the_alternatives(tmp_path: Path, sets, kaiju) -> None:
    """Dealt battles (both decks) under the alternative: the vector engine's win rate
    and mean rounds within 4 standard errors of the reference engine's."""
    means = {}
    for engine, n in (("reference", 800), ("vector", 6000)):
        run = simulate(
            GAME,
            "battles",
            n=n,
            seed=9,
            store_root=tmp_path,
            engine=engine,
            sets=sets,
            options={"kaiju": kaiju},
        )
        rows = pl.concat([pl.read_parquet(f) for f in sorted(run.plan.folder.rglob("*.parquet"))])
        win = (rows["result"] == rules.WIN).cast(pl.Float64)
        means[engine] = {
            "win": (win.mean(), win.var(), len(rows)),
            "rounds": (
                rows["rounds"].cast(pl.Float64).mean(),
                rows["rounds"].cast(pl.Float64).var(),
                len(rows),
            ),
        }
    for name in ("win", "rounds"):
        (a, va, na), (b, vb, nb) = means["reference"][name], means["vector"][name]
        assert abs(a - b) <= 4 * math.sqrt(va / na + vb / nb), (name, a, b)
