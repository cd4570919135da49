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

from sims.core.protocol import InputError
from sims.core.targets import (
    Estimate,
    Target,
    exact_estimates,
    score_target,
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
    "win_rate": score_target(
        "skirmish",
        "duel",
        "side",
        "kits",
        ("kit_a", "kit_b"),
        lambda catalog: catalog.kits,
        doc="kit_a's score against kit_b (win 1, draw 1/2) in the duel experiment (policy "
        "gunline, the rules' board), every battle either kit played in either seat; "
        "kit_b omitted: against every other kit, mirrors left out. Simulated, N battles "
        "per evaluation.",
    ),
}
