"""Mech Lab Partners Assembly, rule by rule, one game at a time (000 Assembly): the oracle
the vectorized Assembly (``game/vector/assembly.py``) must match game by game.

A game's randomness is all in its row of :class:`random_setup.Shuffle` (the piles' order, the
lesson, the Trait order, each seat's study and Specialty); the cadets play by their
``players.toml`` policies, so Assembly is deterministic given that row. :func:`play` sets
up game ``i`` (:func:`setup`), plays its rounds (:func:`play_round`: every seat's
:func:`turn`, then :func:`end_of_round`) and locks the mech as it stands (slots, then
:func:`spares` and :func:`battle_policy_of`).

The procedure (the lead's reading, catalogs/labpartners/ASSUMPTIONS.md "Assembly"):

- setup: the body pile (Legs, Torso, Head) and the Arms pool in key order (top first);
  each seat draws a whole hand of ``hand_size`` in seat order, then the market takes
  ``market_size`` Arms off the pool;
- a seat's turn: refill to ``hand_size`` only if it played a body card last turn; on its
  first turn (campaign) the Ace draws ``extra_draws`` more, the Tactician peeks at the next
  Trait, the Brawler gets one more Arm take; up to ``body_plays`` body plays and up to
  ``arm_takes`` Arm takes, each the best play by the seat's gain, made only when the gain
  reaches its threshold (:mod:`policy`);
- the end of the round: a Trait flips (its weakness revealed), the market refills, and in
  campaign mode the group stops once the mech has no gap and the lesson took.

Every value, gain, commit and study-progress decision is a :mod:`policy` call: one rule,
one place. Cards are full-spread indices (``catalog.cards`` order), -1 for none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sims.labpartners import policy
from sims.labpartners.catalog import PARTS, SLOTS, Card, Catalog, Deck, Player, Study, Trait
from sims.labpartners.game.locked_mech import Locked, check_request
from sims.labpartners.game.random_setup import Shuffle, deck_cards, lesson_form, pile
from sims.labpartners.params import Parameters

ARM_SLOTS = (SLOTS.index("arm_1"), SLOTS.index("arm_2"))  # 3, 4
BODY_SLOT = {part: SLOTS.index(part) for part in ("legs", "torso", "head")}


@dataclass
class Table:
    """One game's Assembly in progress (mutable: the oracle plays it step by step)."""

    cards: tuple[Card, ...]  # the full spread, catalog.cards order
    players: list[Player]  # per seat
    studies: list[Study]  # per seat: its Independent Study
    specialties: list[str]  # per seat: its Specialty id
    traits: list[Trait]  # the Trait deck in flip order
    countdown: int
    lesson: str  # the lesson Form id
    campaign: bool
    pile: list[int]  # body draw pile, top first
    pool: list[int]  # Arms pool, top first
    hands: list[list[int]] = field(default_factory=list)
    market: list[int] = field(default_factory=list)
    slots: list[int] = field(default_factory=lambda: [-1] * len(SLOTS))
    played: list[bool] = field(default_factory=list)  # a body play on the previous turn
    turns: list[int] = field(default_factory=list)  # turns each seat has taken
    spent: list[bool] = field(default_factory=list)  # Specialty spent in Assembly
    flips: int = 0
    weak_forms: set[str] = field(default_factory=set)  # revealed weaknesses (flips, peek)
    weak_types: set[str] = field(default_factory=set)
    rounds: int = 0
    body_seen: int = 0  # body cards that left the pile

    @property
    def seats(self) -> int:
        return len(self.players)


# -- setup --------------------------------------------------------------------------------


