"""Mecha Skirmish (seed 003): catalogs, rules, exact tables, claims, engines, experiments.

The game as the generic tools see it (``sims.core.protocol``); installed as the
``mechbal.games`` entry point ``skirmish`` (pyproject.toml).
"""

from sims.core.protocol import Engines, Game
from sims.skirmish import (
    battle,
    claims,
    exact,
    experiments,
    explain,
    reference,
    rules,
    targets,
    vector,
)
from sims.skirmish.catalog import load_catalog


def sample_scenarios(catalog) -> list[tuple[str, battle.Battle]]:
    """A few matchups covering each policy, a duel mirror and a team fight."""
    sides = [
        (battle.Side(("foreman",), "gunline"), battle.Side(("reaver",), "brawler")),
        (battle.Side(("courier",), "careful"), battle.Side(("courier",), "careful")),
        (
            battle.Side(("courier", "foreman", "reaver"), "gunline"),
            battle.Side(("bastion", "lancer", "skiff"), "careful"),
        ),
    ]
    return [
        (
            "+".join(a.kits) + f"({a.policy}) v " + "+".join(b.kits) + f"({b.policy})",
            battle.compile_battle(catalog, a, b),
        )
        for a, b in sides
    ]


ENGINES = Engines(
    scenarios=sample_scenarios,
    reference=reference.play,
    vector=vector.play,
    metrics=battle.metrics,
    batch_key=battle.batch_key,
    reference_version=reference.ENGINE_VERSION,
    vector_version=vector.ENGINE_VERSION,
)

GAME = Game(
    name="skirmish",
    title="Mecha Skirmish",
    rulebook="003_25cf03a7d69a340f.txt",
    load_catalog=load_catalog,
    tables=exact.TABLES,
    exact=exact.tables,
    checks=claims.CHECKS,
    rules_version=rules.RULES_VERSION,
    engines=ENGINES,
    experiments=experiments.EXPERIMENTS,
    explain=explain.EXPLAIN,
    targets=targets.TARGETS,
    # the projected full part list: only the builds and team-cap experiments read it
    identity_exclude=("parts_full.toml",),
    vocabulary=(
        "skirmish",
        "kit",
        "kits",
        "silhouette",
        "mount",
        "mounts",
        "crit_margin",
        "foreman",
        "courier",
        "reaver",
        "bastion",
        "heavy",
        "heavies",
        "team_cap",
        "parts_full",
        "gunnery",
        "evasion",
        "pilot",
        "pilots",
        "weapon",
        "weapons",
        "chassis",
        "overload",
    ),
)

__all__ = ["GAME", "load_catalog"]
