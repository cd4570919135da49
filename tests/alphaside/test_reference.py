"""The ALPHASIDE reference engine on hand-traced games: every die scripted, every number
derived by hand in the comments from catalogs/alphaside/*.toml and the game procedure
(sims/alphaside/battle.py's docstring; the readings R1.. are reference.py's).

Most games are shrunk with overrides (``SMALL``): one Phase of 4 spaces (last time 4),
Bases 4 hexes apart, no Tactics cards drawn (each 9-card deck is still shuffled: 16 dice,
``SHUF``, an identity shuffle: for i = 8..1 a d(i+1) showing i+1 swaps card i with
itself), so a script is the shuffle and the attacks.

Numbers used throughout (rules.toml): d10, a die hits on face + Accuracy >= 4, a 1
always misses, crits from the weapon's crit_from (9: 9-10) always hit; Advance 3 +
Speed (-1 when Engaged, distance <= 1), Dash 3 hexes for 2 TL, Energize 2 TL for 1
Energy; a defeated unit's token +2; collision 2 damage.
Units: grunt hp 4, no Shields, Speed 1, VP 2, rifle (TL 3, range 4, 4 dice, Accuracy 0,
crit Damage+1) and vulcan (TL 1, range 2, 2 dice, no crit effect), assault (close to its
shortest range 2, strongest weapon). Side A's first unit always deploys with no enemy on
the board: it Advances toward the enemy Base, stopping 1 hex short, and Energizes.
"""

import numpy as np
import pytest

from sims.alphaside import reference as ref
from sims.alphaside import rules
from sims.alphaside.battle import FIELDS, compile_battle, duel, metrics, sample_scenarios
from sims.alphaside.catalog import load_catalog
from sims.core.batch import ScriptedDice
from tests.conftest import CATALOGS

SMALL = {"phases": 1, "tactics_per_phase": 0, "spaces": 4, "board_length": 4, "tactics_draw": 0}
SHUF = [(k, k) for k in range(9, 1, -1)] * 2  # both decks left in squad order
MISS4 = [(10, 1)] * 4  # four dice, all misses


def catalog(fields: dict | None = None, **params):
    """The catalog shrunk by SMALL, then ``params`` and ``fields`` (KIND.ID.FIELD)."""
    return load_catalog(CATALOGS, overrides={**SMALL, **params, **(fields or {})})


def run(battle, script):
    """Play one scripted game; every die must be read. The results and the end state."""
    dice = ScriptedDice(script)
    s = ref.setup(battle, dice)
    ref.walk(battle, s, dice)
    assert dice.used == len(script), "every scripted die is read"
    return ref.results(s), s


def check(out: dict, **want) -> None:
    assert {k: out[k] for k in want} == want


@pytest.fixture
def order(monkeypatch):
    """Records (time, slot) of every activation."""
    seen = []
    activate = ref.activate

    def spy(battle, st, s, dice, m, t):
        seen.append((t, m.slot))
        return activate(battle, st, s, dice, m, t)

    monkeypatch.setattr(ref, "activate", spy)
    return seen


# ---- the Timeline ------------------------------------------------------------------------


