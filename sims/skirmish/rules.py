"""Mecha Skirmish rules (003): the pure rule functions.

One rule, one place: every formula the engines, the exact tables, ``explain`` and
``builds`` use lives here, written next to the rulebook section it implements, and
written once for Python ints and NumPy arrays alike (``np.where``, ``np.maximum``,
comparisons; no Python branching on the values): given ints a formula returns a Python
int or bool, given arrays it returns arrays (``tests/skirmish/test_formulas.py`` holds
every formula to itself over full grids and to hand-derived values at its edges). The
parameters are declared in ``params.py`` (``Parameters`` is re-exported here).

Silhouette order is fixed by 003 F4: head, right_arm, left_arm, core, back, legs.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import numpy as np

from sims.core.batch import highest_of
from sims.core.dist import Dist
from sims.skirmish.catalog import PILOT_STATS, Mech, Part, Pilot
from sims.skirmish.params import Parameters, simple_dice

__all__ = ["PILOT_STATS", "Parameters", "simple_dice"]  # re-exported for callers of rules

RULES_VERSION = "skirmish-rules-1"
SILHOUETTE = ("head", "right_arm", "left_arm", "core", "back", "legs")
HEAD, RIGHT_ARM, LEFT_ARM, CORE, BACK, LEGS = range(6)  # indices in SILHOUETTE
LOCATION_DIE = 20  # 003 F4: d20 on the silhouette
HIT_DIE = 20  # 003 F Hit: d20
NATURAL_MISS = 1  # 003 F Hit: a natural 1 always misses
PEN_DIE = 6  # 003 F5: d6 + Pen
MODIFIER_DIE = 6  # 003 F3: modifier dice are d6
TABLE_DIE = 6  # 003 F7, G: one d6 on the crit table, on the stress table
COVER_DIE = 100  # the range track's cover draw: a percent die against the cover percents
CONTEST_DIE = 20  # 003 E Lock On (d20 + Systems), F11.1 a missed kick, F11.5 grapple contests
OUTCOMES = ("glance", "full", "crit")
GLANCE, FULL, CRIT = range(3)  # outcome codes, indices in OUTCOMES
# Battle results (I4): who won, and what decided it.
SIDE_A, SIDE_B, DRAW = 0, 1, 2
DECIDED = ("wipe", "points", "hull", "draw")


def _plain(x: Any) -> Any:
    """A 0-d result as a Python int or bool (a formula given ints returns ints)."""
    return x.item() if isinstance(x, np.generic | np.ndarray) and np.ndim(x) == 0 else x


# ---- B: weight, caps, overload, copy limits ------------------------------------------


def class_cap(klass: str, params: Parameters) -> int:
    """003 B3: each class has its own Weight cap (``Parameters.class_cap``)."""
    return params.class_cap(klass)


def overload_penalty(weight: Any, cap: Any, params: Parameters) -> Any:
    """003 B4: each ``overload_step`` over the cap, or part thereof, costs 1 Speed and
    1 Evasion: ceil(over / step) above the cap, else 0 (``-(-over // step)`` is that
    ceiling in integers). Beyond ``overload_max`` over, the mech is illegal
    (``Parameters.within_overload``)."""
    return overload_steps(np.asarray(weight) - cap, params.overload_step)


def overload_steps(over: Any, step: int) -> Any:
    """003 B4 in Weight over the cap: ceil(over / step) when over > 0, else 0."""
    return _plain(np.maximum(0, -(-np.asarray(over) // step)))


def mech_weight(mech: Mech) -> int:
    """003 B3: the sum of its parts including the chassis; pilots weigh nothing."""
    return sum(p.weight for p in mech.parts)


# ---- C: derived stats ----------------------------------------------------------------
# Each takes the card numbers (ints, or arrays of them) and the state that changes them
# in play: a destroyed part (F7: its contribution is lost), Prone, crit penalties, an
# active pilot ability. A fresh mech (mech_stats, builds) leaves those at their defaults.


def evasion(
    chassis: Any,
    legs: Any,
    piloting: Any,
    overload: Any,
    params: Parameters,
    *,
    legs_alive: Any = True,
    prone: Any = False,
    bonus: Any = 0,
) -> Any:
    """003 C Evasion = Chassis Evasion + Legs Evasion + Pilot Piloting - overload penalty
    (B4); the Legs' share is lost with the Legs (F7), Prone costs ``prone_evasion`` (F7
    Prone: Evasion -3); ``bonus`` is an active pilot ability (D)."""
    return _plain(
        chassis
        + legs * np.asarray(legs_alive)
        + piloting
        + bonus
        - overload
        - params.prone_evasion * np.asarray(prone)
    )


def speed(
    chassis: Any,
    legs: Any,
    overload: Any,
    params: Parameters,
    *,
    legs_alive: Any = True,
    bonus: Any = 0,
    penalty: Any = 0,
) -> Any:
    """003 C Speed = Chassis Speed + Legs Speed - overload penalty (not clamped: the
    battle clamps at 0); with the Legs destroyed a crawl of ``legs_lost_speed`` (003 A
    "losing legs loses mobility", a reading); ``penalty`` from speed crits (F7)."""
    base = np.where(legs_alive, chassis + legs, params.legs_lost_speed)
    return _plain(base + bonus - overload - penalty)


def sensors(
    chassis: Any,
    head: Any,
    back: Any,
    *,
    head_alive: Any = True,
    back_alive: Any = True,
    penalty: Any = 0,
) -> Any:
    """003 C Sensors = Chassis Sensors + Head Sensors + Back Sensors (each lost with its
    part, F7), less sensor crits."""
    return _plain(chassis + head * np.asarray(head_alive) + back * np.asarray(back_alive) - penalty)


def e_def(chassis: Any, head: Any, systems: Any, *, head_alive: Any = True) -> Any:
    """003 C E-Def = Chassis E-Def + Head E-Def (lost with the Head) + Pilot Systems."""
    return _plain(chassis + systems + head * np.asarray(head_alive))


def reactor_cap(chassis: Any, back: Any, *, back_alive: Any = True) -> Any:
    """003 C Reactor Cap = Chassis Reactor + Back Reactor (lost with the Back, F7)."""
    return _plain(chassis + back * np.asarray(back_alive))


def accuracy(
    gunnery: Any,
    piloting: Any,
    melee: Any,
    weapon_acc: Any,
    head_acc: Any,
    *,
    head_alive: Any = True,
    bonus: Any = 0,
) -> Any:
    """003 C Accuracy of an attack = Pilot Gunnery + weapon Acc + Head Acc; melee rolls
    Piloting instead of Gunnery (F11); the Head's Acc is lost with the Head (F7);
    ``bonus`` an active ``acc`` ability (D)."""
    skill = np.where(melee, piloting, gunnery)
    return _plain(skill + weapon_acc + head_acc * np.asarray(head_alive) + bonus)


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
        evasion=evasion(c.evasion, mech.legs.evasion, pilot.piloting, penalty, params),
        speed=speed(c.speed, mech.legs.speed, penalty, params),
        sensors=sensors(c.sensors, mech.head.sensors, mech.back.sensors),
        e_def=e_def(c.e_def, mech.head.e_def, pilot.systems),
        reactor_cap=reactor_cap(c.reactor, mech.back.reactor),
        hull=sum(p.durability for p in sil),
        sizes=sizes,
        bands=bands(sizes),
        armor=tuple(p.armor for p in sil),
        durability=tuple(p.durability for p in sil),
    )


def attack_accuracy(pilot: Pilot, weapon: Part, head: Part | None) -> int:
    """003 C: Pilot Gunnery + weapon Acc + Head Acc (:func:`accuracy`). Melee rolls
    Piloting instead of Gunnery (F11); a destroyed head (``None``) adds nothing (F7)."""
    return accuracy(
        pilot.gunnery,
        pilot.piloting,
        weapon.is_melee,
        weapon.acc,
        head.acc if head is not None else 0,
    )


# ---- F4: location bands --------------------------------------------------------------


def bands(sizes: Sequence[int], total: int = LOCATION_DIE) -> tuple[int, ...]:
    """Scale Sizes to ``total`` bands by largest remainder (003 F4): one silhouette as a
    tuple (:func:`bands_of` for many at once)."""
    return tuple(int(n) for n in bands_of(np.asarray([sizes]), total)[0])


def bands_of(sizes: Any, total: int = LOCATION_DIE) -> np.ndarray:
    """003 F4 for many silhouettes at once: int[N, k] Sizes -> int8[N, k] bands summing
    to ``total``.

    Each part first gets floor(size * total / sum); the bands left over go one each to
    the largest remainders, ties to the larger Size, then to the earlier part in
    silhouette order (DESIGN reading). No minimum: a part may own no band. Remainders
    are compared as integers (size * total mod sum: the same denominator, exact); the
    three-level order is one integer key per part, unique thanks to the index, and a
    part's rank is how many parts of its row have a larger key."""
    sizes = np.asarray(sizes, dtype=np.int64)
    whole = sizes.sum(axis=1, keepdims=True)
    if sizes.size and (np.any(whole <= 0) or np.any(sizes < 0)):
        raise ValueError(f"sizes must be non-negative with a positive sum, got {sizes.tolist()}")
    scaled = sizes * total
    floor, remainder = scaled // whole, scaled % whole
    k = sizes.shape[1]
    later = np.arange(k - 1, -1, -1)  # earlier part: larger key
    size_span = int(sizes.max(initial=0)) + 1
    key = (remainder * size_span + sizes) * k + later
    rank = (key[:, None, :] > key[:, :, None]).sum(axis=2)
    left = total - floor.sum(axis=1, keepdims=True)
    return (floor + (rank < left)).astype(np.int8)


