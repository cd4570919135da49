"""`mechbal simulate alluvion loadouts`: the round robin's cells (every ordered pair of
the chosen loadouts, mirrors included), one-line refusals of bad options, and the rows
the runner writes: their documented columns, winner codes, each row's loadouts and
codes those of its cell, and the same rows whatever --jobs."""

from __future__ import annotations

from itertools import product

import polars as pl
import pytest

from sims.alluvion import experiments
from sims.alluvion.catalog import load_catalog
from sims.core.catalog import CatalogError
from sims.core.runner import simulate
from tests.conformance import check_declared_columns, chunk_tables
from tests.conftest import CATALOGS
from tests.registration import installed

NAMED = (
    "gunner",
    "brawler",
    "missileer",
    "sentinel",
    "skirmisher",
    "scout",
    "lancer",
    "phantom",
)  # loadouts.toml, in file order
SMALL = 64 * 3  # three duels a cell


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def game():
    return installed("alluvion")


def rows_of(outcome) -> pl.DataFrame:
    df = pl.read_parquet(str(outcome.plan.folder / "**" / "*.parquet"), hive_partitioning=False)
    return df.with_columns(pl.col(pl.Categorical).cast(pl.String))


# ---- the cells -------------------------------------------------------------------------


def test_cells_are_every_ordered_pair_of_the_named_loadouts(catalog):
    assert tuple(catalog.loadouts) == NAMED
    cells = experiments.loadout_cells(catalog, {})
    assert len(cells) == 64
    assert [(c["loadout_a"], c["loadout_b"]) for c in cells] == list(product(NAMED, NAMED))
    assert sum(c["loadout_a"] == c["loadout_b"] for c in cells) == 8  # the mirrors
    for c in cells:
        assert c["code_a"] == catalog.loadout(c["loadout_a"]).code
        assert c["code_b"] == catalog.loadout(c["loadout_b"]).code
        assert (c["cover"], c["range"]) == ("none", 0)
    assert cells[1]["code_a"].lower() == "knight:rrdd"  # gunner: 2 Direct Fire, 2 Resistive


def test_loadouts_take_ids_and_codes(catalog):
    cells = experiments.loadout_cells(catalog, {"loadouts": ["gunner", "knight:DDRS+1r"]})
    assert [(c["loadout_a"], c["loadout_b"]) for c in cells] == [
        ("gunner", "gunner"),
        ("gunner", "knight:DDRS+1r"),
        ("knight:DDRS+1r", "gunner"),
        ("knight:DDRS+1r", "knight:DDRS+1r"),
    ]
    assert cells[3]["code_a"].lower() == "knight:rsdd+1r"  # written in KINDS order


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"loadouts": ["gunner", "nonsense"]}, ("--loadouts", "'nonsense'", "gunner")),
        ({"loadouts": ["knight:ZZ"]}, ("--loadouts", "'knight:zz'", "letter 'z'")),
        ({"cover": "moat"}, ("--cover", "'moat'", "rubble")),
        ({"range": 61}, ("--range", "61", "at most 60")),
    ],
    ids=["unknown-loadout", "bad-code", "unknown-cover", "too-far"],
)
def test_bad_options_are_refused_in_one_line_naming_them(catalog, options, words):
    with pytest.raises(CatalogError) as caught:
        experiments.loadout_cells(catalog, options)
    text = str(caught.value)
    assert "\n" not in text
    for word in words:
        assert word in text.lower()


def test_the_cli_refuses_a_bad_loadout_in_one_line(game, tmp_path, capsys):
    from analysis.cli import main

    code = main(
        [
            "simulate",
            "alluvion",
            "loadouts",
            "--loadouts",
            "gunner,nonsense",
            "--n",
            "64",
            "--out",
            str(tmp_path),
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1
    assert "'nonsense'" in err and "--loadouts" in err
    assert not list(tmp_path.rglob("*.parquet"))


# ---- the rows ------------------------------------------------------------------------------


def test_rows_are_documented_and_each_the_duel_of_its_cell(game, catalog, tmp_path, capsys):
    from analysis.cli import main

    assert main(["simulate", "alluvion", "loadouts", "--describe"]) == 0
    exp = experiments.EXPERIMENTS["loadouts"]
    assert exp.describe() in capsys.readouterr().out
    out = simulate(game, "loadouts", n=SMALL, seed=5, catalog_root=CATALOGS, store_root=tmp_path)
    rows = rows_of(out)
    for table in chunk_tables(out):
        check_declared_columns(exp, catalog, table)
    assert {
        "cell",
        "loadout_a",
        "loadout_b",
        "code_a",
        "code_b",
        "game",
        "winner",
        "rounds",
        "seed",
        "chunk",
        *experiments.RESULT_KEYS,
    } <= set(rows.columns)
    assert rows.height == SMALL
    assert rows["winner"].is_between(0, 2).all()
    assert (rows["rounds"] >= 1).all() and (rows["soldiers_lost_a"] == 0).all()  # duels
    assert ((rows["hits_a"] <= rows["attacks_a"]) & (rows["hits_b"] <= rows["attacks_b"])).all()
    cells = experiments.loadout_cells(catalog, {})
    per = rows.group_by("cell", "loadout_a", "loadout_b", "code_a", "code_b").len().sort("cell")
    assert per["len"].to_list() == [3] * 64
    for r in per.iter_rows(named=True):
        c = cells[r["cell"]]
        assert (r["loadout_a"], r["loadout_b"], r["code_a"], r["code_b"]) == (
            c["loadout_a"],
            c["loadout_b"],
            c["code_a"],
            c["code_b"],
        )
    # a duel fields one Armor a side: the winner's is still in the fight, the loser's not
    assert rows["armors_left_a"].is_between(0, 1).all()
    assert rows["armors_left_b"].is_between(0, 1).all()
    won_a, won_b = rows.filter(pl.col("winner") == 0), rows.filter(pl.col("winner") == 1)
    assert (won_a["armors_left_a"] == 1).all() and (won_b["armors_left_b"] == 1).all()


def test_the_same_rows_whatever_jobs(game, tmp_path):
    kw = {"n": SMALL, "seed": 6, "catalog_root": CATALOGS, "chunk_size": 64}
    one = simulate(game, "loadouts", store_root=tmp_path / "one", jobs=1, **kw)
    two = simulate(game, "loadouts", store_root=tmp_path / "two", jobs=2, **kw)
    assert one.plan.run_id == two.plan.run_id and len(one.plan.chunks) == 3
    key = ["cell", "game"]
    a, b = rows_of(one).sort(key), rows_of(two).sort(key)
    assert a.height == SMALL and a.equals(b)
