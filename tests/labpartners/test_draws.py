"""Lab Partners draw odds: values derived by hand, and brute force over every shuffle of
tiny decks (the code under test never checks itself)."""

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest

from sims.labpartners import draws

FORMS = ("beast", "mechsuit", "vehicle", "clockwork", "ghost_crystal")
TYPES = ("projectile", "energy", "melee", "magic", "sonic")


@dataclass(frozen=True)
class Card:
    """Stand-in for the catalog's Card: the same attributes, nothing imported."""

    id: str
    part: str
    form: str
    type: str
    power: int = 0


def full_spread() -> list[Card]:
    """The 150-card final deck: every Form x Type per body part, x Power 1..3 for Arms."""
    cards = [
        Card(f"{part}-{form}-{kind}", part, form, kind)
        for part in ("legs", "torso", "head")
        for form in FORMS
        for kind in TYPES
    ]
    cards += [
        Card(f"arms-{form}-{kind}-{power}", "arms", form, kind, power)
        for form in FORMS
        for kind in TYPES
        for power in (1, 2, 3)
    ]
    return cards


def tiny_deck() -> list[Card]:
    """6 body cards (beast only in legs and torso, vehicle in all three, mechsuit head) and
    3 Arms (one beast, two clockwork)."""
    return [
        Card("b-legs", "legs", "beast", "melee"),
        Card("b-torso", "torso", "beast", "sonic"),
        Card("m-head", "head", "mechsuit", "melee"),
        Card("v-legs", "legs", "vehicle", "energy"),
        Card("v-torso", "torso", "vehicle", "melee"),
        Card("v-head", "head", "vehicle", "energy"),
        Card("b-arm", "arms", "beast", "sonic", 1),
        Card("c-arm1", "arms", "clockwork", "magic", 2),
        Card("c-arm2", "arms", "clockwork", "magic", 2),
    ]


@pytest.fixture(scope="module")
def spread() -> dict[str, list[Card]]:
    return {"full": full_spread()}


def one(rows: list[dict], **keys) -> dict:
    found = [r for r in rows if all(r[k] == v for k, v in keys.items())]
    assert len(found) == 1, keys
    return found[0]


# ---- p_at_least_one -------------------------------------------------------------------------


def test_p_at_least_one_by_hand():
    assert draws.p_at_least_one(75, 15, 1) == Fraction(1, 5)  # 15/75
    # 1 - (60*59)/(75*74) = 1 - 3540/5550 = 2010/5550 = 67/185 (= 201/555)
    assert draws.p_at_least_one(75, 15, 2) == Fraction(67, 185)
    assert draws.p_at_least_one(75, 15, 61) == 1  # only 60 non-beast cards
    assert draws.p_at_least_one(5, 2, 2) == Fraction(7, 10)  # 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert draws.p_at_least_one(10, 0, 5) == 0
    assert draws.p_at_least_one(10, 10, 1) == 1
    assert draws.p_at_least_one(0, 0, 0) == 0
    assert isinstance(draws.p_at_least_one(75, 15, 2), Fraction)


@pytest.mark.parametrize("args", [(5, 6, 1), (5, -1, 1), (5, 2, 6), (5, 2, -1)])
def test_p_at_least_one_refuses_impossible_counts(args):
    with pytest.raises(ValueError):
        draws.p_at_least_one(*args)


# ---- draws_rows ----------------------------------------------------------------------------


def test_draws_rows_full_spread(spread):
    rows = draws.draws_rows(spread, FORMS, TYPES)
    assert len(rows) == 2 * 5 * 75  # 750
    assert list(rows[0]) == ["deck", "attribute", "value", "cards_seen", "p_at_least_one"]
    assert [(r["attribute"], r["value"]) for r in rows[::75]] == [
        *(("form", f) for f in FORMS),
        *(("type", t) for t in TYPES),
    ]
    assert [r["cards_seen"] for r in rows[:75]] == list(range(1, 76))
    # 15 body cards of every Form and every Type in a 75-card body pile
    for attribute, value in (("form", "beast"), ("type", "sonic")):
        series = {
            r["cards_seen"]: r["p_at_least_one"]
            for r in rows
            if r["attribute"] == attribute and r["value"] == value
        }
        assert series[1] == Fraction(1, 5)
        assert series[2] == Fraction(201, 555)
        assert series[60] < 1
        assert all(series[k] == 1 for k in range(61, 76))
    assert all(isinstance(r["p_at_least_one"], Fraction) for r in rows)


