"""DuckDB over the Parquet store: a ``runs`` table, one view per experiment, ``mechbal query``.

Store layout (DESIGN.md, "Store"): ``STORE/<game>/<experiment>/run=<id>/[<swept>=<v>/...]
part-<chunk>.parquet`` plus ``run=<id>/manifest.json``. :func:`connect` builds, in memory:

- ``runs``: one row per manifest (base columns, one column per ``--set`` parameter, and
  ``set_json``/``sweep_json``);
- one view per (game, experiment) holding complete chunks, named after the experiment with
  underscores (``crit-margin`` -> ``crit_margin``; ``<game>_<experiment>`` when two games
  share the name). Each row carries ``run``, its swept values (from the hive folders, typed)
  and its run's ``--set`` parameters;
- ``params``: which columns of each view are parameters (``kind`` sweep or set);
- macros ``wilson_low(k, n)`` and ``wilson_high(k, n)``: the 95% Wilson score interval
  (z = 1.96) of k successes in n trials (k may be fractional, e.g. wins + draws / 2).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from sims.core.store import column_name  # the runner's rule for column-safe names

__all__ = [
    "QueryError", "connect", "query", "fetch", "views", "parameters", "add_query_parser",
    "cmd_query",
]  # fmt: skip

# Columns every ``runs`` table has, in order, with their DuckDB types. ``created`` and
# ``finished`` stay ISO text: lossless, and ISO strings sort in time order.
BASE_COLUMNS: dict[str, str] = {
    "run_id": "VARCHAR",
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
}
RESERVED_NAMES = {"runs", "params"}  # objects connect() creates besides the views

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
class _Experiment:
    game: str
    name: str
    path: Path
    layouts: set[tuple[str, ...]] = field(default_factory=set)  # hive keys, "run" first
    values: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


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


def _scan(store: Path) -> tuple[list[tuple[Path, dict[str, Any]]], list[_Experiment]]:
    """Manifests and experiments (with their hive layouts) found under ``store``."""
    if store.exists() and not store.is_dir():
        raise QueryError(f"store {store} is not a folder")
    manifests: list[tuple[Path, dict[str, Any]]] = []
    experiments: list[_Experiment] = []
    if not store.is_dir():
        return manifests, experiments

    def folders(path: Path) -> list[Path]:  # hidden ones (.ipynb_checkpoints) are not games
        return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))

    for game_dir in folders(store):
        for exp_dir in folders(game_dir):
            exp = _Experiment(game_dir.name, exp_dir.name, exp_dir)
            for run_dir in sorted(p for p in exp_dir.glob("run=*") if p.is_dir()):
                manifest_path = run_dir / "manifest.json"
                if manifest_path.is_file():
                    manifests.append((run_dir, _load_manifest(manifest_path)))
                # Only names ending in .parquet are complete chunks (.partial is in flight).
                for chunk in run_dir.rglob("*.parquet"):
                    if not chunk.is_file():
                        continue
                    pairs = [
                        part.split("=", 1)
                        for part in chunk.relative_to(exp_dir).parent.parts
                        if "=" in part
                    ]  # starts with ("run", <id>)
                    exp.layouts.add(tuple(key for key, _ in pairs))
                    for key, value in pairs:
                        exp.values[key].add(value)
            if exp.layouts:
                experiments.append(exp)
    return manifests, experiments


def _runs_table(
    con: duckdb.DuckDBPyConnection, manifests: list[tuple[Path, dict[str, Any]]]
) -> dict[tuple[str, str], set[str]]:
    """Create ``runs``; return the set-parameter columns used per (game, experiment) folder."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for _, m in manifests:
        for name, value in (m.get("set") or {}).items():
            if value is not None:
                kinds[_param_column(name)].add(_kind(value))
    param_types = {name: _common(kinds[name]) for name in sorted(kinds)}
    columns = {**BASE_COLUMNS, **param_types, "set_json": "VARCHAR", "sweep_json": "VARCHAR"}
    con.execute(
        "CREATE TABLE runs (" + ", ".join(f"{ident(c)} {t}" for c, t in columns.items()) + ")"
    )
    used: dict[tuple[str, str], set[str]] = defaultdict(set)
    insert = f"INSERT INTO runs VALUES ({', '.join('?' * len(columns))})"
    for run_dir, m in manifests:
        folder = (run_dir.parent.parent.name, run_dir.parent.name)
        row: dict[str, Any] = {c: m.get(c) for c in BASE_COLUMNS}
        row["run_id"] = row["run_id"] or run_dir.name.removeprefix("run=")
        row["game"] = row["game"] or folder[0]
        row["experiment"] = row["experiment"] or folder[1]
        for name, value in (m.get("set") or {}).items():
            col = _param_column(name)
            row[col] = _as_type(value, param_types[col]) if value is not None else None
            if value is not None:
                used[folder].add(col)
        row["set_json"] = json.dumps(m.get("set") or {})
        row["sweep_json"] = json.dumps(m.get("sweep") or {})
        try:
            con.execute(insert, [row.get(c) for c in columns])
        except duckdb.Error as exc:
            raise QueryError(f"{run_dir / 'manifest.json'}: {_one_line(exc)}") from None
    return used


def _param_column(name: str) -> str:
    col = column_name(name)
    # A parameter never shadows a base column (``runs.seed`` is the run's seed).
    return f"set_{col}" if col in BASE_COLUMNS or col in ("set_json", "sweep_json") else col


def _as_type(value: Any, sql_type: str) -> Any:
    if sql_type == "VARCHAR" and not isinstance(value, str):
        return json.dumps(value)
    if sql_type == "DOUBLE":
        return float(value)
    return value


