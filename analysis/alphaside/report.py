"""The ALPHASIDE report page, ``reports/alphaside.html`` (its analysis plugin's
``default_runs`` and ``page``; the generic report adds the flags first and the claims).

Two studies, read back through DuckDB (:mod:`analysis.alphaside.queries`):

- ``duel``: engagements of one unit a side over a whole game (two Phases of ten spaces on
  the Timeline), every ordered pair of the units of units.toml a cell, mirrors included,
  ``ctx.n`` games in all. It gives the designer's summary (the best and the worst unit,
  the first side's edge, the unit and the weapon that deal most per Timeline space, the
  flags), the matchup matrix, the damage per Timeline space (TL) of each unit against each
  other, the time to its first defeat of the other, and the damage per TL of each unit's
  weapons beside the exact expectation of one attack (the ``weapon_vs_unit`` table);
- ``squads``: whole games between the squads of squads.toml, every ordered pair,
  ``ctx.n // 4`` games: VP scored and conceded over a game and the win rate.

Then the exact dice odds (the ``hits`` and ``defeat`` tables, no simulation): the
designers' question, hits, crits and damage through Shields for every dice count,
Accuracy and crit threshold.

A score is wins / games (equal VP goes to the side that acted last: there are no draws),
with its 95% Wilson interval. Damage per TL is a ratio estimator (damage summed over games
/ TL spent on attacks summed over the same games) with a delta-method 95% interval (the
queries module says how). Every number read from simulation carries its 95% interval and
names its run; a sentence whose intervals overlap says the data cannot decide.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis import readings
from analysis.alphaside import charts, queries
from analysis.alphaside.flags import score_flags
from analysis.charts import caption as exact_caption
from analysis.charts import float_column, run_caption
from analysis.plugin import Page, ReportContext, Section
from analysis.query import connect
from analysis.readings import Z95, wilson
from analysis.report import frame_table
from analysis.report_rests import tag_text
from sims.core.runner import RunOutcome, simulate

GAME = queries.GAME
DUEL = queries.DUEL
SQUADS = queries.SQUADS
PCT = "{:.1%}"
NUM = "{:.2f}"
SQUAD_SHARE = 4  # the squads study plays ctx.n // SQUAD_SHARE games


def run_default_experiments(ctx: ReportContext) -> dict[str, RunOutcome]:
    """``duel``: ctx.n games over every ordered pair of units; ``squads``: ctx.n // 4 games
    over every ordered pair of squads (each resumable)."""
    out = {}
    for experiment, n in ((DUEL, ctx.n), (SQUADS, max(ctx.n // SQUAD_SHARE, 1))):
        out[experiment] = simulate(
            GAME,
            experiment,
            n=n,
            seed=ctx.seed,
            catalog_root=ctx.catalog_root,
            store_root=ctx.store,
            sets=ctx.sets,
            jobs=ctx.jobs,
            progress=None,
            announce="report",
        )
    return out


def build_page(ctx: ReportContext, runs: Mapping[str, RunOutcome]) -> Page:
    """The studies' sections and the flags."""
    duel_id = runs[DUEL].plan.run_id
    squad_id = runs[SQUADS].plan.run_id if SQUADS in runs else None
    ids = [duel_id] + ([squad_id] if squad_id else [])
    con = connect(ctx.store, catalog=ctx.catalog_root, sets=ctx.sets, runs=ids)
    try:
        study = read_study(
            con, duel_id, unit_weapons(ctx.catalog), ctx.frames.get("weapon_vs_unit")
        )
        squads = read_squads(con, squad_id) if squad_id else None
    finally:
        con.close()
    return Page(
        study_sections(study, squads, ctx.frames, ctx.limits, ctx.robustness),
        study_flags(study, ctx.limits),
    )


def unit_weapons(catalog: Any) -> dict[str, tuple[str, ...]]:
    """Each unit's weapon ids by slot (units.toml ``weapons``)."""
    return {uid: tuple(u.weapons) for uid, u in catalog.units.items()}


# ---- reading the runs -------------------------------------------------------------------


@dataclass(frozen=True)
class Study:
    """One ``duel`` run read back: every frame its sections, flags and the notebook show
    (each with its ``run`` column)."""

    run: str
    caption: str
    cells: pl.DataFrame  # queries.cells: per ordered cell, side a's score
    matchups: pl.DataFrame  # queries.matchups: per unit and opponent, both cells pooled
    standings: pl.DataFrame  # queries.standings: per unit over the round robin
    side_a: pl.DataFrame  # queries.side_a: the first side's edge (one row)
    damage: pl.DataFrame  # queries.damage_per_tl: per unit and opponent
    defeat: pl.DataFrame  # time_to_defeat(queries.defeat_times): per unit and opponent
    weapons: pl.DataFrame  # weapon_frame: per unit, weapon and opponent, exact beside
    weapon_totals: pl.DataFrame  # weapon_frame over every opponent

    @property
    def order(self) -> list[str]:
        """The units, best score first."""
        return self.standings.sort("score", "unit", descending=[True, False])["unit"].to_list()

    @property
    def games(self) -> int:
        return int(self.cells["games"].sum())


