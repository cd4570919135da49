"""ALPHASIDE (004) rules parameters: every number of the dice, the Timeline, movement,
damage and statuses, declared once with its meaning, the rulebook heading it is read
from and its tuning range; the values come from ``catalogs/alphaside/rules.toml``.

The rulebook (a "How to play" page) has no numbered sections; ``section`` names its
heading (``Dice, Accuracy & Crits``, ``The Timeline``). Numbers it leaves open (the
Dash, Energize, the board between the Bases) are ``provenance = "assumed"`` in
rules.toml and listed in ``catalogs/alphaside/ASSUMPTIONS.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sims.core.params import param

# Readings switched by a rules parameter (catalogs/alphaside/readings.toml)
DAMAGE_X = ("after_shields", "before_shields")  # whether Shields meet Damage+X
ADVANCE = ("before", "either")  # when the free Advance is taken: before the action, or either
PUSH_END = ("collision", "stop")  # a Push cut short by the track's end: a collision, or a stop


@dataclass(frozen=True)
class Parameters:
    """Every tunable number of the ruleset; values come from ``rules.toml``."""

    # -- Dice, Accuracy & Crits
    die: int = param("sides of an attack die", "Dice, Accuracy & Crits", low=4, high=20)
    hit_on: int = param("least die + Accuracy that hits", "Dice, Accuracy & Crits", low=2, high=20)
    miss_face: int = param(
        "face that always misses (a 1), 0 for none", "Dice, Accuracy & Crits", low=0, high=1
    )
    crit_from: int = param(
        "least face that is a critical hit (it always hits)",
        "Dice, Accuracy & Crits",
        low=2,
        high=20,
    )
    # -- Damage, Shields & defeat
    defeat_delay: int = param(
        "Timeline spaces a defeated unit's token moves", "Damage, Shields & defeat", low=0, high=10
    )
    damage_x: str = param(
        "whether Damage+X is added after Shields (they never block it) or to the hits "
        "before Shields subtract (they block it too); either way only with a hit rolled",
        "Damage, Shields & defeat",
        choices=DAMAGE_X,
    )
    # -- Status effects
    fracture_at: int = param(
        "combat damage from one attack that triggers Fracture", "Status effects", low=1, high=10
    )
    fracture_damage: int = param("damage Fracture adds", "Status effects", low=0, high=10)
    # -- Push & Pull
    collision_damage: int = param(
        "damage to everyone in a collision (Shields apply)", "Push & Pull", low=0, high=6
    )
    push_end: str = param(
        "what a Push cut short by the range track's end (a Base) does: a collision "
        "(the end is terrain) or a stop without damage (a Base is no terrain, unit or "
        "Garrison)",
        "Push & Pull",
        choices=PUSH_END,
    )
    # -- The Timeline / Goal of the game
    spaces: int = param("Timeline spaces in a Phase", "The Timeline", low=4, high=20)
    phases: int = param("Phases in a game", "Goal of the game", low=1, high=4)
    # -- Squad & Tactics deck
    tactics_deck: int = param(
        "Tactics cards in a deck for a 2-Phase game", "Squad & Tactics deck", low=0, high=20
    )
    tactics_per_phase: int = param(
        "Tactics cards a deck adds per extra Phase", "Squad & Tactics deck", low=0, high=6
    )
    tactics_draw: int = param(
        "Tactics cards drawn at the start and after each Phase but the last",
        "Squad & Tactics deck",
        low=0,
        high=6,
    )
    # -- Movement
    advance_base: int = param(
        "hexes of an Advance before Speed (3 + Speed)", "Movement", low=0, high=10
    )
    engaged_penalty: int = param(
        "hexes a move that starts Engaged loses", "Movement", low=0, high=3
    )
    advance: str = param(
        "when a unit takes its Advance: before its primary action, or either (after an "
        "attack when its policy's weapon weighs more from where it stands)",
        "Activating a unit",
        choices=ADVANCE,
    )
    dash_hexes: int = param("hexes of a Dash (Speed never adds)", "Movement", low=0, high=10)
    dash_tl: int = param("TL cost of a Dash", "Activating a unit", low=1, high=10)
    energize_tl: int = param("TL cost of Energize", "Activating a unit", low=1, high=10)
    energize_gain: int = param("Energy an Energize gives", "Activating a unit", low=0, high=5)
    board_length: int = param(
        "hexes between the two Bases on the range track", "Movement", low=2, high=40
    )
