"""``reports/robust-GAME.html``: a robustness pass (:mod:`analysis.robust`) as a page: the
verdicts with their tags, a matrix of verdicts against variants (holds, flips, not
checked), and a tornado chart of how far each variant moves each verdict's number.
Names no game."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import altair as alt
import polars as pl

from analysis import html as page_html
from analysis.charts import title, values

if TYPE_CHECKING:
    from analysis.robust_result import RobustResult

STATUS_ORDER = ["holds", "flips", "not checked", "did not load"]
STATUS_COLORS = ["#4c9a5b", "#d1495b", "#d9d9d9", "#8c8c8c"]


def matrix_frame(result: RobustResult) -> pl.DataFrame:
    """One row per (verdict, variant) checked or not: the cell of the matrix."""
    claims = {t.verdict: t.claim for t in result.tags}
    rows = []
    for c in result.checks:
        state = (
            "holds"
            if c.holds
            else "flips"
            if c.holds is False
            else "did not load"
            if c.status == "invalid"
            else "not checked"
        )
        rows.append(
            {
                "verdict": claims.get(c.verdict, c.verdict),
                "variant": c.variant,
                "kind": c.kind,
                "state": state,
                "outcome": c.text or c.label,
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "verdict": pl.String,
            "variant": pl.String,
            "kind": pl.String,
            "state": pl.String,
            "outcome": pl.String,
        },
    )


def matrix_chart(result: RobustResult) -> alt.Chart:
    frame = matrix_frame(result)
    order = [v.id for v in result.variants]
    return (
        alt.Chart(values(frame))
        .mark_rect(stroke="white")
        .encode(
            x=alt.X(
                "variant:N",
                sort=order,
                title="variant (seats, readings, policies, placeholder draws)",
            ),
            y=alt.Y("verdict:N", title=None, axis=alt.Axis(labelLimit=360)),
            color=alt.Color(
                "state:N",
                scale=alt.Scale(domain=STATUS_ORDER, range=STATUS_COLORS),
                title="the verdict",
            ),
            tooltip=["verdict:N", "variant:N", "kind:N", "state:N", "outcome:N"],
        )
        .properties(
            title=title(
                "Which variants flip which verdict?",
                f"{result.game}: each headline verdict rerun under each variant on the same seed "
                f"({result.n:,} games a run, seed {result.seed}); red: a different verdict.",
            ),
            width=max(300, 14 * len(order)),
        )
    )


def tornado_frame(result: RobustResult, verdicts: Sequence[str] | None = None) -> pl.DataFrame:
    """Per verdict (``verdicts``: these ids only) and variant (the placeholder draws as
    one bar, their lowest to highest): the verdict's number under the variant minus the
    baseline's."""
    base = {
        t.verdict: t.base.value for t in result.tags if verdicts is None or t.verdict in verdicts
    }
    claims = {t.verdict: t.claim for t in result.tags}
    rows = []
    for verdict, value in base.items():
        if value is None or not math.isfinite(value):
            continue
        mine = [
            c
            for c in result.checks
            if c.verdict == verdict and c.status == "checked" and math.isfinite(c.value)
        ]
        for c in mine:
            if c.kind == "placeholder":
                continue
            rows.append(
                _bar(claims[verdict], c.variant, c.kind, c.value - value, c.value - value, c.holds)
            )
        ph = [c.value - value for c in mine if c.kind == "placeholder"]
        if ph:
            flips = any(c.holds is False for c in mine if c.kind == "placeholder")
            rows.append(
                _bar(
                    claims[verdict],
                    f"placeholders ({len(ph)} draws)",
                    "placeholder",
                    min(ph),
                    max(ph),
                    not flips,
                )
            )
    frame = pl.DataFrame(
        rows,
        schema={
            "verdict": pl.String,
            "variant": pl.String,
            "kind": pl.String,
            "low": pl.Float64,
            "high": pl.Float64,
            "reach": pl.Float64,
            "holds": pl.Boolean,
        },
    )
    return frame.sort(["verdict", "reach"], descending=[False, True])


def _bar(verdict: str, variant: str, kind: str, a: float, b: float, holds: bool | None) -> dict:
    lo, hi = min(a, b, 0.0), max(a, b, 0.0)
    return {
        "verdict": verdict,
        "variant": variant,
        "kind": kind,
        "low": lo,
        "high": hi,
        "reach": max(abs(lo), abs(hi)),
        "holds": holds,
    }


