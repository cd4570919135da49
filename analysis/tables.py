"""Exact tables on disk: CSV (the contract) plus Markdown fit to print, and on request
one Excel workbook of them all.

A game declares its tables (``sims.core.protocol.Table``: contract columns with their
kinds, documentation, an optional display pivot); this module writes what the game
computed accordingly, into ``DIR/GAME/``. Everything is checked and rendered in memory
first and written through temporary names renamed into place, so a failure writes
nothing partial.

Formats (``mechbal tables GAME --format csv,md,xlsx``): ``csv`` writes ``<stem>.csv``,
``md`` writes ``<stem>.md``, ``xlsx`` writes ``GAME-tables.xlsx``: an ``about`` sheet
(the game, its catalog, each table's documentation) and a sheet per table.
"""

from __future__ import annotations

import io
import os
import re
import uuid
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from sims.core.protocol import EXACT_KINDS, Catalog, Game, Pivot, Table
from sims.core.store import write_text

FORMATS = ("csv", "md", "xlsx")  # in the order they are written
DEFAULT_FORMATS = ("csv", "md")
ABOUT_SHEET = "about"
SHEET_CHARS = 31  # Excel's limit on a sheet name
# Excel shows 15 significant digits: a larger integer is written as text to stay exact.
EXACT_NUMBER_LIMIT = 10**15


def percent(value: str) -> str:
    p = Fraction(value)
    return f"{float(p) * 100:.1f}%"


def exact_text(value: str, kind: str) -> str:
    """An exact cell for reading: a probability with its percentage, an expected value
    with its decimal value (``39/20 (1.950)``)."""
    if kind == "probability":
        return f"{value} ({percent(value)})"
    return f"{value} ({float(Fraction(value)):.3f})"


def pivot_text(value: str, kind: str) -> str:
    """A pivot cell: a probability as its percentage, an expectation to two decimals."""
    if kind == "probability":
        return percent(value)
    if kind == "expectation":
        return f"{float(Fraction(value)):.2f}"
    return str(value)


