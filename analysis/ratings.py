"""Team ratings: a Bradley-Terry model fitted to round-robin results (issue 6).

Each team i has a strength exp(theta_i); P(i beats j) = 1 / (1 + exp(theta_j - theta_i)).
Draws count as half a win for each side, as in the Skirmish scoring reading. The fit
maximises the likelihood by Newton's method with the ratings centred (sum theta = 0);
95% intervals come from the observed information (the Hessian's pseudo-inverse).
Ratings are reported as Elo-like points, 400 / ln(10) per unit of theta.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import polars as pl

ELO = 400 / np.log(10)


def pairwise(win_rates: pl.DataFrame) -> pl.DataFrame:
    """Per ordered matchup of different teams: battles and side A's score points
    (wins + draws / 2), from ``queries.win_rates`` rows (both seats kept)."""
    return (
        win_rates.filter(pl.col("side_a") != pl.col("side_b"))
        .with_columns(points=pl.col("score_a") * pl.col("battles"))
        .select("side_a", "side_b", "battles", "points")
    )


def bradley_terry(games: pl.DataFrame, iterations: int = 100) -> pl.DataFrame:
    """Fit ratings to ``pairwise`` rows; returns team, rating, low, high (Elo points, 95%),
    battles, and the score the model expects against the field."""
    teams = sorted(set(games["side_a"]) | set(games["side_b"]))
    index = {t: i for i, t in enumerate(teams)}
    a = np.array([index[t] for t in games["side_a"]])
    b = np.array([index[t] for t in games["side_b"]])
    n = games["battles"].to_numpy().astype(float)
    won = games["points"].to_numpy().astype(float)
    k = len(teams)
    theta = np.zeros(k)
    for _ in range(iterations):
        p, hess = _information(theta, a, b, n, k)
        grad = np.bincount(a, won - n * p, k) - np.bincount(b, won - n * p, k)
        step = np.linalg.pinv(hess) @ grad
        theta += step
        theta -= theta.mean()  # the model fixes only differences
        if np.abs(step).max() < 1e-10:
            break
    _, hess = _information(theta, a, b, n, k)
    se = np.sqrt(np.clip(np.diag(np.linalg.pinv(hess)), 0, None))
    battles = np.bincount(a, n, k) + np.bincount(b, n, k)
    field = np.array([np.mean(1 / (1 + np.exp(np.delete(theta, i) - theta[i]))) for i in range(k)])
    return pl.DataFrame({
        "team": teams,
        "rating": theta * ELO,
        "low": (theta - 1.96 * se) * ELO,
        "high": (theta + 1.96 * se) * ELO,
        "battles": battles.astype(np.int64),
        "expected_score": field,
    }).sort("rating", descending=True)  # fmt: skip


def _information(theta: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray,
                 k: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """P(a beats b) per row and the observed information (minus the log-likelihood's
    Hessian) over the ratings: a graph Laplacian weighted by n p (1 - p)."""
    p = 1 / (1 + np.exp(theta[b] - theta[a]))
    w = n * p * (1 - p)
    hess = np.zeros((k, k))
    np.add.at(hess, (a, a), w)
    np.add.at(hess, (b, b), w)
    np.add.at(hess, (a, b), -w)
    np.add.at(hess, (b, a), -w)
    return p, hess


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
