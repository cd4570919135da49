"""DuckDB over the Parquet store: ``runs``, a view of one run and a view of every run per
experiment, and ``mechbal query`` / ``mechbal runs``.

Store layout (DESIGN.md, "Store"): ``STORE/<game>/<experiment>/run=<id>/[<swept>=<v>/...]
part-<chunk>.parquet`` plus ``run=<id>/manifest.json``. :func:`connect` builds, in memory:

- ``runs``: one row per run folder: its manifest's settings (seed, N, options, ``--set``
  values as columns and as ``set_json``, sweeps), its ``label``, whether it is
  ``complete``, whether it is ``current`` (made from the catalog as it stands now, with
  the ``--set`` values asked for) and whether its experiment's view ``shown`` it;
- per (game, experiment), named after the experiment with underscores (``crit-margin``
  -> ``crit_margin``; ``<game>_<experiment>`` when two games share the name):
  ``<view>`` holds ONE run (the latest finished run of the current catalog, or the one
  named by ``--run``; never several runs added up), ``<view>_all`` holds every run's
  complete chunks with the run's ``label``, ``catalog_hash``, ``options``, ``sets`` and
  ``n`` as columns. Rows carry ``run``, their swept values (from the hive folders,
  typed) and their run's ``--set`` parameters; outcome codes the game labels
  (``Experiment.labels``) are DuckDB ENUMs (``winner = 'a'``);
- ``shown``: which run each one-run view shows and why; ``params``: which columns of
  each view are parameters (``kind`` sweep or set);
- macros ``wilson_low(k, n)`` and ``wilson_high(k, n)``: the 95% Wilson score interval
  (z = 1.96) of k successes in n trials (k may be fractional, e.g. wins + draws / 2).

The connection is read-only and sandboxed: only files under the store can be read,
nothing can be attached or configured, and :func:`fetch` runs nothing but queries
(``COPY``, ``CREATE``, ``ATTACH``, ``SET``, ``PRAGMA``, ``EXPLAIN ANALYZE`` ... are refused
in one line).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from sims.core.store import column_name  # the runner's rule for column-safe names

__all__ = [
    "QueryError",
    "Current",
    "connect",
    "query",
    "fetch",
    "read_only",
    "views",
    "shown",
    "parameters",
    "add_query_parser",
    "cmd_query",
    "add_runs_parser",
    "cmd_runs",
]

# Columns every ``runs`` table has, in order, with their DuckDB types. ``created`` and
# ``finished`` stay ISO text: lossless, and ISO strings sort in time order.
BASE_COLUMNS: dict[str, str] = {
    "run_id": "VARCHAR",
    "label": "VARCHAR",
    "game": "VARCHAR",
    "experiment": "VARCHAR",
    "engine": "VARCHAR",
    "engine_version": "VARCHAR",
    "rules_version": "VARCHAR",
    "seed": "BIGINT",
    "n": "BIGINT",
    "n_per_cell": "BIGINT",
    "chunk_size": "BIGINT",
    "chunks": "BIGINT",
    "complete": "BOOLEAN",
    "rows": "BIGINT",
    "created": "VARCHAR",
    "finished": "VARCHAR",
    "catalog_hash": "VARCHAR",
    "options": "VARCHAR",
}
# after the --set parameter columns
TAIL_COLUMNS = {
    "set_json": "VARCHAR",
    "sweep_json": "VARCHAR",
    "view": "VARCHAR",
    "current": "BOOLEAN",
    "shown": "BOOLEAN",
}
# what ``<view>_all`` adds to each row from its run: (column of runs, name in the view)
RUN_COLUMNS = (
    ("label", "label"),
    ("catalog_hash", "catalog_hash"),
    ("options", "options"),
    ("set_json", "sets"),
    ("n", "n"),
)
RESERVED_NAMES = {"runs", "params", "shown"}  # objects connect() creates besides the views

# k = 0 (k = n) is written out: there the bound is exactly 0 (1), which the formula only
# reaches up to rounding (1.7e-18). NULL when n = 0.
MACROS = """
CREATE OR REPLACE MACRO wilson_low(k, n) AS CASE
    WHEN n > 0 AND k <= 0 THEN 0.0
    WHEN n > 0 THEN
        (k / n + 1.96 * 1.96 / (2 * n)
         - 1.96 * sqrt(k / n * (1 - k / n) / n + 1.96 * 1.96 / (4 * n * n)))
        / (1 + 1.96 * 1.96 / n)
    END;
