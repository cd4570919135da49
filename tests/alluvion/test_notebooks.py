"""The Alluvion notebook: stored clean, opening with its question, and running top to
bottom with a small N into a temporary store, in a kernel of this venv's Python
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
from tests.registration import installed

PATHS = sorted(NOTEBOOKS.glob("alluvion_*.ipynb"))
SMALL_N = 1280  # duels: 20 a cell over the 64 ordered pairs of the 8 named loadouts


def test_the_notebooks_are_there() -> None:
    assert "alluvion_loadouts.ipynb" in {p.name for p in PATHS}


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
    # the kernel is another process: it finds the game through the installed entry points
    installed("alluvion")
    store = tmp_path / "data"
    nb = run_small(path, store, SMALL_N, monkeypatch, venv_kernel)
    assert chart_outputs(nb) >= 6, "a chart per question"
    assert list(store.glob("alluvion/loadouts/run=*/manifest.json")), "nothing simulated"
    text = printed(nb)
    for line in CONCLUSIONS.get(path.stem, ()):
        assert line in text, line
    assert "Dominant (" in text or "No loadout dominates every other." in text


# What a run with SMALL_N must print: the duels it played, the extremes and the first side's
# edge with their intervals, the flag count, dominance in words.
CONCLUSIONS = {
    "alluvion_loadouts": (
        f"Simulated (vector engine): {SMALL_N:,} battles",
        "Duels, one Armor a side.",
        "scores highest, ",
        "scores lowest, ",
        "(95% ",
        "Side a (each ordered pair is played both ways) scores ",
        " flag(s)",
        "Dominance as read here: ",
    ),
}
