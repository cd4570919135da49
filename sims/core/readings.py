"""Readings as data (DESIGN.md "Verdicts: what they rest on"): where a rulebook is silent
or ambiguous, the reading taken is an entry of ``catalogs/<game>/readings.toml``, with the
rulebook's words and section, the reading, its named alternatives and the ``--set`` name
that switches between them (a rules parameter, or a catalog field ``KIND.ID.FIELD``), or
``alternatives = []`` with the reason none is plausible::

    [[reading]]
    id = "smart_defense"
    title = "ECM and Smart weapons"
    group = "Pools and dice"
    section = "The Systems"
    words = "ECMs are primarily used against Smart Weapon Systems"
    reading = "Only ECM dice (and Skill dice) meet a Smart attack."
    parameter = "smart_defense"
    taken = "ecm"
    alternatives = ["all"]
    choices = { all = "every Defense die meets Smart attacks" }

The same file may declare ``[placeholders]``: the plausible range of each assumed
numeric catalog value ``mechbal robust`` moves (:func:`placeholder_ranges`).

``ASSUMPTIONS.md`` holds the readings as a section generated from this file
(:func:`render`, between :data:`BEGIN` and :data:`END`); a test checks they agree.
No game knowledge here: the games' files hold it.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sims.core.catalog import CatalogError, load_toml

FILE = "readings.toml"
BEGIN = "<!-- readings: generated from readings.toml by `mechbal readings GAME --write`; edit that file, not this section -->"
END = "<!-- end of readings -->"
FIELDS = {
    "id",
    "title",
    "group",
    "section",
    "words",
    "reading",
    "parameter",
    "taken",
    "alternatives",
    "choices",
    "reason",
    "kind",
}
# what kind of value a reading fixes: a rule of play, a number the rulebook leaves out,
# the format a battle is played in, or a policy a bot plays where the rules let a player
# choose
KINDS = ("rule", "number", "format", "policy")
PLURALS = {"rule": "rules", "number": "numbers", "format": "formats", "policy": "policies"}


@dataclass(frozen=True)
class Reading:
    id: str
    title: str
    section: str
    words: str  # the rulebook's own words (or what it leaves out)
    reading: str  # the reading taken
    parameter: str | None = None  # the --set name that switches it
    taken: Any = None  # the value in force in the shipped catalog
    alternatives: tuple[Any, ...] = ()
    choices: Mapping[str, str] = field(default_factory=dict)  # what each value means
    reason: str = ""  # why no alternative is plausible (alternatives = [])
    group: str = ""
    kind: str = "rule"

    @property
    def switchable(self) -> bool:
        return bool(self.alternatives)

    def meaning(self, value: Any) -> str:
        return self.choices.get(str(value), "")


@dataclass(frozen=True)
class PlaceholderRange:
    """A pattern of assumed numeric catalog values (``KIND.ID.FIELD`` with ``*``) and
    their plausible range: ``relative`` (a fraction of each value either way) or ``low`` and
    ``high`` (absolute); values stay whole numbers and at least ``floor``."""

    pattern: str
    relative: float | None = None
    low: float | None = None
    high: float | None = None
    floor: int | None = None  # default: 1 for a relative move, none for low..high
    why: str = ""

    def bounds(self, value: float) -> tuple[int, int]:
        if self.relative is not None:
            lo, hi = value * (1 - self.relative), value * (1 + self.relative)
        else:
            lo, hi = float(self.low), float(self.high)  # type: ignore[arg-type]
        floor = self.floor if self.floor is not None else (1 if self.relative is not None else None)
        lo_i, hi_i = math.floor(lo + 0.5), math.floor(hi + 0.5)
        if floor is not None:
            lo_i, hi_i = max(floor, lo_i), max(floor, hi_i)
        return lo_i, max(lo_i, hi_i)


@dataclass(frozen=True)
class Readings:
    game: str
    path: Path
    readings: tuple[Reading, ...]
    ranges: tuple[PlaceholderRange, ...] = ()
    draws: int = 16  # Latin-hypercube draws of the placeholders

    def by_id(self, ident: str) -> Reading:
        return next(r for r in self.readings if r.id == ident)

    @property
    def parameters(self) -> dict[str, Reading]:
        """--set name -> the reading it switches."""
        return {r.parameter: r for r in self.readings if r.parameter}


def path_of(catalog_root: Path | str, game: str) -> Path:
    return Path(catalog_root) / game / FILE


def _text(body: Mapping[str, Any], key: str, path: Path, ident: str, required: bool = True) -> str:
    value = body.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise CatalogError(
            path, "expected a non-empty text", kind="reading", entry=ident, field=key
        )
    return value.strip()


def load(catalog_root: Path | str, game: str) -> Readings:
    """Read and check ``catalogs/<game>/readings.toml`` (file, entry and field named in
    every error). A game without the file has no readings (an empty :class:`Readings`)."""
    path = path_of(catalog_root, game)
    if not path.is_file():
        return Readings(game, path, ())
    doc = load_toml(path)
    extra = set(doc) - {"reading", "placeholders"}
    if extra:
        raise CatalogError(
            path, f"unknown table {sorted(extra)[0]!r} (known: reading, placeholders)"
        )
    items, seen = [], set()
    for i, body in enumerate(doc.get("reading") or []):
        ident = body.get("id") if isinstance(body, dict) else None
        if not isinstance(ident, str) or not ident:
            raise CatalogError(path, f"reading {i + 1} has no id", kind="reading", field="id")
        if ident in seen:
            raise CatalogError(path, "duplicate id", kind="reading", entry=ident, field="id")
        seen.add(ident)
        if unknown := set(body) - FIELDS:
            raise CatalogError(
                path, "unknown field", kind="reading", entry=ident, field=sorted(unknown)[0]
            )
        alternatives = body.get("alternatives")
        if not isinstance(alternatives, list):
            raise CatalogError(
                path,
                "expected a list (empty with a reason)",
                kind="reading",
                entry=ident,
                field="alternatives",
            )
        parameter = body.get("parameter")
        reason = _text(body, "reason", path, ident, required=False)
        if alternatives:
            if not isinstance(parameter, str) or not parameter:
                raise CatalogError(
                    path,
                    "alternatives need the --set name that switches them",
                    kind="reading",
                    entry=ident,
                    field="parameter",
                )
            if "taken" not in body:
                raise CatalogError(
                    path, "missing the value in force", kind="reading", entry=ident, field="taken"
                )
            if body["taken"] in alternatives:
                raise CatalogError(
                    path,
                    "the value in force is listed as an alternative",
                    kind="reading",
                    entry=ident,
                    field="alternatives",
                )
        elif not reason:
            raise CatalogError(
                path,
                "no alternatives: say why (reason)",
                kind="reading",
                entry=ident,
                field="reason",
            )
        choices = body.get("choices") or {}
        if not isinstance(choices, dict) or not all(isinstance(v, str) for v in choices.values()):
            raise CatalogError(
                path, "expected a table of texts", kind="reading", entry=ident, field="choices"
            )
        kind = body.get("kind", "rule")
        if kind not in KINDS:
            raise CatalogError(
                path,
                f"{kind!r} is not one of {', '.join(KINDS)}",
                kind="reading",
                entry=ident,
                field="kind",
            )
        items.append(
            Reading(
                id=ident,
                title=_text(body, "title", path, ident),
                section=_text(body, "section", path, ident),
                words=_text(body, "words", path, ident),
                reading=_text(body, "reading", path, ident),
                parameter=parameter,
                taken=body.get("taken"),
                alternatives=tuple(alternatives),
                choices={str(k): v for k, v in choices.items()},
                reason=reason,
                group=_text(body, "group", path, ident, required=False),
                kind=kind,
            )
        )
    ranges, draws = _placeholders(doc.get("placeholders") or {}, path)
    return Readings(game, path, tuple(items), ranges, draws)


def _placeholders(body: Mapping[str, Any], path: Path) -> tuple[tuple[PlaceholderRange, ...], int]:
    if not isinstance(body, dict):
        raise CatalogError(path, "expected a table", kind="placeholders")
    draws = body.get("draws", 16)
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise CatalogError(
            path, f"expected a whole number, got {draws!r}", kind="placeholders", field="draws"
        )
    out = []
    for item in body.get("range") or []:
        pattern = item.get("field") if isinstance(item, dict) else None
        if not isinstance(pattern, str) or pattern.count(".") != 2:
            raise CatalogError(
                path,
                "expected KIND.ID.FIELD (with * for any)",
                kind="placeholder range",
                field="field",
            )
        if unknown := set(item) - {"field", "relative", "low", "high", "floor", "why"}:
            raise CatalogError(
                path,
                "unknown field",
                kind="placeholder range",
                entry=pattern,
                field=sorted(unknown)[0],
            )
        relative, low, high = item.get("relative"), item.get("low"), item.get("high")
        if (relative is None) == (low is None or high is None):
            raise CatalogError(
                path,
                "give relative, or low and high",
                kind="placeholder range",
                entry=pattern,
                field="relative",
            )
        for name, value in (("relative", relative), ("low", low), ("high", high)):
            # a relative move is a fraction either way; low and high may be below 0
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (name == "relative" and value < 0)
            ):
                raise CatalogError(
                    path,
                    f"expected a number{' >= 0' if name == 'relative' else ''}, got {value!r}",
                    kind="placeholder range",
                    entry=pattern,
                    field=name,
                )
        out.append(
            PlaceholderRange(
                pattern,
                relative,
                low,
                high,
                None if item.get("floor") is None else int(item["floor"]),
                str(item.get("why", "")),
            )
        )
    return tuple(out), draws


# ---- ASSUMPTIONS.md ----------------------------------------------------------------------


def _value(value: Any) -> str:
    return f"`{str(value).lower() if isinstance(value, bool) else value}`"


def _stop(text: str) -> str:
    """A sentence ends with a stop."""
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")", '"')) else text + "."


def render(readings: Readings) -> str:
    """The readings section of ASSUMPTIONS.md (between :data:`BEGIN` and :data:`END`)."""
    lines = [BEGIN, ""]
    group = None
    for r in readings.readings:
        if r.group and r.group != group:
            lines += [f"### {r.group}", ""] if group is None else ["", f"### {r.group}", ""]
            group = r.group
        head = f"- **{r.title}** (`{r.id}`; {r.section}). {_stop(r.reading)}"
        said = f' The rulebook: "{r.words}".' if not r.words.startswith("(") else f" {r.words}"
        if r.switchable:
            alts = ", ".join(
                _value(a) + (f" ({r.meaning(a)})" if r.meaning(a) else "") for a in r.alternatives
            )
            switch = f" Switch: `--set {r.parameter}=...`, in force {_value(r.taken)}; alternatives {alts}."
        else:
            switch = f" No alternative: {_stop(r.reason)}"
        lines.append(head + said + switch)
    lines += ["", END]
    return "\n".join(lines)


def section_of(text: str) -> str | None:
    """The generated readings section of an ASSUMPTIONS.md text, or None."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start : end + len(END)]


