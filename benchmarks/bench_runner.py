"""Runs into the store at scale: wall time and peak memory of ``mechbal simulate``, and
the time of a GROUP BY over the rows with DuckDB. One run, figures as printed:

    .venv/bin/python benchmarks/bench_runner.py --n 1000000 --jobs 2
    .venv/bin/python benchmarks/bench_runner.py --n 10000000 --jobs 2   # memory bound

Peak memory is the largest sum of resident memory over the command's whole process
tree (the parent and its workers), sampled every 50 ms.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--store", help="store folder (default: a temporary one)")
    args = ap.parse_args()
    store = Path(args.store or tempfile.mkdtemp(prefix="mechbal-bench-"))
    cmd = [
        sys.executable,
        "-m",
        "analysis",
        "simulate",
        "skirmish",
        "duel",
        "--n",
        str(args.n),
        "--jobs",
        str(args.jobs),
        "--out",
        str(store),
    ]
    start = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    proc, peak = psutil.Process(child.pid), 0
    while child.poll() is None:
        peak = max(peak, tree_rss(proc))
        time.sleep(0.05)
    wall = time.perf_counter() - start
    out = child.stdout.read() if child.stdout else ""
    if child.returncode:
        raise SystemExit(f"simulate failed ({child.returncode}): {out}")
    size = sum(p.stat().st_size for p in store.rglob("*.parquet"))
    print(out.strip())
    print(f"duels: {args.n:,}  jobs: {args.jobs}")
    print(f"wall time: {wall:.1f} s  ({args.n / wall:,.0f} duels/s)")
    print(f"peak memory (process tree): {peak / 2**20:,.0f} MiB")
    print(f"store size: {size / 2**20:,.1f} MiB ({size / args.n:.1f} bytes per duel)")
    try:
        from analysis.query import connect
    except ImportError:
        return
    con = connect(store)
    sql = (
        "SELECT side_a, side_b, count(*) AS n, avg(CASE winner WHEN 0 THEN 1.0 "
        "WHEN 2 THEN 0.5 ELSE 0 END) AS score_a, avg(rounds) AS rounds "
        "FROM duel GROUP BY side_a, side_b"
    )
    start = time.perf_counter()
    rows = con.execute(sql).fetchall()
    print(
        f"GROUP BY over {args.n:,} rows: {time.perf_counter() - start:.3f} s ({len(rows)} groups)"
    )


if __name__ == "__main__":
    main()
