"""Mech Lab Partners exact draw odds: what a shuffled deck can offer the table.

The alpha deck is a reduced subset of the full spread, and the rulebook warns that a Type or
Form "you can't find" may be the alpha deck at work rather than the design. These tables put a
number on that: how soon a Form or Type shows up in the body pile, how often the lesson Form
can take at all, and how often the Arms pool offers a Power-tier combo.

Every probability is a ``Fraction`` computed with ``math.comb`` (hypergeometric, draws without
replacement); no float enters the computation, so tables compare exactly across decks.

Cards are any objects with ``id``, ``part``, ``form``, ``type`` and ``power`` attributes (the
catalog's ``Card``); nothing here imports the catalog, so the maths is testable on hand-built
decks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Protocol

BODY_PARTS = ("legs", "torso", "head")  # the body pile; one slot each in the mech
ARMS = "arms"
PARTS = (*BODY_PARTS, ARMS)
ARM_SLOTS = 2
LESSON_THRESHOLD = 3  # "3 or more parts of the lesson Form" and the lesson takes
ANY_FORM = "any"


class CardLike(Protocol):
    """What the draw odds read from a card (the catalog's ``Card`` satisfies it)."""

    @property
    def id(self) -> str: ...
    @property
    def part(self) -> str: ...
    @property
    def form(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def power(self) -> int: ...


def _checked(cards: Iterable[CardLike]) -> list[CardLike]:
    """The cards, refusing an unknown Part-Type: such a card would silently fall out of both
    piles and every table would describe a smaller deck than the one printed."""
    cards = list(cards)
    for card in cards:
        if card.part not in PARTS:
            raise ValueError(f"card {card.id!r}: unknown part {card.part!r}, expected {PARTS}")
    return cards


def body_pile(cards: Iterable[CardLike]) -> list[CardLike]:
    """The Legs, Torso and Head cards: the draw pile players refill hands from."""
    return [c for c in _checked(cards) if c.part in BODY_PARTS]


def arms_pile(cards: Iterable[CardLike]) -> list[CardLike]:
    """The Arms cards: the separate pool that feeds the Arms market."""
    return [c for c in _checked(cards) if c.part == ARMS]


def p_at_least_one(pile: int, marked: int, seen: int) -> Fraction:
    """P(at least one of ``marked`` cards among the first ``seen`` of a shuffled ``pile``):
    1 - C(pile - marked, seen) / C(pile, seen), exact. Seeing more cards than there are
    unmarked ones makes it certain (the comb is 0)."""
    if not 0 <= marked <= pile:
        raise ValueError(f"marked must be in 0..pile, got marked={marked}, pile={pile}")
    if not 0 <= seen <= pile:
        raise ValueError(f"seen must be in 0..pile, got seen={seen}, pile={pile}")
    return 1 - Fraction(math.comb(pile - marked, seen), math.comb(pile, seen))


# ---- draws: how soon a Form or Type shows up in the body pile --------------------------------


def draws_rows(
    decks: Mapping[str, Sequence[CardLike]], forms: Sequence[str], types: Sequence[str]
) -> list[dict]:
    """Per deck, attribute ("form" then "type"), value and cards_seen 1..body pile size:
    P(at least one body card of that value among the first ``cards_seen`` body cards).

    Every listed value gets a full series even when the deck holds none of it (all zeros):
    a value the alpha deck lacks is exactly what the table has to show, not hide. Arms are
    not counted; they come from their own pool."""
    rows = []
    for deck, cards in decks.items():
        body = body_pile(cards)
        for attribute, values in (("form", forms), ("type", types)):
            counts = Counter(getattr(c, attribute) for c in body)
            for value in values:
                for seen in range(1, len(body) + 1):
                    rows.append(
                        {
                            "deck": deck,
                            "attribute": attribute,
                            "value": value,
                            "cards_seen": seen,
                            "p_at_least_one": p_at_least_one(len(body), counts[value], seen),
                        }
                    )
    return rows


# ---- lesson: which Form is noted, and can it take at all --------------------------------------


def lesson_form_odds(deck_cards: Iterable[CardLike], forms: Sequence[str]) -> dict[str, Fraction]:
    """P(lesson Form = form) for each listed form: the lesson is the top card of the freshly
    shuffled body pile, so it is that form's share of the body pile.

    A body card of a Form not in ``forms`` is refused: the lesson could be that Form, and the
    odds over ``forms`` would no longer sum to 1."""
    body = body_pile(deck_cards)
    if not body:
        raise ValueError("the deck has no body cards: there is no lesson card to draw")
    counts = Counter(c.form for c in body)
    unlisted = sorted(set(counts) - set(forms))
    if unlisted:
        raise ValueError(f"body cards of forms {unlisted} are not among forms {list(forms)}")
    return {form: Fraction(counts[form], len(body)) for form in forms}


def form_slots(deck_cards: Iterable[CardLike], form: str) -> int:
    """How many of the mech's five slots cards of ``form`` in the deck could fill at once:
    one each for Legs, Torso and Head if the deck has one, and up to two Arms."""
    cards = [c for c in _checked(deck_cards) if c.form == form]
    body = sum(1 for part in BODY_PARTS if any(c.part == part for c in cards))
    arms = min(ARM_SLOTS, sum(1 for c in cards if c.part == ARMS))
    return body + arms


def can_take(deck_cards: Iterable[CardLike], form: str, threshold: int = LESSON_THRESHOLD) -> bool:
    """Whether the deck can ever build a mech where a lesson of ``form`` takes: ``threshold``
    parts of that Form in distinct slots. Three Beast Legs still fill one slot, so a Form
    found only in two body Part-Types and no Arms never takes, however many cards it has."""
    return form_slots(deck_cards, form) >= threshold


def lesson_rows(
    decks: Mapping[str, Sequence[CardLike]],
    forms: Sequence[str],
    threshold: int = LESSON_THRESHOLD,
) -> list[dict]:
    """Per deck and form: p_lesson (P(that Form is the lesson)), can_take (1 if the deck can
    field ``threshold`` parts of it in distinct slots, else 0) and p_lesson_can_take (their
    product), so a Form the deck cannot complete shows as lesson odds that are dead weight.

    Each deck then gets one row with form "any": p_lesson = 1 (some Form is always the
    lesson), p_lesson_can_take = P(the noted lesson is one the deck can take), and can_take =
    the COUNT of forms that can take (not a 0/1 flag: a yes/no over all forms means nothing)."""
    rows = []
    for deck, cards in decks.items():
        odds = lesson_form_odds(cards, forms)
        total = Fraction(0)
        takers = 0
        for form in forms:
            takes = int(can_take(cards, form, threshold))
            takers += takes
            total += odds[form] * takes
            rows.append(
                {
                    "deck": deck,
                    "form": form,
                    "p_lesson": odds[form],
                    "can_take": takes,
                    "p_lesson_can_take": odds[form] * takes,
                }
            )
        rows.append(
            {
                "deck": deck,
                "form": ANY_FORM,
                "p_lesson": Fraction(1),
                "can_take": takers,
                "p_lesson_can_take": total,
            }
        )
    return rows


# ---- combo: do the Arms seen hold a Power-tier pair ------------------------------------------


def p_no_shared_tier(counts: Sequence[int], others: int, seen: int) -> Fraction:
    """P(no two of ``seen`` cards drawn without replacement share a tier), where tier i has
    ``counts[i]`` cards and ``others`` cards belong to no tier (they never pair).

    Multivariate hypergeometric: the ways to take at most one card of each tier, j tiered
    cards in all, are the elementary symmetric sum e_j(counts); the other seen - j cards come
    from ``others``."""
    pile = sum(counts) + others
    if not 0 <= seen <= pile:
        raise ValueError(f"seen must be in 0..{pile}, got {seen}")
    # e[j] = sum over j-subsets of tiers of the product of their counts
    e = [1] + [0] * len(counts)
    for n in counts:
        for j in range(len(counts), 0, -1):
            e[j] += e[j - 1] * n
    ways = sum(e[j] * math.comb(others, seen - j) for j in range(min(seen, len(counts)) + 1))
    return Fraction(ways, math.comb(pile, seen))


def combo_rows(
    decks: Mapping[str, Sequence[CardLike]], tiers: Sequence[int] = (1, 2, 3)
) -> list[dict]:
    """Per deck and arms_seen k = 1..Arms pile size: P(among k Arms drawn from the shuffled
    Arms pool, at least two share a Power tier), i.e. that a combo pair (+1 damage) is on
    offer. An Arm whose Power is not in ``tiers`` is drawn but never pairs."""
    if len(set(tiers)) != len(tiers):
        raise ValueError(f"tiers must be distinct, got {list(tiers)}")
    rows = []
    for deck, cards in decks.items():
        arms = arms_pile(cards)
        powers = Counter(c.power for c in arms)
        counts = [powers[t] for t in tiers]
        others = len(arms) - sum(counts)
        for seen in range(1, len(arms) + 1):
            rows.append(
                {
                    "deck": deck,
                    "arms_seen": seen,
                    "p_combo": 1 - p_no_shared_tier(counts, others, seen),
                }
            )
    return rows
