"""Lab Partners Assembly played for a whole batch of games at once (000 Assembly,
/tmp/lp_assembly_spec.md): the same games as ``assembly_reference.play``, card for card.

Assembly is deterministic given a row of the :class:`~sims.labpartners.shuffle.Shuffle`
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

Cards are full-spread indices (``catalog.cards`` order). What the players look at
(Form, Type, Part-Type, Power, skill bucket) is packed into one small int per card, read
with one lookup (index -1, no card, reads a blank whose fields match nothing). A game
whose countdown has run out (or that stopped early) keeps computing but commits nothing.

The players' values are ``players.py``'s formulas called on the arrays (one rule, one
place). A body card's Power and combo are 0 (catalog: body cards have Power 0), an Arm's
skill is 0 (``players.skill`` of the Arms), and a player whose ``study`` weight is 0
does not need its study term: those are passed as 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.labpartners import players, rules
from sims.labpartners.catalog import PARTS, Catalog, Deck, Player
from sims.labpartners.lock import Locked, check_request
from sims.labpartners.shuffle import Shuffle, deck_cards, lesson_form
from sims.labpartners.shuffle import pile as shuffle_pile

ARMS = PARTS.index("arms")
ARM_1, ARM_2 = 3, 4  # SLOTS indices of the Arm slots
BODY_SLOTS = 3  # legs, torso, head: a body card's Part-Type index is its slot
NONE = -(2**14)  # the gain of no play: below every threshold (players.toml's -20..40)
DT = np.int16  # cards, counts and values all fit (values are at most a few hundred)


def _bits(n: int) -> int:
    """Bits for the values 0..n-1 whose all-ones pattern (the blank) is none of them."""
    return max(n.bit_length(), 1)


class _Cards:
    """The full spread's attributes packed in one int16 per card (and the blank)."""

    def __init__(self, catalog: Catalog) -> None:
        forms, types = list(catalog.forms), list(catalog.types)
        cards = list(catalog.cards.values())
        widths = (
            _bits(len(forms)),
            _bits(len(types)),
            _bits(len(PARTS)),
            _bits(catalog.params.power_tiers + 1),
            1,
        )
        if sum(widths) > 15:
            raise ValueError("too many Forms, Types or Power tiers to pack a card in 15 bits")
        shifts = np.cumsum((0,) + widths[:-1])
        self.masks = tuple((1 << w) - 1 for w in widths)
        self.form_s, self.type_s, self.part_s, self.power_s, self.skill_s = map(int, shifts)
        self.forms = len(forms)
        packed = []
        for c in cards:
            part = PARTS.index(c.part)
            fields = (
                forms.index(c.form),
                types.index(c.type),
                part,
                c.power,
                int(players.skill(part, c.form)),
            )
            packed.append(sum(int(v) << int(s) for v, s in zip(fields, shifts, strict=True)))
        self.attr = np.array(packed + [(1 << sum(widths)) - 1], DT)  # the blank: all ones

    def of(self, c: np.ndarray) -> np.ndarray:
        return np.take(self.attr, c)

    def form(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.form_s) & self.masks[0]

    def type(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.type_s) & self.masks[1]

    def part(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.part_s) & self.masks[2]

    def power(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.power_s) & self.masks[3]

    def skill(self, a: np.ndarray) -> np.ndarray:
        return (a >> self.skill_s) & 1


_CARDS: dict[int, tuple[Catalog, _Cards]] = {}


def _cards(catalog: Catalog) -> _Cards:
    """The catalog's :class:`_Cards`, made once (the catalog is kept so its id stays its)."""
    got = _CARDS.get(id(catalog))
    if got is None or got[0] is not catalog:
        if len(_CARDS) > 16:
            _CARDS.clear()
        got = _CARDS[id(catalog)] = (catalog, _Cards(catalog))
    return got[1]


class _Seat:
    """One seat's policy and, per game, its Independent Study's goal and target."""

    def __init__(self, catalog: Catalog, player: Player, studies: np.ndarray) -> None:
        forms, types = list(catalog.forms), list(catalog.types)
        table = list(catalog.studies.values())
        goal = np.array([players.GOAL[s.goal] for s in table], DT)
        # a target that is not a Form (Type) matches no card: -2 is no index, nor the blank
        tform = np.array(
            [forms.index(s.target) if s.goal == "form_count" else -2 for s in table], DT
        )
        ttype = np.array(
            [types.index(s.target) if s.goal == "type_count" else -2 for s in table], DT
        )
        self.player = player
        self.goal, self.tform, self.ttype = goal[studies], tform[studies], ttype[studies]