def band_ranges(band_counts: Sequence[int]) -> list[tuple[int, int, int]]:
    """(index, first, last) location-die faces for every part owning a band."""
    rows, first = [], 1
    for i, n in enumerate(band_counts):
        if n > 0:
            rows.append((i, first, first + n - 1))
        first += n
    return rows


def band_top(band_counts: Any) -> Any:
    """The last location-die face of each band (cumulative bands, along the last axis)."""
    return np.cumsum(band_counts, axis=-1)


def location(roll: Any, tops: Any) -> Any:
    """003 F4: the silhouette index struck by a location roll 1..20: the first band whose
    last face (``tops``, :func:`band_top`) reaches the roll. A part owning no band is
    never struck. ``roll`` an int with ``tops`` [6], or int[n] with [6] or [n, 6]."""
    return _plain((np.asarray(roll)[..., None] > np.asarray(tops)).sum(axis=-1))


def location_of(roll: Any, band_counts: Sequence[int]) -> Any:
    """Silhouette index struck by a location roll 1..20 (003 F4), from band counts."""
    return location(roll, band_top(band_counts))


def struck_part(part: Any, alive: Any) -> Any:
    """003 F4: a band belonging to a destroyed part transfers the hit to the Core."""
    return _plain(np.where(alive, part, CORE))


