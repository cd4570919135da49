"""Mecha Skirmish's choice sets for ``mechbal dominated skirmish`` (analysis.dominance):
weapons, the other parts, and every legal build, each judged on exact proxies.

- ``weapons``: each weapon part against the others of its slot (arm or back): expected
  damage per Fire action (the mean of ``weapon_vs_kit`` over the kits), Range, Heat,
  Weight, and the Durability and Armor the part brings; Indirect and Pulse count for a
  weapon that has them, Heavy (1[-] after moving) against it.
- ``parts``: every part that is no weapon against the others of its slot (chassis within
  their class, whose Weight cap they share): Weight against every stat it adds (Armor,
  Durability, Evasion, Speed, Sensors, E-Def, Acc, Reactor) and the Guard, Jump and
  Smoke it grants.
- ``builds``: every legal build of the playable parts (``sims.skirmish.builds``; the two
  arms unordered, a build and its mirror being one choice): Weight against expected
  damage per activation and expected Fire actions of a reference weapon to destroy its
  Core. ``--confirm N`` checks the proxies in battle: each dominated kit and the
  frontier build nearest it, and a few frontier builds with a build each dominates,
  every one of them N duels against the standard Medium (vector engine).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from analysis.dominance import ChoiceSet
from analysis.readings import wilson
from sims.core.dist import Dist
from sims.skirmish import builds, exact, rules
from sims.skirmish.catalog import Catalog, Kit, Part

ABILITY_TAGS = {
    "weapons": {"indirect": "max", "pulse": "max", "heavy": "min"},
    "parts": {"guard": "max", "jump": "max", "smoke": "max"},
}
PART_STATS = ("armor", "durability", "evasion", "speed", "sensors", "e_def", "acc", "reactor")
CONFIRM_PAIRS = 6  # frontier builds --confirm plays, each with one build it dominates
CONFIRM_POLICY = "gunline"

DOC_WEAPONS = (
    "Exact. damage: the weapon's expected damage-dice damage per Fire action, the mean "
    "of weapon_vs_kit over every kit (attacker Gunnery 2, Piloting 2 for melee, + weapon "
    "Acc, no Head Acc, no modifier dice, optimal range, no cover; crit-table effects "
    "excluded). Range, Heat, Weight, Durability and Armor as printed. indirect, pulse: 1 "
    "when the weapon has the tag (it may fire without line of sight; it adds Heat to its "
    "target), so a weapon without it never dominates one with it; heavy: 1 for a Heavy "
    "weapon (1[-] after moving), counted against it. Compared within a slot: an arm "
    "weapon against arm weapons, a back weapon against back weapons."
)
DOC_PARTS = (
    "Exact: the part's printed numbers. Weight is the cost; Armor and Durability protect "
    "the part (Durability also adds to Hull); Evasion and Speed (legs and chassis), "
    "Sensors and E-Def (head, chassis, back), Acc (head) and Reactor (chassis, back) add "
    "to the derived stats (003 C). guard, jump, smoke: 1 when the part grants it. Size is "
    "left out (a larger part draws more hits: good for the parts behind it, bad for "
    "itself). Compared within a slot; chassis within their class, whose cap they share."
)


# ---- weapons and parts -----------------------------------------------------------------------


def weapon_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per weapon: its exact mean damage over the kits and its printed numbers."""
    rows = []
    targets = [catalog.mech(k) for k in catalog.kits]
    for w in catalog.weapons():
        mean = sum(
            (exact.expected_damage(w, t, catalog.params) for t in targets), Fraction(0)
        ) / len(targets)
        rows.append(
            {
                "id": w.id,
                "slot": w.slot,
                "damage": float(mean),
                "range": w.range,
                "heat": w.heat,
                "weight": w.weight,
                "durability": w.durability,
                "armor": w.armor,
                **{tag: int(tag in w.tags) for tag in ABILITY_TAGS["weapons"]},
                "tags": ",".join(w.tags),
            }
        )
    return pl.DataFrame(rows)


def _part_group(part: Part) -> str:
    return f"{part.slot} ({part.klass})" if part.slot == "chassis" else part.slot


