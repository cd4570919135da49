"""The working of ALPHASIDE resolutions (DESIGN "Show the working"), as exact fractions.

``attack``: one attack of N d10 at an Accuracy against a unit's Shields and HP: each
face of the die (``rules.is_hit``, ``rules.is_crit`` through ``rules.die_chances``; a
Disarmed attacker's ``rules.disarmed_hit_chance``), the hits distribution
(``rules.hits_dist``), the combat damage (``rules.combat_damage``: Shields, Damage+X on a
crit, Fracture) and P(defeat) (``rules.defeated``), every number from the functions
``exact.py`` builds hits.csv, damage.csv and defeat.csv with, so the working cannot
drift from the tables. ``weapon``: the same working for a catalog weapon against a
catalog unit, with the expected damage per Timeline space of weapon_vs_unit.csv.
Rulebook headings are cited as ``Dice, Accuracy & Crits`` etc.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from sims.alphaside import exact, rules
from sims.alphaside.catalog import Catalog
from sims.core.dist import fraction_str
from sims.core.protocol import Explain, InputError, Option, whole_number

MAX_DICE = 40  # a pool this large is a typo, not a question
MAX_ACCURACY = 10
MAX_SHIELDS = 20
MAX_HP = 99
MAX_PLUS = 20


def signed_number(text: str) -> int:
    """A whole number with an optional sign (``-3``, ``+2``, ``0``)."""
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not digits.isdigit():
        raise ValueError(f"expected a whole number such as -3, 0 or +2, got {text!r}")
    return int(body)


def _p(x: Fraction) -> str:
    """A probability as an exact fraction and a percentage."""
    return f"{fraction_str(x)} ({float(x):.1%})"


def _n(x: Fraction | int) -> str:
    """An expected value as an exact fraction and a decimal."""
    x = Fraction(x)
    return fraction_str(x) if x.denominator == 1 else f"{fraction_str(x)} ({float(x):.3f})"


def faces_text(faces: Sequence[int]) -> str:
    """Faces as runs: ``4-10``, ``1``, ``2, 5-6``; ``no face`` when empty."""
    if not faces:
        return "no face"
    runs: list[list[int]] = []
    for f in faces:
        if runs and f == runs[-1][-1] + 1:
            runs[-1].append(f)
        else:
            runs.append([f])
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _check(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InputError(f"{name} {value}: expected {low}..{high}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def attack_lines(
    catalog: Catalog,
    dice: int,
    accuracy: int,
    crit_from: int,
    shields: int,
    hp: int,
    plus: int = 0,
    disarmed: bool = False,
    fractured: bool = False,
) -> list[str]:
    """The working of one attack (``attack_text`` without checking its values)."""
    p = catalog.params
    faces = range(1, p.die + 1)
    hit_faces = [f for f in faces if bool(rules.is_hit(f, accuracy, crit_from, p))]
    crit_faces = [f for f in faces if bool(rules.is_crit(f, crit_from, p))]
    miss_faces = [f for f in faces if f not in hit_faces]
    p_hit, p_crit = rules.die_chances(accuracy, crit_from, p)
    plus_used = 0 if disarmed else plus
    extras = []
    if plus:
        note = ": not triggered, the attacker is Disarmed" if disarmed else ""
        extras.append(f"Damage+{plus} on a crit (the weapon's crit effect, once per attack){note}")
    if disarmed:
        extras.append("the attacker Disarmed")
    if fractured:
        extras.append("the target Fractured")
    out = [
        f"Attack of {dice} d{p.die} at Accuracy {accuracy:+d}, crits on "
        f"{faces_text(crit_faces)}, against {_plural(shields, 'active Shield')} and "
        f"{hp} HP",
        *(f"  {e}" for e in extras),
        "",
        "One die (Dice, Accuracy & Crits; rules.is_hit, rules.is_crit):",
        f"  hits on faces {faces_text(hit_faces)} (face {'-' if accuracy < 0 else '+'} "
        f"{abs(accuracy)} >= {p.hit_on}; a {p.miss_face} always misses; a crit always hits): "
        f"{_p(p_hit)}",
        f"  crits on faces {faces_text(crit_faces)} (read from the face, before Accuracy): "
        f"{_p(p_crit)}",
        f"  misses on faces {faces_text(miss_faces)}: {_p(1 - p_hit)}",
    ]
    die_hit = p_hit
    if disarmed:
        die_hit = rules.disarmed_hit_chance(accuracy, crit_from, p)
        out.append(
            f"  Disarmed (Status effects): every hit re-rolled once, the re-roll "
            f"decides: {fraction_str(p_hit)} x {fraction_str(p_hit)} = {_p(die_hit)}; "
            "no crit effect (rules.disarmed_hit_chance)"
        )
    hits = rules.hits_dist(dice, accuracy, crit_from, p, disarmed=disarmed)
    out += [
        "",
        f"Hits of {dice} independent dice, each {fraction_str(die_hit)}: binomial "
        f"P(k) = C({dice},k) x ({fraction_str(die_hit)})^k x "
        f"({fraction_str(1 - die_hit)})^({dice}-k) (rules.hits_dist)",
    ]
    out += [f"  {k:>3}   {_p(pk)}" for k, pk in hits.items]
    if plus_used:
        any_crit = sum(
            (q for _, c, q in exact.joint(dice, accuracy, crit_from, p) if c), Fraction(0)
        )
        out.append(
            f"  P(at least one crit) = sum of hits.csv's rows with crits >= 1 = {_p(any_crit)}"
        )
    damage = exact.attack_damage(
        dice, accuracy, crit_from, shields, p, plus_used, fractured, disarmed
    )
    formula = f"max(hits - {shields}, 0)"
    if plus_used and rules.before_shields(p):  # reading damage_x = before_shields
        formula = f"max(hits + {plus_used} when a crit lands - {shields}, 0) (Shields block it)"
    elif plus_used:
        formula += f" + {plus_used} when a crit lands (after Shields)"
    if fractured:
        formula += f", then + {p.fracture_damage} when that reaches {p.fracture_at} (Fracture)"
    out += [
        "",
        f"Combat damage = {formula} (Damage, Shields & defeat; rules.combat_damage), "
        "summed over the outcomes above",
    ]
    out += [f"  {d:>3}   {_p(pd)}" for d, pd in damage.items]
    out.append(f"  expected damage {_n(damage.mean())}")
    kill = exact.defeat_chances(damage, [hp])[0]
    out += [
        "",
        f"P(defeat) = P(damage >= {hp}): {hp} HP reaches 0 (rules.defeated)",
        f"  = {_p(kill)}",
    ]
    return out


def attack_text(
    catalog: Catalog,
    dice: int,
    hp: int,
    accuracy: int = 0,
    crit_from: int | None = None,
    shields: int = 0,
    plus: int = 0,
    disarmed: bool = False,
    fractured: bool = False,
) -> str:
    """``mechbal explain alphaside attack``: one attack's dice, hits, damage and defeat."""
    p = catalog.params
    crit_from = p.crit_from if crit_from is None else crit_from
    _check("dice", dice, 1, MAX_DICE)
    _check("accuracy", accuracy, -MAX_ACCURACY, MAX_ACCURACY)
    _check("crit-from", crit_from, 2, p.die)
    _check("shields", shields, 0, MAX_SHIELDS)
    _check("hp", hp, 1, MAX_HP)
    _check("plus", plus, 0, MAX_PLUS)
    return "\n".join(
        attack_lines(catalog, dice, accuracy, crit_from, shields, hp, plus, disarmed, fractured)
    )