def test_timeline_alternates_last_actor_goes_last_and_wraps_into_phase_two(order):
    # A = [grunt, grunt] (slots 0, 1) v B = [grunt] (slot 5). Two Phases of 4 spaces (last
    # time 8), Bases 40 hexes apart; Advance 1 + Speed 0 = 1 hex, Dash 1 hex: nobody ever
    # comes in range, so the only dice are the shuffles. One card drawn at the start and
    # one at the start of Phase 2.
    c = catalog(
        {"unit.grunt.speed": 0},
        phases=2,
        tactics_per_phase=3,
        board_length=40,
        advance_base=1,
        dash_hexes=1,
        tactics_draw=1,
    )
    b = compile_battle(c, ["grunt", "grunt"], ["grunt"])
    out, s = run(b, SHUF)
    # t=1: A0, A1, B0 on time 1; nobody has acted: A0 (top of A's stack). No enemy on the
    #   board: Advance 0 -> 1, Energize (2 TL) -> time 3.
    #   Both sides still have a token on 1 and A acted last: B0. Deploys at 40, target A0
    #   at 1 (d 39): Advance -> 39, nothing in range: Dash -> 38, 2 TL -> time 3.
    #   A1 (only A left): 0 -> 1 -> Dash 2, time 3.
    # t=3: A0 (arrived first), B0, A1; A acted last: B0 first (its nearest: A1 at 2):
    #   38 -> 37 -> 36, time 5 (space 1 of Phase 2). Then A0 (arrived before A1): 1 -> 3;
    #   A1: 2 -> 4.
    # t=5: Phase 2: each side draws 1. B0 (A acted last), A0, A1: B0 36 -> 34; A0 3 -> 5;
    #   A1 4 -> 6; all to time 7.
    # t=7: B0 34 -> 32, A0 5 -> 7, A1 6 -> 8; all to time 9, past the last time (8).
    assert order == [
        (1, 0),
        (1, 5),
        (1, 1),
        (3, 5),
        (3, 0),
        (3, 1),
        (5, 5),
        (5, 0),
        (5, 1),
        (7, 5),
        (7, 0),
        (7, 1),
    ]
    assert [m.pos for m in s.mechs if m.present] == [7, 8, 32]
    assert [m.time for m in s.mechs if m.present] == [9, 9, 9]
    assert s.mechs[0].energy == 1  # one Energize
    assert s.hand == [[0, 1], [0, 1]] and [len(d) for d in s.deck] == [7, 7]
    # no VP: the side that acted last (A1 at time 7) wins
    check(
        out,
        winner=0,
        vp_a=0,
        vp_b=0,
        activations_a=8,
        activations_b=4,
        attacks_a=0,
        attacks_b=0,
        tl_attack_a=0,
    )


# ---- attacks -----------------------------------------------------------------------------


def test_accuracy_a_one_misses_damage_plus_from_a_crit_tl_costs_and_defeat():
    # grunt v grunt, the rifle at Accuracy +3: faces 2..10 hit, the 1 still misses.
    b = duel(catalog({"weapon.rifle.accuracy": 3}), "grunt", "grunt")
    script = SHUF + [
        # t=1 A0: deploys at 0, no enemy: Advance min(4, 4 - 1) -> 3, Energize -> time 3.
        # t=1 B0: deploys at 4; target A0 at d 1 (Engaged); its goal (vulcan range 2) is
        # met, but deploying it must leave its Base: 1 hex -> 3 (d 0). Rifle (strongest)
        # -> time 4.
        (10, 1),
        (10, 1),
        (10, 2),
        (10, 9),  # 1, 1 miss; 2 + 3 hits; 9 crit: 2 hits, +1
        # A0 hp 4 - 3 = 1.
        # t=3 A0: rifle (TL 3) -> time 6, done.
        (10, 1),
        (10, 1),
        (10, 1),
        (10, 10),  # one hit, a crit: 1 + 1 = 2: B0 hp 2
        # t=4 B0: rifle -> time 7.
        (10, 4),
        (10, 3),
        (10, 1),
        (10, 1),  # 4 + 3, 3 + 3 hit: 2 damage, A0 hp -1:
        # defeated: B scores 2 VP at time 4; A0's token 6 -> 8.
    ]
    out, s = run(b, script)
    check(
        out,
        winner=1,
        vp_a=0,
        vp_b=2,
        defeats_a=1,
        defeats_b=0,
        damage_a=2,
        damage_b=5,
        attacks_a=1,
        attacks_b=2,
        hits_a=1,
        hits_b=4,
        crits_a=1,
        crits_b=1,
        tl_attack_a=3,
        tl_attack_b=6,
        activations_a=2,
        activations_b=2,
        first_defeat_a=0,
        first_defeat_b=4,
        damage_w0_a=2,
        damage_w1_a=0,
        damage_w0_b=5,
        damage_w1_b=0,
        tl_w0_a=3,
        tl_w1_a=0,
        tl_w0_b=6,
        tl_w1_b=0,
    )
    assert (s.mechs[0].pos, s.mechs[0].hp, s.mechs[0].time) == (None, 4, 8)


