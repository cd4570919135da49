"""Mecha Skirmish charts: one designer question each (003 F4 hit location, F5 crit
margin, B3 Team Cap, duels, H and I4 the board: maps, zones, where mechs stand and fall).
Built on the shared helpers of :mod:`analysis.charts`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import polars as pl

from analysis.charts import caption, float_column, need, one_row_per, run_caption, title, values
from analysis.charts import win_rate_heatmap as _heatmap
from sims.skirmish.maps import Map

__all__ = [  # with the shared captions, so a notebook needs this module only
    "caption",
    "run_caption",
    "win_rate_heatmap",
    "destroyed_by_round_chart",
    "damage_by_range_chart",
    "strike_frequency_chart",
    "crit_margin_chart",
    "team_cap_chart",
    "build_team_cap_chart",
    "win_rate_by_map_chart",
    "decided_by_map_chart",
    "zone_control_chart",
    "positions_heatmap",
    "map_grid",
    "kit_moves_chart",
    "SILHOUETTE",
]

# Hit-location order (F4), with the cover band (H5) last, and the rulebook's names.
SILHOUETTE = ("head", "right_arm", "left_arm", "core", "back", "legs", "cover")
PART_NAMES = {
    "head": "Head",
    "right_arm": "Right Arm",
    "left_arm": "Left Arm",
    "core": "Core",
    "back": "Back",
    "legs": "Legs",
    "cover": "Cover",
}
COVER_NAMES = {"none": "No cover", "hard": "Hard cover"}

KIT_A = "Kit (side A)"
KIT_B = "Opponent kit"


def win_rate_heatmap(win_rates: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Side A's score in every kit-against-kit duel (:func:`analysis.charts.win_rate_heatmap`
    in the rulebook's words)."""
    return _heatmap(
        win_rates, caption, side=KIT_A, opponent=KIT_B, question="Which kit wins each duel?"
    )


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
            [
                alt.Tooltip(f"{c}:Q", title=t, format=",")
                for c, t in (("wiped_b", "Battles destroyed"), ("battles", "Battles"))
                if c in curves.columns
            ]
        ),
    ]
    last_round = int(curves["round"].max())
    base = alt.Chart(values(curves)).encode(
        x=alt.X(
            "round:Q",
            title="Round",
            scale=alt.Scale(domain=[1, last_round]),
            axis=alt.Axis(tickMinStep=1, format="d"),
        ),
        # A fixed 0..1 scale, so switching kits compares like with like.
        y=alt.Y(
            "share_wiped_b:Q",
            title="Destroyed by this round or sooner",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format=".0%"),
        ),
        color=alt.Color("side_b:N", title=KIT_B),
    )
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
    bands: pl.DataFrame,
    caption: str,
    *,
    order: Sequence[str] = SILHOUETTE,
    columns: int = 4,
) -> alt.FacetChart:
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
            x=alt.X(
                "location:N",
                title="Hit location (d20 bands)",
                sort=present,
                axis=alt.Axis(labelAngle=-45),
            ),
            xOffset=alt.XOffset("cover_name:N", sort=covers),
            y=alt.Y(f"{p}:Q", title="Share of hits struck", axis=alt.Axis(format=".0%")),
            color=alt.Color(
                "cover_name:N",
                title="Cover",
                sort=covers,
                scale=alt.Scale(range=["#4c78a8", "#f58518"]),
            ),
            tooltip=tooltip,
        )
        .properties(width=200, height=160)
    )
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
        "crit_margin:Q",
        title="Crit margin",
        scale=alt.Scale(domain=[margins[0], margins[-1]]),
        axis=alt.Axis(values=margins, format="d"),
    )
    crit_tooltip = [
        alt.Tooltip("weapon:N", title="Weapon"),
        alt.Tooltip("crit_margin:Q", title="Crit margin"),
        alt.Tooltip("crit_share:Q", title="Share of hits that crit", format=".1%"),
        *(
            [
                alt.Tooltip(f"{c}:Q", title=t, format=f)
                for c, t, f in (
                    ("crit_low", "Wilson 95% low", ".1%"),
                    ("crit_high", "Wilson 95% high", ".1%"),
                    ("hits", "Hits", ","),
                    ("crits", "Crits", ","),
                )
                if c in crit.columns
            ]
        ),
    ]
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
        alt.Tooltip("mean_rounds_to_kill:Q", title="Rounds to destroy the opponent", format=".2f"),
        *(
            [
                alt.Tooltip(f"{c}:Q", title=t, format=f)
                for c, t, f in (
                    ("share_wiped", "Share of battles won by destroying it", ".1%"),
                    ("wipes", "Battles won by destroying it", ","),
                    ("battles", "Battles", ","),
                )
                if c in ttk.columns
            ]
        ),
    ]
    # A fixed axis over every margin, so moving the slider moves the bars, not the scale.
    top = ttk["mean_rounds_to_kill"].max()
    top = float(top) if isinstance(top, int | float) else 1.0
    bars_base = alt.Chart(values(ttk)).encode(
        y=alt.Y("side_a:N", title=KIT_A, sort=sorted(ttk["side_a"].unique().to_list())),
        x=alt.X(
            "mean_rounds_to_kill:Q",
            title="Rounds to destroy the opponent",
            scale=alt.Scale(domain=[0, math.ceil(top)]),
        ),
        tooltip=ttk_tooltip,
    )
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
        .properties(title=title("What does the crit margin do to crits and time-to-kill?", caption))
    )