def tornado_chart(
    result: RobustResult, verdicts: Sequence[str] | None = None
) -> alt.FacetChart | alt.Chart:
    """How far each variant moves each verdict (``verdicts``: these ids only)."""
    frame = tornado_frame(result, verdicts)
    bars = (
        alt.Chart()
        .mark_bar()
        .encode(
            y=alt.Y(
                "variant:N", sort=alt.EncodingSortField("reach", order="descending"), title=None
            ),
            x=alt.X("low:Q", title="the verdict's number minus the baseline's"),
            x2="high:Q",
            color=alt.Color(
                "holds:N",
                scale=alt.Scale(domain=[True, False], range=["#4c9a5b", "#d1495b"]),
                title="verdict holds",
            ),
            tooltip=[
                "verdict:N",
                "variant:N",
                "kind:N",
                alt.Tooltip("low:Q", format="+.3f"),
                alt.Tooltip("high:Q", format="+.3f"),
            ],
        )
        .properties(width=420)
    )
    return (
        alt.layer(bars, data=values(frame))
        .facet(
            row=alt.Row(
                "verdict:N",
                title=None,
                header=alt.Header(
                    labelAngle=0,
                    labelAlign="left",
                    labelOrient="top",
                    labelFontWeight="bold",
                    labelLimit=600,
                ),
            )
        )
        .resolve_scale(y="independent")
        .properties(
            title=title(
                "How far does each variant move each verdict?",
                "Bars from 0 to the change in the verdict's number (a share in points of 1, or "
                "the verdict's own unit); the placeholder draws as one bar from the lowest "
                "to the highest change; red where the verdict flips.",
            )
        )
    )


def tags_html(result: RobustResult) -> str:
    rows = []
    for t in result.tags:
        cls = {"robust": "ok", "fragile": "bad"}.get(t.status, "small")
        rows.append(
            f"<tr><td>{html.escape(t.claim)}</td><td>{html.escape(t.base.text or t.base.label)}</td>"
            f"<td class='{cls}'><strong>{html.escape(t.status)}</strong></td>"
            f"<td>{html.escape(t.words)}</td></tr>"
        )
    head = "<tr><th>verdict</th><th>baseline</th><th>status</th><th>what it rests on</th></tr>"
    return f"<table>{head}{''.join(rows)}</table>"


def intro(result: RobustResult) -> str:
    kinds = {}
    for v in result.variants:
        kinds[v.kind] = kinds.get(v.kind, 0) + 1
    listing = ", ".join(f"{k}: {n}" for k, n in kinds.items())
    unchecked = len({c.variant for c in result.checks if c.status == "unchecked"})
    budget = f"{result.budget:.0f} s" if result.budget is not None else "none"
    left = (
        f" {unchecked} variants were not run within the budget: rerun `mechbal robust "
        f"{result.game} --budget ...` to resume (finished runs are kept)."
        if unchecked
        else ""
    )
    sets = ", ".join(f"{k}={v}" for k, v in result.sets.items()) or "none"
    return (
        f"<p>Each headline verdict of the {html.escape(result.game)} page rerun with common random "
        f"numbers (seed {result.seed}, {result.n:,} games a run) under every variant: {html.escape(listing)}. "
        f"A verdict is <strong>robust</strong> when it holds in every variant, <strong>fragile</strong> "
        f"when some variant flips it (named, with its flipped value), <strong>unconfirmed</strong> when "
        f"it held where checked but the budget ({budget}) ran out first.{html.escape(left)} "
        f"--set edits: {html.escape(sets)}. Took {result.seconds:.0f} s.</p>"
        "<p class='small'>Files: <a href='robust/"
        + html.escape(result.game)
        + "-tags.csv'>tags CSV</a>, "
        "<a href='robust/" + html.escape(result.game) + "-checks.csv'>every check CSV</a>, "
        "<a href='robust/" + html.escape(result.game) + ".json'>JSON</a>.</p>"
    )


def write_page(result: RobustResult, reports: Path) -> Path:
    sections: list = [("Verdicts and what they rest on", tags_html(result))]
    if result.checks:
        sections.append(("Which variants flip which verdict", matrix_chart(result)))
        if not tornado_frame(result).is_empty():
            sections.append(("How far each variant moves each verdict", tornado_chart(result)))
    variants = pl.DataFrame(
        [{"variant": v.id, "kind": v.kind, "what it changes": v.words} for v in result.variants],
        schema={"variant": pl.String, "kind": pl.String, "what it changes": pl.String},
    )
    from analysis.report import frame_table

    sections.append(("The variants", frame_table(variants, limit=500)))
    text = page_html.page(f"Robustness: {result.game}", sections, intro_html=intro(result))
    return page_html.write_page(Path(reports) / f"robust-{result.game}.html", text)
