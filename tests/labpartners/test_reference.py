"""The Lab Partners reference engine on hand-traced battles: every die scripted, every
number derived by hand in the comments from catalogs/labpartners/*.toml (rules.toml,
kaiju.toml, mechs.toml, policies.toml) and the round procedure (battle.py).

Numbers used throughout (rules.toml): part HP Legs 4, Torso 5, Head 3, Arm 3, +2 for a
Vehicle part, +1 on a lesson Torso; Armor 2 (doubled damage without a Torso); Mech
Speed 2, +1 Beast Legs, +1 lesson Legs; Accuracy 1, +1 Clockwork Head, +1 lesson Head;
crit on d20 <= Accuracy doubles an Arm; -1 damage per Arm without a Head; Form +1/-1,
Type x2/x0.5 (at least 1); combo +1 for equal Powers; punch 1, a d3 miss on 1 without a
Head; 8 rounds. Grades: win C 2.0; loss by HP left: < 25% D+ 1.3, <= 50% D 1.0,
<= 75% D- 0.7, else F 0.0.

mechsuit_lesson (lesson mechsuit; Legs, Torso and arm_1 are Mechsuit: 3 matches, the
lesson takes): Legs mechsuit-energy (HP 4, Speed 2+1 = 3), Torso mechsuit-melee (HP
5+1 = 6), Head clockwork-energy (HP 3, Accuracy 1+1 = 2), arm_1 mechsuit-energy-2
(Power 2, +1 lesson), arm_2 beast-projectile-2 (Power 2), both HP 3. Same Power: combo.
"""

from dataclasses import replace

import numpy as np
import pytest

from sims.core.batch import ScriptedDice
from sims.labpartners import reference as ref
from sims.labpartners import rules
from sims.labpartners.battle import FIELDS, card_battle, catalog_battle, metrics, with_params
from sims.labpartners.catalog import SLOTS, load_catalog
from tests.conftest import CATALOGS

NO_CRIT = (20, 20)  # a d20 face above every Accuracy


@pytest.fixture(scope="module")
def cat():
    return load_catalog(CATALOGS)


def custom(cat, slots: dict, lesson: str, kaiju: str, policy: str = "steady", spares=()):
    """A mech of the named cards (missing slots are gaps) against a catalog kaiju."""
    return card_battle(cat, [slots.get(s) for s in SLOTS], lesson, kaiju, (), policy, spares)


def play(battle, script) -> dict:
    dice = ScriptedDice(script)
    out = ref.play_dice([battle], np.zeros(1, np.int64), dice)
    assert dice.used == len(script), "every scripted die is read"
    return {k: v[0].item() for k, v in out.items()}


def check(out: dict, **want) -> None:
    assert {k: out[k] for k in want} == want


# ---- mechsuit_lesson v gorgadon ------------------------------------------------------
# Gorgadon: HP 20, Speed 2, 1 attack of 5, priority torso, legs, head, arms; weak to
# Mechsuit, resists Vehicle and Projectile. Its debuff (the lesson took) -1 damage: 4.
# Mech Speed 3 >= 2: the mech acts first. Incoming on the Torso: 4 - 2 = 2.
# arm_1: 2 + 1 lesson = 3, Mechsuit weak +1 = 4 (no Head: 3). arm_2: 2, Projectile
# resisted 2 // 2 = 1 (no Head: 1 // 2 -> at least 1). Volley 4 + 1 + 1 combo = 6.


def test_mechsuit_v_gorgadon_no_crit(cat):
    # R1 20-6 = 14, Torso 6-2 = 4; R2 8, Torso 2; R3 2, Torso 0 (destroyed);
    # R4 the mech fires first: 2-6 -> win in round 4. Two d20s a round, none crits.
    b = catalog_battle(cat, "mechsuit_lesson", "gorgadon")
    out = play(b, [NO_CRIT] * 8)
    check(
        out,
        result=0,
        kaiju_hp_left=0,
        rounds=4,
        grade=0,
        gpa=2.0,
        parts_lost=1,
        rebuilds=0,
        crits=0,
        punches=0,
        intervened=0,
    )


def test_crits_double_one_arm(cat):
    # R1 arm_1 rolls 2 <= Accuracy 2: crit, 8 + 1 + 1 = 10 -> 10. R2 arm_2 rolls 1:
    # 4 + 2 + 1 = 7 -> 3. R3 no crit: 6 -> win before the kaiju's third attack (Torso
    # 6 -> 4 -> 2, never destroyed).
    b = catalog_battle(cat, "mechsuit_lesson", "gorgadon")
    out = play(b, [(20, 2), NO_CRIT, NO_CRIT, (20, 1), NO_CRIT, NO_CRIT])
    check(out, result=0, kaiju_hp_left=0, rounds=3, crits=2, parts_lost=0, gpa=2.0)


