"""The vectorized Assembly (sims/labpartners/game/vector/assembly.py) against the scalar
oracle (game/reference/assembly.py) game by game and field by field (``Locked.equals``), on
random shuffles: both decks, 2..5 seats, every mix of the players' policies, both modes,
every kaiju, a deck that runs dry, other hand, market and turn sizes; and one small game
traced by hand from the rulebook's Assembly and /tmp/lp_assembly_spec.md.
"""

from __future__ import annotations

from dataclasses import fields
from itertools import combinations_with_replacement

import numpy as np
import pytest

from sims.labpartners.catalog import Deck, load_catalog
from sims.labpartners.game.locked_mech import Locked
from sims.labpartners.game.random_setup import Shuffle, card_index, shuffle
from sims.labpartners.game.reference import assembly as reference_assembly
from sims.labpartners.game.vector import assembly as vector_assembly
from tests.conftest import CATALOGS

MODES = ("standalone", "campaign")


@pytest.fixture(scope="module")
def cat():
    return load_catalog(CATALOGS)


def same(a: Locked, b: Locked) -> None:
    """Exactly equal; on a difference, name the field and the first games that differ."""
    if a.equals(b):
        return
    for f in fields(a):
        x, y = np.asarray(getattr(a, f.name)), np.asarray(getattr(b, f.name))
        if x.shape != y.shape or not np.array_equal(x, y):
            games = np.nonzero((x != y).reshape(len(x), -1).any(axis=1))[0][:5]
            pytest.fail(f"{f.name} differs (games {games.tolist()})")


def both(cat, deck, sh, kaiju, seats, mode, policy="steady") -> Locked:
    v = vector_assembly.play(cat, deck, sh, kaiju, seats, mode, policy)
    same(v, reference_assembly.play(cat, deck, sh, kaiju, seats, mode, policy))
    return v


def kaiju_of(cat, games: int, rng) -> list[str]:
    """Every kaiju, in a random order per game (each appears at least once)."""
    ks = list(cat.kaiju)
    return [ks[i] for i in rng.permutation(np.arange(games) % len(ks))]


MIXES = [
    mix
    for n in range(2, 6)
    for mix in combinations_with_replacement(("builder", "seeker", "holdout"), n)
]


@pytest.mark.parametrize("mix", MIXES, ids=[",".join(m) for m in MIXES])
def test_every_policy_mix_matches_the_reference(cat, mix):
    """Every multiset of policies over 2..5 seats (seated in a shuffled order), both
    decks, both modes, every kaiju: identical locked mechs."""
    rng = np.random.default_rng(MIXES.index(mix))
    seats = [mix[i] for i in rng.permutation(len(mix))]
    sh = shuffle(cat, 20, rng)
    kaiju = kaiju_of(cat, 20, rng)
    for deck in ("alpha", "full"):
        for mode in MODES:
            both(cat, cat.deck(deck), sh, kaiju, seats, mode)


def test_many_games_every_mode_and_policy(cat):
    """A larger batch (more Specialty draws: every Assembly use and Battle policy)."""
    rng = np.random.default_rng(7)
    sh = shuffle(cat, 400, rng)
    kaiju = kaiju_of(cat, 400, rng)
    for mode in MODES:
        v = both(
            cat, cat.deck("full"), sh, kaiju, ["seeker", "builder", "seeker"], mode, "keystone"
        )
        if mode == "campaign":
            # seat 1 (builder) brings its Specialty to Battle: all five policies appear
            assert len(np.unique(v.battle_policy)) == 5
            assert v.spent[:, 0].any() and not v.spent[:, 1].any()
            assert (v.rounds <= [cat.kaiju[k].countdown for k in kaiju]).all()
        else:
            assert (v.battle_policy == list(cat.policies).index("keystone")).all()
            assert (v.rounds == [cat.kaiju[k].countdown for k in kaiju]).all()


