"""A Fire action or a Strike (003 F): the modifier dice once per action, then each shot
in turn: hit, location, cover, penetration, damage and its effects; Backup Fire (D4)."""

from __future__ import annotations

from sims.skirmish import board as boards
from sims.skirmish import modifiers, rules
from sims.skirmish.battle import CORE, HEAD, LEGS, accuracy, evasion_now, reach_band
from sims.skirmish.reference.state import Reading


class Attacks(Reading):
    """Attack resolution."""

    effects: modifiers.EffectDice  # crit and stress modifier dice of the catalog

    def attack(
        self,
        m: int,
        t: int,
        mount: int | None,
        *,
        strike: int | None = None,
        extra_dice: int = 0,
        charge_hexes: int = 0,
        aimed: bool = False,
        shots: int | None = None,
        reaction: bool = False,
    ) -> tuple[bool, int]:
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
            band = int(
                reach_band(self.distance(m, t), b.w_range[m, mount], b.w_long[m, mount], melee)
            )
        else:  # F11.1 improvised strike; a Shield arm punches at +1 Pen
            melee, n_shots, acc_w, heavy, pulse, band = True, 1, 0, False, False, 0
            pen = int(b.s_pen[strike])
            if strike == 0 and (
                b.shield[m, 1] and a.part_alive(1) or b.shield[m, 2] and a.part_alive(2)
            ):
                pen += p.shield_punch_pen
            dmg = (int(b.s_dice[strike]), int(b.s_sides[strike]), int(b.s_bonus[strike]))
        mod, cover = self.fire_modifier(
            m,
            t,
            melee,
            band == 1,
            heavy,
            extra_dice=extra_dice,
            charge_hexes=charge_hexes,
            aimed=aimed,
            reaction=reaction,
        )
        acc = int(accuracy(b, m, melee, acc_w, a.part_alive(HEAD)))
        any_hit, struck = False, -1
        for _ in range(n_shots):  # F: resolve each shot fully before the next
            if not s.alive:
                break
            natural = self.roll_to_hit(m, t, acc, mod, mount, strike)
            if natural is None:
                continue
            any_hit = True
            part = self.hit_location(t, melee, cover == 2, aimed)
            if part is None:
                continue  # H5: the Legs band hits the cover; the shot is over
            struck = part
            self.resolve_hit(m, t, part, natural, mount, strike, pen, dmg, melee, pulse)
        if strike is None:
            self.gain_heat(m, int(b.w_heat[m, mount]))  # E Fire: add its Heat
        return any_hit, struck

    def fire_modifier(
        self,
        m: int,
        t: int,
        melee: bool,
        long_range: bool,
        heavy: bool,
        *,
        extra_dice: int,
        charge_hexes: int,
        aimed: bool,
        reaction: bool,
    ) -> tuple[int, int]:
        """F3 modifier dice, once per Fire action: the situation here, the dice in
        modifiers.dice_terms. Returns the modifier result and the target's cover (H5)."""
        b, p, a, s = self.b, self.p, self.mechs[m], self.mechs[t]
        # H5 on a track: cover drawn per Fire action, ranged only (melee ignores cover,
        # F11). E5: a Guard's hard cover is the best single cover (H5); melee ignores both
        # (F11.6). H5 on a map: the terrain's cover of the target against the attacker's hex.
        high_ground = False
        if melee:
            cover = 0
        elif self.board is None:
            cover = rules.best_cover(
                rules.track_cover(self.dice.roll(rules.COVER_DIE), p),
                self.guarded(m, t),
                self.smoked(m, t),
            )
        else:
            cover = rules.best_cover(
                int(boards.cover(self.board, a.pos, s.pos)), self.guarded(m, t), self.smoked(m, t)
            )
        if self.board is not None:  # H5 high ground 1[+], ranged or melee
            high_ground = bool(self.board.geo.high_ground[a.pos, s.pos])
        situation = modifiers.Situation(
            melee=melee,
            long_range=long_range,
            cover=cover,
            engaged=self.engaged(m),
            heavy=heavy,
            moved=a.moved,
            bonded=any(
                b.bonded[m, o] and self.mechs[o].alive and self.distance(m, o) <= p.bond_range
                for o in range(b.mechs)
            ),
            locked=s.locked,
            reaction=reaction,
            aimed=aimed,
            target_shield=bool(
                b.shield[t, 1] and s.part_alive(1) or b.shield[t, 2] and s.part_alive(2)
            ),
            charge_hexes=charge_hexes,
            attack_crits=a.n_attack,
            flicker=a.flicker,
            extra=extra_dice,
            high_ground=high_ground,
        )
        net = modifiers.net_dice(situation, p, self.effects)
        a.flicker = False  # G stress: the flicker was the next attack's
        return rules.modifier_result(self.dice.rolls(abs(net), rules.MODIFIER_DIE), net), cover

    def roll_to_hit(
        self, m: int, t: int, acc: int, mod: int, mount: int | None, strike: int | None
    ) -> int | None:
        """F Hit, one shot: d20 + accuracy +/- the modifier result against Evasion; a
        missed kick may fall Prone (F11.1). Counts the shot and the hit; returns the
        natural d20 of a hit, None on a miss."""
        b, p, s = self.b, self.p, self.mechs[t]
        side = self.side(m)
        self.shots[side] += 1
        natural = self.dice.roll(rules.HIT_DIE)
        evasion = int(evasion_now(b, t, s.part_alive(LEGS), s.prone))
        if not rules.hits(natural, acc, mod, evasion):
            if strike == 1:  # F11.1 a missed kick: d20 + Piloting below 10 falls Prone
                if rules.kick_falls(self.dice.roll(rules.CONTEST_DIE), int(b.piloting[m]), p):
                    self.fall_prone(m)
            return None
        self.hits[side] += 1
        if strike is None:
            self.mount_hits[m][mount] += 1
        return natural

    def hit_location(self, t: int, melee: bool, hard: bool, aimed: bool) -> int | None:
        """F4 Location of a hit on ``t`` (melee and a Prone target reroll off the Core,
        F11, F7; an Aimed Shot chooses the band, E); None when the Legs band hits hard
        cover (H5); a destroyed part's band goes to the Core (F4)."""
        s = self.mechs[t]
        if aimed:
            part = CORE  # E Aimed Shot chooses the band
        else:
            part = self.location(t)
            rerolls = rules.location_rerolls(melee, s.prone)  # F11, F7 Prone
            while rerolls and part != CORE and s.part_alive(part):
                part, rerolls = self.location(t), rerolls - 1
        if rules.hits_cover(part, hard):
            return None  # H5: the Legs band hits the cover; the shot is over
        return rules.struck_part(part, s.part_alive(part))  # F4: destroyed: the Core

    def resolve_hit(
        self,
        m: int,
        t: int,
        part: int,
        natural: int,
        mount: int | None,
        strike: int | None,
        pen: int,
        dmg: tuple[int, int, int],
        melee: bool,
        pulse: bool,
    ) -> None:
        """F5 penetration against Armor, F6 damage, and what follows a hit on ``part``:
        a crit (F6), Pulse Heat (G), a knockdown (F11.4)."""
        b, p, s = self.b, self.p, self.mechs[t]
        side = self.side(m)
        total = rules.penetration_total(
            self.dice.roll(rules.PEN_DIE), pen, natural, p, bonus=int(b.pen_bonus[m])
        )
        armor = rules.armor_now(
            int(b.armor[t, part]),
            p,
            braced=s.braced,
            bonus=int(b.core_armor_bonus[t]) if part == CORE else 0,
            lost=s.n_armor[part] * b.fx_armor,
        )
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
        if s.alive and rules.knocks_down(melee, outcome, int(b.klass[m]), int(b.klass[t])):
            self.fall_prone(t)  # F11.4 knockdown

    def location(self, t: int) -> int:
        roll = self.dice.roll(rules.LOCATION_DIE)
        return rules.location(roll, self.b.band_top[t])  # F4: the first band reaching it

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
