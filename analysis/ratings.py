"""Ratings: a Bradley-Terry model fitted to round-robin results of any two-sided game.

Each team (or kit, or build) i has a strength exp(theta_i); P(i beats j) = 1 / (1 +
exp(theta_j - theta_i)). Draws count as half a win for each side. The fit
maximises the likelihood by Newton's method with the ratings centred (sum theta = 0);
95% intervals come from the observed information (the Hessian's pseudo-inverse).
Ratings are reported as Elo-like points, 400 / ln(10) per unit of theta.

How a fit is put into words (best team, gaps, previews) is :mod:`analysis.readings`.
"""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np
import polars as pl

from analysis.readings import Z95

ELO = 400 / np.log(10)


def pairwise(win_rates: pl.DataFrame) -> pl.DataFrame:
    """Per ordered matchup of different teams: battles and side A's score points
    (wins + draws / 2), from ``queries.win_rates`` rows (both seats kept)."""
    return (
        win_rates.filter(pl.col("side_a") != pl.col("side_b"))
        .with_columns(points=pl.col("score_a") * pl.col("battles"))
        .select("side_a", "side_b", "battles", "points")
    )


def _fit(
    games: pl.DataFrame, iterations: int
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(teams, centred theta, their covariance, battles per team) fitted to ``pairwise``
    rows; the covariance is the observed information's pseudo-inverse."""
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
    battles = np.bincount(a, n, k) + np.bincount(b, n, k)
    return teams, theta, np.linalg.pinv(hess), battles


def bradley_terry(games: pl.DataFrame, iterations: int = 100) -> pl.DataFrame:
    """Fit ratings to ``pairwise`` rows; returns team, rating, low, high (Elo points, 95%),
    battles, and the score the model expects against the field."""
    teams, theta, cov, battles = _fit(games, iterations)
    k = len(teams)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    field = np.array([np.mean(1 / (1 + np.exp(np.delete(theta, i) - theta[i]))) for i in range(k)])
    return pl.DataFrame(
        {
            "team": teams,
            "rating": theta * ELO,
            "low": (theta - Z95 * se) * ELO,
            "high": (theta + Z95 * se) * ELO,
            "battles": battles.astype(np.int64),
            "expected_score": field,
        }
    ).sort("rating", descending=True)


def mean_gap(
    games: pl.DataFrame, group: Collection[str], iterations: int = 100
) -> dict[str, float]:
    """The mean rating of the rated teams in ``group`` minus that of the other rated teams
    (Elo points), with its 95% interval: ``gap``, ``low``, ``high``, ``in_group``,
    ``others`` (team counts).

    The interval comes from the fit's covariance, not from the teams' own intervals: the
    two means share every battle between the groups, so their intervals alone would
    mislead."""
    teams, theta, cov, _ = _fit(games, iterations)
    inside = np.array([t in set(group) for t in teams])
    if inside.all() or not inside.any():
        raise ValueError("mean_gap: the group must hold some of the rated teams, not all")
    contrast = np.where(inside, 1 / inside.sum(), -1 / (~inside).sum())
    gap = float(contrast @ theta) * ELO
    half = Z95 * math.sqrt(max(float(contrast @ cov @ contrast), 0.0)) * ELO
    return {
        "gap": gap,
        "low": gap - half,
        "high": gap + half,
        "in_group": float(inside.sum()),
        "others": float((~inside).sum()),
    }


def _information(
    theta: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray, k: int
) -> tuple[np.ndarray, np.ndarray]:
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
