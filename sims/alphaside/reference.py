"""The ALPHASIDE reference engine: one game at a time, rule by rule (the oracle).

A game is a mutable :class:`State` (ten :class:`Mech` slots, each side's Tactics deck
and hand, the tally) walked through one function per step of ``battle.py``'s game
procedure (its module docstring is the spec, dice order included):

1. :func:`setup` (:func:`shuffle`, :func:`draw`), 2. the Timeline (:func:`next_up`:
who acts next; :func:`pay`: a token's move), 3. :func:`activate` (a :func:`deploy`,
b :func:`abilities`, c :func:`target_of`, d :func:`advance`, e :func:`dash` /
:func:`energize`, f :func:`attack` with :func:`crit_effect`, g :func:`damage` and
:func:`defeat`), 4. :func:`end`.

Every number comes from a ``rules.py`` call or the compiled :class:`Battle`; every die
is read from the :class:`Dice` passed in: a deck shuffle's dice one at a time
(``dice.roll(k, 1)``), an attack's dice as one block (``dice.faces([strength], die)``),
a Disarmed attack's re-rolls as one block (``dice.faces([hits], die)``).

Readings taken where the docstring leaves a choice (the vector engine takes the same;
each is marked ``# reading`` where it is applied):

R1  The track's direction. A side's FORWARD is toward the enemy Base (side A +1, side
    B -1). "Toward" a unit is forward, "away" is backward, also on a shared hex.
    Every side A unit on the board stands at or behind (<=) every side B unit, and
    every move keeps it so (R2).
R2  "Never past an enemy nor off the track": a forward move stops on the hex of the
    nearest enemy on the board (it may share that hex, not go beyond it) and at the
    enemy Base's hex; an enemy on its own hex stops a forward move at once (0 hexes:
    going on would pass it). A backward move stops at its own Base's hex (hex 0 for A,
    ``board_length`` for B), which it may stand on. Allies never block. This holds for
    every move: Advance, Dash, Push and Pull (by R1 only a Pull ever meets an enemy).
R3  Energy starts at 0. Abilities are tried in the unit's ability order, each at most
    once an activation, each only when the unit's Energy >= its cost (then spent).
    Step b: every ``repair`` (HP below full) and ``shields`` (an enemy on the board)
    ability; step f: every ``strength`` and ``accuracy`` ability. None when the policy
    has ``ability = false``.
R4  "An enemy on the board" (target, area, the shields ability): deployed, not in the
    Reserve. The target is chosen once, at step c, and kept for the whole activation
    (by R1 it stays the nearest after the Advance).
R5  Every activation takes its Advance step, so Slow is consumed by the unit's next
    activation whether or not the Advance would have moved it (0 hexes, then removed).
    Engaged (``rules.engaged``) for the Advance: the distance to the target before the
    Advance; for the Dash: after the Advance; without a target: not Engaged.
R6  The Advance (d = distance to the target, goal = its shortest weapon range for
    ``close``, its longest for ``keep_range``): d > goal: forward min(hexes, d - goal);
    keep_range and d < goal: backward min(hexes, goal - d), R2 limits; otherwise no
    move. No target: forward min(hexes, distance to the enemy Base - 1). Deploying, if
    that leaves it on its Base it moves 1 hex forward instead (R2 limits).
    The Dash: forward min(dash hexes, d - goal).
R7  Weapon choice: among weapons with range >= distance (after the Advance), the weight
    is the float64 ``battle.w_expected[u, k, s]``, s = the target's active Shields
    (capped at the table's last column); ``per_tl`` divides it by ``w_tl`` in float64.
    The first weapon with a strictly greater weight wins (ties: the first weapon).
R8  The card: the first card of the hand is played on every attack (never on a Dash or
    Energize), whatever its effect; ``crit_from`` sets crits from min(weapon's, card's
    value); ``damage`` adds its value to every target's Damage+X (applied when the roll
    has at least one hit, like the crit's Damage+X: ``rules.combat_damage``).
R9  The TL is paid when the action is declared: the token moves to t + cost (after the
    tokens already there) before the roll, so a unit the attack defeats whose token
    lands on that same time arrives after the attacker.
R10 ``hits`` and ``crits`` count dice once per attack (not per area target): the dice
    that decide the hits, i.e. a Disarmed attack's re-rolls (crits among them are
    counted though they trigger nothing). Disarm is removed by the attacker's next
    attack even when it has no hit to re-roll (a Dash or Energize keeps it).
R11 Area: the targets of an area weapon are the enemies on the board within ``area``
    hexes of the target (itself included; a weapon without area hits its target alone,
    even when other enemies share its hex), fixed when the attack is rolled; the crit
    effect is applied to every target (slot order), then damage target by target (slot
    order).
R12 Push X: the target moves backward (away from the attacker) min(X, hexes to its own
    Base) hexes; when that is fewer than X it ran off the track: ``rules.collision``
    damage against its active Shields, the Shields used flipping off
    (``rules.blocked(collision_damage, shields)``). Reaching the end exactly is no
    collision; with ``push_end = stop`` running off it is none either
    (``rules.pushed_off``). Pull X: a target at distance <= 1 is not moved; else it moves forward
    (toward the attacker) min(X, d - 1) hexes, R2 limits (an ally of the attacker in
    between stops it on its hex), no collision.
R13 A Fracture set by the attack's own crit counts for that attack's damage (step 6
    before 7). Fracture is removed when it adds damage.
R14 Defeat is checked once per target in step g, after its combat damage (a collision
    that takes a unit to 0 HP defeats it there, its combat damage still dealt). The
    defeated unit's token moves ``rules.after_defeat`` of its own time, arriving after
    the tokens already there (a token past the last time stays done); full HP, no
    status, Energy kept, off the board (its Shields come back when it deploys again).
R15 Damage tallies count ``rules.combat_damage`` and ``rules.collision`` in full, not
    capped at the HP left; ``damage_w0/1`` include the collision of that weapon's Push
    (so damage_w0 + damage_w1 = damage). ``first_defeat`` is the current time t.
R16 The Phase draw: when the walk reaches the first time of Phase 2, 3, ... (before any
    activation at that time) side A then side B draws min(tactics_draw, cards left)
    from the front of its deck, appended to the back of its hand.
R17 When the Advance comes (rules parameter ``advance``). ``before`` (in force): step d
    always precedes e-f. ``either``: a unit with a target Advances AFTER its attack
    when a weapon reaches the target from where it stands and the policy's weight of
    its choice there (R7) is strictly greater than the weight of its choice from
    where the Advance (R6) would take it (no weapon there counts as less); then it
    attacks from where it stands and takes R6's Advance after step g, toward the
    nearest enemy on the board then (re-chosen: the target may be defeated, pushed or
    pulled; none: toward the enemy Base), Engaged read then, Slow consumed then, a
    deploying unit still leaving its Base. Otherwise it Advances first, as ``before``.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from sims.alphaside import policy, rules
from sims.alphaside.battle import (
    ABILITY,
    APPROACH,
    CHOICE,
    FIELDS,
    SIDE_SLOTS,
    TACTIC,
    Battle,
    batch_key,
)
from sims.core import engine
from sims.core.batch import Dice

ENGINE_VERSION = "alphaside-reference-1"

A, B = rules.SIDE_A, rules.SIDE_B  # the sides, also their winner codes


# ---- the static game, as Python numbers --------------------------------------------------


@dataclass(frozen=True)
class Static:
    """The compiled Battle's arrays as Python lists (read in the hot loop)."""

    present: list
    hp: list
    shields: list
    speed: list
    vp: list
    keep_range: list
    per_tl: list
    use_abilities: list
    weapons: list  # per slot: list of weapon slots k that are present
    w_tl: list
    w_range: list
    w_strength: list
    w_accuracy: list
    w_area: list
    w_effect: list
    w_value: list
    w_crit_from: list
    w_expected: list
    abilities: list  # per slot: list of (effect code, energy, value)
    t_effect: list
    t_value: list


