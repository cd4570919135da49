"""N battles' changing state (003 E-G) as arrays (per-mech ones as ``sims.core.batch``
Grids), and the readings of state that every part of the engine uses: static rows by key,
distances, the nearest enemy, derived stats now (Reactor Cap, Speed, Sensors), weapons
in reach, melee options."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sims.core.batch import Grid
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
    reactor_now,
    sensors_now,
    speed_now,
)

I16 = np.int16
IX = np.int32  # battle and mech indices: half the memory traffic of int64 in every gather
MOUNT_PART = np.array(MOUNTS)  # silhouette index of each weapon mount


@dataclass(frozen=True)
class State:
    """N battles in progress (arrays mutated in place; the dataclass itself is fixed).
    ``M`` is the mechs per battle, indexed locally (0..M-1) whatever the battle's
    matchup; per-mech and per-side arrays are :class:`Grid` views of the shapes below."""

    pos: np.ndarray  # int16[N, M]  hex on the range track, or on a map its flat index
    dur: np.ndarray  # int16[N, M, 6]  Durability left, silhouette order; <= 0 destroyed
    heat: np.ndarray  # int16[N, M]
    prone: np.ndarray  # bool[N, M]
    braced: np.ndarray  # bool[N, M]
    locked: np.ndarray  # bool[N, M]  until the end of the round
    reaction: np.ndarray  # bool[N, M]  Reaction still available this round
    overwatch: np.ndarray  # int8[N, M]  mount held for Overwatch, -1 none
    shutdown: np.ndarray  # bool[N, M]  skips its next activation (stress)
    overcharges: np.ndarray  # int8[N, M]  Overcharges used this game (G3)
    activated: np.ndarray  # bool[N, M]  this round
    moved: np.ndarray  # bool[N, M]  this activation (Heavy)
    flicker: np.ndarray  # bool[N, M]  stress: [-] on the next attack
    grappled: np.ndarray  # int8[N, M]  the mech it is in a grapple with (F11.5), -1 none
    guarding: np.ndarray  # int8[N, M]  the ally it Guards until its next activation (E5)
    smoking: np.ndarray  # bool[N, M]  its smoke hangs on its hex until its next activation
    jumped: np.ndarray  # bool[N, M]  it jumped this activation: the Heat is paid (G)
    n_sensors: np.ndarray  # int8[N, M]  lasting crit effects, counted per kind (F7)
    n_speed: np.ndarray  # int8[N, M]
    n_attack: np.ndarray  # int8[N, M]
    n_coolant: np.ndarray  # int8[N, M]
    n_armor: np.ndarray  # int8[N, M, 6]
    winner: np.ndarray  # int8[N]  -1 while running, else battle.SIDE_A / SIDE_B / DRAW
    rounds: np.ndarray  # int8[N]  rounds played
    kills: np.ndarray  # int16[N, 2]  enemy mechs destroyed, per side
    crits: np.ndarray  # int32[N, 2]  crits dealt, per side
    shots: np.ndarray  # int32[N, 2]  shots fired, per side
    hits: np.ndarray  # int32[N, 2]  hits landed, per side
    destroyed: np.ndarray  # int16[N, 2, 6]  parts destroyed on each side's mechs
    mount_hits: np.ndarray  # int16[N, M, 3]  hits landed by each weapon mount's Fire
    mount_crits: np.ndarray  # int16[N, M, 3]  crits landed by each weapon mount's Fire
    zones: np.ndarray  # int16[N, 2]  zone-rounds held per side (I4)
    zones_by_round: np.ndarray  # int8[N, R, 2]  zones each side held at each round's end

    @classmethod
    def start(cls, pos: np.ndarray, dur: np.ndarray, rounds: int = 7) -> State:
        """Battles at their start: ``pos`` int16[N, M] starting hexes and ``dur``
        int16[N, M, 6] maximum Durability (each battle's own matchup); the rest fresh."""
        n, M = pos.shape

        def zeros(*shape, dtype=I16):
            return np.zeros((n, *shape), dtype=dtype)

        return cls._wrap(
            pos=pos,
            dur=dur,
            heat=zeros(M),
            prone=zeros(M, dtype=bool),
            braced=zeros(M, dtype=bool),
            locked=zeros(M, dtype=bool),
            reaction=np.ones((n, M), bool),
            overwatch=np.full((n, M), -1, np.int8),
            shutdown=zeros(M, dtype=bool),
            overcharges=zeros(M, dtype=np.int8),
            activated=zeros(M, dtype=bool),
            moved=zeros(M, dtype=bool),
            flicker=zeros(M, dtype=bool),
            grappled=np.full((n, M), -1, np.int8),
            guarding=np.full((n, M), -1, np.int8),
            smoking=zeros(M, dtype=bool),
            jumped=zeros(M, dtype=bool),
            n_sensors=zeros(M, dtype=np.int8),
            n_speed=zeros(M, dtype=np.int8),
            n_attack=zeros(M, dtype=np.int8),
            n_coolant=zeros(M, dtype=np.int8),
            n_armor=zeros(M, 6, dtype=np.int8),
            winner=np.full(n, -1, np.int8),
            rounds=np.zeros(n, np.int8),
            kills=zeros(2),
            crits=zeros(2, dtype=np.int32),
            shots=zeros(2, dtype=np.int32),
            hits=zeros(2, dtype=np.int32),
            destroyed=zeros(2, 6),
            mount_hits=zeros(M, 3),
            mount_crits=zeros(M, 3),
            zones=zeros(2),
            zones_by_round=zeros(rounds, 2, dtype=np.int8),
        )

    @classmethod
    def _wrap(cls, **arrays: np.ndarray) -> State:
        """Per-mech and per-side arrays become Grids; per-battle ones stay arrays."""
        return cls(**{k: v if v.ndim == 1 else Grid(v) for k, v in arrays.items()})


class Reading:
    """Readings of N battles' state; the base of every part of :class:`~.engine.Engine`,
    which sets the attributes below."""

    n: int  # battles
    M: int  # mechs per battle
    S: int  # matchups
    b: Battle  # static numbers: one matchup, or S stacked (see the package docstring)
    board: boards.Board | None  # the map played on; None on the range track
    p: rules.Parameters
    s: State
    side: np.ndarray  # int64[M]  each local mech's side, the same in every matchup
    scenario: np.ndarray | None  # int32[N]  each battle's matchup; None with one
    base: np.ndarray | None  # int32[N]  its first row in b; None with one matchup
    any_melee: bool
    any_grapple: bool  # some policy of the call grapples or breaks (F11.5)
    any_guard: bool  # some policy of the call Guards (E5)
    any_smoke: bool  # some policy of the call Smokes with a smoke launcher (H5)
    any_jump: bool  # some policy of the call jumps with a jump booster (F11.8, G)
    order_flat: np.ndarray  # flat [K * 3] tables, read with index key * 3 + mount
    reach_flat: np.ndarray
    melee_flat: np.ndarray
    ranged_flat: np.ndarray
    indirect_flat: np.ndarray

    def key(self, ix, m):
        """Row of ``self.b`` holding mech ``m``'s static numbers in battles ``ix``:
        ``m`` itself with one matchup, else ``scenario[ix] * M + m``."""
        if self.base is None:
            return m
        return self.base.take(ix) + m

    def gather(self, a: np.ndarray, ix=None) -> np.ndarray:
        """A stacked per-mech static field [S * M, ...] as each of the battles ``ix`` (all
        when None) sees it: its own matchup's rows, [n, M, ...]."""
        scenario = self.scenario if ix is None else self.scenario[ix]
        return a.reshape(self.S, self.M, *a.shape[1:])[scenario]

    def per_battle(self, a: np.ndarray, ix) -> np.ndarray:
        """A per-mech static field [M, ...] as seen by battles ``ix``: itself with one
        matchup (broadcast over battles), else each battle's rows, [n, M, ...]."""
        return a if self.base is None else self.gather(a, ix)

    def alive(self, ix, m):
        return self.s.dur[ix, m, CORE] > 0

    def part_alive(self, ix, m, part):
        return self.s.dur[ix, m, part] > 0

    def running(self, ix):
        return self.s.winner[ix] < 0

    def between(self, table, a, b):
        """``table[a, b]`` of a map's [H, H] table (hexes ``a`` and ``b``, broadcast):
        one gather from the flat table, cheaper than a two-dimensional fancy index."""
        return table.ravel().take(a.astype(np.int64) * self.board.hexes + b)

    def distance(self, ix, a, b):
        if self.board is None:
            return np.abs(self.s.pos[ix, a] - self.s.pos[ix, b])
        return self.between(self.board.geo.dist, self.s.pos[ix, a], self.s.pos[ix, b])

    def dists(self, ix, m):
        """[n, M]: the distance from ``m`` to every mech of its battle."""
        pos = self.s.pos[ix]
        if self.board is None:
            return np.abs(pos - self.s.pos[ix, m][:, None])
        return self.between(self.board.geo.dist, self.s.pos[ix, m][:, None], pos)

    def sees(self, ix, a, b):
        """H4 line of sight from ``a`` to ``b`` (always on the track)."""
        if self.board is None:
            return np.ones(len(ix), bool)
        return self.between(self.board.geo.los, self.s.pos[ix, a], self.s.pos[ix, b])

    def others(self, ix, m):
        """int64[n, M]: the hexes of the living mechs other than ``m`` (-1 for the rest)."""
        s = self.s
        keep_ = (s.dur[ix, :, CORE] > 0) & (np.arange(self.M)[None, :] != np.asarray(m)[:, None])
        return np.where(keep_, s.pos[ix].astype(np.int64), -1)

    def nearest_enemy(self, ix, m):
        """The nearest living enemy, ties to the lowest index; -1 where none."""
        M = self.M
        if M == 2:  # a duel: the other mech
            other = (1 - m).astype(IX)
            return np.where(self.s.dur[ix, other, CORE] > 0, other, IX(-1))
        d = self.dists(ix, m).astype(np.int64)
        foe = (self.side[None, :] != self.side[m][:, None]) & (self.s.dur[ix, :, CORE] > 0)
        key = np.where(foe, policy.target_rank(d, np.arange(M), M), np.iinfo(np.int64).max)
        best = key.argmin(axis=1).astype(IX)
        return np.where(foe.any(axis=1), best, IX(-1))

    def reactor(self, ix, m, km=None):
        """Reactor Cap now (``km``: m's static rows when the caller has them)."""
        km = self.key(ix, m) if km is None else km
        return reactor_now(self.b, km, self.part_alive(ix, m, BACK))

    def speed(self, ix, m):
        return speed_now(
            self.b,
            self.key(ix, m),
            self.part_alive(ix, m, LEGS),
            self.s.n_speed[ix, m] * self.b.fx_speed,
        )

    def sensors(self, ix, m):
        return sensors_now(
            self.b,
            self.key(ix, m),
            self.part_alive(ix, m, HEAD),
            self.part_alive(ix, m, BACK),
            self.s.n_sensors[ix, m] * self.b.fx_sensors,
        )

    def working(self, ix, m):
        """bool[n, 3]: mounts carrying a weapon whose part stands."""
        return self.b.has_weapon[self.key(ix, m)] & (self.s.dur[ix, m][:, MOUNT_PART] > 0)

    def reach(self, ix, m, t):
        """(first, second): the best and second-best working mounts reaching ``t`` in
        range and sight (the kit's priority order; -1 where none). A loop over the three
        priority places, each a few flat gathers, beats arg-reductions over [n, 3]."""
        d = self.distance(ix, m, t)
        blind = None
        if self.board is not None:  # H4: out of sight, out of reach, but for an Indirect
            blind = ~self.sees(ix, m, t)  # weapon at a Locked target (E Lock On)
            locked = self.s.locked[ix, t]
        first = np.full(len(ix), -1, IX)
        second = first.copy()
        base = self.key(ix, m) * 3
        for k in range(3):
            mount = self.order_flat.take(base + k)
            ok = (d <= self.reach_flat.take(base + mount)) & self.part_alive(
                ix, m, MOUNT_PART.take(mount)
            )
            if blind is not None:
                ok &= ~blind | (locked & self.indirect_flat.take(base + mount))
            second = np.where(ok & (first >= 0) & (second < 0), mount, second)
            first = np.where(ok & (first < 0), mount, first)
        return first, second

    def shield_arm(self, ix, m):
        """F11.6 / E5: an intact Shield arm."""
        km = self.key(ix, m)
        return (self.b.shield[km, 1] & self.part_alive(ix, m, 1)) | (
            self.b.shield[km, 2] & self.part_alive(ix, m, 2)
        )

    def smoked(self, ix, m, t):
        """H5: a living smoker's smoke lies on the line from ``m`` to ``t`` (the
        reference's ``smoked``)."""
        s = self.s
        out = np.zeros(len(ix), bool)
        for g in range(self.M):
            on = s.smoking[ix, g] & (s.dur[ix, g, CORE] > 0)
            if self.board is None:
                out |= on & rules.smoke_covers(s.pos[ix, m], s.pos[ix, t], s.pos[ix, g])
            elif on.any():
                k = np.flatnonzero(on)
                out[k] |= boards.smoke_on_line(
                    self.board, s.pos[ix[k], m[k]], s.pos[ix[k], t[k]], s.pos[ix[k], g]
                )
        return out

    def jumper(self, ix, m):
        """F11.8 / G: the policy jumps and ``m`` has an intact jump booster Back or intact
        jump Legs (the reference's ``jumper``)."""
        km = self.key(ix, m)
        return self.b.p_jump[km] & (
            (self.b.back_jump[km] & self.part_alive(ix, m, BACK))
            | (self.b.legs_jump[km] & self.part_alive(ix, m, LEGS))
        )

    def guard_ally(self, ix, m):
        """E5: the living ally adjacent to ``m`` it would Guard (lowest index), -1 none."""
        ally = np.full(len(ix), -1, IX)
        for o in range(self.M - 1, -1, -1):
            ok = (
                (self.side[o] == self.side[m])
                & (m != o)
                & (self.s.dur[ix, o, CORE] > 0)
                & (self.distance(ix, np.full(len(ix), o), m) <= 1)
            )
            ally = np.where(ok, IX(o), ally)
        return ally

    def guarded(self, ix, m, t):
        """E5: ``t`` has a Guard's hard cover against ``m`` (the reference's ``guarded``)."""
        s = self.s
        guard = np.zeros(len(ix), bool)
        for g in range(self.M):
            gg = np.full(len(ix), g)
            near = (
                (s.guarding[ix, g] == t)
                & (s.dur[ix, g, CORE] > 0)
                & (self.distance(ix, gg, t) <= 1)
            )
            if self.board is not None:  # E5 on a map: the guard is nearer the attacker
                near &= boards.guard_covers(self.board, s.pos[ix, m], s.pos[ix, t], s.pos[ix, g])
            guard |= near & self.shield_arm(ix, gg)
        if self.board is not None:
            return guard
        return guard & rules.guard_covers(s.pos[ix, m], s.pos[ix, t], facing(self.side[t]))

    def strike_option(self, ix, m):
        """F11.1: 0 punch (an intact arm), 1 kick (intact legs), -1 neither."""
        arm = self.part_alive(ix, m, 1) | self.part_alive(ix, m, 2)
        return policy.strike_option(arm, self.part_alive(ix, m, LEGS))

    def best_melee(self, ix, m):
        """(melee weapon mount or -1, strike option or -1 where a weapon is used)."""
        weapon = np.full(len(ix), -1, IX)
        if self.any_melee:
            base = self.key(ix, m) * 3
            for k in range(3):
                mount = self.order_flat.take(base + k)
                ok = self.melee_flat.take(base + mount) & self.part_alive(
                    ix, m, MOUNT_PART.take(mount)
                )
                weapon = np.where(ok & (weapon < 0), mount, weapon)
        return weapon, np.where(weapon >= 0, -1, self.strike_option(ix, m))

    def melee_option(self, ix, m):
        weapon, strike = self.best_melee(ix, m)
        return (weapon >= 0) | (strike >= 0)

    def fire_target(self, ix, m, t):
        """F Declare on a map: ``t`` where a weapon reaches it, else the nearest living
        enemy some weapon reaches, else ``t`` (the reference's ``fire_target``)."""
        if self.board is None:
            return t
        out = t.copy()
        todo = self.reach(ix, m, t)[0] < 0
        d = self.dists(ix, m).astype(np.int64)
        foe = (self.side[None, :] != self.side[m][:, None]) & (self.s.dur[ix, :, CORE] > 0)
        rank = np.where(
            foe, policy.target_rank(d, np.arange(self.M), self.M), np.iinfo(np.int64).max
        )
        top = np.iinfo(np.int64).max
        for _ in range(self.M):  # enemies nearest first, until one is in reach
            k = np.flatnonzero(todo)
            if not len(k):
                break
            e = rank[k].argmin(axis=1)
            left = rank[k, e] < top
            todo[k[~left]] = False
            k, e = k[left], e[left]
            hit = self.reach(ix[k], m[k], e.astype(IX))[0] >= 0
            out[k[hit]] = e[hit]
            todo[k[hit]] = False
            rank[k, e] = top
        return out

    def max_reach(self, ix, m):
        """How far its working weapons reach (long range), 1 with melee only or none."""
        best = np.ones(len(ix), np.int64)
        base = self.key(ix, m) * 3
        for w in range(3):
            span = np.maximum(self.reach_flat.take(base + w), 0)
            best = np.maximum(best, span * self.part_alive(ix, m, MOUNTS[w]))
        return best

    def max_optimal(self, ix, m):
        """The longest optimal Range among working ranged weapons (1 with none)."""
        best = np.zeros(len(ix), I16)
        base = self.key(ix, m) * 3
        for w in range(3):
            span = self.ranged_flat.take(base + w)
            best = np.maximum(best, span * self.part_alive(ix, m, MOUNTS[w]))
        return np.where(best > 0, best, 1)
