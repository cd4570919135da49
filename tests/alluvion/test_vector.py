"""The Alluvion vector engine (sims/alluvion/vector.py): hand-traced battles die by die
(the same script gives the same numbers in the reference engine), the reference's own
dice replayed into it on random battles, and exact hit odds (a mixed call against
separate calls and the reference on every scenario of catalogs/alluvion/scenarios.toml
are tests/conformance.py's).

Numbers used in the traces (rules.toml): Skill 2d6 a round (several cases set
``skill_dice = 0``: the initiative is then always the d2, 1 A first); Attack 1d6 for the
first weapon system, 1d8 for each later one; Defense 2d6 for the first defensive
system, 1d6 for each later one, ECM dice rolled first; Move 1d6 per movement system,
+1d8 for a frame with neither Direct Fire nor Smart systems; Spot 1d6 per surveillance
system; a rocket 1d8; two actions; a hit on Attack + Spot - Defense >= 1 rolls that many
d6; Direct Hits close 4-6, ranged exposed 5-6, in cover 6, smart 4-6; 2 Direct Hits a
system, a loss die each: 6 the pilot (3 HP), else live system ``(face - 1) mod live`` in
KINDS order (resistive, ecm, movement, surveillance, hand_to_hand, direct_fire, smart);
direct fire range 20 hexes, 1d8 Opportunity beyond; start range 12; a knight moves 9 m
+ its Move die, 3 m a hex. Policies: gunline holds, blocks, clears infantry; brawler
approaches, grapples; striker approaches, defends with its highest die, rockets from
round 2; overwatch holds and spots on its last action.
"""

from __future__ import annotations

import numpy as np
import pytest

from sims.alluvion import ENGINES, reference, vector
from sims.alluvion.battle import compile_battle, duel, scenario_battle
from sims.alluvion.catalog import load_catalog
from sims.core.batch import ScriptedDice
from sims.core.dist import Dist
from tests.conformance import replay
from tests.conftest import CATALOGS

ONE = np.zeros(1, np.int64)
D2_A, D2_B = (2, 1), (2, 2)  # the initiative d2: 1 A first, 2 B first


def catalog(**overrides):
    return load_catalog(CATALOGS, overrides=overrides)


@pytest.fixture(scope="module")
def cat():
    return catalog()


def scripted(battle, script) -> dict[str, int]:
    """One battle on a script in both engines: every face read, the same numbers."""
    out = {}
    for engine in (reference, vector):
        dice = ScriptedDice(script)
        res = engine.play_dice([battle], ONE, dice)
        assert dice.used == len(script), f"{engine.__name__} read {dice.used} of {len(script)}"
        out[engine.__name__] = {k: v.item() for k, v in res.items()}
    assert out[vector.__name__] == out[reference.__name__]
    return out[vector.__name__]


# ---- hand-traced battles ------------------------------------------------------------------
# (name, battle factory, script, expected numbers)


def _kill():
    return duel(catalog(skill_dice=0, round_cap=2), "knight:DD", "knight:DM")


def _pilot_down():
    return duel(catalog(skill_dice=0, pilot_hp=1), "knight:DD", "knight:DM")


def _block():
    return duel(catalog(round_cap=1), "knight:DD", "knight:DRR")


def _smart():
    return duel(catalog(skill_dice=0, round_cap=1), "knight:XX", "knight:ER")


def _cover():
    return duel(
        catalog(skill_dice=0, round_cap=1), "knight:DD", "knight:DR", cover=("none", "rubble")
    )


def _opportunity():
    return duel(catalog(skill_dice=0, round_cap=1), "knight:D", "knight:DM@striker", range_=25)


def _ambush():
    return duel(catalog(round_cap=1), "knight:DR", "knight:D", ambush="b")


def _grapple():
    return duel(catalog(round_cap=2), "knight:HR@brawler", "knight:DMS", range_=1)


def _grappled_cover():
    c = catalog(skill_dice=1, round_cap=1)
    return compile_battle(c, ["knight:D", "knight:D"], ["knight:H@brawler"], range_=1)


def _rockets():
    return duel(catalog(skill_dice=0, round_cap=2), "knight:D+1r@striker", "knight:R")


def _battery():
    return duel(catalog(skill_dice=0, round_cap=2), "knight:D", "knight:D", depleted=(True, False))