def setup(
    catalog: Catalog,
    deck: Deck,
    shuffle: Shuffle,
    i: int,
    kaiju: str,
    seats: Sequence[str],
    mode: str,
    lesson: int,
) -> Table:
    """Game ``i``'s table before round 1: the piles in key order, the hands dealt, the
    market laid out (Assembly: setup). ``lesson`` indexes ``catalog.forms``."""
    keys = shuffle.keys[i : i + 1]
    study_ids = list(catalog.studies)
    specialty_ids = list(catalog.specialties)
    trait_ids = list(catalog.traits)
    t = Table(
        cards=tuple(catalog.cards.values()),
        players=[catalog.players[s] for s in seats],
        studies=[catalog.studies[study_ids[shuffle.studies[i, k]]] for k in range(len(seats))],
        specialties=[specialty_ids[shuffle.specialties[i, k]] for k in range(len(seats))],
        traits=[catalog.traits[trait_ids[j]] for j in shuffle.traits[i]],
        countdown=catalog.kaiju[kaiju].countdown,
        lesson=list(catalog.forms)[lesson],
        campaign=mode == "campaign",
        pile=pile(keys, deck_cards(catalog, deck, "body"))[0].tolist(),
        pool=pile(keys, deck_cards(catalog, deck, "arms"))[0].tolist(),
    )
    t.played = [False] * t.seats  # hands start full: no refill before a first turn
    t.turns = [0] * t.seats
    t.spent = [False] * t.seats
    deal(t, catalog.params.hand_size)
    refill_market(t, catalog.params.market_size)
    return t


def draw(t: Table, hand: list[int], n: int) -> None:
    """Move up to ``n`` cards from the top of the body pile to the end of ``hand``."""
    drawn, t.pile = t.pile[:n], t.pile[n:]
    hand.extend(drawn)
    t.body_seen += len(drawn)


def deal(t: Table, hand_size: int) -> None:
    """Seat 0 draws a whole hand, then seat 1 ... (a short pile: later seats get fewer)."""
    t.hands = [[] for _ in range(t.seats)]
    for hand in t.hands:
        draw(t, hand, hand_size)


def refill_market(t: Table, market_size: int) -> None:
    """The market takes Arms off the top of the pool up to ``market_size`` (an empty pool:
    the market stays short; "the market is no longer refilled")."""
    n = max(market_size - len(t.market), 0)
    t.market.extend(t.pool[:n])
    t.pool = t.pool[n:]


# -- what a card is worth to a seat -------------------------------------------------------


def weak(t: Table, card: Card) -> int:
    """How many of the card's Form and Type are revealed weaknesses (flipped Traits and the
    Tactician's peek; the kaiju's own stat side stays hidden until Battle)."""
    return int(card.form in t.weak_forms) + int(card.type in t.weak_types)


def combo(t: Table, card: Card, slot: int) -> int:
    """1 if ``card`` (an Arm) in ``slot`` pairs with an Arm of its Power in the other Arm
    slot (Battle: "If both Arms share a Power tier they combo")."""
    if card.part != "arms":
        return 0
    other = t.slots[ARM_SLOTS[1] if slot == ARM_SLOTS[0] else ARM_SLOTS[0]]
    return int(other >= 0 and t.cards[other].power == card.power)


def value(t: Table, k: int, c: int, slot: int) -> int:
    """What seat ``k`` sees in card ``c`` in ``slot`` (policy.card_value; body cards have
    Power 0 and no combo)."""
    card = t.cards[c]
    study = t.studies[k]
    lesson = int(card.form == t.lesson)
    power = card.power if card.part == "arms" else 0
    combo_ = combo(t, card, slot)
    progress = policy.study_progress(
        policy.GOAL[study.goal],
        int(card.form == study.target),
        int(card.type == study.target),
        power,
        lesson,
        combo_,
    )
    skill = policy.skill(PARTS.index(card.part), card.form)
    return int(
        policy.card_value(t.players[k], lesson, weak(t, card), skill, power, combo_, progress)
    )


def slot_gain(t: Table, k: int, c: int, slot: int) -> int:
    """The gain of putting ``c`` into ``slot``: fill + value into an empty slot, value(new)
    - value(placed) over a placed card (policy.gain)."""
    placed = t.slots[slot]
    empty = int(placed < 0)
    placed_value = 0 if empty else value(t, k, placed, slot)
    return int(policy.gain(t.players[k], value(t, k, c, slot), placed_value, empty))


# -- a seat's turn -----------------------------------------------------------------------


def refill(t: Table, k: int, hand_size: int) -> None:
    """Turn step 1: "refill your hand back to 5 - but only if you played at least one body
    card on your previous turn" (an Ace's hand over hand_size draws nothing)."""
    if t.played[k]:
        draw(t, t.hands[k], max(hand_size - len(t.hands[k]), 0))
    t.played[k] = False


