"""Mecha Skirmish rules (003): the parameters object and the pure rule functions.

One rule, one place: every formula the engines and tables use lives here, written
next to the rulebook section it implements. ``exact.py`` builds exact tables from these
functions; the engines (later) call or mirror them and are tested against them.

Silhouette order is fixed by 003 F4: head, right_arm, left_arm, core, back, legs.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from sims.core.dist import Dist
from sims.core.params import param

if TYPE_CHECKING:
    from sims.skirmish.catalog import Mech, Part, Pilot

RULES_VERSION = "skirmish-rules-1"
SILHOUETTE = ("head", "right_arm", "left_arm", "core", "back", "legs")
LOCATION_DIE = 20  # 003 F4: d20 on the silhouette
HIT_DIE = 20  # 003 F Hit: d20
PEN_DIE = 6  # 003 F5: d6 + Pen
PILOT_STATS = ("gunnery", "piloting", "systems", "initiative")
OUTCOMES = ("glance", "full", "crit")


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
    soft_cover_dice: int = param("[-] dice for soft cover", "H5", low=0, high=4)
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
    overcharge_heat: tuple[str, ...] = param(
        "Heat of the 1st, 2nd, 3rd and later Overcharge", "G3", dice_list=True
    )
    round_cap: int = param("rounds in a game", "I", low=3, high=12)
    board_length: int = param("hexes along the long axis", "H", low=10, high=60)
    board_depth: int = param("hexes along the short axis", "H", low=10, high=40)
    deploy_rows: int = param("deployment rows at each short end", "H", low=1, high=6)
    zones: int = param("zones on a map", "H", low=0, high=5)
    zone_points: int = param("points per zone held per round", "I4", low=0, high=5)
    kill_points: int = param("points per enemy mech destroyed", "I4", low=0, high=10)
    soft_cover_percent: int = param("% of shots whose target has soft cover", "H5", low=0, high=100)
    hard_cover_percent: int = param("% of shots whose target has hard cover", "H5", low=0, high=100)
    legs_lost_speed: int = param("Speed left once the Legs are destroyed", "F7", low=0, high=6)
    kick_fall_below: int = param("a missed kick falls Prone below this d20+Piloting", "F11.1",
                                 low=0, high=21)  # fmt: skip
    shield_melee_dice: int = param("[-] on melee attacks at an intact Shield arm", "F11.6",
                                   low=0, high=3)  # fmt: skip
    shield_punch_pen: int = param("Pen bonus of a punch from a Shield arm", "F11.1", low=0, high=3)


# ---- B: weight, caps, overload, copy limits ------------------------------------------


def class_cap(klass: str, params: Parameters) -> int:
    """003 B3: each class has its own Weight cap."""
    return {"light": params.light_cap, "medium": params.medium_cap, "heavy": params.heavy_cap}[
        klass
    ]


def overload_penalty(weight: int, cap: int, params: Parameters) -> int:
    """003 B4: each ``overload_step`` over the cap, or part thereof, costs 1 Speed and
    1 Evasion. Beyond ``overload_max`` over, the mech is illegal (see mech_problems)."""
    over = weight - cap
    return 0 if over <= 0 else math.ceil(over / params.overload_step)


def mech_weight(mech: Mech) -> int:
    """003 B3: the sum of its parts including the chassis; pilots weigh nothing."""
    return sum(p.weight for p in mech.parts)


# ---- C: derived stats ----------------------------------------------------------------


@dataclass(frozen=True)
class MechStats:
    """003 C derived mech stats (card stats plus pilot, minus overload)."""

    klass: str
    weight: int
    cap: int
    overload: int  # Speed and Evasion lost to overload (B4)
    evasion: int
    speed: int
    sensors: int
    e_def: int
    reactor_cap: int
    hull: int
    sizes: tuple[int, ...]  # silhouette order
    bands: tuple[int, ...]  # silhouette order, sums to 20
    armor: tuple[int, ...]  # silhouette order
    durability: tuple[int, ...]  # silhouette order


def silhouette(mech: Mech) -> tuple[Part, ...]:
    """The six parts in 003 F4 silhouette order (the chassis is the core)."""
    return (mech.head, mech.right_arm, mech.left_arm, mech.chassis, mech.back, mech.legs)


def mech_stats(mech: Mech, params: Parameters) -> MechStats:
    """003 C: Evasion, Speed, Sensors, E-Def, Reactor Cap, Hull and the hit table."""
    c, pilot = mech.chassis, mech.pilot
    weight = mech_weight(mech)
    cap = class_cap(c.klass, params)
    penalty = overload_penalty(weight, cap, params)
    sil = silhouette(mech)
    sizes = tuple(p.size for p in sil)
    return MechStats(
        klass=c.klass,
        weight=weight,
        cap=cap,
        overload=penalty,
        evasion=c.evasion + mech.legs.evasion + pilot.piloting - penalty,
        speed=c.speed + mech.legs.speed - penalty,
        sensors=c.sensors + mech.head.sensors + mech.back.sensors,
        e_def=c.e_def + mech.head.e_def + pilot.systems,
        reactor_cap=c.reactor + mech.back.reactor,
        hull=sum(p.durability for p in sil),
        sizes=sizes,
        bands=bands(sizes),
        armor=tuple(p.armor for p in sil),
        durability=tuple(p.durability for p in sil),
    )


def attack_accuracy(pilot: Pilot, weapon: Part, head: Part | None) -> int:
    """003 C: Pilot Gunnery + weapon Acc + Head Acc. Melee rolls Piloting instead of
    Gunnery (F11); a destroyed head (``None``) adds nothing (F7)."""
    stat = pilot.piloting if weapon.is_melee else pilot.gunnery
    return stat + weapon.acc + (head.acc if head is not None else 0)


# ---- F4: location bands --------------------------------------------------------------


def bands(sizes: Sequence[int], total: int = LOCATION_DIE) -> tuple[int, ...]:
    """Scale Sizes to ``total`` bands by largest remainder (003 F4).

    Each part first gets floor(size * total / sum); the bands left over go one each to
    the largest remainders, ties to the larger Size, then to the earlier part in
    silhouette order (DESIGN reading). No minimum: a part may own no band."""
    whole = sum(sizes)
    if whole <= 0 or any(s < 0 for s in sizes):
        raise ValueError(f"sizes must be non-negative with a positive sum, got {sizes}")
    quotas = [Fraction(s * total, whole) for s in sizes]
    out = [math.floor(q) for q in quotas]
    left = total - sum(out)
    order = sorted(range(len(sizes)), key=lambda i: (-(quotas[i] - out[i]), -sizes[i], i))
    for i in order[:left]:
        out[i] += 1
    return tuple(out)


def band_ranges(band_counts: Sequence[int]) -> list[tuple[int, int, int]]:
    """(index, first, last) location-die faces for every part owning a band."""
    rows, first = [], 1
    for i, n in enumerate(band_counts):
        if n > 0:
            rows.append((i, first, first + n - 1))
        first += n
    return rows


def location_of(roll: int, band_counts: Sequence[int]) -> int:
    """Silhouette index struck by a location roll 1..20 (003 F4)."""
    edge = 0
    for i, n in enumerate(band_counts):
        edge += n
        if roll <= edge:
            return i
    raise ValueError(f"location roll {roll} is off the silhouette")


# ---- F3: modifier dice ---------------------------------------------------------------


def net_modifier_dice(plus: int, minus: int) -> int:
    """003 F3: [+] and [-] cancel one for one; the sign of the rest says add or subtract."""
    return plus - minus


@functools.cache  # pure in its arguments; tables ask for the same few many times
def modifier(net: int) -> Dist:
    """003 F3: roll |net| d6, keep the single highest; add it for [+], subtract for [-]."""
    if net == 0:
        return Dist.constant(0)
    best = Dist.die(6).highest(abs(net))
    return best if net > 0 else -best


def modifier_result(rolls: Iterable[int], net: int) -> int:
    """The scalar form of :func:`modifier` for engines that roll the dice themselves."""
    rolls = list(rolls)
    if net == 0:
        return 0
    if len(rolls) != abs(net):
        raise ValueError(f"{abs(net)} modifier dice expected, got {len(rolls)}")
    return max(rolls) if net > 0 else -max(rolls)


# ---- F Declare: range bands, cover and situational modifier dice ---------------------

RANGE_BANDS = ("optimal", "long", "out")
COVERS = ("none", "soft", "hard")


def long_range(weapon_range: int, params: Parameters) -> int:
    """003 F Declare: long range reaches 1.5x Range, rounded down."""
    return weapon_range * params.long_range_percent // 100


def range_band(distance: int, weapon: Part, params: Parameters) -> str:
    """003 F Declare / F11: optimal up to Range, long up to 1.5x at 1[-], else no shot.
    Melee needs adjacency (distance 1)."""
    if weapon.is_melee:
        return "optimal" if distance <= 1 else "out"
    if distance <= weapon.range:
        return "optimal"
    return "long" if distance <= long_range(weapon.range, params) else "out"


def cover_dice(cover: str, params: Parameters) -> int:
    """003 H5: [-] dice for the target's best single cover."""
    return {"none": 0, "soft": params.soft_cover_dice, "hard": params.hard_cover_dice}[cover]


