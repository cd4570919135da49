"""ALPHASIDE balance flags (limits in ``catalogs/alphaside/limits.toml``), read from the
``duel`` round robin: units whose score over the whole round robin (wins against every
unit, mirrors included) leaves ``unit_score``.

A flag is raised only when the 95% Wilson interval of the score lies wholly outside the
limits: a point estimate outside them whose interval reaches back inside is noise the
data cannot tell from balance, and is not flagged (a larger --n may yet raise it).
"""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit
from analysis.flags import pct as _pct
from analysis.readings import wilson

LIMITS = ("unit_score",)


def beyond(low: float, high: float, limit: Limit) -> tuple[str, float] | None:
    """("above", max) when the whole interval [low, high] lies above the limit's max,
    ("below", min) when it lies below its min, else None."""
    if low > limit.max:
        return "above", limit.max
    if high < limit.min:
        return "below", limit.min
    return None


def score_flags(standings: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Units that win too often or too rarely: ``standings`` holds one row per unit
    (``unit``, ``games``, ``wins``: the whole round robin from the unit's seat, its
    mirror counted from both seats). Flagged when the 95% Wilson interval of the score
    (wins over games; equal VP goes to the side that acted last, so there are no draws)
    lies wholly outside the limit."""
    flags = []
    for unit, games, wins in standings.sort("unit").select("unit", "games", "wins").iter_rows():
        score = wins / games
        low, high = wilson(wins, games)
        if (out := beyond(low, high, limit)) is None:
            continue
        side, bound = out
        flags.append(
            Flag(
                unit,
                "unit_score",
                score,
                f"{unit} scores {_pct(score)} over the duel round robin (95% "
                f"interval {_pct(low)} to {_pct(high)}), {side} the limit of "
                f"{_pct(bound)}.",
                f"simulated: {games:,} engagements from {unit}'s seat against "
                f"every unit, one unit a side over a whole game (its mirror "
                f"counted from both seats, each half a point); {caption}",
            )
        )
    return flags
