"""Checks behind ``catalogs/alluvion/claims.toml``: each computes one rulebook claim by
running the rule code of ``rules.py`` (and the exact distributions of ``exact.py``, which
call it) on the catalog's rules parameters and tables, the numbers the engines read. A
check never restates the rule it checks, and never computes the expected value: that is
written in ``claims.toml``, worked out by hand from the rulebook.
``tests/alluvion/test_claims.py`` holds, for every claim, a change that fails it.

A loadout in a claim's args is a list of system ids (``["resistive", "resistive"]``),
a kind as often as it is carried; a pool is written like ``2d6+1d8`` (``0`` empty).
"""

from __future__ import annotations

from fractions import Fraction

from sims.alluvion import exact, rules
from sims.alluvion.catalog import Catalog

# ---- looking things up ---------------------------------------------------------------------


def _counts(catalog: Catalog, systems: list[str]) -> tuple[int, ...]:
    """A count per kind (KINDS order) of the listed system ids; an unknown id is a
    KeyError (``run_claims`` names it)."""
    for s in systems:
        if s not in catalog.systems:
            raise KeyError(s)
    return tuple(systems.count(k) for k in rules.KINDS)


def _case(name: str) -> int:
    if name not in rules.CASES:
        raise KeyError(name)
    return rules.CASES.index(name)


# ---- The Systems, Stats -----------------------------------------------------------------------


def defense_pool(catalog: Catalog, systems: list[str]) -> str:
    """The Defense pool (ECM and Resistive dice together, ``rules.defense_dice``)."""
    return rules.pool_text(sum(rules.defense_dice(_counts(catalog, systems), catalog.params), ()))


def attack_pool(catalog: Catalog, systems: list[str], rockets: int = 0) -> str:
    """The Attack pool of the weapon systems (``rules.attack_dice``) with ``rockets``
    rockets fired (``rules.rocket_dice``)."""
    p = catalog.params
    return rules.pool_text(
        rules.attack_dice(_counts(catalog, systems), p) + rules.rocket_dice(rockets, p)
    )


def move_pool(catalog: Catalog, systems: list[str]) -> str:
    """The Move pool (``rules.move_dice``: movement systems and the mobile frame's die)."""
    return rules.pool_text(rules.move_dice(_counts(catalog, systems), catalog.params))


def spot_pool(catalog: Catalog, systems: list[str]) -> str:
    return rules.pool_text(rules.spot_dice(_counts(catalog, systems), catalog.params))


def skill_pool(catalog: Catalog) -> str:
    """The Skill (Wild) dice every Knight rolls each round."""
    return rules.pool_text(rules.skill_dice(catalog.params))


def loadout_legal(catalog: Catalog, chassis: str, systems: list[str], rockets: int) -> bool:
    """Whether a loadout can be fielded on the chassis (``rules.loadout_problem``)."""
    slots = catalog.chassis[chassis].slots
    return rules.loadout_problem(_counts(catalog, systems), rockets, slots, catalog.params) is None


# ---- General Combat Info ----------------------------------------------------------------------


def range_hexes(catalog: Catalog, up_to: int = 200) -> int:
    """The longest distance in hexes (of 0..``up_to``) not beyond direct fire range
    (``rules.beyond_range``)."""
    return max(d for d in range(up_to + 1) if not rules.beyond_range(d, catalog.params))


def hexes_in(catalog: Catalog, meters: int) -> int:
    """Whole hexes in ``meters`` (``rules.hexes_moved`` of that many meters, no die)."""
    return int(rules.hexes_moved(meters, 0, catalog.params))


def opportunity(catalog: Catalog, distances: list[int]) -> dict[str, str]:
    """The dice a ranged attack at each distance adds to the defender's roll: the
    Opportunity die where ``rules.beyond_range``, none within range."""
    p = catalog.params
    return {
        str(d): rules.pool_text((p.opportunity_die,) if rules.beyond_range(d, p) else ())
        for d in distances
    }


def actions(catalog: Catalog) -> int:
    return catalog.params.actions


# ---- Knowing When Attacks Hit -----------------------------------------------------------------


def hit_test(catalog: Catalog, spot: int, defense: int, attacks: list[int]) -> list[bool]:
    """``rules.is_hit`` of each Attack value with that Spot against that Defense."""
    return [bool(rules.is_hit(a, spot, defense, catalog.params)) for a in attacks]


def hit_chance(catalog: Catalog, attack: str, defense: str, spot: int) -> Fraction:
    """P(hit) with the highest die of each pool (``exact.p_hit``, as attack.csv)."""
    return exact.p_hit(rules.parse_pool(attack), rules.parse_pool(defense), spot, catalog.params)