CREATE OR REPLACE MACRO wilson_high(k, n) AS CASE
    WHEN n > 0 AND k >= n THEN 1.0
    WHEN n > 0 THEN
        (k / n + 1.96 * 1.96 / (2 * n)
         + 1.96 * sqrt(k / n * (1 - k / n) / n + 1.96 * 1.96 / (4 * n * n)))
        / (1 + 1.96 * 1.96 / n)
    END;
"""

_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


class QueryError(ValueError):
    """A failing query or an unreadable store, described in one line."""


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0].strip() if lines else type(exc).__name__


def ident(name: str) -> str:
    """``name`` quoted as a SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# --- reading the store -------------------------------------------------------------------


@dataclass
class _Run:
    id: str
    folder: Path
    manifest: dict[str, Any]
    layouts: set[tuple[str, ...]] = field(default_factory=set)  # hive keys, "run" first

    @property
    def finished(self) -> bool:
        return bool(self.manifest.get("complete")) and bool(self.layouts)


@dataclass
class _Experiment:
    game: str
    name: str
    path: Path
    runs: dict[str, _Run] = field(default_factory=dict)
    values: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    @property
    def layouts(self) -> set[tuple[str, ...]]:
        return {keys for run in self.runs.values() for keys in run.layouts}

    @cached_property
    def declared(self) -> tuple[Any, Any] | None:
        """(game, experiment) as the installed game declares them; None for a game or
        experiment not installed (a store from elsewhere)."""
        from sims.core.protocol import UnknownGame, get_game

        try:
            game = get_game(self.game)
        except UnknownGame:
            return None
        experiment = game.experiments.get(self.name)
        return None if experiment is None else (game, experiment)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "BIGINT"
    if isinstance(value, float):
        return "DOUBLE"
    return "VARCHAR"


def _folder_kind(text: str) -> str:
    if _INT.fullmatch(text) and -(2**63) <= int(text) < 2**63:
        return "BIGINT"
    if _FLOAT.fullmatch(text):
        return "DOUBLE"
    if text.lower() in ("true", "false"):
        return "BOOLEAN"
    return "VARCHAR"


def _common(kinds: set[str]) -> str:
    """One type holding every kind seen: integers widen to doubles, anything else is text."""
    if len(kinds) == 1:
        return next(iter(kinds))
    if kinds and kinds <= {"BIGINT", "DOUBLE"}:
        return "DOUBLE"
    return "VARCHAR"


def _load_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise QueryError(f"{path}: unreadable manifest: {_one_line(exc)}") from None
    if not isinstance(data, dict):
        raise QueryError(f"{path}: unreadable manifest: expected a JSON object")
    return data


def _scan(store: Path) -> list[_Experiment]:
    """Every experiment folder of ``store`` with its runs (manifest, hive layouts)."""
    if not store.exists():
        raise QueryError(
            f"no store at {store}: nothing simulated there yet (run mechbal "
            f"simulate GAME EXPERIMENT, or give --store DIR)"
        )
    if not store.is_dir():
        raise QueryError(f"store {store} is not a folder")

    def folders(path: Path) -> list[Path]:  # hidden ones (.ipynb_checkpoints) are not games
        return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))

    experiments: list[_Experiment] = []
    for game_dir in folders(store):
        for exp_dir in folders(game_dir):
            exp = _Experiment(game_dir.name, exp_dir.name, exp_dir)
            for folder in sorted(p for p in exp_dir.glob("run=*") if p.is_dir()):
                run_id = folder.name.removeprefix("run=")
                path = folder / "manifest.json"
                manifest = _load_manifest(path) if path.is_file() else {}
                run = exp.runs[run_id] = _Run(run_id, folder, manifest)
                # Only names ending in .parquet are complete chunks (.partial is in flight).
                for chunk in folder.rglob("*.parquet"):
                    if not chunk.is_file():
                        continue
                    pairs = [
                        part.split("=", 1)
                        for part in chunk.relative_to(exp_dir).parent.parts
                        if "=" in part
                    ]  # starts with ("run", <id>)
                    run.layouts.add(tuple(key for key, _ in pairs))
                    for key, value in pairs:
                        exp.values[key].add(value)
            if exp.runs:
                experiments.append(exp)
    return experiments


