"""Running a game's notebooks in tests: each game's ``tests/<game>/test_notebooks.py``
checks its notebooks are stored clean, open with their question and run top to bottom with
a small N into a temporary store, in a kernel of this venv's Python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
KERNEL = "python3"
CHART_HTML = "vegaEmbed"
# Printed by a cell appended to the in-memory copy: which Python ran, and the N it read.
PROBE = "import sys\nprint(sys.executable)\nprint(N)"


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def assert_stored_clean(path: Path) -> nbformat.NotebookNode:
    """A valid notebook for this venv's kernel, opening with its question, with no
    outputs or execution counts stored; returns it."""
    nb = read(path)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == KERNEL
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "?" in first.source, "open with the question"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} is stored with outputs"
            assert cell.execution_count is None, f"cell {i} is stored with an execution count"
    return nb


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


def run_small(
    path: Path, store: Path, n: int, monkeypatch: pytest.MonkeyPatch, kernel: Path
) -> nbformat.NotebookNode:
    """Execute a copy of the notebook in memory (the stored file is never written) with
    ``MECHBAL_N=n`` into ``store``, in the venv's kernel: no cell errs and the probe shows
    this venv's Python read that N. Returns the executed notebook."""
    monkeypatch.setenv("JUPYTER_PATH", str(kernel))
    monkeypatch.setenv("MECHBAL_N", str(n))
    monkeypatch.setenv("MECHBAL_STORE", str(store))
    monkeypatch.delenv("MECHBAL_CATALOGS", raising=False)  # the default, ../catalogs
    nb = read(path)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        nb, timeout=600, kernel_name=KERNEL, resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    probe = "".join(o.get("text", "") for o in nb.cells[-1].outputs).split()
    assert probe == [sys.executable, str(n)], "the kernel is not this venv's Python"
    return nb


def chart_outputs(nb: nbformat.NotebookNode) -> int:
    count = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if any(k.startswith("application/vnd.vegalite") for k in data) or (
                CHART_HTML in data.get("text/html", "")
            ):
                count += 1
    return count


def printed(nb: nbformat.NotebookNode) -> str:
    """Everything the executed cells printed."""
    return "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
