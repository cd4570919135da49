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

from sims.core.catalog import CatalogError
from sims.core.dist import Dist
from sims.skirmish import exact, geometry, modifiers, policy, rules
from sims.skirmish.catalog import Catalog, Mech, load_catalog

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
    return sorted(
        {
            rules.mech_stats(replace(base, chassis=p), catalog.params).armor[core]
            for p in catalog.parts.values()
            if p.slot == "chassis" and p.klass == klass
        }
    )


def full_or_better(
    catalog: Catalog,
    weapon: str,
    kit: str,
    location: str,
    *,
    nat20: bool = False,
    braced: bool = False,
) -> Fraction:
    """P(d6 + Pen >= Armor) of one hit (F5): a plain hit unless ``nat20`` (a natural-20
    hit, F Hit: +``nat20_pen``) or ``braced`` (the target Braced, E: +``brace_armor``),
    the bonuses as the catalog's parameters give them to ``rules.penetration``."""
    armor = kit_location_stat(catalog, kit, location, "armor")
    odds = rules.penetration(
        catalog.parts[weapon].pen,
        armor,
        catalog.params.crit_margin,
        nat20=nat20,
        braced=braced,
        params=catalog.params,
    )
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


def net_dice(catalog: Catalog, situation: dict[str, Any]) -> int:
    """The net modifier dice of one Fire action ([+] positive) in ``situation`` (the
    fields of ``modifiers.Situation``, the rest at their defaults), as both engines
    count them: ``modifiers.net_dice`` with the catalog's parameters and crit tables."""
    s = modifiers.Situation(**situation)
    return modifiers.net_dice(s, catalog.params, modifiers.EffectDice.of(catalog))


def charge_dice_by_hexes(catalog: Catalog, hexes: list[int]) -> list[int]:
    """The net modifier dice of a Charge's melee attack (F11.3) after each number of
    hexes moved, nothing else applying (``modifiers.net_dice``, which reads
    ``rules.charge_dice``)."""
    return [net_dice(catalog, {"melee": True, "charge_hexes": h}) for h in hexes]


# ---- F Declare, F Hit, E Lock On: reach and contests ---------------------------------


def range_reach(catalog: Catalog, weapon: str, farthest: int) -> dict[str, int]:
    """The farthest distance (1..``farthest`` hexes) in each band ``rules.range_band``
    gives the weapon: optimal and long (F Declare); 0 for a band it never gives."""
    part = catalog.parts[weapon]
    bands = [rules.range_band(d, part, catalog.params) for d in range(1, farthest + 1)]
    return {
        band: max((d for d, b in enumerate(bands, start=1) if b == band), default=0)
        for band in ("optimal", "long")
    }


def lock_on_chance(catalog: Catalog, systems: int, e_def: int) -> Fraction:
    """P(Lock On succeeds) over the d20 (``rules.CONTEST_DIE``) by ``rules.locks_on``:
    d20 + Systems against the target's E-Def (E Lock On)."""
    faces = range(1, rules.CONTEST_DIE + 1)
    wins = sum(bool(rules.locks_on(f, systems, e_def)) for f in faces)
    return Fraction(wins, rules.CONTEST_DIE)


def kick_fall_chance(catalog: Catalog, piloting: int) -> Fraction:
    """P(the kicker falls Prone after a missed kick) over the d20 (``rules.CONTEST_DIE``)
    by ``rules.kick_falls`` at the catalog's ``kick_fall_below`` (F11.1)."""
    faces = range(1, rules.CONTEST_DIE + 1)
    falls = sum(bool(rules.kick_falls(f, piloting, catalog.params)) for f in faces)
    return Fraction(falls, rules.CONTEST_DIE)


def grapple_bonus_by_kit(catalog: Catalog, kits: list[str]) -> dict[str, int]:
    """Each kit's class bonus in grapple contests as the engines compile it
    (``battle.compile_battle``'s ``grapple_bonus``, from ``rules.grapple_bonus``) (F11.5)."""
    from sims.skirmish import battle  # the engines' model; imported where it is needed

    b = battle.compile_battle(catalog, battle.Side(tuple(kits)), battle.Side((kits[0],)))
    return {k: int(b.grapple_bonus[i]) for i, k in enumerate(kits)}


def grapple_win_chance(catalog: Catalog, kit: str, other: str) -> dict[str, Fraction]:
    """P(the acting mech wins a grapple contest) over both d20s, by
    ``battle.wins_contest`` (d20 + Piloting + class bonus each, F11.5) in a duel of the
    two kits with their suggested pilots, each kit acting in turn."""
    from sims.skirmish import battle  # the engines' model; imported where it is needed

    b = battle.compile_battle(catalog, battle.Side((kit,)), battle.Side((other,)))
    faces = range(1, rules.CONTEST_DIE + 1)
    out = {}
    for m, o, name in ((0, 1, kit), (1, 0, other)):
        wins = sum(bool(battle.wins_contest(b, m, x, o, y)) for x in faces for y in faces)
        out[name] = Fraction(wins, rules.CONTEST_DIE**2)
    return out


