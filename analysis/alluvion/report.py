"""The Alluvion Knights report page, ``reports/alluvion.html`` (its analysis plugin's
``default_runs`` and ``page``; the generic report adds the flags first and the claims).

One study, the ``loadouts`` round robin: every named loadout of loadouts.toml against
every other in duels (one Armor a side, no cover, the rules' start range), every ordered
pair a cell, mirrors included, ``ctx.n`` duels in all. It is read back through DuckDB
(:mod:`analysis.alluvion.queries`) into:

- a designer's summary: the best and the worst loadout over the round robin, the first
  side's edge, what dominates what, the flags;
- the matchup matrix: each loadout's score against each other (both cells of a matchup
  pooled) with its 95% Wilson interval;
- the ranking: Bradley-Terry ratings (:mod:`analysis.ratings`, the model it documents for
  round robins of any two-sided game) beside the plain score;
- dominance (:func:`dominance`, defined there and on the page), the dominant and the
  dominated loadouts, each with its evidence;
- how the dice pools trade off: each loadout's score against its Attack and Defense dice
  (``sims.alluvion.builds.pools``);
- the exact single-attack odds (the ``attack`` table) of each loadout's Attack pool
  against each one's Defense pool, beside the simulated hit share.

A score is (wins + draws / 2) / duels. Every number read from simulation carries its 95%
interval and names its run; a sentence whose intervals overlap says the data cannot
decide.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis import ratings, readings
from analysis.alluvion import charts, queries
from analysis.alluvion.flags import score_flags
from analysis.charts import caption as exact_caption
from analysis.charts import run_caption
from analysis.plugin import Page, ReportContext, Section
from analysis.query import connect
from analysis.report import frame_table
from analysis.report_rests import tag_text
from sims.core.runner import RunOutcome, simulate

GAME = queries.GAME
EXPERIMENT = queries.EXPERIMENT
PCT = "{:.1%}"
SPOT = 0  # the exact odds shown: no Spot die added


def run_default_experiments(ctx: ReportContext) -> dict[str, RunOutcome]:
    """``loadouts``: ctx.n duels over every ordered pair of the named loadouts (resumable)."""
    run = simulate(
        GAME,
        EXPERIMENT,
        n=ctx.n,
        seed=ctx.seed,
        catalog_root=ctx.catalog_root,
        store_root=ctx.store,
        sets=ctx.sets,
        jobs=ctx.jobs,
        progress=None,
        announce="report",
    )
    return {EXPERIMENT: run}


def build_page(ctx: ReportContext, runs: Mapping[str, RunOutcome]) -> Page:
    """The study's sections and its flags."""
    run_id = runs[EXPERIMENT].plan.run_id
    con = connect(ctx.store, catalog=ctx.catalog_root, sets=ctx.sets, runs=[run_id])
    try:
        study = read_study(con, run_id, ctx.catalog)
    finally:
        con.close()
    sections = study_sections(study, ctx.frames, ctx.limits, ctx.robustness)
    return Page(sections, study_flags(study, ctx.limits))


# ---- reading a run -------------------------------------------------------------------------


@dataclass(frozen=True)
class Study:
    """One ``loadouts`` run read back: every frame its sections, flags and the notebook
    show (each with its ``run`` column)."""

    run: str
    caption: str
    cells: pl.DataFrame  # queries.cells: per ordered cell, side a's score
    matchups: pl.DataFrame  # queries.matchups: per loadout and opponent, both cells pooled
    standings: pl.DataFrame  # queries.standings: per loadout over the round robin
    side_a: pl.DataFrame  # queries.side_a: the first side's edge (one row)
    ratings: pl.DataFrame  # bradley_terry of the cells (loadout, rating, low, high, ...)
    dominance: pl.DataFrame  # dominance(matchups): every ordered pair of loadouts
    pools: pl.DataFrame  # pools_frame: each loadout's pools and dice, with its score

    @property
    def order(self) -> list[str]:
        """The loadouts, best rated first."""
        return self.ratings["loadout"].to_list()

    @property
    def duels(self) -> int:
        return int(self.cells["duels"].sum())


