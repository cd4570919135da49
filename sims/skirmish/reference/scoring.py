"""The end of a battle (003 I4): Hull per side, points, and what decided it."""

from __future__ import annotations

import numpy as np

from sims.skirmish import rules
from sims.skirmish.battle import SIDE_A, SIDE_B
from sims.skirmish.reference.state import BattleResult, Reading


class Scoring(Reading):
    """The result of a battle from its end state."""

    kills: list[int]  # per side; the rest of the counts as BattleResult lists them
    crits: list[int]
    shots: list[int]
    hits: list[int]
    destroyed: list[list[int]]
    mount_hits: list[list[int]]
    mount_crits: list[list[int]]
    zones: list[int]
    zones_by_round: list[list[int]]

    cap_points: list[int] | None  # points at the round cap where sudden death followed

    def hull_points(self) -> tuple[list[float], list[int]]:
        """(Hull fraction, points) per side now (I4)."""
        hull = [self.hull(side) for side in (SIDE_A, SIDE_B)]
        points = [
            int(rules.points(k, z, self.p)) for k, z in zip(self.kills, self.zones, strict=True)
        ]
        return hull, points

    def result(self, rounds: int) -> BattleResult:
        """The battle's result after ``rounds`` rounds (I4: wipe, points, Hull, draw).
        After a sudden-death round the points are those at the round cap (the round
        decides by a wipe or by Hull)."""
        hull, points = self.hull_points()
        if self.cap_points is not None:
            points = self.cap_points
        winner, decided = rules.decide(-1 if self.winner is None else self.winner, *points, *hull)
        by_round = self.zones_by_round + [[0, 0]] * (self.p.round_cap - len(self.zones_by_round))
        return BattleResult(
            winner,
            rounds,
            decided,
            hull,
            self.kills,
            self.crits,
            self.shots,
            self.hits,
            self.destroyed,
            self.mount_hits,
            self.mount_crits,
            points,
            list(self.zones),
            by_round,
            [s.pos for s in self.mechs],
            [not s.alive for s in self.mechs],
        )

    def hull(self, side: int) -> float:
        """I4 tiebreak: current over maximum Durability across the fielded team."""
        mechs = [m for m in range(self.b.mechs) if self.side(m) == side]
        left = [d for m in mechs if self.mechs[m].alive for d in self.mechs[m].dur]
        full = int(self.b.durability[mechs].sum())
        return float(rules.hull_fraction(np.array(left, np.int64), full))
