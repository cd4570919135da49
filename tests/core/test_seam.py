"""The seam between generic code and games (DESIGN.md "Architecture", STYLE.md 13): the
generic modules (``sims/core`` and the top of ``analysis/``) name no game and use no
game's vocabulary in code, import no game, and ``sims`` never imports ``analysis``. The
generic tests (``tests/core`` and ``tests/conformance.py``) hold to the same rule, except
that they may name Coin Duel, the toy game they plug in (``tests/core/toy``): they reach
the real games only through the registry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sims.core.protocol import game_names, get_game
from tests.conftest import ROOT

GENERIC = sorted([*(ROOT / "sims" / "core").glob("*.py"), *(ROOT / "analysis").glob("*.py")])
TOY = "toy"  # Coin Duel's registered name (tests/core/toy)
GENERIC_TESTS = sorted(
    [
        *(p for p in (ROOT / "tests" / "core").rglob("*.py") if TOY not in p.parent.parts),
        ROOT / "tests" / "conformance.py",
    ]
)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def vocabulary(name: str) -> tuple[str, ...]:
    """A game's name and its declared vocabulary, lower case."""
    return tuple(word.lower() for word in (name, *get_game(name).vocabulary))


def forbidden(allowed: str | None = None) -> dict[str, str]:
    """Word -> the game it belongs to: every game's name and declared vocabulary, but for
    the words of the ``allowed`` game."""
    words = {}
    for name in game_names():
        for word in vocabulary(name):
            words[word] = name
    for word in vocabulary(allowed) if allowed else ():
        words.pop(word, None)
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


@pytest.mark.parametrize("path", GENERIC_TESTS, ids=lambda p: str(p.relative_to(ROOT / "tests")))
def test_generic_test_names_no_game_but_the_toy(path: Path) -> None:
    found = violations(path.read_text(), forbidden(allowed=TOY))
    assert not found, f"{path.relative_to(ROOT)} uses game words: {found[:8]}"


def test_the_check_catches_a_game_word() -> None:
    # every game's words, the toy's too (registered by tests), wherever code says them
    words = forbidden()
    for name in game_names():
        assert violations(f"from sims.{name} import exact\n", words), name
        assert violations(f"register('{name}', 'x')\n", words), name
        for word in vocabulary(name):
            assert violations(f"x = catalog.{word}['a']\n", words), word  # an attribute
            assert violations(f"def f({word}):\n    return 1\n", words), word  # an argument
            if "_" not in word:  # a word of a longer name
                assert violations(f"{word}_count = 1\n", words), word
            assert violations(f"LABEL = 'Which {word} wins?'\n", words), word  # in a string
            # docstrings and comments explain; they may say anything
            doc = f'"""The {word} of a game (a docstring)."""\nx = 1  # a {word}\n'
            assert not violations(doc, words), word
    # the generic tests may name the toy, and only the toy
    allowed = forbidden(allowed=TOY)
    assert not violations(f"register('{TOY}', 'x')\n", allowed)
    assert all(violations(f"x = {name}\n", allowed) for name in game_names() if name != TOY)


def test_sims_never_imports_analysis() -> None:
    for path in (ROOT / "sims").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n == "analysis" or n.startswith("analysis.") for n in names), path
