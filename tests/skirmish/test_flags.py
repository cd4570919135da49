"""Balance flags against limits.toml: the numbers behind each sentence, and bad limits."""

import polars as pl
import pytest

from analysis.flags import Limit, crit_share_flags, load_limits, outside, win_rate_flags
from sims.core.catalog import CatalogError
from sims.skirmish import exact
from tests.conftest import CATALOGS


def test_outside():
    limit = Limit("x", "", 0.4, 0.6, "assumed")
    assert outside(0.5, limit) is None and outside(0.4, limit) is None
    assert outside(0.61, limit) == ("above", 0.6)
    assert outside(0.39, limit) == ("below", 0.4)


def test_crit_share_flags_name_the_railgun(skirmish):
    limits = load_limits(CATALOGS / "skirmish" / "limits.toml")
    flags = crit_share_flags(exact.weapon_vs_kit_table(skirmish), limits["crit_share"], 4)
    # only the railgun (Pen 5) crits on more than 40% of its hits, averaged over 8 kits
    assert [f.subject for f in flags] == ["railgun"]
    wvk = exact.weapon_vs_kit_table(skirmish).filter(pl.col("weapon") == "railgun")
    assert flags[0].value == pytest.approx(wvk["crit_share_float"].mean())
    assert flags[0].sentence.startswith("The railgun crits on 52.7% of its hits, above")


def test_win_rate_flags_count_both_seats():
    rows = [  # a beats b 80% as side A and 70% as side B: a scores 75%, b 25%
        {"side_a": "a", "side_b": "b", "score_a": 0.8, "battles": 1000},
        {"side_a": "b", "side_b": "a", "score_a": 0.3, "battles": 1000},
        {"side_a": "a", "side_b": "a", "score_a": 0.5, "battles": 1000},  # mirrors ignored
    ]
    flags = win_rate_flags(pl.DataFrame(rows), Limit("win_rate", "", 0.4, 0.6, "assumed"), "x")
    assert [(f.subject, round(f.value, 6)) for f in flags] == [("b", 0.25), ("a", 0.75)]
    assert "2,000 duels" in flags[0].evidence


@pytest.mark.parametrize(("text", "words"), [
    ('[win_rate]\nmeaning = "m"\nmin = "low"\nmax = 0.6\nprovenance = "assumed"\n',
     "limit 'win_rate', field 'min'"),
    ('[win_rate]\nmeaning = "m"\nmin = 0.7\nmax = 0.6\nprovenance = "assumed"\n',
     "min is above max"),
    ('[nope]\nmeaning = "m"\nmin = 0.1\nmax = 0.6\nprovenance = "assumed"\n', "unknown limit"),
    ('[win_rate]\nmeaning = "m"\nmin = 0.1\nmax = 0.6\n', "field 'provenance'"),
])  # fmt: skip
def test_bad_limits_are_one_line(tmp_path, text, words):
    path = tmp_path / "limits.toml"
    path.write_text(text)
    with pytest.raises(CatalogError) as err:
        load_limits(path)
    assert words in str(err.value) and "\n" not in str(err.value)
