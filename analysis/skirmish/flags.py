"""Mecha Skirmish balance flags (limits in ``catalogs/skirmish/limits.toml``): weapons
whose exact crit share, and kits whose simulated duel score, leave their limits."""

from __future__ import annotations

import polars as pl

from analysis.flags import Flag, Limit, outside
from analysis.flags import pct as _pct
from analysis.readings import wilson

LIMITS = ("crit_share", "win_rate")


def crit_share_flags(weapon_vs_kit: pl.DataFrame, limit: Limit, margin: int) -> list[Flag]:
    """Weapons whose exact crit share, averaged over every kit, leaves the limits."""
    per_weapon = weapon_vs_kit.group_by("weapon", maintain_order=True).agg(
        pl.col("crit_share_float").mean().alias("share"), pl.len().alias("kits")
    )
    flags = []
    for weapon, share, kits in per_weapon.iter_rows():
        if (out := outside(share, limit)) is None:
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


def win_rate_flags(win_rates: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Kits whose duel score against every other kit leaves the limits. Both seats
    count: a kit's score as side A, and one minus its opponent's as side B. Each sentence
    gives the score's 95% Wilson interval, and says the data cannot decide when that
    interval reaches back inside the limits."""
    others = win_rates.filter(pl.col("side_a") != pl.col("side_b"))
    as_a = others.select(
        pl.col("side_a").alias("kit"), pl.col("score_a").alias("score"), pl.col("battles")
    )
    as_b = others.select(
        pl.col("side_b").alias("kit"), (1 - pl.col("score_a")).alias("score"), pl.col("battles")
    )
    both = pl.concat([as_a, as_b])
    per_kit = (
        both.group_by("kit", maintain_order=True)
        .agg(
            ((pl.col("score") * pl.col("battles")).sum() / pl.col("battles").sum()).alias("score"),
            pl.col("battles").sum(),
        )
        .sort("score")
    )
    flags = []
    for kit, score, battles in per_kit.iter_rows():
        if (out := outside(score, limit)) is None:
            continue
        side, bound = out
        low, high = wilson(score * battles, battles)
        undecided = (
            f"; the interval reaches inside the limits, so the data cannot decide whether it "
            f"is really {side} them (a larger --n can)"
            if low <= bound <= high
            else ""
        )
        flags.append(
            Flag(
                kit,
                "win_rate",
                score,
                f"The {kit} scores {_pct(score)} in its duels "
                f"(95% interval {_pct(low)} to {_pct(high)}), {side} "
                f"the limit of {_pct(bound)}{undecided}.",
                f"simulated: {battles:,} duels against every other kit, both seats; {caption}",
            )
        )
    return flags
