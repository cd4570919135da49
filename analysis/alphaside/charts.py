"""ALPHASIDE charts (Altair): each titled with the question it answers, its subtitle the
caption (how the numbers were computed), axes in the rulebook's words (unit, squad,
Timeline space, Shields, Accuracy), every simulated estimate drawn with its 95% interval.
The exact dice odds charts carry their own Accuracy and crit threshold pickers (Vega
parameters bound to inputs: the page stays offline).
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from analysis.charts import need, one_row_per, score_grid, title, values

ACCURACIES = list(range(-3, 4))
CRIT_FROMS = [9, 7]


def _pct_interval(low: str = "low", high: str = "high") -> pl.Expr:
    """The interval as one readable tooltip line (plain data, no Vega expression)."""
    return pl.format("{}% – {}%", (pl.col(low) * 100).round(1), (pl.col(high) * 100).round(1))


def _num_interval(low: str = "low", high: str = "high", digits: int = 2) -> pl.Expr:
    return pl.format("{} – {}", pl.col(low).round(digits), pl.col(high).round(digits))


def _order(frame: pl.DataFrame, column: str, order: Sequence[str] | None) -> list[str]:
    return list(order or sorted(frame[column].unique().to_list()))


def _axes(row: str, column: str, order: Sequence[str], row_title: str, column_title: str) -> dict:
    return {
        "x": alt.X(
            f"{column}:N",
            title=column_title,
            sort=list(order),
            axis=alt.Axis(labelAngle=-30, orient="top"),
        ),
        "y": alt.Y(f"{row}:N", title=row_title, sort=list(order)),
    }


def matchup_heatmap(
    matchups: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.LayerChart:
    """The row unit's score (wins over games) against the column unit, both cells of the
    matchup pooled (``queries.matchups`` of one run), the 95% Wilson interval, games,
    mean VP and damage per TL in the tooltip. A mirror is 50% by construction."""
    name = "matchup_heatmap"
    need(
        matchups,
        [
            "unit",
            "opponent",
            "mirror",
            "score",
            "low",
            "high",
            "games",
            "wins",
            "losses",
            "vp",
            "vp_against",
            "damage",
            "tl",
        ],
        name,
    )
    one_row_per(matchups, ["unit", "opponent"], name)
    order = _order(matchups, "unit", order)
    frame = matchups.with_columns(
        interval=pl.when(pl.col("mirror"))
        .then(pl.lit("50% by construction (a mirror)"))
        .otherwise(_pct_interval()),
        per_tl=pl.col("damage") / pl.col("tl"),
    )
    tooltip = [
        alt.Tooltip("unit:N", title="Unit (row)"),
        alt.Tooltip("opponent:N", title="Against (column)"),
        alt.Tooltip("score:Q", title="Score of the row unit", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
        alt.Tooltip("games:Q", title="Games", format=","),
        alt.Tooltip("wins:Q", title="Wins", format=","),
        alt.Tooltip("losses:Q", title="Losses", format=","),
        alt.Tooltip("vp:Q", title="Mean VP scored", format=".2f"),
        alt.Tooltip("vp_against:Q", title="Mean VP conceded", format=".2f"),
        alt.Tooltip("per_tl:Q", title="Damage per TL spent attacking", format=".2f"),
    ]
    return score_grid(
        frame,
        row="unit",
        column="opponent",
        score="score",
        row_sort=order,
        column_sort=order,
        row_title="Unit",
        column_title="Against",
        legend="Score of the row unit",
        tooltip=tooltip,
        question="How does each unit fare against each other unit?",
        caption=caption,
        step=(56, 36),
    )


def standings_chart(
    standings: pl.DataFrame,
    caption: str,
    order: Sequence[str] | None = None,
    limit: tuple[float, float] | None = None,
    key: str = "unit",
) -> alt.LayerChart:
    """Each unit's (squad's: ``key``) score over the whole round robin with its 95% Wilson
    interval; ``limit`` (min, max) draws the limits.toml band as red rules."""
    name = "standings_chart"
    need(standings, [key, "score", "low", "high", "games"], name)
    one_row_per(standings, [key], name)
    order = list(order or standings.sort("score", descending=True)[key])
    frame = standings.with_columns(interval=_pct_interval())
    word = key.capitalize()
    base = alt.Chart(values(frame)).encode(
        y=alt.Y(f"{key}:N", title=word, sort=order),
        tooltip=[
            alt.Tooltip(f"{key}:N", title=word),
            alt.Tooltip("score:Q", title="Score (wins over games)", format=".1%"),
            alt.Tooltip("interval:N", title="Wilson 95% interval"),
            alt.Tooltip("games:Q", title="Games", format=","),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X(
            "low:Q",
            title="Score over the round robin (wins over games)",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format=".0%"),
        ),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70, color="#333").encode(x="score:Q")
    half = alt.Chart(values([{"x": 0.5}])).mark_rule(color="#999", strokeDash=[4, 4])
    layers = [bars, points, half.encode(x="x:Q")]
    if limit is not None:
        rules = alt.Chart(values([{"x": limit[0]}, {"x": limit[1]}])).mark_rule(color="#d62728")
        layers.append(rules.encode(x="x:Q"))
    return alt.layer(*layers).properties(
        width=420,
        height=alt.Step(26),
        title=title(f"Which {key} wins most over the whole round robin?", caption),
    )


def damage_heatmap(
    damage: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.LayerChart:
    """Damage per Timeline space spent on attacks, the row unit against the column unit
    (``queries.damage_per_tl`` of one run), the 95% interval, sums and the share of games
    with an attack in the tooltip."""
    name = "damage_heatmap"
    need(
        damage,
        [
            "unit",
            "opponent",
            "damage_per_tl",
            "low",
            "high",
            "games",
            "damage",
            "tl",
            "attacked_share",
        ],
        name,
    )
    one_row_per(damage, ["unit", "opponent"], name)
    order = _order(damage, "unit", order)
    frame = damage.with_columns(interval=_num_interval())
    tooltip = [
        alt.Tooltip("unit:N", title="Unit (row)"),
        alt.Tooltip("opponent:N", title="Against (column)"),
        alt.Tooltip("damage_per_tl:Q", title="Damage per TL spent attacking", format=".3f"),
        alt.Tooltip("interval:N", title="95% interval (delta method)"),
        alt.Tooltip("damage:Q", title="Damage dealt (sum)", format=","),
        alt.Tooltip("tl:Q", title="TL spent on attacks (sum)", format=","),
        alt.Tooltip("games:Q", title="Games", format=","),
        alt.Tooltip("attacked_share:Q", title="Share of games with an attack", format=".1%"),
    ]
    base = alt.Chart(values(frame)).encode(
        **_axes("unit", "opponent", order, "Attacking unit", "Against")
    )
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            "damage_per_tl:Q",
            scale=alt.Scale(scheme="oranges", zero=True),
            legend=alt.Legend(title="Damage per TL"),
        ),
        tooltip=tooltip,
    )
    labels = base.mark_text(fontSize=11).encode(
        text=alt.Text("damage_per_tl:Q", format=".2f"), tooltip=tooltip
    )
    return (cells + labels).properties(
        title=title(
            "How much damage does each unit deal per Timeline space it spends attacking?", caption
        ),
        width=alt.Step(56),
        height=alt.Step(36),
    )


def defeat_time_heatmap(
    defeat: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.LayerChart:
    """The median Timeline time (1..20) of the row unit's first defeat of the column unit
    among the games with one (``report.time_to_defeat``), its interval, the share of games
    with a defeat (Wilson) and the mean in the tooltip."""
    name = "defeat_time_heatmap"
    need(
        defeat,
        [
            "unit",
            "opponent",
            "median",
            "median_low",
            "median_high",
            "share",
            "share_low",
            "share_high",
            "defeats",
            "games",
            "mean",
        ],
        name,
    )
    one_row_per(defeat, ["unit", "opponent"], name)
    order = _order(defeat, "unit", order)
    frame = defeat.with_columns(
        median_interval=_num_interval("median_low", "median_high", 1),
        share_interval=_pct_interval("share_low", "share_high"),
    )
    tooltip = [
        alt.Tooltip("unit:N", title="Unit (row)"),
        alt.Tooltip("opponent:N", title="Against (column)"),
        alt.Tooltip("median:Q", title="Median time of the first defeat", format=".1f"),
        alt.Tooltip("median_interval:N", title="95% interval (order statistics)"),
        alt.Tooltip("mean:Q", title="Mean time", format=".2f"),
        alt.Tooltip("share:Q", title="Share of games with a defeat", format=".1%"),
        alt.Tooltip("share_interval:N", title="Wilson 95% interval"),
        alt.Tooltip("defeats:Q", title="Games with a defeat", format=","),
        alt.Tooltip("games:Q", title="Games", format=","),
    ]
    base = alt.Chart(values(frame)).encode(**_axes("unit", "opponent", order, "Unit", "Against"))
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            "median:Q",
            scale=alt.Scale(scheme="viridis", domain=[1, 20]),
            legend=alt.Legend(title="Median time (1..20)"),
        ),
        opacity=alt.Opacity(
            "share:Q",
            scale=alt.Scale(domain=[0, 1], range=[0.25, 1]),
            legend=alt.Legend(title="Share with a defeat", format=".0%"),
        ),
        tooltip=tooltip,
    )
    dark = (alt.datum.median < 12) & (alt.datum.share > 0.5)  # viridis is dark below 12
    labels = base.mark_text(fontSize=11).encode(
        text=alt.Text("median:Q", format=".0f"),
        color=alt.when(dark).then(alt.value("white")).otherwise(alt.value("black")),
        tooltip=tooltip,
    )
    return (cells + labels).properties(
        title=title("How soon on the Timeline does each unit first defeat each other?", caption),
        width=alt.Step(56),
        height=alt.Step(36),
    )


def weapons_chart(totals: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Each unit's weapon (``label`` ``unit: weapon``): damage per TL spent firing it over
    the round robin with its 95% interval, and (when given) the exact expected damage per
    TL of one attack, the mean over the units (``exact_per_tl``) as a red tick."""
    name = "weapons_chart"
    need(
        totals,
        ["label", "unit", "weapon", "damage_per_tl", "low", "high", "tl", "used_share"],
        name,
    )
    one_row_per(totals, ["label"], name)
    frame = totals.filter(pl.col("tl") > 0).with_columns(interval=_num_interval())
    exact = "exact_per_tl" in frame.columns
    order = frame.sort("damage_per_tl", descending=True)["label"].to_list()
    tooltip = [
        alt.Tooltip("unit:N", title="Unit"),
        alt.Tooltip("weapon:N", title="Weapon"),
        alt.Tooltip("damage_per_tl:Q", title="Simulated damage per TL", format=".3f"),
        alt.Tooltip("interval:N", title="95% interval (delta method)"),
        *(
            [
                alt.Tooltip(
                    "exact_per_tl:Q", title="Exact, one attack (mean over units)", format=".3f"
                )
            ]
            if exact
            else []
        ),
        alt.Tooltip("used_share:Q", title="Share of games it was fired", format=".1%"),
    ]
    base = alt.Chart(values(frame)).encode(
        y=alt.Y("label:N", title="Unit: weapon", sort=order), tooltip=tooltip
    )
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X("low:Q", title="Damage per Timeline space spent firing it"), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=70, color="#333").encode(x="damage_per_tl:Q")
    layers = [bars, points]
    if exact:
        layers.append(
            base.mark_tick(color="#d62728", thickness=2, size=18).encode(x="exact_per_tl:Q")
        )
    return alt.layer(*layers).properties(
        width=420,
        height=alt.Step(24),
        title=title("Which weapons deal the most damage per Timeline space?", caption),
    )