def write_assumptions(readings: Readings, assumptions: Path) -> bool:
    """Put the generated section into ASSUMPTIONS.md (replacing the old one, else at the
    end); True when the file changed."""
    text = assumptions.read_text() if assumptions.is_file() else ""
    fresh = render(readings)
    old = section_of(text)
    new = (
        text.replace(old, fresh)
        if old
        else text.rstrip("\n") + "\n\n## Readings\n\n" + fresh + "\n"
    )
    if new == text:
        return False
    assumptions.write_text(new)
    return True


# ---- checks against the game -------------------------------------------------------------


def problems(readings: Readings, load_catalog: Any, catalog_root: Path | str) -> list[str]:
    """What is wrong between the readings and the game: each switch loads with every
    alternative (a --set the catalog accepts), ``taken`` is the value in force, and every
    assumed rules switch (a parameter with named choices) is a registered reading."""
    out = []
    catalog = load_catalog(Path(catalog_root))
    for r in readings.readings:
        if not r.switchable:
            continue
        where = f"{readings.path}: reading {r.id!r}"
        if "." not in r.parameter and not hasattr(catalog.params, r.parameter):
            out.append(f"{where}: {r.parameter!r} is not a rules parameter")
            continue
        if "." not in r.parameter and getattr(catalog.params, r.parameter) != r.taken:
            out.append(
                f"{where}: taken {r.taken!r} but rules.toml holds {getattr(catalog.params, r.parameter)!r}"
            )
        for alt in r.alternatives:
            try:
                load_catalog(Path(catalog_root), overrides={r.parameter: alt})
            except CatalogError as e:
                out.append(f"{where}: alternative {alt!r} does not load: {e}")
    from sims.core.params import specs

    registered = readings.parameters
    for name, spec in specs(type(catalog.params)).items():
        if (
            spec.choices
            and catalog.param_provenance.get(name) == "assumed"
            and name not in registered
        ):
            out.append(f"{readings.path}: assumed switch {name!r} is not a registered reading")
    return out