def _view_names(experiments: list[_Experiment]) -> dict[tuple[str, str], str]:
    plain = [column_name(e.name).replace("-", "_") for e in experiments]
    names = {}
    for exp, name in zip(experiments, plain, strict=True):
        clash = plain.count(name) > 1 or name in RESERVED_NAMES
        names[(exp.game, exp.name)] = f"{exp.game}_{name}" if clash else name
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
    if len(exp.layouts) == 1:
        return read(f"{base}/run=*/**/*.parquet", next(iter(exp.layouts)))
    # DuckDB refuses one hive scan over files with different partition keys ("Hive
    # partition mismatch"), e.g. runs sweeping different parameters: one scan per layout.
    parts = []
    for keys in sorted(exp.layouts):
        glob = base + "/" + "".join(f"{k}=*/" for k in keys) + "*.parquet"
        parts.append(read(glob, keys))
    return "\nUNION ALL BY NAME\n".join(parts)


def _create_view(
    con: duckdb.DuckDBPyConnection, name: str, exp: _Experiment, set_params: set[str],
    param_types: dict[str, str],
) -> list[tuple[str, str, str]]:  # fmt: skip
    """Create the view; return its parameter columns as (name, kind, type)."""
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
    star = "r.* EXCLUDE (run)" + (f" REPLACE ({', '.join(replace)})" if replace else "")
    select = ", ".join(["r.run", star, *extra])
    sql = f"CREATE VIEW {ident(name)} AS\nSELECT {select}\nFROM (\n{source}\n) AS r"
    if set_params:
        sql += (
            f"\nLEFT JOIN runs AS p ON p.run_id = r.run AND p.game = {_lit(exp.game)}"
            f" AND p.experiment = {_lit(exp.name)}"
        )
    try:
        con.execute(sql)
    except duckdb.Error as exc:
        raise QueryError(f"{exp.path}: {_one_line(exc)}") from None
    return params


def connect(store: Path | str = "data") -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with ``runs``, ``params``, the Wilson macros and a view per
    experiment of ``store`` (a missing or empty store gives an empty ``runs`` and no views)."""
    store = Path(store)
    manifests, experiments = _scan(store)
    con = duckdb.connect()
    try:
        con.execute(MACROS)
        used = _runs_table(con, manifests)
        param_types = {
            row[0]: row[1]
            for row in con.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'runs'"
            ).fetchall()
        }
        con.execute("CREATE TABLE params (view VARCHAR, name VARCHAR, kind VARCHAR, type VARCHAR)")
        names = _view_names(experiments)
        for exp in experiments:
            view = names[(exp.game, exp.name)]
            params = _create_view(
                con, view, exp, used.get((exp.game, exp.name), set()), param_types
            )
            if params:
                con.executemany(
                    "INSERT INTO params VALUES (?, ?, ?, ?)", [(view, *p) for p in params]
                )
    except BaseException:
        con.close()
        raise
    return con


def views(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Names of the experiment views, sorted."""
    rows = con.execute(
        "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
        "ORDER BY view_name"
    ).fetchall()
    return [r[0] for r in rows]


def parameters(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    """Parameter columns of ``view``: swept ones (hive folders) first, then ``--set`` ones."""
    try:
        rows = con.execute(
            "SELECT name FROM params WHERE view = ? ORDER BY kind = 'set', name", [view]
        ).fetchall()
    except duckdb.CatalogException:  # a connection not made by connect()
        return []
    return [r[0] for r in rows]


def fetch(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame:
    """Run ``sql`` on ``con``; the last statement's result as polars (empty if none)."""
    try:
        rel = con.sql(sql)
        return pl.DataFrame() if rel is None else rel.pl()
    except duckdb.Error as exc:
        raise QueryError(_one_line(exc)) from None


def query(sql: str, store: Path | str | duckdb.DuckDBPyConnection = "data") -> pl.DataFrame:
    """Run ``sql`` over the store (a path, or a connection from :func:`connect`)."""
    if isinstance(store, duckdb.DuckDBPyConnection):
        return fetch(store, sql)
    con = connect(store)
    try:
        return fetch(con, sql)
    finally:
        con.close()


# --- the command line --------------------------------------------------------------------

FORMATS = ("table", "csv", "parquet")
SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


def add_query_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``mechbal query SQL [--store DIR] [--format F] [--out FILE]``."""
    p = subparsers.add_parser(
        "query", help="SQL over DuckDB views of the store (a view per experiment, and runs)"
    )
    p.add_argument("sql", help='SQL, e.g. "SELECT run, count(*) FROM duel GROUP BY run"')
    p.add_argument("--store", default="data", metavar="DIR", help="the store (default data)")
    p.add_argument(
        "--format", choices=FORMATS, default="table",
        help="table (default; with --out, taken from its suffix), csv or parquet",
    )  # fmt: skip
    p.add_argument(
        "--out", metavar="FILE", help="write the result to FILE (csv or parquet), not the screen"
    )
    p.set_defaults(func=cmd_query)
    return p


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


def cmd_query(args: argparse.Namespace) -> int:
    """``mechbal query``: print the result, or write it to ``--out``; QueryError on failure."""
    out = Path(args.out) if args.out else None
    fmt = _output_format(args.format, out)
    df = query(args.sql, args.store)  # fails before anything is written
    if out is not None:
        _write_atomic(df, out, fmt)
        print(f"wrote {df.height} rows to {out}")
    elif fmt == "csv":
        try:
            sys.stdout.write(df.write_csv())
        except pl.exceptions.PolarsError as exc:
            raise QueryError(_one_line(exc)) from None
    else:
        with pl.Config(tbl_rows=50, tbl_cols=30, fmt_str_lengths=80, tbl_width_chars=250):
            print(df)
    return 0
