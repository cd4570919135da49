"""The Alluvion Knights reference engine: one battle at a time, rule by rule (the oracle).

A battle is a mutable :class:`State` (four :class:`Armor` slots, the squads, the Spot
values, the tally) walked round by round through one function per step of
``battle.py``'s round procedure (its module docstring is the spec, dice order included):

1. :func:`pools`, 2. :func:`initiative`, 3. :func:`turn` (each action through
:func:`action`: a :func:`break_free`, b :func:`clear_infantry`, c :func:`spot`,
d :func:`grapple`, e :func:`move`, f :func:`attack`, g lost; then :func:`battery`),
4. :func:`foot_soldiers`, 5. :func:`morale`, 6. :func:`end`.

Every number comes from a ``rules.py`` call; every die is read from the :class:`Dice`
passed in, one at a time (``dice.roll(sides, 1)``), a hit's damage dice as one block
(``dice.faces([m], damage_die)``), in the docstring's order.

Readings taken where the docstring leaves a choice (the vector engine must take the same;
each is marked ``# reading`` where it is applied):

R1  "Operable" means in the fight: not inoperable, pilot not down, not shut down. The
    morale check's "lost" Armors and the lead lost count all three.
R2  Equal faces in one pool: the die rolled first is spent first (a weapon die before the
    rocket die). Defense: Resistive before ECM at equal faces, then roll order.
R3  The system a grapple disables is picked at each round's Pools step while the Armor
    is grappled (the first kind of GRAPPLE_LOSS it has live) and holds for that whole
    round ("usable" for attacks, moves, reach too), even after a break free that round.
R4  A grapple ends when either Armor is out of the fight; it does not end with distance.
R5  The grappled Armor is cover only for its ALLIES' ranged non-smart attacks (Armors'
    and squads') on its grappler, not for its own: it is not "in the way" of its own
    fire. Such a target counts as in cover (the ``cover`` case, Direct Hits on 6); the
    grappled Armor takes the cover's share, before any terrain cover of the grappler
    (which then loses no OH). Its Direct Hits count in the attacking side's
    ``direct_hits``.
R6  Terrain cover loses 1 OH per non-Direct-Hit die, down to 0 (the excess is lost);
    the damage case is fixed when the dice are rolled.
R7  Direct Hits apply to the target first (its loss dice), then to the grappled cover.
    Loss dice are rolled one per system lost while the Armor is still in the fight;
    once it is out the rest are not rolled.
R8  "An attack reaches" (3e) is the attack kind of 3f being available, whatever dice
    are left; 3b needs no die left (with none it fells 0 soldiers); clearing infantry is
    no attack (not counted in ``attacks``).
R9  Moving leaves cover (without a usable movement system) whenever the move action is
    taken. Spotting reach reads terrain cover only (``cover`` OH > 0).
R10 Ambush: only step 3 is limited to the ambusher; foot soldiers (4) act as in any
    round, and the ambusher is "the side that went first" for their ties.
R11 A side whose Armors are all out still takes its morale check when due (the dice are
    rolled). Morale dice have ``morale_die`` sides, the initiative tie-breaker is a d2
    (D2).
R12 The Opportunity die is rolled only when ``opportunity_die`` > 0.
R13 ``skill_dice_use = any``: a Skill die replaces a pool's die only when strictly higher
    (the pool's die at equal faces); the defender's candidates list Resistive, ECM, then
    Skill dice, so at equal faces a Defense die is spent before a Skill die.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sims.alluvion import policy, rules
from sims.alluvion.battle import FIELDS, GRAPPLE_LOSS, Battle, batch_key
from sims.core import engine
from sims.core.batch import Dice

ENGINE_VERSION = "alluvion-reference-1"

A, B = rules.SIDE_A, rules.SIDE_B  # the sides, also their winner codes
ONGOING = rules.ONGOING
D2 = 2  # the initiative tie-breaker
ROCKET = True  # an Attack die's flag: this round's rocket die


@dataclass
class Armor:
    """One Armor slot between steps. The pools hold this round's unspent dice in roll
    order (the attack pool as (face, is_rocket) pairs)."""

    slot: int
    side: int
    present: bool
    live: list[int]  # systems not destroyed, per kind (KINDS order)
    rockets: int  # single-shot rockets left
    pilot: int  # pilot HP left
    pos: int  # hex on the line (side A starts at 0, side B at range)
    cover: int  # OH of the cover it is behind, 0 exposed
    direct_hits: int = 0  # Direct Hits taken over the battle
    out: bool = False  # inoperable, pilot down or shut down (or never fielded)
    grappling: int = -1  # slot it holds
    grappled_by: int = -1  # slot holding it
    disabled: int = -1  # kind a grapple disabled this round (R3), -1 none
    done: bool = False  # took its turn this round
    skill: list[int] = field(default_factory=list)
    attack: list[tuple[int, bool]] = field(default_factory=list)
    ecm: list[int] = field(default_factory=list)
    resistive: list[int] = field(default_factory=list)
    move: list[int] = field(default_factory=list)
    spot: list[int] = field(default_factory=list)

    def usable(self) -> tuple[int, ...]:
        """Systems not destroyed, less one of the kind a grapple disabled (R3)."""
        u = list(self.live)
        if self.disabled >= 0 and u[self.disabled] > 0:
            u[self.disabled] -= 1
        return tuple(u)


TALLY = (
    "attacks",
    "hits",
    "direct_hits",
    "systems_lost",
    "pilot_hits",
    "soldiers_lost",
    "shutdowns",
    "grapples",
)


@dataclass
class State:
    armors: list[Armor]
    squads: list[list[int]]  # soldiers left in each squad, per side
    squad_pos: tuple[int, int]  # where each side's squads stand
    spot: list[list[int]] = field(default_factory=lambda: [[0] * 4, [0] * 4])  # [side][slot]
    round: int = 0
    first: int = A  # the side that went first this round
    checked: list[bool] = field(default_factory=lambda: [False, False])  # morale checked
    routed: list[bool] = field(default_factory=lambda: [False, False])
    winner: int = ONGOING
    tally: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0] for k in TALLY})

    def count(self, what: str, side: int, n: int = 1) -> None:
        self.tally[what][side] += n

    def side_armors(self, side: int) -> list[Armor]:
        return self.armors[2 * side : 2 * side + 2]


def start(battle: Battle) -> State:
    p = battle.params
    armors = []
    for i in range(4):
        side, here = battle.side(i), bool(battle.present[i])
        armors.append(
            Armor(
                slot=i,
                side=side,
                present=here,
                live=[int(x) for x in battle.counts[i]],
                rockets=int(battle.rockets[i]),
                pilot=p.pilot_hp,
                pos=side * int(battle.range),
                cover=int(battle.cover_oh[i]),
                out=not here,
            )
        )
    squads = [[p.squad_size] * int(battle.squads[side]) for side in (A, B)]
    return State(armors=armors, squads=squads, squad_pos=(0, int(battle.range)))


# ---- dice -------------------------------------------------------------------------------


def roll(dice: Dice, sides: int) -> int:
    return int(dice.roll(sides, 1)[0])


def spend_highest(pool: list[int]) -> int:
    """Spend the highest unspent die of a pool (the first rolled at equal faces, R2);
    0 when the pool is empty."""
    if not pool:
        return 0
    i = max(range(len(pool)), key=pool.__getitem__)
    return pool.pop(i)


def spend_pool(pool: list[int], a: Armor, params) -> int:
    """Spend the highest unspent die of ``pool`` (R2), or the Armor's highest Skill die
    where ``rules.skill_replaces`` (``skill_dice_use``: fill once the pool is spent; any
    whenever the Skill die is higher); 0 when neither has a die."""
    if rules.skill_replaces(max(pool, default=0), max(a.skill, default=0), params):
        return spend_highest(a.skill)
    return spend_highest(pool)


def spend_attack(a: Armor, params) -> int:
    """Spend the highest unspent Attack die, rocket included (R2), else (``rules.
    skill_replaces``) the highest Skill die, else 0."""
    best = max((f for f, _ in a.attack), default=0)
    if rules.skill_replaces(best, max(a.skill, default=0), params):
        return spend_highest(a.skill)
    if not a.attack:
        return 0
    i = max(range(len(a.attack)), key=lambda j: a.attack[j][0])
    return a.attack.pop(i)[0]


def spend_move(a: Armor, params) -> int:
    """The highest unspent Move die, else (``rules.skill_replaces``) Skill die, else 0
    (spent)."""
    return spend_pool(a.move, a, params)


# ---- 1. pools ----------------------------------------------------------------------------


def pools(battle: Battle, s: State, dice: Dice) -> None:
    """Each operable Armor in slot order rolls its Skill, Attack (+ the rocket die),
    Defense (ECM first), Move and Spot dice on its usable systems; Spot values clear."""
    p = battle.params
    s.spot = [[0] * 4, [0] * 4]
    for a in s.armors:
        a.done = False
        a.skill, a.attack, a.ecm, a.resistive, a.move, a.spot = [], [], [], [], [], []
        if a.out:
            continue
        # reading R3: the grapple's disabled kind, picked anew each round from live systems
        a.disabled = (
            next((k for k in GRAPPLE_LOSS if a.live[k] > 0), -1) if a.grappled_by >= 0 else -1
        )
        u = a.usable()
        a.skill = [roll(dice, x) for x in rules.skill_dice(p)]
        a.attack = [(roll(dice, x), not ROCKET) for x in rules.attack_dice(u, p)]
        start_at = int(battle.rockets_from[a.slot])
        if policy.fires_rocket(a.rockets, start_at, s.round):
            a.rockets -= 1  # spent with the roll
            a.attack += [(roll(dice, x), ROCKET) for x in rules.rocket_dice(1, p)]
        ecm, resistive = rules.defense_dice(u, p)
        a.ecm = [roll(dice, x) for x in ecm]
        a.resistive = [roll(dice, x) for x in resistive]
        a.move = [roll(dice, x) for x in rules.move_dice(u, p)]
        a.spot = [roll(dice, x) for x in rules.spot_dice(u, p)]


# ---- 2. initiative -----------------------------------------------------------------------


def initiative(battle: Battle, s: State, dice: Dice) -> tuple[int, ...]:
    """The sides acting in step 3, in order: the ambusher alone in round 1 of an ambush;
    else ``rules.initiative_first`` (the higher Ace, highest Skill die; equal Aces the
    larger Skill sum with initiative_tie = sum), then a d2."""
    if s.round == 1 and battle.ambush >= 0:
        return (battle.ambush,)
    skill = [[f for a in s.side_armors(side) if not a.out for f in a.skill] for side in (A, B)]
    aces = [max(x, default=0) for x in skill]
    sums = [sum(x) for x in skill]
    first = rules.initiative_first(aces[A], aces[B], sums[A], sums[B], battle.params)
    if first < 0:
        first = A if roll(dice, D2) == 1 else B
    return (first, 1 - first)


# ---- 3. turns ----------------------------------------------------------------------------


def target_of(s: State, a: Armor) -> Armor | None:
    """``policy.first_target``: the first operable enemy Armor in slot order."""
    lead, second = s.side_armors(1 - a.side)
    slot = policy.first_target(not lead.out, not second.out, lead.slot)
    return s.armors[slot] if slot >= 0 else None


def attack_kind(battle: Battle, a: Armor, d: int) -> str | None:
    """3f: the attack that reaches the target: close (usable Hand-to-Hand, d <= 1), else
    smart (usable Smart), else ranged (usable Direct Fire or the rocket die unspent)."""
    u = a.usable()
    close_quarters = u[rules.HAND_TO_HAND] > 0 and d <= 1
    ranged = u[rules.DIRECT_FIRE] > 0 or any(r for _, r in a.attack)
    code = policy.attack_kind(close_quarters, u[rules.SMART] > 0, ranged)
    return policy.ATTACKS[code] if code != policy.NO_ATTACK else None


def move_goal(battle: Battle, a: Armor, d: int, kind: str | None) -> int | None:
    """3e: the distance the Armor moves to (``policy.move_goal``), or None when it does
    not move (``policy.moves``); reading R8: ``kind`` None is no attack reaching."""
    p = battle.params
    hand_to_hand = a.usable()[rules.HAND_TO_HAND] > 0
    close_in = policy.closes_in(bool(battle.approach[a.slot]), hand_to_hand, kind is not None)
    goal = policy.move_goal(close_in, p.direct_fire_range)
    hold, grappled = bool(battle.hold[a.slot]), a.grappled_by >= 0
    if policy.moves(hold, grappled, close_in, bool(rules.beyond_range(d, p)), d, goal):
        return goal
    return None


def enemy_squad_in_range(battle: Battle, s: State, a: Armor) -> int | None:
    """3b: the first enemy squad with soldiers, when within direct fire range."""
    enemy = 1 - a.side
    if rules.beyond_range(abs(a.pos - s.squad_pos[enemy]), battle.params):
        return None
    return next((q for q, n in enumerate(s.squads[enemy]) if n > 0), None)


def ally_yet_to_act(s: State, a: Armor) -> bool:
    """3c: an operable ally that has not taken its turn this round."""
    return any(not x.out and not x.done for x in s.side_armors(a.side) if x is not a)


def within_reach(battle: Battle, a: Armor, t: Armor, d: int) -> bool:
    """3c: the target within the Armor's spotting reach (``reach.toml``)."""
    k = min(a.usable()[rules.SURVEILLANCE], len(battle.reach_range) - 1)
    # reading R9: terrain cover only
    return bool(rules.can_spot(k, d, t.cover > 0, battle.reach_range[k], battle.reach_cover[k]))


