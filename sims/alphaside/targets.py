"""ALPHASIDE metrics for ``mechbal tune alphaside --target ...`` (``sims.core.targets``).

Exact (from the catalog, no simulation), as in weapon_vs_unit.csv:
  p_defeat(weapon=, unit=)       P(one attack of the weapon defeats the unit from full HP)
  damage_per_tl(weapon=, unit=)  expected damage of one attack / the weapon's TL cost
Simulated (the ``duel`` experiment: one unit a side over a whole game; N games per
evaluation):
  score(unit=, opponent=)        the unit's win rate against the opponent, every game it
                                 played in either seat; opponent omitted: against every unit
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from sims.alphaside import exact
from sims.alphaside.catalog import Catalog
from sims.core.targets import (
    Estimate,
    Target,
    both_seats,
    exact_estimates,
    mean_estimates,
    run_rows,
    winner_score,
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


def _duel_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"unit": list(catalog.units), "opponent": list(catalog.units)}


def score(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    named = [filters.get("unit"), filters.get("opponent")]
    # both named: only their games are played (all N on them)
    units = sorted(set(named)) if all(v not in (None, "*") for v in named) else None
    rows = run_rows(
        "alphaside",
        "duel",
        catalog,
        n=n,
        seed=seed,
        jobs=jobs,
        store=store,
        options={"units": units} if units else {},
        columns=("unit_a", "unit_b", "winner"),
    )
    rows = rows.with_columns(winner_score(pl.col("winner"), draw=None).alias("score"))
    seats = both_seats(rows, "unit_a", "unit_b", "score")
    return mean_estimates(seats, filters, {"unit": "side", "opponent": "opponent"}, "score")


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
    "score": Target(
        doc="The unit's win rate against the opponent in the duel experiment (one unit a "
        "side over a whole game), every game it played in either seat; opponent "
        "omitted: against every unit. Simulated, N games per evaluation.",
        filters=("unit", "opponent"),
        exact=False,
        domains=_duel_domains,
        estimate=score,
    ),
}
