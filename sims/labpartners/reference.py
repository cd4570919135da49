"""The Lab Partners reference engine: one battle at a time, rule by rule (the oracle).

A battle is a small frozen :class:`State` walked round by round by one function per step
of the round (``battle.py``'s docstring is the round procedure):

- :func:`initiative` (step 1), :func:`intervention` (step 2, campaign only),
- :func:`mech_action` (rebuild, fire or punch), :func:`kaiju_action` (its attacks),
- :func:`end_of_round` (regen, the city at ``battle_rounds``).

Every number comes from a ``rules.py`` call on the compiled :class:`Battle`'s tables.
The only dice of a round are the mech action's: :func:`mech_dice` lists them (a d20 per
damaging Arm that can crit, ``arm_1`` first, or the punch's d3), and :func:`mech_action`
takes their faces as an argument. A round is therefore two deterministic halves around
that one random step: :func:`begin_round` (initiative, intervention and the kaiju's
action when it is faster) and :func:`finish_round` (the mech's action on the given
faces, the kaiju's when it is slower, the end of the round). This engine reads the faces
from a :class:`Dice`; the exact DP (``exact_battle.py``) branches over them with exact
probabilities, so the round is written once, here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sims.core import engine
from sims.core.batch import Dice
from sims.labpartners import policy, rules
from sims.labpartners.battle import ARM_SLOTS, FIELDS, HEAD, LEGS, TORSO, Battle, batch_key
from sims.labpartners.catalog import PARTS, SLOT_PART, SLOTS

ENGINE_VERSION = "labpartners-reference-1"

WIN, CITY, DESTROYED, ONGOING = rules.WIN, rules.CITY, rules.DESTROYED, rules.ONGOING
SLOT_TYPE = tuple(PARTS.index(SLOT_PART[s]) for s in SLOTS)  # Part-Type of each slot
# campaign interventions (battle.EFFECTS)
REDIRECT, MAX_POWER, SURE_CRIT, RESTORE, NULL_ATTACK = 1, 2, 3, 4, 5


@dataclass(frozen=True)
class Tally:
    """What a battle counts for its results; the battle itself never reads it."""

    parts_lost: int = 0
    rebuilds: int = 0
    crits: int = 0
    punches: int = 0


@dataclass(frozen=True)
class State:
    """A battle between steps. The tally rides along outside equality and hashing: two
    states that differ only in it play on identically, so the exact DP merges them."""

    rows: tuple[int, ...]  # card-table row in each slot (SLOTS order), -1 a gap
    hp: tuple[int, ...]  # HP left of each slot's card (<= 0: destroyed)
    spares_used: tuple[int, ...]  # per Part-Type (PARTS order)
    kaiju: int  # the kaiju's HP
    round: int = 0  # the round being played (0 before the first)
    result: int = ONGOING  # rules.RESULTS code once the battle has ended
    mech_first: bool = False  # this round's initiative
    used: int = 0  # the campaign intervention was spent
    active: int = 0  # the intervention (EFFECTS code) spent this round, 0 none
    armor_off: int = 0  # Brawler's cost: the kaiju's next attack ignores the Armor
    halved: int = 0  # Ace's cost: Accuracy halved this round
    buff: int = 0  # Saboteur's cost: the kaiju's damage per attack +1
    tally: Tally = field(default=Tally(), compare=False)

    def intact(self, slot: int) -> bool:
        """A slot with a card that has HP left (# Battle: a destroyed part behaves
        exactly like a gap)."""
        return self.rows[slot] >= 0 and self.hp[slot] > 0

    def armless(self) -> bool:
        return not any(self.intact(s) for s in ARM_SLOTS)

    def wrecked(self) -> bool:
        return not any(self.intact(s) for s in range(len(SLOTS)))

    def count(self, **more: int) -> State:
        t = self.tally
        return replace(self, tally=replace(t, **{k: getattr(t, k) + v for k, v in more.items()}))


@dataclass(frozen=True)
class Die:
    """One die the mech's action rolls: the crit d20 of a damaging Arm (crits at or
    under ``acc``) or the wimpy punch's d3 (``acc`` unused)."""

    sides: int
    kind: str  # "crit" | "punch"
    acc: int = 0


def start(battle: Battle) -> State:
    """The mech as locked at the end of Assembly, the kaiju at full HP."""
    rows = tuple(s if battle.present[s] else -1 for s in range(len(SLOTS)))
    hp = tuple(int(battle.hp[s]) if battle.present[s] else 0 for s in range(len(SLOTS)))
    return State(rows=rows, hp=hp, spares_used=(0,) * len(PARTS), kaiju=int(battle.kaiju_hp))


