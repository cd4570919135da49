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

import dataclasses
import importlib
import textwrap
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

# Column kinds: a key (``id``: a catalog id, the value a row is for, an index); an exact
# probability and an exact expected value (in tables both written as fractions a/b with a
# float column beside; in an experiment's rows, a 0/1 outcome and a number whose means
# estimate them); a ``count`` of things; a ``label``, an outcome code whose words the
# query views show.
COLUMN_KINDS = ("id", "probability", "expectation", "count", "label")
EXACT_KINDS = ("probability", "expectation")


@dataclass(frozen=True)
class Column:
    """A column of an exact table or of an experiment's rows. ``dtype`` is the Arrow
    type the rows carry (None for a table: its CSV is text); a ``label`` column holds
    small integer codes, code i reading ``words[i]`` (the views' DuckDB ENUM). A row
    column's name may hold ``<placeholders>``: it is then one of a :class:`Family`."""

    name: str
    kind: str  # one of COLUMN_KINDS
    meaning: str = ""
    dtype: pa.DataType | None = None
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in COLUMN_KINDS:
            raise ValueError(f"column {self.name!r}: kind {self.kind!r} not in {COLUMN_KINDS}")
        if (self.kind == "label") != bool(self.words):
            raise ValueError(f"column {self.name!r}: a label, and only a label, has words")


@dataclass(frozen=True)
class Each:
    """A placeholder ``<name>`` of a family's column names and the values it takes:
    ``values``, or ``of(catalog)`` when the run's catalog decides them (``text`` says
    which, for ``--describe``)."""

    name: str
    values: tuple[Any, ...] = ()
    of: Callable[[Any], Sequence[Any]] | None = None
    text: str = ""

    def resolve(self, catalog: Any) -> tuple[Any, ...]:
        return tuple(self.of(catalog)) if self.of is not None else self.values

    def text_of(self) -> str:
        return self.text or ", ".join(map(str, self.values))


TEXT = pa.dictionary(pa.int32(), pa.string())  # a row's text, dictionary-encoded
SIDES = Each("side", ("a", "b"))  # the two sides of a matchup: side a is the cell's first


@dataclass(frozen=True)
class Family:
    """Row columns written for every combination of placeholder values, ``each``
    outermost first; one combination's columns together, in order (``hex_<side>_<mech>``
    then ``down_<side>_<mech>``, for side a's mechs, then side b's)."""

    each: tuple[Each, ...]
    columns: tuple[Column, ...]

    def __post_init__(self) -> None:
        # the views type a label column by its one name (Experiment.labels)
        for c in self.columns:
            if c.words:
                raise ValueError(f"column {c.name!r}: a label column stands alone, not in a family")

    def expand(self, catalog: Any = None) -> list[Column]:
        combos: list[dict[str, Any]] = [{}]
        for e in self.each:
            combos = [{**c, e.name: v} for c in combos for v in e.resolve(catalog)]
        return [
            dataclasses.replace(col, name=_filled(col.name, combo))
            for combo in combos
            for col in self.columns
        ]


def _filled(pattern: str, values: Mapping[str, Any]) -> str:
    for key, value in values.items():
        pattern = pattern.replace(f"<{key}>", str(value))
    return pattern


def per(each: Each | Sequence[Each], *cols: Column) -> Family:
    """``per(SIDES, Column("routed_<side>", ...))``: the family of ``cols`` over ``each``."""
    return Family((each,) if isinstance(each, Each) else tuple(each), cols)


def per_side(name: str, dtype: pa.DataType, kind: str, meaning: str) -> Family:
    """``name_a`` and ``name_b``: one column for each side of a matchup."""
    return per(SIDES, Column(f"{name}_<side>", kind, meaning, dtype))


def expanded(items: Sequence[Column | Family], catalog: Any = None) -> list[Column]:
    """Columns in order, each family's expanded (for ``catalog`` where it decides them)."""
    out: list[Column] = []
    for item in items:
        out.extend(item.expand(catalog) if isinstance(item, Family) else [item])
    return out


DESCRIBE_WIDTH = 96  # --describe's lines

# what the runner adds to every experiment's rows, last
RUNNER_COLUMNS = (
    Column(
        "seed",
        "id",
        "the run's seed (chunk k draws SeedSequence(seed, spawn_key=(k,)))",
        pa.int64(),
    ),
    Column("chunk", "id", "the chunk the row came from", pa.int32()),
)


