"""The tables and views :func:`analysis.query.connect` creates: ``runs`` (one row per run
folder), ``<view>_all`` and ``<view>`` per experiment, with the hive folders' values
typed, the run's ``--set`` parameters as columns and the game's outcome labels as
DuckDB ENUMs (module docstring of :mod:`analysis.query`)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import duckdb

from analysis.query_store import QueryError, _Experiment, _lit, _one_line, ident
from sims.core.store import column_name  # the runner's rule for column-safe names

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
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


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
