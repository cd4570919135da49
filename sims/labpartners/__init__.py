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
from sims.labpartners.catalog import load_catalog

# The sample battles the conformance test plays on both engines: every kaiju, a Trait
# or two, gaps and spares (rebuilds, the punch), and both campaign interventions kinds.
SAMPLES = (
    ("mechsuit_lesson", "gorgadon", (), "steady", ()),
    (
        "gappy",
        "thornmaw",
        ("frenzy",),
        "keystone",
        (
            ("legs-beast-melee",),
            ("torso-vehicle-energy",),
            ("head-clockwork-melee",),
            ("arms-mechsuit-melee-2", "arms-beast-energy-1"),
        ),
    ),
    ("beast_pack", "lumenyx", ("regrowth", "spined"), "all_in", ()),
    ("heavy_hitter", "trivex", ("swift",), "ace_finisher", ()),
    ("mechsuit_lesson", "cinderwyrm", ("howler",), "medic_keystone", ()),
)


def sample_scenarios(catalog) -> list[tuple[str, battle.Battle]]:
    out = []
    for mech, kaiju, traits, policy, spares in SAMPLES:
        label = f"{mech} v {kaiju}" + (f" +{'+'.join(traits)}" if traits else "") + f" ({policy})"
        out.append((label, battle.catalog_battle(catalog, mech, kaiju, traits, policy, spares)))
    return out


ENGINES = Engines(
    scenarios=sample_scenarios,
    reference=reference.play,
    vector=vector.play,
    metrics=reference.metrics,
    batch_key=battle.batch_key,
    reference_version=reference.ENGINE_VERSION,
    vector_version=vector.ENGINE_VERSION,
)

GAME = Game(
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
