"""Mecha Skirmish exact probability tables (003 F), built from ``rules.py`` over
``Dist``/``Fraction`` only; floats appear only as the ``*_float`` columns.

Each public table function returns a polars DataFrame whose columns follow DESIGN.md's
table contract: fractions as strings ``a/b`` with a ``<column>_float`` beside each.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

import polars as pl

from sims.core.dist import exact_frame
from sims.core.protocol import Pivot, Table, columns
from sims.skirmish import modifiers, rules
from sims.skirmish.catalog import Catalog, Mech, Part

BONUS_RANGE = range(0, 11)  # Gunnery + weapon Acc + Head Acc
EVASION_RANGE = range(6, 21)
MODIFIER_RANGE = range(-3, 4)  # net modifier dice, [+] positive
PEN_RANGE = range(0, 7)
ARMOR_RANGE = range(3, 11)
MARGIN_RANGE = range(2, 7)
VARIANTS = ("plain", "nat20", "brace")
# weapon_vs_kit's attacker (DESIGN table contract): Gunnery 2, or Piloting 2 for melee.
REFERENCE_SKILL = 2

# How each table is computed (its Markdown header and the report say so).
DOC_HIT = (
    "P(hit) of one shot: d20 + bonus (Gunnery + weapon Acc + Head Acc) +/- the "
    "modifier dice result >= Evasion; a natural 20 always hits, a natural 1 always "
    "misses (003 F Hit). modifier is the net count of modifier dice after cancelling, "
    "[+] positive: the highest of |modifier| d6 is added or subtracted (003 F3)."
)
DOC_PENETRATION = (
    "One hit's penetration: d6 + Pen against the struck part's Armor (003 F5). Below "
    "Armor a glance, at least Armor + margin a crit, otherwise full. Variant nat20 "
    "adds +1 Pen (a natural-20 hit), brace adds +1 Armor (the target Braced)."
)
DOC_BANDS = (
    "Hit location: the six parts' Sizes scaled to 20 bands by largest remainder, ties "
    "to the larger Size then the earlier part (003 F4). Under hard cover the Legs "
    "band hits the cover (003 H5). p_strike = bands / 20, given a hit."
)
DOC_WEAPON_VS_KIT = (
    "Each weapon against each kit: attacker Gunnery 2 (Piloting 2 for melee) + weapon "
    "Acc, no Head Acc, no modifier dice, optimal range, no cover, not moved; target "
    "undamaged with its kit's suggested pilot. crit_share = P(crit | hit); "
    "expected_damage = Shots x P(hit) x expected damage dice per hit (glance per the "
    "glance_damage rule), crit-table effects excluded."
)
DOC_DAMAGE_BY_RANGE = (
    "Each kit's best expected damage per Fire action at each range against the "
    "standard Medium (rules parameter standard_medium, the Foreman): the kit's own "
    "pilot and Head, not moved, no cover; "
    "long range 1[-] and Engaged 1[-] for ranged weapons, the target's intact Shield "
    "arm 1[-] for melee weapons (003 F11.6); target undamaged; the weapon giving it."
)
DOC_STRIKES = (
    "Given one hit by the weapon (attacker as in weapon_vs_kit), the probability of "
    "each (part struck, penetration outcome), the natural-20 bonus weighted by "
    "P(natural 20 | hit)."
)


# ---- hit.csv -----------------------------------------------------------------------------


def hit_table() -> pl.DataFrame:
    """P(hit) for every bonus 0..10, Evasion 6..20 and net modifier dice -3..+3."""
    rows = (
        {"bonus": b, "evasion": e, "modifier": m, "p_hit": rules.hit_chances(b, e, m)[0]}
        for b in BONUS_RANGE
        for e in EVASION_RANGE
        for m in MODIFIER_RANGE
    )
    return exact_frame(rows, ["p_hit"])


# ---- penetration.csv -----------------------------------------------------------------------


def penetration_table(params: rules.Parameters) -> pl.DataFrame:
    """Glance / full / crit for d6 + Pen against Armor, every margin and variant."""
    rows = []
    for pen in PEN_RANGE:
        for armor in ARMOR_RANGE:
            for margin in MARGIN_RANGE:
                for variant in VARIANTS:
                    odds = rules.penetration(
                        pen,
                        armor,
                        margin,
                        nat20=variant == "nat20",
                        braced=variant == "brace",
                        params=params,
                    )
                    rows.append(
                        {"pen": pen, "armor": armor, "margin": margin, "variant": variant, **odds}
                    )
    return exact_frame(rows, rules.OUTCOMES)


# ---- bands.csv --------------------------------------------------------------------------------


def kit_bands(mech: Mech, params: rules.Parameters, cover: str) -> list[dict]:
    """Band rows of one mech; under hard cover the Legs band hits the cover (003 H5, F4)."""
    stats = rules.mech_stats(mech, params)
    rows = []
    for i, first, last in rules.band_ranges(stats.bands):
        part = rules.SILHOUETTE[i]
        if cover == "hard" and part == "legs":
            part = "cover"
        p = Fraction(last - first + 1, rules.LOCATION_DIE)
        rows.append({"part": part, "first": first, "last": last, "p_strike": p})
    return rows


def bands_table(catalog: Catalog) -> pl.DataFrame:
    rows = [
        {"kit": kit, "cover": cover, **row}
        for kit in catalog.kits
        for cover in ("none", "hard")
        for row in kit_bands(catalog.mech(kit), catalog.params, cover)
    ]
    return exact_frame(rows, ["p_strike"])


# ---- one hit over (part, outcome); weapon_vs_kit.csv --------------------------------------------


def reference_accuracy(weapon: Part) -> int:
    """The contract's attacker: Gunnery 2 (Piloting 2 for melee) + weapon Acc, no Head."""
    return REFERENCE_SKILL + weapon.acc


