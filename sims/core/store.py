"""The Parquet store (DESIGN.md "Store"): where runs live and how chunks land on disk.

Layout::

    STORE/<game>/<experiment>/run=<id>/manifest.json
    STORE/<game>/<experiment>/run=<id>/[<swept>=<value>/...]part-<chunk:05d>.parquet

A chunk is written under a name ending ``.partial`` and renamed when complete, so a
reader (DuckDB, polars) never sees half a file and a killed run leaves only
``.partial`` leftovers, which a resumed run removes. Swept values are hive folders;
their names are column-safe (dots become underscores: ``part.cannon.size`` ->
``part_cannon_size``).
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

PARTIAL = ".partial"


def column_name(name: str) -> str:
    """A parameter name as a column / hive folder name."""
    return name.replace(".", "_").replace("-", "_")


def run_dir(store: Path, game: str, experiment: str, run_id: str) -> Path:
    return Path(store) / game / experiment / f"run={run_id}"


def chunk_path(folder: Path, swept: dict[str, Any], chunk: int) -> Path:
    """Where chunk ``chunk`` of a cell with these swept values lives."""
    for name, value in swept.items():
        folder = folder / f"{column_name(name)}={value}"
    return folder / f"part-{chunk:05d}.parquet"


def write_chunk(path: Path, table: pa.Table) -> None:
    """Write atomically: a ``.partial`` file, flushed, then renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + PARTIAL)
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def remove_leftovers(folder: Path) -> int:
    """Delete ``.partial`` files a killed run left behind; returns how many."""
    gone = 0
    for leftover in Path(folder).rglob(f"*{PARTIAL}"):
        leftover.unlink(missing_ok=True)
        gone += 1
    return gone


def chunk_rows(path: Path) -> int:
    return pq.read_metadata(path).num_rows


def write_text(path: Path | str, text: str, suffix: str = ".tmp") -> Path:
    """Write ``text`` atomically: a temporary file beside ``path`` (ending ``suffix``),
    then ``os.replace``, so a reader never sees half a file. Every text file mechbal
    writes (tables, pages, manifests) goes through here."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Our own unique name rather than mkstemp, whose 0600 mode would leave reports
    # unreadable to anyone else (a web server, a shared folder): open() honours the umask.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}{suffix}")
    try:
        with open(tmp, "x", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    # a .partial temporary, so a resumed run's leftover sweep removes a killed write
    text = json.dumps(manifest, indent=2, sort_keys=True, default=str)
    write_text(Path(folder) / "manifest.json", text, suffix=PARTIAL)


def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = Path(folder) / "manifest.json"
    return json.loads(path.read_text()) if path.is_file() else None
