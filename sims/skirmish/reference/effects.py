"""What hits and Heat do (003 F6, F7, G): damage with carry-over into the Core, the crit
table's lasting effects, Heat and the stress table."""

from __future__ import annotations

from sims.skirmish import rules
from sims.skirmish.battle import BACK, CORE, EFFECT_CODES
from sims.skirmish.reference.state import Reading

E = EFFECT_CODES


class Effects(Reading):
    """Effects on a mech: Heat and stress, damage, crits."""

    kills: list[int]  # per side
    destroyed: list[list[int]]  # per side and location

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
            self.fall_prone(m)
        elif code == E["back_damage"]:
            self.damage(m, BACK, self.dice.roll(value), attacker=None)
        elif code == E["attack_die"]:
            s.flicker = True

    def fall_prone(self, m: int) -> None:
        """F7 Prone; F11.5: a grapple ends when either mech is knocked Prone by anything
        else than a Throw (a Throw ends it itself)."""
        self.mechs[m].prone = True
        self.release(m)

    def release(self, m: int) -> None:
        """F11.5: the grapple ``m`` is in (if any) ends for both mechs."""
        o = self.mechs[m].grappled
        if o >= 0:
            self.mechs[o].grappled = self.mechs[m].grappled = -1

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
            self.release(t)  # F11.5: a grapple ends when either mech is destroyed
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
