"""Skirmish's named queries (analysis.skirmish.queries) over the fake store of
tests/skirmish/fake_store.py and a hand-made store of battles on the board, against values
worked out by hand."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from analysis.query import QueryError, connect
from analysis.skirmish.queries import (
    HOW,
    crit_share,
    decided_by_map,
    destroyed_by_round,
    positions,
    score_moves,
    scores_by_map,
    win_rates_by_map,
    zone_control,
)
from tests.skirmish.fake_store import fake_store, wilson, write_run


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
        ("blade", 2, 4, 1),
        ("cannon", 2, 8, 4),
        ("cannon", 3, 5, 3),
        ("rifle", 2, 4, 1),
        ("rifle", 3, 5, 1),
    ]
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
        ("rifle", 3, 2, 1, 0.5),
        ("rifle", None, 3, 0, 0.0),
    ]
    with pytest.raises(QueryError, match="^no view named nope"):
        crit_share(con, "nope")


# --- the board (003 H, I4): a hand-made store of team fights on two maps and duels ----------

# A battle: (side_a, side_b, winner 0 A / 1 B / 2 draw, decided 0 wipe / 1 points / 2 hull /
# 3 draw, rounds, zones side A held at the end of rounds 1..3, the same for side B,
# (kills_a, kills_b), (hex, down) of each mech: side A's first, then side B's).
Battle = tuple[
    str, str, int, int, int, list[int], list[int], tuple[int, int], list[tuple[int, bool]]
]
ST, DN = False, True  # a mech standing at the end, destroyed

# Team fights on "open" (4 columns a row): B1 a wipe in round 2 (B2 holds no zone scored in
# it); B2 zones 4 v 2, kills 1 v 1: A wins on zones; B3 zones 3 v 2 but B wins on kills;
# B4 B wins on zones; B5 A on Hull after the sudden-death round 4; B6 a draw; B7 a mirror
# won on zones. Side A's mechs stand on hexes 5 and 6 (the second destroyed on 7 in B3);
# side B's on 9 and 15, both destroyed on 9 and 10 in B1.
OPEN: list[Battle] = [
    ("t1", "t2", 0, 0, 2, [1, 0, 0], [0, 0, 0], (2, 0), [(5, ST), (6, ST), (9, DN), (10, DN)]),
    ("t1", "t2", 0, 1, 3, [1, 1, 2], [1, 1, 0], (1, 1), [(5, ST), (6, ST), (9, ST), (15, ST)]),
    ("t1", "t2", 1, 1, 3, [1, 1, 1], [0, 1, 1], (0, 1), [(5, ST), (7, DN), (9, ST), (15, ST)]),
    ("t2", "t1", 1, 1, 3, [0, 1, 0], [1, 1, 1], (0, 0), [(5, ST), (6, ST), (9, ST), (15, ST)]),
    ("t2", "t1", 0, 2, 4, [1, 0, 1], [0, 1, 1], (0, 0), [(5, ST), (6, ST), (9, ST), (15, ST)]),
    ("t2", "t1", 2, 3, 4, [0, 1, 0], [1, 0, 0], (0, 0), [(5, ST), (6, ST), (9, ST), (15, ST)]),
    ("t1", "t1", 0, 1, 3, [1, 1, 1], [0, 0, 0], (0, 0), [(5, ST), (6, ST), (9, ST), (15, ST)]),
]
# On "broken" (5 columns a row): C1 zones level 2 v 2, A wins on its kill; C2 B wipes A in
# round 1 (no zone scored).
BROKEN: list[Battle] = [
    ("t1", "t2", 0, 1, 3, [1, 1, 0], [0, 1, 1], (1, 0), [(0, ST), (12, ST), (24, DN), (13, ST)]),
    ("t1", "t2", 1, 0, 1, [0, 0, 0], [0, 0, 0], (0, 2), [(7, DN), (12, DN), (24, ST), (13, ST)]),
]
# Duels: dm on the catalog's board (no --set: broken), dt with --set board=track.
DUEL_MAP: list[Battle] = [
    ("k1", "k2", 0, 0, 2, [0, 0, 0], [0, 0, 0], (1, 0), [(3, ST), (4, DN)]),
    ("k1", "k2", 0, 1, 3, [1, 1, 1], [0, 0, 0], (0, 0), [(3, ST), (4, ST)]),
    ("k2", "k1", 0, 2, 4, [0, 1, 0], [1, 0, 0], (0, 0), [(3, ST), (4, ST)]),
    ("k1", "k1", 2, 3, 4, [0, 0, 1], [0, 1, 0], (0, 0), [(3, ST), (4, ST)]),
]
DUEL_TRACK: list[Battle] = [
    ("k1", "k2", 1, 0, 3, [0, 0, 0], [0, 0, 0], (0, 1), [(2, DN), (5, ST)]),
    ("k2", "k1", 0, 2, 4, [0, 0, 0], [0, 0, 0], (0, 0), [(2, ST), (5, ST)]),
    ("k2", "k1", 2, 3, 4, [0, 0, 0], [0, 0, 0], (0, 0), [(2, ST), (5, ST)]),
    ("k1", "k2", 0, 1, 3, [0, 0, 0], [0, 0, 0], (1, 0), [(2, ST), (5, ST)]),
]


def board_rows(battles: list[Battle]) -> pl.DataFrame:
    """Rows in the battle schema (the columns the board queries read), points as 003 I4
    scores them: 1 per zone-round, 3 per kill."""
    rows = []
    for i, (a, b, winner, decided, rounds, za, zb, (ka, kb), mechs) in enumerate(battles):
        row: dict[str, object] = {
            "cell": 0,
            "side_a": a,
            "side_b": b,
            "policy_a": "gunline",
            "policy_b": "gunline",
            "battle": i,
            "winner": winner,
            "rounds": rounds,
            "decided": decided,
            "kills_a": ka,
            "kills_b": kb,
            "points_a": sum(za) + 3 * ka,
            "points_b": sum(zb) + 3 * kb,
            "zones_a": sum(za),
            "zones_b": sum(zb),
        }
        for r in range(3):
            row[f"zones_a_r{r + 1}"], row[f"zones_b_r{r + 1}"] = za[r], zb[r]
        per_side = len(mechs) // 2
        for j, (hex_, down) in enumerate(mechs):
            side, k = "ab"[j // per_side], j % per_side
            row[f"hex_{side}_{k}"], row[f"down_{side}_{k}"] = hex_, down
        rows.append(row | {"seed": 1, "chunk": 0})
    ints = {
        "winner": pl.Int8,
        "rounds": pl.Int8,
        "decided": pl.Int8,
        "cell": pl.Int32,
        **{
            c: pl.Int16
            for c in rows[0]
            if c.startswith(("kills", "points", "zones_a", "zones_b", "hex"))
        },
        **{c: pl.Int8 for c in rows[0] if re.fullmatch(r"zones_[ab]_r\d", c)},
    }
    return pl.DataFrame(rows).with_columns(pl.col(c).cast(t) for c, t in ints.items())


def board_store(root: Path, *, track: bool = True) -> Path:
    """Team fights tf swept over open and broken, duel dm on the catalog's board, and
    (with ``track``) duel dt with --set board=track."""
    write_run(
        root,
        "skirmish",
        "teamfight",
        "tf",
        {
            "board=open/part-00000.parquet": board_rows(OPEN),
            "board=broken/part-00000.parquet": board_rows(BROKEN),
        },
        sweep={"board": ["open", "broken"]},
    )
    write_run(root, "skirmish", "duel", "dm", {"part-00000.parquet": board_rows(DUEL_MAP)})
    if track:
        write_run(
            root,
            "skirmish",
            "duel",
            "dt",
            {"part-00000.parquet": board_rows(DUEL_TRACK)},
            set_={"board": "track"},
        )
    return root


@pytest.fixture
def board(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect(board_store(tmp_path), catalog=None)
    yield con
    con.close()


def test_decided_by_map(board: duckdb.DuckDBPyConnection) -> None:
    df = decided_by_map(board, "teamfight")
    assert df["how"].to_list() == list(HOW) * 2
    got = {
        (r["board"], r["how"]): (r["games"], r["won_a"], r["won_b"], r["battles"])
        for r in df.iter_rows(named=True)
    }
    # open: wipe B1 (A); zones B2 (A), B4 (B), B7 (A); kills B3 (B); Hull B5 (A); draw B6.
    assert [got["open", h] for h in HOW] == [
        (1, 1, 0, 7),
        (3, 2, 1, 7),
        (1, 0, 1, 7),
        (1, 1, 0, 7),
        (1, 0, 0, 7),
    ]
    # broken: C2 a wipe by B; C1 on points with zones level: kills, by A; none else.
    assert [got["broken", h] for h in HOW] == [
        (1, 0, 1, 2),
        (0, 0, 0, 2),
        (1, 1, 0, 2),
        (0, 0, 0, 2),
        (0, 0, 0, 2),
    ]
    zones = df.filter(board="open", how="zones").row(0, named=True)
    assert zones["share"] == pytest.approx(3 / 7)
    assert (zones["low"], zones["high"]) == pytest.approx(wilson(3, 7))
    none = df.filter(board="broken", how="hull").row(0, named=True)
    assert (none["share"], none["low"]) == (0.0, 0.0)
    assert none["high"] == pytest.approx(wilson(0, 2)[1])
    # duels over duel_all, the two runs: dm has no board column of its own (the catalog's
    # board, "broken" here), dt's --set board=track; on the track no points win is by zones.
    duels = decided_by_map(board, "duel_all", default_board="broken", runs=["dm", "dt"])
    assert duels.select("run", "board").unique(maintain_order=True).rows() == [
        ("dm", "broken"),
        ("dt", "track"),
    ]
    assert duels.filter(run="dm")["games"].to_list() == [1, 1, 0, 1, 1]
    assert duels.filter(run="dt")["games"].to_list() == [1, 0, 1, 1, 1]
    assert decided_by_map(board, "duel_all", runs=[]).height == 0


def test_board_defaults_without_a_board_column(tmp_path: Path) -> None:
    write_run(tmp_path, "skirmish", "duel", "dm", {"part-00000.parquet": board_rows(DUEL_MAP)})
    con = connect(tmp_path, catalog=None)
    assert "board" not in con.sql("SELECT * FROM duel LIMIT 0").columns
    df = decided_by_map(con, "duel", default_board="urban")
    assert set(df["board"]) == {"urban"}
    con.close()


def test_zone_control(board: duckdb.DuckDBPyConnection) -> None:
    df = zone_control(board, "teamfight")
    got = {
        (r["board"], r["round"], r["side"]): (r["battles"], r["mean_zones"])
        for r in df.iter_rows(named=True)
    }
    # Round 1: every battle still runs. Round 2: B1, wiped in round 2, no longer counts
    # (rounds 4, the sudden death, counts for every round). Round 3: B2..B7.
    assert got["open", 1, "a"] == (7, pytest.approx(5 / 7))
    assert got["open", 1, "b"] == (7, pytest.approx(3 / 7))
    assert got["open", 2, "a"] == (6, pytest.approx(5 / 6))
    assert got["open", 2, "b"] == (6, pytest.approx(4 / 6))
    assert got["open", 3, "a"] == (6, pytest.approx(5 / 6))
    assert got["open", 3, "b"] == (6, pytest.approx(3 / 6))
    # open round 3, side A: 2, 1, 0, 1, 0, 1; squares about the mean 5/6 sum to 17/6, so
    # the sample variance is 17/30 and the half-width 1.96 sqrt(17/30 / 6).
    row = df.filter(board="open", round=3, side="a").row(0, named=True)
    half = 1.96 * math.sqrt(17 / 180)
    assert (row["low"], row["high"]) == pytest.approx((5 / 6 - half, 5 / 6 + half))
    # broken: C2 was wiped in round 1, so only C1 counts; one battle has no interval.
    assert [got["broken", r, s] for r in (1, 2, 3) for s in "ab"] == [
        (1, 1),
        (1, 0),
        (1, 1),
        (1, 1),
        (1, 0),
        (1, 1),
    ]
    assert df.filter(board="broken", round=1, side="a")["low"].to_list() == [None]


def test_scores_and_win_rates_by_map(board: duckdb.DuckDBPyConnection) -> None:
    scores = scores_by_map(board, "teamfight")
    got = {
        (r["board"], r["side"]): (r["battles"], r["points"], r["score"])
        for r in scores.iter_rows(named=True)
    }
    # open, the mirror B7 left out: t1 wins B1, B2, B4 (as side B), draws B6 -> 3.5 of 6.
    assert got == {
        ("open", "t1"): (6, 3.5, pytest.approx(3.5 / 6)),
        ("open", "t2"): (6, 2.5, pytest.approx(2.5 / 6)),
        ("broken", "t1"): (2, 1.0, 0.5),
        ("broken", "t2"): (2, 1.0, 0.5),
    }
    t1 = scores.filter(board="open", side="t1").row(0, named=True)
    assert (t1["low"], t1["high"]) == pytest.approx(wilson(3.5, 6))
    win = win_rates_by_map(board, "teamfight")
    assert win.select("board", "side_a", "side_b", "wins_a", "draws", "losses_a").rows() == [
        ("broken", "t1", "t2", 1, 0, 1),
        ("open", "t1", "t1", 1, 0, 0),
        ("open", "t1", "t2", 2, 0, 1),
        ("open", "t2", "t1", 1, 1, 1),
    ]
    assert win["score_a"].to_list() == pytest.approx([0.5, 1.0, 2 / 3, 0.5])
    assert (win["score_low"][3], win["score_high"][3]) == pytest.approx(wilson(1.5, 3))


def test_score_moves(board: duckdb.DuckDBPyConnection) -> None:
    moves = score_moves(board, "duel_all", default_board="broken", runs=["dm", "dt"])
    # broken: k1 beats k2 twice as side A and loses once as side B (the mirror left out):
    # 2/3; the track: k1 loses T1, T2, draws T3, wins T4: 1.5/4.
    assert moves.select("board", "side", "battles", "base_battles").rows() == [
        ("broken", "k1", 3, 4),
        ("broken", "k2", 3, 4),
    ]
    assert moves["score"].to_list() == pytest.approx([2 / 3, 1 / 3])
    assert moves["base_score"].to_list() == pytest.approx([0.375, 0.625])
    assert moves["change"].to_list() == pytest.approx([2 / 3 - 0.375, 1 / 3 - 0.625])
    half = 1.96 * math.sqrt((2 / 3) * (1 / 3) / 3 + 0.375 * 0.625 / 4)  # 0.7139
    k1 = moves.row(0, named=True)
    assert (k1["change_low"], k1["change_high"]) == pytest.approx(
        (2 / 3 - 0.375 - half, 2 / 3 - 0.375 + half)
    )
    assert round(half, 4) == 0.7139
    assert (k1["base_low"], k1["base_high"]) == pytest.approx(wilson(1.5, 4))
    # one run alone: no track to compare with
    assert score_moves(board, "duel_all", runs=["dm"]).height == 0


def test_positions(board: duckdb.DuckDBPyConnection) -> None:
    df = positions(board, "teamfight", lengths={"open": 4, "broken": 5})
    got = {
        (r["board"], r["side"], r["state"], r["col"], r["row"]): r["mechs"]
        for r in df.iter_rows(named=True)
    }
    assert got == {
        # open, 4 columns: hex 5 = (1, 1), 6 = (2, 1), 7 = (3, 1), 9 = (1, 2),
        # 10 = (2, 2), 15 = (3, 3)
        ("open", "a", "standing", 1, 1): 7,
        ("open", "a", "standing", 2, 1): 6,
        ("open", "a", "destroyed", 3, 1): 1,
        ("open", "b", "standing", 1, 2): 6,
        ("open", "b", "standing", 3, 3): 6,
        ("open", "b", "destroyed", 1, 2): 1,
        ("open", "b", "destroyed", 2, 2): 1,
        # broken, 5 columns: 0 = (0, 0), 7 = (2, 1), 12 = (2, 2), 13 = (3, 2), 24 = (4, 4)
        ("broken", "a", "standing", 0, 0): 1,
        ("broken", "a", "standing", 2, 2): 1,
        ("broken", "a", "destroyed", 2, 1): 1,
        ("broken", "a", "destroyed", 2, 2): 1,
        ("broken", "b", "standing", 4, 4): 1,
        ("broken", "b", "standing", 3, 2): 2,
        ("broken", "b", "destroyed", 4, 4): 1,
    }
    # a board without a length (the track) is left out; none at all: no rows
    duels = positions(board, "duel_all", lengths={"broken": 5}, runs=["dm", "dt"])
    assert set(duels["run"]) == {"dm"} and duels["mechs"].sum() == 8
    assert positions(board, "teamfight", lengths={}).height == 0
