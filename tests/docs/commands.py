"""Every command README.md and docs/*.md show runs as shown (issue 25, item 11): the
extraction and the runner; ``test_guides.py`` (README.md and each game's guide) and
``test_other_docs.py`` run the commands, ``test_docs.py`` checks the rest. Two files run
commands so that ``pytest -n 2 --dist loadfile`` (``make test``) shares them between the
workers.

What counts as a command, so a writer knows what will be run:

- every line of a fenced ``sh`` block (a trailing ``\\`` or an open quote continues it
  on the next line; ``# ...`` is a comment);
- every inline code span starting with ``.venv/bin/`` or ``make `` (``mechbal ...``
  without the prefix is a mention of the syntax and is not run);
- every fenced ``python`` block, run top to bottom as one snippet.

A command holding a placeholder (``GAME``, ``<file>``, ``[EXPERIMENT]``, ``N``) is
syntax, not a command. A trailing comment ``# exits N`` documents a failure: the command
must exit N, else 0.

Each document's commands run in order in a folder of their own holding a copy of
``catalogs/`` committed to a fresh git repository (so ``git:HEAD`` means that copy), so
the default ``data/`` store and ``reports/`` folder land there and a later ``query``
reads the runs an earlier ``simulate`` made. To stay small, ``--n`` is cut to
``SMALL_N`` (and given to ``report``, ``diff`` and ``tune``, whose default is the
report's 64,000) and ``--jobs`` to 1 (rows do not depend on it: DESIGN.md "Store").
``mechbal`` runs in-process through its console-script function; other programs as
subprocesses, only those in ``TOOLS``. The catalog copy must be byte-identical after
every command: documented commands never write into a catalog.

A command that cannot run here is listed in ``NOT_RUN`` with the reason; a new command
that is neither runnable nor listed fails ``test_docs.py``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from analysis.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SMALL_N = 200
README_MAX_LINES = 90  # "a first screen of about 80 lines"

# Commands that cannot run inside a test, each with the reason.
NOT_RUN = {
    "make report": "sets up .venv and runs every game's report at 64,000 games a run "
    "(minutes); its steps run here on small N (mechbal report GAME, mechbal dominated)",
    "make test": "runs this very suite",
    "make lab": "opens JupyterLab and waits for a browser; tests/<game>/test_notebooks.py "
    "run the notebooks",
    ".venv/bin/mechbal simulate skirmish ratings --n 1000000 --backend dask "
    "--scheduler tcp://host:8786": "needs a Dask cluster at host:8786 (tests/core runs "
    "the Dask backend on a LocalCluster)",
    ".venv/bin/python benchmarks/bench_engines.py": "a throughput measurement at full "
    "size (minutes of CPU), not a test (DESIGN.md: benchmarks are not timed tests)",
    ".venv/bin/python benchmarks/bench_runner.py --n 1000000 --jobs 2": "a million "
    "battles into a store: a measurement at scale, not a test",
}
TOOLS = {"cp", "mkdir", "ls", "cat"}  # other programs a doc may run, as subprocesses
SHELL_OPERATORS = {"|", "||", "&&", ";", ">", ">>", "<", "&"}
MECHBAL = ".venv/bin/mechbal"
PYTHON = ".venv/bin/python"
SHELL_LANGS = {"sh", "bash", "shell"}
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
INLINE = re.compile(r"`([^`\n]+)`")
EXITS = re.compile(r"#\s*exits (\d+)\b")
# ALL-CAPS words outside quotes (GAME, EXPERIMENT, N, NAME=VALUE, git:REV, KIND.ID...),
# <file>, [GAME] and ...: syntax, not a command
PLACEHOLDER = re.compile(r"(?<![a-z])[A-Z][A-Z_]*(?![a-z])|<[^>]+>|\[[^\]]+\]|\.\.\.")


@dataclass(frozen=True)
class Command:
    doc: str  # path relative to the repository
    line: int  # where it starts
    kind: str  # "sh" or "python"
    text: str  # as written, continuation lines joined
    expect: int = 0  # the documented exit code

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def key(self) -> str:
        """The command without its comment and spacing: what NOT_RUN lists."""
        return self.text if self.kind == "python" else _key(self.text)


def _key(text: str) -> str:
    return " ".join(shlex.split(text, comments=True))


def _placeholder(text: str) -> bool:
    """A syntax line: a placeholder in a word outside quotes (SQL keeps its capitals)."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        return True
    return any(PLACEHOLDER.search(w) for w in words if " " not in w)


def _shell_block(doc: str, first: int, lines: list[str]) -> list[Command]:
    found: list[Command] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        start, text = i, line
        while True:
            if text.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text.rstrip()[:-1] + " " + lines[i].strip()
                continue
            try:
                shlex.split(text, comments=True)
            except ValueError:  # a quote left open: the command goes on
                if i + 1 >= len(lines):
                    raise
                i += 1
                text += "\n" + lines[i]
                continue
            break
        m = EXITS.search(text)
        found.append(Command(doc, first + start, "sh", text, int(m.group(1)) if m else 0))
        i += 1
    return found


def _inline(doc: str, number: int, line: str) -> list[Command]:
    found = []
    for span in INLINE.findall(line):
        runnable = span.startswith((MECHBAL, PYTHON, "make "))
        if runnable and not _placeholder(span):
            found.append(Command(doc, number, "sh", span))
    return found