def _squads():
    c = catalog(skill_dice=0, round_cap=1)
    return compile_battle(c, ["knight:DD"], ["knight:D", "knight:D"], squads=(1, 2), morale=(0, 5))


def _spotting():
    c = catalog(skill_dice=0, round_cap=1)
    return compile_battle(
        c,
        ["knight:SSD@overwatch", "knight:DD"],
        ["knight:R", "knight:R"],
        cover=("none", "concrete"),
    )


# fmt: off
HAND = [
    (
        "duel kill, a system lost and a pilot hit on a 6",
        _kill,
        # A0 knight:DD (Attack d6 + d8) v B0 knight:DM (Attack d6, Move d6), no Defense
        [
            (6, 4), (8, 8),  # round 1: A0 Attack dice
            (6, 2), (6, 1),  # B0 Attack die, Move die
            D2_A,            # no Skill dice: equal Aces and sums, the d2: A first
            # A0: ranged 8 at 12 hexes against 0: margin 8, exposed: 5-6 are Direct Hits
            (6, 5), (6, 6), (6, 5), (6, 1), (6, 2), (6, 3), (6, 4), (6, 1),  # 3: a system
            (6, 6),          # B0 loss die: 6, the pilot (HP 3 -> 2)
            # A0: 4 against 0: margin 4
            (6, 5), (6, 1), (6, 1), (6, 1),  # 1 Direct Hit (B0 4): a second system
            (6, 1),          # loss die 1: live system 0 of (M, D): the movement system
            # B0: ranged 2 against 0: margin 2
            (6, 6), (6, 6),  # 2 Direct Hits: a system of A0
            (6, 2),          # loss die 2: live system 1 of (D, D): a D
            # B0 action 2: no die left: lost
            (6, 3),          # round 2: A0 Attack die (one D left)
            (6, 5),          # B0 Attack die (no Move die: its M is gone)
            D2_B,            # B first
            # B0: 5 against 0: margin 5
            (6, 5), (6, 5), (6, 1), (6, 1), (6, 1),  # 2 Direct Hits (A0 4): a system
            (6, 1),          # loss die: A0's last D: inoperable. B wins in round 2.
        ],
        dict(winner=1, rounds=2, systems_lost_a=2, systems_lost_b=1, pilot_hits_a=0,
             pilot_hits_b=1, attacks_a=2, hits_a=2, direct_hits_a=4, attacks_b=2, hits_b=2,
             direct_hits_b=4, armors_left_a=0, armors_left_b=1),
    ),
    (
        "a pilot of 1 HP down on a 6",
        _pilot_down,
        [
            (6, 4), (8, 8), (6, 2), (6, 1), D2_A,
            (6, 5), (6, 6), (6, 5), (6, 1), (6, 2), (6, 3), (6, 4), (6, 1),  # 3 Direct Hits
            (6, 6),  # the pilot: 1 -> 0, out of the fight; A0's action 2 has no target
        ],
        dict(winner=0, rounds=1, pilot_hits_b=1, systems_lost_b=0, attacks_a=1, hits_a=1,
             direct_hits_a=3, attacks_b=0, armors_left_b=0),
    ),
    (
        "block policy and Skill dice filling empty pools",
        _block,
        # A0 knight:DD v B0 knight:DRR (Attack d6; Resistive 2d6 + 1d6), both block
        [
            (6, 6), (6, 2),  # A0 Skill dice
            (6, 3), (8, 7),  # A0 Attack dice
            (6, 5), (6, 1),  # B0 Skill dice
            (6, 2),          # B0 Attack die
            (6, 2), (6, 4), (6, 6),  # B0 Resistive dice
            # initiative: Ace 6 > 5, A first
            # A0: 7; no die makes it miss (7 - 6 = 1 hits): the smallest, 2: margin 5
            (6, 1), (6, 2), (6, 3), (6, 4), (6, 5),  # 1 Direct Hit
            # A0: 3; 4 and 6 make it miss: the smallest of those, 4: a miss
            # B0: 2 against A0's highest Skill die 6 (no Defense dice): a miss
            # B0: Skill 5 against A0's last Skill die 2: margin 3
            (6, 5), (6, 6), (6, 1),  # 2 Direct Hits: a system
            (6, 3),          # loss die 3: live system (3 - 1) mod 2 = 0: a D
        ],
        dict(winner=2, rounds=1, attacks_a=2, hits_a=1, direct_hits_a=1, attacks_b=2, hits_b=1,
             direct_hits_b=2, systems_lost_a=1, systems_lost_b=0),
    ),
    (
        "a Smart attack meets only ECM dice",
        _smart,
        # A0 knight:XX (Attack d6 + d8) v B0 knight:ER (ECM 2d6, Resistive 1d6, mobile d8)
        [
            (6, 5), (8, 6),  # A0 Attack dice
            (6, 3), (6, 1),  # B0 ECM dice
            (6, 6),          # B0 Resistive die: it could block, but may not meet Smart
            (8, 2),          # B0 Move die
            D2_A,
            # A0: smart 6 against ECM 3 or 1: neither blocks, the smallest 1: margin 5
            (6, 4), (6, 1), (6, 6), (6, 2), (6, 3),  # smart 4-6: 2 Direct Hits
            (6, 5),          # loss die 5: (5 - 1) mod 2 = 0: the Resistive system
            # A0: 5 against the ECM 3 (the Resistive 6 would have blocked): margin 2
            (6, 4), (6, 4),  # 2 Direct Hits
            (6, 1),          # loss die: the ECM: inoperable. A wins.
        ],
        dict(winner=0, rounds=1, attacks_a=2, hits_a=2, direct_hits_a=4, systems_lost_b=2,
             armors_left_b=0),
    ),
    (
        "cover takes the other dice and runs out of OH",
        _cover,
        # B0 knight:DR behind rubble (OH 4)
        [
            (6, 6), (8, 8),  # A0 Attack dice
            (6, 1),          # B0 Attack die
            (6, 1), (6, 2),  # B0 Resistive dice
            D2_A,
            # A0: 8 against block 1 (none makes it miss): margin 7, in cover: 6 only
            (6, 6), (6, 5), (6, 5), (6, 4), (6, 1), (6, 2), (6, 3),  # 1 Direct Hit;
            # the other 6 cost the rubble 6 OH: 4 -> 0
            # A0: 6 against 2: margin 4, now exposed: 5-6
            (6, 5), (6, 1), (6, 1), (6, 1),  # 1 Direct Hit (B0 2): a system
            (6, 1),          # loss die 1: the Resistive
            # B0: 1 against 0: margin 1
            (6, 4),          # no Direct Hit
        ],
        dict(winner=2, rounds=1, attacks_a=2, hits_a=2, direct_hits_a=2, systems_lost_b=1,
             attacks_b=1, hits_b=1, direct_hits_b=0),
    ),
    (
        "the Opportunity die beyond 20 hexes; a striker moves to direct fire range",
        _opportunity,
        # 25 hexes apart: A0 knight:D holds; B0 knight:DM@striker
        [
            (6, 5),          # A0 Attack die
            (6, 3), (6, 6),  # B0 Attack die, Move die
            D2_A,
            (8, 4),          # A0: ranged 5 at 25 hexes: Opportunity 4 (+ B0's 0): margin 1
            (6, 5),          # 1 Direct Hit
            # B0: beyond range: moves (9 + 6) // 3 = 5 hexes, to 20; then ranged 3 at 20
            # hexes (no Opportunity) against 0: margin 3
            (6, 6), (6, 5), (6, 1),  # 2 Direct Hits: a system
            (6, 6),          # A0 loss die: the pilot
        ],
        dict(winner=2, rounds=1, attacks_a=1, hits_a=1, direct_hits_a=1, attacks_b=1, hits_b=1,
             direct_hits_b=2, pilot_hits_a=1, systems_lost_a=0),
    ),
    (
        "an ambush round: only the ambusher acts, no initiative roll",
        _ambush,
        # B ambushes. A0 knight:DR (Resistive 2d6) v B0 knight:D
        [
            (6, 1), (6, 1),  # A0 Skill dice
            (6, 6),          # A0 Attack die (never used: A does not act)
            (6, 5), (6, 3),  # A0 Resistive dice
            (6, 6), (6, 6),  # B0 Skill dice
            (6, 2),          # B0 Attack die
            # B0: 2; 3 and 5 both make it miss: the smallest, 3: a miss
            # B0: Skill 6 against the 5: margin 1
            (6, 5),          # 1 Direct Hit
        ],
        dict(winner=2, rounds=1, attacks_a=0, attacks_b=2, hits_b=1, direct_hits_b=1),
    ),
    (
        "grapple, own fire unshielded, the disabled system, breaking free",
        _grapple,
        # 1 hex apart. A0 knight:HR@brawler (Attack d6, Resistive 2d6, mobile Move d8) v
        # B0 knight:DMS (Attack d6, Move d6, Spot d6)
        [
            (6, 6), (6, 3),  # round 1: A0 Skill dice
            (6, 4),          # A0 Attack die
            (6, 2), (6, 1),  # A0 Resistive dice
            (8, 5),          # A0 Move die
            (6, 4), (6, 2),  # B0 Skill dice
            (6, 5),          # B0 Attack die
            (6, 3),          # B0 Move die
            (6, 1),          # B0 Spot die
            # initiative: Ace 6 > 4, A first
            # A0: grapple: Skill 6 against B0's Move 3: grappled
            # A0: close 4 against B0's highest Skill die 4 (no Defense dice): a miss
            # B0: break free: Skill 2 against A0's unspent 3: held
            # B0: ranged 5 at its grappler, its own fire: no cover; A0 blocks with 1
            (6, 5), (6, 5), (6, 1), (6, 2),  # margin 4: 2 Direct Hits: a system
            (6, 2),          # loss die 2: live system 1 of (R, H): the Hand-to-Hand
            # round 2: B0 held: its movement system is disabled: no Move die
            (6, 1), (6, 1),  # A0 Skill dice (no weapon left: no Attack die)
            (6, 3), (6, 3),  # A0 Resistive dice
            (8, 1),          # A0 Move die
            (6, 5), (6, 5),  # B0 Skill dice
            (6, 6),          # B0 Attack die
            (6, 2),          # B0 Spot die
            # initiative: Ace 1 < 5, B first. B0: break free, 5 > 1: free
            # B0: 6 against A0's 3 (the first of two 3s): margin 3
            (6, 6), (6, 1), (6, 1),  # 1 Direct Hit (A0 3), no system
            # A0: grapple again: Skill 1 against B0's Skill 5 (no Move die): fails;
            # again with its last Skill 1 against B0's other 5: fails. Round cap: a draw.
        ],
        dict(winner=2, rounds=2, grapples_a=1, grapples_b=0, attacks_a=1, hits_a=0,
             attacks_b=2, hits_b=2, direct_hits_b=3, systems_lost_a=1),
    ),
    (
        "the grappled Armor is its grappler's cover against its ally",
        _grappled_cover,
        # A0, A1 knight:D v B0 knight:H@brawler 1 hex off; one Skill die each
        [
            (6, 2), (6, 5),  # A0 Skill die, Attack die
            (6, 3), (6, 6),  # A1 Skill die, Attack die
            (6, 6), (6, 5),  # B0 Skill die, Attack die
            (8, 1),          # B0 Move die (mobile)
            # initiative: Ace 3 < 6: B first. B0 grapples A0: 6 against A0's Skill 2
            # B0: close 5 against 0: margin 5, 4-6
            (6, 1), (6, 2), (6, 3), (6, 1), (6, 2),  # no Direct Hit
            # A0: break free 0 against 0: held. A0: ranged 5 at B0: own fire, exposed
            (6, 5), (6, 1), (6, 1), (6, 1), (6, 1),  # 1 Direct Hit (B0 1)
            # A1: ranged 6 at B0: A0 is the cover: 6 only, A0 takes the other five
            (6, 6), (6, 5), (6, 1), (6, 2), (6, 3), (6, 4),
            (6, 3),          # B0 loss die (2 Direct Hits): its H: inoperable
            (6, 4),          # A0 loss die (5 Direct Hits, 2 systems): its D: out, no more
        ],
        dict(winner=0, rounds=1, grapples_b=1, attacks_a=2, hits_a=2, direct_hits_a=7,
             attacks_b=1, direct_hits_b=0, systems_lost_a=1, systems_lost_b=1,
             armors_left_a=1, armors_left_b=0),
    ),
    (
        "a rocket from round 2, spent with its roll",
        _rockets,
        # A0 knight:D+1r@striker (rockets from round 2) v B0 knight:R (Resistive 2d6)
        [
            (6, 2),          # round 1: A0 Attack die, no rocket yet
            (6, 1), (6, 1),  # B0 Resistive dice
            (8, 1),          # B0 Move die
            D2_A,
            # A0: 2 against block 1: margin 1
            (6, 5),          # 1 Direct Hit
            # B0: no weapon, holds: nothing
            (6, 1),          # round 2: A0 Attack die
            (8, 8),          # the rocket die
            (6, 6), (6, 6),  # B0 Resistive dice
            (8, 1),          # B0 Move die
            D2_A,
            # A0: the rocket's 8 against 6: margin 2
            (6, 5), (6, 6),  # 2 Direct Hits (B0 3): a system
            (6, 1),          # loss die: its R: inoperable. A wins.
        ],
        dict(winner=0, rounds=2, attacks_a=2, hits_a=2, direct_hits_a=3, systems_lost_b=1),
    ),
    (
        "a depleted battery shuts down",
        _battery,
        # A's battery is depleted: a die after each of A0's turns
        [
            (6, 1), (6, 1),  # round 1: Attack dice
            D2_B,
            (6, 1),          # B0: margin 1, no Direct Hit
            (6, 2),          # A0: margin 1, no Direct Hit
            (6, 2),          # A0's battery: 2, runs on
            (6, 3), (6, 3),  # round 2
            D2_A,
            (6, 1), (6, 1), (6, 1),  # A0: margin 3, no Direct Hit
            (6, 1),          # A0's battery: 1, shut down. B0 has no target. B wins.
        ],
        dict(winner=1, rounds=2, shutdowns_a=1, shutdowns_b=0, attacks_a=2, hits_a=2,
             attacks_b=1, hits_b=1, armors_left_a=0, armors_left_b=1),
    ),
    (
        "infantry cleared, squads attack, morale routs",
        _squads,
        # A0 knight:DD v B0, B1 knight:D; A one squad, B two (6 soldiers each); Morale B 5
        [
            (6, 4), (8, 3),  # A0 Attack dice
            (6, 6),          # B0 Attack die
            (6, 2),          # B1 Attack die
            D2_A,
            # A0: 4 at B0: margin 4
            (6, 5), (6, 6), (6, 1), (6, 1),  # 2 Direct Hits
            (6, 1),          # B0 loss die: its D: inoperable
            # A0 (last action): B's squads 12 hexes off: the Attack die 3 fells 3
            # B1: 2 at A0: margin 2
            (6, 1), (6, 2),  # no Direct Hit
            # B1 (last action): A's squad in range, no die left: 0 fall
            (6, 3),          # A's squad initiative: 3 + 0
            (6, 1),          # B's: 1 + 5 = 6: B's squads first
            (6, 4),          # B squad 1 at A0: margin 4
            (6, 5), (6, 1), (6, 1), (6, 1),  # 1 Direct Hit
            (6, 2),          # B squad 2: margin 2
            (6, 5), (6, 2),  # 1 Direct Hit (A0 2): a system
            (6, 2),          # A0 loss die 2: (2 - 1) mod 2 = 1: a D
            (6, 6),          # A's squad at B1 (B0 is out): margin 6
            (6, 5), (6, 5), (6, 1), (6, 1), (6, 1), (6, 1),  # 2 Direct Hits
            (6, 6),          # B1 loss die: the pilot
            (6, 4), (6, 3),  # B's morale (half its Armors and its lead lost): 7 > 5, rout
        ],
        dict(winner=0, rounds=1, routed_a=0, routed_b=1, soldiers_lost_a=0, soldiers_lost_b=3,
             attacks_a=2, hits_a=2, direct_hits_a=4, attacks_b=3, hits_b=3, direct_hits_b=2,
             systems_lost_a=1, systems_lost_b=1, pilot_hits_b=1, armors_left_a=1,
             armors_left_b=1),
    ),
    (
        "a 2v2 Spotter marks a target in cover for its ally",
        _spotting,
        # A0 knight:SSD@overwatch (Attack d6, Spot 2d6: reach anywhere, into cover), A1
        # knight:DD v B0, B1 knight:R behind concrete (OH 8 each)
        [
            (6, 1), (6, 3), (6, 5),  # A0 Attack die, Spot dice
            (6, 4), (8, 7),  # A1 Attack dice
            (6, 4), (6, 4), (8, 1),  # B0 Resistive dice, Move die
            (6, 1), (6, 1), (8, 1),  # B1
            D2_A,
            # A0: 1 at B0: blocked by a 4. A0 (last action): Spot B0 with 5
            # A1: 7 + Spot 5 against the other 4: margin 8, in cover: 6 only
            (6, 6), (6, 6), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (6, 1),  # 2 Direct Hits
            (6, 3),          # B0 loss die: its R: inoperable
            # A1: 4 at B1 (the Spot was consumed) against 1: margin 3, in cover
            (6, 6), (6, 1), (6, 1),  # 1 Direct Hit
        ],
        dict(winner=2, rounds=1, attacks_a=3, hits_a=2, direct_hits_a=3, systems_lost_b=1,
             armors_left_b=1),
    ),
]
# fmt: on


