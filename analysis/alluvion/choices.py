"""Alluvion Knights' choice set for ``mechbal dominated alluvion`` (analysis.dominance):
every legal loadout (chassis and systems), judged on its exact pools.

Rockets are left out of the choice: they take no slot and cost nothing (The Systems:
"carry up to 2 single-shot rockets"), so every loadout is best with ``rockets_max`` of
them, and a loadout with fewer would be dominated by the same loadout with more. A
choice is a chassis and a count of systems per kind (``sims.alluvion.builds``).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import polars as pl

from analysis.dominance import ChoiceSet
from sims.alluvion import exact, rules
from sims.alluvion.builds import every_loadout
from sims.alluvion.catalog import KINDS, Catalog
from sims.alluvion.params import Parameters

Pool = tuple[int, ...]
OBJECTIVES = {
    "p_hit": "max",
    "direct_hits": "max",
    "p_miss": "max",
    "move": "max",
    "spot": "max",
    "systems": "max",
}
ATTACK_CASE = {"smart": rules.SMART_CASE, "ranged": rules.EXPOSED, "close": rules.CLOSE}


def attack_kind(counts: tuple[int, ...]) -> str | None:
    """The attack the engines make at range (battle.py 3f): smart with a Smart system,
    else ranged with Direct Fire; a Hand-to-Hand-only Armor closes in and attacks close;
    None without a weapon system."""
    if counts[rules.SMART]:
        return "smart"
    if counts[rules.DIRECT_FIRE]:
        return "ranged"
    if counts[rules.HAND_TO_HAND]:
        return "close"
    return None


def defense_against(counts: tuple[int, ...], kind: str, p: Parameters) -> Pool:
    """The Defense dice that may meet an attack of ``kind`` (a Smart attack: the ECM dice
    only, when ``smart_defense`` is ``ecm``); the empty pool defends with 0."""
    ecm, resistive = rules.defense_dice(counts, p)
    return tuple(sorted(ecm if kind == "smart" and p.smart_defense == "ecm" else ecm + resistive))


@functools.cache
def _attack(attack: Pool, defense: Pool, kind: str, p: Parameters) -> tuple[Fraction, Fraction]:
    """(P(hit), expected Direct Hits) of one attack: the highest die of each pool, spot 0."""
    margins = exact.margin_dist(attack, defense, 0, p)
    return (
        exact.p_hit(attack, defense, 0, p),
        exact.expected_direct_hits(margins, ATTACK_CASE[kind], p),
    )


def expected_move(base_move: int, counts: tuple[int, ...], p: Parameters) -> Fraction:
    """E[hexes of one Move]: ``rules.hexes_moved`` of the movement rating and the highest
    Move die (0 without one)."""
    die = exact.highest(tuple(sorted(rules.move_dice(counts, p))))
    return die.map(lambda x: int(rules.hexes_moved(base_move, x, p))).mean()


def expected_spot(counts: tuple[int, ...], p: Parameters) -> Fraction:
    """E[the highest Spot die] (0 without a surveillance system)."""
    pool = rules.spot_dice(counts, p)
    return exact.highest(tuple(sorted(pool))).mean() if pool else Fraction(0)


def references(catalog: Catalog) -> tuple[list[tuple[str, tuple[int, ...]]], list[str]]:
    """The named loadouts of loadouts.toml (id, counts): the reference defenders; and
    the ids of those with a weapon system, the reference attackers."""
    named = [(lo.id, lo.counts) for lo in catalog.loadouts.values()]
    return named, [i for i, counts in named if attack_kind(counts)]


def loadout_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per legal loadout (chassis and systems; rockets aside) with its exact
    objectives, pools and the named loadout it is (if any)."""
    p = catalog.params
    named, attackers = references(catalog)
    named_counts = dict(named)
    names = {(lo.chassis, lo.counts): lo.id for lo in catalog.loadouts.values()}
    seen: set[str] = set()
    rows = []
    for lo in every_loadout(catalog):
        code = rules.loadout_code(lo.chassis, lo.counts, 0)
        if code in seen:
            continue
        seen.add(code)
        counts = lo.counts
        kind = attack_kind(counts)
        attack = tuple(sorted(rules.attack_dice(counts, p)))
        hit, hits = Fraction(0), Fraction(0)
        if kind is not None:
            for _, other in named:
                h, d = _attack(attack, defense_against(other, kind, p), kind, p)
                hit, hits = hit + h, hits + d
            hit, hits = hit / len(named), hits / len(named)
        miss = Fraction(0)
        for ref in attackers:
            other = named_counts[ref]
            k = attack_kind(other)
            assert k is not None
            h, _ = _attack(
                tuple(sorted(rules.attack_dice(other, p))), defense_against(counts, k, p), k, p
            )
            miss += 1 - h
        ecm, resistive = rules.defense_dice(counts, p)
        rows.append(
            {
                "id": code,
                "chassis": lo.chassis,
                **dict(zip(KINDS, counts, strict=True)),
                "attack": kind or "none",
                "p_hit": float(hit),
                "direct_hits": float(hits),
                "p_miss": float(miss / len(attackers)) if attackers else 0.0,
                "move": float(expected_move(catalog.chassis[lo.chassis].base_move, counts, p)),
                "spot": float(expected_spot(counts, p)),
                "systems": sum(counts),
                "attack_pool": rules.pool_text(attack),
                "defense_pool": rules.pool_text(ecm + resistive),
                "move_pool": rules.pool_text(rules.move_dice(counts, p)),
                "named": names.get((lo.chassis, counts), ""),
            }
        )
    return pl.DataFrame(rows)


