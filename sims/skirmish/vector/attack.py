"""Fire actions and Strikes (003 F), one per row: the modifier dice once per action,
then each shot in turn: hit, location, cover, penetration, damage and its effects;
Backup Fire (D4)."""

from __future__ import annotations

import numpy as np

from sims.core.batch import keep
from sims.skirmish import board as boards
from sims.skirmish import modifiers, rules
from sims.skirmish.battle import CORE, HEAD, LEGS, accuracy, evasion_now, reach_band
from sims.skirmish.vector.dice import Dice
from sims.skirmish.vector.state import Reading


class Attacks(Reading):
    """Attack resolution."""

    dice: Dice
    profile: dict[str, np.ndarray]  # attack_profiles: flat [K * 5] weapon and strike tables
    any_bonds: bool
    any_shields: bool
    effects: modifiers.EffectDice  # crit and stress modifier dice of the catalog
    record: list | None  # tests: (battle, part, outcome) of every hit

    def attack(
        self,
        ix,
        m,
        t,
        mount,
        strike,
        *,
        extra_dice=0,
        charge_hexes=0,
        aimed=False,
        shots=None,
        reaction=False,
    ):
        """Fire actions (mount >= 0) or Strikes (strike >= 0), one per row of ``ix``.
        Returns (any hit, last part struck or -1) per row. ``charge_hexes``: hexes a
        Charge moved (F11.3); ``extra_dice``: a designer's signed modifier dice."""
        b, p, s = self.b, self.p, self.s
        n = len(ix)
        ka = self.key(ix, m)  # the attacker's static rows
        is_strike = strike >= 0
        w = np.maximum(mount, 0)
        # one flat profile index per row: mounts 0-2, then punch (3) and kick (4)
        prof = ka * 5 + np.where(is_strike, 3 + strike, mount)
        pt = self.profile
        melee = pt["melee"].take(prof)
        n_shots = pt["shots"].take(prof) if shots is None else np.where(is_strike, 1, shots)
        pen = pt["pen"].take(prof)
        if self.any_shields and (strike == 0).any():  # F11.1: a Shield arm punches harder
            shield_arm = (b.shield[ka, 1] & self.part_alive(ix, m, 1)) | (
                b.shield[ka, 2] & self.part_alive(ix, m, 2)
            )
            pen = pen + p.shield_punch_pen * ((strike == 0) & shield_arm)
        dist = self.distance(ix, m, t)
        band = reach_band(dist, pt["range"].take(prof), pt["long"].take(prof), melee)
        mod, hard = self.fire_modifier(
            ix,
            m,
            t,
            melee,
            dist,
            band == 1,
            pt["heavy"].take(prof),
            extra_dice=extra_dice,
            charge_hexes=charge_hexes,
            aimed=aimed,
            reaction=reaction,
        )
        acc = accuracy(b, ka, melee, pt["acc"].take(prof), self.part_alive(ix, m, HEAD))
        any_hit = np.zeros(n, bool)
        struck = np.full(n, -1, np.int64)
        for shot in range(int(n_shots.max(initial=0))):
            go = (shot < n_shots) & (s.dur[ix, t, CORE] > 0)
            if not go.any():
                break
            h, nat = self.roll_to_hit(ix, m, t, np.nonzero(go)[0], acc, mod, mount, strike)
            if not len(h):
                continue
            any_hit[h] = True
            h, nat, part = self.hit_location(ix, t, h, nat, melee, hard, aimed)
            if not len(h):
                continue
            struck[h] = part
            self.resolve_hit(ix, m, t, h, nat, part, mount, prof, pen, melee)
        fired = ~is_strike
        if fired.any():
            self.gain_heat(ix[fired], m[fired], b.w_heat[ka[fired], w[fired]])
        return any_hit, struck

    def fire_modifier(
        self, ix, m, t, melee, dist, long_range, heavy, *, extra_dice, charge_hexes, aimed, reaction
    ):
        """F3 modifier dice, once per Fire action: the situation here, the dice in
        modifiers.dice_terms. Returns the modifier result per row and whether the target
        has hard cover (H5), which the Legs band then hits."""
        b, p, s, dice = self.b, self.p, self.s, self.dice
        n = len(ix)
        ka = self.key(ix, m)
        # H5 on a track: cover drawn per Fire action (for every row, melee included,
        # which then ignores it, F11: see ScriptedDice).
        high_ground = False
        if self.board is None:
            cover = rules.track_cover(dice.roll(rules.COVER_DIE, n), p)
        else:  # H5 on a map: the terrain's cover of the target against the attacker's hex
            pa, pt_ = s.pos[ix, m], s.pos[ix, t]
            cover = boards.cover(self.board, pa, pt_)
            high_ground = self.board.geo.high_ground[pa, pt_]  # H5 1[+] (modifiers: which attacks)
        if self.any_guard:  # E5: a Guard's hard cover is the best single cover (H5)
            cover = rules.best_cover(cover, self.guarded(ix, m, t))
        if self.any_smoke:  # H5: smoke's soft cover, the best single cover applies
            cover = rules.best_cover(cover, False, self.smoked(ix, m, t))
        cover = np.where(melee, 0, cover)  # melee ignores cover, a Guard's too (F11.6)
        bonded = False
        if self.any_bonds:  # D4: a bonded ally within range
            near = b.bonded[ka] & (s.dur[ix, :, CORE] > 0) & (self.dists(ix, m) <= p.bond_range)
            bonded = near.any(axis=1)
        t_shield = False
        if self.any_shields:  # F11.6: an intact Shield arm against melee
            kt = self.key(ix, t)
            t_shield = (b.shield[kt, 1] & self.part_alive(ix, t, 1)) | (
                b.shield[kt, 2] & self.part_alive(ix, t, 2)
            )
        engaged = dist <= 1  # E: in a duel the target is the one hostile
        if self.M > 2:  # E Engaged: any living hostile adjacent to the attacker
            foe = (self.side[None, :] != self.side[m][:, None]) & (s.dur[ix, :, CORE] > 0)
            engaged = (foe & (self.dists(ix, m) <= 1)).any(axis=1)
        situation = modifiers.Situation(
            melee=melee,
            long_range=long_range,
            cover=cover,
            engaged=engaged,
            heavy=heavy,
            moved=s.moved[ix, m],
            bonded=bonded,
            locked=s.locked[ix, t],
            reaction=reaction,
            aimed=aimed,
            target_shield=t_shield,
            charge_hexes=charge_hexes,
            attack_crits=s.n_attack[ix, m],
            flicker=s.flicker[ix, m],
            extra=extra_dice,
            high_ground=high_ground,
        )
        net = np.broadcast_to(modifiers.net_dice(situation, p, self.effects), (n,))
        s.flicker[ix, m] = False  # G stress: the flicker was the next attack's
        return rules.modifier_result(dice.modifier_faces(np.abs(net)), net), cover == 2

    def roll_to_hit(self, ix, m, t, g, acc, mod, mount, strike):
        """F Hit, one shot on rows ``g``: d20 + accuracy +/- the modifier result against
        Evasion; a missed kick may fall Prone (F11.1). Counts the shots and hits; returns
        the rows hit and their natural d20."""
        b, p, s, dice = self.b, self.p, self.s, self.dice
        side = self.side[m]
        gi, gm, gt = ix[g], m[g], t[g]
        s.shots[gi, side[g]] += 1
        natural = dice.roll(rules.HIT_DIE, len(g))
        evasion = evasion_now(b, self.key(gi, gt), self.part_alive(gi, gt, LEGS), s.prone[gi, gt])
        landed = rules.hits(natural, acc[g], mod[g], evasion)
        kick_miss = ~landed & (strike[g] == 1)
        if kick_miss.any():  # F11.1 a missed kick may fall Prone
            q = np.nonzero(kick_miss)[0]
            kq = self.key(gi[q], gm[q])
            fall = rules.kick_falls(dice.roll(rules.CONTEST_DIE, len(q)), b.piloting[kq], p)
            if fall.any():
                self.fall_prone(gi[q[fall]], gm[q[fall]])
        if not landed.any():
            return g[landed], natural[landed]
        h = g[landed]
        hi, hm = ix[h], m[h]
        s.hits[hi, side[h]] += 1
        fired = mount[h] >= 0
        if fired.any():
            f = np.flatnonzero(fired)
            s.mount_hits[hi[f], hm[f], mount[h][f]] += 1
        return h, natural[landed]

    def hit_location(self, ix, t, h, nat, melee, hard, aimed):
        """F4 Location of the hits on rows ``h`` (melee and a Prone target reroll off the
        Core, F11, F7; an Aimed Shot takes the Core); under hard cover the Legs band hits
        the cover (H5); a destroyed part's band goes to the Core. Returns the rows whose
        hit reaches the mech, their natural d20 and the part struck."""
        s = self.s
        hi, ht = ix[h], t[h]
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
            return h[:0], nat[:0], part[:0]
        if covered.any():
            h, hi, ht, nat, part = keep(~covered, h, hi, ht, nat, part)
        return h, nat, rules.struck_part(part, self.part_alive(hi, ht, part))  # F4

    def resolve_hit(self, ix, m, t, h, nat, part, mount, prof, pen, melee) -> None:
        """F5 penetration against Armor, F6 damage, and what follows a hit: crits (F6),
        Pulse Heat (G), a knockdown (F11.4). Rows ``h`` strike ``part``."""
        b, p, s, dice = self.b, self.p, self.s, self.dice
        pt = self.profile
        hi, hm, ht, ph = ix[h], m[h], t[h], prof[h]
        side = self.side[m]
        kah, kth = self.key(hi, hm), self.key(hi, ht)  # static rows of the hits
        total = rules.penetration_total(
            dice.roll(rules.PEN_DIE, len(h)), pen[h], nat, p, bonus=b.pen_bonus[kah]
        )
        armor = rules.armor_now(
            b.armor[kth, part],
            p,
            braced=s.braced[hi, ht],
            bonus=b.core_armor_bonus[kth] * (part == CORE),
            lost=s.n_armor[hi, ht, part] * b.fx_armor,
        )
        outcome = rules.outcome_code(total, armor, p.crit_margin)
        if self.record is not None:
            self.record.append((hi, part, outcome))
        rolled = dice.sum(pt["dice"].take(ph), pt["sides"].take(ph), pt["bonus"].take(ph))
        self.damage(hi, ht, part, rules.hit_damage(outcome, rolled, p))
        crit = (outcome == 2) & (s.dur[hi, ht, CORE] > 0)
        if crit.any():
            s.crits[hi[crit], side[h][crit]] += 1
            fc = crit & (mount[h] >= 0)
            if fc.any():
                s.mount_crits[hi[fc], hm[fc], mount[h][fc]] += 1
            self.crit(hi[crit], ht[crit], part[crit])
        hot = pt["pulse"].take(ph) & (s.dur[hi, ht, CORE] > 0)
        if hot.any():  # G: Pulse hits add ``pulse_heat``
            self.gain_heat(hi[hot], ht[hot], dice.expr(p.pulse_heat, int(hot.sum())))
        knock = rules.knocks_down(melee[h], outcome, b.klass[kah], b.klass[kth])
        knock &= s.dur[hi, ht, CORE] > 0
        if knock.any():
            self.fall_prone(hi[knock], ht[knock])  # F11.4

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
            go = (
                self.running(ix)
                & (s.dur[ix, t, CORE] > 0)
                & b.bonded[km, o]
                & (s.dur[ix, o, CORE] > 0)
                & s.reaction[ix, o]
                & ~s.prone[ix, o]
            )
            if not go.any():
                continue
            gi, gt = ix[go], t[go]
            go_o = np.full(len(gi), o)
            first = self.reach(gi, go_o, gt)[0]
            f = first >= 0
            if f.any():
                s.reaction[gi[f], o] = False
                self.attack(
                    gi[f], go_o[f], gt[f], first[f], np.full(f.sum(), -1), shots=1, reaction=True
                )
