"""Skirmish balance flags against limits.toml: the numbers behind each sentence."""

import polars as pl
import pytest

from analysis.flags import Limit, load_limits
from analysis.readings import wilson
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


def test_win_rate_flags_need_the_whole_interval_outside():
    # standings as queries.standings gives them (both seats, mirrors left out): a scores
    # 61.0% of 1,000 battles (95% 57.9% to 64.0%: reaches inside 60%, not flagged), b
    # 65.0% of 10,000 (64.1% to 65.9%: above), c 30.0% of 1,000 (27.2% to 32.9%: below)
    rows = []
    for side, battles, points in (("a", 1_000, 610), ("b", 10_000, 6_500), ("c", 1_000, 300)):
        low, high = wilson(points, battles)
        rows.append(
            {"side": side, "battles": battles, "score": points / battles, "low": low, "high": high}
        )
    limit = Limit("win_rate", "", 0.4, 0.6, "assumed")
    flags = win_rate_flags(pl.DataFrame(rows), limit, "x")
    assert [(f.subject, f.value) for f in flags] == [("b", 0.65), ("c", 0.3)]
    assert flags[0].sentence == (
        "The b scores 65.0% in its duels (95% interval 64.1% to 65.9%), above the limit of 60.0%."
    )
    assert flags[1].evidence == "simulated: 1,000 duels against every other kit, both seats; x"
