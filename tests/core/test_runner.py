"""`mechbal simulate` on Coin Duel, the toy game: the runner and the Parquet store
(DESIGN.md "Store") with no game of the rulebooks involved.

Chunks are cut by rows over many cells (one engine call each) and stay within one swept
value; rows do not depend on the parallelism (sequential, loky processes, a Dask
cluster); a killed run resumes to the same rows; a complete run is not redone; the run id
follows everything that decides the rows; a user error writes nothing.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analysis.cli import main
from sims.core.protocol import game_names, get_game
from sims.core.runner import chunk_rows, plan_run
from tests import runs
from tests.conftest import ROOT
from tests.core.toy import CATALOGS
from tests.runs import assert_user_error, counts_of, manifest, run_id_of, run_ok, snapshot

CHUNK = 1_000  # the toy bout's rows per chunk
CELLS = 9  # three fighters, every ordered pair
N_BIG = 40_001  # ceil(40_001 / 9) = 4_445 games per cell: 39 full chunks and a part
PER_CELL = math.ceil(N_BIG / CELLS)
ROWS_BIG = CELLS * PER_CELL
CHUNKS_BIG = math.ceil(ROWS_BIG / CHUNK)


def simulate(words: str, *extra: str | Path) -> list[str]:
    return runs.simulate(f"toy {words}", *extra)


def big(out: Path, n: int = N_BIG, catalog: Path = CATALOGS) -> list[str]:
    return simulate(f"bout --n {n}", "--out", out, "--catalog", catalog)


def tiny(out: Path, *extra: str | Path, catalog: Path = CATALOGS) -> list[str]:
    return simulate("bout --fighters pawn --n 20", "--out", out, "--catalog", catalog, *extra)


def run_dirs(store: Path) -> list[Path]:
    return runs.run_dirs(store, "toy", "bout")


def only_run(store: Path) -> Path:
    return runs.only_run(store, "toy", "bout")


def read_rows(pattern: Path | str) -> pl.DataFrame:
    return runs.read_rows(pattern, ("cell", "game"))


# ---- 1. chunks by rows ----------------------------------------------------------------------


def test_chunk_rows_cut_cells_by_rows() -> None:
    cuts = chunk_rows([0, 1, 2], per_cell=5, chunk_size=4)
    assert [[(s.cell, s.start, s.size) for s in c] for c in cuts] == [
        [(0, 0, 4)],
        [(0, 4, 1), (1, 0, 3)],
        [(1, 3, 2), (2, 0, 2)],
        [(2, 2, 3)],
    ]
    # a cell of exactly whole chunks: chunk boundaries at its edges, one cell per chunk
    whole = chunk_rows([0, 1], per_cell=6, chunk_size=3)
    assert [[(s.cell, s.start, s.size) for s in c] for c in whole] == [
        [(0, 0, 3)],
        [(0, 3, 3)],
        [(1, 0, 3)],
        [(1, 3, 3)],
    ]


def test_plan_every_row_once_and_chunks_within_a_swept_value(tmp_path) -> None:
    plan = plan_run(
        "toy",
        "bout",
        n=100,
        seed=1,
        catalog_root=CATALOGS,
        sets={},
        sweeps={"coin_bonus": [0, 2]},
        options={},
        engine="vector",
        store_root=tmp_path,
        chunk_size=30,
    )
    assert len(plan.cells) == 18 and plan.groups == [{"coin_bonus": 0}, {"coin_bonus": 2}]
    per_cell = math.ceil(100 / 18)
    seen: dict[int, list[int]] = {}
    for chunk in plan.chunks:
        assert chunk.size <= 30
        for s in chunk.segments:
            assert plan.cells[s.cell]["coin_bonus"] == plan.groups[chunk.group]["coin_bonus"]
            seen.setdefault(s.cell, []).extend(range(s.start, s.start + s.size))
    assert {c: sorted(v) for c, v in seen.items()} == {c: list(range(per_cell)) for c in range(18)}
    firsts = [(c.segments[0].cell, c.segments[0].start) for c in plan.chunks]
    assert firsts == sorted(firsts) and [c.index for c in plan.chunks] == list(range(len(firsts)))
    assert len(plan.chunks) == 2 * math.ceil(9 * per_cell / 30)


# ---- 2. same rows whatever the parallelism ------------------------------------------------


@pytest.fixture(scope="module")
def dask_cluster():
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    )
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def parallel_stores(tmp_path_factory, dask_cluster):
    """The same bout run sequentially, on 2 loky processes and on a Dask cluster."""
    base = tmp_path_factory.mktemp("parallel")
    stores: dict[str, Path] = {}
    for name, extra in (
        ("jobs1", ["--jobs", "1"]),
        ("jobs2", ["--jobs", "2"]),
        ("dask", ["--backend", "dask", "--scheduler", dask_cluster.scheduler_address]),
    ):
        stores[name] = base / name
        assert main(big(stores[name]) + extra) == 0
    return stores


def test_rows_identical_whatever_the_parallelism(parallel_stores):
    frames = {
        name: read_rows(only_run(store) / "part-*.parquet")
        for name, store in parallel_stores.items()
    }
    ref = frames["jobs1"]
    assert ref.height == ROWS_BIG
    # chunks hold several cells and cells span several chunks
    cells_per_chunk = ref.group_by("chunk").agg(pl.col("cell").n_unique())["cell"]
    assert (
        cells_per_chunk.max() == 2
        and ref.group_by("cell").agg(pl.col("chunk").n_unique())["chunk"].min() >= 4
    )
    assert ref.select(pl.struct("cell", "game").is_unique().all()).item()
    assert sorted(ref.group_by("cell").len()["len"].unique()) == [PER_CELL]
    for name in ("jobs2", "dask"):
        assert_frame_equal(frames[name], ref)


def test_manifests_complete_and_run_ids_equal(parallel_stores):
    folders = {name: only_run(store) for name, store in parallel_stores.items()}
    assert len({f.name for f in folders.values()}) == 1
    for folder in folders.values():
        m = manifest(folder)
        assert m["complete"] is True and m["rows"] == ROWS_BIG and m["n"] == N_BIG
        assert m["n_per_cell"] == PER_CELL and m["chunks"] == CHUNKS_BIG
        assert "run=" + m["run_id"] == folder.name
        names = sorted(p.name for p in folder.glob("part-*.parquet"))
        assert names == [f"part-{i:05d}.parquet" for i in range(CHUNKS_BIG)]
        assert not list(folder.rglob("*.partial"))


# ---- 3. kill and resume -------------------------------------------------------------------


def _group_alive(pgid: int) -> list[int]:
    import psutil

    alive = []
    for p in psutil.process_iter(["pid", "status"]):
        try:
            if os.getpgid(p.pid) == pgid and p.info["status"] != psutil.STATUS_ZOMBIE:
                alive.append(p.pid)
        except (ProcessLookupError, psutil.Error):
            continue
    return alive


def _start_and_kill(argv: list[str], store: Path) -> tuple[bool, str]:
    """Start the command in its own process group, SIGKILL it once a chunk is written
    and the manifest is not complete. Returns (killed mid-run, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.core.toy", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    pgid = os.getpgid(proc.pid)
    killed = False
    deadline = time.monotonic() + 120
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            parts = list(store.glob("toy/bout/run=*/part-*.parquet"))
            if parts:
                try:
                    complete = manifest(parts[0].parent).get("complete")
                except (OSError, ValueError):
                    complete = None
                if complete is False:
                    os.killpg(pgid, signal.SIGKILL)
                    killed = True
                    break
            time.sleep(0.005)
    finally:
        if proc.poll() is None and not killed:
            os.killpg(pgid, signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
    end = time.monotonic() + 15  # no worker of the killed run survives to write more
    while _group_alive(pgid) and time.monotonic() < end:
        time.sleep(0.05)
    assert _group_alive(pgid) == []
    return killed and proc.returncode == -signal.SIGKILL, err.decode()


def test_kill_and_resume(tmp_path, parallel_stores, capsys):
    n = N_BIG
    for attempt in range(4):
        store = tmp_path / f"killed-{attempt}"
        argv = big(store, n) + ["--jobs", "2"]
        killed, err = _start_and_kill(argv, store)
        assert "Traceback" not in err, err
        if killed:
            folder = only_run(store)
            m = manifest(folder)
            finished = sorted(folder.glob("part-*.parquet"))
            if m["complete"] is False and 0 < len(finished) < m["chunks"]:
                break  # a real kill in the middle of the run
        n *= 4  # finished (or nearly) before the kill: more work, try again
    else:
        pytest.fail("could not kill the run in the middle in 4 attempts")

    planned = m["chunks"]
    kept_before = {p.name: p.stat().st_mtime_ns for p in finished}
    leftover = folder / "part-99999.parquet.partial"
    leftover.write_bytes(b"half a chunk")

    out = run_ok(argv, capsys)
    ran, kept = counts_of(out)
    assert kept == len(kept_before) >= 1 and ran == planned - kept >= 1
    assert run_id_of(out) == m["run_id"]
    assert not leftover.exists() and not list(store.rglob("*.partial"))
    m2 = manifest(folder)
    assert m2["complete"] is True and m2["rows"] == CELLS * math.ceil(n / CELLS)
    for name, mtime in kept_before.items():  # finished chunks were kept, not rewritten
        assert (folder / name).stat().st_mtime_ns == mtime

    if n == N_BIG:
        ref_store = parallel_stores["jobs1"]
    else:
        ref_store = tmp_path / "uninterrupted"
        run_ok(big(ref_store, n), capsys)
    assert only_run(ref_store).name == folder.name
    assert_frame_equal(
        read_rows(folder / "part-*.parquet"), read_rows(only_run(ref_store) / "part-*.parquet")
    )


def test_resume_of_complete_run_does_nothing(parallel_stores, capsys):
    store = parallel_stores["jobs1"]
    before = snapshot(store)
    out = run_ok(big(store) + ["--jobs", "2"], capsys)
    assert counts_of(out) == (0, CHUNKS_BIG) and f"{ROWS_BIG:,} rows" in out
    assert snapshot(store) == before


# ---- 4. the run id --------------------------------------------------------------------------


def test_run_id_follows_what_decides_the_rows(tmp_path, capsys):
    store = tmp_path / "store"
    base = run_id_of(run_ok(tiny(store), capsys))
    again = run_ok(tiny(store), capsys)
    assert run_id_of(again) == base and counts_of(again) == (0, 1)
    ids = {"base": base}
    for name, extra in (
        ("seed", ["--seed", "2"]),
        ("set", ["--set", "coin_bonus=2"]),
        ("set field", ["--set", "fighter.pawn.die=8"]),
        ("n", ["--n", "21"]),
        ("engine", ["--engine", "reference"]),
    ):
        ids[name] = run_id_of(run_ok(tiny(store, *extra), capsys))
    assert len(set(ids.values())) == len(ids), ids
    assert {f.name for f in run_dirs(store)} == {f"run={i}" for i in ids.values()}

    # the catalog's content decides, not where it lives; limits and claims do not
    copy = tmp_path / "catalogs"
    shutil.copytree(CATALOGS, copy)
    assert run_id_of(run_ok(tiny(store, catalog=copy), capsys)) == base
    (copy / "toy" / "limits.toml").write_text("[win_rate]\nmax = 0.6\n")
    (copy / "toy" / "claims.toml").write_text("# none\n")
    assert run_id_of(run_ok(tiny(store, catalog=copy), capsys)) == base
    fighters = copy / "toy" / "fighters.toml"
    fighters.write_text(fighters.read_text() + "\n# a designer's note\n")
    assert run_id_of(run_ok(tiny(store, catalog=copy), capsys)) != base


def test_reference_engine_writes_the_same_columns(tmp_path, capsys):
    store = tmp_path / "store"
    run_ok(tiny(store), capsys)
    run_ok(tiny(store, "--engine", "reference"), capsys)
    vec, ref = (read_rows(folder / "part-*.parquet") for folder in run_dirs(store))
    assert vec.schema == ref.schema and vec.height == ref.height == 20
    engines = {manifest(folder)["engine"] for folder in run_dirs(store)}
    assert engines == {"vector", "reference"}


# ---- 5. sweeps ------------------------------------------------------------------------------


def test_sweep_writes_hive_folders_one_value_per_chunk(tmp_path, capsys):
    store = tmp_path / "store"
    run_ok(
        simulate("bout --sweep coin_bonus=0,3 --n 9000", "--out", store, "--catalog", CATALOGS),
        capsys,
    )
    folder = only_run(store)
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == [
        "coin_bonus=0",
        "coin_bonus=3",
    ]
    assert not list(folder.glob("part-*.parquet"))
    rows = read_rows(folder / "coin_bonus=*" / "part-*.parquet")
    assert dict(rows.group_by("coin_bonus").len().iter_rows()) == {0: 4500, 3: 4500}
    assert rows.group_by("chunk").agg(pl.col("coin_bonus").n_unique())["coin_bonus"].max() == 1
    # the bonus changes the game: a brute (d4) beats a knave (d8) more often with a bigger coin
    brute = rows.filter((pl.col("side_a") == "brute") & (pl.col("side_b") == "knave"))
    score = brute.group_by("coin_bonus").agg((pl.col("winner") == 0).mean()).sort("coin_bonus")
    assert score["winner"][0] < score["winner"][1]


# ---- 6. user errors write nothing -----------------------------------------------------------


@pytest.fixture(scope="module")
def finished_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("finished")
    assert main(tiny(store)) == 0
    return store


BAD_INPUTS = [
    pytest.param(words.replace("TINY", "bout --fighters pawn --n 20"), id=id_)
    for words, id_ in [
        ("nope --n 20", "unknown experiment"),
        ("bout --fighters pawn,nobody --n 20", "unknown option value"),
        ("TINY --set nope=3", "unknown set parameter"),
        ("TINY --set fighter.pawn.dye=3", "unknown field path"),
        ("TINY --set coin_bonus=9", "out of range"),
        ("TINY --set fighter.pawn.die=abc", "text for a number"),
        ("TINY --sweep coin_bonus=1,99", "sweep bad value"),
        ("TINY --set coin_bonus", "malformed set"),
        ("TINY --sweep coin_bonus=", "sweep without values"),
        ("TINY --set coin_bonus=1 --sweep coin_bonus=1,2", "set and swept"),
        ("bout --fighters pawn", "missing n"),
        ("bout --fighters pawn --n 0", "n zero"),
        ("TINY --engine bogus", "engine bogus"),
        ("TINY --jobs 0", "jobs 0"),
        ("TINY --backend bogus --seed 7", "backend bogus (new run)"),
        ("TINY --backend bogus", "backend bogus (a finished run)"),
        ("TINY --backend dask --seed 8", "dask without scheduler"),
        ("TINY --seed -1", "negative seed"),
    ]
]


@pytest.mark.parametrize("args", BAD_INPUTS)
def test_user_error_one_line_exit_2_nothing_written(args, finished_store, capsys):
    argv = simulate(args, "--out", finished_store, "--catalog", CATALOGS)
    assert_user_error(argv, finished_store, capsys)


def test_an_option_another_game_declares_is_refused(finished_store, capsys):
    # options belong to their experiment: a flag only another installed game declares is
    # an unknown flag for the toy's bout (found through the registry, so no game is named)
    bout = {option.flag for option in get_game("toy").experiments["bout"].options}
    flag = next(
        option.flag
        for name in game_names()
        if name != "toy"
        for experiment in get_game(name).experiments.values()
        for option in experiment.options
        if option.flag not in bout
    )
    argv = simulate(f"bout {flag} pawn --n 20", "--out", finished_store, "--catalog", CATALOGS)
    assert_user_error(argv, finished_store, capsys)


def test_unknown_game_is_one_line(capsys):
    assert main(["simulate", "nogame", "duel", "--n", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mechbal: error: unknown game 'nogame' (known: ") and "toy" in err
