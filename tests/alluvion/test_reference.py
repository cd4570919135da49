"""The Alluvion reference engine on hand-traced battles: every die scripted, every
number derived by hand in the comments from catalogs/alluvion/*.toml and the round
procedure (sims/alluvion/battle.py's docstring).

Numbers used throughout (rules.toml): Skill 2d6 a round (several tests set
``skill_dice = 0`` to keep the scripts short: the initiative is then always the d2);
Attack pool 1d6 for the first weapon system, 1d8 for each later one; Defense pool 2d6
for the first defensive system, 1d6 for each later one, ECM dice rolled first; Move 1d6
per movement system, +1d8 for a frame with neither Direct Fire nor Smart systems; Spot
1d6 per surveillance system; a rocket 1d8; two actions; hit on Attack + Spot - Defense
>= 1, that many d6 damage dice; Direct Hits close 4-6, ranged exposed 5-6, ranged in
cover 6, smart 4-6; 2 Direct Hits a system, a loss die each: 6 the pilot (3 HP), else
live system ``(face - 1) mod live`` in KINDS order (resistive, ecm, movement,
surveillance, hand_to_hand, direct_fire, smart); direct fire range 20 hexes, 1d8
Opportunity beyond; start range 12; a hex 3 m; knight base move 9 m.

Policies (policies.toml): gunline (the default of a loadout code) holds, blocks, clears
infantry on its last action; brawler approaches, grapples, blocks; striker approaches,
defends with its highest die, rockets from round 2; overwatch spots on its last action.
"""

import numpy as np
import pytest

from sims.alluvion import reference as ref
from sims.alluvion.battle import FIELDS, compile_battle, duel, metrics, scenario_battle
from sims.alluvion.catalog import load_catalog
from sims.core.batch import ScriptedDice
from tests.conftest import CATALOGS

D2_A, D2_B = (2, 1), (2, 2)  # the initiative d2: 1 A first, 2 B first


def catalog(**overrides):
    return load_catalog(CATALOGS, overrides=overrides)


@pytest.fixture(scope="module")
def cat():
    return catalog()


def play(battle, script) -> dict:
    dice = ScriptedDice(script)
    out = ref.play_battle(battle, dice)
    assert dice.used == len(script), "every scripted die is read"
    return out


def check(out: dict, **want) -> None:
    assert {k: out[k] for k in want} == want


def test_one_round_kill():
    # knight:D v knight:D, 12 hexes, both exposed. Each: Skill 2d6, Attack 1d6.
    b = duel(catalog(round_cap=1), "knight:D", "knight:D")
    script = [
        (6, 4),
        (6, 2),  # A0 Skill dice
        (6, 6),  # A0 Attack die (its Direct Fire system)
        (6, 1),
        (6, 3),  # B0 Skill dice
        (6, 5),  # B0 Attack die
        # initiative: Ace A 4 > B 3, A first (no d2)
        # A0 action 1: ranged at 12 hexes, Attack 6; B0 has no Defense dice: its highest
        # Skill die 3 -> 6 - 3 = 3: a hit, 3 damage dice, exposed: Direct Hits on 5-6
        (6, 5),
        (6, 6),
        (6, 2),  # damage: 2 Direct Hits -> a system lost
        (6, 6),  # B0 loss die: 6, the pilot (HP 3 -> 2)
        # A0 action 2: no Attack die left: highest Skill die 4 against B0's Skill 1: 3
        (6, 6),
        (6, 5),
        (6, 1),  # damage: 2 Direct Hits (4 in all) -> a second system lost
        (6, 1),  # B0 loss die: 1 -> live system (1 - 1) mod 1 = 0, its D
        # B0 has no system left: inoperable, no turn. A wins in round 1.
    ]
    out = play(b, script)
    check(
        out,
        winner=0,
        rounds=1,
        systems_lost_b=1,
        pilot_hits_b=1,
        direct_hits_a=4,
        attacks_a=2,
        hits_a=2,
        attacks_b=0,
        armors_left_a=1,
        armors_left_b=0,
        systems_lost_a=0,
        pilot_hits_a=0,
    )


