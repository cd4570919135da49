"""Mech Lab Partners exact tables (000), built from ``rules.py``, ``draws.py`` and the
exact battle DP over Fractions only; floats appear only as the ``*_float`` columns.

Each table function returns a polars DataFrame whose columns follow DESIGN.md's table
contract: fractions as strings ``a/b`` with a ``<column>_float`` beside each (``TABLES``
declares them; ``analysis.tables.write_tables`` writes them).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import polars as pl

from sims.core.dist import exact_frame
from sims.core.protocol import Pivot, Table, columns
from sims.labpartners import battle, draws, rules
from sims.labpartners.catalog import Card, Catalog, Kaiju
from sims.labpartners.params import Parameters

DECKS = ("alpha", "full")  # DESIGN table contract: "deck alpha / full", in that order
YES_NO = ("no", "yes")
POLICY = "steady"  # the battle table's group policy (policies.toml)

# The Head cases of the crit table: (head, has a Head, Clockwork, lesson-matched).
HEAD_CASES = (
    ("none", 0, 0, 0),
    ("plain", 1, 0, 0),
    ("clockwork", 1, 1, 0),
    ("lesson", 1, 0, 1),
    ("clockwork_lesson", 1, 1, 1),
)

# How each table is computed (its Markdown header and the report say so).
DOC_DRAWS = (
    "P(at least one body card of the Form or Type among the first cards_seen body cards) "
    "of a freshly shuffled body pile (Legs, Torso and Head: 45 alpha, 75 full), "
    "hypergeometric without replacement (Assembly: the draw pile is not reshuffled). "
    "Arms come from their own pool and are not counted. A value the deck lacks is a "
    "series of zeros."
)
DOC_LESSON = (
    "The lesson Form is the top body card of the shuffled pile (Assembly: alpha rule), so "
    "p_lesson = that Form's share of the body pile. can_take = 1 when the deck holds that "
    "Form in Legs, Torso and Head and Arms enough to fill 3 distinct slots (the lesson "
    "takes at 3+ matching parts); p_lesson_can_take = their product. The form 'any' row: "
    "can_take counts the Forms that can take, p_lesson_can_take = P(the noted lesson can "
    "take at all)."
)
DOC_COMBO = (
    "P(among the first arms_seen Arms of the shuffled Arms pool at least two share a Power "
    "tier), i.e. that a combo pair (+1 once, Battle: damage) is on offer; multivariate "
    "hypergeometric, exact."
)
DOC_CRIT = (
    "Battle/crits: Accuracy 1 base, +1 Clockwork Head, +1 lesson-matched Head (the lesson "
    "took); no Head, or a crit-immune kaiju, means Accuracy 0 and no crit. p_crit = "
    "Accuracy/20: the chance one damaging Arm's d20 is at or under the Accuracy."
)
DOC_ARM_DAMAGE = (
    "One Arm card of the full spread against each kaiju as printed (no Traits, no "
    "debuff): damage = Power, +1 when the Arm matches a lesson that took (lesson yes), "
    "-1 with no Head, then Form +1 weak / -1 resisted, then Type x2 weak / x0.5 resisted "
    "(round down, at least 1 if resisted; 0 stays 0). hit adds the kaiju's per-Arm bonus, "
    "crit_damage is a crit's hit (damage doubled, then the bonus). head yes is a plain Head "
    "(Accuracy 1: neither Clockwork nor lesson-matched), so p_crit is 1/20, or 0 with no "
    "Head or against a crit-immune kaiju. expected = (1 - p_crit) x hit + p_crit x "
    "crit_damage: one Arm's exact expected hit, without the combo."
)
DOC_BATTLE = (
    "Each mech of mechs.toml (its lesson Form) against each kaiju as printed (no Traits; "
    "the kaiju's debuff applies when the mech meets it), the group's policy 'steady', no "
    "spare cards (so no rebuild: an armless mech throws the wimpy punch). Every "
    "probability and expectation is exact, from the battle DP over every die roll "
    "(exact_battle): P(win), P(the kaiju reaches the city after the last round), P(the mech "
    "destroyed), the expected GPA of the outcome and the expected rounds played."
)


def _decks(catalog: Catalog) -> dict[str, tuple[Card, ...]]:
    return {d: catalog.decks[d].cards for d in DECKS}


# ---- draws.csv, lesson.csv, combo.csv ---------------------------------------------------


def draws_table(catalog: Catalog) -> pl.DataFrame:
    """DESIGN's ``labpartners/draws.csv``: a series per deck, attribute and value."""
    rows = draws.draws_rows(_decks(catalog), tuple(catalog.forms), tuple(catalog.types))
    return exact_frame(rows, ["p_at_least_one"])


