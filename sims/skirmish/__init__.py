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
from sims.skirmish.catalog import KIND_FILES, load_catalog

ENGINES = Engines(
    scenarios=battle.sample_scenarios,
    reference=reference.play,
    vector=vector.play,
    metrics=battle.metrics,
    batch_key=battle.batch_key,
    reference_version=reference.ENGINE_VERSION,
    vector_version=vector.ENGINE_VERSION,
    # no die-for-die replay: the vector engine reads some of a battle's dice in another
    # order than the reference (on a map too; on a track it also draws a cover d100 for
    # every attack, vector.ScriptedDice), so a recorded battle does not replay; the
    # engines meet hand-traced scripts (tests/skirmish/test_scripted.py) instead
    play_dice=None,
)

GAME = Game(
    kind_files=KIND_FILES,
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
