"""Checks behind ``catalogs/skirmish/claims.toml``: each computes one rulebook claim
by running the rule code of ``rules.py`` (or, for a number no rule uses, the path the
battle engines read it by) on the catalog. A check never restates the rule it checks,
and never computes the expected value: that is written in ``claims.toml``, worked out
by hand from the rulebook. ``tests/skirmish/test_claims_fail.py`` holds, for every
claim, a catalog or rule change that makes it fail."""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from itertools import combinations
from typing import Any

from sims.core.dist import Dist
from sims.skirmish import exact, rules
from sims.skirmish.catalog import Catalog, Mech

MOUNTS = tuple(f.name for f in fields(Mech) if f.name != "name")  # chassis .. back, pilot


def _outcome(value: Any) -> str:
    """A penetration outcome as its name, whether the rule gives a name or a code."""
    return value if isinstance(value, str) else rules.OUTCOMES[int(value)]


def _dist(dist: Dist) -> dict[str, Fraction]:
    """A distribution as {outcome as text: probability} (TOML keys are text)."""
    return {str(v): dist.p_eq(v) for v in sorted(dist.outcomes)}


# ---- F5: penetration, Armor, crit margin ---------------------------------------------


def part_stat(catalog: Catalog, part: str, field: str) -> Fraction:
    """A weapon's Pen as the penetration rule applies it (F5): E[d6 + Pen] - 7/2, with
    E[d6 + Pen] = sum over Armor A >= 1 of P(a plain hit reaches A), the full-or-crit
    odds of ``rules.penetration``. Only ``pen`` is measured this way."""
    if field != "pen":
        raise KeyError(field)
    weapon, params = catalog.parts[part], catalog.params
    total, armor = Fraction(0), 1
    while armor <= 100:
        odds = rules.penetration(weapon.pen, armor, params.crit_margin, params=params)
        reach = odds["full"] + odds["crit"]
        if reach == 0:
            break
        total += reach
        armor += 1
    return total - Fraction(rules.PEN_DIE + 1, 2)


def kit_location_stat(catalog: Catalog, kit: str, location: str, field: str) -> Any:
    """A derived per-location stat of a kit (``armor``, ``durability``, ``bands``,
    ``sizes``) as ``rules.mech_stats`` gives it to the engines (003 C, F4)."""
    stats = rules.mech_stats(catalog.mech(kit), catalog.params)
    return getattr(stats, field)[rules.SILHOUETTE.index(location)]


def class_core_armor(catalog: Catalog, klass: str) -> list[int]:
    """The distinct core Armor values ``rules.mech_stats`` gives over every chassis of a
    class, each put in a mech in place of the first kit's chassis (the core is the
    chassis, 003 C)."""
    base = catalog.mech(next(iter(catalog.kits)))
    core = rules.SILHOUETTE.index("core")
    return sorted({
        rules.mech_stats(replace(base, chassis=p), catalog.params).armor[core]
        for p in catalog.parts.values() if p.slot == "chassis" and p.klass == klass
    })  # fmt: skip


def full_or_better(catalog: Catalog, weapon: str, kit: str, location: str) -> Fraction:
    """P(d6 + Pen >= Armor) for a plain hit (no natural 20, no Brace), F5."""
    armor = kit_location_stat(catalog, kit, location, "armor")
    odds = rules.penetration(catalog.parts[weapon].pen, armor, catalog.params.crit_margin,
                             params=catalog.params)  # fmt: skip
    return odds["full"] + odds["crit"]


def crit_excess(catalog: Catalog, armor: int) -> int | None:
    """The least amount a penetration total must exceed ``armor`` by for
    ``rules.penetration_outcome`` to call it a crit, at the catalog's margin (F5)."""
    margin = catalog.params.crit_margin
    for excess in range(0, 4 * rules.PEN_DIE):
        if _outcome(rules.penetration_outcome(armor + excess, armor, margin)) == "crit":
            return excess
    return None


def mean_crit_share(catalog: Catalog, weapon: str, kits: list[str], margin: int) -> Fraction:
    return exact.mean_crit_share(catalog, weapon, kits, margin)


# ---- F3: modifier dice ---------------------------------------------------------------


def modifier_p(catalog: Catalog, plus: int, minus: int, value: int) -> Fraction:
    """P(modifier result == value) with ``plus`` [+] and ``minus`` [-] dice (F3)."""
    return rules.modifier(rules.net_modifier_dice(plus, minus)).p_eq(value)


def modifier_dist(catalog: Catalog, plus: int, minus: int) -> dict[str, Fraction]:
    """The modifier result's distribution with ``plus`` [+] and ``minus`` [-] (F3)."""
    return _dist(rules.modifier(rules.net_modifier_dice(plus, minus)))


# ---- F4: silhouette ------------------------------------------------------------------


def kit_bands(catalog: Catalog, kit: str) -> list[str]:
    """The kit's silhouette as 'part first-last' strings (F4)."""
    stats = rules.mech_stats(catalog.mech(kit), catalog.params)
    return [f"{rules.SILHOUETTE[i]} {a}-{b}" for i, a, b in rules.band_ranges(stats.bands)]


# ---- B: Weight, Team Cap, legality ---------------------------------------------------


def kit_weights(catalog: Catalog, kits: list[str]) -> dict[str, int]:
    return {k: rules.mech_weight(catalog.mech(k)) for k in kits}


def team_weight(catalog: Catalog, kits: list[str]) -> int:
    return sum(rules.mech_weight(catalog.mech(k)) for k in kits)


