"""The ALPHASIDE vector engine (sims/alphaside/vector.py): hand-traced games die by die
(the same script gives the same numbers in the reference engine), the reference's own
dice replayed into it on every sample battle and on random ones, working sets read as one
stream, and the first attack of a duel against the exact odds (a mixed call against
separate calls is tests/conformance.py's).

Numbers used in the traces (catalogs/alphaside, rules.toml): a d10 hits on 4+ after
Accuracy, a 1 always misses, crits from the weapon's crit_from (9, the Beam Saber 7) read
from the face; Advance 3 + Speed (-1 Engaged), Dash 3 hexes for 2 TL, Energize 2 TL for 1
Energy; a defeat moves the token +2. Every trace plays ONE Phase of 4 spaces (the last
time is 4; ``tactics_deck = 12`` keeps the 9-card decks legal) on a short track, and
starts with the two deck shuffles: side A's then side B's, a d9, d8, ..., d2 each (face
i + 1 at place i keeps the deck in squad order: ``KEEP``). Without ``tactics_draw`` no
card is ever in hand.

Units: grunt HP 4, Shields 0, Speed 1 (Rifle TL 3 range 4 4 dice crit Damage+1; Vulcan
TL 1 range 2 2 dice), drone HP 3, Speed 2 (Machine Gun TL 2 range 3 5 dice Accuracy -2,
crit Slow), ace HP 6, Shields 2, Speed 2 (Beam Saber TL 2 range 1 4 dice Accuracy +1,
crits 7-10 Disarm; Rifle; Overdrive +2 dice and Barrier +1 Shield for 1 Energy each),
brawler HP 6, Shields 1, Speed 1 (Heat Axe TL 3 range 1 5 dice crit Fracture; Machine
Gun; Overdrive), sniper HP 4, Shields 1, Speed 0, keep_range / per_tl (Long Rifle TL 4
range 8 3 dice Accuracy +1 crit Damage+2; Vulcan; Targeting +1 Accuracy for 1 Energy),
bulwark HP 8, Shields 2, Speed 0 (Shoulder Cannon TL 4 range 5 5 dice Accuracy -1 crit
Push 2; Vulcan), raider HP 4, Shields 1, Speed 3 (Machine Gun; Harpoon TL 2 range 3 3
dice crit Pull 2), artillery HP 5, Speed 0, keep_range / per_tl (Mortar TL 4 range 7 4
dice Accuracy -1 area 1 crit Slow; Vulcan). assault: close in to the shortest range,
strongest weapon.
"""

from __future__ import annotations

import numpy as np
import pytest

from sims.alphaside import ENGINES, reference, rules, vector
from sims.alphaside.battle import compile_battle, duel, sample_scenarios
from sims.alphaside.catalog import load_catalog
from sims.core.batch import Dice, ScriptedDice
from tests.conformance import replay
from tests.conftest import CATALOGS

ONE = np.zeros(1, np.int64)
SHORT = {"phases": 1, "tactics_deck": 12, "spaces": 4, "tactics_draw": 0}
KEEP = [(k, k) for k in range(9, 1, -1)]  # one side's shuffle that keeps squad order
D = 10  # the attack die


def catalog(**overrides):
    return load_catalog(CATALOGS, overrides=overrides)


@pytest.fixture(scope="module")
def cat():
    return catalog()


def d10(*faces: int) -> list[tuple[int, int]]:
    return [(D, f) for f in faces]


def scripted(battle, script) -> dict[str, int]:
    """One game on a script in both engines: every face read, the same numbers."""
    out = {}
    for engine in (reference, vector):
        dice = ScriptedDice(script)
        res = engine.play_dice([battle], ONE, dice)
        assert dice.used == len(script), f"{engine.__name__} read {dice.used} of {len(script)}"
        out[engine.__name__] = {k: v.item() for k, v in res.items()}
    assert out[vector.__name__] == out[reference.__name__]
    return out[vector.__name__]


def short(a, b, board: int, **overrides):
    return duel(catalog(**{**SHORT, "board_length": board, **overrides}), a, b)


# ---- hand-traced games --------------------------------------------------------------------
# (name, battle factory, script, expected numbers)

