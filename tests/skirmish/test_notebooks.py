"""The Skirmish notebooks: stored clean, each opening with its question, and each running
top to bottom with a small N into a temporary store, in a kernel of this venv's Python
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

PATHS = sorted(NOTEBOOKS.glob("skirmish_*.ipynb"))  # each game tests its own
SMALL_N = 1600


def test_the_notebooks_are_there() -> None:
    names = {p.name for p in PATHS}
    assert {"skirmish_hit_bands.ipynb", "skirmish_crit_margin.ipynb"} <= names


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_stored_clean_and_open_with_a_question(path: Path) -> None:
    assert_stored_clean(path)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_runs_with_a_small_n(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, venv_kernel: Path  # noqa: F811
) -> None:
    store = tmp_path / "data"
    nb = run_small(path, store, SMALL_N, monkeypatch, venv_kernel)
    assert chart_outputs(nb) >= 1, "no chart in the outputs"
    assert any(store.glob("skirmish/*/run=*/manifest.json")), "nothing simulated into the store"
    text = printed(nb)
    for line in CONCLUSIONS.get(path.stem, ()):  # a small N reads as what it is
        assert line in text, line


# What a notebook run with SMALL_N must print: its readings are a preview, of a sample,
# with intervals; and where those overlap, that the data cannot decide.
CONCLUSIONS = {
    "skirmish_team_cap": ("PREVIEW: ", "These are 6 of the 36 legal kit teams, a sample",
                          "Teams with a Heavy rate ", "(95% "),
    "skirmish_crit_margin": ("Simulated at margin 4: ", "comes nearest one third: ", "(95% "),
}
