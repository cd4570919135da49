"""The batch runner: an experiment's run split into seeded chunks, run through joblib
(local processes, or a Dask cluster), each chunk written to the store as it finishes.

A run is identified by everything that decides its rows (DESIGN.md "Store"): game,
experiment, catalog content, ``--set`` values, sweeps, experiment options, seed, N,
chunk size, engine and engine version. The run id is a hash of those; the same id
resumes (finished chunks kept, leftovers removed, the rest redone), anything else is a
new run. A run's rows (N split evenly over the grid's cells) are cut into chunks of the
experiment's ``chunk_size`` rows over the cells of one catalog variant, so one chunk is
one engine call however many matchups it holds (:class:`Chunk`). Chunk ``i`` draws from
``SeedSequence(seed, spawn_key=(i,))``, so rows do not depend on the number of workers
or the backend. Memory is bounded by the chunk size: a worker holds one chunk, and the
parent holds only paths and counts.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core import store
from sims.core.catalog import CatalogError
from sims.core.protocol import (
    Batch,
    Catalog,
    Experiment,
    Game,
    Option,
    get_game,
    load_target,
    registry,
)


@dataclass(frozen=True)
class Segment:
    """Rows ``start .. start + size - 1`` of one cell, inside a chunk."""

    cell: int  # index into the run's cells
    start: int  # first game of the cell in this chunk
    size: int


@dataclass(frozen=True)
class Chunk:
    """A chunk of rows: one engine call, one file, one random stream.

    Chunks are cut by rows (the experiment's ``chunk_size``) over the cells of one
    catalog variant (``group``: one combination of swept values) taken in cell order,
    so a chunk may hold many cells; they are numbered in the order of their first row."""

    index: int  # global chunk number: its random stream and file name
    group: int  # index into the run's sweep groups
    segments: tuple[Segment, ...]

    @property
    def size(self) -> int:
        return sum(s.size for s in self.segments)


@dataclass(frozen=True)
class RunPlan:
    game: str
    experiment: str
    run_id: str
    folder: Path
    cells: list[dict[str, Any]]  # cell columns plus swept values
    groups: list[dict[str, Any]]  # the swept values of each catalog variant (hive folders)
    chunks: list[Chunk]
    manifest: dict[str, Any]


@dataclass(frozen=True)
class Task:
    """Everything a worker needs for one chunk; small and picklable (joblib, Dask)."""

    target: str  # the game's "module:attribute" (a game registered at run time too)
    experiment: str
    catalog_root: str
    overrides: tuple[tuple[str, Any], ...]  # --set plus the chunk's swept values
    cells: tuple[tuple[tuple[str, Any], ...], ...]  # each segment's cell, "cell" included
    chunk: Chunk
    seed: int
    engine: str
    path: str
    # the pid of the process running the run, for a local worker process to watch (it
    # stops when that process is gone); None for a remote (Dask) or in-process worker
    parent: int | None = None


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (a KeyboardInterrupt): its workers stopped, every finished
    chunk kept; the same run resumes from them."""

    def __init__(self, folder: Path, kept: int, chunks: int) -> None:
        super().__init__(f"{kept} of {chunks} chunks kept in {folder}")
        self.folder, self.kept, self.chunks = folder, kept, chunks


# Files of a game's catalog folder that never decide rows (DESIGN.md: limits are not
# part of a run's identity; claims are checks). A game adds its own (Game.identity_exclude).
NOT_IN_IDENTITY = ("limits.toml", "claims.toml", "readings.toml")
# How runs are cut into chunks; part of every run's identity, so a run planned another
# way is never resumed into this one. 2: chunks by rows over many cells.
CHUNKING = 2


def catalog_hash(root: Path, game: str, exclude: Sequence[str] = NOT_IN_IDENTITY) -> str:
    """Content hash of the TOML data that decides a game's rows (by name and bytes),
    leaving out the files named in ``exclude``."""
    digest = hashlib.sha256()
    folder = Path(root) / game
    data = (p for p in folder.rglob("*.toml") if p.name not in exclude)
    for path in sorted(data):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def current_catalog_hash(game: Game, experiment: Experiment, root: Path | str) -> str:
    """The catalog hash a run of ``experiment`` made now from ``root`` records: the
    game's TOML files minus those that never decide its rows."""
    exclude = [
        f for f in (*NOT_IN_IDENTITY, *game.identity_exclude) if f not in experiment.identity_files
    ]
    return catalog_hash(Path(root), game.name, exclude)


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


def experiment_of(game: Game, experiment: str) -> Experiment:
    exps = game.experiments
    if experiment not in exps:
        known = ", ".join(sorted(exps)) or "none"
        raise CatalogError(
            "mechbal simulate",
            f"unknown experiment {experiment!r} for {game.name} (known: {known})",
        )
    return exps[experiment]


def _option_value(option: Option, value: Any) -> Any:
    """An option as the experiment reads it: text from a Python caller goes through the
    option's parser, as it does on the command line."""
    if isinstance(value, str) and option.parse is not str:
        try:
            return option.parse(value)
        except ValueError as exc:
            raise CatalogError(option.flag, str(exc)) from None
    return value


def chunk_rows(cells: Sequence[int], per_cell: int, chunk_size: int) -> list[list[Segment]]:
    """The cells' rows (``per_cell`` each, in the order given) cut into chunks of
    ``chunk_size`` rows; a chunk may span cells and a cell may span chunks."""
    chunks: list[list[Segment]] = []
    current: list[Segment] = []
    filled = 0
    for cell in cells:
        start = 0
        while start < per_cell:
            take = min(per_cell - start, chunk_size - filled)
            current.append(Segment(cell, start, take))
            start += take
            filled += take
            if filled == chunk_size:
                chunks.append(current)
                current, filled = [], 0
    if current:
        chunks.append(current)
    return chunks


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
    chunk_size: int | None = None,
    label: str | None = None,
) -> RunPlan:
    """Validate everything and lay out the run; nothing is written here.

    ``chunk_size`` overrides the experiment's rows per chunk (tests: many chunks from a
    small N); it enters the run's identity like the experiment's own."""
    g = get_game(game)
    exp = experiment_of(g, experiment)
    if engine not in ("vector", "reference"):
        raise CatalogError("--engine", f"unknown engine {engine!r} (vector or reference)")
    options = _checked_options(exp, experiment, options)
    if exp.needs_n and (n is None or n < 1):
        raise CatalogError("--n", f"{experiment} needs --n, the total number of games (>= 1)")
    size = chunk_size or exp.chunk_size
    if size < 1:
        raise CatalogError("chunk_size", f"chunks hold at least one row, got {size}")
    sweeps = _checked_sweeps(exp, experiment, sets, sweeps)
    # Every override and every swept value must load: a bad one fails here, before
    # anything is written.
    catalog = g.load_catalog(catalog_root, overrides=dict(sets))
    for name, values in sweeps.items():
        for value in values:
            g.load_catalog(catalog_root, overrides={**sets, name: value})
    cells, groups, group_of = _cells(exp, catalog, options, sweeps)
    per_cell = math.ceil(n / len(cells)) if exp.needs_n else 1
    chunks = _chunks(len(groups), group_of, per_cell, size)
    engine_version = g.engines.version(engine) if g.engines else "none"
    if not exp.needs_n:
        # An enumeration's rows depend on none of these: one run per content, whatever
        # --n, --seed or --engine say (the command line says they do not apply).
        n, seed, engine, engine_version = None, None, None, None
    identity = {
        "game": game,
        "experiment": experiment,
        "catalog_hash": current_catalog_hash(g, exp, catalog_root),
        "set": dict(sorted(sets.items())),
        "sweep": {k: list(v) for k, v in sweeps.items()},
        "options": dict(sorted(options.items())),
        "seed": seed,
        "n": n,
        "chunk_size": size,
        "chunking": CHUNKING,
        "engine": engine,
        "engine_version": engine_version,
        "rules_version": g.rules_version,
    }
    run_id = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()
    run_id = run_id[:16]
    notes = exp.run_notes(catalog, options) if exp.run_notes else {}
    manifest = {
        **identity,
        "run_id": run_id,
        "n_per_cell": per_cell if exp.needs_n else 0,
        "chunks": len(chunks),
        "notes": notes,
        "label": label,
        "cells": [{"cell": i, **cell} for i, cell in enumerate(cells)],
        "created": None,
        "finished": None,
        "complete": False,
        "rows": None,
    }
    folder = store.run_dir(store_root, game, experiment, run_id)
    return RunPlan(game, experiment, run_id, folder, cells, groups, chunks, manifest)