def test_shields_block_flip_off_and_return_with_barrier_and_overdrive():
    # ace (A, Shields 2, Speed 2; beam saber TL 2 range 1, rifle; Overdrive +2 dice and
    # Barrier +1 Shield, 1 Energy each) v grunt. Energize gives 2 Energy here.
    b = duel(catalog(energize_gain=2), "ace", "grunt")
    script = SHUF + [
        # t=1 A0 ace: Shields 2; no enemy on the board, so no Barrier; -> 3, Energize:
        # 2 Energy, time 3.
        # t=1 B0: -> 3 (d 0), rifle against 2 Shields -> time 4.
        (10, 4),
        (10, 5),
        (10, 2),
        (10, 1),  # 2 hits, both blocked: 0 damage, Shields off
        # t=3 A0: Shields back (2); Barrier (an enemy is on the board): 3, Energy 1.
        # Weapons against B0's 0 Shields: rifle 2.8 + P(a crit) 0.5904 = 3.39 beats the
        # saber's 4 x 0.8 = 3.2: rifle -> time 6. Overdrive: +2 dice (Energy 0).
        (10, 9),
        (10, 4),
        (10, 3),
        (10, 1),
        (10, 1),
        (10, 1),  # 9 crit, 4: 2 hits + 1
        # B0 hp 4 - 3 = 1.
        # t=4 B0: rifle against 3 active Shields -> time 7.
        (10, 10),
        (10, 10),
        (10, 10),
        (10, 4),  # 4 hits, 3 crits: 4 - 3 + 1 = 2: A0 hp 4
    ]
    out, s = run(b, script)
    # 0 VP each: B0 acted last and wins the tie
    check(
        out,
        winner=1,
        vp_a=0,
        vp_b=0,
        damage_a=3,
        damage_b=2,
        hits_a=2,
        hits_b=6,
        crits_a=1,
        crits_b=3,
        damage_w0_a=0,
        damage_w1_a=3,
        tl_w1_a=3,
        tl_w0_b=6,
        damage_w0_b=2,
    )
    ace, grunt = s.mechs[0], s.mechs[5]
    assert (ace.hp, ace.active, ace.energy, grunt.hp) == (4, 0, 0, 1)


def test_fracture_adds_three_to_three_combat_damage():
    # grunt (A) v brawler (Shields 1; heat axe TL 3 range 1, 5 dice, crit: Fracture).
    b = duel(catalog(), "grunt", "brawler")
    script = SHUF + [
        # t=1 A0 -> 3, Energize -> 3. t=1 B0 brawler: deploys, -> 3 (d 0). The axe
        # (5 x 0.7 = 3.5) beats the machine gun (5 x 0.5 = 2.5) -> time 4.
        (10, 9),
        (10, 1),
        (10, 1),
        (10, 1),
        (10, 1),  # one hit, a crit: Fracture; 1 < 3
        # damage: A0 hp 3, still Fractured.
        # t=3 A0: rifle against the brawler's 1 Shield -> time 6.
        *MISS4,  # no hit: the Shield stays up
        # t=4 B0: axe -> time 7.
        (10, 4),
        (10, 5),
        (10, 6),
        (10, 1),
        (10, 1),  # 3 hits: 3 + Fracture 3 = 6
        # A0 hp -3: defeated at time 4.
    ]
    out, s = run(b, script)
    check(
        out,
        winner=1,
        vp_b=2,
        damage_b=7,
        hits_b=4,
        crits_b=1,
        first_defeat_b=4,
        defeats_a=1,
        damage_a=0,
    )
    assert not s.mechs[0].fracture and s.mechs[5].active == 1


def test_disarm_rerolls_every_hit_and_triggers_no_crit_effect():
    # ace (beam saber at 5 dice: 5 x 0.8 = 4.0 beats the rifle's 3.39) v grunt.
    b = duel(catalog({"weapon.beam_saber.strength": 5}), "ace", "grunt")
    script = SHUF + [
        # t=1 A0 -> 3, Energize (1 Energy) -> 3. t=1 B0 -> 3, rifle -> time 4.
        *MISS4,
        # t=3 A0: Barrier (Shields 3, Energy 0); saber (Accuracy +1, crits from 7),
        # TL 2 -> time 5, done.
        (10, 7),
        (10, 2),
        (10, 1),
        (10, 1),
        (10, 1),  # 7 a crit; 2 + 1 misses: Disarm
        # B0 hp 3.
        # t=4 B0 (Disarmed): rifle -> time 7.
        (10, 9),
        (10, 5),
        (10, 2),
        (10, 1),  # 9 and 5 hit: both re-rolled
        (10, 10),
        (10, 3),  # re-rolls: 10 hits (no Damage+1), 3 misses
        # 1 hit against 3 Shields: 0 damage.
    ]
    out, s = run(b, script)
    check(
        out,
        winner=1,
        vp_a=0,
        vp_b=0,
        hits_a=1,
        crits_a=1,
        damage_a=1,
        tl_w0_a=2,
        damage_w0_a=1,
        hits_b=1,
        crits_b=1,
        damage_b=0,
        attacks_b=2,
    )
    assert not s.mechs[5].disarm and s.mechs[0].active == 2


