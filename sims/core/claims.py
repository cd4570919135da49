"""Rulebook claims as data: ``catalogs/<game>/claims.toml`` holds one ``[[claim]]`` per
stated number or result, with the rulebook's words, the exact definition of what is
computed, the named check that computes it, and the expected value (exact unless the
rulebook's figure is approximate, where ``min`` and ``max`` bound it: both, never one).

Each game supplies a registry ``{check name: function(catalog, **args) -> value}``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from sims.core.catalog import CatalogError, FieldSpec, check_entry, entries, load_toml
from sims.core.dist import fraction_str

Check = Callable[..., Any]

CLAIM_FIELDS = [
    FieldSpec("section", "str", meaning="rulebook section, e.g. F5"),
    FieldSpec("rulebook", "str", meaning="the rulebook's own words"),
    FieldSpec("definition", "str", meaning="exactly what is computed"),
    FieldSpec("check", "id", meaning="name of the check function"),
    FieldSpec("args", "table", required=False, default={}),
]


@dataclass(frozen=True)
class Claim:
    id: str
    section: str
    rulebook: str
    definition: str
    check: str
    args: dict[str, Any]
    expected: Any  # None when only bounds are given
    min: Any
    max: Any
    provenance: str


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    actual: Any
    passed: bool

    def row(self) -> dict[str, str]:
        c = self.claim
        if c.expected is not None:
            want = show(c.expected)
        else:
            lo = "" if c.min is None else f"{show(c.min)} <= "
            hi = "" if c.max is None else f" <= {show(c.max)}"
            want = f"{lo}x{hi}"
        return {
            "claim": c.id,
            "section": c.section,
            "expected": want,
            "actual": show(self.actual),
            "result": "pass" if self.passed else "FAIL",
        }


def show(value: Any) -> str:
    if isinstance(value, Fraction):
        text = fraction_str(value)
        return text if value.denominator == 1 else f"{text} (~{float(value):.4f})"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


def load_claims(path: Path, checks: Mapping[str, Check]) -> list[Claim]:
    doc = load_toml(path)
    claims = []
    for raw in entries(doc, "claim", path):
        body = {k: v for k, v in raw.items() if k not in ("expected", "min", "max")}
        vals = check_entry(body, CLAIM_FIELDS, path, "claim")
        ident = raw["id"]
        if vals["check"] not in checks:
            raise CatalogError(
                path,
                f"unknown check {vals['check']!r} (known: {', '.join(sorted(checks))})",
                kind="claim",
                entry=ident,
                field="check",
            )
        try:  # the args must fit the check's parameters (after the catalog)
            inspect.signature(checks[vals["check"]]).bind(None, **vals["args"])
        except TypeError as exc:
            raise CatalogError(
                path,
                f"args do not fit check {vals['check']!r}: {exc}",
                kind="claim",
                entry=ident,
                field="args",
            ) from None
        if "expected" not in raw and "min" not in raw and "max" not in raw:
            raise CatalogError(
                path,
                "needs expected, or min/max bounds",
                kind="claim",
                entry=ident,
                field="expected",
            )
        if ("min" in raw) != ("max" in raw):  # a one-sided bound passes in the wrong direction
            raise CatalogError(
                path,
                "bounds are two-sided: give both min and max",
                kind="claim",
                entry=ident,
                field="max" if "min" in raw else "min",
            )
        claims.append(
            Claim(
                id=ident,
                section=vals["section"],
                rulebook=vals["rulebook"],
                definition=vals["definition"],
                check=vals["check"],
                args=vals["args"],
                expected=_exact(raw.get("expected")),
                min=_exact(raw.get("min")),
                max=_exact(raw.get("max")),
                provenance=vals["provenance"],
            )
        )
    return claims


def _exact(value: Any) -> Any:
    """Fractions are written as strings "a/b" in claims.toml, also inside lists and
    tables (a distribution ``{ "1" = "1/3", ... }``); decimals stay floats."""
    if isinstance(value, list):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    if isinstance(value, str) and "/" in value:
        try:
            return Fraction(value)
        except ValueError:
            return value
    return value


def _equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, list):
        return (
            isinstance(actual, list | tuple)
            and len(expected) == len(actual)
            and all(_equal(e, a) for e, a in zip(expected, actual, strict=True))
        )
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and expected.keys() == actual.keys()
            and all(_equal(expected[k], actual[k]) for k in expected)
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, int | Fraction) and isinstance(actual, int | Fraction):
        return Fraction(expected) == Fraction(actual)
    return expected == actual


def evaluate(claim: Claim, checks: Mapping[str, Check], catalog: Any) -> ClaimResult:
    actual = checks[claim.check](catalog, **claim.args)
    passed = True
    if claim.expected is not None:
        passed = _equal(claim.expected, actual)
    if claim.min is not None:
        passed = passed and actual >= claim.min
    if claim.max is not None:
        passed = passed and actual <= claim.max
    return ClaimResult(claim, actual, passed)


def run_claims(path: Path, checks: Mapping[str, Check], catalog: Any) -> list[ClaimResult]:
    results = []
    for claim in load_claims(path, checks):
        try:
            results.append(evaluate(claim, checks, catalog))
        except KeyError as exc:  # an id in args that the catalog does not hold
            raise CatalogError(
                path,
                f"names unknown id {exc.args[0]!r}",
                kind="claim",
                entry=claim.id,
                field="args",
            ) from None
    return results
