"""Balance flags: what falls outside ``catalogs/<game>/limits.toml``, with the evidence.

A flag is one sentence a designer can act on, with the number behind it and how it
was computed, listed first in the report ("what is out of balance"). The limits a game
may set are declared by its analysis plugin (``analysis/<game>/``); the flags
themselves are computed there, from its tables and runs.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def outside(value: float, limit: Limit) -> tuple[str, float] | None:
    """("above", max) or ("below", min) when ``value`` leaves the limit, else None."""
    if value > limit.max:
        return "above", limit.max
    if value < limit.min:
        return "below", limit.min
    return None


def pct(x: float) -> str:
    """A share as a flag sentence writes it: one decimal, per cent."""
    return f"{100 * x:.1f}%"
