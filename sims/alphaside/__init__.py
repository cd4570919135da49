"""ALPHASIDE (seed 004): exact d10 attack odds (hits and crits, damage through Shields,
defeat, area attacks, collisions), units on the Timeline, and engagements and squad games
on two engines.

The game as the generic tools see it (``sims.core.protocol``); installed as the
``mechbal.games`` entry point ``alphaside`` (pyproject.toml).
"""

from sims.alphaside import (
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
from sims.alphaside.catalog import KIND_FILES, load_catalog
from sims.core.protocol import Engines, Game

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
    name="alphaside",
    title="ALPHASIDE",
    rulebook="004_1f484c5fe6094f24.txt",
    load_catalog=load_catalog,
    tables=exact.TABLES,
    exact=exact.tables,
    checks=claims.CHECKS,
    rules_version=rules.RULES_VERSION,
    engines=ENGINES,
    experiments=experiments.EXPERIMENTS,
    explain=explain.EXPLAIN,
    targets=targets.TARGETS,
    vocabulary=(
        "alphaside",
        "timeline",
        "shields",
        "fracture",
        "disarm",
        "tactics",
        "squads",
        "garrison",
        "garrisons",
        "energize",
        "dash",
    ),
)

__all__ = ["GAME", "load_catalog"]