def test_city_loss_at_battle_rounds(cat):
    # battle_rounds 2: 20 -> 14 -> 8 and the kaiju reaches the city: a loss with
    # 8/20 = 40% left: D (1.0), grade index 2.
    b = with_params(catalog_battle(cat, "mechsuit_lesson", "gorgadon"), battle_rounds=2)
    out = play(b, [NO_CRIT] * 4)
    check(out, result=1, kaiju_hp_left=8, rounds=2, grade=2, gpa=1.0, parts_lost=0)


def test_torso_lost_doubles_damage_then_destroyed(cat):
    # Kaiju HP set to 40. R1-R3 as above: 40 -> 34 -> 28 -> 22, the Torso destroyed in
    # R3. R4: mech first, 22 -> 16; no Torso: 4 x 2 = 8 on the Legs (next in priority):
    # 4 - 8, destroyed. R5: no Legs, Speed 0 < 2: the kaiju first, 8 on the Head:
    # destroyed; the mech fires without a Head (no crit, no die): 3 + 1 + 1 = 5 -> 11.
    # R6: 8 on arm_1, destroyed; arm_2 alone 1 -> 10. R7: 8 on arm_2: no slot intact:
    # destroyed in round 7 with 10/40 = 25% left (not under 25%): D 1.0.
    b = replace(catalog_battle(cat, "mechsuit_lesson", "gorgadon"), kaiju_hp=40)
    out = play(b, [NO_CRIT] * 8)
    check(out, result=2, kaiju_hp_left=10, rounds=7, grade=2, gpa=1.0, parts_lost=5, crits=0)


# ---- two attacks, regen --------------------------------------------------------------


def test_two_attacks_hit_two_parts(cat):
    # Cinderwyrm: HP 16, Speed 4 (> 3: it acts first), 2 attacks of 3, priority head,
    # torso, legs, arms; resists Beast and Energy. Attack 1 on the Head: 3 - 2 = 1,
    # Head 3 -> 2; attack 2 on the next part not yet hit, the Torso: 6 -> 5.
    # The mech: arm_1 3, Energy resisted -> 1; arm_2 2, Beast resisted -> 1; combo: 3.
    b = with_params(catalog_battle(cat, "mechsuit_lesson", "cinderwyrm"), battle_rounds=1)
    s = ref.begin_round(b, ref.start(b))
    assert not s.mech_first
    assert s.hp == (4, 5, 2, 3, 3)
    out = play(b, [NO_CRIT] * 2)
    # city after round 1 with 13/16 = 81% left: F 0.0
    check(out, result=1, kaiju_hp_left=13, rounds=1, grade=4, gpa=0.0, parts_lost=0)


def test_regen(cat):
    # Lumenyx: HP 14, Speed 3 (a tie: the mech first), 1 attack of 4, regen 1,
    # crit-immune (Accuracy 0: no die), priority head, legs, torso; resists Energy,
    # weak to Projectile. arm_1 3, Energy resisted -> 1; arm_2 2 x 2 = 4; combo: 6.
    # Without a Head: arm_1 2 -> 1, arm_2 1 x 2 = 2, combo: 4.
    # R1: 14 -> 8, regen -> 9; Head 3 -> 1. R2: 9 -> 3, regen -> 4; Head destroyed.
    # R3: 4 - 4 = 0: a win in round 3.
    b = catalog_battle(cat, "mechsuit_lesson", "lumenyx")
    check(play(with_params(b, battle_rounds=1), []), result=1, kaiju_hp_left=9)
    check(play(b, []), result=0, kaiju_hp_left=0, rounds=3, parts_lost=1, crits=0)


# ---- rebuilds and the punch ----------------------------------------------------------


