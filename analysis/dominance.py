"""Dominated choices (issue 18): the Pareto frontier of each choice set a game declares,
and ``mechbal dominated GAME``.

A game's analysis plugin declares ``choices`` (:class:`analysis.plugin.Analysis`): given
its loaded catalog, the :class:`ChoiceSet` s a designer picks from (parts, builds, cards
...). Each is a frame with an id column and objective columns, each objective to be
maximized or minimized, and a doc saying how every objective is computed and whether it
is exact or simulated. This module names no game: it finds, within each set (and within
each value of the set's ``group`` column, when it has one), which choices are dominated
and by whom.

Dominance: choice A dominates choice B when A is at least as good as B on every
objective and better on at least one. B is then dominated (``dominated_by`` lists the
choices that dominate it) and the others form the frontier (``on_frontier``). Two
choices equal on every objective tie: neither dominates the other, and a choice tied
with a frontier choice is on the frontier too.

:func:`pareto` is vectorized with NumPy: the frontier by a sweep in lexicographic order
(a choice can only be dominated by one that comes before it), chunk by chunk against
the frontier found so far, so a set of 100,000 choices with a small frontier takes a
second; ``dominated_by`` by pairwise comparison in chunks. In a group of more than
``FULL_LIMIT`` choices ``dominated_by`` lists the frontier choices that dominate it
(every dominated choice has at least one), not every dominator.

The page ``OUT/dominated-GAME.html`` (offline: :func:`analysis.html.page`) has a section
per set: a sentence (how many choices, how many dominated, the frontier), the doc, a
scatter chart of two objectives with the frontier highlighted, the frontier table and
the dominated list with who dominates each; every row of every set is written as CSV
beside it (``OUT/dominated-GAME/<set>.csv``). With ``--confirm N`` a set that declares
a simulation check (``ChoiceSet.confirm``) runs it and the page shows what it found.
"""

from __future__ import annotations

import argparse
import html
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
import pyarrow as pa

from sims.core.store import write_text

if TYPE_CHECKING:  # the charting and report modules load when a page is built
    import altair as alt

SENSES = ("max", "min")
FULL_LIMIT = 5_000  # a group up to this size lists every dominator of a dominated choice
CELLS = 4_000_000  # comparisons held in memory at once (chunk size = CELLS / others / k)
FRONTIER_ROWS = 300  # frontier rows the page lists (the CSV holds every row)
DOMINATED_ROWS = 100  # dominated rows the page lists
CHART_POINTS = 2_000  # points a chart draws: every frontier choice, then a sample
LABELLED = 30  # a chart of this many points or fewer names each
LISTED = 12  # objectives the page names before "and N more"
SHOWN_DOMINATORS = 5  # dominators named in a page row ("and N more")
CSV_DOMINATORS = 1  # dominators a large set's CSV names per row


@dataclass(frozen=True)
class ChoiceSet:
    """One set of choices a designer picks from, with the objectives they are judged by.

    ``frame`` holds a row per choice: its ``id`` (unique), every objective column, and
    any other columns worth showing (the page shows ``columns``, default the
    objectives). ``objectives`` maps each objective column to ``"max"`` (more is better)
    or ``"min"`` (less is better). ``doc`` says how each objective is computed and
    whether it is exact or simulated (``source``). Choices compete only with choices of
    the same ``group`` value (e.g. a slot) when ``group`` names a column. ``chart`` is the
    (x, y) pair of columns the scatter plots (default the first two objectives);
    ``labels`` give columns their words. Rows whose ``note`` column is not empty (e.g.
    "the shipped kit") are always listed on the page. ``confirm(result, n, seed)``, when
    given, checks the frontier by simulation (``result`` is :func:`pareto`'s frame, ``n``
    games per choice checked) and returns a frame the page shows under
    ``confirm_doc``."""

    name: str  # the set, plural: "builds", "cards"
    what: str  # what one choice is
    frame: pl.DataFrame
    objectives: Mapping[str, str]
    doc: str
    id: str = "id"
    group: str | None = None
    chart: tuple[str, str] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    columns: Sequence[str] | None = None
    note: str | None = None
    source: str = "exact"
    confirm: Callable[[pl.DataFrame, int, int], pl.DataFrame] | None = None
    confirm_doc: str = ""

    def label(self, column: str) -> str:
        return self.labels.get(column, column.replace("_", " "))

    def axes(self) -> tuple[str, str]:
        if self.chart is not None:
            return self.chart
        names = list(self.objectives)
        return (names[0], names[1]) if len(names) > 1 else (self.id, names[0])

    def shown(self) -> list[str]:
        return list(self.columns) if self.columns is not None else list(self.objectives)


