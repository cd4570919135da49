"""The Lab Partners vector engine (sims/labpartners/vector.py) against the reference
engine battle by battle on scripted dice and on the reference's own dice replayed, and
against the exact battle DP within 4 standard errors (mixed against separate calls is
tests/conformance.py's).

Hand traces read the compiled card tables of ``battle.catalog_battle`` (their numbers
are tested in test_rules.py) and walk the round procedure of battle.py's docstring.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from sims.core.batch import ScriptedDice
from sims.labpartners import ENGINES, reference, vector
from sims.labpartners.battle import catalog_battle, compile_battle, foe, metrics
from sims.labpartners.catalog import PARTS, SLOT_PART, SLOTS, load_catalog
from sims.labpartners.exact_battle import outcome
from tests.conformance import replay
from tests.conftest import CATALOGS

TRIGGERS = (("first_round", 0), ("armless", 0), ("kaiju_low", 8), ("torso_lost", 0))
SPECIALTIES = ("tactician", "brawler", "ace", "medic", "saboteur")
ONE = np.zeros(1, np.int64)


@pytest.fixture(scope="module")
def cat():
    """The catalog with one extra policy per specialty and trigger ("<specialty>_<when>",
    on the steady policy), so every campaign intervention can be played."""
    c = load_catalog(CATALOGS)
    extra = {}
    for spec in SPECIALTIES:
        for when, at in TRIGGERS:
            pid = f"{spec}_{when}"
            extra[pid] = dataclasses.replace(
                c.policies["steady"], id=pid, specialty=spec, intervene_when=when, intervene_at=at
            )
    return dataclasses.replace(c, policies={**c.policies, **extra})


def scripted(battle, script) -> dict[str, int]:
    """One battle on a script in both engines: the same numbers, every face read."""
    out = {}
    for engine in (reference, vector):
        dice = ScriptedDice(script)
        res = engine.play_dice([battle], ONE, dice)
        assert dice.used == len(script), f"{engine.__name__} read {dice.used} of the script"
        out[engine.__name__] = {k: v.item() for k, v in res.items()}
    ref, vec = out[reference.__name__], out[vector.__name__]
    assert vec == ref
    return vec


ARM_SPARES = [[], [], [], ["arms-beast-melee-2", "arms-mechsuit-melee-1"]]

# (mech, kaiju, policy, spares, script, expected numbers), each traced by hand below.
HAND = [
    # heavy_hitter v Gorgadon: Speed 2 ties the kaiju's 2, the mech acts first. Arms
    # 8 (Power 3, Mechsuit weak +1 = 4, Sonic weak x2) and 3, one Power tier: combo +1.
    # Accuracy 1: arm_1's d20 of 1 crits (16), arm_2's 20 does not: 16 + 3 + 1 = 20 =
    # Gorgadon's HP: a win in round 1, grade C (2.0).
    (
        "heavy_hitter",
        "gorgadon",
        "steady",
        (),
        [(20, 1), (20, 20)],
        dict(result=0, kaiju_hp_left=0, rounds=1, grade=0, gpa=2.0, crits=1),
    ),
    # No crit: 12 a round. Round 1: 20 -> 8, Gorgadon hits the Torso (5 - Armor 2 = 3,
    # 7 -> 4). Round 2: 12 more, 8 -> -4: a win in round 2.
    (
        "heavy_hitter",
        "gorgadon",
        "steady",
        (),
        [(20, 20)] * 4,
        dict(result=0, kaiju_hp_left=0, rounds=2, grade=0, gpa=2.0, crits=0, parts_lost=0),
    ),
    # gappy v Thornmaw: no Legs (Speed 0 < 2), the kaiju first; it leads with the Arms:
    # 4 - 2 = 2 a hit on arm_1 (5 HP, Vehicle): 3, 1, destroyed in round 3. arm_1 deals
    # 0 with no Head (Power 1 - 1), so no die. From round 3 the mech is armless with no
    # spare: the punch, a d3 with no Head (1 misses). Torso 5 -> 3 -> 1 -> destroyed in
    # round 6 before the mech acts: destroyed, 3 punches (miss, hit, hit): 18 - 2 = 16
    # left, 16/18 > 75%: F.
    (
        "gappy",
        "thornmaw",
        "steady",
        (),
        [(3, 1), (3, 2), (3, 3)],
        dict(result=2, kaiju_hp_left=16, rounds=6, grade=4, gpa=0.0, parts_lost=2, punches=3),
    ),
    # The same with two Arm spares. Round 3: arm_1 destroyed, the steady group rebuilds
    # (kaiju 18 > punch_finish 2) with arms-beast-melee-2 (3 HP; no Head: 2 - 1 = 1,
    # Beast weak +1 = 2, Melee weak x2 = 4). Round 4: hit to 1, fires 4 (no Head: no
    # die): 14. Round 5: destroyed; rebuild arms-mechsuit-melee-1 (deals 0: 1 - 1, Mechsuit
    # resisted). Round 6: 1 HP left. Round 7: destroyed, no spare: punch (hit, 13). Round
    # 8: Torso 5 -> 3, punch (miss). The city: 13/18 = 72% <= 75%: D- (0.7).
    (
        "gappy",
        "thornmaw",
        "steady",
        ARM_SPARES,
        [(3, 3), (3, 1)],
        dict(
            result=1,
            kaiju_hp_left=13,
            rounds=8,
            grade=3,
            gpa=0.7,
            parts_lost=3,
            rebuilds=2,
            punches=2,
        ),
    ),
    # ace_finisher: round 1 as above (20 -> 8, no crit); round 2 opens with the kaiju at
    # 8 <= intervene_at 8: the Ace's sure crit, no dice: 16 + 6 + 1 = 23, a win.
    (
        "heavy_hitter",
        "gorgadon",
        "ace_finisher",
        (),
        [(20, 20)] * 2,
        dict(result=0, rounds=2, crits=2, intervened=1),
    ),
    # Medic on armless: round 3 as in the gappy trace (arm_1 destroyed, punch hits: 17).
    # Round 4 opens armless: arm_1 returns at 5 HP and the only intact part, the Torso,
    # is destroyed instead. The kaiju first: no Armor, 4 x 2 = 8 on arm_1: destroyed,
    # nothing intact: destroyed in round 4, 3 parts lost.
    (
        "gappy",
        "thornmaw",
        "medic_armless",
        (),
        [(3, 2)],
        dict(result=2, kaiju_hp_left=17, rounds=4, grade=4, parts_lost=3, punches=1, intervened=1),
    ),
    # Saboteur on round 1: Thornmaw's attack does nothing; from round 2 it deals 4 + 1 -
    # 2 = 3: arm_1 5 -> 2 -> destroyed in round 3 (punch), Torso 5 -> 2 in round 4
    # (punch), destroyed in round 5: two punches (hits: 16 left).
    (
        "gappy",
        "thornmaw",
        "saboteur_first_round",
        (),
        [(3, 2), (3, 2)],
        dict(result=2, kaiju_hp_left=16, rounds=5, parts_lost=2, punches=2, intervened=1),
    ),
    # Brawler on round 1: the kaiju acts first (arm_1 5 -> 3), then arm_1 fires at max
    # Power with no Head: 3 - 1 = 2, Melee x2 = 4: 14. Round 2: that next attack ignores
    # the Armor: 4, arm_1 destroyed; punches in rounds 2, 3, 4 (hit, hit, miss: 12) while
    # the Torso goes 5 -> 3 -> 1 -> destroyed in round 5. 12/18 = 67%: D- (0.7).
    (
        "gappy",
        "thornmaw",
        "brawler_first_round",
        (),
        [(3, 2), (3, 2), (3, 1)],
        dict(result=2, kaiju_hp_left=12, rounds=5, grade=3, gpa=0.7, parts_lost=2, punches=3),
    ),
    # Tactician on round 1: the Torso and arm_1 both have 5 HP: the tie goes to the
    # kaiju's priority (Arms first): arm_1 takes 4 + 1 - 2 = 3 (5 -> 2), destroyed in
    # round 2; punches in rounds 2, 3, 4 (16 left), the Torso destroyed in round 5.
    (
        "gappy",
        "thornmaw",
        "tactician_first_round",
        (),
        [(3, 2), (3, 2), (3, 1)],
        dict(result=2, kaiju_hp_left=16, rounds=5, parts_lost=2, punches=3, intervened=1),
    ),
]


@pytest.mark.parametrize("mech, kaiju, policy, spares, script, want", HAND)
def test_hand_traced_battles(cat, mech, kaiju, policy, spares, script, want) -> None:
    got = scripted(catalog_battle(cat, mech, kaiju, policy=policy, spares=spares), script)
    assert {k: got[k] for k in want} == want


def test_random_battles_replay_exactly(cat) -> None:
    """Random finished mechs (gaps included), Traits, spares and every policy (each
    specialty on each trigger): the reference's dice, replayed as a script, give the
    vector engine exactly the reference's numbers."""
    rng = np.random.default_rng(11)
    by_part = {p: sorted(c for c in cat.cards if cat.cards[c].part == p) for p in PARTS}
    forms = sorted({c.form for c in cat.cards.values()})
    policies, seen = sorted(cat.policies), np.zeros(4)
    for i in range(250):
        cards = [
            None if rng.random() < 0.2 else cat.cards[rng.choice(by_part[SLOT_PART[s]])]
            for s in SLOTS
        ]
        lesson = str(rng.choice(forms))
        traits = [
            cat.traits[t] for t in rng.choice(sorted(cat.traits), rng.integers(0, 3), replace=False)
        ]
        f = foe(cat.kaiju[str(rng.choice(sorted(cat.kaiju)))], traits, cards, lesson, cat.params)
        spares = [
            [cat.cards[c] for c in rng.choice(by_part[p], rng.integers(0, 3), replace=False)]
            for p in PARTS
        ]
        b = compile_battle(cat, cards, lesson, f, cat.policies[policies[i % len(policies)]], spares)
        got = {
            k: v.item() for k, v in replay(ENGINES.play_dice, b, np.random.default_rng(i)).items()
        }
        seen += [got["intervened"], got["rebuilds"] > 0, got["punches"] > 0, got["crits"] > 0]
    assert (seen > 20).all(), seen  # the mix exercised every branch


