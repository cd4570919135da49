"""Mech Lab Partners (seed 000): the decks, the kaiju, the Battle round, exact battle
outcomes and draw odds, the engines and the Battle-only study.

The game as the generic tools see it (``sims.core.protocol``); installed as the
``mechbal.games`` entry point ``labpartners`` (pyproject.toml).
"""

from sims.core.protocol import Engines, Game
from sims.labpartners import (
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
from sims.labpartners.catalog import KIND_FILES, load_catalog

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
    name="labpartners",
    title="Mech Lab Partners",
    rulebook="000_59439b9a56abb334.txt",
    load_catalog=load_catalog,
    tables=exact.TABLES,
    exact=exact.tables,
    checks=claims.CHECKS,
    rules_version=rules.RULES_VERSION,
    engines=ENGINES,
    experiments=experiments.EXPERIMENTS,
    explain=explain.EXPLAIN,
    targets=targets.TARGETS,
    # read by the whole games (Assembly and scoring), not by the Battle-only study;
    # mechs.toml feeds the tables and explanations only
    identity_exclude=("studies.toml", "credits.toml", "players.toml", "mechs.toml"),
    vocabulary=(
        "labpartners",
        "kaiju",
        "lesson",
        "deck",
        "decks",
        "torso",
        "gpa",
        "countdown",
        "trait",
        "traits",
        "specialty",
        "specialties",
        "rebuild",
        "punch",
        "gorgadon",
        "thornmaw",
        "lumenyx",
        "cinderwyrm",
        "trivex",
        "spread",
    ),
)

__all__ = ["GAME", "load_catalog"]