def _checked_options(
    exp: Experiment, experiment: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The experiment's own options (DESIGN "Experiments"), each parsed, the unset ones
    left out; CatalogError for an option the experiment does not declare."""
    declared = {o.name for o in exp.options}
    unknown = sorted(set(options) - declared)
    if unknown:
        flag = "--" + unknown[0].replace("_", "-")
        raise CatalogError("mechbal simulate", f"option {flag} does not apply to {experiment}")
    return {
        o.name: _option_value(o, options.get(o.name, o.default))
        for o in exp.options
        if options.get(o.name, o.default) is not None
    }


def _checked_sweeps(
    exp: Experiment,
    experiment: str,
    sets: Mapping[str, Any],
    sweeps: Mapping[str, Sequence[Any]],
) -> dict[str, Sequence[Any]]:
    """The parameters swept (the experiment's default sweep when none is asked), checked:
    a swept parameter is not also set, and the experiment accepts it."""
    sweeps = dict(sweeps) or dict(exp.default_sweep)
    if exp.sweep_required and not sweeps:
        raise CatalogError("--sweep", f"{experiment} needs {exp.sweep_required}")
    for name in sweeps:
        if name in sets:
            raise CatalogError("--sweep", f"{name!r} is both set and swept")
        if exp.check_sweep and (why := exp.check_sweep(name)):
            raise CatalogError("--sweep", why)
    return sweeps


def _cells(
    exp: Experiment,
    catalog: Catalog,
    options: Mapping[str, Any],
    sweeps: Mapping[str, Sequence[Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int]]:
    """The run's cells: every cell of the experiment under every combination of swept
    values (a group); returns the cells, the groups and each cell's group."""
    groups = [
        dict(zip(sweeps, combo, strict=True)) for combo in itertools.product(*sweeps.values())
    ] or [{}]
    cells, group_of = [], []
    for base in exp.cells(catalog, options):
        for k, sw in enumerate(groups):
            cells.append({**base, **{store.column_name(name): v for name, v in sw.items()}})
            group_of.append(k)
    return cells, groups, group_of


def _chunks(n_groups: int, group_of: list[int], per_cell: int, size: int) -> list[Chunk]:
    """The chunks of ``size`` rows, each within one group (one catalog), numbered in the
    order of their first cell and row."""
    pieces = [
        (k, segments)
        for k in range(n_groups)
        for segments in chunk_rows(
            [c for c in range(len(group_of)) if group_of[c] == k], per_cell, size
        )
    ]
    pieces.sort(key=lambda p: (p[1][0].cell, p[1][0].start))
    return [Chunk(i, k, tuple(segments)) for i, (k, segments) in enumerate(pieces)]


@cache
def _catalog(target: str, root: str, overrides: tuple[tuple[str, Any], ...]) -> Catalog:
    # A worker runs many chunks of few catalog variants: load each variant once.
    return load_target(target).load_catalog(Path(root), overrides=dict(overrides))


# ---- local workers never outlive the run ---------------------------------------------------

WATCH_SECONDS = 0.5  # how often a local worker checks that the run's process still runs
_watched: int | None = None  # the run's process this worker process watches


def _parent_alive(parent: int) -> bool:
    """Whether the run's process still runs. A loky worker is its child: orphaned, it is
    handed to another process (init or a subreaper) and its parent pid changes. Any other
    process tree falls back on the pid itself (a killed, unreaped process is a zombie)."""
    if os.getppid() == parent or os.name != "posix":  # (Windows: os.kill would end it)
        return True
    try:
        os.kill(parent, 0)
    except (ProcessLookupError, PermissionError):  # gone (or its pid taken by another user)
        return False
    try:  # Linux: the state field of /proc/PID/stat, after the parenthesised name
        return Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _watch(parent: int | None) -> None:
    """In a local worker process, once: ignore Ctrl-C (a terminal sends it to the whole
    process group; the run's process handles it and stops the workers), and end the
    worker when the run's process is gone (kill -9 of it would otherwise leave the workers
    running the queued chunks)."""
    global _watched
    if parent is None or parent == os.getpid() or _watched == parent:
        return
    _watched = parent
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while _parent_alive(parent):
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="mechbal-watch-parent", daemon=True).start()


def run_task(task: Task) -> tuple[int, int]:
    """Play one chunk and write it; returns (chunk index, rows). Runs in a worker."""
    _watch(task.parent)
    exp = load_target(task.target).experiments[task.experiment]
    catalog = _catalog(task.target, task.catalog_root, task.overrides)
    segments = task.chunk.segments
    sizes = [s.size for s in segments]
    batch = Batch(
        cells=tuple(dict(cell) for cell in task.cells),
        cell=np.repeat(np.arange(len(segments), dtype=np.int32), sizes),
        index=np.concatenate(
            [np.arange(s.start, s.start + s.size, dtype=np.int64) for s in segments]
        ),
    )
    seq = np.random.SeedSequence(task.seed, spawn_key=(task.chunk.index,))
    table = exp.run_chunk(catalog, batch, np.random.default_rng(seq), task.engine)
    n = table.num_rows
    cols = {
        "seed": pa.array(np.full(n, task.seed, np.int64)),
        "chunk": pa.array(np.full(n, task.chunk.index, np.int32)),
    }
    for name, col in cols.items():
        table = table.append_column(name, col)
    if task.parent not in (None, os.getpid()) and not _parent_alive(task.parent):
        os._exit(1)  # the run's process is gone: write nothing
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
    label = plan.manifest.get("label")
    if label and manifest.get("label") != label:  # a label names the run, never decides it
        manifest["label"] = label
        store.write_manifest(folder, manifest)
    if manifest.get("complete"):
        rows = int(manifest.get("rows") or 0)
        return RunOutcome(plan, 0, len(plan.chunks), rows, time.perf_counter() - start)
    manifest["created"] = manifest.get("created") or datetime.now(UTC).isoformat()
    store.write_manifest(folder, manifest)
    store.remove_leftovers(folder)
    tasks, kept_rows, kept = [], 0, 0
    # an enumeration's identity has no seed: its rows say 0 (they draw nothing)
    row_seed = seed if plan.manifest["seed"] is not None else 0
    target = registry()[plan.game]
    for chunk in plan.chunks:
        swept = plan.groups[chunk.group]
        path = store.chunk_path(folder, swept, chunk.index)
        if path.is_file():
            kept += 1
            kept_rows += store.chunk_rows(path)
            continue
        cells = tuple(tuple({"cell": s.cell, **plan.cells[s.cell]}.items()) for s in chunk.segments)
        tasks.append(
            Task(
                target,
                plan.experiment,
                str(catalog_root),
                tuple(sorted({**sets, **swept}.items())),
                cells,
                chunk,
                row_seed,
                engine,
                str(path),
            )
        )
    try:
        rows = kept_rows + _run_tasks(
            tasks, jobs, backend, scheduler, progress, len(plan.chunks), kept
        )
    except KeyboardInterrupt:  # the workers are stopped: count what they finished
        finished = sum(
            store.chunk_path(folder, plan.groups[c.group], c.index).is_file() for c in plan.chunks
        )
        raise Interrupted(folder, finished, len(plan.chunks)) from None
    manifest.update(complete=True, rows=rows, finished=datetime.now(UTC).isoformat())
    store.write_manifest(folder, manifest)
    return RunOutcome(plan, len(tasks), kept, rows, time.perf_counter() - start)


def _run_tasks(
    tasks: list[Task],
    jobs: int,
    backend: str,
    scheduler: str | None,
    progress: bool | None,
    total: int,
    done: int,
) -> int:
    from joblib import Parallel, delayed, parallel_config

    if not tasks:
        return 0
    processes = backend == "local" and jobs != 1
    if processes:  # loky workers watch this process (Dask workers are remote)
        tasks = [replace(t, parent=os.getpid()) for t in tasks]
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=total, initial=done, unit="chunk", file=sys.stderr)
    rows = 0
    client = results = None
    try:
        if backend == "dask":  # check_execution has vetted backend and scheduler
            from distributed import Client

            client = Client(scheduler)
            config = parallel_config(backend="dask")
        else:
            config = parallel_config(backend="loky" if jobs != 1 else "sequential")
        with config:
            with _sigint_blocked(processes):  # the workers start deaf to Ctrl-C
                results = Parallel(
                    n_jobs=jobs if backend == "local" else -1, return_as="generator_unordered"
                )(delayed(run_task)(t) for t in tasks)
            for _, n in results:
                rows += n
                if bar is not None:
                    bar.update(1)
    except KeyboardInterrupt:
        if results is not None:  # closing it stops the workers (joblib kills loky's)
            with warnings.catch_warnings():  # joblib would warn of cancelled tasks
                warnings.simplefilter("ignore")
                results.close()
        raise
    finally:
        if bar is not None:
            bar.close()
        if client is not None:
            client.close()
    return rows


