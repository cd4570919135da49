"""DuckDB views over a fake Parquet store of Coin Duel (the toy game of tests/core), the
named queries and ``mechbal query``."""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from analysis.queries import win_rates
from analysis.query import (
    BASE_COLUMNS,
    QueryError,
    connect,
    parameters,
    query,
    views,
)
from analysis.query_cli import add_query_parser

MATCHUP = ("side_a", "side_b", "policy_a", "policy_b")  # the fake bout rows' matchup


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Reference Wilson score interval, written independently of the SQL macro."""
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return center - half, center + half


def battles(
    side_a: str,
    side_b: str,
    policy_a: str,
    policy_b: str,
    outcomes: list[tuple[int, int, int]],
    *,
    cell: int = 0,
    chunk: int = 0,
) -> pl.DataFrame:
    """Rows of one cell in the bout schema; outcomes are (winner, decided, rounds)."""
    n = len(outcomes)
    cols: dict[str, pl.Series] = {
        "cell": pl.Series([cell] * n, dtype=pl.Int32),
        "side_a": pl.Series([side_a] * n, dtype=pl.String),
        "side_b": pl.Series([side_b] * n, dtype=pl.String),
        "policy_a": pl.Series([policy_a] * n, dtype=pl.String),
        "policy_b": pl.Series([policy_b] * n, dtype=pl.String),
        "seed": pl.Series([1234] * n, dtype=pl.Int64),
        "chunk": pl.Series([chunk] * n, dtype=pl.Int32),
        "battle": pl.Series(range(n), dtype=pl.Int64),
        "winner": pl.Series([o[0] for o in outcomes], dtype=pl.Int8),
        "decided": pl.Series([o[1] for o in outcomes], dtype=pl.Int8),
        "rounds": pl.Series([o[2] for o in outcomes], dtype=pl.Int8),
        "hull_a": pl.Series([0.5] * n, dtype=pl.Float32),
        "hull_b": pl.Series([0.5] * n, dtype=pl.Float32),
    }
    for stat in ("kills", "crits", "shots", "hits"):
        for side in "ab":
            cols[f"{stat}_{side}"] = pl.Series([0] * n, dtype=pl.Int16)
    return pl.DataFrame(cols)


def write_run(
    store: Path,
    game: str,
    experiment: str,
    run_id: str,
    chunks: dict[str, pl.DataFrame],
    *,
    set_: dict[str, Any] | None = None,
    sweep: dict[str, list[Any]] | None = None,
    complete: bool = True,
) -> Path:
    """A run in the store layout: chunks maps "<hive dirs>/part-00000.parquet" to rows."""
    run_dir = store / game / experiment / f"run={run_id}"
    rows = 0
    for rel, df in chunks.items():
        path = run_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        df.write_parquet(path)
        rows += df.height
    manifest = {
        "run_id": run_id,
        "game": game,
        "experiment": experiment,
        "engine": "vector",
        "engine_version": "1",
        "rules_version": f"{game}-1",
        "seed": 7,
        "n": rows,
        "n_per_cell": rows,
        "chunk_size": 1000,
        "chunks": len(chunks),
        "cells": [],
        "set": set_ or {},
        "sweep": sweep or {},
        "catalog_hash": "abc123",
        "created": "2025-01-01T00:00:00+00:00",
        "finished": "2025-01-01T00:01:00+00:00" if complete else None,
        "complete": complete,
        "rows": rows if complete else None,
    }
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    return run_dir


# Run r1 (bout, --set coin_bonus=3): pawn (steady) vs knave (bold), 10 battles.
# (winner, decided, rounds): winner 0 A / 1 B / 2 draw; decided 0 wipe / 1 points / 2 hull /
# 3 draw. Side B is wiped in rounds 2, 3, 3, 5; side A in round 4. 7 wins, 2 draws, 1 loss.
R1 = [
    (0, 0, 2),
    (0, 0, 3),
    (0, 0, 3),
    (0, 1, 7),
    (0, 2, 7),
    (0, 0, 5),
    (0, 1, 7),
    (2, 3, 7),
    (2, 3, 7),
    (1, 0, 4),
]
# Run r2 (bout, nothing set): the same matchup (X) and a knave mirror (Y), 4 battles each.
R2_X = [(1, 0, 1), (1, 0, 6), (1, 2, 6), (0, 0, 2)]  # A wiped in rounds 1 and 6, B in 2
R2_Y = [(0, 1, 6), (2, 3, 6), (1, 0, 3), (0, 0, 4)]  # A wiped in round 3, B in 4
FIRST = ("pawn", "knave", "steady", "bold")
MIRROR = ("knave", "knave", "bold", "bold")


def swept_chunks() -> dict[str, pl.DataFrame]:
    """A sweep of coin_bonus over 2 and 3, brute (steady) vs pawn (steady): two battles at
    2 (one won by each side), one draw at 3."""
    return {
        "coin_bonus=2/part-00000.parquet": battles(
            "brute", "pawn", "steady", "steady", [(0, 1, 7), (1, 0, 5)]
        ),
        "coin_bonus=3/part-00000.parquet": battles(
            "brute", "pawn", "steady", "steady", [(2, 3, 7)], cell=1
        ),
    }


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return fake_store(tmp_path)


def fake_store(tmp_path: Path) -> Path:
    """Two bout-shaped runs and a coin-bonus sweep, written by hand."""
    root = tmp_path / "data"
    r1 = battles(*FIRST, R1)
    run1 = write_run(
        root,
        "toy",
        "bout",
        "r1",
        {"part-00000.parquet": r1.head(6), "part-00001.parquet": r1.tail(4)},
        set_={"coin_bonus": 3},
    )
    # An unfinished chunk: its rows must never be counted.
    r1.write_parquet(run1 / "part-00009.parquet.partial")
    write_run(
        root,
        "toy",
        "bout",
        "r2",
        {
            "part-00000.parquet": pl.concat(
                [
                    battles(*FIRST, R2_X, cell=0),
                    battles(*MIRROR, R2_Y, cell=1),
                ]
            )
        },
    )
    write_run(
        root,
        "toy",
        "coin-bonus",
        "r3",
        swept_chunks(),
        set_={"fighter.pawn.die": 5},
        sweep={"coin_bonus": [2, 3]},
    )
    return root


def test_runs_table_and_views(store: Path) -> None:
    con = connect(store, catalog=None)  # no catalog: each view shows its latest run
    assert views(con) == ["bout", "coin_bonus"]
    # the game-qualified names exist beside the plain ones (a query that names its game
    # holds when another game's experiment of the same name joins the store)
    for plain in ("bout", "bout_all", "coin_bonus"):
        assert query(f"SELECT count(*) AS n FROM toy_{plain}", con).equals(
            query(f"SELECT count(*) AS n FROM {plain}", con)
        )
    runs = query("SELECT * FROM runs ORDER BY run_id", con)
    assert runs["run_id"].to_list() == ["r1", "r2", "r3"]
    assert runs.columns[: len(BASE_COLUMNS)] == list(BASE_COLUMNS)
    assert runs.columns[len(BASE_COLUMNS) :] == [
        "coin_bonus",
        "fighter_pawn_die",
        "set_json",
        "sweep_json",
        "view",
        "current",
        "shown",
    ]
    assert runs["coin_bonus"].to_list() == [3, None, None]
    assert runs["fighter_pawn_die"].to_list() == [None, None, 5]
    assert runs["complete"].to_list() == [True, True, True]
    assert json.loads(runs["sweep_json"][2]) == {"coin_bonus": [2, 3]}
    assert json.loads(runs["set_json"][2]) == {"fighter.pawn.die": 5}
    # The .partial chunk is ignored: 10 + 8 rows in bout_all, 3 in coin_bonus.
    counts = query("SELECT run, count(*) AS n FROM bout_all GROUP BY run ORDER BY run", con)
    assert counts.rows() == [("r1", 10), ("r2", 8)]
    assert query("SELECT count(*) AS n FROM coin_bonus", con)["n"][0] == 3
    # bout shows one run, never the two added up: r2 finished last (r1 and r2 tie on
    # the finish time, the id breaks the tie).
    assert query("SELECT run, count(*) FROM bout GROUP BY run", con).rows() == [("r2", 8)]
    assert runs["shown"].to_list() == [False, True, True]
    # --set parameters ride on every row of their run, NULL on the others.
    cm = query("SELECT run, coin_bonus FROM bout_all GROUP BY ALL ORDER BY run", con)
    assert cm.rows() == [("r1", 3), ("r2", None)]
    assert cm.schema["coin_bonus"] == pl.Int64
    # Swept values come from the hive folders, typed as integers, and run first.
    sw = query(
        "SELECT coin_bonus, fighter_pawn_die, count(*) AS n FROM coin_bonus GROUP BY ALL "
        "ORDER BY coin_bonus",
        con,
    )
    assert sw.schema["coin_bonus"] == pl.Int64
    assert sw.rows() == [(2, 5, 2), (3, 5, 1)]
    cols = query("SELECT * FROM coin_bonus LIMIT 0", con).columns
    assert cols[0] == "run"
    assert parameters(con, "coin_bonus") == ["coin_bonus", "fighter_pawn_die"]
    assert parameters(con, "bout") == ["coin_bonus"]
    assert parameters(con, "bout_all") == ["coin_bonus"]
    con.close()


def test_empty_and_missing_store(tmp_path: Path) -> None:
    con = connect(tmp_path)
    assert views(con) == []
    runs = query("SELECT * FROM runs", con)
    assert runs.height == 0
    assert runs.columns == [*BASE_COLUMNS, "set_json", "sweep_json", "view", "current", "shown"]
    with pytest.raises(QueryError) as err:
        query("SELECT * FROM bout", con)
    assert str(err.value) == (
        "no view named bout (views: none: the store holds no finished chunk; mechbal runs "
        "lists the runs)"
    )
    con.close()
    missing = tmp_path / "missing"
    with pytest.raises(QueryError) as err:
        query("SELECT * FROM bout", missing)
    assert str(err.value) == (
        f"no store at {missing}: nothing simulated there yet (run mechbal simulate GAME "
        "EXPERIMENT, or give --store DIR)"
    )


def test_broken_manifest_is_one_line(tmp_path: Path) -> None:
    run_dir = write_run(tmp_path, "toy", "bout", "r9", {})
    (run_dir / "manifest.json").write_text("{ not json")
    with pytest.raises(QueryError) as err:
        connect(tmp_path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{run_dir / 'manifest.json'}: unreadable manifest: ")


def test_partial_only_experiment_has_no_view(tmp_path: Path) -> None:
    run_dir = tmp_path / "toy" / "bands" / "run=x"
    run_dir.mkdir(parents=True)
    battles(*FIRST, R1).write_parquet(run_dir / "part-00000.parquet.partial")
    assert views(connect(tmp_path)) == []


def test_mixed_layouts_and_folder_types(tmp_path: Path) -> None:
    """Runs of one experiment sweeping different things still make one view."""
    rows = battles(*FIRST, [(0, 0, 2)])
    write_run(
        tmp_path,
        "toy",
        "bands",
        "b1",
        {
            "fighter_knave_die=2/part-00000.parquet": rows,
            "fighter_knave_die=3/part-00000.parquet": rows,
        },
        sweep={"fighter.knave.die": [2, 3]},
    )
    write_run(tmp_path, "toy", "bands", "b2", {"part-00000.parquet": rows})
    write_run(
        tmp_path,
        "toy",
        "bands",
        "b3",
        {"tie_rule=half/coin_weight=0.5/part-00000.parquet": rows},
        sweep={"tie_rule": ["half"], "coin_weight": [0.5]},
    )
    # The same experiment name in a second game: both views get their game's prefix.
    write_run(tmp_path, "other", "bands", "c1", {"part-00000.parquet": rows})
    con = connect(tmp_path)
    assert views(con) == ["other_bands", "toy_bands"]
    df = query(
        "SELECT run, fighter_knave_die, tie_rule, coin_weight FROM toy_bands_all "
        "ORDER BY run, fighter_knave_die",
        con,
    )
    assert df.schema["fighter_knave_die"] == pl.Int64
    assert df.schema["tie_rule"] == pl.String
    assert df.schema["coin_weight"] == pl.Float64
    assert df.rows() == [
        ("b1", 2, None, None),
        ("b1", 3, None, None),
        ("b2", None, None, None),
        ("b3", None, "half", 0.5),
    ]


def test_wilson_hand_value(tmp_path: Path) -> None:
    # 8 of 10, z = 1.96: p = 0.8, z^2/n = 0.38416, denominator 1 + 0.38416 = 1.38416;
    # center = (0.8 + 3.8416/20) / 1.38416 = 0.99208 / 1.38416 = 0.7167;
    # half = 1.96 * sqrt(0.8 * 0.2 / 10 + 3.8416 / 400) / 1.38416
    #      = 1.96 * sqrt(0.025604) / 1.38416 = 1.96 * 0.160012 / 1.38416 = 0.2266;
    # bounds 0.7167 - 0.2266 = 0.4902 and 0.7167 + 0.2266 = 0.9433.
    con = connect(tmp_path)
    low, high = query("SELECT wilson_low(8, 10) AS lo, wilson_high(8, 10) AS hi", con).row(0)
    assert round((low + high) / 2, 4) == 0.7167
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(8, 10) == pytest.approx((low, high), abs=1e-12)
    zero = query("SELECT wilson_low(0, 0) AS lo, wilson_high(0, 0) AS hi", con).row(0)
    assert zero == (None, None)  # no trials, no interval
    # At 0 of n and n of n the bounds are exactly 0 and 1 (not 1.7e-18 from rounding).
    ends = query("SELECT wilson_low(0, 130), wilson_high(0, 130), wilson_high(5, 5)", con)
    assert ends.row(0) == (0.0, pytest.approx(wilson(0, 130)[1]), 1.0)


def test_win_rates(store: Path, tmp_path: Path) -> None:
    con = connect(store, catalog=None)
    df = win_rates(con, "bout_all", MATCHUP)
    assert df.columns == [
        "run",
        "side_a",
        "side_b",
        "policy_a",
        "policy_b",
        "coin_bonus",
        "battles",
        "wins_a",
        "draws",
        "losses_a",
        "score_a",
        "score_low",
        "score_high",
        "mean_rounds",
    ]
    rows = {(r["run"], r["side_a"], r["side_b"]): r for r in df.iter_rows(named=True)}
    assert len(rows) == 3
    r1 = rows[("r1", "pawn", "knave")]
    # 7 wins + 2 draws / 2 = 8 of 10: the hand value above.
    assert (r1["battles"], r1["wins_a"], r1["draws"], r1["losses_a"]) == (10, 7, 2, 1)
    assert r1["score_a"] == 0.8
    assert (round(r1["score_low"], 4), round(r1["score_high"], 4)) == (0.4902, 0.9433)
    assert r1["mean_rounds"] == pytest.approx(52 / 10)  # 2+3+3+7+7+5+7+7+7+4
    assert r1["coin_bonus"] == 3
    x = rows[("r2", "pawn", "knave")]
    assert (x["battles"], x["wins_a"], x["draws"], x["losses_a"]) == (4, 1, 0, 3)
    assert x["score_a"] == 0.25 and x["coin_bonus"] is None
    assert (x["score_low"], x["score_high"]) == pytest.approx(wilson(1, 4))
    y = rows[("r2", "knave", "knave")]
    assert (y["wins_a"], y["draws"], y["losses_a"], y["score_a"]) == (2, 1, 1, 2.5 / 4)
    assert (y["score_low"], y["score_high"]) == pytest.approx(wilson(2.5, 4))
    assert y["mean_rounds"] == pytest.approx(19 / 4)
    # Swept columns join the grouping: one row per coin_bonus value. (The outcome labels
    # win_rates reads come from the game's experiment: a bout run sweeping coin_bonus.)
    swept = tmp_path / "swept"
    write_run(
        swept,
        "toy",
        "bout",
        "s1",
        swept_chunks(),
        set_={"fighter.pawn.die": 5},
        sweep={"coin_bonus": [2, 3]},
    )
    cm = win_rates(connect(swept, catalog=None), "bout", MATCHUP)
    assert cm.select("coin_bonus", "fighter_pawn_die", "battles", "score_a").rows() == [
        (2, 5, 2, 0.5),
        (3, 5, 1, 0.5),
    ]


def test_query_returns_polars_and_one_line_errors(store: Path) -> None:
    sql = "SELECT side_a, count(*) AS n FROM bout_all GROUP BY side_a ORDER BY side_a"
    df = query(sql, store)
    assert isinstance(df, pl.DataFrame)
    assert df.rows() == [("knave", 4), ("pawn", 14)]
    with pytest.raises(QueryError) as err:
        query("SELECT * FROM nope", store)
    assert str(err.value) == (
        "no view named nope (views: bout, coin_bonus; mechbal runs lists the runs)"
    )
    with pytest.raises(QueryError) as err:
        query("SELEC 1", store)
    assert "\n" not in str(err.value) and str(err.value).startswith("Parser Error")
    assert isinstance(err.value, ValueError)


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="mechbal")
    add_query_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql = "SELECT run, count(*) AS n FROM bout_all GROUP BY run ORDER BY run"
    assert _cli(["query", sql, "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "2 rows" in out and "r1" in out and "10" in out
    assert _cli(["query", sql, "--store", str(store), "--format", "csv"]) == 0
    assert capsys.readouterr().out == "run,n\nr1,10\nr2,8\n"
    for fmt, name in (("parquet", "res.parquet"), ("csv", "res.csv")):
        out_file = tmp_path / "out" / name
        assert (
            _cli(["query", sql, "--store", str(store), "--format", fmt, "--out", str(out_file)])
            == 0
        )
        assert f"wrote 2 rows to {out_file}" in capsys.readouterr().out
        back = pl.read_parquet(out_file) if fmt == "parquet" else pl.read_csv(out_file)
        assert back.rows() == [("r1", 10), ("r2", 8)]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["res.csv", "res.parquet"]
    # With --out and no --format, the suffix decides.
    inferred = tmp_path / "inferred.parquet"
    assert _cli(["query", sql, "--store", str(store), "--out", str(inferred)]) == 0
    assert pl.read_parquet(inferred).height == 2
    # A failing query leaves --out absent (and its folder uncreated).
    bad_out = tmp_path / "never" / "bad.csv"
    with pytest.raises(QueryError, match="^no view named nope"):
        _cli(["query", "SELECT * FROM nope", "--store", str(store), "--out", str(bad_out)])
    assert not bad_out.exists() and not bad_out.parent.exists()
    with pytest.raises(QueryError, match="needs --out"):
        _cli(["query", sql, "--store", str(store), "--format", "parquet"])


def test_group_by_million_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A GROUP BY over 1,000,000 rows in 20 chunks: counts checked, time only printed."""
    rng = np.random.default_rng(5)
    n, chunks = 1_000_000, 20
    fighters = np.array(["pawn", "knave", "brute"])
    side_a = fighters[rng.integers(0, 3, n)]
    winner = rng.integers(0, 3, n).astype(np.int8)
    run_dir = tmp_path / "toy" / "bout" / "run=big"
    run_dir.mkdir(parents=True)
    size = n // chunks
    for i in range(chunks):
        part = slice(i * size, (i + 1) * size)
        pl.DataFrame(
            {
                "cell": pl.Series(np.zeros(size, dtype=np.int32)),
                "side_a": side_a[part],
                "winner": winner[part],
                "rounds": rng.integers(1, 8, size).astype(np.int8),
            }
        ).write_parquet(run_dir / f"part-{i:05d}.parquet")
    start = time.perf_counter()
    con = connect(tmp_path)
    connected = time.perf_counter()
    df = query(
        "SELECT side_a, count(*) AS battles, "
        "avg(CASE winner WHEN 'a' THEN 1 WHEN 'draw' THEN 0.5 ELSE 0 END) AS score "
        "FROM bout_all GROUP BY side_a ORDER BY side_a",  # a run without a manifest
        con,
    )
    done = time.perf_counter()
    with capsys.disabled():
        print(
            f"\n[timing] GROUP BY over {n:,} rows in {chunks} chunk files: "
            f"{done - connected:.3f} s (connect {connected - start:.3f} s)"
        )
    score = np.where(winner == 0, 1.0, np.where(winner == 2, 0.5, 0.0))
    for fighter, battles_, mean in df.iter_rows():
        assert battles_ == int((side_a == fighter).sum())
        assert mean == pytest.approx(score[side_a == fighter].mean())
    assert df["battles"].sum() == n