@pytest.mark.parametrize(
    "overrides",
    [
        {"market_size": 0},
        {"market_size": 5},
        {"body_plays": 2},
        {"body_plays": 0, "arm_takes": 2},
        {"hand_size": 2, "extra_draws": 4, "spares_per_part": 3},
        {"spares_per_part": 0},
        {"kaiju.lumenyx.countdown": 12},  # more rounds than Traits: flips stop at 10
        {"kaiju.trivex.countdown": 0},  # no Assembly: an empty mech
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_other_rules_match_the_reference(overrides):
    c = load_catalog(CATALOGS, overrides=overrides)
    rng = np.random.default_rng(11)
    sh = shuffle(c, 60, rng)
    kaiju = kaiju_of(c, 60, rng)
    for deck in ("alpha", "full"):
        for mode in MODES:
            for seats in (
                ["builder", "holdout"],
                ["seeker", "holdout", "builder", "seeker", "seeker"],
            ):
                v = both(c, c.deck(deck), sh, kaiju, seats, mode)
    if "kaiju.lumenyx.countdown" in overrides:
        assert v.flips[np.array(kaiju) == "lumenyx"].max() == len(c.traits)
    if "kaiju.trivex.countdown" in overrides:
        empty = np.array(kaiju) == "trivex"
        assert (v.slots[empty] == -1).all() and (v.rounds[empty] == 0).all()


def tiny(cat, body: int, arms: int) -> Deck:
    """A deck of the full spread's first ``body`` body cards and first ``arms`` Arms."""
    full = cat.deck("full")
    return Deck("tiny", full.body[:body] + full.of("arms")[:arms], "test")


@pytest.mark.parametrize("body,arms", [(12, 4), (3, 1), (1, 0), (8, 0)])
def test_a_deck_that_runs_dry(cat, body, arms):
    """Piles too short for the hands and the market: later seats get fewer cards, the
    market stays short, the Ace finds the pile empty, the mech keeps gaps."""
    rng = np.random.default_rng(body * 10 + arms)
    sh = shuffle(cat, 50, rng)
    kaiju = kaiju_of(cat, 50, rng)
    for mode in MODES:
        for seats in (["seeker"] * 5, ["builder", "seeker"], ["holdout", "seeker", "builder"]):
            v = both(cat, tiny(cat, body, arms), sh, kaiju, seats, mode)
            assert (v.body_seen == body).all() or body > 5
    assert ((v.slots >= 0).sum(axis=1) <= body + arms).all()


# -- one game by hand -----------------------------------------------------------------

BODY = [
    "legs-beast-projectile",
    "head-mechsuit-energy",
    "torso-mechsuit-melee",
    "legs-mechsuit-melee",
    "head-clockwork-melee",
]
ARMS = ["arms-beast-projectile-1", "arms-mechsuit-sonic-2", "arms-mechsuit-melee-1"]


def traced(cat) -> tuple[Deck, Shuffle]:
    """The hand-traced game: the piles in the order listed (top first), the lesson at
    quantile 0.5 of the body cards' Forms, Traits swift, regrowth, thick_hide first; seat
    0 holds the Ace."""
    deck = Deck("hand", tuple(cat.cards[c] for c in BODY + ARMS), "test")
    index = card_index(cat)
    keys = np.full((1, len(cat.cards)), 0.99)
    for place, c in enumerate(BODY + ARMS):
        keys[0, index[c]] = place / 100
    trait_ids = list(cat.traits)
    order = ["swift", "regrowth", "thick_hide"]
    traits = [trait_ids.index(t) for t in order] + [
        i for i, t in enumerate(trait_ids) if t not in order
    ]
    spec_ids = list(cat.specialties)
    specialties = [spec_ids.index("ace")] + [i for i, s in enumerate(spec_ids) if s != "ace"]
    sh = Shuffle(
        keys,
        np.array([0.5]),
        np.array([traits], np.int16),
        np.arange(len(cat.studies), dtype=np.int16)[None, :],
        np.array([specialties], np.int16),
    )
    return deck, sh


def test_a_game_traced_by_hand():
    """hand_size 2, market 2; seat 0 builder (fill 4, lesson 2, weakness 1, skill 1,
    power 1, threshold 1), seat 1 holdout (fill 2, threshold 4); Cinderwyrm: 3 rounds.
    Lesson: the body Forms sorted are beast, mechsuit x3, clockwork; quantile 0.5 ->
    position 2: mechsuit. Deal: seat 0 [legs-beast, head-mechsuit], seat 1
    [torso-mechsuit, legs-mechsuit], pile [head-clockwork]; market [A1 beast-1, A2
    mechsuit-sonic-2], pool [A3 mechsuit-melee-1].

    Round 1. Seat 0: legs-beast gains 4 + skill 1 = 5, head-mechsuit 4 + lesson 2 = 6:
    plays the Head; Arms into arm_1 (no combo): A1 4 + 1 = 5, A2 4 + 2 + 2 = 8: takes A2.
    Seat 1: torso-mechsuit 2 + 2 = 4, legs-mechsuit 4 (tie: earlier) -> the Torso (4 >=
    4). Arms into arm_2 against A2 (Power 2): A1 2 + 1 = 3 < 4: none. End: swift flips
    (Beast weak), the market refills [A1, A3], the pool is empty.
    Round 2. Seat 0 refills [legs-beast, head-clockwork] (the pile is now empty):
    legs-beast 4 + weak 1 + skill 1 = 6, head-clockwork over head-mechsuit 1 - 2 = -1:
    the Legs. Arms into arm_2: A1 4 + weak 1 + power 1 = 6, A3 4 + lesson 2 + 1 = 7:
    takes A3. Seat 1 (no card to refill): legs-mechsuit over legs-beast 2 - 2 = 0 < 4;
    Arms: A2 is worth 4, A3 3: A1 over A3 is 2 - 3 < 4: holds. End: regrowth (Melee).
    The mech has no gap and 4 mechsuit parts: a campaign group stops here (2 rounds).
    Round 3. Seat 0: head-clockwork (weak 1 + skill 1 = 2) over head-mechsuit (2): 0 <
    1; the Arms are worth 4 and 4 (A3: lesson 2 + weak 1 + 1): over arm_2, A1 2 - 4.
    Seat 1: legs-mechsuit (2 + weak 1 = 3) over legs-beast (2): 1 < 4; A1 2 - 4: holds.
    End: thick_hide flips. Locked: legs-beast, torso-mechsuit, head-mechsuit, A2, A3.
    Spares (2 a type): Legs [legs-mechsuit] (seat 1's hand), Torso none, Head
    [head-clockwork] (seat 0's hand), Arms [A1] (the market)."""
    cat = load_catalog(CATALOGS, overrides={"hand_size": 2, "market_size": 2})
    deck, sh = traced(cat)
    index = card_index(cat)
    slots = [index[c] for c in (BODY[0], BODY[2], BODY[1], ARMS[1], ARMS[2])]
    spares = [[index[BODY[3]], -1], [-1, -1], [index[BODY[4]], -1], [index[ARMS[0]], -1]]
    seats = ["builder", "holdout"]
    v = both(cat, deck, sh, ["cinderwyrm"], seats, "standalone")
    assert v.slots.tolist() == [slots]
    assert v.lesson.tolist() == [list(cat.forms).index("mechsuit")]
    assert (v.flips.tolist(), v.rounds.tolist(), v.body_seen.tolist()) == ([3], [3], [5])
    assert v.spares.tolist() == [spares]
    assert v.spent.tolist() == [[False, False]]
    assert v.battle_policy.tolist() == [list(cat.policies).index("steady")]
    # campaign: the same two rounds, then the early stop (Traits 3.. discarded); both
    # seats keep their Specialty for Battle: seat 0's Ace brings ace_finisher
    v = both(cat, deck, sh, ["cinderwyrm"], seats, "campaign")
    assert v.slots.tolist() == [slots]
    assert (v.flips.tolist(), v.rounds.tolist(), v.body_seen.tolist()) == ([2], [2], [5])
    assert v.spares.tolist() == [spares]
    assert v.battle_policy.tolist() == [list(cat.policies).index("ace_finisher")]


def test_the_ace_draws_two_more():
    """Campaign, no plays (body_plays 0, arm_takes 0): two seats draw 2 + 2 of the 5 body
    cards; the seeker (Assembly use) holding the Ace draws extra_draws 2 more on its first
    turn, but the pile has 1 left: body_seen 5, spent. The builder keeps its Specialty."""
    cat = load_catalog(
        CATALOGS, overrides={"hand_size": 2, "market_size": 2, "body_plays": 0, "arm_takes": 0}
    )
    deck, sh = traced(cat)
    v = both(cat, deck, sh, ["cinderwyrm"], ["seeker", "builder"], "campaign")
    assert v.body_seen.tolist() == [5] and v.spent.tolist() == [[True, False]]
    assert (v.slots == -1).all() and v.rounds.tolist() == [3]
    # the Ace's drawn card is the head-clockwork: seat 0's hand is 3 cards
    index = card_index(cat)
    assert v.spares[0, 2].tolist() == [index[BODY[1]], index[BODY[4]]]