def situational_dice(
    weapon: Part, distance: int, cover: str, params: Parameters, *, moved: bool = False,
    target_shield: bool = False,
) -> list[tuple[int, str]]:  # fmt: skip
    """The modifier dice of one Fire action that follow from the situation, each with
    where it came from: (signed count, reason). Melee ignores cover and Engaged (F11);
    a target's intact Shield arm gives melee attacks [-] (F11.6)."""
    dice: list[tuple[int, str]] = []
    if range_band(distance, weapon, params) == "long":
        dice.append((-params.long_range_dice, "long range (F Declare)"))
    if not weapon.is_melee:
        if cover != "none":
            dice.append((-cover_dice(cover, params), f"{cover} cover (H5)"))
        if distance <= 1:
            dice.append((-params.engaged_dice, "Engaged: adjacent hostile (E)"))
    elif target_shield:
        dice.append((-params.shield_melee_dice, "target's intact Shield arm (F11.6)"))
    if moved and "heavy" in weapon.tags:
        dice.append((-params.heavy_dice, "Heavy weapon after moving (B tags)"))
    return dice


# ---- F Hit ---------------------------------------------------------------------------


def hits(natural: int, accuracy: int, mod: int, evasion: int) -> bool:
    """003 F Hit: d20 + accuracy +/- modifier >= Evasion; natural 20 always hits,
    natural 1 always misses."""
    if natural == HIT_DIE:
        return True
    if natural == 1:
        return False
    return natural + accuracy + mod >= evasion


