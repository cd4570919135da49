"""Skirmish balance flags against limits.toml: the numbers behind each sentence."""

import polars as pl
import pytest

from analysis.flags import Limit, load_limits
from analysis.skirmish.flags import LIMITS, crit_share_flags, win_rate_flags
from sims.skirmish import exact
from tests.conftest import CATALOGS


def test_crit_share_flags_name_the_railgun(skirmish):
    limits = load_limits(CATALOGS / "skirmish" / "limits.toml", LIMITS)
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