# fmt: off
HAND = [
    (
        "deploy, Energize, a Slow, a defeat by the Rifle's Damage+1",
        lambda: short("grunt", "drone", 4),
        KEEP + KEEP + [
            # t1 A grunt deploys on hex 0; no enemy on the board: Advance 3 + 1 toward the
            # hex 1 short of B's Base (hex 3); Energize (2 TL, token on 3)
            # t1 B drone deploys on hex 4: target grunt at 1 hex (Engaged), its goal is its
            # range 3: no move; Machine Gun (2 TL, token on 3): 5 dice, hit on 6+ (-2)
            *d10(6, 5, 1, 9, 3),  # 2 hits, a crit: Slow on the grunt; 2 damage (HP 4 -> 2)
            # t3 both sides there, B acted last: A. The grunt's Advance is 0 (Slow, removed);
            # Rifle (3 TL, token on 6: done) over Vulcan: 4 dice, hit on 4+
            *d10(4, 10, 2, 7),    # 3 hits, a crit: Damage+1: 4 damage, the drone (HP 3) is
                                  # defeated: token 3 -> 5 (done); A scores its 1 VP
        ],
        dict(winner=0, vp_a=1, vp_b=0, defeats_a=0, defeats_b=1, damage_a=4, damage_b=2,
             attacks_a=1, attacks_b=1, hits_a=3, hits_b=2, crits_a=1, crits_b=1,
             tl_attack_a=3, tl_attack_b=2, activations_a=2, activations_b=1,
             first_defeat_a=3, first_defeat_b=0, damage_w0_a=4, damage_w1_a=0,
             damage_w0_b=2, tl_w0_a=3, tl_w1_a=0, tl_w0_b=2),
    ),
    (
        "the shuffle and the first card; Energy for Barrier, none left for Overdrive",
        lambda: short("ace", "grunt", 4, tactics_draw=1),
        # A's d9 shows 1: cards 8 and 0 swap, Overcharge (+1 die) leads A's deck; B keeps
        # squad order: Steady Aim (+1 Accuracy) first. Each side draws 1 card.
        [(9, 1)] + KEEP[1:] + KEEP + [
            # t1 A ace deploys, no enemy: Advance to hex 3, Energize (Energy 1, token on 3)
            # t1 B grunt deploys on hex 4, 1 hex from the ace: Rifle (token on 4) with
            # Steady Aim: 4 dice hit on 3+
            *d10(3, 2, 1, 8),     # 2 hits, no crit: the ace's 2 Shields block both
            # t3 A ace: Shields 2; Barrier (an enemy on the board): 3 Shields, Energy 0.
            # Rifle (3.39 expected) over Beam Saber (3.2) against 0 Shields, token on 6;
            # Overcharge: 5 dice; Overdrive has no Energy left
            *d10(9, 4, 4, 1, 2),  # 3 hits, a crit: Damage+1: 4 damage, the grunt (HP 4) is
                                  # defeated: token 4 -> 6; A scores 2 VP
        ],
        dict(winner=0, vp_a=2, vp_b=0, defeats_b=1, damage_a=4, damage_b=0, attacks_a=1,
             attacks_b=1, hits_a=3, hits_b=2, crits_a=1, crits_b=0, tl_w1_a=3, tl_w0_b=3,
             first_defeat_a=3, activations_a=2, activations_b=1),
    ),
    (
        "a Fracture from the attack's own crit adds 3; the winner's Energize",
        lambda: short("ace", "brawler", 4),
        KEEP + KEEP + [
            # t1 A ace: to hex 3, Energize. t1 B brawler deploys on hex 4: Heat Axe (token
            # on 4), 5 dice; no Energy for Overdrive
            *d10(9, 4, 5, 6, 7),  # 5 hits, a crit: Fracture on the ace first; 5 - 2 Shields
                                  # = 3: Fracture adds 3: 6 damage, the ace (HP 6) defeated
            # t4 B brawler: no enemy on the board: Advance 3 + 1 toward hex 1 (to hex 1),
            # Energize. The ace's token is on 5: done.
        ],
        dict(winner=1, vp_a=0, vp_b=5, defeats_a=1, damage_b=6, attacks_a=0, attacks_b=1,
             hits_b=5, crits_b=1, tl_attack_b=3, damage_w0_b=6, first_defeat_b=1,
             activations_a=1, activations_b=2),
    ),
    (
        "a Disarm re-rolls every hit; equal VP go to the side that acted last",
        lambda: short("brawler", "ace", 4, **{"weapon.beam_saber.strength": 6}),
        KEEP + KEEP + [
            # t1 A brawler: to hex 3, Energize (Energy 1, token on 3)
            # t1 B ace deploys on hex 4: no Energy for Barrier; Beam Saber (6 dice here:
            # the strongest; token on 3): hits on 3+, crits 7-10
            *d10(7, 3, 2, 1, 1, 1),  # 2 hits, a crit: Disarm on the brawler; 2 - 1 Shield
                                     # = 1 damage (HP 6 -> 5)
            # t3 both there, B acted last: A. Brawler: Heat Axe (token on 6) against the
            # ace's 2 Shields; Overdrive (Energy 1): 7 dice
            *d10(10, 8, 6, 5, 4, 1, 2),  # 5 hits, a crit: Disarmed, the 5 hits re-rolled:
            *d10(1, 4, 9, 2, 7),         # 3 hits (the 9 counts as a crit, without effect):
                                         # 3 - 2 Shields = 1 damage (HP 6 -> 5)
            # t3 B ace: Beam Saber again (token on 5)
            *d10(1, 2, 1, 2, 1, 2),  # no hit. 0 VP each: B acted last and wins
        ],
        dict(winner=1, vp_a=0, vp_b=0, damage_a=1, damage_b=1, attacks_a=1, attacks_b=2,
             hits_a=3, hits_b=2, crits_a=1, crits_b=1, tl_attack_a=3, tl_attack_b=4,
             tl_w0_b=4, activations_a=2, activations_b=2, first_defeat_a=0, first_defeat_b=0),
    ),
    (
        "a Push into the track's end: the collision meets the Shields first",
        lambda: short("sniper", "bulwark", 6, **{"unit.bulwark.policy": "assault",
                                                 "weapon.cannon.crit_value": 5}),
        KEEP + KEEP + [
            # t1 A sniper deploys: to hex 3 (Speed 0), Energize (token on 3)
            # t1 B bulwark deploys on hex 6: 3 hexes from the sniper, its goal 2: Advance
            # 1 to hex 5; Shoulder Cannon (2.01 expected against 1 Shield, the Vulcan
            # 0.49; token on 5): 5 dice hit on 5+
            *d10(9, 5, 6, 2, 1),  # 3 hits, a crit: Push 5: the sniper has 3 hexes to its
                                  # Base: collision, 2 - 1 Shield = 1 damage, the Shield
                                  # flips; then 3 hits on 0 Shields: 3 (HP 4 -> 0) defeated
        ],
        dict(winner=1, vp_b=3, defeats_a=1, damage_b=4, damage_w0_b=4, hits_b=3, crits_b=1,
             tl_attack_b=4, first_defeat_b=1, attacks_a=0, activations_a=1, activations_b=1),
    ),
    (
        "a Pull stops at 1 hex; keep_range backs off; Targeting; the Long Rifle's Damage+2",
        lambda: short("sniper", "raider", 8, **{"weapon.harpoon.strength": 5}),
        KEEP + KEEP + [
            # t1 A sniper: to hex 3, Energize (Energy 1, token on 3)
            # t1 B raider deploys on hex 8: 5 hexes off, goal 3: Advance 2 to hex 6;
            # Harpoon (5 dice here, 2.50 expected against 1 Shield, the Machine Gun 1.53;
            # token on 3)
            *d10(9, 1, 1, 1, 1),  # 1 hit, a crit: Pull 2: the sniper moves to hex 5 (1 hex
                                  # from the raider); 1 - 1 Shield = 0 damage
            # t3 A sniper: Engaged; keep_range (goal 8): back 3 - 1 = 2 hexes to hex 3;
            # Long Rifle (token on 7); Targeting (Energy 1): Accuracy +2, hits on 2+
            *d10(2, 10, 1),       # 2 hits, a crit: Damage+2: 2 - 1 Shield + 2 = 3 (HP 4->1)
            # t3 B raider: 3 hexes, in range: Harpoon (token on 5)
            *d10(1, 1, 1, 1, 1),  # no hit. 0 VP each: B acted last and wins
        ],
        dict(winner=1, vp_a=0, vp_b=0, damage_a=3, damage_b=0, hits_a=2, crits_a=1,
             hits_b=1, crits_b=1, attacks_a=1, attacks_b=2, tl_w0_a=4, tl_w1_b=4,
             damage_w0_a=3, activations_a=2, activations_b=2),
    ),
    (
        "an area weapon hits both units on a hex; Slowed units Dash",
        lambda: compile_battle(catalog(**SHORT, board_length=6), ["artillery"],
                               ["drone", "drone"]),
        KEEP + KEEP + [
            # t1 A artillery: to hex 3, Energize (token on 3)
            # t1 B drone (B0) deploys on hex 6: 3 hexes off, its goal: no Advance, so 1 hex
            # off its Base to hex 5; Machine Gun (token on 3)
            *d10(1, 1, 1, 1, 1),  # no hit
            # t1 B drone (B1): the same, to hex 5
            *d10(1, 1, 1, 1, 1),  # no hit
            # t3 A artillery: target B0 (2 hexes, the lower slot); keep_range (goal 7):
            # back 3 to hex 0; Mortar (token on 7): 4 dice hit on 5+, area 1
            *d10(9, 5, 1, 1),     # 2 hits, a crit: Slow on B0 and B1; 2 damage each
            # t3 B0: Slowed: no Advance; out of range (5 > 3): Dash 2 to hex 3 (token on 5)
            # t3 B1: the same
        ],
        dict(winner=1, vp_a=0, vp_b=0, damage_a=4, hits_a=2, crits_a=1, attacks_a=1,
             attacks_b=2, hits_b=0, tl_attack_a=4, activations_a=2, activations_b=4),
    ),
]
# fmt: on


