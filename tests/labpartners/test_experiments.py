"""`mechbal simulate labpartners battles`: the dealt mechs (game/dealt_mechs.py) on hand-counted deck
odds, and the rows the runner writes: their documented columns, consistency with the
cards dealt, and the reference and vector engines agreeing within 4 standard errors.

Hand counts of the alpha deck (catalogs/labpartners/decks.toml): each of Legs, Torso
and Head holds Beast 4, Mechsuit 4, Vehicle 3, Clockwork 3, Ghost-Crystal 1 (15), so
the 45-card body pile holds Beast 12, Mechsuit 12, Vehicle 9, Clockwork 9,
Ghost-Crystal 3; its 25 Arms hold Power 1 x12, Power 2 x9, Power 3 x4.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from sims.core.catalog import CatalogError
from sims.core.runner import simulate
from sims.labpartners import draws, experiments
from sims.labpartners.catalog import SLOTS, load_catalog
from sims.labpartners.game import dealt_mechs
from sims.labpartners.game.reference import battles as reference_battles
from tests.conformance import check_declared_columns, chunk_tables
from tests.conftest import CATALOGS
from tests.registration import installed

ALPHA_LESSON = {
    "beast": Fraction(12, 45),
    "mechsuit": Fraction(12, 45),
    "vehicle": Fraction(9, 45),
    "clockwork": Fraction(9, 45),
    "ghost_crystal": Fraction(3, 45),
}
COUNTDOWN = {"gorgadon": 4, "cinderwyrm": 3, "lumenyx": 5, "thornmaw": 4, "trivex": 3}
LOSS_GPA = {1.3, 1.0, 0.7, 0.0}  # Academy Grading Rubric: D+, D, D-, F


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def within(hits: float, n: int, p: float, k: float = 4.0) -> bool:
    """``hits`` of ``n`` within ``k`` standard errors of the probability ``p``."""
    return abs(hits / n - p) <= k * math.sqrt(p * (1 - p) / n)


# ---- game/dealt_mechs.py -------------------------------------------------------------------------


def test_every_slot_takes_a_card_of_its_part_type_and_spares_are_other_cards(catalog):
    dealt = dealt_mechs.deal(catalog, "alpha", np.full(2000, 4), np.random.default_rng(1), 0)
    alpha = {c.id for c in catalog.decks["alpha"].cards}
    for i in range(0, 2000, 7):
        cards = dealt.mech(i)
        assert [c.part for c in cards] == ["legs", "torso", "head", "arms", "arms"]
        assert cards[3] != cards[4]
        assert {c.id for c in cards} <= alpha
        piles = dealt.spare_cards(i)
        assert [len(p) for p in piles] == [2, 2, 2, 2]  # spares_per_part = 2 (rules.toml)
        for part, pile in zip(("legs", "torso", "head", "arms"), piles, strict=True):
            assert {c.part for c in pile} == {part}
            taken = [c for c in cards if c.part == part]
            assert len({c.id for c in (*pile, *taken)}) == len(pile) + len(taken)


def test_gaps_follow_gap_percent(catalog):
    rng = np.random.default_rng(2)
    none = dealt_mechs.deal(catalog, "full", np.full(500, 3), rng, 0)
    assert (none.slots >= 0).all()
    every = dealt_mechs.deal(catalog, "full", np.full(500, 3), rng, 100)
    assert (every.slots == -1).all()
    n = 20_000
    some = dealt_mechs.deal(catalog, "full", np.full(n, 3), rng, 10)
    # each of 5 slots independently a gap with probability 0.10
    assert within(int((some.slots == -1).sum()), 5 * n, 0.10)
    with pytest.raises(ValueError, match="gap_percent"):
        dealt_mechs.deal(catalog, "full", [3], rng, 120)


def test_lesson_odds_match_the_exact_draw_odds(catalog):
    n = 40_000
    dealt = dealt_mechs.deal(catalog, "alpha", np.zeros(n, np.int64), np.random.default_rng(3))
    exact = draws.lesson_form_odds(catalog.decks["alpha"].cards, tuple(catalog.forms))
    assert exact == ALPHA_LESSON  # the hand count agrees with the exact table
    seen = np.bincount(dealt.lesson, minlength=len(dealt.forms))
    for k, form in enumerate(dealt.forms):
        assert within(int(seen[k]), n, float(exact[form])), form


def test_arms_come_from_the_arms_pool_by_power(catalog):
    n = 30_000
    dealt = dealt_mechs.deal(catalog, "alpha", np.zeros(n, np.int64), np.random.default_rng(4), 0)
    power = np.array([c.power for c in dealt.cards])
    # arm_1 is the top of the shuffled 25 Arms: Power 1 with 12/25; arm_2 Power 3 with 4/25
    assert within(int((power[dealt.slots[:, 3]] == 1).sum()), n, 12 / 25)
    assert within(int((power[dealt.slots[:, 4]] == 3).sum()), n, 4 / 25)


def test_traits_are_flipped_without_replacement(catalog):
    rng = np.random.default_rng(5)
    dealt = dealt_mechs.deal(catalog, "alpha", [0, 3, 5, 20], rng)
    flips = [dealt.trait_list(i) for i in range(4)]
    assert [len(f) for f in flips] == [0, 3, 5, 10]  # 10 Traits in traits.toml
    assert all(len(set(f)) == len(f) for f in flips)
    assert set(flips[3]) == set(catalog.traits)


def test_a_dealt_game_compiles_with_its_gaps_and_spares(catalog):
    dealt = dealt_mechs.deal(catalog, "full", np.full(50, 5), np.random.default_rng(6), 30)
    for i in range(50):
        b, foe = reference_battles.compile_game(catalog, dealt, i, "lumenyx")
        assert list(b.present[:5]) == [int(k >= 0) for k in dealt.slots[i]]
        assert int(b.present[5:].sum()) == 8  # 2 spares of each of the 4 Part-Types
        assert foe.traits == dealt.trait_list(i)


def test_unknown_names_are_refused(catalog):
    with pytest.raises(CatalogError, match="unknown deck 'beta'"):
        experiments.battle_cells(catalog, {"decks": ["beta"]})
    with pytest.raises(CatalogError, match="unknown kaiju 'mothra'"):
        experiments.battle_cells(catalog, {"kaiju": ["mothra"]})
    cells = experiments.battle_cells(catalog, {})
    assert len(cells) == 10 and cells[0] == {
        "deck": "alpha",
        "kaiju": "gorgadon",
        "policy": "steady",
    }


# ---- through the runner ----------------------------------------------------------------


@pytest.fixture(scope="module")
def game():
    return installed("labpartners")


def rows_of(outcome) -> pl.DataFrame:
    df = pl.read_parquet(str(outcome.plan.folder / "**" / "*.parquet"))
    return df.with_columns(pl.col(pl.Categorical).cast(pl.String))


def test_rows_are_documented_and_agree_with_the_cards(game, catalog, tmp_path):
    out = simulate(
        game, "battles", n=1000, seed=7, catalog_root=CATALOGS, store_root=tmp_path, chunk_size=256
    )
    rows = rows_of(out)
    for table in chunk_tables(out):
        check_declared_columns(experiments.EXPERIMENTS["battles"], catalog, table)
    assert rows.height == 1000 and len(out.plan.chunks) == 4
    alpha = {c.id for c in catalog.decks["alpha"].cards}
    for r in rows.iter_rows(named=True):
        ids = [r[s] for s in SLOTS]
        cards = [catalog.cards[c] for c in ids if c is not None]
        assert r["gaps"] == ids.count(None)
        assert r["lesson_took"] == (sum(c.form == r["lesson"] for c in cards) >= 3)
        if r["deck"] == "alpha":
            assert {c.id for c in cards} <= alpha
        assert len(r["traits"].split(",")) == COUNTDOWN[r["kaiju"]]
        assert r["weak_matches"] <= 5 - r["gaps"] and r["resist_matches"] <= 5 - r["gaps"]
        won = r["result"] == 0
        assert won == (r["kaiju_hp_left"] == 0)
        assert 0 <= r["kaiju_hp_left"] <= r["kaiju_hp"]
        assert 1 <= r["rounds"] <= 8  # battle_rounds = 8 (rules.toml)
        assert (r["gpa"] == 2.0) if won else (round(r["gpa"], 3) in LOSS_GPA)
    assert set(rows["result"].unique()) <= {0, 1, 2}
    # gaps at 10% per slot over 1,000 mechs
    assert within(int(rows["gaps"].sum()), 5000, 0.10)


def test_reference_and_vector_agree(game, tmp_path):
    stats = {}
    for engine in ("reference", "vector"):
        out = simulate(
            game,
            "battles",
            n=3000,
            seed=8,
            catalog_root=CATALOGS,
            store_root=tmp_path / engine,
            engine=engine,
            options={"kaiju": "gorgadon,thornmaw,trivex"},
        )
        stats[engine] = (
            rows_of(out)
            .group_by("deck", "kaiju")
            .agg(
                n=pl.len(),
                win=(pl.col("result") == 0).mean(),
                gpa=pl.col("gpa").mean(),
                gpa_sd=pl.col("gpa").std(),
            )
            .sort("deck", "kaiju")
        )
    ref, vec = stats["reference"], stats["vector"]
    assert ref.height == 6
    for a, b in zip(ref.iter_rows(named=True), vec.iter_rows(named=True), strict=True):
        p = (a["win"] + b["win"]) / 2
        se = math.sqrt(max(p * (1 - p), 0.01) * (1 / a["n"] + 1 / b["n"]))
        assert abs(a["win"] - b["win"]) <= 4 * se, (a, b)
        se = math.sqrt(a["gpa_sd"] ** 2 / a["n"] + b["gpa_sd"] ** 2 / b["n"]) or 0.01
        assert abs(a["gpa"] - b["gpa"]) <= 4 * se, (a, b)
