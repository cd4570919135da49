"""The players' policy (policy.py): the value a cadet sees in a card, a play's gain and
the hold-or-commit threshold, and the skill buckets; and the group's Battle decisions
(rebuild or punch, the rebuilt slot, the intervention's trigger, the Medic's and the
Tactician's parts); on hand-worked values, ints (Python bools out) and arrays alike."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sims.labpartners import policy
from sims.labpartners.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def test_gain_value_and_commit(catalog):
    builder, holdout = catalog.players["builder"], catalog.players["holdout"]
    # builder: lesson 2, weakness 1, skill 1, power 1, combo 1, study 0, fill 4, threshold 1
    # a Beast Legs of the lesson Form with one revealed weakness: 2 + 1 + 1 = 4
    assert policy.card_value(builder, 1, 1, 1, 0, 0, 1) == 4
    # an Arm of Power 3 with a combo: 3 + 1 = 4
    assert policy.card_value(builder, 0, 0, 0, 3, 1, 0) == 4
    # filling an empty slot: 4 + 4 = 8; replacing a placed card of value 3: 4 - 3 = 1
    assert policy.gain(builder, 4, 0, 1) == 8 and policy.gain(builder, 4, 3, 0) == 1
    # the hold-or-commit threshold: builder commits at 1, holdout needs 4
    assert policy.commits(builder, 1) and not policy.commits(holdout, 3)
    assert policy.commits(holdout, 4)
    # Forms whose skill bucket helps their slot: Beast Legs, Vehicle Torso, Clockwork Head
    parts = np.array([0, 1, 2, 0, 3])
    forms = np.array(["beast", "vehicle", "clockwork", "vehicle", "beast"])
    assert policy.skill(parts, forms).tolist() == [1, 1, 1, 0, 0]


# ---- Battle: the group's decisions (codes: battle.REBUILD_WHEN, battle.INTERVENE) -------

NEVER, ARMLESS, MISSING = 0, 1, 2  # rebuild_when
LEGS, TORSO, HEAD, ARMS = 0, 1, 2, 3  # Part-Types (PARTS order); slots: arm_1 3, arm_2 4
FIRST_ROUND, KAIJU_LOW, TORSO_LOST = 1, 3, 4  # intervene_when (2: armless)


def test_rebuilds_follows_rebuild_when():
    # armless (steady): the Arms only, only with no intact Arm, only with a spare Arm
    assert policy.rebuilds(ARMLESS, ARMS, True, True, True) is True
    assert policy.rebuilds(ARMLESS, ARMS, False, True, True) is False  # one Arm still works
    assert policy.rebuilds(ARMLESS, ARMS, True, True, False) is False  # no spare Arm left
    assert policy.rebuilds(ARMLESS, TORSO, True, True, True) is False  # not the Arms
    # missing (keystone): any listed Part-Type with a gap or destroyed slot and a spare
    assert policy.rebuilds(MISSING, TORSO, False, True, True) is True
    assert policy.rebuilds(MISSING, ARMS, False, True, True) is True  # one Arm is enough
    assert policy.rebuilds(MISSING, HEAD, True, False, True) is False  # the Head is intact
    assert policy.rebuilds(MISSING, LEGS, False, True, False) is False
    # never (all_in): nothing, whatever is gone
    assert policy.rebuilds(NEVER, ARMS, True, True, True) is False
    # on arrays, one battle a column, as the vector engine asks
    got = policy.rebuilds(
        np.array([ARMLESS, ARMLESS, MISSING, MISSING, NEVER]),
        np.array([ARMS, ARMS, HEAD, ARMS, ARMS]),
        np.array([True, False, False, True, True]),
        np.array([True, True, True, False, True]),
        np.array([True, True, True, True, True]),
    )
    assert got.tolist() == [True, False, True, False, False]


def test_punches_to_finish_at_or_under_punch_finish():
    # steady's punch_finish 2: a disarmed group punches a kaiju at 2 HP or fewer
    assert policy.punches_to_finish(True, 2, 2) is True
    assert policy.punches_to_finish(True, 1, 2) is True
    assert policy.punches_to_finish(True, 3, 2) is False
    assert policy.punches_to_finish(False, 1, 2) is False  # armed: it fires, no choice
    assert policy.punches_to_finish(True, 1, 0) is False  # punch_finish 0: never
    got = policy.punches_to_finish(np.array([True, True, False]), np.array([2, 5, 1]), 2)
    assert got.tolist() == [True, False, False]


def test_rebuilt_slot_arm_1_before_arm_2():
    # Legs, Torso, Head into their own slot (0, 1, 2); an Arm into arm_1 (3) unless it
    # is intact, then arm_2 (4)
    assert [policy.rebuilt_slot(p, False) for p in (LEGS, TORSO, HEAD)] == [0, 1, 2]
    assert [policy.rebuilt_slot(p, True) for p in (LEGS, TORSO, HEAD)] == [0, 1, 2]
    assert policy.rebuilt_slot(ARMS, False) == 3 and policy.rebuilt_slot(ARMS, True) == 4
    got = policy.rebuilt_slot(np.array([ARMS, ARMS, TORSO]), np.array([True, False, True]))
    assert got.tolist() == [4, 3, 1]


def test_spends_intervention_on_its_trigger():
    # (intervene_when, round, armless, kaiju HP, intervene_at, Torso lost)
    assert policy.spends_intervention(FIRST_ROUND, 1, False, 30, 0, False) is True
    assert policy.spends_intervention(FIRST_ROUND, 2, True, 1, 8, True) is False
    assert policy.spends_intervention(2, 3, True, 30, 0, False) is True  # armless
    assert policy.spends_intervention(2, 3, False, 30, 0, True) is False
    # kaiju_low at 8 (ace_finisher): the kaiju at 8 HP or fewer
    assert policy.spends_intervention(KAIJU_LOW, 4, False, 8, 8, False) is True
    assert policy.spends_intervention(KAIJU_LOW, 4, False, 9, 8, False) is False
    assert policy.spends_intervention(TORSO_LOST, 5, False, 30, 0, True) is True
    assert policy.spends_intervention(TORSO_LOST, 1, True, 1, 0, False) is False
    # never: not in round 1, armless, at 1 HP or with the Torso gone
    assert policy.spends_intervention(0, 1, True, 1, 8, True) is False
    got = policy.spends_intervention(
        np.array([FIRST_ROUND, KAIJU_LOW, TORSO_LOST, 0]),
        1,
        np.array([False, False, False, True]),
        np.array([20, 5, 20, 1]),
        np.array([0, 8, 0, 8]),
        np.array([False, False, True, True]),
    )
    assert got.tolist() == [True, True, True, False]


def _first(ranks):
    """The index of the lowest rank (the engines' choice)."""
    return min(range(len(ranks)), key=lambda i: ranks[i])


def test_medic_restores_the_rebuild_list_first_and_pays_with_the_weakest():
    # keystone's list: torso, arms, head, legs (places 0..3). Legs (slot 0) and arm_2
    # (slot 4) destroyed: arm_2 comes back (the Arms before the Legs in the list)
    candidates = [(3, 0), (1, 4)]  # (place in the list, slot)
    assert _first([policy.restore_rank(*c) for c in candidates]) == 1
    # both Arms destroyed: arm_1 first; an unlisted Part-Type (place 4) after every listed
    assert policy.restore_rank(1, 3) < policy.restore_rank(1, 4)
    assert policy.restore_rank(3, 0) < policy.restore_rank(4, 0)
    # steady's list is the Arms only: Torso (unlisted, slot 1) v Head (unlisted, slot 2)
    assert policy.restore_rank(4, 1) < policy.restore_rank(4, 2)
    # the cost: intact Legs 4 HP, Torso 2, Head 2, arm_1 3 -> the fewest (2), ties to the
    # last slot: the Head (slot 2)
    intact = [(4, 0), (2, 1), (2, 2), (3, 3)]  # (HP left, slot)
    assert intact[_first([policy.sacrifice_rank(*c) for c in intact])][1] == 2
    assert policy.sacrifice_rank(1, 0) < policy.sacrifice_rank(2, 4)
    ranks = policy.sacrifice_rank(np.array([4, 2, 2, 3, 9]), np.arange(5))
    assert int(ranks.argmin()) == 2


def test_tactician_redirects_to_the_most_hp_left():
    # priority order Torso (5 HP), Legs (3), arm_1 (5): the most HP, ties to the earliest
    hp_in_order = [5, 3, 5]
    assert _first([policy.redirect_rank(h, i) for i, h in enumerate(hp_in_order)]) == 0
    assert _first([policy.redirect_rank(h, i) for i, h in enumerate([2, 4, 4])]) == 1
    assert policy.redirect_rank(6, 4) < policy.redirect_rank(5, 0)
    ranks = policy.redirect_rank(np.array([1, 3, 3, 2, 0]), np.arange(5))
    assert int(ranks.argmin()) == 1


def test_the_group_spends_the_first_battle_seats_specialty(catalog):
    seeker, builder = catalog.players["seeker"], catalog.players["builder"]
    holdout = catalog.players["holdout"]
    # players.toml: seeker keeps its Specialty for Assembly, builder and holdout for Battle
    assert policy.battle_seat([seeker, builder, holdout]) == 1
    assert policy.battle_seat([holdout, builder]) == 0
    assert policy.battle_seat([seeker, seeker]) == -1
    # per Specialty (tactician, brawler, ace, medic, saboteur), the first policy of
    # policies.toml with it: tactician_first 5, brawler_finisher 6, ace_finisher 3,
    # medic_keystone 4, saboteur_first 7 (steady 0, keystone 1, all_in 2)
    assert policy.specialty_policies(catalog, "steady") == (5, 6, 3, 4, 7)
    # a Specialty no policy carries falls back to the standalone policy (keystone, 1)
    fewer = {k: v for k, v in catalog.policies.items() if k != "saboteur_first"}
    trimmed = dataclasses.replace(catalog, policies=fewer)
    assert policy.specialty_policies(trimmed, "keystone") == (5, 6, 3, 4, 1)
