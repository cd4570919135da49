"""analysis.round_robin on a hand-made round robin of two choices, X and Y: cells,
matchups and standings, the standing leaving the mirrors out."""

import duckdb
import pytest

from analysis import round_robin
from analysis.query import MACROS
from analysis.readings import wilson
from analysis.round_robin import RoundRobin

# (side_a, side_b, winner) and how many such games: X-Y with X as side a: X wins 3, Y 1;
# Y-X with Y as side a: Y wins 1, X 2, one draw; the mirror X-X: side a wins 3 of 4.
GAMES = [
    ("X", "Y", "a", 3),
    ("X", "Y", "b", 1),
    ("Y", "X", "a", 1),
    ("Y", "X", "b", 2),
    ("Y", "X", "draw", 1),
    ("X", "X", "a", 3),
    ("X", "X", "b", 1),
]
RR = RoundRobin("fighter", count="games")


@pytest.fixture
def con():
    con = duckdb.connect()
    con.execute(MACROS)
    con.execute(
        "CREATE TABLE rr (run VARCHAR, fighter_a VARCHAR, fighter_b VARCHAR, winner VARCHAR)"
    )
    for a, b, winner, times in GAMES:
        for _ in range(times):
            con.execute("INSERT INTO rr VALUES ('r', ?, ?, ?)", [a, b, winner])
    return con


def test_standings_leave_the_mirror_out(con):
    s = round_robin.standings(con, "rr", RR)
    assert s.columns == [
        "run",
        "fighter",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "low",
        "high",
    ]
    rows = {r["fighter"]: r for r in s.iter_rows(named=True)}
    # X: 8 games (4 + 4; the mirror's 4 left out), wins 3 + 2, one draw, losses 1 + 1:
    # (5 + 1/2) / 8 = 0.6875 (with the mirror from both sides it would be 9.5 / 16)
    x = rows["X"]
    assert (x["games"], x["wins"], x["draws"], x["losses"]) == (8, 5, 1, 2)
    assert x["score"] == 0.6875
    assert (x["low"], x["high"]) == pytest.approx(wilson(5.5, 8))
    y = rows["Y"]  # the other side of the same 8 games: (2 + 1/2) / 8
    assert (y["games"], y["wins"], y["draws"], y["losses"], y["score"]) == (8, 2, 1, 5, 0.3125)


def test_matchups_count_the_mirror_once_at_one_half(con):
    m = round_robin.matchups(con, "rr", RR)
    rows = {(r["fighter"], r["opponent"]): r for r in m.iter_rows(named=True)}
    assert sorted(rows) == [("X", "X"), ("X", "Y"), ("Y", "X")]
    mirror = rows[("X", "X")]
    assert (mirror["mirror"], mirror["games"], mirror["score"], mirror["low"]) == (
        True,
        4,
        0.5,
        0.5,
    )
    assert rows[("X", "Y")]["score"] == 0.6875 and rows[("Y", "X")]["score"] == 0.3125


def test_cells_are_side_a_per_ordered_pair(con):
    c = round_robin.cells(con, "rr", RR, extra={"rows": "count(*)"})
    assert c.columns[:9] == [
        "run",
        "fighter_a",
        "fighter_b",
        "games",
        "wins_a",
        "draws",
        "losses_a",
        "score_a",
        "score_low",
    ]
    cell = c.filter(c["fighter_a"] == "Y").row(0, named=True)
    assert (cell["games"], cell["wins_a"], cell["draws"], cell["losses_a"]) == (4, 1, 1, 2)
    assert cell["score_a"] == 0.375 and cell["rows"] == 4
    assert c.filter(c["fighter_a"] == "X")["score_a"].to_list() == [0.75, 0.75]  # X-X, X-Y


def test_a_game_without_draws_has_no_draw_column(con):
    con.execute("DELETE FROM rr WHERE winner = 'draw'")
    s = round_robin.standings(con, "rr", RoundRobin("fighter", count="games", draws=False))
    assert "draws" not in s.columns
    assert s.filter(s["fighter"] == "X")["score"].item() == 5 / 7