# ---- placeholders ------------------------------------------------------------------------


@dataclass(frozen=True)
class Placeholder:
    """One assumed numeric catalog value ``mechbal robust`` may move: its --set name,
    the value in the catalog and its plausible range."""

    name: str  # KIND.ID.FIELD
    value: int
    low: int
    high: int
    why: str = ""


def assumed_values(
    catalog_root: Path | str, game: str, kind_files: Mapping[str, str]
) -> list[tuple[str, int]]:
    """Every whole-number field of every catalog entry that is not the rulebook's
    (``provenance = "assumed"``, less its ``rulebook_fields``), as (KIND.ID.FIELD, value)."""
    folder = Path(catalog_root) / game
    out = []
    for kind, file in sorted(kind_files.items()):
        path = folder / file
        if not path.is_file():
            continue
        for entry in load_toml(path).get(kind) or []:
            if not isinstance(entry, dict) or entry.get("provenance") != "assumed":
                continue
            stated = set(entry.get("rulebook_fields") or ())
            for name, value in entry.items():
                if name in stated or isinstance(value, bool) or not isinstance(value, int):
                    continue
                out.append((f"{kind}.{entry['id']}.{name}", value))
    return out


def placeholders(
    readings: Readings, catalog_root: Path | str, kind_files: Mapping[str, str]
) -> list[Placeholder]:
    """The assumed values a declared range covers (the first range whose pattern
    matches), with their bounds; values no range names stay as they are."""
    out = []
    for name, value in assumed_values(catalog_root, readings.game, kind_files):
        for r in readings.ranges:
            if fnmatch.fnmatchcase(name, r.pattern):
                low, high = r.bounds(value)
                if high > low:
                    out.append(Placeholder(name, value, low, high, r.why))
                break
    return out