def test_system_loss_choice_takes_the_weapon_without_a_die():
    # system_loss = choice: the attacker destroys the first live kind of CHOICE_ORDER
    # (smart, direct fire, ...): B0's Direct Fire before its Resistive; no loss die.
    b = duel(catalog(round_cap=1, skill_dice=0, system_loss="choice"), "knight:D", "knight:DR")
    script = [
        (6, 3),  # A0 Attack die
        (6, 1),  # B0 Attack die
        (6, 1),
        (6, 1),  # B0 Resistive dice (2d6)
        D2_A,  # initiative: no Skill dice, equal Aces and sums: d2 1, A first
        # A0: 3 against B0's block: no die makes it miss, the smallest, 1: margin 2
        (6, 5),
        (6, 6),  # damage: 2 Direct Hits -> Direct Fire destroyed (choice)
        # A0 action 2: no die left, lost. B0: its D is gone, but this round's Attack die
        # was rolled: no usable weapon and no rocket, no attack reaches; it holds: lost.
    ]
    out = play(b, script)
    check(
        out,
        winner=2,
        rounds=1,
        systems_lost_b=1,
        pilot_hits_b=0,
        direct_hits_a=2,
        attacks_b=0,
        armors_left_b=1,
    )


def test_block_policy_and_skill_dice_filling_an_empty_pool():
    # actions = 4. A0 knight:DD (Attack 1d6 + 1d8) v B0 knight:DR (Attack 1d6; one
    # Resistive system: Defense 2d6), both gunline (block).
    b = duel(catalog(round_cap=1, actions=4), "knight:DD", "knight:DR")
    script = [
        (6, 5),
        (6, 3),  # A0 Skill dice
        (6, 2),
        (8, 7),  # A0 Attack dice (d6, d8)
        (6, 4),
        (6, 1),  # B0 Skill dice
        (6, 1),  # B0 Attack die
        (6, 3),
        (6, 6),  # B0 Resistive dice
        # initiative: Ace A 5 > B 4, A first
        # A0 action 1: Attack 7. Block: 7 - 3 and 7 - 6 both hit: the smallest, 3: margin 4
        (6, 5),
        (6, 1),
        (6, 2),
        (6, 3),  # damage: 1 Direct Hit (B0 1)
        # action 2: Attack 2 (the d6 before any Skill die). Block: 6 makes it miss: miss.
        # action 3: Skill 5. No Defense die left: B0's highest Skill die 4: margin 1
        (6, 6),  # damage: a Direct Hit (B0 2) -> a system lost
        (6, 3),  # B0 loss die: (3 - 1) mod 2 = 0: its Resistive
        # action 4: Skill 3 against B0's last Skill die 1: margin 2
        (6, 4),
        (6, 5),  # damage: 1 Direct Hit (B0 3, no loss)
        # B0 action 1: Attack 1; A0 has no Defense die and no Skill die left: 0. Margin 1
        (6, 4),  # damage: no Direct Hit
        # B0 actions 2-4: no Attack or Skill die left, lost. Round cap 1: a draw.
    ]
    out = play(b, script)
    check(
        out,
        winner=2,
        rounds=1,
        attacks_a=4,
        hits_a=3,
        direct_hits_a=3,
        systems_lost_b=1,
        attacks_b=1,
        hits_b=1,
        direct_hits_b=0,
    )


