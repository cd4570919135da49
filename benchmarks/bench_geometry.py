"""How long ``sims/skirmish/geometry.build`` takes for the standard 32 x 20 board (H = 640)
and the large 40 x 24 board (H = 960), and how much memory its tables hold. The boards are
random (seeded: a quarter foliage or obstacles, ground 0-3 / 0-4), denser than a hand-made
map, so the timings are an upper-side estimate. Run:

    .venv/bin/python benchmarks/bench_geometry.py
"""

from __future__ import annotations

import time

import numpy as np

from sims.skirmish import geometry
from sims.skirmish.maps import FOLIAGE, OBSTACLE, OPEN, Map


def random_map(length: int, depth: int, max_elevation: int, seed: int = 0) -> Map:
    rng = np.random.default_rng(seed)
    elevation = rng.integers(0, max_elevation + 1, (depth, length)).astype(np.int8)
    terrain = rng.choice([OPEN] * 6 + [FOLIAGE, OBSTACLE], (depth, length)).astype(np.int8)
    obstacle = np.where(terrain == OBSTACLE, rng.integers(1, 3, (depth, length)), 0)
    return Map(
        f"random_{length}x{depth}",
        "random",
        "assumed",
        length,
        depth,
        elevation,
        terrain,
        obstacle.astype(np.int8),
        (),
        3,
        max_elevation,
    )


def main() -> None:
    print(f"{'board':>8} {'H':>5} {'build s (best of 3)':>20} {'tables MB':>10}")
    for length, depth, top in ((32, 20, 3), (40, 24, 4)):
        m = random_map(length, depth, top)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            geo = geometry.build(m)
            times.append(time.perf_counter() - start)
        mb = sum(v.nbytes for v in vars(geo).values() if isinstance(v, np.ndarray)) / 1e6
        print(f"{length:>3} x {depth:<2} {length * depth:>5} {min(times):>20.2f} {mb:>10.1f}")


if __name__ == "__main__":
    main()
