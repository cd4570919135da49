"""What ``mechbal tune`` can aim at: the metrics a game declares (``Game.targets``), each
a :class:`Target`, and the helpers games build them from (no game knowledge).

A target is a named metric with filters, e.g. ``crit_share(weapon=cannon)`` or
``win_rate(kaiju=*)``. Its ``estimate(catalog, filters, n, seed, jobs, store)`` returns
one :class:`Estimate` per key: ``filters`` maps each filter name to the value asked for
(text, as typed), to :data:`ALL` (``*``: every value of the filter, an estimate each),
or leaves it out (one estimate pooled over every value, equal weight per value, unless
the target declares a default in ``defaults``, which ``tune`` fills in before calling).
An exact target computes from the catalog (standard error 0; ``n``, ``seed``, ``jobs``
and ``store`` unused); a simulated one runs an experiment into the store with
:func:`run_rows` (N games, the seed given: the same for every candidate a tune
evaluates, so candidates are compared on common random numbers) and reads its rows.

``domains(catalog)`` lists each filter's known values, so a bad value is refused in one
line before anything runs (:func:`check_filters`).

Helpers: :func:`exact_estimates` (an exact value per combination of filter values,
pooled by equal-weight averages), :func:`mean_estimates` (means of a row column with
their standard errors), :func:`both_seats` (a two-sided game's rows seen from each side)
and :func:`winner_score` (a side's score from a winner code: 1 win, 1/2 draw, 0 loss);
:func:`score_target`, a round robin's score of one choice against another, built from
them for any two-sided game (the game passes its side columns).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from sims.core.protocol import InputError

ALL = "*"  # a filter value: every value, each its own estimate


@dataclass(frozen=True)
class Estimate:
    """One value of a metric: for ``key`` (filter name -> value; pooled filters absent),
    its ``value``, the standard error ``se`` (0 when exact) and the games behind it
    (``n``, 0 when exact)."""

    key: Mapping[str, str]
    value: float
    se: float = 0.0
    n: int = 0


# (catalog, filters, n, seed, jobs, store) -> estimates
EstimateFn = Callable[[Any, Mapping[str, str], int, int, int, Path], list[Estimate]]


@dataclass(frozen=True)
class Target:
    """A metric a tune can aim at: ``doc`` says what it is (and, for a simulated one,
    which experiment gives it), ``filters`` names its filters in order, ``exact`` whether
    it is computed exactly (else simulated), ``domains(catalog)`` each filter's values,
    ``estimate`` the function above, ``defaults`` the value an omitted filter takes
    (a filter without one is pooled)."""

    doc: str
    filters: tuple[str, ...]
    exact: bool
    domains: Callable[[Any], Mapping[str, Sequence[Any]]]
    estimate: EstimateFn
    defaults: Mapping[str, str] = field(default_factory=dict)


class TargetError(InputError):
    """A bad filter value (one line)."""


def _listing(values: Sequence[str], most: int = 12) -> str:
    shown = ", ".join(values[:most])
    return shown + (f", ... ({len(values)} in all)" if len(values) > most else "")


def check_filters(metric: str, target: Target, filters: Mapping[str, str], catalog: Any) -> None:
    """Every filter named is the target's and every value (but ``*``) is known."""
    domains = target.domains(catalog)
    for name, value in filters.items():
        if name not in target.filters:
            known = ", ".join(target.filters) or "none"
            raise TargetError(f"{metric}: unknown filter {name!r} (filters: {known})")
        if value == ALL:
            continue
        known_values = [str(v) for v in domains.get(name, ())]
        if str(value) not in known_values:
            raise TargetError(
                f"{metric}: unknown {name} {value!r} (known: {_listing(known_values)})"
            )