def latin_hypercube(items: Sequence[Placeholder], draws: int, seed: int) -> list[dict[str, int]]:
    """``draws`` joint draws of every placeholder at once (scipy's Latin hypercube: each
    value's range cut into ``draws`` strata, each stratum used once), as --set maps."""
    if not items or draws <= 0:
        return []
    from scipy.stats import qmc

    unit = qmc.LatinHypercube(d=len(items), seed=seed).random(draws)
    out = []
    for row in unit:
        out.append(
            {
                p.name: int(min(p.high, p.low + math.floor(u * (p.high - p.low + 1))))
                for p, u in zip(items, row, strict=True)
            }
        )
    return out


# ---- provenance ----------------------------------------------------------------------------


def provenance_counts(
    catalog_root: Path | str,
    game: str,
    kind_files: Mapping[str, str],
    param_provenance: Mapping[str, str],
    readings: Readings,
    kinds: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """How many of the values a run depends on are the rulebook's, assumed
    (placeholders) or a reading, per kind: catalog entries and their fields by kind
    (``kinds``: only those a run reads; None: all), rules parameters (a parameter a
    reading switches counts as a reading), and the readings themselves by what they fix
    (rules, numbers, the format, policies)."""
    folder = Path(catalog_root) / game
    rows: list[dict[str, Any]] = []
    switched = set(readings.parameters)
    for kind, file in sorted(kind_files.items()):
        if kinds is not None and kind not in kinds:
            continue
        path = folder / file
        if not path.is_file():
            continue
        tally = {"rulebook": 0, "assumed": 0, "reading": 0}
        fields = {"rulebook": 0, "assumed": 0, "reading": 0}
        for entry in load_toml(path).get(kind) or []:
            if not isinstance(entry, dict):
                continue
            prov = entry.get("provenance", "assumed")
            tally["rulebook" if prov == "rulebook" else "assumed"] += 1
            stated = set(entry.get("rulebook_fields") or ())
            for name in entry:
                if name in ("id", "provenance", "rulebook_fields", "name"):
                    continue
                if f"{kind}.{entry['id']}.{name}" in switched:
                    fields["reading"] += 1
                elif prov == "rulebook" or name in stated:
                    fields["rulebook"] += 1
                else:
                    fields["assumed"] += 1
        rows.append({"what": f"{kind} entries ({file})", **tally})
        rows.append({"what": f"{kind} fields", **fields})
    params = {"rulebook": 0, "assumed": 0, "reading": 0}
    for name, prov in param_provenance.items():
        params[
            "reading" if name in switched else ("rulebook" if prov == "rulebook" else "assumed")
        ] += 1
    rows.append({"what": "rules parameters (rules.toml)", **params})
    # the readings no switch above stands for (a rule of play read in the code), once each
    for kind in KINDS:
        of_kind = [r for r in readings.readings if r.kind == kind and r.parameter not in switched]
        if of_kind:
            rows.append(
                {
                    "what": f"readings of the {PLURALS[kind]} (no switch)",
                    "rulebook": 0,
                    "assumed": 0,
                    "reading": len(of_kind),
                }
            )
    return rows
