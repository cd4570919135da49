"""Checks behind ``catalogs/skirmish/claims.toml``: each computes one rulebook claim
from the catalog and ``rules.py`` (never from a stored number)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from typing import Any

from sims.core.dist import Dist
from sims.skirmish import exact, rules
from sims.skirmish.catalog import Catalog


def part_stat(catalog: Catalog, part: str, field: str) -> Any:
    return getattr(catalog.parts[part], field)


def kit_location_stat(catalog: Catalog, kit: str, location: str, field: str) -> Any:
    """A stat of the part at a silhouette location of a kit (core = chassis)."""
    mech = catalog.mech(kit)
    return getattr(rules.silhouette(mech)[rules.SILHOUETTE.index(location)], field)


def class_core_armor(catalog: Catalog, klass: str) -> list[int]:
    """The distinct core Armor values over every chassis of a class."""
    return sorted(
        {p.armor for p in catalog.parts.values() if p.slot == "chassis" and p.klass == klass}
    )


def full_or_better(catalog: Catalog, weapon: str, kit: str, location: str) -> Fraction:
    """P(d6 + Pen >= Armor) for a plain hit (no natural 20, no Brace), F5."""
    armor = kit_location_stat(catalog, kit, location, "armor")
    odds = rules.penetration(catalog.parts[weapon].pen, armor, catalog.params.crit_margin,
                             params=catalog.params)  # fmt: skip
    return odds["full"] + odds["crit"]


def rules_value(catalog: Catalog, name: str) -> Any:
    value = getattr(catalog.params, name)
    return list(value) if isinstance(value, tuple) else value


def kit_bands(catalog: Catalog, kit: str) -> list[str]:
    """The kit's silhouette as 'part first-last' strings (F4)."""
    stats = rules.mech_stats(catalog.mech(kit), catalog.params)
    return [f"{rules.SILHOUETTE[i]} {a}-{b}" for i, a, b in rules.band_ranges(stats.bands)]


def mean_crit_share(catalog: Catalog, weapon: str, kits: list[str], margin: int) -> Fraction:
    return exact.mean_crit_share(catalog, weapon, kits, margin)


def kit_weights(catalog: Catalog, kits: list[str]) -> dict[str, int]:
    return {k: rules.mech_weight(catalog.mech(k)) for k in kits}


def team_weight(catalog: Catalog, kits: list[str]) -> int:
    return sum(rules.mech_weight(catalog.mech(k)) for k in kits)


def team_fits(catalog: Catalog, kits: list[str]) -> bool:
    """Whether the fielded kits are a legal team under the Team Cap (B3)."""
    return not rules.team_problems([catalog.mech(k) for k in kits], catalog.params)


def illegal_rosters(catalog: Catalog) -> list[str]:
    """Every roster of four distinct untouched kits that breaks a rule (B)."""
    bad = []
    for combo in combinations(sorted(catalog.kits), catalog.params.roster_size):
        problems = rules.roster_problems([catalog.mech(k) for k in combo], catalog.params)
        if problems:
            bad.append(f"{'+'.join(combo)}: {problems[0]}")
    return bad


def active_pilots(catalog: Catalog, pilots: list[str]) -> list[str]:
    return sorted(rules.active_pilots([catalog.pilots[p] for p in pilots]))


def modifier_p(catalog: Catalog, plus: int, minus: int, value: int) -> Fraction:
    """P(modifier result == value) with ``plus`` [+] and ``minus`` [-] dice (F3)."""
    return rules.modifier(rules.net_modifier_dice(plus, minus)).p_eq(value)


def modifiers_cancel(catalog: Catalog, plus: int, minus: int) -> bool:
    """Whether ``plus`` [+] with ``minus`` [-] rolls exactly like their difference."""
    net = plus - minus
    direct = rules.modifier(net)
    # Cancelling by hand: net [+] as highest-of-net d6 added, net [-] subtracted.
    by_hand = Dist.die(6).highest(abs(net)) if net else Dist.constant(0)
    return direct == (by_hand if net >= 0 else -by_hand)


def overcharge_heat_mean(catalog: Catalog, nth: int) -> Fraction:
    return rules.overcharge_heat(nth, catalog.params).mean()


def overcharge_heat_range(catalog: Catalog, nth: int) -> list[int]:
    dist = rules.overcharge_heat(nth, catalog.params)
    return [min(dist.outcomes), max(dist.outcomes)]


def front_distance(catalog: Catalog) -> int:
    return rules.front_distance(catalog.params)


def zone_points(catalog: Catalog) -> int:
    return rules.zone_points_available(catalog.params)


def wipe_points(catalog: Catalog) -> int:
    return rules.wipe_points(catalog.params)


def crit_share_at(catalog: Catalog, weapon: str, kit: str, margin: int) -> Fraction:
    params = replace(catalog.params, crit_margin=margin)
    return exact.crit_share(catalog.parts[weapon], catalog.mech(kit), params)


CHECKS = {
    f.__name__: f
    for f in (
        part_stat, kit_location_stat, class_core_armor, full_or_better, rules_value,
        kit_bands, mean_crit_share, kit_weights, team_weight, team_fits, illegal_rosters,
        active_pilots, modifier_p, modifiers_cancel, overcharge_heat_mean,
        overcharge_heat_range, front_distance, zone_points, wipe_points, crit_share_at,
    )
}  # fmt: skip
