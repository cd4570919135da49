"""The seam between generic code and games (DESIGN.md "Architecture", STYLE.md 13): the
generic modules (``sims/core`` and the top of ``analysis/``) name no game and use no
game's vocabulary in code, import no game, and ``sims`` never imports ``analysis``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sims.core.protocol import game_names, get_game
from tests.conftest import ROOT

GENERIC = sorted([*(ROOT / "sims" / "core").glob("*.py"), *(ROOT / "analysis").glob("*.py")])
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def forbidden() -> dict[str, str]:
    """Word -> the game it belongs to: every game's name and declared vocabulary."""
    words = {}
    for name in game_names():
        for word in (name, *get_game(name).vocabulary):
            words[word.lower()] = name
    return words


def code_words(source: str) -> list[tuple[int, str]]:
    """(line, word) of every identifier and every word inside a string literal, leaving
    out docstrings and comments: what the code says, not what it explains."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found += [(node.lineno, w) for w in WORD.findall(node.value)]
        elif isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            found.append((node.lineno, node.name))
        elif isinstance(node, ast.arg):
            found.append((node.lineno, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            found.append((node.value.lineno, node.arg))
        elif isinstance(node, ast.alias):
            found += [(node.lineno, w) for w in node.name.split(".")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, w) for w in node.module.split(".")]
    return found


def violations(source: str, words: dict[str, str]) -> list[str]:
    out = []
    for line, word in code_words(source):
        low = word.lower()
        for token in {low, *low.split("_")}:
            if token in words:
                out.append(f"line {line}: {word!r} ({words[token]})")
    return out


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_generic_module_names_no_game(path: Path) -> None:
    found = violations(path.read_text(), forbidden())
    assert not found, f"{path.relative_to(ROOT)} uses game words: {found[:8]}"


def test_the_check_catches_a_game_word() -> None:
    words = forbidden()
    assert violations("x = catalog.kits['a']\n", words)  # Skirmish vocabulary
    assert violations("from sims.skirmish import exact\n", words)
    assert violations("def f(crit_margin):\n    return 1\n", words)
    assert violations("LABEL = 'Which kit wins?'\n", words)
    assert violations("register('toy', 'x')\n", words)  # the toy game registered by tests
    assert not violations('"""The kit of a game (a docstring)."""\nx = 1  # a kit\n', words)


def test_sims_never_imports_analysis() -> None:
    for path in (ROOT / "sims").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n == "analysis" or n.startswith("analysis.") for n in names), path