def assembly_use(t: Table, k: int, extra_draws: int) -> int:
    """Turn step 2 (campaign, a seat whose policy spends its Specialty in Assembly, on its
    first turn, when the use applies): returns the extra Arm takes this turn (Brawler: 1).
    Medic and Saboteur uses change nothing when every player sees the table: never spent."""
    if not t.campaign or t.players[k].specialty_use != "assembly" or t.spent[k]:
        return 0
    if t.turns[k] != 0:
        return 0
    specialty = t.specialties[k]
    if specialty == "ace" and t.pile:  # "Draw 2 extra body cards, keep any"
        draw(t, t.hands[k], extra_draws)
        t.spent[k] = True
    elif specialty == "tactician" and t.flips < min(t.countdown, len(t.traits)):
        reveal(t, t.traits[t.flips])  # "Peek at the next face-down Trait card"
        t.spent[k] = True
    elif specialty == "brawler":  # "Free extra Arm place/replace"
        t.spent[k] = True
        return 1
    return 0


def body_play(t: Table, k: int) -> bool:
    """Turn step 3, one body play: the best gain over the hand (ties: the earliest hand
    position), each card to the slot of its Part-Type; played when it reaches the seat's
    threshold (a replaced card is discarded, out of the game). False: the seat holds."""
    hand = t.hands[k]
    best, best_gain = -1, 0
    for h, c in enumerate(hand):
        g = slot_gain(t, k, c, BODY_SLOT[t.cards[c].part])
        if best < 0 or g > best_gain:
            best, best_gain = h, g
    if best < 0 or not policy.commits(t.players[k], best_gain):
        return False
    c = hand.pop(best)
    t.slots[BODY_SLOT[t.cards[c].part]] = c  # a replaced card leaves the game
    t.played[k] = True
    return True


def arm_target(t: Table, k: int) -> int:
    """The Arm slot a market Arm would go into: the first empty one (arm_1 before arm_2),
    else the one holding the placed Arm of lower value to seat ``k`` (tie: arm_2)."""
    for s in ARM_SLOTS:
        if t.slots[s] < 0:
            return s
    a1, a2 = (value(t, k, t.slots[s], s) for s in ARM_SLOTS)
    return ARM_SLOTS[0] if a1 < a2 else ARM_SLOTS[1]


def arm_take(t: Table, k: int) -> bool:
    """Turn step 4, one Arms take: the best gain over the market (ties: the earliest market
    position); taken when it reaches the threshold; a replaced Arm goes to the END of the
    market. False: the seat stops."""
    if not t.market:
        return False
    slot = arm_target(t, k)
    gains = [slot_gain(t, k, a, slot) for a in t.market]
    m = max(range(len(gains)), key=lambda j: (gains[j], -j))
    if not policy.commits(t.players[k], gains[m]):
        return False
    a = t.market.pop(m)
    if t.slots[slot] >= 0:
        t.market.append(t.slots[slot])
    t.slots[slot] = a
    return True


def turn(t: Table, k: int, p: Parameters) -> None:
    """Seat ``k``'s turn (refill, the Specialty's Assembly use, body plays, Arms takes);
    the market never refills the hand, only a body play does."""
    refill(t, k, p.hand_size)
    extra = assembly_use(t, k, p.extra_draws)
    for _ in range(p.body_plays):
        if not body_play(t, k):
            break
    for _ in range(p.arm_takes + extra):
        if not arm_take(t, k):
            break
    t.turns[k] += 1


# -- the end of a round ------------------------------------------------------------------


def reveal(t: Table, trait: Trait) -> None:
    """A Trait's weakness becomes known to the table (strengths are not used by players)."""
    if trait.weakness == "weak_form":
        t.weak_forms.add(trait.weakness_target)
    elif trait.weakness == "weak_type":
        t.weak_types.add(trait.weakness_target)


def flip(t: Table) -> None:
    """The countdown ticks: the next Trait flips (a Trait deck smaller than the countdown
    runs out: nothing more flips)."""
    if t.flips < len(t.traits):
        reveal(t, t.traits[t.flips])
        t.flips += 1


def lesson_count(t: Table) -> int:
    return sum(c >= 0 and t.cards[c].form == t.lesson for c in t.slots)