def test_push_into_the_track_end_collision_through_shields_and_repair():
    # bulwark (A, hp 8, Shields 2, Speed 0; cannon TL 4 range 5, 5 dice, Accuracy -1,
    # crit Push 2; Field Repair heals 2, here for 1 Energy) played assault (strongest),
    # v grunt with 1 Shield.
    c = catalog(
        {
            "unit.bulwark.policy": "assault",
            "ability.field_repair.energy": 1,
            "unit.grunt.shields": 1,
        }
    )
    b = duel(c, "bulwark", "grunt")
    script = SHUF + [
        # t=1 A0: Advance 3 -> 3, Energize (1 Energy) -> 3. t=1 B0 -> 3, rifle -> 4.
        (10, 9),
        (10, 9),
        (10, 5),
        (10, 1),  # 3 hits: 3 - 2 Shields + 1 = 2, A0 hp 6
        # t=3 A0: Shields 2; repair (damaged, 1 Energy): hp 8. Cannon (about 2.01 against
        # 1 Shield; the vulcan 0.49) -> time 7.
        (10, 10),
        (10, 6),
        (10, 1),
        (10, 1),
        (10, 1),  # 10 crit, 6 - 1 hits: 2 hits
        # Push 2 away from A0: B0 at 3 has 1 hex to its Base: it stops at 4 and collides:
        # 2 - its 1 Shield = 1 damage (hp 3); then 2 hits - 0 Shields = 2 (hp 1).
        # t=4 B0: rifle (A0's 2 Shields are back and unused) -> time 7.
        *MISS4,
    ]
    out, s = run(b, script)
    check(
        out,
        winner=1,
        vp_a=0,
        vp_b=0,
        damage_a=3,
        damage_w0_a=3,
        hits_a=2,
        crits_a=1,
        tl_attack_a=4,
        tl_w0_a=4,
        damage_b=2,
        hits_b=3,
        crits_b=2,
    )
    bulwark, grunt = s.mechs[0], s.mechs[5]
    # the grunt's Shield, spent on the collision, came back at its activation at time 4
    assert (bulwark.hp, bulwark.energy, grunt.pos, grunt.hp, grunt.active) == (8, 0, 4, 1, 1)


def test_pull_toward_the_attacker_stops_adjacent_and_not_when_adjacent():
    # grunt (A) v raider (B, Shields 1, Speed 3; machine gun and harpoon, both range 3;
    # the harpoon at 4 dice, 2.8, beats the machine gun's 2.5). Bases 8 apart.
    b = duel(catalog({"weapon.harpoon.strength": 4}, board_length=8), "grunt", "raider")
    script = SHUF + [
        # t=1 A0: -> 4, Energize -> 3. t=1 B0: from 8, Advance 6 to its goal 3: 7 (d 3).
        # Harpoon, TL 2 -> time 3.
        (10, 10),
        (10, 1),
        (10, 1),
        (10, 1),  # 1 hit, a crit: Pull 2: A0 4 -> 6 (d 1)
        # A0 hp 3.
        # t=3 A0 (B acted last): Engaged, at its goal: rifle -> 6.
        *MISS4,
        # t=3 B0: harpoon -> 5, done.
        (10, 9),
        (10, 1),
        (10, 1),
        (10, 1),  # a crit, but A0 is adjacent: no Pull; hp 2
    ]
    out, s = run(b, script)
    check(out, winner=1, damage_b=2, hits_b=2, crits_b=2, damage_w1_b=2, tl_w1_b=4, tl_w0_b=0)
    assert (s.mechs[0].pos, s.mechs[0].hp, s.mechs[5].pos) == (6, 2, 7)


