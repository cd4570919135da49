"""The working of Mech Lab Partners resolutions (DESIGN "Show the working"), as exact
fractions.

``arm``: one Arm's damage against a kaiju, step by step in DESIGN's order (Power, lesson,
Head gap, Form, Type, the combo, the crit, the kaiju's per-Arm bonus), every step a call
of ``rules.arm_damage`` / ``rules.arm_hit`` so the working cannot drift from the engines.
``battle``: a finished mech against a kaiju: the compiled numbers the round reads
(``battle.compile_battle``) and the exact outcome distribution of the battle DP
(``exact_battle.outcome``). Rulebook headings are cited as ``Battle/crits`` etc.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sims.core.dist import fraction_str
from sims.core.protocol import Explain, InputError, Option, comma_list
from sims.labpartners import battle, rules
from sims.labpartners.catalog import SLOT_PART, SLOTS, Card, Catalog, Kaiju, Trait, card_problem
from sims.labpartners.params import Parameters

DEFAULT_POLICY = "steady"


# ---- looking things up ---------------------------------------------------------------------


def _known(what: str, value: str, known: Sequence[str]) -> InputError:
    return InputError(f"unknown {what} {value!r} (known: {', '.join(known)})")


def _kaiju(catalog: Catalog, ident: str) -> Kaiju:
    if ident not in catalog.kaiju:
        raise _known("kaiju", ident, list(catalog.kaiju))
    return catalog.kaiju[ident]


def _traits(catalog: Catalog, idents: Sequence[str] | None) -> list[Trait]:
    out = []
    for t in idents or ():
        if t not in catalog.traits:
            raise _known("trait", t, list(catalog.traits))
        out.append(catalog.traits[t])
    return out


def _card(catalog: Catalog, text: str) -> Card:
    problem = card_problem(
        text, catalog.cards, catalog.forms, catalog.types, catalog.params.power_tiers
    )
    if problem:
        raise InputError(f"unknown card {problem}")
    return catalog.cards[text]


def _signed(n: int) -> str:
    return f"{n:+d}"


def _p(x: Fraction) -> str:
    """A probability as an exact fraction and a percentage."""
    return f"{fraction_str(x)} ({float(x):.1%})"


def _n(x: Fraction | int) -> str:
    """An expected value as an exact fraction and a decimal."""
    x = Fraction(x)
    return fraction_str(x) if x.denominator == 1 else f"{fraction_str(x)} ({float(x):.3f})"


def _names(values: frozenset[str] | tuple[str, ...]) -> str:
    return ", ".join(sorted(values)) or "none"


def _foe_lines(f: battle.Foe, kaiju: Kaiju) -> list[str]:
    traits = ", ".join(f.traits) or "none"
    return [
        f"  Traits flipped: {traits}",
        f"  Form: weak {_names(f.weak_forms)}; resists {_names(f.resist_forms)}",
        f"  Type: weak {_names(f.weak_types)}; resists {_names(f.resist_types)}",
        f"  per-Arm bonus {_signed(f.arm_bonus)}; crit-immune {'yes' if f.crit_immune else 'no'}"
        f" (printed: {'yes' if kaiju.crit_immune else 'no'})",
    ]


# ---- arm -------------------------------------------------------------------------------------


def _matchup_word(m: int) -> str:
    return "weak" if m > 0 else "resisted" if m < 0 else "neither"


@dataclass(frozen=True)
class ArmSteps:
    """One Arm's damage after each step (DESIGN reading "Arm damage order"), its crit and
    its expected hit: the engines' own numbers (``rules.arm_damage`` / ``rules.arm_hit``)."""

    head: int  # 1 a Head is in place
    bonus: int  # the lesson bonus
    form: int  # rules.matchup of the Arm's Form (+1 weak, -1 resisted, 0 neither)
    type_: int  # and of its Type
    after_lesson: int
    after_head: int
    after_form: int
    damage: int  # after the Type: the Arm's damage
    acc: int  # the Head's Accuracy
    pc: Fraction  # P(crit)
    hit: int  # a hit with the kaiju's per-Arm bonus
    crit: int  # a crit hit alike
    expected: Fraction  # the expected hit (no combo)

    @property
    def rolls(self) -> bool:
        """The Arm rolls the d20 for a crit: it deals damage and can crit."""
        return self.damage > 0 and self.acc > 0


