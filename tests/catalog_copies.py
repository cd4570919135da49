"""Edited copies of the shipped catalogs, for tests of what a bad catalog does."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CATALOGS

Prepare = Callable[[Path], Path]  # tmp_path -> the --catalog folder to pass


def copy_catalogs(tmp_path: Path) -> Path:
    root = tmp_path / "catalogs"
    shutil.copytree(CATALOGS, root)
    return root


def edit(game: str, file: str, old: str, new: str) -> Prepare:
    """A copy of the catalogs with ``old`` (present exactly once) replaced in ``game``'s
    ``file``."""

    def prepare(tmp_path: Path) -> Path:
        root = copy_catalogs(tmp_path)
        path = root / game / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{file}: expected {old!r} exactly once"
        path.write_text(text.replace(old, new), encoding="utf-8")
        return root

    return prepare