# The engine contract (the same results for the same seed, keys, dtypes and shapes, the
# refusal of mixed batch keys and of ids outside the call, a mixed call against separate
# calls) is tests/conformance.py's, run over every registered game.


def _moments(dist: dict) -> tuple[float, float]:
    mean = sum((Fraction(v) * q for v, q in dist.items()), Fraction(0))
    var = sum((q * (Fraction(v) - mean) ** 2 for v, q in dist.items()), Fraction(0))
    return float(mean), float(var)


EXACT = [  # every kaiju, Traits, a battle with spares, both campaign policies
    ("mechsuit_lesson", "gorgadon", ("spined",), "steady", ()),
    ("mechsuit_lesson", "cinderwyrm", ("swift", "regrowth"), "steady", ()),
    ("mechsuit_lesson", "lumenyx", ("spined",), "medic_keystone", ()),
    ("mechsuit_lesson", "thornmaw", ("frenzy",), "ace_finisher", ()),
    ("beast_pack", "trivex", ("howler",), "steady", ()),
    ("beast_pack", "gorgadon", ("ancient",), "medic_keystone", ()),
    ("heavy_hitter", "thornmaw", (), "steady", ()),
    ("beast_pack", "thornmaw", ("thick_hide", "frenzy"), "keystone", ARM_SPARES),
]


def test_agrees_with_exact_dp(cat) -> None:
    """P(win), E[GPA] and E[rounds] of each battle within 4 standard errors (from the
    exact variances) of the DP's, all battles in one mixed call."""
    battles = [catalog_battle(cat, m, k, t, p, s) for m, k, t, p, s in EXACT]
    per = 8000
    ids = np.repeat(np.arange(len(battles)), per)
    got = metrics(vector.play(battles, ids, np.random.default_rng(7)))
    for i, b in enumerate(battles):
        o = outcome(b)
        p = float(o.p_win)
        exact = {
            "win": (p, p * (1 - p)),
            "gpa": _moments(o.gpa_dist()),
            "rounds": _moments(o.rounds_dist()),
        }
        assert exact["rounds"][1] > 0.1, b.label  # a battle that the dice decide
        for name, (mean, var) in exact.items():
            sample = got[name][ids == i]
            tol = 4 * math.sqrt(var / per) + 1e-12
            assert abs(sample.mean() - mean) <= tol, (b.label, name, sample.mean(), mean)
