"""Exact counts of fielded teams of builds (``sims/skirmish/team_counts.py``) against the
listing they replace. One run, figures as printed:

- a reduced part list (every chassis, 2 heads, 3 arms, 2 legs, 2 backs of the playable
  parts): the listing brute force (every unordered triple of legal builds checked) and
  the generating-function count, their times and **ratio**, and that they agree;
- the playable and the projected full part lists: the count's time and peak NumPy
  memory (tracemalloc), the legal builds, the teams at the rulebook Team Cap and at 200,
  and how long listing those teams would take at the brute force's measured rate
  (triples per second): the reason the count exists.

    .venv/bin/python benchmarks/bench_team_counts.py
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

from sims.skirmish import builds, team_counts
from sims.skirmish.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
REDUCED = {"chassis": 8, "head": 2, "arm": 3, "legs": 2, "back": 2}


def timed(fn, *args):  # noqa: ANN001, ANN202 - a benchmark helper
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


def main() -> None:
    catalog = load_catalog(ROOT / "catalogs")
    params = catalog.params
    ids = builds.slot_ids(catalog.parts)
    keep = {pid for slot, n in REDUCED.items() for pid in ids[slot][:n]}
    reduced = {k: p for k, p in catalog.parts.items() if k in keep}
    legal = builds.count_legal(reduced, params)["all"]["legal"]
    triples = (legal + 2) * (legal + 1) * legal // 6
    listed, t_brute = timed(team_counts.brute_force, reduced, params, [200])
    polys, t_exact = timed(team_counts.team_polynomials, reduced, params, 200)
    counted = {(200, mix): sum(p["teams"]) for mix, p in polys.items()}
    assert counted == listed, "count and listing disagree"
    rate = triples / t_brute
    print(
        f"reduced list {REDUCED}: {legal} legal builds, {triples:,} unordered triples, "
        f"{sum(listed.values()):,} legal teams at cap 200"
    )
    print(
        f"  brute force {t_brute:.2f} s ({rate:,.0f} triples/s); count {t_exact:.2f} s; "
        f"brute / count = {t_brute / t_exact:.1f}x; they agree"
    )

    for which in ("playable", "full"):
        parts = builds.load_parts(ROOT / "catalogs", which)
        n = builds.count_legal(parts, params)["all"]["legal"]
        tracemalloc.start()
        polys, t = timed(team_counts.team_polynomials, parts, params, 200)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        at_cap = sum(sum(p["teams"][: params.team_cap + 1]) for p in polys.values())
        at_200 = sum(sum(p["teams"]) for p in polys.values())
        all_triples = (n + 2) * (n + 1) * n // 6
        years = all_triples / rate / 3600 / 24 / 365
        print(
            f"{which}: {n:,} legal builds; count {t:.2f} s, peak NumPy memory "
            f"{peak / 2**20:.0f} MiB"
        )
        print(
            f"  teams at cap {params.team_cap}: {at_cap:,}; at 200: {at_200:,} "
            f"(of {all_triples:,} triples: listing them at the brute force's rate would "
            f"take {years:,.1f} years)"
        )


if __name__ == "__main__":
    main()
