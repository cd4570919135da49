"""Mecha Skirmish vectorized engine: N battles at once over NumPy arrays, each battle
carrying its own matchup (a chunk of a round robin is one call; sims/core/protocol.py).

It plays exactly the battle model of ``battle.py`` that ``reference.py`` plays one battle
at a time, and is tested against it. Entry point: ``play(battles, scenario, rng)``, where
battle i plays the compiled matchup ``battles[scenario[i]]``. The layout:

- State is :class:`State`, a frozen dataclass of arrays indexed ``[battle, mech, ...]``
  (dtype, shape and encoding beside each field), the mech by its local index ``m`` in
  0..M-1 (every matchup of a call has M mechs, side 0's first). Formulas come from
  ``battle.py`` / ``rules.py``.
- Static numbers come from ``Engine.b``: with one matchup its compiled
  :class:`~sims.skirmish.battle.Battle` itself; with S matchups the stacked Battle of
  :func:`stack`, whose per-mech fields hold S * M rows, row ``scenario * M + m``
  (catalog-level fields, ``battle.SHARED``, are equal across the call and kept as they
  are). A static number of mech ``m`` in battles ``ix`` is read at the key
  ``Engine.key(ix, m)``: ``scenario[ix] * M + m``, or ``m`` itself with one matchup (no
  extra work, the same arithmetic). State is always read with the local ``m``, never
  the key. ``bonded`` stacks to [S * M, M]: its row is a key, its column a local mech.
- Every step works on a subset of battles given as an index array ``ix`` (unique battle
  indices) with per-battle mech indices (``m``, ``t``: arrays of the same length).
  Where the reference branches with ``if``, this engine splits ``ix`` with a mask and
  calls the same step on each part. Python loops run over rounds, activations, mechs,
  shots and rerolls, never over battles. Finished battles drop out of ``ix``.
- Randomness comes from one ``numpy.random.Generator`` passed in; :class:`Dice` draws
  from it in blocks and counts what it draws (the benchmark's random-number floor).
  Tests pass ``Engine(..., dice=ScriptedDice(script))`` instead: the faces of a batch of
  one battle, read from a script as ``reference.ScriptedDice`` reads it.
- Every rule is a call to ``rules.py`` (through ``battle.py`` for a Battle's numbers);
  a Fire action's modifier dice come from ``modifiers.net_dice``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from sims.skirmish import modifiers, policy, rules
from sims.skirmish.battle import (
    BACK,
    CORE,
    EFFECT_CODES,
    HEAD,
    LEGS,
    MOUNTS,
    PER_MECH,
    Battle,
    accuracy,
    check_batch,
    e_def_now,
    evasion_now,
    reach_band,
    reactor_now,
    sensors_now,
    speed_now,
)  # fmt: skip

ENGINE_VERSION = "skirmish-vector-1"
E = EFFECT_CODES
I16 = np.int16
IX = np.int32  # battle and mech indices: half the memory traffic of int64 in every gather
MOUNT_PART = np.array(MOUNTS)  # silhouette index of each weapon mount
ARM_PARTS = np.array([1, 2])


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


def keep(mask: np.ndarray, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows of each array where ``mask`` holds. Gathering by index is several times
    faster than boolean indexing when the mask is irregular, as battle masks are."""
    rows = np.flatnonzero(mask)
    return tuple(a.take(rows) for a in arrays)


class Grid:
    """An array shaped [N, M, ...] read and written as ``g[ix, m]`` or ``g[ix, m, part]``
    through flat indices: NumPy gathers on one flat index are several times faster than
    on a tuple of index arrays, and this engine is mostly such gathers. Anything else
    (slices, whole rows) goes to the array itself, ``g.a``."""

    __slots__ = ("a", "flat", "rows", "M", "K")

    def __init__(self, a: np.ndarray) -> None:
        self.a = a
        self.flat = a.reshape(-1)
        self.M = a.shape[1]
        self.K = a.shape[2] if a.ndim == 3 else 1
        self.rows = a.reshape(-1, self.K)

    def _flat(self, key):
        if type(key) is tuple and len(key) >= 2 and not any(type(k) is slice for k in key):
            if len(key) == 2:
                return key[0] * self.M + key[1], self.K > 1
            return (key[0] * self.M + key[1]) * self.K + key[2], False
        return None, False

    def __getitem__(self, key):
        idx, whole_rows = self._flat(key)
        if idx is None:
            return self.a[key]
        return self.rows.take(idx, axis=0) if whole_rows else self.flat.take(idx)

    def __setitem__(self, key, value) -> None:
        idx, whole_rows = self._flat(key)
        if idx is None:
            self.a[key] = value
        elif whole_rows:
            self.rows[idx] = value
        else:
            self.flat[idx] = value


