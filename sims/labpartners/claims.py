"""Checks behind ``catalogs/labpartners/claims.toml``: each computes one rulebook claim
by running the rule code of ``rules.py`` on the numbers the engines read (the compiled
:class:`battle.Battle` of a mech the claim names, or the catalog's generated decks). A
check never restates the rule it checks, and never computes the expected value: that is
written in ``claims.toml``, worked out by hand from the rulebook.
``tests/labpartners/test_claims.py`` holds, for every claim, a change that fails it.

A mech in a claim's args is ``{slot: card id}`` over ``catalog.SLOTS`` (a slot left out
is a gap), with the game's ``lesson`` Form and the ``kaiju`` it meets (no Traits).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from sims.labpartners import battle as bt
from sims.labpartners import rules
from sims.labpartners.catalog import PARTS, SLOT_PART, SLOTS, Card, Catalog


def _battle(catalog: Catalog, kaiju: str, lesson: str, mech: Mapping[str, str]) -> bt.Battle:
    """The compiled battle of ``mech`` (slot -> card id, gaps left out) against ``kaiju``
    with no Trait flipped, as the engines get it; the first policy of the catalog (the
    claims here read only the card table and the foe)."""
    if unknown := sorted(set(mech) - set(SLOTS)):
        raise KeyError(unknown[0])
    if lesson not in catalog.forms:
        raise KeyError(lesson)
    cards = tuple(catalog.cards[mech[s]] if s in mech else None for s in SLOTS)
    foe = bt.foe(catalog.kaiju[kaiju], [], cards, lesson, catalog.params)
    policy = next(iter(catalog.policies.values()))
    return bt.compile_battle(catalog, cards, lesson, foe, policy)


def _row(slot: str) -> int:
    """Card-table row of a locked slot (battle.py: rows 0..4 are SLOTS in order)."""
    return SLOTS.index(slot)


def _intact(battle: bt.Battle, slot: str) -> bool:
    """A locked slot holds a card at the start of the battle (full HP)."""
    row = _row(slot)
    return bool(battle.present[row]) and int(battle.hp[row]) > 0


# ---- Appendix: The Full Spread ----------------------------------------------------------


def deck_counts(catalog: Catalog, deck: str) -> dict[str, int]:
    """Cards of each Part-Type in a deck of the catalog (``full``: the generated spread)."""
    held = catalog.deck(deck)
    return {part: len(held.of(part)) for part in PARTS}


def deck_size(catalog: Catalog, deck: str) -> int:
    return len(catalog.deck(deck).cards)


def _key(card: Card) -> tuple[str, str, str, int]:
    return (card.part, card.form, card.type, card.power)


def spread_copies(catalog: Catalog, deck: str, powers: list[int]) -> dict[str, Any]:
    """How often each combination is held: every Form x Type of the catalog for Legs,
    Torso and Head, and every Form x Type x Power (``powers``, the rulebook's tiers) for
    Arms. ``copies``: the distinct numbers of copies over all combinations; ``outside``:
    cards of the deck that are no such combination."""
    held = Counter(_key(c) for c in catalog.deck(deck).cards)
    combos = [
        (part, form, type_, power)
        for part in PARTS
        for form in catalog.forms
        for type_ in catalog.types
        for power in (powers if part == "arms" else [0])
    ]
    outside = sum(k for key, k in held.items() if key not in set(combos))
    return {"copies": sorted({held[c] for c in combos}), "outside": outside}


def sub_deck(catalog: Catalog, deck: str, of: str) -> dict[str, list[str]]:
    """Whether ``deck`` is a sub-multiset of ``of``: ``beyond`` lists the cards it holds
    more often than ``of`` does (by Part-Type, Form, Type and Power, not by id text),
    ``twice`` the cards it holds more than once."""
    held = Counter(_key(c) for c in catalog.deck(deck).cards)
    full = Counter(_key(c) for c in catalog.deck(of).cards)
    ids = {_key(c): c.id for c in catalog.deck(deck).cards}
    return {
        "beyond": sorted(ids[k] for k, n in held.items() if n > full[k]),
        "twice": sorted(ids[k] for k, n in held.items() if n > 1),
    }


def powers_falling(catalog: Catalog, deck: str) -> bool:
    """Whether a deck holds fewer Arms at each higher Power ("Low Power is common, high
    Power is rare"): strictly fewer of Power 2 than 1, of 3 than 2, ... (every tier of
    ``power_tiers``, an absent tier counting 0)."""
    held = Counter(c.power for c in catalog.deck(deck).of("arms"))
    tiers = [held[power] for power in range(1, catalog.params.power_tiers + 1)]
    return all(a > b for a, b in zip(tiers, tiers[1:], strict=False))


# ---- Battle/crits ----------------------------------------------------------------------


def crit_chance(catalog: Catalog, kaiju: str, lesson: str, mech: dict[str, str]) -> Fraction:
    """P(crit) of one damaging Arm of the mech: the share of the crit die's faces on which
    ``rules.crits`` calls a crit at the Head's Accuracy as the engines read it
    (``Battle.acc`` of the Head row, 0 with no intact Head: then no die is rolled)."""
    b = _battle(catalog, kaiju, lesson, mech)
    acc = int(b.acc[_row("head")]) if _intact(b, "head") else 0
    if acc <= 0:
        return Fraction(0)
    sides = b.params.crit_die
    return Fraction(sum(bool(rules.crits(face, acc)) for face in range(1, sides + 1)), sides)


def crit_hits(catalog: Catalog, damages: list[int]) -> dict[str, int]:
    """What one Arm deals on a crit (``rules.arm_hit``, no per-Arm bonus), by damage."""
    return {str(d): int(rules.arm_hit(d, True, 0, catalog.params)) for d in damages}


# ---- Battle/wimpy punch ----------------------------------------------------------------


def punch_dist(catalog: Catalog, head: bool) -> dict[str, Fraction]:
    """The punch's damage distribution (``rules.punch``): with a Head no die is rolled;
    without one, each face of the punch die is equally likely."""
    p = catalog.params
    if head:
        return {str(int(rules.punch(1, 0, p))): Fraction(1)}
    faces = Counter(int(rules.punch(0, face, p)) for face in range(1, p.punch_die + 1))
    return {str(d): Fraction(n, p.punch_die) for d, n in sorted(faces.items())}


# ---- Battle/initiative -----------------------------------------------------------------


def mech_speed(catalog: Catalog, kaiju: str, lesson: str, mech: dict[str, str]) -> int:
    """Mech Speed as the engines read it: ``Battle.speed`` of the Legs row (computed by
    ``rules.mech_speed``), 0 with no intact Legs."""
    b = _battle(catalog, kaiju, lesson, mech)
    return int(b.speed[_row("legs")]) if _intact(b, "legs") else 0


def kaiju_speeds(catalog: Catalog, kaiju: list[str]) -> dict[str, int]:
    """Each kaiju's Speed as a battle meets it with no Trait flipped and no debuff (an
    all-gap mech meets no debuff condition)."""
    return {k: int(_battle(catalog, k, next(iter(catalog.forms)), {}).kaiju_speed) for k in kaiju}


def mech_first(catalog: Catalog, kaiju: str, lesson: str, mech: dict[str, str]) -> bool:
    """``rules.mech_acts_first`` at the start of round 1: the mech's Speed (as
    ``mech_speed``) against the kaiju's, with the debuff's force."""
    b = _battle(catalog, kaiju, lesson, mech)
    speed = mech_speed(catalog, kaiju, lesson, mech)
    return bool(rules.mech_acts_first(speed, b.kaiju_speed, b.mech_first))


# ---- Battle/Torso ----------------------------------------------------------------------


def incoming_damage(catalog: Catalog, damages: list[int], torso: bool) -> dict[str, int]:
    """Damage a part takes from a kaiju attack of each size (``rules.incoming``)."""
    return {str(d): int(rules.incoming(d, torso, catalog.params)) for d in damages}


# ---- Assembly/lesson -------------------------------------------------------------------


def lesson_takes(catalog: Catalog, parts: int) -> list[bool]:
    """``rules.lesson_took`` for 0..``parts`` parts of the lesson Form."""
    return [bool(rules.lesson_took(n, catalog.params)) for n in range(parts + 1)]


def _effects(b: bt.Battle) -> dict[str, int]:
    """Each slot's battle number: Legs Speed, Torso HP, Head Accuracy, Arm damage."""
    return {
        "legs": int(b.speed[_row("legs")]),
        "torso": int(b.hp[_row("torso")]),
        "head": int(b.acc[_row("head")]),
        "arm_1": int(b.dmg_head[_row("arm_1")]),
        "arm_2": int(b.dmg_head[_row("arm_2")]),
    }