# --- which run a view shows ---------------------------------------------------------------


@dataclass(frozen=True)
class Current:
    """What "the current catalog" is for the one-run views: the catalog folder (None:
    compare with nothing, each view shows its experiment's latest finished run) and the
    ``--set`` values a run must have been made with (none: the catalog as it stands)."""

    catalog: Path | None = Path("catalogs")
    sets: Mapping[str, Any] = field(default_factory=dict)


def _current_hash(exp: _Experiment, current: Current) -> tuple[str | None, str | None]:
    """(catalog hash, rules version) a run of ``exp`` made now would record, or Nones
    when there is nothing to compare with (no catalog, a game or experiment not known)."""
    from sims.core.runner import current_catalog_hash

    if current.catalog is None or not (current.catalog / exp.game).is_dir():
        return None, None
    if exp.declared is None:
        return None, None
    game, experiment = exp.declared
    return current_catalog_hash(game, experiment, current.catalog), game.rules_version


def _choose(
    exp: _Experiment, current: Current, pinned: set[str]
) -> tuple[str | None, set[str], str]:
    """(the run the experiment's view shows, the runs of the current catalog, why)."""
    named = [r for r in exp.runs if r in pinned]
    want, rules = _current_hash(exp, current)
    sets = dict(current.sets)
    matching = {
        run.id
        for run in exp.runs.values()
        if want is not None
        and run.manifest.get("catalog_hash") == want
        and run.manifest.get("rules_version") == rules
        and (run.manifest.get("set") or {}) == sets
    }
    if named:
        return named[0], matching, "named by --run"
    finished = sorted(
        (r for r in exp.runs.values() if r.finished),
        key=lambda r: (str(r.manifest.get("finished") or ""), r.id),
    )
    if want is None:
        why = (
            "latest finished run (no catalog to compare with)"
            if current.catalog is None
            else f"latest finished run (no {exp.game} catalog or experiment in "
            f"{current.catalog} to compare with)"
        )
        return (finished[-1].id if finished else None), matching, why
    chosen = [r for r in finished if r.id in matching]
    if chosen:
        what = "the current catalog" + (f" with {_sets_text(sets)}" if sets else "")
        return chosen[-1].id, matching, f"latest finished run of {what}"
    others = len(finished)
    return (
        None,
        matching,
        (
            f"no finished run of the current catalog in {current.catalog}"
            + (f" with {_sets_text(sets)}" if sets else "")
            + (
                f" ({others} of other catalogs or settings: name one with --run ID)"
                if others
                else ""
            )
        ),
    )


def _sets_text(sets: Mapping[str, Any]) -> str:
    return ", ".join(f"--set {k}={v}" for k, v in sorted(sets.items()))


def _pinned(experiments: list[_Experiment], runs: Sequence[str]) -> set[str]:
    """Full run ids for ``--run`` values (a unique prefix is enough), one per experiment."""
    out: set[str] = set()
    owner: dict[tuple[str, str], str] = {}
    everything = [(exp, run_id) for exp in experiments for run_id in exp.runs]
    for given in runs:
        found = [(exp, r) for exp, r in everything if r.startswith(given)]
        if not found:
            raise QueryError(f"--run {given}: no such run in the store (mechbal runs lists them)")
        if len(found) > 1:
            raise QueryError(f"--run {given}: {len(found)} runs start so; give more of the id")
        exp, run_id = found[0]
        key = (exp.game, exp.name)
        if key in owner and owner[key] != run_id:
            raise QueryError(
                f"--run {given}: {exp.game} {exp.name} already shows run "
                f"{owner[key]} (one run per view; its _all view holds all)"
            )
        owner[key] = run_id
        out.add(run_id)
    return out


# --- the runs table and the views ----------------------------------------------------------


