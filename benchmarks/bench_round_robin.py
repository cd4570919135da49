"""A round robin against one matchup, the same N and jobs, in one run: battles per second
of the ``ratings`` experiment (every ordered pair of legal kit teams, 1,296 matchups at
the Team Cap) against ``teamfight`` (the rulebook's three teams, 9 matchups). Both play
3v3 battles through the same runner and store; the ratio says what a matchup costs
beyond its battles (1.0: nothing). Before the engines took many matchups per call it
was 0.04x (25,920 battles: 63.4 s against 2.5 s).

    .venv/bin/python benchmarks/bench_round_robin.py --n 25920 --jobs 2 [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from sims.core.runner import simulate

ROOT = Path(__file__).resolve().parents[1]


def timed(experiment: str, n: int, jobs: int, seed: int) -> tuple[float, int, int, int]:
    """Seconds, rows, cells and chunks of one fresh run (a new store each time)."""
    with tempfile.TemporaryDirectory() as store:
        start = time.perf_counter()
        out = simulate(
            "skirmish",
            experiment,
            n=n,
            seed=seed,
            catalog_root=ROOT / "catalogs",
            store_root=store,
            jobs=jobs,
        )
        seconds = time.perf_counter() - start
    return seconds, out.rows, len(out.plan.cells), len(out.plan.chunks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=25_920, help="battles per run")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, alternating")
    args = ap.parse_args()
    rates: dict[str, list[float]] = {"ratings": [], "teamfight": []}
    shape = {}
    for r in range(args.repeat):
        for experiment in ("teamfight", "ratings"):
            seconds, rows, cells, chunks = timed(experiment, args.n, args.jobs, seed=100 + r)
            rates[experiment].append(rows / seconds)
            shape[experiment] = (rows, cells, chunks)
            print(
                f"{experiment:9s} run {r + 1}: {rows:,} battles, {cells:,} matchups, "
                f"{chunks} chunks in {seconds:.1f} s ({rows / seconds:,.0f} battles/s)"
            )
    ratios = [a / b for a, b in zip(rates["ratings"], rates["teamfight"], strict=True)]
    print(
        f"\nratings / teamfight battles per second, per pair of runs: "
        f"{', '.join(f'{x:.2f}x' for x in ratios)}; median {statistics.median(ratios):.2f}x "
        f"(target >= 0.5x; 0.04x before)"
    )


if __name__ == "__main__":
    main()
