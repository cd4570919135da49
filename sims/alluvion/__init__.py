"""Alluvion Knights (seed 001): dice pools from the systems a Knight carries, exact
attack, damage, morale and battery odds, every legal loadout, and duels and small squad
fights on two engines.

The game as the generic tools see it (``sims.core.protocol``); installed as the
``mechbal.games`` entry point ``alluvion`` (pyproject.toml).
"""

from sims.alluvion import (
    battle,
    builds,
    claims,
    exact,
    experiments,
    explain,
    reference,
    rules,
    targets,
    vector,
)
from sims.alluvion.catalog import KIND_FILES, load_catalog
from sims.core.protocol import Engines, Game


def tables(catalog) -> dict:
    """The exact tables and the enumeration of every legal loadout."""
    return {**exact.tables(catalog), builds.TABLE.stem: builds.frame(catalog)}


ENGINES = Engines(
    scenarios=battle.sample_scenarios,
    reference=reference.play,
    vector=vector.play,
    metrics=battle.metrics,
    batch_key=battle.batch_key,
    reference_version=reference.ENGINE_VERSION,
    vector_version=vector.ENGINE_VERSION,
    play_dice=(reference.play_dice, vector.play_dice),
)

GAME = Game(
    kind_files=KIND_FILES,
    name="alluvion",
    title="Alluvion Knights",
    rulebook="001_8ad3594640b7f9f3.txt",
    load_catalog=load_catalog,
    tables=(*exact.TABLES, builds.TABLE),
    exact=tables,
    checks=claims.CHECKS,
    rules_version=rules.RULES_VERSION,
    engines=ENGINES,
    experiments=experiments.EXPERIMENTS,
    explain=explain.EXPLAIN,
    targets=targets.TARGETS,
    # the engines' sample battles and the repairs table never decide a duel's rows
    identity_exclude=("scenarios.toml", "repairs.toml"),
    vocabulary=(
        "alluvion",
        "loadout",
        "loadouts",
        "resistive",
        "ecm",
        "surveillance",
        "grapple",
        "grappled",
        "squad",
        "squads",
        "morale",
        "battery",
        "batteries",
        "knight",
        "knights",
    ),
)

__all__ = ["GAME", "load_catalog"]
