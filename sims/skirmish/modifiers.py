"""The modifier dice of one Mecha Skirmish Fire action (003 F3), from one function.

Every [+] and [-] a Fire action can collect is listed once, in :func:`dice_terms`, with
the rulebook section that grants it and the rules parameter (or catalog table) that
says how many dice. Two readings of that one list:

- :func:`fire_dice` (scalar, for ``exact.py``, ``explain.py`` and the reference engine):
  every die with its reason and section, plus the net count;
- :func:`net_dice` (scalar or batched, for the vector engine): the net count only. Given
  a :class:`Situation` whose fields are NumPy arrays of one shape (bool or int), it
  returns an int64 array of that shape; given ints and bools, a Python int. The test
  ``tests/skirmish/test_exact.py::test_net_dice_ints_and_arrays_agree`` checks the two
  agree over a grid of every field.

003 F3: [+] and [-] cancel one for one; the remainder is rolled as d6, highest kept,
added ([+]) or subtracted ([-]), once per Fire action (``rules.modifier``). The
situation is decided by the caller (who knows the board); the dice are decided here.
Melee ignores cover and Engaged (F11), which this module applies, so a caller may pass
the cover it drew for every attack alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from sims.skirmish import rules

if TYPE_CHECKING:
    from sims.skirmish.catalog import Catalog, Mech, Part

COVER_CODES = {"none": 0, "soft": 1, "hard": 2}  # the engines' cover codes (H5)


@dataclass(frozen=True)
class Die:
    """One modifier die: ``sign`` +1 for a [+], -1 for a [-]."""

    sign: int
    reason: str  # "long range", "hard cover", "target's intact Shield arm" ...
    section: str  # of 003: "F Declare", "H5", "F11.6" ...


@dataclass(frozen=True)
class FireDice:
    """Every modifier die of one Fire action, in :func:`dice_terms` order, and the net
    count after cancelling ([+] positive)."""

    dice: tuple[Die, ...]
    net: int

    def grouped(self) -> tuple[tuple[int, str, str], ...]:
        """(signed count, reason, section) per reason, in order: how a page shows them."""
        out: list[list[Any]] = []
        for d in self.dice:
            if (
                out
                and (out[-1][1], out[-1][2]) == (d.reason, d.section)
                and (out[-1][0] > 0) == (d.sign > 0)
            ):
                out[-1][0] += d.sign
            else:
                out.append([d.sign, d.reason, d.section])
        return tuple((n, r, s) for n, r, s in out)


@dataclass(frozen=True)
class EffectDice:
    """[-] dice set by the catalog's d6 tables rather than by ``rules.toml``: per
    lasting crit effect of kind ``attack_die`` (F7) and for the stress table's
    ``attack_die`` flicker on the next attack (G). :meth:`of` reads them from a catalog
    the way ``battle.compile_battle`` does (``fx_attack``, ``flicker_dice``)."""

    crit: int = 0
    stress: int = 0

    @classmethod
    def of(cls, catalog: Catalog) -> EffectDice:
        def magnitude(rows) -> int:
            return max(
                (abs(r.effect_value) for r in rows if r.effect_kind == "attack_die"), default=0
            )

        return cls(crit=magnitude(catalog.crit), stress=magnitude(catalog.stress))


@dataclass(frozen=True)
class Situation:
    """What decides a Fire action's modifier dice. Fields are bools and ints, or NumPy
    arrays of one shape for :func:`net_dice` (bool arrays for flags, int for counts)."""

    melee: Any = False  # bool: a melee weapon or strike (F11: ignores cover and Engaged)
    long_range: Any = False  # bool: beyond Range, within long range (F Declare)
    cover: Any = 0  # int: target's best single cover, 0 none, 1 soft, 2 hard (H5)
    engaged: Any = False  # bool: a hostile is adjacent to the attacker (E)
    heavy: Any = False  # bool: the weapon is tagged Heavy (B tags)
    moved: Any = False  # bool: the attacker moved this activation (B tags)
    bonded: Any = False  # bool: a bonded partner is within bond_range (D4)
    locked: Any = False  # bool: the target is Locked (E Lock On)
    reaction: Any = False  # bool: a reaction attack other than Overwatch (E6)
    aimed: Any = False  # bool: an Aimed Shot (E)
    target_shield: Any = False  # bool: the target has an intact Shield arm (F11.6)
    charge_hexes: Any = 0  # int: hexes moved by a Charge (F11.3), 0 otherwise
    attack_crits: Any = 0  # int: the attacker's lasting attack_die crit effects (F7)
    flicker: Any = False  # bool: the attacker's stress flicker is due (G)
    extra: Any = 0  # int: the designer's own signed dice, [+] positive
    high_ground: Any = False  # bool: the attacker stands at least one level above (H5)


DiceTerm = tuple[int, str, str, Any]  # (sign, reason, section, count)
NO_EFFECTS = EffectDice()


def dice_terms(
    s: Situation, params: rules.Parameters, effects: EffectDice = NO_EFFECTS
) -> tuple[DiceTerm, ...]:
    """(sign, reason, section, count) for every kind of modifier die, ``count`` an int or
    an int array (0 where the die does not apply). The one place the rules of F3's
    inputs are written; arithmetic only, so ints and arrays give the same numbers."""
    a = np.asarray
    ranged = 1 - a(s.melee, dtype=np.int64)  # F11: melee ignores cover and Engaged
    melee = 1 - ranged
    charge = rules.charge_dice(a(s.charge_hexes), params)  # F11.3
    extra = a(s.extra, dtype=np.int64)
    p = params
    # H5 high ground: every attack, or (reading high_ground_attacks = "ranged") only
    # ranged ones, as the cover rules beside it that melee ignores (F11)
    high = p.high_ground_dice * a(s.high_ground)
    if p.high_ground_attacks == "ranged":
        high = high * ranged
    return (
        (-1, "long range", "F Declare", p.long_range_dice * a(s.long_range)),
        (-1, "soft cover", "H5", p.soft_cover_dice * ranged * (a(s.cover) == 1)),
        (-1, "hard cover", "H5", p.hard_cover_dice * ranged * (a(s.cover) == 2)),
        (-1, "Engaged: adjacent hostile", "E", p.engaged_dice * ranged * a(s.engaged)),
        (-1, "Heavy weapon after moving", "B tags", p.heavy_dice * (a(s.heavy) & a(s.moved))),
        (-1, "reaction attack", "E6", p.reaction_dice * a(s.reaction)),
        (-1, "Aimed Shot", "E", p.aimed_dice * a(s.aimed)),
        (
            -1,
            "target's intact Shield arm",
            "F11.6",
            p.shield_melee_dice * melee * a(s.target_shield),
        ),
        (-1, "crit effect on attacks", "F7", effects.crit * a(s.attack_crits)),
        (-1, "stress: next attack", "G", effects.stress * a(s.flicker)),
        (+1, "bonded partner near", "D4", p.bond_dice * a(s.bonded)),
        (+1, "target Locked", "E Lock On", p.lock_dice * a(s.locked)),
        (+1, "high ground", "H5", high),
        (+1, "Charge momentum", "F11.3", np.maximum(charge, 0)),
        (+1, "designer's extra dice (--modifier)", "F3", np.maximum(extra, 0)),
        (-1, "designer's extra dice (--modifier)", "F3", np.maximum(-extra, 0)),
    )


def net_dice(s: Situation, params: rules.Parameters, effects: EffectDice = NO_EFFECTS) -> Any:
    """The net modifier dice of a Fire action ([+] positive): an int for a scalar
    situation, an int64 array for a batched one (the vector engine's form)."""
    total = sum(
        sign * np.asarray(count, dtype=np.int64)
        for sign, _, _, count in dice_terms(s, params, effects)
    )
    total = np.asarray(total, dtype=np.int64)
    return int(total) if total.ndim == 0 else total


def fire_dice(s: Situation, params: rules.Parameters, effects: EffectDice = NO_EFFECTS) -> FireDice:
    """Every modifier die of one Fire action with its reason and section, and the net."""
    dice: list[Die] = []
    for sign, reason, section, count in dice_terms(s, params, effects):
        count = np.asarray(count)
        if count.ndim:
            raise TypeError("fire_dice takes a scalar Situation; use net_dice for arrays")
        dice += [Die(sign, reason, section)] * int(count)
    return FireDice(tuple(dice), sum(d.sign for d in dice))


# ---- the situation of a shot described by kit, weapon, distance and cover -----------------


def intact_shield(target: Mech) -> bool:
    """F11.6: the target has a Shield arm (an undamaged kit's arms are intact)."""
    return any(p.kind == "shield" for p in (target.right_arm, target.left_arm))


def shot_situation(
    weapon: Part,
    target: Mech,
    distance: int,
    params: rules.Parameters,
    *,
    cover: str = "none",
    moved: bool = False,
    extra: int = 0,
    high_ground: bool = False,
) -> Situation:
    """The situation of one Fire action of ``weapon`` at an undamaged ``target``
    ``distance`` hexes away, as the exact tables and ``explain`` describe it: on the
    range track the target is the only hostile, so Engaged means adjacent to it (E)."""
    if cover not in COVER_CODES:
        raise ValueError(f"cover must be one of {', '.join(COVER_CODES)}, got {cover!r}")
    return Situation(
        melee=weapon.is_melee,
        long_range=rules.range_band(distance, weapon, params) == "long",
        cover=COVER_CODES[cover],
        engaged=distance <= 1,
        heavy="heavy" in weapon.tags,
        moved=moved,
        target_shield=intact_shield(target),
        extra=extra,
        high_ground=high_ground,
    )