@dataclass(frozen=True)
class State:
    """N battles in progress (arrays mutated in place; the dataclass itself is fixed).
    ``M`` is the mechs per battle, indexed locally (0..M-1) whatever the battle's
    matchup; per-mech and per-side arrays are :class:`Grid` views of the shapes below."""

    pos: np.ndarray  # int16[N, M]  hex on the range track
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

    @classmethod
    def start(cls, pos: np.ndarray, dur: np.ndarray) -> State:
        """Battles at their start: ``pos`` int16[N, M] starting hexes and ``dur``
        int16[N, M, 6] maximum Durability (each battle's own matchup); the rest fresh."""
        n, M = pos.shape

        def zeros(*shape, dtype=I16):
            return np.zeros((n, *shape), dtype=dtype)

        return cls._wrap(
            pos=pos, dur=dur,
            heat=zeros(M), prone=zeros(M, dtype=bool), braced=zeros(M, dtype=bool),
            locked=zeros(M, dtype=bool), reaction=np.ones((n, M), bool),
            overwatch=np.full((n, M), -1, np.int8), shutdown=zeros(M, dtype=bool),
            overcharges=zeros(M, dtype=np.int8), activated=zeros(M, dtype=bool),
            moved=zeros(M, dtype=bool), flicker=zeros(M, dtype=bool),
            n_sensors=zeros(M, dtype=np.int8), n_speed=zeros(M, dtype=np.int8),
            n_attack=zeros(M, dtype=np.int8), n_coolant=zeros(M, dtype=np.int8),
            n_armor=zeros(M, 6, dtype=np.int8), winner=np.full(n, -1, np.int8),
            rounds=np.zeros(n, np.int8), kills=zeros(2), crits=zeros(2, dtype=np.int32),
            shots=zeros(2, dtype=np.int32), hits=zeros(2, dtype=np.int32),
            destroyed=zeros(2, 6), mount_hits=zeros(M, 3), mount_crits=zeros(M, 3),
        )  # fmt: skip

    @classmethod
    def _wrap(cls, **arrays: np.ndarray) -> State:
        """Per-mech and per-side arrays become Grids; per-battle ones stay arrays."""
        return cls(**{k: v if v.ndim == 1 else Grid(v) for k, v in arrays.items()})


def stack(battles: Sequence[Battle]) -> Battle:
    """S matchups of one batch key as one Battle: each per-mech field (``PER_MECH``) the
    S matchups' rows one after another, [S * M, ...], row ``scenario * M + m`` (so
    ``bonded`` is [S * M, M], a key by a local mech); the catalog-level fields of the
    first (equal in all, ``battle.batch_key``). Its ``mechs`` is S * M: the engine reads
    the mechs per battle from the matchups themselves."""
    fields = {f: np.concatenate([getattr(b, f) for b in battles]) for f in PER_MECH}
    return replace(battles[0], **fields)


def attack_profiles(b: Battle) -> dict[str, np.ndarray]:
    """Flat [K * 5] tables of everything an attack reads from its weapon, for the K rows
    of ``b`` (K = M, or S * M stacked): mounts 0-2 (right arm, left arm, back), then the
    punch (3) and the kick (4) of F11.1. Index ``key * 5 + profile``; a strike reaches
    adjacent only and rolls Piloting like melee."""
    K = b.mechs

    def table(weapon: np.ndarray, strike) -> np.ndarray:
        strikes = np.broadcast_to(np.asarray(strike), (K, 2))
        return np.concatenate([weapon, strikes], axis=1).reshape(-1)

    return {
        "melee": table(b.w_melee, True),
        "shots": table(b.w_shots, 1),
        "acc": table(b.w_acc, 0),
        "pen": table(b.w_pen, b.s_pen),
        "dice": table(b.w_dice, b.s_dice),
        "sides": table(b.w_sides, b.s_sides),
        "bonus": table(b.w_bonus, b.s_bonus),
        "heavy": table(b.w_heavy, False),
        "pulse": table(b.w_pulse, False),
        "range": table(b.w_range, 1),
        "long": table(b.w_long, 1),
    }


