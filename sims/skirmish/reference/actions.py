"""The activation (003 E), as ``battle.py`` lists it: upkeep, Overcharge, Stabilize or
Vent, the target, Charge or Move and Boost, the attack, spare Quick actions; movement and
the reactions it triggers (E6); Lock On, Stabilize and Charge. Each choice is a
``policy.py`` predicate."""

from __future__ import annotations

import numpy as np

from sims.skirmish import board as boards
from sims.skirmish import policy, rules
from sims.skirmish.battle import BACK, HEAD, LEGS, MOUNTS, e_def_now, reach_band, wins_contest
from sims.skirmish.reference.state import Reading


class Actions(Reading):
    """What a mech does in its activation and in reaction to a move."""

    def activate(self, m: int) -> None:
        self.act(m)
        self.mechs[m].moved = False  # Heavy's "moved this activation" ends with it

    def act(self, m: int) -> None:
        """003 E: one activation of mech ``m``, step by step in the order ``battle.py``
        lists them; it ends early where ``m`` is out or the battle is over."""
        a = self.mechs[m]
        if not self.upkeep(m):
            return
        budget = self.speed(m)  # E: Move up to Speed
        standing, a.prone = a.prone, False  # F7: a Prone mech stands up
        quick = self.overcharge(m)
        if quick is None:
            return
        quick, stabilized = self.stabilize_or_vent(m, quick)
        if standing and not stabilized:
            budget = 0  # F7: standing up costs the whole Move, or is free with Stabilize
        quick = self.break_free(m, quick)
        held = a.grappled >= 0  # F11.5: Grappled mechs may not move or Boost
        if held:
            budget = 0
        # 4. target: the nearest living enemy; in a grapple, the mech it grapples
        t = a.grappled if held else self.nearest_enemy(m)
        if t is None:
            return
        quick, charged, boosted = self.charge_or_move(m, t, quick, budget, held)
        if self.winner is not None or not a.alive:
            return
        t = t if self.mechs[t].alive else self.nearest_enemy(m)
        if t is None:
            return
        if not held:
            t = self.fire_target(m, t)
        # 6a. Throw (Quick, F11.5) the mech it grapples
        if policy.throws(self.b.p_grapple[m], quick, a.grappled >= 0):
            quick -= 1
            self.throw(m)
        quick = self.attack_action(m, t, quick, charged)
        self.spare_quick_actions(m, t, quick, boosted)

    def upkeep(self, m: int) -> bool:
        """1. upkeep: stances end, a Shutdown mech spends its activation coming back up,
        a Coolant leak adds its Heat (G). False when the activation ends here."""
        a = self.mechs[m]
        a.braced, a.overwatch, a.moved, a.guarding = False, -1, False, -1
        a.smoking = a.jumped = False  # H5 smoke clears at the smoker's next activation
        if a.shutdown:
            a.shutdown = False
            return False
        if a.n_coolant:
            self.gain_heat(m, a.n_coolant * self.b.fx_coolant)
            if not a.alive:
                return False
        return True

    def overcharge(self, m: int) -> int | None:
        """2. Overcharge (G3), free and once per activation: one more Quick action for the
        Heat of the nth Overcharge. The Quick actions of the activation (E: two, a Full
        takes both), or None when that Heat destroys ``m``."""
        b, a = self.b, self.mechs[m]
        if not policy.overcharges(a.heat, self.reactor(m), b.p_overcharge_below[m]):
            return policy.FULL
        nth = min(a.overcharges, len(b.overcharge) - 1)
        a.overcharges += 1
        self.gain_heat(m, self.roll_dice(*b.overcharge[nth]))
        return policy.FULL + 1 if a.alive else None  # G3: an Overcharge grants one more Quick

    def stabilize_or_vent(self, m: int, quick: int) -> tuple[int, bool]:
        """3. Stabilize (Full, E) or Vent (Quick, E): the Quick actions left and whether
        ``m`` stabilized."""
        b, a = self.b, self.mechs[m]
        stabilized = policy.stabilizes(a.effects, b.p_stabilize_at[m], quick)
        if stabilized:
            self.stabilize(m)
            quick -= policy.FULL
        elif policy.vents(a.heat, self.reactor(m), b.p_vent_at[m]):
            a.heat = max(0, a.heat - self.roll_expr(self.p.vent_heat) - int(b.vent_bonus[m]))
            quick -= 1
        return quick, stabilized

    def break_free(self, m: int, quick: int) -> int:
        """3b. Break (Full, F11.5) out of a grapple, before moving: the Quick actions left."""
        if policy.breaks(self.b.p_break[m], quick, self.mechs[m].grappled >= 0):
            quick -= policy.FULL
            self.break_grapple(m)
        return quick

    def charge_or_move(
        self, m: int, t: int, quick: int, budget: int, held: bool
    ) -> tuple[int, bool, bool]:
        """5. Charge (Full, F11.3), or Move then Guard (Full, E5) or Boost (Quick, E): the
        Quick actions left, whether ``m`` charged and whether it boosted."""
        b, a = self.b, self.mechs[m]
        d = self.distance(m, t)
        if self.board is not None and b.p_charge[m]:  # F11.3 on a map: a path to its side
            d = self.charge_reach(m, t)[1] + 1 if d >= 2 else d  # its cost, as hexes + 1
        if policy.charges(
            b.p_charge[m], quick, d, budget + self.speed(m), self.melee_option(m), not held
        ):
            self.charge(m, t, budget)
            return quick - 2, True, False
        goal = policy.move_goal(b.p_adjacent[m], self.max_optimal(m))
        self.move(m, t, goal, budget)
        if self.winner is not None or not a.alive:
            return quick, False, False
        reaches = bool(self.reach(m, t))
        ally = self.guard_ally(m) if b.p_guard[m] else None
        if policy.guards(b.p_guard[m], quick, self.shield_arm(m), ally is not None):
            a.guarding, quick = ally, quick - 2  # E5 Guard, until its next activation
        elif policy.boosts(
            b.p_boost[m], quick, reaches, self.speed(m), *self.short_of(m, t, goal), not held
        ):
            self.move(m, t, goal, self.speed(m))
            return quick - 1, False, True
        return quick, False, False

    def attack_action(self, m: int, t: int, quick: int, charged: bool) -> int:
        """6. Attack: Grapple (Full, F11.5), else Overwatch, Barrage, Aimed Shot (Full, E)
        or Fire (Quick, F) with a Lock On first (E). The Quick actions left."""
        b, p, a = self.b, self.p, self.mechs[m]
        if charged or quick < 1:
            return quick
        if policy.grapples(
            b.p_grapple[m], quick, self.distance(m, t), a.grappled < 0, self.mechs[t].grappled < 0
        ):
            self.grapple(m, t)
            return quick - policy.FULL
        mounts = self.reach(m, t)
        ranged = [
            w
            for w in range(3)
            if b.has_weapon[m, w] and not b.w_melee[m, w] and a.part_alive(MOUNTS[w])
        ]
        two_heat = sum(int(b.w_heat[m, w]) for w in mounts[:2])
        shots = int(b.w_shots[m, mounts[0]]) if mounts else 0
        if policy.holds_overwatch(b.p_overwatch[m], quick, bool(mounts), bool(ranged)):
            a.overwatch = max(ranged, key=lambda w: policy.overwatch_rank(int(b.w_long[m, w]), w))
            quick -= policy.FULL
        elif policy.barrages(
            b.p_barrage[m],
            quick,
            len(mounts) >= 2,
            a.heat,
            two_heat,
            p.barrage_heat,
            self.reactor(m),
        ):
            quick -= policy.FULL
            self.attack(m, t, mounts[0])
            if self.mechs[t].alive and a.alive and self.winner is None:
                self.attack(m, t, mounts[1])
            if a.alive:
                self.gain_heat(m, p.barrage_heat)
            self.backup_fire(m, t)
        elif policy.aims(b.p_aimed[m], quick, bool(mounts), shots):
            quick -= policy.FULL
            self.attack(m, t, mounts[0], aimed=True)
            self.backup_fire(m, t)
        elif mounts:
            if policy.tries_lock_on(
                b.p_lock_on[m], quick, self.mechs[t].locked, self.distance(m, t), self.sensors(m)
            ):
                quick -= 1
                self.lock_on(m, t)
            quick -= 1
            self.attack(m, t, mounts[0])
            self.backup_fire(m, t)
        return quick

    def spare_quick_actions(self, m: int, t: int | None, quick: int, boosted: bool) -> None:
        """7. spare Quick actions: Strike (F11.1) once when adjacent, else Smoke (H5), else
        Brace (E)."""
        b, a = self.b, self.mechs[m]
        struck = False
        while quick >= 1 and self.winner is None and a.alive:
            t = t if self.mechs[t].alive else self.nearest_enemy(m)
            option = self.strike_option(m)
            distance = self.distance(m, t) if t is not None else 0
            if policy.strikes(
                b.p_strike[m],
                struck,
                t is not None,
                distance,
                policy.NO_STRIKE if option is None else option,
            ):
                struck, quick = True, quick - 1
                self.attack(m, t, None, strike=option)
            elif policy.smokes(b.p_smoke[m], b.back_smoke[m] and a.part_alive(BACK), a.smoking):
                a.smoking, quick = True, quick - 1  # H5 Smoke, until its next activation
            elif policy.braces(b.p_brace[m], boosted, a.braced):
                a.braced, quick = True, quick - 1
            else:
                break

    def move(self, m: int, t: int, goal: int, budget: int) -> None:
        """Move up to ``budget`` hexes so the distance to ``t`` approaches ``goal``; on a
        map, walk to where its policy wants to stand (:meth:`walk`)."""
        if self.board is not None:
            self.walk(m, t, goal, budget)
            return
        a = self.mechs[m]
        d = self.distance(m, t)
        step = min(budget, abs(d - goal))
        if step == 0:
            return
        toward = (
            1
            if self.mechs[t].pos > a.pos
            else -1
            if self.mechs[t].pos < a.pos
            else (1 if self.side(m) == 0 else -1)
        )
        direction = toward if d > goal else -toward
        self.arrive(m, min(self.b.wall_high, max(self.b.wall_low, a.pos + direction * step)))

    def arrive(self, m: int, hex: int) -> None:
        """``m`` ends a move on ``hex``: the reactions it triggers (E6) and a Jump's Heat."""
        a = self.mechs[m]
        before = {e: self.distance(m, e) for e in self.living(1 - self.side(m))}
        a.pos = hex
        a.moved = True
        jumper = self.jumper(m)
        jumped = any(rules.jumps(jumper, d, self.distance(m, e)) for e, d in before.items())
        for e in sorted(before):
            self.react_to_move(e, m, before[e], jumped)
            if self.winner is not None or not a.alive:
                return
        if jumped and not a.jumped:  # G: Jump +1 Heat, once per activation
            a.jumped = True
            self.gain_heat(m, self.p.jump_heat)

    def stance(self, m: int, t: int, goal: int) -> boards.Stance:
        """What ``m`` weighs in choosing where to stand (board.stand_score), for one battle."""
        b, alive = self.b, [s.alive for s in self.mechs]
        pos = np.array([[s.pos for s in self.mechs]], np.int64)
        plays = np.array([[a and b.p_zone[o] > 0 for o, a in enumerate(alive)]])
        zone = int(boards.claim_zones(self.board, pos, plays, b.side)[0, m])
        allies = [o for o in self.living(self.side(m)) if o != m]
        one = lambda v: np.array([int(v)], np.int64)  # noqa: E731
        return boards.Stance(
            target=one(self.mechs[t].pos),
            goal=one(goal),
            reach=one(self.max_reach(m)),
            zone=one(zone),
            ally=one(self.mechs[allies[0]].pos if allies else -1),
            w_zone=one(b.p_zone[m]),
            w_approach=one(b.p_approach[m]),
            w_shot=one(b.p_shot[m]),
            w_cover=one(b.p_cover[m]),
            w_flank=one(b.p_flank[m]),
            w_screen=one(b.p_screen[m]),
        )

    def walk(self, m: int, t: int, goal: int, budget: int) -> None:
        """003 H on a map: walk hex by hex toward where the policy wants to stand
        (board.walk); ``wants_more`` keeps whether a better hex lay beyond the budget."""
        a = self.mechs[m]
        end, steps, more, jumped = boards.walk(
            self.board,
            np.array([a.pos]),
            np.array([budget]),
            self.others(m),
            self.stance(m, t, goal),
            self.side(m) == 1,
            self.jumper(m),
        )
        self.wants_more = bool(more[0])  # read by short_of for the Boost
        if steps[0]:
            self.arrive(m, int(end[0]))
        if jumped[0] and a.alive and self.winner is None and not a.jumped:
            a.jumped = True  # G: Jump legs +1 Heat per activation with a climb
            self.gain_heat(m, self.p.jump_heat)

    def charge_on_board(self, m: int, t: int, budget: int) -> int:
        """F11.3 on a map: the Move first along a cheapest path to the Charge's hex (as far
        as leaves the Charge its whole run), then the run of up to Speed; hexes the run
        moved (0 where it could not start)."""
        dest, cost = self.charge_reach(m, t)
        if dest < 0:
            return 0
        self.path_move(m, dest, min(budget, max(0, cost - self.speed(m))))
        if self.winner is not None or not self.mechs[m].alive or not self.mechs[t].alive:
            return 0
        return self.path_move(m, dest, self.speed(m))

    def push(self, m: int, t: int, part: int) -> None:
        """F11.3 a Charge hit pushes the target one hex directly away; a blocked push (the
        track's end, on a map board.push's blocks, or a Grappled target held in place,
        F11.5) deals charge_wall_damage to the struck part instead; a push over a drop of
        two or more levels is a fall (H3: Prone and fall_damage to the Legs)."""
        b, p, st = self.b, self.p, self.mechs[t]
        if self.board is not None:
            others = self.others(t)
            to, drop = boards.push(
                self.board, np.array([self.mechs[m].pos]), np.array([st.pos]), others
            )
            if to[0] >= 0 and st.grappled < 0:
                st.pos = int(to[0])
                if drop[0]:
                    self.fall_prone(t)
                    self.damage(t, LEGS, self.roll_expr(p.fall_damage), m)
            else:
                self.damage(t, part, self.roll_expr(p.charge_wall_damage), m)
            return
        away = (
            1
            if st.pos > self.mechs[m].pos
            else -1
            if st.pos < self.mechs[m].pos
            else (1 if self.side(t) == 0 else -1)
        )
        # blocked: the track's end, or a Grappled target held in place (F11.5)
        if b.wall_low <= st.pos + away <= b.wall_high and st.grappled < 0:
            st.pos += away
        else:
            self.damage(t, part, self.roll_expr(p.charge_wall_damage), m)

    def short_of(self, m: int, t: int, goal: int) -> tuple[int, int]:
        """The Boost's "not at its goal" as (distance, goal): on the track the distance to
        ``t`` against ``goal``; on a map (1, 0) where its Move stopped short of a better
        hex (board.walk's wants more), else (0, 0)."""
        if self.board is None:
            return self.distance(m, t), goal
        return (1 if self.wants_more else 0), 0

    def path_move(self, m: int, dest: int, budget: int) -> int:
        """Move along a cheapest path toward ``dest`` (board.path_walk); hexes moved."""
        end, steps = boards.path_walk(
            self.board,
            np.array([self.mechs[m].pos]),
            np.array([dest]),
            np.array([budget]),
            self.others(m),
            self.side(m) == 1,
        )
        if steps[0]:
            self.arrive(m, int(end[0]))
        return int(steps[0])

    def charge_reach(self, m: int, t: int) -> tuple[int, int]:
        """F11.3 on a map: (the hex the Charge ends on or -1, its movement cost)."""
        dest, cost = boards.charge_hex(
            self.board,
            np.array([self.mechs[m].pos]),
            np.array([self.mechs[t].pos]),
            self.others(m),
            self.side(m) == 1,
        )
        return int(dest[0]), int(cost[0])

    def react_to_move(self, e: int, m: int, before: int, jumped: bool = False) -> None:
        """E6: Disengage, Overwatch, riposte; one Reaction per round, none while Prone. A
        mech that ``jumped`` out of adjacency leaves no Disengage strike (F11.8)."""
        se, b = self.mechs[e], self.b
        if not (se.alive and se.reaction and not se.prone):
            return
        after = self.distance(e, m)
        # F11.8 Disengage: one melee attack, weapon or strike; none on a jump
        if before <= 1 < after and not jumped:
            w, option = self.best_melee(e)
            if w is not None or option is not None:
                se.reaction = False
                self.attack(e, m, w, strike=None if w is not None else option, reaction=True)
                return
        if (
            se.overwatch >= 0
            and b.has_weapon[e, se.overwatch]
            and se.part_alive(MOUNTS[se.overwatch])
            and reach_band(
                after,
                b.w_range[e, se.overwatch],
                b.w_long[e, se.overwatch],
                b.w_melee[e, se.overwatch],
            )
            < 2
            and self.sees(e, m)
        ):
            w, se.overwatch, se.reaction = se.overwatch, -1, False
            self.attack(e, m, w)  # E5: Overwatch takes no reaction [-]
            return
        if b.riposte[e] and after <= 1:  # D6 Marrow's riposte: a hostile ends a move adjacent
            w, option = self.best_melee(e)
            if w is not None or option is not None:
                se.reaction = False
                self.attack(e, m, w, strike=None if w is not None else option, reaction=True)

    def contest(self, m: int, o: int) -> bool:
        """F11.5: a Piloting contest of ``m`` (acting, its d20 first) against ``o``."""
        roll, other = self.dice.roll(rules.CONTEST_DIE), self.dice.roll(rules.CONTEST_DIE)
        return bool(wins_contest(self.b, m, roll, o, other))

    def grapple(self, m: int, t: int) -> None:
        """F11.5 Grapple: on success both mechs are Grappled."""
        if self.contest(m, t):
            self.mechs[m].grappled, self.mechs[t].grappled = t, m

    def throw(self, m: int) -> None:
        """F11.5 Throw: on success the other mech falls Prone (on the track it stays in
        its hex, adjacent) and the grapple ends."""
        o = self.mechs[m].grappled
        if self.contest(m, o):
            self.release(m)
            self.fall_prone(o)

    def break_grapple(self, m: int) -> None:
        """F11.5 Break: on success the grapple ends."""
        if self.contest(m, self.mechs[m].grappled):
            self.release(m)

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

    def charge(self, m: int, t: int, budget: int) -> None:
        """F11.3: move at least one hex ending adjacent, melee with 1[+] per 3 hexes (max
        2); a hit pushes the target a hex away (1d6 to the struck part at the wall); the
        charger takes 1d3 to its Legs, ignoring Armor, and +1 Heat. The Charge moves up to
        Speed of its own; the Move (``budget``) may come first (E: the Move splits around
        actions), closing in only as far as leaves the Charge its whole run."""
        p = self.p
        if self.board is not None:
            moved = self.charge_on_board(m, t, budget)
        else:
            run = min(self.speed(m), self.distance(m, t) - 1)
            self.move(m, t, 1 + run, budget)  # the Move first, where the target is out of a run
            if self.winner is not None or not self.mechs[m].alive or not self.mechs[t].alive:
                return
            start = self.mechs[m].pos
            self.move(m, t, 1, self.speed(m))
            moved = abs(self.mechs[m].pos - start)
        if self.winner is not None or not self.mechs[m].alive or not self.mechs[t].alive:
            return
        if self.distance(m, t) <= 1:
            w, option = self.best_melee(m)
            landed, part = self.attack(
                m, t, w, strike=None if w is not None else option, charge_hexes=moved
            )
            st = self.mechs[t]
            if landed and st.alive and part >= 0:
                self.push(m, t, part)
        if self.mechs[m].alive and self.winner is None:
            self.damage(m, LEGS, self.roll_expr(p.charge_self_damage), None)
        if self.mechs[m].alive and self.winner is None:
            self.gain_heat(m, p.charge_heat)
