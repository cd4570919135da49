"""One conformance test over every registered game (DESIGN.md "One protocol, four games").

Each game: its catalog loads and its claims hold; its exact tables are written with the
contract columns of DESIGN.md, every fraction with a float beside it; the same seed gives
the same results from both engines; and the reference and vectorized engines agree on
every metric within 4 standard errors. Later games add themselves to the registry and to
CONTRACT below.
"""

from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from analysis.tables import write_tables
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


@pytest.fixture(scope="module")
def catalog(game):
    return game.load_catalog(CATALOGS)


def test_game_is_registered_with_its_contract(game):
    assert game.name in CONTRACT
    assert game.rules_version
    assert game.engines is not None, "every game brings a reference and a vector engine"


def test_claims_hold(game, catalog):
    results = run_claims(game.claims_path(CATALOGS), game.checks, catalog)
    assert results and all(r.passed for r in results), [r.row() for r in results if not r.passed]


def test_tables_are_written_with_the_contract_columns(game, catalog, tmp_path):
    frames = game.tables(catalog)
    write_tables(frames, dict(game.table_docs), tmp_path, game.name, game.title)
    for stem, columns in CONTRACT[game.name].items():
        frame = pl.read_csv(tmp_path / game.name / f"{stem}.csv", infer_schema_length=0)
        plain = [c for c in frame.columns if not c.endswith("_float")]
        assert plain == columns, stem
        for col in columns:
            if col in FRACTIONS:
                for text, value in zip(frame[col], frame[f"{col}_float"], strict=True):
                    assert float(Fraction(text)) == pytest.approx(float(value))
        for col in ("kit", "weapon", "part"):  # catalog ids, lower-case
            if col in frame.columns:
                assert all(v == v.lower() for v in frame[col])
    for stem in frames:
        assert stem in game.table_docs, f"{stem} has no explanation of how it is computed"


def test_same_seed_same_results(game, catalog):
    eng = game.engines
    _, scenario = eng.scenarios(catalog)[0]
    for play, n in ((eng.vector, 500), (eng.reference, 30)):
        one = play(scenario, n, np.random.default_rng(3))
        two = play(scenario, n, np.random.default_rng(3))
        assert one.keys() == two.keys()
        for key in one:
            np.testing.assert_array_equal(one[key], two[key])


def test_engines_write_the_same_results(game, catalog):
    eng = game.engines
    _, scenario = eng.scenarios(catalog)[0]
    ref = eng.reference(scenario, 5, np.random.default_rng(1))
    vec = eng.vector(scenario, 5, np.random.default_rng(1))
    assert ref.keys() == vec.keys()
    for key in ref:
        assert ref[key].shape == vec[key].shape and ref[key].dtype.kind == vec[key].dtype.kind


def test_reference_and_vector_agree(game, catalog):
    eng = game.engines
    for name, scenario in eng.scenarios(catalog):
        ref = eng.metrics(eng.reference(scenario, 300, np.random.default_rng(5)))
        vec = eng.metrics(eng.vector(scenario, 20_000, np.random.default_rng(6)))
        for key in ref:
            r, v = ref[key], vec[key]
            pooled = np.concatenate([r - r.mean(), v - v.mean()]).var()
            se = np.sqrt(pooled * (1 / len(r) + 1 / len(v)))
            assert abs(r.mean() - v.mean()) <= 4 * se + 1e-12, f"{name} {key}"
