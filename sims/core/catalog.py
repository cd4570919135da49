"""Catalog loading and validation helpers shared by every game (no game knowledge).

A catalog file is TOML holding arrays of tables (``[[part]]``, ``[[kit]]`` ...), one
table per entry with an ``id`` and a ``provenance``. Each game declares a
:class:`FieldSpec` per field; :func:`check_entry` turns a raw table into clean values or
raises :class:`CatalogError`, whose message is the single line a designer sees:
``catalogs/skirmish/parts.toml: part 'rifle', field 'pen': expected an integer, got 'two'``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROVENANCES = ("rulebook", "assumed")
# A dice expression as the rulebooks write them: 2d6, d3, 1d6+4, 2d6+1d8, 3.
DICE_RE = re.compile(r"^\s*(\d*d\d+|\d+)(\s*[+-]\s*(\d*d\d+|\d+))*\s*$")
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")


# The --set/--sweep edits of the catalog being loaded (name -> value), set by
# apply_overrides: a value typed on the command line is blamed on the flag, not the file.
_OVERRIDES: ContextVar[Mapping[str, Any] | None] = ContextVar("mechbal_overrides", default=None)
_FLAG: ContextVar[str] = ContextVar("mechbal_override_flag", default="--set")


def _typed(kind: str | None, entry: str | None, field: str | None) -> str | None:
    """``--set NAME=VALUE`` when the value at fault came from the command line."""
    edits = _OVERRIDES.get()
    if not edits or entry is None:
        return None
    name = entry if kind == "parameter" and field == "value" else f"{kind}.{entry}.{field}"
    if name not in edits:
        return None
    value = edits[name]
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if len(text) > 60:  # a long list (a deck's cards): its start says which edit
        text = text[:56] + " ...]" if text.startswith("[") else text[:57] + "..."
    return f"{_FLAG.get()} {name}={text}"


class CatalogError(ValueError):
    """A bad catalog: one line naming the file, the entry and the field (or the
    ``--set NAME=VALUE`` that typed the value)."""

    def __init__(
        self,
        path: Path | str,
        message: str,
        *,
        kind: str | None = None,
        entry: str | None = None,
        field: str | None = None,
    ) -> None:
        path = _typed(kind, entry, field) or path
        self.path, self.kind, self.entry, self.field = str(path), kind, entry, field
        self.message = message
        where = [self.path]
        if entry is not None:
            where.append(f"{kind or 'entry'} '{entry}'")
        if field is not None:
            where.append(f"field '{field}'")
        head = where[0] + ": " + ", ".join(where[1:]) if len(where) > 1 else where[0]
        # One line whatever a key holds: a quoted TOML key may contain a newline.
        super().__init__(f"{head}: {message}".replace("\r", "\\r").replace("\n", "\\n"))


@dataclass(frozen=True)
class FieldSpec:
    """What one field of a catalog entry must hold."""

    name: str
    type: str  # "int", "str", "id", "dice", "list[str]", "table", "bool"
    required: bool = True
    default: Any = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] | None = None
    meaning: str = ""


def dice_problem(text: str) -> str | None:
    """Why ``text`` is not a usable dice expression, or None when it is."""
    from sims.core.dist import Dist  # deferred: dist pulls in polars

    if not DICE_RE.match(text):
        return f"{text!r} is not a dice expression (like 2d6 or 1d6+4)"
    try:
        dist = Dist.parse(text)
    except ValueError as exc:
        return str(exc)
    if min(dist.outcomes) < 0:
        return f"{text!r} can roll below 0"
    return None


def load_toml(path: Path) -> dict[str, Any]:
    """Read one TOML file; a missing file or a syntax error is a CatalogError."""
    if path.name == "rules.toml":
        # a game's load reads its rules first: the last load's --set edits end here
        _OVERRIDES.set(None)
    if not path.is_file():
        raise CatalogError(path, "file not found")
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(path, f"TOML syntax error: {exc}") from None
    except UnicodeDecodeError:
        raise CatalogError(path, "not UTF-8 text") from None


def entries(doc: Mapping[str, Any], kind: str, path: Path) -> list[dict[str, Any]]:
    """The ``[[kind]]`` tables of a document, each checked to be a table with an id."""
    raw = doc.get(kind)
    if raw is None:
        raise CatalogError(path, f"no [[{kind}]] entries")
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise CatalogError(path, f"'{kind}' must be an array of tables ([[{kind}]])")
    unknown = sorted(set(doc) - {kind})
    if unknown:
        raise CatalogError(path, f"unknown top-level key '{unknown[0]}' (expected [[{kind}]])")
    seen: set[str] = set()
    for n, entry in enumerate(raw, start=1):
        ident = entry.get("id")
        if not isinstance(ident, str) or not ID_RE.match(ident):
            raise CatalogError(
                path,
                f"missing or bad id {ident!r} (lower-case letters, digits, _)",
                kind=kind,
                entry=f"#{n}",
                field="id",
            )
        if ident in seen:
            raise CatalogError(path, "duplicate id", kind=kind, entry=ident, field="id")
        seen.add(ident)
    return raw


def _describe(value: Any) -> str:
    return repr(value) if isinstance(value, str) else f"{type(value).__name__} {value!r}"


def check_value(spec: FieldSpec, value: Any, path: Path, kind: str, ident: str) -> Any:
    """Check one value against its spec and return it normalised."""

    def fail(message: str) -> CatalogError:
        return CatalogError(path, message, kind=kind, entry=ident, field=spec.name)

    if spec.type == "int":
        # bool is an int subclass in Python; `true` where a number belongs is a mistake.
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"expected an integer, got {_describe(value)}")
        if spec.min is not None and value < spec.min:
            raise fail(f"{value} is below the minimum {spec.min}")
        if spec.max is not None and value > spec.max:
            raise fail(f"{value} is above the maximum {spec.max}")
        return value
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise fail(f"expected true or false, got {_describe(value)}")
        return value
    if spec.type in ("str", "id", "dice"):
        if not isinstance(value, str):
            raise fail(f"expected text, got {_describe(value)}")
        if spec.type == "id" and not ID_RE.match(value):
            raise fail(f"{value!r} is not an id (lower-case letters, digits, _)")
        if spec.type == "dice" and (problem := dice_problem(value)):
            raise fail(problem)
        if spec.choices is not None and value not in spec.choices:
            raise fail(f"{value!r} is not one of {', '.join(spec.choices)}")
        return value
    if spec.type == "list[str]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(f"expected a list of text, got {_describe(value)}")
        if spec.choices is not None:
            for v in value:
                if v not in spec.choices:
                    raise fail(f"{v!r} is not one of {', '.join(spec.choices)}")
        return tuple(value)
    if spec.type == "table":
        if not isinstance(value, dict):
            raise fail(f"expected an inline table, got {_describe(value)}")
        return dict(value)
    raise AssertionError(f"unknown field type {spec.type}")


def check_entry(
    entry: Mapping[str, Any],
    specs: Iterable[FieldSpec],
    path: Path,
    kind: str,
    *,
    extra_rulebook_fields: Iterable[str] = (),
) -> dict[str, Any]:
    """Validate one entry: known fields only, required present, values well typed,
    provenance stated. Returns ``{field: value}`` with defaults filled in."""
    specs = list(specs)
    ident = entry["id"]
    known = {s.name for s in specs} | {"id", "provenance", "rulebook_fields"}
    for name in entry:
        if name not in known:
            raise CatalogError(path, "unknown field", kind=kind, entry=ident, field=name)
    out: dict[str, Any] = {"id": ident}
    for spec in specs:
        if spec.name not in entry:
            if spec.required:
                raise CatalogError(
                    path, "missing required field", kind=kind, entry=ident, field=spec.name
                )
            out[spec.name] = spec.default
            continue
        out[spec.name] = check_value(spec, entry[spec.name], path, kind, ident)
    out["provenance"] = check_value(
        FieldSpec("provenance", "str", choices=PROVENANCES),
        entry.get("provenance", None) if "provenance" in entry else _missing(path, kind, ident),
        path,
        kind,
        ident,
    )
    stated = check_value(
        FieldSpec("rulebook_fields", "list[str]"),
        entry.get("rulebook_fields", []),
        path,
        kind,
        ident,
    )
    allowed = known | set(extra_rulebook_fields)
    for name in stated:
        if name not in allowed:
            raise CatalogError(
                path,
                f"names unknown field {name!r}",
                kind=kind,
                entry=ident,
                field="rulebook_fields",
            )
    out["rulebook_fields"] = stated
    return out


def _missing(path: Path, kind: str, ident: str) -> Any:
    raise CatalogError(
        path,
        "missing required field (rulebook or assumed)",
        kind=kind,
        entry=ident,
        field="provenance",
    )


def check_reference(
    value: str,
    targets: Mapping[str, Any],
    path: Path,
    kind: str,
    ident: str,
    field: str,
    what: str,
) -> None:
    """A field naming another entry must name one that exists."""
    if value not in targets:
        raise CatalogError(
            path, f"names unknown {what} {value!r}", kind=kind, entry=ident, field=field
        )


# ---- designer overrides: --set / --sweep NAME=VALUE ---------------------------------


def parse_value(text: str) -> Any:
    """A command-line value: an integer, true/false, or text."""
    if re.fullmatch(r"[+-]?\d+", text.strip()):
        return int(text)
    if text.strip().lower() in ("true", "false"):
        return text.strip().lower() == "true"
    return text


def parse_assignment(text: str, flag: str = "--set") -> tuple[str, str]:
    """``NAME=VALUE`` -> (NAME, VALUE text); anything else is a one-line error."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise CatalogError(flag, f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def apply_overrides(
    docs: dict[str, dict[str, Any]],
    overrides: Mapping[str, Any],
    kind_files: Mapping[str, str],
    rules_file: str,
    flag: str = "--set",
) -> None:
    """Write designer overrides into raw catalog documents before validation, so an
    override is checked exactly like the same edit made in the TOML file.

    A name is a rules parameter (``crit_margin``) or a catalog field path
    ``KIND.ID.FIELD`` (``part.cannon.pen``); ``kind_files`` maps a kind to its file.
    Until the next load, an error about a value given here names ``flag`` and the edit
    instead of the file (the file does not hold that value)."""
    _OVERRIDES.set(dict(overrides))
    _FLAG.set(flag)
    for name, value in overrides.items():
        if "." not in name:
            table = docs[rules_file].get(name)
            if not isinstance(table, dict):
                known = ", ".join(sorted(docs[rules_file]))
                raise CatalogError(flag, f"unknown rules parameter {name!r} (known: {known})")
            table["value"] = value
            continue
        bits = name.split(".")
        if len(bits) != 3:
            raise CatalogError(flag, f"{name!r} is neither a rules parameter nor KIND.ID.FIELD")
        kind, ident, field = bits
        if kind not in kind_files:
            raise CatalogError(
                flag, f"{name!r}: unknown kind {kind!r} (known: {', '.join(sorted(kind_files))})"
            )
        entries_ = docs[kind_files[kind]].get(kind) or []
        entry = next((e for e in entries_ if isinstance(e, dict) and e.get("id") == ident), None)
        if entry is None:
            raise CatalogError(flag, f"{name!r}: no {kind} with id {ident!r}")
        if field not in entry or field in ("id", "provenance", "rulebook_fields"):
            raise CatalogError(flag, f"{name!r}: {kind} {ident!r} has no field {field!r} to set")
        entry[field] = value
