"""Mecha Skirmish balance flags (limits in ``catalogs/skirmish/limits.toml``): weapons
whose exact crit share, and kits whose simulated duel standing (their score over every
other kit, mirrors left out), leave their limits, by the one flag rule of
:mod:`analysis.flags` (the whole 95% interval beyond the limit; an exact share is its
own interval)."""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit, Standing, beyond, standing_flags
from analysis.flags import pct as _pct

LIMITS = ("crit_share", "win_rate")


def crit_share_flags(weapon_vs_kit: pl.DataFrame, limit: Limit, margin: int) -> list[Flag]:
    """Weapons whose exact crit share, averaged over every kit, leaves the limits."""
    per_weapon = weapon_vs_kit.group_by("weapon", maintain_order=True).agg(
        pl.col("crit_share_float").mean().alias("share"), pl.len().alias("kits")
    )
    flags = []
    for weapon, share, kits in per_weapon.iter_rows():
        if (out := beyond(share, share, limit)) is None:
            continue
        side, bound = out
        evidence = (
            "exact: weapon_vs_kit.csv attacker (Gunnery 2, no Head Acc, no modifier dice, "
            f"no cover), averaged over {kits} kits at crit margin {margin}"
        )
        flags.append(
            Flag(
                weapon,
                "crit_share",
                share,
                f"The {weapon} crits on {_pct(share)} of its hits, {side} the "
                f"limit of {_pct(bound)}.",
                evidence,
            )
        )
    return flags


def win_rate_flags(standings: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Kits whose duel standing leaves the limits: ``standings`` is
    :func:`analysis.skirmish.queries.standings` of one run (``side``, ``battles``,
    ``score``, ``low``, ``high``: the kit's score over both seats against every other
    kit, draws counted half, with its 95% Wilson interval)."""

    def words(s: Standing, side: str, bound: float) -> tuple[str, str]:
        return (
            f"The {s.subject} scores {_pct(s.score)} in its duels "
            f"(95% interval {_pct(s.low)} to {_pct(s.high)}), {side} "
            f"the limit of {_pct(bound)}.",
            f"simulated: {s.games:,} duels against every other kit, both seats; {caption}",
        )

    return standing_flags(standings, "side", "battles", limit, words)