def test_smart_attack_meets_only_ecm_dice():
    # A0 knight:X (Smart) v B0 knight:ER: Defense ECM 2d6 (the first defensive system,
    # counted first) and Resistive 1d6 (the second); no weapon: the mobile 1d8 Move die.
    b = duel(catalog(round_cap=1), "knight:X", "knight:ER")
    script = [
        (6, 2),
        (6, 1),  # A0 Skill dice
        (6, 6),  # A0 Attack die
        (6, 1),
        (6, 1),  # B0 Skill dice
        (6, 2),
        (6, 3),  # B0 ECM dice
        (6, 6),  # B0 Resistive die (it would block a 6; it may not meet a Smart attack)
        (8, 4),  # B0 Move die (mobile frame)
        # initiative: Ace A 2 > B 1
        # A0 action 1: smart, Attack 6 against ECM 2 or 3: neither blocks: the smallest, 2
        (6, 4),
        (6, 3),
        (6, 6),
        (6, 1),  # damage (margin 4), smart 4-6: 2 Direct Hits
        (6, 2),  # B0 loss die: (2 - 1) mod 2 = 1: its ECM
        # action 2: Skill 2 against the last ECM die 3 (it blocks): a miss.
        # B0: no weapon, holds: both actions lost.
    ]
    out = play(b, script)
    check(out, winner=2, attacks_a=2, hits_a=1, direct_hits_a=2, systems_lost_b=1)


def test_highest_policy_resistive_before_ecm_at_equal_faces():
    # A0 knight:D and A1 knight:X against B0 knight:ER@striker (defends with its highest
    # die; approaches). No Skill dice.
    c = catalog(round_cap=1, skill_dice=0)
    b = compile_battle(c, ["knight:D", "knight:X"], ["knight:ER@striker"])
    script = [
        (6, 5),  # A0 Attack die
        (6, 5),  # A1 Attack die
        (6, 4),
        (6, 3),  # B0 ECM dice
        (6, 4),  # B0 Resistive die
        (8, 3),  # B0 Move die
        D2_A,  # initiative d2: A first
        # A0: ranged 5. Highest: 4, the Resistive one before the ECM one: margin 1
        (6, 1),  # damage: no Direct Hit
        # A1: smart 5 against the ECM dice 4, 3: highest 4: margin 1
        (6, 4),  # damage: smart, a Direct Hit
        # B0: no attack reaches, so it moves toward A0 (goal 1): Move 3 -> (9 + 3) // 3
        # = 4 hexes (12 -> 8), then no die: 9 // 3 = 3 hexes (-> 5).
    ]
    dice = ScriptedDice(script)
    s = ref.start(b)
    ref.play_round(b, s, dice)
    assert dice.used == len(script)
    assert s.armors[2].pos == 5
    out = ref.results(s)
    check(out, winner=2, attacks_a=2, hits_a=2, direct_hits_a=1, systems_lost_b=0)


def test_cover_takes_the_other_dice_and_loses_oh():
    # B0 knight:M behind rubble (OH 4) holds (no weapon); A0 knight:DD. No Skill dice.
    b = duel(catalog(round_cap=2, skill_dice=0), "knight:DD", "knight:M", cover=("none", "rubble"))
    script = [
        # round 1
        (6, 2),
        (8, 3),  # A0 Attack dice
        (6, 1),
        (8, 1),  # B0 Move dice (movement system, mobile frame)
        D2_A,
        # A0 action 1: Attack 3, no Defense: margin 3, in cover: Direct Hits on 6 only
        (6, 6),
        (6, 5),
        (6, 1),  # 1 Direct Hit; the 5 and the 1 cost the rubble 2 OH (4 -> 2)
        # action 2: Attack 2: margin 2
        (6, 4),
        (6, 3),  # no Direct Hit; 2 OH: the rubble is gone (2 -> 0)
        # round 2
        (6, 1),
        (8, 1),  # A0 Attack dice
        (6, 1),
        (8, 1),  # B0 Move dice
        D2_B,  # B first: nothing to do
        # A0: Attack 1 (the d6, rolled first): margin 1, now exposed: 5-6
        (6, 5),  # a Direct Hit (B0 2) -> a system lost
        (6, 1),  # B0 loss die: its only system, M: inoperable. A wins in round 2.
    ]
    out = play(b, script)
    check(out, winner=0, rounds=2, attacks_a=3, hits_a=3, direct_hits_a=2, systems_lost_b=1)


