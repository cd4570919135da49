"""How the working's numbers and tables are written on a terminal, for the board and the
shot sections alike."""

from __future__ import annotations

from fractions import Fraction

from sims.core.dist import fraction_str


def probability(x: Fraction) -> str:
    """A probability as an exact fraction and a percentage."""
    return f"{fraction_str(x)} ({float(x):.1%})"


def expectation(x: Fraction) -> str:
    """An expected value as an exact fraction and a decimal."""
    return fraction_str(x) if x.denominator == 1 else f"{fraction_str(x)} ({float(x):.3f})"


def table(cells: list[list[str]]) -> list[str]:
    """Left-aligned columns, each as wide as its widest cell (a last long cell may overhang)."""
    widths = [0] * len(cells[0])
    for row in cells:
        for i, cell in enumerate(row):
            if len(row) == len(widths) or i < len(row) - 1:  # a short row's last cell overhangs
                widths[i] = max(widths[i], len(cell))
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)) for row in cells
    ]
