"""Ratings: a Bradley-Terry model fitted to round-robin results of any two-sided game.

Each team (or kit, or loadout) i has a strength exp(theta_i); P(i beats j) = 1 / (1 +
exp(theta_j - theta_i)). Draws count as half a win for each side. The fit
maximises the likelihood by Newton's method with the ratings centred (sum theta = 0);
95% intervals come from the observed information (the Hessian's pseudo-inverse).
Ratings are reported as Elo-like points, 400 / ln(10) per unit of theta.

Below the fit, how any estimate with a 95% interval is put into words (a rating, a
share, a gap between two groups), so that every sentence a report or a notebook prints
from simulation carries its interval and says when the data cannot decide:
:func:`compare` (two estimates: the higher, or "cannot decide" when the intervals
overlap), :func:`gap_sentence` (a difference whose interval holds 0 cannot be told from
none), :func:`nearest` (which estimate is nearest a target), :func:`sample_note` (a
sample of teams is not every team) and :func:`preview_note` (an N too small for the
readings).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping
from typing import Any

import numpy as np
import polars as pl

ELO = 400 / np.log(10)
Z95 = 1.96  # the 95% intervals every reading states
# The 95% half-width (Elo points) a reading of ratings needs before it is more than a
# preview: 10 points move the expected score between two teams by 1.4 points in 100,
# about what a designer can see at the table.
PRECISION = 10.0


def pairwise(win_rates: pl.DataFrame) -> pl.DataFrame:
    """Per ordered matchup of different teams: battles and side A's score points
    (wins + draws / 2), from ``queries.win_rates`` rows (both seats kept)."""
    return (
        win_rates.filter(pl.col("side_a") != pl.col("side_b"))
        .with_columns(points=pl.col("score_a") * pl.col("battles"))
        .select("side_a", "side_b", "battles", "points")
    )


def _fit(games: pl.DataFrame, iterations: int
         ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
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
    return pl.DataFrame({
        "team": teams,
        "rating": theta * ELO,
        "low": (theta - Z95 * se) * ELO,
        "high": (theta + Z95 * se) * ELO,
        "battles": battles.astype(np.int64),
        "expected_score": field,
    }).sort("rating", descending=True)  # fmt: skip


def mean_gap(games: pl.DataFrame, group: Collection[str], iterations: int = 100
             ) -> dict[str, float]:  # fmt: skip
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
    return {"gap": gap, "low": gap - half, "high": gap + half,
            "in_group": float(inside.sum()), "others": float((~inside).sum())}  # fmt: skip


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


# --- readings: estimates put into words with their intervals -------------------------------


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes`` in ``trials`` (successes may be
    fractional: wins + draws / 2); the same formula as the store's ``wilson_low`` and
    ``wilson_high`` macros. (nan, nan) without trials."""
    if trials <= 0:
        return math.nan, math.nan
    p, z2 = successes / trials, Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes <= 0 else centre - half
    high = 1.0 if successes >= trials else centre + half
    return low, high


def interval(value: float, low: float, high: float, fmt: str = "{:+.0f}") -> str:
    """``+40 (95% +10 to +70)``: an estimate as every sentence states it."""
    return f"{fmt.format(value)} (95% {fmt.format(low)} to {fmt.format(high)})"


