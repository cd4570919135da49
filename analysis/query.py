"""DuckDB over the Parquet store: ``runs``, a view of one run and a view of every run per
experiment (``mechbal query`` / ``mechbal runs``: :mod:`analysis.query_cli`).

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

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from analysis.query_store import (
    Current,
    QueryError,
    _choose,
    _one_line,
    _pinned,
    _scan,
    ident,
)
from analysis.query_views import (
    BASE_COLUMNS,
    _create_views,
    _lit,
    _qualified,
    _runs_table,
    _view_names,
)

__all__ = [
    "BASE_COLUMNS",
    "MACROS",
    "QueryError",
    "Current",
    "connect",
    "query",
    "fetch",
    "ident",
    "read_only",
    "views",
    "shown",
    "parameters",
]

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
