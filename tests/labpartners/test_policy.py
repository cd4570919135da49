"""The players' policy (policy.py): the value a cadet sees in a card, a play's gain and
the hold-or-commit threshold, and the skill buckets, on hand-worked values; ints and
arrays alike."""

from __future__ import annotations

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
