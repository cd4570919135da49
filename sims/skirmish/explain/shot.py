"""The working of one Mecha Skirmish shot (DESIGN "Show the working"), as exact fractions.

:func:`explain_shot` collects every term, modifier die, threshold and die of one Fire
action: the modifier dice from ``modifiers.fire_dice`` (the one function that says
which [+] and [-] a situation gives, each with its reason and section), everything else
from the rule functions in ``rules.py``; the one rule applied here is that melee
ignores cover for the location bands as well as the dice (F11). :func:`contract_shot`
explains the shot the ``weapon_vs_kit`` and ``strikes`` tables describe; both end in
:func:`explain_fire`. Sections of 003 are cited as the rulebook names them: F Declare,
F3 (modifier dice), F Hit, F4 (location), F5 (penetration), F6 (damage), F11 (melee).

On a map the distance, cover and high ground come from ``board.py``'s
:func:`~sims.skirmish.explain.board.explain_board`. The high ground 1[+] is added here
as its own die: ``modifiers.Situation`` has no high-ground input yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from sims.core.dist import Dist
from sims.skirmish import exact, modifiers, rules
from sims.skirmish.catalog import Catalog, Mech, Part
from sims.skirmish.explain.board import Board, Hex, NoLineOfSight, explain_board
from sims.skirmish.explain.errors import ExplainError
from sims.skirmish.modifiers import Die
from sims.skirmish.params import Parameters


@dataclass(frozen=True)
class Term:
    """One signed addend of a stat, with where it comes from."""

    name: str  # "Gunnery", "weapon Acc", "chassis Evasion" ...
    source: str  # "pilot hana", "part rifle", "B4 overload" ...
    value: int


@dataclass(frozen=True)
class NeedRow:
    """003 F Hit for one modifier result: the smallest natural d20 that hits."""

    result: int  # the modifier result (F3), signed
    p_result: Fraction
    natural: int  # 20 means only a natural 20 hits
    p_hit: Fraction  # P(hit | this result)


@dataclass(frozen=True)
class BandRow:
    """One band of the target's silhouette (F4) and what a hit there does (F5, F6)."""

    part: str  # silhouette name, or "cover" (hard cover takes the Legs band, H5)
    part_id: str  # catalog id of the struck part ("" for cover)
    first: int
    last: int
    p_strike: Fraction  # P(this band | hit)
    armor: int | None  # Armor the penetration roll must beat, Brace included
    plain: Mapping[str, Fraction] | None  # glance/full/crit of a plain hit
    nat20: Mapping[str, Fraction] | None  # ... of a natural-20 hit (+Pen)
    given_hit: Mapping[str, Fraction]  # ... of a hit here, natural 20 weighted in
    damage: Fraction  # E[damage dice | a hit lands here]


@dataclass(frozen=True)
class ShotExplanation:
    attacker: str  # kit ids, part id and pilot ids as in the catalog
    attacker_pilot: str
    weapon: str
    target: str
    target_pilot: str
    distance: int
    range_band: str  # optimal | long (F Declare)
    weapon_range: int
    long_range: int
    melee: bool
    cover: str  # as asked; melee ignores it (F11)
    braced: bool
    accuracy_terms: tuple[Term, ...]
    accuracy: int
    dice: tuple[Die, ...]  # every modifier die with its reason (modifiers.fire_dice)
    net_dice: int  # [+] positive, after cancelling
    modifier: Dist  # the modifier result (F3)
    evasion_terms: tuple[Term, ...]
    evasion: int
    needs: tuple[NeedRow, ...]
    p_hit: Fraction
    p_nat20: Fraction  # P(natural 20), which always hits
    p_nat20_given_hit: Fraction
    pen: int
    nat20_pen: int
    brace_armor: int
    crit_margin: int
    bands: tuple[BandRow, ...]
    shares: Mapping[str, Fraction]  # glance/full/crit/cover given a hit
    damage_dice: str
    damage_by_outcome: Mapping[str, Fraction]  # mean damage dice of each outcome
    damage_per_hit: Fraction
    shots: int
    damage_per_fire: Fraction
    notes: tuple[str, ...]
    board: Board | None = None  # where on a map, when the shot was asked with --map