def arm_steps(p: Parameters, arm: Card, f: battle.Foe, lesson: bool, no_head: bool) -> ArmSteps:
    """Each step is rules.arm_damage with the later steps switched off (DESIGN reading
    "Arm damage order"): the numbers are the engines' own."""
    head = 0 if no_head else 1
    bonus = int(rules.lesson_bonus(int(lesson), True, p))
    form = int(rules.matchup(arm.form in f.weak_forms, arm.form in f.resist_forms))
    type_ = int(rules.matchup(arm.type in f.weak_types, arm.type in f.resist_types))
    damage = int(rules.arm_damage(arm.power, bonus, head, form, type_, p))
    acc = int(rules.accuracy(head, 0, 0, int(f.crit_immune), p))
    pc = rules.p_crit(acc, p)
    hit = int(rules.arm_hit(damage, False, f.arm_bonus, p))
    crit = int(rules.arm_hit(damage, True, f.arm_bonus, p))
    return ArmSteps(
        head=head,
        bonus=bonus,
        form=form,
        type_=type_,
        after_lesson=int(rules.arm_damage(arm.power, bonus, 1, 0, 0, p)),
        after_head=int(rules.arm_damage(arm.power, bonus, head, 0, 0, p)),
        after_form=int(rules.arm_damage(arm.power, bonus, head, form, 0, p)),
        damage=damage,
        acc=acc,
        pc=pc,
        hit=hit,
        crit=crit,
        expected=(1 - pc) * hit + pc * crit,
    )


def arm_text(
    catalog: Catalog,
    card: str,
    kaiju: str,
    *,
    lesson: bool = False,
    no_head: bool = False,
    traits: Sequence[str] | None = None,
) -> str:
    """``mechbal explain labpartners arm``: one Arm's hit against ``kaiju``."""
    p = catalog.params
    arm = _card(catalog, card)
    if arm.part != "arms":
        raise InputError(f"card {card!r} is a {arm.part} card, not an Arm")
    k = _kaiju(catalog, kaiju)
    # The debuff depends on the whole mech and never touches Arm damage: no cards here.
    f = battle.foe(k, _traits(catalog, traits), (), "", p)
    st = arm_steps(p, arm, f, lesson, no_head)
    out = [
        f"Arm: {arm.id} ({arm.form}, {arm.type}, Power {arm.power}) against {k.id}",
        *_foe_lines(f, k),
        "",
        *_arm_damage_lines(p, arm, st, lesson, no_head),
        "",
        *_arm_crit_lines(p, k, f, st, no_head),
    ]
    return "\n".join(line.rstrip() for line in out)


def _arm_damage_lines(
    p: Parameters, arm: Card, st: ArmSteps, lesson: bool, no_head: bool
) -> list[str]:
    """The damage steps in order: Power, lesson, Head gap, Form, Type, then the combo."""
    lesson_line = (
        f"+{st.bonus}: the Arm matches a lesson that took (Assembly/lesson)"
        if lesson
        else "+0: no lesson bonus (no lesson that took matches it)"
    )
    head_line = (
        f"-{p.no_head_damage}: no Head (Battle/gaps: -1 damage per Arm)"
        if no_head
        else "+0: a Head is in place"
    )
    form_step = st.form * p.form_step
    form_note = " (at least 0)" if st.after_head + form_step < 0 else ""
    if st.type_ > 0:
        type_line = f"x{p.type_factor}: {arm.type} weak"
    elif st.type_ < 0:
        type_line = (
            f"/{p.type_factor} rounded down, at least {p.resisted_min}: {arm.type} "
            "resisted" + ("; 0 stays 0" if st.after_form == 0 else "")
        )
    else:
        type_line = f"x1: {arm.type} neither weak nor resisted"
    return [
        "Damage (DESIGN reading 'Arm damage order'; Battle: damage)",
        f"  Power                 {arm.power:>3}   (Cards: the Arm's Power)",
        f"  lesson                {st.after_lesson:>3}   {lesson_line}",
        f"  Head gap              {st.after_head:>3}   {head_line}",
        f"  Form                  {st.after_form:>3}   {_signed(form_step)}: {arm.form} "
        f"{_matchup_word(st.form)}{form_note} (Battle: Form +1/-1)",
        f"  Type                  {st.damage:>3}   {type_line} (Battle: Type x2 / x0.5)",
        f"  combo                   -   +{p.combo_bonus} once when both Arms share a Power tier "
        f"({arm.power} here) and both deal damage: the volley's, not this Arm's",
    ]