def _one(frame: pl.DataFrame, run_id: str) -> pl.DataFrame:
    return frame.filter(pl.col("run") == run_id)


def read_study(con: Any, run_id: str, catalog: Any) -> Study:
    """Read one ``loadouts`` run through the store's views (``con`` from
    :func:`analysis.query.connect` showing that run) into a :class:`Study`."""
    view = queries.view_of(con, EXPERIMENT)
    cells = _one(queries.cells(con, view), run_id)
    if not cells.height:
        raise ValueError(f"run {run_id} has no rows in view {view!r}")
    matchups = _one(queries.matchups(con, view), run_id)
    standings = _one(queries.standings(con, view), run_id)
    fit = rate(cells).with_columns(run=pl.lit(run_id))
    pairs = dominance(matchups).with_columns(run=pl.lit(run_id))
    pools = pools_frame(catalog, fit["loadout"].to_list(), standings)
    return Study(
        run=run_id,
        caption=study_caption(con, run_id),
        cells=cells,
        matchups=matchups,
        standings=standings,
        side_a=_one(queries.side_a(con, view), run_id),
        ratings=fit,
        dominance=pairs,
        pools=pools.with_columns(run=pl.lit(run_id)),
    )


def study_caption(con: Any, run_id: str) -> str:
    """The run's caption, with its cover and range when not the defaults."""
    rows = con.execute("SELECT options FROM runs WHERE run_id = ?", [run_id]).fetchall()
    options = json.loads(rows[0][0] or "{}") if rows else {}
    params = {k: options[k] for k in ("cover", "range") if options.get(k) not in (None, "none", 0)}
    return run_caption(con, run_id, params) + " Duels, one Armor a side."


def rate(cells: pl.DataFrame) -> pl.DataFrame:
    """Bradley-Terry ratings (:func:`analysis.ratings.bradley_terry`, Elo points with 95%
    intervals) fitted to the ordered cells of different loadouts (mirrors say nothing
    about strength), best first; ``team`` is called ``loadout``."""
    games = cells.select(
        pl.col("loadout_a").alias("side_a"),
        pl.col("loadout_b").alias("side_b"),
        pl.col("duels").alias("battles"),
        "score_a",
    )
    return ratings.bradley_terry(ratings.pairwise(games)).rename({"team": "loadout"})


# ---- dominance ---------------------------------------------------------------------------

PAIR_SCHEMA = {
    "loadout": pl.String,
    "other": pl.String,
    "opponents": pl.Int64,
    "at_least": pl.Int64,
    "apart_above": pl.Int64,
    "apart_below": pl.Int64,
    "dominates": pl.Boolean,
    "above": pl.String,
    "closest": pl.String,
    "closest_gap": pl.Float64,
}
DOMINANCE_TEXT = (
    "Dominance as read here: loadout X dominates loadout Y when, against every opponent, "
    "X's score is at least Y's, and against at least one opponent their 95% Wilson "
    "intervals lie apart, X's wholly above. The opponents are every loadout of the round "
    "robin but Y; against X itself the comparison is the head-to-head (X's mirror scores "
    "1/2, so X must score at least 1/2 against Y). 'At least' is read on the point "
    "estimates: this is a reading of one run, not a test, and with few duels a near tie "
    "against one opponent can hide a dominance, or show one that more duels would undo. "
    "A loadout is dominant when it dominates every other, dominated when some other "
    "dominates it."
)


