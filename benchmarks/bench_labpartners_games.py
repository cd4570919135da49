"""Lab Partners whole games' throughput (Assembly, the Battle's compile, the Battle and
scoring: ``game.play.play_games``), measured in one run (this machine is noisy, so the
figures that matter are the ratios):

- whole games per second with 4 players (the experiment's default seating, builder and
  seeker cycled), every kaiju mixed, each deck (alpha, full): the reference engine
  (scalar Assembly, a per-game compile, the reference Battle engine) and the vector
  engine (vector Assembly, ``game.vector.battles.compile_games``, ``vector.play_stacked``) in
  calls of ``--batch`` games, their ratio, and the time one million whole games would
  take on this machine's 2 cores at the measured one-core rate (the issue asks for under
  a minute);
- the vector path's stages (Assembly, the Battle compile, the Battle) per second;
- Assembly alone: the scalar and the vector engine, and the vector engine at the batch
  sizes the experiment's chunks give a call (one call per cell).

    .venv/bin/python benchmarks/bench_labpartners_games.py [--n 40000] [--ref 400]
        [--batch 10000]
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

import numpy as np

from sims.labpartners import vector
from sims.labpartners.catalog import load_catalog
from sims.labpartners.game import play
from sims.labpartners.game.locked_mech import dealt
from sims.labpartners.game.random_setup import shuffle
from sims.labpartners.game.reference import assembly as reference_assembly
from sims.labpartners.game.vector import assembly as vector_assembly
from sims.labpartners.game.vector import battles as vector_battles

ROOT = Path(__file__).resolve().parents[1]
SEATS = ["builder", "seeker", "builder", "seeker"]
DECKS = ("alpha", "full")
CORES = 2


def batches(catalog, n: int, batch: int, seed: int):
    """``n`` games in calls of ``batch``: (shuffle, kaiju) per call, every kaiju mixed."""
    rng = np.random.default_rng(seed)
    ks = list(catalog.kaiju)
    out, left = [], n
    while left > 0:
        g = min(batch, left)
        out.append((shuffle(catalog, g, rng), [ks[i] for i in rng.integers(len(ks), size=g)]))
        left -= g
    return out


def total(fn, calls, *rest, **kw) -> float:
    """Seconds of ``fn(shuffle, kaiju, *rest, **kw)`` over the calls."""
    seconds = 0.0
    for sh, k in calls:
        start = time.perf_counter()
        fn(sh, k, *rest, **kw)
        seconds += time.perf_counter() - start
    return seconds


def whole_games(catalog, args) -> None:
    ref = batches(catalog, args.ref, args.ref, 1)
    vec = batches(catalog, args.n, args.batch, 2)
    rates = {}
    print(
        f"whole games (Assembly, compile, Battle, scoring), {len(SEATS)} players "
        f"({','.join(SEATS)}), every kaiju mixed, standalone, steady; reference "
        f"N = {args.ref:,} a deck, vector N = {args.n:,} a deck in calls of "
        f"{args.batch:,}"
    )
    for deck in DECKS:
        d = catalog.deck(deck)
        whole = partial(play.play_games, catalog, d)
        t_ref = total(whole, ref, SEATS, engine="reference", battle_rng=np.random.default_rng(3))
        t_vec = total(whole, vec, SEATS, engine="vector", battle_rng=np.random.default_rng(3))
        rates[deck] = (args.ref / t_ref, args.n / t_vec)
        print(
            f"{deck:5}  reference {rates[deck][0]:10,.0f} games/s   vector "
            f"{rates[deck][1]:10,.0f} games/s   vector / reference "
            f"{rates[deck][1] / rates[deck][0]:6.1f}x"
        )
    # both decks' time per game, as the experiment plays every game with every deck
    per_game = {e: sum(1 / rates[d][e] for d in DECKS) / len(DECKS) for e in (0, 1)}
    ref_rate, vec_rate = 1 / per_game[0], 1 / per_game[1]
    print(
        f"both decks    reference {ref_rate:10,.0f} games/s   vector {vec_rate:10,.0f} "
        f"games/s   vector / reference {vec_rate / ref_rate:6.1f}x"
    )
    million = 1e6 / (vec_rate * CORES)
    print(
        f"1,000,000 whole games on {CORES} cores (one-core rate x {CORES}): vector "
        f"{million:6.1f} s (reference {1e6 / (ref_rate * CORES) / 3600:5.1f} h); every "
        f"game with both decks (the experiment's rows x 2): {2 * million:6.1f} s"
    )


def stages(catalog, args) -> None:
    vec = batches(catalog, args.n, args.batch, 4)
    print(f"\nthe vector path by stage, N = {args.n:,} a deck in calls of {args.batch:,}:")
    for deck in DECKS:
        d = catalog.deck(deck)
        t = {"assembly": 0.0, "compile": 0.0, "battle": 0.0}
        for sh, k in vec:
            start = time.perf_counter()
            locked = vector_assembly.play(catalog, d, sh, k, SEATS)
            t["assembly"] += time.perf_counter() - start
            start = time.perf_counter()
            comp = vector_battles.compile_games(
                catalog, dealt(catalog, locked, sh), np.asarray(k, object), locked.battle_policy
            )
            t["compile"] += time.perf_counter() - start
            start = time.perf_counter()
            vector.play_stacked(
                comp.stacked, catalog.params, catalog.grades, np.random.default_rng(5)
            )
            t["battle"] += time.perf_counter() - start
        print(f"{deck:5}  " + "   ".join(f"{name} {args.n / s:10,.0f}/s" for name, s in t.items()))


def assembly(catalog, args) -> None:
    ref = batches(catalog, args.ref, args.ref, 6)
    vec = batches(catalog, args.n, args.batch, 7)
    print(f"\nAssembly alone, {len(SEATS)} players, every kaiju mixed, standalone:")
    for deck in DECKS:
        d = catalog.deck(deck)
        t_ref = total(partial(reference_assembly.play, catalog, d), ref, SEATS)
        t_vec = total(partial(vector_assembly.play, catalog, d), vec, SEATS)
        print(
            f"{deck:5}  scalar {args.ref / t_ref:10,.0f} games/s   vector "
            f"{args.n / t_vec:10,.0f} games/s   vector / scalar "
            f"{(args.n / t_vec) / (args.ref / t_ref):6.1f}x"
        )
    # the experiment's 10,000-game chunks call once per cell (kaiju x players): 500 games
    # a call with the default 20 cells, 2,000 with one player count
    for size in (500, 2_000, 10_000, 50_000):
        calls = batches(catalog, max(size, 20_000), size, 8)
        n = sum(sh.games for sh, _ in calls)
        t = {
            deck: total(partial(vector_assembly.play, catalog, catalog.deck(deck)), calls, SEATS)
            for deck in DECKS
        }
        print(
            f"vector Assembly in calls of {size:6,} games: "
            + "   ".join(f"{deck} {n / t[deck]:10,.0f} games/s" for deck in DECKS)
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40_000, help="vector games per deck")
    ap.add_argument("--ref", type=int, default=400, help="reference games per deck")
    ap.add_argument("--batch", type=int, default=10_000, help="vector games per call")
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    whole_games(catalog, args)
    stages(catalog, args)
    assembly(catalog, args)


if __name__ == "__main__":
    main()