def _arm_crit_lines(
    p: Parameters, k: Kaiju, f: battle.Foe, st: ArmSteps, no_head: bool
) -> list[str]:
    """The crit, the kaiju's per-Arm bonus, and the expected hit."""
    if no_head:
        crit_why = "no Head: no crit (Battle/crits)"
    elif f.crit_immune:
        crit_why = f"{k.id} is crit-immune: no crit (Battle/crits)"
    else:
        crit_why = (
            f"a plain Head: Accuracy {st.acc} (Battle/crits: 1 base; neither Clockwork "
            "nor lesson-matched)"
        )
    out = ["Crit (Battle/crits)", f"  {crit_why}"]
    if st.rolls:
        out.append(
            f"  d20 <= {st.acc}: P(crit) = {_p(st.pc)}; a crit doubles this Arm: "
            f"{st.damage} x {p.crit_factor} = {st.damage * p.crit_factor}"
        )
    elif st.damage == 0:
        out.append("  the Arm deals nothing: no d20 is rolled")
    out += [
        "",
        f"Per-Arm bonus (the kaiju's, last): {_signed(f.arm_bonus)} on a damaging Arm, never "
        "below 0",
        f"  hit {st.hit}" + (f"; crit hit {st.crit}" if st.rolls else ""),
        "",
        "Expected hit of this Arm (no combo)",
    ]
    if st.rolls:
        out.append(
            f"  (1 - {fraction_str(st.pc)}) x {st.hit} + {fraction_str(st.pc)} x {st.crit} "
            f"= {_n(st.expected)}"
        )
    else:
        out.append(f"  {_n(st.expected)}")
    return out


# ---- battle ----------------------------------------------------------------------------------


def _mech_cards(catalog: Catalog, mech: str) -> tuple[list[Card | None], str | None, str]:
    """The five slots' cards from ``--mech``: a mechs.toml id or five card ids; returns
    them, the mech's lesson (None for a card list) and a label."""
    if "," not in mech:
        if mech not in catalog.mechs:
            raise InputError(
                f"unknown mech {mech!r} (known: {', '.join(catalog.mechs)}; or "
                f"five cards {','.join(SLOTS)}, 'gap' for an empty slot)"
            )
        m = catalog.mechs[mech]
        return list(battle.mech_cards(catalog, m)), m.lesson, mech
    items = [t.strip() for t in mech.split(",")]
    if len(items) != len(SLOTS):
        raise InputError(
            f"--mech: expected {len(SLOTS)} cards ({','.join(SLOTS)}; 'gap' for "
            f"an empty slot), got {len(items)}"
        )
    cards: list[Card | None] = []
    for slot, text in zip(SLOTS, items, strict=True):
        if text in ("gap", ""):
            cards.append(None)
            continue
        card = _card(catalog, text)
        if card.part != SLOT_PART[slot]:
            raise InputError(f"slot {slot}: {text!r} is a {card.part} card, not {SLOT_PART[slot]}")
        cards.append(card)
    return cards, None, "the mech"