def action(battle: Battle, s: State, dice: Dice, a: Armor, k: int) -> None:
    """Action ``k`` of Armor ``a``: the first of 3a-3g that applies."""
    p = battle.params
    last = k == p.actions - 1
    t = target_of(s, a)
    d = abs(a.pos - t.pos) if t is not None else 0
    if policy.tries_to_break_free(a.grappled_by >= 0, k == 0):
        return break_free(s, a)
    q = enemy_squad_in_range(battle, s, a) if last else None
    if policy.clears_infantry(bool(battle.clear_infantry[a.slot]), last, q is not None):
        return clear_infantry(battle, s, a, q)
    if t is None:
        return None  # g: nothing to act on
    spotter, die_left = bool(battle.spotter[a.slot]), bool(a.spot or a.skill)
    ally, sees = ally_yet_to_act(s, a), within_reach(battle, a, t, d)
    if policy.spots(spotter, last, die_left, ally, sees):
        return spot(battle, s, a, t)
    grappling, grappled = a.grappling >= 0, a.grappled_by >= 0
    if policy.grapples(
        bool(battle.grapple[a.slot]), d, grappling, grappled, t.grappled_by >= 0, bool(a.skill)
    ):
        return grapple(battle, s, a, t)
    kind = attack_kind(battle, a, d)
    goal = move_goal(battle, a, d, kind)
    if goal is not None:
        return move(battle, a, t, d, goal)
    if policy.attacks(kind is not None, bool(a.attack or a.skill)):
        return attack(battle, s, dice, a, t, d, kind)
    return None  # g: the action is lost


