"""Alluvion Knights exact tables (001), built from ``rules.py`` over ``Dist``/``Fraction``
only; floats appear only as the ``*_float`` columns.

Every outcome a table counts is decided by a rule function called on ints: a hit by
``rules.is_hit``, the number of damage dice by ``rules.margin``, a Direct Hit by
``rules.direct_hit_chance``, systems lost by ``rules.systems_lost``, the pilot by
``rules.loss_target``, a rout by ``rules.routs``, a shutdown by ``rules.shuts_down``.
This module only does the probability: the highest die of a mixed pool by CDF products
(``P(highest <= x) = prod_i F_i(x)``), the two highest by the joint CDF, sums and
binomials by ``Dist``.

The pools are derived from the rules parameters and the catalog, never listed here:
every Attack pool a legal loadout fields (``rules.attack_dice`` of every systems count
``rules.loadout_problem`` allows on the largest chassis, plus 0..``rockets_max`` rocket
dice fired), each again with the Skill dice; every Defense pool (``rules.defense_dice``,
ECM and Resistive dice together) with and without the Skill dice.

Each table function returns a polars DataFrame following DESIGN.md's table contract:
fractions as strings ``a/b`` with a ``<column>_float`` beside each (``TABLES`` declares
them; ``analysis.tables.write_tables`` writes them).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import polars as pl

from sims.alluvion import rules
from sims.alluvion.catalog import Catalog
from sims.alluvion.params import Parameters
from sims.core.dist import Dist, exact_frame
from sims.core.protocol import Pivot, Table, columns

SPOTS = range(0, 9)  # DESIGN contract: "spot a fixed value 0..8"
MARGINS = range(1, 13)  # DESIGN contract: "margin 1..12 d6 rolled"
DIRECT_HITS = range(0, 13)  # the systems table: an Armor hit by 0..12 Direct Hits
MORALE_RATINGS = range(3, 11)  # Morale: "a Morale rating from 3 to 10"
TURNS = range(1, 13)  # the battery table: 1..12 turns depleted
REPAIR_DIE = 6  # Repairs: "roll 1d6" (catalog.py checks the entries cover its faces)
ROUND_CASE = rules.EXPOSED  # the round table's damage case
ROUND_SPOT = 0
ROUND_ATTACKS = 2  # Actions: two a round, both attacks

Pool = tuple[int, ...]
Pair = tuple[int, int]

# How each table is computed (its Markdown header and the report say so).
DOC_ATTACK = (
    "One attack: p_hit = P(highest Attack die + spot - highest Defense die >= 1) "
    "(Knowing When Attacks Hit; rules.is_hit), each pool's highest die by CDF products "
    "(P(highest <= x) = product of each die's P(<= x)); the empty Defense pool '0' "
    "defends with 0. Attack pools: every pool a legal loadout fields (its weapon systems: "
    "the first 1d6, each later one 1d8; plus the d8 of each rocket it fires), each also "
    "with the 2d6 Skill dice added (Skill, Wild Dice: assignable in lieu of any pool's "
    "dice), and the Skill dice alone. Defense pools: ECM and Resistive dice together (the "
    "first defensive system 2d6, each later 1d6), with and without the Skill dice."
)
DOC_MARGIN = (
    "The damage dice of one attack, pools and spot as in attack.csv: margin = "
    "rules.margin(highest Attack die, spot, highest Defense die): 0 on a miss, else "
    "Attack + Spot - Defense (Damage; DESIGN reading: Spot counts in the margin), at least "
    "1. Each (attack_pool, spot) lists every margin from 0 to the largest any Defense "
    "pool allows, so some rows hold p = 0."
)
DOC_DIRECT_HITS = (
    "Direct Hits among margin damage d6 (Damage): each die independently a Direct Hit on "
    "close quarters 4-6 (1/2), ranged non-smart against an exposed target 5-6 (1/3), "
    "against a target in cover 6 (1/6), smart 4-6 (1/2); binomial, exact "
    "(rules.direct_hit_chance)."
)
DOC_SYSTEMS = (
    "An Armor with no Direct Hits before taking direct_hits more: rules.systems_lost "
    "systems are lost (one per 2 Direct Hits). With system_loss = roll each loss rolls "
    "the loss die: on a 6 the pilot takes the hit instead (rules.loss_target), else a "
    "system is destroyed (enough systems assumed); with system_loss = choice every loss "
    "is a system. Follows the catalog's system_loss."
)
DOC_ROUND = (
    "A whole round of one Armor against another (the named loadouts of loadouts.toml), "
    "both of its two actions attacks on the same exposed target, spot 0, no rockets. "
    "Policy: the attacker's first attack takes its highest Attack die, the second its "
    "second-highest, or, once the Attack pool has run out, the highest Skill die (then "
    "the next). The defender's policy 'highest': its highest Defense die meets the first "
    "attack, its second-highest the second, with the same Skill fallback, 0 with nothing "
    "left. hits = attacks with Attack - Defense >= 1 (rules.is_hit); the two highest of a "
    "pool by their joint CDF."
)
DOC_ROUND_DIRECT_HITS = (
    "The expected Direct Hits dealt in the round of round.csv (same pools and policy): "
    "each attack's margin (rules.margin) damage d6, each a Direct Hit with the exposed "
    "chance 1/3 (ranged non-smart against an exposed target), summed over both attacks."
)
DOC_MORALE = (
    "P(rout) of one Morale check: the sum of 2d6 greater than the side's rating "
    "(Morale; rules.routs)."
)
DOC_BATTERY = (
    "A depleted Armor rolls 1d6 after every turn and shuts down on a 1 (Batteries; "
    "rules.shuts_down): p_shutdown = P(at least one shutdown in that many turns)."
)
DOC_REPAIRS = (
    "Systems replaced by one repair roll of 1d6 (Repairs; repairs.toml): 4-6 replace 1d6 "
    "systems, 2-3 replace 1d3, on a 1 the player chooses movement or attack and replaces "
    "none."
)


# ---- the highest die, the two highest ------------------------------------------------------


@functools.cache
def highest(sides: Pool) -> Dist:
    """The highest die of a pool of (possibly different) dice, ``sides`` its dice (any
    order); the empty pool is the constant 0 (no die to assign)."""
    if not sides:
        return Dist.constant(0)
    return Dist.highest_of([Dist.die(s) for s in sorted(sides)])


def _weights(d: Dist, den: int) -> dict[int, int]:
    """A distribution as integer counts over ``den`` (a multiple of every denominator)."""
    return {o: int(p * den) for o, p in d.items}


def _count_le(s: int, x: int) -> int:
    """Faces of a d``s`` at most ``x``."""
    return min(max(x, 0), s)


@functools.cache
def top_two(sides: Pool) -> dict[Pair, Fraction]:
    """Joint distribution of (highest, second-highest) die of a pool, missing dice 0:
    with G(x, y) = P(top1 <= x, top2 <= y) for y <= x = P(all <= y) + sum_i P(y < X_i
    <= x) prod_(j != i) P(X_j <= y), and G(x, y) = G(x, x) for y > x, the probability of
    (x, y) is G(x, y) - G(x-1, y) - G(x, y-1) + G(x-1, y-1)."""
    sides = tuple(sorted(sides))
    if len(sides) < 2:
        return {(o, 0): p for o, p in highest(sides).items}
    den = math.prod(sides)

    def g(x: int, y: int) -> int:
        y = min(x, y)
        low = [_count_le(s, y) for s in sides]
        total = math.prod(low)
        for i, s in enumerate(sides):
            others = math.prod(low[:i]) * math.prod(low[i + 1 :])
            total += (_count_le(s, x) - low[i]) * others
        return total

    out = {}
    for x in range(1, max(sides) + 1):
        for y in range(1, x + 1):
            n = g(x, y) - g(x - 1, y) - g(x, y - 1) + g(x - 1, y - 1)
            if n:
                out[(x, y)] = Fraction(n, den)
    return out


@functools.cache
def first_two(pool: Pool, skill: Pool, in_every_pool: bool = False) -> dict[Pair, Fraction]:
    """The dice a Knight assigns to its first and second use of a pool in a round: the
    pool's highest, then its second-highest; once the pool has run out, the Skill dice
    from the top (Skill, Wild Dice: "Take from this pool if you run out of dice"), and 0
    with nothing left. The first die is the pool's even when a Skill die is higher.
    ``in_every_pool`` (``skill_dice_use = any``, ``rules.skill_in_every_pool``): each
    use takes the higher of the pool's and the Skill dice's highest, so the two dice are
    the top two of pool and Skill dice together."""
    if in_every_pool and skill:
        return first_two(tuple(sorted(pool + skill)), ())
    if len(pool) >= 2:
        return top_two(pool)
    if len(pool) == 1:
        return {
            (a, s): pa * ps for a, pa in Dist.die(pool[0]).items for s, ps in highest(skill).items
        }
    return top_two(skill)


# ---- the pools --------------------------------------------------------------------------------


def legal_counts(catalog: Catalog) -> list[tuple[int, ...]]:
    """Every systems count (a count per kind, KINDS order) some chassis of the catalog can
    field: ``rules.loadout_problem`` on the chassis with the most slots (the other limits
    do not depend on the chassis)."""
    p = catalog.params
    slots = max(c.slots for c in catalog.chassis.values())
    return [
        counts
        for counts in itertools.product(range(p.systems_per_kind + 1), repeat=len(rules.KINDS))
        if rules.loadout_problem(counts, 0, slots, p) is None
    ]


def _order(pools: Iterable[Pool]) -> list[Pool]:
    return sorted({tuple(sorted(x)) for x in pools}, key=lambda x: (len(x), x))


def attack_pools(catalog: Catalog) -> list[Pool]:
    """Every distinct Attack pool: the weapon dice of every legal loadout plus the rocket
    dice it may fire (0..rockets_max), then each of those with the Skill dice added; the
    empty pool dropped (it cannot attack). Pools without Skill dice first."""
    p = catalog.params
    weapons = {rules.attack_dice(c, p) for c in legal_counts(catalog)}
    rockets = [rules.rocket_dice(n, p) for n in range(p.rockets_max + 1)]
    base = _order(w + r for w in weapons for r in rockets)
    skill = rules.skill_dice(p)
    with_skill = [x for x in _order(b + skill for b in base) if x not in base]
    return [x for x in base + with_skill if x]


def defense_pools(catalog: Catalog) -> list[Pool]:
    """Every distinct Defense pool (ECM and Resistive dice together) of a legal loadout,
    the empty pool included, then each with the Skill dice added."""
    p = catalog.params
    base = _order(sum(rules.defense_dice(c, p), ()) for c in legal_counts(catalog))
    skill = rules.skill_dice(p)
    return base + [x for x in _order(b + skill for b in base) if x not in base]


# ---- one attack ------------------------------------------------------------------------------


class _Rules:
    """``rules.is_hit`` and ``rules.margin`` on ints, memoized for the table loops."""

    def __init__(self, params: Parameters) -> None:
        self.params = params
        self._memo: dict[tuple[int, int, int], tuple[bool, int]] = {}

    def __call__(self, attack: int, spot: int, defense: int) -> tuple[bool, int]:
        key = (attack, spot, defense)
        out = self._memo.get(key)
        if out is None:
            out = (
                bool(rules.is_hit(attack, spot, defense, self.params)),
                int(rules.margin(attack, spot, defense, self.params)),
            )
            self._memo[key] = out
        return out


def _joint(attack: Pool, defense: Pool) -> tuple[list[tuple[int, int, int]], int]:
    """(attack value, defense value, count) over a common denominator."""
    ha, hd = highest(tuple(sorted(attack))), highest(tuple(sorted(defense)))
    da = math.lcm(*(p.denominator for _, p in ha.items))
    dd = math.lcm(*(p.denominator for _, p in hd.items))
    wa, wd = _weights(ha, da), _weights(hd, dd)
    return [(a, d, na * nd) for a, na in wa.items() for d, nd in wd.items()], da * dd


def _resolve(
    joint: list[tuple[int, int, int]], spot: int, rule: _Rules
) -> tuple[int, dict[int, int]]:
    hits, margins = 0, {}
    for a, d, n in joint:
        hit, m = rule(a, spot, d)
        hits += n * hit
        margins[m] = margins.get(m, 0) + n
    return hits, margins


def p_hit(attack: Pool, defense: Pool, spot: int, params: Parameters) -> Fraction:
    """P(an attack with the pool's highest Attack die, ``spot`` and the highest Defense
    die hits) (``rules.is_hit``)."""
    joint, den = _joint(attack, defense)
    return Fraction(_resolve(joint, spot, _Rules(params))[0], den)


def margin_dist(attack: Pool, defense: Pool, spot: int, params: Parameters) -> Dist:
    """The number of damage dice (``rules.margin``; 0 on a miss) of that attack."""
    joint, _ = _joint(attack, defense)
    return Dist.from_weights(_resolve(joint, spot, _Rules(params))[1])


# ---- damage -----------------------------------------------------------------------------------


def direct_hit_p(case: int, params: Parameters) -> Fraction:
    """P(one damage die is a Direct Hit) in a case (``rules.direct_hit_chance``)."""
    faces, sides = rules.direct_hit_chance(case, params)
    return Fraction(faces, sides)


def direct_hits_dist(case: int, margin: int, params: Parameters) -> Dist:
    """Direct Hits among ``margin`` damage dice: binomial."""
    return Dist.binomial(margin, direct_hit_p(case, params))


def expected_direct_hits(margins: Dist, case: int, params: Parameters) -> Fraction:
    """E[Direct Hits] of an attack whose damage dice follow ``margins``: the mean of each
    margin's binomial, weighted."""
    return sum(
        (p * direct_hits_dist(case, m, params).mean() for m, p in margins.items), Fraction(0)
    )