@pytest.mark.parametrize("name,make,script,want", HAND, ids=[h[0] for h in HAND])
def test_hand_traced(name, make, script, want):
    out = scripted(make(), script)
    assert {k: out[k] for k in want} == want


def random_battles(c, n: int, seed: int):
    """Battles of every shape the engines know: 1-2 Armors a side of the named loadouts,
    squads, morale, ambushes, cover, batteries, near and far starts."""
    rng = np.random.default_rng(seed)
    ids = list(c.loadouts)
    out = []
    for _ in range(n):
        a, b = (list(rng.choice(ids, rng.integers(1, 3))) for _ in range(2))
        out.append(
            compile_battle(
                c,
                a,
                b,
                squads=tuple(rng.integers(0, 3, 2)),
                morale=tuple(rng.choice([0, 3, 5, 8], 2)),
                ambush=str(rng.choice(["none", "a", "b"])),
                cover=tuple(rng.choice(["none", "rubble", "concrete"], 2)),
                depleted=tuple(rng.random(2) < 0.3),
                range_=int(rng.choice([0, 1, 25])),
            )
        )
    return out


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {
            "system_loss": "choice",
            "smart_defense": "all",
            "opportunity_die": 0,
            "spot_adds_to_margin": "off",
            "actions": 3,
            "pilot_hp": 1,
        },
    ],
)
def test_reference_dice_replayed(overrides):
    """The reference engine's dice on random battles, replayed as a script: the vector
    engine reads every face in the same order and reports the same numbers
    (``tests/conformance.py``'s :func:`replay`, which plays the scenarios.toml battles
    under rules.toml for every game)."""
    c = catalog(**overrides)
    battles = [scenario_battle(c, s) for s in c.scenarios] + random_battles(c, 24, 11)
    for i, b in enumerate(battles):
        for seed in range(4):
            replay(ENGINES.play_dice, b, np.random.default_rng(100 * i + seed))