def markdown_table(frame: pl.DataFrame, table: Table | None = None) -> str:
    """A GitHub-style Markdown table: the table's columns without their floats, exact
    columns shown as ``a/b (pp.p%)`` (probabilities) or ``a/b (x.xxx)`` (expectations)."""
    kinds = {c.name: c.kind for c in table.columns} if table else {}
    cols = [c for c in frame.columns if not c.endswith("_float")]
    for c in cols:  # an undeclared fraction column is read as a probability
        if f"{c}_float" in frame.columns:
            kinds.setdefault(c, "probability")
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.select(cols).iter_rows(named=True):
        cells = [
            exact_text(row[c], kinds[c])
            if kinds.get(c) in ("probability", "expectation")
            else str(row[c])
            for c in cols
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _pivot_section(frame: pl.DataFrame, pivot: Pivot, table: Table) -> str:
    cols = sorted(frame[pivot.columns].unique().to_list())
    rows = sorted(frame[pivot.rows].unique().to_list())
    lines = [f"| {pivot.rows} \\ {pivot.columns} | " + " | ".join(map(str, cols)) + " |"]
    lines.append("|" + "---|" * (len(cols) + 1))
    index = {(r[pivot.rows], r[pivot.columns]): r for r in frame.iter_rows(named=True)}
    for r in rows:
        cells = [_cell(pivot, table, index[(r, c)]) for c in cols]
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(pivot: Pivot, table: Table, row: dict[str, Any]) -> str:
    if callable(pivot.cell):
        return pivot.cell(row)
    kind = next(c.kind for c in table.columns if c.name == pivot.cell)
    return pivot_text(row[pivot.cell], kind)


def render_markdown(table: Table, frame: pl.DataFrame, game_title: str) -> str:
    stem, pivot = table.stem, table.pivot
    head = f"# {game_title}: {stem}\n\n{table.doc}\n\nExact fractions are in `{stem}.csv`.\n"
    if pivot is None:
        return head + "\n" + markdown_table(frame, table) + "\n"
    if pivot.note:
        head += f"\n{pivot.note}\n"
    parts = [head]
    if not pivot.sections:
        return head + "\n" + _pivot_section(frame, pivot, table) + "\n"
    keys = frame.select(pivot.sections).unique(maintain_order=True).iter_rows()
    for key in keys:
        sub = frame.filter(
            pl.all_horizontal(pl.col(c) == v for c, v in zip(pivot.sections, key, strict=True))
        )
        title = ", ".join(f"{c} {v}" for c, v in zip(pivot.sections, key, strict=True))
        parts.append(f"\n## {title}\n\n" + _pivot_section(sub, pivot, table) + "\n")
    return "".join(parts)


def check_frames(game: Game, frames: dict[str, pl.DataFrame]) -> None:
    """The computed frames are exactly the declared tables, with the declared columns in
    order (each exact column followed by its float): a game that breaks its own
    declaration is a bug, reported before anything is written."""
    declared = [t.stem for t in game.tables]
    if sorted(frames) != sorted(declared):
        raise ValueError(
            f"{game.name}: tables computed {sorted(frames)} but declared {sorted(declared)}"
        )
    for table in game.tables:
        got, want = frames[table.stem].columns, table.file_columns()
        if got != want:
            raise ValueError(f"{game.name} table {table.stem}: columns {got}, declared {want}")


def parse_formats(items: str | Iterable[str] | None) -> tuple[str, ...]:
    """The formats asked for, each item a name or a comma list (``--format xlsx``,
    ``--format csv,md``), in :data:`FORMATS` order; none asked means
    :data:`DEFAULT_FORMATS`. An unknown name is a one-line ``ValueError``."""
    if items is None:
        return DEFAULT_FORMATS
    if isinstance(items, str):
        items = [items]
    asked = [f.strip().lower() for item in items for f in item.split(",") if f.strip()]
    for name in asked:
        if name not in FORMATS:
            raise ValueError(f"--format: unknown format {name!r} (known: {', '.join(FORMATS)})")
    if not asked:
        raise ValueError(f"--format: no format given (known: {', '.join(FORMATS)})")
    return tuple(f for f in FORMATS if f in asked)


def workbook_name(game: Game) -> str:
    """The workbook's file name: the game in it, so a copy sent on its own says what it is."""
    return f"{game.name}-tables.xlsx"


def sheet_names(stems: Sequence[str]) -> dict[str, str]:
    """Table stem -> its sheet: the stem made a legal Excel sheet name (no ``[]:*?/\\``,
    at most 31 characters, unique ignoring case, never the ``about`` sheet's name);
    a clash after cutting is told apart by a ``~2``, ``~3`` ... suffix."""
    taken = {ABOUT_SHEET}
    out = {}
    for stem in stems:
        base = re.sub(r"[\[\]:*?/\\]", "_", stem).strip("'") or "table"
        name, k = base[:SHEET_CHARS], 1
        while name.lower() in taken:
            k += 1
            name = f"{base[: SHEET_CHARS - len(str(k)) - 1]}~{k}"
        taken.add(name.lower())
        out[stem] = name
    return out


def _cell_texts(frame: pl.DataFrame, col: str) -> list[str]:
    return ["" if v is None else str(v) for v in frame[col].to_list()]


def _write_sheet(ws: Any, table: Table, frame: pl.DataFrame, styles: dict[str, Any]) -> None:
    """One table: a header row (frozen, filterable), then its rows. Exact fractions are
    text cells, so a spreadsheet never reads ``3/4`` as a date; their ``_float`` columns
    and numeric ids and counts are numbers."""
    exact = {c.name for c in table.columns if c.kind in EXACT_KINDS}
    for j, col in enumerate(frame.columns):
        ws.write_string(0, j, col, styles["header"])
        values = frame[col].to_list()
        numeric = frame[col].dtype.is_numeric() and col not in exact
        if numeric and col.endswith("_float"):
            width = 14  # General shows about ten digits; the cell holds 16 (xlsxwriter)
        else:
            width = max(len(col), *(len(t) for t in _cell_texts(frame, col)), 4) + 2
        ws.set_column(j, j, min(width, 60), styles["text"] if col in exact else None)
        for i, v in enumerate(values, start=1):
            if v is None:
                ws.write_blank(i, j, None)
            elif numeric and not (isinstance(v, int) and abs(v) >= EXACT_NUMBER_LIMIT):
                ws.write_number(i, j, v)
            else:
                ws.write_string(i, j, str(v))
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, frame.height, len(frame.columns) - 1)