def test_pull_stops_on_an_ally_of_the_attacker_in_between():
    # Reading R2/R12 on a set-up board: A0 at 1, A1 at 3, B0 at 6; A0's Pull 4 on B0
    # would take it to 2 (adjacent to A0) but it cannot pass A1: it stops on A1's hex.
    b = compile_battle(catalog({}, board_length=8), ["grunt", "grunt"], ["raider"])
    s = ref.setup(b, ScriptedDice(SHUF))
    a0, a1, b0 = s.mechs[0], s.mechs[1], s.mechs[5]
    a0.pos, a1.pos, b0.pos = 1, 3, 6
    ref.crit_effect(b, s, a0, b0, rules.PULL, 4, 1)
    assert b0.pos == 3
    # sharing A1's hex, B0 cannot be pulled past it at all
    ref.crit_effect(b, s, a0, b0, rules.PULL, 4, 1)
    assert b0.pos == 3
    # A Push of 1 toward B's Base from 7 exactly reaches it: no collision
    b0.pos, b0.hp = 7, 4
    ref.crit_effect(b, s, a0, b0, rules.PUSH, 1, 1)
    assert (b0.pos, b0.hp) == (8, 4)


def test_area_attack_hits_two_targets_with_one_roll_slow_and_keep_range():
    # artillery (A: hp 5, Speed 0, keep_range to 7, per TL; mortar TL 4 range 7, 4 dice,
    # Accuracy -1, area 1, crit Slow; vulcan range 2) v two grunts. Bases 8 apart.
    b = compile_battle(catalog({}, board_length=8), ["artillery"], ["grunt", "grunt"])
    script = SHUF + [
        # t=1 A0: Advance 3 -> 3, Energize -> 3.
        # B0: from 8, Advance 4 to its goal 2 from A0: 5. Rifle -> 4.
        *MISS4,
        # B1 (B again: A has no token left on 1): -> 5, rifle -> 4.
        (10, 4),
        (10, 1),
        (10, 1),
        (10, 1),  # 1 hit: A0 hp 4
        # t=3 A0: target B0 (d 2; B1 ties at 5, the lower slot). keep_range: Advance 3
        # away from it, to its Base: 0 (d 5). Only the mortar reaches -> time 7.
        (10, 9),
        (10, 6),
        (10, 4),
        (10, 1),  # 9 crit, 6 - 1 hits, 4 - 1 misses: 2 hits
        # B0 and B1 (within 1 hex of B0) both Slowed, both take 2: hp 2 each.
        # t=4 B0: Slowed: its Advance is 0 hexes (Slow removed); d 5, nothing in range:
        # Dash 3 (Slow does not stop it) -> 2, time 6. B1 likewise.
    ]
    out, s = run(b, script)
    check(
        out,
        winner=1,
        attacks_a=1,
        hits_a=2,
        crits_a=1,
        damage_a=4,
        damage_w0_a=4,
        tl_attack_a=4,
        attacks_b=2,
        hits_b=1,
        damage_b=1,
        activations_b=4,
    )
    assert [(m.pos, m.hp, m.slow) for m in s.mechs if m.present] == [
        (0, 4, False),
        (2, 2, False),
        (2, 2, False),
    ]