def strike_outcomes(
    weapon: Part,
    target: Mech,
    params: rules.Parameters,
    accuracy: int | None = None,
    net_dice: int = 0,
    *,
    braced: bool = False,
    evasion: int | None = None,
) -> dict[tuple[str, str], Fraction]:
    """P(part, outcome | hit) for one shot of ``weapon`` at an undamaged ``target``
    without cover: location over its bands (F4), then penetration (F5, +Brace Armor when
    ``braced``) with the natural-20 bonus weighted by P(natural 20 | hit). ``evasion``
    replaces the target's own (a Prone target, say)."""
    stats = rules.mech_stats(target, params)
    acc = reference_accuracy(weapon) if accuracy is None else accuracy
    evasion = stats.evasion if evasion is None else evasion
    p_hit, p_nat = rules.hit_chances(acc, evasion, net_dice)
    q = p_nat / p_hit
    out: dict[tuple[str, str], Fraction] = {}
    for i, first, last in rules.band_ranges(stats.bands):
        p_band = Fraction(last - first + 1, rules.LOCATION_DIE)
        args = (weapon.pen, stats.armor[i], params.crit_margin)
        plain = rules.penetration(*args, braced=braced, params=params)
        nat = rules.penetration(*args, nat20=True, braced=braced, params=params)
        for outcome in rules.OUTCOMES:
            out[(rules.SILHOUETTE[i], outcome)] = p_band * (
                (1 - q) * plain[outcome] + q * nat[outcome]
            )
    return out


def outcome_shares(outcomes: dict[tuple[str, str], Fraction]) -> dict[str, Fraction]:
    """Collapse (part, outcome) to outcome."""
    shares = dict.fromkeys(rules.OUTCOMES, Fraction(0))
    for (_, outcome), p in outcomes.items():
        shares[outcome] += p
    return shares


def outcome_damage_means(weapon: Part, params: rules.Parameters) -> dict[str, Fraction]:
    """Mean damage-dice damage of a hit by outcome (glance per ``glance_damage``, F5/F6)."""
    return dict(_outcome_means(weapon, params))


@functools.cache  # pure in (part, parameters), both frozen; tables ask many times
def _outcome_means(weapon: Part, params: rules.Parameters) -> tuple[tuple[str, Fraction], ...]:
    dice = rules.damage_dist(weapon)
    return tuple(
        (o, dice.map(lambda r, o=o: rules.outcome_damage(o, r, params)).mean())
        for o in rules.OUTCOMES
    )


