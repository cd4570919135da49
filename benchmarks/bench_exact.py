"""How long the exact engine takes per table family, and against icepool on the same
dice maths (ratios in one run; this machine is noisy). Run:

    .venv/bin/python benchmarks/bench_exact.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from sims.core.dist import Dist
from sims.skirmish import exact, rules
from sims.skirmish.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        rules.clear_caches()  # time cold runs, not cache hits
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def ours_dice() -> None:
    for k in range(1, 6):
        Dist.die(6).highest(k)
    for n in range(1, 11):
        Dist.die(6).repeat(n)
    Dist.parse("2d6+1d8+3")


def icepool_dice() -> None:
    import icepool

    for k in range(1, 6):
        icepool.d6.highest(k, 1).probabilities()
    for n in range(1, 11):
        (n @ icepool.d6).probabilities()
    (2 @ icepool.d6 + icepool.d8 + 3).probabilities()


def main() -> None:
    catalog = load_catalog(ROOT / "catalogs")
    rows = [
        ("hit table (1155 cells)", best_of(exact.hit_table, 3)),
        ("penetration table (840 rows)", best_of(lambda: exact.penetration_table(catalog.params))),
        ("bands table", best_of(lambda: exact.bands_table(catalog), 3)),
        ("weapon_vs_kit table", best_of(lambda: exact.weapon_vs_kit_table(catalog), 3)),
        ("all Skirmish tables", best_of(lambda: exact.tables(catalog), 3)),
    ]
    ours = best_of(ours_dice, 10)
    try:
        theirs = best_of(icepool_dice, 10)
    except ImportError:
        theirs = float("nan")
    print(f"{'what':34} {'seconds':>9}")
    for name, secs in rows:
        print(f"{name:34} {secs:9.4f}")
    print(f"{'dice family, mechbal Dist':34} {ours:9.4f}")
    print(f"{'dice family, icepool':34} {theirs:9.4f}")
    print(f"ratio mechbal / icepool on the same dice family: {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
