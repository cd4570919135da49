"""Where the reference engine's dice come from: a Generator in play, a script in tests."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


class Dice:
    """Where the engine's dice come from: ``roll(sides)`` is one die."""

    def roll(self, sides: int) -> int:
        raise NotImplementedError

    def rolls(self, count: int, sides: int) -> list[int]:
        return [self.roll(sides) for _ in range(count)]


class RandomDice(Dice):
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def roll(self, sides: int) -> int:
        return int(self.rng.integers(1, sides + 1))


class ScriptedDice(Dice):
    """Dice read from a script of (sides, face) pairs, for hand-traced battles: a roll of
    the wrong die, or a roll past the end, is an error naming where the script went."""

    def __init__(self, script: Iterable[tuple[int, int]]) -> None:
        self.script = list(script)
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used >= len(self.script):
            raise AssertionError(f"script exhausted at roll {self.used + 1} (a d{sides})")
        want, face = self.script[self.used]
        if want != sides:
            raise AssertionError(f"roll {self.used + 1}: engine rolled a d{sides}, "
                                 f"script has a d{want}")  # fmt: skip
        self.used += 1
        return face