def test_opportunity_die_beyond_direct_fire_range():
    # 26 hexes apart. A0 knight:D holds; B0 knight:DM@striker approaches to 20 hexes.
    b = duel(catalog(round_cap=2, skill_dice=0), "knight:D", "knight:DM@striker", range_=26)
    script = [
        # round 1
        (6, 6),  # A0 Attack die
        (6, 5),  # B0 Attack die
        (6, 6),  # B0 Move die
        D2_A,
        # A0: ranged 6 at 26 > 20 hexes:
        (8, 3),  # Opportunity die, added to the Defense (B0 has no die: 0 + 3)
        (6, 5),
        (6, 1),
        (6, 2),  # damage (margin 3): 1 Direct Hit
        # A0 action 2: nothing left. B0 beyond range: moves (goal 20): Move 6 ->
        # (9 + 6) // 3 = 5 hexes (26 -> 21); then no die: 3 hexes, stops at 20.
        # round 2
        (6, 2),  # A0 Attack die
        (6, 5),  # B0 Attack die
        (6, 1),  # B0 Move die
        D2_B,
        # B0: ranged 5 at 20 hexes: no Opportunity die; A0 has no Defense: margin 5
        (6, 5),
        (6, 6),
        (6, 1),
        (6, 1),
        (6, 1),  # 2 Direct Hits -> a system lost
        (6, 6),  # A0 loss die: the pilot
        # A0: 2 at 20 hexes: margin 2
        (6, 4),
        (6, 3),  # no Direct Hit. Round cap: a draw.
    ]
    out = play(b, script)
    check(
        out,
        winner=2,
        rounds=2,
        attacks_a=2,
        hits_a=2,
        direct_hits_a=1,
        attacks_b=1,
        hits_b=1,
        direct_hits_b=2,
        pilot_hits_a=1,
        systems_lost_a=0,
    )


def test_ambush_round_only_the_ambusher_acts():
    b = duel(catalog(round_cap=2, skill_dice=0), "knight:D", "knight:D", ambush="a")
    script = [
        # round 1: both roll their pools; no initiative die: only A acts
        (6, 3),  # A0 Attack die
        (6, 6),  # B0 Attack die (B0 still defends; it does not act)
        (6, 1),
        (6, 2),
        (6, 3),  # A0's 3 against 0: 3 damage dice, no Direct Hit
        # round 2: an ordinary round
        (6, 1),  # A0 Attack die
        (6, 1),  # B0 Attack die
        D2_B,
        (6, 1),  # B0's 1: margin 1, no Direct Hit
        (6, 2),  # A0's 1: margin 1, no Direct Hit
    ]
    out = play(b, script)
    check(out, winner=2, rounds=2, attacks_a=2, attacks_b=1, hits_a=2, hits_b=1)


def test_grapple_break_free_and_the_disabled_system():
    # range 1. A0 knight:H@brawler (Attack 1d6, mobile Move 1d8) v B0 knight:DM (gunline:
    # Attack 1d6, Move 1d6).
    b = duel(catalog(round_cap=2), "knight:H@brawler", "knight:DM", range_=1)
    script = [
        # round 1
        (6, 5),
        (6, 3),  # A0 Skill dice
        (6, 4),  # A0 Attack die
        (8, 1),  # A0 Move die
        (6, 2),
        (6, 1),  # B0 Skill dice
        (6, 6),  # B0 Attack die
        (6, 4),  # B0 Move die
        # initiative: Ace 5 > 2
        # A0 action 1: grapple: Skill 5 against B0's Move 4: 5 - 4 >= 1, grappled
        # A0 action 2: close (Hand-to-Hand at 1 hex): 4 against B0's highest Skill 2: 2
        (6, 4),
        (6, 3),  # damage, close 4-6: 1 Direct Hit
        # B0 action 1: break free: its Skill 1 against A0's unspent Skill 3: held.
        # B0 action 2: ranged 6 at its grappler (it shields nothing of its own fire);
        # A0 defends with its Skill 3: margin 3, exposed
        (6, 5),
        (6, 1),
        (6, 1),  # 1 Direct Hit
        # round 2: B0 still held: it loses its movement system from the pools (no Move die)
        (6, 1),
        (6, 1),  # A0 Skill dice
        (6, 1),  # A0 Attack die
        (8, 1),  # A0 Move die
        (6, 6),
        (6, 2),  # B0 Skill dice
        (6, 3),  # B0 Attack die (no Move die)
        # initiative: Ace 1 < 6: B first. B0 action 1: Skill 6 > A0's 1: free.
        # B0 action 2: 3 against A0's Skill 1: margin 2
        (6, 6),
        (6, 5),  # 2 Direct Hits (A0 3) -> a system lost
        (6, 2),  # A0 loss die: its only system, H: inoperable. B wins in round 2.
    ]
    out = play(b, script)
    check(
        out,
        winner=1,
        rounds=2,
        grapples_a=1,
        grapples_b=0,
        attacks_a=1,
        hits_a=1,
        direct_hits_a=1,
        attacks_b=2,
        hits_b=2,
        direct_hits_b=3,
        systems_lost_a=1,
        armors_left_a=0,
    )