@dataclass(frozen=True)
class SquadStudy:
    """One ``squads`` run read back."""

    run: str
    caption: str
    cells: pl.DataFrame
    matchups: pl.DataFrame  # queries.matchups(key="squad"): VP with intervals, score
    standings: pl.DataFrame
    side_a: pl.DataFrame

    @property
    def order(self) -> list[str]:
        return self.standings.sort("score", "squad", descending=[True, False])["squad"].to_list()

    @property
    def games(self) -> int:
        return int(self.cells["games"].sum())


def _one(frame: pl.DataFrame, run_id: str) -> pl.DataFrame:
    return frame.filter(pl.col("run") == run_id)


def read_study(
    con: Any,
    run_id: str,
    weapons_of: Mapping[str, Sequence[str]],
    exact: pl.DataFrame | None = None,
) -> Study:
    """Read one ``duel`` run through the store's views (``con`` from
    :func:`analysis.query.connect` showing that run) into a :class:`Study`;
    ``weapons_of`` maps each unit to its weapon ids by slot, ``exact`` is the
    ``weapon_vs_unit`` table (None: no exact column)."""
    view = queries.view_of(con, DUEL)
    cells = _one(queries.cells(con, view), run_id)
    if not cells.height:
        raise ValueError(f"run {run_id} has no rows in view {view!r}")
    per = _one(queries.weapons(con, view), run_id)
    totals = _one(queries.weapons(con, view, per_opponent=False), run_id)
    return Study(
        run=run_id,
        caption=study_caption(con, run_id, "Engagements, one unit a side over a whole game."),
        cells=cells,
        matchups=_one(queries.matchups(con, view), run_id),
        standings=_one(queries.standings(con, view), run_id),
        side_a=_one(queries.side_a(con, view), run_id),
        damage=_one(queries.damage_per_tl(con, view), run_id),
        defeat=time_to_defeat(_one(queries.defeat_times(con, view), run_id)),
        weapons=weapon_frame(per, weapons_of, exact),
        weapon_totals=weapon_frame(totals, weapons_of, exact),
    )


def read_squads(con: Any, run_id: str) -> SquadStudy:
    """Read one ``squads`` run into a :class:`SquadStudy`."""
    view = queries.view_of(con, SQUADS)
    cells = _one(queries.cells(con, view, "squad"), run_id)
    if not cells.height:
        raise ValueError(f"run {run_id} has no rows in view {view!r}")
    return SquadStudy(
        run=run_id,
        caption=study_caption(con, run_id, "Whole games, squad against squad."),
        cells=cells,
        matchups=_one(queries.matchups(con, view, "squad"), run_id),
        standings=_one(queries.standings(con, view, "squad"), run_id),
        side_a=_one(queries.side_a(con, view), run_id),
    )


def study_caption(con: Any, run_id: str, what: str) -> str:
    """The run's caption, with the units or squads it was limited to when not every one."""
    rows = con.execute("SELECT options FROM runs WHERE run_id = ?", [run_id]).fetchall()
    options = json.loads(rows[0][0] or "{}") if rows else {}
    params = {k: options[k] for k in ("units", "squads") if options.get(k)}
    return run_caption(con, run_id, params) + " " + what


# ---- time to defeat, weapons ---------------------------------------------------------------

DEFEAT_SCHEMA = {
    "games": pl.Int64,
    "defeats": pl.Int64,
    "share": pl.Float64,
    "share_low": pl.Float64,
    "share_high": pl.Float64,
    "median": pl.Float64,
    "median_low": pl.Float64,
    "median_high": pl.Float64,
    "mean": pl.Float64,
}


def ranked(counts: Mapping[int, int], rank: int) -> int:
    """The ``rank``-th smallest value (1-based) of a sample given as value -> count."""
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= rank:
            return value
    raise ValueError(f"rank {rank} is beyond the {seen} values")