def test_rebuild_when_armless(cat):
    # Thornmaw (HP set to 30): Speed 2, 1 attack of 4, priority arms (arm_1 first),
    # torso, head, legs; weak to Beast and Melee, resists Mechsuit and Sonic. Mech
    # first. arm_1 3 - 1 Mechsuit = 2; arm_2 2 + 1 Beast = 3; combo: 6. Each attack on
    # an Arm: 4 - 2 = 2. Spare Arms: beast-melee-3 (3 + 1 = 4, x 2 = 8) then
    # beast-melee-1 (1 + 1 = 2, x 2 = 4), HP 3 each.
    # R1 30 -> 24, arm_1 3 -> 1. R2 -> 18, arm_1 destroyed. R3 arm_2 alone: 3 -> 15,
    # arm_2 -> 1. R4 -> 12, arm_2 destroyed. R5 armless (12 > punch_finish 2): rebuild
    # beast-melee-3 into arm_1, no fire; it takes 2 -> 1. R6 fire 8 -> 4; arm_1
    # destroyed. R7 rebuild beast-melee-1 (4 > 2); 3 -> 1. R8 fire 4 -> 0: a win.
    b = custom(
        cat,
        {
            "legs": "legs-mechsuit-energy",
            "torso": "torso-mechsuit-melee",
            "head": "head-clockwork-energy",
            "arm_1": "arms-mechsuit-energy-2",
            "arm_2": "arms-beast-projectile-2",
        },
        "mechsuit",
        "thornmaw",
        spares=((), (), (), ("arms-beast-melee-3", "arms-beast-melee-1")),
    )
    b = replace(b, kaiju_hp=30)
    script = [NO_CRIT] * 2 + [NO_CRIT] * 2 + [NO_CRIT] * 2 + [NO_CRIT] + [NO_CRIT]
    out = play(b, script)
    check(out, result=0, kaiju_hp_left=0, rounds=8, rebuilds=2, parts_lost=3, punches=0)


def test_punch_miss_without_head_then_destroyed(cat):
    # Only a Torso: vehicle-melee, HP 5 + 2 = 7 (lesson beast: no match). Gorgadon keeps
    # damage 5 (no lesson, no debuff), HP set to 2. No Legs: the kaiju first, 5 - 2 = 3
    # on the Torso. No spare: the mech punches, a d3 without a Head.
    # R1 Torso 7 -> 4; d3 = 1: a miss. R2 Torso 1; d3 = 2: 1 damage -> 1.
    # R3 Torso -2: no slot intact: destroyed, 1/2 = 50% left: D 1.0.
    b = custom(cat, {"torso": "torso-vehicle-melee"}, "beast", "gorgadon")
    out = play(replace(b, kaiju_hp=2), [(3, 1), (3, 2)])
    check(
        out,
        result=2,
        kaiju_hp_left=1,
        rounds=3,
        grade=2,
        gpa=1.0,
        parts_lost=1,
        punches=2,
        rebuilds=0,
    )


def test_win_by_punch_over_a_rebuild(cat):
    # Torso vehicle-melee (HP 7) and Head vehicle-melee; a spare Arm in hand but the
    # kaiju at 2 <= punch_finish 2: the group punches, no die with a Head: 1 a round.
    # R1 kaiju first, Torso 7 -> 4; punch -> 1. R2 Torso 1; punch -> 0: a win.
    b = custom(
        cat,
        {"torso": "torso-vehicle-melee", "head": "head-vehicle-melee"},
        "beast",
        "gorgadon",
        spares=((), (), (), ("arms-beast-melee-3",)),
    )
    out = play(replace(b, kaiju_hp=2), [])
    check(out, result=0, kaiju_hp_left=0, rounds=2, gpa=2.0, punches=2, rebuilds=0, parts_lost=0)


# ---- campaign interventions (the effect and trigger set on the compiled battle) -------


def test_redirect(cat):
    # Tactician, first round, v Cinderwyrm (as in test_two_attacks_hit_two_parts):
    # both attacks on the part with most HP, the Torso (6), each 3 + 1 = 4 - 2 = 2:
    # Torso 6 -> 4 -> 2, the Head untouched. The mech: 16 -> 13. R2 as usual: Head
    # 3 -> 2, Torso 2 -> 1; 13 -> 10. City with 10/16 = 62.5%: D- 0.7.
    b = replace(catalog_battle(cat, "mechsuit_lesson", "cinderwyrm"), effect=1, intervene_when=1)
    b = with_params(b, battle_rounds=2)
    s = ref.begin_round(b, ref.start(b))
    assert s.hp == (4, 2, 3, 3, 3)
    out = play(b, [NO_CRIT] * 4)
    check(out, result=1, kaiju_hp_left=10, rounds=2, grade=3, gpa=0.7, parts_lost=0, intervened=1)


def test_max_power(cat):
    # Brawler, first round, v Gorgadon: at max Power 3: arm_1 3 + 1 + 1 = 5, arm_2 3 //
    # 2 = 1, combo (both Power 2): 7 -> 13. The kaiju's next attack (this round, it acts
    # after) ignores the Armor: 4 on the Torso, 6 -> 2. R2: 6 -> 7; Torso 2 - 2 = 0,
    # destroyed. City with 7/20 = 35%: D 1.0.
    b = replace(catalog_battle(cat, "mechsuit_lesson", "gorgadon"), effect=2, intervene_when=1)
    out = play(with_params(b, battle_rounds=2), [NO_CRIT] * 4)
    check(out, result=1, kaiju_hp_left=7, rounds=2, grade=2, gpa=1.0, parts_lost=1, intervened=1)


