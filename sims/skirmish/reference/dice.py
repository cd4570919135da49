"""Where the reference engine's dice come from: a Generator in play, a script in tests."""

from __future__ import annotations

import numpy as np

from sims.core.batch import Script


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


class ScriptedDice(Script, Dice):
    """Dice read from a script of (sides, face) pairs, for hand-traced battles: a roll of
    the wrong die, a face off the die, or a roll past the end, is an error naming where
    the script went (``sims.core.batch.Script``)."""

    def roll(self, sides: int) -> int:
        return self.face(sides)
