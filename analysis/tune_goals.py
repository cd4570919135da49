"""``mechbal tune``'s parameters and targets: what is tuned, toward what. The
``--param NAME[=LO..HI]`` and ``--target 'METRIC(FILTER=VALUE, ...) ~ VALUE'`` of the
command line read and checked against the game's parameters, catalog and metrics
(:mod:`analysis.tune` describes both)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from analysis.args import UserError
from sims.core.catalog import CatalogError, load_toml
from sims.core.params import specs
from sims.core.protocol import Game
from sims.core.targets import Target, check_filters

RANGE_RE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
TARGET_RE = re.compile(
    r"^\s*(?P<metric>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\((?P<args>[^()]*)\))?\s*"
    r"(?:(?P<near>~)\s*(?P<value>\S.*?)|(?P<inside>in)\s+(?P<range>\S.*?))\s*$"
)


# ---- what is tuned, toward what ------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One tuned parameter: a rules parameter or a catalog field path, its integer range,
    and its value in the catalog (None where a field's value cannot be read)."""

    name: str
    low: int
    high: int
    current: int | None = None

    @property
    def values(self) -> range:
        return range(self.low, self.high + 1)


@dataclass(frozen=True)
class Goal:
    """One ``--target``: the metric, its filters (defaults filled in), and the goal."""

    text: str  # as the report writes it
    metric: str
    filters: Mapping[str, str]
    target: Target
    value: Fraction | None = None  # ~ VALUE
    low: Fraction | None = None  # in LO..HI
    high: Fraction | None = None
    typed: str = ""  # the goal's numbers as typed: 1/3, 0.4..0.6

    @property
    def goal_text(self) -> str:
        return f"~ {self.typed}" if self.value is not None else f"in {self.typed}"

    @property
    def scale(self) -> float:
        """The goal's size: what a miss is measured against."""
        size = abs(self.value) if self.value is not None else max(abs(self.low), abs(self.high))
        return float(size) or 1.0

    def miss(self, x: float) -> float:
        if self.value is not None:
            return abs(x - float(self.value))
        return max(float(self.low) - x, 0.0, x - float(self.high))

    def bounds(self) -> tuple[float, float]:
        if self.value is not None:
            return float(self.value), float(self.value)
        return float(self.low), float(self.high)


def parse_number(text: str, where: str) -> Fraction:
    """``0.4``, ``1/3``, ``40%`` or ``2`` as an exact fraction; anything else one line."""
    body = text.strip()
    percent = body.endswith("%")
    try:
        value = Fraction(body[:-1].strip() if percent else body)
    except (ValueError, ZeroDivisionError):
        raise UserError(
            f"{where}: {text.strip()!r} is not a number (like 0.4, 1/3 or 40%)"
        ) from None
    return value / 100 if percent else value


def parse_goal(text: str, game: Game, catalog: Any) -> Goal:
    """One ``--target`` checked against the game's metrics and the catalog's values."""
    where = f"--target {text.strip()!r}"
    m = TARGET_RE.match(text)
    if not m:
        raise UserError(
            f"{where}: expected METRIC(FILTER=VALUE, ...) ~ VALUE or METRIC(...) in LO..HI"
        )
    metric = m["metric"]
    if metric not in game.targets:
        known = ", ".join(game.targets) or "none"
        raise UserError(
            f"{where}: unknown metric {metric!r} for {game.name} (known: {known}; "
            f"mechbal tune {game.name} --list)"
        )
    target = game.targets[metric]
    given: dict[str, str] = {}
    for item in (m["args"] or "").split(","):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise UserError(f"{where}: expected FILTER=VALUE, got {item.strip()!r}")
        if name in given:
            raise UserError(f"{where}: filter {name!r} given twice")
        given[name] = value
    merged = {**target.defaults, **given}
    try:
        check_filters(metric, target, merged, catalog)
    except ValueError as exc:
        raise UserError(f"{where}: {exc}") from None
    filters = {name: merged[name] for name in target.filters if name in merged}
    shown = ", ".join(f"{k}={v}" for k, v in filters.items())
    if m["near"]:
        value = parse_number(m["value"], where)
        goal = Goal("", metric, filters, target, value=value, typed=m["value"].strip())
    else:
        bits = m["range"].split("..")
        if len(bits) != 2:
            raise UserError(f"{where}: expected a range LO..HI, got {m['range']!r}")
        low, high = (parse_number(b, where) for b in bits)
        if low > high:
            raise UserError(f"{where}: the range {m['range']} runs backwards (LO above HI)")
        typed = "..".join(b.strip() for b in bits)
        goal = Goal("", metric, filters, target, low=low, high=high, typed=typed)
    return replace(goal, text=f"{metric}({shown}) {goal.goal_text}")


