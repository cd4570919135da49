"""The working of one Mecha Skirmish shot (DESIGN "Show the working"), as exact fractions.

:func:`explain_shot` collects every term, modifier die, threshold and die of one Fire
action: the modifier dice from ``modifiers.fire_dice`` (the one function that says
which [+] and [-] a situation gives, each with its reason and section), everything else
from the rule functions in ``rules.py``; the one rule applied here is that melee
ignores cover for the location bands as well as the dice (F11). :func:`contract_shot`
explains the shot the ``weapon_vs_kit`` and ``strikes`` tables describe; both end in
:func:`explain_fire`. :func:`to_text` renders it for a terminal. Sections of 003 are
cited as the rulebook names them: F Declare, F3 (modifier dice), F Hit, F4 (location),
F5 (penetration), F6 (damage), F11 (melee), H5 (cover).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from sims.core.dist import Dist, fraction_str
from sims.core.protocol import Explain, InputError, Option
from sims.skirmish import exact, modifiers, rules
from sims.skirmish.catalog import Catalog, Part
from sims.skirmish.modifiers import Die


class ExplainError(InputError):
    """A shot that cannot be explained as asked: one line saying why."""


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


def _kit(catalog: Catalog, kit: str, role: str) -> None:
    if kit not in catalog.kits:
        known = ", ".join(sorted(catalog.kits))
        raise ExplainError(f"unknown {role} kit {kit!r} (known: {known})")


def explain_shot(
    catalog: Catalog, attacker: str, weapon: str, target: str, *,
    distance: int | None = None, cover: str = "none", modifier: int = 0, braced: bool = False,
) -> ShotExplanation:  # fmt: skip
    """The working of one Fire action of ``weapon`` (mounted on kit ``attacker``) at kit
    ``target``: undamaged mechs with their suggested pilots, attacker not moved.
    ``modifier`` adds the designer's own signed modifier dice ([+] positive)."""
    params = catalog.params
    _kit(catalog, attacker, "attacker")
    _kit(catalog, target, "target")
    shooter, victim = catalog.mech(attacker), catalog.mech(target)
    mounted = {p.id: p for p in shooter.weapons}
    if weapon not in mounted:
        raise ExplainError(f"kit {attacker!r} mounts no weapon {weapon!r} "
                           f"(its weapons: {', '.join(sorted(mounted)) or 'none'})")  # fmt: skip
    gun = mounted[weapon]
    if cover not in rules.COVERS:
        raise ExplainError(f"cover must be one of {', '.join(rules.COVERS)}, got {cover!r}")
    distance = (1 if gun.is_melee else gun.range) if distance is None else distance
    if distance < 1:
        raise ExplainError(f"distance must be at least 1 hex, got {distance}")
    band = rules.range_band(distance, gun, params)  # F Declare
    reach = rules.long_range(gun.range, params)
    if band == "out" and gun.is_melee:
        raise ExplainError(f"{weapon} is a melee weapon: it needs adjacency (distance 1), "
                           f"got distance {distance} (003 F11)")  # fmt: skip
    if band == "out":
        raise ExplainError(f"no shot: {weapon} (Range {gun.range}) reaches {reach} at long "
                           f"range, target at distance {distance} (003 F Declare)")  # fmt: skip

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
    situation = modifiers.shot_situation(gun, victim, distance, params, cover=cover,
                                         extra=modifier)  # fmt: skip
    dice = modifiers.fire_dice(situation, params)
    return explain_fire(catalog, gun, target, attacker=attacker, attacker_pilot=pilot.id,
                        accuracy_terms=acc_terms, dice=dice, distance=distance, cover=cover,
                        braced=braced)  # fmt: skip


def contract_shot(catalog: Catalog, weapon: str, target: str, *,
                  braced: bool = False) -> ShotExplanation:  # fmt: skip
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
        notes = ("the tables' contract has no modifier dice: the target's Shield arm 1[-] "
                 "against melee (003 F11.6) is left out here",)  # fmt: skip
    return explain_fire(catalog, gun, target, attacker="the weapon_vs_kit attacker",
                        attacker_pilot=f"{skill} {exact.REFERENCE_SKILL}, no Head",
                        accuracy_terms=acc_terms,
                        dice=modifiers.FireDice((), 0), distance=1 if gun.is_melee else gun.range,
                        cover="none", braced=braced, extra_notes=notes)  # fmt: skip


