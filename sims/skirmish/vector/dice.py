"""Where the vectorized engine's dice come from: blocks drawn from one Generator (and
counted), or a script for one battle in tests."""

from __future__ import annotations

import numpy as np

from sims.skirmish import rules
from sims.skirmish.vector.state import I16


class Dice:
    """Blocks of dice from one Generator; ``drawn`` counts the numbers drawn."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.drawn = 0
        self.blocks: list[int] = []  # sizes of the draws, for the benchmark's floor

    def roll(self, sides, n: int) -> np.ndarray:
        """n dice; ``sides`` an int or an array of n side counts."""
        self.drawn += n
        self.blocks.append(n)
        return self.rng.integers(1, np.asarray(sides) + 1, size=n, dtype=I16)

    def sum(self, count, sides, bonus) -> np.ndarray:
        """Per row, the sum of ``count`` dice of ``sides`` sides plus ``bonus``."""
        count = np.asarray(count)
        n = len(count)
        k = int(count.max(initial=0))
        total = np.asarray(bonus, dtype=I16).copy() if np.ndim(bonus) else np.full(n, bonus, I16)
        if k:
            self.drawn += n * k
            self.blocks.append(n * k)
            faces = (
                self.rng.integers(1, np.asarray(sides)[:, None] + 1, size=(n, k), dtype=I16)
                if np.ndim(sides)
                else self.rng.integers(1, sides + 1, size=(n, k), dtype=I16)
            )
            total += (faces * (np.arange(k) < count[:, None])).sum(axis=1, dtype=I16)
        return total

    def modifier_faces(self, count: np.ndarray) -> np.ndarray:
        """F3 modifier dice: int16[n, k], k = max(count) d6 per row (row i uses its first
        ``count[i]``, ``rules.highest_kept``); [n, 0] and no draw when no row rolls."""
        k = int(count.max(initial=0))
        if not k:
            return np.zeros((len(count), 0), I16)
        self.drawn += len(count) * k
        self.blocks.append(len(count) * k)
        return self.rng.integers(1, rules.MODIFIER_DIE + 1, size=(len(count), k), dtype=I16)

    def highest(self, count: np.ndarray) -> np.ndarray:
        """Per row, the highest of ``count`` d6 (0 where count is 0)."""
        return rules.highest_kept(self.modifier_faces(count), count)

    def expr(self, expr: str, n: int) -> np.ndarray:
        """n rolls of a dice parameter of rules.toml (NdS+C, e.g. ``1d3``, ``2d6``): one
        block of n dice for a single die, else :meth:`sum`."""
        count, sides, bonus = rules.simple_dice(expr)
        if count == 1 and bonus == 0:
            return self.roll(sides, n)
        return self.sum(np.full(n, count), sides, bonus)


class ScriptedDice(Dice):
    """Dice for a batch of ONE battle read from a script of (sides, face) pairs, for
    hand-traced situations in tests (the twin of ``reference.ScriptedDice``). Each
    draw asks for at most one row (one battle); a draw of the wrong die, a face off the
    die, or a draw past the end of the script is an AssertionError naming the roll.

    The draws of one battle come in the reference engine's order, with one difference:
    every attack here draws its cover d100 first, melee attacks and strikes included
    (they then ignore it), where the reference draws it for ranged attacks only."""

    def __init__(self, script) -> None:
        super().__init__(np.random.default_rng(0))  # never drawn from
        self.script = list(script)
        self.used = 0

    def _face(self, sides: int) -> int:
        if self.used >= len(self.script):
            raise AssertionError(f"script exhausted at roll {self.used + 1} (a d{sides})")
        want, face = self.script[self.used]
        if want != sides:
            raise AssertionError(f"roll {self.used + 1}: engine rolled a d{sides}, "
                                 f"script has a d{want}")  # fmt: skip
        if not 1 <= face <= sides:
            raise AssertionError(f"roll {self.used + 1}: face {face} is off a d{sides}")
        self.used += 1
        self.drawn += 1
        return face

    def _rows(self, n: int) -> int:
        if n > 1:
            raise AssertionError(f"scripted dice play one battle; {n} rows asked for")
        return n

    def roll(self, sides, n: int) -> np.ndarray:
        sides = np.broadcast_to(np.asarray(sides), (self._rows(n),))
        return np.array([self._face(int(k)) for k in sides], I16)

    def sum(self, count, sides, bonus) -> np.ndarray:
        count = np.asarray(count)
        n = self._rows(len(count))
        sides = np.broadcast_to(np.asarray(sides), (n,))
        bonus = np.broadcast_to(np.asarray(bonus), (n,))
        return np.array([sum(self._face(int(sides[i])) for _ in range(int(count[i])))
                         + int(bonus[i]) for i in range(n)], I16)  # fmt: skip

    def modifier_faces(self, count: np.ndarray) -> np.ndarray:
        count = np.asarray(count)
        n = self._rows(len(count))
        k = int(count.max(initial=0))
        return np.array([[self._face(rules.MODIFIER_DIE) for _ in range(k)]
                         for _ in range(n)], I16).reshape(n, k)  # fmt: skip

