"""The Lab Partners notebooks: stored clean, opening with their question, and running top
to bottom with a small N into a temporary store, in a kernel of this venv's Python (as
tests/skirmish/test_notebooks.py does for Skirmish's)."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.skirmish.test_notebooks import KERNEL, PROBE, _chart_outputs, venv_kernel  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("labpartners_*.ipynb"))
SMALL_N = 1600  # whole games: 80 a cell over 5 kaiju x 4 player counts, each with 6 decks


def test_the_notebooks_are_there() -> None:
    assert "labpartners_full_spread_vs_alpha.ipynb" in {p.name for p in PATHS}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_stored_clean_and_open_with_a_question(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == KERNEL
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "?" in first.source, "open with the question"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} is stored with outputs"
            assert cell.execution_count is None, f"cell {i} is stored with an execution count"
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
    monkeypatch.setenv("JUPYTER_PATH", str(venv_kernel))
    monkeypatch.setenv("MECHBAL_N", str(SMALL_N))
    monkeypatch.setenv("MECHBAL_STORE", str(store))
    monkeypatch.delenv("MECHBAL_CATALOGS", raising=False)  # the default, ../catalogs
    nb = nbformat.read(path, as_version=4)  # a copy in memory: the stored file is never written
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        nb, timeout=600, kernel_name=KERNEL, resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    probe = "".join(o.get("text", "") for o in nb.cells[-1].outputs).split()
    assert probe == [sys.executable, str(SMALL_N)], "the kernel is not this venv's Python"
    assert _chart_outputs(nb) >= 7, "a chart per question"
    manifests = list(store.glob("labpartners/full-spread-vs-alpha/run=*/manifest.json"))
    assert manifests, "nothing simulated into the store"
    printed = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    for line in CONCLUSIONS.get(path.stem, ()):
        assert line in printed, line


# What a run with SMALL_N must print: the games it played, a sentence per metric with its
# paired interval, the flag count, and where the catalog's alpha sits among the samples.
CONCLUSIONS = {
    "labpartners_full_spread_vs_alpha": (
        f"Simulated (vector engine): {SMALL_N:,} whole games, each played with all 6 decks",
        "Win rate: the alpha deck is ", "Lesson-take rate: the alpha deck is ", "(95% ",
        " flag(s)", "groups lie more than 4 standard errors from the exact odds",
        "Against each kaiju the 4 sampled alphas' win rates span ",
    ),
}  # fmt: skip
