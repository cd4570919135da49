"""The Lab Partners notebooks: stored clean, opening with their question, and running top
to bottom with a small N into a temporary store, in a kernel of this venv's Python
(tests/notebooks.py)."""

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

PATHS = sorted(NOTEBOOKS.glob("labpartners_*.ipynb"))
SMALL_N = 1600  # whole games: 80 a cell over 5 kaiju x 4 player counts, each with 18 decks (full, alpha, 16 random alphas)


def test_the_notebooks_are_there() -> None:
    assert "labpartners_full_spread_vs_alpha.ipynb" in {p.name for p in PATHS}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_stored_clean_and_open_with_a_question(path: Path) -> None:
    nb = assert_stored_clean(path)
    # the parameters come first, read from the environment
    assert "MECHBAL_N" in nb.cells[1].source


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_runs_with_a_small_n(
    path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    venv_kernel: Path,  # noqa: F811
) -> None:
    store = tmp_path / "data"
    nb = run_small(path, store, SMALL_N, monkeypatch, venv_kernel)
    assert chart_outputs(nb) >= 7, "a chart per question"
    manifests = list(store.glob("labpartners/full-spread-vs-alpha/run=*/manifest.json"))
    assert manifests, "nothing simulated into the store"
    text = printed(nb)
    for line in CONCLUSIONS.get(path.stem, ()):
        assert line in text, line


# What a run with SMALL_N must print: the games it played, a sentence per metric with its
# paired interval, the flag count, and where the catalog's alpha sits among the samples.
CONCLUSIONS = {
    "labpartners_full_spread_vs_alpha": (
        f"Simulated (vector engine): {SMALL_N:,} whole games, each played with all 18 decks",
        "Win rate: the alpha deck is ",
        "Lesson-take rate: the alpha deck is ",
        "(95% ",
        " flag(s)",
        "groups lie more than 4 standard errors from the exact odds",
        "Against each kaiju the 16 sampled alphas' win rates span ",
    ),
}
