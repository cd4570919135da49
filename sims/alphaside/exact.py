"""ALPHASIDE exact tables (004), built from ``rules.py`` over ``Dist``/``Fraction`` only;
floats appear only as the ``*_float`` columns.

Every outcome a table counts is decided by a rule function called on ints: a die's hit
and crit chances by ``rules.die_chances`` (face by face through ``rules.is_hit`` and
``rules.is_crit``), a Disarmed die by ``rules.disarmed_hit_chance`` (through
``rules.hits_dist``), the joint hits and crits of an attack by ``rules.hits_and_crits``,
the damage by ``rules.combat_damage`` (Shields, Damage+X, Fracture), a collision by
``rules.collision`` and ``rules.blocked``, a defeat by ``rules.defeated``, an expected
damage by ``rules.expected_damage``. This module only does the probability: sums over
the joint distribution, tail sums, convolutions of independent attacks (``Dist``).

Readings shared by every table (DESIGN.md "Rules readings / ALPHASIDE"): crits are read
from the die's own face before Accuracy and always hit; a 1 always misses; Damage =
hits - Shields; Damage+X adds after Shields (a crit effect, once per attack, needs a
crit); Fracture counts combat damage after Shields.

Each table function returns a polars DataFrame following DESIGN.md's table contract:
fractions as strings ``a/b`` with a ``<column>_float`` beside each (``TABLES`` declares
them; ``analysis.tables.write_tables`` writes them).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import polars as pl

from sims.alphaside import rules
from sims.alphaside.catalog import Catalog
from sims.alphaside.params import Parameters
from sims.core.dist import Dist, exact_frame
from sims.core.protocol import Pivot, Table, columns

DICE = range(1, 21)  # DESIGN contract: "dice 1..20"
ACCURACIES = range(-3, 4)  # DESIGN contract: "accuracy -3..+3"
CRIT_FROMS = (9, 7)  # DESIGN contract: "crit_from 9 or 7" (the rule, "also count 7-8")
SHIELDS = range(0, 4)  # DESIGN contract: "shields 0..3"
HPS = range(1, 11)  # DESIGN contract: "hp 1..10"
SMALL_DICE = range(1, 11)  # the damage, over-attacks, area and collision tables
# those tables (and weapon-free ones) read crits from the rules parameter crit_from (9-10)
ATTACKS = range(1, 6)  # defeat_over_attacks: within 1..5 attacks
AREA_HPS = range(1, 7)
# effect -> (Damage+X on a crit, target Fractured, attacker Disarmed)
EFFECTS: Mapping[str, tuple[int, bool, bool]] = {
    "plain": (0, False, False),
    "damage_1": (1, False, False),
    "damage_2": (2, False, False),
    "fracture": (0, True, False),
    "disarm": (0, False, True),
}
DEFEATED = ("none", "first", "both")

# How each table is computed (its Markdown header and the report say so).
DOC_HITS = (
    "One attack of `dice` d10 (Dice, Accuracy & Crits): each die a crit on its own face "
    "crit_from-10 (rules.is_crit; 9-10, or 7-10 where an ability counts 7-8), a hit when "
    "face + accuracy >= 4 or a crit, a 1 always missing (rules.is_hit); the dice "
    "independent, so (hits, crits) is multinomial over miss / plain hit / crit "
    "(rules.hits_and_crits). hits counts every hit, crits included; only rows with p > 0 "
    "(crits never exceed hits). Too long to pivot: the Markdown lists every row."
)
DOC_DAMAGE = (
    "Combat damage of one attack, crits on 9-10 (the rules parameter crit_from) "
    "(rules.combat_damage). effect: plain = "
    "hits - Shields (at least 0); damage_1 / damage_2 = the weapon's crit effect Damage+1 "
    "/ +2, triggered once per attack by at least one crit and added after Shields (DESIGN "
    "reading: Shields do not block it); fracture = the target already Fractured: 3+ "
    "combat damage from the attack takes 3 more; disarm = the attacker Disarmed: every "
    "hit is re-rolled (a die hits with P(hit)^2, rules.disarmed_hit_chance) and no crit "
    "effect triggers. Each (effect, dice) lists every damage from 0 to the largest any "
    "accuracy and Shields allow, so some rows hold p = 0."
)
DOC_DEFEAT = (
    "P(one attack defeats a unit of that HP behind that many active Shields): "
    "P(hits - shields >= hp) (rules.combat_damage, rules.defeated), no Damage+X, Fracture "
    "or Disarm; hits as in hits.csv, summed by tail sums of the hits distribution."
)
DOC_OVER_ATTACKS = (
    "P(the unit is defeated within `attacks` attacks of the same weapon), crits on 9-10, no "
    "crit effects: every attack meets the full Shields (Shields come back at the start of "
    "the unit's activation: one attack per activation), the damage accumulates (the "
    "per-attack damage of damage.csv's plain rows, convolved), and the unit is defeated "
    "once the total reaches its HP (rules.defeated)."
)
DOC_AREA = (
    "An area attack (Area of effect) on two units of the same HP: one roll for the whole "
    "attack (crits on 9-10, no crit effects), hits worked out target by target, each "
    "against its own Shields (rules.combat_damage, rules.defeated). defeated: none, the "
    "first only, or both; with shields_1 <= shields_2 the second is never defeated alone "
    "(whatever defeats it defeats the first)."
)
DOC_COLLISION = (
    "P(one attack defeats the unit), crits on 9-10: p_defeat_plain for a weapon without a "
    "crit effect; p_defeat_push for the same weapon whose crit (at least one) pushes the "
    "target into terrain (Push & Pull): the collision's 2 damage comes first "
    "(rules.collision: Shields apply), the Shields it used are gone (rules.blocked), "
    "then the combat damage meets the Shields left (Critical effects are step 6, Damage "
    "step 7)."
)
DOC_WEAPON_VS_UNIT = (
    "Every catalog weapon against every catalog unit, one attack from full HP with the "
    "unit's Shields active: p_defeat with the weapon's crit effect where it is Damage+X, "
    "no other crit effect counted (a push is assumed to meet no terrain; a Fracture the "
    "crit inflicts, which the engines apply to the same attack's 3+ damage, is left "
    "out), expected_damage (rules.expected_damage) and damage_per_tl = "
    "expected_damage / the weapon's TL cost: the damage a Timeline space buys."
)


# ---- one attack -------------------------------------------------------------------------


@functools.cache
def joint(
    dice: int, accuracy: int, crit_from: int, params: Parameters
) -> tuple[tuple[int, int, Fraction], ...]:
    """(hits, crits, p) of one attack, p > 0 only, by hits then crits
    (``rules.hits_and_crits`` of ``rules.die_chances``)."""
    p_hit, p_crit = rules.die_chances(accuracy, crit_from, params)
    return tuple(sorted(rules.hits_and_crits(dice, p_hit, p_crit)))


@functools.cache
def joint_counts(
    dice: int, accuracy: int, crit_from: int, params: Parameters
) -> tuple[tuple[tuple[int, int, int], ...], int]:
    """:func:`joint` as integer weights over a common denominator: ((hits, crits,
    weight), ...), denominator (sums of integers, not of Fractions)."""
    rows = joint(dice, accuracy, crit_from, params)
    den = math.lcm(*(p.denominator for *_, p in rows))
    return tuple((h, c, p.numerator * (den // p.denominator)) for h, c, p in rows), den


def _dist(weights: Mapping[int, int], den: int) -> Dist:
    """Integer weights over ``den`` (summing to it) -> the distribution."""
    return Dist(tuple((o, Fraction(w, den)) for o, w in sorted(weights.items()) if w))


def _image(dist: Dist, fn: Any) -> Dist:
    """The distribution of ``fn(outcome)`` (``Dist.map`` summing integer weights)."""
    den = math.lcm(*(p.denominator for p in dist.probabilities))
    weights: dict[int, int] = {}
    for o, p in dist.items:
        v = fn(o)
        weights[v] = weights.get(v, 0) + p.numerator * (den // p.denominator)
    return _dist(weights, den)


@functools.cache
def damage_of(
    hits: int, crit: bool, shields: int, plus: int, fractured: bool, params: Parameters
) -> int:
    """``rules.combat_damage`` of one attack: Damage+``plus`` only when a crit triggers
    the weapon's crit effect."""
    return int(rules.combat_damage(hits, shields, plus if crit else 0, fractured, params))


