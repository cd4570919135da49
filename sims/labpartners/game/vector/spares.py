"""The spares a rebuild takes, per Part-Type, when the vectorized Assembly locks a batch
of mechs (000 Assembly: "The mech locks as-is"; Battle/rebuild): as
``game.reference.assembly.spares``, game by game.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.labpartners.catalog import PARTS
from sims.labpartners.game.vector.cards import DT, Cards

ARMS = PARTS.index("arms")


def _window(pile: np.ndarray, start: np.ndarray, rows: int) -> np.ndarray:
    """[rows, G]: each game's pile from row ``start[g]`` on (-1 past its end)."""
    j = np.arange(rows)[:, None]
    at = np.minimum(start + j, len(pile) - 1)
    return np.take(pile.reshape(-1), at * pile.shape[1] + np.arange(pile.shape[1]))


def _firsts(
    cards: Cards, line: np.ndarray, types: Sequence[int], per: int
) -> tuple[np.ndarray, np.ndarray]:
    """The first ``per`` cards of each Part-Type in ``types`` down each game's ``line``
    [L, G] (int64[G, len(types), per], -1 none) and how many there are ([types, G])."""
    G = line.shape[1]
    out = np.full((G, len(types), per), -1, np.int64)
    found = np.zeros((len(types), G), np.int64)
    part = cards.part(cards.of(line))
    for i, t in enumerate(types):
        mine = part == t
        nth = np.cumsum(mine, axis=0, dtype=DT)
        found[i] = nth[-1] if len(line) else 0
        nth *= mine  # 1 at its first card, 2 at the second ...
        for q in range(per):
            out[:, i, q] = ((line + 1) * (nth == q + 1)).max(axis=0, initial=0) - 1
    return out, found


def spares(
    cards: Cards,
    per: int,
    hands: list[np.ndarray],
    body: np.ndarray,
    top: np.ndarray,
    market: np.ndarray,
    arms: np.ndarray,
    apos: np.ndarray,
) -> np.ndarray:
    """int64[G, 4, per]: each Part-Type's spares: the hands' cards of it (seat order, hand
    order) then the pile's from the top; Arms: the market then the pool from the top.

    The piles are read through a window of a few cards past the top; only the games the
    window leaves short read the rest of their pile."""
    G = len(top)
    out = np.full((G, len(PARTS), per), -1, np.int64)
    if per == 0:
        return out
    window = 8 * per
    for types, head, pile, start in (
        ((0, 1, 2), np.concatenate(hands), body, top),
        ((ARMS,), market, arms, apos),
    ):
        rest = len(pile) - 1
        line = np.concatenate([head, _window(pile, start, min(window, rest))])
        got, found = _firsts(cards, line, types, per)
        short = ((found < per) & (start + window < rest)).any(axis=0)
        if short.any():  # read these games' whole piles
            g = np.flatnonzero(short)
            line = np.concatenate([head[:, g], _window(pile[:, g], start[g], rest)])
            got[g] = _firsts(cards, line, types, per)[0]
        out[:, list(types)] = got
    return out
