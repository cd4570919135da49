"""The working of one Mecha Skirmish shot as short terminal sections, every number exact:
:func:`to_text` renders a :class:`~sims.skirmish.explain.shot.ShotExplanation`,
:func:`shot_text` is ``mechbal explain skirmish shot``."""

from __future__ import annotations

from sims.core.dist import fraction_str
from sims.skirmish import modifiers, rules
from sims.skirmish.catalog import Catalog
from sims.skirmish.explain.board import Board, Hex, NoLineOfSight, board_text
from sims.skirmish.explain.layout import expectation, probability, table
from sims.skirmish.explain.shot import ShotExplanation, Term, explain_shot
from sims.skirmish.modifiers import Die


def _dice(n: int) -> str:
    return f"{n}[+]" if n > 0 else f"{-n}[-]"


def _grouped(dice: tuple[Die, ...]) -> tuple[tuple[int, str, str], ...]:
    net = sum(d.sign for d in dice)
    return modifiers.FireDice(dice, net).grouped()


def _terms(terms: tuple[Term, ...], total: int, name: str) -> list[str]:
    lines = [f"  {t.name:<16} {t.source:<28} {t.value:+d}" for t in terms]
    return lines + [f"  {'= ' + name:<45} {total:+d}"]


def no_shot_text(catalog: Catalog, attacker: str, weapon: str, target: str, board: Board) -> str:
    """The working of a shot that cannot be taken for want of line of sight."""
    shooter, victim = catalog.mech(attacker), catalog.mech(target)
    out = [
        f"Shot: {attacker} (pilot {shooter.pilot.id}) fires {weapon} at {target} "
        f"(pilot {victim.pilot.id})",
        "",
        *board_text(board),
        "",
        "No line of sight: the shot cannot be taken (003 F Declare: a target you have LOS to; H4).",
    ]
    return "\n".join(line.rstrip() for line in out)


def to_text(e: ShotExplanation) -> str:
    """The explanation as short terminal sections, every number exact."""
    cover = "ignored (melee, F11)" if e.melee and e.cover != "none" else e.cover
    reach = f"Range {e.weapon_range}, long range to {e.long_range}"
    where = f"{e.range_band} range ({reach}; 003 F Declare)"
    where = "adjacent (melee, 003 F11)" if e.melee else where
    on_map = e.board is not None
    out = [
        f"Shot: {e.attacker} (pilot {e.attacker_pilot}) fires {e.weapon} at {e.target} "
        f"(pilot {e.target_pilot})",
        f"  distance {e.distance}{' (from the map)' if on_map else ''}: {where}",
        f"  cover {cover}{' (from the map)' if on_map else ''}; "
        f"target {'Braced' if e.braced else 'not braced'}",
        "",
    ]
    if e.board is not None:
        out += [*board_text(e.board), ""]
    out += [
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
        out.append(
            f"  net {_dice(e.net_dice)}: roll {abs(e.net_dice)}d6, keep the highest, "
            f"{sign} it (its odds in the Hit table)"
        )
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
        out.append(f"  needs a natural {e.needs[0].natural}+ ({e.needs[0].p_hit * 20} of 20 faces)")
    else:
        cells = [["modifier", "P(modifier)", "natural needed", "P(hit | modifier)"]]
        cells += [
            [f"{n.result:+d}", probability(n.p_result), f"{n.natural}+", probability(n.p_hit)]
            for n in e.needs
        ]
        out += table(cells)
    per = ", ".join(f"{o} {expectation(v)}" for o, v in e.damage_by_outcome.items())
    out += [
        f"  P(hit)               = {probability(e.p_hit)}",
        f"  P(natural 20)        = {probability(e.p_nat20)}",
        f"  P(natural 20 | hit)  = {probability(e.p_nat20_given_hit)}  (+{e.nat20_pen} Pen on that hit)",
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
        lead = [r.part, faces, probability(r.p_strike)]
        if r.plain is None or r.nat20 is None:
            cells.append([*lead, "-", "the shot hits the cover and is over (003 H5)"])
            continue
        lines = (
            ("plain", r.plain, ""),
            ("nat 20", r.nat20, ""),
            ("given hit", r.given_hit, expectation(r.damage)),
        )
        for k, (label, odds, damage) in enumerate(lines):
            first = [*lead, str(r.armor)] if k == 0 else [""] * 4
            cells.append([*first, label, *(probability(odds[o]) for o in rules.OUTCOMES), damage])
    shares = [probability(e.shares[o]) for o in rules.OUTCOMES]
    cells.append(["all", "1-20", "1", "", "given hit", *shares, expectation(e.damage_per_hit)])
    out += table(cells)
    if e.shares["cover"]:
        out.append(f"  the cover takes {probability(e.shares['cover'])} of hits")
    out += [
        "",
        "Per Fire action (003 E Fire, F6)",
        f"  E[damage] = Shots {e.shots} x P(hit) {fraction_str(e.p_hit)} x E[damage | hit] "
        f"{fraction_str(e.damage_per_hit)} = {expectation(e.damage_per_fire)}",
        "  (damage dice only, target undamaged; crit-table effects are not damage)",
    ]
    if e.notes:
        out += ["", "Notes", *(f"  - {n}" for n in e.notes)]
    return "\n".join(line.rstrip() for line in out)


def shot_text(
    catalog: Catalog,
    attacker: str,
    weapon: str,
    target: str,
    *,
    range: int | None = None,
    cover: str | None = None,
    modifier: int = 0,
    braced: bool = False,
    map: str | None = None,
    **hexes: Hex,
) -> str:
    """``mechbal explain skirmish shot``: :func:`explain_shot` as text. ``hexes`` holds
    the ``--from`` and ``--to`` hexes (``from`` is a Python keyword); without line of
    sight the working stops at the map section."""
    unknown = sorted(set(hexes) - {"from", "to"})
    if unknown:
        raise TypeError(f"shot_text: unexpected options {unknown}")
    try:
        e = explain_shot(
            catalog,
            attacker,
            weapon,
            target,
            distance=range,
            cover=cover,
            modifier=modifier,
            braced=braced,
            map_id=map,
            attacker_hex=hexes.get("from"),
            target_hex=hexes.get("to"),
        )
    except NoLineOfSight as stop:
        return no_shot_text(catalog, attacker, weapon, target, stop.board)
    return to_text(e)