def squad_heatmap(
    matchups: pl.DataFrame, caption: str, order: Sequence[str] | None = None
) -> alt.LayerChart:
    """The row squad against the column squad: its win rate (colour, Wilson interval in
    the tooltip) and its mean VP scored and conceded over a game (text, 95% intervals in
    the tooltip), both cells pooled (``queries.matchups(key="squad")``)."""
    name = "squad_heatmap"
    need(
        matchups,
        [
            "squad",
            "opponent",
            "mirror",
            "score",
            "low",
            "high",
            "vp",
            "vp_low",
            "vp_high",
            "vp_against",
            "vp_against_low",
            "vp_against_high",
            "margin",
            "margin_low",
            "margin_high",
            "games",
        ],
        name,
    )
    one_row_per(matchups, ["squad", "opponent"], name)
    order = _order(matchups, "squad", order)
    frame = matchups.with_columns(
        interval=pl.when(pl.col("mirror"))
        .then(pl.lit("50% by construction (a mirror)"))
        .otherwise(_pct_interval()),
        vp_interval=_num_interval("vp_low", "vp_high"),
        against_interval=_num_interval("vp_against_low", "vp_against_high"),
        margin_interval=_num_interval("margin_low", "margin_high"),
        text=pl.format("{}–{}", pl.col("vp").round(1), pl.col("vp_against").round(1)),
    )
    tooltip = [
        alt.Tooltip("squad:N", title="Squad (row)"),
        alt.Tooltip("opponent:N", title="Against (column)"),
        alt.Tooltip("score:Q", title="Win rate of the row squad", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
        alt.Tooltip("vp:Q", title="Mean VP scored", format=".2f"),
        alt.Tooltip("vp_interval:N", title="95% interval"),
        alt.Tooltip("vp_against:Q", title="Mean VP conceded", format=".2f"),
        alt.Tooltip("against_interval:N", title="95% interval"),
        alt.Tooltip("margin:Q", title="Mean VP margin", format="+.2f"),
        alt.Tooltip("margin_interval:N", title="95% interval"),
        alt.Tooltip("games:Q", title="Games", format=","),
    ]
    return score_grid(
        frame,
        row="squad",
        column="opponent",
        score="score",
        row_sort=order,
        column_sort=order,
        row_title="Squad",
        column_title="Against",
        legend="Win rate of the row squad",
        tooltip=tooltip,
        question="How many VP does each squad score and concede over a game?",
        caption=caption,
        text="text:N",
        step=(110, 40),
    )


def _pickers() -> tuple[alt.Parameter, alt.Parameter]:
    accuracy = alt.param(
        name="accuracy", value=0, bind=alt.binding_range(min=-3, max=3, step=1, name="Accuracy ")
    )
    crit = alt.param(
        name="crit_from",
        value=9,
        bind=alt.binding_radio(
            options=CRIT_FROMS, labels=["9-10 (the rule)", "7-10"], name="Crits on "
        ),
    )
    return accuracy, crit


def _folded(
    frame: pl.DataFrame, index: list[str], on: str, value: str
) -> tuple[pl.DataFrame, list[str]]:
    """``frame`` wide: a row per ``index``, a column per ``on`` value (named by it) holding
    ``value``; the chart folds it back (``transform_fold``). The page then carries each
    key once per row rather than once per cell: a tenth of the size."""
    wide = frame.pivot(on=on, index=index, values=value, sort_columns=True)
    keys = [str(k) for k in sorted(frame[on].unique().to_list())]
    return wide.select(*index, *keys), keys


def hits_chart(odds: pl.DataFrame, caption: str) -> alt.Chart:
    """Exact P(at least k hits) of one attack by the dice rolled (``report.at_least_hits``),
    at the Accuracy and crit threshold picked under the chart; expected hits and P(at
    least one crit) in the tooltip."""
    name = "hits_chart"
    need(odds, ["dice", "accuracy", "crit_from", "k", "p_at_least", "mean_hits", "p_crit"], name)
    one_row_per(odds, ["dice", "accuracy", "crit_from", "k"], name)
    accuracy, crit = _pickers()
    frame = odds.with_columns(pl.col("p_at_least", "mean_hits", "p_crit").round(4))
    wide, keys = _folded(
        frame, ["dice", "accuracy", "crit_from", "mean_hits", "p_crit"], "k", "p_at_least"
    )
    return (
        alt.Chart(values(wide))
        .mark_rect()
        .encode(
            x=alt.X("dice:O", title="Dice rolled (d10)"),
            y=alt.Y("k:O", title="At least this many hits", sort="descending"),
            color=alt.Color(
                "p_at_least:Q",
                scale=alt.Scale(scheme="greens", domain=[0, 1]),
                legend=alt.Legend(title="P(at least k hits)", format=".0%"),
            ),
            tooltip=[
                alt.Tooltip("dice:Q", title="Dice"),
                alt.Tooltip("k:Q", title="At least k hits"),
                alt.Tooltip("p_at_least:Q", title="P(at least k hits)", format=".1%"),
                alt.Tooltip("mean_hits:Q", title="Expected hits", format=".2f"),
                alt.Tooltip("p_crit:Q", title="P(at least one crit)", format=".1%"),
                alt.Tooltip("accuracy:Q", title="Accuracy"),
                alt.Tooltip("crit_from:Q", title="Crits on faces from"),
            ],
        )
        .add_params(accuracy, crit)
        .transform_filter((alt.datum.accuracy == accuracy) & (alt.datum.crit_from == crit))
        .transform_fold(keys, as_=["k_key", "p_at_least"])
        .transform_filter("isValid(datum.p_at_least)")
        .transform_calculate(k="toNumber(datum.k_key)")
        .properties(
            width=alt.Step(22),
            height=alt.Step(14),
            title=title(
                "How many hits does an attack of n dice roll?",
                caption + " Accuracy and crit threshold: pick them below.",
            ),
        )
    )


def defeat_chart(defeat: pl.DataFrame, caption: str) -> alt.FacetChart:
    """Exact P(one attack defeats the unit) by the dice rolled and the unit's HP, a panel
    per active Shields (``report.defeat_odds``), at the Accuracy and crit threshold picked
    under the chart."""
    name = "defeat_chart"
    need(defeat, ["dice", "accuracy", "crit_from", "shields", "hp", "p_defeat"], name)
    one_row_per(defeat, ["dice", "accuracy", "crit_from", "shields", "hp"], name)
    accuracy, crit = _pickers()
    wide, keys = _folded(defeat, ["dice", "accuracy", "crit_from", "shields"], "hp", "p_defeat")
    return (
        alt.Chart(values(wide))
        .mark_rect()
        .encode(
            x=alt.X("dice:O", title="Dice rolled (d10)"),
            y=alt.Y("hp:O", title="HP of the unit", sort="descending"),
            color=alt.Color(
                "p_defeat:Q",
                scale=alt.Scale(scheme="reds", domain=[0, 1]),
                legend=alt.Legend(title="P(defeat)", format=".0%"),
            ),
            tooltip=[
                alt.Tooltip("dice:Q", title="Dice"),
                alt.Tooltip("hp:Q", title="HP"),
                alt.Tooltip("shields:Q", title="Active Shields"),
                alt.Tooltip("p_defeat:Q", title="P(defeat in one attack)", format=".1%"),
                alt.Tooltip("accuracy:Q", title="Accuracy"),
                alt.Tooltip("crit_from:Q", title="Crits on faces from"),
            ],
        )
        .add_params(accuracy, crit)
        .transform_filter((alt.datum.accuracy == accuracy) & (alt.datum.crit_from == crit))
        .transform_fold(keys, as_=["hp_key", "p_defeat"])
        .transform_calculate(hp="toNumber(datum.hp_key)")
        .properties(width=alt.Step(11), height=alt.Step(14))
        .facet(column=alt.Column("shields:O", title="Active Shields"))
        .properties(
            title=title(
                "How likely is one attack to defeat a unit, through its Shields?",
                caption + " Accuracy and crit threshold: pick them below.",
            )
        )
    )