def team_cap_chart(counts: pl.DataFrame, caption: str) -> alt.Chart:
    """Legal fielded kit teams against the Team Cap, one line per class mix (003 B3);
    ``counts`` from ``sims.skirmish.teams.kit_team_counts``."""
    need(counts, ["team_cap", "light", "medium", "heavy", "teams"], "team_cap_chart")
    frame = counts.with_columns(mix=pl.format("{}L {}M {}H", "light", "medium", "heavy")).filter(
        pl.col("teams").max().over("mix") > 0
    )  # mixes no cap admits add nothing
    return (
        alt.Chart(values(frame), title=title("How many teams does the Team Cap admit?", caption))
        .mark_line(interpolate="step-after", point=False)
        .encode(
            x=alt.X("team_cap:Q", title="Team Cap", scale=alt.Scale(zero=False)),
            y=alt.Y("teams:Q", title="Legal fielded teams (kits)"),
            color=alt.Color("mix:N", title="Class mix (Light/Medium/Heavy)"),
            tooltip=[
                alt.Tooltip("mix:N", title="Class mix"),
                alt.Tooltip("team_cap:Q", title="Team Cap"),
                alt.Tooltip("teams:Q", title="Teams"),
            ],
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
        counts.sort(["light", "medium", "heavy", "team_cap"], descending=[True, True, True, False])
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
        *(
            [alt.Tooltip("piloted_exact:N", title="With three different pilots (exact)")]
            if "piloted" in exact
            else []
        ),
    ]
    base = alt.Chart(values(frame)).encode(
        x=alt.X(
            "team_cap:Q", title="Team Cap", scale=alt.Scale(zero=False), axis=alt.Axis(format="d")
        ),
        y=alt.Y(
            "teams_float:Q",
            title="Legal fielded teams (builds, log scale)",
            scale=alt.Scale(type="log"),
            axis=alt.Axis(format=".0e"),
        ),
        color=alt.Color("mix:N", title="Class mix (Light/Medium/Heavy)", sort=mixes),
    )
    lines = base.mark_line(interpolate="step-after")
    points = base.mark_point(filled=True, size=14).encode(tooltip=tooltip)  # one per cap
    return (lines + points).properties(
        title=title("How many teams of builds does the Team Cap admit?", caption),
        width=520,
        height=300,
    )


# --- the board (003 H, I4) ---------------------------------------------------------------

# How a battle is decided (analysis.skirmish.queries.decided_by_map), in reading order.
HOW_NAMES = {
    "wipe": "Wipe (kills)",
    "zones": "Points: zones",
    "kills": "Points: kills",
    "hull": "Hull",
    "draw": "Draw",
}
HOW_COLORS = ("#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#7f7f7f")
SIDE_NAMES = {"a": "Side A", "b": "Side B"}
# A pointy-top hexagon in Vega's symbol space [-1, 1]: odd-r rows (003 H).
HEX = "M0,-1L0.866,-0.5L0.866,0.5L0,1L-0.866,0.5L-0.866,-0.5Z"
TERRAIN_NAMES = ("open", "foliage", "obstacle")  # sims.skirmish.maps OPEN, FOLIAGE, OBSTACLE
TERRAIN_COLORS = ("#eeeeee", "#c7dfc0", "#8c8c8c")


def _interval_text(low: str = "low", high: str = "high") -> pl.Expr:
    """The 95% interval as one tooltip line (percentages)."""
    return pl.format("{}% – {}%", (pl.col(low) * 100).round(1), (pl.col(high) * 100).round(1))


def win_rate_by_map_chart(scores: pl.DataFrame, caption: str) -> alt.LayerChart:
    """Each side's (kit's or team's) score on each map, both seats against every other
    side, as bars with their 95% Wilson intervals and the even score marked; ``scores``
    from :func:`analysis.skirmish.queries.scores_by_map` (one run, one policy)."""
    name = "win_rate_by_map_chart"
    need(scores, ["board", "side", "score", "low", "high", "battles"], name)
    one_row_per(scores, ["board", "side"], name)
    frame = scores.with_columns(interval=_interval_text())
    boards = frame["board"].unique(maintain_order=True).to_list()
    sides = sorted(frame["side"].unique().to_list())
    tooltip = [
        alt.Tooltip("side:N", title="Side"),
        alt.Tooltip("board:N", title="Map"),
        alt.Tooltip("score:Q", title="Score (draws count half)", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
        alt.Tooltip("battles:Q", title="Battles", format=","),
    ]
    base = alt.Chart(values(frame)).encode(
        y=alt.Y("side:N", title=None, sort=sides),
        yOffset=alt.YOffset("board:N", sort=boards),
        color=alt.Color("board:N", title="Map", sort=boards),
    )
    bars = base.mark_bar(opacity=0.8).encode(
        x=alt.X(
            "score:Q",
            title="Score against every other side (draws count half)",
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format=".0%"),
        ),
        tooltip=tooltip,
    )
    whiskers = base.mark_rule(color="black").encode(x="low:Q", x2="high:Q", tooltip=tooltip)
    even = (
        alt.Chart(values([{"even": 0.5}]))
        .mark_rule(strokeDash=[4, 3], color="#333")
        .encode(x="even:Q")
    )
    return (bars + whiskers + even).properties(
        title=title("Which map favours whom?", caption),
        width=460,
        height=alt.Step(16),
    )


def decided_by_map_chart(decided: pl.DataFrame, caption: str) -> alt.Chart:
    """How the battles on each map were decided (wipe, zones, kills, Hull, draw: the
    definitions of :func:`analysis.skirmish.queries.decided_by_map`) as one stacked bar
    per row; rows are ``board``, or ``fight`` and ``board`` where the frame names the
    experiment (``fight``, e.g. "team fight", "duel")."""
    name = "decided_by_map_chart"
    need(decided, ["board", "how", "share", "low", "high", "games", "battles"], name)
    keys = ["fight", "board"] if "fight" in decided.columns else ["board"]
    one_row_per(decided, [*keys, "how"], name)
    label = pl.format("{} on {}", "fight", "board") if "fight" in keys else pl.col("board")
    order = {h: i for i, h in enumerate(HOW_NAMES)}
    frame = decided.with_columns(
        label=label,
        way=pl.col("how").replace_strict(HOW_NAMES, default=pl.col("how")),
        rank=pl.col("how").replace_strict(order, default=len(order), return_dtype=pl.Int64),
        interval=_interval_text(),
    )
    labels = frame["label"].unique(maintain_order=True).to_list()
    ways = [HOW_NAMES[h] for h in HOW_NAMES]
    return (
        alt.Chart(
            values(frame), title=title("Where are battles won: zones, kills or Hull?", caption)
        )
        .mark_bar()
        .encode(
            y=alt.Y("label:N", title=None, sort=labels),
            x=alt.X(
                "share:Q",
                title="Share of battles",
                stack="zero",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format=".0%"),
            ),
            color=alt.Color(
                "way:N",
                title="Decided by",
                sort=ways,
                scale=alt.Scale(domain=ways, range=list(HOW_COLORS)),
            ),
            order=alt.Order("rank:Q"),
            tooltip=[
                alt.Tooltip("label:N", title="Battles"),
                alt.Tooltip("way:N", title="Decided by"),
                alt.Tooltip("share:Q", title="Share", format=".1%"),
                alt.Tooltip("interval:N", title="Wilson 95% interval"),
                alt.Tooltip("games:Q", title="Battles so decided", format=","),
                alt.Tooltip("battles:Q", title="Battles", format=","),
            ],
        )
        .properties(width=460, height=alt.Step(26))
    )


