"""Mecha Skirmish charts: one designer question each (003 F4 hit location, F5 crit
margin, B3 Team Cap, duels). Built on the shared helpers of :mod:`analysis.charts`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import polars as pl

from analysis.charts import caption, float_column, need, one_row_per, run_caption, title, values
from analysis.charts import win_rate_heatmap as _heatmap

__all__ = [  # with the shared captions, so a notebook needs this module only
    "caption", "run_caption", "win_rate_heatmap", "destroyed_by_round_chart",
    "damage_by_range_chart", "strike_frequency_chart", "crit_margin_chart", "team_cap_chart",
    "build_team_cap_chart", "SILHOUETTE",
]  # fmt: skip

# Hit-location order (F4), with the cover band (H5) last, and the rulebook's names.
SILHOUETTE = ("head", "right_arm", "left_arm", "core", "back", "legs", "cover")
PART_NAMES = {
    "head": "Head", "right_arm": "Right Arm", "left_arm": "Left Arm", "core": "Core",
    "back": "Back", "legs": "Legs", "cover": "Cover",
}  # fmt: skip
COVER_NAMES = {"none": "No cover", "hard": "Hard cover"}

KIT_A = "Kit (side A)"
KIT_B = "Opponent kit"


def win_rate_heatmap(win_rates: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Side A's score in every kit-against-kit duel (:func:`analysis.charts.win_rate_heatmap`
    in the rulebook's words)."""
    return _heatmap(win_rates, caption, side=KIT_A, opponent=KIT_B,
                    question="Which kit wins each duel?")  # fmt: skip