def team_fits(catalog: Catalog, kits: list[str]) -> bool:
    """Whether the fielded kits are a legal team under the Team Cap (B3)."""
    return not rules.team_problems([catalog.mech(k) for k in kits], catalog.params)


def _lighter(mechs: list[Mech]) -> list[Mech] | None:
    """The team with one Weight taken off the heaviest part of its heaviest mech (first
    on ties); None when nothing is left to take."""
    i = max(range(len(mechs)), key=lambda k: (rules.mech_weight(mechs[k]), -k))
    mech = mechs[i]
    slot = max(MOUNTS[:-1], key=lambda s: getattr(mech, s).weight)
    part = getattr(mech, slot)
    if part.weight <= 0:
        return None
    lighter = replace(mech, **{slot: replace(part, weight=part.weight - 1)})
    return [lighter if k == i else m for k, m in enumerate(mechs)]


def team_cap_edge(catalog: Catalog, kits: list[str]) -> int | None:
    """The heaviest fielded Weight ``rules.team_problems`` accepts, found by taking one
    Weight at a time off the named team (too heavy to start with) until it is accepted.
    Lightening never breaks a class cap or a copy limit, so only the Team Cap can stop
    it (B3). None if no Weight is ever accepted."""
    mechs: list[Mech] | None = [catalog.mech(k) for k in kits]
    while mechs is not None:
        if not rules.team_problems(mechs, catalog.params):
            return sum(rules.mech_weight(m) for m in mechs)
        mechs = _lighter(mechs)
    return None


def swap_roster(catalog: Catalog, mechs: list[Mech], swap: str) -> list[Mech]:
    """The roster with one mech changed: ``KIT.SLOT=ID`` puts part (or pilot) ID in
    SLOT; ``KIT.over=N`` changes its chassis Weight so the mech weighs N over its class
    cap (read from the rules parameters ``light_cap``, ``medium_cap``, ``heavy_cap``)."""
    target, _, ident = swap.partition("=")
    kit, _, slot = target.partition(".")
    if kit not in {m.name for m in mechs}:
        raise KeyError(kit)

    def change(m: Mech) -> Mech:
        if slot == "over":
            cap = getattr(catalog.params, f"{m.chassis.klass}_cap")
            weight = m.chassis.weight + cap + int(ident) - rules.mech_weight(m)
            return replace(m, chassis=replace(m.chassis, weight=weight))
        if slot not in MOUNTS:
            raise KeyError(slot)
        value = catalog.pilots[ident] if slot == "pilot" else catalog.parts[ident]
        return replace(m, **{slot: value})

    return [change(m) if m.name == kit else m for m in mechs]


def roster_legality(catalog: Catalog, base: list[str], forbidden: list[str]) -> dict[str, list]:
    """Both sides of roster legality (B, B4), through ``rules.roster_problems``:
    ``refused_untouched`` lists every roster of distinct untouched kits it refuses (with
    its first problem); ``accepted_forbidden`` lists every swap of ``forbidden``, each
    applied alone to the ``base`` roster, that it accepts."""
    params = catalog.params
    refused = []
    for combo in combinations(sorted(catalog.kits), params.roster_size):
        problems = rules.roster_problems([catalog.mech(k) for k in combo], params)
        if problems:
            refused.append(f"{'+'.join(combo)}: {problems[0]}")
    roster = [catalog.mech(k) for k in base]
    accepted = [
        swap for swap in forbidden
        if not rules.roster_problems(swap_roster(catalog, roster, swap), params)
    ]  # fmt: skip
    return {"refused_untouched": refused, "accepted_forbidden": accepted}


# ---- D: pilots -----------------------------------------------------------------------


def active_pilots(catalog: Catalog, pilots: list[str]) -> list[str]:
    return sorted(rules.active_pilots([catalog.pilots[p] for p in pilots]))


# ---- G3, H, I: heat, board, rounds, scoring ------------------------------------------


def overcharge_heat_dist(catalog: Catalog, nth: int) -> dict[str, Fraction]:
    """The distribution of the nth Overcharge's Heat (G3)."""
    return _dist(rules.overcharge_heat(nth, catalog.params))


def engine_param(catalog: Catalog, name: str) -> Any:
    """A rules parameter no formula of ``rules.py`` reads, as the battle engines read
    it: from the compiled :class:`battle.Battle` of a duel of the catalog's first kit."""
    from sims.skirmish import battle  # the engines' model; imported where it is needed

    kit = next(iter(catalog.kits))
    compiled = battle.compile_battle(catalog, battle.Side((kit,)), battle.Side((kit,)))
    value = getattr(compiled.params, name)
    return list(value) if isinstance(value, tuple) else value


def front_distance(catalog: Catalog) -> int:
    return rules.front_distance(catalog.params)


def zone_points(catalog: Catalog) -> int:
    return rules.zone_points_available(catalog.params)


def wipe_points(catalog: Catalog) -> int:
    return rules.wipe_points(catalog.params)


CHECKS = {
    f.__name__: f
    for f in (
        part_stat, kit_location_stat, class_core_armor, full_or_better, crit_excess,
        mean_crit_share, modifier_p, modifier_dist, kit_bands, kit_weights, team_weight,
        team_fits, team_cap_edge, roster_legality, active_pilots, overcharge_heat_dist,
        engine_param, front_distance, zone_points, wipe_points,
    )
}  # fmt: skip
