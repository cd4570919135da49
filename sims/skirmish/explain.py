"""The working of one Mecha Skirmish shot (DESIGN "Show the working"), as exact fractions.

:func:`explain_shot` collects every term, modifier die, threshold and die of one Fire
action: the modifier dice from ``modifiers.fire_dice`` (the one function that says
which [+] and [-] a situation gives, each with its reason and section), everything else
from the rule functions in ``rules.py``; the one rule applied here is that melee
ignores cover for the location bands as well as the dice (F11). :func:`contract_shot`
explains the shot the ``weapon_vs_kit`` and ``strikes`` tables describe; both end in
:func:`explain_fire`. :func:`to_text` renders it for a terminal. Sections of 003 are
cited as the rulebook names them: F Declare, F3 (modifier dice), F Hit, F4 (location),
F5 (penetration), F6 (damage), F11 (melee), H4 (line of sight), H5 (cover, high ground).

On a map (``--map ID --from COL,ROW --to COL,ROW``) :func:`explain_board` reads the
shot's geometry from ``geometry.py``'s tables (built once per map in this process): the
hex distance, the hex line with each intervening hex's top against the sight height,
line of sight, hard and soft cover with what gives them, and high ground. Every verdict
shown is checked against those tables; a disagreement is a bug here. The high ground
1[+] is added here as its own die: ``modifiers.Situation`` has no high-ground input yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from sims.core.dist import Dist, fraction_str
from sims.core.protocol import Explain, InputError, Option
from sims.skirmish import exact, geometry, modifiers, rules
from sims.skirmish.catalog import Catalog, Part
from sims.skirmish.maps import FOLIAGE, OBSTACLE, OPEN, Map
from sims.skirmish.modifiers import Die


class ExplainError(InputError):
    """A shot that cannot be explained as asked: one line saying why."""


class NoLineOfSight(ExplainError):
    """003 F Declare, H4: the target is out of sight on the map; ``board`` says why."""

    def __init__(self, board: Board) -> None:
        a, t = board.attacker_hex, board.target_hex
        super().__init__(
            f"no shot: no line of sight from {a[0]},{a[1]} to {t[0]},{t[1]} "
            f"on map {board.map_id} (003 H4)"
        )
        self.board = board


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


Hex = tuple[int, int]  # (col, row), odd-r (maps.py)

TERRAIN_NAMES = {OPEN: "open", FOLIAGE: "foliage", OBSTACLE: "obstacle"}


@dataclass(frozen=True)
class LineHex:
    """One intervening hex of the hex line (003 H4) and what it does to the shot."""

    hex: Hex
    step: int  # i of the line's N steps from the attacker
    ground: int
    terrain: str  # open | foliage | obstacle
    top: int  # ground + obstacle height (foliage never blocks sight)
    sight: Fraction  # the sight height interpolated at this hex
    verdict: str  # "below" | "at" (exactly at the sight height) | "blocks" | "off the board"


@dataclass(frozen=True)
class Board:
    """Where the attacker and target stand on a map and what that gives the shot (003 H)."""

    map_id: str
    map_name: str
    attacker_hex: Hex
    target_hex: Hex
    attacker_ground: int
    target_ground: int
    attacker_terrain: str
    target_terrain: str
    distance: int  # hex distance
    line: tuple[LineHex, ...]  # the intervening hexes of the line the tables use
    los: bool  # 003 H4
    hard_sources: tuple[str, ...]  # what would give hard cover (H5)
    hard_ignored: bool  # ... but the attacker stands two or more levels above (H5)
    soft_sources: tuple[str, ...]  # the foliage on the line or under the target (H5)
    high_ground: bool  # attacker at least one level above: 1[+] (H5)
    high_ground_dice: int = 1  # the [+] it gives (rules parameter high_ground_dice)

    @property
    def hard(self) -> bool:
        return bool(self.hard_sources) and not self.hard_ignored

    @property
    def cover(self) -> str:
        """003 H5: only the best single cover applies (hard over soft)."""
        return "hard" if self.hard else "soft" if self.soft_sources else "none"

    @property
    def climb(self) -> int:
        """Levels the attacker's ground stands above the target's (negative: below)."""
        return self.attacker_ground - self.target_ground


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


# ---- the shot on a map (003 H4, H5) ---------------------------------------------------------


def map_geometry(catalog: Catalog, map_id: str) -> geometry.Geometry:
    """The geometry tables of map ``map_id`` of ``catalog`` (built once per map content)."""
    if map_id not in catalog.maps:
        known = ", ".join(sorted(catalog.maps)) or "none"
        raise ExplainError(f"--map: unknown map {map_id!r} (known: {known})")
    costs = catalog.terrain if catalog.terrain is not None else geometry.DEFAULT_TERRAIN_COSTS
    return geometry.cached(catalog.maps[map_id], costs)


def parse_hex(text: str) -> Hex:
    """``COL,ROW`` -> (col, row); ValueError with the reason otherwise."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise ValueError(f"expected COL,ROW such as 12,7, got {text!r}") from None