def lesson_bonuses(
    catalog: Catalog, kaiju: str, lesson: str, versus: str, mech: dict[str, str]
) -> dict[str, int]:
    """What the lesson adds to each slot's battle number (Legs Speed, Torso HP, Head
    Accuracy, each Arm's damage with a Head): the compiled mech with lesson ``lesson``
    minus the same mech with lesson ``versus`` (a Form none of its parts has)."""
    with_lesson = _effects(_battle(catalog, kaiju, lesson, mech))
    without = _effects(_battle(catalog, kaiju, versus, mech))
    return {slot: with_lesson[slot] - without[slot] for slot in SLOTS}


# ---- Battle/damage ---------------------------------------------------------------------


def arm_damages(catalog: Catalog, kaiju: str, arms: list[str], head: bool) -> dict[str, int]:
    """Each Arm card's damage against ``kaiju`` (no Trait, no lesson taking: the mech is
    that Arm alone, with or without a Head) as the engines read it, ``Battle.dmg_head``
    or ``dmg_nohead`` (``rules.arm_damage``)."""
    out = {}
    for arm in arms:
        mech = {"arm_1": arm, "head": _plain_head(catalog)} if head else {"arm_1": arm}
        b = _battle(catalog, kaiju, catalog.cards[arm].form, mech)
        table = b.dmg_head if head else b.dmg_nohead
        out[arm] = int(table[_row("arm_1")])
    return out


