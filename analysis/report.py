"""The balance report: ``reports/index.html`` and a page per game.

Every game gets, on the index, its rulebook claims with pass/fail, its exact tables as
CSV and Markdown and its rules parameters with their provenance. A game with an analysis
plugin (:mod:`analysis.plugin`) also gets its own page, ``reports/<game>.html``: what is
out of balance first (its flags against ``limits.toml``), then the plugin's sections
(charts and tables over its default runs), then the claims. Everything is loaded,
checked and computed before anything is written, so a bad catalog writes nothing.

Trust: with ``sets`` (``mechbal report --set NAME=VALUE``) the catalog is loaded with
those edits, the default runs are made with them and every page says so at the top. A
plugin reads only runs of the catalog it describes (:func:`choose_run`); a section whose
only run is of another catalog or other ``--set`` values shows :func:`stale_notice`
instead of its numbers. The tables behind each section (``Section.data``) and the flags
are written as CSV beside the page (``<reports>/<game>/<stem>.csv``, linked under the
section); ``export`` writes the same CSVs and every chart as PNG and SVG into
``<export>/<game>/``.
"""

from __future__ import annotations

import dataclasses
import html
import io
import json
import os
import re
import shlex
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import altair as alt
import duckdb
import polars as pl

from analysis.flags import Flag, flags_frame, load_limits
from analysis.html import EXPORT_OPTIONS, chart_name, page, write_page
from analysis.plugin import Analysis, Page, ReportContext, Section, as_section, get_analysis
from analysis.tables import check_frames, write_tables
from sims.core.claims import ClaimResult, run_claims
from sims.core.params import describe
from sims.core.protocol import Catalog, Experiment, Game, InputError, get_game
from sims.core.readings import load as load_readings
from sims.core.store import write_text

STYLE = """
body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}.pass{color:#176f2c}.FAIL{color:#b00020;font-weight:bold}
.small{color:#555;font-size:.9em}
"""


