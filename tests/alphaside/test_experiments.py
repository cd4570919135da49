"""`mechbal simulate alphaside duel` and `squads`: the round robins' cells (every ordered
pair of the chosen units or squads, mirrors included), one-line refusals of bad options,
and the rows the runner writes: their documented columns, winner codes, each row's units
those of its cell, the bookkeeping that must add up (VP from defeats, TL and damage by
weapon slot, the time of the first defeat), and the same rows whatever --jobs."""

from __future__ import annotations

from itertools import product

import polars as pl
import pytest

from sims.alphaside import experiments
from sims.alphaside.catalog import load_catalog
from sims.core.catalog import CatalogError
from sims.core.runner import simulate
from tests.conformance import check_declared_columns, chunk_tables
from tests.conftest import CATALOGS
from tests.registration import installed

UNITS = (
    "grunt",
    "sniper",
    "brawler",
    "ace",
    "artillery",
    "bulwark",
    "raider",
    "drone",
)  # units.toml, in file order
SQUADS = ("federation_line", "zeon_strike", "federation_battery", "zeon_swarm")
SMALL = 64 * 3  # three engagements a cell


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def game():
    return installed("alphaside")


def rows_of(outcome) -> pl.DataFrame:
    df = pl.read_parquet(str(outcome.plan.folder / "**" / "*.parquet"), hive_partitioning=False)
    return df.with_columns(pl.col(pl.Categorical).cast(pl.String))


# ---- the cells -------------------------------------------------------------------------


def test_cells_are_every_ordered_pair(catalog):
    assert tuple(catalog.units) == UNITS and tuple(catalog.squads) == SQUADS
    duel = experiments.duel_cells(catalog, {})
    assert [(c["unit_a"], c["unit_b"]) for c in duel] == list(product(UNITS, UNITS))
    assert sum(c["unit_a"] == c["unit_b"] for c in duel) == 8  # the mirrors
    squads = experiments.squad_cells(catalog, {})
    assert [(c["squad_a"], c["squad_b"]) for c in squads] == list(product(SQUADS, SQUADS))
    chosen = experiments.duel_cells(catalog, {"units": ["ace", "drone"]})
    assert [(c["unit_a"], c["unit_b"]) for c in chosen] == [
        ("ace", "ace"),
        ("ace", "drone"),
        ("drone", "ace"),
        ("drone", "drone"),
    ]


@pytest.mark.parametrize(
    ("cells", "options", "words"),
    [
        (
            experiments.duel_cells,
            {"units": ["grunt", "nonsense"]},
            ("--units", "'nonsense'", "grunt"),
        ),
        (
            experiments.squad_cells,
            {"squads": ["zeon_swarm", "moat"]},
            ("--squads", "'moat'", "zeon_swarm"),
        ),
    ],
    ids=["unknown-unit", "unknown-squad"],
)
def test_bad_options_are_refused_in_one_line_naming_them(catalog, cells, options, words):
    with pytest.raises(CatalogError) as caught:
        cells(catalog, options)
    text = str(caught.value)
    assert "\n" not in text
    for word in words:
        assert word in text