def parse_param(
    text: str, game: Game, catalog_root: Path, catalog: Any, sets: Mapping[str, Any]
) -> Param:
    """One ``--param NAME[=LO..HI]`` checked: a known integer rules parameter (its declared
    range unless given, the given one within it) or a catalog field path with a range,
    the catalog loading at both ends."""
    name, sep, span = text.partition("=")
    name = name.strip()
    where = f"--param {text.strip()}"
    if not name:
        raise UserError(f"{where}: expected NAME or NAME=LO..HI")
    bounds = None
    if sep:
        m = RANGE_RE.match(span)
        if not m:
            raise UserError(f"{where}: expected a range of integers LO..HI, got {span.strip()!r}")
        bounds = int(m[1]), int(m[2])
        if bounds[0] > bounds[1]:
            raise UserError(f"{where}: the range runs backwards (LO above HI)")
    if name in sets:
        raise UserError(f"{where}: {name} is also given by --set; tune it or set it, not both")
    table = specs(type(catalog.params))
    if "." not in name:
        if name not in table:
            ints = [k for k, s in table.items() if is_integer(s)]
            raise UserError(
                f"{where}: unknown rules parameter {name!r} of {game.name} "
                f"(integer ones: {', '.join(ints)})"
            )
        spec = table[name]
        if not is_integer(spec):
            raise UserError(
                f"{where}: {name} is not an integer parameter (tune searches "
                "integers; try --set for each value)"
            )
        declared = (spec.low, spec.high)
        if bounds is None:
            if None in declared:
                raise UserError(
                    f"{where}: {name} declares no tuning range; give one (--param {name}=LO..HI)"
                )
            bounds = declared  # type: ignore[assignment]
        elif (spec.low is not None and bounds[0] < spec.low) or (
            spec.high is not None and bounds[1] > spec.high
        ):
            raise UserError(f"{where}: outside {name}'s tuning range {spec.low}..{spec.high}")
        current = getattr(catalog.params, name)
        return Param(name, bounds[0], bounds[1], current)
    if len(name.split(".")) != 3:
        raise UserError(f"{where}: {name!r} is neither a rules parameter nor KIND.ID.FIELD")
    if bounds is None:
        raise UserError(f"{where}: a catalog field needs a range (--param {name}=LO..HI)")
    for end in dict.fromkeys(bounds):  # the catalog must load at both ends
        try:
            game.load_catalog(catalog_root, overrides={**sets, name: end})
        except CatalogError as exc:
            raise UserError(
                f"--param {name}={end}: {exc.message if exc.path == '--set' else exc}"
            ) from None
    return Param(name, bounds[0], bounds[1], _field_value(Path(catalog.root), name))


def _field_value(folder: Path, name: str) -> int | None:
    """The value a field path ``KIND.ID.FIELD`` holds in the game's catalog files (the
    ``[[KIND]]`` entry with that id), when it is an integer; None when not found."""
    kind, ident, field_name = name.split(".")
    for path in sorted(folder.rglob("*.toml")):
        try:
            doc = load_toml(path)
        except CatalogError:
            continue
        for entry in doc.get(kind) or []:
            if isinstance(entry, dict) and entry.get("id") == ident:
                value = entry.get(field_name)
                ok = isinstance(value, int) and not isinstance(value, bool)
                return value if ok else None
    return None


def is_integer(spec: Any) -> bool:
    """Whether a rules parameter's spec is a plain integer (tune searches integers only)."""
    return spec.choices is None and not spec.dice_list
