"""Alluvion's choice set for ``mechbal dominated`` (analysis/alluvion/choices.py): every
legal loadout once, its exact objectives on hand-derived cases, and dominance a reader
can check by hand."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.alluvion import choices
from analysis.dominance import analyse
from sims.alluvion.builds import every_loadout
from sims.alluvion.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def result(catalog):
    (loadouts,) = choices.choice_sets(catalog)
    return analyse(loadouts)


def row(result, code: str) -> dict:
    return result.result.filter(pl.col("id") == code).row(0, named=True)


def test_every_loadout_once_rockets_aside(catalog, result) -> None:
    frame = result.result
    assert set(choices.OBJECTIVES) <= set(frame.columns)
    distinct = {(lo.chassis, lo.counts) for lo in every_loadout(catalog)}
    assert frame.height == len(distinct) == 924 and frame["id"].is_unique().all()
    assert not frame["id"].str.contains(r"\+").any()  # no rockets in a code
    named = frame.filter(pl.col("named") != "")["named"].to_list()
    assert sorted(named) == sorted(catalog.loadouts)


def test_objectives_by_hand(result) -> None:
    # one Direct Fire system on a Skimmer: no Defense dice, so every reference attack
    # (at least 1 against 0) hits; no Move die (Direct Fire takes the frame's 1d8 away):
    # 12 m / 3 = 4 hexes; no surveillance; one system
    one = row(result, "skimmer:d")
    assert (one["p_miss"], one["move"], one["spot"], one["systems"]) == (0.0, 4.0, 0.0, 1)
    assert one["attack"] == "ranged" and one["attack_pool"] == "1d6"
    # one Resistive system alone: no weapon (no attack), the mobile frame's 1d8: E[(12 +
    # d8) // 3] = (4+4+5+5+5+6+6+6) / 8
    r = row(result, "skimmer:r")
    assert (r["p_hit"], r["direct_hits"], r["attack"]) == (0.0, 0.0, "none")
    assert r["move"] == pytest.approx(41 / 8)


def test_a_slower_chassis_with_the_same_systems_is_dominated(result) -> None:
    # the same three systems on a Knight (movement 9) and a Skimmer (12): equal pools,
    # one hex more per Move for the Skimmer
    knight, skimmer = row(result, "knight:rdd"), row(result, "skimmer:rdd")
    for name in ("p_hit", "direct_hits", "p_miss", "spot", "systems"):
        assert knight[name] == skimmer[name]
    assert skimmer["move"] == knight["move"] + 1
    assert "skimmer:rdd" in knight["dominated_by"]
    # a Bulwark's fifth system is something no Knight has: not dominated for it alone
    assert row(result, "bulwark:rredd")["systems"] == 5