_STATIC: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def static(battle: Battle) -> Static:
    st = _STATIC.get(battle)
    if st is None:
        n = len(battle.present)
        st = Static(
            present=battle.present.tolist(),
            hp=battle.hp.tolist(),
            shields=battle.shields.tolist(),
            speed=battle.speed.tolist(),
            vp=battle.vp.tolist(),
            keep_range=(battle.approach == APPROACH["keep_range"]).tolist(),
            per_tl=(battle.choice == CHOICE["per_tl"]).tolist(),
            use_abilities=battle.use_abilities.tolist(),
            weapons=[
                [k for k in range(battle.w_present.shape[1]) if battle.w_present[i, k]]
                for i in range(n)
            ],
            w_tl=battle.w_tl.tolist(),
            w_range=battle.w_range.tolist(),
            w_strength=battle.w_strength.tolist(),
            w_accuracy=battle.w_accuracy.tolist(),
            w_area=battle.w_area.tolist(),
            w_effect=battle.w_effect.tolist(),
            w_value=battle.w_value.tolist(),
            w_crit_from=battle.w_crit_from.tolist(),
            w_expected=battle.w_expected.tolist(),
            abilities=[
                [
                    (
                        int(battle.a_effect[i, k]),
                        int(battle.a_energy[i, k]),
                        int(battle.a_value[i, k]),
                    )
                    for k in range(battle.a_present.shape[1])
                    if battle.a_present[i, k]
                ]
                for i in range(n)
            ],
            t_effect=battle.t_effect.tolist(),
            t_value=battle.t_value.tolist(),
        )
        _STATIC[battle] = st
    return st


