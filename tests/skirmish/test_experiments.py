"""`mechbal simulate`: the batch runner and the Parquet store (DESIGN.md "Store").

Rows must not depend on the parallelism (sequential, loky processes, a Dask cluster), a
killed run resumes to the same rows, a complete run is not redone, the run id follows
everything that decides the rows, and a user error writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

from analysis.cli import main
from tests.conftest import CATALOGS, ROOT

DUEL_CHUNK = 50_000
# Two kits: 4 cells (mirrors included); ceil(203_998 / 4) = 51_000 battles per cell, so
# each cell is two chunks (50_000 + 1_000) and the run is 8 chunks, 204_000 rows.
KITS = "foreman,reaver"
N_BIG = 203_998
CELLS_BIG = 4
ROWS_BIG = CELLS_BIG * math.ceil(N_BIG / CELLS_BIG)
CHUNKS_BIG = CELLS_BIG * math.ceil(math.ceil(N_BIG / CELLS_BIG) / DUEL_CHUNK)


# ---- helpers ---------------------------------------------------------------------------


def simulate(words: str, *extra: str | Path) -> list[str]:
    """argv for ``mechbal simulate``: the words of a command line plus extra arguments."""
    return ["simulate", *words.split(), *(str(a) for a in extra)]


def big_duel(out: Path, n: int = N_BIG) -> list[str]:
    return simulate(f"skirmish duel --kits {KITS} --n {n}", "--out", out, "--catalog", CATALOGS)


def tiny_duel(out: Path, *extra: str | Path, catalog: Path = CATALOGS) -> list[str]:
    return simulate("skirmish duel --kits foreman --n 20", "--out", out, "--catalog", catalog,
                    *extra)  # fmt: skip


def run_ok(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command in-process; it must succeed. Returns its stdout."""
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def run_id_of(output: str) -> str:
    m = re.search(r"^run ([0-9a-f]{16}): ", output, re.M)
    assert m, output
    return m.group(1)


