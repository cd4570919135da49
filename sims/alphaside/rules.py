"""ALPHASIDE (004) rules: every formula once, on Python ints and NumPy arrays alike.

The exact tables (``exact.py``), the claims, ``explain`` and both engines call these;
none restates a rule. Readings where the rulebook is silent are marked ``# reading``
and listed in ``catalogs/alphaside/ASSUMPTIONS.md``; DESIGN.md's readings: crits are
read from the die's own face before Accuracy and always hit; a 1 always misses;
Accuracy decides only whether the other faces reach 4. Damage = hits - Shields;
Damage+X adds after Shields when at least one hit landed (rules parameter ``damage_x``:
``before_shields`` lets Shields block it); Fracture's 3+ counts combat damage after
Shields. Every reading is an entry of ``catalogs/alphaside/readings.toml``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from sims.core.dist import Dist

RULES_VERSION = "alphaside-rules-1"

# Critical effects (weapons.toml crit_effect), codes in engine arrays
CRIT_EFFECTS = ("none", "damage", "slow", "fracture", "disarm", "push", "pull")
NONE, DAMAGE, SLOW, FRACTURE, DISARM, PUSH, PULL = range(7)


# ---- the die (Dice, Accuracy & Crits) ----------------------------------------------------


def is_crit(face: Any, crit_from: Any, params: Any) -> Any:
    """A crit is read from the die's own face: ``crit_from``..die (9-10, or 7-10 for some
    weapons and abilities), never the always-missing face."""
    return (face >= crit_from) & (face != params.miss_face)


def is_hit(face: Any, accuracy: Any, crit_from: Any, params: Any) -> Any:
    """A die hits on 4+ after Accuracy, a 1 always misses, a crit always hits."""
    return (face != params.miss_face) & ((face + accuracy >= params.hit_on) | (face >= crit_from))


@cache
def die_chances(accuracy: int, crit_from: int, params: Any) -> tuple[Fraction, Fraction]:
    """(P(hit), P(crit)) of one die, counted face by face through :func:`is_hit`."""
    faces = range(1, params.die + 1)
    hits = sum(bool(is_hit(f, accuracy, crit_from, params)) for f in faces)
    crits = sum(bool(is_crit(f, crit_from, params)) for f in faces)
    return Fraction(hits, params.die), Fraction(crits, params.die)


def disarmed_hit_chance(accuracy: int, crit_from: int, params: Any) -> Fraction:
    """Disarm: every hit is re-rolled once (a miss stays a miss), so a die hits with
    P(hit)^2; crits trigger no effect."""
    p, _ = die_chances(accuracy, crit_from, params)
    return p * p


# ---- damage (Damage, Shields & defeat; Status effects) -------------------------------------


def blocked(hits: Any, shields: Any) -> Any:
    """Each active Shield blocks 1 damage, then flips off."""
    return np.minimum(hits, shields)


def before_shields(params: Any) -> bool:
    """# reading ``damage_x`` (readings.toml): "Damage+X effects add to that combat
    damage" and "Each active Shield blocks 1 damage" leave open whether Shields meet
    Damage+X. ``after_shields`` (in force, DESIGN.md): added after Shields subtract, so
    they never block it; ``before_shields``: added to the hits, Shields blocking it
    too. None (no parameters): after."""
    return params is not None and params.damage_x == "before_shields"


def landed_plus(hits: Any, plus: Any) -> Any:
    """Damage+X counts only when the attack rolled at least one hit (it adds to "that
    combat damage": no hit, nothing to add to); a Shield blocking the hit does not undo
    it. Under both ``damage_x`` readings."""
    return np.where(hits >= 1, plus, 0)


def met_by_shields(hits: Any, plus: Any = 0, params: Any = None) -> Any:
    """The damage the target's active Shields meet, one Shield a point: the hits, and
    with ``damage_x = before_shields`` the Damage+X too (:func:`blocked` of this is the
    Shields that flip off)."""
    return hits + landed_plus(hits, plus) if before_shields(params) else hits


def combat_damage(
    hits: Any, shields: Any, plus: Any = 0, fractured: Any = False, params: Any = None
) -> Any:
    """Damage = hits - Shields, with Damage+X (``plus``) when at least one hit was rolled
    (# reading ``damage_x``: after Shields, so they do not block it; ``before_shields``:
    Shields meet hits + X), then Fracture: 3+ combat damage from one attack takes 3
    more."""
    if before_shields(params):
        base = np.maximum(met_by_shields(hits, plus, params) - shields, 0)
    else:
        base = np.maximum(hits - shields, 0) + landed_plus(hits, plus)
    if params is None:
        return base
    return base + np.where(fractured & (base >= params.fracture_at), params.fracture_damage, 0)


def collision(shields: Any, params: Any) -> Any:
    """Push & Pull: running into terrain, a unit or a Garrison costs everyone involved 2
    damage, Shields applying."""
    return np.maximum(params.collision_damage - shields, 0)


def pushed_off(moved: Any, wanted: Any, params: Any) -> Any:
    """A Push of ``wanted`` hexes cut short (``moved`` fewer) by the range track's end:
    a collision when ``push_end = collision`` (# reading: the end, a Base, stands for
    terrain), none when ``stop`` (a Base is none of "terrain, a unit or a Garrison")."""
    return (moved < wanted) & (params.push_end == "collision")


def defeated(hp: Any) -> Any:
    """A unit at 0 HP is defeated."""
    return hp <= 0


@cache
def hits_dist(
    strength: int, accuracy: int, crit_from: int, params: Any, disarmed: bool = False
) -> Dist:
    """Hits of one attack (each die independent: binomial)."""
    p = (
        disarmed_hit_chance(accuracy, crit_from, params)
        if disarmed
        else die_chances(accuracy, crit_from, params)[0]
    )
    return Dist.binomial(strength, p)


def hits_and_crits(
    strength: int, p_hit: Fraction, p_crit: Fraction
) -> list[tuple[int, int, Fraction]]:
    """(hits, crits, p) of ``strength`` independent dice, each a crit with ``p_crit`` and
    a hit (crits included) with ``p_hit``: multinomial over miss / plain hit / crit."""
    p_plain, p_miss = p_hit - p_crit, 1 - p_hit
    out = []
    for crits in range(strength + 1):
        for plain in range(strength - crits + 1):
            miss = strength - crits - plain
            ways = math.comb(strength, crits) * math.comb(strength - crits, plain)
            p = ways * p_crit**crits * p_plain**plain * p_miss**miss
            if p:
                out.append((crits + plain, crits, p))
    return out


@cache
def expected_damage(
    strength: int, accuracy: int, crit_from: int, shields: int, plus: int, params: Any
) -> Fraction:
    """Expected combat damage of one attack against ``shields`` active Shields, with
    Damage+``plus`` when a crit triggers it (the weapon's crit effect), no Fracture: what
    a unit's weapon choice weighs (policies.toml). Exact."""
    p_hit, p_crit = die_chances(accuracy, crit_from, params)
    return sum(
        (
            p * int(combat_damage(hits, shields, plus if crits else 0, False, params))
            for hits, crits, p in hits_and_crits(strength, p_hit, p_crit)
        ),
        Fraction(0),
    )


# ---- movement (Movement, Status effects) ---------------------------------------------------


def advance_hexes(speed: Any, slowed: Any, engaged: Any, params: Any) -> Any:
    """Advance: 3 hexes + Speed, -1 when it starts Engaged; 0 when Slowed."""
    hexes = np.maximum(
        params.advance_base + speed - np.where(engaged, params.engaged_penalty, 0), 0
    )
    return np.where(slowed, 0, hexes)


def dash_hexes(engaged: Any, params: Any) -> Any:
    """Dash: its hexes (Speed never adds), -1 when it starts Engaged."""
    return np.maximum(params.dash_hexes - np.where(engaged, params.engaged_penalty, 0), 0)


def engaged(distance: Any) -> Any:
    """Engaged: adjacent to an enemy (# reading: the range track has no elevation)."""
    return distance <= 1


# ---- the Timeline ---------------------------------------------------------------------------


def deck_size(params: Any) -> int:
    """Tactics deck: exactly 9 cards for a 2-Phase game, +3 per extra Phase."""
    return params.tactics_deck + params.tactics_per_phase * (params.phases - 2)


def last_time(params: Any) -> int:
    """The last Timeline time of the game: Phases x spaces (time t is space
    ``(t - 1) % spaces + 1`` of Phase ``(t - 1) // spaces + 1``)."""
    return params.phases * params.spaces


def phase_of(t: Any, params: Any) -> Any:
    """The Phase (0-based) a token at time t is in: moving past space 10 wraps to space 1
    of the next Phase."""
    return (t - 1) // params.spaces


def after_defeat(t: Any, params: Any) -> Any:
    """A defeated unit's token moves +2 TL."""
    return t + params.defeat_delay


# ---- the end of the game ---------------------------------------------------------------

# Winner codes, in the engines' ``winner`` column: code i is RESULTS[i] (no draw: a tie
# goes to a side).
RESULTS = ("a", "b")
SIDE_A, SIDE_B = range(2)


def winner(vp_a: Any, vp_b: Any, last_side: Any) -> Any:
    """004 Goal of the game: "The player with the most VP at the end wins. If the scores
    are tied, the last player to act wins" (``last_side``: the side that acted last). A
    Python int on ints, an int array on arrays."""
    code = np.where(vp_a > vp_b, SIDE_A, np.where(vp_b > vp_a, SIDE_B, last_side))
    return code.item() if code.ndim == 0 else code