# ---- 1. initiative -------------------------------------------------------------------


def initiative(battle: Battle, s: State) -> bool:
    """Battle/initiative: Mech Speed is the intact Legs' (0 without), ties to the mech."""
    speed = int(battle.speed[s.rows[LEGS]]) if s.intact(LEGS) else 0
    return bool(rules.mech_acts_first(speed, int(battle.kaiju_speed), bool(battle.mech_first)))


# ---- 2. the campaign intervention ----------------------------------------------------


def triggered(battle: Battle, s: State) -> bool:
    """The policy's trigger, tested at the start of the round (after initiative)."""
    return policy.spends_intervention(
        battle.intervene_when,
        s.round,
        s.armless(),
        s.kaiju,
        battle.intervene_at,
        not s.intact(TORSO),
    )


def restore_slots(battle: Battle, s: State) -> tuple[int, int] | None:
    """Medic: (the slot restored, the slot destroyed instead), or None when it cannot
    apply. Restored: the first destroyed part (a card at HP <= 0, not a gap) of the
    policy's rebuild_order Part-Types in turn, else the first in SLOTS order. Paid: the
    intact slot with the fewest HP left, ties to the last in SLOTS order."""
    destroyed = [x for x in range(len(SLOTS)) if s.rows[x] >= 0 and s.hp[x] <= 0]
    intact = [x for x in range(len(SLOTS)) if s.intact(x)]
    if not destroyed or not intact:
        return None
    wanted = [int(t) for t in battle.rebuild_order if t >= 0]

    def listed(x: int) -> int:  # the slot's Part-Type's place in the rebuild list
        return wanted.index(SLOT_TYPE[x]) if SLOT_TYPE[x] in wanted else len(PARTS)

    back = min(destroyed, key=lambda x: policy.restore_rank(listed(x), x))
    paid = min(intact, key=lambda x: policy.sacrifice_rank(s.hp[x], x))
    return back, paid


def intervention(battle: Battle, s: State) -> State:
    """Campaign (Pilot Specialties, Battle use): once per battle, on the round the
    trigger fires. Restore acts now; the other uses act in this round's actions
    (``active``); a restore with nothing destroyed waits for a later round."""
    if battle.effect == 0 or s.used or not triggered(battle, s):
        return s
    if battle.effect == RESTORE:
        pair = restore_slots(battle, s)
        if pair is None:
            return s
        back, paid = pair
        hp = list(s.hp)
        hp[back] = int(battle.hp[s.rows[back]])
        hp[paid] = 0
        return replace(s, hp=tuple(hp), used=1, active=RESTORE).count(parts_lost=1)
    return replace(s, used=1, active=int(battle.effect))


# ---- 3a. the mech's action -----------------------------------------------------------


def spare(battle: Battle, s: State, part: int) -> int:
    """The card-table row of the next unused spare of Part-Type ``part``, -1 if none."""
    k = s.spares_used[part]
    if k >= battle.spares:
        return -1
    row = battle.spare_row(part, k)
    return row if battle.present[row] else -1


def missing(s: State, part: int) -> bool:
    """A slot of Part-Type ``part`` is a gap or destroyed."""
    return any(not s.intact(x) for x in range(len(SLOTS)) if SLOT_TYPE[x] == part)


def rebuild_part(battle: Battle, s: State) -> int:
    """The Part-Type the group rebuilds this round instead of firing, -1 for none: the
    first listed one :func:`policy.rebuilds` takes, unless a disarmed group punches a
    nearly dead kaiju instead (:func:`policy.punches_to_finish`)."""
    if battle.spares == 0:  # no spare cards: no rebuild is possible
        return -1
    armless = s.armless()
    pick = next(
        (
            t
            for t in (int(t) for t in battle.rebuild_order if t >= 0)
            if policy.rebuilds(
                battle.rebuild_when, t, armless, missing(s, t), spare(battle, s, t) >= 0
            )
        ),
        -1,
    )
    if pick >= 0 and policy.punches_to_finish(armless, s.kaiju, battle.punch_finish):
        return -1
    return pick


def accuracy_now(battle: Battle, s: State) -> int:
    """The intact Head's Accuracy (0 without one), halved (rounding down) on the round
    after the Ace's sure crit."""
    acc = int(battle.acc[s.rows[HEAD]]) if s.intact(HEAD) else 0
    return acc // 2 if s.halved else acc


