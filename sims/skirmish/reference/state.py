"""One battle's changing state (003 E-G), its result, and the readings of state that
every part of the engine uses: sides, distances, the nearest enemy, derived stats now
(Reactor Cap, Speed, Sensors), weapons in reach, melee options."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sims.skirmish import board as boards
from sims.skirmish import policy, rules
from sims.skirmish.battle import (
    BACK,
    CORE,
    HEAD,
    LEGS,
    MOUNTS,
    Battle,
    facing,
    reach_band,
    reactor_now,
    sensors_now,
    speed_now,
)
from sims.skirmish.reference.dice import Dice


@dataclass
class MechState:
    """One mech's changing state (003 E-G); static numbers stay in the Battle."""

    pos: int
    dur: list[int]  # silhouette order
    heat: int = 0
    prone: bool = False
    braced: bool = False
    locked: bool = False
    reaction: bool = True
    overwatch: int = -1  # mount index held for Overwatch, -1 none
    shutdown: bool = False
    overcharges: int = 0
    activated: bool = False
    moved: bool = False
    flicker: bool = False  # stress: [-] on the next attack
    grappled: int = -1  # the mech it is in a grapple with (F11.5), -1 none
    guarding: int = -1  # the ally it Guards until its next activation (E5), -1 none
    smoking: bool = False  # its smoke hangs on its hex until its next activation (H5)
    jumped: bool = False  # it jumped this activation: the Heat is paid (G)
    # lasting crit effects (F7), counted per kind until Stabilize removes one
    n_sensors: int = 0
    n_speed: int = 0
    n_attack: int = 0
    n_coolant: int = 0
    n_armor: list[int] = field(default_factory=lambda: [0] * 6)

    @property
    def alive(self) -> bool:
        return self.dur[CORE] > 0

    def part_alive(self, part: int) -> bool:
        return self.dur[part] > 0

    @property
    def effects(self) -> int:
        return self.n_sensors + self.n_speed + self.n_attack + self.n_coolant + sum(self.n_armor)


@dataclass
class BattleResult:
    """What one battle records (both engines write the same fields)."""

    winner: int  # SIDE_A, SIDE_B or DRAW
    rounds: int
    decided: int  # index into battle.DECIDED
    hull: list[float]  # per side, 0..1
    kills: list[int]  # enemy mechs destroyed, per side
    crits: list[int]  # crits dealt, per side
    shots: list[int]  # shots fired, per side
    hits: list[int]  # hits landed, per side
    destroyed: list[list[int]]  # parts destroyed on each side's mechs, by location
    mount_hits: list[list[int]]  # per mech and weapon mount: hits its Fire actions landed
    mount_crits: list[list[int]]  # ...and crits
    points: list[int]  # per side: kill and zone points (I4)
    zones: list[int]  # per side: zone-rounds held (0 on the track)
    zones_by_round: list[list[int]]  # per round 1..round_cap: zones each side held at its end
    hexes: list[int]  # per mech: where it stands at the end, or where it was destroyed
    down: list[bool]  # per mech: destroyed