def median_interval(counts: Mapping[int, int]) -> tuple[float, float, float]:
    """The median of a sample given as value -> count (the mean of the two middle values
    when the count is even) and its distribution-free 95% interval: the order statistics
    of ranks floor(n/2 - 0.98 sqrt(n)) and ceil(n/2 + 1 + 0.98 sqrt(n)), clipped to 1..n
    (the normal approximation of the binomial ranks around the median). (nan, nan, nan)
    for an empty sample."""
    n = sum(counts.values())
    if n <= 0:
        return math.nan, math.nan, math.nan
    mid = (ranked(counts, (n + 1) // 2) + ranked(counts, n // 2 + 1)) / 2
    half = Z95 / 2 * math.sqrt(n)
    lo = min(max(math.floor(n / 2 - half), 1), n)
    hi = min(max(math.ceil(n / 2 + 1 + half), 1), n)
    return mid, float(ranked(counts, lo)), float(ranked(counts, hi))


def time_to_defeat(times: pl.DataFrame, key: str = "unit") -> pl.DataFrame:
    """Per run, ``key`` and opponent from :func:`queries.defeat_times` rows (time 0: no
    defeat): games, ``defeats`` (games in which the ``key``'s side defeated the enemy at
    least once), ``share`` of games with one (95% Wilson interval), and among those games
    the median Timeline time of the first defeat with its 95% interval
    (:func:`median_interval`) and the mean."""
    rows = []
    for (run, who, opponent), part in times.group_by("run", key, "opponent", maintain_order=True):
        counts = dict(zip(part["time"].to_list(), part["games"].to_list(), strict=True))
        games = sum(counts.values())
        hit = {t: c for t, c in counts.items() if t > 0}
        defeats = sum(hit.values())
        low, high = wilson(defeats, games)
        med, med_low, med_high = median_interval(hit)
        mean = sum(t * c for t, c in hit.items()) / defeats if defeats else math.nan
        rows.append(
            {
                "run": run,
                key: who,
                "opponent": opponent,
                "mirror": who == opponent,
                "games": games,
                "defeats": defeats,
                "share": defeats / games,
                "share_low": low,
                "share_high": high,
                "median": med,
                "median_low": med_low,
                "median_high": med_high,
                "mean": mean,
            }
        )
    schema = {
        "run": pl.String,
        key: pl.String,
        "opponent": pl.String,
        "mirror": pl.Boolean,
        **DEFEAT_SCHEMA,
    }
    out = pl.DataFrame(rows, schema=schema)
    return out.with_columns(
        pl.col(c).fill_nan(None) for c in ("median", "median_low", "median_high", "mean")
    )


def weapon_frame(
    slots: pl.DataFrame, weapons_of: Mapping[str, Sequence[str]], exact: pl.DataFrame | None = None
) -> pl.DataFrame:
    """:func:`queries.weapons` rows (per unit and slot, with or without the opponent) with
    the slot's ``weapon`` id (``weapons_of[unit][slot]``; slots a unit does not carry are
    dropped) and, from the exact ``weapon_vs_unit`` table, the expected damage per TL of
    one attack of that weapon on the opponent (``exact_per_tl``, its ``exact_damage``
    and ``exact_p_defeat``); over every opponent (no ``opponent`` column), the mean of
    the exact expectations over the units of the table (``exact_per_tl``: each unit an
    equal share of the field, as in the round robin)."""
    names = [(u, k, ws[k]) for u, ws in weapons_of.items() for k in range(len(ws))]
    ids = pl.DataFrame(
        names, schema={"unit": pl.String, "slot": pl.Int32, "weapon": pl.String}, orient="row"
    )
    out = slots.with_columns(pl.col("slot").cast(pl.Int32)).join(
        ids, on=["unit", "slot"], how="inner"
    )
    front = ["run", "unit", "weapon", "slot"]
    if exact is not None and exact.height:
        table = exact.select(
            "weapon",
            pl.col("unit").alias("target"),
            pl.col(float_column(exact, "damage_per_tl")).cast(pl.Float64).alias("exact_per_tl"),
            pl.col(float_column(exact, "expected_damage")).cast(pl.Float64).alias("exact_damage"),
            pl.col(float_column(exact, "p_defeat")).cast(pl.Float64).alias("exact_p_defeat"),
        )
        if "opponent" in out.columns:
            out = out.join(
                table.rename({"target": "opponent"}), on=["weapon", "opponent"], how="left"
            )
        else:
            field = table.group_by("weapon").agg(
                pl.col("exact_per_tl").mean(), pl.col("exact_damage").mean()
            )
            out = out.join(field, on="weapon", how="left")
    rest = [c for c in out.columns if c not in front]
    sort = ["unit", "opponent", "slot"] if "opponent" in out.columns else ["unit", "slot"]
    return out.select(*front, *rest).sort(sort)


# ---- summary sentences ----------------------------------------------------------------------


def _estimate(
    r: Mapping[str, Any], value: str = "score", low: str = "low", high: str = "high", fmt: str = PCT
) -> str:
    return readings.interval(r[value], r[low], r[high], fmt)


def leader_sentence(
    frame: pl.DataFrame,
    name: str,
    *,
    value: str = "score",
    low: str = "low",
    high: str = "high",
    best: bool = True,
    what: str = "unit",
    verb: str = "scores",
    fmt: str = PCT,
    where: str = "over the round robin",
) -> str:
    """The highest (or lowest) row of ``frame`` by ``value`` with its interval; when
    other rows' 95% intervals reach it, the data cannot decide, and they are named."""
    frame = frame.filter(pl.col(value).is_not_null() & pl.col(value).is_not_nan())
    if not frame.height:
        return f"No {what} to compare."
    word = "best" if best else "worst"
    most = "highest" if best else "lowest"
    rank = frame.sort(value, name, descending=[best, False])
    top = rank.row(0, named=True)
    lead = f"{top[name]} {verb} {most}, {_estimate(top, value, low, high, fmt)}"
    if rank.height == 1:
        return f"Only one {what}: {lead} {where}."
    rest = rank.slice(1)
    rivals = (
        rest.filter(pl.col(high) >= top[low]) if best else rest.filter(pl.col(low) <= top[high])
    )
    if not rivals.height:
        nxt = rest.row(0, named=True)
        return (
            f"{lead} {where}, clear of every other: the {word} {what} (the next, "
            f"{nxt[name]}, {_estimate(nxt, value, low, high, fmt)})."
        )
    shown = "; ".join(
        f"{r[name]}, {_estimate(r, value, low, high, fmt)}"
        for r in rivals.head(3).iter_rows(named=True)
    )
    more = f" and {rivals.height - 3} more" if rivals.height > 3 else ""
    return (
        f"The data cannot decide which {what} is {word} {where}: {lead}, but the 95% "
        f"intervals of {rivals.height} other{'s' if rivals.height > 1 else ''} overlap "
        f"it ({shown}{more})."
    )


def extreme_sentence(standings: pl.DataFrame, best: bool = True, what: str = "unit") -> str:
    """The best (or worst) unit (or squad: ``what``) by its score over the round robin."""
    return leader_sentence(standings, what, best=best, what=what)


def side_sentence(side: pl.DataFrame, what: str = "games") -> str:
    """The first-listed side's score over every game, and whether it differs from 1/2."""
    if not side.height:
        return f"No {what}."
    r = side.row(0, named=True)
    text = (
        f"Side a (each ordered pair is played both ways) scores "
        f"{readings.interval(r['score_a'], r['low'], r['high'], PCT)} over all "
        f"{r['games']:,} {what}; {r['level_share']:.1%} end level on VP (won by the side "
        f"that acted last)"
    )
    if r["low"] <= 0.5 <= r["high"]:
        return text + ": the interval holds 50%, so the data cannot tell the seats apart."
    seat = "first" if r["score_a"] > 0.5 else "second"
    return text + f": the {seat}-listed side has an edge the round robin's design cancels."


def weapon_label(frame: pl.DataFrame) -> pl.DataFrame:
    """A ``label`` column ``unit: weapon`` (a weapon carried by several units is one
    label per unit: each unit's policy picks when it fires)."""
    return frame.with_columns(label=pl.format("{}: {}", "unit", "weapon"))


def weapon_sentence(totals: pl.DataFrame) -> str:
    """Which unit's weapon deals most damage per TL over the round robin, and whether the
    data can tell it from the others; each named with the share of games it was fired in
    (a weapon fired rarely is fired where it pays)."""
    used = weapon_label(totals.filter(pl.col("tl") > 0)).with_columns(
        label=pl.format(
            "{} (fired in {}% of its games)",
            "label",
            (pl.col("used_share") * 100).round(0).cast(pl.Int64),
        )
    )
    return leader_sentence(
        used,
        "label",
        value="damage_per_tl",
        what="weapon",
        verb="deals",
        fmt=NUM,
        where="per Timeline space spent on it",
    )


def unit_tl_sentence(standings: pl.DataFrame) -> str:
    """Which unit deals most damage per TL spent on attacks over the round robin."""
    return leader_sentence(
        standings,
        "unit",
        value="damage_per_tl",
        low="dpt_low",
        high="dpt_high",
        what="unit",
        verb="deals",
        fmt=NUM,
        where="per Timeline space spent attacking",
    )


def squad_sentence(squads: SquadStudy) -> str:
    """The best squad, and its mean VP margin over the field."""
    text = extreme_sentence(squads.standings, True, "squad")
    top = squads.standings.sort("score", descending=True).row(0, named=True)
    return (
        text + f" It scores {top['vp']:.1f} VP a game on average and concedes "
        f"{top['vp_against']:.1f}."
    )


# ---- the exact dice odds -------------------------------------------------------------------


def at_least_hits(hits: pl.DataFrame) -> pl.DataFrame:
    """From the exact ``hits`` table (dice, accuracy, crit_from, hits, crits, p): per dice,
    accuracy, crit_from and k = 1..dice, P(at least k hits) (``p_at_least``; crits count
    as hits), with the attack's expected hits (``mean_hits``) and P(at least one crit)
    (``p_crit``) beside each row. Floats (the chart's); the exact fractions are in
    hits.csv."""
    p = float_column(hits, "p")
    keys = ["dice", "accuracy", "crit_from"]
    base = hits.select(*keys, "hits", "crits", pl.col(p).cast(pl.Float64).alias("p"))
    per = base.group_by(*keys, "hits").agg(pl.col("p").sum()).sort(*keys, "hits")
    tail = per.with_columns(p_at_least=pl.col("p").reverse().cum_sum().reverse().over(keys)).filter(
        pl.col("hits") >= 1
    )
    stats = base.group_by(keys).agg(
        mean_hits=(pl.col("hits") * pl.col("p")).sum(),
        p_crit=pl.col("p").filter(pl.col("crits") >= 1).sum(),
    )
    full = pl.DataFrame({"dice": range(1, int(hits["dice"].max() or 0) + 1)})
    grid = (
        hits.select(keys)
        .unique()
        .join(full.rename({"dice": "k"}), how="cross")
        .filter(pl.col("k") <= pl.col("dice"))
    )
    return (
        grid.join(
            tail.select(*keys, pl.col("hits").alias("k"), "p_at_least"), on=[*keys, "k"], how="left"
        )
        .with_columns(pl.col("p_at_least").fill_null(0.0))
        .join(stats, on=keys, how="left")
        .sort(*keys, "k")
    )


def defeat_odds(defeat: pl.DataFrame) -> pl.DataFrame:
    """The exact ``defeat`` table as the chart reads it: dice, accuracy, crit_from,
    shields, hp and P(defeat) as a float (rounded to 4 places)."""
    p = float_column(defeat, "p_defeat")
    return defeat.select(
        "dice",
        "accuracy",
        "crit_from",
        "shields",
        "hp",
        pl.col(p).cast(pl.Float64).round(4).alias("p_defeat"),
    )


def mean_damage(damage: pl.DataFrame, accuracy: int = 0, effect: str = "plain") -> pl.DataFrame:
    """From the exact ``damage`` table (dice, accuracy, shields, effect, damage, p): the
    expected combat damage of one attack at ``accuracy`` with crit ``effect``, a row per
    dice, a column per active Shields (``shields_0`` ...)."""
    p = float_column(damage, "p")
    rows = damage.filter((pl.col("accuracy") == accuracy) & (pl.col("effect") == effect))
    mean = rows.group_by("dice", "shields").agg(
        (pl.col("damage") * pl.col(p).cast(pl.Float64)).sum().alias("mean")
    )
    wide = mean.with_columns(pl.format("shields_{}", "shields").alias("column")).pivot(
        on="column", index="dice", values="mean", sort_columns=True
    )
    return wide.sort("dice")


# ---- flags and sections ---------------------------------------------------------------------


def study_flags(study: Study, limits: Mapping[str, Any]) -> list:
    """Units outside ``unit_score`` (limits.toml) over the duel round robin."""
    if "unit_score" not in limits:
        return []
    return score_flags(study.standings, limits["unit_score"], study.caption)


def _ul(items: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in items) + "</ul>"


def _round(frame: pl.DataFrame, digits: int = 4) -> pl.DataFrame:
    return frame.with_columns(pl.col(pl.Float64, pl.Float32).round(digits))


def _wide(
    frame: pl.DataFrame, row: str, column: str, cell: str, order: Sequence[str]
) -> pl.DataFrame:
    """``frame`` pivoted: a row per ``row`` value, a column per ``column`` value, both in
    ``order``, each cell the ``cell`` text."""
    wide = frame.pivot(on=column, index=row, values=cell)
    cols = [c for c in order if c in wide.columns]
    rank = {name: k for k, name in enumerate(order)}
    return (
        wide.with_columns(pl.col(row).replace_strict(rank, default=len(rank)).alias("_rank"))
        .sort("_rank")
        .select(row, *cols)
    )


def matrix_table(matchups: pl.DataFrame, order: Sequence[str], key: str = "unit") -> pl.DataFrame:
    """The matrix as text: a row per unit (squad), a column per opponent, each cell the
    score with its interval (``62% (57–66)``)."""
    pct = [(pl.col(c) * 100).round(0).cast(pl.Int64) for c in ("score", "low", "high")]
    cell = pl.when(pl.col("mirror")).then(pl.lit("50% mirror"))
    text = matchups.with_columns(cell=cell.otherwise(pl.format("{}% ({}–{})", *pct)))
    return _wide(text, key, "opponent", "cell", order)


def damage_table(damage: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """Damage per TL as text: ``1.23 (1.10–1.36)`` per unit (row) against opponent."""
    nums = [
        pl.col(c).round(2).cast(pl.String).fill_null("-") for c in ("damage_per_tl", "low", "high")
    ]
    return _wide(
        damage.with_columns(cell=pl.format("{} ({}–{})", *nums)), "unit", "opponent", "cell", order
    )


def _plain(column: str, digits: int = 1) -> pl.Expr:
    """A number as text, without a trailing ``.0``."""
    return pl.col(column).round(digits).cast(pl.String).str.replace(r"\.0$", "")


def defeat_table(defeat: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """Time to the first defeat as text: ``t9 (8–10), 84%``: the median time, its
    interval, and the share of games with a defeat; ``none`` when there was none."""
    med = [_plain(c) for c in ("median", "median_low", "median_high")]
    share = (pl.col("share") * 100).round(0).cast(pl.Int64)
    text = defeat.with_columns(
        cell=pl.when(pl.col("defeats") > 0)
        .then(pl.format("t{} ({}–{}), {}%", *med, share))
        .otherwise(pl.lit("none"))
    )
    return _wide(text, "unit", "opponent", "cell", order)


def squad_table(matchups: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """Squad matchups as text: ``VP 7.1–4.3, 64%``: mean VP scored and conceded over a
    game and the win rate (a mirror: VP only)."""
    vp = [pl.col(c).round(1).cast(pl.String) for c in ("vp", "vp_against")]
    win = (pl.col("score") * 100).round(0).cast(pl.Int64)
    text = matchups.with_columns(
        cell=pl.when(pl.col("mirror"))
        .then(pl.format("VP {}–{}, mirror", *vp))
        .otherwise(pl.format("VP {}–{}, {}%", *vp, win))
    )
    return _wide(text, "squad", "opponent", "cell", order)


MATRIX_TEXT = (
    "<p>Each cell: the row unit's score against the column unit, both cells of the matchup "
    "pooled (the row unit as side a and as side b), each game counted once. A mirror is 50% "
    "by construction. Hover a cell for its 95% Wilson interval, games, mean VP and damage "
    "per TL. Rows and columns in score order.</p>"
)
DAMAGE_TEXT = (
    "<p>Each cell: the damage the row unit dealt the column unit (combat and collision) per "
    "Timeline space it spent on attacks, over every game of the matchup (both cells pooled, "
    "a mirror from side a). A ratio estimator: the damage summed over the games divided by "
    "the TL summed over the same games; its 95% interval is the ratio plus or minus 1.96 "
    "standard errors by the delta method, each game an independent draw "
    "(analysis/alphaside/queries.py). Shields, HP, cards and the Timeline all enter: this is "
    "the damage a Timeline tick buys in play.</p>"
)
DEFEAT_TEXT = (
    "<p>Each cell: the median Timeline time (1..20: space + 10 x (Phase - 1)) at which the "
    "row unit first defeated the column unit, among the games in which it did, with the "
    "share of games in which it did. The median's 95% interval is distribution-free (order "
    "statistics); the share's is Wilson's. Faint cells: few games with a defeat; empty "
    "cells: none.</p>"
)
WEAPONS_TEXT = (
    "<p>Each unit's weapons in the duels: the damage dealt with the weapon per Timeline "
    "space spent firing it over the whole round robin (ratio estimator, delta-method 95% "
    "interval), {exact}. They differ by design: in play a target's Shields may already be "
    "down (a cheap weapon moves its unit's token little, so it often acts again before the "
    "target's next activation brings its Shields back), every attack plays a Tactics card "
    "(+Accuracy, +dice, crits on 7-10, +Damage: a fixed bonus weighs most on a cheap "
    "weapon) and abilities add, Fracture adds 3, a push adds collisions, and the policy "
    "picks the weapon for the range it is at.</p>"
)
SQUADS_TEXT = (
    "<p>Each cell: the mean VP the row squad scored and conceded over a game (each with a "
    "95% interval, mean +/- 1.96 standard errors, in the tooltip), the colour its win rate "
    "with its Wilson interval, both cells of the matchup pooled.</p>"
)
HITS_TEXT = (
    "<p>Exact, no simulation (the hits table, sims/alphaside/exact.py): P(at least k hits) "
    "of one attack of 1 to 20 d10, for each Accuracy (-3..+3) and crit threshold (9-10, "
    "the rule, or 7-10 where an ability counts 7-8), crits counted as hits. Pick the "
    "Accuracy and the threshold under the chart; hover a cell for the expected hits and "
    "P(at least one crit).</p>"
)
HITS_LINKS = (
    "<p class='small'>Every (hits, crits) of every attack with its exact fraction: "
    "<a href='tables/alphaside/hits.csv'>hits.csv</a>; damage through Shields with each "
    "crit effect: <a href='tables/alphaside/damage.csv'>damage.csv</a>.</p>"
)
DEFEAT_ODDS_TEXT = (
    "<p>Exact, no simulation (the defeat table): P(one attack defeats a unit), i.e. "
    "P(hits - Shields >= HP), no Damage+X, Fracture or Disarm, by the dice rolled and the "
    "unit's HP, one panel per active Shields (0..3). Pick the Accuracy and the crit "
    "threshold under the chart.</p>"
)
DEFEAT_ODDS_LINKS = (
    "<p class='small'>The exact fractions: <a href='tables/alphaside/defeat.csv'>defeat.csv"
    "</a>; within 1..5 attacks: <a href='tables/alphaside/defeat_over_attacks.csv'>"
    "defeat_over_attacks.csv</a>.</p>"
)
UNIT_COLUMNS = [
    "unit",
    "games",
    "wins",
    "losses",
    "score",
    "low",
    "high",
    "vp",
    "vp_against",
    "damage_per_tl",
    "dpt_low",
    "dpt_high",
    "hits_per_attack",
]
SQUAD_COLUMNS = [
    "squad",
    "games",
    "wins",
    "losses",
    "score",
    "low",
    "high",
    "vp",
    "vp_against",
    "damage_per_tl",
    "dpt_low",
    "dpt_high",
]
WEAPON_COLUMNS = [
    "unit",
    "weapon",
    "slot",
    "used_share",
    "damage",
    "tl",
    "damage_per_tl",
    "low",
    "high",
    "exact_per_tl",
]


def summary_section(
    study: Study, squads: SquadStudy | None, limits: Mapping[str, Any], robustness: Any = None
) -> Section:
    """What a designer should know first: the extremes, the seats, the most damage per
    TL, the best squad, the flags."""
    limit = limits.get("unit_score")
    band = (limit.min, limit.max) if limit is not None else None
    cells = study.cells
    intro = (
        f"<p>{study.games:,} engagements: each of the {study.standings.height} units of "
        f"units.toml against every unit, itself included, in every ordered pair "
        f"({cells.height} cells, {int(cells['games'].min()):,} games each), one unit a "
        f"side over a whole game (two Phases on the Timeline). A score is wins over "
        f"games (equal VP goes to the side that acted last, so there are no draws), with "
        f"its 95% Wilson interval; a unit's score over the round robin leaves its mirror "
        f"out (a mirror scores one half by construction).</p>"
    )
    game = GAME
    items = [
        extreme_sentence(study.standings, True) + tag_text(robustness, "best:unit", game),
        extreme_sentence(study.standings, False) + tag_text(robustness, "worst:unit", game),
        side_sentence(study.side_a, "engagements") + tag_text(robustness, "side_a:duel", game),
        unit_tl_sentence(study.standings),
        weapon_sentence(study.weapon_totals),
    ]
    if squads is not None:
        items.append(squad_sentence(squads) + tag_text(robustness, "best:squad", game))
    if limit is not None:
        flags = study_flags(study, limits)
        items.append(
            f"{len(flags)} balance flag(s) from this run are listed at the top of "
            f"the page: units whose score over the duel round robin leaves "
            f"{limit.min:.0%} to {limit.max:.0%} (limits.toml, {limit.provenance}), "
            f"only where the whole 95% interval lies outside."
        )
    note = " Wilson 95% intervals; dashed: 50%" + ("; red: the unit_score limits." if band else ".")
    chart = charts.standings_chart(study.standings, study.caption + note, study.order, band)
    table = _round(study.standings.sort("score", descending=True), 3)
    data = {"standings": _round(study.standings), "side_a": _round(study.side_a)}
    return Section(
        "What should a designer know first?",
        [intro + _ul(items), chart, frame_table(table, UNIT_COLUMNS)],
        data,
    )


def matrix_section(study: Study) -> Section:
    """The matchup matrix with Wilson intervals."""
    chart = charts.matchup_heatmap(
        study.matchups,
        study.caption + " Wilson 95% interval of each score in the tooltip.",
        study.order,
    )
    note = (
        "<p class='small'>Score (95% Wilson interval), in per cent. The ordered cells "
        "(side a's score in each) are in cells.csv.</p>"
    )
    data = {"matchups": _round(study.matchups), "cells": _round(study.cells)}
    return Section(
        "The matchup matrix: how does each unit fare against each other?",
        [MATRIX_TEXT, chart, frame_table(matrix_table(study.matchups, study.order)), note],
        data,
    )


def damage_section(study: Study) -> Section:
    """Damage per TL spent on attacks, per pair."""
    note = " Ratio estimator, delta-method 95% intervals in the tooltip."
    chart = charts.damage_heatmap(study.damage, study.caption + note, study.order)
    note = (
        "<p class='small'>Damage per TL (95% interval); the sums behind each ratio and "
        "the share of games in which the unit attacked at all are in "
        "damage_per_tl.csv.</p>"
    )
    return Section(
        "Damage per Timeline space: what does each unit deal for the TL it spends?",
        [DAMAGE_TEXT, chart, frame_table(damage_table(study.damage, study.order)), note],
        {"damage_per_tl": _round(study.damage)},
    )


def defeat_section(study: Study) -> Section:
    """Time to the first defeat, per pair."""
    chart = charts.defeat_time_heatmap(
        study.defeat,
        study.caption + " Median time of the "
        "first defeat; its interval and the share of games in "
        "the tooltip.",
        study.order,
    )
    note = (
        "<p class='small'>Each cell: t median (95% interval), share of games with a "
        "defeat. Every number with its interval, and the mean time, are in "
        "time_to_defeat.csv.</p>"
    )
    return Section(
        "Time to defeat: how soon does each unit first defeat each other?",
        [DEFEAT_TEXT, chart, frame_table(defeat_table(study.defeat, study.order)), note],
        {"time_to_defeat": _round(study.defeat)},
    )


def weapons_section(study: Study) -> Section:
    """Each unit's weapons: damage per TL in play beside the exact expectation."""
    totals = study.weapon_totals
    exact = (
        "beside the exact expected damage per TL of one attack on the opponent at full "
        "HP with its Shields up (the weapon_vs_unit table, sims/alphaside/exact.py; "
        "over the round robin, its mean over the units)"
        if "exact_per_tl" in totals.columns
        else "(the exact weapon_vs_unit table is not loaded here)"
    )
    text = f"<p>{html.escape(weapon_sentence(totals))}</p>" + WEAPONS_TEXT.format(exact=exact)
    chart = charts.weapons_chart(
        weapon_label(totals),
        study.caption + " Simulated: ratio "
        "estimator with delta-method 95% intervals; red tick: exact, "
        "mean over the units.",
    )
    table = _round(totals.sort("damage_per_tl", descending=True, nulls_last=True), 3)
    note = (
        "<p class='small'>Per opponent, with the exact damage, P(defeat) and damage per "
        "TL of one attack beside each: weapons.csv; over the round robin: "
        "weapon_totals.csv. used_share: the share of games in which the unit fired that "
        "weapon.</p>"
    )
    columns = [c for c in WEAPON_COLUMNS if c in table.columns]
    data = {"weapons": _round(study.weapons), "weapon_totals": _round(totals)}
    return Section(
        "Which weapons deal the most per Timeline space spent?",
        [text, chart, frame_table(table, columns), note],
        data,
    )


def squads_section(sq: SquadStudy) -> Section:
    """VP over a game and the win rate, squad against squad."""
    words = f"{squad_sentence(sq)} {side_sentence(sq.side_a)}"
    text = (
        f"<p>{sq.games:,} whole games between the {sq.standings.height} squads of "
        f"squads.toml, every ordered pair ({sq.cells.height} cells). "
        f"{html.escape(words)}</p>"
    )
    note = " Wilson 95% intervals of the win rate, normal 95% intervals of the mean VP."
    chart = charts.squad_heatmap(sq.matchups, sq.caption + note, sq.order)
    table = _round(sq.standings.sort("score", descending=True), 3)
    note = (
        "<p class='small'>VP scored–conceded and the win rate of the row squad; every "
        "interval in squad_matchups.csv.</p>"
    )
    data = {
        "squad_matchups": _round(sq.matchups),
        "squad_cells": _round(sq.cells),
        "squad_standings": _round(sq.standings),
        "squad_side_a": _round(sq.side_a),
    }
    return Section(
        "Squads: how many VP does each squad score over a game?",
        [
            text + SQUADS_TEXT,
            chart,
            frame_table(squad_table(sq.matchups, sq.order)),
            frame_table(table, SQUAD_COLUMNS),
            note,
        ],
        data,
    )


def study_sections(
    study: Study,
    squads: SquadStudy | None = None,
    frames: Mapping[str, pl.DataFrame] | None = None,
    limits: Mapping[str, Any] | None = None,
    robustness: Any = None,
) -> list[Section]:
    """The studies' sections, in the page's order (the squads and the exact odds when
    given); the summary's headlines carry their tags from ``robustness``."""
    frames, limits = frames or {}, limits or {}
    out = [
        summary_section(study, squads, limits, robustness),
        matrix_section(study),
        damage_section(study),
        defeat_section(study),
        weapons_section(study),
    ]
    if squads is not None:
        out.append(squads_section(squads))
    exact = exact_caption(source="exact")
    if "hits" in frames:
        chart = charts.hits_chart(at_least_hits(frames["hits"]), exact)
        out.append(
            Section(
                "The exact dice odds: how many hits does an attack roll?",
                [HITS_TEXT, chart, HITS_LINKS],
            )
        )
    if "defeat" in frames:
        chart = charts.defeat_chart(defeat_odds(frames["defeat"]), exact)
        out.append(
            Section(
                "The exact odds of a defeat: one attack against HP and Shields",
                [DEFEAT_ODDS_TEXT, chart, DEFEAT_ODDS_LINKS],
            )
        )
    return out
