"""A reader that stops early (``mechbal ... | head``) ends nothing in a traceback: the
command exits quietly when its output pipe closes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize(
    "words",
    [
        # 2 MB, past any pipe buffer: the closed pipe is met mid-write
        ["query", "SELECT range AS i FROM range(300000)", "--format", "csv"],
        ["claims", "skirmish"],  # the issue's own command
    ],
)
def test_closed_pipe_is_quiet(words: list[str], tmp_path: Path) -> None:
    argv = [*words, "--store", str(tmp_path)] if words[0] == "query" else words
    proc = subprocess.Popen(
        [sys.executable, "-m", "analysis", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()  # what `head -1` reads before it goes away
    proc.stdout.close()
    err = proc.stderr.read().decode()
    rc = proc.wait(timeout=60)
    assert first and "Traceback" not in err and "BrokenPipe" not in err, err
    assert rc == 0, err