def type_text(dtype: pa.DataType | None) -> str:
    """A row column's Arrow type, short: ``int8``, ``str``, ``dict<str>`` (dictionary-
    encoded strings; the index type is the rows' business), ``decimal(38,0)``."""
    if dtype is None:
        return ""
    if pa.types.is_dictionary(dtype):
        return f"dict<{type_text(dtype.value_type)}>"
    if pa.types.is_string(dtype) or pa.types.is_large_string(dtype):
        return "str"
    if pa.types.is_decimal(dtype):
        return f"decimal({dtype.precision},{dtype.scale})"
    return {"float": "float32", "double": "float64"}.get(str(dtype), str(dtype))


def describe_columns(items: Sequence[Column | Family]) -> list[str]:
    """A line per column (a family's by its pattern): type, kind and meaning, a label's
    codes and words; then what each placeholder takes."""
    flat = [c for item in items for c in (item.columns if isinstance(item, Family) else [item])]
    wide = max(len(c.name) for c in flat) + 2
    typed = max(len(type_text(c.dtype)) for c in flat) + 2
    indent = " " * (2 + wide + typed + 13)
    lines = []
    for c in flat:
        meaning = c.meaning
        if c.words:
            codes = ", ".join(f"{i} {w}" for i, w in enumerate(c.words))
            meaning += f" (codes {codes}; the query views show the words)"
        head = f"  {c.name:<{wide}}{type_text(c.dtype):<{typed}}{c.kind:<13}"
        lines += textwrap.wrap(
            meaning, DESCRIBE_WIDTH, initial_indent=head, subsequent_indent=indent
        )
    each = {e.name: e for item in items if isinstance(item, Family) for e in item.each}
    if each:
        where = "; ".join(f"<{n}> is {e.text_of()}" for n, e in each.items())
        lines += textwrap.wrap(f"where {where}", DESCRIBE_WIDTH, subsequent_indent="  ")
    return lines


@dataclass(frozen=True)
class Pivot:
    """How the printable Markdown shows a table too long to list: a section per value of
    ``sections``, a row per value of ``rows``, a column per value of ``columns``, each
    cell the value of the column named ``cell`` written as its kind is (a probability as
    a percentage ``pp.p%``, an expectation to two decimals), or ``cell(row)`` (the
    table's row as a dict); ``note`` says what a cell holds."""

    sections: tuple[str, ...]
    rows: str
    columns: str
    cell: str | Callable[[Mapping[str, Any]], str]
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
    Arrow table. ``chunk_size`` is the rows per chunk. ``columns`` declares the rows
    ``run_chunk`` returns, in order, with their Arrow types (the runner adds
    :data:`RUNNER_COLUMNS`); ``doc`` and ``rows`` (what one row is) introduce them in
    ``mechbal simulate GAME EXPERIMENT --describe``. Enumerations (``needs_n=False``)
    have one row-group per cell and no randomness: ``--n``, the seed and the engine do
    not enter their runs' identity. The ``label`` columns' words (:attr:`labels`) are
    what the query views show (DuckDB ENUMs) while the Parquet rows keep the codes."""

    name: str
    summary: str
    doc: str
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
    columns: tuple[Column | Family, ...] = ()
    rows: str = "one row per game"

    @property
    def labels(self) -> dict[str, tuple[str, ...]]:
        """The label columns' words by column (code i is ``words[i]``)."""
        return {c.name: c.words for c in self.columns if isinstance(c, Column) and c.words}

    def row_columns(self, catalog: Any) -> list[Column]:
        """Every column a run's rows hold, in order, its families expanded for
        ``catalog`` (the run's, ``--set`` values applied)."""
        return expanded(self.columns, catalog) + list(RUNNER_COLUMNS)

    def describe(self) -> str:
        """``doc``, then the row columns (``mechbal simulate GAME EXPERIMENT --describe``)."""
        head = textwrap.wrap(f"Row columns ({self.rows}):", DESCRIBE_WIDTH)
        lines = [self.doc.rstrip(), "", *head, *describe_columns([*self.columns, *RUNNER_COLUMNS])]
        return "\n".join(lines)


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
    # catalog kind -> its file (``KIND.ID.FIELD`` names for --set): provenance counts and
    # the placeholders mechbal robust moves (sims.core.readings)
    kind_files: Mapping[str, str] = field(default_factory=dict)
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
