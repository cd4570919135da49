"""The mech as Assembly locks it, for a batch of whole games (000 Assembly: "The mech
locks as-is - any empty slot is a gap"): what both Assembly engines return
(``game.reference.assembly.play`` and ``game.vector.assembly.play``) and the Battle
compiles.

Card numbers are full-spread indices (``catalog.cards`` order, as
``random_setup.Shuffle``'s keys), -1 for none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from sims.labpartners.catalog import Catalog
from sims.labpartners.game.dealt_mechs import Dealt
from sims.labpartners.game.random_setup import Shuffle
from sims.labpartners.params import MODES


@dataclass(frozen=True)
class Locked:
    """G games' locked mechs and what Assembly leaves for the Battle."""

    deck: str
    slots: np.ndarray  # int64[G, 5] the card in each slot (SLOTS order), -1 a gap
    lesson: np.ndarray  # int64[G] the lesson Form (index into catalog.forms)
    flips: np.ndarray  # int64[G] Traits flipped (applied: Shuffle.traits[i, :flips[i]])
    rounds: np.ndarray  # int64[G] Assembly rounds played (fewer than the countdown: stopped)
    body_seen: np.ndarray  # int64[G] body cards that left the draw pile
    spares: np.ndarray  # int64[G, 4, spares_per_part] a rebuild's cards per Part-Type
    spent: np.ndarray  # bool[G, seats] the seat's Specialty was spent in Assembly
    battle_policy: np.ndarray  # int64[G] index into catalog.policies (the group's Battle)

    @property
    def games(self) -> int:
        return len(self.lesson)

    def equals(self, other: Locked) -> bool:
        """Field by field, exactly (the two Assembly engines must agree game by game)."""
        return all(
            np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self)
        )


def check_request(
    catalog: Catalog,
    shuffle: Shuffle,
    kaiju: Sequence[str],
    seats: Sequence[str],
    mode: str,
    battle_policy: str,
) -> None:
    """What both Assembly engines refuse, in one line: a kaiju per game, a known mode,
    1 to 5 seats of known players, a known Battle policy."""
    if len(kaiju) != shuffle.games:
        raise ValueError(f"{len(kaiju)} kaiju for {shuffle.games} games")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
    most = min(shuffle.specialties.shape[1], shuffle.studies.shape[1])
    if not 1 <= len(seats) <= most:
        raise ValueError(f"{len(seats)} seats: Assembly seats 1..{most} players")
    for s in seats:
        if s not in catalog.players:
            raise KeyError(f"unknown player {s!r} (known: {', '.join(catalog.players)})")
    if battle_policy not in catalog.policies:
        raise KeyError(f"unknown policy {battle_policy!r}")


def dealt(catalog: Catalog, locked: Locked, shuffle: Shuffle) -> Dealt:
    """The locked mechs as :class:`dealt_mechs.Dealt` (cards numbered over the full
    spread), so the Battle-only study's compile (``game.vector.battles.compile_games``,
    ``game.reference.battles.compile_game``) builds their Battles: the flipped Traits are
    the first ``flips`` of each game's Trait order."""
    traits = shuffle.traits.astype(np.int16).copy()
    traits[np.arange(traits.shape[1])[None, :] >= locked.flips[:, None]] = -1
    return Dealt(
        deck=locked.deck,
        cards=tuple(catalog.cards.values()),
        slots=locked.slots.astype(np.int16),
        lesson=locked.lesson.astype(np.int16),
        forms=tuple(catalog.forms),
        spares=locked.spares.astype(np.int16),
        traits=traits,
        trait_ids=tuple(catalog.traits),
    )
