"""Mecha Skirmish reference engine: one battle at a time, rule by rule, in plain Python.

This is the oracle the vectorized engine is tested against, so it favours reading over
speed. The battle model it plays is written down in ``battle.py``; each step below cites
the rulebook section (seed 003) it implements. Dice come from a :class:`Dice` source
passed in explicitly: :class:`RandomDice` over a ``numpy.random.Generator`` for play,
:class:`ScriptedDice` for hand-traced battles in tests. Every rule is a call to
``rules.py`` (through ``battle.py`` for a Battle's numbers); a Fire action's modifier
dice come from ``modifiers.net_dice``.

Entry points: :func:`play_one` plays one battle with a Dice source or a Generator;
:func:`play` is the engine contract shared with ``vector.play``: a batch of battles, each
carrying its own matchup by scenario id, played one after another on one Generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from sims.skirmish import modifiers, policy, rules
from sims.skirmish.battle import (
    BACK,
    CORE,
    EFFECT_CODES,
    HEAD,
    LEGS,
    MOUNTS,
    SIDE_A,
    SIDE_B,
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

ENGINE_VERSION = "skirmish-reference-1"
E = EFFECT_CODES


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


class Game:
    """One battle in progress."""

    def __init__(self, battle: Battle, dice: Dice) -> None:
        self.b, self.dice, self.p = battle, dice, battle.params
        self.effects = modifiers.EffectDice(crit=battle.fx_attack, stress=battle.flicker_dice)
        self.mechs = [
            MechState(pos=int(battle.start[m]), dur=[int(d) for d in battle.durability[m]])
            for m in range(battle.mechs)
        ]
        self.kills = [0, 0]
        self.crits = [0, 0]
        self.shots = [0, 0]
        self.hits = [0, 0]
        self.destroyed = [[0] * 6, [0] * 6]
        self.mount_hits = [[0] * 3 for _ in range(battle.mechs)]
        self.mount_crits = [[0] * 3 for _ in range(battle.mechs)]
        self.winner: int | None = None

    # ---- helpers ---------------------------------------------------------------------

    def side(self, m: int) -> int:
        return int(self.b.side[m])

    def living(self, side: int) -> list[int]:
        return [m for m, s in enumerate(self.mechs) if s.alive and self.side(m) == side]

    def distance(self, a: int, b: int) -> int:
        return abs(self.mechs[a].pos - self.mechs[b].pos)

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

    def reach(self, m: int, t: int) -> list[int]:
        """Working weapon mounts that reach ``t`` now, best first (F Declare)."""
        d, s, b = self.distance(m, t), self.mechs[m], self.b
        out = []
        for w in b.w_order[m]:
            w = int(w)
            if b.has_weapon[m, w] and s.part_alive(MOUNTS[w]):
                if reach_band(d, b.w_range[m, w], b.w_long[m, w], b.w_melee[m, w]) < 2:
                    out.append(w)
        return out

    def strike_option(self, m: int) -> int | None:
        """F11.1: a punch needs an intact arm, a kick intact legs. 0 punch, 1 kick."""
        s = self.mechs[m]
        option = policy.strike_option(s.part_alive(1) or s.part_alive(2), s.part_alive(LEGS))
        return None if option == policy.NO_STRIKE else option

    def melee_option(self, m: int) -> bool:
        b, s = self.b, self.mechs[m]
        weapon = any(b.has_weapon[m, w] and b.w_melee[m, w] and s.part_alive(MOUNTS[w])
                     for w in range(3))  # fmt: skip
        return weapon or self.strike_option(m) is not None

    # ---- heat and stress (G) ---------------------------------------------------------

    def gain_heat(self, m: int, heat: int) -> None:
        """G: the moment Heat exceeds Reactor Cap, roll d6 on the stress table; Heat then
        resets to 0 in every case."""
        s = self.mechs[m]
        s.heat += heat
        if not rules.overheats(s.heat, self.reactor(m)):
            return
        face = self.dice.roll(rules.TABLE_DIE)
        s.heat = 0
        code, value = int(self.b.stress_code[face - 1]), int(self.b.stress_value[face - 1])
        if code == E["core_damage"]:
            self.damage(m, CORE, self.dice.roll(value), attacker=None)
        elif code == E["skip_activation"]:
            s.shutdown = True
        elif code == E["prone"]:
            s.prone = True
        elif code == E["back_damage"]:
            self.damage(m, BACK, self.dice.roll(value), attacker=None)
        elif code == E["attack_die"]:
            s.flicker = True

    # ---- damage (F6, F7) -------------------------------------------------------------

    def damage(self, t: int, part: int, amount: int, attacker: int | None) -> None:
        """F6: subtract from the part's Durability; anything past 0 carries into the Core.
        A part destroyed earlier passes its damage to the Core."""
        s = self.mechs[t]
        if not s.alive or amount <= 0:
            return
        part = rules.struck_part(part, s.part_alive(part))  # F4: a destroyed part: the Core
        side = self.side(t)
        s.dur[part] -= amount
        if part != CORE and s.dur[part] <= 0:
            self.destroyed[side][part] += 1
            s.dur[CORE] -= rules.carry_over(s.dur[part])  # F6, no second penetration roll
            s.dur[part] = 0
        if not s.alive:
            self.destroyed[side][CORE] += 1
            self.kills[1 - side] += 1
            if not self.living(side) and self.winner is None:
                self.winner = 1 - side  # the first wipe decides, whatever follows

    def crit(self, t: int, part: int) -> None:
        """F7: one d6 on the crit table; effects last until Stabilize."""
        s = self.mechs[t]
        face = self.dice.roll(rules.TABLE_DIE)
        code, value = int(self.b.crit_code[face - 1]), int(self.b.crit_value[face - 1])
        if code == E["sensors"]:
            s.n_sensors += 1
        elif code == E["speed"]:
            s.n_speed += 1
        elif code == E["attack_die"]:
            s.n_attack += 1
        elif code == E["heat_per_activation"]:
            s.n_coolant += 1
        elif code == E["armor"]:
            s.n_armor[part] += 1
        elif code == E["heat"]:
            self.gain_heat(t, self.dice.roll(value))

    # ---- attacks (F) -----------------------------------------------------------------

    def attack(self, m: int, t: int, mount: int | None, *, strike: int | None = None,
               extra_dice: int = 0, charge_hexes: int = 0, aimed: bool = False,
               shots: int | None = None, reaction: bool = False) -> tuple[bool, int]:  # fmt: skip
        """One Fire action (or a Strike when ``strike`` is given). Returns (any hit, the
        last part struck). ``charge_hexes``: hexes a Charge moved (F11.3); ``extra_dice``
        a designer's signed modifier dice."""
        b, p, a, s = self.b, self.p, self.mechs[m], self.mechs[t]
        if strike is None:
            melee = bool(b.w_melee[m, mount])
            n_shots = int(b.w_shots[m, mount]) if shots is None else shots
            acc_w, pen = int(b.w_acc[m, mount]), int(b.w_pen[m, mount])
            dmg = (int(b.w_dice[m, mount]), int(b.w_sides[m, mount]), int(b.w_bonus[m, mount]))
            heavy, pulse = bool(b.w_heavy[m, mount]), bool(b.w_pulse[m, mount])
            band = int(reach_band(self.distance(m, t), b.w_range[m, mount],
                                  b.w_long[m, mount], melee))  # fmt: skip
        else:  # F11.1 improvised strike; a Shield arm punches at +1 Pen
            melee, n_shots, acc_w, heavy, pulse, band = True, 1, 0, False, False, 0
            pen = int(b.s_pen[strike])
            if strike == 0 and (b.shield[m, 1] and a.part_alive(1) or
                                b.shield[m, 2] and a.part_alive(2)):  # fmt: skip
                pen += p.shield_punch_pen
            dmg = (int(b.s_dice[strike]), int(b.s_sides[strike]), int(b.s_bonus[strike]))
        # F3 modifier dice, once per Fire action: the situation here, the dice in
        # modifiers.dice_terms. H5 on a track: cover drawn per Fire action, ranged only
        # (melee ignores cover, F11).
        cover = 0 if melee else rules.track_cover(self.dice.roll(rules.COVER_DIE), p)
        situation = modifiers.Situation(
            melee=melee, long_range=band == 1, cover=cover, engaged=self.distance(m, t) <= 1,
            heavy=heavy, moved=a.moved,
            bonded=any(b.bonded[m, o] and self.mechs[o].alive
                       and self.distance(m, o) <= p.bond_range for o in range(b.mechs)),
            locked=s.locked, reaction=reaction, aimed=aimed,
            target_shield=bool(b.shield[t, 1] and s.part_alive(1)
                               or b.shield[t, 2] and s.part_alive(2)),
            charge_hexes=charge_hexes, attack_crits=a.n_attack, flicker=a.flicker,
            extra=extra_dice,
        )  # fmt: skip
        net = modifiers.net_dice(situation, p, self.effects)
        a.flicker = False  # G stress: the flicker was the next attack's
        mod = rules.modifier_result(self.dice.rolls(abs(net), rules.MODIFIER_DIE), net)
        acc = int(accuracy(b, m, melee, acc_w, a.part_alive(HEAD)))
        any_hit, struck = False, -1
        side = self.side(m)
        for _ in range(n_shots):  # F: resolve each shot fully before the next
            if not s.alive:
                break
            self.shots[side] += 1
            natural = self.dice.roll(rules.HIT_DIE)
            evasion = int(evasion_now(b, t, s.part_alive(LEGS), s.prone))
            if not rules.hits(natural, acc, mod, evasion):
                if strike == 1:  # F11.1 a missed kick: d20 + Piloting below 10 falls Prone
                    if rules.kick_falls(self.dice.roll(rules.CONTEST_DIE), int(b.piloting[m]), p):
                        a.prone = True
                continue
            self.hits[side] += 1
            if strike is None:
                self.mount_hits[m][mount] += 1
            any_hit = True
            if aimed:
                part = CORE  # E Aimed Shot chooses the band
            else:
                part = self.location(t)
                rerolls = rules.location_rerolls(melee, s.prone)  # F11, F7 Prone
                while rerolls and part != CORE and s.part_alive(part):
                    part, rerolls = self.location(t), rerolls - 1
            if rules.hits_cover(part, cover == 2):
                continue  # H5: the Legs band hits the cover; the shot is over
            part = rules.struck_part(part, s.part_alive(part))  # F4: destroyed: the Core
            struck = part
            total = rules.penetration_total(self.dice.roll(rules.PEN_DIE), pen, natural, p,
                                            bonus=int(b.pen_bonus[m]))  # fmt: skip
            armor = rules.armor_now(int(b.armor[t, part]), p, braced=s.braced,
                                    bonus=int(b.core_armor_bonus[t]) if part == CORE else 0,
                                    lost=s.n_armor[part] * b.fx_armor)  # fmt: skip
            outcome = rules.outcome_code(total, armor, p.crit_margin)
            rolled = self.roll_dice(*dmg)
            self.damage(t, part, rules.hit_damage(outcome, rolled, p), m)
            if outcome == 2 and s.alive:
                self.crits[side] += 1
                if strike is None:
                    self.mount_crits[m][mount] += 1
                self.crit(t, part)
            if pulse and s.alive:
                self.gain_heat(t, self.roll_expr(p.pulse_heat))  # G: Pulse hits add Heat
            if rules.knocks_down(melee, outcome, int(b.klass[m]), int(b.klass[t])):
                s.prone = True  # F11.4 knockdown
        if strike is None:
            self.gain_heat(m, int(b.w_heat[m, mount]))  # E Fire: add its Heat
        return any_hit, struck

    def location(self, t: int) -> int:
        roll = self.dice.roll(rules.LOCATION_DIE)
        return rules.location(roll, self.b.band_top[t])  # F4: the first band reaching it

    def best_melee(self, m: int) -> tuple[int | None, int | None]:
        """(melee weapon mount, or None with a strike) for Charge and riposte."""
        b, s = self.b, self.mechs[m]
        for w in b.w_order[m]:
            w = int(w)
            if b.has_weapon[m, w] and b.w_melee[m, w] and s.part_alive(MOUNTS[w]):
                return w, None
        return None, self.strike_option(m)

    def backup_fire(self, m: int, t: int) -> None:
        """D4: when a bond partner attacks, fire one shot at 1[-] from a weapon in reach."""
        for o in range(self.b.mechs):
            if self.winner is not None or not self.mechs[t].alive:
                return
            so = self.mechs[o]
            if self.b.bonded[m, o] and so.alive and so.reaction and not so.prone:
                mounts = self.reach(o, t)
                if mounts:
                    so.reaction = False
                    self.attack(o, t, mounts[0], shots=1, reaction=True)

    # ---- movement and reactions (E, E6) ----------------------------------------------

    def move(self, m: int, t: int, goal: int, budget: int) -> None:
        """Move up to ``budget`` hexes so the distance to ``t`` approaches ``goal``."""
        a = self.mechs[m]
        d = self.distance(m, t)
        step = min(budget, abs(d - goal))
        if step == 0:
            return
        toward = 1 if self.mechs[t].pos > a.pos else -1 if self.mechs[t].pos < a.pos else (
            1 if self.side(m) == 0 else -1)  # fmt: skip
        direction = toward if d > goal else -toward
        before = {e: self.distance(m, e) for e in self.living(1 - self.side(m))}
        a.pos = min(self.b.wall_high, max(self.b.wall_low, a.pos + direction * step))
        a.moved = True
        for e in sorted(before):
            self.react_to_move(e, m, before[e])
            if self.winner is not None or not a.alive:
                return

    def react_to_move(self, e: int, m: int, before: int) -> None:
        """E6: Disengage, Overwatch, riposte; one Reaction per round, none while Prone."""
        se, b = self.mechs[e], self.b
        if not (se.alive and se.reaction and not se.prone):
            return
        after = self.distance(e, m)
        if before <= 1 < after:  # F11.8 Disengage strike
            option = self.strike_option(e)
            if option is not None:
                se.reaction = False
                self.attack(e, m, None, strike=option, reaction=True)
                return
        if se.overwatch >= 0 and b.has_weapon[e, se.overwatch] and se.part_alive(
            MOUNTS[se.overwatch]
        ) and reach_band(after, b.w_range[e, se.overwatch], b.w_long[e, se.overwatch],
                         b.w_melee[e, se.overwatch]) < 2:  # fmt: skip
            w, se.overwatch, se.reaction = se.overwatch, -1, False
            self.attack(e, m, w)  # E5: Overwatch takes no reaction [-]
            return
        if b.riposte[e] and before > 1 >= after:  # D6 Marrow's riposte
            w, option = self.best_melee(e)
            if w is not None or option is not None:
                se.reaction = False
                self.attack(e, m, w, strike=None if w is not None else option, reaction=True)

    # ---- the activation (E), as battle.py lists it -----------------------------------

    def activate(self, m: int) -> None:
        self.act(m)
        self.mechs[m].moved = False  # Heavy's "moved this activation" ends with it

    def act(self, m: int) -> None:
        b, p, a = self.b, self.p, self.mechs[m]
        a.braced, a.overwatch, a.moved = False, -1, False  # 1. upkeep
        if a.shutdown:
            a.shutdown = False
            return
        if a.n_coolant:
            self.gain_heat(m, a.n_coolant * b.fx_coolant)
            if not a.alive:
                return
        quick, budget = 2, self.speed(m)
        if a.prone:
            a.prone, budget = False, 0  # F7: standing costs the whole Move
        # 2. Overcharge (G3), free and once per activation
        if policy.overcharges(a.heat, self.reactor(m), b.p_overcharge_below[m]):
            nth = min(a.overcharges, len(b.overcharge) - 1)
            a.overcharges += 1
            quick = 3
            self.gain_heat(m, self.roll_dice(*b.overcharge[nth]))
            if not a.alive:
                return
        # 3. Stabilize (Full) or Vent (Quick)
        if policy.stabilizes(a.effects, b.p_stabilize_at[m], quick):
            self.stabilize(m)
            quick -= 2
        elif policy.vents(a.heat, self.reactor(m), b.p_vent_at[m]):
            a.heat = max(0, a.heat - self.roll_expr(p.vent_heat) - int(b.vent_bonus[m]))
            quick -= 1
        t = self.nearest_enemy(m)  # 4. target
        if t is None:
            return
        boosted = charged = False
        d = self.distance(m, t)
        # 5. Charge (F11.3) or Move (+ Boost)
        if policy.charges(b.p_charge[m], quick, d, budget, self.melee_option(m)):
            charged, quick = True, quick - 2
            self.charge(m, t, d - 1)
        else:
            goal = policy.move_goal(b.p_adjacent[m], self.max_optimal(m))
            self.move(m, t, goal, budget)
            if self.winner is not None or not a.alive:
                return
            if policy.boosts(b.p_boost[m], quick, bool(self.reach(m, t)), self.speed(m),
                             self.distance(m, t), goal):  # fmt: skip
                boosted, quick = True, quick - 1
                self.move(m, t, goal, self.speed(m))
        if self.winner is not None or not a.alive:
            return
        t = t if self.mechs[t].alive else self.nearest_enemy(m)
        if t is None:
            return
        # 6. Attack
        if not charged and quick >= 1:
            mounts = self.reach(m, t)
            ranged = [w for w in range(3) if b.has_weapon[m, w] and not b.w_melee[m, w]
                      and a.part_alive(MOUNTS[w])]  # fmt: skip
            two_heat = sum(int(b.w_heat[m, w]) for w in mounts[:2])
            shots = int(b.w_shots[m, mounts[0]]) if mounts else 0
            if policy.holds_overwatch(b.p_overwatch[m], quick, bool(mounts), bool(ranged)):
                a.overwatch = max(ranged, key=lambda w: policy.overwatch_rank(
                    int(b.w_long[m, w]), w))  # fmt: skip
                quick -= 2
            elif policy.barrages(b.p_barrage[m], quick, len(mounts) >= 2, a.heat, two_heat,
                                 p.barrage_heat, self.reactor(m)):  # fmt: skip
                quick -= 2
                self.attack(m, t, mounts[0])
                if self.mechs[t].alive and a.alive and self.winner is None:
                    self.attack(m, t, mounts[1])
                if a.alive:
                    self.gain_heat(m, p.barrage_heat)
                self.backup_fire(m, t)
            elif policy.aims(b.p_aimed[m], quick, bool(mounts), shots):
                quick -= 2
                self.attack(m, t, mounts[0], aimed=True)
                self.backup_fire(m, t)
            elif mounts:
                if policy.tries_lock_on(b.p_lock_on[m], quick, self.mechs[t].locked,
                                        self.distance(m, t), self.sensors(m)):  # fmt: skip
                    quick -= 1
                    self.lock_on(m, t)
                quick -= 1
                self.attack(m, t, mounts[0])
                self.backup_fire(m, t)
        # 7. spare Quick actions: Strike once when adjacent, else Brace
        struck = False
        while quick >= 1 and self.winner is None and a.alive:
            t = t if self.mechs[t].alive else self.nearest_enemy(m)
            option = self.strike_option(m)
            distance = self.distance(m, t) if t is not None else 0
            if policy.strikes(b.p_strike[m], struck, t is not None, distance,
                              policy.NO_STRIKE if option is None else option):  # fmt: skip
                struck, quick = True, quick - 1
                self.attack(m, t, None, strike=option)
            elif policy.braces(b.p_brace[m], boosted, a.braced):
                a.braced, quick = True, quick - 1
            else:
                break

    def max_optimal(self, m: int) -> int:
        """Preferred distance of a ranged policy: the longest optimal Range it has."""
        b, s = self.b, self.mechs[m]
        ranges = [int(b.w_range[m, w]) for w in range(3) if b.has_weapon[m, w]
                  and not b.w_melee[m, w] and s.part_alive(MOUNTS[w])]  # fmt: skip
        return max(ranges, default=1)

    def sensors(self, m: int) -> int:
        s = self.mechs[m]
        return int(sensors_now(self.b, m, s.part_alive(HEAD), s.part_alive(BACK),
                               s.n_sensors * self.b.fx_sensors))  # fmt: skip

    def lock_on(self, m: int, t: int) -> None:
        """E Lock On: d20 + Systems >= target E-Def locks it until the end of the round."""
        roll = self.dice.roll(rules.CONTEST_DIE)
        e_def = int(e_def_now(self.b, t, self.mechs[t].part_alive(HEAD)))
        if rules.locks_on(roll, int(self.b.systems[m]), e_def, bonus=int(self.b.lock_bonus[m])):
            self.mechs[t].locked = True

    def stabilize(self, m: int) -> None:
        """E Stabilize: Heat to 0, remove one crit effect, stand up."""
        s = self.mechs[m]
        s.heat, s.prone = 0, False
        if s.n_attack:  # the removal order is a reading: the most harmful first
            s.n_attack -= 1
        elif s.n_speed:
            s.n_speed -= 1
        elif s.n_coolant:
            s.n_coolant -= 1
        elif s.n_sensors:
            s.n_sensors -= 1
        else:
            for part in range(6):
                if s.n_armor[part]:
                    s.n_armor[part] -= 1
                    break

    def charge(self, m: int, t: int, hexes: int) -> None:
        """F11.3: move at least one hex ending adjacent, melee with 1[+] per 3 hexes (max
        2); a hit pushes the target a hex away (1d6 to the struck part at the wall); the
        charger takes 1d3 to its Legs, ignoring Armor, and +1 Heat."""
        b, p = self.b, self.p
        start = self.mechs[m].pos
        self.move(m, t, 1, hexes)
        if self.winner is not None or not self.mechs[m].alive or not self.mechs[t].alive:
            return
        moved = abs(self.mechs[m].pos - start)
        if self.distance(m, t) <= 1:
            w, option = self.best_melee(m)
            landed, part = self.attack(m, t, w, strike=None if w is not None else option,
                                       charge_hexes=moved)  # fmt: skip
            st = self.mechs[t]
            if landed and st.alive and part >= 0:
                away = 1 if st.pos > self.mechs[m].pos else -1 if st.pos < self.mechs[m].pos else (
                    1 if self.side(t) == 0 else -1)  # fmt: skip
                if b.wall_low <= st.pos + away <= b.wall_high:
                    st.pos += away
                else:
                    self.damage(t, part, self.roll_expr(p.charge_wall_damage), m)
        if self.mechs[m].alive and self.winner is None:
            self.damage(m, LEGS, self.roll_expr(p.charge_self_damage), None)
        if self.mechs[m].alive and self.winner is None:
            self.gain_heat(m, p.charge_heat)

    # ---- the game (I) ----------------------------------------------------------------

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

    def play(self) -> BattleResult:
        rounds = 0
        while rounds < self.p.round_cap and self.winner is None:  # I: at most 7 rounds
            rounds += 1
            self.play_round()
        hull = [self.hull(side) for side in (SIDE_A, SIDE_B)]
        points = [rules.points(k, 0, self.p) for k in self.kills]  # no zones on a track
        winner, decided = rules.decide(-1 if self.winner is None else self.winner, *points,
                                       *hull)  # fmt: skip
        return BattleResult(winner, rounds, decided, hull, self.kills, self.crits,
                            self.shots, self.hits, self.destroyed, self.mount_hits,
                            self.mount_crits)  # fmt: skip

    def hull(self, side: int) -> float:
        """I4 tiebreak: current over maximum Durability across the fielded team."""
        mechs = [m for m in range(self.b.mechs) if self.side(m) == side]
        left = [d for m in mechs if self.mechs[m].alive for d in self.mechs[m].dur]
        full = int(self.b.durability[mechs].sum())
        return float(rules.hull_fraction(np.array(left, np.int64), full))


