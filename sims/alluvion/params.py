"""Alluvion Knights (001) rules parameters: every number of the dice pools, the attack,
damage, foot soldiers, morale and batteries, declared once with its meaning, the
rulebook heading it is read from and its tuning range; the values come from
``catalogs/alluvion/rules.toml`` (``catalog.load_catalog``).

The rulebook has no numbered sections; ``section`` names the heading (``The Systems``,
``Damage``). Numbers the text leaves open (pilot hit points, the round cap, the range
battles start at) are ``provenance = "assumed"`` in rules.toml and listed in
``catalogs/alluvion/ASSUMPTIONS.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sims.core.params import param

SWITCH = ("on", "off")
SYSTEM_LOSS = ("roll", "choice")  # Damage: roll 1d6 over numbered systems, or choose
SMART_DEFENSE = ("ecm", "all")  # which Defense dice may be set against a Smart weapon
# Skill, Wild Dice: a Skill die only once the pool has run out ("Take from this pool if
# you run out"), or in place of any pool's die whenever it is higher ("assigned in lieu
# of dice from any pool")
SKILL_DICE_USE = ("fill", "any")
INITIATIVE_TIE = ("sum", "roll")  # Initiative: equal Aces go to the larger sum, or a d2
# Damage: Direct Hits count toward "every 2" over the battle, or within one attack
DIRECT_HITS_CARRY = ("battle", "attack")


@dataclass(frozen=True)
class Parameters:
    """Every tunable number of the ruleset; values come from ``rules.toml``."""

    # -- Stats: the Skill (Wild) dice every Knight rolls each round
    skill_dice: int = param("Skill dice rolled every round", "Stats", low=0, high=4)
    skill_die: int = param("sides of a Skill die", "Stats", low=2, high=12)
    skill_dice_use: str = param(
        "when a Skill die is assigned: fill (only once the pool an action draws from is "
        "spent) or any (in place of any pool's die whenever it is higher)",
        "Skill, Wild Dice",
        choices=SKILL_DICE_USE,
    )
    initiative_tie: str = param(
        "equal Aces: the larger sum of Skill dice goes first (then a d2), or a d2 at once",
        "Initiative",
        choices=INITIATIVE_TIE,
    )
    # -- The Systems
    systems_per_kind: int = param(
        "systems of one kind an Armor may carry", "The Systems", low=1, high=4
    )
    defense_first_dice: int = param(
        "Defense dice the first Resistive or ECM system adds", "The Systems", low=0, high=4
    )
    defense_later_dice: int = param(
        "Defense dice each later defensive system adds", "The Systems", low=0, high=4
    )
    defense_die: int = param("sides of a Defense die", "The Systems", low=2, high=12)
    weapon_first_die: int = param(
        "sides of the Attack die the first weapon system adds", "The Systems", low=2, high=12
    )
    weapon_later_die: int = param(
        "sides of the Attack die each later weapon system adds", "The Systems", low=2, high=12
    )
    move_die: int = param(
        "sides of the Move die each movement system adds", "The Systems", low=2, high=12
    )
    spot_die: int = param(
        "sides of the Spot die each surveillance system adds", "The Systems", low=2, high=12
    )
    mobile_die: int = param(
        "sides of the Move die a frame with neither Direct Fire nor Smart systems gains (0: none)",
        "The Systems",
        low=0,
        high=12,
    )
    rockets_max: int = param("single-shot rockets an Armor may carry", "The Systems", low=0, high=4)
    rocket_die: int = param(
        "sides of the Attack die a rocket adds when used", "The Systems", low=2, high=12
    )
    smart_defense: str = param(
        "Defense dice that may meet a Smart weapon: those of ECM systems only, or all",
        "The Systems",
        choices=SMART_DEFENSE,
    )
    # -- General Combat Info
    hex_meters: int = param("meters per hex", "General Combat Info", low=1, high=10)
    direct_fire_range: int = param(
        "direct fire range in hexes", "General Combat Info", low=1, high=60
    )
    opportunity_die: int = param(
        "sides of the Opportunity die a ranged attack beyond "
        "direct fire range adds to the defender's roll",
        "General Combat Info",
        low=0,
        high=12,
    )
    # -- Actions
    actions: int = param("actions per Knight per round", "Actions", low=1, high=4)
    # -- Knowing When Attacks Hit / Damage
    hit_at: int = param(
        "Attack + Spot - Defense needed to hit", "Knowing When Attacks Hit", low=-3, high=5
    )
    spot_adds_to_margin: str = param(
        "whether the Spot die counts in the margin (the number "
        "of damage dice) as it does in the hit test",
        "Damage",
        choices=SWITCH,
    )
    damage_die: int = param("sides of a damage die", "Damage", low=2, high=12)
    close_direct_from: int = param(
        "least damage face that is a Direct Hit, close quarters", "Damage", low=1, high=12
    )
    exposed_direct_from: int = param(
        "the same, ranged non-smart against an exposed target", "Damage", low=1, high=12
    )
    cover_direct_from: int = param(
        "the same, ranged non-smart against a target in cover", "Damage", low=1, high=12
    )
    smart_direct_from: int = param(
        "the same, smart weapons (they ignore cover)", "Damage", low=1, high=12
    )
    hits_per_system: int = param("Direct Hits that destroy one system", "Damage", low=1, high=6)
    direct_hits_carry: str = param(
        "Direct Hits toward a destroyed system: accumulate over the battle, or count "
        "within one attack (an odd one is lost)",
        "Damage",
        choices=DIRECT_HITS_CARRY,
    )
    system_loss: str = param(
        "how a destroyed system is picked: roll 1d6 over the numbered "
        "systems (a 6 hits the pilot), or the attacker's choice",
        "Damage",
        choices=SYSTEM_LOSS,
    )
    loss_die: int = param(
        "sides of the die rolled for a destroyed system", "Damage", low=2, high=12
    )
    pilot_face: int = param(
        "face of that die on which the pilot takes the Direct Hit", "Damage", low=1, high=12
    )
    pilot_hp: int = param("pilot hit points (each pilot hit takes one)", "Damage", low=1, high=10)
    # -- Foot Soldiers
    squad_size: int = param("foot soldiers in a squad", "Foot Soldiers", low=1, high=12)
    squad_die: int = param("sides of a squad's one Attack die", "Foot Soldiers", low=2, high=12)
    squad_initiative_die: int = param(
        "die a side rolls (+ Morale) for infantry initiative", "Foot Soldiers", low=2, high=12
    )
    morale_dice: int = param(
        "dice rolled for a Morale check (rout when the sum is greater than the rating)",
        "Morale",
        low=1,
        high=4,
    )
    morale_die: int = param("sides of a Morale die", "Morale", low=2, high=12)
    # -- Batteries
    battery_die: int = param(
        "die a depleted Armor rolls after every turn", "Batteries", low=2, high=20
    )
    shutdown_faces: int = param(
        "faces of that die on which it shuts down", "Batteries", low=0, high=19
    )
    # -- the battle (the rulebook has no victory rules)
    start_range: int = param(
        "hexes between the sides when a battle starts", "Battle", low=1, high=60
    )
    round_cap: int = param("rounds before an undecided battle is a draw", "Battle", low=1, high=30)
