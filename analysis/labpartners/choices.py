"""Mech Lab Partners' choice sets for ``mechbal dominated labpartners``
(analysis.dominance): the cards of the full spread that never change an outcome.

A card is compared only with cards of its Part-Type and Form. A card's Form counts
toward the lesson (it takes at ``lesson_threshold`` parts of the lesson Form, Assembly)
and toward the Form debuffs, so a card of another Form can never stand in for it; within
a Part-Type and Form the cards differ in Type (and Power, for Arms). Each card is judged
on every number the Battle reads of it, in every situation it can meet: each kaiju with
every set of Traits its countdown can flip (``sims.labpartners.battle.foe``), with and
without a Head, its lesson taken or not, and for an Arm with the other Arm at each
Power tier (the combo). A dominated card is never better than the card that dominates
it, and worse in some situation: swapping it for that card never lowers a number the
Battle reads.
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl

from analysis.dominance import ChoiceSet
from sims.labpartners import battle, exact, rules
from sims.labpartners.catalog import Card, Catalog

BODY_NUMBERS = ("hp", "speed", "acc")

DOC_ARMS = (
    "Exact: the numbers of arm_damage.csv (exact.arm_case: damage = Power, + the lesson "
    "bonus, -1 with no Head, Form +1/-1, Type x2/x0.5; the hit adds the kaiju's per-Arm "
    "bonus; a crit with a plain Head doubles the damage, P(crit) = 1/20, none with no Head "
    "or against a crit-immune kaiju) in every situation an Arm can meet: each kaiju as "
    "printed and with every set of Traits its countdown can flip (Traits add weak and "
    "resisted Types and Forms, per-Arm bonus and crit-open), with and without a Head, "
    "its lesson taken or not, and with the other Arm at each Power tier: the expected "
    "hit, + the combo bonus when the two share a Power tier (the other Arm assumed to "
    "deal damage). Situations giving every card the same number are merged: the "
    "objectives are the distinct ones (the CSV holds them, each named by its first "
    "situation: kaiju+traits:head:lesson:partner tier). counts_<kaiju>: 1 when the card "
    "counts toward that kaiju's Type or Form debuff (it helps the mech meet it). "
    "mean_hit and best_hit (the chart) are the expected hit over the kaiju as printed "
    "with a Head, no lesson, no combo: a summary, not an objective. Compared within "
    "Part-Type and Form."
)
DOC_BODY = (
    "Exact: the numbers a Legs, Torso or Head card brings to its slot (rules.card_numbers: "
    "hit points, Vehicle +vehicle_hp; Mech Speed for Legs, Beast +1; Accuracy for a Head, "
    "Clockwork +1, 0 against a crit-immune kaiju), without and with its lesson bonus "
    "(Torso HP, Legs Speed, Head Accuracy), and counts_<kaiju>: 1 when the card counts "
    "toward that kaiju's Type or Form debuff. A body card's Type enters no number: within "
    "a Part-Type and Form the cards tie, except where a debuff counts a Type. Compared "
    "within Part-Type and Form."
)


def debuff_columns(catalog: Catalog, card: Card) -> dict[str, int]:
    """counts_<kaiju>: whether the card counts toward the kaiju's Form or Type debuff."""
    out = {}
    for k in catalog.kaiju.values():
        if k.debuff_when == "form_count":
            out[f"counts_{k.id}"] = int(card.form == k.debuff_value)
        elif k.debuff_when == "type_count":
            out[f"counts_{k.id}"] = int(card.type == k.debuff_value)
    return out


def situations(catalog: Catalog) -> list[tuple[str, battle.Foe]]:
    """Every distinct kaiju an Arm can meet: each kaiju with every set of at most
    ``countdown`` Traits, one per distinct set of numbers an Arm reads of it (weak and
    resisted Forms and Types, crit immunity, per-Arm bonus), named by the first
    ``kaiju+trait+...`` giving it."""
    p = catalog.params
    out, seen = [], set()
    traits = list(catalog.traits.values())
    for k in catalog.kaiju.values():
        for r in range(min(k.countdown, len(traits)) + 1):
            for flipped in itertools.combinations(traits, r):
                f = battle.foe(k, flipped, (), "", p)
                key = (
                    f.weak_forms,
                    f.resist_forms,
                    f.weak_types,
                    f.resist_types,
                    f.crit_immune,
                    f.arm_bonus,
                )  # all an Arm reads of the kaiju
                if key not in seen:
                    seen.add(key)
                    out.append(("+".join([k.id, *(t.id for t in flipped)]), f))
    return out


