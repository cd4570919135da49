"""Alluvion Knights balance flags (limits in ``catalogs/alluvion/limits.toml``), read from
the ``loadouts`` round robin: loadouts whose standing (their score over the whole round
robin, mirrors left out) leaves ``loadout_score``, by the one flag rule of
:mod:`analysis.flags` (the whole 95% interval beyond the limit).
"""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit, Standing, standing_flags
from analysis.flags import pct as _pct

LIMITS = ("loadout_score",)


def score_flags(standings: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Loadouts that win too often or too rarely: ``standings`` is
    :func:`analysis.alluvion.queries.standings` of one run (``loadout``, ``duels``,
    ``score``, ``low``, ``high``: the score wins + draws / 2 of the duels from the
    loadout's side against every other loadout, with its 95% Wilson interval)."""

    def words(s: Standing, side: str, bound: float) -> tuple[str, str]:
        return (
            f"{s.subject} scores {_pct(s.score)} over the round robin (95% "
            f"interval {_pct(s.low)} to {_pct(s.high)}), {side} the limit of "
            f"{_pct(bound)}.",
            f"simulated: {s.games:,} duels from {s.subject}'s side against every other "
            f"loadout (mirrors left out), draws counted half; {caption}",
        )

    return standing_flags(standings, "loadout", "duels", limit, words)