def part_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per part that is no weapon: its printed numbers and the abilities it grants."""
    rows = []
    for p in catalog.parts.values():
        if p.is_weapon:
            continue
        rows.append(
            {
                "id": p.id,
                "slot": _part_group(p),
                "weight": p.weight,
                **{s: getattr(p, s) for s in PART_STATS},
                **{tag: int(tag in p.tags) for tag in ABILITY_TAGS["parts"]},
            }
        )
    return pl.DataFrame(rows)


# ---- builds ---------------------------------------------------------------------------------


def reference_weapon(catalog: Catalog) -> Part:
    """The weapon every build's Core is measured against: the standard Medium's weapon
    with the most expected damage against the standard Medium itself."""
    standard = catalog.mech(catalog.params.standard_medium)
    return max(standard.weapons, key=lambda w: exact.expected_damage(w, standard, catalog.params))


@functools.cache
def _core_hits(
    pen: int,
    damage: str,
    acc: int,
    evasion: int,
    band: int,
    armor: int,
    durability: int,
    params: rules.Parameters,
) -> Fraction:
    """Expected hits of a weapon (Pen ``pen``, ``damage`` dice, accuracy ``acc``) on a
    target of ``evasion`` until the damage dealt to its Core (``band`` faces of 20,
    ``armor``, ``durability``) reaches its Durability, counting only hits whose location
    is the Core: E[h] = (1 + sum_x P(x) E[h - x]) / (1 - P(0)), E[h <= 0] = 0."""
    if band == 0:
        return Fraction(0)  # never struck: no number of hits destroys it (left at 0)
    p_hit, p_nat = rules.hit_chances(acc, evasion, 0)
    q = p_nat / p_hit
    plain = rules.penetration(pen, armor, params.crit_margin, params=params)
    nat = rules.penetration(pen, armor, params.crit_margin, nat20=True, params=params)
    dice = Dist.parse(damage)
    per_hit: dict[int, Fraction] = {0: 1 - Fraction(band, rules.LOCATION_DIE)}
    for outcome in rules.OUTCOMES:
        share = Fraction(band, rules.LOCATION_DIE) * ((1 - q) * plain[outcome] + q * nat[outcome])
        for rolled, p in dice.items:
            x = int(rules.outcome_damage(outcome, rolled, params))
            per_hit[x] = per_hit.get(x, Fraction(0)) + share * p
    stay = per_hit.pop(0)
    e = [Fraction(0)] * (durability + 1)
    for h in range(1, durability + 1):
        e[h] = (1 + sum(p * e[max(h - x, 0)] for x, p in per_hit.items())) / (1 - stay)
    return e[durability]


def _fire_table(
    catalog: Catalog, ids: tuple[str, ...], heads: tuple[str, ...], target: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """[head, part] expected damage per Fire action against ``target`` (0 for a part that
    is no weapon), the parts' Heat and whether each is a weapon."""
    p = catalog.params
    dmg = np.zeros((len(heads), len(ids)))
    for j, pid in enumerate(ids):
        w = catalog.parts[pid]
        if not w.is_weapon:
            continue
        for i, hid in enumerate(heads):
            acc = exact.REFERENCE_SKILL + w.acc + catalog.parts[hid].acc
            dmg[i, j] = float(exact.fire_damage(w, target, p, accuracy=acc))
    heat = np.array([catalog.parts[i].heat for i in ids])
    weapon = np.array([catalog.parts[i].is_weapon for i in ids])
    return dmg, heat, weapon


def per_activation(
    dmg: np.ndarray, heat: np.ndarray, weapon: np.ndarray, reactor: np.ndarray, barrage_heat: int
) -> np.ndarray:
    """[N] expected damage of one activation from [N, 3] per-mount damage, Heat and
    weapon flags: the better of one Fire of the best weapon and a Barrage of the two
    best when their Heat + ``barrage_heat`` fits the Reactor Cap (from Heat 0)."""
    order = np.argsort(-np.where(weapon, dmg, -1.0), axis=1, kind="stable")
    top = np.take_along_axis(dmg, order[:, :2], axis=1)
    ok = np.take_along_axis(weapon, order[:, :2], axis=1).all(axis=1)
    hot = np.take_along_axis(heat, order[:, :2], axis=1).sum(axis=1) + barrage_heat
    single = np.where(weapon, dmg, 0.0).max(axis=1)
    return np.where(ok & (hot <= reactor), np.maximum(single, top.sum(axis=1)), single)


