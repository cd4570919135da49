"""The balance report: ``reports/index.html`` linking each game's tables and claims.

This first version is plain HTML (no charts yet): per game, the rulebook claims with
pass/fail, the exact tables as CSV and Markdown, and the rules parameters with their
provenance.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from analysis.tables import write_tables
from sims.core.claims import ClaimResult, run_claims
from sims.core.params import describe
from sims.core.protocol import Game, get_game
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


@dataclass(frozen=True)
class GameResults:
    """Everything a game's section shows, computed before anything is written."""

    game: Game
    catalog: Any
    claims: list[ClaimResult]
    frames: dict[str, pl.DataFrame]


def compute(name: str, catalog_root: Path) -> GameResults:
    game = get_game(name)
    catalog = game.load_catalog(catalog_root)
    results = run_claims(game.claims_path(catalog_root), game.checks, catalog)
    return GameResults(game, catalog, results, game.tables(catalog))


def game_section(res: GameResults) -> str:
    game, results, frames, catalog = res.game, res.claims, res.frames, res.catalog
    name = game.name
    failed = [r for r in results if not r.passed]
    parts = [f"<h2 id='{name}'>{html.escape(game.title)}</h2>"]
    verdict = (
        f"All {len(results)} rulebook claims hold."
        if not failed
        else f"{len(failed)} of {len(results)} rulebook claims FAIL: "
        + ", ".join(r.claim.id for r in failed)
    )
    parts.append(f"<p><strong>{html.escape(verdict)}</strong> "
                 f"<span class='small'>rules version {game.rules_version}; "
                 f"rulebook {html.escape(game.rulebook)}</span></p>")  # fmt: skip
    parts.append("<h3>Exact tables</h3><ul>")
    for stem in frames:
        rel = f"tables/{name}/{stem}"
        doc = html.escape(game.table_docs.get(stem, ""))
        parts.append(
            f"<li><a href='{rel}.csv'>{stem}.csv</a> · <a href='{rel}.md'>{stem}.md</a>"
            f" ({frames[stem].height} rows)<br><span class='small'>{doc}</span></li>"
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
    then the default experiments run into the store (resumable) and the pages follow."""
    computed = [compute(g, catalog_root) for g in games]
    reports_dir.mkdir(parents=True, exist_ok=True)
    pages: dict[str, tuple[Path, list]] = {}
    for res in computed:
        g = res.game
        write_tables(res.frames, dict(g.table_docs), reports_dir / "tables", g.name, g.title)
        if g.name == "skirmish":
            from analysis import skirmish_report

            runs = skirmish_report.run_default_experiments(catalog_root, store, n, seed, jobs)
            pages[g.name] = skirmish_report.build_page(
                res.catalog, catalog_root, res.claims, res.frames, runs, store, reports_dir
            )
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
        sections.append(game_section(res).replace("</strong>", "</strong>" + link, 1)
                        if link else game_section(res))  # fmt: skip
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<title>mechbal balance report</title>"
        f"<style>{STYLE}</style></head><body>"
        "<h1>mechbal balance report</h1>"
        f"<p class='small'>Generated {stamp} from catalog folder "
        f"<code>{html.escape(str(catalog_root))}</code>.</p>"
        + "\n".join(sections)
        + "</body></html>"
    )
    return write_text(reports_dir / "index.html", page)