# ---- the Pareto machinery ------------------------------------------------------------------


def _dominates(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """[len(a), len(b)]: row i of ``a`` dominates row j of ``b`` (larger is better on
    every column: at least as large on all, larger on one)."""
    if a.shape[1] > 16 and len(a) * len(b) * a.shape[1] <= CELLS:  # many columns, few rows
        ge = (a[:, None, :] >= b[None, :, :]).all(axis=2)
        return ge & (a[:, None, :] > b[None, :, :]).any(axis=2)
    ge = np.ones((len(a), len(b)), bool)
    gt = np.zeros((len(a), len(b)), bool)
    for j in range(a.shape[1]):  # a column at a time: no [a, b, k] array
        x, y = a[:, j, None], b[None, :, j]
        ge &= x >= y
        gt |= x > y
    return ge & gt


def _chunk(others: int, k: int) -> int:
    return max(1, CELLS // max(1, others * k))


def frontier_mask(v: np.ndarray) -> np.ndarray:
    """bool[n]: the rows of ``v`` (larger is better on every column) no row dominates.

    A dominator is lexicographically larger than what it dominates, so the rows are
    swept in decreasing lexicographic order, a chunk at a time: a row is dominated iff
    a frontier row found before its chunk, or a row of its own chunk, dominates it."""
    n, k = v.shape
    order = np.lexsort(v.T[::-1])[::-1]  # column 0 the primary key, largest first
    on = np.zeros(n, bool)
    front = np.empty((0, k), v.dtype)
    square = max(1, math.isqrt(CELLS // max(1, k)))  # a chunk compared with itself
    start = 0
    while start < n:
        size = min(square, _chunk(len(front), k))
        rows = order[start : start + size]
        block = v[rows]
        alive = np.ones(len(rows), bool)
        if len(front):  # most rows fall to the frontier found so far: cheap
            alive = ~_dominates(front, block).any(axis=0)
        survivors = block[alive]
        alive[alive] = ~_dominates(survivors, survivors).any(axis=0)
        on[rows[alive]] = True
        front = np.concatenate([front, block[alive]])
        start += size
    return on


def dominators(v: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (row of ``v``, candidate row that dominates it), as two index arrays sorted
    by row then candidate."""
    n, k = v.shape
    rows, cands = [np.empty(0, np.intp)], [np.empty(0, np.intp)]
    size = _chunk(len(candidates), k)
    for start in range(0, n, size):
        hit = _dominates(candidates, v[start : start + size])  # [candidates, rows]
        r, c = np.nonzero(hit.T)
        rows.append(r + start)
        cands.append(c)
    return np.concatenate(rows), np.concatenate(cands)


def _matrix(frame: pl.DataFrame, objectives: Mapping[str, str]) -> np.ndarray:
    """[rows, objectives] as floats, larger better (a ``min`` objective negated)."""
    if not objectives:
        raise ValueError("pareto: no objectives")
    schema = frame.schema
    for name, sense in objectives.items():
        if sense not in SENSES:
            raise ValueError(f"pareto: objective {name!r} is {sense!r}, not 'max' or 'min'")
        if name not in schema:
            raise ValueError(f"pareto: the frame has no objective column {name!r}")
        if not schema[name].is_numeric() and schema[name] != pl.Boolean:
            raise ValueError(f"pareto: objective {name!r} is not numeric ({schema[name]})")
    names = list(objectives)
    v = frame.select(pl.col(names).cast(pl.Float64)).to_numpy().reshape(frame.height, len(names))
    missing = np.isnan(v).any(axis=0)
    if missing.any():
        raise ValueError(f"pareto: objective {names[int(np.argmax(missing))]!r} has missing values")
    sign = np.array([1.0 if objectives[n] == "max" else -1.0 for n in names])
    return v * sign


def pareto(
    frame: pl.DataFrame,
    objectives: Mapping[str, str],
    *,
    id: str = "id",
    group: str | None = None,
    every_dominator: bool | None = None,
) -> pl.DataFrame:
    """``frame`` with ``on_frontier`` (bool) and ``dominated_by`` (the ids, as strings,
    of the choices that dominate it: at least as good on every objective, better on one;
    empty on the frontier). ``objectives`` maps columns to ``"max"`` or ``"min"``;
    choices compete only within equal values of ``group``. ``dominated_by`` lists every
    dominator in a group of at most ``FULL_LIMIT`` choices (``every_dominator`` forces
    either way), else the frontier choices that dominate it."""
    if id not in frame.columns:
        raise ValueError(f"pareto: the frame has no id column {id!r}")
    ids = frame[id].cast(pl.String).to_list()
    if len(set(ids)) != len(ids):
        dup = frame.group_by(id).len().filter(pl.col("len") > 1)[id][0]
        raise ValueError(f"pareto: id {dup!r} appears more than once")
    v = _matrix(frame, objectives)
    n = frame.height
    on = np.zeros(n, bool)
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    if group is None:
        members = [np.arange(n)]
    else:
        codes = frame[group].cast(pl.String).fill_null("").to_numpy()
        _, inverse = np.unique(codes, return_inverse=True)
        members = [np.flatnonzero(inverse == g) for g in range(inverse.max(initial=-1) + 1)]
    for idx in members:
        sub = v[idx]
        front = frontier_mask(sub)
        on[idx] = front
        every = len(idx) <= FULL_LIMIT if every_dominator is None else every_dominator
        cand = np.arange(len(idx)) if every else np.flatnonzero(front)
        beaten = idx[~front]
        rows, found = dominators(sub[~front], sub[cand])
        pairs.append((beaten[rows], idx[cand[found]]))
    rows = np.concatenate([r for r, _ in pairs] or [np.empty(0, np.intp)])
    found = np.concatenate([f for _, f in pairs] or [np.empty(0, np.intp)])
    order = np.lexsort((found, rows))
    offsets = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=n))])
    names = frame[id].cast(pl.String).to_arrow().take(pa.array(found[order]))
    lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), names)
    return frame.with_columns(
        on_frontier=pl.Series(on),
        dominated_by=pl.Series("dominated_by", lists, dtype=pl.List(pl.String)),
    )


# ---- the page --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetResult:
    """One choice set with its frontier, and what ``--confirm`` found (None: not run)."""

    choices: ChoiceSet
    result: pl.DataFrame
    seconds: float
    confirmed: pl.DataFrame | None = None

    @property
    def dominated(self) -> int:
        return int((~self.result["on_frontier"]).sum())

    @property
    def frontier(self) -> int:
        return int(self.result["on_frontier"].sum())

    @property
    def complete(self) -> bool:
        """Whether ``dominated_by`` lists every dominator (each group small enough)."""
        g = self.choices.group
        largest = (
            self.result.height
            if g is None
            else int(self.result.group_by(g).len()["len"].max() or 0)
        )
        return largest <= FULL_LIMIT


def analyse(choices: ChoiceSet) -> SetResult:
    """:func:`pareto` of one set, timed."""
    start = time.perf_counter()
    result = pareto(choices.frame, choices.objectives, id=choices.id, group=choices.group)
    return SetResult(choices, result, time.perf_counter() - start)


def _names(ids: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit:,} more" if len(ids) > limit else "")


def ordered(res: SetResult, rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` along the chart: by its x column, then its y column from the top (a
    column that is no number keeps the frame's order)."""
    keys = [
        (col, down)
        for col, down in zip(res.choices.axes(), (False, True), strict=True)
        if rows.schema[col].is_numeric()
    ]
    if not keys:
        return rows
    return rows.sort([k for k, _ in keys], descending=[d for _, d in keys], maintain_order=True)


def summary(res: SetResult) -> str:
    """One sentence: how many choices, how many dominated, the frontier."""
    c, n = res.choices, res.result.height
    within = f" (compared within each {c.label(c.group)})" if c.group else ""
    front = ordered(res, res.result.filter(pl.col("on_frontier")))[c.id].cast(pl.String).to_list()
    verb = {k: "is" if k == 1 else "are" for k in (res.dominated, res.frontier)}
    return (
        f"Of {n:,} {c.name}{within}, {res.dominated:,} {verb[res.dominated]} dominated "
        f"and {res.frontier:,} {verb[res.frontier]} on the frontier: {_names(front)}."
    )


def _float(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def chart(res: SetResult) -> alt.Chart | alt.LayerChart:
    """The set's two chart columns, a point per choice (every frontier and noted
    choice, then an even sample of the rest up to ``CHART_POINTS``), the frontier
    highlighted."""
    import altair as alt

    from analysis.charts import caption, title, values

    c, frame = res.choices, res.result
    x, y = c.axes()
    keep = [
        col
        for col in dict.fromkeys(
            [c.id, x, y, *([c.group] if c.group else []), *c.shown(), *([c.note] if c.note else [])]
        )
    ]
    data = frame.select(*keep, "on_frontier", pl.col("dominated_by").list.len().alias("n_dom"))
    pinned = pl.col("on_frontier")
    if c.note:
        pinned = pinned | (pl.col(c.note).fill_null("") != "")
    first, rest = data.filter(pinned), data.filter(~pinned)
    room = max(0, CHART_POINTS - first.height)
    sampled = rest.height > room
    if sampled:
        rest = rest.gather_every(max(1, math.ceil(rest.height / max(room, 1)))).head(room)
    data = pl.concat([first, rest]).with_columns(
        status=pl.when("on_frontier").then(pl.lit("frontier")).otherwise(pl.lit("dominated"))
    )
    data = data.with_columns(
        pl.col(col).map_elements(_float, return_dtype=data.schema[col])
        for col in data.columns
        if data.schema[col] == pl.Float64
    )
    text = caption(source=c.source)
    if sampled:
        text += (
            f" {first.height:,} frontier or noted choices and an even sample of "
            f"{rest.height:,} of the other {frame.height - first.height:,}."
        )
    tooltip = [
        alt.Tooltip(f"{col}:{'Q' if data.schema[col].is_numeric() else 'N'}", title=c.label(col))
        for col in keep
    ]
    tooltip.append(alt.Tooltip("n_dom:Q", title="dominated by (choices)"))
    kind = {col: "Q" if data.schema[col].is_numeric() else "N" for col in (x, y)}
    scale = {col: {"scale": alt.Scale(zero=False)} if kind[col] == "Q" else {} for col in (x, y)}
    base = alt.Chart(values(data))
    points = base.mark_point(filled=True).encode(
        x=alt.X(f"{x}:{kind[x]}", title=c.label(x), **scale[x]),
        y=alt.Y(f"{y}:{kind[y]}", title=c.label(y), **scale[y]),
        color=alt.Color(
            "status:N",
            title=None,
            scale=alt.Scale(domain=["frontier", "dominated"], range=["#c0392b", "#b0b0b0"]),
        ),
        size=alt.condition("datum.status == 'frontier'", alt.value(70), alt.value(25)),
        order=alt.Order("on_frontier:O"),
        tooltip=tooltip,
    )
    layers: alt.Chart | alt.LayerChart = points
    if data.height <= LABELLED:  # few choices: name each
        names = base.mark_text(align="left", dx=7, fontSize=10, color="#444").encode(
            x=f"{x}:{kind[x]}", y=f"{y}:{kind[y]}", text=f"{c.id}:N"
        )
        layers = points + names
    return layers.properties(
        title=title(f"Which {c.name} are dominated?", text), width=560, height=360
    )


def _shown_frame(res: SetResult, rows: pl.DataFrame, dominated: bool) -> pl.DataFrame:
    c = res.choices
    cols = list(
        dict.fromkeys(
            [c.id, *([c.group] if c.group else []), *c.shown(), *([c.note] if c.note else [])]
        )
    )
    out = rows.select(cols).with_columns(
        pl.col(col).round(4) for col in cols if rows.schema[col] == pl.Float64
    )
    if dominated:
        out = out.with_columns(
            rows["dominated_by"]
            .map_elements(lambda ids: _names(list(ids), SHOWN_DOMINATORS), return_dtype=pl.String)
            .alias("dominated by")
        )
    return out.rename({col: c.label(col) for col in out.columns if col != "dominated by"})


def dominated_rows(res: SetResult, limit: int = DOMINATED_ROWS) -> pl.DataFrame:
    """The dominated choices the page lists: noted ones first, then those dominated by
    the fewest, up to ``limit``."""
    c = res.choices
    rows = res.result.filter(~pl.col("on_frontier")).with_columns(
        _n=pl.col("dominated_by").list.len(),
        _noted=(pl.col(c.note).fill_null("") != "") if c.note else pl.lit(False),
    )
    return rows.sort(["_noted", "_n"], descending=[True, False], maintain_order=True).head(limit)


def _wide(table: str) -> str:
    """A table that may be wider than the page scrolls on its own."""
    return f"<div style='overflow-x:auto'>{table}</div>"


def section(res: SetResult, csv_href: str) -> list[str | alt.TopLevelMixin]:
    """A set's part of the page."""

    from analysis.report import frame_table

    c, frame = res.choices, res.result
    senses = ", ".join(
        f"{c.label(k)} ({'more' if s == 'max' else 'less'} is better)"
        for k, s in list(c.objectives.items())[:LISTED]
    )
    if len(c.objectives) > LISTED:
        senses += f" and {len(c.objectives) - LISTED:,} more (the CSV has every one)"
    within = f" of its {c.label(c.group)}" if c.group else ""
    parts: list[str | alt.TopLevelMixin] = [
        f"<p><strong>{html.escape(summary(res))}</strong></p>",
        f"<p>One choice: {html.escape(c.what)}. Objectives: {html.escape(senses)}. "
        f"A choice is dominated when another{html.escape(within)} is at least as good on "
        "every objective and better on one.</p>",
        f"<p class='small'>{html.escape(c.doc)}</p>",
    ]
    if not res.complete:
        parts.append(
            "<p class='small'>The set is large: <em>dominated by</em> names the "
            "frontier choices that dominate each choice (every dominated choice "
            "has at least one), not every choice that does.</p>"
        )
    parts.append(chart(res))
    front = ordered(res, frame.filter(pl.col("on_frontier")))
    more = (
        f" (the first {FRONTIER_ROWS:,} of {front.height:,}; all in the CSV)"
        if front.height > FRONTIER_ROWS
        else ""
    )
    parts.append(f"<h3>The frontier{more}</h3>")
    parts.append(_wide(frame_table(_shown_frame(res, front, False), limit=FRONTIER_ROWS)))
    if res.confirmed is not None:
        parts.append("<h3>Checked by simulation</h3>")
        parts.append(f"<p class='small'>{html.escape(c.confirm_doc)}</p>")
        parts.append(
            _wide(
                frame_table(
                    res.confirmed.with_columns(
                        pl.col(col).round(4)
                        for col in res.confirmed.columns
                        if res.confirmed.schema[col] == pl.Float64
                    )
                )
            )
        )
    dom = dominated_rows(res)
    more = (
        f" (the first {dom.height:,} of {res.dominated:,}: noted ones, then those "
        "dominated by the fewest; all in the CSV)"
        if res.dominated > dom.height
        else ""
    )
    parts.append(f"<h3>Dominated{more}</h3>")
    parts.append(
        _wide(frame_table(_shown_frame(res, dom, True), limit=DOMINATED_ROWS))
        if dom.height
        else "<p>None: every choice is on the frontier.</p>"
    )
    parts.append(
        f"<p class='downloads small'>Download CSV (every {html.escape(c.name)} row): "
        f"<a href='{html.escape(csv_href, quote=True)}' download>"
        f"{html.escape(csv_href.rsplit('/', 1)[-1])}</a></p>"
    )
    return parts


def csv_frame(res: SetResult) -> pl.DataFrame:
    """Every row of the set for the CSV (floats to 6 decimals): its columns,
    ``on_frontier``, ``dominators`` (how many ``dominated_by`` counts) and
    ``dominated_by`` as ids joined by ``;``: all of them in a set small enough, else the
    first ``CSV_DOMINATORS`` (a large set's CSV would otherwise run to a hundred
    megabytes)."""
    ids = pl.col("dominated_by")
    if not res.complete:
        ids = ids.list.head(CSV_DOMINATORS)
    floats = [c for c, t in res.result.schema.items() if t == pl.Float64]
    return res.result.with_columns(
        pl.col(floats).round(6),
        dominators=pl.col("dominated_by").list.len(),
        dominated_by=ids.list.join(";"),
    )


@dataclass(frozen=True)
class Written:
    page: Path
    files: list[Path]


def build_page(
    title_text: str,
    game: str,
    results: Sequence[SetResult],
    *,
    catalog: str,
    sets: Mapping[str, Any],
) -> tuple[str, dict[str, pl.DataFrame]]:
    """The page's HTML and its CSV files (by stem), computed before anything is written."""
    from analysis.html import EXPORT_OPTIONS, page, slug
    from analysis.report import sets_text

    files: dict[str, pl.DataFrame] = {}
    sections = []
    for res in results:
        stem = slug(res.choices.name)
        while stem in files:
            stem += "-2"
        files[stem] = csv_frame(res)
        sections.append(
            (res.choices.name.capitalize(), section(res, f"dominated-{game}/{stem}.csv"))
        )
    with_sets = f" with <strong>{html.escape(sets_text(sets))}</strong>" if sets else ""
    intro = (
        f"<p>Which choices nobody should take: within each set, a choice is dominated "
        f"when another is at least as good on every objective and better on one. "
        f"Catalog folder <code>{html.escape(catalog)}</code>{with_sets}.</p>"
        + "<ul>"
        + "".join(f"<li>{html.escape(summary(r))}</li>" for r in results)
        + "</ul>"
    )
    doc = page(title_text, sections, intro_html=intro, embed_options=EXPORT_OPTIONS)
    return doc, files


def write(out: Path, game: str, doc: str, files: Mapping[str, pl.DataFrame]) -> Written:
    """The page and its CSV files; CSV files of an earlier run that this one did not
    write are removed from the page's folder."""
    from analysis.html import write_page
    from analysis.report import csv_text

    folder = out / f"dominated-{game}"
    keep = {f"{stem}.csv" for stem in files}
    if folder.is_dir():
        for old in folder.glob("*.csv"):
            if old.name not in keep:
                old.unlink()
    paths = [write_text(folder / f"{stem}.csv", csv_text(frame)) for stem, frame in files.items()]
    return Written(write_page(out / f"dominated-{game}.html", doc), paths)


# ---- the command -----------------------------------------------------------------------------


def choice_sets(
    game: str, catalog_root: Path, sets: Mapping[str, Any]
) -> tuple[Any, list[ChoiceSet]]:
    """The game (checked) and the choice sets its plugin declares of the catalog loaded
    with ``sets`` (an empty list when it declares none)."""
    from analysis.plugin import get_analysis
    from sims.core.protocol import get_game

    g = get_game(game)
    analysis = get_analysis(game)
    declare = getattr(analysis, "choices", None) if analysis is not None else None
    if declare is None:
        return g, []
    catalog = g.load_catalog(catalog_root, overrides=dict(sets))
    return g, list(declare(catalog))


def cmd_dominated(args: argparse.Namespace) -> int:
    """One game, or (no game given) every game whose analysis plugin declares choices:
    everything computed first (a mistake writes nothing), then a page each."""
    from analysis.args import UserError, _assignments
    from analysis.report import sets_text, writable_folder
    from sims.core.protocol import game_names

    if args.confirm is not None and args.confirm < 1:
        raise UserError("--confirm must be at least 1 (games per choice checked)")
    sets = _assignments(args.set, "--set")
    names = [args.game] if args.game else game_names()
    computed = []
    for name in names:
        game, declared = choice_sets(name, Path(args.catalog), sets)
        if not declared:
            if args.game:
                print(f"{game.name}: its analysis plugin declares no choices: nothing to compare")
            continue
        results = []
        for choices in declared:
            res = analyse(choices)
            if args.confirm and choices.confirm is not None:
                res = SetResult(
                    choices,
                    res.result,
                    res.seconds,
                    choices.confirm(res.result, args.confirm, args.seed),
                )
            results.append(res)
        computed.append((game, results))
    if not computed:
        return 0
    out = writable_folder(Path(args.out), "--out")
    with_sets = f" (with {sets_text(sets)})" if sets else ""
    for game, results in computed:
        doc, files = build_page(
            f"{game.title}: dominated choices",
            game.name,
            results,
            catalog=str(args.catalog),
            sets=sets,
        )
        written = write(out, game.name, doc, files)
        print(f"{game.title} ({game.name}){with_sets}")
        for res in results:
            print(
                f"  {res.choices.name}: {res.result.height:,} choices, "
                f"{res.dominated:,} dominated, {res.frontier:,} on the frontier "
                f"({res.seconds:.2f} s)"
            )
            if args.confirm and res.choices.confirm is None:
                print("    (no simulation check declared for this set)")
            elif res.confirmed is not None:
                print(f"    checked by simulation: {res.confirmed.height} rows (see the page)")
        print(f"page: {written.page.resolve()}")
    return 0


def add_parser(subparsers: Any) -> None:
    """Register ``mechbal dominated [GAME] [--out DIR] [--catalog DIR] [--set ...]``."""
    from analysis.args import _catalog_and_set_flags

    p = subparsers.add_parser(
        "dominated",
        help="the Pareto frontier of each choice set of a game and the "
        "dominated choices (OUT/dominated-GAME.html)",
        description="Within each choice set GAME's analysis plugin declares (parts, builds, "
        "cards ...), a choice is dominated when another is at least as good on every "
        "objective and better on one. Prints a line per set and writes OUT/dominated-GAME.html "
        "with the CSV of every set beside it (OUT/dominated-GAME/).",
    )
    p.add_argument("game", nargs="?", help="one game (default: every game that declares choices)")
    p.add_argument("--out", default="reports", help="report folder (default reports)")
    p.add_argument(
        "--confirm",
        type=int,
        metavar="N",
        help="also run each set's simulation check, N games per choice checked "
        "(sets that declare one)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the --confirm games")
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_dominated)
