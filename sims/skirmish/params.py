"""Mecha Skirmish (003) rules parameters: every tunable number, die and named entry of
the ruleset, declared once with its meaning, rulebook section and tuning range; the
values come from ``catalogs/skirmish/rules.toml`` (``catalog.load_catalog``).

This module sits below both ``catalog.py`` (which reads the values and checks the
catalog against them) and ``rules.py`` (which computes with them), so neither imports
the other to reach the parameters. It also holds the two lookups that are nothing but
parameter reading, used by every legality check: :meth:`Parameters.class_cap` and
:meth:`Parameters.within_overload` (003 B3, B4).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from sims.core.params import param

_SIMPLE_DICE = re.compile(r"\s*(\d*)d(\d+)\s*(?:([+-])\s*(\d+))?\s*")
_ID = re.compile(r"[a-z][a-z0-9_]*")


@functools.cache  # pure in its argument; the engines parse the same few expressions
def simple_dice(expr: str) -> tuple[int, int, int]:
    """``NdS+C`` as (N, S, C): the one shape the battle engines roll (003 F6 weapons,
    and the dice parameters below)."""
    m = _SIMPLE_DICE.fullmatch(expr)
    if not m or int(m.group(2)) < 1:
        raise ValueError(f"{expr!r} is not of the form NdS or NdS+C")
    n = int(m.group(1) or 1)
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return n, int(m.group(2)), bonus


class _OneDiceExpression(tuple):
    """``choices`` of a parameter holding one dice expression ``NdS`` or ``NdS+C``.

    ``sims.core.params`` declares a parameter as an integer range, a list of choices or a
    list of dice; a single die is none of these, so it is declared with choices whose
    membership test is "an expression :func:`simple_dice` reads" (the tuple's one entry
    is what ``describe`` shows as the tuning range)."""

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, str):
            return False
        try:
            simple_dice(value)
        except ValueError:
            return False
        return True


class _CatalogId(tuple):
    """``choices`` of a parameter naming a catalog entry: any lower-case id here;
    ``catalog.load_catalog`` checks that the entry exists and fits."""

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and _ID.fullmatch(value) is not None


DICE = _OneDiceExpression(("the dice expressions NdS or NdS+C",))
KIT_ID = _CatalogId(("the kit ids of kits.toml",))
MAP_ID = _CatalogId(("track, or a map id of catalogs/skirmish/maps",))
# 003 H5 "that obstacle lies between attacker and target": the readings of "between"
# (rules.obstacle_between)
COVER_BETWEEN = ("nearer", "line")
# 003 H5 "An attacker at least one level above the target gets 1[+]": every attack, or
# only ranged ones (the high-ground line sits in the cover rules melee ignores)
HIGH_GROUND_ATTACKS = ("all", "ranged")


@dataclass(frozen=True)
class Parameters:
    """Every tunable number of the ruleset; values come from ``rules.toml``."""

    team_cap: int = param("Team Cap: the three fielded mechs' Weight", "B3", low=100, high=200)
    light_cap: int = param("class cap of a Light mech's Weight", "B3", low=20, high=60)
    medium_cap: int = param("class cap of a Medium mech's Weight", "B3", low=30, high=80)
    heavy_cap: int = param("class cap of a Heavy mech's Weight", "B3", low=40, high=100)
    overload_step: int = param("Weight over cap per -1 Speed/-1 Evasion", "B4", low=1, high=10)
    overload_max: int = param("most Weight a mech may exceed its cap by", "B4", low=0, high=20)
    copy_limit: int = param("copies of any part across a roster", "B", low=1, high=4)
    roster_size: int = param("mechs in a roster", "B", low=3, high=6)
    fielded: int = param("mechs fielded in a game", "B", low=1, high=4)
    crit_margin: int = param("penetration over Armor needed for a crit", "F5", low=2, high=6)
    glance_damage: str = param("damage of a glance (below Armor)", "F5", choices=("none", "half"))
    nat20_pen: int = param("penetration bonus of a natural-20 hit", "F Hit", low=0, high=3)
    brace_armor: int = param("Armor bonus while Braced", "E Brace", low=0, high=3)
    long_range_percent: int = param("long range as % of Range", "F Declare", low=100, high=300)
    long_range_dice: int = param("[-] dice at long range", "F Declare", low=0, high=3)
    hard_cover_dice: int = param("[-] dice for hard cover", "H5", low=0, high=4)
    high_ground_dice: int = param(
        "[+] dice for an attacker at least one level above", "H5", low=0, high=3
    )
    soft_cover_dice: int = param("[-] dice for soft cover", "H5", low=0, high=4)
    high_ground_attacks: str = param(
        "which attacks get the high-ground [+]: all (ranged and melee) or ranged (as cover, "
        "which melee ignores, F11)",
        "H5",
        choices=HIGH_GROUND_ATTACKS,
    )
    cover_between: str = param(
        "which obstacle next to the target 'lies between attacker and target' for hard "
        "cover: nearer (any such neighbour closer to the attacker than the target) or line "
        "(only the hex of the drawn hex line next to the target)",
        "H5",
        choices=COVER_BETWEEN,
    )
    engaged_dice: int = param("[-] dice on ranged attacks while Engaged", "E", low=0, high=3)
    heavy_dice: int = param("[-] dice for a Heavy weapon after moving", "B tags", low=0, high=3)
    reaction_dice: int = param("[-] dice on reaction attacks", "E6", low=0, high=3)
    aimed_dice: int = param("[-] dice on an Aimed Shot", "E", low=0, high=3)
    bond_dice: int = param("[+] dice for a bonded pair within range", "D4", low=0, high=3)
    bond_range: int = param("hexes within which bonded mechs help", "D4", low=0, high=6)
    lock_dice: int = param("[+] dice against a Locked target", "E Lock On", low=0, high=3)
    prone_evasion: int = param("Evasion lost while Prone", "F7", low=0, high=10)
    charge_hexes_per_die: int = param("hexes moved per Charge [+]", "F11.3", low=1, high=6)
    charge_max_dice: int = param("most [+] from a Charge", "F11.3", low=0, high=4)
    barrage_heat: int = param("extra Heat of a Barrage", "E", low=0, high=5)
    charge_heat: int = param("Heat of a Charge", "F11.3", low=0, high=5)
    jump_heat: int = param("Heat of an activation that jumps", "G", low=0, high=5)
    jump_climb: int = param(
        "levels a jumping mech may climb in one step on a map (on foot: "
        "terrain.toml's climb max_levels)",
        "G",
        low=1,
        high=4,
    )
    overcharge_heat: tuple[str, ...] = param(
        "Heat of the 1st, 2nd, 3rd and later Overcharge", "G3", dice_list=True
    )
    round_cap: int = param("rounds in a game", "I", low=3, high=12)
    board_length: int = param("hexes along the long axis", "H", low=10, high=60)
    board_depth: int = param("hexes along the short axis", "H", low=10, high=40)
    deploy_rows: int = param("deployment rows at each short end", "H", low=1, high=6)
    zones: int = param("zones on a map", "H", low=0, high=5)
    board: str = param(
        "the board battles are played on: a map id of maps/, or track (the "
        "one-dimensional range track: no terrain, no zones)",
        "H",
        choices=MAP_ID,
    )
    fall_damage: str = param(
        "damage a fall (a push over a drop of 2+ levels) deals the Legs, ignoring Armor",
        "H3",
        choices=DICE,
    )
    zone_points: int = param("points per zone held per round", "I4", low=0, high=5)
    kill_points: int = param("points per enemy mech destroyed", "I4", low=0, high=10)
    soft_cover_percent: int = param("% of shots whose target has soft cover", "H5", low=0, high=100)
    hard_cover_percent: int = param("% of shots whose target has hard cover", "H5", low=0, high=100)
    legs_lost_speed: int = param("Speed left once the Legs are destroyed", "F7", low=0, high=6)
    kick_fall_below: int = param(
        "a missed kick falls Prone below this d20+Piloting", "F11.1", low=0, high=21
    )
    shield_melee_dice: int = param(
        "[-] on melee attacks at an intact Shield arm", "F11.6", low=0, high=3
    )
    shield_punch_pen: int = param("Pen bonus of a punch from a Shield arm", "F11.1", low=0, high=3)
    grapple_light: int = param(
        "class bonus of a Light mech in a grapple contest", "F11.5", low=0, high=5
    )
    grapple_medium: int = param(
        "class bonus of a Medium mech in a grapple contest", "F11.5", low=0, high=5
    )
    grapple_heavy: int = param(
        "class bonus of a Heavy mech in a grapple contest", "F11.5", low=0, high=5
    )
    pulse_heat: str = param("Heat a Pulse hit adds to its target", "G", choices=DICE)
    charge_self_damage: str = param(
        "damage the charger takes to its Legs, ignoring Armor", "F11.3", choices=DICE
    )
    charge_wall_damage: str = param(
        "damage to the struck part when a Charge push is blocked", "F11.3", choices=DICE
    )
    vent_heat: str = param("Heat a Vent clears", "E Vent", choices=DICE)
    initiative_dice: str = param("initiative roll before the highest Initiative", "I", choices=DICE)
    standard_medium: str = param(
        "the kit that is the rulebook's standard Medium (bands, weapon ranking)",
        "F4",
        choices=KIT_ID,
    )

    def class_cap(self, klass: str) -> int:
        """003 B3: each class has its own Weight cap."""
        return {"light": self.light_cap, "medium": self.medium_cap, "heavy": self.heavy_cap}[klass]

    def within_overload(self, over: Any) -> Any:
        """003 B4: a mech may exceed its class cap by at most ``overload_max`` Weight: the
        one legality test of a mech's Weight, given its Weight over the class cap (an int
        or an array of them)."""
        return over <= self.overload_max
