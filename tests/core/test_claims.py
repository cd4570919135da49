"""The generic claim machinery (``sims.core.claims``), game-free: bounds are two-sided,
and fractions written as text are exact also inside lists and tables."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sims.core.catalog import CatalogError
from sims.core.claims import evaluate, load_claims


def echo(catalog, value):
    """A check returning its argument (the catalog is not read)."""
    return Fraction(value) if isinstance(value, str) else value


CHECKS = {"echo": echo}
HEAD = """[[claim]]
id = "c"
section = "1"
rulebook = "words"
definition = "what"
check = "echo"
provenance = "rulebook"
"""


def claims_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "claims.toml"
    path.write_text(HEAD + body)
    return path


@pytest.mark.parametrize("bound", ['min = "1/2"', 'max = "1/2"'])
def test_one_sided_bound_is_refused(tmp_path: Path, bound: str) -> None:
    path = claims_file(tmp_path, f'args = {{ value = "1/2" }}\n{bound}\n')
    with pytest.raises(CatalogError, match="bounds are two-sided: give both min and max"):
        load_claims(path, CHECKS)


@pytest.mark.parametrize(
    ("value", "passed"),
    [("1/3", True), ("43/100", True), ("2/5", True), ("33/100", False), ("44/100", False)],
)
def test_two_sided_bounds_fail_on_either_side(tmp_path: Path, value: str, passed: bool) -> None:
    path = claims_file(tmp_path, f'args = {{ value = "{value}" }}\nmin = "1/3"\nmax = "43/100"\n')
    (claim,) = load_claims(path, CHECKS)
    assert (claim.min, claim.max) == (Fraction(1, 3), Fraction(43, 100))
    assert evaluate(claim, CHECKS, None).passed is passed


def test_fractions_inside_tables_and_lists_are_exact(tmp_path: Path) -> None:
    body = (
        'args = { value = { "1" = "1/3", "2" = "2/3", "3" = ["1/6", 1, "text"] } }\n'
        'expected = { "1" = "1/3", "2" = "2/3", "3" = ["1/6", 1, "text"] }\n'
    )
    (claim,) = load_claims(claims_file(tmp_path, body), CHECKS)
    assert claim.expected == {
        "1": Fraction(1, 3),
        "2": Fraction(2, 3),
        "3": [Fraction(1, 6), 1, "text"],
    }
    exact = {"1": Fraction(1, 3), "2": Fraction(2, 3), "3": [Fraction(1, 6), 1, "text"]}
    assert evaluate(claim, {"echo": lambda catalog, value: exact}, None).passed
    off = {**exact, "2": Fraction(3, 4)}
    assert not evaluate(claim, {"echo": lambda catalog, value: off}, None).passed