# ---- the state ---------------------------------------------------------------------------


@dataclass
class Mech:
    """One unit slot between steps."""

    slot: int
    side: int
    present: bool
    hp: int
    time: int  # its Timeline token (a time past the last is done)
    seq: int  # arrival order of its token (lower arrived first)
    pos: int | None = None  # hex on the track, None in the Reserve
    active: int = 0  # active Shields
    energy: int = 0  # reading R3: Energy starts at 0
    slow: bool = False
    fracture: bool = False
    disarm: bool = False


TALLY = (
    "defeats",
    "damage",
    "attacks",
    "hits",
    "crits",
    "tl_attack",
    "activations",
    "first_defeat",
    "damage_w0",
    "damage_w1",
    "tl_w0",
    "tl_w1",
    "vp",
)


@dataclass
class State:
    mechs: list[Mech]
    deck: list[list[int]]  # each side's draw pile (card indices into t_effect), front first
    hand: list[list[int]]  # each side's hand, in draw order
    seq: int = 0  # arrivals so far
    last: int = -1  # the side that acted most recently, -1 nobody yet
    tally: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0] for k in TALLY})

    def count(self, what: str, side: int, n: int = 1) -> None:
        self.tally[what][side] += n

    def enemies(self, side: int) -> list[Mech]:
        """The other side's units on the board (R4), in slot order."""
        return [m for m in self.mechs if m.side != side and m.present and m.pos is not None]


def forward(side: int) -> int:
    """Reading R1: side A's forward is +1, side B's -1."""
    return 1 if side == A else -1


def base(battle: Battle, side: int) -> int:
    return 0 if side == A else battle.params.board_length


# ---- 1. setup ----------------------------------------------------------------------------


