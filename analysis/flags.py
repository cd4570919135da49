"""Balance flags: what falls outside ``catalogs/<game>/limits.toml``, with the evidence.

A flag is one sentence a designer can act on, with the number behind it and how it
was computed, listed first in the report ("what is out of balance"). The limits a game
may set are declared by its analysis plugin (``analysis/<game>/``); the flags
themselves are computed there, from its tables and runs, by one rule for every game
(:data:`RULE`, DESIGN.md "One flag rule"): a choice is flagged when its whole 95%
interval lies beyond the limit (:func:`beyond`; an exact number is its own interval),
and a round robin's mirror matches are left out of a choice's standing
(:func:`analysis.round_robin.standings`, :func:`standing_flags`). A point estimate
beyond the limit whose interval reaches back inside is noise the data cannot tell from
balance, and is not flagged (a larger --n may yet raise it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import polars as pl

from sims.core.catalog import CatalogError, FieldSpec, check_value, load_toml


@dataclass(frozen=True)
class Limit:
    name: str
    meaning: str
    min: float
    max: float
    provenance: str


# What a flag means, said on every report page beside the flags.
RULE = (
    "A flag means the whole 95% interval of the number lies beyond its limit (an exact "
    "number is its own interval); a round robin's mirror matches, which score one half by "
    "construction, are left out of a choice's standing."
)


@dataclass(frozen=True)
class Flag:
    subject: str  # the catalog id the flag is about
    limit: str
    value: float
    sentence: str  # what a designer reads
    evidence: str  # how it was computed


def flags_frame(flags: Sequence[Flag]) -> pl.DataFrame:
    """The flags as a table (subject, limit, value, sentence, evidence): the report's
    ``flags.csv``."""
    # the columns are the dataclass's fields (annotations are text here: future import)
    schema = {f.name: pl.Float64 if f.type == "float" else pl.String for f in fields(Flag)}
    return pl.DataFrame([asdict(f) for f in flags], schema=schema)


def load_limits(path: Path, names: Sequence[str]) -> dict[str, Limit]:
    """Read limits.toml: each limit a table with meaning, min, max and provenance;
    ``names`` are the limits the game knows."""
    doc = load_toml(path)
    out = {}
    for name, body in doc.items():
        if name not in names:
            raise CatalogError(
                path,
                f"unknown limit (known: {', '.join(names) or 'none'})",
                kind="limit",
                entry=name,
            )
        if not isinstance(body, dict):
            raise CatalogError(path, "expected a table", kind="limit", entry=name)
        extra = set(body) - {"meaning", "min", "max", "provenance"}
        if extra:
            raise CatalogError(
                path, "unknown field", kind="limit", entry=name, field=sorted(extra)[0]
            )
        values = {}
        for field in ("min", "max"):
            value = body.get(field)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise CatalogError(
                    path,
                    f"expected a number from 0 to 1, got {value!r}",
                    kind="limit",
                    entry=name,
                    field=field,
                )
            values[field] = float(value)
        if values["min"] > values["max"]:
            raise CatalogError(path, "min is above max", kind="limit", entry=name, field="min")
        spec = FieldSpec("provenance", "str", choices=("rulebook", "assumed"))
        provenance = check_value(spec, body.get("provenance"), path, "limit", name)
        meaning = check_value(FieldSpec("meaning", "str"), body.get("meaning"), path, "limit", name)
        out[name] = Limit(name, meaning, values["min"], values["max"], provenance)
    return out


def beyond(low: float, high: float, limit: Limit) -> tuple[str, float] | None:
    """("above", max) when the whole interval [low, high] lies above the limit's max,
    ("below", min) when it lies below its min, else None: the one flag rule (an exact
    value is the interval [value, value])."""
    if low > limit.max:
        return "above", limit.max
    if high < limit.min:
        return "below", limit.min
    return None


@dataclass(frozen=True)
class Standing:
    """One choice's standing over a round robin, mirrors left out: its games (from its
    side), score and 95% interval."""

    subject: str
    games: int
    score: float
    low: float
    high: float


# (standing, "above" | "below", the bound crossed) -> (sentence, evidence)
Words = Callable[[Standing, str, float], tuple[str, str]]


def standing_flags(
    standings: pl.DataFrame, side: str, count: str, limit: Limit, words: Words
) -> list[Flag]:
    """The choices of ``standings`` (:func:`analysis.round_robin.standings`: one row per
    choice ``side`` with its ``count`` of games, ``score``, ``low``, ``high``) whose whole
    interval lies beyond ``limit``, in the order of the choices, each worded by the game's
    ``words``."""
    flags = []
    for row in standings.sort(side).select(side, count, "score", "low", "high").iter_rows():
        standing = Standing(*row)
        if (out := beyond(standing.low, standing.high, limit)) is None:
            continue
        sentence, evidence = words(standing, *out)
        flags.append(Flag(standing.subject, limit.name, standing.score, sentence, evidence))
    return flags


def pct(x: float) -> str:
    """A share as a flag sentence writes it: one decimal, per cent."""
    return f"{100 * x:.1f}%"