def play_one(battle: Battle, dice: Dice | np.random.Generator) -> BattleResult:
    """Play one battle. ``dice`` is a Generator (random play) or a Dice source."""
    source = RandomDice(dice) if isinstance(dice, np.random.Generator) else dice
    return Game(battle, source).play()


def play(battles: Sequence[Battle], scenario: np.ndarray,
         rng: np.random.Generator) -> dict[str, np.ndarray]:  # fmt: skip
    """Battles one after another on the one ``rng``: battle i plays the matchup
    ``battles[scenario[i]]`` (the engine contract of ``vector.play``, whose result arrays
    these are shaped like). The battles must share a ``battle.batch_key``."""
    ids = check_batch(battles, scenario)
    n, M = len(ids), battles[0].mechs
    results = [play_one(battles[i], rng) for i in ids.tolist()]
    return {
        "winner": np.array([r.winner for r in results], np.int8),
        "rounds": np.array([r.rounds for r in results], np.int8),
        "decided": np.array([r.decided for r in results], np.int8),
        "hull": np.array([r.hull for r in results], float).reshape(n, 2),
        "kills": np.array([r.kills for r in results], np.int16).reshape(n, 2),
        "crits": np.array([r.crits for r in results], np.int32).reshape(n, 2),
        "shots": np.array([r.shots for r in results], np.int32).reshape(n, 2),
        "hits": np.array([r.hits for r in results], np.int32).reshape(n, 2),
        "destroyed": np.array([r.destroyed for r in results], np.int16).reshape(n, 2, 6),
        "mount_hits": np.array([r.mount_hits for r in results], np.int16).reshape(n, M, 3),
        "mount_crits": np.array([r.mount_crits for r in results], np.int16).reshape(n, M, 3),
    }  # fmt: skip
