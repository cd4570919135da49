"""Alluvion Knights (001) rules: every formula once, on Python ints and NumPy arrays alike.

The exact tables (``exact.py``), the loadout enumeration (``builds.py``), the claims,
``explain`` and both engines call these; none restates a rule. Pools are kept as tuples
of die sides (``(6, 8, 8)`` is 1d6+2d8) in a fixed order: a pool's dice are rolled in
that order by both engines, so a scripted battle reads the same faces in each.

Readings where the rulebook is silent are cited ``# reading`` and listed in
``catalogs/alluvion/ASSUMPTIONS.md``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

RULES_VERSION = "alluvion-rules-1"

# The Systems: the seven kinds, in the order loadouts count them and codes list them.
KINDS = ("resistive", "ecm", "movement", "surveillance", "hand_to_hand", "direct_fire", "smart")
FAMILY = {
    "resistive": "defense",
    "ecm": "defense",
    "movement": "movement",
    "surveillance": "surveillance",
    "hand_to_hand": "weapon",
    "direct_fire": "weapon",
    "smart": "weapon",
}
RESISTIVE, ECM, MOVEMENT, SURVEILLANCE, HAND_TO_HAND, DIRECT_FIRE, SMART = range(7)
WEAPONS = (HAND_TO_HAND, DIRECT_FIRE, SMART)
DEFENSES = (RESISTIVE, ECM)
CODES = "remshdx"  # the catalog's code letters in KINDS order (systems.toml)
MAX_ARMORS = 2  # Armors a side fields in the engines (duels and small squad fights)

# Damage: the four cases of a hit, their codes in engine arrays and tables.
CASES = ("close", "exposed", "cover", "smart")
CLOSE, EXPOSED, COVER, SMART_CASE = range(4)


# ---- loadouts ----------------------------------------------------------------------------


def loadout_problem(counts: tuple[int, ...], rockets: int, slots: int, params: Any) -> str | None:
    """Why a loadout cannot be fielded, in one phrase naming the broken limit, or None.
    The Systems: 0-2 of each kind, up to 2 rockets; the chassis's slots; and at least one
    system (an Armor is inoperable once all its systems are destroyed)."""
    for kind, n in zip(KINDS, counts, strict=True):
        if n > params.systems_per_kind:
            return f"{n} {kind} systems: at most {params.systems_per_kind} of a kind (The Systems)"
    total = sum(counts)
    if total > slots:
        return f"{total} systems on a chassis of {slots} slots"
    if total == 0:
        return "no systems: an Armor with none is inoperable (Damage)"
    if rockets > params.rockets_max:
        return f"{rockets} rockets: at most {params.rockets_max} single-shot rockets"
    return None


def loadout_code(chassis: str, counts: tuple[int, ...], rockets: int) -> str:
    """``knight:rsdd+1r``: the chassis, a letter per system (KINDS order), rockets."""
    letters = "".join(CODES[k] * n for k, n in enumerate(counts))
    return f"{chassis}:{letters}" + (f"+{rockets}r" if rockets else "")


# ---- pools (The Systems) -------------------------------------------------------------------


def attack_dice(counts: tuple[int, ...], params: Any) -> tuple[int, ...]:
    """The Attack pool of the weapon systems: the first weapon system of any kind adds a
    d6, each later one a d8 (DESIGN reading: "A 2nd Weapons System of any type")."""
    w = sum(counts[k] for k in WEAPONS)
    return (params.weapon_first_die,) * min(w, 1) + (params.weapon_later_die,) * max(w - 1, 0)


def _defense_family(n: int, params: Any) -> tuple[int, ...]:
    if n == 0:
        return ()
    return (params.defense_die,) * (params.defense_first_dice + params.defense_later_dice * (n - 1))


def defense_dice(counts: tuple[int, ...], params: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Defense pool as (ECM dice, Resistive dice): the first defensive system of either
    kind adds 2d6, each later one 1d6. # reading: an Armor carrying both kinds counts its
    ECM systems first, so its ECM dice are the pool an all-ECM Armor of that many systems
    would have; the Resistive systems add the rest."""
    ecm = _defense_family(counts[ECM], params)
    both = _defense_family(counts[ECM] + counts[RESISTIVE], params)
    return ecm, both[len(ecm) :]