def break_free(s: State, a: Armor) -> None:
    """3a: the highest unspent Skill dice, neither spent; free only when higher."""
    holder = s.armors[a.grappled_by]
    if rules.breaks_free(max(a.skill, default=0), max(holder.skill, default=0)):
        release(s, a)


def release(s: State, held: Armor) -> None:
    if held.grappled_by >= 0:
        s.armors[held.grappled_by].grappling = -1
        held.grappled_by = -1


def clear_infantry(battle: Battle, s: State, a: Armor, q: int) -> None:
    """3b: the highest unspent Attack die (else Skill die) fells that many soldiers."""
    enemy = 1 - a.side
    fall = int(rules.soldiers_fall(spend_attack(a, battle.params), s.squads[enemy][q]))
    s.squads[enemy][q] -= fall
    s.count("soldiers_lost", enemy, fall)


def spot(battle: Battle, s: State, a: Armor, t: Armor) -> None:
    """3c: the highest unspent Spot die (else Skill die, ``spend_pool``) on the target; a
    higher Spot replaces a lower one."""
    die = spend_pool(a.spot, a, battle.params)
    s.spot[a.side][t.slot] = max(s.spot[a.side][t.slot], die)


def grapple(battle: Battle, s: State, a: Armor, t: Armor) -> None:
    """3d: the highest Skill die against the target's highest Move die (else Skill die,
    else 0; ``spend_move``), both spent."""
    mine = spend_highest(a.skill)
    theirs = spend_move(t, battle.params)
    if rules.grapples(mine, theirs):
        a.grappling, t.grappled_by = t.slot, a.slot
        s.count("grapples", a.side)