def zone_control_chart(zones: pl.DataFrame, caption: str) -> alt.FacetChart:
    """Mean zones each side holds at the end of each round, one line per side with its
    95% interval, one panel per map; ``zones`` from
    :func:`analysis.skirmish.queries.zone_control` (one run)."""
    name = "zone_control_chart"
    need(zones, ["board", "round", "side", "mean_zones", "low", "high", "battles"], name)
    one_row_per(zones, ["board", "round", "side"], name)
    frame = zones.with_columns(
        side_name=pl.col("side").replace_strict(SIDE_NAMES, default=pl.col("side"))
    )
    boards = frame["board"].unique(maintain_order=True).to_list()
    last = int(frame["round"].max()) if frame.height else 1
    top = max(1.0, float(frame["high"].max() or 0)) if frame.height else 1.0
    tooltip = [
        alt.Tooltip("board:N", title="Map"),
        alt.Tooltip("round:Q", title="Round"),
        alt.Tooltip("side_name:N", title="Side"),
        alt.Tooltip("mean_zones:Q", title="Mean zones held", format=".2f"),
        alt.Tooltip("low:Q", title="95% low", format=".2f"),
        alt.Tooltip("high:Q", title="95% high", format=".2f"),
        alt.Tooltip("battles:Q", title="Battles still running", format=","),
    ]
    base = alt.Chart().encode(
        x=alt.X(
            "round:Q",
            title="End of round",
            scale=alt.Scale(domain=[1, last]),
            axis=alt.Axis(tickMinStep=1, format="d"),
        ),
        color=alt.Color("side_name:N", title="Side", sort=list(SIDE_NAMES.values())),
    )
    y = alt.Y("mean_zones:Q", title="Mean zones held", scale=alt.Scale(domain=[0, top]))
    band = base.mark_area(opacity=0.2).encode(
        y=alt.Y("low:Q", title="Mean zones held"), y2="high:Q"
    )
    lines = base.mark_line().encode(y=y)
    points = base.mark_point(filled=True, size=30).encode(y=y, tooltip=tooltip)
    return (
        alt.layer(band, lines, points, data=values(frame))
        .properties(
            width=240,
            height=200,
        )
        .facet(
            column=alt.Column("board:N", title="Map", sort=boards),
            title=title("Who holds the zones, round by round?", caption),
        )
    )