def arm_damages(battle: Battle, s: State) -> tuple[int, int]:
    """Each Arm slot's damage before combo and crit (0 for a non-intact Arm): with or
    without a Head, at max Power in the Brawler's round."""
    head = s.intact(HEAD)
    if s.active == MAX_POWER:
        table = battle.max_head if head else battle.max_nohead
    else:
        table = battle.dmg_head if head else battle.dmg_nohead
    d1, d2 = (int(table[s.rows[x]]) if s.intact(x) else 0 for x in ARM_SLOTS)
    return d1, d2


def mech_dice(battle: Battle, s: State) -> tuple[Die, ...]:
    """The dice the mech's action will roll, in order: a crit die per damaging Arm
    (``arm_1`` first) when Accuracy > 0 and the Ace's crit is not guaranteed; or the
    wimpy punch's die when there is no Head; nothing when it rebuilds."""
    if s.result != ONGOING or rebuild_part(battle, s) >= 0:
        return ()
    p = battle.params
    if not s.armless():
        acc = accuracy_now(battle, s)
        if acc <= 0 or s.active == SURE_CRIT:
            return ()
        return tuple(Die(p.crit_die, "crit", acc) for d in arm_damages(battle, s) if d > 0)
    return () if s.intact(HEAD) else (Die(p.punch_die, "punch"),)


def mech_action(battle: Battle, s: State, faces: Sequence[int]) -> State:
    """The mech acts on ``faces``, the faces of :func:`mech_dice`'s dice in order:
    rebuild one part, else fire the working Arms, else throw the wimpy punch."""
    if s.result != ONGOING:
        return s
    p = battle.params
    if s.active == MAX_POWER:  # the cost follows the use: the kaiju's next attack
        s = replace(s, armor_off=1)
    part = rebuild_part(battle, s)
    if part >= 0:  # the spare goes into the first non-intact slot of its Part-Type
        slot = policy.rebuilt_slot(part, s.intact(ARM_SLOTS[0]))
        row = spare(battle, s, part)
        rows, hp, used = list(s.rows), list(s.hp), list(s.spares_used)
        rows[slot], hp[slot] = row, int(battle.hp[row])
        used[part] += 1
        return replace(s, rows=tuple(rows), hp=tuple(hp), spares_used=tuple(used)).count(rebuilds=1)
    faces = list(faces)
    if not s.armless():  # Battle: each working Arm deals its damage; crits; combo
        dmg = arm_damages(battle, s)
        power = [int(battle.power[s.rows[x]]) if s.intact(x) else 0 for x in ARM_SLOTS]
        acc = accuracy_now(battle, s)
        crit = [False, False]
        for i, d in enumerate(dmg):
            if d > 0 and s.active == SURE_CRIT:  # Ace: a guaranteed crit, no roll
                crit[i] = True
            elif d > 0 and acc > 0:
                crit[i] = bool(rules.crits(faces.pop(0), acc))
        combo = rules.combo(power[0], power[1], dmg[0], dmg[1], p)
        hits = [rules.arm_hit(dmg[i], crit[i], int(battle.arm_bonus), p) for i in range(2)]
        total = int(rules.volley(hits[0], hits[1], combo))
        s = replace(s, kaiju=s.kaiju - total).count(crits=sum(crit))
    else:  # Battle/wimpy punch: a die only without a Head to aim it
        head = s.intact(HEAD)
        damage = int(rules.punch(int(head), 0 if head else faces.pop(0), p))
        s = replace(s, kaiju=s.kaiju - damage).count(punches=1)
    if faces:
        raise ValueError(f"mech_action: {len(faces)} faces left over")
    return replace(s, result=WIN) if rules.kaiju_defeated(s.kaiju) else s


# ---- 3b. the kaiju's action ----------------------------------------------------------


def target(battle: Battle, s: State, hit: set[int]) -> int:
    """Battle/kaiju: the intact slot of lowest ``rules.target_rank`` (the first down the
    priority list, or by ``kaiju_targets`` the most HP left) not yet hit by this action
    (once every intact one is, the lowest of all intact ones); -1 when none is intact."""
    ranked = sorted(
        (int(rules.target_rank(s.hp[x], i, int(battle.attacks), battle.params)), x)
        for i, x in enumerate(int(x) for x in battle.priority)
        if s.intact(x)
    )
    order = [x for _, x in ranked]
    return next((x for x in order if x not in hit), order[0] if order else -1)


def redirect_target(battle: Battle, s: State) -> int:
    """Tactician: the intact slot with the most HP left, ties to the earliest in the
    kaiju's priority order."""
    order = [int(x) for x in battle.priority if s.intact(int(x))]
    if not order:
        return -1
    return order[min(range(len(order)), key=lambda i: policy.redirect_rank(s.hp[order[i]], i))]