def shuffle(cards: list[int], dice: Dice) -> None:
    """For i = n-1 down to 1 a d(i+1) picks j = face - 1 and swaps cards i and j."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(dice.roll(i + 1, 1)[0]) - 1
        cards[i], cards[j] = cards[j], cards[i]


def draw(s: State, side: int, n: int) -> None:
    """Reading R16: up to n cards from the front of the deck to the back of the hand."""
    s.hand[side] += s.deck[side][:n]
    s.deck[side] = s.deck[side][n:]


def setup(battle: Battle, dice: Dice) -> State:
    """Every present unit in its Reserve, its token on time 1 in squad order; each deck
    shuffled (side A first) and ``tactics_draw`` cards drawn."""
    st = static(battle)
    mechs = [
        Mech(slot=i, side=i // SIDE_SLOTS, present=bool(st.present[i]), hp=st.hp[i], time=1, seq=i)
        for i in range(len(st.present))
    ]
    s = State(
        mechs=mechs,
        deck=[list(range(len(st.t_effect[side]))) for side in (A, B)],
        hand=[[], []],
        seq=len(mechs),
    )
    for side in (A, B):
        shuffle(s.deck[side], dice)
    for side in (A, B):
        draw(s, side, battle.params.tactics_draw)
    return s


# ---- 2. the Timeline ---------------------------------------------------------------------


def next_up(s: State, t: int) -> Mech | None:
    """Who acts at time t: both sides with a token there, the side that did not act most
    recently (side A when nobody has yet), else the side with one; within a side the
    token that arrived first."""
    tops: list[Mech | None] = [None, None]
    for m in s.mechs:
        if m.present and m.time == t and (tops[m.side] is None or m.seq < tops[m.side].seq):
            tops[m.side] = m
    if tops[A] is not None and tops[B] is not None:
        return tops[B] if s.last == A else tops[A]
    return tops[A] if tops[A] is not None else tops[B]


def pay(s: State, m: Mech, t: int, cost: int) -> None:
    """Reading R9: the token moves to t + cost when the action is declared, arriving
    after every token already there."""
    m.time = t + cost
    m.seq = s.seq
    s.seq += 1


# ---- 3. an activation --------------------------------------------------------------------


def deploy(battle: Battle, st: Static, m: Mech) -> bool:
    """a: Shields come back; from the Reserve the unit deploys on its Base. True when it
    deployed."""
    m.active = st.shields[m.slot]
    if m.pos is None:
        m.pos = base(battle, m.side)
        return True
    return False


def abilities(battle: Battle, st: Static, s: State, m: Mech) -> None:
    """b (reading R3): repair when damaged, shields when an enemy is on the board."""
    use = st.use_abilities[m.slot]
    if not use:
        return
    for effect, energy, value in st.abilities[m.slot]:
        if effect == ABILITY["repair"] and policy.uses_repair(
            use, m.energy, energy, m.hp, st.hp[m.slot]
        ):
            m.energy -= energy
            m.hp = min(m.hp + value, st.hp[m.slot])
        elif effect == ABILITY["shields"] and policy.uses_shields(
            use, m.energy, energy, bool(s.enemies(m.side))
        ):
            m.energy -= energy
            m.active += value


def target_of(s: State, m: Mech) -> Mech | None:
    """c: the nearest enemy on the board (ties: the lower slot); when Engaged it is the
    nearest Engaged enemy, so the same unit."""
    return min(
        s.enemies(m.side),
        key=lambda e: policy.target_rank(abs(e.pos - m.pos), e.slot - SIDE_SLOTS * e.side),
        default=None,
    )


def room(battle: Battle, s: State, m: Mech, direction: int) -> int:
    """Reading R2: hexes m can move in ``direction``: forward to the nearest enemy's hex
    (or the enemy Base), backward to its own Base."""
    if direction != forward(m.side):
        return abs(m.pos - base(battle, m.side))
    far = abs(base(battle, 1 - m.side) - m.pos)
    return min([far] + [abs(e.pos - m.pos) for e in s.enemies(m.side)])


def step(battle: Battle, s: State, m: Mech, direction: int, hexes: int) -> int:
    """Move m up to ``hexes`` in ``direction`` within R2's limits; the hexes moved."""
    n = max(min(hexes, room(battle, s, m, direction)), 0)
    m.pos += direction * n
    return n


def goal_of(st: Static, m: Mech) -> int:
    ranges = [st.w_range[m.slot][k] for k in st.weapons[m.slot]]
    return policy.advance_goal(st.keep_range[m.slot], min(ranges), max(ranges))


