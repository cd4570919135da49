"""The Mech Lab Partners report page, ``reports/labpartners.html`` (its analysis plugin's
``default_runs`` and ``page``; the generic report adds the flags first and the claims).

It runs ``battles`` (finished mechs dealt from the alpha deck and the full spread against
every kaiju, ``ctx.n`` battles, policy steady) into the store (resumable), reads it back
through DuckDB (:mod:`analysis.labpartners.queries`) and lays out: a designer's summary
(the hardest kaiju per deck, the full-versus-alpha gap), win rate and GPA per kaiju and
deck, what makes a dealt mech win, the exact draw odds and catalog battles, and crits.
Every number read from simulation carries its 95% interval and names its run; a
sentence whose intervals overlap says the data cannot decide.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import Any

import polars as pl

from analysis import readings
from analysis.charts import caption, run_caption
from analysis.labpartners import charts, queries
from analysis.plugin import Page, ReportContext, Section
from analysis.query import connect
from analysis.report import frame_table
from sims.core.runner import RunOutcome, simulate

GAME = "labpartners"
EXPERIMENT = "battles"
POLICY = "steady"  # the default run's policy (experiments' default)
PCT = "{:.0%}"


def run_default_experiments(ctx: ReportContext) -> dict[str, RunOutcome]:
    """``battles``: ctx.n dealt mechs, alpha and full, against every kaiju (resumable)."""
    run = simulate(GAME, EXPERIMENT, n=ctx.n, seed=ctx.seed, catalog_root=ctx.catalog_root,
                   store_root=ctx.store, sets=ctx.sets, jobs=ctx.jobs, progress=None,
                   announce="report")  # fmt: skip
    return {EXPERIMENT: run}


def build_page(ctx: ReportContext, runs: Mapping[str, RunOutcome]) -> Page:
    """The page's sections over the ``battles`` run and the exact tables."""
    run = runs[EXPERIMENT]
    con = connect(ctx.store, catalog=ctx.catalog_root, sets=ctx.sets, runs=[run.plan.run_id])
    try:
        return Page(sections(ctx, con, run.plan.run_id))
    finally:
        con.close()


def _one(frame: pl.DataFrame, run_id: str) -> pl.DataFrame:
    """One run's rows of one policy (the first, steady when present): charts draw one
    estimate per deck and kaiju."""
    frame = frame.filter(pl.col("run") == run_id)
    if "policy" in frame.columns and frame.height:
        policies = frame["policy"].unique().to_list()
        frame = frame.filter(pl.col("policy") == (POLICY if POLICY in policies else policies[0]))
    return frame


def deck_gaps(win: pl.DataFrame, a: str = "alpha", b: str = "full") -> pl.DataFrame:
    """Per kaiju: deck ``b``'s win rate minus deck ``a``'s in percentage points, with a
    normal 95% interval of the difference of two proportions (independent samples)."""
    wide = win.filter(pl.col("deck") == a).join(win.filter(pl.col("deck") == b), on="kaiju",
                                                 suffix="_b")  # fmt: skip
    rows = []
    for r in wide.iter_rows(named=True):
        rows.append({"kaiju": r["kaiju"], **difference(r["wins"], r["battles"], r["wins_b"],
                                                       r["battles_b"])})  # fmt: skip
    return pl.DataFrame(rows, schema={"kaiju": pl.String, "gap": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64})  # fmt: skip


def difference(wins_a: int, n_a: int, wins_b: int, n_b: int) -> dict[str, float]:
    """p_b - p_a in percentage points with its normal (Wald) 95% interval."""
    p_a, p_b = wins_a / n_a, wins_b / n_b
    se = math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    gap = 100 * (p_b - p_a)
    return {"gap": gap, "low": gap - 100 * readings.Z95 * se,
            "high": gap + 100 * readings.Z95 * se}  # fmt: skip


def hardest_sentence(win: pl.DataFrame, deck: str) -> str:
    """The kaiju the deck's mechs beat least often, with its interval, and whether the
    next hardest can be told from it."""
    rows = (win.filter(pl.col("deck") == deck).sort("win_rate", "kaiju")
            .rename({"win_low": "low", "win_high": "high"}))  # fmt: skip
    if not rows.height:
        return f"No battles from the {deck} deck."
    top = rows.row(0, named=True)
    text = (
        f"With the {deck} deck the hardest kaiju is {top['kaiju']}: win rate "
        f"{readings.interval(top['win_rate'], top['low'], top['high'], PCT)}."
    )
    if rows.height > 1:
        nxt = rows.row(1, named=True)
        text += " " + readings.compare(top, nxt, name="kaiju", value="win_rate", fmt=PCT,
                                       above="is beaten more often than")  # fmt: skip
    return text


