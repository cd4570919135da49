"""Scripted dice through BOTH Skirmish engines: hand-traced situations, one expected
result each, derived by hand from the rulebook (003) and the catalog numbers quoted in
each situation, never computed with the engines' code.

Each situation sets up a duel (side A's mech 0 attacks side B's mech 1 at a given
distance), plays one or more attacks in the reference engine (``reference.Game`` with
``reference.ScriptedDice``) and in the vector engine (a batch of one battle, ``vector.Engine``
with ``vector.ScriptedDice``), and checks that each engine used its whole script and left
the same hand-derived state. The two engines draw a battle's dice in the same order,
with one documented difference: the vector engine draws every attack's cover d100,
melee included, and melee then ignores it; the reference draws it for ranged attacks
only. So a melee attack's vector script holds one extra ``(100, 100)`` before it
(``KNOCKDOWN_VECTOR``).

Catalog numbers used (``catalogs/skirmish``; silhouette order head, right arm, left arm,
core, back, legs), suggested pilots, abilities dark in a duel (003 D):
- Foreman (Dorn: Gunnery 2, Piloting 1): Evasion 7 + 1 + 1 = 9; bands head 1, right arm
  2-4, left arm 5-7, core 8-13, back 14-15, legs 16-20; Armor 4/5/5/5/3/5; Durability
  4/8/9/16/4/11; Reactor 8; rifle (Range 8, 1 shot, Acc 1, Pen 2, 1d6+1, Heat 1) on the
  right arm, buckler (Shield) on the left; hardhat head Acc 0. Rifle accuracy 2 + 1 = 3.
- Bastion (Ilse: Gunnery 1, Piloting 1), a Heavy: Evasion 5 + 0 + 1 = 6; bands head 1,
  right arm 2-4, left arm 5-7, core 8-14, back 15-16, legs 17-20; Armor 4/5/6/8/5/6;
  Durability 4/9/12/22/6/13; Reactor 13; cannon (Range 10, 1 shot, Acc 0, Pen 4, 2d6,
  Heat 3, Heavy) on the right arm, Shield on the left; head Acc 0. Cannon accuracy 1.
- Skiff (Sable: Gunnery 1, Piloting 3): bands head 1-2, right arm 3-5, left arm 6-8,
  core 9-14, back 15, legs 16-20; Armor 3/4/4/4/4/4; Durability 3/6/7/11/4/8; pulse
  (Range 6, 2 shots, Acc 1, Pen 2, 1d3, Heat 1, Pulse); longeye head Acc 1.
- rules.toml: crit margin 4, natural 20 +1 Pen, hard cover 10% of d100 (2[-]), soft the
  next 20% (1[-]), Engaged 1[-], Lock 1[+], Prone -3 Evasion, Shield 1[-] on melee and
  +1 Pen on a punch, Pulse 1d3 Heat; punch Pen 1, 1d3 (tables.toml); crit face 6
  reactor breach (+1d6 Heat); stress face 1 meltdown (1d6 to the Core), face 3 scram
  (Prone).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pytest

from sims.skirmish import reference, vector
from sims.skirmish.battle import SIDE_B, Side, compile_battle
from sims.skirmish.catalog import load_catalog
from tests.skirmish.conftest import TRACK

NONE = (100, 100)  # cover d100 of 100: no cover (above 10% hard + 20% soft)
FOREMAN_DUR = [4, 8, 9, 16, 4, 11]
BASTION_DUR = [4, 9, 12, 22, 6, 13]


@dataclass(frozen=True)
class Situation:
    """One hand-traced situation: who shoots whom from where, with which dice."""

    attacker: str
    target: str
    distance: int
    attacks: tuple[tuple[str, int], ...]  # ("fire", mount) or ("strike", 0 punch / 1 kick)
    script: tuple[tuple[int, int], ...]  # (sides, face) in the reference engine's order
    expect: dict[str, Any]  # state after the attacks (see state_of)
    changes: dict[str, Any] = field(default_factory=dict)  # rules parameters
    overrides: dict[str, Any] = field(default_factory=dict)  # catalog edits (--set paths)
    setup: dict[str, Any] = field(default_factory=dict)  # state before: field -> per mech


SITUATIONS = {
    # 003 F Hit: a natural 20 always hits. The Skiff's frame Evasion set to 20 (a catalog
    # edit) makes its Evasion 20 + 2 + 3 = 25; the rifle's natural 20 totals 20 + 3 = 23,
    # below it, and hits. Location 10: core (9-14). Penetration 1 + Pen 2 + 1 (natural
    # 20) = 4 reaches core Armor 4 (a crit needs 8): full. Damage 3 + 1 = 4: core 11 -> 7.
    # Without the natural-20 Pen the roll of 3 would glance (no damage).
    "natural 20 below Evasion hits": Situation(
        "foreman",
        "skiff",
        8,
        (("fire", 0),),
        (NONE, (20, 20), (20, 10), (6, 1), (6, 3)),
        {"dur_1": [3, 6, 7, 7, 4, 8], "hits": [1, 0], "shots": [1, 0], "heat": [1, 0]},
        overrides={"part.skiff_frame.evasion": 20},
    ),
    # 003 F Hit: a natural 1 always misses. The Bastion is Locked (E Lock On: 1[+]); the
    # one modifier die shows 6: 1 + 3 + 6 = 10 reaches Evasion 6, and still misses.
    # Nothing more is rolled; the rifle adds its Heat 1 (E Fire).
    "natural 1 above Evasion misses": Situation(
        "foreman",
        "bastion",
        8,
        (("fire", 0),),
        (NONE, (6, 6), (20, 1)),
        {"dur_1": BASTION_DUR, "hits": [0, 0], "shots": [1, 0], "heat": [1, 0]},
        setup={"locked": [False, True]},
    ),
    # DESIGN reading of F5 (glance_damage = half): 15 + 3 = 18 hits Evasion 6; location
    # 10 is the core (8-14), Armor 8; penetration 3 + 2 = 5 < 8: a glance; damage
    # 4 + 1 = 5, half rounded down = 2: core 22 -> 20.
    "odd half glance rounds down": Situation(
        "foreman",
        "bastion",
        8,
        (("fire", 0),),
        (NONE, (20, 15), (20, 10), (6, 3), (6, 4)),
        {"dur_1": [4, 9, 12, 20, 6, 13], "hits": [1, 0], "crits": [0, 0]},
        changes={"glance_damage": "half"},
    ),
    # The same shot with glance_damage = none (the default): a glance does nothing.
    "glance does no damage": Situation(
        "foreman",
        "bastion",
        8,
        (("fire", 0),),
        (NONE, (20, 15), (20, 10), (6, 3), (6, 4)),
        {"dur_1": BASTION_DUR, "hits": [1, 0], "crits": [0, 0]},
    ),
    # 003 F5/F7: the cannon (accuracy 1) at the Foreman (Evasion 9): 12 + 1 = 13 hits;
    # location 3 is the right arm (2-4), Armor 5; penetration 6 + 4 = 10 >= 5 + 4: crit.
    # Damage 2 + 3 = 5: arm 8 -> 3. Crit table d6 = 6, reactor breach: +1d6 Heat = 4 to
    # the Foreman (within its Reactor 8: no stress). The Bastion adds the cannon's Heat 3.
    "crit with a table effect": Situation(
        "bastion",
        "foreman",
        10,
        (("fire", 0),),
        (NONE, (20, 12), (20, 3), (6, 6), (6, 2), (6, 3), (6, 6), (6, 4)),
        {"dur_1": [4, 3, 9, 16, 4, 11], "hits": [1, 0], "crits": [1, 0], "heat": [3, 4]},
    ),
    # 003 F6: anything past 0 carries into the Core with no second penetration roll.
    # 15 + 1 hits; location 1: head (Armor 4, Durability 4); penetration 1 + 4 = 5: full;
    # damage 6 + 5 = 11: head destroyed, 7 carries on, core 16 -> 9. A second Fire:
    # location 1 again belongs to the destroyed head, so the hit transfers to the Core
    # (F4) and rolls against core Armor 5: 1 + 4 = 5 full; damage 1 + 1 = 2: core 9 -> 7.
    "damage carries into the Core": Situation(
        "bastion",
        "foreman",
        10,
        (("fire", 0), ("fire", 0)),
        (
            NONE,
            (20, 15),
            (20, 1),
            (6, 1),
            (6, 6),
            (6, 5),
            NONE,
            (20, 15),
            (20, 1),
            (6, 1),
            (6, 1),
            (6, 1),
        ),
        {
            "dur_1": [0, 8, 9, 7, 4, 11],
            "destroyed": [[0] * 6, [1, 0, 0, 0, 0, 0]],
            "hits": [2, 0],
            "heat": [6, 0],
        },
    ),
    # 003 F Hit / C / H5: hard cover (d100 = 5, within 10%) is 2[-]: dice 2 and 3, -3;
    # 15 + 3 - 3 = 15 hits Evasion 6; location 18 is the Legs band (17-20), which hits
    # the cover: the shot is over (no penetration, no damage).
    "hard cover takes the Legs band": Situation(
        "foreman",
        "bastion",
        8,
        (("fire", 0),),
        ((100, 5), (6, 2), (6, 3), (20, 15), (20, 18)),
        {"dur_1": BASTION_DUR, "hits": [1, 0], "shots": [1, 0]},
    ),
    # The same location without cover strikes the Legs: penetration 5 + 2 = 7 against
    # Legs Armor 6: full; damage 2 + 1 = 3: legs 13 -> 10.
    "no cover: the Legs band strikes the Legs": Situation(
        "foreman",
        "bastion",
        8,
        (("fire", 0),),
        (NONE, (20, 15), (20, 18), (6, 5), (6, 2)),
        {"dur_1": [4, 9, 12, 22, 6, 10], "hits": [1, 0]},
    ),
    # 003 G Stress: the Bastion at Heat 11 fires the cannon (natural 1: a miss) and adds
    # Heat 3: 14 exceeds Reactor 13, so it rolls the stress d6: 1, meltdown, 1d6 = 4 to
    # its own Core (22 -> 18); Heat resets to 0.
    "overheating rolls the stress table": Situation(
        "bastion",
        "foreman",
        10,
        (("fire", 0),),
        (NONE, (20, 1), (6, 1), (6, 4)),
        {"dur_0": [4, 9, 12, 18, 6, 13], "heat": [0, 0], "hits": [0, 0]},
        setup={"heat": [11, 0]},
    ),
    # ... stress face 3, scram: the Bastion falls Prone, Heat 0.
    "overheating into a scram": Situation(
        "bastion",
        "foreman",
        10,
        (("fire", 0),),
        (NONE, (20, 1), (6, 3)),
        {"dur_0": BASTION_DUR, "heat": [0, 0], "prone": [True, False]},
        setup={"heat": [11, 0]},
    ),
    # ... and at Heat 10 the cannon brings it to 13, which does not exceed Reactor 13:
    # no stress roll.
    "Heat equal to Reactor Cap is no stress": Situation(
        "bastion",
        "foreman",
        10,
        (("fire", 0),),
        (NONE, (20, 1)),
        {"dur_0": BASTION_DUR, "heat": [13, 0], "prone": [False, False]},
        setup={"heat": [10, 0]},
    ),
    # 003 G / rules.toml pulse_heat: the Skiff's pulse (accuracy 1 + 1 + 1 = 3) at the
    # Foreman, 2 shots. Shot 1: 10 + 3 = 13 hits Evasion 9; core; penetration 2 + 2 = 4
    # < 5: a glance (no damage; its 1d3 is still rolled); the Pulse adds 1d3 = 2 Heat.
    # Shot 2: 2 + 3 = 5 misses. The Skiff adds the pulse's Heat 1.
    "a Pulse hit adds 1d3 Heat": Situation(
        "skiff",
        "foreman",
        6,
        (("fire", 0),),
        (NONE, (20, 10), (20, 10), (6, 2), (3, 3), (3, 2), (20, 2)),
        {"dur_1": FOREMAN_DUR, "heat": [1, 2], "hits": [1, 0], "shots": [2, 0]},
    ),
    # ... with pulse_heat = 1d6 in rules.toml the same hit rolls a d6 (5).
    "a Pulse die from rules.toml": Situation(
        "skiff",
        "foreman",
        6,
        (("fire", 0),),
        (NONE, (20, 10), (20, 10), (6, 2), (3, 3), (6, 5), (20, 2)),
        {"heat": [1, 5], "hits": [1, 0]},
        changes={"pulse_heat": "1d6"},
    ),
}

# 003 F11.4 knockdown and F7 Prone, two attacks, so each engine gets its own script.
# Punch (strike 0) from the Bastion (a Heavy) at the adjacent Foreman (a Medium): melee
# rolls Piloting 1 (+ no weapon or Head Acc) and ignores cover and Engaged (F11); the
# Foreman's intact buckler gives 1[-] (F11.6): die 1, -1. 15 + 1 - 1 = 15 hits Evasion 9;
# location 10: core (no reroll of a core location); penetration 4 + punch Pen 1 + 1 (a
# punch from the Bastion's Shield arm, F11.1) = 6 against core Armor 5: full (crit 9);
# punch damage 1d3 = 2: core 16 -> 14; Full from a heavier class: the Foreman is Prone.
# Then the cannon from the same hex: ranged, so cover (none) and Engaged 1[-]: die 1,
# -1; natural 6: 6 + 1 - 1 = 6 reaches the Prone Evasion 9 - 3 = 6 (standing, 9, it
# would miss); core; penetration 1 + 4 = 5 full; damage 1 + 1 = 2: core 14 -> 12.
KNOCKDOWN = Situation(
    "bastion",
    "foreman",
    1,
    (("strike", 0), ("fire", 0)),
    (
        (6, 1),
        (20, 15),
        (20, 10),
        (6, 4),
        (3, 2),
        NONE,
        (6, 1),
        (20, 6),
        (20, 10),
        (6, 1),
        (6, 1),
        (6, 1),
    ),
    {"dur_1": [4, 8, 9, 12, 4, 11], "prone": [False, True], "hits": [2, 0], "heat": [3, 0]},
)
KNOCKDOWN_VECTOR = (NONE,) + KNOCKDOWN.script  # the vector engine's cover d100 first


def battle_for(s: Situation):
    catalog = load_catalog("catalogs", overrides={**TRACK, **(s.overrides or {})})
    params = replace(catalog.params, **s.changes)
    return compile_battle(catalog, Side((s.attacker,)), Side((s.target,)), params)


def play_reference(s: Situation, script) -> tuple[dict, reference.ScriptedDice]:
    dice = reference.ScriptedDice(script)
    game = reference.Game(battle_for(s), dice)
    game.mechs[0].pos, game.mechs[1].pos = 0, s.distance
    for name, values in s.setup.items():
        for mech, value in zip(game.mechs, values, strict=True):
            setattr(mech, name, value)
    for kind, which in s.attacks:
        if kind == "fire":
            game.attack(0, 1, which)
        else:
            game.attack(0, 1, None, strike=which)
    g = game
    state = {
        "dur_0": list(g.mechs[0].dur),
        "dur_1": list(g.mechs[1].dur),
        "heat": [m.heat for m in g.mechs],
        "prone": [m.prone for m in g.mechs],
        "hits": list(g.hits),
        "shots": list(g.shots),
        "crits": list(g.crits),
        "destroyed": [list(d) for d in g.destroyed],
    }
    return state, dice


def play_vector(s: Situation, script) -> tuple[dict, vector.ScriptedDice]:
    dice = vector.ScriptedDice(script)
    engine = vector.Engine([battle_for(s)], np.zeros(1, np.int64), None, dice=dice)
    st = engine.s
    st.pos[0, 0], st.pos[0, 1] = 0, s.distance
    for name, values in s.setup.items():
        for m, value in enumerate(values):
            getattr(st, name)[0, m] = value
    one = np.zeros(1, np.int64)
    for kind, which in s.attacks:
        mount, strike = (which, -1) if kind == "fire" else (-1, which)
        engine.attack(one, one, one + 1, one + mount, one + strike)
    state = {
        "dur_0": st.dur.a[0, 0].tolist(),
        "dur_1": st.dur.a[0, 1].tolist(),
        "heat": st.heat.a[0].tolist(),
        "prone": st.prone.a[0].tolist(),
        "hits": st.hits.a[0].tolist(),
        "shots": st.shots.a[0].tolist(),
        "crits": st.crits.a[0].tolist(),
        "destroyed": st.destroyed.a[0].tolist(),
    }
    return state, dice


def check(state: dict, dice, script, expect: dict, engine: str) -> None:
    assert dice.used == len(script), f"{engine}: used {dice.used} of {len(script)} dice"
    for key, want in expect.items():
        assert state[key] == want, f"{engine}: {key} {state[key]} != {want}"


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_situation_in_both_engines(name):
    s = SITUATIONS[name]
    assert all(kind == "fire" for kind, _ in s.attacks)  # same script in both engines
    check(*play_reference(s, s.script), s.script, s.expect, "reference")
    check(*play_vector(s, s.script), s.script, s.expect, "vector")


def test_heavier_class_knocks_prone_and_the_next_shot_meets_prone_evasion():
    check(
        *play_reference(KNOCKDOWN, KNOCKDOWN.script),
        KNOCKDOWN.script,
        KNOCKDOWN.expect,
        "reference",
    )
    check(*play_vector(KNOCKDOWN, KNOCKDOWN_VECTOR), KNOCKDOWN_VECTOR, KNOCKDOWN.expect, "vector")


def test_scripted_dice_refuse_a_wrong_die_or_a_short_script():
    s = SITUATIONS["natural 1 above Evasion misses"]
    for play in (play_reference, play_vector):
        with pytest.raises(AssertionError, match="d20, script has a d6"):
            play(s, (NONE, (6, 6), (6, 1)))
        with pytest.raises(AssertionError, match="exhausted"):
            play(s, (NONE, (6, 6)))
    with pytest.raises(AssertionError, match="one battle"):
        vector.ScriptedDice([(6, 1), (6, 2)]).roll(6, 2)


# The hand-traced battle of test_engines.test_hand_traced_battle (one round of a Foreman
# against a Reaver; the docstring there derives every die), played by the vector engine
# from the same script: the two engines draw a battle's dice in the same order.
HAND_TRACED = [
    (6, 6),
    (6, 6),
    (6, 1),
    (6, 1),
    (100, 100),
    (6, 2),
    (20, 20),
    (20, 10),
    (6, 6),
    (6, 4),
    (20, 1),
]


def test_hand_traced_battle_in_the_vector_engine(skirmish_track):
    params = replace(skirmish_track.params, round_cap=1)
    battle = compile_battle(
        skirmish_track, Side(("foreman",), "gunline"), Side(("reaver",), "brawler"), params
    )
    dice = vector.ScriptedDice(HAND_TRACED)
    engine = vector.Engine([battle], np.zeros(1, np.int64), None, dice=dice)
    out = engine.play()
    assert dice.used == len(HAND_TRACED)
    assert engine.s.pos.a[0].tolist() == [10, 14]
    assert engine.s.dur.a[0, 0].tolist() == [4, 8, 9, 12, 4, 11]
    assert engine.s.heat.a[0].tolist() == [0, 2] and engine.s.overcharges.a[0].tolist() == [0, 1]
    assert (out["winner"][0], out["rounds"][0], out["decided"][0]) == (SIDE_B, 1, 2)
    assert out["hull"][0].tolist() == [48 / 52, 1.0]
    assert out["shots"][0].tolist() == [0, 2] and out["hits"][0].tolist() == [0, 1]
