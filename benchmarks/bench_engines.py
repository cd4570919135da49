"""Skirmish engines' throughput, measured in one run (this machine is noisy, so the
figures that matter are the ratios):

- duels per second of the reference engine and of the vectorized engine, one matchup
  per call (one core each: NumPy's element-wise work here is single-threaded);
- the vectorized engine's time against drawing the same random numbers alone, in the
  same block sizes (the random-number floor);
- a round robin in one call: every ordered pair of the legal kit teams (mirrors
  included, gunline against gunline), ``--per`` battles each, all in one ``vector.play``
  call with a scenario id per battle, against one call of the same total N of a single
  team matchup, and against one call per matchup (a sample of ``--sample`` matchups);
- compiling the round robin's matchups: the first time (weapon ranks computed) and
  again (ranks cached).

Every battle here plays the range track: the catalog's default ``board`` is now the
standard map, so the battles are compiled with ``board = "track"`` pinned
(``dataclasses.replace(catalog.params, board="track")``) and these figures keep meaning
what they meant before the board; ``bench_board.py`` measures the engines on the maps.

    .venv/bin/python benchmarks/bench_engines.py [--n 200000] [--ref 2000] [--per 20]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from itertools import product
from pathlib import Path

import numpy as np

from sims.skirmish import reference, vector
from sims.skirmish.battle import Side, _weapon_rank, compile_battle
from sims.skirmish.board import TRACK
from sims.skirmish.catalog import load_catalog
from sims.skirmish.teams import legal_kit_teams

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = [
    (Side(("foreman",), "gunline"), Side(("reaver",), "brawler")),
    (Side(("courier",), "careful"), Side(("bastion",), "gunline")),
    (Side(("harrier",), "brawler"), Side(("warden",), "careful")),
    (Side(("skiff",), "gunline"), Side(("lancer",), "careful")),
]
SINGLE_TEAM = (
    Side(("courier", "foreman", "reaver"), "gunline"),
    Side(("bastion", "lancer", "skiff"), "gunline"),
)


def duels(catalog, args) -> None:
    track = dataclasses.replace(catalog.params, board=TRACK)
    t_ref = t_vec = t_floor = 0.0
    drawn = 0
    for side_a, side_b in MATCHUPS:
        battle = compile_battle(catalog, side_a, side_b, track)
        rng = np.random.default_rng(1)
        start = time.perf_counter()
        reference.play([battle], np.zeros(args.ref, np.int64), rng)
        t_ref += time.perf_counter() - start

        engine = vector.Engine([battle], np.zeros(args.n, np.int64), np.random.default_rng(2))
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


def round_robin(catalog, args) -> None:
    track = dataclasses.replace(catalog.params, board=TRACK)
    teams = [Side(tuple(t.split("+")), "gunline") for t in legal_kit_teams(catalog)]
    pairs = list(product(teams, teams))
    _weapon_rank.cache_clear()
    start = time.perf_counter()
    battles = [compile_battle(catalog, a, b, track) for a, b in pairs]
    t_cold = time.perf_counter() - start
    start = time.perf_counter()
    battles = [compile_battle(catalog, a, b, track) for a, b in pairs]
    t_warm = time.perf_counter() - start
    S, n = len(battles), len(battles) * args.per
    scenario = np.random.default_rng(4).permutation(np.repeat(np.arange(S), args.per))

    start = time.perf_counter()
    vector.play(battles, scenario, np.random.default_rng(5))
    t_mixed = time.perf_counter() - start
    single = compile_battle(catalog, *SINGLE_TEAM, track)
    start = time.perf_counter()
    vector.play([single], np.zeros(n, np.int64), np.random.default_rng(5))
    t_single = time.perf_counter() - start
    sample = np.random.default_rng(6).choice(S, min(args.sample, S), replace=False)
    start = time.perf_counter()
    for i in sample:
        vector.play([battles[i]], np.zeros(args.per, np.int64), np.random.default_rng(int(i)))
    t_calls = time.perf_counter() - start

    mixed, one = n / t_mixed, n / t_single
    calls = len(sample) * args.per / t_calls
    print(
        f"\nround robin: {len(teams)} legal kit teams, {S} ordered matchups (gunline), "
        f"{args.per} battles each, N = {n:,}"
    )
    print(
        f"compile {S} matchups: first {1e3 * t_cold / S:.2f} ms each, "
        f"again {1e3 * t_warm / S:.2f} ms each (weapon ranks cached)"
    )
    print(f"one mixed call, {S} matchups     {mixed:12,.0f} battles/s")
    print(f"one call, one team matchup         {one:12,.0f} battles/s")
    print(f"one call per matchup ({len(sample)} sampled) {calls:12,.0f} battles/s")
    print(f"mixed call / single-matchup call:     {mixed / one:6.2f}x")
    print(f"mixed call / one call per matchup:    {mixed / calls:6.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000, help="vectorized duels per matchup")
    ap.add_argument("--ref", type=int, default=2_000, help="reference duels per matchup")
    ap.add_argument("--per", type=int, default=20, help="round robin: battles per matchup")
    ap.add_argument(
        "--sample", type=int, default=100, help="round robin: matchups timed one call each"
    )
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    duels(catalog, args)
    round_robin(catalog, args)


if __name__ == "__main__":
    main()
