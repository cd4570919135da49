"""Lab Partners Battle engines' throughput, measured in one run (this machine is noisy,
so the figures that matter are the ratios):

- a round robin of the catalog's mechs against every kaiju (standard battles, the
  steady policy), each engine in ONE mixed call with a scenario id per battle: battles
  per second of the reference engine and of the vectorized engine, and their ratio;
- the vectorized engine's time against drawing the same random numbers alone, in the
  same block sizes (the random-number floor);
- the same round robin under every policy of policies.toml (campaign interventions
  included) in one vectorized call, and one call of a single pairing of the same N;
- the exact battle DP (``exact_battle.outcome``): time per mech-kaiju pairing;
- dealt battles (game/dealt_mechs.py, both decks against every kaiju) compiled per
  second: game by game (``compile_all`` then ``vector.stack``) and as arrays
  (``vector_battles.stacked``, the same numbers), and their ratio.

    .venv/bin/python benchmarks/bench_labpartners.py [--n 200000] [--ref 4000] [--dealt 5000]
"""

from __future__ import annotations

import argparse
import time
from itertools import product
from pathlib import Path

import numpy as np

from sims.core.batch import Dice
from sims.labpartners import reference, vector
from sims.labpartners.battle import catalog_battle
from sims.labpartners.catalog import load_catalog
from sims.labpartners.exact_battle import outcome
from sims.labpartners.game.dealt_mechs import deal
from sims.labpartners.game.reference.battles import compile_all
from sims.labpartners.game.vector import battles as vector_battles

ROOT = Path(__file__).resolve().parents[1]


def round_robin(catalog, args) -> None:
    pairs = list(product(catalog.mechs, catalog.kaiju))
    battles = [catalog_battle(catalog, m, k) for m, k in pairs]
    S = len(battles)
    rng = np.random.default_rng(4)
    ref_ids = rng.permutation(np.repeat(np.arange(S), -(-args.ref // S)))
    vec_ids = rng.permutation(np.repeat(np.arange(S), -(-args.n // S)))

    start = time.perf_counter()
    reference.play(battles, ref_ids, np.random.default_rng(1))
    t_ref = time.perf_counter() - start

    dice = Dice(np.random.default_rng(2))
    start = time.perf_counter()
    vector.play_dice(battles, vec_ids, dice)
    t_vec = time.perf_counter() - start

    floor_rng = np.random.default_rng(3)
    start = time.perf_counter()
    for size in dice.blocks:
        floor_rng.integers(1, 21, size=size, dtype=np.int16)
    t_floor = time.perf_counter() - start

    ref_rate, vec_rate = len(ref_ids) / t_ref, len(vec_ids) / t_vec
    print(
        f"round robin: {len(catalog.mechs)} mechs x {len(catalog.kaiju)} kaiju = {S} "
        f"pairings (steady), one mixed call each; reference N = {len(ref_ids):,}, "
        f"vectorized N = {len(vec_ids):,}"
    )
    print(f"reference engine   {ref_rate:12,.0f} battles/s")
    print(f"vectorized engine  {vec_rate:12,.0f} battles/s")
    print(
        f"random numbers drawn by the vectorized engine: {dice.drawn / len(vec_ids):.2f} "
        f"per battle, in {len(dice.blocks)} blocks"
    )
    print(f"vectorized / reference speed:             {vec_rate / ref_rate:6.1f}x")
    print(f"vectorized time / random-number floor:    {t_vec / t_floor:6.1f}x")

    policies = [
        catalog_battle(catalog, m, k, policy=p) for (m, k), p in product(pairs, catalog.policies)
    ]
    ids = rng.permutation(np.repeat(np.arange(len(policies)), -(-args.n // len(policies))))
    start = time.perf_counter()
    vector.play(policies, ids, np.random.default_rng(5))
    t_all = time.perf_counter() - start
    start = time.perf_counter()
    vector.play(battles[:1], np.zeros(len(ids), np.int64), np.random.default_rng(6))
    t_one = time.perf_counter() - start
    print(
        f"\nevery policy ({len(catalog.policies)}, campaign ones included): "
        f"{len(policies)} pairings, N = {len(ids):,}"
    )
    print(f"one mixed call, {len(policies)} pairings   {len(ids) / t_all:12,.0f} battles/s")
    print(f"one call, one pairing ({battles[0].label})  {len(ids) / t_one:12,.0f} battles/s")


def exact(catalog, args) -> None:
    pairs = list(product(catalog.mechs, catalog.kaiju))
    times = []
    for m, k in pairs:
        battle = catalog_battle(catalog, m, k)
        start = time.perf_counter()
        outcome(battle)
        times.append(time.perf_counter() - start)
    t = np.array(times) * 1e3
    print(
        f"\nexact battle DP, {len(pairs)} pairings (steady): {t.mean():.1f} ms per pairing "
        f"(median {np.median(t):.1f}, slowest {t.max():.1f} ms)"
    )


def dealt_compile(catalog, args) -> None:
    kaiju = [k for _ in range(-(-args.dealt // len(catalog.kaiju))) for k in catalog.kaiju]
    kaiju = kaiju[: args.dealt]
    counts = [catalog.kaiju[k].countdown for k in kaiju]
    rng = np.random.default_rng(7)
    decks = [(deal(catalog, d, counts, rng, 10.0), kaiju) for d in ("alpha", "full")]
    games = sum(d.games for d, _ in decks)
    start = time.perf_counter()
    for d, k in decks:
        vector.stack(compile_all(catalog, d, k, "steady")[0])
    t_game = time.perf_counter() - start
    start = time.perf_counter()
    for d, k in decks:
        vector_battles.stacked(catalog, d, k, "steady")
    t_array = time.perf_counter() - start
    print(f"\ndealt battles compiled (alpha and full, every kaiju, steady), {games:,} games:")
    print(f"game by game (compile_all + stack)  {games / t_game:12,.0f} battles/s")
    print(f"as arrays (vector_battles.stacked)        {games / t_array:12,.0f} battles/s")
    print(f"arrays / game by game:                    {t_game / t_array:6.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000, help="vectorized battles per call")
    ap.add_argument("--ref", type=int, default=4_000, help="reference battles")
    ap.add_argument("--dealt", type=int, default=5_000, help="dealt games per deck to compile")
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    round_robin(catalog, args)
    exact(catalog, args)
    dealt_compile(catalog, args)


if __name__ == "__main__":
    main()
