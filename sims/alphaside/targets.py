"""ALPHASIDE metrics for ``mechbal tune alphaside --target ...`` (``sims.core.targets``).

Exact (from the catalog, no simulation), as in weapon_vs_unit.csv:
  p_defeat(weapon=, unit=)       P(one attack of the weapon defeats the unit from full HP)
  damage_per_tl(weapon=, unit=)  expected damage of one attack / the weapon's TL cost
Simulated (the ``duel`` experiment: one unit a side over a whole game; N games per
evaluation):
  score(unit=, opponent=)        the unit's win rate against the opponent, every game it
                                 played in either seat; opponent omitted: against every other unit
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sims.alphaside import exact
from sims.alphaside.catalog import Catalog
from sims.core.targets import (
    Estimate,
    Target,
    exact_estimates,
    score_target,
)


def _pair_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"weapon": list(catalog.weapons), "unit": list(catalog.units)}


def _exact_metric(index: int) -> Any:
    """An estimate function reading one value of ``exact.weapon_vs_unit``."""

    def estimate(
        catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
    ) -> list[Estimate]:
        return exact_estimates(
            filters,
            _pair_domains(catalog),
            lambda weapon, unit: exact.weapon_vs_unit(catalog, weapon, unit)[index],
        )

    return estimate


TARGETS = {
    "p_defeat": Target(
        doc="weapon_vs_unit.csv's P(one attack of the weapon defeats the unit from full HP, "
        "Shields active, Damage+X counted). Exact; an omitted filter averages over every "
        "value.",
        filters=("weapon", "unit"),
        exact=True,
        domains=_pair_domains,
        estimate=_exact_metric(1),
    ),
    "damage_per_tl": Target(
        doc="weapon_vs_unit.csv's expected damage of one attack on the unit divided by the "
        "weapon's TL cost (the damage a Timeline space buys). Exact; an omitted filter "
        "averages over every value.",
        filters=("weapon", "unit"),
        exact=True,
        domains=_pair_domains,
        estimate=_exact_metric(3),
    ),
    "score": score_target(
        "alphaside",
        "duel",
        "unit",
        "units",
        ("unit", "opponent"),
        lambda catalog: catalog.units,
        doc="The unit's win rate against the opponent in the duel experiment (one unit a "
        "side over a whole game), every game it played in either seat; opponent "
        "omitted: against every other unit, mirrors left out. Simulated, N games per "
        "evaluation.",
        draw=None,  # equal VP goes to the side that acted last: no draws
    ),
}