def test_the_cli_refuses_a_bad_unit_in_one_line(game, tmp_path, capsys):
    from analysis.cli import main

    code = main(
        [
            "simulate",
            "alphaside",
            "duel",
            "--units",
            "grunt,nonsense",
            "--n",
            "64",
            "--out",
            str(tmp_path),
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1
    assert "'nonsense'" in err and "--units" in err
    assert not list(tmp_path.rglob("*.parquet"))


# ---- the rows ------------------------------------------------------------------------------


def test_duel_rows_are_documented_and_add_up(game, catalog, tmp_path, capsys):
    from analysis.cli import main

    assert main(["simulate", "alphaside", "duel", "--describe"]) == 0
    exp = experiments.EXPERIMENTS["duel"]
    assert exp.describe() in capsys.readouterr().out
    out = simulate(game, "duel", n=SMALL, seed=5, catalog_root=CATALOGS, store_root=tmp_path)
    rows = rows_of(out)
    for table in chunk_tables(out):
        check_declared_columns(exp, catalog, table)
    assert {
        "cell",
        "unit_a",
        "unit_b",
        "game",
        "winner",
        "seed",
        "chunk",
        *experiments.RESULT_KEYS,
    } <= set(rows.columns)
    assert rows.height == SMALL and rows["winner"].is_between(0, 1).all()
    cells = experiments.duel_cells(catalog, {})
    per = rows.group_by("cell", "unit_a", "unit_b").len().sort("cell")
    assert per["len"].to_list() == [3] * 64
    for r in per.iter_rows(named=True):
        assert (r["unit_a"], r["unit_b"]) == (
            cells[r["cell"]]["unit_a"],
            cells[r["cell"]]["unit_b"],
        )
    vp = pl.DataFrame({"unit": list(UNITS), "unit_vp": [catalog.units[u].vp for u in UNITS]})
    rows = rows.join(vp.rename({"unit": "unit_a", "unit_vp": "vp_of_a"}), on="unit_a").join(
        vp.rename({"unit": "unit_b", "unit_vp": "vp_of_b"}), on="unit_b"
    )
    for me, foe in (("a", "b"), ("b", "a")):
        c = {
            k: pl.col(f"{k}_{me}")
            for k in (
                "vp",
                "damage",
                "hits",
                "crits",
                "attacks",
                "tl_attack",
                "first_defeat",
                "damage_w0",
                "damage_w1",
                "tl_w0",
                "tl_w1",
            )
        }
        checks = rows.select(
            # one unit a side, no Objectives: VP only from the enemy unit's defeats
            vp=(c["vp"] == pl.col(f"defeats_{foe}") * pl.col(f"vp_of_{foe}")).all(),
            tl=(c["tl_attack"] == c["tl_w0"] + c["tl_w1"]).all(),
            damage=(c["damage"] >= c["damage_w0"] + c["damage_w1"]).all(),
            dice=((c["crits"] <= c["hits"]) & (c["attacks"] >= 0)).all(),
            first=((c["first_defeat"] > 0) == (pl.col(f"defeats_{foe}") > 0)).all(),
            times=c["first_defeat"].is_between(0, 20).all(),
        ).row(0, named=True)
        assert all(checks.values()), (me, checks)
    # the drone carries one weapon: its slot 1 never fires
    drone_a = rows.filter(pl.col("unit_a") == "drone")
    assert (drone_a["tl_w1_a"] == 0).all() and (drone_a["tl_w0_a"] > 0).any()
    # more VP wins; equal VP goes to the side that acted last (either side)
    decided = rows.filter(pl.col("vp_a") != pl.col("vp_b"))
    assert (decided["winner"] == (decided["vp_b"] > decided["vp_a"]).cast(pl.Int8)).all()


def test_squad_rows_are_the_games_of_their_cells(game, catalog, tmp_path):
    out = simulate(game, "squads", n=32, seed=5, catalog_root=CATALOGS, store_root=tmp_path)
    rows = rows_of(out)
    for table in chunk_tables(out):
        check_declared_columns(experiments.EXPERIMENTS["squads"], catalog, table)
    assert rows.height == 32 and rows["winner"].is_between(0, 1).all()
    cells = experiments.squad_cells(catalog, {})
    per = rows.group_by("cell", "squad_a", "squad_b").len().sort("cell")
    assert per["len"].to_list() == [2] * 16
    for r in per.iter_rows(named=True):
        assert r["squad_a"] == cells[r["cell"]]["squad_a"]
    decided = rows.filter(pl.col("vp_a") != pl.col("vp_b"))
    assert (decided["winner"] == (decided["vp_b"] > decided["vp_a"]).cast(pl.Int8)).all()


def test_the_same_rows_whatever_jobs(game, tmp_path):
    kw = {"n": SMALL, "seed": 6, "catalog_root": CATALOGS, "chunk_size": 64}
    one = simulate(game, "duel", store_root=tmp_path / "one", jobs=1, **kw)
    two = simulate(game, "duel", store_root=tmp_path / "two", jobs=2, **kw)
    assert one.plan.run_id == two.plan.run_id and len(one.plan.chunks) == 3
    key = ["cell", "game"]
    a, b = rows_of(one).sort(key), rows_of(two).sort(key)
    assert a.height == SMALL and a.equals(b)