# ---- Damage -----------------------------------------------------------------------------------


def damage_dice(catalog: Catalog, pairs: list[list[int]], spot: int = 0) -> list[int]:
    """``rules.margin``: the damage d6 of an attack of each [Attack, Defense] value."""
    return [int(rules.margin(a, spot, d, catalog.params)) for a, d in pairs]


def direct_hit_chances(catalog: Catalog) -> dict[str, Fraction]:
    """P(one damage die is a Direct Hit) in each case: the share of the damage die's faces
    at or above ``rules.direct_from`` (the faces the engines count)."""
    p = catalog.params
    faces = range(1, p.damage_die + 1)
    return {
        name: Fraction(sum(f >= rules.direct_from(case, p) for f in faces), p.damage_die)
        for case, name in enumerate(rules.CASES)
    }


def direct_hits(catalog: Catalog, case: str, margin: int) -> dict[str, Fraction]:
    """The Direct Hits among ``margin`` damage dice (``exact.direct_hits_dist``)."""
    d = exact.direct_hits_dist(_case(case), margin, catalog.params)
    return {str(k): p for k, p in d.items}


def systems_lost(catalog: Catalog, before: int, now: list[int]) -> list[int]:
    """``rules.systems_lost`` by an Armor going from ``before`` Direct Hits to each of
    ``now``."""
    return [int(rules.systems_lost(before, n, catalog.params)) for n in now]


def pilot_chance(catalog: Catalog) -> Fraction:
    """P(a destroyed system's loss die hits the pilot) (``rules.loss_target``)."""
    return exact.pilot_p(catalog.params)


# ---- Spotting, Grappling ----------------------------------------------------------------------


def spot_reach(catalog: Catalog, surveillance: int, targets: list[list]) -> list[bool]:
    """``rules.can_spot`` of each [distance, in cover] target by a spotter carrying that
    many surveillance systems (reach.toml)."""
    reach = catalog.reach[surveillance]
    return [
        bool(rules.can_spot(surveillance, d, bool(c), reach.range, reach.cover)) for d, c in targets
    ]


def grapple(catalog: Catalog, pairs: list[list[int]]) -> list[bool]:
    """``rules.grapples`` of each [grappler's Skill die, target's Move die]."""
    return [bool(rules.grapples(g, m)) for g, m in pairs]


def break_free(catalog: Catalog, pairs: list[list[int]]) -> list[bool]:
    """``rules.breaks_free`` of each [grappled's die, grappler's die]."""
    return [bool(rules.breaks_free(a, b)) for a, b in pairs]


# ---- Foot Soldiers, Morale, Batteries, Repairs ------------------------------------------------


def squad(catalog: Catalog) -> dict[str, object]:
    """A squad's soldiers and its Attack pool, as the engines read them."""
    p = catalog.params
    return {"soldiers": p.squad_size, "attack": rules.pool_text((p.squad_die,))}


def morale_due(catalog: Catalog, cases: list[list]) -> list[bool]:
    """``rules.morale_check_due`` of each [Armors lost, fielded, lead lost]."""
    return [
        bool(rules.morale_check_due(lost, fielded, bool(lead))) for lost, fielded, lead in cases
    ]


def rout_chance(catalog: Catalog, rating: int) -> Fraction:
    """P(a Morale check routs a side of that rating) (``exact.p_rout``)."""
    return exact.p_rout(rating, catalog.params)


def shutdown_chance(catalog: Catalog, turns: int) -> Fraction:
    """P(a depleted Armor shuts down within that many turns) (``exact.p_shutdown``)."""
    return exact.p_shutdown(turns, catalog.params)


def repairs(catalog: Catalog) -> dict[str, Fraction]:
    """Systems replaced by one repair roll (``exact.repairs_dist`` of repairs.toml)."""
    return {str(k): p for k, p in exact.repairs_dist(catalog).items}


CHECKS = {
    f.__name__: f
    for f in (
        defense_pool,
        attack_pool,
        move_pool,
        spot_pool,
        skill_pool,
        loadout_legal,
        range_hexes,
        hexes_in,
        opportunity,
        actions,
        hit_test,
        hit_chance,
        damage_dice,
        direct_hit_chances,
        direct_hits,
        systems_lost,
        pilot_chance,
        spot_reach,
        grapple,
        break_free,
        squad,
        morale_due,
        rout_chance,
        shutdown_chance,
        repairs,
    )
}
