"""The designer tools notebook: stored clean, opening with its question, and running top
to bottom with a small N into a temporary store (its pages beside it), in a kernel of
this venv's Python (tests/notebooks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.notebooks import (  # noqa: F401  (venv_kernel is a fixture)
    NOTEBOOKS,
    assert_stored_clean,
    chart_outputs,
    printed,
    run_small,
    venv_kernel,
)

PATH = NOTEBOOKS / "designer_tools.ipynb"
SMALL_N = 640  # duels per version: 10 a cell over the 64 ordered kit pairs


def test_stored_clean_and_open_with_a_question() -> None:
    nb = assert_stored_clean(PATH)
    assert "MECHBAL_N" in nb.cells[1].source


def test_runs_with_a_small_n(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    venv_kernel: Path,  # noqa: F811
) -> None:
    store = tmp_path / "data"
    nb = run_small(PATH, store, SMALL_N, monkeypatch, venv_kernel)
    text = printed(nb)
    # the margin 3 -> 4 diff names the Cannon's fall; the exact tune lands on margin 4, the
    # margin closest to one third by the exact tables (0.519 at 3, 0.366 at 4, 0.214 at 5)
    assert "cannon" in text and "page: diff-skirmish.html" in text
    assert "(grid): crit_margin=4" in text
    assert "Of 24 parts (compared within each slot), 2 are dominated" in text
    assert chart_outputs(nb) >= 5
    assert (tmp_path / "reports" / "diff-skirmish.html").is_file()