def extract(path: Path) -> list[Command]:
    """The commands and Python snippets of one Markdown file, in document order."""
    return extract_text(path.relative_to(ROOT).as_posix(), path.read_text())


def extract_text(doc: str, text: str) -> list[Command]:
    lines = text.splitlines()
    found: list[Command] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            found += _inline(doc, i + 1, lines[i])
            i += 1
            continue
        lang, start = m.group(2), i + 1
        end = next(j for j in range(start, len(lines)) if FENCE.match(lines[j]))
        body = lines[start:end]
        if lang in SHELL_LANGS:
            found += _shell_block(doc, start + 1, body)
        elif lang == "python":
            found.append(Command(doc, start + 1, "python", "\n".join(body)))
        i = end + 1
    return found


COMMANDS = [c for path in DOCS for c in extract(path)]
RUN = [c for c in COMMANDS if c.key not in NOT_RUN]
GAMES = sorted(e.name for e in entry_points(group="mechbal.games"))  # the installed games
GUIDES = {"README.md", *(f"docs/{game}.md" for game in GAMES)}
GUIDE_COMMANDS = [c for c in RUN if c.doc in GUIDES]
OTHER_COMMANDS = [c for c in RUN if c.doc not in GUIDES]


# ---- running one command ---------------------------------------------------------------


def shrink(words: list[str]) -> list[str]:
    """mechbal's argv with --n cut to SMALL_N (given where the default is the report's
    64,000 or robust's 16,000), --jobs 1, and two placeholder draws for robust."""
    out = list(words)
    for flag, value in (("--n", SMALL_N), ("--jobs", 1)):
        if flag in out:
            k = out.index(flag) + 1
            out[k] = str(min(int(out[k]), value))
    needs_n = out[0] in ("report", "diff", "robust") or (out[0] == "tune" and "--list" not in out)
    if needs_n and "--n" not in out and not {"-h", "--help"} & set(out):
        out += ["--n", str(SMALL_N)]
    if out[0] == "robust" and "--draws" not in out:  # two placeholder draws show the way
        out += ["--draws", "2"]
    return out


def argv_of(command: Command) -> tuple[str, list[str]]:
    """("mechbal", its argv) or ("program", the subprocess argv); ValueError when the
    command cannot run here."""
    words = shlex.split(command.text, comments=True)
    if SHELL_OPERATORS & set(words):
        raise ValueError("pipes, redirections and lists of commands are not run here")
    if words[0] == MECHBAL:
        return "mechbal", shrink(words[1:])
    if words[0] == PYTHON and len(words) > 1:
        script = ROOT / words[1]
        return "program", [
            sys.executable,
            str(script) if script.is_file() else words[1],
            *words[2:],
        ]
    if words[0] in TOOLS:
        return "program", words
    raise ValueError(f"{words[0]!r} is not run by this test: list the command in NOT_RUN")


def run(command: Command, workdir: Path) -> tuple[int, str]:
    """Run one command in workdir: (exit code, stdout + stderr)."""
    out = io.StringIO()
    with contextlib.chdir(workdir):
        if command.kind == "python":
            with contextlib.redirect_stdout(out):
                exec(compile(command.text, command.id, "exec"), {"__name__": "__docs__"})
            return 0, out.getvalue()
        how, argv = argv_of(command)
        if how == "program":
            done = subprocess.run(argv, capture_output=True, text=True, check=False)
            return done.returncode, done.stdout + done.stderr
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's --help
                code = exc.code if isinstance(exc.code, int) else 0
        return code, out.getvalue()


def tree_hash(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


CATALOG_HASH = tree_hash(ROOT / "catalogs")


def _workdir(base: Path) -> Path:
    """A folder with a copy of catalogs/ committed to a fresh git repository."""
    shutil.copytree(ROOT / "catalogs", base / "catalogs")
    git = ["git", "-c", "user.name=docs", "-c", "user.email=docs@example.invalid"]
    for args in (["init", "-q"], ["add", "catalogs"], ["commit", "-q", "-m", "catalogs"]):
        subprocess.run([*git, *args], cwd=base, check=True, capture_output=True)
    return base


# Per process (pytest-xdist may split a document between workers): each document's
# folder and how many of its commands have run there.
_STATE: dict[str, tuple[Path, int]] = {}


def _run_checked(command: Command, workdir: Path) -> None:
    code, output = run(command, workdir)
    assert code == command.expect, (
        f"{command.id}: exit {code}, documented {command.expect}\n$ {command.text}\n"
        f"{output[-3000:]}"
    )
    assert tree_hash(workdir / "catalogs") == CATALOG_HASH, f"{command.id} wrote into catalogs/"


def run_in_order(command: Command, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Run the command in its document's folder, after the document's earlier commands
    (what it reads: runs, a catalog copy); it must exit as documented."""
    ordered = [c for c in RUN if c.doc == command.doc]
    index = ordered.index(command)
    workdir, done = _STATE.get(command.doc, (None, 0))
    if workdir is None or done > index:  # first here, or run out of order: start afresh
        workdir, done = _workdir(tmp_path_factory.mktemp("docs")), 0
    for earlier in ordered[done:index]:  # what this one reads (runs, a catalog copy)
        _run_checked(earlier, workdir)
    _STATE[command.doc] = (workdir, index + 1)
    _run_checked(command, workdir)