def fire_damage(
    weapon: Part,
    target: Mech,
    params: rules.Parameters,
    *,
    accuracy: int | None = None,
    net_dice: int = 0,
    braced: bool = False,
    evasion: int | None = None,
) -> Fraction:
    """Expected damage-dice damage of one Fire action without cover: Shots x P(hit) x
    E[damage | hit] (shots independent, target undamaged; crit-table effects are not
    damage). ``accuracy`` defaults to the weapon_vs_kit attacker's, ``evasion`` to the
    target's own."""
    evasion = rules.mech_stats(target, params).evasion if evasion is None else evasion
    acc = reference_accuracy(weapon) if accuracy is None else accuracy
    p_hit, _ = rules.hit_chances(acc, evasion, net_dice)
    strikes = strike_outcomes(weapon, target, params, acc, net_dice, braced=braced, evasion=evasion)
    per_outcome = outcome_damage_means(weapon, params)
    per_hit = sum(p * per_outcome[o] for (_, o), p in strikes.items())
    return weapon.shots * p_hit * per_hit


def expected_damage(weapon: Part, target: Mech, params: rules.Parameters) -> Fraction:
    """weapon_vs_kit's expected damage per Fire action: the contract's attacker, no
    modifier dice (DESIGN Tables)."""
    return fire_damage(weapon, target, params)


def crit_share(weapon: Part, target: Mech, params: rules.Parameters) -> Fraction:
    """P(crit | hit) for the contract's attacker."""
    return outcome_shares(strike_outcomes(weapon, target, params))["crit"]


def weapon_vs_kit_table(catalog: Catalog) -> pl.DataFrame:
    rows = []
    for weapon in catalog.weapons():
        for kit in catalog.kits:
            target = catalog.mech(kit)
            stats = rules.mech_stats(target, catalog.params)
            p_hit, _ = rules.hit_chances(reference_accuracy(weapon), stats.evasion, 0)
            rows.append(
                {
                    "weapon": weapon.id,
                    "kit": kit,
                    "p_hit": p_hit,
                    "crit_share": crit_share(weapon, target, catalog.params),
                    "expected_damage": expected_damage(weapon, target, catalog.params),
                }
            )
    return exact_frame(rows, ["p_hit", "crit_share", "expected_damage"])


def strikes_table(catalog: Catalog) -> pl.DataFrame:
    """Per weapon and kit, the distribution of one hit over (part, outcome)."""
    rows = [
        {"weapon": w.id, "kit": kit, "part": part, "outcome": outcome, "p": p}
        for w in catalog.weapons()
        for kit in catalog.kits
        for (part, outcome), p in strike_outcomes(w, catalog.mech(kit), catalog.params).items()
    ]
    return exact_frame(rows, ["p"])


def mean_crit_share(
    catalog: Catalog, weapon_id: str, kits: Iterable[str], margin: int | None = None
) -> Fraction:
    """P(crit | hit) of a weapon averaged with equal weight over target kits, at the
    catalog's margin or at ``margin`` (the 53% claim's definition, DESIGN.md)."""
    params = catalog.params if margin is None else replace(catalog.params, crit_margin=margin)
    kits = list(kits)
    weapon = catalog.parts[weapon_id]
    return sum((crit_share(weapon, catalog.mech(k), params) for k in kits), Fraction(0)) / len(kits)


def tables(catalog: Catalog) -> dict[str, pl.DataFrame]:
    """Every exact table of the game, by file stem."""
    return {
        "hit": hit_table(),
        "penetration": penetration_table(catalog.params),
        "bands": bands_table(catalog),
        "weapon_vs_kit": weapon_vs_kit_table(catalog),
        "strikes": strikes_table(catalog),
        "damage_by_range": damage_by_range_table(catalog),
    }