@contextmanager
def _sigint_blocked(block: bool) -> Iterator[None]:
    """SIGINT blocked in this thread while the workers start: processes (and threads)
    started meanwhile inherit the mask, so a Ctrl-C at any moment, sent by the terminal to
    the whole process group, never prints a worker's traceback. A Ctrl-C meanwhile is
    pending, not lost: it arrives here when the mask is restored."""
    if not block or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from multiprocessing import resource_tracker

    # loky starts it with the workers, and it unblocks SIGINT when it starts: start it first
    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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
    announce: str | None = None,
    chunk_size: int | None = None,
    label: str | None = None,
) -> RunOutcome:
    """``mechbal simulate`` from Python (notebooks, the report): check, plan, run or
    resume; returns what was run and where it is stored. ``announce`` (e.g. ``"report"``)
    says on stderr which run starts (``report: running duel (64,000 games) ...``)."""
    sets, sweeps, options = dict(sets or {}), dict(sweeps or {}), dict(options or {})
    check_execution(seed, jobs, backend, scheduler)
    plan = plan_run(
        game,
        experiment,
        n=n,
        seed=seed,
        catalog_root=Path(catalog_root),
        sets=sets,
        sweeps=sweeps,
        options=options,
        engine=engine,
        store_root=Path(store_root),
        chunk_size=chunk_size,
        label=label,
    )
    if announce:
        total = plan.manifest.get("n")
        size = f"{total:,} games" if total else f"{len(plan.cells):,} cells"
        done = (store.read_manifest(plan.folder) or {}).get("complete")
        print(
            f"{announce}: {experiment} ({size}) already in the store"
            if done
            else f"{announce}: running {experiment} ({size}) ...",
            file=sys.stderr,
        )
    return execute(
        plan,
        catalog_root=Path(catalog_root),
        sets=sets,
        seed=seed,
        engine=engine,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        progress=progress,
    )
