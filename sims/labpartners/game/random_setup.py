"""Every random draw of a batch of whole Lab Partners games, made before a deck is chosen
(000 Assembly; the study's common random numbers).

The designers' question compares decks on the same games: game i with the alpha deck and
game i with the full spread should share their kaiju, lesson roll, Trait order, seats'
studies and specialties, and as much of their shuffles as two decks can share. So a
game's randomness is drawn once, over the full spread, and each deck reads its part:

- a **key** per full-spread card: a deck's pile is its cards in key order (lowest on top).
  Every deck is a subset of the full spread (Appendix), so the alpha's shuffle is the full
  spread's shuffle with the other cards taken out, and two identical decks shuffle alike;
- the **lesson quantile** u: the lesson Form is the Form at position floor(u * B) of the
  deck's B body cards sorted by Form, which is distributed exactly as "the top Body card of
  the draw pile, ... then shuffle it back" and picks the same Form in two decks wherever
  their Form shares allow;
- the **Trait order** (the countdown's flips), each seat's **Independent Study** and
  **Specialty**: permutations of the catalog's, dealt without replacement.

Assembly is deterministic given a row of this (players play by their policies), so the
scalar and the vectorized Assembly play game i identically; the Battle's dice come from a
separate stream, the same for every deck.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sims.labpartners.catalog import Catalog, Deck


@dataclass(frozen=True)
class Shuffle:
    """The random draws of G games (rows), independent of the deck."""

    keys: np.ndarray  # float64[G, 150]: each full-spread card's place (catalog.cards order)
    lesson: np.ndarray  # float64[G] in [0, 1): the lesson card's quantile
    traits: np.ndarray  # int16[G, T]: a permutation of catalog.traits, in flip order
    studies: np.ndarray  # int16[G, S]: a permutation of catalog.studies; seat k holds [:, k]
    specialties: np.ndarray  # int16[G, 5]: a permutation of catalog.specialties, by seat

    @property
    def games(self) -> int:
        return len(self.lesson)

    def rows(self, index: np.ndarray | slice) -> Shuffle:
        """The same draws for a subset of the games."""
        return Shuffle(
            self.keys[index],
            self.lesson[index],
            self.traits[index],
            self.studies[index],
            self.specialties[index],
        )


def _permutations(rng: np.random.Generator, games: int, n: int) -> np.ndarray:
    return np.argsort(rng.random((games, n)), axis=1).astype(np.int16)


def shuffle(catalog: Catalog, games: int, rng: np.random.Generator) -> Shuffle:
    """Draw the randomness of ``games`` whole games (module docstring), in a fixed order."""
    return Shuffle(
        keys=rng.random((games, len(catalog.cards))),
        lesson=rng.random(games),
        traits=_permutations(rng, games, len(catalog.traits)),
        studies=_permutations(rng, games, len(catalog.studies)),
        specialties=_permutations(rng, games, len(catalog.specialties)),
    )


def card_index(catalog: Catalog) -> dict[str, int]:
    """Full-spread card id -> its column in ``Shuffle.keys``."""
    return {cid: i for i, cid in enumerate(catalog.cards)}


def deck_cards(catalog: Catalog, deck: Deck, part: str | None = None) -> np.ndarray:
    """The deck's cards as full-spread indices (its file order), of one Part-Type or all
    (``part="body"``: Legs, Torso and Head)."""
    index = card_index(catalog)
    cards = [
        c for c in deck.cards if part is None or (c.is_body if part == "body" else c.part == part)
    ]
    return np.array([index[c.id] for c in cards], np.int64)


def pile(keys: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """int64[G, len(cards)]: each game's pile of ``cards`` (full-spread indices), top first:
    keys ascending, ties by position.

    Keys drawn by ``rng.random`` are multiples of 2**-53 in [0, 1): as 53-bit integers with
    the card's position in the low 8 bits they sort as integers (about twice as fast as an
    argsort of floats) into the same order. Any other keys take the argsort."""
    n = len(cards)
    if not n:
        return np.zeros((len(keys), 0), np.int64)
    k = np.take(keys, cards, axis=1)
    whole = k * 2.0**53
    if n < 256 and k.min() >= 0 and k.max() < 1 and (whole == np.floor(whole)).all():
        packed = (whole.astype(np.int64) << 8) | np.arange(n)
        packed.sort(axis=1)
        order = packed & 0xFF
    else:
        order = np.argsort(k, axis=1, kind="stable")
    return cards[order]


def lesson_form(catalog: Catalog, deck: Deck, lesson: np.ndarray) -> np.ndarray:
    """int64[G]: the lesson Form (index into ``catalog.forms``) of each game: the Form at
    quantile ``lesson`` of the deck's body cards sorted by Form."""
    forms = list(catalog.forms)
    body = np.sort([forms.index(c.form) for c in deck.body])
    if not len(body):
        raise ValueError(f"deck {deck.id!r} has no body cards: there is no lesson card to draw")
    return body[np.minimum((lesson * len(body)).astype(np.int64), len(body) - 1)]