def location_rerolls(melee: Any, prone: Any) -> Any:
    """003 F11 / F7: melee may reroll its location die once, twice against a Prone
    target; ranged attacks never (the engines reroll a location that is not the Core
    and belongs to a standing part)."""
    return _plain(np.where(melee, np.where(prone, 2, 1), 0))


def obstacle_between(reading: str, nearer: Any, on_line: Any) -> Any:
    """003 H5 "the target is adjacent to an obstacle ... and that obstacle lies between
    attacker and target": whether an obstacle next to the target is between, by the
    rules parameter ``cover_between``. ``nearer``: the obstacle is closer to the attacker
    than the target is (hex distance; up to two of the target's neighbours); ``on_line``:
    it is the hex of the drawn hex line next to the target (H4 "draw the hex line").
    Every such line hex is also nearer, so ``line`` is the narrower reading. The board's
    geometry tables (geometry.py) are built with this, and both engines read them."""
    if reading == "nearer":
        return nearer
    if reading == "line":
        return on_line
    raise ValueError(f"cover_between: {reading!r} is not nearer or line")


def hits_cover(part: Any, hard_cover: Any) -> Any:
    """003 F4 / H5: behind hard cover the Legs band hits the cover, and the shot is over."""
    return _plain(np.asarray(hard_cover) & (np.asarray(part) == LEGS))