def map_grid(maps: Sequence[Map]) -> pl.DataFrame:
    """Every hex of each map: board, col, row, terrain (open, foliage, obstacle) and
    whether it lies in a zone: the ground the heat map is drawn on."""
    rows = []
    for m in maps:
        zone = {hex_ for flower in m.zones for hex_ in flower}
        for col, row in m.hexes():
            rows.append(
                {
                    "board": m.id,
                    "col": col,
                    "row": row,
                    "terrain": TERRAIN_NAMES[int(m.terrain[row, col])],
                    "zone": (col, row) in zone,
                }
            )
    return pl.DataFrame(
        rows,
        schema={
            "board": pl.String,
            "col": pl.Int64,
            "row": pl.Int64,
            "terrain": pl.String,
            "zone": pl.Boolean,
        },
    )


def positions_heatmap(
    positions: pl.DataFrame, grid: pl.DataFrame, caption: str, *, width: int = 330
) -> alt.FacetChart:
    """Where mechs end the battle standing and where they are destroyed: per map (columns)
    and state (rows: standing, destroyed), each hex colored by how many mechs ended there
    (both sides; a log scale), on the map's terrain with its zone hexes outlined.

    Odd-r offset hexes (003 H): x = col + 0.5 * (row % 2), y = row, row 0 at the top.
    ``positions`` from :func:`analysis.skirmish.queries.positions` (one run), ``grid`` from
    :func:`map_grid`; maps of the grid with no positions are left out."""
    name = "positions_heatmap"
    need(positions, ["board", "state", "col", "row", "mechs"], name)
    need(grid, ["board", "col", "row", "terrain", "zone"], name)
    counts = positions.group_by("board", "state", "col", "row").agg(
        pl.col("mechs").sum()
    )  # both sides
    boards = [
        b
        for b in grid["board"].unique(maintain_order=True).to_list()
        if b in set(counts["board"].to_list())
    ]
    if not boards:
        raise ValueError(f"{name}: no positions on any map of the grid")
    states = ["standing", "destroyed"]
    ground = grid.filter(pl.col("board").is_in(boards))
    total = counts.group_by("board", "state").agg(pl.col("mechs").sum().alias("of"))
    layers = pl.concat(
        [
            ground.join(pl.DataFrame({"state": states}), how="cross").select(
                "board",
                "state",
                "col",
                "row",
                "terrain",
                "zone",
                layer=pl.lit("ground"),
                mechs=pl.lit(None, pl.Int64),
                of=pl.lit(None, pl.Int64),
            ),
            counts.join(total, on=["board", "state"])
            .join(
                ground.select("board", "col", "row", "terrain", "zone"),
                on=["board", "col", "row"],
                how="left",
            )
            .select(
                "board",
                "state",
                "col",
                "row",
                "terrain",
                "zone",
                layer=pl.lit("mechs"),
                mechs=pl.col("mechs").cast(pl.Int64),
                of=pl.col("of").cast(pl.Int64),
            ),
        ],
        how="vertical_relaxed",
    ).with_columns(
        x=pl.col("col") + 0.5 * (pl.col("row") % 2),
        share=pl.col("mechs") / pl.col("of"),
    )
    length = int(ground["col"].max()) + 1
    depth = int(ground["row"].max()) + 1
    step = width / (length + 0.5)  # pixels per column
    height = round(depth * step * 0.866)  # rows 1.5 radii apart, a radius step / sqrt(3)
    size = (2 * step / 3**0.5) ** 2  # the symbol's [-1, 1] box spans two radii
    x = alt.X("x:Q", title=None, scale=alt.Scale(domain=[-0.5, length], nice=False), axis=None)
    y = alt.Y(
        "row:Q",
        title=None,
        axis=None,
        scale=alt.Scale(domain=[-0.5, depth - 0.5], reverse=True, nice=False),
    )
    hexes = {"shape": HEX, "size": size}
    tooltip = [
        alt.Tooltip("board:N", title="Map"),
        alt.Tooltip("state:N", title="Mechs"),
        alt.Tooltip("col:Q", title="Column"),
        alt.Tooltip("row:Q", title="Row"),
        alt.Tooltip("terrain:N", title="Terrain"),
        alt.Tooltip("zone:N", title="In a zone"),
    ]
    terrain = (
        alt.Chart()
        .transform_filter(alt.datum.layer == "ground")
        .mark_point(filled=True, **hexes)
        .encode(
            x=x,
            y=y,
            fill=alt.Fill(
                "terrain:N",
                title="Terrain",
                sort=list(TERRAIN_NAMES),
                scale=alt.Scale(domain=list(TERRAIN_NAMES), range=list(TERRAIN_COLORS)),
            ),
            tooltip=tooltip,
        )
    )
    mechs = (
        alt.Chart()
        .transform_filter(alt.datum.layer == "mechs")
        .mark_point(filled=True, **hexes)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "mechs:Q",
                title="Mechs",
                scale=alt.Scale(type="log", scheme="inferno", reverse=True),
            ),
            tooltip=[
                *tooltip,
                alt.Tooltip("mechs:Q", title="Mechs ended here", format=","),
                alt.Tooltip("share:Q", title="Share of the panel's mechs", format=".2%"),
            ],
        )
    )
    zones = (
        alt.Chart()
        .transform_filter((alt.datum.layer == "ground") & alt.datum.zone)
        .mark_point(filled=False, stroke="#1f77b4", strokeWidth=1.5, **hexes)
        .encode(x=x, y=y)
    )
    return (
        alt.layer(terrain, mechs, zones, data=values(layers))
        .properties(
            width=width,
            height=height,
        )
        .facet(
            row=alt.Row("state:N", title=None, sort=states),
            column=alt.Column("board:N", title="Map", sort=boards),
            title=title("Where do mechs stand and fall?", caption),
        )
        .resolve_scale(fill="shared", color="shared")
    )


