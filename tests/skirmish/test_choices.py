"""Skirmish's choice sets for ``mechbal dominated`` (analysis/skirmish/choices.py): the
columns, dominance a reader can check by hand, the exact proxies on hand-derived cases,
and the simulation check on a handful of duels."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from analysis.dominance import analyse
from analysis.skirmish import choices
from sims.skirmish import builds, rules


@pytest.fixture(scope="module")
def sets(skirmish):
    return {s.name: analyse(s) for s in choices.choice_sets(skirmish)}


def test_the_sets_and_their_columns(sets) -> None:
    assert list(sets) == ["weapons", "parts", "builds"]
    for res in sets.values():
        c = res.choices
        assert {c.id, *c.objectives, *c.shown()} <= set(c.frame.columns)
        assert res.dominated + res.frontier == c.frame.height
    assert sets["builds"].choices.objectives == {
        "weight": "min",
        "damage": "max",
        "core_attacks": "max",
    }


def test_heads_dominated_by_hand(sets, skirmish) -> None:
    # Lattice: Armor 4, Durability 4, Weight 3, Sensors 4, E-Def 2 against the Hardhat's
    # 4, 4, 3, 3, 1; Longeye: Sensors 5 against the Spotter's 4, all else equal.
    p = skirmish.parts
    assert (p["lattice"].sensors, p["lattice"].e_def) > (p["hardhat"].sensors, p["hardhat"].e_def)
    out = sets["parts"].result
    beaten = dict(zip(out["id"], out["dominated_by"].to_list(), strict=True))
    assert beaten["hardhat"] == ["lattice"] and beaten["spotter"] == ["longeye"]
    assert beaten["lattice"] == [] and beaten["halo"] == []  # Halo weighs 2: lightest


def test_every_legal_build_once_arms_unordered(sets, skirmish) -> None:
    b = builds.enumerate_builds(skirmish.parts, skirmish.params)
    legal, mirror = int(b.legal.sum()), int((b.legal & (b.right_arm == b.left_arm)).sum())
    frame = sets["builds"].result
    assert frame.height == (legal + mirror) // 2 == 63_691
    assert frame.filter(pl.col("kit") != "").height == len(skirmish.kits)


def test_a_heavier_twin_is_dominated(sets) -> None:
    # the Courier kit with a Jump booster (Weight 4, Size 2) instead of its Smoke launcher
    # (Weight 3, Size 2): the same bands, weapons and Reactor, one more Weight
    frame = sets["builds"].result
    kit = "courier_frame/spotter/rifle/repeater/sprinter/smoke"
    twin = frame.filter(pl.col("id") == kit.replace("smoke", "jump_booster")).row(0, named=True)
    base = frame.filter(pl.col("id") == kit).row(0, named=True)
    assert (twin["damage"], twin["core_attacks"]) == (base["damage"], base["core_attacks"])
    assert twin["weight"] == base["weight"] + 1 and not twin["on_frontier"]
    assert base["kit"] == "kit courier"


def test_per_activation_fire_or_barrage() -> None:
    dmg = np.array([[3.0, 2.0, 0.0], [3.0, 2.0, 0.0], [1.0, 0.0, 5.0]])
    heat = np.array([[1, 1, 0], [3, 3, 0], [1, 0, 2]])
    weapon = np.array([[True, True, False], [True, True, False], [True, False, True]])
    reactor = np.array([7.0, 6.0, 3.0])
    # 1 + 1 + barrage_heat 1 fits 7: both fire; 3 + 3 + 1 > 6 and 1 + 2 + 1 > 3: one
    assert choices.per_activation(dmg, heat, weapon, reactor, 1).tolist() == [5.0, 3.0, 5.0]


def test_core_hits_by_hand(skirmish) -> None:
    p = skirmish.params
    # every hit on the Core (band 20), a Pen far above Armor: always a crit, 1d1 damage
    # = 1 each, so a Durability 3 Core takes exactly 3 hits
    assert choices._core_hits(20, "1", 30, 1, 20, 1, 3, p) == 3
    # a Core struck on 5 faces of 20: 4x the hits
    assert choices._core_hits(20, "1", 30, 1, 5, 1, 3, p) == 12
    # the renewal sum on a 50/50 damage of 1 or 2 (1d2) against Durability 2:
    # E[2] = 1 + P(1) E[1] = 1 + 1/2
    assert choices._core_hits(20, "1d2", 30, 1, 20, 1, 2, p) == Fraction(3, 2)
    assert rules.OUTCOMES[-1] == "crit"


def test_the_simulation_check_plays_pairs(sets, skirmish) -> None:
    res = sets["builds"]
    pairs = choices.confirm_pairs(res.result, count=1)
    kits = res.result.filter((pl.col("kit") != "") & ~pl.col("on_frontier"))
    assert len(pairs) == kits.height + 1
    beaten = dict(zip(res.result["id"], res.result["dominated_by"].to_list(), strict=True))
    assert all(top in beaten[low] for top, low in pairs)
    out = res.choices.confirm(res.result, 2, 1)
    assert out.columns == [
        "pair",
        "role",
        "build",
        "kit",
        "duels",
        "score",
        "low",
        "high",
        "frontier_scores",
    ]
    assert out.height == 2 * len(choices.confirm_pairs(res.result))
    assert out["score"].is_between(0, 1).all()
