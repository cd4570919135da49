"""Finished mechs as the Battle reads them (:class:`Dealt`), and finished mechs dealt from
a deck for the Battle-only study (000 Assembly, Battle/rebuild).

A whole game's locked mechs become a :class:`Dealt` too (``locked_mech.dealt``), so the
Battle of both studies is compiled alike.

The Battle-only study does not play Assembly's turns; :func:`deal` deals the mech
Assembly would lock, as a shuffled deck offers it, and leaves the choices out:

- the lesson: "draw the top Body card of the draw pile, note its Form as the lesson,
  then shuffle it back" (Assembly). The pile is shuffled again afterwards, so the lesson
  is the Form of a uniformly drawn body card, independent of the cards dealt below;
- each slot takes the top card of its Part-Type from the shuffled deck (Legs, Torso and
  Head from their piles, ``arm_1`` and ``arm_2`` the top two of the Arms pool), and each
  slot is independently left a gap with probability ``gap_percent`` / 100 ("a late,
  sloppy game may leave the mech with gaps"). A gap's card is still taken off its pile;
- the spares a rebuild takes, in order, are the next ``params.spares_per_part`` cards of
  each Part-Type's pile (DESIGN.md reading: "the top matching card of the draw pile
  (Arms: the market)"); a pile too short gives fewer;
- the flipped Traits: the kaiju's ``countdown`` Traits drawn without replacement from
  the Trait deck (``catalog.traits``), in flip order (fewer if the deck is smaller).

Each Part-Type's pile is shuffled once per game: NumPy draws a uniform random
permutation of every game's pile at once (the ``argsort`` of uniform keys), so a batch of
games is a few array operations. ``game.reference.battles.compile_all`` compiles each
game's Battle in Python (``battle.compile_battle``: what the reference engine plays, and
the oracle); ``game.vector.battles.compile_games`` compiles the whole batch as arrays
into the same numbers, for the vector engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sims.labpartners.catalog import PARTS, Card, Catalog, Deck

SLOT_PILES = (0, 1, 2, 3, 3)  # SLOTS -> index into PARTS (both Arms from the Arms pool)
SLOT_DEPTH = (0, 0, 0, 0, 1)  # which card of its pile a slot takes (arm_2: the second)
SLOTS_OF = (1, 1, 1, 2)  # cards each Part-Type's slots take before its spares


@dataclass(frozen=True)
class Dealt:
    """A batch of dealt games from one deck; card numbers index ``cards`` (-1: none)."""

    deck: str
    cards: tuple[Card, ...]  # the deck's cards, in its file order
    slots: np.ndarray  # int16[G, 5] the locked mech in SLOTS order, -1 for a gap
    lesson: np.ndarray  # int16[G] index into ``forms``
    forms: tuple[str, ...]
    spares: np.ndarray  # int16[G, 4, spares_per_part] per Part-Type in PARTS order, -1 none
    traits: np.ndarray  # int16[G, T] index into ``trait_ids`` in flip order, -1 padded
    trait_ids: tuple[str, ...]

    @property
    def games(self) -> int:
        return len(self.lesson)

    def mech(self, i: int) -> tuple[Card | None, ...]:
        return tuple(None if k < 0 else self.cards[k] for k in self.slots[i])

    def slot_ids(self, i: int) -> tuple[str | None, ...]:
        return tuple(None if c is None else c.id for c in self.mech(i))

    def lesson_of(self, i: int) -> str:
        return self.forms[self.lesson[i]]

    def spare_cards(self, i: int) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(self.cards[k] for k in pile if k >= 0) for pile in self.spares[i])

    def trait_list(self, i: int) -> tuple[str, ...]:
        return tuple(self.trait_ids[k] for k in self.traits[i] if k >= 0)


def _top(rng: np.random.Generator, games: int, pile: int, take: int) -> np.ndarray:
    """The first ``take`` positions of a uniform random permutation of ``pile`` cards,
    for every game (int[G, min(take, pile)])."""
    if pile == 0 or take == 0:
        return np.zeros((games, 0), np.int64)
    return np.argsort(rng.random((games, pile)), axis=1)[:, :take]


def deal(
    catalog: Catalog,
    deck: str | Deck,
    countdowns: int | Sequence[int] | np.ndarray,
    rng: np.random.Generator,
    gap_percent: float = 10.0,
) -> Dealt:
    """Deal ``len(countdowns)`` finished mechs (a scalar: one game) from ``deck``; game
    ``i`` flips ``countdowns[i]`` Traits (its kaiju's countdown). Module docstring."""
    d = catalog.deck(deck) if isinstance(deck, str) else deck
    if not 0 <= gap_percent <= 100:
        raise ValueError(f"gap_percent must be in 0..100, got {gap_percent}")
    counts = np.atleast_1d(np.asarray(countdowns, np.int64))
    games = len(counts)
    cards = d.cards
    forms = tuple(catalog.forms)
    spares = catalog.params.spares_per_part
    # Assembly: the lesson is the Form of the top card of the shuffled body pile
    body = np.array([i for i, c in enumerate(cards) if c.is_body], np.int64)
    if not len(body):
        raise ValueError(f"deck {d.id!r} has no body cards: there is no lesson card to draw")
    body_form = np.array([forms.index(cards[i].form) for i in body], np.int16)
    lesson = body_form[rng.integers(len(body), size=games)]
    # then every Part-Type's pile shuffled: the slots, then the spares, off its top
    slots = np.full((games, 5), -1, np.int16)
    spare = np.full((games, len(PARTS), spares), -1, np.int16)
    for t, part in enumerate(PARTS):
        pile = np.array([i for i, c in enumerate(cards) if c.part == part], np.int64)
        top = _top(rng, games, len(pile), SLOTS_OF[t] + spares)
        drawn = pile[top] if top.size else top
        for s, (p_, depth) in enumerate(zip(SLOT_PILES, SLOT_DEPTH, strict=True)):
            if p_ == t and depth < drawn.shape[1]:
                slots[:, s] = drawn[:, depth]
        rest = drawn[:, SLOTS_OF[t] :]
        spare[:, t, : rest.shape[1]] = rest
    gaps = rng.random((games, 5)) < gap_percent / 100
    slots[gaps] = -1
    # the countdown: Traits flipped without replacement, in flip order
    trait_ids = tuple(catalog.traits)
    most = int(min(counts.max(initial=0), len(trait_ids)))
    flips = _top(rng, games, len(trait_ids), most).astype(np.int16)
    flips[np.arange(most)[None, :] >= counts[:, None]] = -1
    return Dealt(d.id, cards, slots, lesson.astype(np.int16), forms, spare, flips, trait_ids)


def trait_lists(d: Dealt) -> np.ndarray:
    """Each game's flipped Trait ids in flip order, comma-separated (one join per
    distinct flip sequence)."""
    if not d.traits.shape[1]:
        return np.full(d.games, "", object)
    # each flip sequence as one number (base: the Trait deck's size + 1; -1 reads 0)
    # when that fits in int64, else the rows themselves
    base, flips = len(d.trait_ids) + 1, d.traits.shape[1]
    if flips * np.log2(base) < 62:
        key = ((d.traits.astype(np.int64) + 1) * base ** np.arange(flips)).sum(1)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(d.traits, axis=0, return_index=True, return_inverse=True)
    text = np.array(
        [",".join(d.trait_ids[k] for k in d.traits[i] if k >= 0) for i in first.tolist()], object
    )
    return text[inverse.reshape(-1)]