def test_grappled_ally_is_cover_for_the_grappler():
    # A0 and A1 knight:D (gunline) v B0 knight:H@brawler, 1 hex apart; one Skill die each.
    c = catalog(round_cap=1, skill_dice=1)
    b = compile_battle(c, ["knight:D", "knight:D"], ["knight:H@brawler"], range_=1)
    script = [
        (6, 2),
        (6, 5),  # A0 Skill die, Attack die
        (6, 3),
        (6, 6),  # A1 Skill die, Attack die
        (6, 6),
        (6, 5),  # B0 Skill die, Attack die
        (8, 1),  # B0 Move die (mobile)
        # initiative: Ace A 3 < B 6: B first
        # B0 action 1: grapple A0: Skill 6 against A0's Skill 2 (no Move die): grappled
        # B0 action 2: close 5 against 0 (A0's Skill spent): margin 5, 4-6
        (6, 1),
        (6, 2),
        (6, 3),
        (6, 1),
        (6, 2),  # no Direct Hit
        # A0 action 1: break free: 0 against 0: held. Action 2: ranged 5 at B0 (no
        # Defense, Skill spent): margin 5; its own fire: B0 exposed, 5-6
        (6, 5),
        (6, 1),
        (6, 1),
        (6, 1),
        (6, 1),  # 1 Direct Hit (B0 1)
        # A1 action 1: ranged 6 at B0: margin 6; the grappled A0 is B0's cover: 6 only,
        # and A0 takes the other five as Direct Hits
        (6, 6),
        (6, 5),
        (6, 1),
        (6, 2),
        (6, 3),
        (6, 4),
        (6, 3),  # B0 loss die (B0 2 Direct Hits): its H: inoperable, A0 released
        (6, 4),  # A0 loss die (5 Direct Hits: 2 systems): its D: inoperable; no more
        # A1 action 2: no enemy left: lost. B beaten: A wins.
    ]
    out = play(b, script)
    check(
        out,
        winner=0,
        rounds=1,
        grapples_b=1,
        attacks_a=2,
        hits_a=2,
        direct_hits_a=7,
        attacks_b=1,
        direct_hits_b=0,
        systems_lost_a=1,
        systems_lost_b=1,
        armors_left_a=1,
        armors_left_b=0,
    )


