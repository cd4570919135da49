"""Mech Lab Partners charts (Altair): each titled with the question it answers, its
subtitle the caption (how the numbers were computed), axes in the rulebook's words
(deck, kaiju, lesson, gaps), every estimate drawn with its 95% interval.
"""

from __future__ import annotations

import altair as alt
import polars as pl

from analysis.charts import float_column, need, one_row_per, title, values

DECK_COLORS = alt.Scale(domain=["alpha", "full"], range=["#d95f02", "#1b9e77"])
FACTOR_TITLES = {"lesson_took": "Lesson took (3+ parts of its Form)", "gaps": "Gaps (empty slots)",
                 "weak_matches": "Parts the kaiju is weak to",
                 "resist_matches": "Parts the kaiju resists"}  # fmt: skip


def _deck_color(frame: pl.DataFrame) -> alt.Color:
    decks = sorted(frame["deck"].unique().to_list())
    scale = DECK_COLORS if set(decks) <= {"alpha", "full"} else alt.Scale()
    return alt.Color("deck:N", title="Deck", scale=scale)


def _points_with_bars(frame: pl.DataFrame, x: str, x_title: str, y: str, low: str, high: str,
                      y_title: str, fmt: str, sort: list | None = None,
                      domain: list | None = None) -> alt.LayerChart:  # fmt: skip
    """Per deck a point and its 95% interval at each ``x``, decks side by side."""
    scale = alt.Scale(domain=domain) if domain else alt.Scale(zero=False)
    base = alt.Chart(values(frame)).encode(
        x=alt.X(f"{x}:N", title=x_title, sort=sort, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("deck:N"),
        color=_deck_color(frame),
        tooltip=[
            alt.Tooltip(f"{x}:N", title=x_title), alt.Tooltip("deck:N", title="Deck"),
            alt.Tooltip(f"{y}:Q", title=y_title, format=fmt),
            alt.Tooltip(f"{low}:Q", title="95% low", format=fmt),
            alt.Tooltip(f"{high}:Q", title="95% high", format=fmt),
            alt.Tooltip("battles:Q", title="Battles", format=","),
        ],
    )  # fmt: skip
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
    need(win, ["deck", "kaiju", "win_rate", "win_low", "win_high", "mean_gpa", "gpa_low",
               "gpa_high", "battles"], name)  # fmt: skip
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
        tooltip=[alt.Tooltip("kaiju:N", title="Kaiju"),
                 alt.Tooltip("gap:Q", title="Full minus alpha (points)", format="+.1f"),
                 alt.Tooltip("low:Q", title="95% low", format="+.1f"),
                 alt.Tooltip("high:Q", title="95% high", format="+.1f")],
    )  # fmt: skip
    bars = base.mark_errorbar(ticks=True).encode(
        x=alt.X("low:Q", title="Win rate, full spread minus alpha deck (percentage points)"),
        x2="high:Q")  # fmt: skip
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
        order = sorted(part["value"].unique().to_list(),
                       key=lambda v: (not v.lstrip("-").isdigit(), int(v) if v.lstrip(
                           "-").isdigit() else 0, v))  # fmt: skip
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
        "deck", pl.format("{}: {}", "attribute", "value").alias("panel"), "cards_seen",
        pl.col(p).cast(pl.Float64).alias("p"))  # fmt: skip
    line = alt.Chart(values(frame)).mark_line(interpolate="step-after").encode(
        x=alt.X("cards_seen:Q", title="Body cards seen"),
        y=alt.Y("p:Q", title="P(at least one)", axis=alt.Axis(format=".0%"),
                scale=alt.Scale(domain=[0, 1])),
        color=_deck_color(frame),
        tooltip=[alt.Tooltip("deck:N", title="Deck"), alt.Tooltip("panel:N", title="Form/Type"),
                 alt.Tooltip("cards_seen:Q", title="Body cards seen"),
                 alt.Tooltip("p:Q", title="P(at least one)", format=".1%")],
    ).properties(width=150, height=110)  # fmt: skip
    return line.facet(
        facet=alt.Facet("panel:N", title=None, sort=list(dict.fromkeys(frame["panel"]))),
        columns=5,
    ).properties(title=title("How soon does a Form or Type show up in the body pile?", caption))


def exact_battle_chart(table: pl.DataFrame, caption: str) -> alt.LayerChart:
    """P(win) of each catalog mech against each kaiju (the exact ``battle`` table)."""
    p = float_column(table, "p_win")
    g = float_column(table, "expected_gpa")
    need(table, ["mech", "kaiju", p, g], "exact_battle_chart")
    frame = table.select("mech", "kaiju", pl.col(p).cast(pl.Float64).alias("p_win"),
                         pl.col(g).cast(pl.Float64).alias("gpa"))  # fmt: skip
    base = alt.Chart(values(frame)).encode(
        x=alt.X("kaiju:N", title="Kaiju", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("mech:N", title="Catalog mech"),
        tooltip=[alt.Tooltip("mech:N"), alt.Tooltip("kaiju:N"),
                 alt.Tooltip("p_win:Q", title="P(win)", format=".1%"),
                 alt.Tooltip("gpa:Q", title="Expected GPA", format=".2f")],
    )  # fmt: skip
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
    need(crit, ["deck", "kaiju", "mean_crits", "crits_low", "crits_high",
                "win_rate_with_crit", "win_rate_without_crit", "battles"], name)  # fmt: skip
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
    long = crit.unpivot(index=["deck", "kaiju"], on=["win_rate_with_crit",
                                                    "win_rate_without_crit"],
                        variable_name="crit", value_name="win_rate").with_columns(
        pl.col("crit").replace({"win_rate_with_crit": "a crit landed",
                                "win_rate_without_crit": "no crit"}))  # fmt: skip
    right = alt.Chart(values(long)).mark_bar().encode(
        x=alt.X("kaiju:N", title="Kaiju", sort=kaiju, axis=alt.Axis(labelAngle=-30)),
        xOffset=alt.XOffset("crit:N"),
        y=alt.Y("win_rate:Q", title="Win rate", axis=alt.Axis(format=".0%"),
                scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("crit:N", title="Battles where"),
        column=alt.Column("deck:N", title="Deck"),
        tooltip=[alt.Tooltip("deck:N"), alt.Tooltip("kaiju:N"), alt.Tooltip("crit:N"),
                 alt.Tooltip("win_rate:Q", format=".1%")],
    ).properties(width=220, height=240)  # fmt: skip
    return (
        alt.hconcat(left, right)
        .resolve_scale(xOffset="independent", color="independent")
        .properties(title=title("How much do crits matter?", caption))
    )