# ---- F3: modifier dice ---------------------------------------------------------------


def net_modifier_dice(plus: int, minus: int) -> int:
    """003 F3: [+] and [-] cancel one for one; the sign of the rest says add or subtract."""
    return plus - minus


@functools.cache  # pure in its arguments; tables ask for the same few many times
def modifier(net: int) -> Dist:
    """003 F3: roll |net| d6, keep the single highest; add it for [+], subtract for [-]."""
    if net == 0:
        return Dist.constant(0)
    best = Dist.die(MODIFIER_DIE).highest(abs(net))
    return best if net > 0 else -best


def highest_kept(faces: Any, count: Any) -> Any:
    """003 F3: the single highest of the first ``count`` faces (0 when ``count`` is 0).
    ``faces`` [k] with an int ``count``, or [n, k] with int[n] (rows rolled k dice)."""
    faces = np.asarray(faces)
    if faces.dtype.kind not in "iu":  # an empty list of faces (no modifier dice)
        faces = faces.astype(np.int64)
    return _plain(highest_of(faces, count))


def modifier_result(faces: Any, net: Any) -> Any:
    """003 F3 as rolled: the highest kept of |net| d6, added for [+], subtracted for
    [-]. ``faces`` holds at least |net| dice per row (see :func:`highest_kept`)."""
    net = np.asarray(net)
    if np.ndim(faces) == 1 and len(faces) != abs(int(net)) and int(net) != 0:
        raise ValueError(f"{abs(int(net))} modifier dice expected, got {len(faces)}")
    return _plain(np.sign(net) * highest_kept(faces, np.abs(net)))


# ---- F Declare, H5: range bands and cover (the modifier dice: modifiers.py) ----------

RANGE_BANDS = ("optimal", "long", "out")
COVERS = ("none", "soft", "hard")


def long_range(weapon_range: Any, params: Parameters) -> Any:
    """003 F Declare: long range reaches 1.5x Range, rounded down."""
    return weapon_range * params.long_range_percent // 100


def range_code(distance: Any, weapon_range: Any, weapon_long: Any, melee: Any) -> Any:
    """003 F Declare / F11 as a code, index into RANGE_BANDS: 0 optimal (up to Range),
    1 long (up to the long reach, :func:`long_range`, at 1[-]), 2 out (no shot). Melee
    reaches adjacent hexes only (distance 1), and never at long range."""
    melee = np.asarray(melee, dtype=bool)
    optimal = np.where(melee, distance <= 1, distance <= weapon_range)
    long = ~melee & (distance <= weapon_long)
    return _plain(np.where(optimal, 0, np.where(long, 1, 2)))


def range_band(distance: int, weapon: Part, params: Parameters) -> str:
    """003 F Declare / F11 for one weapon, as a word (:func:`range_code`)."""
    reach = long_range(weapon.range, params)
    return RANGE_BANDS[range_code(distance, weapon.range, reach, weapon.is_melee)]


def track_cover(roll: Any, params: Parameters) -> Any:
    """H5 on the range track (no terrain): the target's best cover drawn per Fire action
    from a d100 against the cover percents, as a code (index into COVERS): 2 hard for
    the first ``hard_cover_percent``, 1 soft for the next ``soft_cover_percent``, else
    0 none."""
    roll = np.asarray(roll)
    hard = roll <= params.hard_cover_percent
    soft = roll <= params.hard_cover_percent + params.soft_cover_percent
    return _plain(np.where(hard, 2, np.where(soft, 1, 0)))


