"""Mech Lab Partners (000) rules parameters: every number of the Battle and the decks,
declared once with its meaning, rulebook passage and tuning range; the values come from
``catalogs/labpartners/rules.toml`` (``catalog.load_catalog``).

The rulebook has no numbered sections; ``section`` names the heading a number is read
from (``Battle/Torso``, ``Assembly/lesson``). Numbers the text omits (part hit points,
what ends a battle) are ``provenance = "assumed"`` in rules.toml and listed in
``catalogs/labpartners/ASSUMPTIONS.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sims.core.params import param

REBUILD_SOURCES = ("spares", "none")
MODES = ("standalone", "campaign")
# Battle/kaiju: "its attack lands on the first intact part down that list (a two-attack
# kaiju hits the two most-intact parts)": the parenthesis read as the first two intact
# parts down the list (priority) or the two with the most hit points left (most_hp)
KAIJU_TARGETS = ("priority", "most_hp")
# Battle/damage: "min 1 if resisted": for an Arm with damage left before the Type step
# (positive), or for every resisted working Arm, even one already at 0 (always)
RESISTED_FLOORS = ("positive", "always")


@dataclass(frozen=True)
class Parameters:
    """Every tunable number of the ruleset; values come from ``rules.toml``."""

    # -- the decks (Appendix: The Full Spread)
    power_tiers: int = param(
        "Arm Power values 1..N in the full spread", "Cards/Arms", low=1, high=5
    )
    # -- the lesson (Assembly)
    lesson_threshold: int = param(
        "parts of the lesson Form for the lesson to take", "Assembly/lesson", low=1, high=5
    )
    lesson_bonus: int = param(
        "bonus of each lesson-matched part once it takes", "Assembly/lesson", low=0, high=3
    )
    # -- part hit points (the rulebook names Torso hit points and Vehicle = Durability)
    legs_hp: int = param("hit points of a Legs part", "Battle/parts", low=1, high=12)
    torso_hp: int = param("hit points of a Torso part", "Battle/Torso", low=1, high=12)
    head_hp: int = param("hit points of a Head part", "Battle/parts", low=1, high=12)
    arm_hp: int = param("hit points of an Arm part", "Battle/parts", low=1, high=12)
    vehicle_hp: int = param(
        "extra hit points of a Vehicle (Durability) part", "Cards/Form", low=0, high=6
    )
    # -- Battle
    torso_armor: int = param(
        "Armor an intact Torso soaks off every attack", "Battle/Torso", low=0, high=6
    )
    no_torso_factor: int = param(
        "incoming damage multiplier with no Torso", "Battle/Torso", low=1, high=4
    )
    base_speed: int = param("Mech Speed with Legs", "Battle/initiative", low=0, high=6)
    beast_speed: int = param("Mech Speed added by Beast Legs", "Battle/initiative", low=0, high=3)
    base_accuracy: int = param("Accuracy of a Head", "Battle/crits", low=0, high=20)
    clockwork_accuracy: int = param(
        "Accuracy added by a Clockwork Head", "Battle/crits", low=0, high=10
    )
    crit_die: int = param(
        "sides of the crit die (crit at or under Accuracy)", "Battle/crits", low=2, high=100
    )
    crit_factor: int = param("damage multiplier of a crit", "Battle/crits", low=1, high=4)
    no_head_damage: int = param("damage each Arm loses with no Head", "Battle/gaps", low=0, high=3)
    form_step: int = param(
        "damage added (weak) or taken (resisted) by Form", "Battle/damage", low=0, high=3
    )
    type_factor: int = param(
        "damage multiplied (weak) or divided (resisted) by Type", "Battle/damage", low=1, high=4
    )
    resisted_min: int = param("least damage of a resisted Arm", "Battle/damage", low=0, high=3)
    resisted_floor: str = param(
        "which resisted Arms the least damage holds for: those with damage left before the "
        "Type step (positive), or every working Arm, even one already at 0 (always)",
        "Battle/damage",
        choices=RESISTED_FLOORS,
    )
    combo_bonus: int = param(
        "damage added once when both Arms share a Power tier", "Battle/damage", low=0, high=3
    )
    punch_damage: int = param("damage of the wimpy punch", "Battle/wimpy punch", low=0, high=3)
    punch_die: int = param(
        "die rolled for the punch with no Head", "Battle/wimpy punch", low=2, high=20
    )
    punch_miss_faces: int = param(
        "faces of that die on which the punch misses", "Battle/wimpy punch", low=0, high=19
    )
    kaiju_targets: str = param(
        "which parts a kaiju of two or more attacks hits: the first intact ones down its "
        "priority list (priority) or those with the most hit points left (most_hp)",
        "Battle/kaiju",
        choices=KAIJU_TARGETS,
    )
    battle_rounds: int = param(
        "rounds before the kaiju reaches the city (a loss)", "Battle/end", low=1, high=20
    )
    rebuild_source: str = param(
        "where a rebuild's card comes from: the spare cards of "
        "the scenario (hands, then the pile or market), or none",
        "Battle/rebuild",
        choices=REBUILD_SOURCES,
    )
    spares_per_part: int = param(
        "spare cards per Part-Type a battle may rebuild from", "Battle/rebuild", low=0, high=8
    )
    # -- Assembly (the turn and the end of round are read from the rest of the text)
    hand_size: int = param("body cards a hand is refilled to", "Assembly/turn", low=1, high=10)
    market_size: int = param("face-up Arms in the market", "Assembly/market", low=0, high=8)
    body_plays: int = param(
        "body cards a player may play on a turn", "Assembly/turn", low=0, high=5
    )
    arm_takes: int = param(
        "Arms a player may take from the market on a turn", "Assembly/turn", low=0, high=3
    )
    extra_draws: int = param(
        "body cards the Ace's Assembly use draws", "Specialties", low=0, high=5
    )