@functools.cache
def is_defeated(hp: int, damage: int) -> bool:
    """``rules.defeated`` of a unit of ``hp`` taking ``damage``."""
    return bool(rules.defeated(hp - damage))


@functools.cache
def attack_damage(
    dice: int,
    accuracy: int,
    crit_from: int,
    shields: int,
    params: Parameters,
    plus: int = 0,
    fractured: bool = False,
    disarmed: bool = False,
) -> Dist:
    """Combat damage of one attack against ``shields`` active Shields: Damage+``plus``
    when a crit triggers it, the target Fractured, the attacker Disarmed (every hit
    re-rolled, ``rules.hits_dist``; no crit effect, so no Damage+X)."""
    if disarmed or not plus:  # no Damage+X: the hits alone decide the damage
        hits = rules.hits_dist(dice, accuracy, crit_from, params, disarmed=disarmed)
        return _image(hits, lambda h: damage_of(h, False, shields, 0, fractured, params))
    rows, den = joint_counts(dice, accuracy, crit_from, params)
    weights: dict[int, int] = {}
    for h, c, w in rows:
        d = damage_of(h, c > 0, shields, plus, fractured, params)
        weights[d] = weights.get(d, 0) + w
    return _dist(weights, den)


def defeat_chances(damage: Dist, hps: Iterable[int]) -> list[Fraction]:
    """P(a damage distribution defeats a unit of each HP) (``rules.defeated``): tail sums
    of the distribution where the damages that defeat are every damage from some least
    one up (as any HP rule makes them), else summed one by one."""
    outcomes, probs = damage.outcomes, damage.probabilities
    tail = [Fraction(0)] * (len(outcomes) + 1)
    for i in range(len(outcomes) - 1, -1, -1):
        tail[i] = tail[i + 1] + probs[i]
    out = []
    for hp in hps:
        kills = [i for i, d in enumerate(outcomes) if is_defeated(hp, d)]
        if kills == list(range(len(outcomes) - len(kills), len(outcomes))):
            out.append(tail[len(outcomes) - len(kills)])
        else:
            out.append(sum((probs[i] for i in kills), Fraction(0)))
    return out


