"""One conformance test over every registered game (DESIGN.md "One protocol, four games").

Each game: its catalog loads, its claims hold, its exact tables carry the contract
columns of DESIGN.md's table contract and every fraction column has a float beside it.
Later games add themselves to the registry and to CONTRACT below.
"""

from fractions import Fraction

import pytest

from sims.core.claims import run_claims
from sims.core.protocol import Game, game_names, get_game
from tests.conftest import CATALOGS

# DESIGN.md "Tables": the key files and their columns (fractions get `_float` partners).
CONTRACT = {
    "skirmish": {
        "hit": ["bonus", "evasion", "modifier", "p_hit"],
        "penetration": ["pen", "armor", "margin", "variant", "glance", "full", "crit"],
        "bands": ["kit", "cover", "part", "first", "last", "p_strike"],
        "weapon_vs_kit": ["weapon", "kit", "p_hit", "crit_share", "expected_damage"],
    },
}
FRACTIONS = {"p_hit", "glance", "full", "crit", "p_strike", "crit_share", "expected_damage", "p"}


@pytest.fixture(scope="module", params=game_names())
def game(request) -> Game:
    return get_game(request.param)


def test_game_is_registered_with_its_contract(game):
    assert game.name in CONTRACT
    assert game.rules_version


def test_claims_hold(game):
    catalog = game.load_catalog(CATALOGS)
    results = run_claims(game.claims_path(CATALOGS), game.checks, catalog)
    assert results and all(r.passed for r in results), [r.row() for r in results if not r.passed]


def test_tables_follow_the_contract(game):
    frames = game.tables(game.load_catalog(CATALOGS))
    for stem, columns in CONTRACT[game.name].items():
        frame = frames[stem]
        plain = [c for c in frame.columns if not c.endswith("_float")]
        assert plain == columns, stem
        for col in columns:
            if col in FRACTIONS:
                assert f"{col}_float" in frame.columns
                for text, value in zip(frame[col], frame[f"{col}_float"], strict=True):
                    assert float(Fraction(text)) == pytest.approx(value)
        # ids are lower-case catalog ids
        for col in ("kit", "weapon", "part"):
            if col in frame.columns:
                assert all(v == v.lower() for v in frame[col])
    for stem in frames:
        assert stem in game.table_docs, f"{stem} has no explanation of how it is computed"