def advance(
    battle: Battle, st: Static, s: State, m: Mech, target: Mech | None, deployed: bool
) -> None:
    """d: the free Advance, toward the goal (reading R6); Slow makes it 0 hexes and is
    removed (reading R5)."""
    p = battle.params
    start = m.pos
    d = abs(target.pos - m.pos) if target is not None else 0
    eng = target is not None and bool(rules.engaged(d))  # reading R5
    hexes = int(rules.advance_hexes(st.speed[m.slot], m.slow, eng, p))
    m.slow = False  # reading R5: consumed by every activation's Advance step
    fwd = forward(m.side)
    if target is None:
        far = abs(base(battle, 1 - m.side) - m.pos)
        step(battle, s, m, fwd, min(hexes, far - 1))
    else:
        goal = goal_of(st, m)
        if d > goal:
            step(battle, s, m, fwd, min(hexes, d - goal))
        elif st.keep_range[m.slot] and d < goal:
            step(battle, s, m, -fwd, min(hexes, goal - d))
    if deployed and m.pos == start:  # reading R6: it must leave its Base
        step(battle, s, m, fwd, 1)


def dash(battle: Battle, st: Static, s: State, m: Mech, target: Mech, t: int) -> None:
    """e: no weapon in range of the target: Dash toward the goal."""
    p = battle.params
    pay(s, m, t, p.dash_tl)
    d = abs(target.pos - m.pos)
    hexes = int(rules.dash_hexes(bool(rules.engaged(d)), p))  # reading R5
    step(battle, s, m, forward(m.side), min(hexes, d - goal_of(st, m)))


def energize(battle: Battle, s: State, m: Mech, t: int) -> None:
    """e: no target: Energize."""
    pay(s, m, t, battle.params.energize_tl)
    m.energy += battle.params.energize_gain


def choose_weapon(st: Static, m: Mech, target: Mech, in_range: list[int]) -> int:
    """Reading R7: the weapon in range with the most expected damage against the
    target's active Shields (per TL with ``per_tl``); ties: the first weapon."""
    best, weight = -1, 0.0
    for k in in_range:
        table = st.w_expected[m.slot][k]
        w = policy.weapon_weight(
            table[min(target.active, len(table) - 1)], st.w_tl[m.slot][k], st.per_tl[m.slot]
        )
        if policy.outweighs(w, weight, best >= 0):
            best, weight = k, w
    return best


def crit_effect(
    battle: Battle, s: State, m: Mech, v: Mech, effect: int, value: int, k: int
) -> None:
    """Step 6 on one target: Slow, Fracture, Disarm (one of each at a time), Push, Pull.
    (Damage+X is added in :func:`damage`.)"""
    p = battle.params
    if effect == rules.SLOW:
        v.slow = True
    elif effect == rules.FRACTURE:
        v.fracture = True
    elif effect == rules.DISARM:
        v.disarm = True
    elif effect == rules.PUSH:  # reading R12
        moved = step(battle, s, v, -forward(v.side), value)
        if rules.pushed_off(moved, value, p):
            hurt = int(rules.collision(v.active, p))
            v.active -= int(rules.blocked(p.collision_damage, v.active))
            v.hp -= hurt
            s.count("damage", m.side, hurt)
            s.count(f"damage_w{k}", m.side, hurt)
    elif effect == rules.PULL:  # reading R12
        d = abs(v.pos - m.pos)
        if not rules.engaged(d):
            step(battle, s, v, forward(v.side), min(value, d - 1))