def p_defeat(
    dice: int, accuracy: int, crit_from: int, shields: int, hp: int, params: Parameters
) -> Fraction:
    """P(one attack, no crit effect, defeats a unit of ``hp`` behind ``shields``)."""
    return defeat_chances(attack_damage(dice, accuracy, crit_from, shields, params), [hp])[0]


def pushed_damage(hits: int, crit: bool, shields: int, params: Parameters) -> int:
    """Damage of one attack whose crit pushes the target into terrain: the collision
    first (``rules.collision``, Shields applying), the Shields it used flipped off
    (``rules.blocked``), then the combat damage against the Shields left."""
    if not crit:
        return damage_of(hits, False, shields, 0, False, params)
    bump = int(rules.collision(shields, params))
    left = shields - int(rules.blocked(params.collision_damage, shields))
    return bump + damage_of(hits, False, left, 0, False, params)


@functools.cache
def push_damage(dice: int, accuracy: int, shields: int, params: Parameters) -> Dist:
    """Damage of one attack (crits on the rule's faces) of the pushing weapon of
    :func:`pushed_damage`."""
    rows, den = joint_counts(dice, accuracy, params.crit_from, params)
    weights: dict[int, int] = {}
    for h, c, w in rows:
        d = pushed_damage(h, c > 0, shields, params)
        weights[d] = weights.get(d, 0) + w
    return _dist(weights, den)


def area_outcome(
    dice: int, accuracy: int, hp: int, shields_1: int, shields_2: int, params: Parameters
) -> dict[str, Fraction]:
    """P(none / first / both defeated) of one area roll on two units of ``hp`` behind
    ``shields_1`` <= ``shields_2``, hits worked out target by target; a second defeated
    alone is impossible then (a ValueError if a rule ever made it possible)."""
    out = dict.fromkeys(DEFEATED, Fraction(0))
    for h, p in rules.hits_dist(dice, accuracy, params.crit_from, params).items:
        first = is_defeated(hp, damage_of(h, False, shields_1, 0, False, params))
        second = is_defeated(hp, damage_of(h, False, shields_2, 0, False, params))
        if second and not first:
            raise ValueError(
                f"the second target alone defeated ({h} hits, Shields {shields_1} and {shields_2})"
            )
        out["both" if second else "first" if first else "none"] += p
    return out