def dominance(matchups: pl.DataFrame) -> pl.DataFrame:
    """Every ordered pair (``loadout`` X, ``other`` Y) of different loadouts of one run
    (``queries.matchups``): ``opponents`` compared (every loadout but Y), ``at_least`` of
    them where X's score is at least Y's, ``apart_above`` (``apart_below``) where X's 95%
    interval lies wholly above (below) Y's, ``dominates`` (at_least == opponents and
    apart_above >= 1), ``dominated`` (the pair the other way round), and ``above``: the
    opponents where X's interval lies wholly above, ``closest``: the opponent where X's
    lead over Y is smallest, with ``closest_gap`` (X's score minus Y's)."""
    key = {(r["loadout"], r["opponent"]): r for r in matchups.iter_rows(named=True)}
    names = sorted({r["loadout"] for r in key.values()} | {r["opponent"] for r in key.values()})
    rows = []
    for x in names:
        for y in names:
            if x == y:
                continue
            at_least = apart_above = apart_below = 0
            above: list[str] = []
            closest, gap = None, None
            for z in names:
                if z == y or (x, z) not in key or (y, z) not in key:
                    continue
                a, b = key[(x, z)], key[(y, z)]
                at_least += a["score"] >= b["score"]
                if a["low"] > b["high"]:
                    apart_above += 1
                    above.append(z)
                apart_below += a["high"] < b["low"]
                if gap is None or a["score"] - b["score"] < gap:
                    closest, gap = z, a["score"] - b["score"]
            opponents = sum(1 for z in names if z != y and (x, z) in key and (y, z) in key)
            rows.append(
                {
                    "loadout": x,
                    "other": y,
                    "opponents": opponents,
                    "at_least": at_least,
                    "apart_above": apart_above,
                    "apart_below": apart_below,
                    "dominates": opponents > 0 and at_least == opponents and apart_above > 0,
                    "above": ",".join(above),
                    "closest": closest,
                    "closest_gap": gap,
                }
            )
    frame = pl.DataFrame(rows, schema=PAIR_SCHEMA)
    back = frame.select(
        pl.col("other").alias("loadout"),
        pl.col("loadout").alias("other"),
        pl.col("dominates").alias("dominated"),
    )
    return frame.join(back, on=["loadout", "other"], how="left").with_columns(
        pl.col("dominated").fill_null(False)
    )


def dominant(pairs: pl.DataFrame) -> list[str]:
    """The loadouts that dominate every other (:func:`dominance` rows)."""
    out = []
    for name in sorted(set(pairs["loadout"])):
        mine = pairs.filter(pl.col("loadout") == name)
        if mine.height and mine["dominates"].all():
            out.append(name)
    return out


def dominated(pairs: pl.DataFrame) -> dict[str, list[str]]:
    """Each dominated loadout and the loadouts that dominate it, in name order."""
    hits = pairs.filter(pl.col("dominates")).sort("other", "loadout")
    out: dict[str, list[str]] = {}
    for x, y in hits.select("loadout", "other").iter_rows():
        out.setdefault(y, []).append(x)
    return out


def _score_of(matchups: pl.DataFrame, x: str, z: str) -> str:
    r = matchups.filter((pl.col("loadout") == x) & (pl.col("opponent") == z)).row(0, named=True)
    return readings.interval(r["score"], r["low"], r["high"], "{:.0%}")


def versus(matchups: pl.DataFrame, x: str, y: str, z: str) -> str:
    """X's and Y's scores against opponent Z in words; Z = X is the head-to-head."""
    if z == x:
        return f"head to head, {x} scores {_score_of(matchups, x, y)} against {y}"
    return (
        f"against {z}, {x} scores {_score_of(matchups, x, z)} and {y} {_score_of(matchups, y, z)}"
    )


def dominance_evidence(pairs: pl.DataFrame, matchups: pl.DataFrame) -> list[str]:
    """A sentence per dominating pair: against how many opponents X is at least as good
    and its interval wholly above, where (when not everywhere), and the closest call:
    the opponent where X's lead over Y is smallest."""
    out = []
    for r in pairs.filter(pl.col("dominates")).sort("loadout", "other").iter_rows(named=True):
        x, y, n, k = r["loadout"], r["other"], r["opponents"], r["apart_above"]
        where = (
            ""
            if k == n
            else " ("
            + ", ".join("head to head" if z == x else z for z in r["above"].split(","))
            + ")"
        )
        out.append(
            f"{x} dominates {y}: at least as good against all {n} opponents, the 95% "
            f"intervals apart against {k}{where}; closest call: "
            f"{versus(matchups, x, y, r['closest'])}."
        )
    return out


