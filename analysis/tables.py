"""Rulebook tables on disk: CSV (the contract) plus Markdown fit to print.

Files land in ``DIR/GAME/``. Everything is rendered in memory first and written
through temporary names renamed into place, so a failure writes nothing partial.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import polars as pl

from sims.core.store import write_text

# Tables whose full listing is too long to print get a pivot in Markdown instead:
# stem -> (section columns, row column, column column, value column).
PIVOTS = {
    "hit": (["modifier"], "bonus", "evasion", "p_hit"),
    "penetration": (["margin", "variant"], "pen", "armor", None),
}


def percent(value: str) -> str:
    p = Fraction(value)
    return f"{float(p) * 100:.1f}%"


def markdown_table(frame: pl.DataFrame) -> str:
    """A GitHub-style Markdown table; fraction columns shown as 'a/b (pp.p%)'."""
    cols = [c for c in frame.columns if not c.endswith("_float")]
    fraction_cols = {c for c in cols if f"{c}_float" in frame.columns}
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.select(cols).iter_rows(named=True):
        cells = [
            f"{row[c]} ({percent(row[c])})" if c in fraction_cols else str(row[c]) for c in cols
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _pivot_section(frame: pl.DataFrame, row_col: str, col_col: str, value_col: str | None) -> str:
    cols = sorted(frame[col_col].unique().to_list())
    rows = sorted(frame[row_col].unique().to_list())
    lines = [f"| {row_col} \\ {col_col} | " + " | ".join(map(str, cols)) + " |"]
    lines.append("|" + "---|" * (len(cols) + 1))
    index = {(r[row_col], r[col_col]): r for r in frame.iter_rows(named=True)}
    for r in rows:
        cells = []
        for c in cols:
            rec = index[(r, c)]
            if value_col is not None:
                cells.append(percent(rec[value_col]))
            else:  # penetration: full-or-better / crit
                good = Fraction(rec["full"]) + Fraction(rec["crit"])
                cells.append(f"{float(good) * 100:.0f} / {float(Fraction(rec['crit'])) * 100:.0f}")
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render_markdown(stem: str, frame: pl.DataFrame, doc: str, game_title: str) -> str:
    head = f"# {game_title}: {stem}\n\n{doc}\n\nExact fractions are in `{stem}.csv`.\n"
    if stem not in PIVOTS:
        return head + "\n" + markdown_table(frame) + "\n"
    sections, row_col, col_col, value_col = PIVOTS[stem]
    if value_col is None:
        head += "\nEach cell: % full-or-better / % crit.\n"
    parts = [head]
    keys = frame.select(sections).unique(maintain_order=True).iter_rows()
    for key in keys:
        sub = frame.filter(
            pl.all_horizontal(pl.col(c) == v for c, v in zip(sections, key, strict=True))
        )
        title = ", ".join(f"{c} {v}" for c, v in zip(sections, key, strict=True))
        parts.append(f"\n## {title}\n\n" + _pivot_section(sub, row_col, col_col, value_col) + "\n")
    return "".join(parts)


def write_tables(
    frames: dict[str, pl.DataFrame], docs: dict[str, str], out_dir: Path, game: str, title: str
) -> list[Path]:
    """Write every table as CSV + Markdown under ``out_dir/game``; returns the paths."""
    rendered = {}
    for stem, frame in frames.items():
        rendered[f"{stem}.csv"] = frame.write_csv()
        rendered[f"{stem}.md"] = render_markdown(stem, frame, docs.get(stem, ""), title)
    folder = Path(out_dir) / game
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in rendered.items():
        write_text(folder / name, text)
        written.append(folder / name)
    return written