def pilot_p(params: Parameters) -> Fraction:
    """P(a loss die picks the pilot) (``rules.loss_target`` over its faces, with a system
    for every other face)."""
    faces = range(1, params.loss_die + 1)
    pilot = sum(rules.loss_target(f, params.loss_die, params) == -1 for f in faces)
    return Fraction(pilot, params.loss_die)


def systems_dist(direct_hits: int, params: Parameters) -> dict[Pair, Fraction]:
    """(systems destroyed, pilot hits) of an Armor without Direct Hits before taking
    ``direct_hits``: ``rules.systems_lost`` losses, each the pilot with the loss die's
    pilot chance under system_loss = roll, never under choice."""
    losses = int(rules.systems_lost(0, direct_hits, params))
    q = pilot_p(params) if params.system_loss == "roll" else Fraction(0)
    return {(losses - k, k): p for k, p in Dist.binomial(losses, q).items}


# ---- the round --------------------------------------------------------------------------------


def round_outcome(
    attack: Pool, defense: Pool, params: Parameters, case: int = ROUND_CASE, spot: int = ROUND_SPOT
) -> tuple[Dist, Fraction]:
    """Hits (0..2) and expected Direct Hits of a round of two attacks (``DOC_ROUND``):
    the attacker's first two dice (:func:`first_two`, the Skill dice as fallback) against
    the defender's first two (policy 'highest')."""
    skill = rules.skill_dice(params)
    rule = _Rules(params)
    hits: dict[int, Fraction] = {}
    margins: dict[int, Fraction] = {}
    every = rules.skill_in_every_pool(params)
    for (a1, a2), pa in first_two(tuple(sorted(attack)), skill, every).items():
        for (d1, d2), pd in first_two(tuple(sorted(defense)), skill, every).items():
            (h1, m1), (h2, m2) = rule(a1, spot, d1), rule(a2, spot, d2)
            p = pa * pd
            hits[h1 + h2] = hits.get(h1 + h2, 0) + p
            for m in (m1, m2):
                margins[m] = margins.get(m, 0) + p
    dh = sum(
        (p * direct_hits_dist(case, m, params).mean() for m, p in margins.items()), Fraction(0)
    )
    return Dist.from_weights(hits), dh