def destroyed_by_round_chart(curves: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Per matchup, the share of battles in which side B had been destroyed by round r or
    sooner; a dropdown picks the kit on side A, one line per opponent."""
    name = "destroyed_by_round_chart"
    need(curves, ["side_a", "side_b", "round", "share_wiped_b"], name)
    one_row_per(curves, ["side_a", "side_b", "round"], name)
    kits = sorted(curves["side_a"].unique().to_list())
    if not kits:
        raise ValueError(f"{name}: the frame has no rows")
    kit = alt.param(
        name="kit_a",
        value=kits[0],
        bind=alt.binding_select(options=kits, name=f"{KIT_A} "),
    )
    tooltip = [
        alt.Tooltip("side_a:N", title=KIT_A),
        alt.Tooltip("side_b:N", title=KIT_B),
        alt.Tooltip("round:Q", title="Round"),
        alt.Tooltip("share_wiped_b:Q", title="Destroyed by this round or sooner", format=".1%"),
        *(
            [alt.Tooltip(f"{c}:Q", title=t, format=",")
             for c, t in (("wiped_b", "Battles destroyed"), ("battles", "Battles"))
             if c in curves.columns]
        ),
    ]  # fmt: skip
    last_round = int(curves["round"].max())
    base = (
        alt.Chart(values(curves))
        .encode(
            x=alt.X(
                "round:Q", title="Round", scale=alt.Scale(domain=[1, last_round]),
                axis=alt.Axis(tickMinStep=1, format="d"),
            ),
            # A fixed 0..1 scale, so switching kits compares like with like.
            y=alt.Y(
                "share_wiped_b:Q", title="Destroyed by this round or sooner",
                scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=".0%"),
            ),
            color=alt.Color("side_b:N", title=KIT_B),
        )
    )  # fmt: skip
    lines = base.mark_line()
    points = base.mark_point(filled=True, size=40).encode(tooltip=tooltip)
    return (
        (lines + points)
        .transform_filter(alt.datum.side_a == kit)  # once, for both layers
        .add_params(kit)
        .properties(
            title=title("How fast does each kit destroy each opponent?", caption),
            width=520,
            height=300,
        )
    )


# --- exact tables ------------------------------------------------------------------------


def damage_by_range_chart(frame: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Per kit, the best expected damage of one Fire action at each range (which weapon
    gives it in the tooltip); click a kit in the legend to pick it out."""
    name = "damage_by_range_chart"
    y = float_column(frame, "expected_damage")
    need(frame, ["kit", "distance", "weapon", y], name)
    pick = alt.selection_point(name="kit_pick", fields=["kit"], bind="legend")
    tooltip = [
        alt.Tooltip("kit:N", title="Kit"),
        alt.Tooltip("distance:Q", title="Range (hexes)"),
        alt.Tooltip("weapon:N", title="Weapon"),
        *([alt.Tooltip("target:N", title="Target kit")] if "target" in frame.columns else []),
        alt.Tooltip(f"{y}:Q", title="Expected damage per Fire action", format=".3f"),
        *([alt.Tooltip("expected_damage:N", title="Exact")] if y != "expected_damage" else []),
    ]
    base = alt.Chart(values(frame)).encode(
        x=alt.X("distance:Q", title="Range (hexes)", axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y(f"{y}:Q", title="Expected damage per Fire action"),
        color=alt.Color("kit:N", title="Kit"),
        opacity=alt.when(pick).then(alt.value(1.0)).otherwise(alt.value(0.15)),
    )
    lines = base.mark_line(interpolate="linear")
    points = base.mark_point(filled=True, size=30).encode(tooltip=tooltip)
    return (
        (lines + points)
        .add_params(pick)
        .properties(
            title=title("How much damage does each kit deal at each range?", caption),
            width=560,
            height=320,
        )
    )


def strike_frequency_chart(
    bands: pl.DataFrame, caption: str, *, order: Sequence[str] = SILHOUETTE,
    columns: int = 4,
) -> alt.FacetChart:  # fmt: skip
    """Per kit (one panel each), the share of hits that strike each part, without cover
    and behind hard cover side by side, parts in silhouette order."""
    name = "strike_frequency_chart"
    p = float_column(bands, "p_strike")
    need(bands, ["kit", "cover", "part", p], name)
    extra = sorted(set(bands["part"].to_list()) - set(order))
    parts = [*order, *extra]  # parts of another game keep their place after the known ones
    names = [PART_NAMES.get(part, part.replace("_", " ").title()) for part in parts]
    frame = bands.with_columns(
        location=pl.col("part").replace_strict(dict(zip(parts, names, strict=True))),
        cover_name=pl.col("cover").replace(COVER_NAMES),
    )
    if {"first", "last"} <= set(frame.columns):
        frame = frame.with_columns(
            d20=pl.when(pl.col("first") == pl.col("last"))
            .then(pl.col("first").cast(pl.String))
            .otherwise(pl.format("{}–{}", "first", "last"))
        )
    covers = [COVER_NAMES.get(c, c) for c in ("none", "hard")] + sorted(
        set(frame["cover_name"].to_list()) - set(COVER_NAMES.values())
    )
    tooltip = [
        alt.Tooltip("kit:N", title="Kit"),
        alt.Tooltip("cover_name:N", title="Cover"),
        alt.Tooltip("location:N", title="Hit location"),
        *([alt.Tooltip("d20:N", title="d20 band")] if "d20" in frame.columns else []),
        alt.Tooltip(f"{p}:Q", title="Share of hits struck", format=".0%"),
        *([alt.Tooltip("p_strike:N", title="Exact")] if p != "p_strike" else []),
    ]
    present = [n for n in names if n in set(frame["location"].to_list())]
    bars = (
        alt.Chart()
        .mark_bar()
        .encode(
            x=alt.X("location:N", title="Hit location (d20 bands)", sort=present,
                    axis=alt.Axis(labelAngle=-45)),
            xOffset=alt.XOffset("cover_name:N", sort=covers),
            y=alt.Y(f"{p}:Q", title="Share of hits struck", axis=alt.Axis(format=".0%")),
            color=alt.Color("cover_name:N", title="Cover", sort=covers,
                            scale=alt.Scale(range=["#4c78a8", "#f58518"])),
            tooltip=tooltip,
        )
        .properties(width=200, height=160)
    )  # fmt: skip
    return alt.FacetChart(
        data=values(frame),
        spec=bars,
        facet=alt.Facet("kit:N", title="Kit", sort=sorted(frame["kit"].unique().to_list())),
        columns=columns,
        title=title("Which parts get hit, with and without hard cover?", caption),
    )


# --- a swept parameter -------------------------------------------------------------------


def _step(margins: list[int]) -> int:
    """The slider's step: 1 for consecutive margins, else their common difference."""
    step = 0
    for a, b in zip(margins, margins[1:], strict=False):
        step = math.gcd(step, b - a)
    return step or 1


def crit_margin_chart(crit: pl.DataFrame, ttk: pl.DataFrame, caption: str) -> alt.HConcatChart:
    """A slider over the swept crit margins: left, each weapon's crit share against the
    margin (the slider's margin marked); right, each kit's mean rounds to destroy its
    opponent at the slider's margin.

    ``crit`` comes from :func:`analysis.queries.crit_share`, ``ttk`` from
    :func:`analysis.queries.time_to_kill`; rows without a margin (NULL) have no place on
    the slider and are left out.
    """
    name = "crit_margin_chart"
    need(crit, ["weapon", "crit_margin", "crit_share"], name)
    need(ttk, ["side_a", "crit_margin", "mean_rounds_to_kill"], name)
    crit = crit.filter(pl.col("crit_margin").is_not_null())
    ttk = ttk.filter(pl.col("crit_margin").is_not_null())
    one_row_per(crit, ["weapon", "crit_margin"], name)
    one_row_per(ttk, ["side_a", "crit_margin"], name)
    margins = sorted({int(m) for m in [*crit["crit_margin"], *ttk["crit_margin"]]})
    if not margins:
        raise ValueError(f"{name}: no rows with a crit margin to put on the slider")
    # 4 is the rulebook's margin (F5): start there when it was swept.
    start = 4 if 4 in margins else margins[0]
    margin = alt.param(
        name="margin",
        value=start,
        bind=alt.binding_range(
            min=margins[0], max=margins[-1], step=_step(margins), name="Crit margin "
        ),
    )
    at_margin = alt.datum.crit_margin == margin
    x_margin = alt.X(
        "crit_margin:Q", title="Crit margin",
        scale=alt.Scale(domain=[margins[0], margins[-1]]),
        axis=alt.Axis(values=margins, format="d"),
    )  # fmt: skip
    crit_tooltip = [
        alt.Tooltip("weapon:N", title="Weapon"),
        alt.Tooltip("crit_margin:Q", title="Crit margin"),
        alt.Tooltip("crit_share:Q", title="Share of hits that crit", format=".1%"),
        *(
            [alt.Tooltip(f"{c}:Q", title=t, format=f)
             for c, t, f in (("crit_low", "Wilson 95% low", ".1%"),
                             ("crit_high", "Wilson 95% high", ".1%"),
                             ("hits", "Hits", ","), ("crits", "Crits", ","))
             if c in crit.columns]
        ),
    ]  # fmt: skip
    base = alt.Chart(values(crit)).encode(
        x=x_margin,
        y=alt.Y("crit_share:Q", title="Share of hits that crit", axis=alt.Axis(format=".0%")),
        color=alt.Color("weapon:N", title="Weapon"),
    )
    lines = base.mark_line(strokeWidth=1.5)
    points = base.mark_point(filled=True).encode(
        size=alt.when(at_margin).then(alt.value(130)).otherwise(alt.value(25)),
        opacity=alt.when(at_margin).then(alt.value(1.0)).otherwise(alt.value(0.5)),
        tooltip=crit_tooltip,
    )
    # One inline row of its own, so the rule is drawn once rather than once per datum.
    rule = (
        alt.Chart(values([{"rule": 0}]))
        .transform_calculate(crit_margin=margin.name)
        .mark_rule(color="#333", strokeDash=[4, 3])
        .encode(x=x_margin)
    )
    left = (rule + lines + points).properties(
        title=alt.TitleParams("Crit share per weapon", subtitle="dashed line: the slider's margin"),
        width=380,
        height=300,
    )

    ttk_tooltip = [
        alt.Tooltip("side_a:N", title=KIT_A),
        alt.Tooltip("crit_margin:Q", title="Crit margin"),
        alt.Tooltip("mean_rounds_to_kill:Q", title="Rounds to destroy the opponent",
                    format=".2f"),
        *(
            [alt.Tooltip(f"{c}:Q", title=t, format=f)
             for c, t, f in (("share_wiped", "Share of battles won by destroying it", ".1%"),
                             ("wipes", "Battles won by destroying it", ","),
                             ("battles", "Battles", ","))
             if c in ttk.columns]
        ),
    ]  # fmt: skip
    # A fixed axis over every margin, so moving the slider moves the bars, not the scale.
    top = ttk["mean_rounds_to_kill"].max()
    top = float(top) if isinstance(top, int | float) else 1.0
    bars_base = (
        alt.Chart(values(ttk))
        .encode(
            y=alt.Y("side_a:N", title=KIT_A, sort=sorted(ttk["side_a"].unique().to_list())),
            x=alt.X("mean_rounds_to_kill:Q", title="Rounds to destroy the opponent",
                    scale=alt.Scale(domain=[0, math.ceil(top)])),
            tooltip=ttk_tooltip,
        )
    )  # fmt: skip
    bars = bars_base.mark_bar(color="#4c78a8")
    layers: list[alt.Chart] = [bars]
    if "share_wiped" in ttk.columns:
        # The mean counts only battles won by destruction: say how many those are.
        layers.append(
            bars_base.mark_text(align="left", dx=4, fontSize=11).encode(
                text=alt.Text("share_wiped:Q", format=".0%")
            )
        )
    right = (
        alt.layer(*layers)
        .transform_filter(at_margin)
        .properties(
            title=alt.TitleParams(
                "Rounds to destroy the opponent at the slider's margin",
                subtitle="mean over battles side A won by destroying side B (label: their share)",
            ),
            width=300,
            height=alt.Step(22),
        )
    )
    return (
        alt.hconcat(left, right, spacing=40)
        .add_params(margin)
        .resolve_scale(color="independent")
        .properties(title=title("What does the crit margin do to crits and time-to-kill?",
                                 caption))
    )  # fmt: skip


def team_cap_chart(counts: pl.DataFrame, caption: str) -> alt.Chart:
    """Legal fielded kit teams against the Team Cap, one line per class mix (003 B3);
    ``counts`` from ``sims.skirmish.teams.kit_team_counts``."""
    need(counts, ["team_cap", "light", "medium", "heavy", "teams"], "team_cap_chart")
    frame = counts.with_columns(
        mix=pl.format("{}L {}M {}H", "light", "medium", "heavy")
    ).filter(pl.col("teams").max().over("mix") > 0)  # mixes no cap admits add nothing
    return (
        alt.Chart(values(frame), title=title("How many teams does the Team Cap admit?",
                                               caption))  # fmt: skip
        .mark_line(interpolate="step-after", point=False)
        .encode(
            x=alt.X("team_cap:Q", title="Team Cap", scale=alt.Scale(zero=False)),
            y=alt.Y("teams:Q", title="Legal fielded teams (kits)"),
            color=alt.Color("mix:N", title="Class mix (Light/Medium/Heavy)"),
            tooltip=[alt.Tooltip("mix:N", title="Class mix"),
                     alt.Tooltip("team_cap:Q", title="Team Cap"),
                     alt.Tooltip("teams:Q", title="Teams")],  # fmt: skip
        )
        .properties(width=520, height=280)
    )


def build_team_cap_chart(counts: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Legal fielded teams of *builds* against the Team Cap, one line per class mix
    (003 B, B3), on a log scale: the counts run from a handful to about 10^19.

    ``counts`` from ``sims.skirmish.team_counts.build_team_counts`` (or the ``team_cap``
    view's ``of = 'builds'`` rows of one run): ``teams`` (and ``piloted``) are exact
    integers, Decimal(38, 0). They are cast to floats for the line only; the tooltip
    carries the exact integer as text. A mix is drawn from the first cap that admits one
    of its teams (a log scale has no zero); mixes no cap admits are left out."""
    name = "build_team_cap_chart"
    need(counts, ["team_cap", "light", "medium", "heavy", "teams"], name)
    one_row_per(counts, ["team_cap", "light", "medium", "heavy"], name)
    exact = [c for c in ("teams", "piloted") if c in counts.columns]
    frame = (
        counts.sort(["light", "medium", "heavy", "team_cap"],
                    descending=[True, True, True, False])  # fmt: skip
        .filter(pl.col("teams") > 0)
        .select(
            "team_cap",
            mix=pl.format("{}L {}M {}H", "light", "medium", "heavy"),
            teams_float=pl.col("teams").cast(pl.Float64),
            **{f"{c}_exact": pl.col(c).cast(pl.String) for c in exact},
        )
    )
    if not frame.height:
        raise ValueError(f"{name}: no cap admits any team: nothing to draw on a log scale")
    mixes = frame["mix"].unique(maintain_order=True).to_list()
    tooltip = [
        alt.Tooltip("mix:N", title="Class mix"),
        alt.Tooltip("team_cap:Q", title="Team Cap"),
        alt.Tooltip("teams_exact:N", title="Legal fielded teams (exact)"),
        *([alt.Tooltip("piloted_exact:N", title="With three different pilots (exact)")]
          if "piloted" in exact else []),
    ]  # fmt: skip
    base = alt.Chart(values(frame)).encode(
        x=alt.X("team_cap:Q", title="Team Cap", scale=alt.Scale(zero=False),
                axis=alt.Axis(format="d")),
        y=alt.Y("teams_float:Q", title="Legal fielded teams (builds, log scale)",
                scale=alt.Scale(type="log"), axis=alt.Axis(format=".0e")),
        color=alt.Color("mix:N", title="Class mix (Light/Medium/Heavy)", sort=mixes),
    )  # fmt: skip
    lines = base.mark_line(interpolate="step-after")
    points = base.mark_point(filled=True, size=14).encode(tooltip=tooltip)  # one per cap
    return (lines + points).properties(
        title=title("How many teams of builds does the Team Cap admit?", caption),
        width=520,
        height=300,
    )