def most_common_form(cards: Sequence[Card | None], forms: Sequence[str]) -> tuple[str, int]:
    """The Form most of the cards share (ties: the one met first in SLOTS order; no card at
    all: the catalog's first Form) and how many cards have it."""
    counts = Counter(c.form for c in cards if c is not None)
    if not counts:
        return forms[0], 0
    top = max(counts.values())
    form = next(c.form for c in cards if c is not None and counts[c.form] == top)
    return form, top


def _debuff_line(k: Kaiju, f: battle.Foe) -> str:
    if k.debuff_when == "never":
        return "  debuff: none printed"
    count = f"at least {k.debuff_at_least} {k.debuff_value} parts"
    cond = "the lesson took" if k.debuff_when == "lesson_took" else count
    effect = k.debuff_effect + (f" {k.debuff_amount}" if k.debuff_amount else "")
    return f"  debuff ({effect}) when {cond}: {'applies' if f.debuffed else 'does not apply'}"


def _pairs(dist: Any) -> list[tuple[Any, Fraction]]:
    """(value, probability) pairs of a Dist, a mapping or a sequence of pairs."""
    if isinstance(dist, Mapping):
        items = dist.items()
    elif isinstance(getattr(dist, "items", None), tuple):
        items = dist.items  # a sims.core.dist.Dist
    else:
        items = dist
    return sorted((v, Fraction(q)) for v, q in items)


def battle_text(
    catalog: Catalog,
    mech: str,
    kaiju: str,
    *,
    lesson: str | None = None,
    traits: Sequence[str] | None = None,
    policy: str | None = None,
) -> str:
    """``mechbal explain labpartners battle``: a finished mech against ``kaiju``."""
    from sims.labpartners import exact_battle  # the DP

    p = catalog.params
    cards, mech_lesson, label = _mech_cards(catalog, mech)
    k = _kaiju(catalog, kaiju)
    trait_list = _traits(catalog, traits)
    policy = policy or DEFAULT_POLICY
    if policy not in catalog.policies:
        raise _known("policy", policy, list(catalog.policies))
    if lesson is not None:
        if lesson not in catalog.forms:
            raise _known("lesson Form", lesson, list(catalog.forms))
        lesson_why = "given (--lesson)"
    elif mech_lesson is not None:
        lesson, lesson_why = mech_lesson, f"mechs.toml's for {mech}"
    else:
        lesson, n = most_common_form(cards, list(catalog.forms))
        lesson_why = (
            f"default: the most common Form among the cards ({n} of "
            f"{sum(c is not None for c in cards)}; ties: the first in slot order; "
            "--lesson FORM to choose)"
        )
    matches = battle.lesson_matches(cards, lesson)
    took = bool(rules.lesson_took(matches, p))
    f = battle.foe(k, trait_list, cards, lesson, p)
    pol = catalog.policies[policy]
    b = battle.compile_battle(catalog, cards, lesson, f, pol, label=f"{label} v {k.id}")
    out = _battle_numbers(catalog, b, cards, k, f, lesson, lesson_why, matches, took, policy, label)
    out += ["", _outcome_text(catalog, b, exact_battle.outcome(b))]
    return "\n".join(line.rstrip() for line in out)


def _battle_numbers(
    catalog: Catalog,
    b: battle.Battle,
    cards: Sequence[Card | None],
    k: Kaiju,
    f: battle.Foe,
    lesson: str,
    lesson_why: str,
    matches: int,
    took: bool,
    policy: str,
    label: str,
) -> list[str]:
    """The compiled numbers the round reads: the lesson, the mech slot by slot, its
    weapons, the kaiju and the initiative."""
    p: Parameters = catalog.params
    legs, head = (b.present[i] == 1 for i in (battle.LEGS, battle.HEAD))
    speed = int(b.speed[battle.LEGS]) if legs else 0
    out = [
        f"Battle: {label} against {k.id} (policy {policy}; no spare cards, so no rebuild: an "
        "armless mech throws the wimpy punch)",
        f"  lesson {lesson}: {lesson_why}",
        f"  {matches} part(s) of the lesson Form: "
        + (
            f"the lesson takes (+{p.lesson_bonus} on each matching part)"
            if took
            else f"below {p.lesson_threshold}, no bonus (Assembly/lesson)"
        ),
        "",
        "The mech (compiled; part HP: the Part-Type's, +Vehicle, +lesson on a Torso)",
    ]
    out += [_slot_line(p, b, cards, f, lesson, took, speed, i) for i in range(len(SLOTS))]
    out.append(_weapons_line(p, b))
    return out + _kaiju_lines(p, b, k, f, speed)


