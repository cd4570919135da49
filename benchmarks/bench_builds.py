"""Every legal mech at scale: enumerate a Skirmish part list (default the projected full
catalog, 003 K) and write its builds to Parquet. One run, figures as printed:

- combinations, legal builds per class (``count_legal``: weights only) and its time;
- ``enumerate_builds`` over every chassis at once: time, builds per second, and the
  peak of NumPy memory during the call (tracemalloc) beside the process's peak
  resident memory so far (getrusage maxrss);
- the Parquet rows (``build_rows``) written one file per chassis, zstd like the store,
  into a temporary folder: the legal builds only, then all builds with the legal flag
  (what the ``builds`` experiment writes): time, rows and size on disk.

    .venv/bin/python benchmarks/bench_builds.py [--parts full|playable] [--keep DIR]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pyarrow.parquet as pq

from sims.skirmish import builds
from sims.skirmish.catalog import CLASSES, load_catalog

ROOT = Path(__file__).resolve().parents[1]


def maxrss_mb() -> float:
    """Peak resident memory of this process so far (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**20 if sys.platform == "darwin" else 2**10)


def write(b: builds.Builds, parts: dict, folder: Path, legal_only: bool) -> tuple[int, float]:
    """One Parquet file per chassis (as the experiment's chunks); (rows, seconds)."""
    folder.mkdir(parents=True)
    rows, start = 0, time.perf_counter()
    for c, cid in enumerate(b.ids["chassis"]):
        table = builds.build_rows(b.select(b.chassis == c), parts, legal_only=legal_only)
        pq.write_table(table, folder / f"chassis={cid}.parquet", compression="zstd")
        rows += table.num_rows
    return rows, time.perf_counter() - start


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*.parquet")) / 2**20


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", choices=builds.WHICH, default="full")
    ap.add_argument("--keep", type=Path, help="write the Parquet here (default: a temp folder)")
    args = ap.parse_args()
    params = load_catalog(ROOT / "catalogs").params
    parts = builds.load_parts(ROOT / "catalogs", args.parts)
    ids = builds.slot_ids(parts)
    print(f"part list {args.parts}: " + ", ".join(f"{len(v)} {k}" for k, v in ids.items()))

    start = time.perf_counter()
    counts = builds.count_legal(parts, params)
    t_count = time.perf_counter() - start
    total = counts["all"]
    print(
        f"combinations {total['builds']:,}; legal {total['legal']:,} "
        f"({total['overloaded']:,} of them overloaded); "
        f"count_legal {t_count * 1e3:.0f} ms"
    )
    for klass in CLASSES:
        k = counts[klass]
        print(
            f"  {klass:<6} builds {k['builds']:>10,}  legal {k['legal']:>10,}  "
            f"overloaded {k['overloaded']:>10,}"
        )

    tracemalloc.start()
    start = time.perf_counter()
    b = builds.enumerate_builds(parts, params)
    t_enum = time.perf_counter() - start
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    held = sum(getattr(b, f).nbytes for f in builds.Builds.array_fields())
    print(
        f"enumerate_builds: {len(b):,} builds in {t_enum:.2f} s = "
        f"{len(b) / t_enum / 1e6:.1f} M builds/s"
    )
    print(
        f"  arrays held {held / 2**20:.0f} MiB ({held / len(b):.0f} bytes/build); "
        f"peak NumPy memory during the call {traced_peak / 2**20:.0f} MiB; "
        f"process maxrss so far {maxrss_mb():.0f} MiB"
    )

    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        for name, legal_only in (("legal", True), ("all", False)):
            folder = out / f"builds_{args.parts}_{name}"
            rows, seconds = write(b, parts, folder, legal_only)
            print(
                f"parquet ({name} builds): {rows:,} rows in {seconds:.2f} s "
                f"({rows / seconds / 1e6:.1f} M rows/s), {size_mb(folder):.1f} MiB on disk "
                f"({len(ids['chassis'])} files, zstd) in {folder}"
            )
    print(f"process maxrss at the end {maxrss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
