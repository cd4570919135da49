"""Alluvion Knights engines' throughput, measured in one run (this machine is noisy and
shared, so the figures that matter are the ratios):

- each sample battle of scenarios.toml (``battle.scenario_battle``) played alone, N
  times in one call: battles per second of the reference engine and of the vector
  engine, and their ratio;
- a round-robin chunk: the 64 cells of the ``loadouts`` experiment (every ordered pair
  of the named loadouts) in ONE mixed call, a compiled duel per cell, as
  ``experiments.duel_rows`` plays a chunk;
- the exact tables (``exact.tables``): seconds per table and in all.

    .venv/bin/python benchmarks/bench_alluvion.py [--n 100000] [--ref 2000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sims.alluvion import exact, experiments, reference, vector
from sims.alluvion.battle import Battle, scenario_battle
from sims.alluvion.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]


def rate(play: Callable, battles: Sequence[Battle], n: int, seed: int, repeat: int) -> float:
    """Battles per second of ``play`` over n battles spread evenly over ``battles`` (one
    call each time; the best of ``repeat`` calls)."""
    ids = np.random.default_rng(seed).permutation(
        np.repeat(np.arange(len(battles), dtype=np.int32), -(-n // len(battles)))[:n]
    )
    best = float("inf")
    for k in range(repeat):
        start = time.perf_counter()
        play(battles, ids, np.random.default_rng(seed + k))
        best = min(best, time.perf_counter() - start)
    return n / best


def engines(catalog, args) -> None:
    rows = []
    for sid in catalog.scenarios:
        battle = [scenario_battle(catalog, sid)]
        rows.append(
            (
                sid,
                rate(reference.play, battle, args.ref, 1, args.repeat),
                rate(vector.play, battle, args.n, 2, args.repeat),
            )
        )
    cells = experiments.loadout_cells(catalog, {})
    duels = [experiments.duel_of(catalog, c) for c in cells]
    rows.append(
        (
            f"round robin: {len(cells)} cells, one call",
            rate(reference.play, duels, args.ref, 3, args.repeat),
            rate(vector.play, duels, args.n, 4, args.repeat),
        )
    )
    width = max(len(r[0]) for r in rows)
    print(
        f"engines: reference N = {args.ref:,}, vector N = {args.n:,} a line (best of {args.repeat})"
    )
    print(f"{'battle':<{width}}  {'reference/s':>12}  {'vector/s':>12}  {'vector/ref':>10}")
    for name, ref, vec in rows:
        print(f"{name:<{width}}  {ref:12,.0f}  {vec:12,.0f}  {vec / ref:9.1f}x")


def exact_tables(catalog, args) -> None:
    steps = {
        "attack + margin": lambda: exact.attack_and_margin_tables(catalog),
        "direct_hits": lambda: exact.direct_hits_table(catalog),
        "systems": lambda: exact.systems_table(catalog),
        "round + round_direct_hits": lambda: exact.round_tables(catalog),
        "morale, battery, repairs": lambda: (
            exact.morale_table(catalog),
            exact.battery_table(catalog),
            exact.repairs_table(catalog),
        ),
        "all (exact.tables)": lambda: exact.tables(catalog),
    }
    print("\nexact tables (seconds, one build each):")
    for name, build in steps.items():
        start = time.perf_counter()
        out = build()
        took = time.perf_counter() - start
        frames = out if isinstance(out, tuple) else (out,)
        size = (
            sum(f.height for f in frames)
            if not isinstance(out, dict)
            else sum(f.height for f in out.values())
        )
        print(f"{name:<28} {took:8.3f} s  {size:8,} rows")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000, help="vector battles a line")
    ap.add_argument("--ref", type=int, default=2_000, help="reference battles a line")
    ap.add_argument("--repeat", type=int, default=1, help="calls a line (the best counts)")
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    engines(catalog, args)
    exact_tables(catalog, args)


if __name__ == "__main__":
    main()
