"""Alluvion Knights charts (Altair): each titled with the question it answers, its subtitle
the caption (how the numbers were computed), axes in the rulebook's words (loadout,
Attack pool, Defense pool), every simulated estimate drawn with its 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from analysis.charts import need, one_row_per, score_grid, title, values

CHASSIS_COLORS = alt.Scale(scheme="dark2")
RELATIONS = ("dominates", "dominated by", "neither")
RELATION_COLORS = alt.Scale(domain=list(RELATIONS), range=["#2166ac", "#b2182b", "#f0f0f0"])


def _pct_interval(low: str = "low", high: str = "high") -> pl.Expr:
    """The interval as one readable tooltip line (plain data, no Vega expression)."""
    return pl.format("{}% – {}%", (pl.col(low) * 100).round(1), (pl.col(high) * 100).round(1))


def matchup_heatmap(
    matchups: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.LayerChart:
    """The row loadout's score (wins + draws / 2 of its duels) against the column loadout,
    both cells of the matchup pooled (``queries.matchups`` of one run), the 95% Wilson
    interval, duels and results in the tooltip; ``order`` sorts both axes (e.g. by
    rating). A mirror is 50% by construction."""
    name = "matchup_heatmap"
    need(
        matchups,
        [
            "loadout",
            "opponent",
            "mirror",
            "score",
            "low",
            "high",
            "duels",
            "wins",
            "draws",
            "losses",
        ],
        name,
    )
    one_row_per(matchups, ["loadout", "opponent"], name)
    order = list(order or sorted(matchups["loadout"].unique().to_list()))
    frame = matchups.with_columns(
        interval=pl.when(pl.col("mirror"))
        .then(pl.lit("50% by construction (a mirror)"))
        .otherwise(_pct_interval())
    )
    tooltip = [
        alt.Tooltip("loadout:N", title="Loadout (row)"),
        alt.Tooltip("opponent:N", title="Against (column)"),
        alt.Tooltip("score:Q", title="Score of the row loadout (draws count half)", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
        alt.Tooltip("duels:Q", title="Duels", format=","),
        alt.Tooltip("wins:Q", title="Wins", format=","),
        alt.Tooltip("draws:Q", title="Draws", format=","),
        alt.Tooltip("losses:Q", title="Losses", format=","),
        *(
            [alt.Tooltip("mean_rounds:Q", title="Mean rounds", format=".2f")]
            if "mean_rounds" in frame.columns
            else []
        ),
    ]
    return score_grid(
        frame,
        row="loadout",
        column="opponent",
        score="score",
        row_sort=order,
        column_sort=order,
        row_title="Loadout",
        column_title="Against",
        legend="Score of the row loadout",
        tooltip=tooltip,
        question="How does each loadout fare against each other loadout?",
        caption=caption,
        step=(56, 36),
    )


def standings_chart(
    standings: pl.DataFrame,
    caption: str,
    order: Sequence[str] | None = None,
    limit: tuple[float, float] | None = None,
) -> alt.LayerChart:
    """Each loadout's score over the whole round robin with its 95% Wilson interval;
    ``limit`` (min, max) draws the limits.toml band as red rules."""
    name = "standings_chart"
    need(standings, ["loadout", "score", "low", "high", "duels"], name)
    one_row_per(standings, ["loadout"], name)
    order = list(order or standings.sort("score", descending=True)["loadout"])
    frame = standings.with_columns(interval=_pct_interval())
    base = alt.Chart(values(frame)).encode(
        y=alt.Y("loadout:N", title="Loadout", sort=order),
        tooltip=[
            alt.Tooltip("loadout:N", title="Loadout"),
            alt.Tooltip("score:Q", title="Score (draws count half)", format=".1%"),
            alt.Tooltip("interval:N", title="Wilson 95% interval"),
            alt.Tooltip("duels:Q", title="Duels", format=","),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X(
            "low:Q",
            title="Score over the round robin (wins + draws / 2)",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format=".0%"),
        ),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70, color="#333").encode(x="score:Q")
    layers = [bars, points]
    half = alt.Chart(values([{"x": 0.5}])).mark_rule(color="#999", strokeDash=[4, 4])
    layers.append(half.encode(x="x:Q"))
    if limit is not None:
        rules = alt.Chart(values([{"x": limit[0]}, {"x": limit[1]}])).mark_rule(color="#d62728")
        layers.append(rules.encode(x="x:Q"))
    return alt.layer(*layers).properties(
        width=420,
        height=alt.Step(26),
        title=title("Which loadout wins most over the whole round robin?", caption),
    )


def ratings_chart(fit: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Bradley-Terry ratings (Elo points, 95% interval) best first (``analysis.ratings.
    bradley_terry`` with ``team`` renamed ``loadout``)."""
    name = "ratings_chart"
    need(fit, ["loadout", "rating", "low", "high", "expected_score"], name)
    one_row_per(fit, ["loadout"], name)
    order = fit.sort("rating", descending=True)["loadout"].to_list()
    base = alt.Chart(values(fit)).encode(
        y=alt.Y("loadout:N", title="Loadout", sort=order),
        tooltip=[
            alt.Tooltip("loadout:N", title="Loadout"),
            alt.Tooltip("rating:Q", title="Rating (Elo points)", format="+.0f"),
            alt.Tooltip("low:Q", title="95% low", format="+.0f"),
            alt.Tooltip("high:Q", title="95% high", format="+.0f"),
            alt.Tooltip("expected_score:Q", title="Expected score against the field", format=".1%"),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X("low:Q", title="Bradley-Terry rating (Elo points, centred on 0)"), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=70, color="#333").encode(x="rating:Q")
    zero = alt.Chart(values([{"x": 0}])).mark_rule(color="#999", strokeDash=[4, 4]).encode(x="x:Q")
    return (bars + points + zero).properties(
        width=420,
        height=alt.Step(26),
        title=title("How do the loadouts rank?", caption),
    )


def dominance_chart(
    pairs: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.Chart:
    """For each ordered pair of loadouts whether the row dominates the column, is
    dominated by it, or neither (``report.dominance``), with the evidence in the
    tooltip: against how many opponents the row's score is at least the column's, and
    against how many their 95% intervals lie apart, each way."""
    name = "dominance_chart"
    need(
        pairs,
        [
            "loadout",
            "other",
            "dominates",
            "dominated",
            "at_least",
            "apart_above",
            "apart_below",
            "opponents",
        ],
        name,
    )
    one_row_per(pairs, ["loadout", "other"], name)
    order = list(order or sorted(pairs["loadout"].unique().to_list()))
    frame = pairs.with_columns(
        relation=pl.when(pl.col("dominates"))
        .then(pl.lit(RELATIONS[0]))
        .when(pl.col("dominated"))
        .then(pl.lit(RELATIONS[1]))
        .otherwise(pl.lit(RELATIONS[2]))
    )
    return (
        alt.Chart(values(frame))
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            x=alt.X(
                "other:N",
                title="Other loadout",
                sort=order,
                axis=alt.Axis(labelAngle=-30, orient="top"),
            ),
            y=alt.Y("loadout:N", title="Loadout", sort=order),
            color=alt.Color("relation:N", title="Row loadout", scale=RELATION_COLORS),
            tooltip=[
                alt.Tooltip("loadout:N", title="Loadout (row)"),
                alt.Tooltip("other:N", title="Other (column)"),
                alt.Tooltip("relation:N", title="Row loadout"),
                alt.Tooltip("at_least:Q", title="Opponents where row's score >= other's"),
                alt.Tooltip("apart_above:Q", title="... row's interval wholly above"),
                alt.Tooltip("apart_below:Q", title="... row's interval wholly below"),
                alt.Tooltip("opponents:Q", title="Opponents compared"),
            ],
        )
        .properties(
            width=alt.Step(56),
            height=alt.Step(30),
            title=title("Does any loadout dominate another?", caption),
        )
    )


def pools_chart(pools: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """Each loadout's score over the round robin (95% Wilson interval) against the dice
    in its Attack pool and in its Defense pool, one panel each, coloured by chassis."""
    name = "pools_chart"
    need(
        pools,
        [
            "loadout",
            "chassis",
            "attack_dice",
            "defense_dice",
            "attack_pool",
            "defense_pool",
            "score",
            "low",
            "high",
        ],
        name,
    )
    one_row_per(pools, ["loadout"], name)
    frame = pools.with_columns(interval=_pct_interval())
    tooltip = [
        alt.Tooltip("loadout:N", title="Loadout"),
        alt.Tooltip("chassis:N", title="Chassis"),
        alt.Tooltip("attack_pool:N", title="Attack pool"),
        *(
            [alt.Tooltip("rocket_pool:N", title="Rockets")]
            if "rocket_pool" in frame.columns
            else []
        ),
        alt.Tooltip("defense_pool:N", title="Defense pool"),
        *(
            [
                alt.Tooltip("move_pool:N", title="Move pool"),
                alt.Tooltip("spot_pool:N", title="Spot pool"),
            ]
            if {"move_pool", "spot_pool"} <= set(frame.columns)
            else []
        ),
        alt.Tooltip("score:Q", title="Score", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
    ]
    panels = []
    for x, x_title in (
        ("attack_dice", "Attack dice (weapon systems; rockets apart)"),
        ("defense_dice", "Defense dice (Resistive and ECM)"),
    ):
        top = int(frame[x].max() or 0) + 1
        base = alt.Chart(values(frame)).encode(
            x=alt.X(
                f"{x}:Q",
                title=x_title,
                scale=alt.Scale(domain=[0, top]),
                axis=alt.Axis(tickMinStep=1, format="d"),
            ),
            color=alt.Color("chassis:N", title="Chassis", scale=CHASSIS_COLORS),
            tooltip=tooltip,
        )
        bars = base.mark_errorbar(ticks=True).encode(
            y=alt.Y(
                "low:Q",
                title="Score over the round robin",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format=".0%"),
            ),
            y2="high:Q",
        )
        points = base.mark_point(filled=True, size=70).encode(y="score:Q")
        labels = base.mark_text(align="left", dx=7, fontSize=11).encode(
            y="score:Q", text="loadout:N"
        )
        panels.append((bars + points + labels).properties(width=300, height=280))
    return alt.hconcat(*panels).properties(
        title=title("How do Attack and Defense dice trade off?", caption)
    )


def exact_odds_chart(
    odds: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.LayerChart:
    """Exact P(hit) of one attack, spot 0: the row loadout's Attack pool (its weapon
    systems) against the column loadout's Defense pool (``report.exact_odds``), the
    pools and the simulated hit share in the tooltip."""
    name = "exact_odds_chart"
    need(odds, ["attacker", "defender", "attack_pool", "defense_pool", "p_hit"], name)
    one_row_per(odds, ["attacker", "defender"], name)
    order = list(order or sorted(odds["attacker"].unique().to_list()))
    tooltip = [
        alt.Tooltip("attacker:N", title="Attacker (row)"),
        alt.Tooltip("attack_pool:N", title="Attack pool"),
        alt.Tooltip("defender:N", title="Defender (column)"),
        alt.Tooltip("defense_pool:N", title="Defense pool"),
        alt.Tooltip("p_hit:Q", title="Exact P(hit), spot 0", format=".1%"),
        *(
            [alt.Tooltip("hit_share:Q", title="Simulated hit share in the duels", format=".1%")]
            if "hit_share" in odds.columns
            else []
        ),
    ]
    base = alt.Chart(values(odds)).encode(
        x=alt.X(
            "defender:N",
            title="Defending loadout (its Defense pool)",
            sort=order,
            axis=alt.Axis(labelAngle=-30, orient="top"),
        ),
        y=alt.Y("attacker:N", title="Attacking loadout (its Attack pool)", sort=order),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            "p_hit:Q",
            scale=alt.Scale(scheme="greens", domain=[0, 1]),
            legend=alt.Legend(title="P(hit)", format=".0%"),
        ),
        tooltip=tooltip,
    )
    labels = base.mark_text(fontSize=12).encode(
        text=alt.Text("p_hit:Q", format=".0%"),
        color=alt.when(alt.datum.p_hit > 0.6)
        .then(alt.value("white"))
        .otherwise(alt.value("black")),
        tooltip=tooltip,
    )
    return (cells + labels).properties(
        title=title("How often does one attack hit, pool against pool?", caption),
        width=alt.Step(56),
        height=alt.Step(36),
    )