def _pile(keys: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """int16[len(cards) + 1, G]: each game's pile of ``cards`` (``shuffle.pile``), games
    along the last axis, then a row of -1."""
    out = np.full((len(cards) + 1, len(keys)), -1, DT)
    out[: len(cards)] = shuffle_pile(keys, cards).T
    return out


def _value(
    cards: _Cards,
    seat: _Seat,
    a: np.ndarray,
    lesson: np.ndarray,
    revealed: np.ndarray,
    combo,
    body: bool,
) -> np.ndarray:
    """What the seat's player sees in the cards of attributes ``a`` [W, G]
    (players.card_value): the lesson, revealed weaknesses of its Form and Type, the skill
    bucket (body) or Power and combo (Arms), and the player's own study."""
    p = seat.player
    form, type_ = cards.form(a), cards.type(a)
    lesson_ = (form == lesson).astype(DT)
    weak = ((revealed >> form) & 1) + ((revealed >> (type_ + cards.forms)) & 1)
    skill = cards.skill(a) if body else 0
    power = 0 if body else cards.power(a)
    study = 0
    if p.study:
        study = players.study_progress(
            seat.goal,
            (form == seat.tform).astype(DT),
            (type_ == seat.ttype).astype(DT),
            power,
            lesson_,
            combo,
        )
    return players.card_value(p, lesson_, weak, skill, power, combo, study)


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
    G = shuffle.games
    p = catalog.params
    campaign = mode == "campaign"
    cards = _cards(catalog)
    P = len(seats)
    cols = np.arange(G)

    # -- setup (Assembly): piles in key order, the lesson, studies and Specialties
    body = _pile(shuffle.keys, deck_cards(catalog, deck, "body"))
    arms = _pile(shuffle.keys, deck_cards(catalog, deck, "arms"))
    B, A = len(body) - 1, len(arms) - 1
    lesson = lesson_form(catalog, deck, shuffle.lesson).astype(DT)
    countdown = np.zeros(G, np.int64)
    named = np.asarray(kaiju)
    for kid, kj in catalog.kaiju.items():
        countdown[named == kid] = kj.countdown
    if unknown := set(np.unique(named)) - set(catalog.kaiju):
        raise KeyError(f"unknown kaiju {sorted(unknown)[0]!r}")
    seat = [_Seat(catalog, catalog.players[s], shuffle.studies[:, k]) for k, s in enumerate(seats)]
    spec_ids = list(catalog.specialties)
    specialty = shuffle.specialties[:, :P]
    # the Traits' weaknesses as revealed bits (strengths are not used by players)
    forms, types = list(catalog.forms), list(catalog.types)
    mask_type = np.int16 if len(forms) + len(types) < 15 else np.int64
    trait_bit = np.zeros(len(catalog.traits), mask_type)
    for i, t in enumerate(catalog.traits.values()):
        if t.weakness == "weak_form":
            trait_bit[i] = 1 << forms.index(t.weakness_target)
        elif t.weakness == "weak_type":
            trait_bit[i] = 1 << (len(forms) + types.index(t.weakness_target))
    traits = shuffle.traits.astype(np.intp)
    T = traits.shape[1]
    uses = [campaign and catalog.players[s].specialty_use == "assembly" for s in seats]
    ace, tactician, brawler = (
        spec_ids.index(s) if s in spec_ids else -1 for s in ("ace", "tactician", "brawler")
    )
    H = p.hand_size + (p.extra_draws if any(uses) and ace >= 0 else 0)
    M = p.market_size

    # -- the deal: seat 0's whole hand, then seat 1's ... (every game's pile is as long)
    hands, count = [], []
    for k in range(P):
        start = min(k * p.hand_size, B)
        n = min(p.hand_size, B - start)
        hand = np.full((H, G), -1, DT)
        hand[:n] = body[start : start + n]
        hands.append(hand)
        count.append(np.full(G, n, DT))
    top = np.full(G, min(P * p.hand_size, B), DT)
    market = np.full((M, G), -1, DT)
    market[: min(M, A)] = arms[: min(M, A)]
    mcount = np.full(G, min(M, A), DT)
    apos = mcount.copy()

    slots = np.full((5, G), -1, DT)
    played = [np.zeros(G, bool) for _ in range(P)]
    flips = np.zeros(G, np.int64)
    revealed = np.zeros(G, mask_type)
    spent = np.zeros((G, P), bool)
    rounds = np.zeros(G, np.int64)
    stopped = np.zeros(G, bool)
    market_rows = np.arange(M, dtype=DT)[:, None]
    zeros, no = np.zeros((1, G), DT), np.zeros((1, G), bool)

    for r in range(1, int(countdown.max(initial=0)) + 1):
        active = (r <= countdown) & ~stopped
        if not active.any():
            break
        rounds[active] = r
        for k in range(P):
            s, hand = seat[k], hands[k]
            pl = s.player
            # 1. refill to hand_size, only after a body play on the previous turn
            n = np.where(played[k] & active, p.hand_size - count[k], 0)
            n = np.minimum(np.maximum(n, 0), B - top).astype(DT)
            _draw(hand, count[k], n, body, top, cols)
            count[k] += n
            top += n
            played[k] &= ~active
            # 2. the Specialty's Assembly use, on the seat's first turn (campaign)
            takes = p.arm_takes
            if uses[k] and r == 1:
                held = specialty[:, k]
                if ace >= 0:  # draw extra_draws more, keep any (pile not empty)
                    use = active & (held == ace) & (top < B)
                    n = np.where(use, np.minimum(p.extra_draws, B - top), 0).astype(DT)
                    _draw(hand, count[k], n, body, top, cols)
                    count[k] += n
                    top += n
                    spent[:, k] |= use
                if tactician >= 0:  # peek at the next face-down Trait: its weakness is known
                    use = active & (held == tactician) & (flips < countdown) & (flips < T)
                    peek = trait_bit[traits[cols, np.minimum(flips, T - 1)]]
                    revealed |= peek * use
                    spent[:, k] |= use
                if brawler >= 0:  # one more Arm take this turn
                    use = active & (held == brawler)
                    takes = p.arm_takes + use
                    spent[:, k] |= use
            # 3. body plays: the best gain over the hand (ties: the earliest card), each
            # card to its Part-Type's slot; gain = fill + value, or value - placed value
            for _ in range(p.body_plays):
                a = cards.of(hand)
                part = cards.part(a)
                both = np.concatenate([a, cards.of(slots[:BODY_SLOTS])])
                value = _value(cards, s, both, lesson, revealed, 0, True)
                # each card's slot (a row past the body slots for the blank: masked below)
                at_slot = np.minimum(part, BODY_SLOTS).astype(np.intp) * G + cols
                placed = np.take(np.concatenate([value[len(hand) :], zeros]), at_slot)
                empty = np.take(np.concatenate([slots[:BODY_SLOTS] < 0, no]).astype(DT), at_slot)
                gain = players.gain(pl, value[: len(hand)], placed, empty)
                gain = gain + (hand < 0) * DT(NONE)
                best, at = _best(gain)
                go = players.commits(pl, best) & active
                if not go.any():
                    break  # (a seat that holds would hold again: nothing changed)
                card, kind = _pick(hand, at, cols), _pick(part, at, cols)
                for t in range(BODY_SLOTS):  # a replaced card is discarded
                    slots[t] = np.where(go & (kind == t), card, slots[t])
                hand[:] = _drop(hand, np.where(go, at, len(hand)))
                count[k] -= go
                played[k] |= go
            # 4. Arms takes: into the first empty Arm slot, else over the placed Arm of
            # lower value (tie: arm_2); the combo is against the other Arm slot
            for t in range(int(np.max(takes)) if M else 0):
                a1, a2 = slots[ARM_1], slots[ARM_2]
                arm = cards.of(slots[ARM_1:])
                power = cards.power(arm)
                now = (power[0] == power[1]) & (a1 >= 0) & (a2 >= 0)
                v1, v2 = _value(cards, s, arm, lesson, revealed, now.astype(DT), False)
                first = (a1 < 0) | ((a2 >= 0) & (v1 < v2))
                empty = (a1 < 0) | (a2 < 0)
                other = np.where(first, a2, a1)
                placed = np.where(first, v1, v2)
                offer = cards.of(market)
                combo = (
                    (cards.power(offer) == np.where(first, power[1], power[0])) & (other >= 0)
                ).astype(DT)
                value = _value(cards, s, offer, lesson, revealed, combo, False)
                gain = players.gain(pl, value, placed, empty.astype(DT))
                gain = gain + (market_rows >= mcount) * DT(NONE)
                best, at = _best(gain)
                go = players.commits(pl, best) & active & (t < takes)
                if not go.any():
                    break
                card = _pick(market, at, cols)
                old = np.where(first, a1, a2)
                slots[ARM_1] = np.where(go & first, card, a1)
                slots[ARM_2] = np.where(go & ~first, card, a2)
                market[:] = _drop(market, np.where(go, at, M))
                g = cols[go & (old >= 0)]  # a replaced Arm goes to the end of the market
                market[mcount[g] - 1, g] = old[g]
                mcount -= go & (old < 0)
        # end of round: (i) a Trait flips and its weakness is revealed
        flip = active & (flips < T)
        revealed |= trait_bit[traits[cols, np.minimum(flips, T - 1)]] * flip
        flips += flip  # a Trait deck smaller than the countdown runs out
        # (ii) the market refills from the Arms pool
        if M:
            n = np.where(active, np.minimum(M - mcount, A - apos), 0).astype(DT)
            _draw(market, mcount, n, arms, apos, cols)
            mcount += n
            apos += n
        # (iii) campaign: stop once the mech has no gap and the lesson took
        if campaign:
            matches = (cards.form(cards.of(slots)) == lesson).sum(axis=0)
            stopped |= active & (slots >= 0).all(axis=0) & rules.lesson_took(matches, p)

    return Locked(
        deck=deck.id,
        slots=slots.T.astype(np.int64),
        lesson=lesson.astype(np.int64),
        flips=flips,
        rounds=rounds,
        body_seen=top.astype(np.int64),
        spares=_spares(cards, p.spares_per_part, hands, body, top, market, arms, apos),
        spent=spent,
        battle_policy=_battle_policy(catalog, seats, specialty, campaign, battle_policy),
    )


def _battle_policy(
    catalog: Catalog, seats: Sequence[str], specialty: np.ndarray, campaign: bool, standalone: str
) -> np.ndarray:
    """The group's Battle policy: standalone, the experiment's; campaign, the first
    policy (policies.toml order) with the Specialty of the first seat that keeps its
    Specialty for the Battle (none: the standalone one)."""
    policies = list(catalog.policies.values())
    base = list(catalog.policies).index(standalone)
    G = len(specialty)
    battle = [k for k, s in enumerate(seats) if catalog.players[s].specialty_use == "battle"]
    if not campaign or not battle:
        return np.full(G, base, np.int64)
    first = []
    for sid in catalog.specialties:
        with_it = [i for i, pol in enumerate(policies) if pol.specialty == sid]
        first.append(with_it[0] if with_it else base)
    return np.array(first, np.int64)[specialty[:, battle[0]]]


def _window(pile: np.ndarray, start: np.ndarray, rows: int) -> np.ndarray:
    """[rows, G]: each game's pile from row ``start[g]`` on (-1 past its end)."""
    j = np.arange(rows)[:, None]
    at = np.minimum(start + j, len(pile) - 1)
    return np.take(pile.reshape(-1), at * pile.shape[1] + np.arange(pile.shape[1]))


def _firsts(
    cards: _Cards, line: np.ndarray, types: Sequence[int], per: int
) -> tuple[np.ndarray, np.ndarray]:
    """The first ``per`` cards of each Part-Type in ``types`` down each game's ``line``
    [L, G] (int64[G, len(types), per], -1 none) and how many there are ([types, G])."""
    G = line.shape[1]
    out = np.full((G, len(types), per), -1, np.int64)
    found = np.zeros((len(types), G), np.int64)
    part = cards.part(cards.of(line))
    for i, t in enumerate(types):
        mine = part == t
        nth = np.cumsum(mine, axis=0, dtype=DT)
        found[i] = nth[-1] if len(line) else 0
        nth *= mine  # 1 at its first card, 2 at the second ...
        for q in range(per):
            out[:, i, q] = ((line + 1) * (nth == q + 1)).max(axis=0, initial=0) - 1
    return out, found


def _spares(
    cards: _Cards,
    per: int,
    hands: list[np.ndarray],
    body: np.ndarray,
    top: np.ndarray,
    market: np.ndarray,
    arms: np.ndarray,
    apos: np.ndarray,
) -> np.ndarray:
    """int64[G, 4, per]: each Part-Type's spares: the hands' cards of it (seat order, hand
    order) then the pile's from the top; Arms: the market then the pool from the top.

    The piles are read through a window of a few cards past the top; only the games the
    window leaves short read the rest of their pile."""
    G = len(top)
    out = np.full((G, len(PARTS), per), -1, np.int64)
    if per == 0:
        return out
    window = 8 * per
    for types, head, pile, start in (
        ((0, 1, 2), np.concatenate(hands), body, top),
        ((ARMS,), market, arms, apos),
    ):
        rest = len(pile) - 1
        line = np.concatenate([head, _window(pile, start, min(window, rest))])
        got, found = _firsts(cards, line, types, per)
        short = ((found < per) & (start + window < rest)).any(axis=0)
        if short.any():  # read these games' whole piles
            g = np.flatnonzero(short)
            line = np.concatenate([head[:, g], _window(pile[:, g], start[g], rest)])
            got[g] = _firsts(cards, line, types, per)[0]
        out[:, list(types)] = got
    return out
