"""Coin Duel's analysis plugin (what ``analysis/<game>/`` holds for a real game): its
default run and its report page, with a win-rate flag (the one flag rule)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from analysis import queries, round_robin
from analysis.charts import caption, win_rate_heatmap
from analysis.flags import Standing, standing_flags
from analysis.plugin import Analysis, Page, ReportContext
from analysis.query import connect
from analysis.round_robin import RoundRobin
from analysis.verdicts import Outcome, Verdict, standing_verdicts
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
    standings = round_robin.standings(con, "bout", RoundRobin("side"))
    limit = ctx.limits.get("win_rate")

    def words(s: Standing, side: str, bound: float) -> tuple[str, str]:
        return f"{s.subject} scores {s.score:.0%}, {side} {bound:.0%}.", f"simulated, run {run}"

    flags = standing_flags(standings, "side", "battles", limit, words) if limit else []
    text = caption(source="simulated", n=runs["bout"].rows, seed=ctx.seed, run=run)
    return Page([("Who wins?", win_rate_heatmap(win, text))], flags)


# ---- verdicts (analysis.verdicts): one planted to flip, one to hold ------------------------

KNAVE_FLOOR = 0.40  # "knave is no pushover": it scores above this whatever the reading


def standings_of(rows: Any, seat: str | None) -> pl.DataFrame:
    table = round_robin.standings(rows.con, rows.view, RoundRobin("side"), only=seat)
    return table.rename({"side": "subject"})


def knave_holds_up(rows: Any, seat: str | None) -> Outcome:
    row = standings_of(rows, seat).filter(pl.col("subject") == "knave").row(0, named=True)
    label = "above 40%" if row["score"] > KNAVE_FLOOR else "at or below 40%"
    return Outcome(label, row["score"], row["low"], row["high"], f"knave scores {row['score']:.1%}")


def verdicts(catalog: Any, limits: Mapping[str, Any]) -> list[Verdict]:
    out = standing_verdicts(
        "fighter",
        "bout",
        standings_of,
        limit=limits.get("win_rate"),
        subjects=sorted(catalog.fighters),
    )
    out.append(Verdict("other:knave", "other", "knave is no pushover", "bout", knave_holds_up))
    return out


def rests_on(catalog: Any) -> list[tuple[str, str]]:
    return [("format", "one fighter a side, every ordered pair, mirrors included")]


ANALYSIS = Analysis(
    "toy", default_runs, page, limits=("win_rate",), verdicts=verdicts, rests_on=rests_on
)
