"""``mechbal query`` and ``mechbal runs``: the command line over :mod:`analysis.query`."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from analysis.query import QueryError, connect, fetch, read_only
from analysis.query_store import _one_line

__all__ = ["add_query_parser", "cmd_query", "add_runs_parser", "cmd_runs"]

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