def move_dice(counts: tuple[int, ...], params: Any) -> tuple[int, ...]:
    """Move pool: a d6 per movement system, and the 1d8 of a mobile frame with neither
    Direct Fire nor Smart systems (it is no system and cannot be destroyed)."""
    mobile = params.mobile_die and not (counts[DIRECT_FIRE] or counts[SMART])
    return (params.move_die,) * counts[MOVEMENT] + ((params.mobile_die,) if mobile else ())


def spot_dice(counts: tuple[int, ...], params: Any) -> tuple[int, ...]:
    return (params.spot_die,) * counts[SURVEILLANCE]


def skill_dice(params: Any) -> tuple[int, ...]:
    """Skill, Wild Dice: rolled every round; any pool may take from them."""
    return (params.skill_die,) * params.skill_dice


def skill_in_every_pool(params: Any) -> bool:
    """Skill, Wild Dice (# reading ``skill_dice_use``): with ``any`` ("They can be
    assigned in lieu of dice from any pool") the unspent Skill dice count among the dice
    of every pool an assignment chooses from (the defender's too); with ``fill`` ("Take
    from this pool if you run out") only once that pool is spent."""
    return params.skill_dice_use == "any"


def skill_replaces(pool_face: Any, skill_face: Any, params: Any) -> Any:
    """Whether an action that spends a pool's highest die (``pool_face``, 0 when the pool
    is spent) spends the highest Skill die (``skill_face``, 0 none left) instead:
    ``fill`` only when the pool is spent; ``any`` whenever the Skill die is higher (at
    equal faces the pool's own die, keeping the Skill die for later)."""
    if skill_in_every_pool(params):
        return skill_face > pool_face
    return (pool_face == 0) & (skill_face > 0)


def rocket_dice(rockets: int, params: Any) -> tuple[int, ...]:
    return (params.rocket_die,) * rockets


def pool_text(sides: tuple[int, ...]) -> str:
    """A pool written like ``2d6+1d8`` (sides ascending); the empty pool is ``0``."""
    if not sides:
        return "0"
    return "+".join(f"{n}d{s}" for s, n in sorted(Counter(sides).items()))


def parse_pool(text: str) -> tuple[int, ...]:
    """``2d6+1d8`` -> (6, 6, 8); ``0`` -> ()."""
    if text.strip() == "0":
        return ()
    out: list[int] = []
    for term in text.split("+"):
        n, _, s = term.strip().partition("d")
        out += [int(s)] * int(n or 1)
    return tuple(sorted(out))


def attack_kinds(counts: tuple[int, ...]) -> tuple[str, ...]:
    """The attacks an Armor can make with its weapon systems (``close`` with a
    Hand-to-Hand system, ``ranged`` with Direct Fire, ``smart`` with Smart)."""
    names = {HAND_TO_HAND: "close", DIRECT_FIRE: "ranged", SMART: "smart"}
    return tuple(names[k] for k in WEAPONS if counts[k])


# ---- the attack (Knowing When Attacks Hit, Damage) ----------------------------------------


def is_hit(attack: Any, spot: Any, defense: Any, params: Any) -> Any:
    """Attack Value + Spot Value - Defense Value >= 1 hits."""
    return attack + spot - defense >= params.hit_at


def margin(attack: Any, spot: Any, defense: Any, params: Any) -> Any:
    """The number of damage d6 a hit rolls: the difference of Attack and Defense (DESIGN
    reading: Spot counts in it as in the hit test, switch ``spot_adds_to_margin``). A hit
    rolls at least one die. 0 on a miss."""
    with_spot = attack + spot - defense
    value = with_spot if params.spot_adds_to_margin == "on" else attack - defense
    hit = with_spot >= params.hit_at
    return (
        np.where(hit, np.maximum(value, 1), 0)
        if isinstance(hit, np.ndarray)
        else (max(value, 1) if hit else 0)
    )