def _stand(g: geometry.Geometry, board: Map, where: Hex, flag: str) -> int:
    col, row = where
    if not board.in_bounds(col, row):
        raise ExplainError(
            f"{flag} {col},{row} is off map {board.id} ({board.length} x "
            f"{board.depth}: COL 0-{board.length - 1}, ROW 0-"
            f"{board.depth - 1})"
        )
    h = g.index(col, row)
    if g.terrain[h] == OBSTACLE:
        raise ExplainError(
            f"{flag} {col},{row} is an obstacle hex on map {board.id}: "
            "a mech cannot stand there (003 H)"
        )
    return h


def explain_board(
    catalog: Catalog, map_id: str | None, attacker_hex: Hex | None, target_hex: Hex | None
) -> Board:
    """Where the attacker (``attacker_hex``) and target stand on map ``map_id`` and what
    that gives a shot: distance, the hex line against the sight height, line of sight
    (H4), hard and soft cover and high ground (H5), each checked against the geometry
    tables."""
    if map_id is None:
        raise ExplainError("--from and --to need --map (a map id, e.g. --map open)")
    missing = [f for f, v in (("--from", attacker_hex), ("--to", target_hex)) if v is None]
    if missing:
        raise ExplainError(
            f"--map needs {' and '.join(missing)} (the attacker's and the "
            "target's hexes as COL,ROW)"
        )
    g = map_geometry(catalog, map_id)
    board = catalog.maps[map_id]
    a = _stand(g, board, attacker_hex, "--from")
    t = _stand(g, board, target_hex, "--to")
    if a == t:
        raise ExplainError(f"--to {target_hex[0]},{target_hex[1]} is the --from hex")
    n = int(g.dist[a, t])
    ground_a, ground_t = int(g.elevation[a]), int(g.elevation[t])

    # 003 H4: the sight height runs from the attacker's eye (level + 1) to the target's;
    # an intervening hex whose top is above it blocks, exactly at it does not.
    eye_a, eye_t = ground_a + 1, ground_t + 1
    line = []
    for i, h in enumerate(g.line_hexes(a, t)[1:-1].tolist(), start=1):
        sight = eye_a + Fraction((eye_t - eye_a) * i, n)
        if h < 0:  # a nudged line may run off the board near an edge (geometry.py)
            line.append(LineHex((-1, -1), i, 0, "", 0, sight, "off the board"))
            continue
        top = int(g.top[h])
        verdict = "blocks" if top > sight else "at" if top == sight else "below"
        line.append(
            LineHex(
                g.coords(h),
                i,
                int(g.elevation[h]),
                TERRAIN_NAMES[int(g.terrain[h])],
                top,
                sight,
                verdict,
            )
        )
    los = bool(g.los[a, t])
    blocked = any(x.verdict in ("blocks", "off the board") for x in line)
    _agree("line of sight", not blocked, los, attacker_hex, target_hex, map_id)

    # 003 H5 hard cover: an obstacle next to the target, one or more levels above its
    # ground, between the two (closer to the attacker than the target is); or the line's
    # hex next to the target exactly at the sight height (H4).
    hard = []
    if los:
        for o in g.neighbour[t].tolist():
            if (
                o >= 0
                and g.terrain[o] == OBSTACLE
                and g.top[o] - ground_t >= geometry.HARD_COVER_LEVELS
                and g.dist[a, o] < g.dist[a, t]
            ):
                col, row = g.coords(o)
                hard.append(
                    f"obstacle at {col},{row} (top {int(g.top[o])}, "
                    f"{int(g.top[o]) - ground_t} above the target's ground) "
                    "lies between"
                )
        if line and line[-1].verdict == "at":
            col, row = line[-1].hex
            hard.append(
                f"{col},{row} next to the target has its top exactly at the "
                f"sight height {fraction_str(line[-1].sight)} (H4)"
            )
    ignored = bool(hard) and ground_a - ground_t >= geometry.HARD_COVER_IGNORED_LEVELS
    _agree(
        "hard cover",
        bool(hard) and not ignored,
        bool(g.hard_cover[a, t]),
        attacker_hex,
        target_hex,
        map_id,
    )

    # 003 H5 soft cover: foliage under the target or on the line (smoke is the engine's).
    soft = []
    if los:
        soft = [
            f"foliage at {x.hex[0]},{x.hex[1]} on the line" for x in line if x.terrain == "foliage"
        ]
        if g.terrain[t] == FOLIAGE:
            soft.append("the target stands in foliage")
    _agree("soft cover", bool(soft), bool(g.soft_cover[a, t]), attacker_hex, target_hex, map_id)
    high = ground_a - ground_t >= geometry.HIGH_GROUND_LEVELS
    _agree("high ground", high, bool(g.high_ground[a, t]), attacker_hex, target_hex, map_id)
    return Board(
        map_id=map_id,
        map_name=board.name,
        attacker_hex=attacker_hex,
        target_hex=target_hex,
        attacker_ground=ground_a,
        target_ground=ground_t,
        attacker_terrain=TERRAIN_NAMES[int(g.terrain[a])],
        target_terrain=TERRAIN_NAMES[int(g.terrain[t])],
        distance=n,
        line=tuple(line),
        los=los,
        hard_sources=tuple(hard),
        hard_ignored=ignored,
        soft_sources=tuple(soft),
        high_ground=high,
        high_ground_dice=catalog.params.high_ground_dice,
    )