def move(battle: Battle, a: Armor, t: Armor, d: int, goal: int) -> None:
    """3e: toward the target by ``rules.hexes_moved``, stopping at the goal."""
    p = battle.params
    hexes = int(rules.hexes_moved(int(battle.base_move[a.slot]), spend_move(a, p), p))
    a.pos += min(hexes, d - goal) * (1 if t.pos > a.pos else -1)
    if not a.usable()[rules.MOVEMENT]:
        a.cover = 0  # reading R9: leaves cover whenever it moves


def attack(battle: Battle, s: State, dice: Dice, a: Armor, t: Armor, d: int, kind: str) -> None:
    """3f: the highest unspent Attack die (else Skill die) against the target."""
    resolve(battle, s, dice, a.side, a.slot, t, spend_attack(a, battle.params), kind, d)


def defend(battle: Battle, t: Armor, value: int, spot_value: int, opp: int, kind: str) -> int:
    """The defender's die against one attack, spent: from the dice that may meet it
    (a Smart attack: ECM only with smart_defense = ecm), ``block`` the smallest that makes
    it miss else the smallest, ``highest`` the highest; Resistive before ECM at equal
    faces (R2); none: the highest Skill die; none: 0. With ``skill_dice_use = any``
    (``rules.skill_in_every_pool``) the unspent Skill dice are among the dice it chooses
    from, after the Defense dice at equal faces."""
    p = battle.params
    ecm_only = kind == "smart" and p.smart_defense == "ecm"
    # (face, 0 Resistive / 1 ECM / 2 Skill, roll order): min breaks equal faces
    # Resistive first, Skill last
    cands = [] if ecm_only else [(f, 0, i) for i, f in enumerate(t.resistive)]
    cands += [(f, 1, i) for i, f in enumerate(t.ecm)]
    if rules.skill_in_every_pool(p):
        cands += [(f, 2, i) for i, f in enumerate(t.skill)]
    if not cands:
        return spend_highest(t.skill)
    if policy.blocks(battle.defense[t.slot]):
        misses = [c for c in cands if not rules.is_hit(value, spot_value, c[0] + opp, p)]
        face, fam, i = min(misses or cands)
    else:
        face, fam, i = min(cands, key=lambda c: (-c[0], c[1], c[2]))
    (t.resistive, t.ecm, t.skill)[fam].pop(i)
    return face