def _slot_line(
    p: Parameters,
    b: battle.Battle,
    cards: Sequence[Card | None],
    f: battle.Foe,
    lesson: str,
    took: bool,
    speed: int,
    i: int,
) -> str:
    """Slot ``i``: its card, HP and what it does in the round, or what its gap costs."""
    slot, card = SLOTS[i], cards[i]
    head = b.present[battle.HEAD] == 1
    if card is None:
        gap = {
            "legs": "the kaiju always acts first (Mech Speed 0)",
            "torso": "no Armor, incoming damage doubled",
            "head": f"-{p.no_head_damage} damage per Arm, no crits",
            "arm_1": "one weapon fewer",
            "arm_2": "one weapon fewer",
        }[slot]
        return f"  {slot:<6} gap: {gap} (Battle/gaps)"
    bonus = int(rules.lesson_bonus(card.form == lesson, took, p))
    if slot == "legs":
        terms = [f"{p.base_speed} base"]
        terms += [f"+{p.beast_speed} Beast"] if card.form == "beast" else []
        terms += [f"+{bonus} lesson"] if bonus else []
        what = f"Speed {speed} ({' '.join(terms)})"
    elif slot == "torso":
        what = f"Armor {p.torso_armor} off every attack while intact"
    elif slot == "head":
        acc = int(b.acc[battle.HEAD]) if head else 0
        pc = rules.p_crit(acc, p)
        terms = [f"{p.base_accuracy} base"]
        terms += [f"+{p.clockwork_accuracy} Clockwork"] if card.form == "clockwork" else []
        terms += [f"+{bonus} lesson"] if bonus else []
        why = "crit-immune kaiju" if f.crit_immune else " ".join(terms)
        what = f"Accuracy {acc} ({why}): P(crit) {_p(pc)} per damaging Arm"
    else:
        d = int(b.dmg_head[i] if head else b.dmg_nohead[i])
        what = (
            f"Power {card.power}: damage {d} "
            f"({'with' if head else 'without'} the Head; rules.arm_damage)"
        )
    return f"  {slot:<6} {card.id:<28} HP {int(b.hp[i]):>2}  {what}"


def _weapons_line(p: Parameters, b: battle.Battle) -> str:
    """The Arms' combo, or the wimpy punch of an armless mech."""
    head = b.present[battle.HEAD] == 1
    arms = [i for i in battle.ARM_SLOTS if b.present[i]]
    dmg = [
        int(b.dmg_head[i] if head else b.dmg_nohead[i]) if b.present[i] else 0
        for i in battle.ARM_SLOTS
    ]
    pw = [int(b.power[i]) if b.present[i] else 0 for i in battle.ARM_SLOTS]
    combo = int(rules.combo(pw[0], pw[1], dmg[0], dmg[1], p))
    if arms:
        return f"  combo {_signed(combo)} " + (
            "(both Arms share a Power tier and deal damage)"
            if combo
            else "(needs both Arms damaging with one Power tier)"
        )
    return f"  armless: the wimpy punch, {p.punch_damage} damage" + (
        "" if head else f", missing {p.punch_miss_faces} time in {p.punch_die} with no Head"
    )