def near_misses(pairs: pl.DataFrame) -> pl.DataFrame:
    """Pairs that do not dominate but are at least as good against all opponents but
    one and apart against at least one (:func:`dominance` rows), in name order."""
    return pairs.filter(
        ~pl.col("dominates")
        & (pl.col("at_least") == pl.col("opponents") - 1)
        & (pl.col("apart_above") > 0)
    ).sort("loadout", "other")


def dominance_sentences(pairs: pl.DataFrame) -> list[str]:
    """The dominant loadouts and the dominated ones, in words."""
    top = dominant(pairs)
    low = dominated(pairs)
    out = []
    if top:
        out.append(f"Dominant (dominates every other loadout): {', '.join(top)}.")
    else:
        out.append("No loadout dominates every other.")
    if low:
        out.append(
            "Dominated: " + "; ".join(f"{y} (by {', '.join(xs)})" for y, xs in low.items()) + "."
        )
    else:
        out.append("No loadout is dominated by another in this run.")
    return out


# ---- summary sentences ---------------------------------------------------------------------


def _estimate(r: Mapping[str, Any], value: str = "score") -> str:
    return readings.interval(r[value], r["low"], r["high"], PCT)


def extreme_sentence(standings: pl.DataFrame, best: bool = True) -> str:
    """The best (or worst) loadout over the round robin with its interval; when other
    loadouts' 95% intervals reach it, the data cannot decide, and they are named."""
    if not standings.height:
        return "No loadout played."
    word = "best" if best else "worst"
    ranked = standings.sort("score", "loadout", descending=[best, False])
    top = ranked.row(0, named=True)
    if ranked.height == 1:
        return f"Only one loadout played: {top['loadout']}, {_estimate(top)}."
    rest = ranked.slice(1)
    rivals = (
        rest.filter(pl.col("high") >= top["low"])
        if best
        else rest.filter(pl.col("low") <= top["high"])
    )
    lead = f"{top['loadout']} scores {'highest' if best else 'lowest'}, {_estimate(top)}"
    if not rivals.height:
        nxt = rest.row(0, named=True)
        return (
            f"{lead} over the round robin, clear of every other: the {word} loadout (the "
            f"next, {nxt['loadout']}, {_estimate(nxt)})."
        )
    shown = "; ".join(f"{r['loadout']}, {_estimate(r)}" for r in rivals.iter_rows(named=True))
    return (
        f"The data cannot decide which loadout is {word}: {lead}, but the 95% intervals "
        f"of {rivals.height} other{'s' if rivals.height > 1 else ''} overlap it "
        f"({shown})."
    )


def side_sentence(side: pl.DataFrame) -> str:
    """The first-listed side's score over every duel, and whether it differs from 1/2."""
    if not side.height:
        return "No duels."
    r = side.row(0, named=True)
    text = (
        f"Side a (each ordered pair is played both ways) scores "
        f"{readings.interval(r['score_a'], r['low'], r['high'], PCT)} over all "
        f"{r['duels']:,} duels; {r['draw_share']:.1%} are draws, after "
        f"{r['mean_rounds']:.1f} rounds on average"
    )
    if r["low"] <= 0.5 <= r["high"]:
        return text + ": the interval holds 50%, so the data cannot tell the sides apart."
    side = "first" if r["score_a"] > 0.5 else "second"
    return text + f": the {side}-listed side has an edge the round robin's design cancels."