# ---- F7 Prone, crit and stress tables ------------------------------------------------


def prone_evasion_loss(catalog: Catalog, kit: str) -> int:
    """Evasion the kit loses while Prone (F7): ``rules.evasion`` of its card numbers
    standing less the same lying Prone."""
    m = catalog.mech(kit)
    stats = rules.mech_stats(m, catalog.params)

    def evasion(prone: bool) -> int:
        return rules.evasion(
            m.chassis.evasion,
            m.legs.evasion,
            m.pilot.piloting,
            stats.overload,
            catalog.params,
            prone=prone,
        )

    return evasion(False) - evasion(True)


def location_rerolls(catalog: Catalog) -> dict[str, int]:
    """Location rerolls ``rules.location_rerolls`` allows, by attack and target (F4,
    F11, F7 Prone)."""
    return {
        f"{'melee' if melee else 'ranged'}{' prone' if prone else ''}": int(
            rules.location_rerolls(melee, prone)
        )
        for melee in (False, True)
        for prone in (False, True)
    }


def table_die(catalog: Catalog, table: str) -> dict[str, Fraction]:
    """P(each row of the ``crit`` or ``stress`` table) when the engines roll it: one
    die of ``rules.TABLE_DIE`` faces, face f reading the row whose roll is f (F7, G)."""
    rows = {r.roll: r.id for r in getattr(catalog, table)}
    faces = range(1, rules.TABLE_DIE + 1)
    return {rows[f]: Fraction(1, rules.TABLE_DIE) for f in faces if f in rows}


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
        swap
        for swap in forbidden
        if not rules.roster_problems(swap_roster(catalog, roster, swap), params)
    ]
    return {"refused_untouched": refused, "accepted_forbidden": accepted}


def overload_loss(catalog: Catalog, kit: str, overs: list[int]) -> dict[str, list[int]]:
    """[Speed lost, Evasion lost] by ``rules.mech_stats`` when the kit weighs each of
    ``overs`` over its class cap (its chassis Weight changed, as ``swap_roster``'s
    ``over=N``), against the untouched kit (B4); the untouched kits are within cap."""
    base = catalog.mech(kit)
    before = rules.mech_stats(base, catalog.params)
    out = {}
    for n in overs:
        (mech,) = swap_roster(catalog, [base], f"{kit}.over={n}")
        after = rules.mech_stats(mech, catalog.params)
        out[str(n)] = [before.speed - after.speed, before.evasion - after.evasion]
    return out


def most_copies(catalog: Catalog, base: list[str], part: str, swaps: list[str]) -> int | None:
    """The most copies of ``part`` across the roster ``rules.roster_problems`` accepts:
    the ``base`` roster, then each of ``swaps`` (``swap_roster``) applied on top of the
    ones before, each adding a copy (B copy limits). None if none is accepted."""
    roster = [catalog.mech(k) for k in base]
    best = None
    for k in range(len(swaps) + 1):
        if k:
            roster = swap_roster(catalog, roster, swaps[k - 1])
        copies = sum(p.id == part for m in roster for p in m.parts)
        if not rules.roster_problems(roster, catalog.params):
            best = copies if best is None else max(best, copies)
    return best


def roster_sizes(catalog: Catalog, sizes: list[int]) -> list[int]:
    """The roster sizes ``rules.roster_problems`` accepts: each n of ``sizes`` for which
    some roster of n distinct untouched kits is accepted (B)."""
    kits = sorted(catalog.kits)
    return [
        n
        for n in sizes
        if any(
            not rules.roster_problems([catalog.mech(k) for k in combo], catalog.params)
            for combo in combinations(kits, n)
        )
    ]


def team_sizes(catalog: Catalog) -> list[int]:
    """The numbers of kits in the fielded teams the team counts enumerate
    (``teams.kit_teams_brute_force``, which the legal-team tables read) (B)."""
    from sims.skirmish import teams  # imported where it is needed

    return sorted({len(team.split("+")) for team, _ in teams.kit_teams_brute_force(catalog)})


def pilot_stat_accepted(
    catalog: Catalog, stats: list[str], values: list[int]
) -> dict[str, list[int]]:
    """Per pilot stat, the values the catalog loader accepts: each of ``values`` set on
    the catalog's first pilot (a designer edit, ``pilot.ID.STAT``) and the catalog
    reloaded with it (D)."""
    pilot = next(iter(catalog.pilots))
    out: dict[str, list[int]] = {}
    for stat in stats:
        out[stat] = []
        for v in values:
            edits = {**dict(catalog.overrides), f"pilot.{pilot}.{stat}": v}
            try:
                load_catalog(catalog.root, game_dir=True, overrides=edits)
            except CatalogError:
                continue
            out[stat].append(v)
    return out


