"""Verdicts: the headline sentences of a page (a flag, the best or worst choice, the
largest gap, a comparison of two lists) as objects that know how to recompute themselves from a
run's rows and when two outcomes are the same verdict (DESIGN.md "Verdicts: what they
rest on, whether they survive"). A game's analysis plugin declares them
(:attr:`analysis.plugin.Analysis.verdicts`) with the variants only it knows (its
policies, the ends of a map, its sampled lists: :attr:`analysis.plugin.Analysis.variants`);
:mod:`analysis.robust` reruns each under every variant and tags it robust or fragile.

A verdict's ``measure`` gets a :class:`RunRows` (a DuckDB connection whose view
``rows.view`` holds one run) and a seat: ``None`` for both seats pooled (what the page
states), ``"a"`` or ``"b"`` to read the same verdict from one seat's games only (a verdict
that has no seats declares ``seats=False``). It returns an :class:`Outcome`: the
``label`` that must stay the same for the verdict to hold (the best choice's id, a flag's
direction, the sign of a gap), the number behind it with its 95% interval, and the
sentence. Names no game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
import polars as pl

from analysis.flags import Limit, beyond

SEATS = ("a", "b")
# what kind of headline a verdict is; the page groups them in this order
KINDS = ("flag", "best", "worst", "gap", "comparison", "other")
# the kinds of variants, in the order mechbal robust runs them (cheapest and most
# telling first: a seat reads rows already run)
VARIANT_KINDS = ("seat", "reading", "policy", "end", "sample", "placeholder")


@dataclass(frozen=True)
class Outcome:
    label: str  # what must stay the same ("phantom", "above", "alpha ahead")
    value: float  # the number the verdict rests on (the tornado chart's axis)
    low: float = math.nan
    high: float = math.nan
    text: str = ""  # the sentence, e.g. "phantom leads at 73.0% (95% 71.2% to 74.8%)"


@dataclass(frozen=True)
class RunRows:
    """One run's rows, as a verdict reads them: ``con`` holds the view ``view`` of the
    run (and the store's Wilson macros); ``frame()`` is the whole run as polars."""

    con: duckdb.DuckDBPyConnection
    view: str
    run_id: str
    experiment: str
    # (label, the label read in its place): a variant that re-reads these rows with one
    # choice standing in for another (Variant.stand_in); a game's measure honours it
    stand_in: tuple[tuple[str, str], ...] = ()

    def frame(self) -> pl.DataFrame:
        from analysis.query import fetch

        return fetch(self.con, f'SELECT * FROM "{self.view}"')


def same_label(base: Outcome, other: Outcome) -> bool:
    return base.label == other.label


@dataclass(frozen=True)
class Verdict:
    """One headline: ``claim`` as the page says it, the run it reads (``experiment`` with
    ``options``; its N is the robust pass's) and how to recompute it."""

    id: str  # unique in the game: "best:loadout", "flag:loadout_score:phantom"
    kind: str  # one of KINDS
    claim: str  # "phantom is the best loadout"
    experiment: str
    measure: Callable[[RunRows, str | None], Outcome]
    options: Mapping[str, Any] = field(default_factory=dict)
    same: Callable[[Outcome, Outcome], bool] = same_label
    seats: bool = True  # measure(rows, "a"/"b") reads one seat's games
    # the run plays the pass's N // share games (a page that plays a study at a share of
    # its N declares the same share, so the pass reads the same run as the page)
    share: int = 1
    # how its value prints: share (a per cent), points (a difference of two shares, in
    # percentage points), number
    unit: str = "share"
    # whether the baseline outcome makes this a headline at all (a flag verdict is only
    # a headline when the baseline flags it); robust checks headlines only
    headline: Callable[[Outcome], bool] = lambda outcome: True

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"verdict {self.id!r}: kind {self.kind!r} is not one of {KINDS}")


@dataclass(frozen=True)
class Variant:
    """One alternative a verdict is rerun under: ``sets`` (--set names and values) and
    ``options`` (experiment options) added to the baseline's, on the same seed (common
    random numbers); or ``seat``, which re-reads the baseline's rows from one seat, or
    ``stand_in``, which re-reads them with one choice standing in for another."""

    id: str  # "smart_defense=all", "seat=a", "placeholders#3"
    kind: str  # one of VARIANT_KINDS
    words: str  # what it changes, as the page says it
    sets: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    seat: str | None = None
    # re-read the baseline's rows with one label standing in for another (no rerun): for
    # rows that already hold the stand-in's games on the same seeds (RunRows.stand_in)
    stand_in: Mapping[str, str] = field(default_factory=dict)
    experiments: tuple[str, ...] | None = None  # the experiments it applies to (None: all)

    @property
    def rereads(self) -> bool:
        """Whether it reads the baseline's rows again rather than rerunning."""
        return self.seat is not None or bool(self.stand_in)

    def __post_init__(self) -> None:
        if self.kind not in VARIANT_KINDS:
            raise ValueError(
                f"variant {self.id!r}: kind {self.kind!r} is not one of {VARIANT_KINDS}"
            )

    def applies(self, verdict: Verdict) -> bool:
        if self.seat is not None and not verdict.seats:
            return False
        return self.experiments is None or verdict.experiment in self.experiments