def _agree(what: str, shown: bool, table: bool, a: Hex, t: Hex, map_id: str) -> None:
    # The working is for display; the verdict comes from geometry.py. Disagreement is a bug.
    if shown != table:
        raise AssertionError(
            f"{what} from {a} to {t} on map {map_id}: the working says "
            f"{shown}, geometry.py's table {table}"
        )


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
        naturals = [
            n for n in range(1, rules.HIT_DIE + 1) if rules.hits(n, accuracy, result, stats.evasion)
        ]
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
    shares = {
        o: sum((r.p_strike * r.given_hit.get(o, 0) for r in rows), Fraction(0))
        for o in rules.OUTCOMES
    }
    shares["cover"] = sum((r.p_strike for r in rows if r.part == "cover"), Fraction(0))
    per_hit = sum((r.p_strike * r.damage for r in rows), Fraction(0))

    notes = list(extra_notes)
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


def _levels(n: int) -> str:
    return f"{n} level{'' if n == 1 else 's'}"


def _verdict(x: LineHex, last: bool) -> str:
    words = {
        "below": "below the sight height",
        "at": "exactly at the sight height: does not block"
        + ("; next to the target: hard cover" if last else ""),
        "blocks": "above the sight height: BLOCKS",
        "off the board": "off the board: no line",
    }[x.verdict]
    return words + ("; foliage: soft cover" if x.terrain == "foliage" else "")


