"""sims.core.targets.score_target on hand-made rows (the experiment's run replaced): a
named pair scores its games from either seat; the opponent omitted gives the standing,
the mirror left out as in the report's flags."""

from pathlib import Path

import polars as pl
import pytest

from sims.core import targets

# X-Y with X as side a: X wins 3 of 4; Y-X with Y as side a: Y wins 1, X 2, 1 draw;
# the mirror X-X: side a wins 3 of 4 (winner codes: 0 side a, 1 side b, 2 draw).
ROWS = pl.DataFrame(
    {
        "fighter_a": ["X"] * 4 + ["Y"] * 4 + ["X"] * 4,
        "fighter_b": ["Y"] * 4 + ["X"] * 4 + ["X"] * 4,
        "winner": [0, 0, 0, 1, 0, 1, 1, 2, 0, 0, 0, 1],
    }
)


class Catalog:
    fighters = {"X": None, "Y": None}


@pytest.fixture
def target(monkeypatch):
    asked = []

    def run_rows(game, experiment, catalog, **kwargs):
        asked.append(kwargs["options"])
        return ROWS

    monkeypatch.setattr(targets, "run_rows", run_rows)
    t = targets.score_target(
        "toy", "bout", "fighter", "fighters", ("fighter", "opponent"), lambda c: c.fighters, "d"
    )
    return t, asked


def estimate(t, **filters):
    return {
        tuple(e.key.values()): (e.value, e.n)
        for e in t.estimate(Catalog(), filters, 12, 1, 1, Path("."))
    }


def test_a_named_pair_scores_both_seats_and_plays_only_them(target):
    t, asked = target
    # X against Y: 3 wins of 4 as side a; 2 wins and a draw of 4 as side b: 5.5 / 8
    assert estimate(t, fighter="X", opponent="Y") == {("X", "Y"): (5.5 / 8, 8)}
    assert asked == [{"fighters": ["X", "Y"]}]
    assert t.domains(Catalog()) == {"fighter": ["X", "Y"], "opponent": ["X", "Y"]}
    assert not t.exact and t.filters == ("fighter", "opponent")


def test_the_standing_leaves_the_mirror_out(target):
    t, asked = target
    # X's standing: its 8 games against Y, 5.5 points (the mirror's 4 games left out,
    # which would make it (5.5 + 3) / 12); Y's: 2.5 / 8
    assert estimate(t, fighter="*") == {("X",): (5.5 / 8, 8), ("Y",): (2.5 / 8, 8)}
    assert asked == [{}]  # every fighter is played
    # against each opponent the mirror is its own estimate, side a's results once
    assert estimate(t, fighter="X", opponent="*") == {
        ("X", "X"): (0.75, 4),
        ("X", "Y"): (5.5 / 8, 8),
    }
