"""Lab Partners Assembly played for a whole batch of games at once (000 Assembly): the
same games as ``game.reference.assembly.play``, card for card.

Assembly is deterministic given a row of the
:class:`~sims.labpartners.game.random_setup.Shuffle`
(the players play by their policies), so every game of the batch moves in lock step:
the loops run over rounds, seats and the plays of a turn, each step a few array
operations over the G games. Games lie along the LAST axis (a hand is [H, G]), so a
row of a hand is contiguous and "the best play" is a max over a few rows. The state:

- the body pile ``body[:, g]`` (the deck's Legs, Torso and Head in key order, top
  first, then one -1 row: reading past the end gives no card) and ``top[g]``, the next
  card's row; the Arms pool ``arms`` and ``apos`` alike;
- each seat's hand ``hands[k][:, g]`` (cards packed to the top, -1 below, so hand order
  is row order) and ``count[k][g]``;
- the market ``market[:, g]`` as a packed list of ``mcount[g]`` Arms (taking one
  shifts the rest up; a replaced Arm goes to the end);
- the mech ``slots[:, g]`` (SLOTS order, -1 a gap), ``played[k][g]``, ``flips[g]`` and
  the revealed weaknesses as a bit mask per game (Form f: bit f, Type t: bit F + t).

The round's steps are functions of the batch's :class:`Setup` (what Assembly reads and
never changes) and its :class:`Table` (the state above, arrays changed in place), in the
order of the rules: :func:`refill`, :func:`assembly_use`, :func:`body_plays`,
:func:`arm_takes`, then :func:`end_of_round`; the lock takes ``spares.py``'s spares
and :func:`battle_policies`.

Cards are full-spread indices (``catalog.cards`` order). What the players look at
(Form, Type, Part-Type, Power, skill bucket) is packed into one small int per card
(``cards.py``). A game whose countdown has run out (or that stopped early) keeps
computing but commits nothing.

The players' values are ``policy.py``'s formulas called on the arrays (one rule, one
place). A body card's Power and combo are 0 (catalog: body cards have Power 0), an Arm's
skill is 0 (``policy.skill`` of the Arms), and a player whose ``study`` weight is 0
does not need its study term: those are passed as 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sims.labpartners import policy, rules
from sims.labpartners.catalog import Catalog, Deck
from sims.labpartners.game.locked_mech import Locked, check_request
from sims.labpartners.game.random_setup import Shuffle, deck_cards, lesson_form
from sims.labpartners.game.random_setup import pile as shuffle_pile
from sims.labpartners.game.vector.cards import DT, Cards, Seat, card_values, cards_of
from sims.labpartners.game.vector.spares import spares
from sims.labpartners.params import Parameters

ARM_1, ARM_2 = 3, 4  # SLOTS indices of the Arm slots
BODY_SLOTS = 3  # legs, torso, head: a body card's Part-Type index is its slot
NONE = -(2**14)  # the gain of no play: below every threshold (players.toml's -20..40)


def _pile(keys: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """int16[len(cards) + 1, G]: each game's pile of ``cards`` (``random_setup.pile``), games
    along the last axis, then a row of -1."""
    out = np.full((len(cards) + 1, len(keys)), -1, DT)
    out[: len(cards)] = shuffle_pile(keys, cards).T
    return out


def _best(gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The best gain of each game over the rows of ``gain`` [W, G] and its FIRST row."""
    best = gain.max(axis=0)
    rank = np.arange(len(gain), 0, -1, dtype=DT)[:, None]  # first row ranks highest
    return best, (len(gain) - ((gain == best) * rank).max(axis=0)).astype(np.intp)


