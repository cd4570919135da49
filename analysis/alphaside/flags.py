"""ALPHASIDE balance flags (limits in ``catalogs/alphaside/limits.toml``), read from the
``duel`` round robin: units whose standing (their score over the whole round robin,
mirrors left out) leaves ``unit_score``, by the one flag rule of :mod:`analysis.flags`
(the whole 95% interval beyond the limit).
"""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit, Standing, standing_flags
from analysis.flags import pct as _pct

LIMITS = ("unit_score",)


def score_flags(standings: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Units that win too often or too rarely: ``standings`` is
    :func:`analysis.alphaside.queries.standings` of one run (``unit``, ``games``,
    ``score``, ``low``, ``high``: wins over the games from the unit's seat against every
    other unit, with its 95% Wilson interval; equal VP goes to the side that acted last,
    so there are no draws)."""

    def words(s: Standing, side: str, bound: float) -> tuple[str, str]:
        return (
            f"{s.subject} scores {_pct(s.score)} over the duel round robin (95% "
            f"interval {_pct(s.low)} to {_pct(s.high)}), {side} the limit of "
            f"{_pct(bound)}.",
            f"simulated: {s.games:,} engagements from {s.subject}'s seat against "
            f"every other unit, one unit a side over a whole game (mirrors left out); "
            f"{caption}",
        )

    return standing_flags(standings, "unit", "games", limit, words)