def test_draws_rows_shows_absent_values_as_zero():
    rows = draws.draws_rows({"tiny": tiny_deck()}, FORMS, TYPES)
    assert len(rows) == 2 * 5 * 6  # series for every value, 6 body cards
    for attribute, value in (
        ("form", "clockwork"),
        ("form", "ghost_crystal"),
        ("type", "projectile"),
        ("type", "magic"),
    ):
        # clockwork and magic exist only on Arms, which are not the body pile
        series = [r for r in rows if r["attribute"] == attribute and r["value"] == value]
        assert [r["cards_seen"] for r in series] == list(range(1, 7))
        assert all(r["p_at_least_one"] == 0 for r in series)


def test_draws_rows_keeps_deck_order():
    decks = {"z": tiny_deck(), "a": tiny_deck()[:3]}
    rows = draws.draws_rows(decks, FORMS, TYPES)
    assert [r["deck"] for r in rows] == ["z"] * 60 + ["a"] * 30


def test_draws_rows_match_every_shuffle():
    """Brute force: all 720 orders of the 6 body cards, counting those whose first k cards
    hold the value."""
    deck = tiny_deck()
    body = [c for c in deck if c.part != "arms"]
    orders = list(itertools.permutations(body))
    rows = draws.draws_rows({"tiny": deck}, FORMS, TYPES)
    for row in rows:
        k, attribute, value = row["cards_seen"], row["attribute"], row["value"]
        hits = sum(any(getattr(c, attribute) == value for c in order[:k]) for order in orders)
        assert row["p_at_least_one"] == Fraction(hits, len(orders)), row


# ---- lesson_rows ---------------------------------------------------------------------------


def beast(*parts: str) -> list[Card]:
    """A deck whose beast cards sit on ``parts``; vehicle fills the body pile out."""
    cards = [
        Card(f"b{i}", p, "beast", "melee", 1 if p == "arms" else 0) for i, p in enumerate(parts)
    ]
    cards += [Card(f"v-{p}", p, "vehicle", "sonic") for p in ("legs", "torso", "head")]
    return cards


@pytest.mark.parametrize(
    ("parts", "slots"),
    [
        (("legs", "arms", "arms"), 3),  # 1 legs + 2 arms slots
        (("legs", "torso"), 2),
        (("legs", "legs", "legs"), 1),  # three Legs still fill one slot
        (("arms", "arms", "arms", "arms"), 2),  # only two Arm slots
        (("legs", "arms", "arms", "arms", "arms"), 3),
        (("legs", "torso", "arms"), 3),
        (("legs", "torso", "head", "arms", "arms"), 5),
    ],
)
def test_can_take_counts_distinct_slots(parts, slots):
    deck = beast(*parts)
    assert draws.form_slots(deck, "beast") == slots
    assert draws.can_take(deck, "beast") is (slots >= 3)
    assert draws.can_take(deck, "beast", threshold=2) is (slots >= 2)
    assert draws.can_take(deck, "beast") == brute_can_take(deck, "beast", 3)


def brute_can_take(deck: list[Card], form: str, threshold: int) -> bool:
    """Every mech the deck can build (each slot filled or a gap): does one hold
    ``threshold`` parts of ``form``?"""
    by_part = {p: [None, *(c for c in deck if c.part == p)] for p in ("legs", "torso", "head")}
    arms = [c for c in deck if c.part == "arms"]
    arm_pairs = [pair for n in range(3) for pair in itertools.combinations(arms, n)]
    for legs, torso, head in itertools.product(*by_part.values()):
        for pair in arm_pairs:
            parts = [c for c in (legs, torso, head, *pair) if c is not None]
            if sum(c.form == form for c in parts) >= threshold:
                return True
    return False


