"""The one protocol every game exposes, and the registry that finds games
(DESIGN.md "One protocol, four games"; STYLE.md 13, 15).

A game package defines ``GAME = Game(...)``. Generic code (``sims/core``, the top of
``analysis/``) reaches games only through :func:`get_game` and reads what the ``Game``
declares; it never imports a game by name. Games are found by the ``mechbal.games``
entry points of the installed distribution (``pyproject.toml``: one line per game) and
by :func:`register` (a game defined in tests or a notebook). What a game declares:

- ``load_catalog(root, overrides=...)``: its validated catalog (one folder per game
  under ``root``), an object meeting :class:`Catalog`;
- ``tables``: its exact tables (:class:`Table`: stem, documentation, contract columns
  with their kinds, a display pivot), computed together by ``exact(catalog)``;
- ``checks``: the functions behind its ``claims.toml``;
- ``experiments``: what ``mechbal simulate GAME EXPERIMENT`` runs (:class:`Experiment`,
  options declared as :class:`Option`), so the command line builds each game's flags;
- ``explain``: the resolutions ``mechbal explain GAME WHAT`` shows (:class:`Explain`);
- ``targets``: the metrics ``mechbal tune GAME --target ...`` can aim at, by name
  (:class:`sims.core.targets.Target`: doc, filters, exact or simulated, estimates);
- ``identity_exclude``: catalog files that do not decide a run's rows;
- ``engines``: its two engines (:class:`Engines`).

The engine contract (:class:`Engines`). A game has a scalar ``reference`` engine that
plays one game at a time, rule by rule (the oracle), and a batched ``vector`` engine.
Both are called as ``play(scenarios, scenario_ids, rng)``: ``scenarios`` is a sequence
of compiled scenarios (a matchup's static numbers as arrays, in a frozen dataclass whose
``params`` field holds the rules parameters it was compiled with), ``scenario_ids`` an int
array of length N, and game ``i`` plays ``scenarios[scenario_ids[i]]``. So a round robin
is one call per chunk of rows, not one call per matchup: the vector engine gathers each
game's static numbers from the stacked scenarios by its id. The runner keeps a chunk
within one catalog variant (the run's ``--set`` values and one combination of swept
values), so a chunk's scenarios share their rules parameters and a sweep is one call
per chunk of each swept value. Both return
``{name: array}`` with games along the first axis, in the order of ``scenario_ids``,
with the same keys, dtypes and shapes; ``metrics`` turns those into the per-game numbers
the two engines must agree on (within 4 standard errors, ``tests/conformance.py``).
Scenarios with equal ``batch_key(scenario)`` may share a call (the same shape and rules
parameters); an engine refuses a mixed call in one line. The same scenarios, ids and
generator state give the same results; randomness comes only from ``rng``. The check and
the wrappers every engine shares are ``sims.core.engine``'s; ``Engines.play_dice`` gives
both engines on dice passed in, for the conformance test's die-for-die replay.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import polars as pl
import pyarrow as pa

ENTRY_POINTS = "mechbal.games"  # group of the installed games: name = "package:GAME"

Results = dict[str, np.ndarray]


class InputError(ValueError):
    """A mistake in what a user asked a game for (an unknown name, a bad value): one
    line, shown without a traceback."""


class UnknownGame(InputError):
    pass


@runtime_checkable
class Catalog(Protocol):
    """What generic code reads of any game's loaded catalog."""

    root: Path  # the game's catalog folder
    params: Any  # its rules parameters: a frozen dataclass of sims.core.params fields
    param_provenance: dict[str, str]  # parameter -> "rulebook" | "assumed"
    overrides: tuple[tuple[str, Any], ...]  # the --set/--sweep edits applied, sorted


# ---- tables ------------------------------------------------------------------------------

# Column kinds: a key (catalog id or the value a row is for), an exact probability, an
# exact expected value (both written as fractions a/b with a float column beside), a count.
COLUMN_KINDS = ("id", "probability", "expectation", "count")
EXACT_KINDS = ("probability", "expectation")


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # one of COLUMN_KINDS
    meaning: str = ""

    def __post_init__(self) -> None:
        if self.kind not in COLUMN_KINDS:
            raise ValueError(f"column {self.name!r}: kind {self.kind!r} not in {COLUMN_KINDS}")


