"""The activation (003 E), as ``battle.py`` lists it: upkeep, Overcharge, Stabilize or
Vent, the target, Charge or Move and Boost, the attack, spare Quick actions; movement and
the reactions it triggers (E6); Lock On, Stabilize and Charge. Each choice is a
``policy.py`` predicate, on arrays of battles."""

from __future__ import annotations

import numpy as np

from sims.core.batch import keep
from sims.skirmish import board as boards
from sims.skirmish import policy, rules
from sims.skirmish.battle import BACK, CORE, HEAD, LEGS, e_def_now, reach_band, wins_contest
from sims.skirmish.vector.state import I16, IX, MOUNT_PART, Reading


class Actions(Reading):
    """What mechs do in their activation and in reaction to a move."""

    def activate(self, ix, m) -> None:
        self.act(ix, m)
        self.s.moved[ix, m] = False

    def act(self, ix, m) -> None:
        """003 E: one activation of mech ``m`` in battles ``ix``, step by step in the order
        ``battle.py`` lists them; each step keeps the battles where ``m`` goes on."""
        s = self.s
        ix, m = self.upkeep(ix, m)
        if not len(ix):
            return
        quick = np.full(len(ix), policy.FULL)  # E: two Quick actions (a Full takes both)
        budget = self.speed(ix, m)
        standing = s.prone[ix, m]  # F7: a Prone mech stands up
        s.prone[ix, m] = False
        km = self.key(ix, m)  # the static rows of m (recomputed whenever ix shrinks)
        ix, m, quick, budget, standing, km = self.overcharge(ix, m, quick, budget, standing, km)
        budget = self.stabilize_or_vent(ix, m, quick, budget, standing, km)
        held, grip, budget = self.break_free(ix, m, quick, budget, km)
        # 4. target: the nearest living enemy; in a grapple, the mech it grapples
        t = self.nearest_enemy(ix, m)
        if grip is not None:
            t = np.where(held, grip, t)
        ok = t >= 0
        ix, m, t, quick, budget, held = keep(ok, ix, m, t, quick, budget, held)
        if not len(ix):
            return
        km = self.key(ix, m)
        charge, boosted = self.charge_or_move(ix, m, t, quick, budget, held, km)
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
        if self.board is not None:  # F Declare: the nearest enemy in sight and range
            free = s.grappled[ix, m] < 0
            t = np.where(free, self.fire_target(ix, m, t), t)
        km = self.key(ix, m)
        grab = self.grapple_or_throw(ix, m, t, quick, charge, km)
        self.attack_action(ix, m, t, quick, ~charge & ~grab & (quick >= 1), km)
        self.spare_quick_actions(ix, m, t, quick, boosted, km)

    def upkeep(self, ix, m):
        """1. upkeep: stances end, a Shutdown mech spends its activation coming back up,
        a Coolant leak adds its Heat (G). Returns the battles where ``m`` goes on."""
        b, s = self.b, self.s
        s.braced[ix, m] = False
        s.overwatch[ix, m] = -1
        s.moved[ix, m] = False
        s.guarding[ix, m] = -1  # E5: a Guard lasts until the guard's next activation
        s.smoking[ix, m] = s.jumped[ix, m] = False  # H5 smoke clears at its next activation
        off = s.shutdown[ix, m]
        s.shutdown[ix[off], m[off]] = False
        ix, m = keep(~off, ix, m)
        leak = s.n_coolant[ix, m] > 0
        if leak.any():
            self.gain_heat(ix[leak], m[leak], s.n_coolant[ix[leak], m[leak]] * b.fx_coolant)
            ok = s.dur[ix, m, CORE] > 0
            ix, m = keep(ok, ix, m)
        return ix, m

    def overcharge(self, ix, m, quick, budget, standing, km):
        """2. Overcharge (G3), free and once per activation: one more Quick action for the
        Heat of the nth Overcharge. Returns the rows where ``m`` survives that Heat."""
        b, s = self.b, self.s
        oc = policy.overcharges(s.heat[ix, m], self.reactor(ix, m, km), b.p_overcharge_below[km])
        if oc.any():
            o = np.nonzero(oc)[0]
            nth = np.minimum(s.overcharges[ix[o], m[o]], len(b.overcharge) - 1)
            s.overcharges[ix[o], m[o]] += 1
            quick[o] = policy.FULL + 1  # G3: an Overcharge grants one more Quick
            table = np.array(b.overcharge)
            self.gain_heat(ix[o], m[o], self.dice.sum(table[nth, 0], table[nth, 1], table[nth, 2]))
            ok = s.dur[ix, m, CORE] > 0
            ix, m, quick, budget, standing = keep(ok, ix, m, quick, budget, standing)
            km = self.key(ix, m)
        return ix, m, quick, budget, standing, km

    def stabilize_or_vent(self, ix, m, quick, budget, standing, km):
        """3. Stabilize (Full, E) or Vent (Quick, E); ``quick`` is spent in place. Returns
        the Move budget: standing up (F7) costs the whole Move, or is free with Stabilize."""
        b, p, s = self.b, self.p, self.s
        effects = (
            s.n_sensors[ix, m]
            + s.n_speed[ix, m]
            + s.n_attack[ix, m]
            + s.n_coolant[ix, m]
            + s.n_armor[ix, m].sum(axis=1)
        )
        stab = policy.stabilizes(effects, b.p_stabilize_at[km], quick)
        if stab.any():
            self.stabilize(ix[stab], m[stab])
            quick -= policy.FULL * stab
        vent = ~stab & policy.vents(s.heat[ix, m], self.reactor(ix, m, km), b.p_vent_at[km])
        if vent.any():
            v = np.nonzero(vent)[0]
            cooled = s.heat[ix[v], m[v]] - self.dice.expr(p.vent_heat, len(v)) - b.vent_bonus[km[v]]
            s.heat[ix[v], m[v]] = np.maximum(0, cooled)
            quick -= vent
        return np.where(standing & ~stab, 0, budget)  # F7: the whole Move, free with Stabilize

    def break_free(self, ix, m, quick, budget, km):
        """3b. Break (Full, F11.5) out of a grapple, before moving; ``quick`` is spent in
        place. Returns who is still held, the mech holding it (None: no grapple in this
        batch) and the Move budget (F11.5: Grappled mechs may not move or Boost)."""
        b, s = self.b, self.s
        held = np.zeros(len(ix), bool)
        if not self.any_grapple:
            return held, None, budget
        brk = policy.breaks(b.p_break[km], quick, s.grappled[ix, m] >= 0)
        if brk.any():
            k = np.nonzero(brk)[0]
            quick[k] -= policy.FULL
            self.break_grapple(ix[k], m[k])
        grip = s.grappled[ix, m].astype(IX)
        held = grip >= 0  # F11.5: Grappled mechs may not move or Boost
        return held, grip, np.where(held, 0, budget)

    def charge_or_move(self, ix, m, t, quick, budget, held, km):
        """5. Charge (Full, F11.3), or Move then Guard (Full, E5) or Boost (Quick, E);
        ``quick`` is spent in place. Returns who charged and who boosted."""
        b, s = self.b, self.s
        d = self.distance(ix, m, t)
        if self.board is not None and b.p_charge[km].any():  # F11.3 on a map: a path to its side
            d = np.where(b.p_charge[km] & (d >= 2), self.charge_reach(ix, m, t)[1] + 1, d)
        charge = policy.charges(
            b.p_charge[km], quick, d, budget + self.speed(ix, m), self.melee_option(ix, m), ~held
        )
        boosted = np.zeros(len(ix), bool)
        if charge.any():
            c = np.nonzero(charge)[0]
            quick[c] -= policy.FULL
            self.charge(ix[c], m[c], t[c], budget[c])
        mv = ~charge
        if not mv.any():
            return charge, boosted
        g = np.nonzero(mv)[0]
        gi, gm, gt = ix[g], m[g], t[g]
        goal = policy.move_goal(b.p_adjacent[km[g]], self.max_optimal(gi, gm))
        if self.board is None:
            self.move(gi, gm, gt, goal, budget[g])
        else:
            short = self.walk(gi, gm, gt, goal, budget[g]).astype(np.int64)
        live = self.running(gi) & (s.dur[gi, gm, CORE] > 0)
        spd = self.speed(gi, gm)
        reaches = self.reach(gi, gm, gt)[0] >= 0
        if self.any_guard:  # E5 Guard (Full) an adjacent ally instead of a Boost
            ally = self.guard_ally(gi, gm)
            guard = live & policy.guards(
                b.p_guard[km[g]], quick[g], self.shield_arm(gi, gm), ally >= 0
            )
            if guard.any():
                k = np.nonzero(guard)[0]
                s.guarding[gi[k], gm[k]] = ally[k]
                quick[g[k]] -= policy.FULL
                live = live & ~guard
        # the Boost's "not at its goal": on a map, the Move stopped short of a better hex
        far, aim = (self.distance(gi, gm, gt), goal) if self.board is None else (short, 0)
        boost = live & policy.boosts(b.p_boost[km[g]], quick[g], reaches, spd, far, aim, ~held[g])
        if boost.any():
            k = np.nonzero(boost)[0]
            boosted[g[k]] = True
            quick[g[k]] -= 1
            if self.board is None:
                self.move(gi[k], gm[k], gt[k], goal[k], spd[k])
            else:
                self.walk(gi[k], gm[k], gt[k], goal[k], spd[k])
        return charge, boosted

    def grapple_or_throw(self, ix, m, t, quick, charge, km):
        """6a. Throw (Quick, F11.5) the mech it grapples; 6. Grapple (Full, F11.5) before
        any other attack. ``quick`` is spent in place; returns who grappled."""
        b, s = self.b, self.s
        grab = np.zeros(len(ix), bool)
        if not self.any_grapple:
            return grab
        thr = policy.throws(b.p_grapple[km], quick, s.grappled[ix, m] >= 0)
        if thr.any():
            k = np.nonzero(thr)[0]
            quick[k] -= 1
            self.throw(ix[k], m[k])
        grab = (
            ~charge
            & (quick >= 1)
            & policy.grapples(
                b.p_grapple[km],
                quick,
                self.distance(ix, m, t),
                s.grappled[ix, m] < 0,
                s.grappled[ix, t] < 0,
            )
        )
        if grab.any():
            k = np.nonzero(grab)[0]
            quick[k] -= policy.FULL
            self.grapple(ix[k], m[k], t[k])
        return grab

    def attack_action(self, ix, m, t, quick, can, km) -> None:
        """6. Attack, where ``can`` (neither charged nor grappled, a Quick left): Overwatch,
        Barrage, Aimed Shot (Full, E) or Fire (Quick, F) with a Lock On first (E).
        ``quick`` is spent in place."""
        b, p, s = self.b, self.p, self.s
        first, second = self.reach(ix, m, t)
        f0, f1 = np.maximum(first, 0), np.maximum(second, 0)
        # holds_overwatch's last condition (a working ranged weapon) is read only on the
        # rows where the others hold
        overwatch = can & policy.holds_overwatch(b.p_overwatch[km], quick, first >= 0, True)
        if overwatch.any():
            ranged = self.working(ix, m) & ~b.w_melee[km]
            overwatch &= ranged.any(axis=1)
        barrage = (
            can
            & ~overwatch
            & policy.barrages(
                b.p_barrage[km],
                quick,
                second >= 0,
                s.heat[ix, m],
                b.w_heat[km, f0] + b.w_heat[km, f1],
                p.barrage_heat,
                self.reactor(ix, m, km),
            )
        )
        aimed = (
            can
            & ~overwatch
            & ~barrage
            & policy.aims(b.p_aimed[km], quick, first >= 0, b.w_shots[km, f0])
        )
        fire = can & ~overwatch & ~barrage & ~aimed & (first >= 0)
        if overwatch.any():
            k = np.nonzero(overwatch)[0]
            longest = np.where(ranged[k], policy.overwatch_rank(b.w_long[km[k]], np.arange(3)), -1)
            s.overwatch[ix[k], m[k]] = longest.argmax(axis=1)
            quick[k] -= policy.FULL
        if barrage.any():
            self.barrage_action(ix, m, t, quick, np.nonzero(barrage)[0], first, second)
        if aimed.any():
            k = np.nonzero(aimed)[0]
            quick[k] -= policy.FULL
            self.attack(ix[k], m[k], t[k], first[k], np.full(len(k), -1), aimed=True)
            self.backup_fire(ix[k], m[k], t[k])
        if fire.any():
            self.fire_action(ix, m, t, quick, np.nonzero(fire)[0], first, km)

    def barrage_action(self, ix, m, t, quick, k, first, second) -> None:
        """Barrage (Full, E) on rows ``k``: Fire two different weapons, +Heat on top."""
        p, s = self.p, self.s
        quick[k] -= policy.FULL
        none = np.full(len(k), -1)
        self.attack(ix[k], m[k], t[k], first[k], none)
        again = (
            self.running(ix[k]) & (s.dur[ix[k], t[k], CORE] > 0) & (s.dur[ix[k], m[k], CORE] > 0)
        )
        if again.any():
            a = k[again]
            self.attack(ix[a], m[a], t[a], second[a], none[again])
        hot = s.dur[ix[k], m[k], CORE] > 0
        if hot.any():
            self.gain_heat(ix[k[hot]], m[k[hot]], p.barrage_heat)
        self.backup_fire(ix[k], m[k], t[k])

    def fire_action(self, ix, m, t, quick, k, first, km) -> None:
        """Fire (Quick, F) on rows ``k``, with a Lock On (Quick, E) first where it pays."""
        b, s = self.b, self.s
        lock = policy.tries_lock_on(
            b.p_lock_on[km[k]],
            quick[k],
            s.locked[ix[k], t[k]],
            self.distance(ix[k], m[k], t[k]),
            self.sensors(ix[k], m[k]),
        )
        if lock.any():
            j = k[lock]
            quick[j] -= 1
            self.lock_on(ix[j], m[j], t[j])
        quick[k] -= 1
        self.attack(ix[k], m[k], t[k], first[k], np.full(len(k), -1))
        self.backup_fire(ix[k], m[k], t[k])

    def spare_quick_actions(self, ix, m, t, quick, boosted, km) -> None:
        """7. spare Quick actions: Strike (F11.1) once when adjacent, else Smoke (H5), else
        Brace (E)."""
        b, s = self.b, self.s
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
            strike = go & policy.strikes(
                b.p_strike[km], struck, t >= 0, self.distance(ix, m, tt), option
            )
            launcher = b.back_smoke[km] & self.part_alive(ix, m, BACK)
            smoke = go & ~strike & policy.smokes(b.p_smoke[km], launcher, s.smoking[ix, m])
            brace = go & ~strike & ~smoke & policy.braces(b.p_brace[km], boosted, s.braced[ix, m])
            if strike.any():
                k = np.nonzero(strike)[0]
                struck[k] = True
                quick[k] -= 1
                self.attack(ix[k], m[k], tt[k], np.full(len(k), -1), option[k])
            if smoke.any():  # H5 Smoke, until its next activation
                s.smoking[ix[smoke], m[smoke]] = True
                quick -= smoke
            if brace.any():
                s.braced[ix[brace], m[brace]] = True
                quick -= brace
            quick = np.where(go & ~strike & ~smoke & ~brace, 0, quick)  # the reference's `break`

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
        self.arrive(ix, m, np.clip(pm + direction * step, b.wall_low, b.wall_high))

    def arrive(self, ix, m, hexes) -> None:
        """``m`` ends a move on ``hexes``: the reactions it triggers (E6), a Jump's Heat
        (the reference's ``arrive``)."""
        s = self.s
        before = self.dists(ix, m)  # [n, M] distances before the move
        foe_alive = (self.side[None, :] != self.side[m][:, None]) & (s.dur[ix, :, CORE] > 0)
        s.pos[ix, m] = hexes
        s.moved[ix, m] = True
        after = self.dists(ix, m)
        jumped = np.zeros(len(ix), bool)
        if self.any_jump:  # F11.8 / G: a jump out of a hostile's adjacency
            jumped = (foe_alive & rules.jumps(self.jumper(ix, m)[:, None], before, after)).any(1)
        # E6: a hostile can react only where the move starts or ends adjacent to it
        # (Disengage, riposte) or it holds Overwatch: react_to_move's conditions, read once
        # for every e (a reaction moves no mech and clears only the reactor's Overwatch)
        can = foe_alive & ((before <= 1) | (after <= 1) | (s.overwatch[ix] >= 0))
        for e in range(self.M) if can.any() else ():
            go = can[:, e] & self.running(ix) & (s.dur[ix, m, CORE] > 0)
            if go.any():
                gi, gm, gb, gj = keep(go, ix, m, before[:, e], jumped)
                self.react_to_move(gi, e, gm, gb, gj)
        pay = jumped & ~s.jumped[ix, m] & self.running(ix) & (s.dur[ix, m, CORE] > 0)
        if pay.any():  # G: Jump +1 Heat, once per activation
            s.jumped[ix[pay], m[pay]] = True
            self.gain_heat(ix[pay], m[pay], self.p.jump_heat)

    def stance(self, ix, m, t, goal) -> boards.Stance:
        """What each ``m`` weighs in choosing where to stand (board.stand_score)."""
        b, s = self.b, self.s
        alive = s.dur[ix, :, CORE] > 0
        w_zone = self.per_battle(b.p_zone, ix)  # [M] or [n, M]
        zone = boards.claim_zones(self.board, s.pos[ix], alive & (w_zone > 0), self.side)
        rows = np.arange(len(ix))
        mine = (
            alive
            & (self.side[None, :] == self.side[m][:, None])
            & (np.arange(self.M)[None, :] != m[:, None])
        )
        ally = np.where(mine.any(axis=1), s.pos[ix, mine.argmax(axis=1)], -1)
        km = self.key(ix, m)
        return boards.Stance(
            target=s.pos[ix, t],
            goal=np.broadcast_to(goal, (len(ix),)),
            reach=self.max_reach(ix, m),
            zone=zone[rows, m],
            ally=ally,
            w_zone=b.p_zone[km],
            w_approach=b.p_approach[km],
            w_shot=b.p_shot[km],
            w_cover=b.p_cover[km],
            w_flank=b.p_flank[km],
            w_screen=b.p_screen[km],
        )

    def walk(self, ix, m, t, goal, budget):
        """003 H on a map: walk toward where the policy wants to stand (board.walk).
        Returns wants more (bool[n]): a better hex lay beyond the budget."""
        s = self.s
        jumper = self.jumper(ix, m) if self.any_jump else False
        end, steps, more, jumped = boards.walk(
            self.board,
            s.pos[ix, m],
            budget,
            self.others(ix, m),
            self.stance(ix, m, t, goal),
            self.side[m] == 1,
            jumper,
        )
        go = steps > 0
        if go.any():
            self.arrive(ix[go], m[go], end[go])
        pay = jumped & ~s.jumped[ix, m] & self.running(ix) & (s.dur[ix, m, CORE] > 0)
        if pay.any():  # G: Jump legs +1 Heat per activation with a climb
            s.jumped[ix[pay], m[pay]] = True
            self.gain_heat(ix[pay], m[pay], self.p.jump_heat)
        return more

    def path_move(self, ix, m, dest, budget):
        """Move along cheapest paths toward ``dest`` (board.path_walk); hexes moved."""
        end, steps = boards.path_walk(
            self.board, self.s.pos[ix, m], dest, budget, self.others(ix, m), self.side[m] == 1
        )
        go = steps > 0
        if go.any():
            self.arrive(ix[go], m[go], end[go])
        return steps

    def charge_reach(self, ix, m, t):
        """F11.3 on a map: (the hex each Charge ends on or -1, its movement cost)."""
        return boards.charge_hex(
            self.board, self.s.pos[ix, m], self.s.pos[ix, t], self.others(ix, m), self.side[m] == 1
        )

    def react_to_move(self, ix, e: int, m, before, jumped=None) -> None:
        """Mech ``e`` reacts to ``m``'s move: Disengage, Overwatch, riposte (E6). Each
        check is computed only where it can apply."""
        s, b = self.s, self.b
        ok = (s.dur[ix, e, CORE] > 0) & s.reaction[ix, e] & ~s.prone[ix, e]
        jumped = np.zeros(len(ix), bool) if jumped is None else jumped
        ix, m, before, jumped = keep(ok, ix, m, before, jumped)
        n = len(ix)
        if not n:
            return
        ke = self.key(ix, e)  # e's static row: e itself with one matchup, else [n]
        after = self.distance(ix, e, m)
        none = np.zeros(n, bool)
        disengage, overwatch, riposte = none, none, none
        leaving = (before <= 1) & (after > 1) & ~jumped  # F11.8: no strike on a jump
        if leaving.any():  # F11.8: one melee attack, a melee weapon or else a strike
            weapon, option = self.best_melee(ix, np.full(n, e))
            disengage = leaving & ((weapon >= 0) | (option >= 0))
        held = s.overwatch[ix, e].astype(np.int64)
        armed = held >= 0
        if armed.any():
            hw = np.maximum(held, 0)
            overwatch = (
                ~disengage
                & armed
                & b.has_weapon[ke, hw]
                & self.part_alive(ix, e, MOUNT_PART[hw])
                & (reach_band(after, b.w_range[ke, hw], b.w_long[ke, hw], b.w_melee[ke, hw]) < 2)
            )
            if self.board is not None:  # E5: in its range and LOS
                overwatch &= self.sees(ix, np.full(n, e), m)
        ripostes = b.riposte[ke]  # one bool with one matchup, else bool[n]
        if ripostes.any():
            ending = ripostes & ~disengage & ~overwatch & (after <= 1)  # ends a move adjacent
            if ending.any():
                weapon, strike = self.best_melee(ix, np.full(n, e))
                riposte = ending & ((weapon >= 0) | (strike >= 0))
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
                self.attack(ki, who, km, weapon[rows], option[rows], reaction=True)
            else:
                self.attack(ki, who, km, weapon[rows], strike[rows], reaction=True)

    def contest(self, ix, m, o):
        """F11.5: Piloting contests of ``m`` (acting; its d20s first) against ``o``."""
        roll = self.dice.roll(rules.CONTEST_DIE, len(ix))
        other = self.dice.roll(rules.CONTEST_DIE, len(ix))
        return wins_contest(self.b, self.key(ix, m), roll, self.key(ix, o), other)

    def grapple(self, ix, m, t) -> None:
        """F11.5 Grapple: where it succeeds both mechs are Grappled."""
        won = self.contest(ix, m, t)
        ix, m, t = keep(won, ix, m, t)
        self.s.grappled[ix, m] = t
        self.s.grappled[ix, t] = m

    def throw(self, ix, m) -> None:
        """F11.5 Throw: where it succeeds the other mech falls Prone (staying in its hex,
        adjacent, on the track) and the grapple ends."""
        o = self.s.grappled[ix, m].astype(IX)
        ix, m, o = keep(self.contest(ix, m, o), ix, m, o)
        self.release(ix, m)
        self.fall_prone(ix, o)

    def break_grapple(self, ix, m) -> None:
        """F11.5 Break: where it succeeds the grapple ends."""
        o = self.s.grappled[ix, m].astype(IX)
        ix, m = keep(self.contest(ix, m, o), ix, m)
        self.release(ix, m)

    def lock_on(self, ix, m, t) -> None:
        b, s = self.b, self.s
        km = self.key(ix, m)
        roll = self.dice.roll(rules.CONTEST_DIE, len(ix))
        ok = rules.locks_on(
            roll,
            b.systems[km],
            e_def_now(b, self.key(ix, t), self.part_alive(ix, t, HEAD)),
            bonus=b.lock_bonus[km],
        )
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

    def charge(self, ix, m, t, budget) -> None:
        """F11.3 after the Move (``budget``) where the target is out of the Charge's run
        (the reference's ``charge``)."""
        p, s = self.p, self.s
        if self.board is not None:
            ix, m, t, moved = self.charge_on_board(ix, m, t, budget)
        else:
            run = np.minimum(self.speed(ix, m), self.distance(ix, m, t) - 1)
            self.move(ix, m, t, 1 + run, budget)  # the Move first
            ok = self.running(ix) & (s.dur[ix, m, CORE] > 0) & (s.dur[ix, t, CORE] > 0)
            ix, m, t = keep(ok, ix, m, t)
            if not len(ix):
                return
            start = s.pos[ix, m].copy()
            self.move(ix, m, t, np.ones(len(ix), np.int64), self.speed(ix, m))
            moved = np.abs(s.pos[ix, m] - start)
        ok = self.running(ix) & (s.dur[ix, m, CORE] > 0) & (s.dur[ix, t, CORE] > 0)
        ix, m, t, moved = keep(ok, ix, m, t, moved)
        if not len(ix):
            return
        adj = self.distance(ix, m, t) <= 1
        if adj.any():
            a = np.nonzero(adj)[0]
            ai, am, at = ix[a], m[a], t[a]
            weapon, strike = self.best_melee(ai, am)
            landed, part = self.attack(ai, am, at, weapon, strike, charge_hexes=moved[a])
            push = landed & (s.dur[ai, at, CORE] > 0) & (part >= 0)
            if push.any():
                q = np.nonzero(push)[0]
                self.push(ai[q], am[q], at[q], part[q])
        ok = (s.dur[ix, m, CORE] > 0) & self.running(ix)
        if ok.any():
            self.damage(
                ix[ok],
                m[ok],
                np.full(ok.sum(), LEGS),
                self.dice.expr(p.charge_self_damage, int(ok.sum())),
            )
        ok = (s.dur[ix, m, CORE] > 0) & self.running(ix)
        if ok.any():
            self.gain_heat(ix[ok], m[ok], p.charge_heat)

    def charge_on_board(self, ix, m, t, budget):
        """F11.3 on a map (the reference's ``charge_on_board``): the Move first along a
        cheapest path to the Charge's hex, then the run. Returns the rows still charging
        (ix, m, t) and the hexes each run moved."""
        s = self.s
        dest, cost = self.charge_reach(ix, m, t)
        ok = dest >= 0
        ix, m, t, dest, cost, budget = keep(ok, ix, m, t, dest, cost, budget)
        moved = np.zeros(len(ix), np.int64)
        if not len(ix):
            return ix, m, t, moved
        spd = self.speed(ix, m)
        self.path_move(ix, m, dest, np.minimum(budget, np.maximum(0, cost - spd)))
        ok = self.running(ix) & (s.dur[ix, m, CORE] > 0) & (s.dur[ix, t, CORE] > 0)
        ix, m, t, dest = keep(ok, ix, m, t, dest)
        moved = self.path_move(ix, m, dest, self.speed(ix, m))
        return ix, m, t, moved

    def push(self, ix, m, t, part) -> None:
        """F11.3 the Charge's push, blocked push and fall (the reference's ``push``)."""
        b, p, s = self.b, self.p, self.s
        if self.board is not None:
            to, drop = boards.push(self.board, s.pos[ix, m], s.pos[ix, t], self.others(ix, t))
            inside = (to >= 0) & (s.grappled[ix, t] < 0)
            s.pos[ix[inside], t[inside]] = to[inside]
            fall = inside & (drop > 0)
            if fall.any():  # H3: a push over a drop of two or more levels is a fall
                fi, ft = ix[fall], t[fall]
                self.fall_prone(fi, ft)
                self.damage(fi, ft, np.full(len(fi), LEGS), self.dice.expr(p.fall_damage, len(fi)))
        else:
            pm, pt = s.pos[ix, m], s.pos[ix, t]
            away = np.where(pt > pm, 1, np.where(pt < pm, -1, np.where(self.side[t] == 0, 1, -1)))
            # blocked: the track's end, or a Grappled target held in place (F11.5)
            inside = (
                (pt + away >= b.wall_low) & (pt + away <= b.wall_high) & (s.grappled[ix, t] < 0)
            )
            s.pos[ix[inside], t[inside]] += away[inside].astype(I16)
        wall = ~inside
        if wall.any():
            self.damage(
                ix[wall], t[wall], part[wall], self.dice.expr(p.charge_wall_damage, int(wall.sum()))
            )
