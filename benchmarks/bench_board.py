"""Skirmish engines on the hex board against the range track, measured in one run (this
machine is noisy, so the figures that matter are the ratios of one run):

- battles per second of the vectorized engine on the standard map (the rules parameter
  ``board``'s default, ``broken``), on each other map (open, urban, large_broken) and on
  the range track (``board = track``), ``--n`` battles in one ``vector.play`` call each;
- battles per second of the reference engine on the standard map and on the track,
  ``--ref`` battles in one ``reference.play`` call each;
- for a duel (foreman gunline v reaver brawler) and a 3v3 team matchup
  (courier+foreman+reaver gunline v bastion+lancer+skiff brawler);
- the ratios: board vector / board reference, board vector / track vector (every map),
  and track vector / track reference;
- the one-off Board build per map: ``board.board_of`` after clearing both caches
  (``geometry._BUILT`` and ``board._BOARDS``), i.e. the walking Geometry plus the
  jumpers' step costs (a second Geometry build), the zone costs and deployment hexes; the
  part beyond the walking Geometry is the same call again with only ``board._BOARDS``
  cleared (the walking Geometry still cached). Compiling a battle on a map
  builds its Board, so every Board is built before any engine is timed.

    .venv/bin/python benchmarks/bench_board.py [--n 20000] [--ref 200]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

import numpy as np

from sims.skirmish import board, geometry, reference, vector
from sims.skirmish.battle import Side, compile_battle
from sims.skirmish.board import TRACK
from sims.skirmish.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = {
    "duel": (Side(("foreman",), "gunline"), Side(("reaver",), "brawler")),
    "3v3": (
        Side(("courier", "foreman", "reaver"), "gunline"),
        Side(("bastion", "lancer", "skiff"), "brawler"),
    ),
}


def board_builds(catalog) -> None:
    """The one-off Board of each map, cold (the walking Geometry, the jumpers' step costs
    and the zone costs), and the part beyond the walking Geometry."""
    print(f"{'Board build':<14} {'H':>5} {'total s':>8} {'beyond walk ms':>14}")
    for map_id in by_size(catalog):
        m = catalog.maps[map_id]
        geometry._BUILT.clear()
        board._BOARDS.clear()
        start = time.perf_counter()
        b = board.board_of(m, catalog.terrain)
        total = time.perf_counter() - start
        board._BOARDS.clear()  # the walking Geometry stays cached
        start = time.perf_counter()
        board.board_of(m, catalog.terrain)
        zones = time.perf_counter() - start
        print(f"{map_id:<14} {b.hexes:>5} {total:>8.2f} {1e3 * zones:>14.2f}")


def by_size(catalog) -> list[str]:
    """The map ids, smaller boards first, then by name."""
    return sorted(catalog.maps, key=lambda k: (catalog.maps[k].length * catalog.maps[k].depth, k))


def rate(engine, battle, n: int, seed: int) -> float:
    """Battles per second of one ``engine.play`` call of ``n`` battles of ``battle``."""
    start = time.perf_counter()
    engine.play([battle], np.zeros(n, np.int64), np.random.default_rng(seed))
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000, help="vectorized battles per (map, matchup)")
    ap.add_argument(
        "--ref",
        type=int,
        default=200,
        help=("reference battles per matchup, on the standard map and the track"),
    )
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    standard = catalog.params.board
    maps = [standard] + [k for k in by_size(catalog) if k != standard] + [TRACK]

    board_builds(catalog)
    print(
        f"\nvectorized {args.n:,} battles per row; reference {args.ref:,} on {standard} "
        f"(the standard map) and on the track"
    )
    head = (
        f"{'matchup':<7} {'board':<13} {'vector /s':>10} {'reference /s':>13} "
        f"{'vector / ref':>13} {'vector / track vector':>22}"
    )
    print(head)
    print("-" * len(head))
    for name, (a, b) in MATCHUPS.items():
        vec, ref = {}, {}
        for map_id in maps:
            params = dataclasses.replace(catalog.params, board=map_id)
            battle = compile_battle(catalog, a, b, params)
            vec[map_id] = rate(vector, battle, args.n, 1)
            if map_id in (standard, TRACK):
                ref[map_id] = rate(reference, battle, args.ref, 2)
        for map_id in maps:
            label = f"{map_id} (std)" if map_id == standard else map_id
            r = (
                f"{ref[map_id]:>13,.0f} {vec[map_id] / ref[map_id]:>12.1f}x"
                if map_id in ref
                else f"{'':>13} {'':>13}"
            )
            print(
                f"{name:<7} {label:<13} {vec[map_id]:>10,.0f} {r} "
                f"{vec[map_id] / vec[TRACK]:>21.2f}x"
            )
    print(
        "\nvector / ref: board vector / board reference on the standard map (std), "
        "track vector / track reference on the track"
    )


if __name__ == "__main__":
    main()
