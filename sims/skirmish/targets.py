"""Mecha Skirmish metrics for ``mechbal tune skirmish --target ...`` (``sims.core.targets``).

Exact (from the catalog, no simulation):
  crit_share(weapon=)            P(crit | hit) of the weapon fired as in weapon_vs_kit.csv,
                                 averaged with equal weight over Courier, Foreman, Reaver
                                 and Bastion as targets (the 53% claim's definition, DESIGN.md)
  expected_damage(weapon=, kit=) weapon_vs_kit.csv's expected damage per Fire action
Simulated (the ``duel`` experiment, default policy gunline; N battles per evaluation):
  win_rate(kit_a=, kit_b=)       kit_a's score against kit_b (a win 1, a draw 1/2), every
                                 battle either kit played in either seat
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from sims.core.protocol import InputError
from sims.core.targets import (
    Estimate,
    Target,
    both_seats,
    exact_estimates,
    mean_estimates,
    run_rows,
    winner_score,
)
from sims.skirmish import exact
from sims.skirmish.catalog import Catalog

# The rulebook's crit-share claim averages over these four targets (DESIGN.md).
CLAIM_KITS = ("courier", "foreman", "reaver", "bastion")


def _weapons(catalog: Catalog) -> list[str]:
    return [w.id for w in catalog.weapons()]


def _crit_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"weapon": _weapons(catalog)}


def crit_share(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    missing = [k for k in CLAIM_KITS if k not in catalog.kits]
    if missing:
        raise InputError(
            f"crit_share averages over {', '.join(CLAIM_KITS)}: the catalog "
            f"has no kit {missing[0]!r}"
        )
    return exact_estimates(
        filters,
        _crit_domains(catalog),
        lambda weapon: exact.mean_crit_share(catalog, weapon, CLAIM_KITS),
    )


def _pair_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"weapon": _weapons(catalog), "kit": list(catalog.kits)}


def expected_damage(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    def value(weapon: str, kit: str) -> Any:
        return exact.expected_damage(catalog.parts[weapon], catalog.mech(kit), catalog.params)

    return exact_estimates(filters, _pair_domains(catalog), value)


def _duel_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"kit_a": list(catalog.kits), "kit_b": list(catalog.kits)}


def win_rate(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    named = [filters.get("kit_a"), filters.get("kit_b")]
    # both kits named: only their matchups are played (all N on them)
    kits = sorted(set(named)) if all(v not in (None, "*") for v in named) else None
    rows = run_rows(
        "skirmish",
        "duel",
        catalog,
        n=n,
        seed=seed,
        jobs=jobs,
        store=store,
        options={"kits": kits} if kits else {},
        columns=("side_a", "side_b", "winner"),
    )
    rows = rows.with_columns(winner_score(pl.col("winner")).alias("score"))
    seats = both_seats(rows, "side_a", "side_b", "score")
    return mean_estimates(seats, filters, {"kit_a": "side", "kit_b": "opponent"}, "score")


TARGETS = {
    "crit_share": Target(
        doc="P(crit | hit) of the weapon fired as in weapon_vs_kit.csv (Gunnery 2, no Head "
        "Acc, no modifier dice, no cover, target undamaged), averaged with equal weight "
        "over courier, foreman, reaver and bastion as targets (the rulebook's 53% "
        "claim). Exact.",
        filters=("weapon",),
        exact=True,
        domains=_crit_domains,
        estimate=crit_share,
    ),
    "expected_damage": Target(
        doc="Expected damage-dice damage of one Fire action of the weapon at the kit, as in "
        "weapon_vs_kit.csv. Exact; an omitted filter averages over every value.",
        filters=("weapon", "kit"),
        exact=True,
        domains=_pair_domains,
        estimate=expected_damage,
    ),
    "win_rate": Target(
        doc="kit_a's score against kit_b (win 1, draw 1/2) in the duel experiment (policy "
        "gunline, the rules' board), every battle either kit played in either seat; "
        "kit_b omitted: against every kit. Simulated, N battles per evaluation.",
        filters=("kit_a", "kit_b"),
        exact=False,
        domains=_duel_domains,
        estimate=win_rate,
    ),
}