def test_lesson_rows_tiny_deck():
    rows = draws.lesson_rows({"tiny": tiny_deck()}, FORMS)
    assert len(rows) == 6
    assert list(rows[0]) == ["deck", "form", "p_lesson", "can_take", "p_lesson_can_take"]
    # body pile: beast 2, mechsuit 1, vehicle 3 of 6 cards
    # beast: legs + torso + 1 arm = 3 slots; vehicle: 3 body slots; mechsuit: head only;
    # clockwork: 2 arms only; ghost_crystal: none
    expected = {
        "beast": (Fraction(1, 3), 1),
        "mechsuit": (Fraction(1, 6), 0),
        "vehicle": (Fraction(1, 2), 1),
        "clockwork": (Fraction(0), 0),
        "ghost_crystal": (Fraction(0), 0),
    }
    for form, (p, takes) in expected.items():
        row = one(rows, form=form)
        assert (row["p_lesson"], row["can_take"], row["p_lesson_can_take"]) == (p, takes, p * takes)
        assert bool(row["can_take"]) == brute_can_take(tiny_deck(), form, 3)
    anyrow = rows[-1]
    assert anyrow["form"] == "any"
    # 1/3 + 1/2 = 5/6; two forms (beast, vehicle) can take
    assert (anyrow["p_lesson"], anyrow["can_take"], anyrow["p_lesson_can_take"]) == (
        1,
        2,
        Fraction(5, 6),
    )


def test_lesson_rows_full_spread(spread):
    rows = draws.lesson_rows(spread, FORMS)
    assert [r["form"] for r in rows] == [*FORMS, "any"]
    for row in rows[:-1]:
        assert row["p_lesson"] == Fraction(15, 75) == Fraction(1, 5)
        assert row["can_take"] == 1
    assert rows[-1]["can_take"] == 5
    assert rows[-1]["p_lesson_can_take"] == 1
    # every Form can fill all five slots, so even threshold 5 takes
    assert draws.lesson_rows(spread, FORMS, threshold=5)[-1]["p_lesson_can_take"] == 1


def test_lesson_form_odds_refuses_unlisted_forms_and_empty_body():
    with pytest.raises(ValueError, match="clockwork"):
        draws.lesson_form_odds([Card("c", "legs", "clockwork", "magic")], ("beast",))
    with pytest.raises(ValueError, match="no body cards"):
        draws.lesson_form_odds([Card("a", "arms", "beast", "magic", 1)], FORMS)


def test_unknown_part_is_refused():
    with pytest.raises(ValueError, match="wings"):
        draws.body_pile([Card("w", "wings", "beast", "magic")])


# ---- combo_rows ----------------------------------------------------------------------------


def test_combo_rows_full_spread(spread):
    rows = draws.combo_rows(spread)
    assert len(rows) == 75
    assert list(rows[0]) == ["deck", "arms_seen", "p_combo"]
    p = {r["arms_seen"]: r["p_combo"] for r in rows}
    assert p[1] == 0
    # 25 Arms per tier: the second arm matches the first in 24 of the other 74
    assert p[2] == Fraction(24, 74) == Fraction(12, 37)
    # no pair in 3: (50/74) * (25/73) = 1250/5402 = 625/2701, so 2076/2701
    assert p[3] == Fraction(2076, 2701)
    assert all(p[k] == 1 for k in range(4, 76))  # 4 arms, 3 tiers: pigeonhole


def arms(*powers: int) -> list[Card]:
    return [Card(f"a{i}", "arms", "beast", "melee", pw) for i, pw in enumerate(powers)]


@pytest.mark.parametrize(
    ("powers", "tiers"),
    [
        ((1, 1, 2, 3, 3, 3, 2), (1, 2, 3)),
        ((1, 2, 3, 1, 2), (1, 2, 3)),
        ((1, 1, 2, 3, 3, 3, 2), (1, 2)),  # Power 3 Arms drawn but never pair
        ((2, 2, 2), (1, 2, 3)),
    ],
)
def test_combo_rows_match_every_shuffle(powers, tiers):
    deck = arms(*powers)
    orders = list(itertools.permutations(deck))
    rows = draws.combo_rows({"d": deck}, tiers)
    assert [r["arms_seen"] for r in rows] == list(range(1, len(powers) + 1))
    for row in rows:
        k = row["arms_seen"]
        hits = sum(
            any(n >= 2 for t, n in Counter(c.power for c in order[:k]).items() if t in tiers)
            for order in orders
        )
        assert row["p_combo"] == Fraction(hits, len(orders)), row


def test_combo_rows_ignore_body_cards_and_refuse_repeated_tiers():
    # 3 Arms: powers 1, 2, 2 -> two drawn share a tier only as the 2-2 pair, 1 of C(3,2)=3
    assert draws.combo_rows({"tiny": tiny_deck()})[1]["p_combo"] == Fraction(1, 3)
    with pytest.raises(ValueError):
        draws.combo_rows({"tiny": tiny_deck()}, (1, 1, 2))
