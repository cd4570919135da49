"""Lab Partners' choice sets for ``mechbal dominated`` (analysis/labpartners/choices.py):
the cards that never change an outcome, checked by hand on Arms (the combo keeps a low
Power card of a resisted Type alive) and body cards (only Lumenyx's debuff reads a
body card's Type)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.dominance import analyse
from analysis.labpartners import choices
from sims.labpartners.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def results(catalog):
    return {s.name: analyse(s) for s in choices.choice_sets(catalog)}


def beaten(res) -> dict[str, list[str]]:
    return dict(zip(res.result["id"], res.result["dominated_by"].to_list(), strict=True))


def test_the_sets(results) -> None:
    arms, body = results["arm cards"], results["body cards"]
    assert arms.result.height == 75 and body.result.height == 75
    assert arms.result["id"].str.starts_with("arms-").all()
    assert arms.choices.group == body.choices.group == "part_form"
    situations = [c for c in arms.choices.objectives if ":" in c]
    assert len(situations) > 100 and "counts_lumenyx" in arms.choices.objectives


def test_arms_by_hand(results) -> None:
    out = beaten(results["arm cards"])
    # Melee: no kaiju and no Trait resists it, so Power 2 deals more than Power 1 in
    # every situation but one Power-1 combo (1 + 1 = 2: a tie): dominated
    assert out["arms-beast-melee-1"] == ["arms-beast-melee-2", "arms-beast-melee-3"]
    # Projectile: resisted (Gorgadon), Power 1 and 2 both deal 1 (halved, rounded down,
    # at least 1),
    # and the Power-1 card combos with a Power-1 partner: never dominated
    assert out["arms-beast-projectile-1"] == []
    # cards of another Form never compete: the lesson counts Forms
    assert all(c.split("-")[1] == "beast" for c in out["arms-beast-melee-1"])


def test_body_cards_by_hand(results, catalog) -> None:
    out = beaten(results["body cards"])
    assert catalog.kaiju["lumenyx"].debuff_when == "type_count"
    assert catalog.kaiju["lumenyx"].debuff_value == "projectile"
    assert out["legs-beast-energy"] == ["legs-beast-projectile"]
    assert out["legs-beast-projectile"] == []
    frame = results["body cards"].result
    twins = frame.filter(pl.col("id").is_in(["legs-beast-energy", "legs-beast-projectile"]))
    numbers = [c for c in results["body cards"].choices.objectives if not c.startswith("counts_")]
    assert twins.select(numbers).n_unique() == 1  # the same numbers: only the debuff differs