def counts_of(output: str) -> tuple[int, int]:
    """(chunks run now, chunks kept) from the summary line."""
    m = re.search(r"\((\d+) run now, (\d+) kept\)", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


def run_dirs(store: Path, experiment: str = "duel") -> list[Path]:
    return sorted((store / "skirmish" / experiment).glob("run=*"))


def only_run(store: Path, experiment: str = "duel") -> Path:
    dirs = run_dirs(store, experiment)
    assert len(dirs) == 1, dirs
    return dirs[0]


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def read_rows(pattern: Path | str) -> pl.DataFrame:
    """All rows under a glob (hive columns included), strings as strings, sorted."""
    df = pl.read_parquet(str(pattern), hive_partitioning=True)
    df = df.with_columns(pl.col(pl.Categorical).cast(pl.String))
    return df.sort("cell", "battle")


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under root: name, size, mtime and a hash of the bytes."""
    snap: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        st = path.stat()
        rel = path.relative_to(root).as_posix()
        if path.is_dir():
            snap[rel + "/"] = ("dir", st.st_mtime_ns)
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            snap[rel] = (st.st_size, st.st_mtime_ns, digest)
    return snap


# ---- 1. same rows whatever the parallelism -----------------------------------------------


@pytest.fixture(scope="module")
def dask_cluster():
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def parallel_stores(tmp_path_factory, dask_cluster):
    """The same duel run sequentially, on 2 loky processes and on a Dask cluster."""
    base = tmp_path_factory.mktemp("parallel")
    stores: dict[str, Path] = {}
    for name, extra in (
        ("jobs1", ["--jobs", "1"]),
        ("jobs2", ["--jobs", "2"]),
        ("dask", ["--backend", "dask", "--scheduler", dask_cluster.scheduler_address]),
    ):
        stores[name] = base / name
        rc = main(big_duel(stores[name]) + extra)
        assert rc == 0
    return stores


def test_rows_identical_whatever_the_parallelism(parallel_stores):
    frames = {
        name: read_rows(store / "skirmish" / "duel" / "run=*" / "part-*.parquet")
        for name, store in parallel_stores.items()
    }
    ref = frames["jobs1"]
    assert ref.height == ROWS_BIG
    # every cell really spans several chunks
    per_cell = ref.group_by("cell").agg(pl.col("chunk").n_unique().alias("chunks"))
    assert per_cell.height == CELLS_BIG
    assert (per_cell["chunks"] == 2).all()
    assert ref.select(pl.struct("cell", "battle").is_unique().all()).item()
    for name in ("jobs2", "dask"):
        assert_frame_equal(frames[name], ref)


def test_manifests_complete_and_run_ids_equal(parallel_stores):
    folders = {name: only_run(store) for name, store in parallel_stores.items()}
    ids = {f.name for f in folders.values()}
    assert len(ids) == 1
    for folder in folders.values():
        m = manifest(folder)
        assert m["complete"] is True
        assert m["rows"] == ROWS_BIG
        assert m["n"] == N_BIG
        assert m["n_per_cell"] == math.ceil(N_BIG / CELLS_BIG)
        assert m["chunks"] == CHUNKS_BIG
        assert "run=" + m["run_id"] == folder.name
        assert len(list(folder.glob("part-*.parquet"))) == CHUNKS_BIG
        assert not list(folder.rglob("*.partial"))
        # chunk files are named by their global chunk number
        names = sorted(p.name for p in folder.glob("part-*.parquet"))
        assert names == [f"part-{i:05d}.parquet" for i in range(CHUNKS_BIG)]


# ---- 2. kill and resume ----------------------------------------------------------------


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
        [sys.executable, "-m", "analysis", *argv],
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
            parts = list(store.glob("skirmish/duel/run=*/part-*.parquet"))
            if parts:
                try:
                    complete = manifest(parts[0].parent).get("complete")
                except (OSError, ValueError):
                    complete = None
                if complete is False:
                    os.killpg(pgid, signal.SIGKILL)
                    killed = True
                    break
            time.sleep(0.01)
    finally:
        if proc.poll() is None and not killed:
            os.killpg(pgid, signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
    # no worker of the killed run survives to write more chunks
    end = time.monotonic() + 15
    while _group_alive(pgid) and time.monotonic() < end:
        time.sleep(0.05)
    assert _group_alive(pgid) == []
    return killed and proc.returncode == -signal.SIGKILL, err.decode()


def test_kill_and_resume(tmp_path, parallel_stores, capsys):
    n = N_BIG
    for attempt in range(4):
        store = tmp_path / f"killed-{attempt}"
        argv = big_duel(store, n) + ["--jobs", "2"]
        killed, err = _start_and_kill(argv, store)
        assert "Traceback" not in err, err
        if killed:
            folder = only_run(store)
            m = manifest(folder)
            finished = sorted(folder.glob("part-*.parquet"))
            if m["complete"] is False and 0 < len(finished) < m["chunks"]:
                break  # a real kill in the middle of the run
        n *= 2  # finished (or nearly) before the kill: more work, try again
    else:
        pytest.fail("could not kill the run in the middle in 4 attempts")

    planned = m["chunks"]
    kept_before = {p.name: p.stat().st_mtime_ns for p in finished}
    leftover = folder / "part-99999.parquet.partial"
    leftover.write_bytes(b"half a chunk")

    out = run_ok(argv, capsys)
    ran, kept = counts_of(out)
    assert kept == len(kept_before) >= 1
    assert ran == planned - kept >= 1
    assert run_id_of(out) == m["run_id"]
    assert not leftover.exists()
    assert not list(store.rglob("*.partial"))
    m2 = manifest(folder)
    assert m2["complete"] is True
    assert m2["rows"] == CELLS_BIG * math.ceil(n / CELLS_BIG)
    assert len(list(folder.glob("part-*.parquet"))) == planned
    # finished chunks were kept, not rewritten
    for name, mtime in kept_before.items():
        assert (folder / name).stat().st_mtime_ns == mtime

    if n == N_BIG:
        ref_store = parallel_stores["jobs1"]
    else:
        ref_store = tmp_path / "uninterrupted"
        run_ok(big_duel(ref_store, n) + ["--jobs", "2"], capsys)
    assert only_run(ref_store).name == folder.name
    resumed = read_rows(folder / "part-*.parquet")
    whole = read_rows(only_run(ref_store) / "part-*.parquet")
    assert resumed.height == m2["rows"]
    assert_frame_equal(resumed, whole)


# ---- 3. a complete run is not redone ---------------------------------------------------


def test_resume_of_complete_run_does_nothing(parallel_stores, capsys):
    store = parallel_stores["jobs1"]
    before = snapshot(store)
    out = run_ok(big_duel(store) + ["--jobs", "2"], capsys)
    assert "0 run now" in out
    assert counts_of(out) == (0, CHUNKS_BIG)
    assert f"{ROWS_BIG:,} rows" in out
    assert snapshot(store) == before


# ---- 4. the run id -----------------------------------------------------------------------


def test_run_id_follows_what_decides_the_rows(tmp_path, capsys):
    store = tmp_path / "store"
    base = run_id_of(run_ok(tiny_duel(store), capsys))
    again = run_ok(tiny_duel(store), capsys)
    assert run_id_of(again) == base
    assert counts_of(again) == (0, 1)

    ids = {"base": base}
    for name, extra in (
        ("seed", ["--seed", "2"]),
        ("set", ["--set", "crit_margin=3"]),
        ("set field", ["--set", "part.cannon.pen=5"]),
        ("n", ["--n", "21"]),
    ):
        ids[name] = run_id_of(run_ok(tiny_duel(store, *extra), capsys))
    assert len(set(ids.values())) == len(ids), ids
    assert {f.name for f in run_dirs(store)} == {f"run={i}" for i in ids.values()}
    for folder in run_dirs(store):
        assert manifest(folder)["complete"] is True

    # the catalog's content decides, not where it lives
    copy = tmp_path / "catalogs"
    shutil.copytree(CATALOGS, copy)
    assert run_id_of(run_ok(tiny_duel(store, catalog=copy), capsys)) == base
    kits = copy / "skirmish" / "kits.toml"
    kits.write_text(kits.read_text() + "\n# a designer's note\n")
    assert run_id_of(run_ok(tiny_duel(store, catalog=copy), capsys)) != base


def test_limits_do_not_enter_the_run_id(tmp_path, capsys):
    store = tmp_path / "store"
    base = run_id_of(run_ok(tiny_duel(store), capsys))
    copy = tmp_path / "catalogs"
    shutil.copytree(CATALOGS, copy)
    (copy / "skirmish" / "limits.toml").write_text("[win_rate]\nmax = 0.6\n")
    assert run_id_of(run_ok(tiny_duel(store, catalog=copy), capsys)) == base


# ---- 5. sweeps -------------------------------------------------------------------------


def test_crit_margin_sweep(tmp_path, capsys):
    store = tmp_path / "store"
    per_cell = 3_000
    words = f"skirmish crit-margin --kits {KITS} --sweep crit_margin=3,4 --n {8 * per_cell}"
    run_ok(simulate(words, "--out", store, "--catalog", CATALOGS), capsys)
    folder = only_run(store, "crit-margin")
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == [
        "crit_margin=3",
        "crit_margin=4",
    ]
    assert not list(folder.glob("part-*.parquet"))  # every chunk is in its hive folder
    m = manifest(folder)
    assert m["complete"] is True and m["rows"] == 8 * per_cell
    rows = read_rows(folder / "crit_margin=*" / "part-*.parquet")
    assert rows.height == 8 * per_cell
    counts = dict(rows.group_by("crit_margin").len().iter_rows())
    assert counts == {3: 4 * per_cell, 4: 4 * per_cell}
    for margin in (3, 4):
        on_disk = read_rows(folder / f"crit_margin={margin}" / "part-*.parquet")
        assert on_disk.height == 4 * per_cell
        cells = {c["cell"] for c in m["cells"] if c["crit_margin"] == margin}
        assert set(on_disk["cell"].unique()) == cells
    crits = {
        margin: rows.filter(pl.col("crit_margin") == margin)
        .select((pl.col("crits_a") + pl.col("crits_b")).mean())
        .item()
        for margin in (3, 4)
    }
    assert crits[3] > crits[4] * 1.1, crits  # a wider margin crits less often

    # duel with --set crit_margin=3: its cell 0 (foreman mirror, chunk 0) is the swept
    # grid's cell 0 (foreman mirror at margin 3, chunk 0): same random stream, same rows.
    # (Other cells have other chunk numbers, hence other streams.)
    duel_store = tmp_path / "duel"
    run_ok(simulate(f"skirmish duel --kits {KITS} --set crit_margin=3 --n {4 * per_cell}",
                    "--out", duel_store, "--catalog", CATALOGS), capsys)  # fmt: skip
    duel = read_rows(only_run(duel_store) / "part-*.parquet")
    swept0 = rows.filter(pl.col("cell") == 0).drop("run", "crit_margin")
    duel0 = duel.filter(pl.col("cell") == 0).drop("run")
    assert swept0.height == per_cell
    assert_frame_equal(swept0, duel0)


def test_bands_sweep_writes_hive_folders(tmp_path, capsys):
    store = tmp_path / "store"
    run_ok(simulate("skirmish bands --kits foreman --sweep part.cannon.size=2,4 --n 40",
                    "--out", store, "--catalog", CATALOGS), capsys)  # fmt: skip
    folder = only_run(store, "bands")
    rows = read_rows(folder / "part_cannon_size=*" / "part-*.parquet")
    assert dict(rows.group_by("part_cannon_size").len().iter_rows()) == {2: 20, 4: 20}


# ---- 6. user errors write nothing --------------------------------------------------------


@pytest.fixture(scope="module")
def finished_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("finished")
    assert main(tiny_duel(store)) == 0
    assert manifest(only_run(store))["complete"] is True
    return store


def _bad(words: str, id: str, xfail: str | None = None) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    return pytest.param(words.replace("TINY", "skirmish duel --kits foreman --n 20"),
                        marks=marks, id=id)  # fmt: skip


BAD_INPUTS = [
    _bad("nogame duel --n 20", "unknown game"),
    _bad("skirmish nope --n 20", "unknown experiment"),
    _bad("skirmish duel --kits foreman,nobody --n 20", "unknown kit"),
    _bad("TINY --policy gunline,nope", "unknown policy"),
    _bad("TINY --set nope=3", "unknown set parameter"),
    _bad("TINY --set part.cannon.pne=3", "unknown field path"),
    _bad("TINY --set crit_margin=9", "out of range"),
    _bad("TINY --set part.cannon.pen=abc", "text for a number"),
    _bad("skirmish crit-margin --kits foreman --n 20 --sweep crit_margin=3,99",
         "sweep bad value"),  # fmt: skip
    _bad("TINY --set crit_margin", "malformed set"),
    _bad("TINY --sweep crit_margin=", "sweep without values"),
    _bad("skirmish bands --kits foreman --n 20", "bands without sweep"),
    _bad("skirmish crit-margin --kits foreman --n 20 --sweep part.cannon.pen=3,4",
         "crit-margin swept over another name"),  # fmt: skip
    _bad("skirmish crit-margin --kits foreman --n 20 --set crit_margin=3 "
         "--sweep crit_margin=3,4", "set and swept"),  # fmt: skip
    _bad("skirmish duel --kits foreman", "missing n"),
    _bad("skirmish duel --kits foreman --n 0", "n zero"),
    _bad("skirmish teamfight --kits foreman --n 20", "option not for the experiment"),
    _bad("TINY --engine bogus", "engine bogus"),
    _bad("TINY --jobs 0", "jobs 0"),
    _bad("skirmish teamfight --n 20 --teams bastion+foreman+reaver,courier+foreman+reaver",
         "illegal team"),  # fmt: skip
    _bad("TINY --backend bogus --seed 7", "backend bogus (new run)"),
    _bad("TINY --backend bogus", "backend bogus (args of a finished run)"),
    _bad("TINY --backend dask --seed 8", "dask without scheduler"),
    _bad("TINY --seed -1", "negative seed"),
    _bad("skirmish team-cap --parts bogus", "team-cap unknown part list"),
    _bad("skirmish team-cap --set copy_limit=1", "team-cap copy limit it cannot count"),
]  # fmt: skip


@pytest.mark.parametrize("args", BAD_INPUTS)
def test_user_error_one_line_exit_2_nothing_written(args, finished_store, capsys):
    before = snapshot(finished_store)
    capsys.readouterr()
    rc = main(simulate(args, "--out", finished_store, "--catalog", CATALOGS))
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("mechbal: error: ")
    assert "Traceback" not in err
    assert out == ""
    assert snapshot(finished_store) == before


def test_user_error_from_the_module_entry_point(finished_store):
    before = snapshot(finished_store)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "simulate",
            "skirmish",
            "duel",
            "--kits",
            "foreman,nobody",
            "--n",
            "20",
            "--out",
            str(finished_store),
            "--catalog",
            str(CATALOGS),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("mechbal: error: --kits: unknown kit 'nobody'")
    assert "Traceback" not in proc.stderr
    assert snapshot(finished_store) == before


# ---- 7. the reference engine -------------------------------------------------------------


def test_reference_engine_same_store_and_columns(tmp_path, capsys):
    store = tmp_path / "store"
    vec = run_id_of(run_ok(tiny_duel(store), capsys))
    ref = run_id_of(run_ok(tiny_duel(store, "--engine", "reference"), capsys))
    assert vec != ref
    folders = {f.name: f for f in run_dirs(store)}
    assert set(folders) == {f"run={vec}", f"run={ref}"}
    assert manifest(folders[f"run={ref}"])["engine"] == "reference"
    schemas = {}
    for rid in (vec, ref):
        parts = sorted(folders[f"run={rid}"].glob("part-*.parquet"))
        assert len(parts) == 1
        schemas[rid] = pq.read_schema(parts[0]).remove_metadata()
        assert pq.read_metadata(parts[0]).num_rows == 20
    assert schemas[vec].equals(schemas[ref])


# ---- 8. the row schema -------------------------------------------------------------------

STR = "str"
SIDES = ("a", "b")
PARTS = ("head", "right_arm", "left_arm", "core", "back", "legs")
COMMON = {
    "cell": pa.int32(),
    "side_a": STR,
    "side_b": STR,
    "policy_a": STR,
    "policy_b": STR,
    "battle": pa.int64(),
    "winner": pa.int8(),
    "rounds": pa.int8(),
    "decided": pa.int8(),
    "hull_a": pa.float32(),
    "hull_b": pa.float32(),
    "kills_a": pa.int16(),
    "kills_b": pa.int16(),
    "crits_a": pa.int32(),
    "crits_b": pa.int32(),
    "shots_a": pa.int32(),
    "shots_b": pa.int32(),
    "hits_a": pa.int32(),
    "hits_b": pa.int32(),
    **{f"destroyed_{s}_{p}": pa.int16() for s in SIDES for p in PARTS},
    "seed": pa.int64(),
    "chunk": pa.int32(),
}
PER_WEAPON = {
    name: dtype
    for s in SIDES
    for k in range(3)
    for name, dtype in (
        (f"weapon_{s}_{k}", STR),
        (f"hits_{s}_{k}", pa.int16()),
        (f"crits_{s}_{k}", pa.int16()),
    )
}


def _check_schema(schema: pa.Schema, expected: dict) -> None:
    assert set(schema.names) == set(expected), set(schema.names) ^ set(expected)
    for name, dtype in expected.items():
        got = schema.field(name).type
        if dtype == STR:
            if pa.types.is_dictionary(got):
                got = got.value_type
            assert pa.types.is_string(got) or pa.types.is_large_string(got), (name, got)
        else:
            assert got == dtype, (name, got, dtype)


def test_documented_columns_are_written(tmp_path, capsys):
    from sims.skirmish import experiments

    doc = experiments.__doc__ or ""
    for stem in (
        "cell",
        "side_a",
        "policy_a",
        "battle",
        "winner",
        "rounds",
        "decided",
        "hull_a",
        "kills_a",
        "crits_a",
        "shots_a",
        "hits_a",
        "destroyed_<side>_<part>",
        "weapon_<side>_<k>",
        "hits_<side>_<k>",
        "crits_<side>_<k>",
        "seed",
        "chunk",
    ):
        assert stem in doc  # the expectations below are the docstring's
    store = tmp_path / "store"
    run_ok(tiny_duel(store), capsys)
    (part,) = only_run(store).glob("part-*.parquet")
    _check_schema(pq.read_schema(part), {**COMMON, **PER_WEAPON})
    rows = pl.read_parquet(part)
    assert rows["winner"].is_in([0, 1, 2]).all()
    assert rows["decided"].is_in([0, 1, 2, 3]).all()
    assert rows["hull_a"].is_between(0, 1).all() and rows["hull_b"].is_between(0, 1).all()
    assert (rows["seed"] == 1).all() and (rows["chunk"] == 0).all()
    assert rows["battle"].to_list() == list(range(20))


def test_teamfight_rows_have_no_per_weapon_columns(tmp_path, capsys):
    store = tmp_path / "store"
    words = "skirmish teamfight --teams courier+foreman+reaver,bastion+foreman+courier --n 8"
    out = run_ok(simulate(words, "--out", store, "--catalog", CATALOGS), capsys)
    assert counts_of(out) == (4, 0)
    folder = only_run(store, "teamfight")
    for part in folder.glob("part-*.parquet"):
        _check_schema(pq.read_schema(part), COMMON)
    rows = read_rows(folder / "part-*.parquet")
    assert rows.height == 8
    assert set(rows["side_a"]) == {"courier+foreman+reaver", "bastion+foreman+courier"}
