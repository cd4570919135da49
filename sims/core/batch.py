"""Batch helpers for vectorized engines; no game knowledge.

A vectorized engine plays N independent battles at once: its state is arrays whose first
axis is the battle, and each step works on the rows (battles) where it applies, given as
an index array. This module holds what such an engine needs whatever the game:

- masked gathers: :func:`keep` (the rows of several arrays where a mask holds) and
  :class:`Grid` (an [N, M, ...] array read and written by (row, column[, slot]) index
  arrays through flat indices);
- counting dice: :class:`Dice` draws blocks of dice from one ``numpy.random.Generator``
  passed in, one row per battle, and counts what it draws (a benchmark's random-number
  floor); :func:`highest_of` keeps the highest of each row's first dice;
- their scripted twin for hand-traced tests: :class:`Script` reads faces from a list of
  (sides, face) pairs and refuses a wrong die, a face off the die or a read past the
  end; :class:`ScriptedDice` is :class:`Dice` reading a script, for a batch of one row;
  :class:`RecordingDice` writes down every face a Generator gave as such a script (a
  reference engine's game replayed into the vector engine die for die).

Faces are int16 (dice of up to 32767 sides, sums to match).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

FACE = np.int16  # dtype of the faces and sums the dice return


def keep(mask: np.ndarray, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows of each array where ``mask`` holds. Gathering by index is several times
    faster than boolean indexing when the mask is irregular, as battle masks are."""
    rows = np.flatnonzero(mask)
    return tuple(a.take(rows) for a in arrays)


class Grid:
    """An array shaped [N, M, ...] read and written as ``g[ix, m]`` or ``g[ix, m, k]``
    through flat indices: NumPy gathers on one flat index are several times faster than
    on a tuple of index arrays, and a vectorized engine is mostly such gathers. Anything
    else (slices, whole rows) goes to the array itself, ``g.a``."""

    __slots__ = ("a", "flat", "rows", "M", "K")

    def __init__(self, a: np.ndarray) -> None:
        self.a = a
        self.flat = a.reshape(-1)
        self.M = a.shape[1]
        self.K = a.shape[2] if a.ndim == 3 else 1
        self.rows = a.reshape(-1, self.K)

    def _flat(self, key):
        if type(key) is tuple and len(key) >= 2 and not any(type(k) is slice for k in key):
            if len(key) == 2:
                return key[0] * self.M + key[1], self.K > 1
            return (key[0] * self.M + key[1]) * self.K + key[2], False
        return None, False

    def __getitem__(self, key):
        idx, whole_rows = self._flat(key)
        if idx is None:
            return self.a[key]
        return self.rows.take(idx, axis=0) if whole_rows else self.flat.take(idx)

    def __setitem__(self, key, value) -> None:
        idx, whole_rows = self._flat(key)
        if idx is None:
            self.a[key] = value
        elif whole_rows:
            self.rows[idx] = value
        else:
            self.flat[idx] = value


def highest_of(faces: Any, count: Any) -> np.ndarray:
    """The highest of the first ``count`` faces of each row, 0 where ``count`` is 0:
    ``faces`` [..., k] with ``count`` [...] (an int with one row of k faces)."""
    faces = np.asarray(faces)
    used = np.arange(faces.shape[-1]) < np.asarray(count)[..., None]
    return np.max(faces * used, axis=-1, initial=0)