def build_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per legal build of the playable parts (arms unordered), with its exact
    objectives, and a note naming the kit it is."""
    p = catalog.params
    b = builds.enumerate_builds(catalog.parts, p)
    b = b.select(b.legal & (b.right_arm <= b.left_arm))
    ids = b.ids
    standard = catalog.mech(p.standard_medium)
    arm_dmg, arm_heat, arm_w = _fire_table(catalog, ids["arm"], ids["head"], standard)
    back_dmg, back_heat, back_w = _fire_table(catalog, ids["back"], ids["head"], standard)
    h = b.head.astype(np.intp)
    mounts = [
        (arm_dmg, arm_heat, arm_w, b.right_arm),
        (arm_dmg, arm_heat, arm_w, b.left_arm),
        (back_dmg, back_heat, back_w, b.back),
    ]
    dmg = np.stack([d[h, m.astype(np.intp)] for d, _, _, m in mounts], axis=1)
    heat = np.stack([t[m.astype(np.intp)] for _, t, _, m in mounts], axis=1)
    weapon = np.stack([w[m.astype(np.intp)] for _, _, w, m in mounts], axis=1)
    damage = per_activation(dmg, heat, weapon, b.reactor_cap.astype(float), p.barrage_heat)
    ref = reference_weapon(catalog)
    acc = exact.REFERENCE_SKILL + ref.acc
    band = b.bands[:, rules.CORE]
    chassis = [catalog.parts[c] for c in ids["chassis"]]
    key = np.stack([b.chassis, band, b.evasion], axis=1)
    combos, inverse = np.unique(key, axis=0, return_inverse=True)
    hits = np.zeros(len(combos))
    attacks = np.zeros(len(combos))
    for k, (c, bd, ev) in enumerate(combos):
        core = chassis[int(c)]
        e = _core_hits(ref.pen, ref.damage, acc, int(ev), int(bd), core.armor, core.durability, p)
        hits[k] = float(e)
        attacks[k] = float(e / rules.hit_chances(acc, int(ev), 0)[0])
    names = {
        slot: np.array(ids[builds.CATALOG_SLOT[slot]], dtype=object) for slot in builds.BUILD_SLOTS
    }
    parts = {slot: names[slot][getattr(b, slot)] for slot in builds.BUILD_SLOTS}
    build_id = ["/".join(t) for t in zip(*(parts[s] for s in builds.BUILD_SLOTS), strict=True)]
    kits = {}
    for kit in catalog.kits.values():
        right, left = sorted((kit.right_arm, kit.left_arm), key=ids["arm"].index)
        kits["/".join((kit.chassis, kit.head, right, left, kit.legs, kit.back))] = kit.id
    frame = pl.DataFrame(
        {
            "id": build_id,
            "chassis": parts["chassis"].astype(str),
            "weight": b.weight.astype(np.int64),
            "damage": damage,
            "core_attacks": attacks[inverse.ravel()],
            "core_hits": hits[inverse.ravel()],
            "evasion": b.evasion.astype(np.int64),
            "core_band": band.astype(np.int64),
        }
    )
    kit = pl.col("id").replace_strict(kits, default="")
    return frame.with_columns(kit=pl.when(kit != "").then(pl.lit("kit ") + kit).otherwise(kit))


def builds_doc(catalog: Catalog) -> str:
    p = catalog.params
    ref = reference_weapon(catalog)
    return (
        "Exact proxies, one number per build, no simulation. damage: expected damage-dice "
        "damage of one activation against the standard Medium "
        f"({p.standard_medium}, its kit's pilot): the better of one Fire of the build's best "
        "weapon and a Barrage of its two best when their Heat + barrage_heat fits its "
        "Reactor Cap from Heat 0; each weapon fired by Gunnery 2 (Piloting 2 for melee) + "
        "weapon Acc + the build's Head Acc at its optimal range, no modifier dice, no cover, "
        "crit-table effects excluded. core_attacks: expected Fire actions of the reference "
        f"weapon ({ref.id}, the standard Medium's best, fired as in weapon_vs_kit) to destroy "
        "the build's Core (no pilot: Evasion from chassis, legs and overload), = expected "
        "hits / P(hit), exact; the hits count only those whose location is the Core (its "
        "band of the d20 silhouette, its Armor and Durability, the natural-20 Pen bonus "
        "weighted in): hits on other parts, their carry-over into the Core and hits moved "
        "to it from destroyed parts are left out, so the true number is lower; core_hits "
        "is that number of hits. Weight is the cost (every build here is legal: within its "
        "cap + overload_max). Speed, Sensors, jump and smoke are not objectives here (the "
        "parts set weighs them). A build and its mirror (the arms swapped) are one choice."
    )


# ---- the simulation check -------------------------------------------------------------------


def _build_kit(catalog: Catalog, build_id: str, name: str) -> Kit:
    chassis, head, right, left, legs, back = build_id.split("/")
    pilot = catalog.kits[catalog.params.standard_medium].pilot
    return Kit(
        name, name, chassis, head, right, left, legs, back, pilot=pilot, provenance="assumed"
    )


def _gap(row: dict[str, Any]) -> pl.Expr:
    """How far a build lies from ``row`` on the two proxies, each relative to ``row``'s."""
    return (pl.col("damage") - row["damage"]).abs() / max(row["damage"], 1e-9) + (
        pl.col("core_attacks") - row["core_attacks"]
    ).abs() / max(row["core_attacks"], 1e-9)