def kit_moves_chart(moves: pl.DataFrame, caption: str, *, base: str = "track") -> alt.HConcatChart:
    """Each kit's duel score on a map against ``base`` (the track): left, an arrow from
    its score on the track to its score on the map, with the map score's 95% interval;
    right, the change with its 95% interval and zero marked. Kits sorted by change;
    ``moves`` from :func:`analysis.skirmish.queries.score_moves` (one map, one policy)."""
    name = "kit_moves_chart"
    need(
        moves,
        [
            "board",
            "side",
            "score",
            "low",
            "high",
            "base_score",
            "change",
            "change_low",
            "change_high",
        ],
        name,
    )
    one_row_per(moves, ["side"], name)
    frame = moves.with_columns(
        interval=_interval_text(),
        change_interval=pl.format(
            "{} to {} points",
            (pl.col("change_low") * 100).round(1),
            (pl.col("change_high") * 100).round(1),
        ),
    )
    order = frame.sort("change", descending=True)["side"].to_list()
    board = frame["board"][0] if frame.height else "map"
    tooltip = [
        alt.Tooltip("side:N", title="Kit"),
        alt.Tooltip("score:Q", title=f"Score on {board}", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
        alt.Tooltip("base_score:Q", title=f"Score on the {base}", format=".1%"),
        alt.Tooltip("change:Q", title="Change", format="+.1%"),
        alt.Tooltip("change_interval:N", title="Change, 95% interval"),
    ]
    y = alt.Y("side:N", title="Kit", sort=order)
    base_chart = alt.Chart(values(frame)).encode(y=y, tooltip=tooltip)
    pct = alt.Axis(format=".0%")
    arrow = base_chart.mark_rule(color="#999").encode(
        x=alt.X(
            "base_score:Q",
            title="Duel score (both seats, draws count half)",
            axis=pct,
            scale=alt.Scale(domain=[0, 1]),
        ),
        x2="score:Q",
    )
    on_base = base_chart.mark_point(color="#999", size=50).encode(x="base_score:Q")
    whiskers = base_chart.mark_rule(color="#1f77b4").encode(x="low:Q", x2="high:Q")
    on_map = base_chart.mark_point(filled=True, color="#1f77b4", size=60).encode(x="score:Q")
    left = (arrow + on_base + whiskers + on_map).properties(
        title=alt.TitleParams(f"Score: the {base} (grey ring) to {board} (blue)"),
        width=320,
        height=alt.Step(22),
    )
    change_x = alt.X(
        "change:Q", title=f"Change from the {base} (points of score)", axis=alt.Axis(format="+.0%")
    )
    rules = base_chart.mark_rule(color="#333").encode(
        x=alt.X("change_low:Q", title=None), x2="change_high:Q"
    )
    dots = base_chart.mark_point(filled=True, size=60).encode(
        x=change_x,
        color=alt.when(alt.datum.change >= 0)
        .then(alt.value("#2ca02c"))
        .otherwise(alt.value("#d62728")),
    )
    zero = alt.Chart(values([{"zero": 0}])).mark_rule(strokeDash=[4, 3]).encode(x="zero:Q")
    right = (zero + rules + dots).properties(
        title=alt.TitleParams("Change, with its 95% interval"), width=260, height=alt.Step(22)
    )
    return alt.hconcat(left, right, spacing=30).properties(
        title=title("How did the kit win rates move against the track?", caption)
    )