def _table(rows: list[dict], classes: dict[str, str] | None = None) -> str:
    if not rows:
        return "<p>(none)</p>"
    cols = list(rows[0])
    out = ["<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in cols) + "</tr>"]
    for row in rows:
        cells = []
        for c in cols:
            value = str(row[c])
            cls = f' class="{value}"' if classes and c in classes else ""
            cells.append(f"<td{cls}>{html.escape(value)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "\n".join(out) + "</table>"


def frame_table(frame: pl.DataFrame, columns: list[str] | None = None, limit: int = 200) -> str:
    """An HTML table of a frame's first ``limit`` rows (``columns``, default all)."""
    columns = columns or frame.columns
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    rows = []
    for row in frame.select(columns).head(limit).iter_rows():
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def verdict(claims: list[ClaimResult]) -> str:
    failed = [r for r in claims if not r.passed]
    if not failed:
        return f"All {len(claims)} rulebook claims hold."
    return f"{len(failed)} of {len(claims)} rulebook claims FAIL: " + ", ".join(
        r.claim.id for r in failed
    )


@dataclass(frozen=True)
class GameResults:
    """Everything a game's sections show, computed before anything is written."""

    game: Game
    catalog: Catalog
    claims: list[ClaimResult]
    frames: dict[str, pl.DataFrame]
    analysis: Analysis | None
    limits: dict


def compute(name: str, catalog_root: Path, sets: Mapping[str, Any] | None = None) -> GameResults:
    game = get_game(name)
    catalog = game.load_catalog(catalog_root, overrides=dict(sets or {}))
    results = run_claims(game.claims_path(catalog_root), game.checks, catalog)
    frames = game.exact(catalog)
    check_frames(game, frames)
    load_readings(catalog_root, name)  # a bad readings.toml stops the report before it writes
    analysis = get_analysis(name)
    path = game.limits_path(catalog_root)
    limits = load_limits(path, analysis.limits) if analysis and path.is_file() else {}
    return GameResults(game, catalog, results, frames, analysis, limits)


def game_section(res: GameResults, link: str = "") -> str:
    """The game's part of the index: claims verdict, table files, claims, parameters."""
    game, results, frames, catalog = res.game, res.claims, res.frames, res.catalog
    name = game.name
    parts = [f"<h2 id='{name}'>{html.escape(game.title)}</h2>"]
    parts.append(
        f"<p><strong>{html.escape(verdict(results))}</strong>{link} "
        f"<span class='small'>rules version {game.rules_version}; "
        f"rulebook {html.escape(game.rulebook)}</span></p>"
    )
    parts.append("<h3>Exact tables</h3><ul>")
    for table in game.tables:
        rel = f"tables/{name}/{table.stem}"
        parts.append(
            f"<li><a href='{rel}.csv'>{table.stem}.csv</a> · <a href='{rel}.md'>{table.stem}.md"
            f"</a> ({frames[table.stem].height} rows)<br><span class='small'>"
            f"{html.escape(table.doc)}</span></li>"
        )
    parts.append("</ul><h3>Rulebook claims</h3>")
    rows = [
        {**r.row(), "rulebook says": r.claim.rulebook, "computed as": r.claim.definition}
        for r in results
    ]
    parts.append(_table(rows, classes={"result": ""}))
    parts.append("<h3>Rules parameters</h3>")
    parts.append(_table(describe(catalog.params, catalog.param_provenance)))
    return "\n".join(parts)


def sets_text(sets: Mapping[str, Any]) -> str:
    """``--set a=1 --set b=2``: the edits as the command line writes them."""
    return " ".join(f"--set {k}={v}" for k, v in sorted(sets.items()))


# ---- which run a section reads, and what it says when it has none of this catalog --------


@dataclass(frozen=True)
class RunChoice:
    """The run a section reads (``run``: its experiment's view, i.e. made from the catalog
    the report describes with its ``--set`` values, or named), else the latest finished
    run of another catalog or settings (``stale``: never to be shown as current)."""

    run: str | None
    stale: str | None
    why: str


def choose_run(con: duckdb.DuckDBPyConnection, game: str, experiment: str) -> RunChoice:
    """What an experiment's view holds on a connection from ``analysis.query.connect``
    (given the report's catalog and ``--set`` values), and the stale run when it holds
    none."""
    shown = con.execute(
        "SELECT run_id, why FROM shown WHERE game = ? AND experiment = ?", [game, experiment]
    ).fetchall()
    if not shown:
        return RunChoice(None, None, f"no {experiment} run in the store")
    run, why = shown[0]
    if run is not None:
        return RunChoice(str(run), None, str(why))
    other = con.execute(
        "SELECT run_id FROM runs WHERE game = ? AND experiment = ? AND complete "
        "ORDER BY finished DESC NULLS LAST, run_id LIMIT 1",
        [game, experiment],
    ).fetchall()
    return RunChoice(None, str(other[0][0]) if other else None, str(why))


def run_differences(
    con: duckdb.DuckDBPyConnection, run: str, catalog_hash: str | None, sets: Mapping[str, Any]
) -> str:
    """How ``run`` differs from what the report describes (the catalog whose hash is
    ``catalog_hash``, with ``sets``): "made from another catalog", "made with --set
    ...", or both."""
    rows = con.execute("SELECT catalog_hash, set_json FROM runs WHERE run_id = ?", [run]).fetchall()
    if not rows:
        raise ValueError(f"no run {run!r} in the store")
    run_hash, set_json = rows[0]
    run_sets = json.loads(set_json or "{}")
    out = []
    if catalog_hash is not None and run_hash != catalog_hash:
        out.append(f"made from another catalog (content {run_hash}, this one {catalog_hash})")
    if run_sets != dict(sets):
        out.append(("made with " + sets_text(run_sets)) if run_sets else "made without --set")
    return " and ".join(out) or "made with other settings"


def run_label(con: duckdb.DuckDBPyConnection, run: str) -> str:
    """``run 1a2b3c (baseline): seed 1, N 100,000``: a run as a notice names it (an
    enumeration has neither seed nor N)."""
    rows = con.execute(
        "SELECT label, seed, n, finished FROM runs WHERE run_id = ?", [run]
    ).fetchall()
    if not rows:
        return f"run {run}"
    label, seed, n, finished = rows[0]
    bits = [
        f"seed {seed}" if seed is not None else "",
        f"N {n:,}" if n is not None else "",
        f"finished {finished[:16].replace('T', ' ')}" if finished else "",
    ]
    return (
        f"run {run}"
        + (f" ({label})" if label else "")
        + (": " + ", ".join(b for b in bits if b) if any(bits) else "")
    )


def simulate_command(
    game: str,
    experiment: str,
    *,
    n: int | None,
    jobs: int = 2,
    catalog_root: Path = Path("catalogs"),
    sets: Mapping[str, Any] | None = None,
    store: Path = Path("data"),
    flags: Sequence[str] = (),
) -> str:
    """The ``mechbal simulate`` line that makes a run the report would read: the report's
    catalog folder, ``--set`` values and store (each only when not the default), and the
    experiment's own ``flags``."""
    words = ["mechbal", "simulate", game, experiment]
    if n is not None:
        words += ["--n", str(n)]
    words += ["--jobs", str(jobs)]
    if Path(catalog_root) != Path("catalogs"):
        words += ["--catalog", str(catalog_root)]
    for name, value in sorted((sets or {}).items()):
        words += ["--set", f"{name}={value}"]
    if Path(store) != Path("data"):
        words += ["--out", str(store)]
    return shlex.join([*words, *flags])


def option_flags(experiment: Experiment, options: Mapping[str, Any]) -> list[str]:
    """The command-line flags that give a run's ``options`` (its manifest's), leaving out
    the defaults: what a refresh command repeats of the run it replaces."""
    words: list[str] = []
    for option in experiment.options:
        value = options.get(option.name)
        default = option.default
        if isinstance(default, str) and option.parse is not str:
            default = option.parse(default)
        if value in (None, False) or value == default:
            continue
        if option.switch:
            words.append(option.flag)
            continue
        text = ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
        words += [option.flag, text]
    return words


def stale_notice(what: str, run: str, differences: str, command: str) -> str:
    """The HTML a section shows instead of numbers of another catalog: which run it is
    NOT using, why, and the command that makes a run of this catalog."""
    return (
        f"<div class='stale'><p><strong>Stale: not shown.</strong> The store holds no "
        f"{html.escape(what)} of the catalog this report describes. It does hold "
        f"<span class='stale-run'>{html.escape(run)}</span>, {html.escape(differences)}: "
        f"its numbers do not describe this catalog and are left out.</p>"
        f"<p>To refresh, run <code>{html.escape(command)}</code>, then the report again.</p>"
        "</div>"
    )


# ---- the game page, its CSV files and the export ---------------------------------------


def _file_stem(name: str, taken: set[str]) -> str:
    """A file-safe stem for a table's name, made unique among ``taken``."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "table"
    candidate, k = stem, 1
    while candidate in taken:
        k += 1
        candidate = f"{stem}-{k}"
    taken.add(candidate)
    return candidate


def _json(value: Any) -> str:
    return json.dumps(value.to_list() if isinstance(value, pl.Series) else value, default=str)


def csv_text(frame: pl.DataFrame) -> str:
    """A frame as CSV; list and struct columns (which CSV cannot hold) as JSON text."""
    nested = [c for c, t in frame.schema.items() if isinstance(t, pl.List | pl.Array | pl.Struct)]
    return frame.with_columns(
        pl.col(c).map_elements(_json, return_dtype=pl.String) for c in nested
    ).write_csv()


@dataclass(frozen=True)
class GamePage:
    """A game page laid out: its HTML, the CSV files beside it (by stem) and its charts
    (by file stem), all computed before anything is written."""

    html: str
    files: dict[str, pl.DataFrame]
    charts: dict[str, alt.TopLevelMixin]


def lay_out(
    ctx: ReportContext,
    content: Page,
    rests: Section | None = None,
    robustness: Any = None,
) -> GamePage:
    """``reports/<game>.html``'s document: what its numbers rest on (``rests``, with the
    verdicts' tags), the flags (tagged from ``robustness``, an
    :class:`analysis.robust.RobustResult`: fragile ones apart), the plugin's sections
    (each with download links for its tables), the claims last."""
    from analysis import report_rests

    game, flags = ctx.game, content.flags
    intro = (
        f"<p>{len(flags)} balance flag{'s' if len(flags) != 1 else ''} against "
        f"<code>catalogs/{html.escape(game.name)}/limits.toml</code>. "
        f"{html.escape(verdict(ctx.claims))}</p>"
    )
    if ctx.sets:
        intro = (
            f"<p class='sets'><strong>With {html.escape(sets_text(ctx.sets))}</strong>: "
            f"every number on this page is of the catalog in "
            f"<code>{html.escape(str(ctx.catalog_root))}</code> with these edits; runs "
            f"made without them are not read.</p>"
        ) + intro
    claims = pl.DataFrame([r.row() for r in ctx.claims]) if ctx.claims else None
    taken: set[str] = set()
    files: dict[str, pl.DataFrame] = {}
    charts: dict[str, alt.TopLevelMixin] = {}

    def downloads(data: Mapping[str, pl.DataFrame]) -> str:
        links = []
        for name, frame in data.items():
            stem = _file_stem(name, taken)
            files[stem] = frame
            href = html.escape(f"{game.name}/{stem}.csv", quote=True)
            links.append(f"<a href='{href}' download>{html.escape(stem)}.csv</a>")
        return (
            "<p class='downloads small'>Download CSV: " + " · ".join(links) + "</p>"
            if links
            else ""
        )

    tags = pl.DataFrame(
        report_rests.flag_rows(flags, robustness, game.name),
        schema={"status": pl.String, "tag": pl.String},
    )
    flag_table = pl.concat([flags_frame(flags), tags], how="horizontal")
    flags_section = Section(
        "What is out of balance",
        report_rests.flags_html(flags, robustness, game.name),
        {"flags": flag_table},
    )
    claims_section = Section(
        "Rulebook claims",
        frame_table(claims, ["claim", "section", "expected", "actual", "result"], limit=500)
        if claims is not None
        else "<p>(none)</p>",
    )
    laid: list[tuple[str, list[Any]]] = []
    first = [rests] if rests is not None else []
    for item in [*first, flags_section, *content.sections, claims_section]:
        section = as_section(item)
        body = section.content
        pieces = list(body) if isinstance(body, list | tuple) else [body]
        k = 0
        for piece in pieces:
            if isinstance(piece, alt.TopLevelMixin):
                k += 1
                charts[chart_name(section.heading, k)] = piece
        links = downloads(section.data)
        laid.append((section.heading, [*pieces, links] if links else pieces))
    doc = page(f"{game.title} balance report", laid, intro_html=intro, embed_options=EXPORT_OPTIONS)
    return GamePage(doc, files, charts)


def _write_bytes(path: Path, data: bytes) -> None:
    """Write atomically, as ``write_text`` does for text."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_files(folder: Path, files: Mapping[str, pl.DataFrame], tidy: bool = True) -> None:
    """The CSV files into ``folder``; with ``tidy``, CSV files there from an earlier report
    that this one did not write are removed, so a stale table never lingers beside a
    fresh page (the report's own folder; a designer's ``--export`` folder is left as is)."""
    keep = {f"{stem}.csv" for stem in files}
    if tidy and folder.is_dir():
        for old in folder.glob("*.csv"):
            if old.name not in keep:
                old.unlink()
    for stem, frame in files.items():
        write_text(folder / f"{stem}.csv", csv_text(frame))


def render_charts(charts: Mapping[str, alt.TopLevelMixin]) -> dict[str, bytes]:
    """Every chart as PNG and SVG (``<stem>.png``, ``<stem>.svg``) through vl-convert,
    in memory: a chart that cannot be drawn fails before any file is written."""
    out: dict[str, bytes] = {}
    for stem, chart in charts.items():
        for fmt in ("svg", "png"):
            buffer = io.BytesIO() if fmt == "png" else io.StringIO()
            kwargs = {"scale_factor": 2} if fmt == "png" else {}  # crisp enough to print
            chart.save(buffer, format=fmt, **kwargs)
            value = buffer.getvalue()
            out[f"{stem}.{fmt}"] = value.encode() if isinstance(value, str) else value
    return out


def writable_folder(path: Path, flag: str) -> Path:
    """``path`` created if need be, or one line naming why it cannot be written."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".mechbal-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise InputError(f"{flag} {path}: cannot write there ({exc.strerror or exc})") from None
    return path


# The designer tools' pages of a game (mechbal dominated, diff, tune write them into the
# same folder): linked from the index when they are there.
TOOL_PAGES = (
    ("dominated-{}.html", "dominated choices (mechbal dominated)"),
    ("diff-{}.html", "what changed (the latest mechbal diff)"),
    ("tune-{}.html", "tuning (the latest mechbal tune)"),
)


def _tool_links(reports_dir: Path, game: str) -> str:
    found = [
        (name.format(game), what)
        for name, what in TOOL_PAGES
        if (reports_dir / name.format(game)).is_file()
    ]
    if not found:
        return ""
    items = " · ".join(f"<a href='{html.escape(f)}'>{html.escape(w)}</a>" for f, w in found)
    return f"<p>Designer tools: {items}.</p>"


def build_report(
    games: list[str],
    catalog_root: Path,
    reports_dir: Path,
    *,
    store: Path = Path("data"),
    n: int = 64_000,
    seed: int = 1,
    jobs: int = 1,
    sets: Mapping[str, Any] | None = None,
    export: Path | None = None,
    robust_budget: float = 0.0,
) -> Path:
    """Write tables, each game's page and ``index.html``; returns the index path.

    Every game is loaded (with ``sets``), checked and computed first, so a bad catalog
    writes nothing; then each game's default experiments run into the store (resumable)
    and the pages follow, each with its CSV files in ``reports_dir/<game>/``; with
    ``export``, the CSV files and every chart as PNG and SVG go to ``export/<game>/``.
    ``robust_budget`` (seconds per game) runs a robustness pass (:mod:`analysis.robust`)
    whose tags the page prints; 0 reads back the last ``mechbal robust`` of this catalog,
    if any, and says the verdicts were not checked otherwise."""
    from analysis import report_rests

    sets = dict(sets or {})
    computed = [compute(g, catalog_root, sets) for g in games]
    if export is not None:
        writable_folder(export, "--export")
    writable_folder(reports_dir, "--out")
    pages: dict[str, tuple[Path, list[Flag], Any]] = {}
    summaries: dict[str, str] = {}
    for res in computed:
        g = res.game
        write_tables(g, res.frames, reports_dir / "tables")
        if res.analysis is None:
            continue
        ctx = ReportContext(
            game=g,
            catalog=res.catalog,
            catalog_root=Path(catalog_root),
            claims=res.claims,
            frames=res.frames,
            limits=res.limits,
            store=Path(store),
            reports_dir=Path(reports_dir),
            n=n,
            seed=seed,
            jobs=jobs,
            sets=sets,
        )
        runs = res.analysis.default_runs(ctx)
        robustness = report_rests.run_pass(ctx, res.analysis, robust_budget)
        ctx = dataclasses.replace(ctx, robustness=robustness)
        content = res.analysis.page(ctx, runs)
        rests = report_rests.rests_on_section(ctx, res.analysis, robustness)
        laid = lay_out(ctx, content, rests, robustness)
        summaries[g.name] = report_rests.index_summary(g.name, rests.data["provenance"], robustness)
        images = render_charts(laid.charts) if export is not None else {}
        path = write_page(Path(reports_dir) / f"{g.name}.html", laid.html)
        _write_files(Path(reports_dir) / g.name, laid.files)
        if export is not None:
            _write_files(export / g.name, laid.files, tidy=False)
            for name, data in images.items():
                _write_bytes(export / g.name / name, data)
        pages[g.name] = (path, content.flags, robustness)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    sections = []
    for res in computed:
        link = ""
        if res.game.name in pages:
            path, flags, robustness = pages[res.game.name]
            tags = report_rests.flag_rows(flags, robustness, res.game.name)
            items = "".join(
                f"<li>{html.escape(f.sentence)} <span class='small'>"
                f"[{html.escape(t['tag'])}]</span></li>"
                for f, t in zip(flags, tags, strict=True)
            )
            link = (
                f"<p><a href='{path.name}'><strong>Open the {html.escape(res.game.title)} "
                f"report</strong></a> (charts, flags, tables). {len(flags)} balance "
                f"flag{'s' if len(flags) != 1 else ''}:</p><ul>{items}</ul>"
            )
        if res.game.name in summaries:
            link = f"<p class='rests'>{summaries[res.game.name]}</p>" + link
        link += _tool_links(Path(reports_dir), res.game.name)
        sections.append(game_section(res, link))
    with_sets = f" with <strong>{html.escape(sets_text(sets))}</strong>" if sets else ""
    rests_intro = (
        "<h2>What these numbers rest on</h2><p>Every game below mixes what its rulebook "
        "states with placeholders (values invented where it prints none), readings of rules "
        "it leaves silent, and the policies our bots play. Each game's line counts them; "
        "each page opens with the detail and tags every headline verdict robust (it holds "
        "under every reading, policy, seat and placeholder draw checked) or fragile (naming "
        "what flips it).</p>"
        + "".join(
            f"<p><strong>{html.escape(res.game.title)}</strong>: {summaries[res.game.name]}</p>"
            for res in computed
            if res.game.name in summaries
        )
    )
    doc = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<title>mechbal balance report</title>"
        f"<style>{STYLE}</style></head><body>"
        "<h1>mechbal balance report</h1>"
        f"<p class='small'>Generated {stamp} from catalog folder "
        f"<code>{html.escape(str(catalog_root))}</code>{with_sets}.</p>"
        + rests_intro
        + "\n".join(sections)
        + "</body></html>"
    )
    return write_text(reports_dir / "index.html", doc)
