"""The balance report: ``reports/index.html`` and a page per game.

Every game gets, on the index, its rulebook claims with pass/fail, its exact tables as
CSV and Markdown and its rules parameters with their provenance. A game with an analysis
plugin (:mod:`analysis.plugin`) also gets its own page, ``reports/<game>.html``: what is
out of balance first (its flags against ``limits.toml``), then the plugin's sections
(charts and tables over its default runs), then the claims. Everything is loaded,
checked and computed before anything is written, so a bad catalog writes nothing.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from analysis.flags import Flag, load_limits
from analysis.html import page, write_page
from analysis.plugin import Analysis, Page, ReportContext, get_analysis
from analysis.tables import check_frames, write_tables
from sims.core.claims import ClaimResult, run_claims
from sims.core.params import describe
from sims.core.protocol import Catalog, Game, get_game
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


def flags_html(flags: list[Flag]) -> str:
    if not flags:
        return "<p class='ok'>Nothing is outside the limits in <code>limits.toml</code>.</p>"
    items = "".join(
        f"<li><strong>{html.escape(f.sentence)}</strong><br>"
        f"<span class='small'>{html.escape(f.evidence)}</span></li>"
        for f in flags
    )
    return f"<ol class='flags'>{items}</ol>"


def verdict(claims: list[ClaimResult]) -> str:
    failed = [r for r in claims if not r.passed]
    if not failed:
        return f"All {len(claims)} rulebook claims hold."
    return (f"{len(failed)} of {len(claims)} rulebook claims FAIL: "
            + ", ".join(r.claim.id for r in failed))  # fmt: skip


@dataclass(frozen=True)
class GameResults:
    """Everything a game's sections show, computed before anything is written."""

    game: Game
    catalog: Catalog
    claims: list[ClaimResult]
    frames: dict[str, pl.DataFrame]
    analysis: Analysis | None
    limits: dict


def compute(name: str, catalog_root: Path) -> GameResults:
    game = get_game(name)
    catalog = game.load_catalog(catalog_root)
    results = run_claims(game.claims_path(catalog_root), game.checks, catalog)
    frames = game.exact(catalog)
    check_frames(game, frames)
    analysis = get_analysis(name)
    path = game.limits_path(catalog_root)
    limits = load_limits(path, analysis.limits) if analysis and path.is_file() else {}
    return GameResults(game, catalog, results, frames, analysis, limits)


def game_section(res: GameResults, link: str = "") -> str:
    """The game's part of the index: claims verdict, table files, claims, parameters."""
    game, results, frames, catalog = res.game, res.claims, res.frames, res.catalog
    name = game.name
    parts = [f"<h2 id='{name}'>{html.escape(game.title)}</h2>"]
    parts.append(f"<p><strong>{html.escape(verdict(results))}</strong>{link} "
                 f"<span class='small'>rules version {game.rules_version}; "
                 f"rulebook {html.escape(game.rulebook)}</span></p>")  # fmt: skip
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


def write_game_page(ctx: ReportContext, content: Page) -> Path:
    """``reports/<game>.html``: flags first, the plugin's sections, the claims last."""
    game, flags = ctx.game, content.flags
    intro = (
        f"<p>{len(flags)} balance flag{'s' if len(flags) != 1 else ''} against "
        f"<code>catalogs/{html.escape(game.name)}/limits.toml</code>. "
        f"{html.escape(verdict(ctx.claims))}</p>"
    )
    claims = pl.DataFrame([r.row() for r in ctx.claims]) if ctx.claims else None
    sections = [
        ("What is out of balance", flags_html(flags)),
        *content.sections,
        ("Rulebook claims", frame_table(claims, ["claim", "section", "expected", "actual",
                                                 "result"], limit=500)
         if claims is not None else "<p>(none)</p>"),
    ]  # fmt: skip
    doc = page(f"{game.title} balance report", sections, intro_html=intro)
    path = Path(ctx.reports_dir) / f"{game.name}.html"
    write_page(path, doc)
    return path


def build_report(
    games: list[str],
    catalog_root: Path,
    reports_dir: Path,
    *,
    store: Path = Path("data"),
    n: int = 64_000,
    seed: int = 1,
    jobs: int = 1,
) -> Path:
    """Write tables, each game's page and ``index.html``; returns the index path.

    Every game is loaded, checked and computed first, so a bad catalog writes nothing;
    then each game's default experiments run into the store (resumable) and the pages
    follow."""
    computed = [compute(g, catalog_root) for g in games]
    reports_dir.mkdir(parents=True, exist_ok=True)
    pages: dict[str, tuple[Path, list[Flag]]] = {}
    for res in computed:
        g = res.game
        write_tables(g, res.frames, reports_dir / "tables")
        if res.analysis is None:
            continue
        ctx = ReportContext(g, res.catalog, Path(catalog_root), res.claims, res.frames,
                            res.limits, Path(store), Path(reports_dir), n, seed, jobs)  # fmt: skip
        runs = res.analysis.default_runs(ctx)
        content = res.analysis.page(ctx, runs)
        pages[g.name] = (write_game_page(ctx, content), content.flags)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    sections = []
    for res in computed:
        link = ""
        if res.game.name in pages:
            path, flags = pages[res.game.name]
            items = "".join(f"<li>{html.escape(f.sentence)}</li>" for f in flags)
            link = (f"<p><a href='{path.name}'><strong>Open the {html.escape(res.game.title)} "
                    f"report</strong></a> (charts, flags, tables). {len(flags)} balance "
                    f"flag{'s' if len(flags) != 1 else ''}:</p><ul>{items}</ul>")  # fmt: skip
        sections.append(game_section(res, link))
    doc = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<title>mechbal balance report</title>"
        f"<style>{STYLE}</style></head><body>"
        "<h1>mechbal balance report</h1>"
        f"<p class='small'>Generated {stamp} from catalog folder "
        f"<code>{html.escape(str(catalog_root))}</code>.</p>"
        + "\n".join(sections)
        + "</body></html>"
    )
    return write_text(reports_dir / "index.html", doc)