def test_defeat_token_plus_two_full_hp_statuses_lost_energy_kept(order):
    # A = [grunt, grunt] at hp 2 v B = [drone] (hp 3, VP 1, Speed 2; machine gun TL 2,
    # range 3, 5 dice, Accuracy -2, crit Slow). One Phase of 8 spaces.
    c = catalog({"unit.grunt.hp": 2}, spaces=8)
    b = compile_battle(c, ["grunt", "grunt"], ["drone"])
    script = SHUF + [
        # t=1 A0: -> 3, Energize (Energy 1) -> 3.
        # B0: from 4, at its goal (3): deploying, 1 hex -> 3 (d 0). MG -> 3.
        (10, 9),
        (10, 6),
        (10, 1),
        (10, 1),
        (10, 1),  # 9 crit, 6 - 2 hits: Slow, 2:
        # A0 defeated at time 1 (B 2 VP): Reserve, token 3 -> 5, hp 2, no Slow, Energy 1.
        # A1: from 0 toward B0 (d 3) to its goal 2: 1. Rifle -> 4.
        *MISS4,
        # t=3 B0: target A1 (d 2): MG -> 5.
        (10, 1),
        (10, 1),
        (10, 1),
        (10, 1),
        (10, 1),
        # t=4 A1: rifle -> 7.
        (10, 9),
        (10, 9),
        (10, 4),
        (10, 1),  # 3 hits, crits: 3 + 1 = 4: B0 defeated at
        # time 4 (A 1 VP): token 5 -> 7, arriving after A1's.
        # t=5 A0 redeploys at 0; no enemy on the board: Advance 4 -> 3 (not Slowed),
        # Energize: Energy 2 -> 7, arriving last.
        # t=7: A1, B0, A0 there; A acted last: B0 first: redeploys at 4, target A0 (d 1):
        # deploying, 1 hex -> 3. MG -> 9.
        (10, 1),
        (10, 1),
        (10, 1),
        (10, 1),
        (10, 1),
        # then A1 (arrived before A0, though A0 is the lower slot): rifle at d 2 -> 10
        *MISS4,
        # then A0: rifle at d 0 -> 10
        *MISS4,
    ]
    out, s = run(b, script)
    assert order == [(1, 0), (1, 5), (1, 1), (3, 5), (4, 1), (5, 0), (7, 5), (7, 1), (7, 0)]
    check(
        out,
        winner=1,
        vp_a=1,
        vp_b=2,
        defeats_a=1,
        defeats_b=1,
        first_defeat_a=4,
        first_defeat_b=1,
        damage_a=4,
        damage_b=2,
        attacks_a=4,
        attacks_b=3,
        activations_a=6,
        activations_b=3,
        tl_attack_a=12,
        tl_attack_b=6,
    )
    a0, b0 = s.mechs[0], s.mechs[5]
    assert (a0.pos, a0.hp, a0.energy, a0.slow) == (3, 2, 2, False)
    assert (b0.pos, b0.hp) == (3, 3)


def test_tactics_shuffle_hand_one_card_an_attack_and_the_phase_draw():
    # grunt v grunt over two Phases of 4 spaces, 2 cards drawn at the start and after
    # Phase 1. Deck (squads.toml order): 0 steady_aim (Accuracy +1), 1 lock_on (+2),
    # 2 full_salvo (+2 dice), 3 extra_mag (+1 die), 4 weak_point (crits from 7),
    # 5 hollow_point (Damage+1), 6 breach (Damage+2), 7 rally (+1), 8 overcharge (+1 die).
    c = catalog(phases=2, tactics_per_phase=3, tactics_draw=2)
    b = duel(c, "grunt", "grunt")
    shuffle_a = [
        (9, 1),  # i 8, j 0: [8 1 2 3 4 5 6 7 0]
        (8, 3),  # i 7, j 2: [8 1 7 3 4 5 6 2 0]
        (7, 7),
        (6, 6),
        (5, 5),
        (4, 4),
        (3, 3),
        (2, 2),  # j = i: no swap
    ]
    # A draws [8 overcharge, 1 lock_on]; deck 7 3 4 5 6 2 0
    shuffle_b = [(k, k) for k in range(9, 1, -1)]  # B draws [0 steady_aim, 1 lock_on]
    script = (
        shuffle_a
        + shuffle_b
        + [
            # t=1 A0: -> 3, Energize -> 3 (no card: no attack).
            # t=1 B0 -> 3, rifle -> 4, playing steady_aim: Accuracy +1.
            (10, 3),
            (10, 2),
            (10, 1),
            (10, 10),  # 3 + 1 hits, 2 + 1 misses, 10 crit: 2 + 1
            # A0 hp 1.
            # t=3 A0: rifle -> 6, playing overcharge: 5 dice.
            (10, 1),
            (10, 1),
            (10, 1),
            (10, 1),
            (10, 4),  # 1 hit: B0 hp 3
            # t=4 B0: rifle -> 7, playing lock_on: Accuracy +2.
            (10, 2),
            (10, 1),
            (10, 1),
            (10, 1),  # 2 + 2 hits: A0 hp 0, defeated at 4: B 2 VP;
            # its token 6 -> 8.
            # t=5: Phase 2: A draws 7 rally, 3 extra_mag; B draws 2 full_salvo, 3 extra_mag.
            # t=7 B0: no enemy on the board: Advance toward A's Base, 1 hex short: 3 -> 1;
            # Energize -> 9 (no card).
            # t=8 A0 redeploys at 0, target B0 (d 1): 1 hex -> 1. Rifle, lock_on (+2).
            (10, 2),
            (10, 2),
            (10, 1),
            (10, 9),  # 3 hits, a crit: 3 + 1 = 4: B0 defeated
        ]
    )
    out, s = run(b, script)
    # 2 VP each: A0 acted last and wins
    check(
        out,
        winner=0,
        vp_a=2,
        vp_b=2,
        first_defeat_a=8,
        first_defeat_b=4,
        hits_a=4,
        hits_b=3,
        damage_a=5,
        damage_b=4,
    )
    assert s.hand == [[7, 3], [2, 3]]
    assert s.deck == [[4, 5, 6, 2, 0], [4, 5, 6, 7, 8]]