def guard_covers(attacker_pos: Any, target_pos: Any, facing: Any) -> Any:
    """003 E5 Guard on the range track: the guarded ally has hard cover against attacks
    "coming from your side of them", read as its enemy-facing side: attackers level
    with it or ahead of it along its ``facing`` (+1 for side A, -1 for side B); an
    attacker behind it is not covered. Melee ignores it (F11.6, cover)."""
    return _plain((np.asarray(attacker_pos) - target_pos) * facing >= 0)


def best_cover(cover: Any, guarded: Any, smoked: Any = False) -> Any:
    """003 H5: only the best single cover applies; a Guard's (E5) is hard (2), smoke's
    soft (1)."""
    return _plain(np.where(guarded, 2, np.maximum(cover, np.where(smoked, 1, 0))))


def smoke_covers(attacker_pos: Any, target_pos: Any, smoke_pos: Any) -> Any:
    """003 H5 soft cover on the range track: "the target stands in ... smoke, or the line
    passes through any". The smoke hangs on the smoker's hex; it covers a line that
    crosses it or ends at it (the target's hex), not one that starts there (the
    attacker's own hex does not count, as for foliage)."""
    a = np.asarray(attacker_pos)
    ahead, reach = (np.asarray(smoke_pos) - a), (np.asarray(target_pos) - a)
    return _plain((ahead * reach > 0) & (np.abs(ahead) <= np.abs(reach)))


def jumps(jumper: Any, before: Any, after: Any) -> Any:
    """003 F11.8 / G: a mech jumping (its policy jumps, with an intact jump booster or
    intact jump legs) out of a hostile's adjacency leaves no Disengage strike to it; the
    jump costs Heat (``jump_heat``) once per activation that jumps (or climbs, on a map)."""
    return _plain(np.asarray(jumper) & (np.asarray(before) <= 1) & (np.asarray(after) > 1))


# ---- F Hit ---------------------------------------------------------------------------


def hits(natural: Any, accuracy: Any, mod: Any, evasion: Any) -> Any:
    """003 F Hit: d20 + accuracy +/- modifier >= Evasion; natural 20 always hits,
    natural 1 always misses."""
    natural = np.asarray(natural)
    reached = natural + accuracy + mod >= evasion
    return _plain((natural == HIT_DIE) | ((natural != NATURAL_MISS) & reached))