def arm_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per Arm card of the full spread: its distinct situation numbers (objectives
    named ``kaiju+traits:head:lesson:p<tier>``), debuff counts and summary columns."""
    p = catalog.params
    cards = catalog.decks["full"].of("arms")
    alpha = {c.id for c in catalog.decks["alpha"].cards} if "alpha" in catalog.decks else set()
    power = np.array([c.power for c in cards])
    memo: dict[tuple, tuple[float, bool]] = {}

    def case(card: Card, foe: battle.Foe, lesson: int, head: int) -> tuple[float, bool]:
        """(expected hit, deals damage) of exact.arm_case, memoized on what it reads."""
        key = (
            card.id,
            card.form in foe.weak_forms,
            card.form in foe.resist_forms,
            card.type in foe.weak_types,
            card.type in foe.resist_types,
            foe.crit_immune,
            foe.arm_bonus,
            lesson,
            head,
        )
        if key not in memo:
            out = exact.arm_case(card, foe, bool(lesson), bool(head), p)
            memo[key] = (float(out["expected"]), out["damage"] > 0)
        return memo[key]

    columns: dict[str, np.ndarray] = {}
    for name, foe in situations(catalog):
        for head, lesson in itertools.product((1, 0), (0, 1)):
            hit, deals = np.array([case(c, foe, lesson, head) for c in cards]).T
            for t in range(1, p.power_tiers + 1):
                where = f"{name}:{'head' if head else 'nohead'}:"
                where += f"{'lesson' if lesson else 'plain'}:p{t}"
                columns[where] = hit + p.combo_bonus * ((power == t) & (deals > 0))
    names = list(columns)
    matrix = np.array([columns[n] for n in names])  # [situations, cards]
    _, first = np.unique(matrix, axis=0, return_index=True)
    kept = [names[i] for i in sorted(first)]
    printed = [exact.bare_foe(k, p) for k in catalog.kaiju.values()]
    rows = []
    for c in cards:
        hits = [float(exact.arm_case(c, f, False, True, p)["expected"]) for f in printed]
        rows.append(
            {
                "id": c.id,
                "part_form": f"{c.part} {c.form}",
                "form": c.form,
                "type": c.type,
                "power": c.power,
                "in_alpha": "yes" if c.id in alpha else "no",
                "mean_hit": sum(hits) / len(hits),
                "best_hit": max(hits),
                **debuff_columns(catalog, c),
            }
        )
    return pl.DataFrame(rows).hstack(pl.DataFrame({n: columns[n] for n in kept}))


def body_frame(catalog: Catalog) -> pl.DataFrame:
    """A row per Legs, Torso or Head card of the full spread with its numbers."""
    p = catalog.params
    alpha = {c.id for c in catalog.decks["alpha"].cards} if "alpha" in catalog.decks else set()
    rows = []
    for c in catalog.decks["full"].cards:
        if not c.is_body:
            continue
        part = rules.PARTS.index(c.part)
        row = {
            "id": c.id,
            "part_form": f"{c.part} {c.form}",
            "part": c.part,
            "form": c.form,
            "type": c.type,
            "in_alpha": "yes" if c.id in alpha else "no",
        }
        for lesson, tag in ((0, ""), (1, "_lesson")):
            bonus = int(rules.lesson_bonus(lesson, True, p))
            nums = rules.card_numbers(part, c.form, 0, bonus, 0, 0, 0, p)
            row.update({f"{n}{tag}": int(nums[n]) for n in BODY_NUMBERS})
        rows.append({**row, **debuff_columns(catalog, c)})
    return pl.DataFrame(rows)


def choice_sets(catalog: Catalog) -> list[ChoiceSet]:
    """Lab Partners' choice sets: Arm cards and body cards (module docstring)."""
    arms = arm_frame(catalog)
    arm_obj = {c: "max" for c in arms.columns if ":" in c or c.startswith("counts_")}
    body = body_frame(catalog)
    body_obj = {
        c: "max" for c in body.columns if c.startswith(BODY_NUMBERS) or c.startswith("counts_")
    }
    counts = [c for c in arms.columns if c.startswith("counts_")]
    return [
        ChoiceSet(
            name="arm cards",
            what="an Arm card of the full spread (Form, Type, Power)",
            frame=arms,
            objectives=arm_obj,
            doc=DOC_ARMS,
            group="part_form",
            chart=("power", "mean_hit"),
            columns=["form", "type", "power", "in_alpha", "mean_hit", "best_hit", *counts],
            labels={
                "part_form": "Part-Type and Form",
                "mean_hit": "expected hit, mean over the kaiju as printed",
                "best_hit": "expected hit, best kaiju as printed",
            },
        ),
        ChoiceSet(
            name="body cards",
            what="a Legs, Torso or Head card of the full spread (Form, Type)",
            frame=body,
            objectives=body_obj,
            doc=DOC_BODY,
            group="part_form",
            chart=("type", "part_form"),
            columns=["part", "form", "type", "in_alpha", *body_obj],
            labels={"part_form": "Part-Type and Form"},
        ),
    ]