def _runs_table(
    con: duckdb.DuckDBPyConnection,
    experiments: list[_Experiment],
    chosen: dict[tuple[str, str], tuple[str | None, set[str], str]],
    names: dict[tuple[str, str], str],
) -> dict[tuple[str, str], set[str]]:
    """Create ``runs``; return the set-parameter columns used per (game, experiment) folder."""
    everything = [(exp, run) for exp in experiments for run in exp.runs.values()]
    kinds: dict[str, set[str]] = defaultdict(set)
    for _, run in everything:
        for name, value in (run.manifest.get("set") or {}).items():
            if value is not None:
                kinds[_param_column(name)].add(_kind(value))
    param_types = {name: _common(kinds[name]) for name in sorted(kinds)}
    columns = {**BASE_COLUMNS, **param_types, **TAIL_COLUMNS}
    con.execute(
        "CREATE TABLE runs (" + ", ".join(f"{ident(c)} {t}" for c, t in columns.items()) + ")"
    )
    used: dict[tuple[str, str], set[str]] = defaultdict(set)
    insert = f"INSERT INTO runs VALUES ({', '.join('?' * len(columns))})"
    for exp, run in everything:
        key = (exp.game, exp.name)
        m = run.manifest
        row: dict[str, Any] = {c: m.get(c) for c in BASE_COLUMNS}
        row.update(
            run_id=run.id,
            game=exp.game,
            experiment=exp.name,
            complete=bool(m.get("complete")),
            options=json.dumps(m.get("options") or {}, sort_keys=True),
        )
        for name, value in (m.get("set") or {}).items():
            col = _param_column(name)
            row[col] = _as_type(value, param_types[col]) if value is not None else None
            if value is not None:
                used[key].add(col)
        shown, matching, _ = chosen.get(key, (None, set(), ""))
        row.update(
            set_json=json.dumps(m.get("set") or {}, sort_keys=True),
            sweep_json=json.dumps(m.get("sweep") or {}),
            view=names.get(key),
            current=run.id in matching,
            shown=run.id == shown,
        )
        try:
            con.execute(insert, [row.get(c) for c in columns])
        except duckdb.Error as exc:
            raise QueryError(f"{run.folder / 'manifest.json'}: {_one_line(exc)}") from None
    return used


def _param_column(name: str) -> str:
    col = column_name(name)
    # A parameter never shadows a base column (``runs.seed`` is the run's seed).
    return f"set_{col}" if col in BASE_COLUMNS or col in TAIL_COLUMNS else col


def _as_type(value: Any, sql_type: str) -> Any:
    if sql_type == "VARCHAR" and not isinstance(value, str):
        return json.dumps(value)
    if sql_type == "DOUBLE":
        return float(value)
    return value


def _plain(exp: _Experiment) -> str:
    return column_name(exp.name).replace("-", "_")


def _qualified(exp: _Experiment) -> str:
    """``<game>_<experiment>``: a view name that holds whatever else the store holds."""
    return f"{exp.game}_{_plain(exp)}"


def _view_names(experiments: list[_Experiment]) -> dict[tuple[str, str], str]:
    """Each experiment's view: its own name, or ``<game>_<name>`` when two games' names
    clash (the game-qualified name is also created beside a plain one)."""
    plain = [_plain(e) for e in experiments]
    names = {}
    for exp, name in zip(experiments, plain, strict=True):
        clash = plain.count(name) > 1 or name in RESERVED_NAMES
        names[(exp.game, exp.name)] = _qualified(exp) if clash else name
    return names


def _source_sql(exp: _Experiment, types: dict[str, str]) -> str:
    """Every complete chunk of the experiment, hive columns typed by what the folders hold."""

    def read(glob: str, keys: tuple[str, ...]) -> str:
        hive = ", ".join(f"{_lit(k)}: {_lit(types[k])}" for k in keys)
        return (
            f"SELECT * FROM read_parquet({_lit(glob)}, hive_partitioning = true, "
            f"union_by_name = true, hive_types = {{{hive}}}, hive_types_autocast = false)"
        )

    base = exp.path.resolve().as_posix()
    layouts = exp.layouts
    if len(layouts) == 1:
        return read(f"{base}/run=*/**/*.parquet", next(iter(layouts)))
    # DuckDB refuses one hive scan over files with different partition keys ("Hive
    # partition mismatch"), e.g. runs sweeping different parameters: one scan per layout.
    parts = []
    for keys in sorted(layouts):
        glob = base + "/" + "".join(f"{k}=*/" for k in keys) + "*.parquet"
        parts.append(read(glob, keys))
    return "\nUNION ALL BY NAME\n".join(parts)


