"""The working of Alluvion Knights resolutions (DESIGN "Show the working"), as exact
fractions.

``attack``: one attack of an Attack pool against a Defense pool: each pool's highest die
(the CDF product), P(hit) (``rules.is_hit``), the margin's distribution (``rules.margin``:
the number of damage d6) and the expected Direct Hits in the chosen damage case
(``rules.direct_hit_chance``), every number from the functions ``exact.py`` builds its
tables with, so the working cannot drift from ``attack.csv`` and ``margin.csv``.
Rulebook headings are cited as ``Knowing When Attacks Hit`` etc.
"""

from __future__ import annotations

import re
from fractions import Fraction

from sims.alluvion import exact, rules
from sims.alluvion.catalog import Catalog
from sims.core.dist import fraction_str
from sims.core.protocol import Explain, InputError, Option, whole_number

POOL_TERM = re.compile(r"(\d*)d(\d+)")
MAX_DICE = 30  # a pool this large is a typo, not a question
MAX_SIDES = 100
DEFAULT_CASE = "exposed"


def parse_pool(text: str, what: str) -> tuple[int, ...]:
    """A pool written like ``2d6+1d8`` (``0`` for none) -> its dice (``rules.parse_pool``);
    anything else is an InputError naming the text."""
    clean = re.sub(r"\s+", "", text or "").lower()
    terms = clean.split("+") if clean != "0" else []
    example = "write it like 2d6+1d8, or 0 for no dice"
    if clean != "0" and (not clean or not all(POOL_TERM.fullmatch(t) for t in terms)):
        raise InputError(f"{what} pool {text!r}: not a pool ({example})")
    counts = [POOL_TERM.fullmatch(t).group(1) for t in terms]
    if any(n and int(n) == 0 for n in counts):
        raise InputError(f"{what} pool {text!r}: a term of no dice ({example})")
    dice = rules.parse_pool(clean)
    if len(dice) > MAX_DICE or any(not 2 <= s <= MAX_SIDES for s in dice):
        raise InputError(
            f"{what} pool {text!r}: at most {MAX_DICE} dice of 2..{MAX_SIDES} sides ({example})"
        )
    return dice


def _p(x: Fraction) -> str:
    """A probability as an exact fraction and a percentage."""
    return f"{fraction_str(x)} ({float(x):.1%})"


def _n(x: Fraction | int) -> str:
    """An expected value as an exact fraction and a decimal."""
    x = Fraction(x)
    return fraction_str(x) if x.denominator == 1 else f"{fraction_str(x)} ({float(x):.3f})"


def _highest_lines(label: str, dice: tuple[int, ...]) -> list[str]:
    text = rules.pool_text(dice)
    if not dice:
        return [f"{label} pool 0: no dice, the value is 0 (nothing to assign)"]
    factors = " x ".join(f"min(x,{s})/{s}" for s in sorted(dice))
    out = [f"{label} pool {text}: highest die, P(<= x) = {factors}; P(= x) = P(<= x) - P(<= x-1)"]
    out += [f"  {v:>3}   {_p(p)}" for v, p in exact.highest(tuple(sorted(dice))).items]
    return out


def attack_text(
    catalog: Catalog, attack: str, defense: str, spot: int = 0, case: str = DEFAULT_CASE
) -> str:
    """``mechbal explain alluvion attack``: one attack's odds, margin and Direct Hits."""
    p = catalog.params
    atk = parse_pool(attack, "attack")
    dfn = parse_pool(defense, "defense")
    if case not in rules.CASES:
        raise InputError(f"unknown case {case!r} (known: {', '.join(rules.CASES)})")
    if not 0 <= spot <= 99:
        raise InputError(f"spot {spot}: expected 0..99")
    case_i = rules.CASES.index(case)
    hit = exact.p_hit(atk, dfn, spot, p)
    margins = exact.margin_dist(atk, dfn, spot, p)
    faces, sides = rules.direct_hit_chance(case_i, p)
    chance = exact.direct_hit_p(case_i, p)
    expected = exact.expected_direct_hits(margins, case_i, p)
    on_margin = (
        "Attack + Spot - Defense"
        if p.spot_adds_to_margin == "on"
        else "Attack - Defense (spot_adds_to_margin off)"
    )
    first = rules.direct_from(case_i, p)
    on_faces = (
        f"a {first}" if first == sides else f"{first}-{sides}" if first < sides else "no face"
    )
    out = [
        f"Attack {rules.pool_text(atk)} against Defense {rules.pool_text(dfn)}, Spot {spot}, "
        f"case {case}",
        "  Each side assigns its highest die (Attacking; Defending: one die per attack).",
        "",
        *_highest_lines("Attack", atk),
        "",
        *_highest_lines("Defense", dfn),
        "",
        f"P(hit) = sum over Attack a and Defense d of P(a) x P(d) where a + {spot} - d >= "
        f"{p.hit_at} (Knowing When Attacks Hit)",
        f"  = {_p(hit)}",
        "",
        f"Margin: damage d{p.damage_die} rolled = {on_margin}, at least 1 on a hit, 0 on a "
        "miss (Damage; rules.margin), summed over the same pairs",
        *(f"  {m:>3}   {_p(pm)}" for m, pm in margins.items),
        f"  expected damage dice {_n(margins.mean())}",
        "",
        f"Direct Hits ({case}): each damage die a Direct Hit on {on_faces}, {faces} face(s) "
        f"of {sides} = {fraction_str(chance)} (Damage; rules.direct_hit_chance)",
        f"  E = sum over margin m of P(m) x m x {fraction_str(chance)} = expected damage dice "
        f"x {fraction_str(chance)}",
        f"  = {_n(expected)}",
    ]
    return "\n".join(out)


def _case(text: str) -> str:
    if text not in rules.CASES:
        raise ValueError(f"expected one of {', '.join(rules.CASES)}, got {text!r}")
    return text


EXPLAIN = {
    "attack": Explain(
        "attack",
        "one attack: each pool's highest die, P(hit), the damage dice and expected Direct Hits",
        (
            Option("attack", "the Attack pool, e.g. 1d6+1d8", required=True, metavar="POOL"),
            Option(
                "defense", "the Defense pool, e.g. 3d6 (0: none)", required=True, metavar="POOL"
            ),
            Option(
                "spot",
                "the Spot value added to the attack (default 0)",
                whole_number,
                default=0,
                metavar="N",
            ),
            Option(
                "case",
                f"damage case: {', '.join(rules.CASES)} (default {DEFAULT_CASE})",
                _case,
                default=DEFAULT_CASE,
                metavar="CASE",
            ),
        ),
        attack_text,
    ),
}