@functools.cache
def defeat_within(
    dice: int,
    accuracy: int,
    shields: int,
    params: Parameters,
    attacks: int = ATTACKS[-1],
    cap: int = HPS[-1],
) -> tuple[Dist, ...]:
    """The total damage after 1..``attacks`` attacks (each against the full Shields, no
    crit effects): the one attack's damage convolved, totals above ``cap`` merged into
    ``cap`` (enough to defeat any HP tabled: nothing heals between these attacks)."""
    one = attack_damage(dice, accuracy, params.crit_from, shields, params)
    den = math.lcm(*(p.denominator for p in one.probabilities))
    step = [(d, p.numerator * (den // p.denominator)) for d, p in one.items]
    total, total_den, out = {0: 1}, 1, []
    for _ in range(attacks):
        new: dict[int, int] = {}
        for x, wx in total.items():
            for y, wy in step:
                z = min(x + y, cap)
                new[z] = new.get(z, 0) + wx * wy
        total, total_den = new, total_den * den
        out.append(_dist(total, total_den))
    return tuple(out)


def clear_caches() -> None:
    """Forget every memoized distribution, here and in ``rules.py`` (the tests that
    replace a rule function call it before and after)."""
    memos = (
        joint,
        joint_counts,
        damage_of,
        is_defeated,
        attack_damage,
        push_damage,
        defeat_within,
        rules.die_chances,
        rules.hits_dist,
        rules.expected_damage,
    )
    for fn in memos:
        fn.cache_clear()


def weapon_plus(weapon: Any) -> int:
    """The Damage+X of a weapon's crit effect, 0 for any other effect."""
    return weapon.crit_value if weapon.crit_effect == "damage" else 0


# ---- the tables -------------------------------------------------------------------------


def hits_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = [
        (n, a, cf, h, c, prob)
        for n in DICE
        for a in ACCURACIES
        for cf in CRIT_FROMS
        for h, c, prob in joint(n, a, cf, p)
    ]
    return exact_frame(rows, ["p"], ("dice", "accuracy", "crit_from", "hits", "crits", "p"))


def damage_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for effect, (plus, fractured, disarmed) in EFFECTS.items():
        for n in SMALL_DICE:
            dists = {
                (a, s): attack_damage(n, a, p.crit_from, s, p, plus, fractured, disarmed)
                for a in ACCURACIES
                for s in SHIELDS
            }
            top = max(d.outcomes[-1] for d in dists.values())
            for (a, s), d in dists.items():
                pmf = d.pmf()
                rows += [(n, a, s, effect, k, pmf.get(k, Fraction(0))) for k in range(top + 1)]
    return exact_frame(rows, ["p"], ("dice", "accuracy", "shields", "effect", "damage", "p"))


def defeat_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for n in DICE:
        for a in ACCURACIES:
            for cf in CRIT_FROMS:
                for s in SHIELDS:
                    kills = defeat_chances(attack_damage(n, a, cf, s, p), HPS)
                    rows += [(n, a, cf, s, hp, k) for hp, k in zip(HPS, kills, strict=True)]
    return exact_frame(
        rows, ["p_defeat"], ("dice", "accuracy", "crit_from", "shields", "hp", "p_defeat")
    )


def over_attacks_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for n in SMALL_DICE:
        for a in ACCURACIES:
            for s in SHIELDS:
                kills = [defeat_chances(t, HPS) for t in defeat_within(n, a, s, p)]
                rows += [
                    (n, a, s, hp, k, kills[k - 1][i]) for i, hp in enumerate(HPS) for k in ATTACKS
                ]
    return exact_frame(
        rows, ["p_defeat"], ("dice", "accuracy", "shields", "hp", "attacks", "p_defeat")
    )


def area_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for n in SMALL_DICE:
        for a in ACCURACIES:
            for hp in AREA_HPS:
                for s1 in SHIELDS:
                    for s2 in SHIELDS:
                        if s1 <= s2:
                            out = area_outcome(n, a, hp, s1, s2, p)
                            rows += [(n, a, hp, s1, s2, k, out[k]) for k in DEFEATED]
    return exact_frame(
        rows, ["p"], ("dice", "accuracy", "hp", "shields_1", "shields_2", "defeated", "p")
    )


def collision_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for n in SMALL_DICE:
        for a in ACCURACIES:
            for s in SHIELDS:
                plain = defeat_chances(attack_damage(n, a, p.crit_from, s, p), HPS)
                push = defeat_chances(push_damage(n, a, s, p), HPS)
                rows += [(n, a, s, hp, plain[i], push[i]) for i, hp in enumerate(HPS)]
    return exact_frame(
        rows,
        ["p_defeat_plain", "p_defeat_push"],
        ("dice", "accuracy", "shields", "hp", "p_defeat_plain", "p_defeat_push"),
    )


def weapon_vs_unit(
    catalog: Catalog, weapon_id: str, unit_id: str
) -> tuple[Dist, Fraction, Fraction, Fraction]:
    """(damage distribution, p_defeat, expected_damage, damage_per_tl) of one attack of
    the weapon on the unit (``DOC_WEAPON_VS_UNIT``); an unknown id is a KeyError."""
    p = catalog.params
    w, u = catalog.weapons[weapon_id], catalog.units[unit_id]
    plus = weapon_plus(w)
    dist = attack_damage(w.strength, w.accuracy, w.crit_from, u.shields, p, plus)
    expected = rules.expected_damage(w.strength, w.accuracy, w.crit_from, u.shields, plus, p)
    return dist, defeat_chances(dist, [u.hp])[0], expected, expected / w.tl


def weapon_vs_unit_table(catalog: Catalog) -> pl.DataFrame:
    rows = []
    for wid in catalog.weapons:
        for uid in catalog.units:
            _, kill, expected, per_tl = weapon_vs_unit(catalog, wid, uid)
            rows.append((wid, uid, kill, expected, per_tl))
    return exact_frame(
        rows,
        ["p_defeat", "expected_damage", "damage_per_tl"],
        ("weapon", "unit", "p_defeat", "expected_damage", "damage_per_tl"),
    )


def tables(catalog: Catalog) -> dict[str, pl.DataFrame]:
    """Every exact table of the game, by file stem."""
    return {
        "hits": hits_table(catalog),
        "damage": damage_table(catalog),
        "defeat": defeat_table(catalog),
        "defeat_over_attacks": over_attacks_table(catalog),
        "area": area_table(catalog),
        "collision": collision_table(catalog),
        "weapon_vs_unit": weapon_vs_unit_table(catalog),
    }


# ---- declarations -------------------------------------------------------------------------


def _percent(value: str) -> str:
    return f"{float(Fraction(value)) * 100:.1f}%"


def _plain_then_push(row: Mapping[str, Any]) -> str:
    return f"{_percent(row['p_defeat_plain'])} / {_percent(row['p_defeat_push'])}"


TABLES: Sequence[Table] = (
    Table(
        "hits",
        DOC_HITS,
        columns(
            ("dice", "id"),
            ("accuracy", "id"),
            ("crit_from", "id"),
            ("hits", "count"),
            ("crits", "count"),
            ("p", "probability"),
        ),
    ),
    Table(
        "damage",
        DOC_DAMAGE,
        columns(
            ("dice", "id"),
            ("accuracy", "id"),
            ("shields", "id"),
            ("effect", "id"),
            ("damage", "count"),
            ("p", "probability"),
        ),
        Pivot(
            ("effect", "dice", "shields"),
            "accuracy",
            "damage",
            "p",
            note="Each cell: P(exactly that much combat damage), a row per accuracy.",
        ),
    ),
    Table(
        "defeat",
        DOC_DEFEAT,
        columns(
            ("dice", "id"),
            ("accuracy", "id"),
            ("crit_from", "id"),
            ("shields", "id"),
            ("hp", "id"),
            ("p_defeat", "probability"),
        ),
        Pivot(
            ("crit_from", "accuracy", "shields"),
            "dice",
            "hp",
            "p_defeat",
            note="Each cell: P(one attack defeats the unit), a row per dice, a column per HP.",
        ),
    ),
    Table(
        "defeat_over_attacks",
        DOC_OVER_ATTACKS,
        columns(
            ("dice", "id"),
            ("accuracy", "id"),
            ("shields", "id"),
            ("hp", "id"),
            ("attacks", "id"),
            ("p_defeat", "probability"),
        ),
        Pivot(
            ("accuracy", "shields", "attacks"),
            "dice",
            "hp",
            "p_defeat",
            note="Each cell: P(defeated within that many attacks), a row per dice, a "
            "column per HP.",
        ),
    ),
    Table(
        "area",
        DOC_AREA,
        columns(
            ("dice", "id"),
            ("accuracy", "id"),
            ("hp", "id"),
            ("shields_1", "id"),
            ("shields_2", "id"),
            ("defeated", "id"),
            ("p", "probability"),
        ),
        Pivot(
            ("defeated", "hp", "shields_1", "shields_2"),
            "dice",
            "accuracy",
            "p",
            note="Each cell: P(that outcome of one area roll), a row per dice, a column "
            "per accuracy.",
        ),
    ),
    Table(
        "collision",
        DOC_COLLISION,
        columns(
            ("dice", "id"),
            ("accuracy", "id"),
            ("shields", "id"),
            ("hp", "id"),
            ("p_defeat_plain", "probability"),
            ("p_defeat_push", "probability"),
        ),
        Pivot(
            ("shields", "hp"),
            "dice",
            "accuracy",
            _plain_then_push,
            note="Each cell: P(defeat) without / with the crit's push into terrain.",
        ),
    ),
    Table(
        "weapon_vs_unit",
        DOC_WEAPON_VS_UNIT,
        columns(
            ("weapon", "id"),
            ("unit", "id"),
            ("p_defeat", "probability"),
            ("expected_damage", "expectation"),
            ("damage_per_tl", "expectation"),
        ),
    ),
)