# ---- morale, batteries, repairs -------------------------------------------------------------


def p_rout(rating: int, params: Parameters) -> Fraction:
    """P(a Morale check routs a side of that rating) (``rules.routs``)."""
    roll = Dist.die(params.morale_die).repeat(params.morale_dice)
    return roll.p(lambda total: bool(rules.routs(total, rating)))


def p_shutdown(turns: int, params: Parameters) -> Fraction:
    """P(a depleted Armor shuts down within ``turns`` battery rolls)."""
    per_turn = Dist.die(params.battery_die).p(lambda f: bool(rules.shuts_down(f, params)))
    return 1 - (1 - per_turn) ** turns


def repairs_dist(catalog: Catalog) -> Dist:
    """Systems replaced by one repair roll: each entry's faces of the d6, then its dice
    (``replaces``; ``0`` for the choice)."""
    return Dist.mixture((r.high - r.low + 1, Dist.parse(r.replaces)) for r in catalog.repairs)


# ---- the tables -------------------------------------------------------------------------------


def attack_and_margin_tables(catalog: Catalog) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``attack`` and ``margin``: every Attack pool x Defense pool x spot, one pass."""
    p = catalog.params
    rule = _Rules(p)
    attacks, defenses = attack_pools(catalog), defense_pools(catalog)
    defense_values = {v for d in defenses for v in highest(d).outcomes}
    hit_rows, margin_rows = [], []
    for atk in attacks:
        joints = {dfn: _joint(atk, dfn) for dfn in defenses}
        for spot in SPOTS:
            top = max(rule(a, spot, d)[1] for a in highest(atk).outcomes for d in defense_values)
            for dfn in defenses:
                joint, den = joints[dfn]
                hits, margins = _resolve(joint, spot, rule)
                key = {
                    "attack_pool": rules.pool_text(atk),
                    "defense_pool": rules.pool_text(dfn),
                    "spot": spot,
                }
                hit_rows.append({**key, "p_hit": Fraction(hits, den)})
                margin_rows += [
                    {**key, "margin": m, "p": Fraction(margins.get(m, 0), den)}
                    for m in range(top + 1)
                ]
    return exact_frame(hit_rows, ["p_hit"]), exact_frame(margin_rows, ["p"])


def direct_hits_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = [
        {"case": name, "margin": m, "direct_hits": k, "p": direct_hits_dist(case, m, p).p_eq(k)}
        for case, name in enumerate(rules.CASES)
        for m in MARGINS
        for k in range(m + 1)
    ]
    return exact_frame(rows, ["p"])


def systems_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for dh in DIRECT_HITS:
        by_pilot = sorted(systems_dist(dh, p).items(), key=lambda item: item[0][1])
        rows += [
            {"direct_hits": dh, "systems_destroyed": s, "pilot_hits": k, "p": prob}
            for (s, k), prob in by_pilot
        ]
    return exact_frame(rows, ["p"])


def loadout_pools(catalog: Catalog) -> dict[str, tuple[Pool, Pool]]:
    """Each named loadout's (Attack pool of its weapon systems, Defense pool)."""
    p = catalog.params
    return {
        lid: (rules.attack_dice(lo.counts, p), sum(rules.defense_dice(lo.counts, p), ()))
        for lid, lo in catalog.loadouts.items()
    }