@pytest.mark.parametrize("name,make,script,want", HAND, ids=[h[0] for h in HAND])
def test_hand_traced(name, make, script, want):
    out = scripted(make(), script)
    assert {k: out[k] for k in want} == want


def random_battles(c, n: int, seed: int):
    """Games of every shape: 1 to 5 units a side drawn from every unit (copies allowed)."""
    rng = np.random.default_rng(seed)
    ids = list(c.units)
    sides = [[list(rng.choice(ids, rng.integers(1, 6))) for _ in "ab"] for _ in range(n)]
    return [compile_battle(c, a, b) for a, b in sides]


# A crowded short track (shared hexes, Push collisions, Pulls), area Machine Guns, crits
# from 5 (every effect often), the Beam Saber and the Harpoon strong enough to be chosen
# (Disarms, Pulls), Energy for every ability, no defeat delay, three Phases.
STRESS = {
    "board_length": 4,
    "defeat_delay": 0,
    "phases": 3,
    "tactics_deck": 6,
    "tactics_draw": 4,
    "energize_gain": 2,
    "weapon.machine_gun.area": 2,
    "weapon.beam_saber.strength": 6,
    "weapon.harpoon.strength": 6,
    "weapon.harpoon.crit_from": 5,
    "weapon.cannon.crit_from": 5,
    "weapon.heat_axe.crit_from": 5,
    "weapon.mortar.crit_from": 5,
    "weapon.cannon.crit_value": 4,
    "ability.field_repair.energy": 0,
}