@dataclass(frozen=True)
class Pivot:
    """How the printable Markdown shows a table too long to list: a section per value of
    ``sections``, a row per value of ``rows``, a column per value of ``columns``, each
    cell ``cell(row)`` (the table's row as a dict); ``note`` says what a cell holds."""

    sections: tuple[str, ...]
    rows: str
    columns: str
    cell: Callable[[Mapping[str, Any]], str]
    note: str = ""


@dataclass(frozen=True)
class Table:
    """One exact table file ``DIR/GAME/<stem>.csv`` (+ ``.md``): its contract columns in
    order (exact kinds get a ``<name>_float`` column written beside them)."""

    stem: str
    doc: str  # how it is computed, shown in the Markdown and the report
    columns: tuple[Column, ...]
    pivot: Pivot | None = None

    def file_columns(self) -> list[str]:
        """The CSV's columns, in order: each exact column followed by its float."""
        out = []
        for c in self.columns:
            out.append(c.name)
            if c.kind in EXACT_KINDS:
                out.append(f"{c.name}_float")
        return out


def columns(*spec: tuple[str, str]) -> tuple[Column, ...]:
    """``columns(("kit", "id"), ("p_hit", "probability"))``: a table's columns."""
    return tuple(Column(name, kind) for name, kind in spec)


# ---- options, experiments, explain -------------------------------------------------------


def comma_list(text: str) -> list[str]:
    """An option value written ``a,b,c``: its non-empty items."""
    items = [v.strip() for v in text.split(",") if v.strip()]
    if not items:
        raise ValueError("expected a comma-separated list, got nothing")
    return items


