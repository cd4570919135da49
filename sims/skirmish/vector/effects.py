"""What hits and Heat do (003 F6, F7, G): damage with carry-over into the Core, the crit
table's lasting effects, Heat and the stress table."""

from __future__ import annotations

import numpy as np

from sims.core.batch import keep
from sims.skirmish import rules
from sims.skirmish.battle import BACK, CORE, EFFECT_CODES
from sims.skirmish.vector.state import Reading

E = EFFECT_CODES


class Effects(Reading):
    """Effects on mechs: Heat and stress, damage, crits."""

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
                self.damage(
                    ix[k], m[k], np.full(k.sum(), part), self.dice.roll(value[k], int(k.sum()))
                )
        s.shutdown[ix, m] |= code == E["skip_activation"]
        scram = code == E["prone"]
        if scram.any():
            self.fall_prone(ix[scram], m[scram])
        s.flicker[ix, m] |= code == E["attack_die"]

    def fall_prone(self, ix, m) -> None:
        """F7 Prone; F11.5: a grapple ends when either mech is knocked Prone by anything
        else than a Throw (a Throw ends it itself)."""
        self.s.prone[ix, m] = True
        self.release(ix, m)

    def release(self, ix, m) -> None:
        """F11.5: the grapple each ``m`` is in (if any) ends for both mechs."""
        s = self.s
        o = s.grappled[ix, m].astype(np.int64)
        held = o >= 0
        if held.any():
            ix, m, o = keep(held, ix, m, o)
            s.grappled[ix, m] = -1
            s.grappled[ix, o] = -1

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
            self.release(ixd, t[d])  # F11.5: a grapple ends when either mech is destroyed
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
