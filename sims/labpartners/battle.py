"""A Lab Partners Battle compiled for the engines and the exact DP (000 Battle).

:func:`foe` applies the flipped Traits and the kaiju's conditional debuff to a kaiju;
:func:`compile_battle` turns a finished mech, its foe, the spare cards a rebuild may
take and the group's policy into a :class:`Battle`: every number the round needs as a
small lookup table (rules.py computes each entry), so the reference engine, the vector
engine and the DP read the same numbers and differ only in how they walk the rounds.

The card table of a battle: rows 0..4 are the locked slots in ``SLOTS`` order (a gap has
``present`` 0), then ``spares_per_part`` rows per Part-Type in ``PARTS`` order, the cards
a rebuild takes in turn (a missing spare has ``present`` 0). For each card: its
Part-Type, hit points, Power, its Arm damage with and without a Head (and at the
Brawler's max Power), its Speed as the Legs and its Accuracy as the Head.

The round, as all three walk it (ASSUMPTIONS.md "Battle"):

1. Initiative: the mech acts first when its Speed (the intact Legs' card) is at least
   the kaiju's, or the debuff forces it.
2. The faster side acts, then the other; the battle ends the moment the kaiju is at
   0 HP (a win) or the mech has no intact part (a loss).
   - The mech, by its policy: rebuild one missing part (no fire this round), or fire
     both working Arms (a d20 per damaging Arm, ``arm_1`` first), or, armless, throw the
     wimpy punch (a d3 only without a Head).
   - The kaiju: each attack in turn hits the first intact part down its priority list
     that no earlier attack of this action hit (once all are hit, the first intact
     one; ``kaiju_targets = most_hp``: a kaiju of 2+ attacks takes the most HP left
     first, ``rules.target_rank``), through the Torso's Armor or doubled without it.
3. End of round: the kaiju regenerates (never above its starting HP).
4. After ``battle_rounds`` rounds the kaiju reaches the city: a loss.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sims.labpartners import rules
from sims.labpartners.catalog import (
    PARTS,
    SLOT_PART,
    SLOTS,
    Card,
    Catalog,
    Kaiju,
    Mech,
    Policy,
    Trait,
)
from sims.labpartners.params import Parameters

REBUILD_WHEN = {"never": 0, "armless": 1, "missing": 2}
EFFECTS = {"none": 0, "redirect": 1, "max_power": 2, "sure_crit": 3, "restore": 4, "null_attack": 5}
INTERVENE = {"never": 0, "first_round": 1, "armless": 2, "kaiju_low": 3, "torso_lost": 4}
ARM_SLOTS = (3, 4)
TORSO, HEAD, LEGS = 1, 2, 0


@dataclass(frozen=True)
class Foe:
    """The kaiju as the Battle meets it: its Traits and debuff applied."""

    id: str
    hp: int
    speed: int
    attacks: int
    damage: int
    regen: int
    arm_bonus: int
    crit_immune: bool
    mech_first: bool  # the debuff forces the mech to act first
    weak_forms: frozenset[str]
    resist_forms: frozenset[str]
    weak_types: frozenset[str]
    resist_types: frozenset[str]
    priority: tuple[str, ...]  # Part-Types
    traits: tuple[str, ...] = ()
    debuffed: bool = False


def mech_cards(catalog: Catalog, mech: Mech) -> tuple[Card | None, ...]:
    return tuple(None if c is None else catalog.cards[c] for c in mech.cards)


def lesson_matches(cards: Sequence[Card | None], lesson: str) -> int:
    return sum(1 for c in cards if c is not None and c.form == lesson)


def foe(
    kaiju: Kaiju, traits: Sequence[Trait], cards: Sequence[Card | None], lesson: str, p: Parameters
) -> Foe:
    """The kaiju with its flipped Traits (each one strength and one weakness, in flip
    order) and, when the finished mech meets its condition, its debuff."""
    f = {
        name: getattr(kaiju, name)
        for name in ("hp", "speed", "attacks", "damage", "regen", "arm_bonus", "crit_immune")
    }
    weak_f, resist_f = set(kaiju.weak_forms), set(kaiju.resist_forms)
    weak_t, resist_t = set(kaiju.weak_types), set(kaiju.resist_types)
    for t in traits:  # in flip order: each one's strength, then its weakness
        for stat in rules.TRAIT_STATS:
            f[stat] = rules.trait_strength(f[stat], stat, t.strength, t.strength_amount)
        if t.strength in ("resist_type", "resist_form"):
            (resist_t if t.strength == "resist_type" else resist_f).add(t.strength_target)
        for stat in rules.KAIJU_FLOORS:
            f[stat] = rules.trait_weakness(f[stat], stat, t.weakness, t.weakness_amount)
        if t.weakness in ("weak_type", "weak_form"):
            (weak_t if t.weakness == "weak_type" else weak_f).add(t.weakness_target)
        f["crit_immune"] = f["crit_immune"] and t.weakness != "crit_open"
    present = [c for c in cards if c is not None]
    took = bool(rules.lesson_took(lesson_matches(cards, lesson), p))
    value = kaiju.debuff_value
    met = bool(
        rules.debuff_met(
            kaiju.debuff_when,
            took,
            sum(c.form == value for c in present),
            sum(c.type == value for c in present),
            kaiju.debuff_at_least,
        )
    )
    effect = kaiju.debuff_effect if met else "none"
    for stat in rules.KAIJU_FLOORS:
        f[stat] = rules.debuff(f[stat], stat, effect, kaiju.debuff_amount)
    mech_first = effect == "mech_first"
    return Foe(
        kaiju.id,
        mech_first=mech_first,
        weak_forms=frozenset(weak_f),
        resist_forms=frozenset(resist_f),
        weak_types=frozenset(weak_t),
        resist_types=frozenset(resist_t),
        priority=kaiju.priority,
        traits=tuple(t.id for t in traits),
        debuffed=met,
        **f,
    )


@dataclass(frozen=True)
class Battle:
    """One compiled battle (a scenario of the engine contract); arrays are small."""

    params: Parameters
    label: str
    # the foe
    kaiju_hp: int
    kaiju_speed: int
    attacks: int
    damage: int
    regen: int
    arm_bonus: int
    mech_first: bool
    priority: np.ndarray  # int8[5]: slot indexes in the order the kaiju's attacks look
    # the card table (module docstring): rows 0..4 locked slots, then the spares
    present: np.ndarray  # int8[C]
    part: np.ndarray  # int8[C] index into PARTS
    hp: np.ndarray  # int16[C]
    power: np.ndarray  # int8[C]
    dmg_head: np.ndarray  # int16[C] Arm damage with a Head (0 for body cards)
    dmg_nohead: np.ndarray  # int16[C]
    max_head: np.ndarray  # int16[C] the same at max Power (the Brawler)
    max_nohead: np.ndarray  # int16[C]
    speed: np.ndarray  # int8[C] Mech Speed with this card as the Legs
    acc: np.ndarray  # int8[C] Accuracy with this card as the Head (0: crit-immune kaiju)
    # the group's policy
    rebuild_when: int  # REBUILD_WHEN
    rebuild_order: np.ndarray  # int8[4] Part-Type indexes, -1 padded
    punch_finish: int
    effect: int  # EFFECTS: the specialty's Battle use, 0 for none (standalone)
    intervene_when: int  # INTERVENE
    intervene_at: int
    # the GPA of each grade of grades.toml, in order (engines report the grade index)
    gpa: np.ndarray  # float64[grades]
    grades: tuple = ()  # the catalog's Grade entries (rules.grade_index reads them)

    @property
    def spares(self) -> int:
        return self.params.spares_per_part if self.params.rebuild_source == "spares" else 0

    def spare_row(self, part: int, k: int) -> int:
        """Card-table row of the k-th spare of Part-Type ``part``."""
        return 5 + part * self.params.spares_per_part + k


@functools.lru_cache(maxsize=64)
def _gpa_table(grades: tuple) -> np.ndarray:
    table = np.array([float(rules.gpa(i, grades)) for i in range(len(grades))])
    table.flags.writeable = False  # shared by every battle compiled with these grades
    return table


def batch_key(battle: Battle) -> tuple:
    """Battles compiled with the same rules parameters and grades share a vector call
    (the card table's length follows ``spares_per_part``)."""
    return battle.params, battle.grades


def _card_row(card: Card | None, foe_: Foe, took: bool, lesson: str, p: Parameters) -> tuple:
    if card is None:
        return _GAP_ROW
    return _card_numbers(
        card,
        foe_.weak_forms,
        foe_.resist_forms,
        foe_.weak_types,
        foe_.resist_types,
        foe_.crit_immune,
        took,
        lesson,
        p,
    )


_GAP_ROW = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def _card_numbers(
    card: Card,
    weak_forms: frozenset,
    resist_forms: frozenset,
    weak_types: frozenset,
    resist_types: frozenset,
    crit_immune: bool,
    took: bool,
    lesson: str,
    p: Parameters,
) -> tuple:
    part = PARTS.index(card.part)
    n = rules.card_numbers(
        part,
        card.form,
        card.power,
        int(rules.lesson_bonus(card.form == lesson, took, p)),
        rules.matchup(card.form in weak_forms, card.form in resist_forms),
        rules.matchup(card.type in weak_types, card.type in resist_types),
        crit_immune,
        p,
    )
    # the card-table row: present, part, hp, power, the four damages, speed, acc
    return (1, part, int(n["hp"]), card.power, *(int(n[k]) for k in rules.CARD_NUMBERS[1:]))


def compile_battle(
    catalog: Catalog,
    cards: Sequence[Card | None],
    lesson: str,
    foe_: Foe,
    policy: Policy,
    spares: Sequence[Sequence[Card]] = ((), (), (), ()),
    label: str = "",
) -> Battle:
    """A finished mech (a card or None per slot, ``SLOTS`` order) with its lesson Form
    against ``foe_``, rebuilding from ``spares`` (per Part-Type, in the order a rebuild
    takes them) as ``policy`` decides."""
    p = catalog.params
    took = bool(rules.lesson_took(lesson_matches(cards, lesson), p))
    rows = [_card_row(c, foe_, took, lesson, p) for c in cards]
    for i, c in enumerate(cards):
        if c is not None and c.part != SLOT_PART[SLOTS[i]]:
            raise ValueError(f"slot {SLOTS[i]}: {c.id} is a {c.part} card")
    for part_index, part in enumerate(PARTS):
        pile = list(spares[part_index]) if part_index < len(spares) else []
        for k in range(p.spares_per_part):
            card = pile[k] if k < len(pile) else None
            if card is not None and card.part != part:
                raise ValueError(f"spare {card.id} is not a {part} card")
            rows.append(_card_row(card, foe_, took, lesson, p))
    cols = list(zip(*rows, strict=True))
    order = [PARTS.index(x) for x in policy.rebuild] + [-1] * (4 - len(policy.rebuild))
    priority = [s for part in foe_.priority for s, sp in enumerate(SLOTS) if SLOT_PART[sp] == part]
    effect = (
        0
        if policy.specialty == "none"
        else EFFECTS[catalog.specialties[policy.specialty].battle_effect]
    )
    return Battle(
        params=p,
        label=label,
        kaiju_hp=foe_.hp,
        kaiju_speed=foe_.speed,
        attacks=foe_.attacks,
        damage=foe_.damage,
        regen=foe_.regen,
        arm_bonus=foe_.arm_bonus,
        mech_first=foe_.mech_first,
        priority=np.array(priority, np.int8),
        present=np.array(cols[0], np.int8),
        part=np.array(cols[1], np.int8),
        hp=np.array(cols[2], np.int16),
        power=np.array(cols[3], np.int8),
        dmg_head=np.array(cols[4], np.int16),
        dmg_nohead=np.array(cols[5], np.int16),
        max_head=np.array(cols[6], np.int16),
        max_nohead=np.array(cols[7], np.int16),
        speed=np.array(cols[8], np.int8),
        acc=np.array(cols[9], np.int8),
        rebuild_when=REBUILD_WHEN[policy.rebuild_when],
        rebuild_order=np.array(order, np.int8),
        punch_finish=policy.punch_finish,
        effect=effect,
        intervene_when=INTERVENE[policy.intervene_when],
        intervene_at=policy.intervene_at,
        gpa=_gpa_table(catalog.grades),
        grades=catalog.grades,
    )


def card_battle(
    catalog: Catalog,
    cards: Sequence[str | None],
    lesson: str,
    kaiju_id: str,
    traits: Sequence[str] = (),
    policy: str = "steady",
    spares: Sequence[Sequence[str]] = (),
    label: str = "",
) -> Battle:
    """A battle of catalog ids: the card in each slot (``SLOTS`` order, None for a gap)
    with the lesson Form, against a kaiju with the named Traits flipped, rebuilding from
    ``spares`` (card ids per Part-Type, ``PARTS`` order)."""
    mech = tuple(None if c is None else catalog.cards[c] for c in cards)
    f = foe(
        catalog.kaiju[kaiju_id], [catalog.traits[t] for t in traits], mech, lesson, catalog.params
    )
    spare_cards = [[catalog.cards[c] for c in pile] for pile in spares] or [(), (), (), ()]
    return compile_battle(
        catalog,
        mech,
        lesson,
        f,
        catalog.policies[policy],
        spare_cards,
        label=label or f"v {kaiju_id}",
    )


def catalog_battle(
    catalog: Catalog,
    mech_id: str,
    kaiju_id: str,
    traits: Sequence[str] = (),
    policy: str = "steady",
    spares: Sequence[Sequence[str]] = (),
) -> Battle:
    """A mech of ``mechs.toml`` against a kaiju (as :func:`card_battle`)."""
    mech = catalog.mechs[mech_id]
    return card_battle(
        catalog,
        mech.cards,
        mech.lesson,
        kaiju_id,
        traits,
        policy,
        spares,
        label=f"{mech_id} v {kaiju_id}",
    )


def with_params(battle: Battle, **changes) -> Battle:
    return dataclasses.replace(battle, params=dataclasses.replace(battle.params, **changes))


# The sample battles the conformance test plays on both engines: every kaiju, a Trait
# or two, gaps and spares (rebuilds, the punch), and both campaign interventions kinds.
SAMPLES = (
    ("mechsuit_lesson", "gorgadon", (), "steady", ()),
    (
        "gappy",
        "thornmaw",
        ("frenzy",),
        "keystone",
        (
            ("legs-beast-melee",),
            ("torso-vehicle-energy",),
            ("head-clockwork-melee",),
            ("arms-mechsuit-melee-2", "arms-beast-energy-1"),
        ),
    ),
    ("beast_pack", "lumenyx", ("regrowth", "spined"), "all_in", ()),
    ("heavy_hitter", "trivex", ("swift",), "ace_finisher", ()),
    ("mechsuit_lesson", "cinderwyrm", ("howler",), "medic_keystone", ()),
)


def sample_scenarios(catalog: Catalog) -> list[tuple[str, Battle]]:
    """The battles of SAMPLES, by name (the conformance test plays each on both engines)."""
    out = []
    for mech, kaiju, traits, policy, spares in SAMPLES:
        label = f"{mech} v {kaiju}" + (f" +{'+'.join(traits)}" if traits else "") + f" ({policy})"
        out.append((label, catalog_battle(catalog, mech, kaiju, traits, policy, spares)))
    return out


# The results both engines return, one number a game: name -> dtype, in this order.
FIELDS = {
    "result": np.int8,
    "kaiju_hp_left": np.int16,
    "rounds": np.int8,
    "grade": np.int8,
    "gpa": np.float64,
    "parts_lost": np.int8,
    "rebuilds": np.int8,
    "crits": np.int8,
    "punches": np.int8,
    "intervened": np.int8,
}


def metrics(results: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The per-game numbers both engines must agree on (float arrays): the win
    (``rules.RESULTS``), the GPA, the rounds, the kaiju's HP left and the parts lost."""
    return {
        "win": (results["result"] == rules.WIN).astype(np.float64),
        "gpa": results["gpa"].astype(np.float64),
        "rounds": results["rounds"].astype(np.float64),
        "kaiju_hp_left": results["kaiju_hp_left"].astype(np.float64),
        "parts_lost": results["parts_lost"].astype(np.float64),
    }