def whole_number(text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError(f"expected a whole number, got {text!r}")
    return int(text)


@dataclass(frozen=True)
class Option:
    """A command-line option a game declares (``--name VALUE``, or ``--name`` when
    ``switch``): ``parse`` turns the text into the value (raising ValueError with the
    reason), ``default`` is used when it is not given."""

    name: str
    help: str
    parse: Callable[[str], Any] = str
    default: Any = None
    required: bool = False
    switch: bool = False
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Batch:
    """The games one chunk plays: rows in order, each a game of one cell.

    ``cells`` are the distinct cells of the chunk (column values, with ``cell``, the
    cell's number in the run); ``cell`` gives each row's index into ``cells`` and
    ``index`` each row's game number within its cell. Every cell of a batch shares one
    catalog variant (the run's ``--set`` values and one combination of swept values)."""

    cells: tuple[Mapping[str, Any], ...]
    cell: np.ndarray  # int32[rows]
    index: np.ndarray  # int64[rows]

    @property
    def rows(self) -> int:
        return len(self.cell)

    def column(self, name: str) -> pa.Array:
        """The cells' column ``name`` for every row, dictionary-encoded."""
        return self.column_of([c[name] for c in self.cells])

    def column_of(self, values: Sequence[Any], type: pa.DataType | None = None) -> pa.Array:
        """A value per cell (in ``cells`` order) for every row, dictionary-encoded."""
        return pa.array(values, type).take(pa.array(self.cell)).dictionary_encode()


@dataclass(frozen=True)
class Experiment:
    """One kind of run a game offers to ``mechbal simulate``.

    ``cells(catalog, options)`` lists the grid's cells before sweeps (e.g. every matchup)
    as dicts of column values; ``run_chunk(catalog, batch, rng, engine)`` plays a
    :class:`Batch` of rows (one engine call for the whole chunk) and returns them as an
    Arrow table. ``chunk_size`` is the rows per chunk. ``schema`` documents the row
    columns (``mechbal simulate GAME EXPERIMENT --describe``). Enumerations
    (``needs_n=False``) have one row-group per cell and no randomness: ``--n``, the seed
    and the engine do not enter their runs' identity. ``labels`` names the codes of
    outcome columns (code i is ``labels[column][i]``); the query views show the labels
    (DuckDB ENUMs) while the Parquet rows keep the small integer codes."""

    name: str
    summary: str
    schema: str
    chunk_size: int
    cells: Callable[[Any, Mapping[str, Any]], list[dict[str, Any]]]
    run_chunk: Callable[..., pa.Table]
    needs_n: bool = True
    options: tuple[Option, ...] = ()
    default_sweep: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    sweep_required: str | None = None  # a description when a --sweep is mandatory
    check_sweep: Callable[[str], str | None] | None = None  # why a sweep name is refused
    identity_files: tuple[str, ...] = ()  # catalog files only this experiment reads
    # what a run made up and its rows only name (e.g. generated entries), for the manifest
    run_notes: Callable[[Any, Mapping[str, Any]], dict[str, Any]] | None = None
    labels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Explain:
    """One thing ``mechbal explain GAME NAME`` shows the working of: ``run(catalog,
    **options)`` returns the text; a bad request raises :class:`InputError`."""

    name: str
    help: str
    options: tuple[Option, ...]
    run: Callable[..., str]


# ---- engines and the game ----------------------------------------------------------------


@dataclass(frozen=True)
class Engines:
    """A game's reference and vectorized engines (the contract in the module docstring)."""

    scenarios: Callable[[Any], list[tuple[str, Any]]]  # catalog -> named sample scenarios
    reference: Callable[[Sequence[Any], np.ndarray, np.random.Generator], Results]
    vector: Callable[[Sequence[Any], np.ndarray, np.random.Generator], Results]
    metrics: Callable[[Results], dict[str, np.ndarray]]  # per-game numbers to compare
    batch_key: Callable[[Any], Hashable]  # scenarios with equal keys may share a call
    reference_version: str
    vector_version: str
    # (reference, vector) on dice passed in (sims.core.engine.PlayDice): both read a
    # battle's dice in one order, so a game the reference plays on RecordingDice replays
    # die for die in the vector engine (tests/conformance.py). None, said on purpose,
    # where the two engines draw in different orders.
    play_dice: tuple[Callable[..., Results], Callable[..., Results]] | None

    def version(self, engine: str) -> str:
        return self.vector_version if engine == "vector" else self.reference_version


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    rulebook: str  # seed file the rules come from
    load_catalog: Callable[..., Any]  # (catalog root, overrides=...) -> Catalog
    tables: tuple[Table, ...]  # the exact tables it writes, declared
    exact: Callable[[Any], dict[str, pl.DataFrame]]  # catalog -> frame per table stem
    checks: Mapping[str, Callable[..., Any]]  # claim check name -> function
    rules_version: str
    engines: Engines | None = None
    experiments: Mapping[str, Experiment] = field(default_factory=dict)
    explain: Mapping[str, Explain] = field(default_factory=dict)
    # mechbal tune's metrics: name -> sims.core.targets.Target (which imports this module)
    targets: Mapping[str, Any] = field(default_factory=dict)
    identity_exclude: tuple[str, ...] = ()  # catalog files that never decide rows
    # words of this rulebook only: generic modules must not use them (tests/core)
    vocabulary: tuple[str, ...] = ()

    def claims_path(self, catalog_root: Path) -> Path:
        return Path(catalog_root) / self.name / "claims.toml"

    def limits_path(self, catalog_root: Path) -> Path:
        return Path(catalog_root) / self.name / "limits.toml"

    def table(self, stem: str) -> Table:
        return next(t for t in self.tables if t.stem == stem)


# ---- the registry ------------------------------------------------------------------------

_REGISTERED: dict[str, str] = {}  # name -> "module:attribute", added at run time


def register(name: str, target: str) -> None:
    """Make the game ``target`` (``"package.module:GAME"``) known as ``name``, besides the
    installed ones. Worker processes import it by this path, so it must be importable."""
    _REGISTERED[name] = target


def unregister(name: str) -> None:
    _REGISTERED.pop(name, None)


def _installed() -> dict[str, str]:
    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINTS)}


def registry() -> dict[str, str]:
    """Every known game: name -> ``"module:attribute"`` of its :class:`Game`."""
    return {**_installed(), **_REGISTERED}


def game_names() -> list[str]:
    return sorted(registry())


def load_target(target: str, default: str = "GAME") -> Any:
    """The object a ``"package.module:attribute"`` target names."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr or default)


def get_game(name: str) -> Game:
    games = registry()
    if name not in games:
        known = ", ".join(sorted(games)) or "none installed"
        raise UnknownGame(f"unknown game {name!r} (known: {known})")
    return load_target(games[name])
