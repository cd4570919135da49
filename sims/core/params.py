"""Rules parameters: a frozen dataclass per ruleset declares each parameter's name,
type, meaning and tuning range; the values come from ``catalogs/<game>/rules.toml``.

Every parameter is a dataclass field made with :func:`param`, so its metadata is the one
place its meaning and range are written (columns, CLI ``--set`` checks and docs derive
from it). ``rules.toml`` holds one table per parameter::

    [crit_margin]
    value = 4
    provenance = "rulebook"   # 003 F5
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sims.core.catalog import PROVENANCES, CatalogError, dice_problem, load_toml

T = TypeVar("T")


@dataclass(frozen=True)
class ParamSpec:
    """Declared facts about one parameter (kept in the dataclass field's metadata)."""

    meaning: str
    section: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] | None = None
    dice_list: bool = False


def param(
    meaning: str,
    section: str,
    *,
    low: int | None = None,
    high: int | None = None,
    choices: tuple[str, ...] | None = None,
    dice_list: bool = False,
) -> Any:
    """A parameter field: no default here, values come from rules.toml."""
    spec = ParamSpec(meaning, section, low, high, choices, dice_list)
    return field(metadata={"param": spec})


def specs(cls: type) -> dict[str, ParamSpec]:
    """Name -> spec for every parameter of a parameters dataclass."""
    return {f.name: f.metadata["param"] for f in dataclasses.fields(cls) if "param" in f.metadata}


def check_param(cls: type, name: str, value: Any, origin: str) -> Any:
    """Validate one value for parameter ``name``; ``origin`` names the file or flag."""
    table = specs(cls)
    if name not in table:
        raise CatalogError(
            origin, f"unknown rules parameter {name!r}", kind="parameter", entry=name
        )
    spec = table[name]

    def fail(message: str) -> CatalogError:
        return CatalogError(origin, message, kind="parameter", entry=name, field="value")

    if spec.dice_list:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise fail(f"expected a list of dice expressions, got {value!r}")
        for v in value:
            if problem := dice_problem(v):
                raise fail(problem)
        return tuple(value)
    if spec.choices is not None:
        if value not in spec.choices:
            raise fail(f"{value!r} is not one of {', '.join(spec.choices)}")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f"expected an integer, got {value!r}")
    if spec.low is not None and value < spec.low:
        raise fail(f"{value} is below the tuning range {spec.low}..{spec.high}")
    if spec.high is not None and value > spec.high:
        raise fail(f"{value} is above the tuning range {spec.low}..{spec.high}")
    return value


@dataclass(frozen=True)
class LoadedParams:
    values: Any
    provenance: dict[str, str]


def load_params(
    cls: type[T], path: Path, doc: dict[str, Any] | None = None
) -> tuple[T, dict[str, str]]:
    """Read rules.toml into ``cls``: every declared parameter present, nothing unknown,
    each value in its range and with a provenance. Returns (params, provenance).
    ``doc`` is the already-read (and possibly overridden) document."""
    doc = load_toml(path) if doc is None else doc
    table = specs(cls)
    values: dict[str, Any] = {}
    provenance: dict[str, str] = {}
    for name, body in doc.items():
        if name not in table:
            raise CatalogError(path, "unknown rules parameter", kind="parameter", entry=name)
        if not isinstance(body, dict) or "value" not in body:
            raise CatalogError(
                path, "expected a table with value and provenance", kind="parameter", entry=name
            )
        extra = set(body) - {"value", "provenance"}
        if extra:
            raise CatalogError(
                path, "unknown field", kind="parameter", entry=name, field=sorted(extra)[0]
            )
        if body.get("provenance") not in PROVENANCES:
            raise CatalogError(
                path,
                "provenance must be 'rulebook' or 'assumed'",
                kind="parameter",
                entry=name,
                field="provenance",
            )
        values[name] = check_param(cls, name, body["value"], str(path))
        provenance[name] = body["provenance"]
    for name in table:
        if name not in values:
            raise CatalogError(path, "missing rules parameter", kind="parameter", entry=name)
    return cls(**values), provenance


def describe(params: Any, provenance: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per parameter: name, value, meaning, section, range, provenance."""
    rows = []
    for name, spec in specs(type(params)).items():
        if spec.choices:
            tuning = " | ".join(spec.choices)
        elif spec.dice_list:
            tuning = "dice per use"
        else:
            tuning = f"{spec.low}..{spec.high}"
        rows.append(
            {
                "name": name,
                "value": getattr(params, name),
                "meaning": spec.meaning,
                "section": spec.section,
                "tuning_range": tuning,
                "provenance": (provenance or {}).get(name, ""),
            }
        )
    return rows
