"""What a robustness pass (:mod:`analysis.robust`) found, verdict by verdict: a
:class:`Check` per verdict and variant, and the :class:`Tag` a page prints beside a
headline (robust, fragile naming what flips it, unconfirmed, not checked), worded by
:func:`classify`. Names no game."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from analysis.verdicts import VARIANT_KINDS, Outcome, Variant, Verdict
from sims.core import readings as rd

KIND_WORDS = {
    "seat": ("seat", "both seats"),
    "reading": ("reading alternative", "reading alternatives"),
    "policy": ("policy", "policies"),
    "end": ("map end", "map ends"),
    "sample": ("sampled list", "sampled lists"),
    "placeholder": ("placeholder draw", "placeholder draws"),
}


@dataclass(frozen=True)
class Check:
    """One verdict under one variant: its outcome, and whether it is the same verdict
    (``holds``: None when it could not be checked: ``status`` says why)."""

    verdict: str
    variant: str
    kind: str
    status: str  # "checked", "unchecked" (budget), "invalid" (the variant does not load)
    holds: bool | None = None
    label: str = ""
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    text: str = ""


@dataclass(frozen=True)
class Tag:
    """A verdict's robustness: ``status`` robust | fragile | unconfirmed (it held where
    checked, but not every variant was checked) | unchecked; ``words`` the tag a page
    prints beside the headline."""

    verdict: str
    claim: str
    kind: str
    base: Outcome
    status: str
    words: str
    flips: tuple[Check, ...] = ()
    moved_by: tuple[tuple[str, float], ...] = ()  # placeholders most correlated with the value


def _count_words(counter: Counter[str]) -> str:
    parts = []
    for kind in VARIANT_KINDS:
        k = counter.get(kind, 0)
        if not k:
            continue
        one, many = KIND_WORDS[kind]
        parts.append(many if kind == "seat" and k == 2 else f"{k} {one if k == 1 else many}")
    if not parts:
        return "no variant"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _fmt(value: float, unit: str = "share") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if unit == "share":
        return f"{100 * value:.1f}%"
    if unit == "points":  # a difference of two shares, in percentage points
        return f"{100 * value:+.1f} points"
    return f"{value:+.2f}"


def classify(
    verdict: Verdict,
    base: Outcome,
    checks: Sequence[Check],
    variants: Sequence[Variant],
    items: Sequence[rd.Placeholder],
    draws: Sequence[Mapping[str, int]],
) -> Tag:
    mine = [c for c in checks if c.verdict == verdict.id]
    done = [c for c in mine if c.status == "checked"]
    flips = tuple(c for c in done if c.holds is False)
    unchecked = [c for c in mine if c.status == "unchecked"]
    invalid = [c for c in mine if c.status == "invalid"]
    held = Counter(c.kind for c in done if c.holds)
    moved = _moved_by(verdict.id, mine, items, draws)
    if not done:
        status, words = (
            "unchecked",
            "not checked: "
            + ("the budget ran out before any variant" if unchecked else "no variant applies"),
        )
    elif flips:
        named = [c for c in flips if c.kind != "placeholder"]
        ph = [c for c in flips if c.kind == "placeholder"]
        # every variant that flips it, named with the verdict it gives instead (the
        # sentences are on the robustness page and in the checks CSV)
        parts = [f"{c.variant} ({c.label}, {_fmt(c.value, verdict.unit)})" for c in named]
        if ph:
            total = sum(1 for c in done if c.kind == "placeholder")
            lead = f"; most moved by {moved[0][0]} (r = {moved[0][1]:+.2f})" if moved else ""
            parts.append(f"the placeholders ({len(ph)} of {total} draws flip it{lead})")
        status, words = "fragile", "fragile: depends on " + "; ".join(parts)
        if held:
            words += f"; holds under {_count_words(held)}"
    elif unchecked:
        status = "unconfirmed"
        words = (
            f"holds where checked ({_count_words(held)}); "
            f"{len({c.variant for c in unchecked})} variants not checked (budget)"
        )
    else:
        total = sum(held.values())
        status = "robust"
        words = f"robust: holds under all {total} variants ({_count_words(held)})"
    if invalid:
        words += f" ({len({c.variant for c in invalid})} variants did not load)"
    return Tag(verdict.id, verdict.claim, verdict.kind, base, status, words, flips, moved)


def _moved_by(
    verdict_id: str,
    checks: Sequence[Check],
    items: Sequence[rd.Placeholder],
    draws: Sequence[Mapping[str, int]],
) -> tuple[tuple[str, float], ...]:
    """The placeholders whose drawn values correlate most with the verdict's number over
    the draws (Pearson r, strongest first, |r| >= 0.3): what to pin down first."""
    by_draw = {
        c.variant: c.value for c in checks if c.kind == "placeholder" and c.status == "checked"
    }
    idx = [i for i in range(len(draws)) if f"placeholders#{i + 1}" in by_draw]
    if len(idx) < 6:  # too few draws to say which value moves it
        return ()
    y = np.array([by_draw[f"placeholders#{i + 1}"] for i in idx], dtype=float)
    if not np.isfinite(y).all() or y.std() == 0:
        return ()
    out = []
    for p in items:
        x = np.array([draws[i][p.name] for i in idx], dtype=float)
        if x.std() == 0:
            continue
        r = float(np.corrcoef(x, y)[0, 1])
        if abs(r) >= 0.3:
            out.append((p.name, round(r, 3)))
    return tuple(sorted(out, key=lambda t: -abs(t[1]))[:5])
