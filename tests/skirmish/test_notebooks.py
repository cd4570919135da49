"""The notebooks: stored clean, each opening with its question, and each running top to
bottom with a small N into a temporary store, in a kernel of this venv's Python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("skirmish_*.ipynb"))  # each game tests its own
SMALL_N = 1600
KERNEL = "python3"
CHART_HTML = "vegaEmbed"
# Printed by a cell appended to the in-memory copy: which Python ran, and the N it read.
PROBE = "import sys\nprint(sys.executable)\nprint(N)"


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def test_the_notebooks_are_there() -> None:
    names = {p.name for p in PATHS}
    assert {"skirmish_hit_bands.ipynb", "skirmish_crit_margin.ipynb"} <= names


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_stored_clean_and_open_with_a_question(path: Path) -> None:
    nb = _read(path)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == KERNEL
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "?" in first.source, "open with the question"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} is stored with outputs"
            assert cell.execution_count is None, f"cell {i} is stored with an execution count"


@pytest.fixture(scope="module")
def venv_kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``python3`` kernel spec running this interpreter (the venv's), for JUPYTER_PATH:
    a user-level ``python3`` spec pointing at another Python must not be picked up."""
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec.joinpath("kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "mechbal venv", "language": "python"})
    )
    return root


def _chart_outputs(nb: nbformat.NotebookNode) -> int:
    count = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if any(k.startswith("application/vnd.vegalite") for k in data) or (
                CHART_HTML in data.get("text/html", "")
            ):
                count += 1
    return count


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_runs_with_a_small_n(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, venv_kernel: Path
) -> None:
    store = tmp_path / "data"
    monkeypatch.setenv("JUPYTER_PATH", str(venv_kernel))
    monkeypatch.setenv("MECHBAL_N", str(SMALL_N))
    monkeypatch.setenv("MECHBAL_STORE", str(store))
    monkeypatch.delenv("MECHBAL_CATALOGS", raising=False)  # the default, ../catalogs
    nb = _read(path)  # a copy in memory: the stored file is never written
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        nb, timeout=600, kernel_name=KERNEL, resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    probe = "".join(o.get("text", "") for o in nb.cells[-1].outputs).split()
    assert probe == [sys.executable, str(SMALL_N)], "the kernel is not this venv's Python"
    assert _chart_outputs(nb) >= 1, "no chart in the outputs"
    assert any(store.glob("skirmish/*/run=*/manifest.json")), "nothing simulated into the store"
    printed = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    for line in CONCLUSIONS.get(path.stem, ()):  # a small N reads as what it is
        assert line in printed, line


# What a notebook run with SMALL_N must print: its readings are a preview, of a sample,
# with intervals; and where those overlap, that the data cannot decide.
CONCLUSIONS = {
    "skirmish_team_cap": ("PREVIEW: ", "These are 6 of the 36 legal kit teams, a sample",
                          "Teams with a Heavy rate ", "(95% "),
    "skirmish_crit_margin": ("Simulated at margin 4: ", "comes nearest one third: ", "(95% "),
}