def _labels(exp: _Experiment) -> Mapping[str, tuple[str, ...]]:
    """The outcome labels the game declares for the experiment ({} for an unknown one)."""
    return exp.declared[1].labels if exp.declared is not None else {}


def _create_views(
    con: duckdb.DuckDBPyConnection,
    name: str,
    exp: _Experiment,
    set_params: set[str],
    param_types: dict[str, str],
    shown: str | None,
) -> list[tuple[str, str, str]]:
    """Create ``<name>_all`` (every run) and ``<name>`` (the shown run only); return the
    parameter columns as (name, kind, type)."""
    types = {
        key: "VARCHAR" if key == "run" else _common({_folder_kind(v) for v in values})
        for key, values in exp.values.items()
    }
    source = _source_sql(exp, types)
    try:
        columns = {row[0]: row[1] for row in con.execute(f"DESCRIBE {source}").fetchall()}
    except duckdb.Error as exc:
        raise QueryError(f"{exp.path}: {_one_line(exc)}") from None
    swept = sorted(k for k in types if k != "run")
    replace, extra, params = [], [], [(k, "sweep", columns.get(k, types[k])) for k in swept]
    for col in sorted(set_params):
        if col in columns:
            # Swept in some runs, set in others: the row's own value, else its run's.
            replace.append(
                f"coalesce(r.{ident(col)}, TRY_CAST(p.{ident(col)} AS {columns[col]}))"
                f" AS {ident(col)}"
            )
            if col not in swept:
                params.append((col, "set", columns[col]))
        else:
            extra.append(f"p.{ident(col)}")
            params.append((col, "set", param_types[col]))
    for col, words in _labels(exp).items():
        if col not in columns:
            continue
        enum = ident(f"{name}_{col}")
        con.execute(f"CREATE TYPE {enum} AS ENUM ({', '.join(_lit(w) for w in words)})")
        listed = "[" + ", ".join(_lit(w) for w in words) + "]"
        replace.append(
            f"CAST(CASE WHEN r.{ident(col)} BETWEEN 0 AND {len(words) - 1} THEN "
            f"{listed}[r.{ident(col)} + 1] END AS {enum}) AS {ident(col)}"
        )
    # The run's own columns; a row column of the same name keeps it (``run_`` prefixed).
    taken = set(columns) | set(set_params)
    about = [
        f"p.{ident(src)} AS {ident(dst if dst not in taken else 'run_' + dst)}"
        for src, dst in RUN_COLUMNS
    ]
    star = "r.* EXCLUDE (run)" + (f" REPLACE ({', '.join(replace)})" if replace else "")
    select = ", ".join(["r.run", star, *extra, *about])
    everything = ident(f"{name}_all")
    sql = (
        f"CREATE VIEW {everything} AS\nSELECT {select}\nFROM (\n{source}\n) AS r"
        f"\nLEFT JOIN runs AS p ON p.run_id = r.run AND p.game = {_lit(exp.game)}"
        f" AND p.experiment = {_lit(exp.name)}"
    )
    where = f"run = {_lit(shown)}" if shown is not None else "false"
    try:
        con.execute(sql)
        con.execute(f"CREATE VIEW {ident(name)} AS SELECT * FROM {everything} WHERE {where}")
    except duckdb.Error as exc:
        raise QueryError(f"{exp.path}: {_one_line(exc)}") from None
    return params


