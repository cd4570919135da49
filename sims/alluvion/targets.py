"""Alluvion Knights metrics for ``mechbal tune alluvion --target ...`` (``sims.core.targets``).

Exact (from the catalog, no simulation):
  p_hit(attack_pool=, defense_pool=, spot=)  attack.csv's P(highest Attack die + spot -
                                             highest Defense die >= 1); spot 0 unless given
Simulated (the ``loadouts`` experiment: duels between the named loadouts, no cover, the
rules' start range; N duels per evaluation):
  score(loadout=, opponent=)   the loadout's score (win 1, draw 1/2) against the opponent,
                               every duel it played in either seat; opponent omitted:
                               against every other loadout (mirrors left out)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sims.alluvion import exact, rules
from sims.alluvion.catalog import Catalog
from sims.core.targets import (
    Estimate,
    Target,
    exact_estimates,
    score_target,
)


def _pool_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {
        "attack_pool": [rules.pool_text(x) for x in exact.attack_pools(catalog)],
        "defense_pool": [rules.pool_text(x) for x in exact.defense_pools(catalog)],
        "spot": list(exact.SPOTS),
    }


def p_hit(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    def value(attack_pool: str, defense_pool: str, spot: str) -> Any:
        return exact.p_hit(
            rules.parse_pool(attack_pool), rules.parse_pool(defense_pool), int(spot), catalog.params
        )

    return exact_estimates(filters, _pool_domains(catalog), value)


TARGETS = {
    "p_hit": Target(
        doc="attack.csv's P(an attack hits): highest Attack die + spot - highest Defense "
        "die >= 1, pools written like 2d6+1d8 (the empty Defense pool 0), spot 0 unless "
        "given. Exact; an omitted pool averages over every pool of attack.csv.",
        filters=("attack_pool", "defense_pool", "spot"),
        exact=True,
        domains=_pool_domains,
        estimate=p_hit,
        defaults={"spot": "0"},
    ),
    "score": score_target(
        "alluvion",
        "loadouts",
        "loadout",
        "loadouts",
        ("loadout", "opponent"),
        lambda catalog: catalog.loadouts,
        doc="The loadout's score (win 1, draw 1/2) against the opponent in the loadouts "
        "experiment (duels between loadouts.toml's loadouts, no cover), every duel it "
        "played in either seat; opponent omitted: against every other loadout, mirrors "
        "left out. Simulated, N duels per evaluation.",
    ),
}