def overlap(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether the 95% intervals (``low``, ``high``) of two estimates overlap."""
    return a["low"] <= b["high"] and b["low"] <= a["high"]


def compare(
    a: Mapping[str, Any], b: Mapping[str, Any], *, name: str = "team", value: str = "rating",
    fmt: str = "{:+.0f}", above: str = "rates above",
) -> str:  # fmt: skip
    """One sentence comparing two estimates (rows with ``name``, ``value``, ``low`` and
    ``high``, e.g. of :func:`bradley_terry`): the higher with both intervals when the
    intervals are apart (``<a> rates above <b>: ...``; ``above`` words the relation),
    else that the data cannot decide between them.

    Overlapping 95% intervals is the plain reader's test: a difference it calls
    undecided may yet be real, but one it calls decided is."""
    hi, lo = (a, b) if a[value] >= b[value] else (b, a)
    one = interval(hi[value], hi["low"], hi["high"], fmt)
    two = interval(lo[value], lo["low"], lo["high"], fmt)
    if overlap(a, b):
        return (f"The data cannot decide between {hi[name]}, {one}, and {lo[name]}, {two}: "
                f"their 95% intervals overlap.")  # fmt: skip
    return f"{hi[name]} {above} {lo[name]}: {one} against {two}."


def gap_sentence(gap: Mapping[str, float], group: str, others: str,
                 unit: str = "Elo points", verb: str = "rate") -> str:  # fmt: skip
    """A difference between two groups (``gap``, ``low``, ``high``, e.g. :func:`mean_gap`)
    in one sentence; when its interval holds 0 the data cannot decide whether the
    groups differ at all."""
    size, side = abs(gap["gap"]), "above" if gap["gap"] > 0 else "below"
    text = (f"{group} {verb} {size:.0f} {unit} {side} {others} on average (95% "
            f"{gap['low']:+.0f} to {gap['high']:+.0f})")  # fmt: skip
    if gap["low"] <= 0 <= gap["high"]:
        return text + ": the interval holds 0, so the data cannot decide whether they differ."
    return text + "."


def nearest(estimates: Mapping[Hashable, tuple[float, float, float]], target: float
            ) -> tuple[Hashable, list[Hashable]]:  # fmt: skip
    """The key whose estimate (value, low, high) is nearest ``target``, and the other keys
    the data cannot tell from it: those whose interval may lie as near the target as the
    nearest one's farthest end."""
    if not estimates:
        raise ValueError("nearest: no estimates")

    def far(low: float, high: float) -> float:
        return max(abs(low - target), abs(high - target))

    def near(low: float, high: float) -> float:
        return 0.0 if low <= target <= high else min(abs(low - target), abs(high - target))

    best = min(estimates, key=lambda k: abs(estimates[k][0] - target))
    reach = far(*estimates[best][1:])
    ties = [k for k, (_, low, high) in estimates.items() if k != best and near(low, high) <= reach]
    return best, ties


def nearest_sentence(estimates: Mapping[Hashable, tuple[float, float, float]], target: float,
                     *, what: str = "{}", fmt: str = "{:.1%}", goal: str = "the target"
                     ) -> str:  # fmt: skip
    """:func:`nearest` in one sentence: the nearest with its interval, and the others the
    data cannot tell from it (``what`` formats a key, e.g. ``"value {}"``)."""
    best, ties = nearest(estimates, target)
    value, low, high = estimates[best]
    text = f"{what.format(best)} comes nearest {goal}: {interval(value, low, high, fmt)}"
    if not ties:
        return text + ", clear of the others."
    others = "; ".join(f"{what.format(k)}, {interval(*estimates[k], fmt)}" for k in ties)
    return (text + f"; the data cannot decide between it and {others}: their intervals "
            f"reach as near.")  # fmt: skip


def sample_note(rated: int, of: int | None, what: str = "teams") -> str:
    """A sentence saying the rated set is a sample, or "" when it is every one of ``of``
    (None: unknown, said as such)."""
    if of is not None and rated >= of:
        return ""
    whole = f"the {of:,} legal {what}" if of is not None else f"every {what[:-1]}"
    return (f"These are {rated} of {whole}, a sample: the best of them need not be the best "
            f"of all, and ratings are relative to the teams rated.")  # fmt: skip


def half_width(fit: pl.DataFrame) -> float:
    """The mean 95% half-width of a fit's ratings (Elo points)."""
    return float(((fit["high"] - fit["low"]) / 2).mean())


def needed_n(n: int, half: float, target: float = PRECISION) -> int:
    """The N that brings a 95% half-width ``half`` seen at ``n`` down to ``target``:
    intervals shrink as one over the square root of N."""
    return math.ceil(n * (half / target) ** 2)


def preview_note(n: int, fit: pl.DataFrame, target: float = PRECISION) -> str | None:
    """A line saying the readings of ``fit`` (made from ``n`` battles) are a preview, when
    its ratings are known less tightly than ``target`` Elo points; else None."""
    half = half_width(fit)
    if half <= target:
        return None
    return (f"PREVIEW: {n:,} battles give each rating to +/-{half:.0f} Elo points (mean 95% "
            f"half-width); the readings below need +/-{target:.0f}, about "
            f"{needed_n(n, half, target):,} battles. Do not act on them before such a rerun.")


def best_sentence(fit: pl.DataFrame, what: str = "team", name: str = "team",
                  value: str = "rating") -> str:  # fmt: skip
    """Which rated ``what`` is best, with its interval, or that the data cannot decide:
    every other whose 95% interval reaches the best one's is named (up to three)."""
    if not fit.height:
        return f"No {what} was rated."
    ranked = fit.sort(value, name, descending=[True, False])
    top = ranked.row(0, named=True)
    estimate = interval(top[value], top["low"], top["high"])
    if ranked.height == 1:
        return f"Only one {what} was rated: {top[name]}, {estimate}."
    lead = f"{top[name]} rates highest, {estimate}"
    rivals = ranked.slice(1).filter(pl.col("high") >= top["low"])
    if not rivals.height:
        nxt = ranked.row(1, named=True)
        return (f"{lead}, clear of every other rated {what} (the next, "
                f"{nxt[name]}, {interval(nxt[value], nxt['low'], nxt['high'])}).")  # fmt: skip
    shown = [f"{r[name]}, {interval(r[value], r['low'], r['high'])}"
             for r in rivals.head(3).iter_rows(named=True)]  # fmt: skip
    more = f" and {rivals.height - 3} more" if rivals.height > 3 else ""
    return (f"The data cannot decide which {what} is best: {lead}, but the 95% "
            f"intervals of {rivals.height} other{'s' if rivals.height > 1 else ''} overlap "
            f"it ({'; '.join(shown)}{more}).")  # fmt: skip