def resolve(
    battle: Battle,
    s: State,
    dice: Dice,
    side: int,
    attacker: int,
    t: Armor,
    value: int,
    kind: str,
    d: int,
) -> None:
    """An attack of ``value`` by side ``side`` (Armor slot ``attacker``, -1 a squad) on
    ``t``: Spot added and consumed, Opportunity die, the defender's die, the hit, the
    damage dice, cover, Direct Hits and the systems they destroy."""
    p = battle.params
    spot_value = s.spot[side][t.slot]
    s.spot[side][t.slot] = 0
    opp = 0
    if kind != "close" and rules.beyond_range(d, p) and p.opportunity_die:  # reading R12
        opp = roll(dice, p.opportunity_die)
    defense = defend(battle, t, value, spot_value, opp, kind) + opp
    s.count("attacks", side)
    if not rules.is_hit(value, spot_value, defense, p):
        return
    s.count("hits", side)
    m = int(rules.margin(value, spot_value, defense, p))
    faces = [int(f) for f in dice.faces([m], p.damage_die)[0]]
    # reading R5: the grappled Armor shields its grappler from its allies' ranged fire
    shield = None
    if kind == "ranged" and t.grappling >= 0 and t.grappling != attacker:
        held = s.armors[t.grappling]
        shield = held if held.side == side else None
    case = rules.attack_case(kind, shield is not None or t.cover > 0)
    direct = sum(f >= rules.direct_from(case, p) for f in faces)
    other = m - direct
    s.count("direct_hits", side, direct)
    if case == rules.COVER:
        if shield is not None:
            s.count("direct_hits", side, other)
        else:
            t.cover = max(t.cover - other, 0)  # reading R6
    take_direct_hits(battle, s, dice, t, direct)  # reading R7: the target first
    if case == rules.COVER and shield is not None:
        take_direct_hits(battle, s, dice, shield, other)