def explain_fire(
    catalog: Catalog, gun: Part, target: str, *, attacker: str, attacker_pilot: str,
    accuracy_terms: tuple[Term, ...], dice: modifiers.FireDice, distance: int, cover: str,
    braced: bool, extra_notes: tuple[str, ...] = (),
) -> ShotExplanation:  # fmt: skip
    """The working of one Fire action once the attacker's accuracy terms and the modifier
    dice are known: hit, location, penetration and damage against kit ``target``."""
    params = catalog.params
    victim = catalog.mech(target)
    accuracy = sum(t.value for t in accuracy_terms)
    net = dice.net
    mod = rules.modifier(net)

    # 003 C: Evasion = chassis + legs + pilot Piloting - overload (B4).
    stats = rules.mech_stats(victim, params)
    eva_terms = (
        Term("chassis Evasion", f"part {victim.chassis.id}", victim.chassis.evasion),
        Term("legs Evasion", f"part {victim.legs.id}", victim.legs.evasion),
        Term("Piloting", f"pilot {victim.pilot.id}", victim.pilot.piloting),
        Term("overload", f"Weight {stats.weight}, cap {stats.cap} (B4)", -stats.overload),
    )
    _check_sum("Evasion", eva_terms, stats.evasion)

    # 003 F Hit: per modifier result, the naturals that hit; then the exact P(hit).
    needs = []
    for result, p in mod:
        naturals = [n for n in range(1, rules.HIT_DIE + 1)
                    if rules.hits(n, accuracy, result, stats.evasion)]  # fmt: skip
        needs.append(NeedRow(result, p, naturals[0], Fraction(len(naturals), rules.HIT_DIE)))
    p_hit, p_nat = rules.hit_chances(accuracy, stats.evasion, net)
    q = p_nat / p_hit  # P(natural 20 | hit): that hit gets +nat20_pen (F Hit, F5)

    # 003 F4 bands; under hard cover the Legs band hits the cover (H5); melee ignores
    # cover (F11). Then F5 penetration per part and F6 damage dice.
    by_outcome = exact.outcome_damage_means(gun, params)
    parts = rules.silhouette(victim)
    rows = []
    for row in exact.kit_bands(victim, params, "none" if gun.is_melee else cover):
        if row["part"] == "cover":
            rows.append(BandRow("cover", "", row["first"], row["last"], row["p_strike"],
                                None, None, None, {}, Fraction(0)))  # fmt: skip
            continue
        i = rules.SILHOUETTE.index(row["part"])
        args = (gun.pen, stats.armor[i], params.crit_margin)
        plain = rules.penetration(*args, braced=braced, params=params)
        nat = rules.penetration(*args, nat20=True, braced=braced, params=params)
        given = {o: (1 - q) * plain[o] + q * nat[o] for o in rules.OUTCOMES}
        armor = stats.armor[i] + (params.brace_armor if braced else 0)
        rows.append(BandRow(row["part"], parts[i].id, row["first"], row["last"],
                            row["p_strike"], armor, plain, nat, given,
                            sum(given[o] * by_outcome[o] for o in rules.OUTCOMES)))  # fmt: skip
    shares = {o: sum((r.p_strike * r.given_hit.get(o, 0) for r in rows), Fraction(0))
              for o in rules.OUTCOMES}  # fmt: skip
    shares["cover"] = sum((r.p_strike for r in rows if r.part == "cover"), Fraction(0))
    per_hit = sum((r.p_strike * r.damage for r in rows), Fraction(0))

    notes = list(extra_notes)
    if gun.is_melee:
        notes.append("melee ignores cover and Engaged and may reroll the location die once; "
                     "the bands show one roll (003 F11)")  # fmt: skip
    if "heavy" in gun.tags:
        notes.append(f"attacker assumed not moved: Heavy takes {params.heavy_dice}[-] after "
                     "moving (003 B tags)")  # fmt: skip
    if gun.shots > 1:
        notes.append("one modifier roll serves every shot of the Fire action (F3); "
                     "the expectation is still Shots x P(hit) x E[damage | hit]")  # fmt: skip

    return ShotExplanation(
        attacker=attacker, attacker_pilot=attacker_pilot, weapon=gun.id, target=target,
        target_pilot=victim.pilot.id, distance=distance,
        range_band=rules.range_band(distance, gun, params), weapon_range=gun.range,
        long_range=rules.long_range(gun.range, params), melee=gun.is_melee, cover=cover,
        braced=braced, accuracy_terms=accuracy_terms, accuracy=accuracy, dice=dice.dice,
        net_dice=net, modifier=mod, evasion_terms=eva_terms, evasion=stats.evasion,
        needs=tuple(needs), p_hit=p_hit, p_nat20=p_nat, p_nat20_given_hit=q, pen=gun.pen,
        nat20_pen=params.nat20_pen, brace_armor=params.brace_armor,
        crit_margin=params.crit_margin, bands=tuple(rows), shares=shares,
        damage_dice=gun.damage, damage_by_outcome=by_outcome, damage_per_hit=per_hit,
        shots=gun.shots, damage_per_fire=gun.shots * p_hit * per_hit, notes=tuple(notes),
    )  # fmt: skip


