"""The melee actions of 003 E and F11 (issue 15) through BOTH Skirmish engines, with
scripted dice: each situation is traced by hand in its comment from the rulebook and
the catalog numbers below, never computed with the engines' code.

Each situation is a duel on the range track (mech 0 side A, mech 1 side B) with a state
set up by hand, a list of steps (an engine method, or a whole activation) and the state
expected after them. The reference engine (``reference.Game``) and the vector engine
(a batch of one battle, ``vector.Engine``) play the same steps from their scripts and
must each use their whole script. The scripts are the same except that the vector
engine draws a cover d100 before every attack, melee included (``test_scripted.py``):
``vector_script`` adds it before each melee attack's dice.

Catalog numbers (``catalogs/skirmish``, silhouette order head, right arm, left arm,
core, back, legs), suggested pilots, abilities dark in a duel (003 D):
- Foreman (Dorn: Gunnery 2, Piloting 1), a Medium: grapple bonus 1 (F11.5); Evasion 9;
  Reactor 8; Speed 5; bands core 8-13; Armor 4/5/5/5/3/5; Durability 4/8/9/16/4/11;
  rifle (Range 8, 1 shot, Acc 1, Pen 2, 1d6+1, Heat 1) on the right arm, buckler
  (Shield) on the left; head Acc 0: rifle accuracy 3, punch accuracy Piloting 1.
- Bastion (Ilse: Gunnery 1, Piloting 1), a Heavy: grapple bonus 2; Evasion 6; Reactor
  13; bands core 8-14; Armor core 8; Durability 4/9/12/22/6/13; cannon (Range 10, Acc
  0, Pen 4, 2d6, Heat 3, Heavy) on the right arm, Shield on the left.
- rules.toml: Engaged 1[-] on ranged attacks, Shield 1[-] on melee, Prone Evasion -3,
  crit margin 4, glance none; stress face 3 scram (Prone).
- policies.toml gunline (the Foreman's here): preferred max_optimal, no Charge,
  Boost, Lock On (switched off below), Barrage, Overwatch, strike with a spare Quick,
  never Vent, Stabilize or Overcharge.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pytest

from sims.skirmish import reference, vector
from sims.skirmish.battle import Side, compile_battle
from sims.skirmish.catalog import load_catalog
from tests.skirmish.conftest import TRACK

NONE = (100, 100)  # cover d100 of 100: no cover
FOREMAN_DUR = [4, 8, 9, 16, 4, 11]
BASTION_DUR = [4, 9, 12, 22, 6, 13]
MELEE = "melee"  # marks where a melee attack's dice begin in a script (vector: a cover d100)


@dataclass(frozen=True)
class Case:
    """One hand-traced situation."""

    steps: tuple[tuple, ...]  # ("grapple", m, t), ("throw", m), ("break", m), ("fire", m,
    # t, mount), ("activate", m)
    script: tuple  # (sides, face) pairs in the reference's order; MELEE before melee dice
    expect: dict[str, Any]
    pos: tuple[int, int] = (0, 1)
    setup: dict[str, Any] = field(default_factory=dict)  # state field -> per mech
    policy: dict[str, Any] = field(default_factory=dict)  # compiled policy switches
    kits: tuple[tuple[str, ...], tuple[str, ...]] = (("foreman",), ("bastion",))


def battle_for(case: Case):
    catalog = load_catalog("catalogs", overrides=TRACK)
    b = compile_battle(catalog, Side(case.kits[0], "gunline"), Side(case.kits[1], "gunline"))
    return replace(b, **{k: np.array(v, dtype=getattr(b, k).dtype) for k, v in case.policy.items()})


def reference_script(script) -> list:
    return [d for d in script if d != MELEE]


def vector_script(script) -> list:
    return [NONE if d == MELEE else d for d in script]


def play_reference(case: Case) -> tuple[dict, Any, int]:
    script = reference_script(case.script)
    dice = reference.ScriptedDice(script)
    g = reference.Game(battle_for(case), dice)
    for mech, p in zip(g.mechs, case.pos, strict=True):
        mech.pos = p
    for name, values in case.setup.items():
        for mech, value in zip(g.mechs, values, strict=True):
            setattr(mech, name, list(value) if isinstance(value, list) else value)
    for kind, *args in case.steps:
        {
            "grapple": g.grapple,
            "throw": g.throw,
            "break": g.break_grapple,
            "fire": g.attack,
            "activate": g.activate,
            "move": g.move,
            "strike": lambda m, t, o: g.attack(m, t, None, strike=o),
        }[kind](*args)
    state = {
        "pos": [m.pos for m in g.mechs],
        "dur_0": g.mechs[0].dur,
        "dur_1": g.mechs[1].dur,
        "heat": [m.heat for m in g.mechs],
        "prone": [m.prone for m in g.mechs],
        "grappled": [m.grappled for m in g.mechs],
        "hits": g.hits,
        "shots": g.shots,
        "guarding": [m.guarding for m in g.mechs],
        "winner": -1 if g.winner is None else g.winner,
        "reaction": [m.reaction for m in g.mechs],
    }
    return state, dice, len(script)


def play_vector(case: Case) -> tuple[dict, Any, int]:
    script = vector_script(case.script)
    dice = vector.ScriptedDice(script)
    e = vector.Engine([battle_for(case)], np.zeros(1, np.int64), None, dice=dice)
    st = e.s
    st.pos.a[0] = case.pos
    for name, values in case.setup.items():
        target = getattr(st, name)
        for m, value in enumerate(values):
            (target.a if hasattr(target, "a") else target)[0, m] = value
    one = np.zeros(1, np.int64)

    def mech(i):
        return one + i

    for kind, *args in case.steps:
        if kind == "grapple":
            e.grapple(one, mech(args[0]), mech(args[1]))
        elif kind == "throw":
            e.throw(one, mech(args[0]))
        elif kind == "break":
            e.break_grapple(one, mech(args[0]))
        elif kind == "fire":
            e.attack(one, mech(args[0]), mech(args[1]), mech(args[2]), one - 1)
        elif kind == "strike":
            e.attack(one, mech(args[0]), mech(args[1]), one - 1, mech(args[2]))
        elif kind == "move":
            e.move(one, mech(args[0]), mech(args[1]), mech(args[2]), mech(args[3]))
        else:
            e.activate(one, mech(args[0]))
    state = {
        "pos": st.pos.a[0].tolist(),
        "dur_0": st.dur.a[0, 0].tolist(),
        "dur_1": st.dur.a[0, 1].tolist(),
        "heat": st.heat.a[0].tolist(),
        "prone": st.prone.a[0].tolist(),
        "grappled": st.grappled.a[0].tolist(),
        "hits": st.hits.a[0].tolist(),
        "shots": st.shots.a[0].tolist(),
        "guarding": st.guarding.a[0].tolist(),
        "winner": int(st.winner[0]),
        "reaction": st.reaction.a[0].tolist(),
    }
    return state, dice, len(script)


GRAPPLED = {"grappled": [1, 0]}  # the Foreman and the Bastion in a grapple
NO_LOCK = {"p_lock_on": [False, False]}
NO_BREAK = {"p_break": [False, False]}  # gunline breaks grapples (policies.toml): not here

CASES = {
    # F11.5 Grapple: d20 + Piloting + class bonus each, the acting mech wins ties. The
    # Bastion (1 + Heavy 2) grapples the Foreman (1 + Medium 1): 8 + 3 = 11 against
    # 11 + 2 = 13 fails; again 9 + 3 = 12 against 10 + 2 = 12, a tie: the Bastion wins and
    # both are Grappled.
    "grapple: the acting mech wins ties": Case(
        (("grapple", 1, 0), ("grapple", 1, 0)),
        ((20, 8), (20, 11), (20, 9), (20, 10)),
        {"grappled": [1, 0], "prone": [False, False]},
    ),
    # F11.5 Throw (the Foreman acting): 5 + 2 = 7 against 5 + 3 = 8 fails, the grapple
    # holds; 7 + 2 = 9 against 6 + 3 = 9, a tie: the Bastion falls Prone (in its hex) and
    # the grapple ends.
    "throw: fails, then drops the other Prone and ends the grapple": Case(
        (("throw", 0), ("throw", 0)),
        ((20, 5), (20, 5), (20, 7), (20, 6)),
        {"grappled": [-1, -1], "prone": [False, True], "pos": [0, 1]},
        setup=GRAPPLED,
    ),
    # F11.5 Break (the Bastion acting): 1 + 3 = 4 against 3 + 2 = 5 fails; 4 + 3 = 7
    # against 5 + 2 = 7, a tie: the grapple ends; nobody falls.
    "break: fails, then ends the grapple": Case(
        (("break", 1), ("break", 1)),
        ((20, 1), (20, 3), (20, 4), (20, 5)),
        {"grappled": [-1, -1], "prone": [False, False]},
        setup=GRAPPLED,
    ),
    # F11.5: a grapple ends when either mech is knocked Prone by anything else. The
    # Foreman at Heat 8 fires the rifle at the adjacent Bastion: no cover, Engaged 1[-]
    # (die 2), natural 1 misses; Heat 8 + 1 = 9 exceeds Reactor 8: stress d6 = 3, scram:
    # the Foreman falls Prone, Heat 0, and the grapple is over.
    "grapple ends when a grappled mech falls Prone": Case(
        (("fire", 0, 1, 0),),
        (NONE, (6, 2), (20, 1), (6, 3)),
        {"grappled": [-1, -1], "prone": [True, False], "heat": [0, 0]},
        setup={**GRAPPLED, "heat": [8, 0]},
    ),
    # F11.5: ... or destroyed. The Bastion's cannon at the adjacent Foreman (Core 2 left):
    # Engaged 1[-] (die 1), 15 + 1 - 1 = 15 hits Evasion 9; location 10 is the Core;
    # penetration 1 + 4 = 5 reaches Armor 5 (a crit needs 9): full; 2d6 = 1 + 1 = 2: Core
    # 0, destroyed, side B has won; the cannon's Heat 3.
    "grapple ends when a grappled mech is destroyed": Case(
        (("fire", 1, 0, 0),),
        (NONE, (6, 1), (20, 15), (20, 10), (6, 1), (6, 1), (6, 1)),
        {"grappled": [-1, -1], "dur_0": [4, 8, 9, 0, 4, 11], "heat": [0, 3], "winner": 1},
        setup={**GRAPPLED, "dur": [[4, 8, 9, 2, 4, 11], BASTION_DUR]},
    ),
    # F11.5: Grappled mechs may not move or Boost. The Foreman (gunline, Lock On and Break
    # off) in
    # a grapple the Bastion (a grappling policy) started, one hex away, would move 5 and
    # Boost toward its rifle's
    # Range 8; held, it stays at hex 0 and fires: Engaged 1[-] (die 3), natural 1 misses
    # (Heat 1); then its spare Quick punches (the buckler: +1 Pen; the Bastion's Shield:
    # 1[-], die 4): natural 1 misses. Both still Grappled.
    "a Grappled mech may not move or Boost": Case(
        (("activate", 0),),
        (NONE, (6, 3), (20, 1), MELEE, (6, 4), (20, 1)),
        {"pos": [0, 1], "grappled": [1, 0], "heat": [1, 0], "shots": [2, 0], "hits": [0, 0]},
        setup=GRAPPLED,
        policy={**NO_LOCK, **NO_BREAK, "p_grapple": [False, True]},
    ),
    # F11.5 in an activation: a grappling policy Throws first (Quick): 12 + 2 = 14 against
    # 10 + 3 = 13: the Bastion is Prone and free. One Quick left: no Grapple (Full), no
    # Lock On; the rifle fires: Engaged 1[-] (die 2), 8 + 3 - 2 = 9 reaches the Prone
    # Evasion 6 - 3 = 3; location 10, the Core (8-14); penetration 6 + 2 = 8 reaches Armor
    # 8: full (a crit needs 12); 1d6 + 1 = 3 + 1 = 4: Core 22 -> 18. Heat 1.
    "a grappling policy throws, then fires at the Prone mech": Case(
        (("activate", 0),),
        ((20, 12), (20, 10), NONE, (6, 2), (20, 8), (20, 10), (6, 6), (6, 3)),
        {
            "pos": [0, 1],
            "grappled": [-1, -1],
            "prone": [False, True],
            "heat": [1, 0],
            "hits": [1, 0],
            "dur_1": [4, 9, 12, 18, 6, 13],
        },
        setup=GRAPPLED,
        policy={**NO_LOCK, **NO_BREAK, "p_grapple": [True, False]},
    ),
    # F11.5 Break in an activation (gunline: break_grapple), then the Move. The Foreman
    # at hex 10, grappled by the Bastion at 11: 10 + 2 = 12 against 9 + 3 = 12, a tie:
    # the Foreman, acting, breaks free; no Quick left; it moves 5 away toward its rifle's
    # Range 8 (hex 5). The Bastion's Disengage strike (F11.8; no melee weapon: a punch)
    # at 1[-] (reaction) and 1[-] (the buckler): dice 1 and 1; natural 1 misses.
    "a gunline breaks free, then moves away": Case(
        (("activate", 0),),
        ((20, 10), (20, 9), MELEE, (6, 1), (6, 1), (20, 1)),
        {"pos": [5, 11], "grappled": [-1, -1], "reaction": [True, False], "shots": [0, 1]},
        pos=(10, 11),
        setup=GRAPPLED,
        policy={**NO_LOCK, "p_grapple": [False, True]},
    ),
}

# The readings widened to the text (issue 15): the Disengage strike, Engaged, the
# riposte, standing with Stabilize, Charge after a Move.
CASES |= {
    # F11.8 / E6: the Disengage strike is one melee attack, a melee weapon too (it was a
    # punch or kick only). The Foreman moves away from the adjacent Reaver (goal 8, 5
    # hexes; the track ends at hex -2): the Reaver's Blade (Acc 1, Pen 3, 2d6; Ruko's
    # Piloting 2: accuracy 3) strikes at 1[-] (reaction) and 1[-] (the buckler, F11.6):
    # dice 5 and 2, -5. 18 + 3 - 5 = 16 hits Evasion 9; location 10, the Core (8-13, no
    # reroll); penetration 2 + 3 = 5 reaches Armor 5: full (a crit needs 9); 2d6 = 3 + 4
    # = 7: Core 16 -> 9 (a punch would roll 1d3). The Reaver's Reaction is spent.
    "the Disengage strike swings a melee weapon": Case(
        (("move", 0, 1, 8, 5),),
        (MELEE, (6, 5), (6, 2), (20, 18), (20, 10), (6, 2), (6, 3), (6, 4)),
        {"pos": [-2, 1], "dur_0": [4, 8, 9, 9, 4, 11], "reaction": [True, False]},
        kits=(("foreman",), ("reaver",)),
    ),
    # E Engaged: any adjacent hostile, not only the target. The Foreman fires the rifle
    # at the Bastion 8 hexes away (optimal Range) while the Courier stands adjacent: no
    # cover, Engaged 1[-] (die 4), natural 6: 6 + 3 - 4 = 5 misses Evasion 6 (it would hit
    # unengaged). Ilse and Hana share nothing: abilities dark.
    "Engaged by an adjacent hostile that is not the target": Case(
        (("fire", 0, 1, 0),),
        (NONE, (6, 4), (20, 6)),
        {"hits": [0, 0], "shots": [1, 0], "heat": [1, 0, 0]},
        pos=(0, 8, 1),
        kits=(("foreman",), ("bastion", "courier")),
    ),
    # D6 Marrow's riposte when a hostile ENDS a move adjacent (not only arrives). Marrow
    # (Warden, Piloting 3; on with Ruko, both Hollow Saints) stands at hex 1; the Foreman
    # moves from hex 0 (adjacent) onto hex 1 (goal 0, 1 hex): still adjacent, so the
    # Warden punches (no melee weapon; its Shield arm +1 Pen) at 1[-] (reaction) and 1[-]
    # (the buckler): dice 1 and 1, -1. 10 + 3 - 1 = 12 hits Evasion 9; location 10, the
    # Core; penetration 4 + 1 + 1 = 6 against Armor 5: full; 1d3 = 2: Core 16 -> 14; Full
    # from a Heavy at a Medium: the Foreman is Prone (F11.4). The Reaver at hex 20 is out
    # of everything (its bond with Marrow reaches 2 hexes).
    "the riposte when a hostile ends a move adjacent": Case(
        (("move", 0, 1, 0, 1),),
        (MELEE, (6, 1), (6, 1), (20, 10), (20, 10), (6, 4), (3, 2)),
        {
            "pos": [1, 1, 20],
            "dur_0": [4, 8, 9, 14, 4, 11],
            "prone": [True, False, False],
            "reaction": [True, False, True],
        },
        pos=(0, 1, 20),
        kits=(("foreman",), ("warden", "reaver")),
    ),
    # F7 Prone: standing up is free with Stabilize. The Prone Foreman carries two crit
    # effects (attack dice, sensors) and Stabilizes at 2 (Full): Heat 0, one effect off,
    # standing; its whole Move is left: 5 hexes toward its rifle's Range 8 from the
    # Bastion 14 away (hex 5). No Quick left; no dice.
    "standing is free with Stabilize": Case(
        (("activate", 0),),
        (),
        {"pos": [5, 14], "prone": [False, False], "heat": [0, 0]},
        pos=(0, 14),
        setup={"prone": [True, False], "n_attack": [1, 0], "n_sensors": [1, 0], "heat": [4, 0]},
        policy={"p_stabilize_at": [2, 99]},
    ),
    # ... and without Stabilize (and no Boost) it costs the whole Move: it stays at hex 0
    # and, with nothing in reach, holds Overwatch (Full; no dice).
    "standing without Stabilize costs the Move": Case(
        (("activate", 0),),
        (),
        {"pos": [0, 14], "prone": [False, False]},
        pos=(0, 14),
        setup={"prone": [True, False]},
        policy={"p_boost": [False, False]},
    ),
    # F11.3 Charge after a Move. The Reaver (Speed 6, Charge on, preferred adjacent) is
    # 10 hexes from the Foreman: out of one run (Speed 6 + 1), within the Move and a run
    # (6 + 6 + 1). It Moves 3 (to hex 3, 7 away), then Charges 6 to hex 9: 2[+] (6 hexes),
    # 1[-] the buckler: net +1, die 5. The Blade: 5 + 3 + 5 = 13 hits Evasion 9; location
    # 10, the Core; penetration 3 + 3 = 6 against Armor 5: full; 2d6 = 2 + 2 = 4: Core
    # 16 -> 12; pushed a hex away (hex 11). The Reaver takes 1d3 = 2 to its Legs (10 -> 8)
    # and 1 Heat.
    "Charge after a Move": Case(
        (("activate", 0),),
        (MELEE, (6, 5), (20, 5), (20, 10), (6, 3), (6, 2), (6, 2), (3, 2)),
        {
            "pos": [9, 11],
            "dur_1": [4, 8, 9, 12, 4, 11],
            "dur_0": [3, 8, 7, 15, 4, 8],
            "heat": [1, 0],
            "hits": [1, 0],
        },
        pos=(0, 10),
        kits=(("reaver",), ("foreman",)),
        policy={"p_charge": [True, False], "p_adjacent": [True, False]},
    ),
}

# E5 Guard: hard cover for one adjacent ally against attacks from the guard's side of it,
# on the track its enemy-facing side (side B's faces down the track); not against melee.
# The Reaver (side B, Ruko: Evasion 11; bands head 1, right arm 2-4, left arm 5-7, core
# 8-14, back 15, legs 16-20; Legs Armor 4, Durability 10) stands at hex 8 with the
# Bastion (Shield arm) beside it, guarding it. Ruko and Ilse share nothing: dark.
GUARDED = {"guarding": [-1, -1, 1]}
GUARD = {"p_guard": [False, False, True]}  # the Bastion's policy Guards
CASES |= {
    # The Foreman's rifle from hex 0, in front: no cover drawn, the Guard's hard cover
    # 2[-] (dice 2 and 3, -3): 15 + 3 - 3 = 15 hits Evasion 11; location 18, the Legs
    # band, hits the cover (H5): the shot is over.
    "a Guard gives hard cover from the front": Case(
        (("fire", 0, 1, 0),),
        (NONE, (6, 2), (6, 3), (20, 15), (20, 18)),
        {"hits": [1, 0], "dur_1": [3, 8, 7, 15, 4, 10], "heat": [1, 0, 0]},
        pos=(0, 8, 8),
        setup=GUARDED,
        kits=(("foreman",), ("reaver", "bastion")),
        policy=GUARD,
    ),
    # ... from hex 12, behind the Reaver: no cover, no modifier dice: 15 + 3 hits;
    # location 18 strikes the Legs: penetration 5 + 2 = 7 against Armor 4: full (a crit
    # needs 8); 1d6 + 1 = 3: Legs 10 -> 7.
    "a Guard gives no cover from behind": Case(
        (("fire", 0, 1, 0),),
        (NONE, (20, 15), (20, 18), (6, 5), (6, 2)),
        {"hits": [1, 0], "dur_1": [3, 8, 7, 15, 4, 7]},
        pos=(12, 8, 8),
        setup=GUARDED,
        kits=(("foreman",), ("reaver", "bastion")),
        policy=GUARD,
    ),
    # ... and the guard gone (destroyed): no cover from the front either (dice as above).
    "a destroyed guard gives no cover": Case(
        (("fire", 0, 1, 0),),
        (NONE, (20, 15), (20, 18), (6, 5), (6, 2)),
        {"hits": [1, 0], "dur_1": [3, 8, 7, 15, 4, 7]},
        pos=(0, 8, 8),
        setup={**GUARDED, "dur": [FOREMAN_DUR, [3, 8, 7, 15, 4, 10], [4, 9, 12, 0, 6, 13]]},
        kits=(("foreman",), ("reaver", "bastion")),
        policy=GUARD,
    ),
    # F11.6: Guard's hard cover does not apply to melee. The Foreman punches the guarded
    # Reaver from hex 7 (Piloting 1; the buckler +1 Pen; no Shield on the Reaver): no
    # modifier dice; 15 + 1 = 16 hits; location 18, the Legs band; melee rerolls a
    # standing non-Core location once: 17, the Legs again, which behind hard cover would
    # hit the cover; it strikes the Legs: penetration 4 + 1 + 1 = 6 against Armor 4: full
    # (a crit needs 8); 1d3 = 3: Legs 10 -> 7.
    "a Guard gives no cover against melee": Case(
        (("strike", 0, 1, 0),),
        (MELEE, (20, 15), (20, 18), (20, 17), (6, 4), (3, 3)),
        {"hits": [1, 0], "dur_1": [3, 8, 7, 15, 4, 7]},
        pos=(7, 8, 8),
        setup=GUARDED,
        kits=(("foreman",), ("reaver", "bastion")),
        policy=GUARD,
    ),
    # The Guard action: the Bastion (a guarding policy: an escort) at hex 20 with the
    # Reaver at 17 and the Foreman at 0 moves 3 toward its cannon's Range 10 (hex 17); the
    # Reaver is adjacent and its Shield arm intact: it Guards the Reaver (Full, instead
    # of a Boost and an attack; no dice).
    "the Guard action": Case(
        (("activate", 2),),
        (),
        {"pos": [0, 17, 17], "guarding": [-1, -1, 1]},
        pos=(0, 17, 20),
        kits=(("foreman",), ("reaver", "bastion")),
        policy={"p_guard": [False, False, True]},
    ),
}

# H5 Smoke on the track: until the smoker's next activation, a ranged line that crosses or
# ends at the smoker's hex has soft cover 1[-] (the attacker's own hex does not count).
# The Foreman (hex 0) fires its rifle at the Reaver (hex 8, Evasion 11, Legs Armor 4,
# Durability 10), dice as in the Guard cases above. The Reaver's policy Smokes (its Back is
# a smoke launcher), so the vector engine reads smoke at all.
SMOKE = {"p_smoke": [False, True]}
CASES |= {
    # The Reaver stands in its own smoke: no cover drawn, smoke 1[-] (die 3, -3):
    # 15 + 3 - 3 = 15 hits Evasion 11; location 18, the Legs (soft cover is not struck);
    # penetration 5 + 2 = 7 against Armor 4: full; 1d6 + 1 = 3: Legs 10 -> 7.
    "smoke on the target's hex is soft cover": Case(
        (("fire", 0, 1, 0),),
        (NONE, (6, 3), (20, 15), (20, 18), (6, 5), (6, 2)),
        {"hits": [1, 0], "dur_1": [3, 8, 7, 15, 4, 7], "heat": [1, 0]},
        pos=(0, 8),
        setup={"smoking": [False, True]},
        kits=(("foreman",), ("reaver",)),
        policy=SMOKE,
    ),
    # Smoke on the attacker's own hex: the line starts there: no cover, no modifier dice.
    "smoke on the attacker's hex is no cover": Case(
        (("fire", 0, 1, 0),),
        (NONE, (20, 15), (20, 18), (6, 5), (6, 2)),
        {"hits": [1, 0], "dur_1": [3, 8, 7, 15, 4, 7], "heat": [1, 0]},
        pos=(0, 8),
        setup={"smoking": [True, False]},
        kits=(("foreman",), ("reaver",)),
        policy=SMOKE,
    ),
}

# F11.8 / G Jump: the Skiff (jump booster Back, a jumping policy) at hex 6, adjacent to
# the Foreman at hex 5, moves 4 away (goal distance 5): it jumps out of adjacency, so the
# Foreman has no Disengage strike (no dice; its Reaction is kept), and the jump costs
# +1 Heat.
CASES |= {
    "a jump leaves no Disengage strike and costs 1 Heat": Case(
        (("move", 1, 0, 5, 4),),
        (),
        {"pos": [5, 10], "heat": [0, 1], "reaction": [True, True], "hits": [0, 0]},
        pos=(5, 6),
        kits=(("foreman",), ("skiff",)),
        policy={"p_jump": [False, True]},
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_case_in_both_engines(name):
    case = CASES[name]
    for engine, play in (("reference", play_reference), ("vector", play_vector)):
        state, dice, n = play(case)
        assert dice.used == n, f"{engine}: used {dice.used} of {n} dice"
        for key, want in case.expect.items():
            assert state[key] == want, f"{engine}: {key} {state[key]} != {want}"