def weapon_text(catalog: Catalog, weapon: str, unit: str) -> str:
    """``mechbal explain alphaside weapon``: a catalog weapon's attack on a catalog unit
    from full HP (its Damage+X crit effect counted), as weapon_vs_unit.csv."""
    if weapon not in catalog.weapons:
        raise InputError(f"unknown weapon {weapon!r} (known: {', '.join(catalog.weapons)})")
    if unit not in catalog.units:
        raise InputError(f"unknown unit {unit!r} (known: {', '.join(catalog.units)})")
    w, u = catalog.weapons[weapon], catalog.units[unit]
    plus = exact.weapon_plus(w)
    _, kill, expected, per_tl = exact.weapon_vs_unit(catalog, weapon, unit)
    effect = w.crit_effect + (f" {w.crit_value}" if w.crit_value else "")
    out = [
        f"{w.name} ({w.id}): Strength {w.strength}, Accuracy {w.accuracy:+d}, crits from "
        f"{w.crit_from}, TL {w.tl}, Range {w.range}, crit effect {effect}",
        f"against {u.name} ({u.id}): {u.hp} HP, {_plural(u.shields, 'Shield')} (all active: "
        "one attack from full HP)",
    ]
    if w.crit_effect not in ("damage", "none"):
        out.append(
            f"  its crit effect ({w.crit_effect}) is not counted here "
            "(weapon_vs_unit.csv counts only Damage+X)"
        )
    out += ["", *attack_lines(catalog, w.strength, w.accuracy, w.crit_from, u.shields, u.hp, plus)]
    out[-1] = f"  = {_p(kill)}"
    out += [
        "",
        f"Expected damage (rules.expected_damage) = the mean above = {_n(expected)}",
        f"Per Timeline space: {_n(expected)} / {w.tl} TL = {_n(per_tl)}",
    ]
    return "\n".join(out)


EXPLAIN = {
    "attack": Explain(
        "attack",
        "one attack: each die's faces, the hits, the combat damage and P(defeat)",
        (
            Option(
                "dice",
                "d10 rolled (the weapon's Strength)",
                whole_number,
                required=True,
                metavar="N",
            ),
            Option(
                "accuracy",
                "Accuracy added to each die (default 0)",
                signed_number,
                default=0,
                metavar="A",
            ),
            Option(
                "crit_from",
                "least crit face: 9 (the rule) or 7 (default: rules.toml)",
                whole_number,
                metavar="FACE",
            ),
            Option(
                "shields",
                "the target's active Shields (default 0)",
                whole_number,
                default=0,
                metavar="S",
            ),
            Option("hp", "the target's HP", whole_number, required=True, metavar="H"),
            Option(
                "plus",
                "Damage+X when a crit lands (default 0)",
                whole_number,
                default=0,
                metavar="X",
            ),
            Option(
                "disarmed",
                "the attacker is Disarmed (re-rolls every hit)",
                switch=True,
                default=False,
            ),
            Option(
                "fractured",
                "the target is Fractured (3+ combat damage takes 3 more)",
                switch=True,
                default=False,
            ),
        ),
        attack_text,
    ),
    "weapon": Explain(
        "weapon",
        "a catalog weapon's attack on a catalog unit: defeat, damage, damage per TL",
        (
            Option("weapon", "weapon id (weapons.toml)", required=True, metavar="ID"),
            Option("unit", "unit id (units.toml)", required=True, metavar="ID"),
        ),
        weapon_text,
    ),
}
