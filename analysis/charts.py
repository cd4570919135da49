"""Chart helpers every game's charts share, and the charts that read only a generic
result shape. Each chart's title states the question, its subtitle is the caption
(:func:`caption`: how the numbers were computed), its axis titles use the rulebook's
words (passed in by the game's ``analysis/<game>/charts.py``), and its data sit inline
in the spec (no data URLs), so the same chart renders in JupyterLab, in an offline HTML
report (:mod:`analysis.html`) and as SVG through vl-convert.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import altair as alt
import duckdb
import polars as pl

__all__ = [
    "caption",
    "run_caption",
    "title",
    "values",
    "need",
    "one_row_per",
    "float_column",
    "win_rate_heatmap",
]

CAPTION_WIDTH = 100  # characters per subtitle line: Vega does not wrap title text


# --- captions ----------------------------------------------------------------------------


def _value_text(value: object) -> str:
    """A parameter value as a caption shows it: sweeps of consecutive integers as a range."""
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        items = list(value)
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in items)
        if ints and len(items) > 2 and items == list(range(items[0], items[0] + len(items))):
            return f"{items[0]}–{items[-1]}"
        return "/".join(_value_text(v) for v in items)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def caption(
    *,
    source: str,
    n: int | None = None,
    seed: int | None = None,
    params: Mapping[str, object] | None = None,
    run: str | None = None,
    engine: str | None = None,
    label: str | None = None,
) -> str:
    """How a chart's numbers were computed, in one sentence.

    ``source`` is ``"simulated"`` or ``"exact"``: ``Simulated (vector engine): 20,000
    battles, seed 1, crit_margin 4, run 1a2b3c (baseline).`` (``label``: the run's
    ``--label``) or ``Exact: from the catalog, no simulation.`` (exact captions may still
    name parameters, e.g. the target kit).
    """
    kind = source.strip().lower()
    settings = [f"{name} {_value_text(value)}" for name, value in (params or {}).items()]
    if kind == "exact":
        return "Exact: from the catalog, no simulation" + "".join(f", {s}" for s in settings) + "."
    if kind != "simulated":
        raise ValueError(f"caption source must be 'simulated' or 'exact', got {source!r}")
    lead = "Simulated" + (f" ({engine} engine)" if engine else "")
    parts = []
    if n is not None:
        parts.append(f"{n:,} battle" + ("" if n == 1 else "s"))
    if seed is not None:
        parts.append(f"seed {seed}")
    parts.extend(settings)
    if run:
        parts.append(f"run {run}" + (f" ({label})" if label else ""))
    return lead + (": " + ", ".join(parts) if parts else "") + "."


def run_caption(
    con: duckdb.DuckDBPyConnection, run: str, params: Mapping[str, object] | None = None
) -> str:
    """The caption of a simulated run, read from its manifest in the ``runs`` table: engine,
    battles, seed, its ``--set`` and ``--sweep`` values (then ``params``), the run id and
    its label.

    The battles are the rows the run wrote (N rounded up to whole cells), else its N.
    """
    # fetchall, not fetchone: an unfinished result would block the connection's next query.
    rows = con.execute(
        "SELECT engine, coalesce(rows, n), seed, set_json, sweep_json, label FROM runs "
        "WHERE run_id = ?",
        [run],
    ).fetchall()
    if not rows:
        raise ValueError(f"no run {run!r} in the store")
    engine, n, seed, set_json, sweep_json, label = rows[0]
    settings: dict[str, object] = {**json.loads(set_json or "{}")}
    settings.update(
        {f"swept {name}": values for name, values in json.loads(sweep_json or "{}").items()}
    )
    settings.update(params or {})
    return caption(
        source="simulated", n=n, seed=seed, params=settings, run=run, engine=engine, label=label
    )


# --- shared pieces -----------------------------------------------------------------------


def title(question: str, caption_text: str) -> alt.TitleParams:
    """The question as title, the caption as subtitle (wrapped: Vega never wraps titles)."""
    lines = textwrap.wrap(caption_text, CAPTION_WIDTH) or [""]
    return alt.TitleParams(
        text=question,
        subtitle=lines,
        anchor="start",
        fontSize=16,
        subtitleFontSize=12,
        subtitleColor="#555",
        offset=12,
    )


def _clean(value: Any) -> Any:
    # JSON has no NaN or Infinity (vl-convert rejects them) and no Decimal: null and float.
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def values(rows: pl.DataFrame | Iterable[Mapping[str, Any]]) -> alt.Data:
    """Rows inline in the spec: a report page must not fetch data from anywhere."""
    dicts = rows.to_dicts() if isinstance(rows, pl.DataFrame) else rows
    return alt.Data(values=[{k: _clean(v) for k, v in row.items()} for row in dicts])


def need(frame: pl.DataFrame, columns: Iterable[str], chart: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{chart}: the frame lacks column(s) {', '.join(missing)}")


def one_row_per(frame: pl.DataFrame, keys: list[str], chart: str) -> None:
    """Several runs (or policy pairs, or parameter values) in one frame would draw on top
    of each other: refuse, naming the first clash, rather than show a silent overlap."""
    dup = frame.group_by(keys).len().filter(pl.col("len") > 1)
    if dup.height:
        first = dup.sort(keys).row(0, named=True)
        where = ", ".join(f"{k} {first[k]}" for k in keys)
        raise ValueError(
            f"{chart}: {first['len']} rows for {where}; filter the frame to one run, policy "
            "pair and parameter value first"
        )


def float_column(frame: pl.DataFrame, name: str) -> str:
    """The float column of an exact table (``<name>_float``), else ``name`` itself."""
    return f"{name}_float" if f"{name}_float" in frame.columns else name


# --- side against side -------------------------------------------------------------------


# Diverging around an even match (white at 50%), so a balanced matchup reads as neutral.
SCORE_SCALE = alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5)


def score_grid(
    frame: pl.DataFrame,
    *,
    row: str,
    column: str,
    score: str,
    row_sort: Sequence[str],
    column_sort: Sequence[str],
    row_title: str,
    column_title: str,
    legend: str,
    tooltip: Sequence[Any],
    question: str,
    caption: str,
    text: Any = None,
    step: tuple[int, int] = (52, 40),
) -> alt.LayerChart:
    """A score in 0..1 per (``row``, ``column``) cell, e.g. one side's score in every
    matchup: coloured on :data:`SCORE_SCALE`, written in the cell (``text``, default the
    score in per cent), white on the strong ends; the columns' labels on top."""
    base = alt.Chart(values(frame)).encode(
        x=alt.X(
            f"{column}:N",
            title=column_title,
            sort=list(column_sort),
            axis=alt.Axis(labelAngle=-30, orient="top"),
        ),
        y=alt.Y(f"{row}:N", title=row_title, sort=list(row_sort)),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            f"{score}:Q", scale=SCORE_SCALE, legend=alt.Legend(title=legend, format=".0%")
        ),
        tooltip=list(tooltip),
    )
    strong = (getattr(alt.datum, score) < 0.2) | (getattr(alt.datum, score) > 0.8)
    labels = base.mark_text(fontSize=12).encode(
        text=text if text is not None else alt.Text(f"{score}:Q", format=".0%"),
        color=alt.when(strong).then(alt.value("white")).otherwise(alt.value("black")),
        tooltip=list(tooltip),
    )
    return (cells + labels).properties(
        title=title(question, caption), width=alt.Step(step[0]), height=alt.Step(step[1])
    )