def _kit(catalog: Catalog, kit: str, role: str) -> None:
    if kit not in catalog.kits:
        known = ", ".join(sorted(catalog.kits))
        raise ExplainError(f"unknown {role} kit {kit!r} (known: {known})")


def explain_shot(
    catalog: Catalog,
    attacker: str,
    weapon: str,
    target: str,
    *,
    distance: int | None = None,
    cover: str | None = None,
    modifier: int = 0,
    braced: bool = False,
    map_id: str | None = None,
    attacker_hex: Hex | None = None,
    target_hex: Hex | None = None,
) -> ShotExplanation:
    """The working of one Fire action of ``weapon`` (mounted on kit ``attacker``) at kit
    ``target``: undamaged mechs with their suggested pilots, attacker not moved.
    ``modifier`` adds the designer's own signed modifier dice ([+] positive). On map
    ``map_id`` with the two hexes, the map gives the distance, cover and high ground
    (:func:`explain_board`); without line of sight there is no shot (ExplainError)."""
    params = catalog.params
    _kit(catalog, attacker, "attacker")
    _kit(catalog, target, "target")
    shooter, victim = catalog.mech(attacker), catalog.mech(target)
    mounted = {p.id: p for p in shooter.weapons}
    if weapon not in mounted:
        raise ExplainError(
            f"kit {attacker!r} mounts no weapon {weapon!r} "
            f"(its weapons: {', '.join(sorted(mounted)) or 'none'})"
        )
    gun = mounted[weapon]
    board = None
    if map_id is not None or attacker_hex is not None or target_hex is not None:
        if distance is not None:
            raise ExplainError("--range: not with --map (the map gives the hex distance)")
        if cover is not None:
            raise ExplainError("--cover: not with --map (the map gives the cover)")
        board = explain_board(catalog, map_id, attacker_hex, target_hex)
        if not board.los:  # 003 F Declare: a target you have LOS to
            raise NoLineOfSight(board)
        distance, cover = board.distance, board.cover
    cover = "none" if cover is None else cover
    if cover not in rules.COVERS:
        raise ExplainError(f"cover must be one of {', '.join(rules.COVERS)}, got {cover!r}")
    distance = (1 if gun.is_melee else gun.range) if distance is None else distance
    if distance < 1:
        raise ExplainError(f"distance must be at least 1 hex, got {distance}")
    band = rules.range_band(distance, gun, params)  # F Declare
    reach = rules.long_range(gun.range, params)
    if band == "out" and gun.is_melee:
        raise ExplainError(
            f"{weapon} is a melee weapon: it needs adjacency (distance 1), "
            f"got distance {distance} (003 F11)"
        )
    if band == "out":
        raise ExplainError(
            f"no shot: {weapon} (Range {gun.range}) reaches {reach} at long "
            f"range, target at distance {distance} (003 F Declare)"
        )

    # 003 C, F Hit: Gunnery (Piloting for melee, F11) + weapon Acc + Head Acc.
    skill = "Piloting" if gun.is_melee else "Gunnery"
    pilot = shooter.pilot
    acc_terms = (
        Term(skill, f"pilot {pilot.id}", getattr(pilot, skill.lower())),
        Term("weapon Acc", f"part {gun.id}", gun.acc),
        Term("Head Acc", f"part {shooter.head.id}", shooter.head.acc),
    )
    accuracy = rules.attack_accuracy(pilot, gun, shooter.head)
    _check_sum("accuracy", acc_terms, accuracy)

    # 003 F3: every [+] and [-] of this situation, from the one function that says them.
    situation = modifiers.shot_situation(
        gun,
        victim,
        distance,
        params,
        cover=cover,
        extra=modifier,
        high_ground=board is not None and board.high_ground,  # 003 H5, ranged or melee
    )
    dice = modifiers.fire_dice(situation, params)
    return explain_fire(
        catalog,
        gun,
        target,
        attacker=attacker,
        attacker_pilot=pilot.id,
        accuracy_terms=acc_terms,
        dice=dice,
        distance=distance,
        cover=cover,
        braced=braced,
        board=board,
    )


