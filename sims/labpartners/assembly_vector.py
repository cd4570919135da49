"""Lab Partners Assembly played for a whole batch of games at once (000 Assembly,
/tmp/lp_assembly_spec.md): the same games as ``assembly_reference.play``, card for card.

Assembly is deterministic given a row of the :class:`~sims.labpartners.shuffle.Shuffle`
(the players play by their policies), so every game of the batch moves in lock step:
the loops run over rounds, seats and the plays of a turn, each step one array operation
over the G games. The state of game g:

- the body pile ``pile[g]`` (its deck's Legs, Torso and Head cards in key order, top
  first) and the pointer ``top[g]`` to its next card; the Arms pool and ``apos[g]``;
- the hands ``hands[g, k, :]`` (card indices, -1 past the end, always packed to the left
  so hand order is array order) and ``count[g, k]``;
- the market ``market[g, :]`` as a packed list of ``mcount[g]`` Arms (taking one shifts
  the rest left; a replaced Arm goes to the end);
- the mech ``slots[g, 5]`` (SLOTS order, -1 a gap), ``played[g, k]``, ``flips[g]`` and the
  revealed weaknesses as one bit mask per game (Form f is bit f, Type t is bit F + t).

Cards are full-spread indices (``catalog.cards`` order) and every card attribute is read
from a lookup array over the full spread with one extra entry at the end, so index -1
(no card) reads a harmless blank. A game whose countdown has run out (or that stopped
early) keeps computing but commits nothing.

The players' values are ``players.py``'s formulas called on the arrays (one rule, one
place). A body card's combo is 0 (it has no Power), and a player whose ``study`` weight is
0 does not need its study term.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.labpartners import players, rules
from sims.labpartners.catalog import PARTS, Catalog, Deck, Player
from sims.labpartners.lock import Locked
from sims.labpartners.params import MODES
from sims.labpartners.shuffle import Shuffle, deck_cards, lesson_form, pile

ARMS = PARTS.index("arms")
ARM_1, ARM_2 = 3, 4  # SLOTS indices of the Arm slots
NONE = -(2**14)  # the gain of no play: below every threshold (players.toml's -20..40)
DT = np.int16  # cards, counts and values all fit (values are at most a few hundred)


class _Cards:
    """Full-spread lookup arrays, one extra blank entry at the end (index -1)."""

    def __init__(self, catalog: Catalog) -> None:
        forms, types = list(catalog.forms), list(catalog.types)
        cards = list(catalog.cards.values())
        self.part = np.array([PARTS.index(c.part) for c in cards] + [0], DT)
        # the blank's Form and Type are past the real ones: they match no lesson or target
        self.form = np.array([forms.index(c.form) for c in cards] + [len(forms)], DT)
        self.type = np.array([types.index(c.type) for c in cards] + [len(types)], DT)
        self.power = np.array([c.power for c in cards] + [0], DT)
        self.skill = np.array([players.skill(PARTS.index(c.part), c.form) for c in cards] + [0],
                              DT)  # fmt: skip
        # the weakness bits of a card's Form and Type (revealed & these: how many apply)
        self.form_bit = (1 << self.form.astype(np.int32)).astype(np.int32)
        self.type_bit = (1 << (len(forms) + self.type.astype(np.int32))).astype(np.int32)
        self.form_bit[-1] = self.type_bit[-1] = 0


class _Seat:
    """One seat's policy and, per game, its Independent Study's goal and target."""

    def __init__(self, catalog: Catalog, player: Player, studies: np.ndarray) -> None:
        forms, types = list(catalog.forms), list(catalog.types)
        table = list(catalog.studies.values())
        goal = np.array([players.GOAL[s.goal] for s in table], DT)
        # a target that is not a Form (Type) matches no card: -2 is no index, nor the blank
        tform = np.array([forms.index(s.target) if s.goal == "form_count" else -2
                          for s in table], DT)  # fmt: skip
        ttype = np.array([types.index(s.target) if s.goal == "type_count" else -2
                          for s in table], DT)  # fmt: skip
        self.player = player
        self.goal = goal[studies][:, None]
        self.tform = tform[studies][:, None]
        self.ttype = ttype[studies][:, None]


def _draw(hand: np.ndarray, count: np.ndarray, n: np.ndarray, pile_: np.ndarray,
          top: np.ndarray) -> np.ndarray:  # fmt: skip
    """The hands [G, H] with ``n[g]`` cards drawn from the top of the pile appended at
    the end (the pile is padded with a -1 column, so ``n`` may be 0 at its end)."""
    j = np.arange(hand.shape[1], dtype=DT)[None, :]
    src = np.minimum(top[:, None] + (j - count[:, None]), pile_.shape[1] - 1)
    drawn = np.take_along_axis(pile_, np.maximum(src, 0), axis=1)
    new = (j >= count[:, None]) & (j < (count + n)[:, None])
    return np.where(new, drawn, hand)


def _remove(row: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Rows [n, W] with the entry at ``at[i]`` taken out, the rest shifted left."""
    shifted = np.concatenate([row[:, 1:], np.full((len(row), 1), -1, row.dtype)], axis=1)
    return np.where(np.arange(row.shape[1])[None, :] < at[:, None], row, shifted)