def win_rate_heatmap(
    win_rates: pl.DataFrame,
    caption: str,
    *,
    side: str = "Side A",
    opponent: str = "Side B",
    question: str = "Which side wins each matchup?",
) -> alt.LayerChart:
    """Side A's score (wins + draws / 2) in every matchup of ``side_a`` against
    ``side_b`` (``analysis.queries.win_rates``), one cell per matchup, with its 95%
    Wilson interval, games and mean rounds in the tooltip; ``side`` and ``opponent``
    name the axes in the game's words."""
    name = "win_rate_heatmap"
    need(win_rates, ["side_a", "side_b", "score_a", "score_low", "score_high", "battles"], name)
    one_row_per(win_rates, ["side_a", "side_b"], name)
    # The interval as one readable tooltip line, written here rather than as a Vega
    # expression so the spec stays plain data.
    frame = win_rates.with_columns(
        interval=pl.format(
            "{}% – {}%",
            (pl.col("score_low") * 100).round(1),
            (pl.col("score_high") * 100).round(1),
        )
    )
    sides_a = sorted(frame["side_a"].unique().to_list())
    sides_b = sorted(frame["side_b"].unique().to_list())
    tooltip = [
        alt.Tooltip("side_a:N", title=side),
        alt.Tooltip("side_b:N", title=opponent),
        *(
            alt.Tooltip(f"{c}:N", title=t)
            for c, t in (("policy_a", "Policy (side A)"), ("policy_b", "Opponent policy"))
            if c in frame.columns
        ),
        alt.Tooltip("score_a:Q", title="Score of side A (draws count half)", format=".1%"),
        alt.Tooltip("interval:N", title="Wilson 95% interval"),
        alt.Tooltip("score_low:Q", title="Interval low", format=".3f"),
        alt.Tooltip("score_high:Q", title="Interval high", format=".3f"),
        alt.Tooltip("battles:Q", title="Games", format=","),
        *(
            [alt.Tooltip("mean_rounds:Q", title="Mean rounds", format=".2f")]
            if "mean_rounds" in frame.columns
            else []
        ),
    ]
    return score_grid(
        frame,
        row="side_a",
        column="side_b",
        score="score_a",
        row_sort=sides_a,
        column_sort=sides_b,
        row_title=side,
        column_title=opponent,
        legend="Score of side A",
        tooltip=tooltip,
        question=question,
        caption=caption,
    )