def summary(win: pl.DataFrame, totals: pl.DataFrame, gaps: pl.DataFrame, cap: str) -> Any:
    """Section (a): sentences, then the gap per kaiju as a chart when both decks ran."""
    decks = totals["deck"].to_list()
    items = [hardest_sentence(win, d) for d in decks]
    for r in totals.iter_rows(named=True):
        items.append(f"The {r['deck']} deck wins "
                     f"{readings.interval(r['win_rate'], r['win_low'], r['win_high'], PCT)} "
                     f"of its battles over every kaiju ({r['battles']:,} battles).")  # fmt: skip
    chart = None
    if {"alpha", "full"} <= set(decks):
        a = totals.filter(pl.col("deck") == "alpha").row(0, named=True)
        b = totals.filter(pl.col("deck") == "full").row(0, named=True)
        items.append(readings.gap_sentence(
            difference(a["wins"], a["battles"], b["wins"], b["battles"]),
            "The full spread's win rate", "the alpha deck's", unit="percentage points",
            verb="sits"))  # fmt: skip
        gpa = [{"deck": r["deck"], "mean_gpa": r["mean_gpa"],
                "low": r["mean_gpa"] - readings.Z95 * r["sd_gpa"] / math.sqrt(r["battles"]),
                "high": r["mean_gpa"] + readings.Z95 * r["sd_gpa"] / math.sqrt(r["battles"])}
               for r in (a, b)]  # fmt: skip
        items.append(
            readings.compare(
                gpa[1],
                gpa[0],
                name="deck",
                value="mean_gpa",
                fmt="{:.2f}",
                above="earns a higher mean GPA than",
            )
        )
        chart = charts.deck_gap_chart(gaps, cap + " Normal 95% interval of each difference.")
    text = "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in items) + "</ul>"
    return [text, chart] if chart is not None else text


def sections(ctx: ReportContext, con: Any, run_id: str) -> list[Section]:
    view = queries.view_of(con, EXPERIMENT)
    win = _one(queries.win_rates(con, view), run_id)
    totals = _one(queries.deck_totals(con, view), run_id)
    by = pl.concat([_one(queries.win_by(con, f, view), run_id)
                    for f in ("lesson_took", "gaps", "weak_matches")])  # fmt: skip
    crit = _one(queries.crits(con, view), run_id)
    policy = win["policy"][0] if win.height else POLICY
    cap = run_caption(con, run_id) + f" Policy {policy}."
    gaps = deck_gaps(win)
    frames = ctx.frames
    exact_cap = caption(source="exact")
    out = [
        Section("What should a designer know first?", summary(win, totals, gaps, cap),
                {"deck_totals": totals, "deck_gaps": gaps.with_columns(run=pl.lit(run_id))}),
        Section("How often does each deck beat each kaiju?", [
            charts.win_gpa_chart(win, cap + " Wilson 95% interval of the win rate, normal "
                                 "95% interval of the mean GPA."),
            frame_table(win.with_columns(pl.col(pl.Float64).round(3)),
                        ["deck", "kaiju", "battles", "wins", "win_rate", "win_low", "win_high",
                         "mean_gpa", "gpa_low", "gpa_high", "city_rate", "destroyed_rate",
                         "mean_rounds"])], {"win_rates": win}),
        Section("What makes a dealt mech win?", [
            charts.factor_chart(by, cap + " Every kaiju pooled; Wilson 95% intervals."),
            "<p class='small'>A mech's lesson takes at 3+ parts of the lesson Form; gaps are "
            "slots left empty in Assembly; weakness matches count the parts whose Form or "
            "Type the kaiju (Traits applied) is weak to. These are associations across dealt "
            "mechs, not controlled changes.</p>"], {"win_by": by}),
    ]  # fmt: skip
    if "draws" in frames:
        out.append(Section("How soon does a Form or Type show up?", [
            charts.draws_chart(frames["draws"], exact_cap + " Hypergeometric draws from the "
                               "freshly shuffled body pile."),
            "<p class='small'>The whole table: <a href='tables/labpartners/draws.csv'>"
            "draws.csv</a>.</p>"]))  # fmt: skip
    if "battle" in frames:
        table = frames["battle"]
        floats = [c for c in table.columns if c.endswith("_float")]
        out.append(Section("Each catalog mech against each kaiju (exact)", [
            charts.exact_battle_chart(table, exact_cap + " The exact battle DP, policy "
                                      "steady, no Traits, no spares."),
            frame_table(table.with_columns(pl.col(floats).cast(pl.Float64).round(3)),
                        ["mech", "kaiju", "lesson", *floats])]))  # fmt: skip
    crit_html = ""
    if "crit" in frames:
        c = frames["crit"]
        crit_html = (
            frame_table(
                c, [x for x in ("head", "crit_immune", "accuracy", "p_crit") if x in c.columns]
            )
            + "<p class='small'>Exact P(crit) per damaging Arm by Head.</p>"
        )
    out.append(Section("How much do crits matter?", [
        charts.crits_chart(crit, cap + " Normal 95% interval of mean crits."), crit_html],
        {"crits": crit}))  # fmt: skip
    return out
