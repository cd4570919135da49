"""Mecha Skirmish readings of team ratings (:mod:`analysis.ratings`): the best rated team
at each Team Cap (003 B3) and whether Heavies are viable, each sentence with its 95%
interval, saying when the data cannot decide, when the teams are a sample and when N
gives only a preview (:func:`caveats`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import polars as pl

from analysis import ratings, readings
from analysis.ratings import bradley_terry, pairwise
from analysis.readings import best_sentence

__all__ = [  # the fit, and its readings
    "bradley_terry",
    "pairwise",
    "best_by_cap",
    "by_heavies",
    "best_sentence",
    "heavy_sentence",
    "caveats",
]


def best_by_cap(
    ratings: pl.DataFrame, weights: dict[str, int], caps: Iterable[int]
) -> pl.DataFrame:
    """The highest-rated team whose fielded Weight fits each Team Cap (B3), with its 95%
    interval (``low``, ``high``)."""
    rows = []
    for cap in caps:
        fits = ratings.filter(pl.col("team").replace_strict(weights, default=10**9) <= cap)
        if fits.height:
            top = fits.row(0, named=True)
            rows.append(
                {
                    "team_cap": cap,
                    "team": top["team"],
                    "weight": weights[top["team"]],
                    "rating": top["rating"],
                    "low": top["low"],
                    "high": top["high"],
                }
            )
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


def heavy_sentence(
    fit: pl.DataFrame,
    by_heavy: pl.DataFrame,
    pairs: pl.DataFrame | None = None,
    heavies: Mapping[str, int] | None = None,
    sample: str = "",
) -> str:
    """A plain answer to "are Heavies viable?" from ``ratings.by_heavies``, every estimate
    with its 95% interval: the best team with a Heavy against the best team (or, when it
    is the best, against the best without one), and with ``pairs`` (``ratings.pairwise``)
    and ``heavies``, the mean gap between teams with and without a Heavy; ``sample`` (a
    ``readings.sample_note``) ends it when the teams are a sample."""
    n = fit.height
    heavy = by_heavy.filter(pl.col("heavies") > 0).sort("best_rank")
    if not heavy.height:
        return f"None of the {n} rated teams fields a Heavy: this run cannot say."
    top = heavy.row(0, named=True)
    ranked = fit.sort("rating", "team", descending=[True, False])
    mine = fit.filter(pl.col("team") == top["best_team"]).row(0, named=True)
    if top["best_rank"] == 1:
        light = (
            ranked.filter(pl.col("team").replace_strict(heavies, default=0) == 0)
            if heavies
            else ranked.slice(1)
        )
        rival = light.row(0, named=True) if light.height else None
        lead = f"The best rated team, {top['best_team']}, fields a Heavy (rank 1 of {n})."
        against = "the best team without a Heavy"
    else:
        rival = ranked.row(0, named=True)
        lead = f"The best team with a Heavy, {top['best_team']}, is rank {top['best_rank']} of {n}."
        against = "the best team"
    versus = ""
    if rival is not None:
        versus = f" Against {against}: {readings.compare(mine, rival)}"
    gap = ""
    lights = n - int(heavy["teams"].sum())
    if pairs is not None and heavies is not None and lights > 0:
        group = [t for t in fit["team"] if heavies.get(t, 0) > 0]
        gap = " " + readings.gap_sentence(
            ratings.mean_gap(pairs, group), "Teams with a Heavy", "teams without"
        )
    return (
        f"{lead}{versus}{gap} Teams with a Heavy are {heavy['in_top_quarter'].sum()} of the "
        f"top {-(-n // 4)} and {heavy['teams'].sum()} of all {n}."
        + (f" {sample}" if sample else "")
    )


def caveats(
    fit: pl.DataFrame, *, battles: int, legal_teams: int | None = None, custom: int = 0
) -> list[str]:
    """The lines to print before any reading of a ratings fit: PREVIEW when ``battles``
    leave the ratings wider than ``readings.PRECISION``, and that the teams are a sample
    when fewer than the ``legal_teams`` kit teams were rated (``custom``: generated teams
    among them, not counted)."""
    out = []
    if note := readings.preview_note(battles, fit):
        out.append(note)
    if legal_teams is not None and (
        note := readings.sample_note(fit.height - custom, legal_teams, "kit teams")
    ):
        out.append(note)
    return out
