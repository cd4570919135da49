"""Ratings: a Bradley-Terry model fitted to round-robin results of any two-sided game.

Each team (or kit, or loadout) i has a strength exp(theta_i); P(i beats j) = 1 / (1 +
exp(theta_j - theta_i)). Draws count as half a win for each side. The fit
maximises the likelihood by Newton's method with the ratings centred (sum theta = 0);
95% intervals come from the observed information (the Hessian's pseudo-inverse).
Ratings are reported as Elo-like points, 400 / ln(10) per unit of theta.
"""

from __future__ import annotations

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
