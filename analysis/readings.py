"""Estimates put into words with their 95% intervals, so that every sentence a report
or a notebook prints from simulation carries its interval and says when the data cannot
decide: :func:`compare` (two estimates: the higher, or "cannot decide" when the
intervals overlap), :func:`gap_sentence` (a difference whose interval holds 0 cannot be
told from none), :func:`nearest` (which estimate is nearest a target),
:func:`best_sentence` (the best of a fit, or the rivals it cannot be told from),
:func:`sample_note` (a sample of teams is not every team) and :func:`preview_note` (an N
too small for the readings). Estimates are rows with ``low`` and ``high``, e.g. of
:func:`analysis.ratings.bradley_terry`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

import polars as pl

Z95 = 1.96  # the 95% intervals every reading states
# The 95% half-width (Elo points) a reading of ratings needs before it is more than a
# preview: 10 points move the expected score between two teams by 1.4 points in 100,
# about what a designer can see at the table.
PRECISION = 10.0


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
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    *,
    name: str = "team",
    value: str = "rating",
    fmt: str = "{:+.0f}",
    above: str = "rates above",
) -> str:
    """One sentence comparing two estimates (rows with ``name``, ``value``, ``low`` and
    ``high``, e.g. a ratings fit): the higher with both intervals when the
    intervals are apart (``<a> rates above <b>: ...``; ``above`` words the relation),
    else that the data cannot decide between them.

    Overlapping 95% intervals is the plain reader's test: a difference it calls
    undecided may yet be real, but one it calls decided is."""
    hi, lo = (a, b) if a[value] >= b[value] else (b, a)
    one = interval(hi[value], hi["low"], hi["high"], fmt)
    two = interval(lo[value], lo["low"], lo["high"], fmt)
    if overlap(a, b):
        return (
            f"The data cannot decide between {hi[name]}, {one}, and {lo[name]}, {two}: "
            f"their 95% intervals overlap."
        )
    return f"{hi[name]} {above} {lo[name]}: {one} against {two}."


def gap_sentence(
    gap: Mapping[str, float], group: str, others: str, unit: str = "Elo points", verb: str = "rate"
) -> str:
    """A difference between two groups (``gap``, ``low``, ``high``, e.g. a ratings
    ``mean_gap``) in one sentence; when its interval holds 0 the data cannot decide
    whether the groups differ at all."""
    size, side = abs(gap["gap"]), "above" if gap["gap"] > 0 else "below"
    text = (
        f"{group} {verb} {size:.0f} {unit} {side} {others} on average (95% "
        f"{gap['low']:+.0f} to {gap['high']:+.0f})"
    )
    if gap["low"] <= 0 <= gap["high"]:
        return text + ": the interval holds 0, so the data cannot decide whether they differ."
    return text + "."


def nearest(
    estimates: Mapping[Hashable, tuple[float, float, float]], target: float
) -> tuple[Hashable, list[Hashable]]:
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


def nearest_sentence(
    estimates: Mapping[Hashable, tuple[float, float, float]],
    target: float,
    *,
    what: str = "{}",
    fmt: str = "{:.1%}",
    goal: str = "the target",
) -> str:
    """:func:`nearest` in one sentence: the nearest with its interval, and the others the
    data cannot tell from it (``what`` formats a key, e.g. ``"value {}"``)."""
    best, ties = nearest(estimates, target)
    value, low, high = estimates[best]
    text = f"{what.format(best)} comes nearest {goal}: {interval(value, low, high, fmt)}"
    if not ties:
        return text + ", clear of the others."
    others = "; ".join(f"{what.format(k)}, {interval(*estimates[k], fmt)}" for k in ties)
    return (
        text + f"; the data cannot decide between it and {others}: their intervals reach as near."
    )


def sample_note(rated: int, of: int | None, what: str = "teams") -> str:
    """A sentence saying the rated set is a sample, or "" when it is every one of ``of``
    (None: unknown, said as such)."""
    if of is not None and rated >= of:
        return ""
    whole = f"the {of:,} legal {what}" if of is not None else f"every {what[:-1]}"
    return (
        f"These are {rated} of {whole}, a sample: the best of them need not be the best "
        f"of all, and ratings are relative to the teams rated."
    )


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
    return (
        f"PREVIEW: {n:,} battles give each rating to +/-{half:.0f} Elo points (mean 95% "
        f"half-width); the readings below need +/-{target:.0f}, about "
        f"{needed_n(n, half, target):,} battles. Do not act on them before such a rerun."
    )


def best_sentence(
    fit: pl.DataFrame, what: str = "team", name: str = "team", value: str = "rating"
) -> str:
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
        return (
            f"{lead}, clear of every other rated {what} (the next, "
            f"{nxt[name]}, {interval(nxt[value], nxt['low'], nxt['high'])})."
        )
    shown = [
        f"{r[name]}, {interval(r[value], r['low'], r['high'])}"
        for r in rivals.head(3).iter_rows(named=True)
    ]
    more = f" and {rivals.height - 3} more" if rivals.height > 3 else ""
    return (
        f"The data cannot decide which {what} is best: {lead}, but the 95% "
        f"intervals of {rivals.height} other{'s' if rivals.height > 1 else ''} overlap "
        f"it ({'; '.join(shown)}{more})."
    )