def _kaiju_lines(p: Parameters, b: battle.Battle, k: Kaiju, f: battle.Foe, speed: int) -> list[str]:
    """The kaiju as the round meets it (Traits and debuff applied), then the initiative."""
    first = bool(rules.mech_acts_first(speed, b.kaiju_speed, b.mech_first))
    in_torso = int(rules.incoming(b.damage, 1, p))
    in_none = int(rules.incoming(b.damage, 0, p))
    order = ", ".join(SLOTS[int(s)] for s in b.priority)
    return [
        "",
        f"The kaiju {k.id} (after Traits and debuff)",
        f"  HP {b.kaiju_hp}, Speed {b.kaiju_speed}, {b.attacks} attack(s) of {b.damage}, "
        f"regen {b.regen}/round",
        *_foe_lines(f, k),
        _debuff_line(k, f),
        f"  priority: {order}",
        f"  each attack: {b.damage} - Armor {p.torso_armor} = {in_torso} with the Torso; "
        f"{in_none} without it (Battle/Torso)",
        "",
        f"Initiative (Battle/initiative): mech Speed {speed} vs kaiju Speed {b.kaiju_speed}"
        + (
            ": the debuff makes the mech act first"
            if b.mech_first and speed < b.kaiju_speed
            else f": the {'mech' if first else 'kaiju'} acts first (ties go to the mech)"
        ),
    ]


def _outcome_text(catalog: Catalog, b: battle.Battle, out: Any) -> str:
    p_city = Fraction(out.p_result(rules.CITY))
    p_dest = Fraction(out.p_result(rules.DESTROYED))
    letters = {Fraction(g.gpa): g.letter for g in catalog.grades}
    lines = [
        f"Outcome (exact over every die roll; {b.params.battle_rounds} rounds, then the city)",
        f"  P(win)        = {_p(Fraction(out.p_win))}",
        f"  P(city)       = {_p(p_city)}",
        f"  P(destroyed)  = {_p(p_dest)}",
        f"  expected GPA    = {_n(Fraction(out.expected_gpa))}",
        f"  expected rounds = {_n(Fraction(out.expected_rounds))}",
        "  GPA distribution:",
    ]
    for gpa, q in _pairs(out.gpa_dist()):
        gpa = Fraction(gpa)
        lines.append(f"    {letters.get(gpa, '?'):<3} {float(gpa):.1f}  {_p(q)}")
    lines.append("  rounds distribution:")
    for r, q in _pairs(out.rounds_dist()):
        lines.append(f"    {r:>2}  {_p(q)}")
    return "\n".join(lines)


# What `mechbal explain labpartners WHAT` can explain, with its options.
EXPLAIN = {
    "arm": Explain(
        "arm",
        "one Arm's damage against a kaiju, step by step, and its exact expected hit",
        (
            Option("card", "Arm card id (arms-FORM-TYPE-POWER)", required=True, metavar="ID"),
            Option("kaiju", "kaiju id", required=True, metavar="K"),
            Option("lesson", "the Arm matches a lesson that took (+1)", switch=True, default=False),
            Option(
                "no_head", "the Head slot is a gap (-1 damage, no crit)", switch=True, default=False
            ),
            Option("traits", "flipped Trait ids, comma-separated", comma_list, metavar="T1,T2"),
        ),
        arm_text,
    ),
    "battle": Explain(
        "battle",
        "a finished mech against a kaiju: compiled numbers and the exact outcome",
        (
            Option(
                "mech",
                "a mechs.toml id, or five card ids legs,torso,head,arm_1,arm_2 "
                "('gap' for an empty slot)",
                required=True,
                metavar="CARDS",
            ),
            Option("kaiju", "kaiju id", required=True, metavar="K"),
            Option(
                "lesson",
                "the lesson Form (default: the mech's, or the most common Form among the cards)",
                metavar="FORM",
            ),
            Option("traits", "flipped Trait ids, comma-separated", comma_list, metavar="T1,T2"),
            Option("policy", f"the group's policy (default {DEFAULT_POLICY})", metavar="P"),
        ),
        battle_text,
    ),
}