def direct_from(case: Any, params: Any) -> Any:
    """The least damage face that is a Direct Hit in each case (Damage): close quarters
    4-6, ranged non-smart against exposed 5-6 and in cover 6, smart 4-6."""
    table = np.array(
        [
            params.close_direct_from,
            params.exposed_direct_from,
            params.cover_direct_from,
            params.smart_direct_from,
        ]
    )
    return table[case] if isinstance(case, np.ndarray) else int(table[case])


def direct_hit_chance(case: int, params: Any) -> tuple[int, int]:
    """(faces that are Direct Hits, sides of the damage die) for one damage die."""
    return max(params.damage_die - direct_from(case, params) + 1, 0), params.damage_die


def attack_case(attack: str, target_in_cover: Any, close: Any = False) -> Any:
    """The damage case of an attack: ``close`` quarters (a hand-to-hand attack),
    ``smart``, or a ranged non-smart attack (``ranged``, a rocket) against an ``exposed``
    target or one in ``cover``. Close and smart attacks ignore cover."""
    if attack == "close":
        return CLOSE
    if attack == "smart":
        return SMART_CASE
    return (
        np.where(target_in_cover, COVER, EXPOSED)
        if isinstance(target_in_cover, np.ndarray)
        else (COVER if target_in_cover else EXPOSED)
    )


def beyond_range(distance: Any, params: Any) -> Any:
    """A ranged attack beyond direct fire range adds 1d8 Opportunity to the defense."""
    return distance > params.direct_fire_range


# ---- systems destroyed, the pilot (Damage) -------------------------------------------------


def systems_lost(direct_hits_before: Any, direct_hits_now: Any, params: Any) -> Any:
    """Systems destroyed by one attack's hits that take an Armor's Direct Hits from
    ``before`` to ``now``: one for every 2 Direct Hits (# reading ``direct_hits_carry``:
    with ``battle`` they accumulate over the battle, so an odd one waits for the next;
    with ``attack`` they count within the attack and an odd one is lost)."""
    per = params.hits_per_system
    if params.direct_hits_carry == "attack":
        return (direct_hits_now - direct_hits_before) // per
    return direct_hits_now // per - direct_hits_before // per


def loss_target(face: Any, live: Any, params: Any) -> Any:
    """For ``system_loss = roll``: the loss die's face picks the pilot (on a 6, -1) or the
    live system numbered ``(face - 1) mod live`` (# reading: "assign each installed system
    a number from 1 to 5": the numbers go round the live systems in KINDS order)."""
    pilot = face == params.pilot_face
    pick = (face - 1 - (face > params.pilot_face)) % np.maximum(live, 1)
    if isinstance(pilot, np.ndarray):
        return np.where(pilot, -1, pick)
    return -1 if pilot else int(pick)


def kind_of(live_counts: Any, index: Any) -> Any:
    """The kind (KINDS index) of live system number ``index`` (0-based, KINDS order) given
    the live counts per kind ([..., 7])."""
    cum = np.cumsum(np.asarray(live_counts), axis=-1)
    return (cum <= np.asarray(index)[..., None]).sum(axis=-1)


CHOICE_ORDER = (SMART, DIRECT_FIRE, HAND_TO_HAND, SURVEILLANCE, ECM, RESISTIVE, MOVEMENT)


def chosen_kind(live_counts: Any) -> Any:
    """For ``system_loss = choice``: the attacker destroys the first live kind of
    :data:`CHOICE_ORDER` (# reading: weapons first, then what helps them)."""
    live = np.asarray(live_counts)
    order = np.array(CHOICE_ORDER)
    has = live[..., order] > 0
    return order[np.argmax(has, axis=-1)]


# ---- initiative ------------------------------------------------------------------------


