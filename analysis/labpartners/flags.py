"""Mech Lab Partners balance flags (limits in ``catalogs/labpartners/limits.toml``), read
from the whole-game study ``full-spread-vs-alpha``: kaiju whose win rate with the full
spread, and kaiju whose alpha-minus-full gap, leave their limits.

A flag is raised by the one flag rule of :mod:`analysis.flags`: only when the 95%
interval lies wholly outside the limits.
"""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit, beyond
from analysis.flags import pct as _pct
from analysis.readings import wilson

LIMITS = ("win_rate", "deck_gap")


def win_rate_flags(win: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Kaiju the full spread beats too rarely or too often: ``win`` holds one row per
    kaiju (``kaiju``, ``games``, ``wins``: whole games with the full spread, every player
    count pooled). Flagged when the 95% Wilson interval of the win rate lies wholly
    outside the limit."""
    flags = []
    for kaiju, games, wins in win.sort("kaiju").select("kaiju", "games", "wins").iter_rows():
        rate = wins / games
        low, high = wilson(wins, games)
        if (out := beyond(low, high, limit)) is None:
            continue
        side, bound = out
        flags.append(
            Flag(
                kaiju,
                "win_rate",
                rate,
                f"With the full spread {kaiju} is beaten in {_pct(rate)} of whole "
                f"games (95% interval {_pct(low)} to {_pct(high)}), {side} the "
                f"limit of {_pct(bound)}.",
                f"simulated: {games:,} whole games with the full spread, every "
                f"player count pooled; {caption}",
            )
        )
    return flags


def abs_interval(diff: float, low: float, high: float) -> tuple[float, float, float]:
    """|diff| and the interval of |diff| that [low, high] gives: folded at 0, so an
    interval holding 0 starts at 0."""
    if low >= 0:
        return abs(diff), low, high
    if high <= 0:
        return abs(diff), -high, -low
    return abs(diff), 0.0, max(-low, high)


def deck_gap_flags(gaps: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Kaiju the alpha deck makes too hard or too easy: ``gaps`` holds one row per kaiju
    (``kaiju``, ``games``, ``diff``, ``low``, ``high``: the alpha's win rate minus the full
    spread's in the same games, as a fraction, with its paired 95% interval). Flagged
    when the interval of the gap's size |alpha - full| lies wholly outside the limit."""
    flags = []
    rows = gaps.sort("kaiju").select("kaiju", "games", "diff", "low", "high").iter_rows()
    for kaiju, games, diff, low, high in rows:
        size, size_low, size_high = abs_interval(diff, low, high)
        if (out := beyond(size_low, size_high, limit)) is None:
            continue
        side, bound = out
        verb = "harder" if diff < 0 else "easier"
        flags.append(
            Flag(
                kaiju,
                "deck_gap",
                diff,
                f"The catalog's alpha (one invented list, not the printed alpha) makes "
                f"{kaiju} {verb}: its win rate is "
                f"{100 * diff:+.1f} percentage points from the full spread's "
                f"(95% {100 * low:+.1f} to {100 * high:+.1f}), a gap {side} the "
                f"limit of {100 * bound:.1f} points.",
                f"simulated: {games:,} whole games each played with both decks "
                f"(paired difference, every player count pooled); "
                f"{caption}",
            )
        )
    return flags
