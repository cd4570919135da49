"""Balance flags' generic parts: the one flag rule (the whole 95% interval beyond the limit,
mirrors left out of a standing), and bad limits.toml files in one line."""

import polars as pl
import pytest

from analysis.flags import RULE, Limit, Standing, beyond, load_limits, standing_flags
from analysis.readings import wilson
from sims.core.catalog import CatalogError

LIMIT = Limit("score", "", 0.3, 0.7, "assumed")


def test_beyond_needs_the_whole_interval_past_the_limit():
    assert beyond(0.69, 0.75, LIMIT) is None  # reaches back inside: not flagged
    assert beyond(0.25, 0.31, LIMIT) is None
    assert beyond(0.71, 0.80, LIMIT) == ("above", 0.7)
    assert beyond(0.20, 0.29, LIMIT) == ("below", 0.3)
    assert beyond(0.7, 0.7, LIMIT) is None  # on the limit is inside
    assert beyond(0.72, 0.72, LIMIT) == ("above", 0.7)  # an exact value is its own interval


def _standings(rows: list[tuple[str, int, float]]) -> pl.DataFrame:
    """Standings as round_robin.standings gives them: choice, games, score, interval."""
    out = []
    for side, games, points in rows:
        low, high = wilson(points, games)
        out.append(
            {"side": side, "games": games, "score": points / games, "low": low, "high": high}
        )
    return pl.DataFrame(out)


def test_a_point_estimate_beyond_the_limit_is_not_flagged_when_its_interval_crosses_it():
    # 75 points of 100 games: 75.0%, Wilson 95% interval 65.7% to 82.5%, across 70%;
    # 7,500 of 10,000: 75.0%, 74.1% to 75.8%, wholly above; 20 of 100: 13.3% to 28.9%,
    # wholly below 30%.
    standings = _standings([("c", 100, 75), ("a", 10_000, 7_500), ("b", 100, 20)])
    assert wilson(75, 100)[0] == pytest.approx(0.6570, abs=1e-4)
    assert wilson(7_500, 10_000)[0] == pytest.approx(0.7415, abs=1e-4)
    assert wilson(20, 100)[1] == pytest.approx(0.2889, abs=1e-4)

    def words(s: Standing, side: str, bound: float) -> tuple[str, str]:
        return f"{s.subject} {side} {bound}", f"{s.games} games"

    flags = standing_flags(standings, "side", "games", LIMIT, words)
    assert [(f.subject, f.limit, f.value, f.sentence) for f in flags] == [
        ("a", "score", 0.75, "a above 0.7"),
        ("b", "score", 0.2, "b below 0.3"),
    ]
    assert flags[0].evidence == "10000 games"


def test_the_rule_is_said_in_words():
    assert "whole 95% interval" in RULE and "mirror" in RULE


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[win_rate]\nmeaning = "m"\nmin = "low"\nmax = 0.6\nprovenance = "assumed"\n',
            "limit 'win_rate', field 'min'",
        ),
        (
            '[win_rate]\nmeaning = "m"\nmin = 0.7\nmax = 0.6\nprovenance = "assumed"\n',
            "min is above max",
        ),
        ('[nope]\nmeaning = "m"\nmin = 0.1\nmax = 0.6\nprovenance = "assumed"\n', "unknown limit"),
        ('[win_rate]\nmeaning = "m"\nmin = 0.1\nmax = 0.6\n', "field 'provenance'"),
    ],
)
def test_bad_limits_are_one_line(tmp_path, text, words):
    path = tmp_path / "limits.toml"
    path.write_text(text)
    with pytest.raises(CatalogError) as err:
        load_limits(path, ("win_rate",))
    assert words in str(err.value) and "\n" not in str(err.value)