def loadouts_doc(catalog: Catalog) -> str:
    p = catalog.params
    named, attackers = references(catalog)
    pools = "; ".join(
        f"{i} {rules.pool_text(tuple(sorted(sum(rules.defense_dice(c, p), ()))))}" for i, c in named
    )
    attacks = "; ".join(
        f"{i} {attack_kind(dict(named)[i])} {rules.pool_text(rules.attack_dice(dict(named)[i], p))}"
        for i in attackers
    )
    return (
        "Exact, from the pools (rules.py) through exact.py's highest-die and margin "
        "distributions, no simulation; spot 0, no cover. The Skill dice (the same 2d6 "
        "for every Knight, spent where its own dice run out) are left out: the numbers "
        "are what the systems and the chassis bring. The "
        "reference Armors are the named loadouts of loadouts.toml. p_hit: P(one attack "
        "hits), its Attack pool's highest die (the weapon systems: the first 1d6, each "
        "later 1d8; rockets aside) against the highest die each reference Armor may "
        "meet it with (a Smart attack meets the ECM dice only; no die defends with 0), "
        "the mean over the reference Armors; its attack is smart with "
        "a Smart system, else ranged with Direct Fire, else close; 0 without a weapon "
        f"system. Reference Defense pools: {pools}. direct_hits: expected Direct Hits of "
        "that attack (rules.margin damage d6, each a Direct Hit with the case's chance: "
        "smart 4-6, ranged against an exposed target 5-6, close 4-6), the same mean. "
        "p_miss: P(an attack of a reference attacker misses it), its Defense dice that "
        "may meet that attack, the mean over the reference "
        f"attackers: {attacks}. move: expected hexes of one Move (the chassis's movement "
        "rating + the highest Move die, 0 without one, in hexes: "
        "rules.hexes_moved). spot: expected highest Spot die (0 without surveillance). "
        "systems: its systems, what it loses one per two Direct Hits before it is "
        "inoperable (more is better: there is no points cost; the chassis's slots are "
        "the only limit). Rockets are left out: they take no slot and cost nothing, so "
        "every loadout carries rockets_max."
    )


def choice_sets(catalog: Catalog) -> list[ChoiceSet]:
    """Alluvion's choice set (module docstring)."""
    frame = loadout_frame(catalog)
    return [
        ChoiceSet(
            name="loadouts",
            what="a chassis and its systems (0-2 of each kind, at least "
            "one, within its slots); rockets aside",
            frame=frame,
            objectives=OBJECTIVES,
            doc=loadouts_doc(catalog),
            chart=("p_miss", "p_hit"),
            columns=["chassis", "attack", "attack_pool", "defense_pool", "move_pool", *OBJECTIVES],
            labels={
                "p_hit": "P(its attack hits)",
                "p_miss": "P(an attack on it misses)",
                "direct_hits": "expected Direct Hits per attack",
                "move": "expected hexes per Move",
                "spot": "expected Spot die",
            },
            note="named",
        ),
    ]
