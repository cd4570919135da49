"""Mech Lab Partners policy: the choices a cadet makes in Assembly, written once for
both Assembly engines (000 Assembly, Independent Studies).

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
(``game/scoring.py``); the group's Battle policy is data compiled into the Battle
(``policies.toml``, ``battle.compile_battle``).
"""

from __future__ import annotations

from typing import Any

from sims.labpartners import rules
from sims.labpartners.catalog import STUDY_GOALS, Player

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
