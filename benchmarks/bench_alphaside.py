"""ALPHASIDE engines' throughput, measured in one run (this machine is noisy and shared,
so the figures that matter are the ratios):

- each sample battle of ``battle.SAMPLES`` (``battle.sample_scenarios``: duels across the
  roles, squads of 3 and of 5) played alone, N times in one call: games per second of the
  reference engine and of the vector engine, and their ratio;
- a duel round-robin chunk: the 64 cells of the ``duel`` experiment (every ordered pair of
  the units of units.toml) in ONE mixed call, a compiled game per cell, as
  ``experiments.duel_rows`` plays a chunk;
- the exact tables (``exact.tables``): seconds per table and in all (the rules' caches
  warm as they go, so the last line is a rebuild).

    .venv/bin/python benchmarks/bench_alphaside.py [--n 20000] [--ref 500] [--repeat 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sims.alphaside import battle, exact, experiments, reference, vector
from sims.alphaside.battle import Battle
from sims.alphaside.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]


def rate(play: Callable, battles: Sequence[Battle], n: int, seed: int, repeat: int) -> float:
    """Games per second of ``play`` over n games spread evenly over ``battles`` (one call
    each time; the best of ``repeat`` calls)."""
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
    for name, game in battle.sample_scenarios(catalog):
        rows.append(
            (
                name,
                rate(reference.play, [game], args.ref, 1, args.repeat),
                rate(vector.play, [game], args.n, 2, args.repeat),
            )
        )
    cells = experiments.duel_cells(catalog, {})
    duels = [battle.duel(catalog, c["unit_a"], c["unit_b"]) for c in cells]
    rows.append(
        (
            f"duel round robin: {len(cells)} cells, one call",
            rate(reference.play, duels, args.ref, 3, args.repeat),
            rate(vector.play, duels, args.n, 4, args.repeat),
        )
    )
    width = max(len(r[0]) for r in rows)
    print(
        f"engines: reference N = {args.ref:,}, vector N = {args.n:,} a line "
        f"(best of {args.repeat}); games per second"
    )
    print(f"{'game':<{width}}  {'reference/s':>12}  {'vector/s':>12}  {'vector/ref':>10}")
    for name, ref, vec in rows:
        print(f"{name:<{width}}  {ref:12,.0f}  {vec:12,.0f}  {vec / ref:9.1f}x")


def exact_tables(catalog) -> None:
    steps = {
        "hits": exact.hits_table,
        "damage": exact.damage_table,
        "defeat": exact.defeat_table,
        "defeat_over_attacks": exact.over_attacks_table,
        "area": exact.area_table,
        "collision": exact.collision_table,
        "weapon_vs_unit": exact.weapon_vs_unit_table,
        "all (exact.tables)": exact.tables,
    }
    print(
        "\nexact tables (seconds, one build each, in this order: the rules' caches, shared "
        "with the engines and between tables, warm as they go):"
    )
    for name, build in steps.items():
        start = time.perf_counter()
        out = build(catalog)
        took = time.perf_counter() - start
        size = sum(f.height for f in out.values()) if isinstance(out, dict) else out.height
        print(f"{name:<22} {took:8.3f} s  {size:8,} rows")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000, help="vector games a line")
    ap.add_argument("--ref", type=int, default=500, help="reference games a line")
    ap.add_argument("--repeat", type=int, default=1, help="calls a line (the best counts)")
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    engines(catalog, args)
    exact_tables(catalog)


if __name__ == "__main__":
    main()
