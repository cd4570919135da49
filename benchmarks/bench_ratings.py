"""The rating run's size and time: the ratings experiment (a round robin of every legal
kit team at the Team Cap) plus the Bradley-Terry fit. One run, figures as printed:

    .venv/bin/python benchmarks/bench_ratings.py --per-cell 60 --jobs 2
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from analysis import ratings
from analysis.query import connect
from analysis.skirmish import queries
from sims.core.runner import simulate
from sims.skirmish.catalog import load_catalog
from sims.skirmish.teams import legal_kit_teams

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-cell", type=int, default=60, help="battles per ordered matchup")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    catalog = load_catalog(ROOT / "catalogs")
    teams = legal_kit_teams(catalog)
    cells = len(teams) ** 2
    store = Path(tempfile.mkdtemp(prefix="mechbal-ratings-"))
    start = time.perf_counter()
    out = simulate(
        "skirmish",
        "ratings",
        n=cells * args.per_cell,
        catalog_root=ROOT / "catalogs",
        store_root=store,
        jobs=args.jobs,
    )
    sim = time.perf_counter() - start
    start = time.perf_counter()
    fit = ratings.bradley_terry(ratings.pairwise(queries.win_rates(connect(store), "ratings")))
    fitted = time.perf_counter() - start
    size = sum(p.stat().st_size for p in store.rglob("*.parquet"))
    cap = catalog.params.team_cap
    print(
        f"teams: {len(teams)} legal kit teams at Team Cap {cap}; {cells} ordered matchups "
        f"x {args.per_cell} battles = {out.rows:,} team battles"
    )
    print(f"simulate: {sim:.1f} s with --jobs {args.jobs} ({out.rows / sim:,.0f} battles/s)")
    print(f"query + Bradley-Terry fit: {fitted:.2f} s; store {size / 2**20:.1f} MiB")
    print(fit.head(5))


if __name__ == "__main__":
    main()