def _expansion(
    filters: Mapping[str, str], domains: Mapping[str, Sequence[Any]]
) -> tuple[list[str], list[list[str]]]:
    """The filters an estimate is keyed by (given or ``*``) and each filter's values to
    range over (given: that one; ``*`` or omitted: all)."""
    keyed, ranges = [], []
    for name, domain in domains.items():
        value = filters.get(name)
        if value is not None:
            keyed.append(name)
        ranges.append([str(v) for v in domain] if value in (None, ALL) else [str(value)])
    return keyed, ranges


def exact_estimates(
    filters: Mapping[str, str],
    domains: Mapping[str, Sequence[Any]],
    value: Callable[..., Fraction | float],
) -> list[Estimate]:
    """An exact metric: ``value(**combination)`` (filter values as text) for every
    combination of the filters' values, a filter given a value fixed to it, ``*`` giving
    an estimate per value, an omitted one averaged out with equal weight."""
    names = list(domains)
    keyed, ranges = _expansion(filters, domains)
    groups: dict[tuple[str, ...], list[Fraction | float]] = {}
    for combo in itertools.product(*ranges):
        args = dict(zip(names, combo, strict=True))
        groups.setdefault(tuple(args[k] for k in keyed), []).append(value(**args))
    return [
        Estimate(dict(zip(keyed, key, strict=True)), _mean(vals)) for key, vals in groups.items()
    ]


def _mean(values: Sequence[Fraction | float]) -> float:
    """Exact values averaged as fractions (no rounding before the one float)."""
    if all(isinstance(v, Fraction | int) for v in values):
        return float(sum(values, Fraction(0)) / len(values))
    return sum(map(float, values)) / len(values)


def mean_estimates(
    rows: pl.DataFrame, filters: Mapping[str, str], columns: Mapping[str, str], value: str
) -> list[Estimate]:
    """The mean of column ``value`` of the rows and its standard error (sample standard
    deviation / sqrt(rows)): rows whose column ``columns[f]`` equals a given filter
    value, grouped by the filters given ``*``, pooled over the omitted ones."""
    keyed = [name for name in columns if filters.get(name) is not None]
    grouped = [name for name in keyed if filters[name] == ALL]
    frame = rows
    for name in keyed:
        if filters[name] != ALL:
            frame = frame.filter(pl.col(columns[name]).cast(pl.String) == str(filters[name]))
    by = [pl.col(columns[name]).cast(pl.String).alias(name) for name in grouped]
    stats = [
        pl.col(value).cast(pl.Float64).mean().alias("mean"),
        pl.col(value).cast(pl.Float64).std().alias("std"),
        pl.len().alias("n"),
    ]
    summary = frame.group_by(by, maintain_order=True).agg(stats) if by else frame.select(stats)
    out = []
    for row in (summary.sort(grouped) if grouped else summary).iter_rows(named=True):
        n = int(row["n"])
        if not n:
            continue
        std = row["std"] if row["std"] is not None and math.isfinite(row["std"]) else 0.0
        key = {name: (row[name] if name in grouped else str(filters[name])) for name in keyed}
        out.append(Estimate(key, float(row["mean"]), std / math.sqrt(n), n))
    if not out:
        asked = ", ".join(f"{k}={v}" for k, v in filters.items())
        raise TargetError(f"no games in the run match {asked or 'the target'}")
    return out


def winner_score(winner: pl.Expr, draw: int | None = 2) -> pl.Expr:
    """Side A's score from a winner code (0 side A, 1 side B, ``draw`` a draw): 1, 0, 1/2."""
    score = pl.when(winner == 0).then(1.0)
    if draw is not None:
        score = score.when(winner == draw).then(0.5)
    return score.otherwise(0.0)