def round_tables(catalog: Catalog) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``round`` (hits 0..2) and ``round_direct_hits`` for every ordered pair of named
    loadouts."""
    p = catalog.params
    pools = loadout_pools(catalog)
    memo: dict[tuple[Pool, Pool], tuple[Dist, Fraction]] = {}
    hit_rows, dh_rows = [], []
    for attacker, (atk, _) in pools.items():
        for defender, (_, dfn) in pools.items():
            if (atk, dfn) not in memo:
                memo[(atk, dfn)] = round_outcome(atk, dfn, p)
            hits, dh = memo[(atk, dfn)]
            key = {
                "attacker": attacker,
                "defender": defender,
                "attack_pool": rules.pool_text(atk),
                "defense_pool": rules.pool_text(dfn),
            }
            hit_rows += [{**key, "hits": k, "p": hits.p_eq(k)} for k in range(ROUND_ATTACKS + 1)]
            dh_rows.append({**key, "expected_direct_hits": dh})
    return exact_frame(hit_rows, ["p"]), exact_frame(dh_rows, ["expected_direct_hits"])


def morale_table(catalog: Catalog) -> pl.DataFrame:
    rows = [{"rating": r, "p_rout": p_rout(r, catalog.params)} for r in MORALE_RATINGS]
    return exact_frame(rows, ["p_rout"])


def battery_table(catalog: Catalog) -> pl.DataFrame:
    rows = [{"turns": t, "p_shutdown": p_shutdown(t, catalog.params)} for t in TURNS]
    return exact_frame(rows, ["p_shutdown"])


def repairs_table(catalog: Catalog) -> pl.DataFrame:
    d = repairs_dist(catalog)
    rows = [{"systems_replaced": k, "p": d.p_eq(k)} for k in range(d.outcomes[-1] + 1)]
    return exact_frame(rows, ["p"])


def tables(catalog: Catalog) -> dict[str, pl.DataFrame]:
    """Every exact table of the game, by file stem."""
    attack, margin = attack_and_margin_tables(catalog)
    round_, round_dh = round_tables(catalog)
    return {
        "attack": attack,
        "margin": margin,
        "direct_hits": direct_hits_table(catalog),
        "systems": systems_table(catalog),
        "round": round_,
        "round_direct_hits": round_dh,
        "morale": morale_table(catalog),
        "battery": battery_table(catalog),
        "repairs": repairs_table(catalog),
    }


# ---- declarations -------------------------------------------------------------------------


TABLES: Sequence[Table] = (
    Table(
        "attack",
        DOC_ATTACK,
        columns(
            ("attack_pool", "id"), ("defense_pool", "id"), ("spot", "id"), ("p_hit", "probability")
        ),
        Pivot(
            ("spot",),
            "attack_pool",
            "defense_pool",
            "p_hit",
            note="Each cell: P(hit), a row per Attack pool, a column per Defense pool.",
        ),
    ),
    Table(
        "margin",
        DOC_MARGIN,
        columns(
            ("attack_pool", "id"),
            ("defense_pool", "id"),
            ("spot", "id"),
            ("margin", "id"),
            ("p", "probability"),
        ),
        Pivot(
            ("attack_pool", "spot"),
            "defense_pool",
            "margin",
            "p",
            note="Each cell: P(that many damage dice); margin 0 is a miss.",
        ),
    ),
    Table(
        "direct_hits",
        DOC_DIRECT_HITS,
        columns(("case", "id"), ("margin", "id"), ("direct_hits", "count"), ("p", "probability")),
    ),
    Table(
        "systems",
        DOC_SYSTEMS,
        columns(
            ("direct_hits", "id"),
            ("systems_destroyed", "count"),
            ("pilot_hits", "count"),
            ("p", "probability"),
        ),
    ),
    Table(
        "round",
        DOC_ROUND,
        columns(
            ("attacker", "id"),
            ("defender", "id"),
            ("attack_pool", "id"),
            ("defense_pool", "id"),
            ("hits", "count"),
            ("p", "probability"),
        ),
        Pivot(
            ("hits",),
            "attacker",
            "defender",
            "p",
            note="Each cell: P(that many of the round's two attacks hit).",
        ),
    ),
    Table(
        "round_direct_hits",
        DOC_ROUND_DIRECT_HITS,
        columns(
            ("attacker", "id"),
            ("defender", "id"),
            ("attack_pool", "id"),
            ("defense_pool", "id"),
            ("expected_direct_hits", "expectation"),
        ),
        Pivot(
            (),
            "attacker",
            "defender",
            "expected_direct_hits",
            note="Each cell: expected Direct Hits the attacker deals in one round.",
        ),
    ),
    Table(
        "morale",
        DOC_MORALE,
        columns(("rating", "id"), ("p_rout", "probability")),
    ),
    Table(
        "battery",
        DOC_BATTERY,
        columns(("turns", "id"), ("p_shutdown", "probability")),
    ),
    Table(
        "repairs",
        DOC_REPAIRS,
        columns(("systems_replaced", "count"), ("p", "probability")),
    ),
)
