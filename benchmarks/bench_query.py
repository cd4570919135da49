"""One run per view at scale: a store holding several runs of one experiment, and the
time of the same GROUP BY over the one-run view (``duel``), over ``duel_all`` filtered to
that run, and over every run (``duel_all``), with the time ``connect`` takes. The rows
are synthetic duel rows (the query cost does not depend on how they were played):

    .venv/bin/python benchmarks/bench_query.py --runs 4 --rows 2000000

Figures are ratios against the all-runs query in the same process (machines are noisy);
the one-run view should cost about 1/runs of it, as DuckDB prunes the other runs' files
by their hive folder.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from analysis.query import connect, query

SQL = (
    "SELECT side_a, side_b, count(*) AS n, avg(rounds) AS rounds, "
    "count(*) FILTER (WHERE winner = 'a') AS wins FROM {view} {where} GROUP BY ALL"
)
KITS = np.array(["courier", "foreman", "reaver", "bastion", "harrier", "lancer", "skiff", "walker"])


def write_store(root: Path, runs: int, rows: int, chunk: int = 200_000) -> list[str]:
    rng = np.random.default_rng(3)
    ids = []
    for r in range(runs):
        run_id = f"{r:016x}"
        folder = root / "skirmish" / "duel" / f"run={run_id}"
        folder.mkdir(parents=True)
        for k in range(0, rows, chunk):
            n = min(chunk, rows - k)
            pl.DataFrame(
                {
                    "cell": np.zeros(n, np.int32),
                    "side_a": KITS[rng.integers(0, 8, n)],
                    "side_b": KITS[rng.integers(0, 8, n)],
                    "winner": rng.integers(0, 3, n, np.int8),
                    "rounds": rng.integers(1, 8, n, np.int8),
                    "seed": np.full(n, r, np.int64),
                }
            ).write_parquet(folder / f"part-{k // chunk:05d}.parquet")
        manifest = {
            "run_id": run_id,
            "game": "skirmish",
            "experiment": "duel",
            "seed": r,
            "n": rows,
            "complete": True,
            "rows": rows,
            "catalog_hash": "synthetic",
            "finished": f"2026-01-01T00:00:{r:02d}+00:00",
            "set": {},
            "sweep": {},
        }
        (folder / "manifest.json").write_text(json.dumps(manifest))
        ids.append(run_id)
    return ids


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--rows", type=int, default=2_000_000, help="rows per run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp)
        ids = write_store(store, args.runs, args.rows)
        t_connect = timed(lambda: connect(store, catalog=None).close())
        con = connect(store, catalog=None)  # shows the latest run, ids[-1]
        one = timed(lambda: query(SQL.format(view="duel", where=""), con))
        filtered = timed(
            lambda: query(SQL.format(view="duel_all", where=f"WHERE run = '{ids[-1]}'"), con)
        )
        every = timed(lambda: query(SQL.format(view="duel_all", where=""), con))
        assert query("SELECT count(*) FROM duel", con).item() == args.rows
        print(f"{args.runs} runs x {args.rows:,} rows; connect {t_connect:.3f} s")
        print(f"every run (duel_all)        {every:.3f} s  1.00x")
        print(f"one-run view (duel)         {one:.3f} s  {one / every:.2f}x")
        print(f"duel_all WHERE run = id     {filtered:.3f} s  {filtered / every:.2f}x")


if __name__ == "__main__":
    main()