def connect(
    store: Path | str = "data",
    *,
    catalog: Path | str | None = "catalogs",
    sets: Mapping[str, Any] | None = None,
    runs: Sequence[str] = (),
) -> duckdb.DuckDBPyConnection:
    """An in-memory, read-only DuckDB over ``store``: ``runs``, ``params``, the Wilson
    macros, and per experiment a view of one run and ``<view>_all`` of every run.

    The one-run view shows the run named in ``runs`` (a unique prefix of its id is
    enough), else the latest finished run of the catalog in ``catalog`` made with exactly
    ``sets`` (none by default: the catalog as it stands), else nothing; ``catalog=None``
    shows each experiment's latest finished run. Only the store can be read afterwards:
    no file outside it, no attaching, no configuration (:func:`fetch` refuses anything
    but queries)."""
    store = Path(store)
    experiments = _scan(store)
    current = Current(None if catalog is None else Path(catalog), dict(sets or {}))
    pinned = _pinned(experiments, runs)
    chosen = {(e.game, e.name): _choose(e, current, pinned) for e in experiments}
    names = _view_names(experiments)
    con = duckdb.connect()
    try:
        con.execute(MACROS)
        used = _runs_table(con, experiments, chosen, names)
        param_types = {
            row[0]: row[1]
            for row in con.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'runs'"
            ).fetchall()
        }
        con.execute("CREATE TABLE params (view VARCHAR, name VARCHAR, kind VARCHAR, type VARCHAR)")
        con.execute(
            "CREATE TABLE shown (view VARCHAR, game VARCHAR, experiment VARCHAR, "
            "run_id VARCHAR, why VARCHAR)"
        )
        for exp in experiments:
            key = (exp.game, exp.name)
            view = names[key]
            shown, _, why = chosen[key]
            con.execute(
                "INSERT INTO shown VALUES (?, ?, ?, ?, ?)", [view, exp.game, exp.name, shown, why]
            )
            if not exp.layouts:  # runs begun, no chunk finished: nothing to describe
                continue
            params = _create_views(con, view, exp, used.get(key, set()), param_types, shown)
            qualified = _qualified(exp)
            if view != qualified:  # the game-qualified name works whatever else is stored
                for suffix in ("", "_all"):
                    con.execute(
                        f"CREATE VIEW {ident(qualified + suffix)} AS "
                        f"SELECT * FROM {ident(view + suffix)}"
                    )
            if params:
                con.executemany(
                    "INSERT INTO params VALUES (?, ?, ?, ?)", [(view, *p) for p in params]
                )
        _lock(con, store)
    except BaseException:
        con.close()
        raise
    return con


