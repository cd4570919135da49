"""The game (003 I): initiative each round, sides alternating activations, the round cap."""

from __future__ import annotations

import numpy as np

from sims.core.batch import keep
from sims.skirmish import board as boards
from sims.skirmish.battle import CORE
from sims.skirmish.vector.state import IX, Reading


class Turns(Reading):
    """Turn structure: who activates when, in every running battle."""

    def initiative(self, ix) -> np.ndarray:
        b, s = self.b, self.s
        alive = s.dur[ix, :, CORE] > 0
        initiative = self.per_battle(b.initiative, ix)  # [M] or [n, M]
        ability = self.per_battle(b.initiative_bonus, ix)
        bonus = []
        for side in (0, 1):
            mine = alive & (self.side == side)
            best = np.where(mine, initiative, -99).max(axis=1)
            extra = np.where(mine, ability, -99).max(axis=1)
            bonus.append(best + extra)
        first = np.full(len(ix), -1)
        todo = np.ones(len(ix), bool)
        while todo.any():
            k = np.nonzero(todo)[0]
            a = self.dice.expr(self.p.initiative_dice, len(k)) + bonus[0][k]
            c = self.dice.expr(self.p.initiative_dice, len(k)) + bonus[1][k]
            first[k] = np.where(a > c, 0, 1)
            todo[k] = a == c
        return first

    def play_round(self, ix) -> None:
        s = self.s
        everyone = ix
        s.reaction[ix] = True
        s.activated[ix] = False
        side = self.initiative(ix)
        for _ in range(self.M):
            go = self.running(ix)
            if not go.any():
                break
            ix, side = keep(go, ix, side)
            ready = (s.dur[ix, :, CORE] > 0) & ~s.activated[ix]
            mine = ready & (self.side[None, :] == side[:, None])
            theirs = ready & (self.side[None, :] != side[:, None])
            use_mine = mine.any(axis=1)
            pick = np.where(use_mine, mine.argmax(axis=1), theirs.argmax(axis=1)).astype(IX)
            has = use_mine | theirs.any(axis=1)
            ix, side, pick, use_mine = keep(has, ix, side, pick, use_mine)
            if not len(ix):
                break
            s.activated[ix, pick] = True
            self.activate(ix, pick)
            acted = np.where(use_mine, side, 1 - side)
            side = 1 - acted
        s.locked[ix] = False
        self.score_zones(everyone)

    def score_zones(self, ix) -> None:
        """I4: at the end of a round each side scores the zones it controls (H Zones), in
        the battles still running (the reference's ``score_zones``)."""
        s = self.s
        if self.board is None or s.rounds[ix[0]] > self.p.round_cap:  # none in sudden death
            return
        ix = ix[self.running(ix)]
        if not len(ix):
            return
        control = boards.control(self.board, s.pos[ix], s.dur[ix, :, CORE] > 0, self.side)
        held = control.sum(axis=2)  # [n, 2]
        s.zones.a[ix] += held.astype(np.int16)
        s.zones_by_round.a[ix, s.rounds[ix].astype(np.int64) - 1] = held

    def play(self) -> dict[str, np.ndarray]:
        s = self.s
        ix = np.arange(self.n, dtype=IX)
        for r in range(1, self.p.round_cap + 1):
            ix = ix[self.running(ix)]
            if not len(ix):
                break
            s.rounds[ix] = r
            self.play_round(ix)
            s.locked[:] = False
        self.sudden_death()
        return self.result()

    def sudden_death(self) -> None:
        """I4 tiebreak: battles level on points and Hull after the round cap play one more
        round (its zones score nothing), then Hull decides again."""
        s = self.s
        hull, points = self.hull_points()
        tied = (
            self.running(np.arange(self.n))
            & (points[:, 0] == points[:, 1])
            & (hull[:, 0] == hull[:, 1])
        )
        if not tied.any():
            return
        self.cap_points = points
        ix = np.flatnonzero(tied).astype(IX)
        s.rounds[ix] = self.p.round_cap + 1
        self.play_round(ix)
        s.locked[:] = False