@pytest.mark.parametrize("overrides", [{}, STRESS], ids=["rules.toml", "stress"])
def test_reference_dice_replayed(overrides):
    """The reference engine's dice on every sample battle and on random ones, replayed as
    a script: the vector engine reads every face in the same order and reports the same
    numbers (``tests/conformance.py``'s :func:`replay`, which plays the sample battles
    under rules.toml for every game)."""
    c = catalog(**overrides)
    battles = [b for _, b in sample_scenarios(c)] + random_battles(c, 8, 11)
    for i, b in enumerate(battles):
        for seed in range(3):
            replay(ENGINES.play_dice, b, np.random.default_rng(100 * i + seed))


# ---- the contract -------------------------------------------------------------------------
# (the same results for the same seed, keys, dtypes and shapes, the refusal of mixed batch
# keys and of ids outside the call, a mixed call against separate calls: tests/conformance.py)


def test_working_sets_read_one_stream(cat, monkeypatch):
    """A call in working sets of CHUNK games plays them as consecutive calls on the same
    dice would (compaction and chunking keep every game's place)."""
    battles = [b for _, b in sample_scenarios(cat)]
    ids = np.random.default_rng(4).integers(0, len(battles), 50)
    monkeypatch.setattr(vector, "CHUNK", 16)
    whole = vector.play_dice(battles, ids, Dice(np.random.default_rng(5)))
    dice = Dice(np.random.default_rng(5))
    parts = [vector.play_dice(battles, ids[i : i + 16], dice) for i in range(0, 50, 16)]
    for k, v in whole.items():
        assert np.array_equal(v, np.concatenate([x[k] for x in parts])), k


# The agreement with the reference on every sample battle (alone and mixed in one call)
# is tests/conformance.py's, run over every registered game.


def test_first_attack_against_exact_odds():
    """Grunt v grunt on a 4-hex track, one Phase of 4 spaces, no cards, a 4-TL Rifle: B's
    grunt deploys 1 hex from A's (which advanced and Energized) and makes the game's only
    B attack, the Rifle's 4 dice at 0 Shields. Its hits are Binomial(4, 7/10)
    (``rules.hits_dist``) and it defeats A's grunt (HP 4) when hits + the crit's Damage+1
    reach 4 (``rules.hits_and_crits``, ``rules.combat_damage``)."""
    c = catalog(**SHORT, board_length=4, **{"weapon.rifle.tl": 4})
    p = c.params
    n = 20000
    res = vector.play([duel(c, "grunt", "grunt")], np.zeros(n, np.int64), np.random.default_rng(7))
    assert (res["attacks_b"] == 1).all()
    hits = rules.hits_dist(4, 0, 9, p)
    mean, var = float(hits.mean()), float(hits.variance())
    assert abs(res["hits_b"].mean() - mean) <= 4 * np.sqrt(var / n)
    p_hit, p_crit = rules.die_chances(0, 9, p)
    hp = c.units["grunt"].hp
    kill = float(
        sum(
            q
            for h, k, q in rules.hits_and_crits(4, p_hit, p_crit)
            if rules.defeated(hp - rules.combat_damage(h, 0, 1 if k else 0))
        )
    )
    got = res["defeats_a"].mean()
    assert abs(got - kill) <= 4 * np.sqrt(kill * (1 - kill) / n)