def attack(
    battle: Battle, st: Static, s: State, dice: Dice, m: Mech, target: Mech, k: int, t: int
) -> None:
    """f: pay the weapon's TL, play the first card, then strength / accuracy abilities;
    roll; a Disarmed attacker re-rolls its hits; crit effect on every target; g."""
    p, i = battle.params, m.slot
    pay(s, m, t, st.w_tl[i][k])
    s.count("attacks", m.side)
    s.count("tl_attack", m.side, st.w_tl[i][k])
    s.count(f"tl_w{k}", m.side, st.w_tl[i][k])
    strength, accuracy = st.w_strength[i][k], st.w_accuracy[i][k]
    crit_from, plus = st.w_crit_from[i][k], 0
    hand = s.hand[m.side]
    if hand:  # reading R8
        card = hand.pop(0)
        effect, value = st.t_effect[m.side][card], st.t_value[m.side][card]
        if effect == TACTIC["accuracy"]:
            accuracy += value
        elif effect == TACTIC["strength"]:
            strength += value
        elif effect == TACTIC["crit_from"]:
            crit_from = min(crit_from, value)
        else:
            plus += value
    if st.use_abilities[i]:  # reading R3
        for effect, energy, value in st.abilities[i]:
            if effect in (ABILITY["strength"], ABILITY["accuracy"]) and policy.uses_attack_ability(
                st.use_abilities[i], m.energy, energy
            ):
                m.energy -= energy
                if effect == ABILITY["strength"]:
                    strength += value
                else:
                    accuracy += value
    faces = dice.faces([strength], p.die)[0].tolist()
    hits = sum(bool(rules.is_hit(f, accuracy, crit_from, p)) for f in faces)
    if m.disarm:  # re-roll every hit die; the re-roll decides; no crit effect
        faces = dice.faces([hits], p.die)[0].tolist()
        hits = sum(bool(rules.is_hit(f, accuracy, crit_from, p)) for f in faces)
        crits = sum(bool(rules.is_crit(f, crit_from, p)) for f in faces)  # reading R10
        triggered = False
        m.disarm = False
    else:
        crits = sum(bool(rules.is_crit(f, crit_from, p)) for f in faces)
        triggered = crits > 0
    s.count("hits", m.side, hits)
    s.count("crits", m.side, crits)
    area = st.w_area[i][k]
    targets = (
        [v for v in s.enemies(m.side) if abs(v.pos - target.pos) <= area] if area else [target]
    )  # R11
    effect, value = st.w_effect[i][k], st.w_value[i][k]
    if triggered:
        if effect == rules.DAMAGE:
            plus += value
        else:
            for v in targets:
                crit_effect(battle, s, m, v, effect, value, k)
    for v in targets:
        damage(battle, st, s, m, v, hits, plus, k, t)


def damage(
    battle: Battle, st: Static, s: State, m: Mech, v: Mech, hits: int, plus: int, k: int, t: int
) -> None:
    """g on one target: ``rules.combat_damage``, the Shields used flip off, Fracture
    removed when it added damage (R13); at 0 HP defeated (R14)."""
    p = battle.params
    plain = int(rules.combat_damage(hits, v.active, plus, False, p))
    dealt = int(rules.combat_damage(hits, v.active, plus, v.fracture, p))
    if dealt != plain:
        v.fracture = False
    # the Shields that met damage flip off (the hits; with damage_x = before_shields
    # the Damage+X too)
    v.active -= int(rules.blocked(rules.met_by_shields(hits, plus, p), v.active))
    v.hp -= dealt
    s.count("damage", m.side, dealt)  # reading R15: in full
    s.count(f"damage_w{k}", m.side, dealt)
    if rules.defeated(v.hp):
        defeat(battle, st, s, v, m.side, t)


def defeat(battle: Battle, st: Static, s: State, v: Mech, by: int, t: int) -> None:
    """To the Reserve; its token moves ``rules.after_defeat`` (arriving last there); full
    HP, no status, Energy kept; the opponent scores its VP."""
    v.pos = None
    v.time = int(rules.after_defeat(v.time, battle.params))
    v.seq = s.seq
    s.seq += 1
    v.hp = st.hp[v.slot]
    v.slow = v.fracture = v.disarm = False
    s.count("vp", by, st.vp[v.slot])
    s.count("defeats", v.side)
    if s.tally["first_defeat"][by] == 0:
        s.tally["first_defeat"][by] = t  # reading R15