def _plain_head(catalog: Catalog) -> str:
    """A Head card for damage claims: with a Head, its Form and Type change no damage."""
    return next(c.id for c in catalog.cards.values() if c.part == "head")


def combo_bonus(catalog: Catalog, kaiju: str, lesson: str, mech: dict[str, str]) -> int:
    """``rules.combo`` of the mech's two Arms as the engines call it: their Powers and
    their damage (with the Head if intact), a missing Arm as Power 0 damage 0."""
    b = _battle(catalog, kaiju, lesson, mech)
    dmg = b.dmg_head if _intact(b, "head") else b.dmg_nohead
    arms = [
        (int(b.power[_row(s)]), int(dmg[_row(s)])) if _intact(b, s) else (0, 0)
        for s in ("arm_1", "arm_2")
    ]
    return int(rules.combo(arms[0][0], arms[1][0], arms[0][1], arms[1][1], b.params))


# ---- Battle/targeting ------------------------------------------------------------------


def priority_leaders(catalog: Catalog, part: str) -> list[str]:
    """The kaiju whose first attack of a battle looks first at a slot of Part-Type
    ``part``: the first slot of the compiled ``Battle.priority``."""
    if part not in PARTS:
        raise KeyError(part)
    out = []
    for k in catalog.kaiju:
        b = _battle(catalog, k, next(iter(catalog.forms)), {})
        if SLOT_PART[SLOTS[int(b.priority[0])]] == part:
            out.append(k)
    return sorted(out)


def round_one_hits(catalog: Catalog, kaiju: str, lesson: str, mech: dict[str, str]) -> list[str]:
    """The slots that lost HP in round 1, the battle played by the reference engine
    (``reference.play_to_end``) for one round (``battle_rounds`` = 1). The mech must roll
    no die: armless with a Head, it throws the wimpy punch and never damages itself, so
    the slots hit are those the kaiju's attacks hit."""
    from sims.core.batch import ScriptedDice
    from sims.labpartners import reference  # the engine; imported where it is needed

    b = bt.with_params(_battle(catalog, kaiju, lesson, mech), battle_rounds=1)
    end = reference.play_to_end(b, ScriptedDice([]))
    start = reference.start(b)
    return [slot for i, slot in enumerate(SLOTS) if end.hp[i] < start.hp[i]]


# ---- Grading ---------------------------------------------------------------------------


def gpa(catalog: Catalog, won: bool, hp_left: int, hp_start: int) -> Fraction:
    """The GPA of an outcome: ``rules.grade_index`` over the catalog's grades, then
    ``rules.gpa``."""
    index = int(rules.grade_index(int(won), hp_left, hp_start, catalog.grades))
    return rules.gpa(index, catalog.grades)


def gpa_table(catalog: Catalog, hp_start: int, hp_left: list[int]) -> dict[str, Fraction]:
    """The GPA of a loss with each kaiju HP left (of ``hp_start``)."""
    return {str(left): gpa(catalog, False, left, hp_start) for left in hp_left}


CHECKS = {
    f.__name__: f
    for f in (
        deck_counts,
        deck_size,
        spread_copies,
        sub_deck,
        powers_falling,
        crit_chance,
        crit_hits,
        punch_dist,
        mech_speed,
        kaiju_speeds,
        mech_first,
        incoming_damage,
        lesson_takes,
        lesson_bonuses,
        arm_damages,
        combo_bonus,
        priority_leaders,
        round_one_hits,
        gpa,
        gpa_table,
    )
}