def _write_about(
    ws: Any,
    game: Game,
    sheets: dict[str, str],
    frames: dict[str, pl.DataFrame],
    catalog: Catalog | None,
    styles: dict[str, Any],
) -> None:
    """What the workbook is: the game, the catalog it was computed from (with any
    ``--set`` edits), how cells are written, and each table's sheet and documentation."""
    sets = ", ".join(f"{k}={v}" for k, v in catalog.overrides) if catalog else ""
    facts = [
        ("game", f"{game.title} ({game.name})"),
        ("rules version", game.rules_version),
        ("catalog", str(catalog.root) if catalog else "not recorded"),
        ("--set", sets or "none: the catalog as it is"),
        (
            "cells",
            "Exact fractions a/b are text (exact); the <column>_float beside each "
            "holds the same value as a number (16 significant digits), for formulas "
            "and charts.",
        ),
    ]
    ws.write_string(0, 0, f"{game.title}: exact tables", styles["title"])
    for i, (key, value) in enumerate(facts, start=2):
        ws.write_string(i, 0, key, styles["header"])
        ws.write_string(i, 1, value, styles["wrap"])
    top = len(facts) + 3
    for j, head in enumerate(("sheet", "table", "rows", "columns (kind)", "how it is computed")):
        ws.write_string(top, j, head, styles["header"])
    for i, table in enumerate(game.tables, start=top + 1):
        ws.write_url(i, 0, f"internal:'{sheets[table.stem]}'!A1", string=sheets[table.stem])
        ws.write_string(i, 1, table.stem)
        ws.write_number(i, 2, frames[table.stem].height)
        ws.write_string(
            i, 3, ", ".join(f"{c.name} ({c.kind})" for c in table.columns), styles["wrap"]
        )
        ws.write_string(i, 4, table.doc, styles["wrap"])
    for j, width in enumerate((18, 24, 8, 40, 90)):
        ws.set_column(j, j, width)


def render_workbook(
    game: Game, frames: dict[str, pl.DataFrame], catalog: Catalog | None = None
) -> bytes:
    """Every table of ``game`` as one ``.xlsx`` workbook, in memory: the ``about`` sheet
    first, then a sheet per table in declared order."""
    import xlsxwriter  # only when a workbook is asked for

    sheets = sheet_names([t.stem for t in game.tables])
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    styles = {
        "title": book.add_format({"bold": True, "font_size": 14}),
        "header": book.add_format({"bold": True, "bottom": 1}),
        "wrap": book.add_format({"text_wrap": True, "valign": "top"}),
        # Text format: a value typed into an exact column stays text too
        "text": book.add_format({"num_format": "@"}),
    }
    _write_about(book.add_worksheet(ABOUT_SHEET), game, sheets, frames, catalog, styles)
    for table in game.tables:
        ws = book.add_worksheet(sheets[table.stem])
        _write_sheet(ws, table, frames[table.stem], styles)
    book.close()
    return buffer.getvalue()


def _write_bytes(path: Path, data: bytes) -> None:
    """``store.write_text`` for bytes: a temporary name beside ``path``, then
    ``os.replace``, so a reader never sees half a workbook."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(tmp, "xb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_tables(
    game: Game,
    frames: dict[str, pl.DataFrame],
    out_dir: Path,
    formats: str | Iterable[str] | None = None,
    catalog: Catalog | None = None,
) -> list[Path]:
    """Write every table of ``game`` under ``out_dir/<game>`` in ``formats`` (default
    CSV + Markdown; see :func:`parse_formats`); returns the paths. ``catalog``, the one
    the frames were computed from, is recorded in the workbook's ``about`` sheet."""
    chosen = parse_formats(formats)
    check_frames(game, frames)
    rendered: dict[str, str | bytes] = {}
    for table in game.tables:
        frame = frames[table.stem]
        if "csv" in chosen:
            rendered[f"{table.stem}.csv"] = frame.write_csv()
        if "md" in chosen:
            rendered[f"{table.stem}.md"] = render_markdown(table, frame, game.title)
    if "xlsx" in chosen:
        rendered[workbook_name(game)] = render_workbook(game, frames, catalog)
    folder = Path(out_dir) / game.name
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in rendered.items():
        if isinstance(data, bytes):
            _write_bytes(folder / name, data)
        else:
            write_text(folder / name, data)
        written.append(folder / name)
    return written