@functools.cache
def hit_chances(accuracy: int, evasion: int, net_dice: int) -> tuple[Fraction, Fraction]:
    """(P(hit), P(hit with a natural 20)) for one shot, exact (003 F Hit)."""
    mod = modifier(net_dice)
    p = Fraction(1, HIT_DIE)  # natural 20
    for natural in range(2, HIT_DIE):
        p += Fraction(1, HIT_DIE) * mod.p_at_least(evasion - accuracy - natural)
    return p, Fraction(1, HIT_DIE)


# ---- F5: penetration -----------------------------------------------------------------


def penetration_outcome(total: int, armor: int, margin: int) -> str:
    """003 F5 with DESIGN's reading: below Armor a glance; at least Armor + margin a crit;
    otherwise full."""
    if total < armor:
        return "glance"
    if total >= armor + margin:
        return "crit"
    return "full"


def penetration(
    pen: int, armor: int, margin: int, *, nat20: bool = False, braced: bool = False,
    params: Parameters | None = None,
) -> dict[str, Fraction]:  # fmt: skip
    """Exact glance/full/crit odds of one hit: d6 + Pen (+nat20 bonus) against Armor
    (+Brace bonus). Without ``params`` the rulebook's +1 and +1 apply."""
    nat_bonus = params.nat20_pen if params else 1
    brace_bonus = params.brace_armor if params else 1
    total_pen = pen + (nat_bonus if nat20 else 0)
    target = armor + (brace_bonus if braced else 0)
    return dict(zip(OUTCOMES, _penetration_odds(total_pen, target, margin), strict=True))


@functools.cache  # tables ask for the same few (pen, armor, margin) many times
def _penetration_odds(pen: int, armor: int, margin: int) -> tuple[Fraction, ...]:
    roll = Dist.die(PEN_DIE) + pen
    dist = roll.map(lambda t: OUTCOMES.index(penetration_outcome(t, armor, margin)))
    return tuple(dist.p_eq(i) for i in range(len(OUTCOMES)))


def clear_caches() -> None:
    """Forget cached exact results (benchmarks time cold runs)."""
    for fn in (modifier, hit_chances, _penetration_odds):
        fn.cache_clear()


# ---- F6: damage ----------------------------------------------------------------------


def simple_dice(expr: str) -> tuple[int, int, int]:
    """``NdS+C`` as (N, S, C): the one shape the battle engines roll (003 F6 weapons)."""
    import re

    m = re.fullmatch(r"\s*(\d*)d(\d+)\s*(?:([+-])\s*(\d+))?\s*", expr)
    if not m:
        raise ValueError(f"{expr!r} is not of the form NdS or NdS+C")
    n = int(m.group(1) or 1)
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return n, int(m.group(2)), bonus