def test_rocket_spent_with_the_roll():
    # A0 knight:H+1r (gunline: rockets from round 1): Hand-to-Hand only, 12 hexes off:
    # its ranged attacks come from the rocket die. B0 knight:R (Defense 2d6, mobile Move).
    b = duel(catalog(round_cap=2, skill_dice=0), "knight:H+1r", "knight:R")
    script = [
        # round 1
        (6, 5),  # A0 Attack die (H)
        (8, 2),  # A0 rocket die: the rocket is spent
        (8, 1),  # A0 Move die (mobile)
        (6, 6),
        (6, 1),  # B0 Resistive dice
        (8, 1),  # B0 Move die
        D2_A,
        # A0 action 1: the rocket die is unspent: a ranged attack, with the highest
        # Attack die, 5. Block: 6 makes it miss: a miss.
        # action 2: the rocket die 2 against the last Resistive die 1: margin 1
        (6, 5),  # 1 Direct Hit (exposed 5-6)
        # round 2: no rocket left: no attack reaches; it holds: lost
        (6, 4),  # A0 Attack die
        (8, 1),  # A0 Move die
        (6, 1),
        (6, 1),  # B0 Resistive dice
        (8, 1),  # B0 Move die
        D2_B,
    ]
    out = play(b, script)
    check(out, winner=2, rounds=2, attacks_a=2, hits_a=1, direct_hits_a=1)


def test_battery_shutdown():
    b = duel(catalog(round_cap=1, skill_dice=0), "knight:D", "knight:D", depleted=(True, True))
    script = [
        (6, 1),  # A0 Attack die
        (6, 1),  # B0 Attack die
        D2_A,
        (6, 1),  # A0's 1 against 0: margin 1, no Direct Hit
        (6, 1),  # A0 battery die after its turn: 1, shut down
        # B0's turn: no operable enemy, both actions lost
        (6, 2),  # B0 battery die: 2, runs on. B wins.
    ]
    out = play(b, script)
    check(
        out,
        winner=1,
        rounds=1,
        shutdowns_a=1,
        shutdowns_b=0,
        armors_left_a=0,
        armors_left_b=1,
        attacks_b=0,
    )


def test_foot_soldiers_clearing_infantry_and_a_rout():
    # A0 knight:DD v B0, B1 knight:D, all gunline; a squad a side (6 soldiers) where its
    # side started; Morale: A none, B 6. No Skill dice.
    c = catalog(round_cap=1, skill_dice=0)
    b = compile_battle(c, ["knight:DD"], ["knight:D", "knight:D"], squads=(1, 1), morale=(0, 6))
    script = [
        (6, 3),
        (8, 2),  # A0 Attack dice
        (6, 4),  # B0 Attack die
        (6, 1),  # B1 Attack die
        D2_A,
        # A0 action 1: 3 (the d6) at B0: margin 3
        (6, 5),
        (6, 6),
        (6, 1),  # 2 Direct Hits -> a system lost
        (6, 4),  # B0 loss die: its D: inoperable
        # A0 action 2 (last): B's squad is 12 hexes off: the Attack die 2 fells 2 soldiers
        # B1 action 1: 1 at A0: margin 1
        (6, 4),  # no Direct Hit
        # B1 action 2 (last): A's squad is in range: no die left, 0 fall
        # foot soldiers: both sides have squads
        (6, 2),  # A's squad initiative: 2 + Morale 0 = 2
        (6, 1),  # B's: 1 + 6 = 7: B's squads first
        (6, 5),  # B's squad (4 soldiers) at A0: 5 against 0: margin 5
        (6, 6),
        (6, 5),
        (6, 1),
        (6, 2),
        (6, 3),  # 2 Direct Hits -> a system lost
        (6, 6),  # A0 loss die: the pilot
        (6, 1),  # A's squad at B1 (the first operable enemy): margin 1
        (6, 5),  # 1 Direct Hit
        # morale: B lost half its Armors (and its lead): 2d6
        (6, 4),
        (6, 3),  # 7 > 6: B routs. A wins.
    ]
    out = play(b, script)
    check(
        out,
        winner=0,
        rounds=1,
        routed_a=0,
        routed_b=1,
        soldiers_lost_a=0,
        soldiers_lost_b=2,
        attacks_a=2,
        hits_a=2,
        direct_hits_a=3,
        attacks_b=2,
        hits_b=2,
        direct_hits_b=2,
        pilot_hits_a=1,
        systems_lost_b=1,
        armors_left_a=1,
        armors_left_b=1,
    )