def pools_sentence(pools: pl.DataFrame) -> str:
    """Which loadouts carry the most Attack and the most Defense dice, and how they
    score: associations across a handful of loadouts, not controlled changes."""
    if not pools.height:
        return "No loadout played."
    out = []
    for column, pool, word in (
        ("attack_dice", "attack_pool", "Attack"),
        ("defense_dice", "defense_pool", "Defense"),
    ):
        top = pools[column].max()
        rows = pools.filter(pl.col(column) == top).sort("score", descending=True)
        names = "; ".join(
            f"{r['loadout']} ({r[pool]}), {_estimate(r)}" for r in rows.iter_rows(named=True)
        )
        out.append(f"Most {word} dice ({top}): {names}.")
    return (
        " ".join(out) + f" {pools.height} loadouts differ in chassis, policy and Move and "
        "Spot pools at once, so these are associations, not controlled changes: to vary "
        "one system, play codes such as knight:rsdd against knight:rrsd with --loadouts."
    )


# ---- pools and exact odds -------------------------------------------------------------------

_DICE = re.compile(r"(\d+)d\d+")


def dice_count(pool: str) -> int:
    """The dice in a pool written like ``2d6+1d8`` (``0``: none)."""
    return sum(int(n) for n in _DICE.findall(pool))


def pools_frame(catalog: Any, loadouts: Sequence[str], standings: pl.DataFrame) -> pl.DataFrame:
    """Per loadout (ids or codes): chassis, code, its pools (``builds.pools``), the dice
    in its Attack pool (weapon systems; rockets apart) and Defense pool, and its score over
    the round robin with the interval (``standings`` of one run)."""
    from sims.alluvion import builds  # the game's rules, on use

    rows = []
    for name in loadouts:
        lo = catalog.loadout(name)
        pools = builds.pools(lo, catalog)
        rows.append(
            {
                "loadout": name,
                "chassis": lo.chassis,
                "code": lo.code,
                **pools,
                "attack_dice": dice_count(pools["attack_pool"]),
                "rocket_dice": dice_count(pools["rocket_pool"]),
                "defense_dice": dice_count(pools["defense_pool"]),
            }
        )
    scores = standings.select("loadout", "duels", "score", "low", "high")
    return pl.DataFrame(rows).join(scores, on="loadout", how="left")


def exact_odds(
    attack: pl.DataFrame,
    pools: pl.DataFrame,
    matchups: pl.DataFrame | None = None,
    spot: int = SPOT,
) -> pl.DataFrame:
    """Per ordered pair of loadouts: the exact P(hit) of one attack (the ``attack`` table
    at ``spot``: the highest die of the attacker's Attack pool + spot against the
    highest of the defender's Defense pool), as the fraction and ``p_hit`` (float); with
    ``matchups``, the attacker's simulated hit share against that defender beside it."""
    p = "p_hit_float" if "p_hit_float" in attack.columns else "p_hit"
    table = attack.filter(pl.col("spot") == spot).select(
        "attack_pool",
        "defense_pool",
        pl.col("p_hit").cast(pl.String).alias("p_hit_exact"),
        pl.col(p).cast(pl.Float64).alias("p_hit"),
    )
    a = pools.select(pl.col("loadout").alias("attacker"), "attack_pool")
    d = pools.select(pl.col("loadout").alias("defender"), "defense_pool")
    out = a.join(d, how="cross").join(table, on=["attack_pool", "defense_pool"], how="left")
    if matchups is not None:
        sim = matchups.select(
            pl.col("loadout").alias("attacker"),
            pl.col("opponent").alias("defender"),
            "attacks",
            "hits",
            "hit_share",
        )
        out = out.join(sim, on=["attacker", "defender"], how="left")
    return out.with_columns(spot=pl.lit(spot))


# ---- flags and sections ------------------------------------------------------------------


def study_flags(study: Study, limits: Mapping[str, Any]) -> list:
    """Loadouts outside ``loadout_score`` (limits.toml) over the round robin."""
    if "loadout_score" not in limits:
        return []
    return score_flags(study.standings, limits["loadout_score"], study.caption)


def _ul(items: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in items) + "</ul>"


