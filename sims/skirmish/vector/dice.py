"""Where the vectorized engine's dice come from: the counting dice of
``sims.core.batch`` (blocks drawn from one Generator, or a script for one battle in
tests), with Skirmish's own draws: the modifier dice (F3) and the dice parameters of
``rules.toml``."""

from __future__ import annotations

import numpy as np

from sims.core import batch
from sims.skirmish import rules


class Dice(batch.Dice):
    """Blocks of dice from one Generator; ``drawn`` counts the numbers drawn."""

    def modifier_faces(self, count: np.ndarray) -> np.ndarray:
        """F3 modifier dice: int16[n, k], k = max(count) d6 per row (row i uses its first
        ``count[i]``, ``rules.highest_kept``); [n, 0] and no draw when no row rolls."""
        return self.faces(count, rules.MODIFIER_DIE)

    def expr(self, expr: str, n: int) -> np.ndarray:
        """n rolls of a dice parameter of rules.toml (NdS+C, e.g. ``1d3``, ``2d6``): one
        block of n dice for a single die, else :meth:`sum`."""
        count, sides, bonus = rules.simple_dice(expr)
        if count == 1 and bonus == 0:
            return self.roll(sides, n)
        return self.sum(np.full(n, count), sides, bonus)


class ScriptedDice(batch.ScriptedDice, Dice):
    """Dice for a batch of ONE battle read from a script of (sides, face) pairs, for
    hand-traced situations in tests (the twin of ``reference.ScriptedDice``). Each
    draw asks for at most one row (one battle); a draw of the wrong die, a face off the
    die, or a draw past the end of the script is an AssertionError naming the roll.

    The draws of one battle come in the reference engine's order, with one difference:
    every attack here draws its cover d100 first, melee attacks and strikes included
    (they then ignore it), where the reference draws it for ranged attacks only."""