def _check_sum(what: str, terms: tuple[Term, ...], total: int) -> None:
    # The terms are for display; the total comes from rules.py. Disagreement is a bug here.
    if sum(t.value for t in terms) != total:
        raise AssertionError(f"{what} terms {terms} do not sum to rules.py's {total}")


# ---- text ----------------------------------------------------------------------------------


def _p(x: Fraction) -> str:
    """A probability as an exact fraction and a percentage."""
    return f"{fraction_str(x)} ({float(x):.1%})"


def _n(x: Fraction) -> str:
    """An expected value as an exact fraction and a decimal."""
    return fraction_str(x) if x.denominator == 1 else f"{fraction_str(x)} ({float(x):.3f})"


def _dice(n: int) -> str:
    return f"{n}[+]" if n > 0 else f"{-n}[-]"


def _grouped(dice: tuple[Die, ...]) -> tuple[tuple[int, str, str], ...]:
    net = sum(d.sign for d in dice)
    return modifiers.FireDice(dice, net).grouped()


def _terms(terms: tuple[Term, ...], total: int, name: str) -> list[str]:
    lines = [f"  {t.name:<16} {t.source:<28} {t.value:+d}" for t in terms]
    return lines + [f"  {'= ' + name:<45} {total:+d}"]


def _table(cells: list[list[str]]) -> list[str]:
    """Left-aligned columns, each as wide as its widest cell (a last long cell may overhang)."""
    widths = [0] * len(cells[0])
    for row in cells:
        for i, cell in enumerate(row):
            if len(row) == len(widths) or i < len(row) - 1:  # a short row's last cell overhangs
                widths[i] = max(widths[i], len(cell))
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)) for row in cells
    ]