def board_text(b: Board) -> list[str]:
    """The map section of the working (003 H4, H5)."""
    out = [
        f"Board: map {b.map_id} ({b.map_name}); 003 H4 line of sight, H5 cover and high ground",
    ]
    for who, (col, row), ground, terrain in (
        ("attacker", b.attacker_hex, b.attacker_ground, b.attacker_terrain),
        ("target", b.target_hex, b.target_ground, b.target_terrain),
    ):
        out.append(f"  {who} at {col},{row}: ground level {ground}, {terrain}; eye {ground + 1}")
    out.append(f"  hex distance {b.distance} (the map's, in place of --range)")
    eye_a, eye_t = b.attacker_ground + 1, b.target_ground + 1
    if not b.line:
        out.append("  hex line: adjacent, no hex between: always in sight (003 H4)")
    else:
        out += [
            f"  hex line (003 H4): sight height from eye {eye_a} to eye {eye_t} over "
            f"{b.distance} steps; an intervening",
            "  hex blocks when its top (ground + obstacle) is above it, not when exactly at it",
        ]
        cells = [["step", "hex", "ground", "terrain", "top", "sight", ""]]
        for k, x in enumerate(b.line):
            where = "-" if x.verdict == "off the board" else f"{x.hex[0]},{x.hex[1]}"
            cells.append(
                [
                    str(x.step),
                    where,
                    str(x.ground),
                    x.terrain,
                    str(x.top),
                    _n(x.sight),
                    _verdict(x, k == len(b.line) - 1),
                ]
            )
        out += ["  " + line for line in _table(cells)]
    if not b.los:
        out.append("  line of sight: none")
        return out
    out.append("  line of sight: yes")
    if not b.hard_sources:
        out.append("  hard cover: none")
    elif b.hard_ignored:
        out.append(
            f"  hard cover: ignored from {_levels(b.climb)} above (two or more, H5); it would be:"
        )
    else:
        out.append("  hard cover (H5):")
    out += [f"    {why}" for why in b.hard_sources]
    out.append("  soft cover (H5):" if b.soft_sources else "  soft cover: none")
    out += [f"    {why}" for why in b.soft_sources]
    out.append(f"  cover: {b.cover} (only the best single cover applies, H5)")
    if b.high_ground:
        out.append(
            f"  high ground: {b.high_ground_dice}[+], the attacker stands "
            f"{_levels(b.climb)} above the target (H5)"
        )
    else:
        where = "level with" if b.climb == 0 else f"{_levels(-b.climb)} below"
        out.append(f"  high ground: none, the attacker stands {where} the target")
    return out


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
        cells += [[f"{n.result:+d}", _p(n.p_result), f"{n.natural}+", _p(n.p_hit)] for n in e.needs]
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
        lines = (
            ("plain", r.plain, ""),
            ("nat 20", r.nat20, ""),
            ("given hit", r.given_hit, _n(r.damage)),
        )
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


# What `mechbal explain skirmish WHAT` can explain, with its options.
EXPLAIN = {
    "shot": Explain(
        "shot",
        "one Fire action: every modifier die, threshold and band, as exact fractions",
        (
            Option("attacker", "attacking kit id", required=True, metavar="KIT"),
            Option(
                "weapon", "weapon part id mounted on the attacker", required=True, metavar="WEAPON"
            ),
            Option("target", "target kit id", required=True, metavar="KIT"),
            Option(
                "range",
                "distance in hexes (default: the weapon's Range, 1 for melee)",
                int,
                metavar="HEXES",
            ),
            Option("cover", "target cover: none, soft or hard (default none)"),
            Option(
                "modifier",
                "extra signed modifier dice ([+] positive)",
                int,
                default=0,
                metavar="DICE",
            ),
            Option("braced", "the target is Braced (+Armor)", switch=True, default=False),
            Option(
                "map",
                "a map id (catalogs/skirmish/maps): the shot on the board, with "
                "--from and --to; the map gives distance, cover and high ground",
                metavar="ID",
            ),
            Option("from", "the attacker's hex on --map", parse_hex, metavar="COL,ROW"),
            Option("to", "the target's hex on --map", parse_hex, metavar="COL,ROW"),
        ),
        shot_text,
    ),
}