def done(t: Table, lesson_threshold: int) -> bool:
    """Campaign early stop: no gap, and the lesson took (>= lesson_threshold parts)."""
    return all(c >= 0 for c in t.slots) and lesson_count(t) >= lesson_threshold


def end_of_round(t: Table, p: Parameters) -> bool:
    """After every seat's turn, in order: a Trait flips, the market refills, and (campaign)
    the group stops early when done. True: Assembly ends now (remaining Traits are
    discarded unapplied: flips stays)."""
    flip(t)
    refill_market(t, p.market_size)
    return t.campaign and done(t, p.lesson_threshold)


def play_round(t: Table, p: Parameters) -> bool:
    """One Assembly round: every seat's turn in seat order, then the end of the round."""
    for k in range(t.seats):
        turn(t, k, p)
    t.rounds += 1
    return end_of_round(t, p)


# -- the lock ----------------------------------------------------------------------------


def spares(t: Table, per_part: int) -> list[list[int]]:
    """A rebuild's cards per Part-Type (PARTS order), at most ``per_part`` each: Legs,
    Torso, Head from the hands (seat order, hand order) then the pile from the top; Arms
    from the market (its order) then the pool from the top (DESIGN.md)."""
    out = []
    for part in PARTS:
        if part == "arms":
            cards = t.market + t.pool
        else:
            cards = [c for hand in t.hands for c in hand] + t.pile
            cards = [c for c in cards if t.cards[c].part == part]
        out.append(cards[:per_part])
    return out


def battle_policy_of(catalog: Catalog, t: Table, default: str) -> str:
    """The group's Battle policy: campaign: the first seat (seat order) that keeps its
    Specialty for Battle brings it, as the first policy of policies.toml with that
    Specialty; otherwise (standalone, no such seat or policy) ``default``
    (:func:`policy.battle_seat`, :func:`policy.specialty_policies`)."""
    k = policy.battle_seat(t.players)
    if not t.campaign or k < 0:
        return default
    specialty = list(catalog.specialties).index(t.specialties[k])
    return list(catalog.policies)[policy.specialty_policies(catalog, default)[specialty]]


def assemble(catalog: Catalog, t: Table) -> Table:
    """Play the table's rounds: countdown rounds, or fewer (campaign early stop)."""
    for _ in range(t.countdown):
        if play_round(t, catalog.params):
            break
    return t


# -- the whole batch ---------------------------------------------------------------------


def play(
    catalog: Catalog,
    deck: Deck,
    shuffle: Shuffle,
    kaiju: Sequence[str],
    seats: Sequence[str],
    mode: str = "standalone",
    battle_policy: str = "steady",
) -> Locked:
    """Play Assembly of game ``i`` of ``shuffle`` against ``kaiju[i]`` for every game, seat
    ``k`` played by player ``seats[k]`` (players.toml ids); lock every mech."""
    check_request(catalog, shuffle, kaiju, seats, mode, battle_policy)
    games = shuffle.games
    p = catalog.params
    lessons = lesson_form(catalog, deck, shuffle.lesson)
    policy_ids = list(catalog.policies)
    slots = np.full((games, len(SLOTS)), -1, np.int64)
    spare = np.full((games, len(PARTS), p.spares_per_part), -1, np.int64)
    flips, rounds, seen, group_policy = (np.zeros(games, np.int64) for _ in range(4))
    spent = np.zeros((games, len(seats)), bool)
    for i in range(games):
        t = setup(catalog, deck, shuffle, i, kaiju[i], seats, mode, int(lessons[i]))
        assemble(catalog, t)
        slots[i] = t.slots
        for part, cards in enumerate(spares(t, p.spares_per_part)):
            spare[i, part, : len(cards)] = cards
        flips[i], rounds[i], seen[i] = t.flips, t.rounds, t.body_seen
        spent[i] = t.spent
        group_policy[i] = policy_ids.index(battle_policy_of(catalog, t, battle_policy))
    return Locked(
        deck=deck.id,
        slots=slots,
        lesson=lessons.astype(np.int64),
        flips=flips,
        rounds=rounds,
        body_seen=seen,
        spares=spare,
        spent=spent,
        battle_policy=group_policy,
    )