def damage_dist(weapon: Part) -> Dist:
    """003 F6: the weapon's damage dice."""
    return Dist.parse(weapon.damage)


def glance_damage(rolled: int, params: Parameters) -> int:
    """DESIGN reading of F5: a glance does none, or half the dice rounded down."""
    return 0 if params.glance_damage == "none" else rolled // 2


def outcome_damage(outcome: str, rolled: int, params: Parameters) -> int:
    """Damage a hit deals from its dice roll (the crit-table d6 is an effect, not damage)."""
    return glance_damage(rolled, params) if outcome == "glance" else rolled


# ---- D: pilots -----------------------------------------------------------------------


def active_pilots(pilots: Sequence[Pilot]) -> frozenset[str]:
    """003 D: an Additional Ability is on when another fielded pilot shares the pilot's
    Faction or Specialty."""
    on = set()
    for a in pilots:
        for b in pilots:
            if a.id != b.id and (a.faction == b.faction or a.specialty == b.specialty):
                on.add(a.id)
    return frozenset(on)


def bonded_pairs(pilots: Sequence[Pilot]) -> list[tuple[str, str]]:
    """003 D4: the bonded pairs among fielded pilots."""
    ids = {p.id for p in pilots}
    return sorted({tuple(sorted((p.id, b))) for p in pilots for b in p.bonds if b in ids})


# ---- B: roster and team legality -----------------------------------------------------


def mech_problems(mech: Mech, params: Parameters) -> list[str]:
    """003 B3/B4: a mech may exceed its class cap by at most ``overload_max``."""
    weight, cap = mech_weight(mech), class_cap(mech.chassis.klass, params)
    if weight - cap > params.overload_max:
        return [f"{mech.name} weighs {weight}, more than {params.overload_max} over its "
                f"{mech.chassis.klass} cap {cap} (B4)"]  # fmt: skip
    return []


def copy_problems(mechs: Sequence[Mech], params: Parameters) -> list[str]:
    """003 B copy limits: at most ``copy_limit`` copies of any part (chassis included)
    across the roster; each pilot unique."""
    problems = []
    counts = Counter(p.id for m in mechs for p in m.parts)
    for part, n in sorted(counts.items()):
        if n > params.copy_limit:
            problems.append(f"{n} copies of part {part!r} (at most {params.copy_limit}, B)")
    pilots = Counter(m.pilot.id for m in mechs)
    for pilot, n in sorted(pilots.items()):
        if n > 1:
            problems.append(f"pilot {pilot!r} flies {n} mechs (each pilot is unique, B)")
    return problems


def team_problems(mechs: Sequence[Mech], params: Parameters) -> list[str]:
    """003 B3: a fielded team's Weight may not exceed the Team Cap (hard)."""
    total = sum(mech_weight(m) for m in mechs)
    problems = [q for m in mechs for q in mech_problems(m, params)]
    problems += copy_problems(mechs, params)
    if total > params.team_cap:
        problems.append(f"fielded Weight {total} exceeds the Team Cap {params.team_cap} (B3)")
    return problems


def roster_problems(roster: Sequence[Mech], params: Parameters) -> list[str]:
    """003 B: a roster is ``roster_size`` mechs, each legal, within copy limits."""
    problems = []
    if len(roster) != params.roster_size:
        problems.append(f"a roster holds {params.roster_size} mechs, got {len(roster)} (B)")
    problems += [q for m in roster for q in mech_problems(m, params)]
    problems += copy_problems(roster, params)
    return problems


# ---- G3 / H / I4: heat, board and scoring arithmetic ---------------------------------


def overcharge_heat(nth: int, params: Parameters) -> Dist:
    """003 G3: Heat of the nth Overcharge of a game (1-based); the last entry repeats."""
    table = params.overcharge_heat
    return Dist.parse(table[min(nth, len(table)) - 1])


def front_distance(params: Parameters) -> int:
    """003 H: hexes between the two deployment fronts."""
    return params.board_length - 2 * params.deploy_rows


def zone_points_available(params: Parameters) -> int:
    """003 I4 (DESIGN reading): points on the table from zones over a whole game."""
    return params.zones * params.zone_points * params.round_cap


def wipe_points(params: Parameters) -> int:
    """003 I4 (DESIGN reading): points for destroying every fielded enemy."""
    return params.fielded * params.kill_points