# The engine contract (the same results for the same seed, keys, dtypes and shapes, the
# refusal of mixed batch keys, a mixed call against separate calls) and the agreement with
# the reference on every scenarios.toml battle (within 4 standard errors, alone and mixed
# in one call) are tests/conformance.py's, run over every registered game.


ODDS = [
    ("ecm", "knight:R", "knight:D"),
    ("ecm", "knight:ER", "knight:X"),
    ("all", "knight:ER", "knight:X"),
]


@pytest.mark.parametrize("smart_defense,defender,attacker", ODDS)
def test_first_attack_hit_odds_exact(smart_defense, defender, attacker):
    """One action, one round: the attacker's one attack is its d6 against a blocking
    defender's dice that may meet it (Resistive 2d6; ECM 2d6 for a Smart attack when only
    ECM dice may meet it, all three of ECM 2d6 + Resistive 1d6 otherwise). Blocking misses
    whenever a die is at least the attack, so it hits iff d6 - highest(k d6) >= 1."""
    c = catalog(actions=1, round_cap=1, smart_defense=smart_defense)
    k = 3 if (smart_defense, defender) == ("all", "knight:ER") else 2
    p = float((Dist.die(6) - Dist.die(6).highest(k)).p_at_least(c.params.hit_at))
    n = 20000
    hits = vector.play(
        [duel(c, attacker, defender)], np.zeros(n, np.int64), np.random.default_rng(5)
    )["hits_a"]
    assert abs(hits.mean() - p) <= 4 * np.sqrt(p * (1 - p) / n)
