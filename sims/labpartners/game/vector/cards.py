"""What the players look at in the vectorized Assembly (000 Assembly): the full spread's
cards packed one small int each (Form, Type, Part-Type, Power, skill bucket), read with
one lookup (index -1, no card, reads a blank whose fields match nothing); each seat's
Independent Study as codes; and the value a seat sees in cards of a batch of games
(``policy.card_value`` on arrays: one rule, one place).
"""

from __future__ import annotations

import numpy as np

from sims.labpartners import policy
from sims.labpartners.catalog import PARTS, Catalog, Player

DT = np.int16  # cards, counts and values all fit (values are at most a few hundred)


def _bits(n: int) -> int:
    """Bits for the values 0..n-1 whose all-ones pattern (the blank) is none of them."""
    return max(n.bit_length(), 1)


class Cards:
    """The full spread's attributes packed in one int16 per card (and the blank)."""

    def __init__(self, catalog: Catalog) -> None:
        forms, types = list(catalog.forms), list(catalog.types)
        cards = list(catalog.cards.values())
        widths = (
            _bits(len(forms)),
            _bits(len(types)),
            _bits(len(PARTS)),
            _bits(catalog.params.power_tiers + 1),
            1,
        )
        if sum(widths) > 15:
            raise ValueError("too many Forms, Types or Power tiers to pack a card in 15 bits")
        shifts = np.cumsum((0,) + widths[:-1])
        self.masks = tuple((1 << w) - 1 for w in widths)
        self.form_s, self.type_s, self.part_s, self.power_s, self.skill_s = map(int, shifts)
        self.forms = len(forms)
        packed = []
        for c in cards:
            part = PARTS.index(c.part)
            fields = (
                forms.index(c.form),
                types.index(c.type),
                part,
                c.power,
                int(policy.skill(part, c.form)),
            )
            packed.append(sum(int(v) << int(s) for v, s in zip(fields, shifts, strict=True)))
        self.attr = np.array(packed + [(1 << sum(widths)) - 1], DT)  # the blank: all ones

    def of(self, c: np.ndarray) -> np.ndarray:
        return np.take(self.attr, c)

    def form(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.form_s) & self.masks[0]

    def type(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.type_s) & self.masks[1]

    def part(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.part_s) & self.masks[2]

    def power(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.power_s) & self.masks[3]

    def skill(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.skill_s) & 1


_CARDS: dict[int, tuple[Catalog, Cards]] = {}


def cards_of(catalog: Catalog) -> Cards:
    """The catalog's :class:`Cards`, made once (the catalog is kept so its id stays its)."""
    got = _CARDS.get(id(catalog))
    if got is None or got[0] is not catalog:
        if len(_CARDS) > 16:
            _CARDS.clear()
        got = _CARDS[id(catalog)] = (catalog, Cards(catalog))
    return got[1]


class Seat:
    """One seat's policy and, per game, its Independent Study's goal and target."""

    def __init__(self, catalog: Catalog, player: Player, studies: np.ndarray) -> None:
        forms, types = list(catalog.forms), list(catalog.types)
        table = list(catalog.studies.values())
        goal = np.array([policy.GOAL[s.goal] for s in table], DT)
        # a target that is not a Form (Type) matches no card: -2 is no index, nor the blank
        tform = np.array(
            [forms.index(s.target) if s.goal == "form_count" else -2 for s in table], DT
        )
        ttype = np.array(
            [types.index(s.target) if s.goal == "type_count" else -2 for s in table], DT
        )
        self.player = player
        self.goal, self.tform, self.ttype = goal[studies], tform[studies], ttype[studies]


def card_values(
    cards: Cards,
    seat: Seat,
    a: np.ndarray,
    lesson: np.ndarray,
    revealed: np.ndarray,
    combo,
    body: bool,
) -> np.ndarray:
    """What the seat's player sees in the cards of attributes ``a`` [W, G]
    (policy.card_value): the lesson, revealed weaknesses of its Form and Type, the skill
    bucket (body) or Power and combo (Arms), and the player's own study."""
    p = seat.player
    form, type_ = cards.form(a), cards.type(a)
    lesson_ = (form == lesson).astype(DT)
    weak = ((revealed >> form) & 1) + ((revealed >> (type_ + cards.forms)) & 1)
    skill = cards.skill(a) if body else 0
    power = 0 if body else cards.power(a)
    study = 0
    if p.study:
        study = policy.study_progress(
            seat.goal,
            (form == seat.tform).astype(DT),
            (type_ == seat.ttype).astype(DT),
            power,
            lesson_,
            combo,
        )
    return policy.card_value(p, lesson_, weak, skill, power, combo, study)