def to_text(e: ShotExplanation) -> str:
    """The explanation as short terminal sections, every number exact."""
    cover = "ignored (melee, F11)" if e.melee and e.cover != "none" else e.cover
    reach = f"Range {e.weapon_range}, long range to {e.long_range}"
    where = f"{e.range_band} range ({reach}; 003 F Declare)"
    where = "adjacent (melee, 003 F11)" if e.melee else where
    out = [
        f"Shot: {e.attacker} (pilot {e.attacker_pilot}) fires {e.weapon} at {e.target} "
        f"(pilot {e.target_pilot})",
        f"  distance {e.distance}: {where}",
        f"  cover {cover}; target {'Braced' if e.braced else 'not braced'}",
        "",
        f"Accuracy (003 C, F Hit; {e.accuracy_terms[0].name} for "
        f"{'melee, F11' if e.melee else 'ranged'})",
        *_terms(e.accuracy_terms, e.accuracy, "accuracy"),
        "",
        "Modifier dice (003 F3: [+] and [-] cancel; roll the rest, keep the highest d6)",
        *(f"  {_dice(n):<5} {why} ({section})" for n, why, section in _grouped(e.dice)),
    ]
    if e.net_dice == 0:
        out.append(f"  net 0{' (they cancel)' if e.dice else ''}: no modifier dice, result 0")
    else:
        sign = "add" if e.net_dice > 0 else "subtract"
        out.append(f"  net {_dice(e.net_dice)}: roll {abs(e.net_dice)}d6, keep the highest, "
                   f"{sign} it (its odds in the Hit table)")  # fmt: skip
    out += [
        "",
        "Target Evasion (003 C)",
        *_terms(e.evasion_terms, e.evasion, "Evasion"),
        "",
        f"Hit (003 F Hit): d20 {e.accuracy:+d} +/- modifier >= Evasion {e.evasion}; "
        "a natural 20 always hits,",
        "  a natural 1 always misses",
    ]
    if e.net_dice == 0:
        out.append(f"  needs a natural {e.needs[0].natural}+ "
                   f"({e.needs[0].p_hit * 20} of 20 faces)")  # fmt: skip
    else:
        cells = [["modifier", "P(modifier)", "natural needed", "P(hit | modifier)"]]
        cells += [[f"{n.result:+d}", _p(n.p_result), f"{n.natural}+", _p(n.p_hit)]
                  for n in e.needs]  # fmt: skip
        out += _table(cells)
    per = ", ".join(f"{o} {_n(v)}" for o, v in e.damage_by_outcome.items())
    out += [
        f"  P(hit)               = {_p(e.p_hit)}",
        f"  P(natural 20)        = {_p(e.p_nat20)}",
        f"  P(natural 20 | hit)  = {_p(e.p_nat20_given_hit)}  (+{e.nat20_pen} Pen on that hit)",
        "",
        f"Location, penetration, damage (003 F4, F5, F6{', H5' if cover == 'hard' else ''}): "
        f"d20 on {e.target}'s silhouette;",
        f"  d6 + Pen {e.pen} (+{e.nat20_pen} on a natural 20) against Armor"
        f"{f' (+{e.brace_armor} Brace)' if e.braced else ''}:",
        f"  glance below Armor, crit at Armor + {e.crit_margin} or more, full between;",
        f"  damage {e.damage_dice} per hit, mean by outcome: {per}",
    ]
    cells = [["part", "d20", "P(band)", "Armor", "roll", *rules.OUTCOMES, "E[damage]"]]
    for r in e.bands:
        faces = str(r.first) if r.first == r.last else f"{r.first}-{r.last}"
        lead = [r.part, faces, _p(r.p_strike)]
        if r.plain is None or r.nat20 is None:
            cells.append([*lead, "-", "the shot hits the cover and is over (003 H5)"])
            continue
        lines = (("plain", r.plain, ""), ("nat 20", r.nat20, ""),
                 ("given hit", r.given_hit, _n(r.damage)))  # fmt: skip
        for k, (label, odds, damage) in enumerate(lines):
            first = [*lead, str(r.armor)] if k == 0 else [""] * 4
            cells.append([*first, label, *(_p(odds[o]) for o in rules.OUTCOMES), damage])
    shares = [_p(e.shares[o]) for o in rules.OUTCOMES]
    cells.append(["all", "1-20", "1", "", "given hit", *shares, _n(e.damage_per_hit)])
    out += _table(cells)
    if e.shares["cover"]:
        out.append(f"  the cover takes {_p(e.shares['cover'])} of hits")
    out += [
        "",
        "Per Fire action (003 E Fire, F6)",
        f"  E[damage] = Shots {e.shots} x P(hit) {fraction_str(e.p_hit)} x E[damage | hit] "
        f"{fraction_str(e.damage_per_hit)} = {_n(e.damage_per_fire)}",
        "  (damage dice only, target undamaged; crit-table effects are not damage)",
    ]
    if e.notes:
        out += ["", "Notes", *(f"  - {n}" for n in e.notes)]
    return "\n".join(line.rstrip() for line in out)


def shot_text(catalog: Catalog, attacker: str, weapon: str, target: str, *,
              range: int | None = None, cover: str = "none", modifier: int = 0,
              braced: bool = False) -> str:  # fmt: skip
    """``mechbal explain skirmish shot``: :func:`explain_shot` as text."""
    return to_text(explain_shot(catalog, attacker, weapon, target, distance=range,
                                cover=cover, modifier=modifier, braced=braced))  # fmt: skip


# What `mechbal explain skirmish WHAT` can explain, with its options.
EXPLAIN = {
    "shot": Explain(
        "shot",
        "one Fire action: every modifier die, threshold and band, as exact fractions",
        (
            Option("attacker", "attacking kit id", required=True, metavar="KIT"),
            Option("weapon", "weapon part id mounted on the attacker", required=True,
                   metavar="WEAPON"),
            Option("target", "target kit id", required=True, metavar="KIT"),
            Option("range", "distance in hexes (default: the weapon's Range, 1 for melee)",
                   int, metavar="HEXES"),
            Option("cover", "target cover: none, soft or hard", default="none"),
            Option("modifier", "extra signed modifier dice ([+] positive)", int, default=0,
                   metavar="DICE"),
            Option("braced", "the target is Braced (+Armor)", switch=True, default=False),
        ),
        shot_text,
    ),
}  # fmt: skip