def _value(cards: _Cards, seat: _Seat, c: np.ndarray, lesson: np.ndarray,
           revealed: np.ndarray, combo) -> np.ndarray:  # fmt: skip
    """What the seat's player sees in cards ``c`` [G, W] (players.card_value): lesson,
    revealed weaknesses of its Form and Type, skill (body) or Power and combo (Arms),
    and the player's own study."""
    p = seat.player
    form, type_ = cards.form[c], cards.type[c]
    lesson_ = (form == lesson).astype(DT)
    bits = revealed[:, None]
    weak = ((bits & cards.form_bit[c]) != 0).astype(DT) + ((bits & cards.type_bit[c]) != 0)
    skill, power = cards.skill[c], cards.power[c]
    study = 0
    if p.study:
        study = players.study_progress(seat.goal, form == seat.tform, type_ == seat.ttype,
                                       power, lesson_, combo)  # fmt: skip
    return players.card_value(p, lesson_, weak, skill, power, combo, study)


def _specialty_policy(catalog: Catalog, standalone: int) -> np.ndarray:
    """Specialty index -> the first policy (policies.toml order) bringing it to Battle."""
    policies = list(catalog.policies.values())
    out = []
    for sid in catalog.specialties:
        first = [i for i, pol in enumerate(policies) if pol.specialty == sid]
        out.append(first[0] if first else standalone)
    return np.array(out, np.int64)


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
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
    most = min(shuffle.specialties.shape[1], shuffle.studies.shape[1])
    if not 1 <= len(seats) <= most:
        raise ValueError(f"{len(seats)} seats: Assembly seats 1..{most} players")
    for s in seats:
        if s not in catalog.players:
            raise KeyError(f"unknown player {s!r} (known: {', '.join(catalog.players)})")
    if battle_policy not in catalog.policies:
        raise KeyError(f"unknown battle policy {battle_policy!r}")
    G = shuffle.games
    if len(kaiju) != G:
        raise ValueError(f"{len(kaiju)} kaiju for {G} games: give one per game")
    p = catalog.params
    campaign = mode == "campaign"
    cards = _Cards(catalog)
    P = len(seats)
    rows = np.arange(G)

    # -- setup (Assembly): piles in key order, the lesson, studies and Specialties
    body = pile(shuffle.keys, deck_cards(catalog, deck, "body")).astype(DT)
    arms = pile(shuffle.keys, deck_cards(catalog, deck, "arms")).astype(DT)
    B, A = body.shape[1], arms.shape[1]
    body = np.concatenate([body, np.full((G, 1), -1, DT)], axis=1)  # reads past the end: none
    arms = np.concatenate([arms, np.full((G, 1), -1, DT)], axis=1)
    lesson = lesson_form(catalog, deck, shuffle.lesson).astype(DT)
    lesson_col = lesson[:, None]
    kaiju_ids = list(catalog.kaiju)
    countdown = np.array([catalog.kaiju[k].countdown for k in kaiju_ids], np.int64)[
        np.array([kaiju_ids.index(k) for k in kaiju], np.int64)]  # fmt: skip
    seat = [_Seat(catalog, catalog.players[s], shuffle.studies[:, k]) for k, s in enumerate(seats)]
    spec_ids = list(catalog.specialties)
    specialty = shuffle.specialties[:, :P]
    # the Traits' weaknesses as revealed bits (strengths are not used by players)
    forms, types = list(catalog.forms), list(catalog.types)
    trait_bit = np.zeros(len(catalog.traits), np.int32)
    for i, t in enumerate(catalog.traits.values()):
        if t.weakness == "weak_form":
            trait_bit[i] = 1 << forms.index(t.weakness_target)
        elif t.weakness == "weak_type":
            trait_bit[i] = 1 << (len(forms) + types.index(t.weakness_target))
    traits = shuffle.traits.astype(np.int64)
    T = traits.shape[1]
    uses = {k: catalog.players[s].specialty_use == "assembly" and campaign
            for k, s in enumerate(seats)}  # fmt: skip
    ace = spec_ids.index("ace") if "ace" in spec_ids else -1
    tactician = spec_ids.index("tactician") if "tactician" in spec_ids else -1
    brawler = spec_ids.index("brawler") if "brawler" in spec_ids else -1
    extra = p.extra_draws if any(uses.values()) and ace >= 0 else 0
    H = p.hand_size + extra
    M = p.market_size

    # -- the deal: seat 0's whole hand, then seat 1's ...; then the market
    hands = np.full((G, P, H), -1, DT)
    count = np.zeros((G, P), DT)
    top = np.zeros(G, DT)
    zero = np.zeros(G, DT)
    for k in range(P):
        n = np.minimum(p.hand_size, B - top).astype(DT)
        hands[:, k] = _draw(hands[:, k], zero, n, body, top)
        count[:, k] = n
        top += n
    market = np.full((G, M), -1, DT)
    mcount = np.full(G, min(M, A), DT)
    market[:, : min(M, A)] = arms[:, : min(M, A)]
    apos = mcount.copy()

    slots = np.full((G, 5), -1, DT)
    played = np.zeros((G, P), bool)
    flips = np.zeros(G, np.int64)
    revealed = np.zeros(G, np.int32)
    spent = np.zeros((G, P), bool)
    rounds = np.zeros(G, np.int64)
    stopped = np.zeros(G, bool)
    j_market = np.arange(M, dtype=DT)[None, :]

    for r in range(1, int(countdown.max(initial=0)) + 1):
        active = (r <= countdown) & ~stopped
        if not active.any():
            break
        rounds[active] = r
        for k in range(P):
            s = seat[k]
            pl = s.player
            # 1. refill to hand_size, only after a body play on the previous turn
            n = np.where(played[:, k] & active, p.hand_size - count[:, k], 0)
            n = np.minimum(np.maximum(n, 0), B - top).astype(DT)
            hands[:, k] = _draw(hands[:, k], count[:, k], n, body, top)
            count[:, k] += n
            top += n
            played[:, k] = played[:, k] & ~active
            # 2. the Specialty's Assembly use, on the seat's first turn (campaign)
            takes = np.full(G, p.arm_takes, DT)
            if uses[k] and r == 1:
                held = specialty[:, k]
                if ace >= 0:  # draw extra_draws more, keep any (pile not empty)
                    use = active & (held == ace) & (top < B)
                    n = np.where(use, np.minimum(p.extra_draws, B - top), 0).astype(DT)
                    hands[:, k] = _draw(hands[:, k], count[:, k], n, body, top)
                    count[:, k] += n
                    top += n
                    spent[:, k] |= use
                if tactician >= 0:  # peek at the next face-down Trait: its weakness is known
                    use = active & (held == tactician) & (flips < countdown) & (flips < T)
                    peek = trait_bit[traits[rows, np.minimum(flips, T - 1)]]
                    revealed |= np.where(use, peek, 0).astype(np.int32)
                    spent[:, k] |= use
                if brawler >= 0:  # one more Arm take this turn
                    use = active & (held == brawler)
                    takes += use
                    spent[:, k] |= use
            # 3. body plays: the best gain over the hand, earliest position on ties
            for _ in range(p.body_plays):
                hand = hands[:, k]
                part = cards.part[hand]
                placed = np.take_along_axis(slots, part.astype(np.int64), axis=1)
                empty = (placed < 0).astype(DT)
                value = _value(cards, s, hand, lesson_col, revealed, 0)
                held_value = _value(cards, s, placed, lesson_col, revealed, 0)
                gain = players.gain(pl, value, held_value, empty)
                gain = np.where(hand >= 0, gain, NONE)
                at = gain.argmax(axis=1)
                go = players.commits(pl, gain[rows, at]) & active
                if not go.any():
                    break
                g = np.flatnonzero(go)
                at = at[g]
                card = hand[g, at]
                slots[g, part[g, at]] = card  # a replaced card is discarded
                hands[g, k] = _remove(hands[g, k], at)
                count[g, k] -= 1
                played[g, k] = True
            # 4. Arms takes from the market: into the first empty Arm slot, else over the
            # placed Arm of lower value (tie: arm_2); the combo is against the other slot
            for t in range(p.arm_takes + (1 if uses[k] and r == 1 and brawler >= 0 else 0)):
                if M == 0:
                    break
                a1, a2 = slots[:, ARM_1], slots[:, ARM_2]
                pw1, pw2 = cards.power[a1], cards.power[a2]
                both = (a1 >= 0) & (a2 >= 0)
                combo_now = (pw1 == pw2).astype(DT)
                v1 = _value(cards, s, a1[:, None], lesson_col, revealed, combo_now[:, None])[
                    :, 0]  # fmt: skip
                v2 = _value(cards, s, a2[:, None], lesson_col, revealed, combo_now[:, None])[
                    :, 0]  # fmt: skip
                into = np.where(a1 < 0, ARM_1, np.where(a2 < 0, ARM_2,
                                np.where(v1 < v2, ARM_1, ARM_2))).astype(np.int64)  # fmt: skip
                other = np.where(into == ARM_1, a2, a1)
                placed_value = np.where(into == ARM_1, v1, v2)[:, None]
                empty = (~both).astype(DT)[:, None]
                combo = (cards.power[market] == cards.power[other][:, None]) & (other >= 0)[
                    :, None]  # fmt: skip
                combo = combo.astype(DT)
                value = _value(cards, s, market, lesson_col, revealed, combo)
                gain = players.gain(pl, value, placed_value, empty)
                gain = np.where(j_market < mcount[:, None], gain, NONE)
                at = gain.argmax(axis=1)
                go = players.commits(pl, gain[rows, at]) & active & (t < takes)
                if not go.any():
                    break
                g = np.flatnonzero(go)
                at, slot = at[g], into[g]
                old = slots[g, slot]
                slots[g, slot] = market[g, at]
                row = _remove(market[g], at)
                last = (mcount[g] - 1).astype(np.int64)
                row[np.arange(len(g)), last] = old  # a replaced Arm to the end (-1 if none)
                market[g] = row
                mcount[g] -= (old < 0).astype(DT)
        # end of round: (i) a Trait flips and its weakness is revealed
        flip = active & (flips < T)
        revealed |= np.where(flip, trait_bit[traits[rows, np.minimum(flips, T - 1)]], 0).astype(
            np.int32)  # fmt: skip
        flips += flip  # a Trait deck smaller than the countdown runs out
        # (ii) the market refills from the Arms pool
        if M:
            n = np.where(active, np.minimum(M - mcount, A - apos), 0).astype(DT)
            market = _draw(market, mcount, n, arms, apos)
            mcount += n
            apos += n
        # (iii) campaign: stop once the mech has no gap and the lesson took
        if campaign:
            matches = (cards.form[slots] == lesson_col).sum(axis=1)
            stopped |= active & (slots >= 0).all(axis=1) & rules.lesson_took(matches, p)

    return Locked(
        deck=deck.id,
        slots=slots.astype(np.int64),
        lesson=lesson.astype(np.int64),
        flips=flips,
        rounds=rounds,
        body_seen=top.astype(np.int64),
        spares=_spares(cards, p.spares_per_part, hands, body, top, market, arms, apos),
        spent=spent,
        battle_policy=_battle_policy(catalog, seats, specialty, campaign, battle_policy),
    )


