"""notebooks/robustness.ipynb: stored clean, opening with its question, and running top to
bottom with a small N into a temporary store, in a kernel of this venv's Python
(tests/notebooks.py). It spans the four games, so it lives beside the docs' checks."""

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

PATH = NOTEBOOKS / "robustness.ipynb"
SMALL_N = 160  # games a run: each verdict's tag is printed whatever it says


def test_stored_clean_and_open_with_a_question() -> None:
    nb = assert_stored_clean(PATH)
    assert "MECHBAL_N" in nb.cells[1].source


def test_runs_with_a_small_n(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    venv_kernel: Path,  # noqa: F811
) -> None:
    nb = run_small(PATH, tmp_path / "data", SMALL_N, monkeypatch, venv_kernel)
    text = printed(nb)
    for claim in ("the best loadout", "the best kit", "the best unit"):
        assert f"{claim}: " in text
    # each verdict is tagged with one of the classifier's statuses
    assert text.count("  -> ") == 4
    assert all(
        line.split(": ")[0].strip(" ->") in ("robust", "fragile", "unconfirmed", "unchecked")
        for line in text.splitlines()
        if line.startswith("  -> ")
    )
    assert chart_outputs(nb) >= 2