def _lock(con: duckdb.DuckDBPyConnection, store: Path) -> None:
    """From here on only files under ``store`` can be read (DuckDB's external access
    off, the store the one allowed directory) and no setting can change."""
    allowed = store.resolve().as_posix().rstrip("/") + "/"
    con.execute(f"SET allowed_directories = [{_lit(allowed)}]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def views(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Names of the experiment views (one run each; ``<view>_all`` left out), sorted."""
    rows = con.execute(
        "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
        "AND view_name IN (SELECT view FROM shown) ORDER BY view_name"
    ).fetchall()
    return [r[0] for r in rows]


def shown(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Which run each one-run view shows, and why (view, game, experiment, run_id, why)."""
    return con.sql("SELECT * FROM shown ORDER BY view").pl()


def parameters(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    """Parameter columns of ``view``: swept ones (hive folders) first, then ``--set`` ones."""
    try:
        rows = con.execute(
            "SELECT name FROM params WHERE view = ? ORDER BY kind = 'set', name",
            [view.removesuffix("_all")],
        ).fetchall()
    except duckdb.CatalogException:  # a connection not made by connect()
        return []
    return [r[0] for r in rows]


_MISSING = re.compile(r"Table with name (\S+) does not exist")


def read_only(sql: str) -> None:
    """Refuse anything but queries: one line naming the statement (COPY, ATTACH, ...)."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryError(_one_line(exc)) from None
    if not statements:
        raise QueryError('the query is empty: give SQL, e.g. "SELECT * FROM runs"')
    for statement in statements:
        if statement.type != duckdb.StatementType.SELECT:
            word = statement.type.name.replace("_", " ")
            word = ("an " if word[0] in "AEIOU" else "a ") + word
            raise QueryError(
                f"mechbal query only reads the store: {word} statement is "
                f"refused (write a result with --out FILE)"
            )


def fetch(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame:
    """Run the query ``sql`` on ``con``; the last statement's result as polars."""
    read_only(sql)
    try:
        rel = con.sql(sql)
        return pl.DataFrame() if rel is None else rel.pl()
    except duckdb.CatalogException as exc:
        missing = _MISSING.search(str(exc))
        if missing:
            known = ", ".join(views(con)) or "none: the store holds no finished chunk"
            raise QueryError(
                f"no view named {missing.group(1)} (views: {known}; mechbal runs lists the runs)"
            ) from None
        raise QueryError(_one_line(exc)) from None
    except duckdb.Error as exc:
        raise QueryError(_one_line(exc)) from None


def query(
    sql: str, store: Path | str | duckdb.DuckDBPyConnection = "data", **current: Any
) -> pl.DataFrame:
    """Run the query ``sql`` over the store (a path, or a connection from :func:`connect`);
    ``current`` (catalog, sets, runs) chooses the runs the one-run views show."""
    if isinstance(store, duckdb.DuckDBPyConnection):
        return fetch(store, sql)
    read_only(sql)  # before the store is even scanned
    con = connect(store, **current)
    try:
        return fetch(con, sql)
    finally:
        con.close()


# --- the command line --------------------------------------------------------------------

FORMATS = ("table", "csv", "parquet")
SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


def _sets(items: Sequence[str] | None) -> dict[str, Any]:
    from sims.core.catalog import parse_assignment, parse_value

    out = {}
    for item in items or []:
        name, text = parse_assignment(item, "--set")
        out[name] = parse_value(text)
    return out


def _store_flags(p: argparse.ArgumentParser) -> None:
    """How a command picks the runs it reads: the store, the current catalog, what-ifs."""
    p.add_argument("--store", default="data", metavar="DIR", help="the store (default data)")
    p.add_argument(
        "--catalog",
        default="catalogs",
        metavar="DIR",
        help="the catalog the one-run views compare runs with (default catalogs)",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="show runs made with this --set (repeatable; default: none)",
    )


def add_query_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``mechbal query SQL [--store DIR] [--run ID] [--format F] [--out FILE]``."""
    p = subparsers.add_parser(
        "query",
        help="SQL over DuckDB views of the store (read-only)",
        description="SQL over the store. Each experiment's view (named after it) "
        "holds ONE run: the latest finished run of the current catalog, or the one named "
        "by --run; <view>_all holds every run with its run, label, catalog_hash, options, "
        "sets, seed and n; runs lists the runs (also: mechbal runs). Only queries run: "
        "COPY, CREATE, ATTACH, SET and the like are refused, and no file outside the "
        "store can be read.",
    )
    p.add_argument("sql", help='SQL, e.g. "SELECT * FROM runs ORDER BY finished"')
    _store_flags(p)
    p.add_argument(
        "--run",
        action="append",
        metavar="ID",
        default=[],
        help="the run its experiment's view shows (a unique prefix; repeatable, "
        "one per experiment)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (default; with --out, taken from its suffix), csv or parquet",
    )
    p.add_argument(
        "--out", metavar="FILE", help="write the result to FILE (csv or parquet), not the screen"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=50,
        metavar="N",
        help="rows the screen table shows (default 50, 0 for all); csv, parquet "
        "and --out get every row",
    )
    p.set_defaults(func=cmd_query)
    return p


def add_runs_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``mechbal runs [GAME] [EXPERIMENT]``."""
    p = subparsers.add_parser(
        "runs",
        help="list the runs in the store: label, options, current catalog or not",
        description="The runs in the store, latest first: label (simulate --label), "
        "settings, whether each was made from the current catalog (current) and whether "
        "its experiment's view shows it (shown).",
    )
    p.add_argument("game", nargs="?")
    p.add_argument("experiment", nargs="?")
    _store_flags(p)
    p.add_argument("--format", choices=("table", "csv"), default="table")
    p.set_defaults(func=cmd_runs)
    return p


RUNS_LISTED = [
    "run_id",
    "label",
    "game",
    "experiment",
    "finished",
    "complete",
    "current",
    "shown",
    "rows",
    "seed",
    "n",
    "options",
    "set_json",
    "sweep_json",
]


def cmd_runs(args: argparse.Namespace) -> int:
    """``mechbal runs``: the runs of the store (of GAME, of its EXPERIMENT), latest first."""
    con = connect(args.store, catalog=args.catalog, sets=_sets(args.set))
    try:
        where, params = [], []
        for column, value in (("game", args.game), ("experiment", args.experiment)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        sql = (
            f"SELECT {', '.join(RUNS_LISTED)} FROM runs"
            + (f" WHERE {' AND '.join(where)}" if where else "")
            + " ORDER BY game, experiment, finished DESC NULLS FIRST, run_id"
        )
        df = con.sql(sql, params=params).pl().rename({"set_json": "sets", "sweep_json": "sweeps"})
    finally:
        con.close()
    if df.is_empty():
        what = " ".join(w for w in (args.game, args.experiment) if w) or "any experiment"
        raise QueryError(f"no runs of {what} in the store {args.store}")
    if args.format == "csv":
        sys.stdout.write(df.write_csv())
        return 0
    with pl.Config(
        tbl_rows=-1,
        tbl_cols=-1,
        fmt_str_lengths=60,
        tbl_width_chars=250,
        tbl_hide_dataframe_shape=True,
    ):
        print(df)
    print(
        f"{df.height} runs; current = made from {args.catalog} as it stands; shown = the "
        f"run its experiment's view holds"
    )
    return 0


def _output_format(fmt: str, out: Path | None) -> str:
    if out is not None and out.is_dir():
        raise QueryError(f"--out {out} is a folder: give a file name")
    if out is None:
        if fmt == "parquet":
            raise QueryError("--format parquet needs --out FILE")
        return fmt
    if fmt != "table":
        return fmt
    # A table is for the screen: with --out, the file's suffix says what to write.
    inferred = SUFFIXES.get(out.suffix.lower())
    if inferred is None:
        raise QueryError(f"--out {out}: give --format csv or parquet (or a .csv/.parquet name)")
    return inferred


def _write_atomic(df: pl.DataFrame, out: Path, fmt: str) -> None:
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "csv":
            df.write_csv(tmp)
        else:
            df.write_parquet(tmp)
        os.replace(tmp, out)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise QueryError(f"cannot write {out}: {_one_line(exc)}") from None
    finally:
        tmp.unlink(missing_ok=True)


def _notes(con: duckdb.DuckDBPyConnection, sql: str) -> list[str]:
    """A line for each one-run view the query names whose choice a reader should know:
    other runs exist beside the one shown, or none is shown."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", sql.lower()))
    rows = con.execute(
        "SELECT s.view, s.run_id, s.why, r.label, (SELECT count(*) FROM runs AS a "
        "WHERE a.game = s.game AND a.experiment = s.experiment) AS total "
        "FROM shown AS s LEFT JOIN runs AS r ON r.run_id = s.run_id ORDER BY s.view"
    ).fetchall()
    notes = []
    for view, run_id, why, label, total in rows:
        if view.lower() not in words or (run_id is not None and total == 1):
            continue
        name = f"run {run_id}" + (f" ({label})" if label else "") if run_id else "no run"
        runs = f"all {total} runs" if total != 1 else "its 1 run"
        notes.append(f"note: {view} shows {name}: {why}; {view}_all holds {runs}")
    return notes


def cmd_query(args: argparse.Namespace) -> int:
    """``mechbal query``: print the result, or write it to ``--out``; QueryError on failure."""
    out = Path(args.out) if args.out else None
    fmt = _output_format(args.format, out)
    if args.limit < 0:
        raise QueryError(f"--limit {args.limit}: give 0 (every row) or more")
    read_only(args.sql)  # before the store is even scanned
    con = connect(args.store, catalog=args.catalog, sets=_sets(args.set), runs=args.run)
    try:
        df = fetch(con, args.sql)  # fails before anything is written
        notes = _notes(con, args.sql)
    finally:
        con.close()
    for note in notes:
        print(note, file=sys.stderr)
    if out is not None:
        _write_atomic(df, out, fmt)
        print(f"wrote {df.height} rows to {out}")
    elif fmt == "csv":
        try:
            sys.stdout.write(df.write_csv())
        except pl.exceptions.PolarsError as exc:
            raise QueryError(_one_line(exc)) from None
    else:
        rows = df.height if args.limit == 0 else min(args.limit, df.height)
        with pl.Config(
            tbl_rows=max(rows, 1),
            tbl_cols=30,
            fmt_str_lengths=80,
            tbl_width_chars=250,
            tbl_hide_dataframe_shape=True,
        ):
            print(df.head(rows))
        if rows < df.height:
            print(
                f"{rows} of {df.height:,} rows shown (--limit 0 shows all, --out FILE writes all)"
            )
        else:
            print(f"{df.height:,} row{'s' if df.height != 1 else ''}")
    return 0