def confirm_pairs(result: pl.DataFrame, count: int = CONFIRM_PAIRS) -> list[tuple[str, str]]:
    """(frontier build, a build it dominates) pairs: each kit that is dominated with the
    frontier build nearest it among those dominating it; then up to ``count`` frontier
    builds evenly spread by Weight, each with the build it dominates at the median
    distance on the proxies (neither a near twin nor a build far worse)."""
    pairs = []
    kits = result.filter((pl.col("kit") != "") & ~pl.col("on_frontier"))
    for row in kits.iter_rows(named=True):
        tops = result.filter(pl.col("id").is_in(row["dominated_by"]))
        pairs.append((tops.with_columns(gap=_gap(row)).sort("gap", "id")["id"][0], row["id"]))
    front = result.filter(pl.col("on_frontier")).sort("weight", "damage", "id")
    if front.height == 0:
        return pairs
    picks = front[np.linspace(0, front.height - 1, min(count, front.height)).round().astype(int)]
    beaten = result.filter(~pl.col("on_frontier")).explode("dominated_by")
    for row in picks.unique("id", maintain_order=True).iter_rows(named=True):
        mine = beaten.filter(pl.col("dominated_by") == row["id"])
        if mine.height:
            ranked = mine.with_columns(gap=_gap(row)).sort("gap", "id")["id"]
            pairs.append((row["id"], ranked[ranked.len() // 2]))
    return pairs


def confirm(catalog: Catalog, result: pl.DataFrame, n: int, seed: int) -> pl.DataFrame:
    """Each pair of :func:`confirm_pairs` plays ``n`` duels against the standard Medium
    (its kit and pilot; the builds flown by the same pilot) under the gunline policy,
    range track, vector engine, one generator seeded ``seed``: each build's score (wins +
    draws / 2) with its 95% Wilson interval."""
    from sims.skirmish import vector
    from sims.skirmish.battle import Side, compile_battle

    pairs = confirm_pairs(result)
    ids = list(dict.fromkeys(i for pair in pairs for i in pair))
    if not ids:
        return pl.DataFrame()
    kits = {f"choice_{k}": _build_kit(catalog, b, f"choice_{k}") for k, b in enumerate(ids)}
    cat = replace(catalog, kits={**catalog.kits, **kits})
    standard = catalog.params.standard_medium
    battles = [
        compile_battle(cat, Side((k,), CONFIRM_POLICY), Side((standard,), CONFIRM_POLICY))
        for k in kits
    ]
    scenario = np.repeat(np.arange(len(battles)), n)
    res = vector.play(battles, scenario, np.random.default_rng(seed))
    winner = res["winner"].reshape(len(battles), n)
    score = {
        b: float(((winner[k] == rules.SIDE_A) + 0.5 * (winner[k] == rules.DRAW)).sum())
        for k, b in enumerate(ids)
    }
    rows = []
    kit_of = dict(zip(result["id"], result["kit"], strict=True))
    for k, (top, low) in enumerate(pairs):
        a, d = (wilson(score[b], n) for b in (top, low))
        verdict = "higher" if a[0] > d[1] else "lower" if a[1] < d[0] else "cannot tell"
        for role, b, (lo, hi) in (("frontier", top, a), ("dominated by it", low, d)):
            rows.append(
                {
                    "pair": k + 1,
                    "role": role,
                    "build": b,
                    "kit": kit_of[b],
                    "duels": n,
                    "score": score[b] / n,
                    "low": lo,
                    "high": hi,
                    "frontier_scores": verdict,
                }
            )
    return pl.DataFrame(rows)


CONFIRM_DOC = (
    "Simulated. Pairs of a frontier build and a build it dominates: each dominated kit "
    "with the frontier build nearest it among those dominating it, then a few frontier "
    "builds evenly spread by Weight, each with the build it dominates at the median "
    "distance on the proxies; every build played N duels against the standard "
    "Medium kit (gunline policy on both sides, the builds flown by the standard Medium's "
    "pilot, the catalog's board, vector engine, --seed): score = (wins + draws / 2) / N "
    "with its 95% Wilson interval; frontier_scores says whether the frontier build's "
    "interval lies above the dominated one's (higher), below (lower), or they overlap "
    "(cannot tell). A 'lower' means the proxies missed something the battle rewards."
)


# ---- the sets --------------------------------------------------------------------------------


def choice_sets(catalog: Catalog) -> list[ChoiceSet]:
    """Skirmish's choice sets (module docstring)."""
    weapon_obj = {
        "damage": "max",
        "range": "max",
        "heat": "min",
        "weight": "min",
        "durability": "max",
        "armor": "max",
        **ABILITY_TAGS["weapons"],
    }
    part_obj = {"weight": "min", **dict.fromkeys(PART_STATS, "max"), **ABILITY_TAGS["parts"]}
    return [
        ChoiceSet(
            name="weapons",
            what="a weapon part for an arm or the back",
            frame=weapon_frame(catalog),
            objectives=weapon_obj,
            doc=DOC_WEAPONS,
            group="slot",
            chart=("weight", "damage"),
            columns=[*weapon_obj, "tags"],
            labels={"damage": "expected damage per Fire action (mean over kits)"},
        ),
        ChoiceSet(
            name="parts",
            what="a part that is no weapon (chassis, head, shield arm, legs, back system)",
            frame=part_frame(catalog),
            objectives=part_obj,
            doc=DOC_PARTS,
            group="slot",
            chart=("weight", "durability"),
        ),
        ChoiceSet(
            name="builds",
            what="a legal build of the playable parts: chassis, head, two "
            "arms (unordered), legs, back; no pilot",
            frame=build_frame(catalog),
            objectives={"weight": "min", "damage": "max", "core_attacks": "max"},
            doc=builds_doc(catalog),
            chart=("weight", "damage"),
            columns=["weight", "damage", "core_attacks", "core_hits", "evasion", "core_band"],
            labels={
                "damage": "expected damage per activation",
                "core_attacks": "expected Fire actions to destroy the Core",
            },
            note="kit",
            confirm=lambda result, n, seed: confirm(catalog, result, n, seed),
            confirm_doc=CONFIRM_DOC,
        ),
    ]