class Engine:
    """Plays the battle model over a State; method names follow reference.Game.

    ``battles`` are the S compiled matchups of the call (one ``battle.batch_key``),
    ``scenario`` the matchup of each of the N battles (ints in 0..S-1)."""

    def __init__(self, battles: Sequence[Battle], scenario: np.ndarray,
                 rng: np.random.Generator | None, dice: Dice | None = None) -> None:  # fmt: skip
        scenario = check_batch(battles, scenario)
        first = battles[0]
        n, M, S = len(scenario), first.mechs, len(battles)
        self.n, self.M, self.S = n, M, S
        self.p = first.params
        self.side = first.side.astype(np.int64)  # int64[M]  the same in every matchup
        if S == 1:
            battle = first
            self.scenario = self.base = None
            pos = np.tile(first.start.astype(I16), (n, 1))
            dur = np.tile(first.durability.astype(I16), (n, 1, 1))
        else:
            battle = stack(battles)
            self.scenario = scenario.astype(IX)  # int32[N]  each battle's matchup
            self.base = self.scenario * IX(M)  # int32[N]  its first row in self.b
            pos = self.gather(battle.start.astype(I16))
            dur = self.gather(battle.durability.astype(I16))
        self.b = battle  # static numbers: one matchup, or S stacked (module docstring)
        self.s = State.start(pos, dur)
        self.dice = dice if dice is not None else Dice(rng)  # tests: ScriptedDice
        self.any_bonds = bool(battle.bonded.any())
        self.profile = attack_profiles(battle)
        self.any_melee = bool(battle.w_melee.any())
        # flat [K * 3] tables, read with index key * 3 + mount
        self.order_flat = battle.w_order.reshape(-1).astype(IX)
        self.reach_flat = np.where(battle.has_weapon, battle.w_long, -1).reshape(-1)
        self.melee_flat = (battle.has_weapon & battle.w_melee).reshape(-1)
        self.ranged_flat = np.where(battle.has_weapon & ~battle.w_melee, battle.w_range,
                                    0).reshape(-1).astype(I16)  # fmt: skip
        self.any_shields = bool(battle.shield.any())
        self.effects = modifiers.EffectDice(crit=battle.fx_attack, stress=battle.flicker_dice)
        self.record: list | None = None  # tests: (battle, part, outcome) of every hit

    # ---- static numbers of each battle's own matchup ---------------------------------

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

    # ---- helpers (vectorized twins of reference.Game's) ------------------------------

    def alive(self, ix, m):
        return self.s.dur[ix, m, CORE] > 0

    def part_alive(self, ix, m, part):
        return self.s.dur[ix, m, part] > 0

    def running(self, ix):
        return self.s.winner[ix] < 0

    def distance(self, ix, a, b):
        return np.abs(self.s.pos[ix, a] - self.s.pos[ix, b])

    def nearest_enemy(self, ix, m):
        """The nearest living enemy, ties to the lowest index; -1 where none."""
        M = self.M
        if M == 2:  # a duel: the other mech
            other = (1 - m).astype(IX)
            return np.where(self.s.dur[ix, other, CORE] > 0, other, IX(-1))
        d = np.abs(self.s.pos[ix] - self.s.pos[ix, m][:, None]).astype(np.int64)
        foe = (self.side[None, :] != self.side[m][:, None]) & (self.s.dur[ix, :, CORE] > 0)
        key = np.where(foe, policy.target_rank(d, np.arange(M), M), np.iinfo(np.int64).max)
        best = key.argmin(axis=1).astype(IX)
        return np.where(foe.any(axis=1), best, IX(-1))

    def reactor(self, ix, m, km=None):
        """Reactor Cap now (``km``: m's static rows when the caller has them)."""
        km = self.key(ix, m) if km is None else km
        return reactor_now(self.b, km, self.part_alive(ix, m, BACK))

    def speed(self, ix, m):
        return speed_now(self.b, self.key(ix, m), self.part_alive(ix, m, LEGS),
                         self.s.n_speed[ix, m] * self.b.fx_speed)  # fmt: skip

    def sensors(self, ix, m):
        return sensors_now(self.b, self.key(ix, m), self.part_alive(ix, m, HEAD),
                           self.part_alive(ix, m, BACK),
                           self.s.n_sensors[ix, m] * self.b.fx_sensors)  # fmt: skip

    def working(self, ix, m):
        """bool[n, 3]: mounts carrying a weapon whose part stands."""
        return self.b.has_weapon[self.key(ix, m)] & (self.s.dur[ix, m][:, MOUNT_PART] > 0)

    def reach(self, ix, m, t):
        """(first, second): the best and second-best working mounts reaching ``t``
        (the kit's priority order; -1 where none). A loop over the three priority
        places, each a few flat gathers, beats arg-reductions over [n, 3]."""
        d = self.distance(ix, m, t)
        first = np.full(len(ix), -1, IX)
        second = first.copy()
        base = self.key(ix, m) * 3
        for k in range(3):
            mount = self.order_flat.take(base + k)
            ok = (d <= self.reach_flat.take(base + mount)) & self.part_alive(
                ix, m, MOUNT_PART.take(mount))  # fmt: skip
            second = np.where(ok & (first >= 0) & (second < 0), mount, second)
            first = np.where(ok & (first < 0), mount, first)
        return first, second

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
                    ix, m, MOUNT_PART.take(mount))  # fmt: skip
                weapon = np.where(ok & (weapon < 0), mount, weapon)
        return weapon, np.where(weapon >= 0, -1, self.strike_option(ix, m))

    def melee_option(self, ix, m):
        weapon, strike = self.best_melee(ix, m)
        return (weapon >= 0) | (strike >= 0)

    def max_optimal(self, ix, m):
        """The longest optimal Range among working ranged weapons (1 with none)."""
        best = np.zeros(len(ix), I16)
        base = self.key(ix, m) * 3
        for w in range(3):
            span = self.ranged_flat.take(base + w)
            best = np.maximum(best, span * self.part_alive(ix, m, MOUNTS[w]))
        return np.where(best > 0, best, 1)

    # ---- heat and stress (G) ---------------------------------------------------------

    def gain_heat(self, ix, m, heat) -> None:
        s, b = self.s, self.b
        s.heat[ix, m] += heat
        over = rules.overheats(s.heat[ix, m], self.reactor(ix, m))
        if not over.any():
            return
        ix, m = keep(over, ix, m)
        face = self.dice.roll(rules.TABLE_DIE, len(ix)) - 1
        s.heat[ix, m] = 0
        code, value = b.stress_code[face], b.stress_value[face]
        for kind, part in (("core_damage", CORE), ("back_damage", BACK)):
            k = code == E[kind]
            if k.any():
                self.damage(ix[k], m[k], np.full(k.sum(), part),
                            self.dice.roll(value[k], int(k.sum())))  # fmt: skip
        s.shutdown[ix, m] |= code == E["skip_activation"]
        s.prone[ix, m] |= code == E["prone"]
        s.flicker[ix, m] |= code == E["attack_die"]

    # ---- damage (F6, F7) -------------------------------------------------------------

    def damage(self, ix, t, part, amount) -> None:
        s = self.s
        ok = (s.dur[ix, t, CORE] > 0) & (amount > 0)
        if not ok.all():
            ix, t, part, amount = keep(ok, ix, t, part, amount)
        if not len(ix):
            return
        side = self.side[t]
        part = rules.struck_part(part, s.dur[ix, t, part] > 0)  # F4: destroyed: the Core
        s.dur[ix, t, part] -= amount
        gone = (part != CORE) & (s.dur[ix, t, part] <= 0)
        if gone.any():
            g = np.nonzero(gone)[0]
            s.destroyed[ix[g], side[g], part[g]] += 1
            s.dur[ix[g], t[g], CORE] -= rules.carry_over(s.dur[ix[g], t[g], part[g]])  # F6
            s.dur[ix[g], t[g], part[g]] = 0
        dead = s.dur[ix, t, CORE] <= 0
        if dead.any():
            d = np.nonzero(dead)[0]
            ixd, sd = ix[d], side[d]
            s.destroyed[ixd, sd, CORE] += 1
            s.kills[ixd, 1 - sd] += 1
            same = self.side[None, :] == sd[:, None]
            wiped = ~((s.dur[ixd, :, CORE] > 0) & same).any(axis=1) & (s.winner[ixd] < 0)
            s.winner[ixd[wiped]] = 1 - sd[wiped]

    def crit(self, ix, t, part) -> None:
        s, b = self.s, self.b
        face = self.dice.roll(rules.TABLE_DIE, len(ix)) - 1
        code, value = b.crit_code[face], b.crit_value[face]
        s.n_sensors[ix, t] += code == E["sensors"]
        s.n_speed[ix, t] += code == E["speed"]
        s.n_attack[ix, t] += code == E["attack_die"]
        s.n_coolant[ix, t] += code == E["heat_per_activation"]
        s.n_armor[ix, t, part] += code == E["armor"]
        k = code == E["heat"]
        if k.any():
            self.gain_heat(ix[k], t[k], self.dice.roll(value[k], int(k.sum())))

    # ---- attacks (F) -----------------------------------------------------------------

    def attack(self, ix, m, t, mount, strike, *, extra_dice=0, charge_hexes=0, aimed=False,
               shots=None, reaction=False):  # fmt: skip
        """Fire actions (mount >= 0) or Strikes (strike >= 0), one per row of ``ix``.
        Returns (any hit, last part struck or -1) per row. ``charge_hexes``: hexes a
        Charge moved (F11.3); ``extra_dice``: a designer's signed modifier dice."""
        b, p, s, dice = self.b, self.p, self.s, self.dice
        n = len(ix)
        ka = self.key(ix, m)  # the attacker's static rows
        is_strike = strike >= 0
        w = np.maximum(mount, 0)
        # one flat profile index per row: mounts 0-2, then punch (3) and kick (4)
        prof = ka * 5 + np.where(is_strike, 3 + strike, mount)
        pt = self.profile
        melee = pt["melee"].take(prof)
        n_shots = pt["shots"].take(prof) if shots is None else np.where(is_strike, 1, shots)
        acc_w = pt["acc"].take(prof)
        pen = pt["pen"].take(prof)
        if self.any_shields and (strike == 0).any():  # F11.1: a Shield arm punches harder
            shield_arm = ((b.shield[ka, 1] & self.part_alive(ix, m, 1))
                          | (b.shield[ka, 2] & self.part_alive(ix, m, 2)))  # fmt: skip
            pen = pen + p.shield_punch_pen * ((strike == 0) & shield_arm)
        n_dmg = pt["dice"].take(prof)
        sides = pt["sides"].take(prof)
        bonus = pt["bonus"].take(prof)
        heavy = pt["heavy"].take(prof)
        pulse = pt["pulse"].take(prof)
        dist = self.distance(ix, m, t)
        band = reach_band(dist, pt["range"].take(prof), pt["long"].take(prof), melee)
        # F3 modifier dice, once per Fire action: the situation here, the dice in
        # modifiers.dice_terms. H5 on a track: cover drawn per Fire action (for every
        # row, melee included, which then ignores it, F11: see ScriptedDice).
        cover = np.where(melee, 0, rules.track_cover(dice.roll(rules.COVER_DIE, n), p))
        hard = cover == 2
        bonded = False
        if self.any_bonds:  # D4: a bonded ally within range
            near = b.bonded[ka] & (s.dur[ix, :, CORE] > 0) & (
                np.abs(s.pos[ix] - s.pos[ix, m][:, None]) <= p.bond_range)  # fmt: skip
            bonded = near.any(axis=1)
        t_shield = False
        if self.any_shields:  # F11.6: an intact Shield arm against melee
            kt = self.key(ix, t)
            t_shield = ((b.shield[kt, 1] & self.part_alive(ix, t, 1))
                        | (b.shield[kt, 2] & self.part_alive(ix, t, 2)))  # fmt: skip
        situation = modifiers.Situation(
            melee=melee, long_range=band == 1, cover=cover, engaged=dist <= 1, heavy=heavy,
            moved=s.moved[ix, m], bonded=bonded, locked=s.locked[ix, t], reaction=reaction,
            aimed=aimed, target_shield=t_shield, charge_hexes=charge_hexes,
            attack_crits=s.n_attack[ix, m], flicker=s.flicker[ix, m], extra=extra_dice,
        )  # fmt: skip
        net = np.broadcast_to(modifiers.net_dice(situation, p, self.effects), (n,))
        s.flicker[ix, m] = False  # G stress: the flicker was the next attack's
        mod = rules.modifier_result(dice.modifier_faces(np.abs(net)), net)  # F3
        acc = accuracy(b, ka, melee, acc_w, self.part_alive(ix, m, HEAD))
        side = self.side[m]
        any_hit = np.zeros(n, bool)
        struck = np.full(n, -1, np.int64)
        for shot in range(int(n_shots.max(initial=0))):
            go = (shot < n_shots) & (s.dur[ix, t, CORE] > 0)
            if not go.any():
                break
            g = np.nonzero(go)[0]
            gi, gm, gt = ix[g], m[g], t[g]
            s.shots[gi, side[g]] += 1
            natural = dice.roll(rules.HIT_DIE, len(g))
            evasion = evasion_now(b, self.key(gi, gt), self.part_alive(gi, gt, LEGS),
                                  s.prone[gi, gt])  # fmt: skip
            landed = rules.hits(natural, acc[g], mod[g], evasion)
            kick_miss = ~landed & (strike[g] == 1)
            if kick_miss.any():  # F11.1 a missed kick may fall Prone
                q = np.nonzero(kick_miss)[0]
                kq = self.key(gi[q], gm[q])
                fall = rules.kick_falls(dice.roll(rules.CONTEST_DIE, len(q)), b.piloting[kq], p)
                s.prone[gi[q[fall]], gm[q[fall]]] = True
            if not landed.any():
                continue
            h = g[landed]
            hi, hm, ht, nat = ix[h], m[h], t[h], natural[landed]
            s.hits[hi, side[h]] += 1
            fired = mount[h] >= 0
            if fired.any():
                f = np.flatnonzero(fired)
                s.mount_hits[hi[f], hm[f], mount[h][f]] += 1
            any_hit[h] = True
            part = self.location(hi, ht)
            part = np.where(aimed, CORE, part)
            rerolls = rules.location_rerolls(melee[h], s.prone[hi, ht])  # F11, F7 Prone
            if not aimed:
                for _ in range(2):
                    again = (rerolls > 0) & (part != CORE) & self.part_alive(hi, ht, part)
                    if not again.any():
                        break
                    part[again] = self.location(hi[again], ht[again])
                    rerolls -= again
            covered = rules.hits_cover(part, hard[h])  # H5: the Legs band hits the cover
            if covered.all():
                continue
            if covered.any():
                h, hi, hm, ht, nat, part = keep(~covered, h, hi, hm, ht, nat, part)
            part = rules.struck_part(part, self.part_alive(hi, ht, part))  # F4
            struck[h] = part
            kah, kth = self.key(hi, hm), self.key(hi, ht)  # static rows of the hits
            total = rules.penetration_total(dice.roll(rules.PEN_DIE, len(h)), pen[h], nat, p,
                                            bonus=b.pen_bonus[kah])  # fmt: skip
            armor = rules.armor_now(b.armor[kth, part], p, braced=s.braced[hi, ht],
                                    bonus=b.core_armor_bonus[kth] * (part == CORE),
                                    lost=s.n_armor[hi, ht, part] * b.fx_armor)  # fmt: skip
            outcome = rules.outcome_code(total, armor, p.crit_margin)
            if self.record is not None:
                self.record.append((hi, part, outcome))
            rolled = dice.sum(n_dmg[h], sides[h], bonus[h])
            self.damage(hi, ht, part, rules.hit_damage(outcome, rolled, p))
            crit = (outcome == 2) & (s.dur[hi, ht, CORE] > 0)
            if crit.any():
                s.crits[hi[crit], side[h][crit]] += 1
                fc = crit & (mount[h] >= 0)
                if fc.any():
                    s.mount_crits[hi[fc], hm[fc], mount[h][fc]] += 1
                self.crit(hi[crit], ht[crit], part[crit])
            hot = pulse[h] & (s.dur[hi, ht, CORE] > 0)
            if hot.any():  # G: Pulse hits add ``pulse_heat``
                self.gain_heat(hi[hot], ht[hot], dice.expr(p.pulse_heat, int(hot.sum())))
            knock = rules.knocks_down(melee[h], outcome, b.klass[kah], b.klass[kth])
            s.prone[hi[knock], ht[knock]] = True  # F11.4
        fired = ~is_strike
        if fired.any():
            self.gain_heat(ix[fired], m[fired], b.w_heat[ka[fired], w[fired]])
        return any_hit, struck

    def location(self, ix, t):
        """F4: the band whose last face reaches a d20."""
        roll = self.dice.roll(rules.LOCATION_DIE, len(ix))
        return rules.location(roll, self.b.band_top[self.key(ix, t)])

    def backup_fire(self, ix, m, t) -> None:
        """D4 Backup Fire, partners in index order."""
        if not self.any_bonds:
            return
        b, s = self.b, self.s
        km = self.key(ix, m)
        for o in range(self.M):
            go = (self.running(ix) & (s.dur[ix, t, CORE] > 0) & b.bonded[km, o]
                  & (s.dur[ix, o, CORE] > 0) & s.reaction[ix, o] & ~s.prone[ix, o])  # fmt: skip
            if not go.any():
                continue
            gi, gt = ix[go], t[go]
            go_o = np.full(len(gi), o)
            first = self.reach(gi, go_o, gt)[0]
            f = first >= 0
            if f.any():
                s.reaction[gi[f], o] = False
                self.attack(gi[f], go_o[f], gt[f], first[f], np.full(f.sum(), -1), shots=1,
                            reaction=True)  # fmt: skip

    # ---- movement and reactions (E, E6) ----------------------------------------------

    def move(self, ix, m, t, goal, budget) -> None:
        s, b = self.s, self.b
        d = self.distance(ix, m, t)
        step = np.minimum(budget, np.abs(d - goal))
        go = step > 0
        if not go.any():
            return
        ix, m, t, d, step, goal = (
            ix[go],
            m[go],
            t[go],
            d[go],
            step[go],
            np.broadcast_to(goal, go.shape)[go],
        )
        pm, pt = s.pos[ix, m], s.pos[ix, t]
        toward = np.where(pt > pm, 1, np.where(pt < pm, -1, np.where(self.side[m] == 0, 1, -1)))
        direction = np.where(d > goal, toward, -toward)
        before = np.abs(s.pos[ix] - pm[:, None])  # [n, M] distances before the move
        foe_alive = (self.side[None, :] != self.side[m][:, None]) & (s.dur[ix, :, CORE] > 0)
        s.pos[ix, m] = np.clip(pm + direction * step, b.wall_low, b.wall_high)
        s.moved[ix, m] = True
        for e in range(self.M):
            go = foe_alive[:, e] & self.running(ix) & (s.dur[ix, m, CORE] > 0)
            if go.any():
                gi, gm, gb = keep(go, ix, m, before[:, e])
                self.react_to_move(gi, e, gm, gb)

    def react_to_move(self, ix, e: int, m, before) -> None:
        """Mech ``e`` reacts to ``m``'s move: Disengage, Overwatch, riposte (E6). Each
        check is computed only where it can apply."""
        s, b = self.s, self.b
        ok = (s.dur[ix, e, CORE] > 0) & s.reaction[ix, e] & ~s.prone[ix, e]
        ix, m, before = keep(ok, ix, m, before)
        n = len(ix)
        if not n:
            return
        ke = self.key(ix, e)  # e's static row: e itself with one matchup, else [n]
        after = self.distance(ix, e, m)
        none = np.zeros(n, bool)
        disengage, overwatch, riposte = none, none, none
        leaving = (before <= 1) & (after > 1)
        if leaving.any():
            option = self.strike_option(ix, e)
            disengage = leaving & (option >= 0)
        held = s.overwatch[ix, e].astype(np.int64)
        armed = held >= 0
        if armed.any():
            hw = np.maximum(held, 0)
            overwatch = (~disengage & armed & b.has_weapon[ke, hw]
                         & self.part_alive(ix, e, MOUNT_PART[hw])
                         & (reach_band(after, b.w_range[ke, hw], b.w_long[ke, hw],
                                       b.w_melee[ke, hw]) < 2))  # fmt: skip
        ripostes = b.riposte[ke]  # one bool with one matchup, else bool[n]
        if ripostes.any():
            arriving = ripostes & ~disengage & ~overwatch & (before > 1) & (after <= 1)
            if arriving.any():
                weapon, strike = self.best_melee(ix, np.full(n, e))
                riposte = arriving & ((weapon >= 0) | (strike >= 0))
        for k, kind in ((disengage, "disengage"), (overwatch, "overwatch"), (riposte, "riposte")):
            if not k.any():
                continue
            rows = np.flatnonzero(k)
            ki, km = ix[rows], m[rows]
            who = np.full(len(rows), e)
            s.reaction[ki, e] = False
            if kind == "overwatch":  # E5: Overwatch takes no reaction [-]
                s.overwatch[ki, e] = -1
                self.attack(ki, who, km, held[rows], np.full(len(rows), -1))
            elif kind == "disengage":
                self.attack(ki, who, km, np.full(len(rows), -1), option[rows], reaction=True)
            else:
                self.attack(ki, who, km, weapon[rows], strike[rows], reaction=True)

    # ---- the activation (E), as battle.py lists it -----------------------------------

    def activate(self, ix, m) -> None:
        self.act(ix, m)
        self.s.moved[ix, m] = False

    def act(self, ix, m) -> None:  # noqa: C901 - one step per rulebook action, in order
        b, p, s, dice = self.b, self.p, self.s, self.dice
        s.braced[ix, m] = False
        s.overwatch[ix, m] = -1
        s.moved[ix, m] = False
        off = s.shutdown[ix, m]
        s.shutdown[ix[off], m[off]] = False
        ix, m = keep(~off, ix, m)
        leak = s.n_coolant[ix, m] > 0
        if leak.any():
            self.gain_heat(ix[leak], m[leak], s.n_coolant[ix[leak], m[leak]] * b.fx_coolant)
            ok = s.dur[ix, m, CORE] > 0
            ix, m = keep(ok, ix, m)
        if not len(ix):
            return
        quick = np.full(len(ix), 2)
        budget = self.speed(ix, m)
        prone = s.prone[ix, m]
        s.prone[ix, m] = False
        budget = np.where(prone, 0, budget)
        km = self.key(ix, m)  # the static rows of m (recomputed whenever ix shrinks)
        # 2. Overcharge (G3)
        oc = policy.overcharges(s.heat[ix, m], self.reactor(ix, m, km), b.p_overcharge_below[km])
        if oc.any():
            o = np.nonzero(oc)[0]
            nth = np.minimum(s.overcharges[ix[o], m[o]], len(b.overcharge) - 1)
            s.overcharges[ix[o], m[o]] += 1
            quick[o] = 3
            table = np.array(b.overcharge)
            self.gain_heat(ix[o], m[o], dice.sum(table[nth, 0], table[nth, 1], table[nth, 2]))
            ok = s.dur[ix, m, CORE] > 0
            ix, m, quick, budget = keep(ok, ix, m, quick, budget)
            km = self.key(ix, m)
        # 3. Stabilize or Vent
        effects = (s.n_sensors[ix, m] + s.n_speed[ix, m] + s.n_attack[ix, m]
                   + s.n_coolant[ix, m] + s.n_armor[ix, m].sum(axis=1))  # fmt: skip
        stab = policy.stabilizes(effects, b.p_stabilize_at[km], quick)
        if stab.any():
            self.stabilize(ix[stab], m[stab])
            quick -= 2 * stab
        vent = ~stab & policy.vents(s.heat[ix, m], self.reactor(ix, m, km), b.p_vent_at[km])
        if vent.any():
            v = np.nonzero(vent)[0]
            cooled = s.heat[ix[v], m[v]] - dice.expr(p.vent_heat, len(v)) - b.vent_bonus[km[v]]
            s.heat[ix[v], m[v]] = np.maximum(0, cooled)
            quick -= vent
        # 4. target
        t = self.nearest_enemy(ix, m)
        ok = t >= 0
        ix, m, t, quick, budget = keep(ok, ix, m, t, quick, budget)
        if not len(ix):
            return
        km = self.key(ix, m)
        d = self.distance(ix, m, t)
        # 5. Charge, or Move then Boost
        charge = policy.charges(b.p_charge[km], quick, d, budget, self.melee_option(ix, m))
        boosted = np.zeros(len(ix), bool)
        if charge.any():
            c = np.nonzero(charge)[0]
            quick[c] -= 2
            self.charge(ix[c], m[c], t[c], d[c] - 1)
        mv = ~charge
        if mv.any():
            g = np.nonzero(mv)[0]
            gi, gm, gt = ix[g], m[g], t[g]
            goal = policy.move_goal(b.p_adjacent[km[g]], self.max_optimal(gi, gm))
            self.move(gi, gm, gt, goal, budget[g])
            live = self.running(gi) & (s.dur[gi, gm, CORE] > 0)
            spd = self.speed(gi, gm)
            boost = live & policy.boosts(b.p_boost[km[g]], quick[g], self.reach(gi, gm, gt)[0] >= 0,
                                         spd, self.distance(gi, gm, gt), goal)  # fmt: skip
            if boost.any():
                k = np.nonzero(boost)[0]
                boosted[g[k]] = True
                quick[g[k]] -= 1
                self.move(gi[k], gm[k], gt[k], goal[k], spd[k])
        ok = self.running(ix) & (s.dur[ix, m, CORE] > 0)
        ix, m, t, quick, boosted, charge = keep(ok, ix, m, t, quick, boosted, charge)
        gone = s.dur[ix, t, CORE] <= 0
        if gone.any():
            t = t.copy()
            t[gone] = self.nearest_enemy(ix[gone], m[gone])
        ok = t >= 0
        ix, m, t, quick, boosted, charge = keep(ok, ix, m, t, quick, boosted, charge)
        if not len(ix):
            return
        km = self.key(ix, m)
        # 6. Attack
        first, second = self.reach(ix, m, t)
        f0, f1 = np.maximum(first, 0), np.maximum(second, 0)
        can = ~charge & (quick >= 1)
        # holds_overwatch's last condition (a working ranged weapon) is read only on the
        # rows where the others hold
        overwatch = can & policy.holds_overwatch(b.p_overwatch[km], quick, first >= 0, True)
        if overwatch.any():
            ranged = self.working(ix, m) & ~b.w_melee[km]
            overwatch &= ranged.any(axis=1)
        barrage = can & ~overwatch & policy.barrages(
            b.p_barrage[km], quick, second >= 0, s.heat[ix, m],
            b.w_heat[km, f0] + b.w_heat[km, f1], p.barrage_heat, self.reactor(ix, m, km))
        aimed = can & ~overwatch & ~barrage & policy.aims(b.p_aimed[km], quick, first >= 0,
                                                          b.w_shots[km, f0])  # fmt: skip
        fire = can & ~overwatch & ~barrage & ~aimed & (first >= 0)
        if overwatch.any():
            k = np.nonzero(overwatch)[0]
            longest = np.where(ranged[k], policy.overwatch_rank(b.w_long[km[k]], np.arange(3)), -1)
            s.overwatch[ix[k], m[k]] = longest.argmax(axis=1)
            quick[k] -= 2
        if barrage.any():
            k = np.nonzero(barrage)[0]
            quick[k] -= 2
            none = np.full(len(k), -1)
            self.attack(ix[k], m[k], t[k], first[k], none)
            again = self.running(ix[k]) & (s.dur[ix[k], t[k], CORE] > 0) & (
                s.dur[ix[k], m[k], CORE] > 0)  # fmt: skip
            if again.any():
                a = k[again]
                self.attack(ix[a], m[a], t[a], second[a], none[again])
            hot = s.dur[ix[k], m[k], CORE] > 0
            if hot.any():
                self.gain_heat(ix[k[hot]], m[k[hot]], p.barrage_heat)
            self.backup_fire(ix[k], m[k], t[k])
        if aimed.any():
            k = np.nonzero(aimed)[0]
            quick[k] -= 2
            self.attack(ix[k], m[k], t[k], first[k], np.full(len(k), -1), aimed=True)
            self.backup_fire(ix[k], m[k], t[k])
        if fire.any():
            k = np.nonzero(fire)[0]
            lock = policy.tries_lock_on(b.p_lock_on[km[k]], quick[k], s.locked[ix[k], t[k]],
                                        self.distance(ix[k], m[k], t[k]),
                                        self.sensors(ix[k], m[k]))  # fmt: skip
            if lock.any():
                j = k[lock]
                quick[j] -= 1
                self.lock_on(ix[j], m[j], t[j])
            quick[k] -= 1
            self.attack(ix[k], m[k], t[k], first[k], np.full(len(k), -1))
            self.backup_fire(ix[k], m[k], t[k])
        # 7. spare Quick actions: Strike once when adjacent, else Brace
        struck = np.zeros(len(ix), bool)
        for _ in range(2):
            go = (quick >= 1) & self.running(ix) & (s.dur[ix, m, CORE] > 0)
            if not go.any():
                break
            gone = s.dur[ix, t, CORE] <= 0
            if gone.any():
                t = t.copy()
                t[gone] = self.nearest_enemy(ix[gone], m[gone])
            tt = np.maximum(t, 0)
            option = self.strike_option(ix, m)
            strike = go & policy.strikes(b.p_strike[km], struck, t >= 0,
                                         self.distance(ix, m, tt), option)  # fmt: skip
            brace = go & ~strike & policy.braces(b.p_brace[km], boosted, s.braced[ix, m])
            if strike.any():
                k = np.nonzero(strike)[0]
                struck[k] = True
                quick[k] -= 1
                self.attack(ix[k], m[k], tt[k], np.full(len(k), -1), option[k])
            if brace.any():
                s.braced[ix[brace], m[brace]] = True
                quick -= brace
            quick = np.where(go & ~strike & ~brace, 0, quick)  # the reference's `break`

    def lock_on(self, ix, m, t) -> None:
        b, s = self.b, self.s
        km = self.key(ix, m)
        roll = self.dice.roll(rules.CONTEST_DIE, len(ix))
        ok = rules.locks_on(roll, b.systems[km], e_def_now(b, self.key(ix, t),
                                                           self.part_alive(ix, t, HEAD)),
                            bonus=b.lock_bonus[km])  # fmt: skip
        s.locked[ix[ok], t[ok]] = True

    def stabilize(self, ix, m) -> None:
        s = self.s
        s.heat[ix, m] = 0
        s.prone[ix, m] = False
        left = np.ones(len(ix), bool)
        for counter in (s.n_attack, s.n_speed, s.n_coolant, s.n_sensors):
            k = left & (counter[ix, m] > 0)
            counter[ix[k], m[k]] -= 1
            left &= ~k
        armor = s.n_armor[ix, m] > 0  # [n, 6]
        k = left & armor.any(axis=1)
        if k.any():
            part = armor[k].argmax(axis=1)
            s.n_armor[ix[k], m[k], part] -= 1

    def charge(self, ix, m, t, hexes) -> None:
        b, p, s = self.b, self.p, self.s
        start = s.pos[ix, m].copy()
        self.move(ix, m, t, np.ones(len(ix), np.int64), hexes)
        ok = self.running(ix) & (s.dur[ix, m, CORE] > 0) & (s.dur[ix, t, CORE] > 0)
        ix, m, t, start = keep(ok, ix, m, t, start)
        if not len(ix):
            return
        moved = np.abs(s.pos[ix, m] - start)
        adj = self.distance(ix, m, t) <= 1
        if adj.any():
            a = np.nonzero(adj)[0]
            ai, am, at = ix[a], m[a], t[a]
            weapon, strike = self.best_melee(ai, am)
            landed, part = self.attack(ai, am, at, weapon, strike, charge_hexes=moved[a])
            push = landed & (s.dur[ai, at, CORE] > 0) & (part >= 0)
            if push.any():
                q = np.nonzero(push)[0]
                qi, qm, qt = ai[q], am[q], at[q]
                pm, pt = s.pos[qi, qm], s.pos[qi, qt]
                away = np.where(
                    pt > pm, 1, np.where(pt < pm, -1, np.where(self.side[qt] == 0, 1, -1))
                )
                inside = (pt + away >= b.wall_low) & (pt + away <= b.wall_high)
                s.pos[qi[inside], qt[inside]] += away[inside].astype(I16)
                wall = ~inside
                if wall.any():
                    self.damage(
                        qi[wall], qt[wall], part[q][wall],
                        self.dice.expr(p.charge_wall_damage, int(wall.sum())),
                    )
        ok = (s.dur[ix, m, CORE] > 0) & self.running(ix)
        if ok.any():
            self.damage(ix[ok], m[ok], np.full(ok.sum(), LEGS),
                        self.dice.expr(p.charge_self_damage, int(ok.sum())))
        ok = (s.dur[ix, m, CORE] > 0) & self.running(ix)
        if ok.any():
            self.gain_heat(ix[ok], m[ok], p.charge_heat)

    # ---- the game (I) ----------------------------------------------------------------

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

    def play(self) -> dict[str, np.ndarray]:
        s, b = self.s, self.b
        ix = np.arange(self.n, dtype=IX)
        for r in range(1, self.p.round_cap + 1):
            ix = ix[self.running(ix)]
            if not len(ix):
                break
            s.rounds[ix] = r
            self.play_round(ix)
            s.locked[:] = False
        per_mech = b.durability.reshape(self.S, self.M, 6).sum(axis=2)  # [S, M]
        max_total = np.stack([per_mech[:, self.side == k].sum(axis=1) for k in (0, 1)],
                             1).astype(float)  # float[S, 2]: each matchup's full Hull  # fmt: skip
        if self.scenario is not None:
            max_total = max_total[self.scenario]  # float[N, 2]
        alive = s.dur[:, :, CORE] > 0
        now = (np.maximum(s.dur.a, 0).sum(axis=2) * alive).astype(float)
        hull = np.stack([now[:, self.side == k].sum(axis=1) / max_total[:, k] for k in (0, 1)], 1)
        points = rules.points(s.kills.a, 0, self.p)  # [N, 2]; no zones on a track
        winner, decided = rules.decide(s.winner.astype(np.int64), points[:, 0], points[:, 1],
                                       hull[:, 0], hull[:, 1])  # fmt: skip
        return {
            "winner": winner.astype(np.int8), "rounds": s.rounds.copy(),
            "decided": decided.astype(np.int8), "hull": hull,
            "kills": s.kills.a.copy(), "crits": s.crits.a.copy(), "shots": s.shots.a.copy(),
            "hits": s.hits.a.copy(), "destroyed": s.destroyed.a.copy(),
            "mount_hits": s.mount_hits.a.copy(), "mount_crits": s.mount_crits.a.copy(),
        }  # fmt: skip


def play(battles: Sequence[Battle], scenario: np.ndarray,
         rng: np.random.Generator) -> dict[str, np.ndarray]:  # fmt: skip
    """Play ``len(scenario)`` battles, battle i the matchup ``battles[scenario[i]]``;
    arrays of per-battle results in that order (see State). The battles must share a
    ``battle.batch_key`` (ValueError otherwise); with one matchup the results are those of
    N battles of it, draw for draw."""
    return Engine(battles, scenario, rng).play()