def _round(frame: pl.DataFrame, digits: int = 4) -> pl.DataFrame:
    return frame.with_columns(pl.col(pl.Float64, pl.Float32).round(digits))


def matrix_table(matchups: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """The matrix as text: a row per loadout, a column per opponent, each cell the score
    with its interval (``62% (57–66)``)."""
    pct = [(pl.col(c) * 100).round(0).cast(pl.Int64) for c in ("score", "low", "high")]
    cell = pl.when(pl.col("mirror")).then(pl.lit("50% mirror"))
    text = matchups.with_columns(cell=cell.otherwise(pl.format("{}% ({}–{})", *pct)))
    wide = text.pivot(on="opponent", index="loadout", values="cell")
    cols = [c for c in order if c in wide.columns]
    rank = {name: k for k, name in enumerate(order)}
    return (
        wide.with_columns(pl.col("loadout").replace_strict(rank, default=len(rank)).alias("_rank"))
        .sort("_rank")
        .select("loadout", *cols)
    )


def odds_table(odds: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """:func:`exact_odds` as a matrix: a row per attacker (with its Attack pool), a
    column per defender (with its Defense pool), each cell ``exact% / simulated%`` (``-``
    without a simulated share)."""
    if "hit_share" not in odds.columns:
        odds = odds.with_columns(hit_share=pl.lit(None, pl.Float64))
    pct = [
        (pl.col(c) * 100).round(0).cast(pl.Int64).cast(pl.String).fill_null("-")
        for c in ("p_hit", "hit_share")
    ]
    text = odds.with_columns(
        cell=pl.format("{} / {}", *pct), column=pl.format("{} ({})", "defender", "defense_pool")
    )
    wide = text.pivot(on="column", index=["attacker", "attack_pool"], values="cell")
    pools = dict(odds.select("defender", "defense_pool").unique().iter_rows())
    cols = [f"{d} ({pools[d]})" for d in order if d in pools]
    rank = {name: k for k, name in enumerate(order)}
    return (
        wide.with_columns(pl.col("attacker").replace_strict(rank, default=len(rank)).alias("_rank"))
        .sort("_rank")
        .select("attacker", "attack_pool", *cols)
    )


def study_sections(
    study: Study,
    frames: Mapping[str, pl.DataFrame] | None = None,
    limits: Mapping[str, Any] | None = None,
    robustness: Any = None,
) -> list[Section]:
    """The study's sections, in the page's order; each headline sentence carries its
    robustness tag from ``robustness`` (analysis.robust.RobustResult, or none)."""
    frames, limits = frames or {}, limits or {}
    cap, run, order = study.caption, study.run, study.order
    limit = limits.get("loadout_score")
    band = (limit.min, limit.max) if limit is not None else None
    flags = study_flags(study, limits)
    n_loadouts = study.standings.height
    out: list[Section] = []

    intro = (
        f"<p>{study.duels:,} duels: each of the {n_loadouts} loadouts against every "
        f"loadout, itself included, in every ordered pair ({study.cells.height} cells, "
        f"{int(study.cells['duels'].min()):,} duels each). A score is wins + draws / 2 "
        f"over duels, with its 95% Wilson interval; a loadout's score over the round robin "
        f"leaves its mirror out (a mirror scores one half by construction).</p>"
    )
    items = [
        extreme_sentence(study.standings, True) + tag_text(robustness, "best:loadout", GAME),
        extreme_sentence(study.standings, False) + tag_text(robustness, "worst:loadout", GAME),
        *dominance_sentences(study.dominance),
        side_sentence(study.side_a) + tag_text(robustness, "side_a", GAME),
    ]
    if limit is not None:
        items.append(
            f"{len(flags)} balance flag(s) from this run are listed at the top of "
            f"the page: loadouts whose score over the round robin leaves "
            f"{limit.min:.0%} to {limit.max:.0%} (limits.toml, {limit.provenance}), "
            f"only where the whole 95% interval lies outside."
        )
    out.append(
        Section(
            "What should a designer know first?",
            [
                intro + _ul(items),
                charts.standings_chart(
                    study.standings,
                    cap
                    + " Wilson 95% intervals; dashed: 50%"
                    + ("; red: the loadout_score limits." if band else "."),
                    order,
                    band,
                ),
                frame_table(
                    _round(study.standings.sort("score", descending=True), 3),
                    [
                        "loadout",
                        "duels",
                        "wins",
                        "draws",
                        "losses",
                        "score",
                        "low",
                        "high",
                        "hit_share",
                    ],
                ),
            ],
            {"standings": _round(study.standings), "side_a": _round(study.side_a)},
        )
    )

    out.append(
        Section(
            "The matchup matrix: how does each loadout fare against each other?",
            [
                "<p>Each cell: the row loadout's score against the column loadout, both cells of "
                "the matchup pooled (the row loadout as side a and as side b), each duel counted "
                "once. A mirror is 50% by construction. Hover a cell for its 95% Wilson interval, "
                "duels, wins, draws and losses. Rows and columns in rating order.</p>",
                charts.matchup_heatmap(
                    study.matchups,
                    cap + " Wilson 95% interval of each score in the tooltip.",
                    order,
                ),
                frame_table(matrix_table(study.matchups, order)),
                "<p class='small'>Score (95% Wilson interval), in per cent. The ordered cells "
                "(side a's score in each) are in cells.csv.</p>",
            ],
            {"matchups": _round(study.matchups), "cells": _round(study.cells)},
        )
    )

    preview = readings.preview_note(study.duels, study.ratings)
    preview_html = f"<p class='stale'>{html.escape(preview)}</p>" if preview else ""
    plain = study.standings.select(
        "loadout",
        pl.col("score").alias("round_robin_score"),
        pl.col("low").alias("score_low"),
        pl.col("high").alias("score_high"),
    )
    ranking = study.ratings.join(plain, on="loadout", how="left")
    best = readings.best_sentence(study.ratings, "loadout", "loadout")
    out.append(
        Section(
            "The ranking: which loadouts are strongest?",
            [
                preview_html + f"<p>{html.escape(best)}</p>"
                "<p class='small'>Bradley-Terry ratings (analysis/ratings.py): each loadout a "
                "strength, P(X beats Y) = 1 / (1 + exp(theta_Y - theta_X)), draws half a win, "
                "fitted to the duels of different loadouts (mirrors say nothing about strength), "
                "in Elo points centred on 0 with 95% intervals. The round-robin score beside it is "
                "what the limit reads. Loadouts whose intervals overlap are not told apart by this "
                "run.</p>",
                charts.ratings_chart(
                    study.ratings,
                    cap + " Bradley-Terry, 95% intervals from the observed information.",
                ),
                frame_table(
                    ranking.with_columns(
                        pl.col("rating", "low", "high").round(0),
                        pl.col(
                            "expected_score", "round_robin_score", "score_low", "score_high"
                        ).round(3),
                    ),
                    [
                        "loadout",
                        "rating",
                        "low",
                        "high",
                        "expected_score",
                        "round_robin_score",
                        "score_low",
                        "score_high",
                        "battles",
                    ],
                ),
            ],
            {"ratings": _round(ranking)},
        )
    )

    evidence = dominance_evidence(study.dominance, study.matchups)
    near = near_misses(study.dominance)
    details = (
        f"<details><summary>The evidence, pair by pair ({len(evidence)} "
        f"pair{'s' if len(evidence) != 1 else ''})</summary>{_ul(evidence)}</details>"
        if evidence
        else ""
    )
    near_html = (
        "<p>Near misses: at least as good against all opponents but one, and apart against "
        "at least one (one more run, or more duels, may tip them either way):</p>"
        + frame_table(
            near.with_columns(pl.col("closest_gap").round(3)),
            [
                "loadout",
                "other",
                "opponents",
                "at_least",
                "apart_above",
                "apart_below",
                "closest",
                "closest_gap",
            ],
        )
        if near.height
        else "<p>No near misses (pairs short of dominance by one opponent).</p>"
    )
    out.append(
        Section(
            "Dominance: is any loadout always at least as good as another?",
            [
                f"<p>{html.escape(DOMINANCE_TEXT)}</p>"
                + _ul(dominance_sentences(study.dominance))
                + details,
                charts.dominance_chart(
                    study.dominance,
                    cap + " Row against column; hover for the count of opponents.",
                    order,
                ),
                near_html,
                "<p class='small'>closest: the opponent where the row loadout's lead over the other "
                "is smallest (the row's own name: head to head), closest_gap its score minus the "
                "other's. Every ordered pair, with the opponents where the row's interval lies "
                "wholly above (above), is in dominance.csv.</p>",
            ],
            {"dominance": _round(study.dominance)},
        )
    )

    pool_cols = [
        "loadout",
        "chassis",
        "code",
        "attack_pool",
        "rocket_pool",
        "defense_pool",
        "ecm_pool",
        "move_pool",
        "spot_pool",
        "attack_dice",
        "defense_dice",
        "score",
        "low",
        "high",
    ]
    out.append(
        Section(
            "How do the dice pools trade off?",
            [
                f"<p>{html.escape(pools_sentence(study.pools))}</p>",
                charts.pools_chart(
                    study.pools,
                    cap + " Pools from sims/alluvion/builds.py; Wilson 95% intervals of the score.",
                ),
                frame_table(
                    _round(study.pools, 3), [c for c in pool_cols if c in study.pools.columns]
                ),
                "<p class='small'>Attack: the first weapon system 1d6, each later one 1d8 (rockets "
                "1d8 each, once); Defense: the first defensive system 2d6, each later one 1d6 "
                "(ECM dice alone may meet a Smart weapon). Every loadout also rolls the 2d6 Skill "
                "dice.</p>",
            ],
            {"pools": _round(study.pools)},
        )
    )

    if "attack" in frames:
        odds = exact_odds(frames["attack"], study.pools, study.matchups)
        out.append(
            Section(
                "The exact single-attack odds, pool against pool",
                [
                    f"<p>Exact: P(hit) of one attack, the highest die of the row loadout's Attack pool "
                    f"(its weapon systems, no rockets, no Skill dice) + Spot {SPOT} against the highest "
                    "die of the column loadout's Defense pool, hit when Attack + Spot - Defense >= 1 "
                    "(the attack table, sims/alluvion/exact.py). Beside it, the simulated hit share "
                    "of the row loadout's attacks in its duels with the column loadout. They differ "
                    "by design: in a duel the second attack of a round takes the next-highest die, "
                    "the 2d6 Skill dice stand in when a pool runs out (so a loadout with no defensive "
                    "system, Defense pool 0, still defends with them: the exact 100% is the pools "
                    "alone), rockets and Spot dice add, the defender's policy picks its die (block: "
                    "the smallest that makes the attack miss), only ECM dice meet a Smart weapon, and "
                    "the Opportunity die is added beyond direct fire range.</p>",
                    charts.exact_odds_chart(
                        odds,
                        exact_caption(source="exact", params={"spot": SPOT})
                        + " Simulated hit share in the tooltip.",
                        order,
                    ),
                    frame_table(odds_table(odds, order)),
                    "<p class='small'>Each cell: exact P(hit) of the pools alone / the simulated hit "
                    "share in the duels, in per cent; the pools and the exact fractions are in "
                    "exact_odds.csv. Every pool and spot: <a href='tables/alluvion/attack.csv'>"
                    "attack.csv</a>; a whole round of two attacks: <a href='tables/alluvion/round.csv'>"
                    "round.csv</a>.</p>",
                ],
                {"exact_odds": _round(odds.with_columns(run=pl.lit(run)))},
            )
        )
    return out
