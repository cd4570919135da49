"""Helpers for tests that drive ``mechbal simulate`` in-process and read the store."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import polars as pl
import pytest

from analysis.cli import main


def simulate(words: str, *extra: str | Path) -> list[str]:
    """argv for ``mechbal simulate``: the words of a command line plus extra arguments."""
    return ["simulate", *words.split(), *(str(a) for a in extra)]


def run_ok(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command in-process; it must succeed. Returns its stdout."""
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def run_id_of(output: str) -> str:
    m = re.search(r"^run ([0-9a-f]{16})[ :]", output, re.M)
    assert m, output
    return m.group(1)


def counts_of(output: str) -> tuple[int, int]:
    """(chunks run now, chunks kept) from the summary line."""
    m = re.search(r"\((\d+) run now, (\d+) kept\)", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


def run_dirs(store: Path, game: str, experiment: str) -> list[Path]:
    return sorted((store / game / experiment).glob("run=*"))


def only_run(store: Path, game: str, experiment: str) -> Path:
    dirs = run_dirs(store, game, experiment)
    assert len(dirs) == 1, dirs
    return dirs[0]


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def read_rows(pattern: Path | str, order: tuple[str, ...]) -> pl.DataFrame:
    """All rows under a glob (hive columns included), strings as strings, sorted."""
    df = pl.read_parquet(str(pattern), hive_partitioning=True)
    return df.with_columns(pl.col(pl.Categorical).cast(pl.String)).sort(*order)


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under root: name, size, mtime and a hash of the bytes."""
    snap: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        st = path.stat()
        rel = path.relative_to(root).as_posix()
        if path.is_dir():
            snap[rel + "/"] = ("dir", st.st_mtime_ns)
        else:
            snap[rel] = (st.st_size, st.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
    return snap


def assert_user_error(argv: list[str], store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command fails as a user error: exit 2, one line on stderr and no traceback,
    nothing on stdout, and the store byte for byte as it was."""
    before = snapshot(store)
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("mechbal: error: ")
    assert "Traceback" not in err
    assert out == ""
    assert snapshot(store) == before
