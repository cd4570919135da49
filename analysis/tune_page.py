"""What ``mechbal tune`` shows: the targets reached in words and numbers (the
terminal's summary), the candidates and the sensitivity as tables, the objective and
tornado charts, and ``tune-GAME.html``, the offline page holding them."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import polars as pl

from analysis.readings import Z95
from analysis.tune_goals import Goal
from analysis.tune_search import Candidate, TuneResult
from sims.core.targets import Estimate

if TYPE_CHECKING:  # altair loads when a page is made: every command imports this
    import altair as alt

# ---- words and numbers ---------------------------------------------------------------------------


def _key_text(key: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in key.items())


def _value(x: float) -> str:
    return f"{x:.4f}" if abs(x) < 10 else f"{x:.2f}"


def estimate_text(e: Estimate) -> str:
    """``0.3664 (exact)`` or ``0.412 (95% 0.398..0.426, N 4,000)``."""
    if e.n == 0 and e.se == 0:
        return f"{_value(e.value)} (exact)"
    low, high = e.value - Z95 * e.se, e.value + Z95 * e.se
    return f"{_value(e.value)} (95% {_value(low)}..{_value(high)}, N {e.n:,})"


def _status(goal: Goal, e: Estimate) -> str:
    """How the estimate stands to the goal; a miss the noise could explain says so."""
    miss = goal.miss(e.value)
    if miss == 0:
        return "inside" if goal.value is None else "exact hit"
    if goal.value is None:
        text = f"{'below' if e.value < float(goal.low) else 'above'} by {_value(miss)}"
    else:
        text = f"off by {_value(miss)}"
    return text + (" (within the 95% interval)" if e.se and miss <= Z95 * e.se else "")


def target_rows(cand: Candidate) -> list[dict[str, Any]]:
    rows = []
    for r in cand.readings:
        for e in r.estimates:
            low, high = e.value - Z95 * e.se, e.value + Z95 * e.se
            rows.append(
                {
                    "target": r.goal.text,
                    "key": _key_text(e.key) or "(pooled)",
                    "goal": r.goal.goal_text,
                    "estimate": e.value,
                    "low": low if e.se or e.n else None,
                    "high": high if e.se or e.n else None,
                    "games": e.n or None,
                    "reached": _status(r.goal, e),
                    "term": r.term,
                }
            )
    return rows


def summary_lines(result: TuneResult) -> list[str]:
    best = result.best
    lines = [
        f"best of {len(result.candidates)} candidates ({result.method}): {best.label()}"
        f"  (objective {best.objective:.4g})"
    ]
    for p in result.params:
        shipped = f", catalog {p.current}" if p.current is not None else ""
        lines.append(f"  {p.name} = {best.setting[p.name]}  (range {p.low}..{p.high}{shipped})")
    for r in best.readings:
        lines.append(f"  {r.goal.text}:")
        for e in r.estimates:
            key = _key_text(e.key)
            lines.append(f"    {key + ': ' if key else ''}{estimate_text(e)}  {_status(r.goal, e)}")
    return lines


# ---- the page -----------------------------------------------------------------------------------


def candidates_frame(result: TuneResult) -> pl.DataFrame:
    rows = []
    for c in result.candidates:
        row: dict[str, Any] = {"candidate": c.order, **c.setting, "objective": c.objective}
        for r in c.readings:
            for e in r.estimates:
                row[f"{r.goal.metric}({_key_text(e.key)})"] = e.value
        row["best"] = c is result.best
        row["seconds"] = round(c.seconds, 3)
        rows.append(row)
    return pl.DataFrame(rows).sort(["objective", *(p.name for p in result.params)])


def sensitivity_frame(result: TuneResult) -> pl.DataFrame:
    best = {
        (r.goal.text, _key_text(e.key)): e.value for r in result.best.readings for e in r.estimates
    }
    rows = []
    for s in result.sensitivity:
        for r in s.candidate.readings:
            goal_low, goal_high = r.goal.bounds()
            for e in r.estimates:
                key = _key_text(e.key)
                label = f"{r.goal.metric}({key})" if key else r.goal.metric
                rows.append(
                    {
                        "target": label,
                        "parameter": s.param.name,
                        "end": s.end,
                        "end_label": f"{s.end} ({s.candidate.setting[s.param.name]})",
                        "value": s.candidate.setting[s.param.name],
                        "estimate": e.value,
                        "best": best.get((r.goal.text, key), math.nan),
                        "goal_low": goal_low,
                        "goal_high": goal_high,
                        "objective": s.candidate.objective,
                    }
                )
    return pl.DataFrame(rows)


def _caption(result: TuneResult) -> str:
    from analysis.report import sets_text

    kind = (
        "simulated with common random numbers: N "
        f"{result.n:,} games per evaluation, "
        f"seed {result.seed} for every candidate"
        if result.simulated
        else "exact: computed from each candidate's catalog"
    )
    edits = f"; with {sets_text(result.sets)}" if result.sets else ""
    count = len(result.candidates)
    return f"{result.game.title}, {count} candidates ({result.method}), {kind}{edits}."


def objective_chart(result: TuneResult) -> alt.TopLevelMixin:
    import altair as alt

    from analysis.charts import title, values

    rows = []
    for c in result.candidates:
        for p in result.params:
            rows.append(
                {
                    "parameter": p.name,
                    "value": c.setting[p.name],
                    "objective": c.objective,
                    "candidate": c.label(),
                    "best": "best" if c is result.best else "other",
                }
            )
    rows.sort(key=lambda r: (r["parameter"], r["value"]))
    x = alt.X(
        "value:Q",
        title="parameter value",
        scale=alt.Scale(zero=False),
        axis=alt.Axis(tickMinStep=1, format="d"),
    )
    y = alt.Y("objective:Q", title="objective (sum of misses / goal size; 0 = every goal met)")
    tooltip = [
        alt.Tooltip("candidate:N", title="setting"),
        alt.Tooltip("objective:Q", format=".4g"),
    ]
    points = (
        alt.Chart()
        .mark_circle(size=70, opacity=0.8)
        .encode(
            x=x,
            y=y,
            tooltip=tooltip,
            color=alt.Color(
                "best:N",
                scale=alt.Scale(domain=["best", "other"], range=["#d62728", "#1f77b4"]),
                legend=alt.Legend(title=None),
            ),
        )
    )
    layers = [points]
    if len(result.params) == 1:
        layers.insert(0, alt.Chart().mark_line(color="#9ab").encode(x=x, y=y))
    chart = alt.layer(*layers, data=values(rows)).properties(width=320, height=220)
    return (
        chart.facet(column=alt.Column("parameter:N", title=None))
        .resolve_scale(x="independent")
        .properties(title=title("How close does each candidate come?", _caption(result)))
    )


def objective_map(result: TuneResult) -> alt.TopLevelMixin:
    """Two parameters: the objective of every candidate over the plane of their values."""
    import altair as alt

    from analysis.charts import title, values

    first, second = result.params
    rows = [
        {
            "x": c.setting[first.name],
            "y": c.setting[second.name],
            "objective": c.objective,
            "candidate": c.label(),
        }
        for c in result.candidates
    ]
    base = alt.Chart(values(rows)).encode(
        x=alt.X("x:O", title=first.name),
        y=alt.Y("y:O", title=second.name, sort="descending"),
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "objective:Q", scale=alt.Scale(scheme="viridis"), legend=alt.Legend(title="objective")
        ),
        tooltip=[
            alt.Tooltip("candidate:N", title="setting"),
            alt.Tooltip("objective:Q", format=".4g"),
        ],
    )
    best = base.transform_filter(
        (alt.datum.x == result.best.setting[first.name])
        & (alt.datum.y == result.best.setting[second.name])
    ).mark_text(text="best", color="white", fontWeight="bold")
    return (cells + best).properties(
        width=alt.Step(26),
        height=alt.Step(22),
        title=title(
            "Where on the plane of the two parameters are the goals met?",
            "Darker is closer (0 = every goal met). " + _caption(result),
        ),
    )


def tornado_chart(result: TuneResult, frame: pl.DataFrame) -> alt.TopLevelMixin:
    import altair as alt

    from analysis.charts import title, values

    y = alt.Y("parameter:N", title=None)
    x = alt.X("estimate:Q", title="target value", scale=alt.Scale(zero=False))
    tooltip = [
        alt.Tooltip("parameter:N"),
        alt.Tooltip("end_label:N", title="moved to"),
        alt.Tooltip("estimate:Q", format=".4f", title="target value there"),
        alt.Tooltip("best:Q", format=".4f", title="at the best setting"),
    ]
    bars = (
        alt.Chart()
        .mark_bar(height={"band": 0.4})
        .encode(
            y=y,
            x=x,
            x2="best:Q",
            yOffset=alt.YOffset("end:N", sort=["low", "high"]),
            color=alt.Color(
                "end:N",
                scale=alt.Scale(domain=["low", "high"], range=["#4c78a8", "#f58518"]),
                legend=alt.Legend(title="parameter moved to its range's"),
            ),
            tooltip=tooltip,
        )
    )
    best = alt.Chart().mark_tick(color="black", thickness=2).encode(y=y, x="best:Q")
    goal_low = alt.Chart().mark_rule(color="#2ca02c", strokeDash=[4, 3]).encode(x="goal_low:Q")
    goal_high = alt.Chart().mark_rule(color="#2ca02c", strokeDash=[4, 3]).encode(x="goal_high:Q")
    chart = alt.layer(goal_low, goal_high, bars, best, data=values(frame)).properties(
        width=460, height=alt.Step(28)
    )
    return (
        chart.facet(
            row=alt.Row(
                "target:N",
                title=None,
                header=alt.Header(labelAngle=0, labelAlign="left", labelFontWeight="bold"),
            )
        )
        .resolve_scale(x="independent", y="independent")
        .properties(
            title=title(
                "What does each parameter move?",
                "From the best setting, each parameter alone moved to the low (blue) and high "
                "(orange) end of its range; the black tick is the best setting's value, the "
                "green dashes the goal. " + _caption(result),
            )
        )
    )


def _collapsed(frame: pl.DataFrame, what: str, open_up_to: int = 25) -> str:
    """A long table folded away (``<details>``), best first; a short one shown."""
    table = _frame_html(frame, limit=2_000)
    if frame.height <= open_up_to:
        return table
    return (
        f"<details><summary>Every {what}, best first ({frame.height:,} rows)</summary>"
        f"{table}</details>"
    )


def _frame_html(frame: pl.DataFrame, limit: int = 500) -> str:
    from analysis.report import frame_table

    shown = frame.with_columns(pl.col(pl.Float64).round(4)).with_columns(
        pl.all().cast(pl.String).fill_null("")
    )
    return frame_table(shown, limit=limit)


def tune_page(result: TuneResult, command: str = "") -> str:
    from analysis.html import EXPORT_OPTIONS, page
    from analysis.report import sets_text

    best = result.best
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    params = pl.DataFrame(
        [
            {
                "parameter": p.name,
                "best": best.setting[p.name],
                "range": f"{p.low}..{p.high}",
                "catalog": "" if p.current is None else str(p.current),
            }
            for p in result.params
        ]
    )
    reached = pl.DataFrame(target_rows(best))
    met = all(r.term == 0 for r in best.readings)
    headline = (
        f"<p><strong>Best: {html.escape(best.label())}</strong> "
        f"(objective {best.objective:.4g}{', every goal met' if met else ''}), the best "
        f"of {len(result.candidates)} candidates ({result.method}).</p>"
    )
    sentences = "".join(
        f"<li>{html.escape(r.goal.text)}: "
        + "; ".join(
            html.escape(
                (f"{_key_text(e.key)} " if e.key else "")
                + estimate_text(e)
                + ", "
                + _status(r.goal, e)
            )
            for e in r.estimates
        )
        + "</li>"
        for r in best.readings
    )
    best_html = [
        headline,
        f"<ul>{sentences}</ul>",
        "<h3>Parameters</h3>",
        _frame_html(params),
        "<h3>Targets reached</h3>",
        _frame_html(reached),
    ]
    candidates = candidates_frame(result)
    charts = [objective_chart(result)]
    if len(result.params) == 2:
        charts.append(objective_map(result))
    sens = sensitivity_frame(result)
    sens_table = sens.select("target", "parameter", "end_label", "estimate", "best", "objective")
    how = (
        f"<p>Game {html.escape(result.game.title)} ({html.escape(result.game.name)}), catalog "
        f"<code>{html.escape(str(result.catalog_root))}</code>"
        + (f" with <code>{html.escape(sets_text(result.sets))}</code>" if result.sets else "")
        + f". Generated {stamp} in {result.seconds:.1f} s.</p>"
        + (f"<p>Command: <code>{html.escape(command)}</code></p>" if command else "")
        + "<p><strong>Objective</strong> (lower is better; 0 when every goal is met): the sum "
        "over targets of the miss relative to the goal's size: the miss is |estimate - VALUE| "
        "for <code>~ VALUE</code> and the distance outside the range for <code>in LO..HI"
        "</code>, averaged over a target's estimates (a <code>*</code> filter gives one per "
        "value, each must meet the goal), divided by |VALUE| (or the larger of |LO| and "
        "|HI|). A tenth of the goal missed counts 0.1 whatever the metric's unit.</p>"
        + (
            "<p><strong>Simulation</strong>: each candidate's simulated targets ran "
            f"{result.n:,} games on seed {result.seed}, the same seed for every candidate "
            "(common random numbers), into "
            + (
                f"the store <code>{html.escape(str(result.store))}</code> (a later tune or "
                "query finds the runs there)"
                if result.store is not None
                else "a temporary store"
            )
            + "; intervals are estimate ± 1.96 standard errors.</p>"
            if result.simulated
            else "<p>Every target is exact: no simulation.</p>"
        )
        + f"<p><strong>Search</strong>: {result.method}"
        + (
            " over every integer of each range"
            if result.method == "grid"
            else " (SciPy, integrality, seeded), stopped at the budget of distinct candidates "
            "or once every goal is met"
        )
        + "; ties go to the setting nearest the catalog's values. Sensitivity: from the best "
        "setting, each parameter alone at each end of its range.</p>"
    )
    sections = [
        ("Best setting", best_html),
        ("Every candidate", [*charts, _collapsed(candidates, "candidate")]),
        ("Sensitivity", [tornado_chart(result, sens), _frame_html(sens_table)]),
        ("How this was computed", how),
    ]
    intro = (
        "<p class='small'>Targets: "
        + "; ".join(f"<code>{html.escape(g.text)}</code>" for g in result.goals)
        + ". Parameters: "
        + ", ".join(f"<code>{html.escape(p.name)}</code> {p.low}..{p.high}" for p in result.params)
        + ".</p>"
    )
    return page(
        f"{result.game.title}: tune", sections, intro_html=intro, embed_options=EXPORT_OPTIONS
    )