def contract_shot(
    catalog: Catalog, weapon: str, target: str, *, braced: bool = False
) -> ShotExplanation:
    """The shot of ``weapon_vs_kit`` and ``strikes`` (DESIGN Tables), explained: an
    attacker with Gunnery 2 (Piloting 2 for melee) + weapon Acc and no Head, no modifier
    dice by the tables' contract, optimal range, no cover, not moved."""
    _kit(catalog, target, "target")
    gun = catalog.parts.get(weapon)
    if gun is None or not gun.is_weapon:
        raise ExplainError(f"unknown weapon {weapon!r}")
    skill = "Piloting" if gun.is_melee else "Gunnery"
    acc_terms = (
        Term(skill, "weapon_vs_kit attacker", exact.REFERENCE_SKILL),
        Term("weapon Acc", f"part {gun.id}", gun.acc),
    )
    _check_sum("accuracy", acc_terms, exact.reference_accuracy(gun))
    notes = ()
    if gun.is_melee and modifiers.intact_shield(catalog.mech(target)):
        notes = (
            "the tables' contract has no modifier dice: the target's Shield arm 1[-] "
            "against melee (003 F11.6) is left out here",
        )
    return explain_fire(
        catalog,
        gun,
        target,
        attacker="the weapon_vs_kit attacker",
        attacker_pilot=f"{skill} {exact.REFERENCE_SKILL}, no Head",
        accuracy_terms=acc_terms,
        dice=modifiers.FireDice((), 0),
        distance=1 if gun.is_melee else gun.range,
        cover="none",
        braced=braced,
        extra_notes=notes,
    )


def explain_fire(
    catalog: Catalog,
    gun: Part,
    target: str,
    *,
    attacker: str,
    attacker_pilot: str,
    accuracy_terms: tuple[Term, ...],
    dice: modifiers.FireDice,
    distance: int,
    cover: str,
    braced: bool,
    extra_notes: tuple[str, ...] = (),
    board: Board | None = None,
) -> ShotExplanation:
    """The working of one Fire action once the attacker's accuracy terms and the modifier
    dice are known: hit, location, penetration and damage against kit ``target``."""
    params = catalog.params
    victim = catalog.mech(target)
    accuracy = sum(t.value for t in accuracy_terms)
    net = dice.net
    mod = rules.modifier(net)
    stats = rules.mech_stats(victim, params)
    eva_terms = _evasion_terms(victim, stats)
    needs = _needs(mod, accuracy, stats.evasion)
    p_hit, p_nat = rules.hit_chances(accuracy, stats.evasion, net)
    q = p_nat / p_hit  # P(natural 20 | hit): that hit gets +nat20_pen (F Hit, F5)
    by_outcome = exact.outcome_damage_means(gun, params)
    rows = _bands(catalog, gun, victim, stats, cover, braced, q, by_outcome)
    shares = {
        o: sum((r.p_strike * r.given_hit.get(o, 0) for r in rows), Fraction(0))
        for o in rules.OUTCOMES
    }
    shares["cover"] = sum((r.p_strike for r in rows if r.part == "cover"), Fraction(0))
    per_hit = sum((r.p_strike * r.damage for r in rows), Fraction(0))
    notes = [*extra_notes, *_notes(gun, params)]

    return ShotExplanation(
        attacker=attacker,
        attacker_pilot=attacker_pilot,
        weapon=gun.id,
        target=target,
        target_pilot=victim.pilot.id,
        distance=distance,
        range_band=rules.range_band(distance, gun, params),
        weapon_range=gun.range,
        long_range=rules.long_range(gun.range, params),
        melee=gun.is_melee,
        cover=cover,
        braced=braced,
        accuracy_terms=accuracy_terms,
        accuracy=accuracy,
        dice=dice.dice,
        net_dice=net,
        modifier=mod,
        evasion_terms=eva_terms,
        evasion=stats.evasion,
        needs=tuple(needs),
        p_hit=p_hit,
        p_nat20=p_nat,
        p_nat20_given_hit=q,
        pen=gun.pen,
        nat20_pen=params.nat20_pen,
        brace_armor=params.brace_armor,
        crit_margin=params.crit_margin,
        bands=tuple(rows),
        shares=shares,
        damage_dice=gun.damage,
        damage_by_outcome=by_outcome,
        damage_per_hit=per_hit,
        shots=gun.shots,
        damage_per_fire=gun.shots * p_hit * per_hit,
        notes=tuple(notes),
        board=board,
    )