def lesson_table(catalog: Catalog) -> pl.DataFrame:
    rows = draws.lesson_rows(_decks(catalog), tuple(catalog.forms), catalog.params.lesson_threshold)
    return exact_frame(rows, ["p_lesson", "p_lesson_can_take"])


def combo_table(catalog: Catalog) -> pl.DataFrame:
    rows = draws.combo_rows(_decks(catalog), tuple(range(1, catalog.params.power_tiers + 1)))
    return exact_frame(rows, ["p_combo"])


# ---- crit.csv -----------------------------------------------------------------------------


def crit_table(catalog: Catalog) -> pl.DataFrame:
    """A row per Head case, against a kaiju that can be crit and one that cannot."""
    p = catalog.params
    rows = []
    for immune in (0, 1):
        for head, has_head, clockwork, lesson in HEAD_CASES:
            bonus = int(rules.lesson_bonus(lesson, True, p))
            acc = int(rules.accuracy(has_head, clockwork, bonus, immune, p))
            rows.append(
                {
                    "head": head,
                    "crit_immune": YES_NO[immune],
                    "accuracy": acc,
                    "p_crit": rules.p_crit(acc, p),
                }
            )
    return exact_frame(rows, ["p_crit"])


# ---- arm_damage.csv -----------------------------------------------------------------------


def bare_foe(kaiju: Kaiju, p: Parameters) -> battle.Foe:
    """The kaiju as printed: no Traits, and no mech to meet its debuff (no debuff touches
    Arm damage anyway)."""
    return battle.foe(kaiju, (), (), "", p)


def arm_case(
    card: Card, foe: battle.Foe, lesson: bool, head: bool, p: Parameters
) -> dict[str, Any]:
    """One Arm's numbers against ``foe``: damage (rules.arm_damage), the hit without and
    with a crit (rules.arm_hit, the per-Arm bonus included), P(crit) with a plain Head
    (or none) and the exact expected hit, no combo."""
    bonus = int(rules.lesson_bonus(int(lesson), True, p))
    form = int(rules.matchup(card.form in foe.weak_forms, card.form in foe.resist_forms))
    type_ = int(rules.matchup(card.type in foe.weak_types, card.type in foe.resist_types))
    damage = int(rules.arm_damage(card.power, bonus, int(head), form, type_, p))
    acc = int(rules.accuracy(int(head), 0, 0, int(foe.crit_immune), p))
    pc = rules.p_crit(acc, p)
    hit = int(rules.arm_hit(damage, False, foe.arm_bonus, p))
    crit = int(rules.arm_hit(damage, True, foe.arm_bonus, p))
    return {
        "damage": damage,
        "hit": hit,
        "crit_damage": crit,
        "p_crit": pc,
        "expected": (1 - pc) * hit + pc * crit,
    }


def arm_damage_table(catalog: Catalog) -> pl.DataFrame:
    p = catalog.params
    rows = []
    for kaiju in catalog.kaiju.values():
        foe = bare_foe(kaiju, p)
        for card in catalog.decks["full"].of("arms"):
            for lesson in (0, 1):
                for head in (1, 0):
                    rows.append(
                        {
                            "kaiju": kaiju.id,
                            "card": card.id,
                            "lesson": YES_NO[lesson],
                            "head": YES_NO[head],
                            **arm_case(card, foe, bool(lesson), bool(head), p),
                        }
                    )
    return exact_frame(rows, ["p_crit", "expected"])


