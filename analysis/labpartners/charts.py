"""Mech Lab Partners charts (Altair): each titled with the question it answers, its
subtitle the caption (how the numbers were computed), axes in the rulebook's words
(deck, kaiju, lesson, gaps), every estimate drawn with its 95% interval.
"""

from __future__ import annotations

import altair as alt
import polars as pl

from analysis.charts import float_column, need, one_row_per, title, values

DECK_COLORS = alt.Scale(domain=["alpha", "full"], range=["#d95f02", "#1b9e77"])
FACTOR_TITLES = {
    "lesson_took": "Lesson took (3+ parts of its Form)",
    "gaps": "Gaps (empty slots)",
    "weak_matches": "Parts the kaiju is weak to",
    "resist_matches": "Parts the kaiju resists",
}


def _deck_color(frame: pl.DataFrame) -> alt.Color:
    decks = sorted(frame["deck"].unique().to_list())
    scale = DECK_COLORS if set(decks) <= {"alpha", "full"} else alt.Scale()
    return alt.Color("deck:N", title="Deck", scale=scale)


def _count_title(count: str) -> str:
    return {"battles": "Battles", "games": "Games", "seats": "Seats"}.get(count, count)


def _points_with_bars(
    frame: pl.DataFrame,
    x: str,
    x_title: str,
    y: str,
    low: str,
    high: str,
    y_title: str,
    fmt: str,
    sort: list | None = None,
    domain: list | None = None,
    count: str = "battles",
    label_angle: int = 0,
) -> alt.LayerChart:
    """Per deck a point and its 95% interval at each ``x``, decks side by side."""
    scale = alt.Scale(domain=domain) if domain else alt.Scale(zero=False)
    base = alt.Chart(values(frame)).encode(
        x=alt.X(f"{x}:N", title=x_title, sort=sort, axis=alt.Axis(labelAngle=label_angle)),
        xOffset=alt.XOffset("deck:N"),
        color=_deck_color(frame),
        tooltip=[
            alt.Tooltip(f"{x}:N", title=x_title),
            alt.Tooltip("deck:N", title="Deck"),
            alt.Tooltip(f"{y}:Q", title=y_title, format=fmt),
            alt.Tooltip(f"{low}:Q", title="95% low", format=fmt),
            alt.Tooltip(f"{high}:Q", title="95% high", format=fmt),
            alt.Tooltip(f"{count}:Q", title=_count_title(count), format=","),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        y=alt.Y(f"{low}:Q", title=y_title, scale=scale, axis=alt.Axis(format=fmt)),
        y2=f"{high}:Q",
    )
    points = base.mark_point(filled=True, size=60).encode(y=alt.Y(f"{y}:Q"))
    return bars + points


def win_gpa_chart(win: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """Win rate (Wilson 95%) and mean GPA (normal 95%) per kaiju, alpha beside full
    (``queries.win_rates`` of one run and policy)."""
    name = "win_gpa_chart"
    need(
        win,
        [
            "deck",
            "kaiju",
            "win_rate",
            "win_low",
            "win_high",
            "mean_gpa",
            "gpa_low",
            "gpa_high",
            "battles",
        ],
        name,
    )
    one_row_per(win, ["deck", "kaiju"], name)
    kaiju = sorted(win["kaiju"].unique().to_list())
    left = _points_with_bars(
        win, "kaiju", "Kaiju", "win_rate", "win_low", "win_high", "Win rate", ".0%", kaiju, [0, 1]
    ).properties(width=300, height=260)
    right = _points_with_bars(
        win, "kaiju", "Kaiju", "mean_gpa", "gpa_low", "gpa_high", "Mean GPA", ".2f", kaiju
    ).properties(width=300, height=260)
    return (
        alt.hconcat(left, right)
        .resolve_scale(xOffset="independent")
        .properties(
            title=title("How often does each deck beat each kaiju, and for what GPA?", caption)
        )
    )


def deck_gap_chart(gaps: pl.DataFrame, caption: str) -> alt.LayerChart:
    """The full spread's win rate minus the alpha deck's per kaiju (``gap``, ``low``,
    ``high`` in percentage points), with the zero line: an interval over 0 cannot
    tell the decks apart."""
    need(gaps, ["kaiju", "gap", "low", "high"], "deck_gap_chart")
    base = alt.Chart(values(gaps)).encode(
        y=alt.Y("kaiju:N", title="Kaiju", sort=sorted(gaps["kaiju"].to_list())),
        tooltip=[
            alt.Tooltip("kaiju:N", title="Kaiju"),
            alt.Tooltip("gap:Q", title="Full minus alpha (points)", format="+.1f"),
            alt.Tooltip("low:Q", title="95% low", format="+.1f"),
            alt.Tooltip("high:Q", title="95% high", format="+.1f"),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X("low:Q", title="Win rate, full spread minus alpha deck (percentage points)"),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70, color="#333").encode(x="gap:Q")
    zero = alt.Chart(values([{"x": 0}])).mark_rule(color="#999", strokeDash=[4, 4]).encode(x="x:Q")
    return (bars + points + zero).properties(
        width=420,
        height=alt.Step(28),
        title=title("Does the full spread win more than the alpha deck?", caption),
    )


def factor_chart(by: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """Win rate (Wilson 95%) by each factor's value (``queries.win_by`` of several
    factors stacked), alpha beside full, one panel per factor."""
    name = "factor_chart"
    need(by, ["factor", "value", "deck", "win_rate", "win_low", "win_high", "battles"], name)
    one_row_per(by, ["factor", "value", "deck"], name)
    panels = []
    for factor in dict.fromkeys(by["factor"].to_list()):
        part = by.filter(pl.col("factor") == factor)
        order = sorted(
            part["value"].unique().to_list(),
            key=lambda v: (
                not v.lstrip("-").isdigit(),
                int(v) if v.lstrip("-").isdigit() else 0,
                v,
            ),
        )
        panels.append(
            _points_with_bars(
                part,
                "value",
                FACTOR_TITLES.get(factor, factor),
                "win_rate",
                "win_low",
                "win_high",
                "Win rate",
                ".0%",
                order,
                [0, 1],
            ).properties(width=200, height=240)
        )
    # each panel's bands differ in width: its own side-by-side offsets
    return (
        alt.hconcat(*panels)
        .resolve_scale(xOffset="independent")
        .properties(title=title("What makes a dealt mech win?", caption))
    )


def draws_chart(draws: pl.DataFrame, caption: str, most: int = 30) -> alt.FacetChart:
    """P(at least one body card of a Form or Type) against body cards seen (up to
    ``most``: by then every curve the decks can reach is near 1), alpha and full on one
    panel per Form and per Type (the exact ``draws`` table)."""
    p = float_column(draws, "p_at_least_one")
    need(draws, ["deck", "attribute", "value", "cards_seen", p], "draws_chart")
    frame = draws.filter(pl.col("cards_seen") <= most).select(
        "deck",
        pl.format("{}: {}", "attribute", "value").alias("panel"),
        "cards_seen",
        pl.col(p).cast(pl.Float64).alias("p"),
    )
    line = (
        alt.Chart(values(frame))
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("cards_seen:Q", title="Body cards seen"),
            y=alt.Y(
                "p:Q",
                title="P(at least one)",
                axis=alt.Axis(format=".0%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=_deck_color(frame),
            tooltip=[
                alt.Tooltip("deck:N", title="Deck"),
                alt.Tooltip("panel:N", title="Form/Type"),
                alt.Tooltip("cards_seen:Q", title="Body cards seen"),
                alt.Tooltip("p:Q", title="P(at least one)", format=".1%"),
            ],
        )
        .properties(width=150, height=110)
    )
    return line.facet(
        facet=alt.Facet("panel:N", title=None, sort=list(dict.fromkeys(frame["panel"]))),
        columns=5,
    ).properties(title=title("How soon does a Form or Type show up in the body pile?", caption))


def exact_battle_chart(table: pl.DataFrame, caption: str) -> alt.LayerChart:
    """P(win) of each catalog mech against each kaiju (the exact ``battle`` table)."""
    p = float_column(table, "p_win")
    g = float_column(table, "expected_gpa")
    need(table, ["mech", "kaiju", p, g], "exact_battle_chart")
    frame = table.select(
        "mech",
        "kaiju",
        pl.col(p).cast(pl.Float64).alias("p_win"),
        pl.col(g).cast(pl.Float64).alias("gpa"),
    )
    base = alt.Chart(values(frame)).encode(
        x=alt.X("kaiju:N", title="Kaiju", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("mech:N", title="Catalog mech"),
        tooltip=[
            alt.Tooltip("mech:N"),
            alt.Tooltip("kaiju:N"),
            alt.Tooltip("p_win:Q", title="P(win)", format=".1%"),
            alt.Tooltip("gpa:Q", title="Expected GPA", format=".2f"),
        ],
    )
    cells = base.mark_rect(stroke="white").encode(
        color=alt.Color(
            "p_win:Q",
            title="P(win)",
            legend=alt.Legend(format=".0%"),
            scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5),
        )
    )
    strong = (alt.datum.p_win < 0.2) | (alt.datum.p_win > 0.8)
    text = base.mark_text(fontSize=12).encode(
        text=alt.Text("p_win:Q", format=".0%"),
        color=alt.when(strong).then(alt.value("white")).otherwise(alt.value("black")),
    )
    return (cells + text).properties(
        width=alt.Step(80),
        height=alt.Step(32),
        title=title("How does each catalog mech fare against each kaiju?", caption),
    )


def crits_chart(crit: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """Mean crits per battle (normal 95%) and the win rate with and without a crit per
    kaiju and deck (``queries.crits`` of one run and policy)."""
    name = "crits_chart"
    need(
        crit,
        [
            "deck",
            "kaiju",
            "mean_crits",
            "crits_low",
            "crits_high",
            "win_rate_with_crit",
            "win_rate_without_crit",
            "battles",
        ],
        name,
    )
    one_row_per(crit, ["deck", "kaiju"], name)
    kaiju = sorted(crit["kaiju"].unique().to_list())
    left = _points_with_bars(
        crit,
        "kaiju",
        "Kaiju",
        "mean_crits",
        "crits_low",
        "crits_high",
        "Crits per battle",
        ".2f",
        kaiju,
    ).properties(width=300, height=240)
    long = crit.unpivot(
        index=["deck", "kaiju"],
        on=["win_rate_with_crit", "win_rate_without_crit"],
        variable_name="crit",
        value_name="win_rate",
    ).with_columns(
        pl.col("crit").replace(
            {"win_rate_with_crit": "a crit landed", "win_rate_without_crit": "no crit"}
        )
    )
    right = (
        alt.Chart(values(long))
        .mark_bar()
        .encode(
            x=alt.X("kaiju:N", title="Kaiju", sort=kaiju, axis=alt.Axis(labelAngle=-30)),
            xOffset=alt.XOffset("crit:N"),
            y=alt.Y(
                "win_rate:Q",
                title="Win rate",
                axis=alt.Axis(format=".0%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color("crit:N", title="Battles where"),
            column=alt.Column("deck:N", title="Deck"),
            tooltip=[
                alt.Tooltip("deck:N"),
                alt.Tooltip("kaiju:N"),
                alt.Tooltip("crit:N"),
                alt.Tooltip("win_rate:Q", format=".1%"),
            ],
        )
        .properties(width=220, height=240)
    )
    return (
        alt.hconcat(left, right)
        .resolve_scale(xOffset="independent", color="independent")
        .properties(title=title("How much do crits matter?", caption))
    )


# ---- the whole-game study: full-spread-vs-alpha -------------------------------------------

# A metric of queries.METRICS: its name in the rulebook's words, and how a difference in it
# is stated (rates in percentage points).
METRIC_TITLES = {
    "lesson_took": "Lesson-take rate",
    "gaps": "Gaps per mech",
    "weak_matches": "Weakness matches per mech",
    "win": "Win rate",
    "gpa": "Mean GPA (group grade)",
    "study_done": "Study completion",
}
RATE_METRICS = ("lesson_took", "win", "study_done")
SAMPLE_KINDS = alt.Scale(
    domain=["full spread", "catalog alpha", "sampled alpha"],
    range=["#1b9e77", "#d95f02", "#9e9e9e"],
)


def difference_units(metric: str) -> tuple[float, str]:
    """How a difference in ``metric`` is shown: (scale, unit): rates in percentage
    points, the others in their own units."""
    if metric in RATE_METRICS:
        return 100.0, "percentage points"
    return 1.0, "GPA points" if metric == "gpa" else "per mech"


def difference_chart(diffs: pl.DataFrame, caption: str, deck: str = "alpha") -> alt.VConcatChart:
    """Per metric, ``deck`` minus the full spread in the same games (``diff``, ``low``,
    ``high`` of ``queries.paired_differences`` of one run, no grouping) with its paired
    95% interval and the zero line, a panel each in the metric's own units, in the
    frame's order (the report puts the biggest differences first)."""
    name = "difference_chart"
    need(diffs, ["deck", "metric", "diff", "low", "high", "games"], name)
    rows = diffs.filter(pl.col("deck") == deck)
    one_row_per(rows, ["metric"], name)
    panels = []
    for r in rows.iter_rows(named=True):
        scale, unit = difference_units(r["metric"])
        label = METRIC_TITLES.get(r["metric"], r["metric"])
        point = {
            "metric": label,
            "diff": scale * r["diff"],
            "low": scale * r["low"],
            "high": scale * r["high"],
            "games": r["games"],
        }
        reach = max(abs(point["low"]), abs(point["high"]), 1e-9) * 1.1
        base = alt.Chart(values([point])).encode(
            y=alt.Y("metric:N", title=None, axis=alt.Axis(labelLimit=220)),
            tooltip=[
                alt.Tooltip("metric:N", title="Metric"),
                alt.Tooltip("diff:Q", title=f"{deck} minus full ({unit})", format="+.3f"),
                alt.Tooltip("low:Q", title="95% low", format="+.3f"),
                alt.Tooltip("high:Q", title="95% high", format="+.3f"),
                alt.Tooltip("games:Q", title="Games (each with both decks)", format=","),
            ],
        )
        x = alt.X(
            "low:Q",
            title=f"{deck} minus full spread ({unit})",
            scale=alt.Scale(domain=[-reach, reach]),
        )
        bars = base.mark_errorbar(ticks=True).encode(x=x, x2="high:Q")
        dot = base.mark_point(filled=True, size=70, color="#333").encode(x="diff:Q")
        zero = (
            alt.Chart(values([{"x": 0}])).mark_rule(color="#999", strokeDash=[4, 4]).encode(x="x:Q")
        )
        panels.append((bars + dot + zero).properties(width=420, height=34))
    return alt.vconcat(*panels, spacing=6).properties(
        title=title(f"What does the {deck} deck change against the full spread?", caption)
    )


def build_chart(means: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """Lesson-take rate (Wilson 95%), gaps and weakness matches per mech (normal 95%) per
    player count, decks side by side (``queries.deck_means`` by players, one run)."""
    name = "build_chart"
    need(means, ["deck", "players", "metric", "mean", "low", "high", "games"], name)
    panels = []
    for metric, fmt, domain in (
        ("lesson_took", ".0%", [0, 1]),
        ("gaps", ".3f", None),
        ("weak_matches", ".2f", None),
    ):
        part = means.filter(pl.col("metric") == metric)
        one_row_per(part, ["deck", "players"], name)
        players = sorted(part["players"].unique().to_list())
        panels.append(
            _points_with_bars(
                part,
                "players",
                "Players",
                "mean",
                "low",
                "high",
                METRIC_TITLES[metric],
                fmt,
                players,
                domain,
                count="games",
            ).properties(width=220, height=240)
        )
    return (
        alt.hconcat(*panels)
        .resolve_scale(xOffset="independent")
        .properties(title=title("How does each deck build its mechs?", caption))
    )


def kaiju_players_chart(means: pl.DataFrame, caption: str) -> alt.VConcatChart:
    """Win rate (Wilson 95%) and mean GPA (normal 95%) per kaiju, one panel per player
    count, decks side by side (``queries.deck_means`` by kaiju and players, one run)."""
    name = "kaiju_players_chart"
    need(means, ["deck", "kaiju", "players", "metric", "mean", "low", "high", "games"], name)
    kaiju = sorted(means["kaiju"].unique().to_list())
    rows = []
    for metric, label, fmt, domain in (
        ("win", "Win rate", ".0%", [0, 1]),
        ("gpa", "Mean GPA", ".2f", None),
    ):
        part = means.filter(pl.col("metric") == metric)
        one_row_per(part, ["deck", "kaiju", "players"], name)
        panels = []
        for players in sorted(part["players"].unique().to_list()):
            one = part.filter(pl.col("players") == players)
            panels.append(
                _points_with_bars(
                    one,
                    "kaiju",
                    f"Kaiju, {players} players",
                    "mean",
                    "low",
                    "high",
                    label,
                    fmt,
                    kaiju,
                    domain,
                    count="games",
                    label_angle=-35,
                ).properties(width=190, height=200)
            )
        rows.append(alt.hconcat(*panels).resolve_scale(xOffset="independent"))
    return alt.vconcat(*rows).properties(
        title=title(
            "How often does each deck beat each kaiju, and for what GPA, at each player count?",
            caption,
        )
    )


def kaiju_gap_chart(
    gaps: pl.DataFrame, caption: str, limit: float | None = None, deck: str = "alpha"
) -> alt.LayerChart:
    """Per kaiju, ``deck``'s win rate minus the full spread's in the same games (a
    fraction: ``diff``, ``low``, ``high``), drawn in percentage points with the zero line
    and, given ``limit`` (a fraction), the limit on either side."""
    name = "kaiju_gap_chart"
    need(gaps, ["deck", "kaiju", "diff", "low", "high", "games"], name)
    rows = gaps.filter(pl.col("deck") == deck)
    one_row_per(rows, ["kaiju"], name)
    frame = rows.select("kaiju", "games", *(pl.col(c) * 100 for c in ("diff", "low", "high")))
    base = alt.Chart(values(frame)).encode(
        y=alt.Y("kaiju:N", title="Kaiju", sort=sorted(frame["kaiju"].to_list())),
        tooltip=[
            alt.Tooltip("kaiju:N", title="Kaiju"),
            alt.Tooltip("diff:Q", title=f"{deck} minus full (points)", format="+.1f"),
            alt.Tooltip("low:Q", title="95% low", format="+.1f"),
            alt.Tooltip("high:Q", title="95% high", format="+.1f"),
            alt.Tooltip("games:Q", title="Games (each with both decks)", format=","),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X("low:Q", title=f"Win rate, {deck} deck minus full spread (percentage points)"),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70, color="#333").encode(x="diff:Q")
    lines = [{"x": 0.0, "what": "no difference"}]
    if limit is not None:
        lines += [{"x": -100 * limit, "what": "limit"}, {"x": 100 * limit, "what": "limit"}]
    rules = (
        alt.Chart(values(lines))
        .mark_rule(strokeDash=[4, 4])
        .encode(
            x="x:Q",
            color=alt.Color(
                "what:N",
                title=None,
                scale=alt.Scale(domain=["no difference", "limit"], range=["#999", "#b00020"]),
            ),
        )
    )
    return (bars + points + rules).properties(
        width=420,
        height=alt.Step(28),
        title=title(f"Which kaiju does the {deck} deck make too hard or too easy?", caption),
    )


def study_chart(studies: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Completion rate (Wilson 95%) of each Independent Study over every seat that held
    it, decks side by side (``queries.study_completion`` of one run)."""
    name = "study_chart"
    need(studies, ["deck", "study", "rate", "low", "high", "seats"], name)
    one_row_per(studies, ["deck", "study"], name)
    order = sorted(studies["study"].unique().to_list())
    return _points_with_bars(
        studies,
        "study",
        "Independent Study",
        "rate",
        "low",
        "high",
        "Completed",
        ".0%",
        order,
        [0, 1],
        count="seats",
    ).properties(
        width=560, height=260, title=title("Which Independent Studies get completed?", caption)
    )


def scarcity_chart(scarce: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """Per Form and per Type, the share of locked mechs holding at least one part of it
    (Wilson 95%), decks side by side (``queries.scarcity`` of one run)."""
    name = "scarcity_chart"
    need(scarce, ["deck", "attribute", "value", "share", "low", "high", "games"], name)
    one_row_per(scarce, ["deck", "attribute", "value"], name)
    panels = []
    for attribute, label in (("form", "Form"), ("type", "Type")):
        part = scarce.filter(pl.col("attribute") == attribute)
        order = sorted(part["value"].unique().to_list())
        panels.append(
            _points_with_bars(
                part,
                "value",
                label,
                "share",
                "low",
                "high",
                f"Mechs with a part of the {label}",
                ".0%",
                order,
                [0, 1],
                count="games",
            ).properties(width=300, height=240)
        )
    return (
        alt.hconcat(*panels)
        .resolve_scale(xOffset="independent")
        .properties(title=title("Which Forms and Types are scarce in the locked mechs?", caption))
    )


def lesson_odds_chart(lesson: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Per deck and player count: the simulated rate of lesson_dealt (a body card of the
    lesson Form in the opening hands; ``rate``, Wilson 95% ``low``/``high``) as a point
    with its interval and the exact odds at that many cards (``exact``) as a black tick,
    decks side by side over the cards dealt (``dealt``, hand_size x ``players``)."""
    name = "lesson_odds_chart"
    need(lesson, ["deck", "players", "dealt", "rate", "low", "high", "exact", "z", "games"], name)
    one_row_per(lesson, ["deck", "players"], name)
    y_title = "P(the lesson's Form in the opening hands)"
    hand = sorted({d // n for d, n in lesson.select("dealt", "players").iter_rows()})
    x_title = "Body cards in the opening hands" + (
        f" ({hand[0]} a player)" if len(hand) == 1 else ""
    )
    axis = alt.Axis(format=".0%")
    base = alt.Chart(values(lesson)).encode(
        x=alt.X("dealt:O", title=x_title, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("deck:N"),
        color=_deck_color(lesson),
        tooltip=[
            alt.Tooltip("deck:N", title="Deck"),
            alt.Tooltip("players:Q", title="Players"),
            alt.Tooltip("dealt:Q", title="Body cards dealt"),
            alt.Tooltip("rate:Q", title="Simulated", format=".1%"),
            alt.Tooltip("low:Q", title="95% low", format=".1%"),
            alt.Tooltip("high:Q", title="95% high", format=".1%"),
            alt.Tooltip("exact:Q", title="Exact", format=".1%"),
            alt.Tooltip("z:Q", title="Standard errors apart", format="+.2f"),
            alt.Tooltip("games:Q", title="Games", format=","),
        ],
    )
    # the exact odds in black, so they read apart from the intervals' deck-coloured caps
    ticks = base.mark_tick(thickness=3, size=22).encode(
        y=alt.Y("exact:Q", title=y_title, axis=axis, scale=alt.Scale(zero=False)),
        color=alt.value("black"),
    )
    bars = base.mark_errorbar(ticks=True).encode(
        y=alt.Y("low:Q", title=y_title, axis=axis), y2="high:Q"
    )
    points = base.mark_point(filled=True, size=50).encode(y=alt.Y("rate:Q", title=y_title))
    return (ticks + bars + points).properties(
        width=420,
        height=300,
        title=title("Does the lesson's Form show up as often as the exact draw odds say?", caption),
    )


def alpha_samples_chart(win: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Win rate per kaiju (Wilson 95%) of the full spread, the catalog's alpha and each
    sampled alpha (``deck`` ``alpha-sample-k``), a column each (``queries.deck_means``
    by kaiju, metric win, of one run)."""
    name = "alpha_samples_chart"
    need(win, ["deck", "kaiju", "mean", "low", "high", "games"], name)
    one_row_per(win, ["deck", "kaiju"], name)
    kind = (
        pl.when(pl.col("deck") == "full")
        .then(pl.lit("full spread"))
        .when(pl.col("deck") == "alpha")
        .then(pl.lit("catalog alpha"))
        .otherwise(pl.lit("sampled alpha"))
    )
    frame = win.with_columns(kind.alias("kind"))
    decks = sorted(frame["deck"].unique().to_list(), key=lambda d: (d != "full", d != "alpha", d))
    base = alt.Chart(values(frame)).encode(
        x=alt.X(
            "kaiju:N",
            title="Kaiju",
            sort=sorted(frame["kaiju"].unique().to_list()),
            axis=alt.Axis(labelAngle=0),
        ),
        xOffset=alt.XOffset("deck:N", sort=decks),
        color=alt.Color("kind:N", title="Deck", scale=SAMPLE_KINDS),
        tooltip=[
            alt.Tooltip("kaiju:N", title="Kaiju"),
            alt.Tooltip("deck:N", title="Deck"),
            alt.Tooltip("mean:Q", title="Win rate", format=".1%"),
            alt.Tooltip("low:Q", title="95% low", format=".1%"),
            alt.Tooltip("high:Q", title="95% high", format=".1%"),
            alt.Tooltip("games:Q", title="Games", format=","),
        ],
    )
    bars = base.mark_errorbar(ticks=True).encode(
        y=alt.Y(
            "low:Q", title="Win rate", axis=alt.Axis(format=".0%"), scale=alt.Scale(domain=[0, 1])
        ),
        y2="high:Q",
    )
    points = base.mark_point(filled=True, size=50).encode(y="mean:Q")
    return (bars + points).properties(
        width=620,
        height=280,
        title=title("How much does the answer depend on which 70 cards the alpha holds?", caption),
    )


def sample_gaps_chart(gaps: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Each headline gap (alpha minus full, in percentage points) of every random alpha
    deck (grey, one point a deck) and of the catalog's alpha (orange, with its paired 95%
    interval), one row per measure: the random decks are the distribution, the catalog's
    alpha one marked sample of it. ``gaps``: deck, metric, kaiju (null for every game),
    diff, low, high."""
    name = "sample_gaps_chart"
    need(gaps, ["deck", "metric", "kaiju", "diff", "low", "high"], name)
    points = []
    for r in gaps.iter_rows(named=True):
        scale, _ = difference_units(r["metric"])
        label = METRIC_TITLES.get(r["metric"], r["metric"])
        label += f" ({r['kaiju']})" if r["kaiju"] else ""
        kind = "catalog alpha" if r["deck"] == "alpha" else "sampled alpha"
        points.append(
            {
                "measure": label,
                "deck": r["deck"],
                "kind": kind,
                "diff": scale * r["diff"],
                "low": scale * r["low"],
                "high": scale * r["high"],
            }
        )
    base = alt.Chart(values(points)).encode(
        y=alt.Y("measure:N", title=None, axis=alt.Axis(labelLimit=260), sort=None),
        tooltip=[
            alt.Tooltip("measure:N", title="Measure"),
            alt.Tooltip("deck:N", title="Deck"),
            alt.Tooltip("diff:Q", title="alpha minus full (points)", format="+.2f"),
            alt.Tooltip("low:Q", title="95% low", format="+.2f"),
            alt.Tooltip("high:Q", title="95% high", format="+.2f"),
        ],
    )
    color = alt.Color("kind:N", title=None, scale=SAMPLE_KINDS)
    dots = base.mark_point(filled=True, size=45, opacity=0.8).encode(
        x=alt.X("diff:Q", title="alpha minus full spread (percentage points)"), color=color
    )
    bars = (
        base.transform_filter(alt.datum.kind == "catalog alpha")
        .mark_errorbar(ticks=True, color="#d95f02")
        .encode(x="low:Q", x2="high:Q")
    )
    zero = alt.Chart(values([{"x": 0}])).mark_rule(color="#999", strokeDash=[4, 4]).encode(x="x:Q")
    return (bars + dots + zero).properties(
        width=460,
        height=alt.Step(22),
        title=title(
            "Random alpha decks against the full spread, the catalog's alpha marked", caption
        ),
    )