def best_weight(st: Static, m: Mech, target: Mech, d: int) -> float | None:
    """Reading R7's weight of the weapon the policy would choose against ``target`` at
    distance ``d`` (None: no weapon reaches)."""
    in_range = [k for k in st.weapons[m.slot] if st.w_range[m.slot][k] >= d]
    if not in_range:
        return None
    k = choose_weapon(st, m, target, in_range)
    table = st.w_expected[m.slot][k]
    return policy.weapon_weight(
        table[min(target.active, len(table) - 1)], st.w_tl[m.slot][k], st.per_tl[m.slot]
    )


def advances_after(
    battle: Battle, st: Static, s: State, m: Mech, target: Mech | None, deployed: bool
) -> bool:
    """Reading R17 (rules parameter ``advance``): ``before`` always Advances first;
    ``either`` ("you can Advance before or after your Primary Action") Advances after an
    attack when the policy's weapon from where the unit stands weighs strictly more than
    from where the Advance would take it (``policy.advances_after``)."""
    if battle.params.advance != "either" or target is None:
        return False
    now = best_weight(st, m, target, abs(target.pos - m.pos))
    pos, slow = m.pos, m.slow  # where the Advance would take it, undone
    advance(battle, st, s, m, target, deployed)
    then = best_weight(st, m, target, abs(target.pos - m.pos))
    m.pos, m.slow = pos, slow
    return bool(policy.advances_after(now is not None, now or 0.0, then is not None, then or 0.0))


def activate(battle: Battle, st: Static, s: State, dice: Dice, m: Mech, t: int) -> None:
    """Steps a-g of one activation at time t (with ``advance = either``, d may come
    after f: reading R17)."""
    s.count("activations", m.side)
    s.last = m.side
    deployed = deploy(battle, st, m)
    abilities(battle, st, s, m)
    target = target_of(s, m)
    later = advances_after(battle, st, s, m, target, deployed)
    if not later:
        advance(battle, st, s, m, target, deployed)
    if policy.energizes(target is not None):
        return energize(battle, s, m, t)
    d = abs(target.pos - m.pos)
    in_range = [k for k in st.weapons[m.slot] if st.w_range[m.slot][k] >= d]
    if policy.dashes(target is not None, bool(in_range)):
        return dash(battle, st, s, m, target, t)
    attack(battle, st, s, dice, m, target, choose_weapon(st, m, target, in_range), t)
    if later:  # R17: the Advance after the attack, toward the nearest enemy now
        advance(battle, st, s, m, target_of(s, m), deployed)


# ---- the walk and the end ----------------------------------------------------------------


def walk(battle: Battle, s: State, dice: Dice) -> None:
    """2: times 1 .. last; each Phase after the first begins with the draw."""
    p, st = battle.params, static(battle)
    for t in range(1, rules.last_time(p) + 1):
        if t > 1 and rules.phase_of(t, p) != rules.phase_of(t - 1, p):
            for side in (A, B):
                draw(s, side, p.tactics_draw)
        while (m := next_up(s, t)) is not None:
            activate(battle, st, s, dice, m, t)


def end(s: State) -> int:
    """4: ``rules.winner``: more VP wins; equal VP goes to the side that acted last."""
    vp = s.tally["vp"]
    return rules.winner(vp[A], vp[B], s.last)


# ---- results -----------------------------------------------------------------------------


def results(s: State) -> dict[str, int]:
    out = {"winner": end(s)}
    for side, x in ((A, "a"), (B, "b")):
        for k in TALLY:
            out[f"{k}_{x}"] = s.tally[k][side]
    return {k: out[k] for k in FIELDS}


def play_battle(battle: Battle, dice: Dice) -> dict[str, int]:
    """One game to its end, every die read from ``dice`` in the docstring's order."""
    s = setup(battle, dice)
    walk(battle, s, dice)
    return results(s)


# play_dice(battles, scenario_ids, dice): games one after another on ``dice``, game i
# playing ``battles[scenario_ids[i]]``; play: the engine contract's, on dice from ``rng``
play_dice = engine.one_at_a_time(play_battle, FIELDS, batch_key)
play = engine.seeded(play_dice)
