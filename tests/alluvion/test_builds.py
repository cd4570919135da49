"""Every legal loadout (builds.py) against counts and pools derived by hand."""

from __future__ import annotations

import polars as pl
import pytest

from sims.alluvion import builds, rules
from sims.alluvion.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def frame(catalog):
    return builds.frame(catalog)


def test_count_of_legal_loadouts_per_chassis(frame) -> None:
    # Systems: seven kinds, 0..2 each. Loadouts of k systems = coefficient of x^k in
    # (1 + x + x^2)^7 = sum over a (kinds taken twice) of C(7, a) C(7 - a, k - 2a):
    # k=1: 7; k=2: 21 + 7 = 28; k=3: 35 + 7*15 = 77 (C(6,1)... : 35 + 7*C(6,1)=42 -> 77);
    # k=4: 35 + 7*C(6,2)=105 + C(7,2)=21 -> 161; k=5: 21 + 7*C(6,3)=140 + 21*C(5,1)=105
    # -> 266. At least one system, at most the slots, times 3 rocket counts (0, 1, 2):
    # skimmer (3 slots) (7+28+77)*3 = 336, knight (4) 273*3 = 819, bulwark (5) 539*3 = 1617.
    counts = dict(frame.group_by("chassis").len().iter_rows())
    assert counts == {"skimmer": 336, "knight": 819, "bulwark": 1617}
    assert frame["code"].n_unique() == frame.height == 2772


def test_every_row_is_legal_and_none_is_missing(frame) -> None:
    assert frame["systems"].min() == 1
    assert (frame.select(rules.KINDS).max_horizontal() <= 2).all()
    slots = {"skimmer": 3, "knight": 4, "bulwark": 5}
    assert all(s <= slots[c] for c, s in frame.select("chassis", "systems").iter_rows())
    assert set(frame["rockets"]) == {0, 1, 2}


@pytest.mark.parametrize(
    ("code", "attack", "rocket", "defense", "ecm", "move", "spot"),
    [
        # two Direct Fire: first weapon 1d6, second 1d8; two Resistive: 2d6 then 1d6
        ("knight:rrdd", "1d6+1d8", "0", "3d6", "0", "0", "0"),
        # one of each defense: ECM counted first (2d6), the Resistive adds 1d6
        ("knight:rexx", "1d6+1d8", "0", "3d6", "2d6", "0", "0"),
        # weapons of three kinds: 1d6 + 1d8 + 1d8; Direct Fire present, no mobile d8
        ("bulwark:mhdx+2r", "1d6+2d8", "2d8", "0", "0", "1d6", "0"),
        # no Direct Fire nor Smart: the mobile frame's 1d8 Move beside the system's 1d6
        ("knight:mhh", "1d6+1d8", "0", "0", "0", "1d6+1d8", "0"),
        # no weapons at all: mobile too, and an empty Attack pool
        ("skimmer:ess", "0", "0", "2d6", "2d6", "1d8", "2d6"),
    ],
)
def test_pools_of_a_loadout(catalog, frame, code, attack, rocket, defense, ecm, move, spot):
    row = frame.filter(pl.col("code") == code).row(0, named=True)
    assert (
        row["attack_pool"],
        row["rocket_pool"],
        row["defense_pool"],
        row["ecm_pool"],
        row["move_pool"],
        row["spot_pool"],
    ) == (attack, rocket, defense, ecm, move, spot)
    assert catalog.loadout(code).code == code  # the code reads back as itself


def test_named_loadouts_are_in_the_enumeration(catalog, frame) -> None:
    codes = set(frame["code"])
    assert all(lo.code in codes for lo in catalog.loadouts.values())