def _battle_policy(catalog: Catalog, seats: Sequence[str], specialty: np.ndarray,
                   campaign: bool, standalone: str) -> np.ndarray:  # fmt: skip
    """The group's Battle policy: standalone, the experiment's; campaign, the policy of
    the Specialty of the first seat that keeps its Specialty for the Battle."""
    policies = list(catalog.policies)
    base = policies.index(standalone)
    G = len(specialty)
    battle = [k for k, s in enumerate(seats) if catalog.players[s].specialty_use == "battle"]
    if not campaign or not battle:
        return np.full(G, base, np.int64)
    return _specialty_policy(catalog, base)[specialty[:, battle[0]]]


def _spares(cards: _Cards, per: int, hands: np.ndarray, body: np.ndarray, top: np.ndarray,
            market: np.ndarray, arms: np.ndarray, apos: np.ndarray) -> np.ndarray:  # fmt: skip
    """int64[G, 4, per]: each Part-Type's spares: the hands' cards of it (seat order, hand
    order) then the pile's from the top; Arms: the market then the pool from the top."""
    G = len(top)
    out = np.full((G, len(PARTS), per), -1, np.int64)
    if per == 0:
        return out
    rest = np.where(np.arange(body.shape[1])[None, :] >= top[:, None], body, -1)
    line = np.concatenate([hands.reshape(G, -1), rest], axis=1)
    arm_rest = np.where(np.arange(arms.shape[1])[None, :] >= apos[:, None], arms, -1)
    arm_line = np.concatenate([market, arm_rest], axis=1)
    for t in range(len(PARTS)):
        seq = arm_line if t == ARMS else line
        mine = (seq >= 0) & (cards.part[seq] == t)
        nth = np.cumsum(mine, axis=1)
        g, i = np.nonzero(mine & (nth <= per))
        out[g, t, nth[g, i] - 1] = seq[g, i]
    return out