# ---- E: actions ----------------------------------------------------------------------


def full_action_quick(catalog: Catalog) -> int | None:
    """The fewest Quick actions left at which every Full action of the decision list
    both engines share (``policy.py``: Stabilize, Charge, Overwatch, Barrage, Aimed
    Shot, Grapple, Break) may be taken, everything else allowing it (E: a Full action uses
    both Quick actions). None if not within 0..4."""
    for quick in range(5):
        allowed = (
            policy.stabilizes(1, 1, quick),
            policy.charges(True, quick, 2, 4, True),
            policy.holds_overwatch(True, quick, False, True),
            policy.barrages(True, quick, True, 0, 0, 0, 10),
            policy.aims(True, quick, True, 1),
            policy.grapples(True, quick, 1, True, True),
            policy.breaks(True, quick, True),
        )
        if all(bool(a) for a in allowed):
            return quick
    return None


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


def engine_dice(catalog: Catalog, name: str) -> dict[str, Fraction]:
    """The distribution of a dice parameter (``NdS+C``) as the battle engines read it
    (:func:`engine_param`); each engine rolls it through ``rules.simple_dice``, which
    must read it too."""
    expr = engine_param(catalog, name)
    rules.simple_dice(expr)  # the engines' reader refuses what they cannot roll
    return _dist(Dist.parse(expr))


def front_distance(catalog: Catalog) -> int:
    return rules.front_distance(catalog.params)


def zone_points(catalog: Catalog) -> int:
    return rules.zone_points_available(catalog.params)


def wipe_points(catalog: Catalog) -> int:
    return rules.wipe_points(catalog.params)


# ---- H the board: the maps and their geometry ---------------------------------------------


def map_sizes(catalog: Catalog) -> dict[str, list[int]]:
    """Each map's [length, depth, max elevation, deployment columns, zones, hexes per
    zone] as maps.py loads it (the numbers the geometry tables are built from)."""
    return {
        mid: [
            m.length,
            m.depth,
            m.max_elevation,
            m.deploy,
            len(m.zones),
            *sorted({len(z) for z in m.zones}),
        ]
        for mid, m in sorted(catalog.maps.items())
    }


def zones_seen_together(catalog: Catalog) -> dict[str, int]:
    """Per map, the positions (hexes a mech can stand in) that see all three zone
    centers by the geometry's line of sight (H4): 0 when the zones are offset enough."""
    out = {}
    for mid, m in sorted(catalog.maps.items()):
        g = geometry.cached(m, catalog.terrain)
        sees = g.passable.copy()
        for zone in m.zones:
            sees &= g.los[:, m.hex_index(*zone[0])]
        out[mid] = int(sees.sum())
    return out


def rounds_to_middle(catalog: Catalog, kit: str) -> dict[str, int]:
    """Per map of the standard size, the round in which ``kit`` first reaches the middle
    zone's center from its deployment columns: the least movement cost (geometry, the
    terrain costs) over Move + Boost, Speed each (E), per round."""
    speed = rules.mech_stats(catalog.mech(kit), catalog.params).speed
    out = {}
    for mid, m in sorted(catalog.maps.items()):
        if (m.length, m.depth) != (catalog.params.board_length, catalog.params.board_depth):
            continue
        g = geometry.cached(m, catalog.terrain)
        start = [m.hex_index(col, row) for row in range(m.depth) for col in range(m.deploy)]
        cost = int(g.move_cost[start, m.hex_index(*m.zones[1][0])].min())
        out[mid] = -(-cost // (2 * speed))
    return out


CHECKS = {
    f.__name__: f
    for f in (
        map_sizes,
        zones_seen_together,
        rounds_to_middle,
        part_stat,
        kit_location_stat,
        class_core_armor,
        full_or_better,
        crit_excess,
        mean_crit_share,
        modifier_p,
        modifier_dist,
        kit_bands,
        kit_weights,
        team_weight,
        team_fits,
        team_cap_edge,
        roster_legality,
        active_pilots,
        overcharge_heat_dist,
        engine_param,
        front_distance,
        zone_points,
        wipe_points,
        net_dice,
        charge_dice_by_hexes,
        range_reach,
        lock_on_chance,
        kick_fall_chance,
        prone_evasion_loss,
        location_rerolls,
        table_die,
        overload_loss,
        most_copies,
        roster_sizes,
        team_sizes,
        pilot_stat_accepted,
        full_action_quick,
        engine_dice,
        grapple_bonus_by_kit,
        grapple_win_chance,
    )
}