# ---- weapon choice -----------------------------------------------------------------------


def test_weapon_choice_per_tl_and_strongest():
    c = catalog()
    b = compile_battle(c, ["bulwark"], ["grunt"])
    st = ref.static(b)
    s = ref.setup(b, ScriptedDice(SHUF))
    bulwark, grunt = s.mechs[0], s.mechs[5]
    # efficient (per TL): vulcan 1.4 / 1 beats the cannon's 3.0 / 4
    assert ref.choose_weapon(st, bulwark, grunt, [0, 1]) == 1
    assert ref.choose_weapon(st, bulwark, grunt, [0]) == 0
    b2 = compile_battle(catalog({"unit.bulwark.policy": "assault"}), ["bulwark"], ["grunt"])
    assert ref.choose_weapon(ref.static(b2), bulwark, grunt, [0, 1]) == 0  # strongest


# ---- the contract and statistics ---------------------------------------------------------


def test_mirror_duel_win_rate_is_what_the_timeline_and_tie_rule_imply():
    # grunt v grunt, hp 2, the rifle at 2 dice, no cards. B0 attacks at times 1 and 4, A0
    # at time 3 (the traces above). An attack defeats with q = P(2 hits) + P(1 hit, a
    # crit: 1 + Damage 1) = 0.7^2 + 2 x 0.2 x 0.3 = 0.61. A wins only if B0's first
    # attack fails and A0's succeeds (B0's token then leaves the Phase); every other
    # game B wins on VP or, 0-0, as the side that acted last: P(A) = (1 - q) q.
    c = catalog({"unit.grunt.hp": 2, "weapon.rifle.strength": 2})
    p_hit, p_crit = rules.die_chances(0, 9, c.params)
    q = sum(
        p for hits, crits, p in rules.hits_and_crits(2, p_hit, p_crit) if hits + (crits > 0) >= 2
    )
    assert q == pytest.approx(0.61)
    exact = float((1 - q) * q)
    n = 2000
    out = ref.play([duel(c, "grunt", "grunt")], np.zeros(n, np.int64), np.random.default_rng(17))
    win = metrics(out)["win_a"]
    se = np.sqrt(exact * (1 - exact) / n)
    assert abs(win.mean() - exact) <= 4 * se


# The engine contract (same seed, same results; keys, dtypes and shapes; refusals) is
# tests/conformance.py's, run over every registered game.


def test_results_add_up():
    """Results in FIELDS order and dtypes; the weapons' damage and TL add up to the
    totals; the winner is ``rules.winner``'s (more VP, else the side that acted last)."""
    cat = load_catalog(CATALOGS)
    battles = [b for _, b in sample_scenarios(cat)]
    ids = np.arange(len(battles)).repeat(3)
    one = ref.play(battles, ids, np.random.default_rng(7))
    assert list(one) == list(FIELDS)
    assert {k: v.dtype for k, v in one.items()} == {k: np.dtype(t) for k, t in FIELDS.items()}
    m = metrics(one)
    assert set(m) == {"win_a"} | set(FIELDS) - {"winner"}
    assert np.all(m["damage_w0_a"] + m["damage_w1_a"] == m["damage_a"])
    assert np.all(m["tl_w0_b"] + m["tl_w1_b"] == m["tl_attack_b"])
    # the winner: more VP, else the side that acted last
    more = one["vp_a"] != one["vp_b"]
    assert np.all((one["winner"] == 0)[more] == (one["vp_a"] > one["vp_b"])[more])