def kaiju_action(battle: Battle, s: State) -> State:
    """The kaiju's attacks in turn, each through the Torso's Armor (re-read before each
    attack) or doubled without it; the battle ends when no slot is intact."""
    if s.result != ONGOING:
        return s
    p = battle.params
    damage = int(battle.damage) + s.buff
    hit: set[int] = set()
    fixed = -1
    if s.active == REDIRECT:  # every attack this round lands on one part, amplified
        damage += 1
        fixed = redirect_target(battle, s)
    for j in range(int(battle.attacks)):
        if s.wrecked():
            break
        if j == 0 and s.active == NULL_ATTACK:  # Saboteur: the first attack does nothing
            continue
        slot = fixed if fixed >= 0 else target(battle, s, hit)
        hit.add(slot)
        armor = 0 if s.armor_off else None
        dealt = int(rules.incoming(damage, s.intact(TORSO), p, armor=armor))
        if s.intact(slot):  # a destroyed part takes nothing more (excess damage is lost)
            hp = list(s.hp)
            hp[slot] -= dealt
            s = replace(s, hp=tuple(hp))
            if hp[slot] <= 0:
                s = s.count(parts_lost=1)
        s = replace(s, armor_off=0)
        if s.wrecked():
            return replace(s, result=DESTROYED)
    return replace(s, result=DESTROYED) if s.wrecked() else s


# ---- 4. end of round -----------------------------------------------------------------


def end_of_round(battle: Battle, s: State) -> State:
    """The kaiju regenerates; the intervention's next-round costs take hold; after
    ``battle_rounds`` rounds the kaiju reaches the city (a loss)."""
    if s.result != ONGOING:
        return s
    kaiju = int(rules.regenerate(s.kaiju, int(battle.regen), int(battle.kaiju_hp)))
    halved, buff = int(s.active == SURE_CRIT), int(s.buff or s.active == NULL_ATTACK)
    s = replace(s, kaiju=kaiju, halved=halved, buff=buff, active=0, mech_first=False)
    return replace(s, result=CITY) if s.round >= battle.params.battle_rounds else s


# ---- the round: two deterministic halves around the mech's dice ----------------------


def begin_round(battle: Battle, s: State) -> State:
    """Initiative, the intervention, and the kaiju's action when it is faster: all of
    the round before the mech's dice."""
    if s.result != ONGOING:
        return s
    s = replace(s, round=s.round + 1)
    s = replace(s, mech_first=initiative(battle, s))
    s = intervention(battle, s)
    return s if s.mech_first else kaiju_action(battle, s)


def finish_round(battle: Battle, s: State, faces: Sequence[int]) -> State:
    """The rest of the round after :func:`begin_round`: the mech acts on ``faces``
    (those of :func:`mech_dice`), then the kaiju if it is slower, then the round ends."""
    if s.result != ONGOING:
        return s
    s = mech_action(battle, s, faces)
    if s.mech_first:
        s = kaiju_action(battle, s)
    return end_of_round(battle, s)


def play_to_end(battle: Battle, dice: Dice) -> State:
    """One battle to its end, the mech's dice read from ``dice`` one at a time."""
    s = start(battle)
    while s.result == ONGOING:
        s = begin_round(battle, s)
        faces = [int(dice.roll(d.sides, 1)[0]) for d in mech_dice(battle, s)]
        s = finish_round(battle, s, faces)
    return s


# ---- results -------------------------------------------------------------------------


def grade(battle: Battle, s: State) -> int:
    """The battle's grade index (grades.toml order) from its result and HP left."""
    return int(
        rules.grade_index(
            int(s.result == WIN), max(s.kaiju, 0), int(battle.kaiju_hp), battle.grades
        )
    )


def results(battle: Battle, s: State) -> dict[str, int | float]:
    """A finished battle's results, by FIELDS name."""
    g = grade(battle, s)
    t = s.tally
    return {
        "result": s.result,
        "kaiju_hp_left": max(s.kaiju, 0),
        "rounds": s.round,
        "grade": g,
        "gpa": float(battle.gpa[g]),
        "parts_lost": t.parts_lost,
        "rebuilds": t.rebuilds,
        "crits": t.crits,
        "punches": t.punches,
        "intervened": s.used,
    }


def play_battle(battle: Battle, dice: Dice) -> dict[str, int | float]:
    """One battle to its end (:func:`play_to_end`), its results."""
    return results(battle, play_to_end(battle, dice))


# play_dice(scenarios, scenario_ids, dice): battles one after another on ``dice``, game i
# playing ``scenarios[scenario_ids[i]]``; play: the engine contract's, on dice from ``rng``
play_dice = engine.one_at_a_time(play_battle, FIELDS, batch_key)
play = engine.seeded(play_dice)