def _pick(rows: np.ndarray, at: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """rows[at[g], g] for every game g."""
    return np.take(rows.reshape(-1), at * rows.shape[1] + cols)


def _drop(rows: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Rows [W, G] with game g's entry at row ``at[g]`` taken out (``at`` = W: none),
    those below it moved up one and -1 at the bottom."""
    up = np.concatenate([rows[1:], np.full((1, rows.shape[1]), -1, rows.dtype)])
    keep = np.arange(len(rows), dtype=DT)[:, None] < at
    return up + (rows - up) * keep


def _draw(
    hand: np.ndarray,
    count: np.ndarray,
    n: np.ndarray,
    pile: np.ndarray,
    top: np.ndarray,
    cols: np.ndarray,
) -> None:
    """Game g moves ``n[g]`` cards from the top of ``pile`` to the end of ``hand`` (in
    place; the caller advances ``count`` and ``top``)."""
    flat, G = hand.reshape(-1), hand.shape[1]
    for d in range(int(n.max(initial=0))):
        g = cols[n > d]
        flat[(count[g].astype(np.intp) + d) * G + g] = pile[top[g] + d, g]


@dataclass(frozen=True)
class Setup:
    """What a batch's Assembly reads and never changes (games along the last axis)."""

    p: Parameters
    campaign: bool
    cards: Cards
    seats: list[Seat]  # per seat: its player and Independent Study
    body: np.ndarray  # int16[B + 1, G] the body pile in key order, then a -1 row
    arms: np.ndarray  # int16[A + 1, G] the Arms pool alike
    lesson: np.ndarray  # int16[G] the lesson Form
    countdown: np.ndarray  # int64[G] the kaiju's countdown
    specialty: np.ndarray  # int16[G, seats] each seat's Specialty (catalog order)
    trait_bit: np.ndarray  # [Traits] a Trait's weakness as a revealed bit (Form f: bit f,
    # Type t: bit F + t)
    traits: np.ndarray  # intp[G, T] each game's Trait order
    uses: list[bool]  # per seat: it spends its Specialty in Assembly (campaign)
    ace: int  # the Specialties' indices (-1: not in the catalog)
    tactician: int
    brawler: int
    hand_rows: int  # a hand's rows: hand_size, + extra_draws when an Ace may draw
    cols: np.ndarray  # intp[G] 0..G-1

    @property
    def body_cards(self) -> int:  # B
        return len(self.body) - 1

    @property
    def arm_cards(self) -> int:  # A
        return len(self.arms) - 1

    @property
    def market_size(self) -> int:  # M
        return self.p.market_size


@dataclass(frozen=True)
class Table:
    """A batch's Assembly in progress (module docstring): the fields never change, their
    arrays change in place (``t.top[:] += n``)."""

    hands: list[np.ndarray]  # per seat int16[H, G], packed to the top, -1 below
    count: list[np.ndarray]  # per seat int16[G] cards in hand
    top: np.ndarray  # int16[G] the body pile's next row
    market: np.ndarray  # int16[M, G] packed, ``mcount`` Arms
    mcount: np.ndarray  # int16[G]
    apos: np.ndarray  # int16[G] the Arms pool's next row
    slots: np.ndarray  # int16[5, G] SLOTS order, -1 a gap
    played: list[np.ndarray]  # per seat bool[G]: a body play on its previous turn
    flips: np.ndarray  # int64[G]
    revealed: np.ndarray  # [G] the revealed weaknesses as bits
    spent: np.ndarray  # bool[G, seats]
    rounds: np.ndarray  # int64[G]
    stopped: np.ndarray  # bool[G] campaign early stop


def setup(
    catalog: Catalog,
    deck: Deck,
    shuffle: Shuffle,
    kaiju: Sequence[str],
    seats: Sequence[str],
    mode: str,
) -> Setup:
    """Setup (Assembly): piles in key order, the lesson, studies and Specialties."""
    G = shuffle.games
    p = catalog.params
    campaign = mode == "campaign"
    P = len(seats)
    body = _pile(shuffle.keys, deck_cards(catalog, deck, "body"))
    arms = _pile(shuffle.keys, deck_cards(catalog, deck, "arms"))
    lesson = lesson_form(catalog, deck, shuffle.lesson).astype(DT)
    countdown = np.zeros(G, np.int64)
    named = np.asarray(kaiju)
    for kid, kj in catalog.kaiju.items():
        countdown[named == kid] = kj.countdown
    if unknown := set(np.unique(named)) - set(catalog.kaiju):
        raise KeyError(f"unknown kaiju {sorted(unknown)[0]!r}")
    seat = [Seat(catalog, catalog.players[s], shuffle.studies[:, k]) for k, s in enumerate(seats)]
    spec_ids = list(catalog.specialties)
    # the Traits' weaknesses as revealed bits (strengths are not used by players)
    forms, types = list(catalog.forms), list(catalog.types)
    mask_type = np.int16 if len(forms) + len(types) < 15 else np.int64
    trait_bit = np.zeros(len(catalog.traits), mask_type)
    for i, t in enumerate(catalog.traits.values()):
        if t.weakness == "weak_form":
            trait_bit[i] = 1 << forms.index(t.weakness_target)
        elif t.weakness == "weak_type":
            trait_bit[i] = 1 << (len(forms) + types.index(t.weakness_target))
    uses = [campaign and catalog.players[s].specialty_use == "assembly" for s in seats]
    ace, tactician, brawler = (
        spec_ids.index(s) if s in spec_ids else -1 for s in ("ace", "tactician", "brawler")
    )
    return Setup(
        p=p,
        campaign=campaign,
        cards=cards_of(catalog),
        seats=seat,
        body=body,
        arms=arms,
        lesson=lesson,
        countdown=countdown,
        specialty=shuffle.specialties[:, :P],
        trait_bit=trait_bit,
        traits=shuffle.traits.astype(np.intp),
        uses=uses,
        ace=ace,
        tactician=tactician,
        brawler=brawler,
        hand_rows=p.hand_size + (p.extra_draws if any(uses) and ace >= 0 else 0),
        cols=np.arange(G),
    )


def deal(s: Setup) -> Table:
    """The deal: seat 0's whole hand, then seat 1's ... (every game's pile is as long),
    then the market laid out."""
    p, G, P = s.p, len(s.cols), len(s.seats)
    B, A, M = s.body_cards, s.arm_cards, s.market_size
    hands, count = [], []
    for k in range(P):
        start = min(k * p.hand_size, B)
        n = min(p.hand_size, B - start)
        hand = np.full((s.hand_rows, G), -1, DT)
        hand[:n] = s.body[start : start + n]
        hands.append(hand)
        count.append(np.full(G, n, DT))
    market = np.full((M, G), -1, DT)
    market[: min(M, A)] = s.arms[: min(M, A)]
    mcount = np.full(G, min(M, A), DT)
    return Table(
        hands=hands,
        count=count,
        top=np.full(G, min(P * p.hand_size, B), DT),
        market=market,
        mcount=mcount,
        apos=mcount.copy(),
        slots=np.full((5, G), -1, DT),
        played=[np.zeros(G, bool) for _ in range(P)],
        flips=np.zeros(G, np.int64),
        revealed=np.zeros(G, s.trait_bit.dtype),
        spent=np.zeros((G, P), bool),
        rounds=np.zeros(G, np.int64),
        stopped=np.zeros(G, bool),
    )


def refill(s: Setup, t: Table, k: int, active: np.ndarray) -> None:
    """Turn step 1: refill to hand_size, only after a body play on the previous turn."""
    B = s.body_cards
    n = np.where(t.played[k] & active, s.p.hand_size - t.count[k], 0)
    n = np.minimum(np.maximum(n, 0), B - t.top).astype(DT)
    _draw(t.hands[k], t.count[k], n, s.body, t.top, s.cols)
    t.count[k] += n
    t.top[:] += n
    t.played[k] &= ~active


def assembly_use(s: Setup, t: Table, k: int, active: np.ndarray) -> np.ndarray | int:
    """Turn step 2: the Specialty's Assembly use, on the seat's first turn (campaign).
    Returns the seat's Arm takes this turn (the Brawler's one more)."""
    p, cols, hand = s.p, s.cols, t.hands[k]
    B, T = s.body_cards, s.traits.shape[1]
    takes = p.arm_takes
    held = s.specialty[:, k]
    if s.ace >= 0:  # draw extra_draws more, keep any (pile not empty)
        use = active & (held == s.ace) & (t.top < B)
        n = np.where(use, np.minimum(p.extra_draws, B - t.top), 0).astype(DT)
        _draw(hand, t.count[k], n, s.body, t.top, cols)
        t.count[k] += n
        t.top[:] += n
        t.spent[:, k] |= use
    if s.tactician >= 0:  # peek at the next face-down Trait: its weakness is known
        use = active & (held == s.tactician) & (t.flips < s.countdown) & (t.flips < T)
        peek = s.trait_bit[s.traits[cols, np.minimum(t.flips, T - 1)]]
        t.revealed[:] |= peek * use
        t.spent[:, k] |= use
    if s.brawler >= 0:  # one more Arm take this turn
        use = active & (held == s.brawler)
        takes = p.arm_takes + use
        t.spent[:, k] |= use
    return takes


def body_plays(s: Setup, t: Table, k: int, active: np.ndarray) -> None:
    """Turn step 3, body plays: the best gain over the hand (ties: the earliest card),
    each card to its Part-Type's slot; gain = fill + value, or value - placed value."""
    cards, seat, hand, slots, cols = s.cards, s.seats[k], t.hands[k], t.slots, s.cols
    pl, G = seat.player, len(cols)
    zeros, no = np.zeros((1, G), DT), np.zeros((1, G), bool)
    for _ in range(s.p.body_plays):
        a = cards.of(hand)
        part = cards.part(a)
        both = np.concatenate([a, cards.of(slots[:BODY_SLOTS])])
        value = card_values(cards, seat, both, s.lesson, t.revealed, 0, True)
        # each card's slot (a row past the body slots for the blank: masked below)
        at_slot = np.minimum(part, BODY_SLOTS).astype(np.intp) * G + cols
        placed = np.take(np.concatenate([value[len(hand) :], zeros]), at_slot)
        empty = np.take(np.concatenate([slots[:BODY_SLOTS] < 0, no]).astype(DT), at_slot)
        gain = policy.gain(pl, value[: len(hand)], placed, empty)
        gain = gain + (hand < 0) * DT(NONE)
        best, at = _best(gain)
        go = policy.commits(pl, best) & active
        if not go.any():
            break  # (a seat that holds would hold again: nothing changed)
        card, kind = _pick(hand, at, cols), _pick(part, at, cols)
        for slot in range(BODY_SLOTS):  # a replaced card is discarded
            slots[slot] = np.where(go & (kind == slot), card, slots[slot])
        hand[:] = _drop(hand, np.where(go, at, len(hand)))
        t.count[k] -= go
        t.played[k] |= go


def arm_takes(s: Setup, t: Table, k: int, active: np.ndarray, takes: np.ndarray | int) -> None:
    """Turn step 4, Arms takes: into the first empty Arm slot, else over the placed Arm of
    lower value (tie: arm_2); the combo is against the other Arm slot. A replaced Arm goes
    to the end of the market."""
    cards, seat, slots, market, cols = s.cards, s.seats[k], t.slots, t.market, s.cols
    pl, M = seat.player, s.market_size
    market_rows = np.arange(M, dtype=DT)[:, None]
    for take in range(int(np.max(takes)) if M else 0):
        a1, a2 = slots[ARM_1], slots[ARM_2]
        arm = cards.of(slots[ARM_1:])
        power = cards.power(arm)
        now = (power[0] == power[1]) & (a1 >= 0) & (a2 >= 0)
        v1, v2 = card_values(cards, seat, arm, s.lesson, t.revealed, now.astype(DT), False)
        first = (a1 < 0) | ((a2 >= 0) & (v1 < v2))
        empty = (a1 < 0) | (a2 < 0)
        other = np.where(first, a2, a1)
        placed = np.where(first, v1, v2)
        offer = cards.of(market)
        combo = ((cards.power(offer) == np.where(first, power[1], power[0])) & (other >= 0)).astype(
            DT
        )
        value = card_values(cards, seat, offer, s.lesson, t.revealed, combo, False)
        gain = policy.gain(pl, value, placed, empty.astype(DT))
        gain = gain + (market_rows >= t.mcount) * DT(NONE)
        best, at = _best(gain)
        go = policy.commits(pl, best) & active & (take < takes)
        if not go.any():
            break
        card = _pick(market, at, cols)
        old = np.where(first, a1, a2)
        slots[ARM_1] = np.where(go & first, card, a1)
        slots[ARM_2] = np.where(go & ~first, card, a2)
        market[:] = _drop(market, np.where(go, at, M))
        g = cols[go & (old >= 0)]  # a replaced Arm goes to the end of the market
        market[t.mcount[g] - 1, g] = old[g]
        t.mcount[:] -= go & (old < 0)


def end_of_round(s: Setup, t: Table, active: np.ndarray) -> None:
    """After every seat's turn, in order: a Trait flips, the market refills, and
    (campaign) the group stops once the mech has no gap and the lesson took."""
    cols, T, M = s.cols, s.traits.shape[1], s.market_size
    # (i) a Trait flips and its weakness is revealed
    flip = active & (t.flips < T)
    t.revealed[:] |= s.trait_bit[s.traits[cols, np.minimum(t.flips, T - 1)]] * flip
    t.flips[:] += flip  # a Trait deck smaller than the countdown runs out
    # (ii) the market refills from the Arms pool
    if M:
        n = np.where(active, np.minimum(M - t.mcount, s.arm_cards - t.apos), 0).astype(DT)
        _draw(t.market, t.mcount, n, s.arms, t.apos, cols)
        t.mcount[:] += n
        t.apos[:] += n
    # (iii) campaign: stop once the mech has no gap and the lesson took
    if s.campaign:
        matches = (s.cards.form(s.cards.of(t.slots)) == s.lesson).sum(axis=0)
        t.stopped[:] |= active & (t.slots >= 0).all(axis=0) & rules.lesson_took(matches, s.p)


def play(
    catalog: Catalog,
    deck: Deck,
    shuffle: Shuffle,
    kaiju: Sequence[str],
    seats: Sequence[str],
    mode: str = "standalone",
    battle_policy: str = "steady",
) -> Locked:
    """Assembly of every game of ``shuffle`` with ``deck``: game g against ``kaiju[g]``,
    seat k played by ``seats[k]`` (a players.toml id). Returns the locked mechs."""
    check_request(catalog, shuffle, kaiju, seats, mode, battle_policy)
    s = setup(catalog, deck, shuffle, kaiju, seats, mode)
    t = deal(s)
    for r in range(1, int(s.countdown.max(initial=0)) + 1):
        active = (r <= s.countdown) & ~t.stopped
        if not active.any():
            break
        t.rounds[active] = r
        for k in range(len(seats)):
            refill(s, t, k, active)
            takes = assembly_use(s, t, k, active) if s.uses[k] and r == 1 else s.p.arm_takes
            body_plays(s, t, k, active)
            arm_takes(s, t, k, active, takes)
        end_of_round(s, t, active)
    return Locked(
        deck=deck.id,
        slots=t.slots.T.astype(np.int64),
        lesson=s.lesson.astype(np.int64),
        flips=t.flips,
        rounds=t.rounds,
        body_seen=t.top.astype(np.int64),
        spares=spares(
            s.cards, s.p.spares_per_part, t.hands, s.body, t.top, t.market, s.arms, t.apos
        ),
        spent=t.spent,
        battle_policy=battle_policies(catalog, seats, s.specialty, s.campaign, battle_policy),
    )


def battle_policies(
    catalog: Catalog, seats: Sequence[str], specialty: np.ndarray, campaign: bool, standalone: str
) -> np.ndarray:
    """The group's Battle policy: standalone, the experiment's; campaign, the first
    policy (policies.toml order) with the Specialty of the first seat that keeps its
    Specialty for the Battle (none: the standalone one; :func:`policy.battle_seat`,
    :func:`policy.specialty_policies`)."""
    k = policy.battle_seat([catalog.players[s] for s in seats])
    if not campaign or k < 0:
        return np.full(len(specialty), list(catalog.policies).index(standalone), np.int64)
    return np.array(policy.specialty_policies(catalog, standalone), np.int64)[specialty[:, k]]