# ---- the verdicts of a standings table ---------------------------------------------------

# (rows, seat) -> one row per choice: the choice's id in column ``subject``, ``score``,
# ``low``, ``high`` (mirrors left out)
StandingsOf = Callable[[RunRows, str | None], pl.DataFrame]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _standing_text(row: Mapping[str, Any], metric: str) -> str:
    return f"{row['subject']} {metric} {_pct(row['score'])} (95% {_pct(row['low'])} to {_pct(row['high'])})"


def standing_verdicts(
    noun: str,
    experiment: str,
    standings: StandingsOf,
    *,
    metric: str = "scores",
    limit: Limit | None = None,
    subjects: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    seats: bool = True,
    share: int = 1,
) -> list[Verdict]:
    """The verdicts every round robin's standings carry: the best and the worst
    ``noun`` (label: the choice with the highest / lowest score) and, with a ``limit``,
    a flag verdict per choice in ``subjects`` (label: ``above``, ``below`` or
    ``within`` by :func:`side_of`; a headline only where the baseline's estimate lies
    beyond the limit)."""
    opts = dict(options or {})

    def extreme(highest: bool) -> Callable[[RunRows, str | None], Outcome]:
        def measure(rows: RunRows, seat: str | None) -> Outcome:
            table = standings(rows, seat).sort("score", descending=highest)
            top = table.row(0, named=True)
            runner = table.row(1, named=True) if table.height > 1 else None
            text = _standing_text(top, metric)
            if runner is not None:
                text += f"; next {_standing_text(runner, metric)}"
            return Outcome(top["subject"], top["score"], top["low"], top["high"], text)

        return measure

    out = [
        Verdict(
            f"best:{noun}",
            "best",
            f"the best {noun}",
            experiment,
            extreme(True),
            opts,
            seats=seats,
            share=share,
        ),
        Verdict(
            f"worst:{noun}",
            "worst",
            f"the worst {noun}",
            experiment,
            extreme(False),
            opts,
            seats=seats,
            share=share,
        ),
    ]
    if limit is None:
        return out

    def flag_of(subject: str) -> Callable[[RunRows, str | None], Outcome]:
        def measure(rows: RunRows, seat: str | None) -> Outcome:
            table = standings(rows, seat).filter(pl.col("subject") == subject)
            if table.is_empty():
                return Outcome("absent", math.nan, text=f"{subject} is not in the run")
            row = table.row(0, named=True)
            label = side_of(row["score"], limit)
            flagged = beyond(row["low"], row["high"], limit) is not None
            words = f"{label} the limit {_pct(limit.min)}..{_pct(limit.max)}" + (
                "" if flagged or label == "within" else ", but its interval reaches back inside"
            )
            return Outcome(
                label,
                row["score"],
                row["low"],
                row["high"],
                f"{_standing_text(row, metric)}, {words}",
            )

        return measure

    for subject in subjects:
        out.append(
            Verdict(
                f"flag:{limit.name}:{subject}",
                "flag",
                f"{subject} is out of balance ({limit.name})",
                experiment,
                flag_of(subject),
                opts,
                seats=seats,
                share=share,
                headline=lambda o: o.label in ("above", "below"),
            )
        )
    return out


def side_of(value: float, limit: Limit) -> str:
    """Where a flag verdict's number lies: ``above`` the limit's max, ``below`` its min,
    else ``within``. A flag verdict's label is read from the estimate, not its interval:
    a robustness pass runs a smaller N than the page, and what it asks is whether a
    variant moves the number across the limit, not whether a smaller sample still
    excludes it (the page's flag itself keeps the one flag rule)."""
    if value > limit.max:
        return "above"
    if value < limit.min:
        return "below"
    return "within"


def flag_id(limit: str, subject: str) -> str:
    """The id of the verdict behind a flag (:class:`analysis.flags.Flag`)."""
    return f"flag:{limit}:{subject}"