@functools.cache
def hit_chances(accuracy: int, evasion: int, net_dice: int) -> tuple[Fraction, Fraction]:
    """(P(hit), P(hit with a natural 20)) for one shot, exact (003 F Hit): every natural
    of the d20 against every modifier result, each decided by :func:`hits`."""
    mod = modifier(net_dice)
    naturals = np.arange(1, HIT_DIE + 1)[:, None]  # [20, 1] against the results [1, k]
    landed = hits(naturals, accuracy, np.array(mod.outcomes)[None, :], evasion)
    den = math.lcm(*(q.denominator for q in mod.probabilities))
    weights = np.array([q.numerator * (den // q.denominator) for q in mod.probabilities])
    p = Fraction(int((landed * weights).sum()), HIT_DIE * den)
    p20 = Fraction(int((landed[-1] * weights).sum()), HIT_DIE * den)
    return p, p20


# ---- F5: penetration -----------------------------------------------------------------


def outcome_code(total: Any, armor: Any, margin: Any) -> Any:
    """003 F5 with DESIGN's reading, as a code (index into OUTCOMES): below Armor a
    glance (0); at least Armor + margin a crit (2); otherwise full (1)."""
    total = np.asarray(total)
    return _plain((total >= armor) * 1 + (total >= armor + margin) * 1)


def penetration_total(
    roll: Any, pen: Any, natural: Any, params: Parameters, *, bonus: Any = 0
) -> Any:
    """003 F5: d6 + weapon Pen, +``nat20_pen`` on a natural-20 hit (F Hit); ``bonus`` an
    active ``pen`` ability (D)."""
    return _plain(roll + pen + bonus + params.nat20_pen * (np.asarray(natural) == HIT_DIE))


def armor_now(
    armor: Any, params: Parameters, *, braced: Any = False, bonus: Any = 0, lost: Any = 0
) -> Any:
    """003 F5: the struck part's Armor, +``brace_armor`` while Braced (E Brace); ``bonus``
    an active ``armor`` ability on the Core (D), ``lost`` Armor taken by crits (F7)."""
    return _plain(armor + params.brace_armor * np.asarray(braced) + bonus - lost)


def penetration_outcome(total: int, armor: int, margin: int) -> str:
    """003 F5 as a word (:func:`outcome_code`): glance, full or crit."""
    return OUTCOMES[outcome_code(total, armor, margin)]


# 003 F Hit: a natural 20 adds +1 to the penetration roll; E Brace: +1 Armor.
_RULEBOOK_BONUSES: Any = SimpleNamespace(nat20_pen=1, brace_armor=1)


def penetration(
    pen: int,
    armor: int,
    margin: int,
    *,
    nat20: bool = False,
    braced: bool = False,
    params: Parameters | None = None,
) -> dict[str, Fraction]:
    """Exact glance/full/crit odds of one hit: d6 + Pen (+nat20 bonus) against Armor
    (+Brace bonus), by :func:`penetration_total`, :func:`armor_now` and
    :func:`outcome_code`. Without ``params`` the rulebook's +1 and +1 apply."""
    bonuses = params if params is not None else _RULEBOOK_BONUSES
    total_pen = penetration_total(0, pen, HIT_DIE if nat20 else 0, bonuses)
    target = armor_now(armor, bonuses, braced=braced)
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


def damage_dist(weapon: Part) -> Dist:
    """003 F6: the weapon's damage dice."""
    return Dist.parse(weapon.damage)


def glance_damage(rolled: Any, params: Parameters) -> Any:
    """DESIGN reading of F5: a glance does none, or half the dice rounded down."""
    if params.glance_damage == "none":
        return _plain(np.asarray(rolled) * 0)
    return _plain(np.asarray(rolled) // 2)


def hit_damage(code: Any, rolled: Any, params: Parameters) -> Any:
    """003 F5/F6: damage a hit deals from its dice roll by outcome code (:func:`outcome_code`):
    full and crit deal the roll, a glance :func:`glance_damage` (the crit-table d6 is an
    effect, not damage)."""
    return _plain(np.where(np.asarray(code) > GLANCE, rolled, glance_damage(rolled, params)))


def outcome_damage(outcome: str, rolled: int, params: Parameters) -> int:
    """Damage a hit deals from its dice roll, the outcome as a word (:func:`hit_damage`)."""
    return hit_damage(OUTCOMES.index(outcome), rolled, params)


def carry_over(durability_left: Any) -> Any:
    """003 F6: damage past a part's 0 carries into the Core (no second penetration
    roll): how much, from the part's Durability after the hit (negative when past 0)."""
    return _plain(np.maximum(-np.asarray(durability_left), 0))


# ---- E, F11: Lock On and melee ------------------------------------------------------


def knocks_down(melee: Any, code: Any, attacker_class: Any, target_class: Any) -> Any:
    """003 F11.4: a melee hit that is Full or Crit from a heavier chassis class knocks
    the target Prone (classes ranked light 0, medium 1, heavy 2)."""
    return _plain(
        np.asarray(melee, dtype=bool)
        & (np.asarray(code) > GLANCE)
        & (np.asarray(attacker_class) > target_class)
    )


def kick_falls(roll: Any, piloting: Any, params: Parameters) -> Any:
    """003 F11.1: after a missed kick the kicker rolls d20 + Piloting and falls Prone
    below ``kick_fall_below`` (10)."""
    return _plain(np.asarray(roll) + piloting < params.kick_fall_below)


def locks_on(roll: Any, systems: Any, e_def: Any, *, bonus: Any = 0) -> Any:
    """003 E Lock On: d20 + Systems (+ an active ``lock_on`` ability) >= target E-Def."""
    return _plain(np.asarray(roll) + systems + bonus >= e_def)


def charge_dice(hexes: Any, params: Parameters) -> Any:
    """003 F11.3: a Charge's 1[+] per ``charge_hexes_per_die`` (3) hexes moved, at most
    ``charge_max_dice`` (2)."""
    per_die = np.asarray(hexes) // params.charge_hexes_per_die
    return _plain(np.minimum(params.charge_max_dice, per_die))


def grapple_bonus(klass_rank: Any, params: Parameters) -> Any:
    """003 F11.5: the class bonus of a grapple contest, by class rank (light 0, medium 1,
    heavy 2): ``grapple_light`` 0, ``grapple_medium`` 1, ``grapple_heavy`` 2."""
    table = np.array([params.grapple_light, params.grapple_medium, params.grapple_heavy])
    return _plain(table[np.asarray(klass_rank)])


def wins_contest(
    roll: Any, piloting: Any, bonus: Any, other_roll: Any, other_piloting: Any, other_bonus: Any
) -> Any:
    """003 F11.5 a Piloting contest (Grapple, Throw, Break): each side rolls d20 + Piloting
    + class bonus; the acting mech (the first three arguments) wins ties."""
    return _plain(
        np.asarray(roll) + piloting + bonus >= np.asarray(other_roll) + other_piloting + other_bonus
    )


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
    if not params.within_overload(weight - cap):
        return [
            f"{mech.name} weighs {weight}, more than {params.overload_max} over its "
            f"{mech.chassis.klass} cap {cap} (B4)"
        ]
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


# ---- G, H, I: heat, board, scoring ---------------------------------------------------


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


def overheats(heat: Any, reactor: Any) -> Any:
    """003 G Stress: the moment Heat exceeds Reactor Cap the mech rolls the stress d6
    (and its Heat resets to 0 in every case)."""
    return _plain(np.asarray(heat) > reactor)


def points(kills: Any, zone_rounds: Any, params: Parameters) -> Any:
    """003 I4 (DESIGN reading): ``kill_points`` per enemy mech destroyed and
    ``zone_points`` per zone held at the end of each round."""
    return _plain(
        np.asarray(kills) * params.kill_points + np.asarray(zone_rounds) * params.zone_points
    )


def hull_fraction(durability_left: Any, maximum: Any) -> Any:
    """003 I4 tiebreak: current over maximum Durability across the fielded team, each
    part counted at 0 once destroyed (``durability_left`` may run below 0)."""
    return np.maximum(durability_left, 0).sum(axis=-1) / maximum


def decide(
    wipe_winner: Any, points_a: Any, points_b: Any, hull_a: Any, hull_b: Any
) -> tuple[Any, Any]:
    """003 I "Ending a game" with DESIGN's scoring reading: (winner, decided) codes.

    A side that destroyed every enemy mech has won (``wipe_winner`` SIDE_A or SIDE_B;
    -1 when nobody was wiped out); otherwise more points win, then the higher Hull
    fraction; still equal is a DRAW. ``decided`` indexes DECIDED (wipe, points, hull,
    draw). The engines play the sudden-death round (I4) before this: a battle level on
    points and Hull after the round cap plays one more round and comes here with its
    points at the cap, so Hull (or a wipe in that round) decides."""
    wipe = np.asarray(wipe_winner)
    by_points = (wipe < 0) & (np.asarray(points_a) != points_b)
    by_hull = (wipe < 0) & ~by_points & (np.asarray(hull_a) != hull_b)
    winner = np.where(
        wipe >= 0,
        wipe,
        np.where(
            by_points,
            np.where(np.asarray(points_a) > points_b, SIDE_A, SIDE_B),
            np.where(by_hull, np.where(np.asarray(hull_a) > hull_b, SIDE_A, SIDE_B), DRAW),
        ),
    )
    decided = np.where(wipe >= 0, 0, np.where(by_points, 1, np.where(by_hull, 2, 3)))
    return _plain(winner), _plain(decided)