def test_sure_crit_then_accuracy_halved(cat):
    # Ace (ace_finisher policy, trigger set to the first round) v Gorgadon. R1 both Arms
    # crit, no die: 8 + 2 + 1 = 11 -> 9. R2 Accuracy 2 // 2 = 1: arm_1 rolls 2 (no crit
    # at 1), arm_2 rolls 1 (crit): 4 + 2 + 1 = 7 -> 2. R3 Accuracy 2 again: arm_1 rolls
    # 2, a crit: 8 + 1 + 1 = 10 -> win. Crits 2 + 1 + 1 = 4.
    b = catalog_battle(cat, "mechsuit_lesson", "gorgadon", policy="ace_finisher")
    out = play(replace(b, intervene_when=1), [(20, 2), (20, 1), (20, 2), NO_CRIT])
    check(out, result=0, rounds=3, crits=4, parts_lost=0, intervened=1)


def test_sure_crit_when_kaiju_low(cat):
    # ace_finisher as written: kaiju HP <= 8. R1 -> 14, R2 -> 8; R3 8 <= 8: both Arms
    # crit: 11 -> win.
    b = catalog_battle(cat, "mechsuit_lesson", "gorgadon", policy="ace_finisher")
    out = play(b, [NO_CRIT] * 4)
    check(out, result=0, rounds=3, crits=2, intervened=1)


def test_restore(cat):
    # Medic (medic_keystone: the Torso lost) v Gorgadon, HP set to 40, 4 rounds. R1-R3:
    # 40 -> 22, the Torso destroyed in R3. R4: the Torso is back at 6; the cost is the
    # intact slot with fewest HP, 3 (Head, arm_1, arm_2: the last, arm_2). arm_1 alone:
    # 4 -> 18; the kaiju: Torso 6 -> 4. City with 18/40 = 45%: D 1.0. Lost: Torso, arm_2.
    b = catalog_battle(cat, "mechsuit_lesson", "gorgadon", policy="medic_keystone")
    b = with_params(replace(b, kaiju_hp=40), battle_rounds=4)
    out = play(b, [NO_CRIT] * 7)
    check(out, result=1, kaiju_hp_left=18, rounds=4, gpa=1.0, parts_lost=2, intervened=1)


def test_restore_waits_with_nothing_destroyed(cat):
    # Medic triggered in the first round with nothing destroyed: it cannot apply, and
    # the first round never comes again. Round 1: 20 -> 14.
    b = catalog_battle(cat, "mechsuit_lesson", "gorgadon", policy="medic_keystone")
    b = with_params(replace(b, intervene_when=1), battle_rounds=1)
    check(play(b, [NO_CRIT] * 2), result=1, kaiju_hp_left=14, intervened=0)


def test_null_attack(cat):
    # Saboteur, first round, v Cinderwyrm: the first attack does nothing, the second
    # takes the Head (first down the list): 3 -> 2. The mech: 16 -> 13. R2 the buff: 4 a
    # attack: Head 2 - 2 = 0 destroyed, Torso 6 - 2 = 4; no Head: arm_1 1, arm_2 0, no
    # combo: 13 -> 12. City with 12/16 = 75%: D- 0.7.
    b = replace(catalog_battle(cat, "mechsuit_lesson", "cinderwyrm"), effect=5, intervene_when=1)
    out = play(with_params(b, battle_rounds=2), [NO_CRIT] * 2)
    check(out, result=1, kaiju_hp_left=12, rounds=2, grade=3, gpa=0.7, parts_lost=1, intervened=1)


# ---- the results ----------------------------------------------------------------------
# (the engine contract: same seed, same results; keys, dtypes and shapes; refusals, is
# tests/conformance.py's, run over every registered game)


def test_results_in_fields_order_and_metrics(cat):
    a = catalog_battle(cat, "mechsuit_lesson", "gorgadon")
    c = catalog_battle(cat, "beast_pack", "thornmaw")
    one = ref.play([a, c], np.array([1, 0, 1, 1, 0]), np.random.default_rng(7))
    assert list(one) == list(FIELDS)
    assert {k: v.dtype for k, v in one.items()} == {k: np.dtype(t) for k, t in FIELDS.items()}
    assert set(metrics(one)) == {"win", "gpa", "rounds", "kaiju_hp_left", "parts_lost"}
    assert np.array_equal(metrics(one)["win"], (one["result"] == rules.WIN).astype(float))
