"""Skirmish's named queries (analysis.skirmish.queries) over the fake store of
tests/core/test_query.py, against values worked out by hand."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis.query import QueryError, connect
from analysis.skirmish.queries import crit_share, destroyed_by_round
from tests.core.test_query import fake_store, wilson


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return fake_store(tmp_path)


def test_destroyed_by_round(store: Path) -> None:
    df = destroyed_by_round(connect(store), "duel_all")

    def series(run: str, side_a: str, side_b: str, col: str) -> list[float]:
        sel = df.filter(
            (pl.col("run") == run) & (pl.col("side_a") == side_a) & (pl.col("side_b") == side_b)
        )
        assert sel["round"].to_list() == list(range(1, sel.height + 1))
        return sel[col].to_list()

    # r1: B wiped in rounds 2, 3, 3, 5 of 10 battles; A in round 4; last round played 7.
    assert series("r1", "courier", "reaver", "share_wiped_b") == [0, 0.1, 0.3, 0.3, 0.4, 0.4, 0.4]
    assert series("r1", "courier", "reaver", "share_wiped_a") == [0, 0, 0, 0.1, 0.1, 0.1, 0.1]
    assert series("r1", "courier", "reaver", "wiped_b") == [0, 1, 3, 3, 4, 4, 4]
    # r2 (last round 6): X has A wiped in rounds 1 and 6, B in 2; Y has A in 3, B in 4.
    assert series("r2", "courier", "reaver", "share_wiped_a") == [0.25] * 5 + [0.5]
    assert series("r2", "courier", "reaver", "share_wiped_b") == [0] + [0.25] * 5
    assert series("r2", "reaver", "reaver", "share_wiped_a") == [0, 0, 0.25, 0.25, 0.25, 0.25]
    assert series("r2", "reaver", "reaver", "share_wiped_b") == [0, 0, 0, 0.25, 0.25, 0.25]
    assert set(df["battles"].to_list()) == {10, 4}


def test_crit_share(store: Path) -> None:
    con = connect(store)
    df = crit_share(con, "crit_margin_all").sort("weapon", "crit_margin")
    assert df["run"].n_unique() >= 1  # per run; this store has one crit-margin run
    # Margin 2: rifle a0 3/1 + 1/0 -> 4 hits 1 crit; cannon a1 2/1 + 0/0, b0 4/2 + 2/1 -> 8/4;
    # blade b1 1/0 + 3/1 -> 4/1. Margin 3: rifle a0 2/0 + b0 3/1 -> 5/1; cannon a1 5/3.
    assert df.select("weapon", "crit_margin", "hits", "crits").rows() == [
        ("blade", 2, 4, 1), ("cannon", 2, 8, 4), ("cannon", 3, 5, 3),
        ("rifle", 2, 4, 1), ("rifle", 3, 5, 1),
    ]  # fmt: skip
    assert df["crit_share"].to_list() == [0.25, 0.5, 0.6, 0.25, 0.2]
    for row in df.iter_rows(named=True):
        assert (row["crit_low"], row["crit_high"]) == pytest.approx(
            wilson(row["crits"], row["hits"])
        )
    # 4 of 8, z = 1.96: center 0.5, half 1.96 * sqrt(0.03125 + 0.0075) / 1.4802 = 0.2848.
    assert (round(df["crit_low"][1], 4), round(df["crit_high"][1], 4)) == (0.2152, 0.7848)
    # In duel no run sweeps crit_margin: r1's --set value 3 is used, r2 has none (NULL).
    duel = crit_share(con, "duel_all").sort("weapon", "crit_margin", nulls_last=True)
    assert duel.select("weapon", "crit_margin", "hits", "crits", "crit_share").rows() == [
        ("rifle", 3, 2, 1, 0.5), ("rifle", None, 3, 0, 0.0),
    ]  # fmt: skip
    with pytest.raises(QueryError, match="^no view named nope"):
        crit_share(con, "nope")
