"""Checks behind ``catalogs/alphaside/claims.toml``: each computes one rulebook claim by
running the rule code of ``rules.py`` (and the exact distributions of ``exact.py``, which
call it) on the catalog's rules parameters, the numbers the engines read. A check never
restates the rule it checks, and never computes the expected value: that is written in
``claims.toml``, worked out by hand from the rulebook.
``tests/alphaside/test_claims.py`` holds, for every claim, a change that fails it.

``crit_from`` in a claim's args defaults to the rules parameter (9: "9-10 are critical
hits"); an ``effect`` is one of the damage table's (``exact.EFFECTS``).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from sims.alphaside import exact, rules
from sims.alphaside.catalog import Catalog


def _crit(catalog: Catalog, crit_from: int | None) -> int:
    return catalog.params.crit_from if crit_from is None else crit_from


# ---- Dice, Accuracy & Crits ----------------------------------------------------------------


def die_chance(
    catalog: Catalog, accuracy: int = 0, crit_from: int | None = None
) -> dict[str, Fraction]:
    """(P(hit), P(crit)) of one die (``rules.die_chances``, face by face)."""
    hit, crit = rules.die_chances(accuracy, _crit(catalog, crit_from), catalog.params)
    return {"hit": hit, "crit": crit}


def hit_faces(catalog: Catalog, accuracy: int = 0, crit_from: int | None = None) -> list[int]:
    """The faces of the die that hit (``rules.is_hit`` of each)."""
    p = catalog.params
    cf = _crit(catalog, crit_from)
    return [f for f in range(1, p.die + 1) if bool(rules.is_hit(f, accuracy, cf, p))]


def crit_faces(catalog: Catalog, crit_from: int | None = None) -> list[int]:
    """The faces of the die that are crits (``rules.is_crit`` of each)."""
    p = catalog.params
    cf = _crit(catalog, crit_from)
    return [f for f in range(1, p.die + 1) if bool(rules.is_crit(f, cf, p))]


def hits_chance(
    catalog: Catalog, dice: int, accuracy: int, hits: int, crit_from: int | None = None
) -> Fraction:
    """P(exactly ``hits`` hits, crits included) of one attack (``exact.joint``, as
    hits.csv)."""
    rows = exact.joint(dice, accuracy, _crit(catalog, crit_from), catalog.params)
    return sum((p for h, _, p in rows if h == hits), Fraction(0))


def disarm_chance(catalog: Catalog, accuracy: int = 0, crit_from: int | None = None) -> Fraction:
    """P(a Disarmed attacker's die hits) (``rules.disarmed_hit_chance``)."""
    return rules.disarmed_hit_chance(accuracy, _crit(catalog, crit_from), catalog.params)


# ---- Damage, Shields & defeat; Status effects; Push & Pull -------------------------------------


def combat_damage(
    catalog: Catalog, hits: list[int], shields: int, plus: int = 0, fractured: bool = False
) -> list[int]:
    """``rules.combat_damage`` of each hit count against ``shields`` active Shields."""
    p = catalog.params
    return [int(rules.combat_damage(h, shields, plus, fractured, p)) for h in hits]


def damage_dist(
    catalog: Catalog, dice: int, accuracy: int, shields: int, effect: str = "plain"
) -> dict[str, Fraction]:
    """The combat damage of one attack, crits on the rule's faces, as damage.csv
    (``exact.attack_damage`` with the effect's Damage+X, Fracture or Disarm)."""
    p = catalog.params
    plus, fractured, disarmed = exact.EFFECTS[effect]
    d = exact.attack_damage(dice, accuracy, p.crit_from, shields, p, plus, fractured, disarmed)
    return {str(k): p for k, p in d.items}


def defeat_chance(
    catalog: Catalog, dice: int, accuracy: int, shields: int, hp: int, crit_from: int | None = None
) -> Fraction:
    """P(one attack, no crit effect, defeats a unit), as defeat.csv (``exact.p_defeat``)."""
    return exact.p_defeat(dice, accuracy, _crit(catalog, crit_from), shields, hp, catalog.params)


def collision_damage(catalog: Catalog, shields: list[int]) -> list[int]:
    """``rules.collision``: what a collision costs a unit behind each count of Shields."""
    return [int(rules.collision(s, catalog.params)) for s in shields]


def after_defeat(catalog: Catalog, times: list[int]) -> list[int]:
    """``rules.after_defeat``: where a token defeated at each Timeline time moves."""
    return [int(rules.after_defeat(t, catalog.params)) for t in times]


# ---- The Timeline; Squad & Tactics deck; Movement ---------------------------------------------


def timeline(catalog: Catalog, times: list[int]) -> dict[str, object]:
    """The last Timeline time (``rules.last_time``) and the Phase (1-based) of each time
    (``rules.phase_of``)."""
    p = catalog.params
    return {
        "last_time": rules.last_time(p),
        "phase": [int(rules.phase_of(t, p)) + 1 for t in times],
    }


def deck_size(catalog: Catalog, phases: int) -> int:
    """``rules.deck_size`` of a game of ``phases`` Phases (the catalog's parameters with
    that many Phases)."""
    return rules.deck_size(dataclasses.replace(catalog.params, phases=phases))


def tactics_draw(catalog: Catalog) -> int:
    """Cards drawn at the start and after each Phase but the last (the engines read it)."""
    return catalog.params.tactics_draw


def advance(
    catalog: Catalog, speeds: list[int], engaged: bool = False, slowed: bool = False
) -> list[int]:
    """``rules.advance_hexes`` of a unit of each Speed."""
    p = catalog.params
    return [int(rules.advance_hexes(s, slowed, engaged, p)) for s in speeds]


CHECKS = {
    f.__name__: f
    for f in (
        die_chance,
        hit_faces,
        crit_faces,
        hits_chance,
        disarm_chance,
        combat_damage,
        damage_dist,
        defeat_chance,
        collision_damage,
        after_defeat,
        timeline,
        deck_size,
        tactics_draw,
        advance,
    )
}
