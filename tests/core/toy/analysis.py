"""Coin Duel's analysis plugin (what ``analysis/<game>/`` holds for a real game): its
default run and its report page, with a win-rate flag."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from analysis import queries
from analysis.charts import caption, win_rate_heatmap
from analysis.flags import Flag, outside
from analysis.plugin import Analysis, Page, ReportContext
from analysis.query import connect
from sims.core.runner import simulate


def default_runs(ctx: ReportContext) -> dict[str, Any]:
    return {
        "bout": simulate(
            "toy",
            "bout",
            n=ctx.n,
            seed=ctx.seed,
            catalog_root=ctx.catalog_root,
            store_root=ctx.store,
            jobs=ctx.jobs,
            sets=ctx.sets,
        )
    }


def page(ctx: ReportContext, runs: Mapping[str, Any]) -> Page:
    run = runs["bout"].plan.run_id
    con = connect(ctx.store, catalog=ctx.catalog_root, runs=[run])
    win = queries.win_rates(con, "bout", ("side_a", "side_b"))
    win = win.filter(pl.col("run") == run)
    flags = []
    limit = ctx.limits.get("win_rate")
    for row in win.filter(pl.col("side_a") != pl.col("side_b")).iter_rows(named=True):
        if limit and outside(row["score_a"], limit):
            flags.append(
                Flag(
                    row["side_a"],
                    "win_rate",
                    row["score_a"],
                    f"{row['side_a']} scores {row['score_a']:.0%} against {row['side_b']}.",
                    f"simulated, run {run}",
                )
            )
    text = caption(source="simulated", n=runs["bout"].rows, seed=ctx.seed, run=run)
    return Page([("Who wins?", win_rate_heatmap(win, text))], flags)


ANALYSIS = Analysis("toy", default_runs, page, limits=("win_rate",))