class Reading:
    """Readings of a battle's state; the base of every part of :class:`~.game.Game`,
    which sets the attributes below."""

    b: Battle  # the compiled matchup: static numbers
    board: boards.Board | None  # the map played on; None on the range track
    p: rules.Parameters
    dice: Dice
    mechs: list[MechState]
    winner: int | None  # the side that wiped the other, the moment it did

    def side(self, m: int) -> int:
        return int(self.b.side[m])

    def living(self, side: int) -> list[int]:
        return [m for m, s in enumerate(self.mechs) if s.alive and self.side(m) == side]

    def distance(self, a: int, b: int) -> int:
        if self.board is None:
            return abs(self.mechs[a].pos - self.mechs[b].pos)
        return int(self.board.geo.dist[self.mechs[a].pos, self.mechs[b].pos])

    def sees(self, a: int, b: int) -> bool:
        """H4 line of sight from ``a`` to ``b`` (always on the track)."""
        return self.board is None or bool(self.board.geo.los[self.mechs[a].pos, self.mechs[b].pos])

    def others(self, m: int) -> np.ndarray:
        """The hexes of the living mechs other than ``m``, int64[1, M] (-1 padding): a hex
        holds one mech (board.walk)."""
        out = [s.pos if s.alive and o != m else -1 for o, s in enumerate(self.mechs)]
        return np.array([out], np.int64)

    def shield_arm(self, m: int) -> bool:
        """F11.6 / E5: ``m`` has an intact Shield arm."""
        s, b = self.mechs[m], self.b
        return bool(b.shield[m, 1] and s.part_alive(1) or b.shield[m, 2] and s.part_alive(2))

    def guard_ally(self, m: int) -> int | None:
        """E5: the living ally adjacent to ``m`` it would Guard (the lowest index)."""
        near = [o for o in self.living(self.side(m)) if o != m and self.distance(m, o) <= 1]
        return near[0] if near else None

    def guarded(self, m: int, t: int) -> bool:
        """E5: ``t`` has a Guard's hard cover against ``m``: a living guard with an intact
        Shield arm, still adjacent to it, and ``m`` on its enemy-facing side."""
        if self.board is not None:  # E5 on a map: the guard is nearer the attacker
            return any(
                s.alive
                and s.guarding == t
                and self.distance(g, t) <= 1
                and self.shield_arm(g)
                and bool(
                    boards.guard_covers(self.board, self.mechs[m].pos, self.mechs[t].pos, s.pos)
                )
                for g, s in enumerate(self.mechs)
            )
        guard = any(
            s.alive and s.guarding == t and self.distance(g, t) <= 1 and self.shield_arm(g)
            for g, s in enumerate(self.mechs)
        )
        return guard and bool(
            rules.guard_covers(self.mechs[m].pos, self.mechs[t].pos, facing(self.side(t)))
        )

    def smoked(self, m: int, t: int) -> bool:
        """H5: a living smoker's smoke lies on the line from ``m`` to ``t`` (either side's)."""
        if self.board is not None:
            return any(
                s.alive
                and s.smoking
                and bool(
                    boards.smoke_on_line(
                        self.board, [self.mechs[m].pos], [self.mechs[t].pos], [s.pos]
                    )[0]
                )
                for s in self.mechs
            )
        return any(
            s.alive
            and s.smoking
            and rules.smoke_covers(self.mechs[m].pos, self.mechs[t].pos, s.pos)
            for s in self.mechs
        )

    def jumper(self, m: int) -> bool:
        """F11.8 / G: the policy jumps and ``m`` has an intact jump booster Back or intact
        jump Legs."""
        b, s = self.b, self.mechs[m]
        return bool(
            b.p_jump[m]
            and (b.back_jump[m] and s.part_alive(BACK) or b.legs_jump[m] and s.part_alive(LEGS))
        )

    def engaged(self, m: int) -> bool:
        """E Engaged: a living hostile is adjacent to ``m`` (whichever it attacks)."""
        return any(self.distance(m, e) <= 1 for e in self.living(1 - self.side(m)))

    def nearest_enemy(self, m: int) -> int | None:
        """Step 4: the nearest living enemy, ties to the lowest index."""
        foes = self.living(1 - self.side(m))
        rank = lambda e: policy.target_rank(self.distance(m, e), e, self.b.mechs)  # noqa: E731
        return min(foes, key=rank) if foes else None

    def roll_dice(self, count: int, sides: int, bonus: int = 0) -> int:
        return sum(self.dice.rolls(count, sides)) + bonus

    def roll_expr(self, expr: str) -> int:
        """One roll of a dice parameter of rules.toml (``1d3``, ``2d6``: NdS+C)."""
        return self.roll_dice(*rules.simple_dice(expr))

    def reactor(self, m: int) -> int:
        return int(reactor_now(self.b, m, self.mechs[m].part_alive(BACK)))

    def speed(self, m: int) -> int:
        s = self.mechs[m]
        return int(speed_now(self.b, m, s.part_alive(LEGS), s.n_speed * self.b.fx_speed))

    def sensors(self, m: int) -> int:
        s = self.mechs[m]
        return int(
            sensors_now(
                self.b, m, s.part_alive(HEAD), s.part_alive(BACK), s.n_sensors * self.b.fx_sensors
            )
        )

    def reach(self, m: int, t: int) -> list[int]:
        """Working weapon mounts that reach ``t`` now, best first (F Declare: in range and
        in line of sight, H4; an Indirect weapon needs no sight of a Locked target, E)."""
        d, s, b = self.distance(m, t), self.mechs[m], self.b
        out: list[int] = []
        # H4: out of sight, out of reach, but for an Indirect weapon at a Locked target (E)
        blind, locked = not self.sees(m, t), self.mechs[t].locked
        for w in b.w_order[m]:
            w = int(w)
            if blind and not (locked and b.w_indirect[m, w]):
                continue
            if b.has_weapon[m, w] and s.part_alive(MOUNTS[w]):
                if reach_band(d, b.w_range[m, w], b.w_long[m, w], b.w_melee[m, w]) < 2:
                    out.append(w)
        return out

    def fire_target(self, m: int, t: int) -> int:
        """F Declare on a map: ``t`` when a weapon reaches it, else the nearest living enemy
        some weapon reaches (in range and sight), else ``t`` (a reading: the target to move
        by is the nearest, the target to shoot the nearest in sight)."""
        if self.board is None or self.reach(m, t):
            return t
        rank = lambda e: policy.target_rank(self.distance(m, e), e, self.b.mechs)  # noqa: E731
        for e in sorted(self.living(1 - self.side(m)), key=rank):
            if self.reach(m, e):
                return e
        return t

    def max_reach(self, m: int) -> int:
        """How far its working weapons reach (long range), 1 with melee only or none."""
        b, s = self.b, self.mechs[m]
        return max(
            [
                int(b.w_long[m, w])
                for w in range(3)
                if b.has_weapon[m, w] and s.part_alive(MOUNTS[w])
            ],
            default=1,
        )

    def max_optimal(self, m: int) -> int:
        """Preferred distance of a ranged policy: the longest optimal Range it has."""
        b, s = self.b, self.mechs[m]
        ranges = [
            int(b.w_range[m, w])
            for w in range(3)
            if b.has_weapon[m, w] and not b.w_melee[m, w] and s.part_alive(MOUNTS[w])
        ]
        return max(ranges, default=1)

    def strike_option(self, m: int) -> int | None:
        """F11.1: a punch needs an intact arm, a kick intact legs. 0 punch, 1 kick."""
        s = self.mechs[m]
        option = policy.strike_option(s.part_alive(1) or s.part_alive(2), s.part_alive(LEGS))
        return None if option == policy.NO_STRIKE else option

    def melee_option(self, m: int) -> bool:
        b, s = self.b, self.mechs[m]
        weapon = any(
            b.has_weapon[m, w] and b.w_melee[m, w] and s.part_alive(MOUNTS[w]) for w in range(3)
        )
        return weapon or self.strike_option(m) is not None

    def best_melee(self, m: int) -> tuple[int | None, int | None]:
        """(melee weapon mount, or None with a strike) for Charge and riposte."""
        b, s = self.b, self.mechs[m]
        for w in b.w_order[m]:
            w = int(w)
            if b.has_weapon[m, w] and b.w_melee[m, w] and s.part_alive(MOUNTS[w]):
                return w, None
        return None, self.strike_option(m)
