"""Mech Lab Partners (000) rules: every formula of the Battle, once, on Python ints and
NumPy arrays alike (DESIGN.md "One rule, one place").

The compiled battle (``battle.py``), both engines, the exact battle DP, the tables and
``explain`` call these; none restates them. Flags (weak, resisted, has_head ...) are
0/1 ints or bool/int arrays; every function is arithmetic on them, so a whole batch of
battles goes through the same line a scalar engine uses for one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from sims.labpartners.catalog import PARTS, SLOTS
from sims.labpartners.params import Parameters

RULES_VERSION = "labpartners-rules-1"

Num = Any  # an int or an int array

# How a Battle ends (000 Battle: "5. check for a result"; "When the battle ends"): the
# kaiju defeated (a win), the kaiju reaching the city after ``battle_rounds`` rounds, or
# the mech with no intact part left (both losses). Result code i is RESULTS[i], in the
# engines' ``result`` column; ONGOING while the battle goes on.
RESULTS = ("win", "city", "destroyed")
WIN, CITY, DESTROYED = range(3)
ONGOING = -1


def _max(a: Num, b: Num) -> Num:
    return np.maximum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else max(a, b)


def _min(a: Num, b: Num) -> Num:
    return np.minimum(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else min(a, b)


def _where(cond: Num, a: Num, b: Num) -> Num:
    if any(isinstance(x, np.ndarray) for x in (cond, a, b)):
        return np.where(cond, a, b)
    return a if cond else b


# ---- the lesson (Assembly) -----------------------------------------------------------


def lesson_took(matches: Num, p: Parameters) -> Num:
    """Assembly/lesson: the lesson takes at ``lesson_threshold`` (3) or more parts of the
    lesson Form; below it there is no bonus at all."""
    return matches >= p.lesson_threshold


def lesson_bonus(matches_lesson: Num, took: Num, p: Parameters) -> Num:
    """+``lesson_bonus`` on a part of the lesson Form once the lesson took (each matching
    part: Legs to turn order, Torso to HP, each Arm to damage, Head to accuracy)."""
    return (matches_lesson * took) * p.lesson_bonus


# ---- the kaiju: Traits and the conditional debuff -----------------------------------

# A Trait's weakness or a debuff never takes a kaiju below these (ASSUMPTIONS.md Traits)
KAIJU_FLOORS = {"hp": 1, "damage": 0, "speed": 0, "regen": 0}
TRAIT_STATS = ("hp", "damage", "speed", "regen", "arm_bonus")  # what a strength adds to


def trait_strength(value: Num, stat: str, kind: Any, amount: Num) -> Num:
    """Assembly/Traits: a strength of kind ``stat`` adds ``amount`` to it; ``arm_bonus``
    as a strength lowers the bonus each Arm deals. ``kind`` is the Trait's strength kind
    (a string, or an array of them for a batch)."""
    on = kind == stat
    return value - on * amount if stat == "arm_bonus" else value + on * amount


def trait_weakness(value: Num, stat: str, kind: Any, amount: Num) -> Num:
    """A weakness of kind ``stat`` takes ``amount`` off it, never below its floor."""
    return _where(kind == stat, _max(value - amount, KAIJU_FLOORS[stat]), value)


def debuff_met(when: Any, took: Num, form_count: Num, type_count: Num, at_least: Num) -> Num:
    """The kaiju's conditional debuff holds when the finished mech meets ``when``: the
    lesson took, or at least ``at_least`` parts of the named Form or Type."""
    return (
        ((when == "lesson_took") & took)
        | ((when == "form_count") & (form_count >= at_least))
        | ((when == "type_count") & (type_count >= at_least))
    )


def debuff(value: Num, stat: str, effect: Any, amount: Num) -> Num:
    """A met debuff's effect on one stat: ``regen`` switches regeneration off; ``hp``,
    ``damage`` and ``speed`` lose ``amount`` (never below their floors)."""
    if stat == "regen":
        return _where(effect == "regen", 0, value)
    return _where(effect == stat, _max(value - amount, KAIJU_FLOORS[stat]), value)


# ---- parts ---------------------------------------------------------------------------


def part_hp(base_hp: Num, vehicle: Num, lesson: Num, p: Parameters) -> Num:
    """A part's hit points: its Part-Type's (``legs_hp`` ...), +``vehicle_hp`` for a
    Vehicle part (Form table: Vehicle = Durability), + the lesson bonus on a Torso
    (``lesson`` is that bonus for a Torso, 0 for the other Part-Types)."""
    return base_hp + vehicle * p.vehicle_hp + lesson


# The Forms whose skill bucket a slot's number reads (Cards/Form): Beast Legs add Speed
# (Battle/initiative), a Clockwork Head Accuracy (Battle/crits), Vehicle is Durability
SPEED_FORM, PRECISION_FORM, DURABILITY_FORM = "beast", "clockwork", "vehicle"
LEGS, TORSO, HEAD, ARMS = (PARTS.index(x) for x in ("legs", "torso", "head", "arms"))
CARD_NUMBERS = ("hp", "dmg_head", "dmg_nohead", "max_head", "max_nohead", "speed", "acc")


def card_numbers(
    part: Num,
    form: str | Any,
    power: Num,
    lesson: Num,
    form_matchup: Num,
    type_matchup: Num,
    crit_immune: Num,
    p: Parameters,
) -> dict[str, Num]:
    """Every number a card brings to its slot, by ``CARD_NUMBERS``: hit points (the
    Part-Type's, Vehicle, the lesson on a Torso); an Arm's damage with and without a
    Head, and at the top Power tier (the Brawler); Mech Speed as the Legs; Accuracy as
    the Head (0 against a crit-immune kaiju). ``part`` indexes ``PARTS``; ``lesson`` is
    the card's lesson bonus; ``form`` its Form id (or an array of ids)."""
    base = np.array((p.legs_hp, p.torso_hp, p.head_hp, p.arm_hp))[part]
    arms = part == ARMS
    out = {"hp": part_hp(base, form == DURABILITY_FORM, (part == TORSO) * lesson, p)}
    for name, tier, head in (
        ("dmg_head", power, 1),
        ("dmg_nohead", power, 0),
        ("max_head", p.power_tiers, 1),
        ("max_nohead", p.power_tiers, 0),
    ):
        out[name] = arms * arm_damage(tier, lesson, head, form_matchup, type_matchup, p)
    out["speed"] = (part == LEGS) * mech_speed(1, form == SPEED_FORM, lesson, p)
    out["acc"] = (part == HEAD) * accuracy(1, form == PRECISION_FORM, lesson, crit_immune, p)
    return out


def mech_speed(has_legs: Num, beast: Num, lesson: Num, p: Parameters) -> Num:
    """Battle/initiative: Mech Speed 2 base, +1 Beast Legs, +1 lesson-matched Legs; no
    Legs (a gap or destroyed) = 0."""
    return has_legs * (p.base_speed + beast * p.beast_speed + lesson)


def mech_acts_first(speed: Num, kaiju_speed: Num, forced: Num) -> Num:
    """The higher Speed acts first and the mech wins ties; some kaiju debuffs force the
    mech to act first regardless."""
    return (speed >= kaiju_speed) | forced


def accuracy(has_head: Num, clockwork: Num, lesson: Num, crit_immune: Num, p: Parameters) -> Num:
    """Battle/crits: Accuracy 1 base, +1 Clockwork Head, +1 lesson-matched Head; no
    Head, or a crit-immune kaiju, means no crit (Accuracy 0)."""
    return (
        has_head * (1 - crit_immune) * (p.base_accuracy + clockwork * p.clockwork_accuracy + lesson)
    )


def crits(roll: Num, acc: Num) -> Num:
    """A damaging Arm crits when its d20 (``crit_die``) is at or under Accuracy."""
    return roll <= acc


def p_crit(acc: int, p: Parameters) -> Fraction:
    """The chance one damaging Arm crits: Accuracy/20, capped at 1."""
    return Fraction(min(max(acc, 0), p.crit_die), p.crit_die)


# ---- the mech's damage (DESIGN.md's order) -------------------------------------------


def matchup(weak: Num, resist: Num) -> Num:
    """+1 weak, -1 resisted, 0 neither; a kaiju both weak and resistant (after Traits)
    to one Form or Type cancels to neither."""
    return weak - resist


def arm_damage(power: Num, lesson: Num, has_head: Num, form: Num, type_: Num, p: Parameters) -> Num:
    """One Arm's damage before combo, crit and the kaiju's per-Arm bonus: Power, + the
    lesson bonus, -1 with no Head; then Form +1/-1 (``form`` = matchup); then Type x2
    weak / x0.5 resisted (``type_`` = matchup), rounding down, at least 1 if resisted
    (``resisted_floor = "positive"``: an Arm brought to 0 before the Type step stays at
    0, nothing to halve; ``"always"``: it deals ``resisted_min`` too)."""
    base = _max(power + lesson - (1 - has_head) * p.no_head_damage + form * p.form_step, 0)
    weak = base * p.type_factor
    # "min 1 if resisted" (Battle/damage): resisted_floor "positive" holds it only for an
    # Arm with damage left before the Type step; "always" for every resisted Arm, so one
    # the Form or a missing Head brought to 0 still deals resisted_min
    floor_all = p.resisted_floor == "always"
    resisted = _where((base > 0) | floor_all, _max(base // p.type_factor, p.resisted_min), 0)
    return _where(type_ > 0, weak, _where(type_ < 0, resisted, base))


def combo(power_1: Num, power_2: Num, damage_1: Num, damage_2: Num, p: Parameters) -> Num:
    """Both Arms share a Power tier and both deal damage: +``combo_bonus`` once."""
    return ((power_1 == power_2) & (damage_1 > 0) & (damage_2 > 0)) * p.combo_bonus


def arm_hit(damage: Num, crit: Num, arm_bonus: Num, p: Parameters) -> Num:
    """What one Arm deals: its damage, doubled by a crit, then the kaiju's per-Arm bonus
    (an Arm that dealt nothing gets no bonus; never below 0)."""
    return _where(damage > 0, _max(damage * _where(crit, p.crit_factor, 1) + arm_bonus, 0), 0)


def volley(hit_1: Num, hit_2: Num, combo_: Num) -> Num:
    """The mech's fire: both Arms' hits and the combo bonus."""
    return hit_1 + hit_2 + combo_


def punch(has_head: Num, roll: Num, p: Parameters) -> Num:
    """Battle/wimpy punch: 1 flat damage, no multipliers; with no Head it misses on
    ``punch_miss_faces`` faces of the ``punch_die`` (1 time in 3). ``roll`` is read only
    without a Head."""
    return _where(has_head | (roll > p.punch_miss_faces), p.punch_damage, 0)


# ---- the kaiju's damage --------------------------------------------------------------


def target_rank(hp_left: Num, position: Num, attacks: Num, p: Parameters) -> Num:
    """Which intact part a kaiju's attack hits, lowest rank first among the parts no
    earlier attack of its action hit (then among all intact parts). Battle/kaiju: "its
    attack lands on the first intact part down that list (a two-attack kaiju hits the two
    most-intact parts)". ``kaiju_targets = "priority"``: the first down the list
    (``position`` in it); ``"most_hp"``: a kaiju of two or more attacks takes the part
    with the most hit points left, ties to the earliest down its list (a one-attack
    kaiju keeps its list)."""
    by_hp = (attacks >= 2) * (p.kaiju_targets == "most_hp")
    return position - by_hp * hp_left * len(SLOTS)


def incoming(damage: Num, torso_intact: Num, p: Parameters, armor: Num | None = None) -> Num:
    """Battle/Torso: an intact Torso soaks its Armor (2) off every attack, and an attack
    reduced to 0 or below does nothing; with no Torso there is no Armor and the damage
    is doubled. ``armor`` overrides the Torso's Armor (the Brawler's cost: 0)."""
    armor = p.torso_armor if armor is None else armor
    return _where(torso_intact, _max(damage - armor, 0), damage * p.no_torso_factor)


def regenerate(hp: Num, regen: Num, start_hp: Num) -> Num:
    """End of round: the kaiju heals ``regen``, never above its starting HP."""
    return _min(hp + regen, start_hp)


# ---- the result ----------------------------------------------------------------------


def grade_index(won: Num, hp_left: Num, hp_start: Num, grades: tuple) -> Num:
    """The index of the first grade of ``grades.toml`` that fits: a win, or a loss by the
    kaiju's HP left as a percent of its start (exact integer comparisons: ``left*100 <
    below*start``)."""
    left = _max(hp_left, 0) * 100
    out = -1
    for i in range(len(grades) - 1, -1, -1):
        g = grades[i]
        if g.result == "win":
            fits = won
        elif g.hp_left_below >= 0:
            fits = (1 - won) * (left < g.hp_left_below * hp_start)
        else:
            fits = (1 - won) * (left <= g.hp_left_at_most * hp_start)
        out = _where(fits, i, out)
    return out


def gpa(index: int, grades: tuple) -> Fraction:
    """A grade's GPA, exact (``"1.3"`` is 13/10)."""
    return Fraction(grades[index].gpa)


def kaiju_defeated(hp: Num) -> Num:
    """000 Battle: the kaiju at 0 HP or below is defeated, the battle won the moment the
    mech's action takes it there."""
    return hp <= 0