# ---- battle.csv ---------------------------------------------------------------------------


def battle_row(catalog: Catalog, mech: str, kaiju: str) -> dict[str, Any]:
    from sims.labpartners import exact_battle  # the DP; imported when a table needs it

    b = battle.catalog_battle(catalog, mech, kaiju, (), POLICY, ())
    out = exact_battle.outcome(b)
    return {
        "mech": mech,
        "kaiju": kaiju,
        "lesson": catalog.mechs[mech].lesson,
        "p_win": Fraction(out.p_win),
        "p_city": Fraction(out.p_result(rules.CITY)),
        "p_destroyed": Fraction(out.p_result(rules.DESTROYED)),
        "expected_gpa": Fraction(out.expected_gpa),
        "expected_rounds": Fraction(out.expected_rounds),
    }


def battle_table(catalog: Catalog) -> pl.DataFrame:
    rows = [battle_row(catalog, m, k) for m in catalog.mechs for k in catalog.kaiju]
    return exact_frame(rows, ["p_win", "p_city", "p_destroyed", "expected_gpa", "expected_rounds"])


def tables(catalog: Catalog) -> dict[str, pl.DataFrame]:
    """Every exact table of the game, by file stem."""
    return {
        "draws": draws_table(catalog),
        "lesson": lesson_table(catalog),
        "combo": combo_table(catalog),
        "crit": crit_table(catalog),
        "arm_damage": arm_damage_table(catalog),
        "battle": battle_table(catalog),
    }


# ---- declarations -------------------------------------------------------------------------


def _arm_cell(row: Mapping[str, Any]) -> str:
    return f"{row['damage']} / {row['crit_damage']} / {float(Fraction(row['expected'])):.2f}"


TABLES = (
    Table(
        "draws",
        DOC_DRAWS,
        columns(
            ("deck", "id"),
            ("attribute", "id"),
            ("value", "id"),
            ("cards_seen", "count"),
            ("p_at_least_one", "probability"),
        ),
        Pivot(
            ("deck", "attribute"),
            "cards_seen",
            "value",
            "p_at_least_one",
            note="Each cell: P(at least one) after that many body cards.",
        ),
    ),
    Table(
        "lesson",
        DOC_LESSON,
        columns(
            ("deck", "id"),
            ("form", "id"),
            ("p_lesson", "probability"),
            ("can_take", "count"),
            ("p_lesson_can_take", "probability"),
        ),
    ),
    Table(
        "combo",
        DOC_COMBO,
        columns(("deck", "id"), ("arms_seen", "count"), ("p_combo", "probability")),
    ),
    Table(
        "crit",
        DOC_CRIT,
        columns(
            ("head", "id"), ("crit_immune", "id"), ("accuracy", "count"), ("p_crit", "probability")
        ),
    ),
    Table(
        "arm_damage",
        DOC_ARM_DAMAGE,
        columns(
            ("kaiju", "id"),
            ("card", "id"),
            ("lesson", "id"),
            ("head", "id"),
            ("damage", "count"),
            ("hit", "count"),
            ("crit_damage", "count"),
            ("p_crit", "probability"),
            ("expected", "expectation"),
        ),
        Pivot(
            ("kaiju", "lesson"),
            "card",
            "head",
            _arm_cell,
            note="Each cell: damage / crit_damage (bonus included) / expected hit; "
            "columns: a Head (plain) or none.",
        ),
    ),
    Table(
        "battle",
        DOC_BATTLE,
        columns(
            ("mech", "id"),
            ("kaiju", "id"),
            ("lesson", "id"),
            ("p_win", "probability"),
            ("p_city", "probability"),
            ("p_destroyed", "probability"),
            ("expected_gpa", "expectation"),
            ("expected_rounds", "expectation"),
        ),
    ),
)
