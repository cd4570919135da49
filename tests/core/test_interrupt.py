"""Interruptions and failures stay tidy (on Coin Duel, the toy game).

Ctrl-C in ``mechbal simulate`` (SIGINT to the whole process group, as a terminal sends
it) stops the workers, keeps every finished chunk and says so in one line, exit 130; the
same command resumes to the rows of an uninterrupted run. ``kill -9`` of the command's
process leaves no worker running the queued chunks. An unwritable ``--out`` is one line.
The toy bout's ``--delay`` makes its chunks slow enough to be caught in the middle.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest
from polars.testing import assert_frame_equal

from analysis.cli import main
from sims.core.runner import simulate as run_simulate
from tests import runs
from tests.conftest import ROOT
from tests.core.toy import CATALOGS
from tests.runs import counts_of, manifest, run_id_of, run_ok, snapshot

# 1000-row chunks: 16,002 rows (9 cells) are 17 chunks of 0.2 s each on 2 workers
SLOW = "bout --n 16000 --delay 0.2 --jobs 2"
TIMEOUT = 60  # seconds: generous, for a loaded machine; the tests take far less
INTERRUPTED = re.compile(
    r"mechbal: interrupted: (\d+) of (\d+) chunks kept in (\S+); "
    r"run the same command again to resume"
)


def slow(store: Path) -> list[str]:
    return runs.simulate(f"toy {SLOW}", "--out", store, "--catalog", CATALOGS)


def parts(store: Path) -> set[Path]:
    return set(store.glob("toy/bout/run=*/part-*.parquet"))


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (a zombie has finished)."""
    live = set()
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                live.add(pid)
        except psutil.NoSuchProcess:
            continue
    return live


def wait_gone(pids: set[int], seconds: float = TIMEOUT) -> set[int]:
    end = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < end:
        time.sleep(0.05)
    return alive(pids)


@contextmanager
def mid_run(argv: list[str], store: Path, stderr) -> Iterator[tuple[subprocess.Popen, set[int]]]:
    """Start ``mechbal`` (with Coin Duel registered) in its own process group; yields
    once a chunk is written, with the processes it started (recorded meanwhile). Whatever
    is left of the group is killed at the end (a failed test leaves nothing running)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.core.toy", *argv],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        start_new_session=True,
    )
    try:
        children: set[int] = set()
        end = time.monotonic() + TIMEOUT
        while not parts(store):
            if time.monotonic() > end or proc.poll() is not None:
                pytest.fail(f"no chunk written by a running command (exit {proc.poll()})")
            try:
                children |= {c.pid for c in psutil.Process(proc.pid).children(recursive=True)}
            except psutil.NoSuchProcess:
                continue
            time.sleep(0.01)
        yield proc, children
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def loky(pids: set[int]) -> set[int]:
    """The local worker processes (and loky's resource tracker) among ``pids``."""

    def is_loky(pid: int) -> bool:
        try:
            return "loky" in " ".join(psutil.Process(pid).cmdline())
        except psutil.Error:
            return False

    return {pid for pid in pids if is_loky(pid)}


def test_ctrl_c_keeps_finished_chunks_in_one_line_and_resumes(tmp_path, capsys):
    store = tmp_path / "interrupted"
    argv = slow(store)
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err, mid_run(argv, store, err) as (proc, children):
        assert loky(children), "the run's worker processes were not seen"
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        rc = proc.wait(timeout=TIMEOUT)
        stderr = log.read_text()
        assert rc == 130, stderr
        assert "Traceback" not in stderr and len(stderr.splitlines()) == 1, stderr
        m = INTERRUPTED.fullmatch(stderr.strip())
        assert m, stderr
        folder = runs.only_run(store, "toy", "bout")
        kept, chunks = int(m[1]), int(m[2])
        assert Path(m[3]) == folder and chunks == manifest(folder)["chunks"]
        assert 0 < kept < chunks and len(parts(store)) == kept
        assert manifest(folder)["complete"] is False
        assert wait_gone(children) == set()  # no worker (nor anything else) left running
        assert len(parts(store)) == kept

    out = run_ok(argv, capsys)  # the same command resumes
    assert counts_of(out) == (chunks - kept, kept)
    assert manifest(folder)["complete"] is True
    ref = tmp_path / "uninterrupted"
    assert run_id_of(run_ok(slow(ref), capsys)) == run_id_of(out)
    assert_frame_equal(
        runs.read_rows(folder / "part-*.parquet", ("cell", "game")),
        runs.read_rows(runs.only_run(ref, "toy", "bout") / "part-*.parquet", ("cell", "game")),
    )


def test_workers_stop_when_the_command_is_killed(tmp_path):
    store = tmp_path / "killed"
    with mid_run(slow(store), store, subprocess.DEVNULL) as (proc, children):
        local = loky(children)
        assert local, "the run's worker processes were not seen"
        os.kill(proc.pid, signal.SIGKILL)  # the command only: its workers are orphaned
        proc.wait(timeout=TIMEOUT)
        assert wait_gone(local, seconds=10) == set()  # within a few seconds
        written = parts(store)
        time.sleep(2)
        assert parts(store) == written  # no part file after the workers stopped
        folder = runs.only_run(store, "toy", "bout")
        assert len(written) < manifest(folder)["chunks"]  # the queued chunks were not run
        assert wait_gone(children) == set()


@pytest.mark.parametrize("where", ["proc", "file"])
@pytest.mark.parametrize("command", ["simulate", "tables", "report"])
def test_unwritable_out_is_one_line(tmp_path, capsys, command, where):
    if where == "proc":
        out = Path("/proc/mechbal-nowhere")
    else:
        (tmp_path / "file").write_text("a file, not a folder\n")
        out = tmp_path / "file" / "out"
    store = tmp_path / "store"
    store.mkdir()
    argv = {
        "simulate": ["simulate", "toy", "bout", "--n", "20", "--out", str(out)],
        "tables": ["tables", "toy", "--out", str(out)],
        "report": ["report", "toy", "--n", "20", "--out", str(out), "--store", str(store)],
    }[command] + ["--catalog", str(CATALOGS)]
    before = snapshot(tmp_path)
    capsys.readouterr()
    assert main(argv) == 2
    stdout, err = capsys.readouterr()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith("mechbal: error: ") and "cannot write" in err and str(out) in err
    assert stdout == "" and snapshot(tmp_path) == before


def test_announce_says_which_run_starts(tmp_path, capsys):
    args = dict(n=20, catalog_root=CATALOGS, store_root=tmp_path, options={"fighters": "pawn"})
    capsys.readouterr()
    run_simulate("toy", "bout", announce="report", **args)
    assert capsys.readouterr().err == "report: running bout (20 games) ...\n"
    run_simulate("toy", "bout", announce="report", **args)
    assert capsys.readouterr().err == "report: bout (20 games) already in the store\n"
    run_simulate("toy", "bout", **args)
    assert capsys.readouterr().err == ""