def test_spot_consumed_by_an_allys_attack():
    # A0 knight:SD@overwatch (Attack 1d6, Spot 1d6) and A1 knight:DD (gunline) v B0, B1
    # knight:R (Defense 2d6, mobile Move 1d8; no weapon). No Skill dice.
    c = catalog(round_cap=1, skill_dice=0)
    b = compile_battle(c, ["knight:SD@overwatch", "knight:DD"], ["knight:R", "knight:R"])
    script = [
        (6, 2),
        (6, 5),  # A0 Attack die, Spot die
        (6, 4),
        (8, 1),  # A1 Attack dice
        (6, 5),
        (6, 3),  # B0 Resistive dice
        (8, 1),  # B0 Move die
        (6, 1),
        (6, 1),  # B1 Resistive dice
        (8, 1),  # B1 Move die
        D2_A,
        # A0 action 1: 2 at B0; block: 3 makes it miss (the smallest that does): a miss.
        # A0 action 2 (last, A1 yet to act, B0 in reach): Spot B0 with 5.
        # A1 action 1: 4 + Spot 5 against B0's last die 5: margin 4 (Spot consumed)
        (6, 5),
        (6, 1),
        (6, 1),
        (6, 1),  # 1 Direct Hit
        # A1 action 2: 1 + no Spot against 0 (B0 has no die left): margin 1
        (6, 6),  # 1 Direct Hit (B0 2) -> a system lost
        (6, 2),  # B0 loss die: its R: inoperable
        # B1: no weapon, holds. Round cap: a draw.
    ]
    out = play(b, script)
    check(out, winner=2, attacks_a=3, hits_a=2, direct_hits_a=2, systems_lost_b=1, armors_left_b=1)


def test_approach_leaves_cover_without_a_movement_system():
    # A0 knight:H@brawler behind rubble, B0 knight:R 12 hexes off. No Skill dice.
    b = duel(
        catalog(round_cap=1, skill_dice=0), "knight:H@brawler", "knight:R", cover=("rubble", "none")
    )
    script = [
        (6, 3),
        (8, 6),  # A0 Attack die, Move die
        (6, 1),
        (6, 1),  # B0 Resistive dice
        (8, 1),  # B0 Move die
        D2_A,
        # A0: approach (goal 1): Move 6 -> 5 hexes (12 -> 7), then 0 -> 3 hexes (-> 4)
    ]
    dice = ScriptedDice(script)
    s = ref.start(b)
    assert s.armors[0].cover == 4
    ref.play_round(b, s, dice)
    assert dice.used == len(script)
    assert (s.armors[0].pos, s.armors[0].cover) == (8, 0)


# ---- the contract ------------------------------------------------------------------------


# The engine contract (same seed, same results; keys, dtypes and shapes; refusals) is
# tests/conformance.py's, run over every registered game.


def test_results_in_fields_order_and_one_outcome_each(cat):
    """Results in FIELDS order and dtypes; the metrics score each battle as exactly one
    of a win for A, a win for B, a draw (rules.RESULTS)."""
    battles = [scenario_battle(cat, sid) for sid in cat.scenarios]
    ids = np.arange(len(battles)).repeat(4)
    one = ref.play(battles, ids, np.random.default_rng(7))
    assert {k: v.dtype for k, v in one.items()} == {k: np.dtype(t) for k, t in FIELDS.items()}
    assert list(one) == list(FIELDS)
    m = metrics(one)
    assert set(m) == {"win_a", "win_b", "draw"} | set(FIELDS) - {"winner"}
    assert np.all(m["win_a"] + m["win_b"] + m["draw"] == 1)
    assert set(np.unique(one["winner"]).tolist()) <= {0, 1, 2}


def test_mirror_duel_is_fair(cat):
    n = 400
    out = metrics(
        ref.play(
            [duel(cat, "gunner", "gunner")], np.zeros(n, np.int64), np.random.default_rng(2024)
        )
    )
    diff = out["win_a"] - out["win_b"]
    se = diff.std(ddof=1) / np.sqrt(n)
    assert abs(diff.mean()) <= 4 * se
