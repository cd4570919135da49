"""The grades (game/scoring.py): study completion at every goal's edge, the extra credit
and personal honors, on hand-worked values, ints and arrays alike; and a seat's grade and
study in one game locked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sims.labpartners.catalog import load_catalog
from sims.labpartners.game import random_setup, scoring
from sims.labpartners.game.locked_mech import Locked
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


def test_a_seats_grade_and_study_by_hand(catalog):
    """One game locked by hand: Beast Legs, Torso and Head (melee, sonic, sonic), two
    Power-2 Arms (one Beast Sonic, one Mechsuit Sonic), lesson Beast; the Battle won with
    no part lost and 2 crits. Seven seats' worth of studies, one each (studies.toml):
    beast_thesis (3+ Beast): 4 Beast parts, done; clockwork_thesis (2+ Clockwork): none;
    sonic_lab (2+ Sonic): 4, done; heavy_ordnance (Power 5+): 2 + 2 = 4, not done;
    harmonics (a combo): both Arms Power 2, done; field_medic (win intact): done;
    critical_theory (2+ crits): done. Every seat's GPA: C 2.0 + lesson 0.3 + no gaps 0.3
    + unscathed 0.3 = 2.9, + 1.0 with a completed study = 3.9 (credits.toml)."""
    ids = [
        "legs-beast-melee",
        "torso-beast-sonic",
        "head-beast-sonic",
        "arms-beast-sonic-2",
        "arms-mechsuit-sonic-2",
    ]
    index = {c: i for i, c in enumerate(catalog.cards)}
    studies = list(catalog.studies)
    order = [
        "beast_thesis",
        "clockwork_thesis",
        "sonic_lab",
        "heavy_ordnance",
        "harmonics",
        "field_medic",
        "critical_theory",
    ]
    assert sorted(order) == sorted(studies)
    G, seats = 2, 5
    setup = random_setup.Shuffle(
        keys=np.zeros((G, len(catalog.cards))),
        lesson=np.zeros(G),
        traits=np.zeros((G, len(catalog.traits)), np.int16),
        studies=np.array(
            [[studies.index(s) for s in order], [studies.index(s) for s in order[2:] + order[:2]]],
            np.int16,
        ),
        specialties=np.zeros((G, 5), np.int16),
    )
    locked = Locked(
        deck="alpha",
        slots=np.array([[index[c] for c in ids]] * G),
        lesson=np.full(G, list(catalog.forms).index("beast")),
        flips=np.zeros(G, np.int64),
        rounds=np.full(G, 4),
        body_seen=np.full(G, 12),
        spares=np.full((G, 4, 2), -1),
        spent=np.zeros((G, seats), bool),
        battle_policy=np.zeros(G, np.int64),
    )
    fought = {
        "result": np.array([0, 1]),
        "gpa": np.array([2.0, 0.0]),
        "parts_lost": np.array([0, 0]),
        "crits": np.array([2, 2]),
        "lesson_took": np.array([True, True]),
    }
    got = scoring.score(catalog, setup, locked, seats, fought)
    # game 0 (won): seats hold beast_thesis .. harmonics
    assert got["study_done"][0].tolist() == [True, False, True, False, True]
    assert got["seat_gpa"][0].tolist() == pytest.approx([3.9, 2.9, 3.9, 2.9, 3.9])
    # game 1 (lost to the city, F = 0.0, nothing destroyed): seats hold sonic_lab,
    # heavy_ordnance, harmonics, field_medic (no win: not done), critical_theory;
    # GPA 0.0 + 0.9 group credits, + 1.0 with the study
    assert got["study_done"][1].tolist() == [True, False, True, False, True]
    assert got["seat_gpa"][1].tolist() == pytest.approx([1.9, 0.9, 1.9, 0.9, 1.9])
