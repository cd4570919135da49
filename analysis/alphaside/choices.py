"""ALPHASIDE's choice set for ``mechbal dominated alphaside`` (analysis.dominance): the
weapons, judged per Timeline space on the exact ``weapon_vs_unit`` table."""

from __future__ import annotations

from fractions import Fraction

import polars as pl

from analysis.dominance import ChoiceSet
from sims.alphaside import exact
from sims.alphaside.catalog import Catalog

OBJECTIVES = {"damage_per_tl": "max", "p_defeat": "max", "range": "max", "area": "max", "tl": "min"}

DOC = (
    "Exact: weapon_vs_unit (one attack from full HP against each catalog unit with its "
    "Shields active; the crit effect counted where it is Damage+X, no other crit effect), "
    "no simulation. damage_per_tl: expected damage / the weapon's TL cost (the damage a "
    "Timeline space buys), the mean over the units; p_defeat: P(one attack defeats the "
    "unit from full HP), the mean over the units (what a single big hit buys that the "
    "mean hides); range and area as printed; tl: the Timeline spaces an attack costs (less "
    "is better: it comes round again sooner). The crit effects Slow, Fracture, Disarm, "
    "Push and Pull are not counted (the crit column shows them): a dominated weapon with "
    "one of them may still be worth its place for that effect."
)


def weapon_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per weapon: its exact means over the units and its printed numbers."""
    units = list(catalog.units)
    rows = []
    for w in catalog.weapons.values():
        per_tl, defeat, damage = Fraction(0), Fraction(0), Fraction(0)
        for u in units:
            _, kill, expected, per = exact.weapon_vs_unit(catalog, w.id, u)
            per_tl, defeat, damage = per_tl + per, defeat + kill, damage + expected
        carried = [u.id for u in catalog.units.values() if w.id in u.weapons]
        rows.append(
            {
                "id": w.id,
                "damage_per_tl": float(per_tl / len(units)),
                "p_defeat": float(defeat / len(units)),
                "range": w.range,
                "area": w.area,
                "tl": w.tl,
                "expected_damage": float(damage / len(units)),
                "crit": w.crit_effect + (f" {w.crit_value}" if w.crit_value else ""),
                "carried_by": ", ".join(carried),
            }
        )
    return pl.DataFrame(rows)


def choice_sets(catalog: Catalog) -> list[ChoiceSet]:
    """ALPHASIDE's choice set: the weapons."""
    return [
        ChoiceSet(
            name="weapons",
            what="a weapon (its TL cost, Range, Strength, Accuracy, area and crit effect)",
            frame=weapon_frame(catalog),
            objectives=OBJECTIVES,
            doc=DOC,
            chart=("tl", "damage_per_tl"),
            columns=[*OBJECTIVES, "expected_damage", "crit", "carried_by"],
            labels={
                "damage_per_tl": "expected damage per TL (mean over units)",
                "p_defeat": "P(one attack defeats, mean over units)",
                "tl": "TL cost",
                "expected_damage": "expected damage per attack",
            },
        ),
    ]
