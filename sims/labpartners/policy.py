"""Mech Lab Partners policy: the choices a cadet makes in Assembly and the group's
choices in Battle, each written once for both engines of its round (000 Assembly,
Independent Studies, Battle).

A player (``players.toml``) weighs what a card would bring to the mech; each predicate
here is one part of that choice: the value a cadet sees in a play, the gain of a play,
and whether the gain is worth committing to. The scalar and the vectorized Assembly
(``game/reference/``, ``game/vector/``) call these on ints and on arrays alike, so a
policy is written once. What a card brings (each a 0/1 flag or a count, arrays over
games or cards):

- ``lesson``: its Form is the lesson Form (three of them make the lesson take);
- ``weak``: how many of its Form and Type are revealed weaknesses (the flipped Traits';
  the kaiju's own stat side stays hidden until Battle);
- ``skill``: its Form's skill bucket helps its slot (Beast Legs: Speed, Vehicle Torso:
  Durability, Clockwork Head: Precision; rules.SPEED_FORM ...);
- ``power``: an Arm's Power; ``combo``: an Arm of that Power is in the other Arm slot;
- ``study``: it advances the player's own Independent Study (:func:`study_progress`).

When a study is complete and what a cadet scores is the grading's
(``game/scoring.py``).

The Battle's group decisions (below the Assembly ones) read the group's policy
(``policies.toml``, compiled into a Battle's ``rebuild_when``, ``rebuild_order``,
``punch_finish``, ``intervene_when`` and ``intervene_at``): whether to rebuild instead of
firing and which Part-Type, the punch that finishes a nearly dead kaiju, where a rebuilt
Arm goes, when the campaign intervention is spent, and the parts the Medic and the
Tactician pick. The reference engine (``reference.py``) calls them on Python ints and
bools, the vector engine (``vector.py``) on arrays over battles; plain comparisons and
``&``, ``|`` give Python bools on the one and bool arrays on the other (never ``~`` on a
Python bool). What the rulebook fixes stays with ``rules.py`` and the engines: every
working Arm fires, a disarmed mech that does not rebuild punches, the kaiju's targets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sims.labpartners import rules
from sims.labpartners.battle import INTERVENE, REBUILD_WHEN
from sims.labpartners.catalog import PARTS, SLOTS, STUDY_GOALS, Catalog, Player

Num = Any  # an int or an int array

GOAL = {goal: i for i, goal in enumerate(STUDY_GOALS)}  # a study's goal as a code


def skill(part: Num, form: Any) -> Num:
    """1 where the card's Form skill bucket helps its Part-Type's slot (``part`` indexes
    PARTS, ``form`` a Form id or an array of ids)."""
    return (
        ((part == rules.LEGS) & (form == rules.SPEED_FORM))
        | ((part == rules.TORSO) & (form == rules.DURABILITY_FORM))
        | ((part == rules.HEAD) & (form == rules.PRECISION_FORM))
    ) * 1


def study_progress(
    goal: Num, form_hit: Num, type_hit: Num, power: Num, lesson: Num, combo: Num
) -> Num:
    """How much a card advances a study of goal code ``goal``: a part of the target Form
    (form_count) or Type (type_count), an Arm's Power (power_total), a combo (combo), a
    part of the lesson Form (lesson_took). Winning, an intact win, no gaps and crits are
    not steered card by card (0)."""
    return (
        (goal == GOAL["form_count"]) * form_hit
        + (goal == GOAL["type_count"]) * type_hit
        + (goal == GOAL["power_total"]) * power
        + (goal == GOAL["combo"]) * combo
        + (goal == GOAL["lesson_took"]) * lesson
    )


def card_value(
    player: Player, lesson: Num, weak: Num, skill_: Num, power: Num, combo: Num, study: Num
) -> Num:
    """What ``player`` sees in a card in its slot (players.toml's weights)."""
    return (
        player.lesson * lesson
        + player.weakness * weak
        + player.skill * skill_
        + player.power * power
        + player.combo * combo
        + player.study * study
    )


def gain(player: Player, value: Num, placed_value: Num, empty: Num) -> Num:
    """The gain of a play: filling an empty slot (``empty`` 1) gains ``fill`` + the
    card's value; replacing a placed card gains the difference of their values."""
    return (player.fill + value) * empty + (value - placed_value) * (1 - empty)


def commits(player: Player, best_gain: Num) -> Num:
    """The hold-or-commit threshold: play the best play only when its gain reaches it."""
    return best_gain >= player.threshold


def battle_seat(players: Sequence[Player]) -> int:
    """The seat whose Specialty a campaign group spends in Battle: the first, in seat
    order, whose cadet keeps it for Battle (players.toml ``specialty_use``); -1 for none
    (ASSUMPTIONS.md, Specialties in Assembly)."""
    return next((k for k, p in enumerate(players) if p.specialty_use == "battle"), -1)


def specialty_policies(catalog: Catalog, standalone: str) -> tuple[int, ...]:
    """The group's Battle policy for each Specialty (catalog.specialties order) as an
    index into catalog.policies: the first policy of policies.toml with that Specialty,
    else ``standalone``'s (ASSUMPTIONS.md, Specialties in Assembly)."""
    policies = list(catalog.policies.values())
    base = list(catalog.policies).index(standalone)
    return tuple(
        next((i for i, pol in enumerate(policies) if pol.specialty == sid), base)
        for sid in catalog.specialties
    )


# ---- Battle: the group's decisions (000 Battle; ASSUMPTIONS.md "Readings") -------------

ARMS = PARTS.index("arms")  # the Part-Type index of the Arms; arm_1's slot index too
N_SLOTS = len(SLOTS)  # 5: slot indexes 0..4 (SLOTS order); ranks below keep them apart


def rebuilds(rebuild_when: Num, part: Num, armless: Num, missing: Num, spare: Num) -> Num:
    """Whether the group rebuilds a listed Part-Type ``part`` (PARTS index) this turn
    instead of firing (Battle: "rebuild any one part instead of firing", a group
    decision; policies.toml ``rebuild_when``): ``armless`` rebuilds the Arms only when no
    Arm is intact, ``missing`` any Part-Type with a gap or destroyed slot (``missing``),
    ``never`` nothing; always only with a ``spare`` card of that Part-Type left. The
    engines rebuild the first listed Part-Type (``rebuild``, most wanted first) for which
    this holds."""
    by_armless = (rebuild_when == REBUILD_WHEN["armless"]) & (part == ARMS) & armless
    by_missing = (rebuild_when == REBUILD_WHEN["missing"]) & missing
    return (by_armless | by_missing) & spare


def punches_to_finish(armless: Num, kaiju: Num, punch_finish: Num) -> Num:
    """A disarmed group throws the wimpy punch instead of rebuilding when the kaiju has
    ``punch_finish`` HP or fewer left (Battle/wimpy punch: "rebuild a weapon, or throw
    the punch (often the right call to finish a nearly-dead kaiju)")."""
    return armless & (kaiju <= punch_finish)


def rebuilt_slot(part: Num, arm_1_intact: Num) -> Num:
    """The slot a rebuilt part of Part-Type ``part`` goes into: its own slot (Legs,
    Torso and Head share their PARTS index), an Arm into ``arm_1`` unless that Arm is
    intact, then ``arm_2`` (ASSUMPTIONS.md, Rebuild: the first gap or destroyed slot of
    its Part-Type)."""
    return part + ((part == ARMS) & arm_1_intact)


def spends_intervention(
    intervene_when: Num,
    round_: Num,
    armless: Num,
    kaiju: Num,
    intervene_at: Num,
    torso_lost: Num,
) -> Num:
    """The campaign group spends its Specialty's Battle use this round (tested at the
    start of the round, after initiative; Pilot Specialties, "Battle Use"; policies.toml
    ``intervene_when``): ``first_round`` in round 1, ``armless`` with no intact Arm,
    ``kaiju_low`` with the kaiju at ``intervene_at`` HP or fewer, ``torso_lost`` with the
    Torso a gap or destroyed, ``never`` not at all. That it is spent once per battle is
    the rulebook's (single-use), the engines'."""
    return (
        ((intervene_when == INTERVENE["first_round"]) & (round_ == 1))
        | ((intervene_when == INTERVENE["armless"]) & armless)
        | ((intervene_when == INTERVENE["kaiju_low"]) & (kaiju <= intervene_at))
        | ((intervene_when == INTERVENE["torso_lost"]) & torso_lost)
    )


def restore_rank(listed: Num, slot: Num) -> Num:
    """Which destroyed part the Medic restores, lowest rank first ("Restore a destroyed
    part"; ASSUMPTIONS.md, Medic: the policy's rebuild list first): ``listed`` is the
    position of the slot's Part-Type in the rebuild list (``len(PARTS)`` when unlisted),
    ties to the earliest slot (SLOTS order)."""
    return listed * N_SLOTS + slot


def sacrifice_rank(hp_left: Num, slot: Num) -> Num:
    """Which intact part the Medic's cost destroys, lowest rank first ("a healthy part is
    destroyed instead"; ASSUMPTIONS.md, Medic): the fewest HP left, ties to the last slot
    (SLOTS order)."""
    return hp_left * N_SLOTS + (N_SLOTS - 1 - slot)


def redirect_rank(hp_left: Num, position: Num) -> Num:
    """Which intact part takes the Tactician's redirected attacks, lowest rank first
    ("Redirect all this round's damage to one part"; ASSUMPTIONS.md, Tactician): the
    most HP left, ties to the earliest ``position`` in the kaiju's priority order."""
    return position - hp_left * N_SLOTS
