"""The end of N battles (003 I4): Hull per side, points, and what decided each."""

from __future__ import annotations

import numpy as np

from sims.skirmish import rules
from sims.skirmish.battle import CORE
from sims.skirmish.vector.state import Reading


class Scoring(Reading):
    """The result arrays of N battles from their end state."""

    cap_points: np.ndarray | None  # [N, 2] points at the round cap where sudden death followed

    def hull_points(self) -> tuple[np.ndarray, np.ndarray]:
        """(Hull fraction [N, 2], points [N, 2]) now (I4)."""
        s, b = self.s, self.b
        per_mech = b.durability.reshape(self.S, self.M, 6).sum(axis=2)  # [S, M]
        max_total = np.stack([per_mech[:, self.side == k].sum(axis=1) for k in (0, 1)], 1).astype(
            float
        )  # float[S, 2]: each matchup's full Hull
        if self.scenario is not None:
            max_total = max_total[self.scenario]  # float[N, 2]
        alive = s.dur[:, :, CORE] > 0
        now = (np.maximum(s.dur.a, 0).sum(axis=2) * alive).astype(float)
        hull = np.stack([now[:, self.side == k].sum(axis=1) / max_total[:, k] for k in (0, 1)], 1)
        return hull, rules.points(s.kills.a, s.zones.a, self.p)  # [N, 2]; no zones on a track

    def result(self) -> dict[str, np.ndarray]:
        """Per battle: winner, rounds, what decided it, Hull and the counts (see State).
        After a sudden-death round the points are those at the round cap (I4: the round
        decides by a wipe or by Hull)."""
        s = self.s
        hull, points = self.hull_points()
        if self.cap_points is not None:
            points = np.where((s.rounds > self.p.round_cap)[:, None], self.cap_points, points)
        winner, decided = rules.decide(
            s.winner.astype(np.int64), points[:, 0], points[:, 1], hull[:, 0], hull[:, 1]
        )
        return {
            "winner": winner.astype(np.int8),
            "rounds": s.rounds.copy(),
            "decided": decided.astype(np.int8),
            "hull": hull,
            "kills": s.kills.a.copy(),
            "crits": s.crits.a.copy(),
            "shots": s.shots.a.copy(),
            "hits": s.hits.a.copy(),
            "destroyed": s.destroyed.a.copy(),
            "mount_hits": s.mount_hits.a.copy(),
            "mount_crits": s.mount_crits.a.copy(),
            "points": np.asarray(points, np.int16),
            "zones": s.zones.a.copy(),
            "zones_by_round": np.asarray(s.zones_by_round.a).copy(),
            "hexes": s.pos.a.copy(),
            "down": s.dur.a[:, :, CORE] <= 0,
        }
