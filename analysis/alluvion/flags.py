"""Alluvion Knights balance flags (limits in ``catalogs/alluvion/limits.toml``), read from
the ``loadouts`` round robin: loadouts whose score over the whole round robin leaves
``loadout_score``.

A flag is raised only when the 95% Wilson interval of the score lies wholly outside the
limits: a point estimate outside them whose interval reaches back inside is noise the
data cannot tell from balance, and is not flagged (a larger --n may yet raise it).
"""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit
from analysis.flags import pct as _pct
from analysis.readings import wilson

LIMITS = ("loadout_score",)


def beyond(low: float, high: float, limit: Limit) -> tuple[str, float] | None:
    """("above", max) when the whole interval [low, high] lies above the limit's max,
    ("below", min) when it lies below its min, else None."""
    if low > limit.max:
        return "above", limit.max
    if high < limit.min:
        return "below", limit.min
    return None


def score_flags(standings: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Loadouts that win too often or too rarely: ``standings`` holds one row per loadout
    (``loadout``, ``duels``, ``wins``, ``draws``: the whole round robin from the loadout's
    side, mirrors included). Flagged when the 95% Wilson interval of the score (wins +
    draws / 2 of duels) lies wholly outside the limit."""
    flags = []
    rows = standings.sort("loadout").select("loadout", "duels", "wins", "draws").iter_rows()
    for loadout, duels, wins, draws in rows:
        points = wins + draws / 2
        score = points / duels
        low, high = wilson(points, duels)
        if (out := beyond(low, high, limit)) is None:
            continue
        side, bound = out
        flags.append(
            Flag(
                loadout,
                "loadout_score",
                score,
                f"{loadout} scores {_pct(score)} over the round robin (95% "
                f"interval {_pct(low)} to {_pct(high)}), {side} the limit of "
                f"{_pct(bound)}.",
                f"simulated: {duels:,} duels from {loadout}'s side against every "
                f"loadout (its mirror counted from both sides, each half a point), "
                f"draws counted half; {caption}",
            )
        )
    return flags