def initiative_first(ace_a: Any, ace_b: Any, sum_a: Any, sum_b: Any, params: Any) -> Any:
    """Initiative: "The side with the highest Ace goes first" (its highest Skill die):
    0 side A, 1 side B, -1 a tie the d2 decides. # reading ``initiative_tie``: equal
    Aces go to the larger sum of Skill dice with ``sum``, straight to the d2 with
    ``roll``."""
    if params.initiative_tie == "sum":
        by_sum = np.where(sum_a > sum_b, 0, np.where(sum_b > sum_a, 1, -1))
    else:
        by_sum = np.full(np.shape(sum_a), -1)
    code = np.where(ace_a > ace_b, 0, np.where(ace_b > ace_a, 1, by_sum))
    return code.item() if code.ndim == 0 else code


# ---- moving, spotting, grappling ------------------------------------------------------------


def hexes_moved(base_move: Any, move_die: Any, params: Any) -> Any:
    """Move: the Armor's movement rating plus the Move (or Skill) die assigned, in
    meters, to whole hexes."""
    return (base_move + move_die) // params.hex_meters


def can_spot(
    surveillance: Any, distance: Any, target_in_cover: Any, reach_range: Any, reach_cover: Any
) -> Any:
    """Whether a spotter with that many surveillance systems reaches the target
    (reach.toml: range 0 is anywhere; cover whether a covered target can be spotted)."""
    in_range = (reach_range == 0) | (distance <= reach_range) | (distance <= 1)
    return in_range & (reach_cover | ~np.asarray(target_in_cover, bool))


def grapples(grapple_die: Any, move_die: Any) -> Any:
    """Grappling: the grappler's Skill die against the target's Move die; >= 1 grapples."""
    return grapple_die - move_die >= 1


def breaks_free(grappled_die: Any, grappler_die: Any) -> Any:
    """Grappling: "The grappled only breaks free if they beat the grappler's roll"."""
    return grappled_die > grappler_die


# ---- foot soldiers, morale, batteries -----------------------------------------------------


def soldiers_fall(die: Any, soldiers: Any) -> Any:
    """Dealing with Infantry: a die dedicated to a squad fells as many soldiers as it
    shows (# reading), no more than are left; they get no cover."""
    return np.minimum(die, soldiers)


def routs(morale_roll: Any, rating: Any) -> Any:
    """Morale: "If the resulting sum is greater than the morale of a side" it routs."""
    return morale_roll > rating


def morale_check_due(lost: Any, fielded: Any, lead_lost: Any) -> Any:
    """Morale: a check when half of a side's Armors are inoperable or its lead is lost."""
    return (2 * lost >= fielded) | lead_lost


def shuts_down(face: Any, params: Any) -> Any:
    """Batteries: a depleted Armor shuts down on a 1 (faces 1..shutdown_faces)."""
    return face <= params.shutdown_faces


# ---- the end of a battle ---------------------------------------------------------------

# Winner codes, in the engines' ``winner`` column: code i is RESULTS[i]; ONGOING while
# the battle goes on.
RESULTS = ("a", "b", "draw")
SIDE_A, SIDE_B, DRAW = range(3)
ONGOING = -1


def winner(beaten_a: Any, beaten_b: Any, at_cap: Any) -> Any:
    """The round's End step (# reading, ASSUMPTIONS.md "The battle" 6): a side is beaten
    when all its Armors are out of the fight (inoperable, pilot down, shut down by
    Batteries) or it routed (Morale: "a rout or surrender"). One side beaten: the other
    wins; both: a draw; neither by the ``round_cap``-th round (``at_cap``): a draw;
    neither before it: ONGOING. A Python int on bools, an int array on arrays."""
    code = np.where(
        beaten_a,
        np.where(beaten_b, DRAW, SIDE_B),
        np.where(beaten_b, SIDE_A, np.where(at_cap, DRAW, ONGOING)),
    )
    return code.item() if code.ndim == 0 else code