def damage_at_distance(
    weapon: Part, attacker: Mech, target: Mech, distance: int, params: rules.Parameters
) -> Fraction | None:
    """Exact expected damage-dice damage of one Fire action of ``attacker``'s
    ``weapon`` at ``distance`` hexes (None where it cannot shoot): the attacker's own
    pilot and Head, not moved, no cover; the modifier dice of that situation
    (``modifiers.shot_situation``: long range, Engaged for ranged weapons, a Shield arm
    against melee); target undamaged with its kit's pilot."""
    if rules.range_band(distance, weapon, params) == "out":
        return None
    situation = modifiers.shot_situation(weapon, target, distance, params)
    net = modifiers.fire_dice(situation, params).net
    acc = rules.attack_accuracy(attacker.pilot, weapon, attacker.head)
    return fire_damage(weapon, target, params, accuracy=acc, net_dice=net)


def standard_medium(catalog: Catalog) -> str:
    """The kit that is "the standard Medium" (003 F4): the rules parameter
    ``standard_medium`` (rules.toml, the Foreman)."""
    return catalog.params.standard_medium


def damage_by_range_table(catalog: Catalog, target: str | None = None) -> pl.DataFrame:
    """Per kit and distance 1..the longest reach, the best expected damage per Fire
    action among its weapons (and which weapon gives it) against ``target`` (default
    the standard Medium)."""
    params = catalog.params
    target = standard_medium(catalog) if target is None else target
    tgt = catalog.mech(target)
    longest = max(1 if w.is_melee else rules.long_range(w.range, params) for w in catalog.weapons())
    rows = []
    for kit in catalog.kits:
        mech = catalog.mech(kit)
        for d in range(1, longest + 1):
            best = None
            for weapon in mech.weapons:
                value = damage_at_distance(weapon, mech, tgt, d, params)
                if value is not None and (best is None or value > best[1]):
                    best = (weapon.id, value)
            if best is not None:
                rows.append(
                    {
                        "kit": kit,
                        "target": target,
                        "distance": d,
                        "weapon": best[0],
                        "expected_damage": best[1],
                    }
                )
    return exact_frame(rows, ["expected_damage"])


# ---- the table declarations (DESIGN.md "Tables"; the contract columns and their kinds) ----


def _full_or_better_and_crit(row: Mapping[str, Any]) -> str:
    good = Fraction(row["full"]) + Fraction(row["crit"])
    return f"{float(good) * 100:.0f} / {float(Fraction(row['crit'])) * 100:.0f}"


TABLES = (
    Table(
        "hit",
        DOC_HIT,
        columns(("bonus", "id"), ("evasion", "id"), ("modifier", "id"), ("p_hit", "probability")),
        Pivot(("modifier",), "bonus", "evasion", "p_hit"),
    ),
    Table(
        "penetration",
        DOC_PENETRATION,
        columns(
            ("pen", "id"),
            ("armor", "id"),
            ("margin", "id"),
            ("variant", "id"),
            ("glance", "probability"),
            ("full", "probability"),
            ("crit", "probability"),
        ),
        Pivot(
            ("margin", "variant"),
            "pen",
            "armor",
            _full_or_better_and_crit,
            note="Each cell: % full-or-better / % crit.",
        ),
    ),
    Table(
        "bands",
        DOC_BANDS,
        columns(
            ("kit", "id"),
            ("cover", "id"),
            ("part", "id"),
            ("first", "id"),
            ("last", "id"),
            ("p_strike", "probability"),
        ),
    ),
    Table(
        "weapon_vs_kit",
        DOC_WEAPON_VS_KIT,
        columns(
            ("weapon", "id"),
            ("kit", "id"),
            ("p_hit", "probability"),
            ("crit_share", "probability"),
            ("expected_damage", "expectation"),
        ),
    ),
    Table(
        "strikes",
        DOC_STRIKES,
        columns(
            ("weapon", "id"), ("kit", "id"), ("part", "id"), ("outcome", "id"), ("p", "probability")
        ),
    ),
    Table(
        "damage_by_range",
        DOC_DAMAGE_BY_RANGE,
        columns(
            ("kit", "id"),
            ("target", "id"),
            ("distance", "id"),
            ("weapon", "id"),
            ("expected_damage", "expectation"),
        ),
    ),
)