def _evasion_terms(victim: Mech, stats: rules.MechStats) -> tuple[Term, ...]:
    """003 C: Evasion = chassis + legs + pilot Piloting - overload (B4)."""
    eva_terms = (
        Term("chassis Evasion", f"part {victim.chassis.id}", victim.chassis.evasion),
        Term("legs Evasion", f"part {victim.legs.id}", victim.legs.evasion),
        Term("Piloting", f"pilot {victim.pilot.id}", victim.pilot.piloting),
        Term("overload", f"Weight {stats.weight}, cap {stats.cap} (B4)", -stats.overload),
    )
    _check_sum("Evasion", eva_terms, stats.evasion)
    return eva_terms


def _needs(mod: Dist, accuracy: int, evasion: int) -> list[NeedRow]:
    """003 F Hit: per modifier result, the naturals that hit."""
    needs = []
    for result, p in mod:
        naturals = [
            n for n in range(1, rules.HIT_DIE + 1) if rules.hits(n, accuracy, result, evasion)
        ]
        needs.append(NeedRow(result, p, naturals[0], Fraction(len(naturals), rules.HIT_DIE)))
    return needs


def _bands(
    catalog: Catalog,
    gun: Part,
    victim: Mech,
    stats: rules.MechStats,
    cover: str,
    braced: bool,
    q: Fraction,
    by_outcome: Mapping[str, Fraction],
) -> list[BandRow]:
    """003 F4 bands; under hard cover the Legs band hits the cover (H5); melee ignores
    cover (F11). Then F5 penetration per part (a natural 20, ``q`` of hits, adds its Pen)
    and F6 damage dice."""
    params = catalog.params
    parts = rules.silhouette(victim)
    rows = []
    for row in exact.kit_bands(victim, params, "none" if gun.is_melee else cover):
        if row["part"] == "cover":
            rows.append(
                BandRow(
                    "cover",
                    "",
                    row["first"],
                    row["last"],
                    row["p_strike"],
                    None,
                    None,
                    None,
                    {},
                    Fraction(0),
                )
            )
            continue
        i = rules.SILHOUETTE.index(row["part"])
        args = (gun.pen, stats.armor[i], params.crit_margin)
        plain = rules.penetration(*args, braced=braced, params=params)
        nat = rules.penetration(*args, nat20=True, braced=braced, params=params)
        given = {o: (1 - q) * plain[o] + q * nat[o] for o in rules.OUTCOMES}
        armor = stats.armor[i] + (params.brace_armor if braced else 0)
        rows.append(
            BandRow(
                row["part"],
                parts[i].id,
                row["first"],
                row["last"],
                row["p_strike"],
                armor,
                plain,
                nat,
                given,
                sum(given[o] * by_outcome[o] for o in rules.OUTCOMES),
            )
        )
    return rows


def _notes(gun: Part, params: Parameters) -> list[str]:
    """What the working assumes or leaves out for this weapon (003 F11, B tags, F3)."""
    notes = []
    if gun.is_melee:
        notes.append(
            "melee ignores cover and Engaged and may reroll the location die once; "
            "the bands show one roll (003 F11)"
        )
    if "heavy" in gun.tags:
        notes.append(
            f"attacker assumed not moved: Heavy takes {params.heavy_dice}[-] after "
            "moving (003 B tags)"
        )
    if gun.shots > 1:
        notes.append(
            "one modifier roll serves every shot of the Fire action (F3); "
            "the expectation is still Shots x P(hit) x E[damage | hit]"
        )
    return notes


def _check_sum(what: str, terms: tuple[Term, ...], total: int) -> None:
    # The terms are for display; the total comes from rules.py. Disagreement is a bug here.
    if sum(t.value for t in terms) != total:
        raise AssertionError(f"{what} terms {terms} do not sum to rules.py's {total}")
