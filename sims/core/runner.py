"""The batch runner: an experiment's run split into seeded chunks, run through joblib
(local processes, or a Dask cluster), each chunk written to the store as it finishes.

A run is identified by everything that decides its rows (DESIGN.md "Store"): game,
experiment, catalog content, ``--set`` values, sweeps, experiment options, seed, N,
chunk size, engine and engine version. The run id is a hash of those; the same id
resumes (finished chunks kept, leftovers removed, the rest redone), anything else is a
new run. Chunk ``i`` draws from ``SeedSequence(seed, spawn_key=(i,))``, so rows do not
depend on the number of workers or the backend. Memory is bounded by the chunk size:
a worker holds one chunk, and the parent holds only paths and counts.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core import store
from sims.core.catalog import CatalogError
from sims.core.protocol import get_game


@dataclass(frozen=True)
class Experiment:
    """One kind of run a game offers to ``mechbal simulate``.

    ``cells(catalog, options)`` lists the grid's cells before sweeps (e.g. every
    matchup) as dicts of column values; ``run_chunk(catalog, cell, start, size, rng,
    engine)`` plays ``size`` games of one cell and returns their rows. ``schema``
    documents the row columns (shown by ``mechbal simulate GAME EXPERIMENT --help``)."""

    name: str
    summary: str
    schema: str
    chunk_size: int
    cells: Callable[[Any, Mapping[str, Any]], list[dict[str, Any]]]
    run_chunk: Callable[..., pa.Table]
    needs_n: bool = True
    default_sweep: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    sweep_required: str | None = None  # a description when a --sweep is mandatory
    check_sweep: Callable[[str], str | None] | None = None  # why a sweep name is refused
    option_names: tuple[str, ...] = ()
    identity_files: tuple[str, ...] = ()  # catalog files only this experiment reads
    # what a run made up and its rows only name (e.g. generated kits), for the manifest
    run_notes: Callable[[Any, Mapping[str, Any]], dict[str, Any]] | None = None


@dataclass(frozen=True)
class Chunk:
    index: int  # global chunk number: its random stream and file name
    cell: int  # index into the run's cells
    start: int  # first game of the cell in this chunk
    size: int


@dataclass(frozen=True)
class RunPlan:
    game: str
    experiment: str
    run_id: str
    folder: Path
    cells: list[dict[str, Any]]  # cell columns plus swept values
    swept: list[dict[str, Any]]  # the swept values of each cell (hive folders)
    chunks: list[Chunk]
    manifest: dict[str, Any]


@dataclass(frozen=True)
class Task:
    """Everything a worker needs for one chunk; small and picklable (joblib, Dask)."""

    game: str
    experiment: str
    catalog_root: str
    overrides: tuple[tuple[str, Any], ...]  # --set plus this cell's swept values
    cell: tuple[tuple[str, Any], ...]
    chunk: Chunk
    seed: int
    engine: str
    path: str


# Files of a catalog folder that do not decide rows (DESIGN.md: limits are not part of a
# run's identity; claims and prose are checks and notes).
NOT_IN_IDENTITY = {"limits.toml", "claims.toml", "parts_full.toml"}


def catalog_hash(root: Path, game: str, extra: Sequence[str] = ()) -> str:
    """Content hash of the TOML data that decides a game's rows (by name and bytes);
    ``extra`` names files outside the usual set that an experiment also reads."""
    digest = hashlib.sha256()
    folder = Path(root) / game
    data = (p for p in folder.rglob("*.toml")
            if p.name not in NOT_IN_IDENTITY or p.name in extra)  # fmt: skip
    for path in sorted(data):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def check_execution(seed: int, jobs: int, backend: str, scheduler: str | None) -> None:
    """How a run is executed, checked before anything is planned or written."""
    if seed < 0:
        raise CatalogError("--seed", f"the seed must be 0 or more, got {seed}")
    if jobs < 1:
        raise CatalogError("--jobs", f"--jobs must be at least 1, got {jobs}")
    if backend not in ("local", "dask"):
        raise CatalogError("--backend", f"unknown backend {backend!r} (local or dask)")
    if backend == "dask" and not scheduler:
        raise CatalogError("--scheduler", "--backend dask needs --scheduler ADDR")


def plan_run(
    game: str,
    experiment: str,
    *,
    n: int | None,
    seed: int,
    catalog_root: Path,
    sets: Mapping[str, Any],
    sweeps: Mapping[str, Sequence[Any]],
    options: Mapping[str, Any],
    engine: str,
    store_root: Path,
) -> RunPlan:
    """Validate everything and lay out the run; nothing is written here."""
    g = get_game(game)
    exps = g.experiments
    if experiment not in exps:
        raise CatalogError("mechbal simulate", f"unknown experiment {experiment!r} for {game} "
                                               f"(known: {', '.join(sorted(exps))})")  # fmt: skip
    exp = exps[experiment]
    if engine not in ("vector", "reference"):
        raise CatalogError("--engine", f"unknown engine {engine!r} (vector or reference)")
    unknown = sorted(set(options) - set(exp.option_names))
    if unknown:
        raise CatalogError("mechbal simulate", f"option --{unknown[0]} does not apply to "
                                               f"{experiment}")  # fmt: skip
    if exp.needs_n and (n is None or n < 1):
        raise CatalogError("--n", f"{experiment} needs --n, the total number of games (>= 1)")
    sweeps = dict(sweeps) or dict(exp.default_sweep)
    if exp.sweep_required and not sweeps:
        raise CatalogError("--sweep", f"{experiment} needs {exp.sweep_required}")
    for name in sweeps:
        if name in sets:
            raise CatalogError("--sweep", f"{name!r} is both set and swept")
        if exp.check_sweep and (why := exp.check_sweep(name)):
            raise CatalogError("--sweep", why)
    # Every override and every swept value must load: a bad one fails here, before
    # anything is written.
    catalog = g.load_catalog(catalog_root, overrides=dict(sets))
    for name, values in sweeps.items():
        for value in values:
            g.load_catalog(catalog_root, overrides={**sets, name: value})
    base_cells = exp.cells(catalog, options)
    sweep_grid = [dict(zip(sweeps, combo, strict=True))
                  for combo in itertools.product(*sweeps.values())] or [{}]  # fmt: skip
    cells, swept = [], []
    for base in base_cells:
        for sw in sweep_grid:
            cells.append({**base, **{store.column_name(k): v for k, v in sw.items()}})
            swept.append(sw)
    per_cell = math.ceil(n / len(cells)) if exp.needs_n else 0
    chunks: list[Chunk] = []
    for c in range(len(cells)):
        size = per_cell if exp.needs_n else 1
        for start in range(0, size, exp.chunk_size):
            chunks.append(Chunk(len(chunks), c, start, min(exp.chunk_size, size - start)))
    versions = g.engines
    engine_version = (versions.vector_version if engine == "vector"
                      else versions.reference_version) if versions else "none"  # fmt: skip
    content = catalog_hash(catalog_root, game, exp.identity_files)
    identity = {
        "game": game, "experiment": experiment, "catalog_hash": content,
        "set": dict(sorted(sets.items())), "sweep": {k: list(v) for k, v in sweeps.items()},
        "options": dict(sorted(options.items())), "seed": seed, "n": n,
        "chunk_size": exp.chunk_size, "engine": engine, "engine_version": engine_version,
        "rules_version": g.rules_version,
    }  # fmt: skip
    run_id = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()
    run_id = run_id[:16]
    notes = exp.run_notes(catalog, options) if exp.run_notes else {}
    manifest = {
        **identity, "run_id": run_id, "n_per_cell": per_cell, "chunks": len(chunks),
        "notes": notes,
        "cells": [{"cell": i, **cell} for i, cell in enumerate(cells)],
        "created": None, "finished": None, "complete": False, "rows": None,
    }  # fmt: skip
    folder = store.run_dir(store_root, game, experiment, run_id)
    return RunPlan(game, experiment, run_id, folder, cells, swept, chunks, manifest)


@cache
def _catalog(game: str, root: str, overrides: tuple[tuple[str, Any], ...]) -> Any:
    # A worker runs many chunks of few cells: load each variant of the catalog once.
    return get_game(game).load_catalog(Path(root), overrides=dict(overrides))


def run_task(task: Task) -> tuple[int, int]:
    """Play one chunk and write it; returns (chunk index, rows). Runs in a worker."""
    exp = get_game(task.game).experiments[task.experiment]
    catalog = _catalog(task.game, task.catalog_root, task.overrides)
    seq = np.random.SeedSequence(task.seed, spawn_key=(task.chunk.index,))
    rng = np.random.default_rng(seq)
    table = exp.run_chunk(catalog, dict(task.cell), task.chunk.start, task.chunk.size, rng,
                          task.engine)  # fmt: skip
    n = table.num_rows
    cols = {"seed": pa.array(np.full(n, task.seed, np.int64)),
            "chunk": pa.array(np.full(n, task.chunk.index, np.int32))}  # fmt: skip
    for name, col in cols.items():
        table = table.append_column(name, col)
    store.write_chunk(Path(task.path), table)
    return task.chunk.index, n


@dataclass(frozen=True)
class RunOutcome:
    plan: RunPlan
    ran: int  # chunks run now
    kept: int  # chunks found finished from an earlier attempt
    rows: int
    seconds: float


def execute(
    plan: RunPlan,
    *,
    catalog_root: Path,
    sets: Mapping[str, Any],
    seed: int,
    engine: str,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: bool | None = None,
) -> RunOutcome:
    """Run (or resume) a planned run into the store."""
    check_execution(seed, jobs, backend, scheduler)
    start = time.perf_counter()
    folder = plan.folder
    manifest = store.read_manifest(folder) or dict(plan.manifest)
    if manifest.get("complete"):
        rows = int(manifest.get("rows") or 0)
        return RunOutcome(plan, 0, len(plan.chunks), rows, time.perf_counter() - start)
    manifest["created"] = manifest.get("created") or datetime.now(UTC).isoformat()
    store.write_manifest(folder, manifest)
    store.remove_leftovers(folder)
    tasks, kept_rows, kept = [], 0, 0
    for chunk in plan.chunks:
        path = store.chunk_path(folder, plan.swept[chunk.cell], chunk.index)
        if path.is_file():
            kept += 1
            kept_rows += store.chunk_rows(path)
            continue
        overrides = {**sets, **plan.swept[chunk.cell]}
        tasks.append(Task(plan.game, plan.experiment, str(catalog_root),
                          tuple(sorted(overrides.items())),
                          tuple({"cell": chunk.cell, **plan.cells[chunk.cell]}.items()),
                          chunk, seed, engine,
                          str(path)))  # fmt: skip
    rows = kept_rows + _run_tasks(tasks, jobs, backend, scheduler, progress, len(plan.chunks),
                                  kept)  # fmt: skip
    manifest.update(complete=True, rows=rows, finished=datetime.now(UTC).isoformat())
    store.write_manifest(folder, manifest)
    return RunOutcome(plan, len(tasks), kept, rows, time.perf_counter() - start)


def _run_tasks(tasks: list[Task], jobs: int, backend: str, scheduler: str | None,
               progress: bool | None, total: int, done: int) -> int:  # fmt: skip
    from joblib import Parallel, delayed, parallel_config

    if not tasks:
        return 0
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=total, initial=done, unit="chunk", file=sys.stderr)
    rows = 0
    client = None
    try:
        if backend == "dask":  # check_execution has vetted backend and scheduler
            from distributed import Client

            client = Client(scheduler)
            config = parallel_config(backend="dask")
        else:
            config = parallel_config(backend="loky" if jobs != 1 else "sequential")
        with config:
            results = Parallel(n_jobs=jobs if backend == "local" else -1,
                               return_as="generator_unordered")(
                delayed(run_task)(t) for t in tasks)  # fmt: skip
            for _, n in results:
                rows += n
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
        if client is not None:
            client.close()
    return rows


def simulate(
    game: str,
    experiment: str,
    *,
    n: int | None = None,
    seed: int = 1,
    catalog_root: Path | str = "catalogs",
    store_root: Path | str = "data",
    sets: Mapping[str, Any] | None = None,
    sweeps: Mapping[str, Sequence[Any]] | None = None,
    options: Mapping[str, Any] | None = None,
    engine: str = "vector",
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: bool | None = False,
) -> RunOutcome:
    """``mechbal simulate`` from Python (notebooks, the report): check, plan, run or
    resume; returns what was run and where it is stored."""
    sets, sweeps, options = dict(sets or {}), dict(sweeps or {}), dict(options or {})
    check_execution(seed, jobs, backend, scheduler)
    plan = plan_run(game, experiment, n=n, seed=seed, catalog_root=Path(catalog_root),
                    sets=sets, sweeps=sweeps, options=options, engine=engine,
                    store_root=Path(store_root))  # fmt: skip
    return execute(plan, catalog_root=Path(catalog_root), sets=sets, seed=seed, engine=engine,
                   jobs=jobs, backend=backend, scheduler=scheduler, progress=progress)  # fmt: skip
