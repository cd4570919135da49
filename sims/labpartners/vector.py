"""Mech Lab Partners (000) vectorized Battle engine: N battles at once over NumPy arrays,
each battle carrying its own compiled scenario (a round robin is one call;
sims/core/protocol.py's engine contract).

It plays the round of ``battle.py``'s docstring (the shared round procedure) that the
reference engine plays one battle at a time, and is tested against it with scripted dice.

- The S scenarios' numbers are stacked once into arrays [S, ...] (:func:`stack`); each
  battle reads its own through its scenario id: a card-table field at the flat index
  ``scenario * C + row`` (C card-table rows), a foe or policy number as ``field[sid]``.
  :func:`play_stacked` takes such arrays made elsewhere (``game/vector/battles.py``
  compiles a batch of dealt games straight into them) and plays them the same way.
- State is arrays over the N battles: the card-table row in each of the 5 slots and its
  HP left ([5, N], slot-major so a slot is one contiguous row), the spares used per
  Part-Type ([4, N]), the kaiju's HP, the result (-1 while the battle goes on), the
  counters, and the campaign intervention's use and pending costs. A gap keeps its own
  locked row (``present`` 0, HP 0), so every row index is valid and "intact" is HP > 0.
- Python loops run over rounds, slots and attacks, never over battles: a step works on
  a boolean mask of the battles it applies to, and every number comes from a
  ``rules.py`` call on arrays.
- Dice: ``Dice.roll(sides, n)`` for exactly the rows that roll, in the procedure's order
  (within a mech action: arm_1's crit d20 for every row that rolls it, then arm_2's, or
  the punch's die), so :class:`sims.core.batch.ScriptedDice` replays a script the way
  the reference engine reads it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.core import engine
from sims.core.batch import Dice
from sims.labpartners import policy, rules
from sims.labpartners.battle import (
    ARM_SLOTS,
    EFFECTS,
    HEAD,
    LEGS,
    REBUILD_WHEN,
    TORSO,
    Battle,
    batch_key,
)
from sims.labpartners.params import Parameters

ENGINE_VERSION = "labpartners-vector-1"

WIN, CITY, DESTROYED = rules.WIN, rules.CITY, rules.DESTROYED
CARD_FIELDS = (
    "present",
    "part",
    "hp",
    "power",
    "dmg_head",
    "dmg_nohead",
    "max_head",
    "max_nohead",
    "speed",
    "acc",
)
SCENARIO_FIELDS = (
    "kaiju_hp",
    "kaiju_speed",
    "attacks",
    "damage",
    "regen",
    "arm_bonus",
    "mech_first",
    "rebuild_when",
    "punch_finish",
    "effect",
    "intervene_when",
    "intervene_at",
)
SLOT_PART = np.array([0, 1, 2, 3, 3])  # Part-Type index of each slot (SLOTS order)
PART_SLOTS = ((0,), (1,), (2,), ARM_SLOTS)  # the slots of each Part-Type, in order
I16 = np.int16
SLOT_INDEX = np.arange(5)[:, None]  # [5, 1]: each slot's index (SLOTS order)
UNRANKED = np.iinfo(np.int64).max  # the rank of a slot a choice cannot take
# the state and per-battle numbers, battles along the last axis (what compact() narrows)
PER_BATTLE = (
    "base",
    "sid",
    "kaiju_start",
    "kaiju_speed",
    "attacks",
    "damage",
    "regen",
    "arm_bonus",
    "forced",
    "rebuild_when",
    "punch_finish",
    "effect",
    "intervene_when",
    "intervene_at",
    "priority",
    "order",
    "deck",
    "may_rebuild",
    "row",
    "hp",
    "used",
    "kaiju",
    "result",
    "rounds",
    "parts_lost",
    "rebuilds",
    "crits",
    "punches",
    "used_int",
    "now",
    "armor0",
    "half_round",
    "extra_damage",
    "index",
)
# what a finished battle reports (results()); kaiju_start and sid never change
FINAL = (
    "result",
    "kaiju",
    "rounds",
    "parts_lost",
    "rebuilds",
    "crits",
    "punches",
    "used_int",
    "kaiju_start",
    "sid",
)
COMPACT = 0.75  # narrow the working arrays once fewer than this share of them is live


def stack(scenarios: Sequence[Battle]) -> dict[str, np.ndarray]:
    """The S scenarios' numbers as arrays: card-table fields [S, C], foe and policy
    numbers [S], ``priority`` [S, 5], ``rebuild_order`` [S, 4], ``gpa`` [S, grades]."""
    out = {f: np.stack([getattr(b, f) for b in scenarios]).astype(np.int64) for f in CARD_FIELDS}
    for f in SCENARIO_FIELDS:
        out[f] = np.array([int(getattr(b, f)) for b in scenarios], np.int64)
    out["priority"] = np.stack([b.priority for b in scenarios]).astype(np.int64)
    out["rebuild_order"] = np.stack([b.rebuild_order for b in scenarios]).astype(np.int64)
    out["gpa"] = np.stack([b.gpa for b in scenarios])
    return out


def spares_ready(present: np.ndarray, params: Parameters) -> np.ndarray:
    """[S, 4]: the spares of each Part-Type a rebuild can take, k = 0, 1, ... in order up
    to the first card-table row with ``present`` 0 (Battle.spare_row); none unless
    ``rebuild_source`` is "spares" (Battle.spares)."""
    spp = params.spares_per_part
    usable = spp if params.rebuild_source == "spares" else 0
    rows = present[:, 5 : 5 + 4 * spp].reshape(len(present), 4, spp)[:, :, :usable]
    return np.cumprod(rows != 0, axis=2).sum(axis=2).astype(np.int64)


def check_stacked(
    stacked: dict[str, np.ndarray], scenario_ids, params: Parameters, grades: tuple
) -> np.ndarray:
    """The ids as a 1-D int array; stacked numbers that are not :func:`stack`'s shape
    for ``params`` and ``grades`` (or ids outside them) are refused in one line."""
    want = {
        **{f: 2 for f in CARD_FIELDS},
        **{f: 1 for f in SCENARIO_FIELDS},
        "priority": 2,
        "rebuild_order": 2,
        "gpa": 2,
    }
    if missing := [f for f in want if f not in stacked]:
        raise ValueError(f"stacked numbers lack {', '.join(missing)} (vector.stack's keys)")
    S = len(stacked["present"])
    if not S:
        raise ValueError("no scenarios to play: give at least one compiled battle")
    C = 5 + 4 * params.spares_per_part
    shapes = {
        **{f: (S, C) for f in CARD_FIELDS},
        **{f: (S,) for f in SCENARIO_FIELDS},
        "priority": (S, 5),
        "rebuild_order": (S, 4),
        "gpa": (S, len(grades)),
    }
    for f, shape in shapes.items():
        if np.shape(stacked[f]) != shape:
            raise ValueError(
                f"stacked {f!r} has shape {np.shape(stacked[f])}, expected "
                f"{shape} ({S} scenarios, spares_per_part "
                f"{params.spares_per_part}, {len(grades)} grades)"
            )
    ids = np.arange(S) if scenario_ids is None else np.asarray(scenario_ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(
            f"scenario_ids must be a 1-D integer array, got {ids.dtype} of shape {ids.shape}"
        )
    if len(ids) and (ids.min() < 0 or ids.max() >= S):
        raise ValueError(f"scenario ids must lie in 0..{S - 1}, got {ids.min()}..{ids.max()}")
    return ids.astype(np.int64)


class _Battles:
    """N battles' state and the steps of the round, each on a mask of battles."""

    def __init__(
        self,
        st: dict[str, np.ndarray],
        sid: np.ndarray,
        dice: Dice,
        params: Parameters,
        grades: tuple,
    ) -> None:
        self.p, self.dice, self.grades = params, dice, grades
        self.spp = params.spares_per_part
        n, C = len(sid), st["present"].shape[1]
        self.n, self.cols = n, np.arange(n)
        self.base = sid * C  # flat offset of each battle's card table
        self.card = {f: st[f].reshape(-1) for f in CARD_FIELDS}
        # foe and policy numbers per battle
        g = {f: st[f][sid] for f in SCENARIO_FIELDS}
        self.kaiju_start, self.kaiju_speed = g["kaiju_hp"], g["kaiju_speed"]
        self.attacks, self.damage, self.regen = g["attacks"], g["damage"], g["regen"]
        self.arm_bonus, self.forced = g["arm_bonus"], g["mech_first"].astype(bool)
        self.rebuild_when, self.punch_finish = g["rebuild_when"], g["punch_finish"]
        self.effect, self.intervene_when = g["effect"], g["intervene_when"]
        self.intervene_at = g["intervene_at"]
        self.priority = st["priority"][sid].T.copy()  # [5, N] slot indexes
        self.order = st["rebuild_order"][sid].T.copy()  # [4, N] Part-Types, -1 padded
        self.gpa_table, self.sid = st["gpa"], sid
        # Battle/rebuild: the spares of each Part-Type a rebuild can take, k = 0, 1, ...
        # in order up to the first row with present 0 (0 unless rebuild_source "spares")
        self.deck = spares_ready(st["present"], params)[sid].T.copy()  # [4, N]
        self.may_rebuild = (self.deck > 0).any(0) & (self.rebuild_when != REBUILD_WHEN["never"])
        # state: the locked slots are card-table rows 0..4 (a gap has HP 0)
        self.row = np.repeat(np.arange(5)[:, None], n, axis=1) + self.base  # flat rows
        self.hp = self.card["hp"][self.row].astype(I16)  # [5, N]
        self.used = np.zeros((4, n), np.int64)  # spares taken per Part-Type
        self.kaiju = self.kaiju_start.copy()
        self.result = np.full(n, -1, np.int64)
        self.rounds = np.zeros(n, np.int64)
        self.parts_lost = np.zeros(n, np.int64)
        self.rebuilds = np.zeros(n, np.int64)
        self.crits = np.zeros(n, np.int64)
        self.punches = np.zeros(n, np.int64)
        # the campaign intervention: used, used this round, and its costs
        self.used_int = np.zeros(n, bool)
        self.now = np.zeros(n, bool)
        self.armor0 = np.zeros(n, bool)  # Brawler: the kaiju's next attack ignores Armor
        self.half_round = np.zeros(n, np.int64)  # Ace: Accuracy halved in this round
        self.extra_damage = np.zeros(n, np.int64)  # Saboteur: +1 per attack, later rounds
        self.campaign = bool((self.effect != 0).any())
        # finished battles leave the working arrays (see compact); their numbers wait here
        self.index = np.arange(n)  # the call's battle index of each working row
        self.final = {f: getattr(self, f).copy() for f in FINAL}

    # ---- readings ----------------------------------------------------------------

    def intact(self) -> np.ndarray:
        """[5, N]: the slot has a card with HP left (a gap's HP is 0)."""
        return self.hp > 0

    def at(self, field: str, slot: int) -> np.ndarray:
        """A card-table field of the card in ``slot`` of every battle."""
        return self.card[field][self.row[slot]]

    def spare_free(self, part: np.ndarray | int) -> np.ndarray:
        """Battle/rebuild: the next spare of Part-Type ``part`` (-1: none) exists."""
        part = np.broadcast_to(part, (self.n,))
        return (part >= 0) & (
            self.used[np.maximum(part, 0), self.cols] < self.deck[np.maximum(part, 0), self.cols]
        )

    # ---- the round ---------------------------------------------------------------

    def initiative(self) -> np.ndarray:
        """1. Initiative: Mech Speed of the intact Legs (0 without) against the kaiju's."""
        speed = np.where(self.hp[LEGS] > 0, self.at("speed", LEGS), 0)
        return rules.mech_acts_first(speed, self.kaiju_speed, self.forced)

    def intervene(self, live: np.ndarray, r: int) -> None:
        """2. Campaign: the specialty's Battle use fires when its trigger holds at the
        start of the round (once per battle); Medic's restore is done here."""
        intact = self.intact()
        trigger = policy.spends_intervention(
            self.intervene_when,
            r,
            ~(intact[3] | intact[4]),
            self.kaiju,
            self.intervene_at,
            ~intact[TORSO],
        )
        fire = live & (self.effect != 0) & ~self.used_int & trigger
        medic = fire & (self.effect == EFFECTS["restore"])
        if medic.any():
            fire &= ~medic | self.restore(medic, intact)
        self.now = fire
        self.used_int |= fire
        ace = fire & (self.effect == EFFECTS["sure_crit"])
        self.half_round[ace] = r + 1  # the cost: Accuracy halved next round

    def restore(self, medic: np.ndarray, intact: np.ndarray) -> np.ndarray:
        """Medic: the first destroyed slot (a card at HP 0, not a gap) of the rebuild
        order's Part-Types in turn, else the first destroyed slot, returns at full HP;
        the intact slot with the fewest HP left (ties: the last) is destroyed. Returns
        the battles where it applied (something destroyed and something intact); the
        rest wait."""
        destroyed = (self.card["present"][self.row] == 1) & ~intact  # [5, N]
        listed = np.full((5, self.n), 4)  # each slot's Part-Type's place in the rebuild list
        for k in range(3, -1, -1):  # the earliest place wins
            listed = np.where(SLOT_PART[:, None] == self.order[k], k, listed)
        pick = np.where(destroyed, policy.restore_rank(listed, SLOT_INDEX), UNRANKED).argmin(0)
        ok = medic & destroyed.any(0) & intact.any(0)
        hp_left = self.hp.astype(np.int64)
        cost = np.where(intact, policy.sacrifice_rank(hp_left, SLOT_INDEX), UNRANKED).argmin(0)
        ix = np.flatnonzero(ok)
        ps, cs = pick[ix], cost[ix]
        self.hp[ps, ix] = self.card["hp"][self.row[ps, ix]]
        self.hp[cs, ix] = 0
        self.parts_lost[ix] += 1
        return ok

    def mech_action(self, m: np.ndarray) -> None:
        """3a-c. The mech's action on the battles of mask ``m``: rebuild, fire or punch."""
        intact = self.intact()
        armless = ~(intact[3] | intact[4])
        rebuilding = np.zeros(self.n, bool)
        if (m & self.may_rebuild).any():
            part = np.full(self.n, -1)
            # the first listed Part-Type the policy rebuilds (a gap or destroyed slot of it
            # is "missing"; spare_free is False for the list's -1 padding)
            gone = np.stack([~intact[0], ~intact[1], ~intact[2], ~(intact[3] & intact[4])])
            for k in range(4):
                t = self.order[k]
                missing = gone[np.maximum(t, 0), self.cols]
                wants = policy.rebuilds(self.rebuild_when, t, armless, missing, self.spare_free(t))
                take = (part < 0) & wants
                part[take] = t[take]
            # armless with the kaiju nearly dead: the punch instead of a rebuild
            finish = policy.punches_to_finish(armless, self.kaiju, self.punch_finish)
            rebuilding = m & (part >= 0) & ~finish
            if rebuilding.any():
                self.rebuild(rebuilding, part, intact)
        fire = m & ~rebuilding & ~armless
        if fire.any():
            self.fire(fire, intact)
        punch = m & ~rebuilding & armless
        if punch.any():
            self.punch(punch, intact)
        # Brawler's cost: the kaiju's next attack from now on ignores the Torso's Armor
        self.armor0 |= m & self.now & (self.effect == EFFECTS["max_power"])
        self.result[m & rules.kaiju_defeated(self.kaiju)] = WIN

    def rebuild(self, mask: np.ndarray, part: np.ndarray, intact: np.ndarray) -> None:
        """The spare goes into the first non-intact slot of its Part-Type at full HP."""
        ix = np.flatnonzero(mask)
        t = part[ix]
        slot = policy.rebuilt_slot(t, intact[3, ix])  # arm_1 before arm_2
        k = self.used[t, ix]
        row = self.base[ix] + 5 + t * self.spp + k
        self.row[slot, ix] = row
        self.hp[slot, ix] = self.card["hp"][row]
        self.used[t, ix] += 1
        self.rebuilds[ix] += 1

    def fire(self, mask: np.ndarray, intact: np.ndarray) -> None:
        """3b. Both working Arms fire: damage by Head, the combo, a crit die per damaging
        Arm (arm_1's for every battle first), the hits and the volley."""
        head = intact[HEAD]
        brawl = self.now & (self.effect == EFFECTS["max_power"])
        sure = mask & self.now & (self.effect == EFFECTS["sure_crit"])
        damage, power = [], []
        for s in ARM_SLOTS:
            d = np.where(
                head,
                np.where(brawl, self.at("max_head", s), self.at("dmg_head", s)),
                np.where(brawl, self.at("max_nohead", s), self.at("dmg_nohead", s)),
            )
            damage.append(np.where(intact[s], d, 0))
            power.append(np.where(intact[s], self.at("power", s), 0))
        combo = rules.combo(power[0], power[1], damage[0], damage[1], self.p)
        acc = np.where(head, self.at("acc", HEAD), 0)
        acc = np.where(self.half_round == self.round, acc // 2, acc)
        total = combo
        for d in damage:
            rolls = mask & (d > 0) & (acc > 0) & ~sure
            roll = np.zeros(self.n, I16)
            count = int(rolls.sum())
            if count:
                roll[rolls] = self.dice.roll(self.p.crit_die, count)
            crit = (rolls & rules.crits(roll, acc)) | (sure & (d > 0))
            self.crits += mask & crit
            total = total + rules.arm_hit(d, crit, self.arm_bonus, self.p)
        self.kaiju = np.where(mask, self.kaiju - total, self.kaiju)

    def punch(self, mask: np.ndarray, intact: np.ndarray) -> None:
        """3c. The wimpy punch: a die only without a Head."""
        head = intact[HEAD]
        rolls = mask & ~head
        roll = np.zeros(self.n, I16)
        count = int(rolls.sum())
        if count:
            roll[rolls] = self.dice.roll(self.p.punch_die, count)
        hit = rules.punch(head, roll, self.p)
        self.kaiju = np.where(mask, self.kaiju - hit, self.kaiju)
        self.punches += mask

    def kaiju_action(self, k: np.ndarray) -> None:
        """The kaiju's attacks on the battles of mask ``k``, each at the first intact
        slot down its priority list not yet hit this action (then the first intact one),
        through the Torso's Armor re-read before each attack."""
        hit = np.zeros((5, self.n), bool)
        redirect = k & self.now & (self.effect == EFFECTS["redirect"])
        null = k & self.now & (self.effect == EFFECTS["null_attack"])
        per_attack = self.damage + self.extra_damage + redirect
        one = None
        for j in range(int(self.attacks[k].max(initial=0))):
            go = k & (self.result < 0) & (j < self.attacks)
            if not go.any():
                break
            intact = self.intact()
            in_order = np.take_along_axis(intact, self.priority, 0)
            fresh = in_order & ~np.take_along_axis(hit, self.priority, 0)
            # rules.target_rank: the first down the list, or the most HP left
            hp_in_order = np.take_along_axis(self.hp, self.priority, 0).astype(np.int64)
            rank = rules.target_rank(hp_in_order, SLOT_INDEX, self.attacks[None], self.p)
            pos = np.where(
                fresh.any(0),
                np.where(fresh, rank, UNRANKED).argmin(0),
                np.where(in_order, rank, UNRANKED).argmin(0),
            )
            target = np.take_along_axis(self.priority, pos[None], 0)[0]
            if redirect.any():
                if one is None:  # Tactician: one part, the most HP left (ties: priority)
                    left = np.take_along_axis(self.hp, self.priority, 0).astype(np.int64)
                    rank = policy.redirect_rank(left, SLOT_INDEX)  # SLOT_INDEX: a position
                    pos = np.where(in_order, rank, UNRANKED).argmin(0)
                    one = np.take_along_axis(self.priority, pos[None], 0)[0]
                target = np.where(redirect, one, target)
            lands = go & intact[target, self.cols]
            if j == 0:
                lands &= ~null  # Saboteur: the first attack this round does nothing
            armor = np.where(self.armor0, 0, self.p.torso_armor)
            dmg = rules.incoming(per_attack, intact[TORSO], self.p, armor=armor)
            ix = np.flatnonzero(lands)
            ts = target[ix]
            left = self.hp[ts, ix] - dmg[ix]
            self.hp[ts, ix] = np.maximum(left, 0)
            self.parts_lost[ix] += left <= 0
            hit[ts, ix] = True
            self.armor0 &= ~lands
            self.result[lands & ~(self.hp > 0).any(0)] = DESTROYED
        # a mech with no intact slot (a mech of gaps) is destroyed once the kaiju acts
        self.result[k & (self.result < 0) & ~(self.hp > 0).any(0)] = DESTROYED
        # Saboteur's cost: +1 damage per attack from the next round on
        self.extra_damage += null

    def compact(self, live: np.ndarray) -> None:
        """Finished battles' numbers go to ``final`` and their rows leave every working
        array, so later rounds work on the battles still going only."""
        done = ~live
        for f in FINAL:
            self.final[f][self.index[done]] = getattr(self, f)[done]
        keep = np.flatnonzero(live)
        for f in PER_BATTLE:
            setattr(self, f, getattr(self, f)[..., keep])
        self.n, self.cols = len(keep), np.arange(len(keep))

    def play(self) -> dict[str, np.ndarray]:
        for r in range(1, self.p.battle_rounds + 1):
            live = self.result < 0
            if not live.any():
                break
            if live.sum() < COMPACT * self.n:
                self.compact(live)
                live = live[live]
            self.round = r
            self.rounds[live] = r
            first = self.initiative()
            if self.campaign:
                self.intervene(live, r)
            self.mech_action(live & first)
            self.kaiju_action(live & (self.result < 0))
            self.mech_action(live & ~first & (self.result < 0))
            # 4. End of round: the kaiju regenerates, never above its start
            alive = live & (self.result < 0)
            healed = rules.regenerate(self.kaiju, self.regen, self.kaiju_start)
            self.kaiju = np.where(alive, healed, self.kaiju)
            self.now[:] = False
        self.result[self.result < 0] = CITY
        self.compact(np.zeros(self.n, bool))
        return self.results()

    def results(self) -> dict[str, np.ndarray]:
        out = self.final
        won = (out["result"] == WIN).astype(np.int64)
        left = np.maximum(out["kaiju"], 0)
        grade = rules.grade_index(won, left, out["kaiju_start"], self.grades)
        grade = np.broadcast_to(grade, left.shape)
        return {
            "result": out["result"].astype(np.int8),
            "kaiju_hp_left": left.astype(np.int16),
            "rounds": out["rounds"].astype(np.int8),
            "grade": grade.astype(np.int8),
            "gpa": self.gpa_table[out["sid"], grade].astype(np.float64),
            "parts_lost": out["parts_lost"].astype(np.int8),
            "rebuilds": out["rebuilds"].astype(np.int8),
            "crits": out["crits"].astype(np.int8),
            "punches": out["punches"].astype(np.int8),
            "intervened": out["used_int"].astype(np.int8),
        }


def play_dice(
    scenarios: Sequence[Battle], scenario_ids: np.ndarray, dice: Dice
) -> dict[str, np.ndarray]:
    """Play battle i of ``scenarios[scenario_ids[i]]`` for every i, drawing from ``dice``
    (a :class:`~sims.core.batch.ScriptedDice` for a hand-traced battle)."""
    sid = engine.check_batch(scenarios, scenario_ids, batch_key)  # grades are in the key
    first = scenarios[0]
    return _Battles(stack(scenarios), sid, dice, first.params, first.grades).play()


play = engine.seeded(play_dice)  # the engine contract's entry point: dice from ``rng``


def play_stacked(
    stacked: dict[str, np.ndarray],
    params: Parameters,
    grades: tuple,
    dice: Dice | np.random.Generator,
    scenario_ids: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """``play_dice`` on scenarios already stacked (:func:`stack`'s dict, or
    ``game.vector.battles.stacked`` for a batch of dealt games compiled as arrays), all under
    ``params`` and ``grades``: battle i plays scenario ``scenario_ids[i]`` (default: each
    scenario once, in order); ``dice`` a Dice or a Generator to roll with."""
    sid = check_stacked(stacked, scenario_ids, params, grades)
    if isinstance(dice, np.random.Generator):
        dice = Dice(dice)
    return _Battles(stacked, sid, dice, params, grades).play()