class Dice:
    """Blocks of dice from one Generator, one row per battle; ``drawn`` counts the
    numbers drawn and ``blocks`` the size of each draw."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.drawn = 0
        self.blocks: list[int] = []  # sizes of the draws, for the benchmark's floor

    def roll(self, sides, n: int) -> np.ndarray:
        """n dice, one a row; ``sides`` an int or an array of n side counts."""
        self.drawn += n
        self.blocks.append(n)
        return self.rng.integers(1, np.asarray(sides) + 1, size=n, dtype=FACE)

    def faces(self, count, sides) -> np.ndarray:
        """int16[n, k], k = max(count) dice per row (row i uses its first ``count[i]``);
        ``sides`` an int or an array of n; [n, 0] and no draw when no row rolls."""
        count = np.asarray(count)
        n = len(count)
        k = int(count.max(initial=0))
        if not k:
            return np.zeros((n, 0), FACE)
        self.drawn += n * k
        self.blocks.append(n * k)
        if np.ndim(sides):
            return self.rng.integers(1, np.asarray(sides)[:, None] + 1, size=(n, k), dtype=FACE)
        return self.rng.integers(1, sides + 1, size=(n, k), dtype=FACE)

    def sum(self, count, sides, bonus) -> np.ndarray:
        """Per row, the sum of ``count`` dice of ``sides`` sides plus ``bonus``."""
        count = np.asarray(count)
        n = len(count)
        total = np.asarray(bonus, dtype=FACE).copy() if np.ndim(bonus) else np.full(n, bonus, FACE)
        faces = self.faces(count, sides)
        k = faces.shape[1]
        if k:
            total += (faces * (np.arange(k) < count[:, None])).sum(axis=1, dtype=FACE)
        return total

    def highest(self, count, sides) -> np.ndarray:
        """Per row, the highest of ``count`` dice of ``sides`` sides (0 where count is 0)."""
        return highest_of(self.faces(count, sides), count)


class Script:
    """Faces read one die at a time from a script of (sides, face) pairs, for hand-traced
    tests: a read of the wrong die, a face off the die or a read past the end is an
    AssertionError naming the roll. ``used`` counts the faces read."""

    def __init__(self, script: Iterable[tuple[int, int]]) -> None:
        self.script = list(script)
        self.used = 0

    def face(self, sides: int) -> int:
        if self.used >= len(self.script):
            raise AssertionError(f"script exhausted at roll {self.used + 1} (a d{sides})")
        want, face = self.script[self.used]
        if want != sides:
            raise AssertionError(
                f"roll {self.used + 1}: engine rolled a d{sides}, script has a d{want}"
            )
        if not 1 <= face <= sides:
            raise AssertionError(f"roll {self.used + 1}: face {face} is off a d{sides}")
        self.used += 1
        return face


class ScriptedDice(Script, Dice):
    """:class:`Dice` for a batch of ONE battle, its faces read from a :class:`Script`:
    each draw asks for at most one row (an AssertionError otherwise)."""

    def __init__(self, script: Iterable[tuple[int, int]]) -> None:
        Dice.__init__(self, np.random.default_rng(0))  # never drawn from
        Script.__init__(self, script)

    def _rows(self, n: int) -> int:
        if n > 1:
            raise AssertionError(f"scripted dice play one battle; {n} rows asked for")
        return n

    def _face(self, sides: int) -> int:
        self.drawn += 1
        return self.face(sides)

    def roll(self, sides, n: int) -> np.ndarray:
        sides = np.broadcast_to(np.asarray(sides), (self._rows(n),))
        return np.array([self._face(int(k)) for k in sides], FACE)

    def faces(self, count, sides) -> np.ndarray:
        count = np.asarray(count)
        n = self._rows(len(count))
        k = int(count.max(initial=0))
        sides = np.broadcast_to(np.asarray(sides), (n,))
        return np.array(
            [[self._face(int(sides[i])) for _ in range(k)] for i in range(n)], FACE
        ).reshape(n, k)


class RecordingDice(Dice):
    """:class:`Dice` from a Generator that write down every face drawn, in order, as a
    :class:`Script`'s (sides, face) pairs (``script``): play a game with it, then replay
    the script through :class:`ScriptedDice` into another engine."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.script: list[tuple[int, int]] = []

    def roll(self, sides, n: int) -> np.ndarray:
        faces = super().roll(sides, n)
        self.script += zip(
            np.broadcast_to(np.asarray(sides), (n,)).tolist(), faces.tolist(), strict=True
        )
        return faces

    def faces(self, count, sides) -> np.ndarray:
        faces = super().faces(count, sides)
        rows = np.broadcast_to(np.asarray(sides), (faces.shape[0],)).tolist()
        self.script += [
            (int(s), int(f)) for s, row in zip(rows, faces.tolist(), strict=True) for f in row
        ]
        return faces
