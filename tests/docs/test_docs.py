"""The docs themselves: every command is runnable or listed in NOT_RUN with its reason,
the extraction finds what a writer expects, commands sit only in ``sh`` blocks, the
README is a first screen linking every game's guide, and links reach their files and
headings. The commands run in ``test_guides.py`` and ``test_other_docs.py``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.docs.commands import (
    COMMANDS,
    DOCS,
    FENCE,
    GAMES,
    MECHBAL,
    NOT_RUN,
    PYTHON,
    README_MAX_LINES,
    ROOT,
    RUN,
    SHELL_LANGS,
    SMALL_N,
    argv_of,
    extract_text,
    shrink,
)

# ---- what the commands are --------------------------------------------------------------


def test_every_command_is_runnable_or_listed() -> None:
    unrunnable = []
    for command in RUN:
        if command.kind == "sh":
            try:
                argv_of(command)
            except ValueError as exc:
                unrunnable.append(f"{command.id}: {command.text!r}: {exc}")
    assert not unrunnable, "\n".join(unrunnable)


def test_not_run_commands_are_shown_and_name_what_exists() -> None:
    shown = {c.key for c in COMMANDS}
    assert set(NOT_RUN) <= shown, f"listed but not shown: {set(NOT_RUN) - shown}"
    targets = (ROOT / "Makefile").read_text()
    for text, reason in NOT_RUN.items():
        assert reason.strip(), text
        words = shlex.split(text)
        if words[0] == "make":
            assert re.search(rf"^{words[1]}:", targets, re.M), f"no make target {words[1]}"
        if words[0] == PYTHON:
            assert (ROOT / words[1]).is_file(), f"{text}: no {words[1]}"


def test_the_extraction_finds_what_a_writer_would_expect() -> None:
    doc = (
        "Run `.venv/bin/mechbal claims alluvion` or `mechbal claims GAME` "
        "(`.venv/bin/mechbal tables GAME` is syntax).\n"
        "```sh\n"
        "# a comment\n"
        '.venv/bin/mechbal query "select 1,\n'
        '    2"   # exits 2\n'
        ".venv/bin/mechbal explain alluvion attack \\\n"
        "    --attack 1d6\n"
        "```\n"
        "```\n.venv/bin/mechbal tables alluvion\n```\n"
        "```python\nx = 1\n```\n"
    )
    found = extract_text("example.md", doc)
    assert [(c.line, c.kind, c.text, c.expect) for c in found] == [
        (1, "sh", ".venv/bin/mechbal claims alluvion", 0),
        (4, "sh", '.venv/bin/mechbal query "select 1,\n    2"   # exits 2', 2),
        (6, "sh", ".venv/bin/mechbal explain alluvion attack  --attack 1d6", 0),
        (13, "python", "x = 1", 0),
    ]
    assert shrink(["simulate", "g", "e", "--n", "64000", "--jobs", "2"]) == [
        "simulate",
        "g",
        "e",
        "--n",
        str(SMALL_N),
        "--jobs",
        "1",
    ]
    assert shrink(["report", "g"]) == ["report", "g", "--n", str(SMALL_N)]
    with pytest.raises(ValueError, match="pipes"):
        argv_of(extract_text("x.md", "`.venv/bin/mechbal claims x | head`")[0])
    with pytest.raises(ValueError, match="NOT_RUN"):
        argv_of(extract_text("x.md", "```sh\njupyter lab\n```")[0])
    assert shrink(["tune", "g", "--list"]) == ["tune", "g", "--list"]


def test_commands_sit_only_in_sh_blocks() -> None:
    """A fenced block of another language holds no command the test would miss."""
    for path in DOCS:
        lang = None
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = FENCE.match(line)
            if m:
                lang = None if lang is not None else m.group(2)
                continue
            if lang is not None and lang not in SHELL_LANGS and lang != "python":
                assert not line.lstrip().startswith((MECHBAL, PYTHON, "make ")), (
                    f"{path.name}:{number}: a command outside an sh block"
                )


# ---- the documents themselves -----------------------------------------------------------


def test_readme_is_a_first_screen_linking_every_game_guide() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= README_MAX_LINES
    for game in GAMES:
        assert (ROOT / "docs" / f"{game}.md").is_file(), f"no guide docs/{game}.md"
        assert f"(docs/{game}.md)" in readme, f"README does not link docs/{game}.md"
    assert "make report" in readme and "make test" in readme


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_point_at_files_and_headings(path: Path) -> None:
    text = path.read_text()
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name}: link to a missing {target}"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", linked.read_text(), re.M)
            assert anchor in {_slug(h) for h in headings}, f"{path.name}: no #{anchor}"
