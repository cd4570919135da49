"""Exact tables on disk: CSV (the contract) plus Markdown fit to print.

A game declares its tables (``sims.core.protocol.Table``: contract columns with their
kinds, documentation, an optional display pivot); this module writes what the game
computed accordingly, into ``DIR/GAME/``. Everything is checked and rendered in memory
first and written through temporary names renamed into place, so a failure writes
nothing partial.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import polars as pl

from sims.core.protocol import Game, Pivot, Table
from sims.core.store import write_text


def percent(value: str) -> str:
    p = Fraction(value)
    return f"{float(p) * 100:.1f}%"


def exact_text(value: str, kind: str) -> str:
    """An exact cell for reading: a probability with its percentage, an expected value
    with its decimal value (``39/20 (1.950)``)."""
    if kind == "probability":
        return f"{value} ({percent(value)})"
    return f"{value} ({float(Fraction(value)):.3f})"


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
            exact_text(row[c], kinds[c]) if kinds.get(c) in ("probability", "expectation")
            else str(row[c])
            for c in cols
        ]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _pivot_section(frame: pl.DataFrame, pivot: Pivot) -> str:
    cols = sorted(frame[pivot.columns].unique().to_list())
    rows = sorted(frame[pivot.rows].unique().to_list())
    lines = [f"| {pivot.rows} \\ {pivot.columns} | " + " | ".join(map(str, cols)) + " |"]
    lines.append("|" + "---|" * (len(cols) + 1))
    index = {(r[pivot.rows], r[pivot.columns]): r for r in frame.iter_rows(named=True)}
    for r in rows:
        cells = [pivot.cell(index[(r, c)]) for c in cols]
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_markdown(table: Table, frame: pl.DataFrame, game_title: str) -> str:
    stem, pivot = table.stem, table.pivot
    head = f"# {game_title}: {stem}\n\n{table.doc}\n\nExact fractions are in `{stem}.csv`.\n"
    if pivot is None:
        return head + "\n" + markdown_table(frame, table) + "\n"
    if pivot.note:
        head += f"\n{pivot.note}\n"
    parts = [head]
    if not pivot.sections:
        return head + "\n" + _pivot_section(frame, pivot) + "\n"
    keys = frame.select(pivot.sections).unique(maintain_order=True).iter_rows()
    for key in keys:
        sub = frame.filter(
            pl.all_horizontal(pl.col(c) == v for c, v in zip(pivot.sections, key, strict=True))
        )
        title = ", ".join(f"{c} {v}" for c, v in zip(pivot.sections, key, strict=True))
        parts.append(f"\n## {title}\n\n" + _pivot_section(sub, pivot) + "\n")
    return "".join(parts)


def check_frames(game: Game, frames: dict[str, pl.DataFrame]) -> None:
    """The computed frames are exactly the declared tables, with the declared columns in
    order (each exact column followed by its float): a game that breaks its own
    declaration is a bug, reported before anything is written."""
    declared = [t.stem for t in game.tables]
    if sorted(frames) != sorted(declared):
        raise ValueError(f"{game.name}: tables computed {sorted(frames)} but declared "
                         f"{sorted(declared)}")  # fmt: skip
    for table in game.tables:
        got, want = frames[table.stem].columns, table.file_columns()
        if got != want:
            raise ValueError(f"{game.name} table {table.stem}: columns {got}, declared {want}")


def write_tables(game: Game, frames: dict[str, pl.DataFrame], out_dir: Path) -> list[Path]:
    """Write every table of ``game`` as CSV + Markdown under ``out_dir/<game>``; returns
    the paths."""
    check_frames(game, frames)
    rendered = {}
    for table in game.tables:
        frame = frames[table.stem]
        rendered[f"{table.stem}.csv"] = frame.write_csv()
        rendered[f"{table.stem}.md"] = render_markdown(table, frame, game.title)
    folder = Path(out_dir) / game.name
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in rendered.items():
        write_text(folder / name, text)
        written.append(folder / name)
    return written