def both_seats(rows: pl.DataFrame, a: str, b: str, score: str) -> pl.DataFrame:
    """A two-sided game's rows seen from each side: columns ``side``, ``opponent`` and
    ``score`` (the side's); a game between equals (``a`` == ``b``) is counted once, so
    every row enters a side's estimate at most once."""
    first = rows.select(
        pl.col(a).cast(pl.String).alias("side"),
        pl.col(b).cast(pl.String).alias("opponent"),
        pl.col(score).cast(pl.Float64).alias("score"),
    )
    second = rows.filter(pl.col(a).cast(pl.String) != pl.col(b).cast(pl.String)).select(
        pl.col(b).cast(pl.String).alias("side"),
        pl.col(a).cast(pl.String).alias("opponent"),
        (1.0 - pl.col(score).cast(pl.Float64)).alias("score"),
    )
    return pl.concat([first, second])


def score_target(
    game: str,
    experiment: str,
    side: str,
    option: str,
    filters: tuple[str, str],
    choices: Callable[[Any], Sequence[Any]],
    doc: str,
    draw: int | None = 2,
) -> Target:
    """A round robin's score as a simulated target: the choice named by ``filters[0]``
    against the one named by ``filters[1]``, its score (win 1, draw 1/2, loss 0; ``draw``
    the winner code of a draw, None when the game has none) over every game it played in
    either seat of ``experiment`` (rows with the side columns ``<side>_a`` and
    ``<side>_b``, :func:`both_seats`). The second filter omitted: the choice's standing,
    against every other choice with the mirrors left out, as the report's flags read it
    (a mirror scores one half by construction). When both choices are named, the
    experiment's ``option`` (the list of choices it plays) is set to them, so all N games
    are theirs. ``choices(catalog)`` lists the choices, each filter's values."""
    mine, theirs = filters
    a, b = f"{side}_a", f"{side}_b"

    def domains(catalog: Any) -> Mapping[str, Sequence[Any]]:
        return {mine: list(choices(catalog)), theirs: list(choices(catalog))}

    def estimate(
        catalog: Any, given: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
    ) -> list[Estimate]:
        named = [given.get(mine), given.get(theirs)]
        # both named: only their games are played (all N on them)
        played = sorted(set(named)) if all(v not in (None, ALL) for v in named) else None
        rows = run_rows(
            game,
            experiment,
            catalog,
            n=n,
            seed=seed,
            jobs=jobs,
            store=store,
            options={option: played} if played else {},
            columns=(a, b, "winner"),
        )
        if theirs not in given:  # a standing: the mirrors left out
            rows = rows.filter(pl.col(a).cast(pl.String) != pl.col(b).cast(pl.String))
        rows = rows.with_columns(winner_score(pl.col("winner"), draw).alias("score"))
        seats = both_seats(rows, a, b, "score")
        return mean_estimates(seats, given, {mine: "side", theirs: "opponent"}, "score")

    return Target(doc=doc, filters=filters, exact=False, domains=domains, estimate=estimate)


def run_rows(
    game: str,
    experiment: str,
    catalog: Any,
    *,
    n: int,
    seed: int,
    jobs: int,
    store: Path,
    options: Mapping[str, Any] | None = None,
    columns: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Run ``experiment`` of ``game`` on the catalog (its folder's root and its ``--set``
    edits: ``catalog.overrides``) into ``store`` with N games and ``seed``, resuming or
    reusing a finished run of the same identity, and return its rows (``columns`` only,
    when given; dictionary columns as text)."""
    from sims.core.runner import simulate  # deferred: the runner pulls in joblib

    outcome = simulate(
        game,
        experiment,
        n=n,
        seed=seed,
        catalog_root=Path(catalog.root).parent,
        store_root=store,
        sets=dict(catalog.overrides),
        options=dict(options or {}),
        jobs=jobs,
        progress=False,
    )
    files = sorted(outcome.plan.folder.rglob("*.parquet"))
    frames = [pl.read_parquet(f, columns=list(columns) if columns else None) for f in files]
    frame = pl.concat(frames, how="vertical_relaxed") if frames else pl.DataFrame()
    return frame.with_columns(pl.col(pl.Categorical).cast(pl.String))
