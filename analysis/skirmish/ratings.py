"""Mecha Skirmish readings of team ratings (:mod:`analysis.ratings`): the best rated team
at each Team Cap (003 B3) and whether Heavies are viable."""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from analysis.ratings import bradley_terry, pairwise

__all__ = ["bradley_terry", "pairwise", "best_by_cap", "by_heavies"]  # the fit, and its readings

def best_by_cap(ratings: pl.DataFrame, weights: dict[str, int], caps: Iterable[int]
                ) -> pl.DataFrame:  # fmt: skip
    """The highest-rated team whose fielded Weight fits each Team Cap (B3)."""
    rows = []
    for cap in caps:
        fits = ratings.filter(pl.col("team").replace_strict(weights, default=10**9) <= cap)
        if fits.height:
            top = fits.row(0, named=True)
            rows.append({
                "team_cap": cap, "team": top["team"], "weight": weights[top["team"]],
                "rating": top["rating"], "low": top["low"], "high": top["high"],
            })  # fmt: skip
    return pl.DataFrame(rows)


def by_heavies(fit: pl.DataFrame, heavies: dict[str, int]) -> pl.DataFrame:
    """Are Heavies viable? The rated teams grouped by how many Heavy mechs they field:
    per count, the teams, the best team with its rating and rank (1 = the best of all
    rated teams), the mean rating, and how many of the top quarter of all rated teams
    (rank at most ceil(teams / 4)) field that many Heavies.

    ``fit`` from :func:`bradley_terry`; ``heavies`` maps each team to its Heavy count."""
    missing = sorted(set(fit["team"]) - set(heavies))
    if missing:
        raise ValueError(f"by_heavies: no Heavy count for team(s) {', '.join(missing)}")
    ranked = fit.sort("rating", "team", descending=[True, False]).with_columns(
        rank=pl.int_range(1, fit.height + 1, dtype=pl.Int64),
        heavies=pl.col("team").replace_strict(heavies, return_dtype=pl.Int64),
    )
    quarter = -(-fit.height // 4)  # ceil: the top quarter holds at least one team
    return (
        ranked.group_by("heavies")
        .agg(
            teams=pl.len(),
            best_team=pl.col("team").first(),  # ranked: the first is the best
            best_rating=pl.col("rating").first(),
            best_rank=pl.col("rank").first(),
            mean_rating=pl.col("rating").mean(),
            in_top_quarter=(pl.col("rank") <= quarter).sum(),
        )
        .with_columns(pl.col("teams", "in_top_quarter").cast(pl.Int64))
        .sort("heavies")
    )