def take_direct_hits(battle: Battle, s: State, dice: Dice, t: Armor, n: int) -> None:
    """Direct Hits accumulate; each ``hits_per_system`` destroy a system (a loss die each
    with ``system_loss = roll``: the pilot on a 6; else the attacker's choice)."""
    p = battle.params
    before = t.direct_hits
    t.direct_hits += n
    for _ in range(int(rules.systems_lost(before, t.direct_hits, p))):
        if t.out:  # reading R7: no loss die for an Armor already out
            return
        if p.system_loss == "roll":
            pick = int(rules.loss_target(roll(dice, p.loss_die), sum(t.live), p))
            if pick < 0:
                t.pilot -= 1
                s.count("pilot_hits", t.side)
                if t.pilot <= 0:
                    knock_out(s, t)
                continue
            kind = int(rules.kind_of(t.live, pick))
        else:
            kind = int(rules.chosen_kind(t.live))
        t.live[kind] -= 1
        s.count("systems_lost", t.side)
        if sum(t.live) == 0:
            knock_out(s, t)


def knock_out(s: State, a: Armor) -> None:
    """Out of the fight; its grapples end (reading R4)."""
    a.out = True
    release(s, a)
    if a.grappling >= 0:
        release(s, s.armors[a.grappling])


def battery(battle: Battle, s: State, dice: Dice, a: Armor) -> None:
    """After its turn a depleted Armor rolls the battery die; a 1 shuts it down."""
    if battle.depleted[a.slot] and not a.out:
        if rules.shuts_down(roll(dice, battle.params.battery_die), battle.params):
            knock_out(s, a)
            s.count("shutdowns", a.side)


def turn(battle: Battle, s: State, dice: Dice, a: Armor) -> None:
    for k in range(battle.params.actions):
        if a.out:
            break
        action(battle, s, dice, a, k)
    a.done = True
    battery(battle, s, dice, a)


