"""The game (003 I): initiative each round, sides alternating activations, the round cap."""

from __future__ import annotations

import numpy as np

from sims.skirmish import board as boards
from sims.skirmish.battle import SIDE_A, SIDE_B
from sims.skirmish.reference.state import BattleResult, Reading


class Turns(Reading):
    """Turn structure: who activates when."""

    zones: list[int]  # zone-rounds held per side
    zones_by_round: list[list[int]]

    def initiative(self) -> int:
        """I: each side rolls ``initiative_dice`` (2d6) + its highest living Initiative;
        ties reroll."""
        while True:
            totals = []
            for side in (SIDE_A, SIDE_B):
                alive = self.living(side)
                best = max(int(self.b.initiative[m]) for m in alive)
                bonus = max(int(self.b.initiative_bonus[m]) for m in alive)
                totals.append(self.roll_expr(self.p.initiative_dice) + best + bonus)
            if totals[0] != totals[1]:
                return SIDE_A if totals[0] > totals[1] else SIDE_B

    def play_round(self) -> None:
        for s in self.mechs:
            s.reaction, s.activated = True, False
        side = self.initiative()
        while self.winner is None:
            ready = [m for m in self.living(side) if not self.mechs[m].activated]
            if not ready:
                side = 1 - side
                ready = [m for m in self.living(side) if not self.mechs[m].activated]
                if not ready:
                    break
            m = ready[0]
            self.mechs[m].activated = True
            self.activate(m)
            side = 1 - side
        for s in self.mechs:
            s.locked = False
        self.score_zones()

    def score_zones(self) -> None:
        """I4: at the end of a round each side scores the zones it controls (H Zones)."""
        held = [0, 0]
        if len(self.zones_by_round) >= self.p.round_cap:  # sudden death: no zone points
            return
        if self.board is not None and self.winner is None:
            pos = np.array([[s.pos for s in self.mechs]], np.int64)
            alive = np.array([[s.alive for s in self.mechs]])
            control = boards.control(self.board, pos, alive, self.b.side)[0]
            held = [int(control[0].sum()), int(control[1].sum())]
        self.zones[0] += held[0]
        self.zones[1] += held[1]
        self.zones_by_round.append(held)

    def play(self) -> BattleResult:
        rounds = 0
        while rounds < self.p.round_cap and self.winner is None:  # I: at most 7 rounds
            rounds += 1
            self.play_round()
        if self.winner is None:  # I4 tiebreak: level on points and Hull: sudden death
            hull, points = self.hull_points()
            if points[0] == points[1] and hull[0] == hull[1]:
                self.cap_points = points
                rounds += 1
                self.play_round()
        return self.result(rounds)
