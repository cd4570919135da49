"""Skirmish engines' throughput, measured in one run (this machine is noisy, so the
figures that matter are the ratios):

- duels per second of the reference engine and of the vectorized engine (one core each:
  NumPy's element-wise work here is single-threaded);
- the vectorized engine's time against drawing the same random numbers alone, in the
  same block sizes (the random-number floor).

    .venv/bin/python benchmarks/bench_engines.py [--n 200000] [--ref 2000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from sims.skirmish import reference, vector
from sims.skirmish.battle import Side, compile_battle
from sims.skirmish.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = [
    (Side(("foreman",), "gunline"), Side(("reaver",), "brawler")),
    (Side(("courier",), "careful"), Side(("bastion",), "gunline")),
    (Side(("harrier",), "brawler"), Side(("warden",), "careful")),
    (Side(("skiff",), "gunline"), Side(("lancer",), "careful")),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000, help="vectorized duels per matchup")
    ap.add_argument("--ref", type=int, default=2_000, help="reference duels per matchup")
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    t_ref = t_vec = t_floor = 0.0
    drawn = 0
    for side_a, side_b in MATCHUPS:
        battle = compile_battle(catalog, side_a, side_b)
        rng = np.random.default_rng(1)
        start = time.perf_counter()
        reference.play_many(battle, args.ref, rng)
        t_ref += time.perf_counter() - start

        engine = vector.Engine(battle, args.n, np.random.default_rng(2))
        start = time.perf_counter()
        engine.play()
        t_vec += time.perf_counter() - start

        floor_rng = np.random.default_rng(3)
        start = time.perf_counter()
        for size in engine.dice.blocks:
            floor_rng.integers(1, 7, size=size, dtype=np.int16)
        t_floor += time.perf_counter() - start
        drawn += engine.dice.drawn
    k = len(MATCHUPS)
    ref_rate = k * args.ref / t_ref
    vec_rate = k * args.n / t_vec
    print(f"matchups: {k} duels; reference {args.ref} each, vectorized {args.n} each")
    print(f"reference engine   {ref_rate:12,.0f} duels/s")
    print(f"vectorized engine  {vec_rate:12,.0f} duels/s")
    print(f"random numbers drawn by the vectorized engine: {drawn / (k * args.n):.1f} per duel")
    print(f"vectorized / reference speed:             {vec_rate / ref_rate:6.1f}x  (target >= 50x)")
    print(f"vectorized time / random-number floor:    {t_vec / t_floor:6.1f}x  (target <= 5x)")


if __name__ == "__main__":
    main()