# ---- 4. foot soldiers --------------------------------------------------------------------


def foot_soldiers(battle: Battle, s: State, dice: Dice) -> None:
    """Squad initiative (a roll per side only when both have squads), then each squad
    with soldiers attacks the first operable enemy Armor within direct fire range."""
    p = battle.params
    left = [any(n > 0 for n in s.squads[side]) for side in (A, B)]
    if not any(left):
        return
    if all(left):
        ra = roll(dice, p.squad_initiative_die) + int(battle.morale[A])
        rb = roll(dice, p.squad_initiative_die) + int(battle.morale[B])
        first = A if ra > rb else B if rb > ra else s.first
    else:
        first = A if left[A] else B
    for side in (first, 1 - first):
        for q in range(len(s.squads[side])):
            if s.squads[side][q] <= 0:
                continue
            d_of = [abs(s.squad_pos[side] - t.pos) for t in s.armors]
            lead, second = s.side_armors(1 - side)
            ok = [not t.out and not rules.beyond_range(d_of[t.slot], p) for t in (lead, second)]
            slot = policy.first_target(ok[0], ok[1], lead.slot)
            if slot < 0:
                continue
            t = s.armors[slot]
            resolve(battle, s, dice, side, -1, t, roll(dice, p.squad_die), "ranged", d_of[t.slot])


# ---- 5. morale, 6. end -------------------------------------------------------------------


def morale(battle: Battle, s: State, dice: Dice) -> None:
    """Each side with a rating, not yet checked, that has lost half its Armors or its
    lead rolls ``morale_dice`` d6 once; a sum over the rating routs it."""
    p = battle.params
    for side in (A, B):
        rating = int(battle.morale[side])
        if rating <= 0 or s.checked[side]:
            continue
        fielded = [a for a in s.side_armors(side) if a.present]
        lost = sum(a.out for a in fielded)
        if rules.morale_check_due(lost, len(fielded), fielded[0].out):
            s.checked[side] = True
            total = sum(roll(dice, p.morale_die) for _ in range(p.morale_dice))
            s.routed[side] = bool(rules.routs(total, rating))


def beaten(s: State, side: int) -> bool:
    return s.routed[side] or all(a.out for a in s.side_armors(side))


def end(battle: Battle, s: State) -> None:
    """6. End: ``rules.winner``."""
    s.winner = rules.winner(beaten(s, A), beaten(s, B), s.round >= battle.params.round_cap)


def play_round(battle: Battle, s: State, dice: Dice) -> None:
    s.round += 1
    pools(battle, s, dice)
    order = initiative(battle, s, dice)
    s.first = order[0]
    for side in order:
        for a in s.side_armors(side):
            if not a.out:
                turn(battle, s, dice, a)
    foot_soldiers(battle, s, dice)
    morale(battle, s, dice)
    end(battle, s)


# ---- results -----------------------------------------------------------------------------


def results(s: State) -> dict[str, int]:
    out = {"winner": s.winner, "rounds": s.round}
    for side, x in ((A, "a"), (B, "b")):
        out[f"routed_{x}"] = int(s.routed[side])
        for k in TALLY:
            out[f"{k}_{x}"] = s.tally[k][side]
        out[f"armors_left_{x}"] = sum(a.present and not a.out for a in s.side_armors(side))
    return {k: out[k] for k in FIELDS}


def play_battle(battle: Battle, dice: Dice) -> dict[str, int]:
    """One battle to its end, every die read from ``dice`` in the docstring's order."""
    s = start(battle)
    while s.winner == ONGOING:
        play_round(battle, s, dice)
    return results(s)


# play_dice(battles, scenario_ids, dice): battles one after another on ``dice``, battle i
# playing ``battles[scenario_ids[i]]``; play: the engine contract's, on dice from ``rng``
play_dice = engine.one_at_a_time(play_battle, FIELDS, batch_key)
play = engine.seeded(play_dice)
