"""The grades' formulas (game/scoring.py): study completion at every goal's edge and the
extra credit and personal honors, on hand-worked values; ints and arrays alike."""

from __future__ import annotations

import numpy as np
import pytest

from sims.labpartners.catalog import load_catalog
from sims.labpartners.game import scoring
from sims.labpartners.policy import GOAL
from tests.conftest import CATALOGS

G = GOAL


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def done(goal: str, at_least: int = 1, **facts: int) -> bool:
    """Whether a study of ``goal`` is complete given the Battle's facts (0 unless named)."""
    f = {
        "form_count": 0,
        "type_count": 0,
        "power_total": 0,
        "won": 0,
        "parts_lost": 0,
        "took": 0,
        "gaps": 1,
        "combo": 0,
        "crits": 0,
        **facts,
    }
    return bool(scoring.study_complete(G[goal], at_least, **f))


def test_each_goal_at_its_edge():
    # studies.toml: beast_thesis needs 3 Beast parts: 3 completes it, 2 does not
    assert done("form_count", 3, form_count=3) and not done("form_count", 3, form_count=2)
    assert done("type_count", 2, type_count=2) and not done("type_count", 2, type_count=1)
    # heavy_ordnance: the Arms' Power adds to 5 or more
    assert done("power_total", 5, power_total=5) and not done("power_total", 5, power_total=4)
    assert done("win", won=1) and not done("win")
    # field_medic: a win with no part lost; a win that lost a part is not enough
    assert done("win_intact", won=1) and not done("win_intact", won=1, parts_lost=1)
    assert not done("win_intact")
    assert done("lesson_took", took=1) and not done("lesson_took")
    assert done("no_gaps", gaps=0) and not done("no_gaps", gaps=1)
    assert done("combo", combo=1) and not done("combo")
    # critical_theory: at least 2 crits
    assert done("crit", 2, crits=2) and not done("crit", 2, crits=1)
    # a fact of another goal never completes a study
    assert not done("form_count", 3, type_count=5, won=1, took=1, gaps=0, combo=1, crits=9)


def test_study_completion_on_arrays():
    goal = np.array([G["form_count"], G["crit"], G["no_gaps"]])
    facts = {
        "form_count": np.array([3, 0, 0]),
        "type_count": 0,
        "power_total": 0,
        "won": 0,
        "parts_lost": 0,
        "took": 0,
        "gaps": np.array([0, 0, 1]),
        "combo": 0,
        "crits": np.array([0, 2, 0]),
    }
    got = scoring.study_complete(goal, np.array([3, 2, 1]), **facts)
    assert got.tolist() == [True, True, False]


def test_credits_add_as_credits_toml_says(catalog):
    # credits.toml: lesson 0.3, complete_build (no gaps) 0.3, unscathed (no part lost) 0.3
    # (group); independent_study 1.0 (personal)
    def credit(took=0, gaps=1, parts_lost=1, study=0):
        return scoring.credits(catalog, took, gaps, parts_lost, study)

    assert credit() == pytest.approx(0.0)
    assert credit(took=1) == pytest.approx(0.3)
    assert credit(gaps=0) == pytest.approx(0.3)
    assert credit(parts_lost=0) == pytest.approx(0.3)
    assert credit(study=1) == pytest.approx(1.0)
    assert credit(1, 0, 0, 1) == pytest.approx(1.9)  # "can exceed 4.0" with a win's 2.0
    got = scoring.credits(
        catalog, np.array([1, 0]), np.array([0, 2]), np.array([0, 3]), np.array([1, 0])
    )
    assert got == pytest.approx([1.9, 0.0])
