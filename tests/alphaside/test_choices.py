"""ALPHASIDE's choice set for ``mechbal dominated`` (analysis/alphaside/choices.py): the
weapons per Timeline space, from the exact weapon_vs_unit table."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.alphaside import choices
from analysis.dominance import analyse
from sims.alphaside import exact
from sims.alphaside.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def test_weapons_per_timeline_space(catalog) -> None:
    (weapons,) = choices.choice_sets(catalog)
    res = analyse(weapons)
    frame = res.result
    assert frame["id"].to_list() == list(catalog.weapons)
    assert set(weapons.objectives) == {"damage_per_tl", "p_defeat", "range", "area", "tl"}
    # the objectives are the exact table's means over the units
    table = (
        exact.weapon_vs_unit_table(catalog)
        .group_by("weapon")
        .agg(pl.col("damage_per_tl_float").mean(), pl.col("p_defeat_float").mean())
    )
    means = {r["weapon"]: r for r in table.iter_rows(named=True)}
    for r in frame.iter_rows(named=True):
        assert r["damage_per_tl"] == pytest.approx(means[r["id"]]["damage_per_tl_float"])
        assert r["p_defeat"] == pytest.approx(means[r["id"]]["p_defeat_float"])
    beaten = dict(zip(frame["id"], frame["dominated_by"].to_list(), strict=True))
    # the Harpoon (Strength 3, TL 2, Range 3) against the Machine Gun (Strength 5,
    # Accuracy -2, TL 2, Range 3): no better anywhere; its Pull is not counted
    mg, harpoon = (
        frame.filter(pl.col("id") == w).row(0, named=True) for w in ("machine_gun", "harpoon")
    )
    assert (harpoon["tl"], harpoon["range"], harpoon["area"]) == (mg["tl"], mg["range"], 0)
    assert harpoon["damage_per_tl"] < mg["damage_per_tl"] and harpoon["p_defeat"] < mg["p_defeat"]
    assert beaten["harpoon"] == ["machine_gun"] and harpoon["crit"] == "pull 2"
    assert beaten["cannon"] == ["long_rifle"]
    assert beaten["vulcan"] == [] and beaten["mortar"] == []  # cheapest; the only area
