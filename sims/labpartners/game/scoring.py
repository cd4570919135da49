"""The grades of whole Mech Lab Partners games (000 Academy Grading Rubric, Independent
Studies): when a seat's Independent Study is complete after the Battle, a cadet's extra
credit and personal honors, each seat's GPA; and whether the lesson's Form was dealt or
seen, for the draw-odds check.

:func:`study_complete` and :func:`credits` take ints and arrays alike; :func:`score`
calls them on the whole batch.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from sims.labpartners import rules
from sims.labpartners.catalog import Catalog, Deck
from sims.labpartners.game.locked_mech import Locked
from sims.labpartners.game.random_setup import Shuffle, deck_cards, pile
from sims.labpartners.policy import GOAL, Num

WIN = rules.WIN  # 000 Battle: the result code of a won Battle
ARMS = (3, 4)  # the Arm slots' columns in SLOTS order


def study_complete(
    goal: Num,
    at_least: Num,
    form_count: Num,
    type_count: Num,
    power_total: Num,
    won: Num,
    parts_lost: Num,
    took: Num,
    gaps: Num,
    combo: Num,
    crits: Num,
) -> Num:
    """Whether an Independent Study is complete after the Battle (studies.toml goals):
    ``form_count`` / ``type_count`` are the locked mech's parts of the study's target."""
    return (
        ((goal == GOAL["form_count"]) & (form_count >= at_least))
        | ((goal == GOAL["type_count"]) & (type_count >= at_least))
        | ((goal == GOAL["power_total"]) & (power_total >= at_least))
        | ((goal == GOAL["win"]) & (won > 0))
        | ((goal == GOAL["win_intact"]) & (won > 0) & (parts_lost == 0))
        | ((goal == GOAL["lesson_took"]) & (took > 0))
        | ((goal == GOAL["no_gaps"]) & (gaps == 0))
        | ((goal == GOAL["combo"]) & (combo > 0))
        | ((goal == GOAL["crit"]) & (crits >= at_least))
    )


def credits(catalog: Any, took: Num, gaps: Num, parts_lost: Num, study_done: Num) -> Num:
    """A cadet's extra credit and personal honors (credits.toml, as floats): every group
    credit whose condition holds (the lesson took, no gaps in the locked mech, no part
    destroyed in Battle), and the personal one for a completed Independent Study."""
    holds = {
        "lesson_took": took > 0,
        "no_gaps": gaps == 0,
        "no_part_lost": parts_lost == 0,
        "study": study_done > 0,
    }
    return sum(float(Fraction(c.points)) * holds[c.when] for c in catalog.credits.values())


def _card_columns(catalog: Catalog) -> dict[str, np.ndarray]:
    """The full spread's cards as columns (catalog.cards order), a last row for a gap."""
    forms, types = list(catalog.forms), list(catalog.types)
    cards = list(catalog.cards.values())
    return {
        "form": np.array([forms.index(c.form) for c in cards] + [-1], np.int64),
        "type": np.array([types.index(c.type) for c in cards] + [-1], np.int64),
        "power": np.array([c.power for c in cards] + [0], np.int64),
    }


def _study_columns(catalog: Catalog) -> dict[str, np.ndarray]:
    """Every study (catalog.studies order) as codes: its goal, the Form or Type it
    counts (-1 when it counts neither) and its at_least."""
    forms, types = list(catalog.forms), list(catalog.types)
    studies = list(catalog.studies.values())
    return {
        "goal": np.array([GOAL[s.goal] for s in studies], np.int64),
        "form": np.array(
            [forms.index(s.target) if s.goal == "form_count" else -1 for s in studies], np.int64
        ),
        "type": np.array(
            [types.index(s.target) if s.goal == "type_count" else -1 for s in studies], np.int64
        ),
        "at_least": np.array([s.at_least for s in studies], np.int64),
    }


def body_forms(catalog: Catalog, deck: Deck, shuffle: Shuffle) -> np.ndarray:
    """int64[G, B]: the Form of each card of each game's body pile, top first."""
    return _card_columns(catalog)["form"][pile(shuffle.keys, deck_cards(catalog, deck, "body"))]


def lesson_among(forms: np.ndarray, lesson: np.ndarray, first: np.ndarray) -> np.ndarray:
    """bool[G]: a body card of the ``lesson`` Form is among the first ``first`` cards of
    each game's body pile (``forms``: :func:`body_forms`)."""
    top = np.arange(forms.shape[1])[None, :] < np.asarray(first)[:, None]
    return ((forms == lesson[:, None]) & top).any(1)


def lesson_seen(
    catalog: Catalog, deck: Deck, shuffle: Shuffle, locked: Locked, forms: np.ndarray | None = None
) -> np.ndarray:
    """bool[G]: the lesson Form is among the body cards that left the pile (hands,
    refills, Ace draws). How many left depends on the players' choices, which depend on
    the lesson, so this rate is descriptive; :func:`lesson_dealt` is the exact test."""
    forms = body_forms(catalog, deck, shuffle) if forms is None else forms
    return lesson_among(forms, locked.lesson, locked.body_seen)


def lesson_dealt(
    catalog: Catalog,
    deck: Deck,
    shuffle: Shuffle,
    locked: Locked,
    seats: int,
    forms: np.ndarray | None = None,
) -> np.ndarray:
    """bool[G]: the lesson Form is among the opening hands (the first ``hand_size`` x
    seats body cards, before any choice): exactly the hypergeometric draw odds of
    ``draws.csv`` at that many cards, the lesson Form drawn independently."""
    forms = body_forms(catalog, deck, shuffle) if forms is None else forms
    dealt = np.full(locked.games, catalog.params.hand_size * seats)
    return lesson_among(forms, locked.lesson, dealt)


def score(
    catalog: Catalog, shuffle: Shuffle, locked: Locked, seats: int, fought: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """Each seat's study (index into catalog.studies), whether it is complete after the
    Battle, and the seat's GPA: the group's grade GPA, the group credits that hold and
    the personal credit of a completed study (Academy Grading Rubric; credits.toml)."""
    cards, studies = _card_columns(catalog), _study_columns(catalog)
    slot = np.where(locked.slots >= 0, locked.slots, len(catalog.cards))  # a gap: last row
    form, type_, power = cards["form"][slot], cards["type"][slot], cards["power"][slot]
    present = locked.slots >= 0
    arms = power[:, ARMS]
    gaps = (~present).sum(1)
    combo = (locked.slots[:, ARMS] >= 0).all(1) & (arms[:, 0] == arms[:, 1])
    won = fought["result"] == WIN
    study = shuffle.studies[:, :seats].astype(np.int64)
    done = np.zeros(study.shape, bool)
    for k in range(seats):
        s = study[:, k]
        done[:, k] = study_complete(
            studies["goal"][s],
            studies["at_least"][s],
            (present & (form == studies["form"][s][:, None])).sum(1),
            (present & (type_ == studies["type"][s][:, None])).sum(1),
            arms.sum(1),
            won,
            fought["parts_lost"],
            fought["lesson_took"],
            gaps,
            combo,
            fought["crits"],
        )
    group = np.asarray(fought["gpa"], np.float64)[:, None]
    extra = credits(
        catalog,
        fought["lesson_took"][:, None],
        gaps[:, None],
        np.asarray(fought["parts_lost"])[:, None],
        done,
    )
    seat_gpa = np.broadcast_to(group + extra, done.shape).astype(np.float32)
    return {"study": study, "study_done": done, "seat_gpa": seat_gpa}
