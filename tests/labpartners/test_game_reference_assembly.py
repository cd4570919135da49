"""The scalar Assembly (sims/labpartners/game/reference/assembly.py) on hand-traced games: every
Shuffle built by hand so the piles' order is known, every choice derived by hand in the
comments from the Assembly procedure and catalogs/labpartners/*.toml.

Numbers used throughout:
- rules.toml: hand_size 5, market_size 3, body_plays 1, arm_takes 1, extra_draws 2,
  lesson_threshold 3, spares_per_part 2;
- players.toml (fill, lesson, weakness, skill, power, combo, study; threshold):
  builder 4, 2, 1, 1, 1, 1, 0; 1 (Battle Specialty), seeker 4, 1, 1, 1, 1, 1, 3; 1
  (Assembly Specialty), holdout 2, 2, 1, 1, 1, 1, 0; 4 (Battle Specialty). A card's value =
  lesson*[lesson Form] + weakness*weak + skill*[Beast Legs, Vehicle Torso, Clockwork Head]
  + power*Power + combo*[same Power in the other Arm slot] + study*progress; into an empty
  slot the gain is fill + value, over a placed card value(new) - value(placed);
- traits.toml in flip order when the Trait order is the catalog's: thick_hide (weak Type
  sonic), frenzy (no Form/Type weakness), swift (weak Form beast), regrowth ...;
- Cinderwyrm's countdown 3; studies.toml: field_medic (index 5, win_intact: no card
  progress), specialties.toml order tactician 0, brawler 1, ace 2, medic 3, saboteur 4;
  policies.toml order steady 0, keystone 1, all_in 2, ace_finisher 3, medic_keystone 4,
  tactician_first 5, brawler_finisher 6, saboteur_first 7.

The scripted game S1 (lesson Mechsuit, two seats) deals, top first:
  seat 0: a0 legs-beast-projectile, a1 torso-mechsuit-magic, a2 head-vehicle-melee,
          a3 legs-mechsuit-energy, a4 head-clockwork-sonic
  seat 1: b0 torso-vehicle-energy, b1 head-beast-melee, b2 legs-vehicle-sonic,
          b3 torso-beast-projectile, b4 head-mechsuit-melee
  pile:   p0 legs-clockwork-magic, p1 head-mechsuit-sonic, p2 torso-mechsuit-projectile,
          p3 legs-beast-sonic, p4 torso-clockwork-melee, p5 legs-ghost_crystal-projectile
  Arms:   A0 beast-energy-1, A1 mechsuit-melee-2, A2 vehicle-sonic-1 (the market), then
          A3 clockwork-projectile-2, A4 ghost_crystal-magic-3, A5 beast-melee-1 (the pool)
Its 16 body cards sorted by Form: 4 Beast (positions 0-3), 5 Mechsuit (4-8), 3 Vehicle
(9-11), 3 Clockwork (12-14), 1 Ghost-Crystal (15): lesson quantile 0.3 -> floor(4.8) = 4
-> Mechsuit; 0.99 -> floor(15.84) = 15 -> Ghost-Crystal.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sims.labpartners.catalog import PARTS, SLOT_PART, SLOTS, Deck, load_catalog
from sims.labpartners.game.locked_mech import Locked
from sims.labpartners.game.random_setup import Shuffle, card_index, shuffle
from sims.labpartners.game.reference import assembly as ar
from tests.conftest import CATALOGS

CAT = load_catalog(CATALOGS)
IDX = card_index(CAT)
P = CAT.params
FIELD_MEDIC = list(CAT.studies).index("field_medic")
SPEC = {s: i for i, s in enumerate(CAT.specialties)}
POLICY = {s: i for i, s in enumerate(CAT.policies)}

a0, a1, a2, a3, a4 = (
    "legs-beast-projectile",
    "torso-mechsuit-magic",
    "head-vehicle-melee",
    "legs-mechsuit-energy",
    "head-clockwork-sonic",
)
b0, b1, b2, b3, b4 = (
    "torso-vehicle-energy",
    "head-beast-melee",
    "legs-vehicle-sonic",
    "torso-beast-projectile",
    "head-mechsuit-melee",
)
p0, p1, p2, p3, p4, p5 = (
    "legs-clockwork-magic",
    "head-mechsuit-sonic",
    "torso-mechsuit-projectile",
    "legs-beast-sonic",
    "torso-clockwork-melee",
    "legs-ghost_crystal-projectile",
)
A0, A1, A2, A3, A4, A5 = (
    "arms-beast-energy-1",
    "arms-mechsuit-melee-2",
    "arms-vehicle-sonic-1",
    "arms-clockwork-projectile-2",
    "arms-ghost_crystal-magic-3",
    "arms-beast-melee-1",
)
S1_ORDER = (a0, a1, a2, a3, a4, b0, b1, b2, b3, b4, p0, p1, p2, p3, p4, p5, A0, A1, A2, A3, A4, A5)
MECHSUIT, GHOST = 0.3, 0.99  # S1's lesson quantiles (module docstring)


def ids(*names: str) -> list[int]:
    return [IDX[n] for n in names]


def deck_of(*names: str) -> Deck:
    return Deck("scripted", tuple(CAT.cards[n] for n in names), "test")


def scripted(order, lesson: float, specialties=(0, 1, 2, 3, 4), studies=None) -> Shuffle:
    """One game whose listed cards lie on top of their piles in ``order`` (keys 0, 1, ...;
    every other card after them); the Trait order is the catalog's, every seat holds
    field_medic (no card progress) unless ``studies`` says otherwise."""
    keys = 1000.0 + np.arange(len(CAT.cards), dtype=np.float64)
    for pos, name in enumerate(order):
        keys[IDX[name]] = pos
    if studies is None:
        others = [s for s in range(len(CAT.studies)) if s != FIELD_MEDIC]
        studies = [FIELD_MEDIC, FIELD_MEDIC, *others]  # rows need not be permutations here
    return Shuffle(
        keys=keys[None, :],
        lesson=np.array([lesson]),
        traits=np.arange(len(CAT.traits), dtype=np.int16)[None, :],
        studies=np.array([studies], np.int16),
        specialties=np.array([specialties], np.int16),
    )


S1_DECK = deck_of(*S1_ORDER)


def s1_table(seats=("builder", "builder"), mode="standalone", lesson=MECHSUIT, **kw):
    sh = scripted(S1_ORDER, lesson, **kw)
    form = list(CAT.forms).index("mechsuit" if lesson == MECHSUIT else "ghost_crystal")
    return ar.setup(CAT, S1_DECK, sh, 0, "cinderwyrm", seats, mode, form)


def names(cards) -> list[str | None]:
    cards_ = list(CAT.cards)
    return [None if c < 0 else cards_[c] for c in cards]


# -- setup ----------------------------------------------------------------------------------


def test_lesson_quantiles_pick_the_forms_the_docstring_counts():
    from sims.labpartners.game.random_setup import lesson_form

    forms = lesson_form(CAT, S1_DECK, np.array([MECHSUIT, GHOST]))
    assert [list(CAT.forms)[f] for f in forms] == ["mechsuit", "ghost_crystal"]


def test_deal_gives_whole_hands_in_seat_order_then_the_market():
    t = s1_table()
    assert names(t.hands[0]) == [a0, a1, a2, a3, a4]  # the first 5 body cards
    assert names(t.hands[1]) == [b0, b1, b2, b3, b4]
    assert names(t.pile) == [p0, p1, p2, p3, p4, p5]
    assert names(t.market) == [A0, A1, A2] and names(t.pool) == [A3, A4, A5]
    assert t.body_seen == 10 and t.played == [False, False] and t.flips == 0
    assert t.slots == [-1] * 5


def test_a_short_pile_deals_later_seats_fewer_cards():
    # 7 body cards for two seats: seat 0 takes 5, seat 1 the 2 left; one Arm: a market of 1
    deck = deck_of(a0, a1, a2, a3, a4, b0, b1, A0)
    t = ar.setup(
        CAT, deck, scripted(S1_ORDER, 0.0), 0, "cinderwyrm", ("builder",) * 2, "standalone", 0
    )
    assert [len(h) for h in t.hands] == [5, 2] and names(t.hands[1]) == [b0, b1]
    assert t.pile == [] and t.body_seen == 7 and names(t.market) == [A0] and t.pool == []


# -- S1 step by step (two builders, standalone) ----------------------------------------------


def test_s1_round_one_body_plays_arm_takes_and_the_end_of_the_round():
    t = s1_table()
    ar.turn(t, 0, P)
    # seat 0's gains into empty slots (fill 4 + value): a0 4+1 (Beast Legs) = 5,
    # a1 4+2 (lesson) = 6, a2 4, a3 4+2 = 6, a4 4+1 (Clockwork Head) = 5: a1 and a3 tie at
    # 6, the earlier hand position plays: a1 into the Torso
    assert names(t.slots[:3]) == [None, a1, None] and names(t.hands[0]) == [a0, a2, a3, a4]
    # market into the empty arm_1 (no combo: arm_2 empty): A0 4+1 = 5, A1 4+2+2 = 8, A2 5
    assert names(t.slots[3:]) == [A1, None] and names(t.market) == [A0, A2]
    assert t.played == [True, False]
    ar.turn(t, 1, P)
    # seat 1: b0 Vehicle Torso 1 - a1's 2 = -1, b1 4, b2 4, b3 0 - 2 = -2, b4 4+2 = 6
    assert names(t.slots[:3]) == [None, a1, b4]
    # arm_2 empty, combo against arm_1's Power 2: A0 (Power 1) 4+1 = 5 = A2's: A0, earlier
    assert names(t.slots[3:]) == [A1, A0] and names(t.market) == [A2]
    # no refill before the end of the round (only at a seat's next turn)
    assert t.body_seen == 10 and [len(h) for h in t.hands] == [4, 4]
    assert not ar.end_of_round(t, P)
    # thick_hide flips: Sonic revealed; the market refills from the pool to 3
    assert t.flips == 1 and t.weak_types == {"sonic"} and t.weak_forms == set()
    assert names(t.market) == [A2, A3, A4] and names(t.pool) == [A5]


def test_s1_round_two_refill_replacement_and_a_revealed_weakness():
    t = s1_table()
    ar.play_round(t, P)
    ar.turn(t, 0, P)
    # seat 0 played last turn: refills p0 to 5 cards; gains: a0 Legs 4+1 = 5, a2 0 - b4's 2
    # = -2, a3 4+2 = 6, a4 (1 skill + 1 Sonic) - 2 = 0, p0 4: a3 into the Legs
    assert t.body_seen == 11 and names(t.hands[0]) == [a0, a2, a4, p0]
    assert names(t.slots[:3]) == [a3, a1, b4]
    # Arms full: arm_1 A1 = 2+2 = 4, arm_2 A0 = 1: replace arm_2 (combo against Power 2):
    # A2 (1 + Sonic 1) - 1 = 1, A3 (2 + combo 1) - 1 = 2, A4 3 - 1 = 2: A3 (earlier);
    # the old A0 goes to the END of the market
    assert names(t.slots[3:]) == [A1, A3] and names(t.market) == [A2, A4, A0]
    ar.turn(t, 1, P)
    # seat 1 refills p1; gains: b0 1-2 = -1, b1 0-2 = -2, b2 (Sonic 1) - 2 = -1, b3 -2,
    # p1 head-mechsuit-sonic (2 lesson + 1 Sonic) - b4's 2 = 1 >= 1: p1 replaces b4 (b4 is
    # discarded: in no hand, pile, slot or market). Without the Sonic reveal: 0, a hold.
    assert names(t.slots[:3]) == [a3, a1, p1] and names(t.hands[1]) == [b0, b1, b2, b3]
    held = IDX[b4]
    assert held not in t.pile + t.slots + [c for h in t.hands for c in h]
    # Arms: arm_1 A1 2+2+1 (combo with A3) = 5, arm_2 A3 2+1 = 3; into arm_2: A2 2-3 = -1,
    # A4 3-3 = 0, A0 1-3 = -2: best 0 < 1, no take
    assert names(t.slots[3:]) == [A1, A3] and names(t.market) == [A2, A4, A0]
    assert t.played == [True, True] and t.body_seen == 12


def test_s1_plays_to_the_end_of_the_countdown():
    # round 3: seat 0 refills p2; a0 1-2, a2 0-3 (p1 is worth 3), a4 2-3, p0 0-2, p2 2-2:
    # best 0, hold; Arms as seat 1's round 2: hold. Seat 1 refills p3 legs-beast-sonic:
    # (1 skill + 1 Sonic) - 2 = 0, the rest negative: hold. swift flips (Beast).
    locked = ar.play(
        CAT, S1_DECK, scripted(S1_ORDER, MECHSUIT), ["cinderwyrm"], ["builder", "builder"]
    )
    assert isinstance(locked, Locked) and locked.deck == "scripted"
    assert names(locked.slots[0]) == [a3, a1, p1, A1, A3]
    assert locked.flips.tolist() == [3] and locked.rounds.tolist() == [3]
    assert locked.body_seen.tolist() == [14]  # 10 dealt + p0, p1, p2, p3
    assert locked.lesson.tolist() == [list(CAT.forms).index("mechsuit")]
    # spares (2 a Part-Type): hands are seat 0 [a0, a2, a4, p0, p2], seat 1 [b0, b1, b2,
    # b3, p3]; Legs a0, p0; Torso p2, b0; Head a2, a4; Arms: the market A2, A4
    assert [names(s) for s in locked.spares[0]] == [[a0, p0], [p2, b0], [a2, a4], [A2, A4]]
    assert locked.spent.tolist() == [[False, False]]
    assert locked.battle_policy.tolist() == [POLICY["steady"]]


def test_campaign_stops_once_done_and_spares_come_from_hands_then_the_pile():
    # the same game in campaign mode: after round 2 the mech has no gap and Legs a3, Torso
    # a1, Head p1 and arm_1 A1 are Mechsuit (4 >= 3: the lesson took): the group stops with
    # 2 Traits flipped (the third discarded unapplied); builders keep their Specialty for
    # Battle: seat 0's tactician brings tactician_first
    cat = dataclasses.replace(CAT, params=dataclasses.replace(P, spares_per_part=4))
    locked = ar.play(
        cat,
        S1_DECK,
        scripted(S1_ORDER, MECHSUIT),
        ["cinderwyrm"],
        ["builder", "builder"],
        mode="campaign",
    )
    assert names(locked.slots[0]) == [a3, a1, p1, A1, A3]
    assert locked.flips.tolist() == [2] and locked.rounds.tolist() == [2]
    assert locked.body_seen.tolist() == [12]
    assert locked.battle_policy.tolist() == [POLICY["tactician_first"]]
    # hands seat 0 [a0, a2, a4, p0], seat 1 [b0, b1, b2, b3]; pile [p2, p3, p4, p5];
    # market [A2, A4, A0], pool [A5]. Legs: a0, p0, b2 from hands, then p3 off the pile;
    # Torso: b0, b3, then p2, p4; Head: a2, a4, b1 and none in the pile; Arms: the market
    # then the pool
    assert [names(s) for s in locked.spares[0]] == [
        [a0, p0, b2, p3],
        [b0, b3, p2, p4],
        [a2, a4, b1, None],
        [A2, A4, A0, A5],
    ]


def test_holdout_holds_below_its_threshold_and_does_not_refill():
    # lesson Ghost-Crystal: holdout seat 0's gains (fill 2): a0 2+1 = 3, a1 2, a2 2, a3 2,
    # a4 2+1 = 3: best 3 < 4, hold. Market into arm_1: A0 2+1 = 3, A1 2+2 = 4, A2 3: A1
    t = s1_table(seats=("holdout", "builder"), lesson=GHOST)
    ar.turn(t, 0, P)
    assert t.slots[:3] == [-1, -1, -1] and names(t.hands[0]) == [a0, a1, a2, a3, a4]
    assert names(t.slots[3:]) == [A1, None] and t.played == [False, False]
    # builder seat 1: b0 Vehicle Torso 4+1 = 5, the rest 4: b0 into the Torso
    ar.turn(t, 1, P)
    assert names(t.slots[:3]) == [None, b0, None]
    ar.end_of_round(t, P)  # thick_hide: Sonic
    ar.turn(t, 0, P)
    # no body play last turn: no refill (still 10 seen); a4 head-clockwork-sonic is now
    # 2 + 1 skill + 1 Sonic = 4 >= 4: played (a1 over b0: 0 - 1 = -1; a0 3)
    assert t.body_seen == 10 and names(t.slots[:3]) == [None, b0, a4]
    assert names(t.hands[0]) == [a0, a1, a2, a3] and t.played[0]
    ar.turn(t, 1, P)
    # seat 1 played: refills p0 (11 seen); gains: b1 0 - a4's 2 = -2, b2 legs-vehicle-sonic
    # 4 + Sonic 1 = 5, b3 0 - 1, b4 0 - 2, p0 4: b2 into the Legs
    assert t.body_seen == 11 and names(t.hands[1]) == [b1, b3, b4, p0]
    assert names(t.slots[:3]) == [b2, b0, a4]


def test_the_pile_and_the_pool_run_dry():
    # 11 body cards and 2 Arms: the deal leaves p0 alone in the pile, the market is A1, A3.
    # Lesson: Forms sorted: Beast a0 b1 b3, Mechsuit a1 a3 b4, Vehicle a2 b0 b2, Clockwork
    # a4 p0: quantile 0.3 -> floor(3.3) = 3 -> Mechsuit (as S1).
    # r1: seat 0 plays a1 (as S1), takes A1 (4+2+2 = 8 over A3's 4+2 = 6); seat 1 plays b4,
    # takes A3 into arm_2 (2 + combo 1: 7); the market is empty and the pool too: no refill.
    # r2: seat 0 refills p0 only (the pile runs out), plays a3 (6); seat 1 draws nothing
    # (4 cards) and holds (b0 -1, b1 -2, b2 1-2, b3 -2). r3: seat 0 has 4 cards, holds
    # (a0 1-2, a2 -2, a4 2-2, p0 0-2); seat 1 holds.
    deck = deck_of(a0, a1, a2, a3, a4, b0, b1, b2, b3, b4, p0, A1, A3)
    locked = ar.play(
        CAT, deck, scripted(S1_ORDER, MECHSUIT), ["cinderwyrm"], ["builder", "builder"]
    )
    assert names(locked.slots[0]) == [a3, a1, b4, A1, A3]
    assert locked.body_seen.tolist() == [11] and locked.flips.tolist() == [3]
    # spares: hands seat 0 [a0, a2, a4, p0], seat 1 [b0, b1, b2, b3]; no Arms left at all
    assert [names(s) for s in locked.spares[0]] == [[a0, p0], [b0, b3], [a2, a4], [None, None]]


def test_countdown_zero_locks_an_empty_mech():
    kaiju = dict(CAT.kaiju, gorgadon=dataclasses.replace(CAT.kaiju["gorgadon"], countdown=0))
    cat = dataclasses.replace(CAT, kaiju=kaiju)
    locked = ar.play(
        cat,
        S1_DECK,
        scripted(S1_ORDER, MECHSUIT),
        ["gorgadon"],
        ["builder", "seeker"],
        mode="campaign",
    )
    assert locked.slots.tolist() == [[-1] * 5]
    assert locked.flips.tolist() == [0] and locked.rounds.tolist() == [0]
    assert locked.body_seen.tolist() == [10] and locked.spent.tolist() == [[False, False]]
    # spares from the dealt hands: Legs a0, a3; Torso a1, b0; Head a2, a4; the market A0, A1
    assert [names(s) for s in locked.spares[0]] == [[a0, a3], [a1, b0], [a2, a4], [A0, A1]]


# -- the Specialties' Assembly uses (campaign) ------------------------------------------------


def test_ace_draws_two_on_its_first_turn_and_keeps_them():
    # seeker seat 0 holds the Ace (field_medic: no study progress). First turn: no refill,
    # draws p0, p1 (7 cards); gains (lesson weight 1): a0 4+1 = 5, a1 5, a2 4, a3 5, a4 5,
    # p0 4, p1 4+1 = 5: a0 (earliest 5) into the Legs, 6 cards left
    t = s1_table(seats=("seeker", "builder"), mode="campaign", specialties=(2, 0, 1, 3, 4))
    ar.turn(t, 0, P)
    assert t.spent == [True, False] and t.body_seen == 12
    assert names(t.hands[0]) == [a1, a2, a3, a4, p0, p1] and names(t.slots[:1]) == [a0]
    ar.turn(t, 1, P)
    ar.end_of_round(t, P)
    seen = t.body_seen
    ar.turn(t, 0, P)  # played, but 6 cards >= 5: the refill draws nothing; no second use
    assert t.body_seen == seen and t.spent == [True, False]


def test_tactician_peek_reveals_the_next_trait_and_changes_a_choice():
    # builder seat 0 plays a1 and takes A1 as in S1 (before the peek). Seeker seat 1 holds
    # the Tactician: peeks thick_hide (Sonic) on its first turn. Its gains: b0 1 - a1's 1
    # = 0, b1 4, b2 legs-vehicle-sonic 4 + Sonic 1 = 5, b3 0 - 1, b4 4 + lesson 1 = 5:
    # b2 (earlier) into the Legs. Unpeeked (standalone), b2 is 4 and b4 plays.
    t = s1_table(seats=("builder", "seeker"), mode="campaign", specialties=(3, 0, 1, 2, 4))
    ar.turn(t, 0, P)
    assert t.weak_types == set()
    ar.turn(t, 1, P)
    assert t.weak_types == {"sonic"} and t.flips == 0 and t.spent == [False, True]
    assert names(t.slots[:3]) == [b2, a1, None]
    u = s1_table(seats=("builder", "seeker"), specialties=(3, 0, 1, 2, 4))
    ar.turn(u, 0, P)
    ar.turn(u, 1, P)
    assert names(u.slots[:3]) == [None, a1, b4] and u.spent == [False, False]
    # the whole game: seat 0 (builder, Battle) holds the Medic: medic_keystone
    locked = ar.play(
        CAT,
        S1_DECK,
        scripted(S1_ORDER, MECHSUIT, (3, 0, 1, 2, 4)),
        ["cinderwyrm"],
        ["builder", "seeker"],
        mode="campaign",
    )
    assert locked.spent.tolist() == [[False, True]]
    assert locked.battle_policy.tolist() == [POLICY["medic_keystone"]]


def test_brawler_takes_a_second_arm_on_its_first_turn():
    # seeker seat 0 holds the Brawler: body a0 (the earliest 5, as the Ace's hand); Arms
    # into arm_1: A0 4+1 = 5, A1 4+1+2 = 7, A2 5: A1; the extra take into arm_2 (combo
    # against Power 2): A0 5 = A2 5: A0. Standalone: one take only.
    t = s1_table(seats=("seeker", "builder"), mode="campaign", specialties=(1, 0, 2, 3, 4))
    ar.turn(t, 0, P)
    assert names(t.slots) == [a0, None, None, A1, A0] and names(t.market) == [A2]
    assert t.spent == [True, False]
    u = s1_table(seats=("seeker", "builder"), specialties=(1, 0, 2, 3, 4))
    ar.turn(u, 0, P)
    assert names(u.slots[3:]) == [A1, None] and names(u.market) == [A0, A2]
    assert u.spent == [False, False]


def test_medic_and_saboteur_are_never_spent_and_no_battle_seat_keeps_the_default():
    locked = ar.play(
        CAT,
        S1_DECK,
        scripted(S1_ORDER, MECHSUIT, (3, 4, 0, 1, 2)),
        ["cinderwyrm"],
        ["seeker", "seeker"],
        mode="campaign",
        battle_policy="all_in",
    )
    assert locked.spent.tolist() == [[False, False]]
    assert locked.battle_policy.tolist() == [POLICY["all_in"]]


def test_battle_policy_standalone_is_the_experiments_even_with_battle_seats():
    locked = ar.play(
        CAT,
        S1_DECK,
        scripted(S1_ORDER, MECHSUIT),
        ["cinderwyrm"],
        ["builder", "builder"],
        battle_policy="keystone",
    )
    assert locked.battle_policy.tolist() == [POLICY["keystone"]]


def test_bad_arguments():
    sh = scripted(S1_ORDER, MECHSUIT)
    with pytest.raises(ValueError, match="kaiju"):
        ar.play(CAT, S1_DECK, sh, [], ["builder", "builder"])
    with pytest.raises(ValueError, match="mode"):
        ar.play(CAT, S1_DECK, sh, ["gorgadon"], ["builder", "builder"], mode="league")
    with pytest.raises(KeyError, match="player"):
        ar.play(CAT, S1_DECK, sh, ["gorgadon"], ["builder", "nobody"])


# -- invariants over random shuffles --------------------------------------------------------

SEAT_MIX = ("builder", "seeker", "holdout")


@pytest.mark.parametrize("deck", ["alpha", "full"])
@pytest.mark.parametrize("mode", ["standalone", "campaign"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_over_random_games(deck, mode, players):
    d = CAT.deck(deck)
    games = 12
    sh = shuffle(CAT, games, np.random.default_rng(players * 10 + (mode == "campaign")))
    kaiju = [list(CAT.kaiju)[i % len(CAT.kaiju)] for i in range(games)]
    seats = [SEAT_MIX[(k + players) % 3] for k in range(players)]
    locked = ar.play(CAT, d, sh, kaiju, seats, mode)
    from sims.labpartners.game.random_setup import lesson_form

    lessons = lesson_form(CAT, d, sh.lesson)
    body = {IDX[c.id] for c in d.body}
    arms = {IDX[c.id] for c in d.of("arms")}
    cards = list(CAT.cards.values())
    for i in range(games):
        t = ar.setup(CAT, d, sh, i, kaiju[i], seats, mode, int(lessons[i]))
        assert t.body_seen == min(5 * players, len(body))
        seen = t.body_seen
        stopped = False
        for _ in range(t.countdown):
            for k in range(players):
                before, hand, was = len(t.pile), len(t.hands[k]), t.played[k]
                first_ace = (
                    mode == "campaign"
                    and t.turns[k] == 0
                    and t.specialties[k] == "ace"
                    and t.players[k].specialty_use == "assembly"
                )
                ar.turn(t, k, P)
                refill = min(max(5 - hand, 0), before) if was else 0
                ace = min(2, before - refill) if first_ace else 0
                assert before - len(t.pile) == refill + ace  # a refill only after a play
                seen += refill + ace
            t.rounds += 1
            if ar.end_of_round(t, P):
                stopped = True
                break
        assert t.body_seen == seen == len(body) - len(t.pile)
        # every card in one place at most; the rest were discarded body cards
        places = t.pile + t.pool + t.market + [c for h in t.hands for c in h]
        places += [c for c in t.slots if c >= 0]
        assert len(places) == len(set(places))
        assert set(places) <= body | arms and arms <= set(places)  # Arms are never discarded
        assert all(cards[c].is_body for h in t.hands for c in h)
        assert all(cards[c].part == "arms" for c in t.market) and len(t.market) <= 3
        for s, c in zip(SLOTS, t.slots, strict=True):
            assert c < 0 or cards[c].part == SLOT_PART[s]
        # the countdown
        c = CAT.kaiju[kaiju[i]].countdown
        assert t.flips <= c and t.flips == t.rounds
        if mode == "standalone":
            assert t.flips == c and not stopped
        if stopped:
            assert all(x >= 0 for x in t.slots) and ar.lesson_count(t) >= 3
        # the Specialties' Assembly uses
        for k in range(players):
            uses = (
                mode == "campaign"
                and seats[k] == "seeker"
                and t.specialties[k] in ("ace", "tactician", "brawler")
            )
            assert t.spent[k] == uses
        # play() locks the same game
        assert locked.slots[i].tolist() == t.slots
        assert (locked.flips[i], locked.rounds[i], locked.body_seen[i]) == (
            t.flips,
            t.rounds,
            t.body_seen,
        )
        assert locked.spent[i].tolist() == t.spent
        for part, pile_ in enumerate(locked.spares[i]):
            assert all(cards[x].part == PARTS[part] for x in pile_ if x >= 0)
            assert not set(pile_.tolist()) & set(t.slots) - {-1}
    assert locked.slots.shape == (games, 5) and locked.spares.shape == (games, 4, 2)
