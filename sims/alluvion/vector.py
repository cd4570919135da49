"""Alluvion Knights (001) vectorized battle engine: N battles at once over NumPy arrays,
each battle carrying its own compiled matchup (a round robin is one call;
sims/core/protocol.py's engine contract).

It plays the round of ``battle.py``'s docstring (THE ROUND PROCEDURE, shared with the
scalar reference engine) and is tested against it die for die on scripted dice.

- The S battles' static numbers are stacked once into arrays [S, ...] (:func:`stack`)
  and gathered by each battle's scenario id, so one call plays many matchups.
- State is arrays over the N battles, one row per Armor slot: [4, N] (operable, hex,
  Direct Hits taken, pilot HP, grapple links, cover OH, rockets left, Spot on it), live
  and usable systems per kind [4, 7, N], soldiers [2, squads, N], and this round's pools
  as faces [4, k, N] (0: spent or absent). The battle is the LAST axis, slot-major as in
  sims/labpartners/vector.py: a slot's row or a pool's die is contiguous, and NumPy
  reduces a [k, N] pool across its k dice some 20x faster than an [N, k] one along its
  short axis. Finished battles leave the working arrays.
- Python loops run over rounds, sides, slots, actions and die positions, never over
  battles; every formula is a ``rules.py`` call on arrays; the pools come from a lookup
  of ``rules.attack_dice``/``defense_dice``/``move_dice``/``spot_dice`` by usable counts.
- Dice: ``Dice.roll(sides, n)`` (``Dice.faces`` for a hit's damage dice) for exactly the
  rows that roll, in the procedure's order, so a batch of one battle on
  :class:`sims.core.batch.ScriptedDice` reads the script the reference engine reads.

Readings where the procedure is silent (the same as reference.py's R1-R12, so the two
engines agree die for die):

1. Operable: not inoperable, pilot not down, not shut down (also for morale's "lost").
   Out Armors roll no pools and hold no dice; every operable Armor rolls its pools each
   round, an ambushed one in the ambush round too (a rocket is spent with its roll).
2. Equal faces in one pool: the die rolled first is spent first (a weapon die before the
   rocket die); the defender's Resistive dice before its ECM dice, then roll order.
   Initiative: a side's Ace and sum are over its operable Armors' Skill dice.
3. The system a grapple disables is picked at each round's Pools step while the Armor
   is grappled (the first kind of GRAPPLE_LOSS it has live, i.e. not destroyed) and
   holds for that whole round (attacks, moves, reach), even after a break free. Usable
   systems are read when they matter (the attack kind, goals, cover, reach).
4. A grapple ends when either Armor is out of the fight.
5. The grappled Armor is cover only for its allies' ranged non-smart attacks (Armors'
   and squads') on its grappler, not for its own; the target then counts as in cover
   (``cover`` case) and the grappled Armor takes the other dice as Direct Hits (counted
   in the attacking side's ``direct_hits``), before any terrain cover of the grappler
   (which then loses no OH). Cover is read when the attack is made.
6. Terrain cover loses 1 OH per die that is not a Direct Hit, down to 0.
7. Direct Hits apply to the target first (its loss dice), then to the grappled cover.
   Loss dice are rolled one per system lost while the Armor is still in the fight; once
   it is out the rest are not rolled. ``loss_target`` numbers the live systems.
8. "An attack reaches" (3e) is 3f's attack kind being available, whatever dice are
   left. 3b needs no die left (with none it fells 0 soldiers) and is no attack. The
   target and ``d`` are taken afresh at each action; with no operable enemy only 3a and
   3b can apply.
9. Moving without a usable movement system leaves cover whenever the move is taken.
   Spotting reach reads terrain cover only (OH > 0). 3c's ally yet to take its turn:
   the spotter is its side's slot 0 and slot 1 is operable.
10. Ambush: only step 3 is limited to the ambusher; foot soldiers act as in any round,
    the ambusher counting as the side that went first for their ties.
11. A side whose Armors are all out still takes its morale check when due. Morale dice
    have ``morale_die`` sides, rolled one by one, side A's before side B's; the initiative
    tie-breaker is a d2.
12. The Opportunity die is rolled only when ``opportunity_die`` > 0, before the
    defender's choice (``block`` counts it). The battery die is rolled after a turn
    only by an Armor still operable at its end.
13. ``skill_dice_use = any``: a Skill die replaces a pool's die only when strictly
    higher; the defender's candidates are its Defense dice then its Skill dice, so at
    equal faces a Defense die is spent first (the first position wins).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from sims.alluvion import policy, rules
from sims.alluvion.battle import AMBUSH, FIELDS, GRAPPLE_LOSS, Battle, batch_key
from sims.alluvion.params import Parameters
from sims.core import engine
from sims.core.batch import Dice

ENGINE_VERSION = "alluvion-vector-1"

D2 = 2  # the initiative tie-breaker
SLOT_FIELDS = (
    "present",
    "counts",
    "rockets",
    "base_move",
    "approach",
    "spotter",
    "grapple",
    "clear_infantry",
    "rockets_from",
    "defense",
    "hold",
    "cover_oh",
    "depleted",
)
CLOSE, RANGED, SMART = policy.CLOSE, policy.RANGED, policy.SMART  # attack kinds (3f)
COUNTERS = (
    "systems_lost",
    "pilot_hits",
    "attacks",
    "hits",
    "direct_hits",
    "soldiers_lost",
    "shutdowns",
    "grapples",
)
GRAPPLE_ORDER = np.array(GRAPPLE_LOSS)
TAGS = 16  # a pool's die position rides in a key's low 4 bits (face * TAGS + tag)
COMPACT = 0.75  # narrow the working arrays once fewer than this share of them is live
CHUNK = 65536  # battles per working set (bounds the memory of one call)
I32 = np.int32
EMPTY = np.zeros(0, np.int64)


# ---- the batch ------------------------------------------------------------------------------


def check_batch(battles: Sequence[Battle], scenario_ids) -> np.ndarray:
    """The ids as a 1-D int array (``sims.core.engine.check_batch``); battles whose
    spotting reach tables differ in length cannot share a call either."""
    ids = engine.check_batch(battles, scenario_ids, batch_key)
    if len({len(b.reach_range) for b in battles}) > 1:
        raise ValueError("battles of one vector call must share the spotting reach table")
    return ids


def stack(battles: Sequence[Battle]) -> dict[str, np.ndarray]:
    """The S battles' static numbers as arrays, battle first: slot fields [S, 4]
    (counts [S, 4, 7]), squads and morale [S, 2], ambush and range [S], the spotting
    reach [S, R]."""
    out = {f: np.stack([getattr(b, f) for b in battles]).astype(I32) for f in SLOT_FIELDS}
    for f in ("squads", "morale", "reach_range", "reach_cover"):
        out[f] = np.stack([getattr(b, f) for b in battles]).astype(I32)
    out["ambush"] = np.array([b.ambush for b in battles], I32)
    out["range"] = np.array([b.range for b in battles], I32)
    return out


@lru_cache(maxsize=8)
def pool_tables(params: Parameters) -> dict[str, np.ndarray]:
    """Each pool's die sides by usable counts: ``code = sum(usable[k] * (S+1)**k)`` ->
    [width, C] sides (0 absent) for attack, ecm, resistive, move and spot: rules.py's
    pools, in their rolling order."""
    base = params.systems_per_kind + 1
    pools: dict[str, list[tuple[int, ...]]] = {k: [] for k in ("atk", "ecm", "res", "mov", "spt")}
    for digits in itertools.product(range(base), repeat=len(rules.KINDS)):
        counts = tuple(reversed(digits))  # code digit k is counts[k]
        ecm, res = rules.defense_dice(counts, params)
        pools["atk"].append(rules.attack_dice(counts, params))
        pools["ecm"].append(ecm)
        pools["res"].append(res)
        pools["mov"].append(rules.move_dice(counts, params))
        pools["spt"].append(rules.spot_dice(counts, params))
    out = {}
    for k, rows in pools.items():
        w = max(1, max(len(x) for x in rows))
        out[k] = np.array([x + (0,) * (w - len(x)) for x in rows], I32).T.copy()  # [w, C]
    out["pow"] = (base ** np.arange(len(rules.KINDS))).astype(I32)[:, None]
    return out


def top(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The highest face of each column of ``faces`` [k, n] and its position (the first
    rolled at equal faces); face 0 where every die is spent."""
    tag = (TAGS - 1 - np.arange(len(faces), dtype=I32))[:, None]
    key = (faces * TAGS + tag).max(0)
    return key // TAGS, TAGS - 1 - key % TAGS


def lowest(faces: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lowest face where ``ok`` in each column and its position (the first at equal
    faces); face 0 where none is."""
    tag = (TAGS - 1 - np.arange(len(faces), dtype=I32))[:, None]
    key = np.where(ok, (TAGS * 4 - faces) * TAGS + tag, 0).max(0)
    return np.where(key > 0, TAGS * 4 - key // TAGS, 0), TAGS - 1 - key % TAGS


# ---- the battles ----------------------------------------------------------------------------


class _Battles:
    """N battles' state and the steps of the round, each on the battles it applies to
    (an index array ``rows``); every array has the battle on its last axis."""

    PER_BATTLE = (
        "present",
        "counts",
        "base_move",
        "approach",
        "spotter",
        "grapple_pol",
        "clear",
        "rockets_from",
        "defense",
        "hold",
        "depleted",
        "morale",
        "ambush",
        "range",
        "reach_range",
        "reach_cover",
        "op",
        "x",
        "dh",
        "hp",
        "live",
        "use",
        "disabled",
        "grappled_by",
        "grappling",
        "cover",
        "rockets",
        "spot",
        "soldiers",
        "checked",
        "routed",
        "K",
        "A",
        "D",
        "M",
        "P",
        "first",
        "index",
    )

    def __init__(
        self, st: dict[str, np.ndarray], sid: np.ndarray, dice: Dice, params: Parameters
    ) -> None:
        p = self.p = params
        self.dice = dice
        t = self.tab = pool_tables(params)
        n = self.n = len(sid)
        g = {f: np.ascontiguousarray(np.moveaxis(st[f][sid], 0, -1)) for f in st}
        self.present = g["present"].astype(bool)
        self.counts = g["counts"]
        self.base_move = g["base_move"]
        self.approach, self.spotter = g["approach"].astype(bool), g["spotter"].astype(bool)
        self.grapple_pol = g["grapple"].astype(bool)
        self.clear = g["clear_infantry"].astype(bool)
        self.rockets_from, self.defense = g["rockets_from"], g["defense"]
        self.hold, self.depleted = g["hold"].astype(bool), g["depleted"].astype(bool)
        self.morale, self.ambush, self.range = g["morale"], g["ambush"], g["range"]
        self.reach_range, self.reach_cover = g["reach_range"], g["reach_cover"].astype(bool)
        # state
        self.op = self.present.copy()
        self.x = np.where(np.arange(4)[:, None] < 2, 0, self.range[None, :]).astype(I32)
        self.dh = np.zeros((4, n), I32)
        self.hp = np.where(self.present, p.pilot_hp, 0).astype(I32)
        self.live = self.counts.copy()  # systems not destroyed, per kind
        self.use = self.counts.copy()  # usable: live less the kind a grapple disabled
        self.disabled = np.full((4, n), -1, I32)
        self.grappled_by = np.full((4, n), -1, I32)
        self.grappling = np.full((4, n), -1, I32)
        self.cover = g["cover_oh"].copy()
        self.rockets = g["rockets"].copy()
        self.spot = np.zeros((4, n), I32)  # Spot on each Armor (from its enemies)
        q = max(1, int(st["squads"].max(initial=0)))
        self.soldiers = np.where(
            np.arange(q)[None, :, None] < g["squads"][:, None, :], p.squad_size, 0
        ).astype(I32)
        self.checked = np.zeros((2, n), bool)
        self.routed = np.zeros((2, n), bool)
        self.cnt = {c: np.zeros((2, n), I32) for c in COUNTERS}
        # this round's pools (defense: the Resistive dice first, then the ECM dice)
        self.wa, self.we, self.wr = len(t["atk"]), len(t["ecm"]), len(t["res"])
        self.K = np.zeros((4, max(1, len(rules.skill_dice(p))), n), I32)
        self.A = np.zeros((4, self.wa + 1, n), I32)  # the last die: this round's rocket
        self.D = np.zeros((4, self.wr + self.we, n), I32)
        self.M = np.zeros((4, len(t["mov"]), n), I32)
        self.P = np.zeros((4, len(t["spt"]), n), I32)
        if max(a.shape[1] for a in (self.K, self.A, self.D, self.M, self.P)) >= TAGS:
            raise ValueError(
                f"a pool of {TAGS} or more dice: the vector engine keys dice "
                f"by position in {TAGS} tags"
            )
        self.first = np.zeros(n, I32)  # the side that went first this round
        self.index = np.arange(n)  # the call's battle index of each working column
        self.final: dict[str, np.ndarray] = {}

    # ---- dice and pools ----------------------------------------------------------------

    def roll(self, sides, rows: np.ndarray) -> np.ndarray:
        """A die for each row (``sides`` an int or one a row): one draw per kind of
        die, since drawing with scalar bounds is several times faster than with an array."""
        if np.ndim(sides) == 0 or len(rows) < 2:
            return self.dice.roll(sides, len(rows)).astype(I32)
        lo, hi = sides.min(), sides.max()
        if lo == hi:
            return self.dice.roll(int(lo), len(rows)).astype(I32)
        out = np.empty(len(rows), I32)
        for k in np.unique(sides):
            at = np.flatnonzero(sides == k)
            out[at] = self.dice.roll(int(k), len(at))
        return out

    def take(
        self, pool: np.ndarray, slot: int, rows: np.ndarray, fallback: bool = True
    ) -> np.ndarray:
        """The highest unspent die of ``pool`` of Armor ``slot`` in each row (else, with
        ``fallback``, its highest unspent Skill die; else 0), spent. With
        ``skill_dice_use = any`` and ``fallback`` the Skill die is spent instead wherever
        it is higher (``rules.skill_replaces``)."""
        face, j = top(pool[slot].take(rows, axis=1))
        if fallback and rules.skill_in_every_pool(self.p):
            fk, jk = top(self.K[slot].take(rows, axis=1))
            sk = rules.skill_replaces(face, fk, self.p)
            mine = ~sk & (face > 0)
            pool[slot, j[mine], rows[mine]] = 0
            self.K[slot, jk[sk], rows[sk]] = 0
            return np.where(sk, fk, face)
        has = face > 0
        pool[slot, j[has], rows[has]] = 0
        if fallback and not has.all():
            r = rows[~has]
            fk, jk = top(self.K[slot].take(r, axis=1))
            used = fk > 0
            self.K[slot, jk[used], r[used]] = 0
            face[~has] = fk
        return face

    def take_at(self, pool: np.ndarray, slots: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """:meth:`take` where the Armor's slot differs by row."""
        out = np.zeros(len(rows), I32)
        for s in np.unique(slots):
            sel = slots == s
            out[sel] = self.take(pool, int(s), rows[sel])
        return out

    def pools(self, live: np.ndarray, r: int) -> None:
        """1. Pools: each operable Armor in slot order rolls Skill, Attack (+ rocket),
        Defense (ECM first), Move and Spot dice on its usable systems; Spot clears."""
        p, t = self.p, self.tab
        for arr in (self.K, self.A, self.D, self.M, self.P, self.spot):
            arr.fill(0)  # (a finished battle's dice are never read again)
        on = live & self.op  # [4, N]
        # the kind a grapple disables, picked anew each round from the live systems
        self.disabled = np.where(on, -1, self.disabled).astype(I32)
        held = on & (self.grappled_by >= 0)
        if held.any():
            hs, hr = np.nonzero(held)
            has = self.live[hs, :, hr][:, GRAPPLE_ORDER] > 0
            self.disabled[hs, hr] = np.where(has.any(1), GRAPPLE_ORDER[has.argmax(1)], -1)
        self.use = self.usable(self.live, self.disabled)
        code = np.zeros((4, self.n), I32)
        for k, place in enumerate(t["pow"][:, 0].tolist()):
            code += self.use[:, k] * place
        wr = self.wr
        for s in range(4):
            if not on[s].any():
                continue
            cs = code[s]
            steps = [(self.K, j, sides) for j, sides in enumerate(rules.skill_dice(p))]
            steps += [(self.A, j, t["atk"][j].take(cs)) for j in range(self.wa)]
            steps += [None]  # the rocket die
            steps += [(self.D, wr + j, t["ecm"][j].take(cs)) for j in range(self.we)]
            steps += [(self.D, j, t["res"][j].take(cs)) for j in range(wr)]
            steps += [(self.M, j, t["mov"][j].take(cs)) for j in range(self.M.shape[1])]
            steps += [(self.P, j, t["spt"][j].take(cs)) for j in range(self.P.shape[1])]
            for step in steps:
                if step is None:
                    start = self.rockets_from[s]
                    fires = on[s] & policy.fires_rocket(self.rockets[s], start, r)
                    rows = np.flatnonzero(fires)
                    if len(rows):
                        self.rockets[s, rows] -= 1  # spent with the roll
                        self.A[s, self.wa, rows] = self.roll(rules.rocket_dice(1, p)[0], rows)
                    continue
                arr, j, sides = step
                rows = np.flatnonzero(on[s] & (sides > 0))
                if len(rows):
                    arr[s, j, rows] = self.roll(sides if np.ndim(sides) == 0 else sides[rows], rows)

    @staticmethod
    def usable(live: np.ndarray, disabled: np.ndarray) -> np.ndarray:
        """Usable systems per kind [..., 7, n]: live, less one of the disabled kind."""
        kinds = np.arange(7)[:, None]
        return np.maximum(live - (kinds == disabled[..., None, :]), 0)

    # ---- damage ------------------------------------------------------------------------

    def go_out(self, rows: np.ndarray, slot: int) -> None:
        """Armor ``slot`` leaves the fight in each row; its grapples end (reading 4)."""
        self.op[slot, rows] = False
        for link, other in ((self.grappled_by, self.grappling), (self.grappling, self.grappled_by)):
            held = link[slot, rows]
            some = held >= 0
            other[held[some], rows[some]] = -1
            link[slot, rows] = -1

    def take_hits(self, rows: np.ndarray, slot: int, hits: np.ndarray, by_side: int) -> None:
        """``hits`` Direct Hits on Armor ``slot`` of each row, dealt by ``by_side``: the
        systems they destroy (a loss die each, or the attacker's choice) and the pilot."""
        p, c, side = self.p, self.cnt, slot // 2
        some = hits > 0
        rows, hits = rows[some], hits[some]
        c["direct_hits"][by_side, rows] += hits
        before = self.dh[slot, rows]
        now = before + hits
        self.dh[slot, rows] = now
        lost = rules.systems_lost(before, now, p)
        for k in range(int(lost.max(initial=0))):
            rr = rows[(lost > k) & self.op[slot, rows]]  # reading 7: none once it is out
            if not len(rr):
                break
            live = self.live[slot][:, rr]  # [7, n]
            if p.system_loss == "roll":
                pick = rules.loss_target(self.roll(p.loss_die, rr), live.sum(0), p)
                pilot = pick < 0
                rp = rr[pilot]
                self.hp[slot, rp] -= 1
                c["pilot_hits"][side, rp] += 1
                hit = ~pilot
                kind = rules.kind_of(live[:, hit].T, pick[hit])
                rs = rr[hit]
            else:
                kind = rules.chosen_kind(live.T)
                rs = rr
            self.live[slot, kind, rs] -= 1
            self.use[slot, :, rs] = self.usable(self.live[slot][:, rs], self.disabled[slot, rs]).T
            c["systems_lost"][side, rs] += 1
            gone = (self.hp[slot, rr] <= 0) | ~self.live[slot][:, rr].any(0)
            if gone.any():
                self.go_out(rr[gone], slot)

    def resolve(
        self,
        rows: np.ndarray,
        side: int,
        attacker: int,
        t: np.ndarray,
        att: np.ndarray,
        kind: np.ndarray,
        beyond: np.ndarray,
    ) -> None:
        """Attacks of value ``att`` by ``side`` (Armor ``attacker``, -1 a squad) on the
        enemy Armors ``t``, one a row (3f); ``kind`` CLOSE, RANGED or SMART."""
        for tv in (2 * (1 - side), 2 * (1 - side) + 1):
            sel = t == tv
            if sel.any():
                self.resolve_on(rows[sel], side, attacker, tv, att[sel], kind[sel], beyond[sel])

    def resolve_on(self, rows, side: int, attacker: int, t: int, att, kind, beyond) -> None:
        """:meth:`resolve` on one target slot ``t``: Spot, Opportunity, the defender's
        die, the hit, the damage dice, cover, Direct Hits."""
        p = self.p
        self.cnt["attacks"][side, rows] += 1
        sp = self.spot[t, rows]
        self.spot[t, rows] = 0
        opp = np.zeros(len(rows), I32)
        if p.opportunity_die:
            ob = np.flatnonzero(beyond & (kind != CLOSE))
            if len(ob):
                opp[ob] = self.roll(p.opportunity_die, ob)
        # the defender's die: block the smallest that makes it miss, else the smallest;
        # highest the highest; Resistive before ECM at equal faces (their order in D)
        cand = self.D[t].take(rows, axis=1)  # [k, n]
        if p.smart_defense == "ecm":
            cand[: self.wr, kind == SMART] = 0
        wd = len(cand)
        if rules.skill_in_every_pool(p):
            # skill_dice_use = any: the Skill dice are candidates too, after the Defense
            # dice (the first position wins at equal faces)
            cand = np.concatenate([cand, self.K[t].take(rows, axis=1)])
        valid = cand > 0
        miss = valid & ~rules.is_hit(att, sp, cand + opp, p)
        f_miss, j_miss = lowest(cand, miss)
        f_low, j_low = lowest(cand, valid)
        f_high, j_high = top(cand)
        block = policy.blocks(self.defense[t, rows])
        face = np.where(block, np.where(f_miss > 0, f_miss, f_low), f_high)
        j = np.where(block, np.where(f_miss > 0, j_miss, j_low), j_high)
        has = face > 0
        own = has & (j < wd)
        self.D[t, j[own], rows[own]] = 0
        if wd < len(cand):
            sk = has & (j >= wd)
            self.K[t, j[sk] - wd, rows[sk]] = 0
        if not has.all():
            face[~has] = self.take(self.K, t, rows[~has], fallback=False)
        dv = face + opp
        hit = rules.is_hit(att, sp, dv, p)
        self.cnt["hits"][side, rows[hit]] += 1
        m = rules.margin(att, sp, dv, p)
        h = np.flatnonzero(m > 0)
        if not len(h):
            return
        rows, m, kind = rows[h], m[h], kind[h]
        # the cover, read as the attack is made (readings 5, 6)
        holder = self.grappling[t, rows]
        shield = (kind == RANGED) & (holder >= 0) & (holder != attacker)
        terrain = (kind == RANGED) & ~shield & (self.cover[t, rows] > 0)
        case = np.where(
            kind == CLOSE,
            rules.attack_case("close", False),
            np.where(
                kind == SMART,
                rules.attack_case("smart", False),
                rules.attack_case("ranged", shield | terrain),
            ),
        )
        faces = self.dice.faces(m, p.damage_die)
        counted = np.arange(faces.shape[1]) < m[:, None]
        direct = ((faces >= rules.direct_from(case, p)[:, None]) & counted).sum(1).astype(I32)
        other = m - direct
        if terrain.any():
            r = rows[terrain]
            self.cover[t, r] = np.maximum(self.cover[t, r] - other[terrain], 0)
        self.take_hits(rows, t, direct, side)
        for hv in (2 * side, 2 * side + 1):
            sel = shield & (holder == hv)
            if sel.any():
                self.take_hits(rows[sel], hv, other[sel], side)

    # ---- the round -----------------------------------------------------------------------

    def initiative(self, live: np.ndarray, r: int) -> np.ndarray:
        """2. [2, N]: the side acting first and second (-1: none) in each battle."""
        k = (self.K * self.op[:, None, :]).reshape(2, -1, self.n)
        ace, tot = k.max(1), k.sum(1)
        first = rules.initiative_first(ace[0], ace[1], tot[0], tot[1], self.p)
        ambushed = (self.ambush != AMBUSH["none"]) if r == 1 else np.zeros(self.n, bool)
        tie = np.flatnonzero(live & (first < 0) & ~ambushed)
        if len(tie):
            first[tie] = np.where(self.roll(D2, tie) == 1, 0, 1)
        first = np.where(ambushed, self.ambush, first)
        self.first = first.astype(I32)
        return np.stack([first, np.where(ambushed, -1, 1 - first)])

    def turn(self, rows: np.ndarray, s: int) -> None:
        """3. Armor ``s``'s turn in each row: its actions, then the battery die."""
        for a in range(self.p.actions):
            rows_a = rows[self.op[s, rows]]
            if not len(rows_a):
                break
            self.action(rows_a, s, a)
        rows = rows[self.depleted[s, rows] & self.op[s, rows]]
        if len(rows):
            off = rows[rules.shuts_down(self.roll(self.p.battery_die, rows), self.p)]
            self.cnt["shutdowns"][s // 2, off] += 1
            self.go_out(off, s)

    def action(self, rows: np.ndarray, s: int, a: int) -> None:
        """One action of Armor ``s`` in each row: the first of 3a-3g that applies."""
        p, n = self.p, len(rows)
        side, j = divmod(s, 2)
        enemy, e = 1 - side, 2 * (1 - side)
        last = a == p.actions - 1
        first_op = self.op[e, rows]
        has_t = first_op | self.op[e + 1, rows]
        t = policy.first_target(first_op, self.op[e + 1, rows], e)  # -1: none
        xs = self.x[s, rows]
        xt = np.where(first_op, self.x[e, rows], self.x[e + 1, rows])
        d = np.abs(xt - xs)
        use = self.use[s].take(rows, axis=1)  # [7, n]
        h2h, dfire = use[rules.HAND_TO_HAND] > 0, use[rules.DIRECT_FIRE] > 0
        smart = use[rules.SMART] > 0
        grappled = self.grappled_by[s, rows] >= 0
        skill_any = self.K[s].take(rows, axis=1).max(0) > 0
        atk = self.A[s].take(rows, axis=1)
        atk_any = atk.max(0) > 0
        kinds = policy.attack_kind(h2h & (d <= 1), smart, dfire | (atk[self.wa] > 0))
        reach = kinds != policy.NO_ATTACK  # reading 8
        beyond = rules.beyond_range(d, p)
        todo = np.ones(n, bool)

        def claim(cond) -> np.ndarray:
            out = todo & cond
            todo[out] = False
            return np.flatnonzero(out)

        ia = claim(policy.tries_to_break_free(grappled, a == 0))  # a. break free
        ib = ic = EMPTY
        if last and self.clear[s, rows].any():  # b. clear infantry
            sq_x = self.range[rows] if enemy else np.zeros(n, I32)
            near = ~rules.beyond_range(np.abs(xs - sq_x), p)
            squad = near & (self.soldiers[enemy][:, rows] > 0).any(0)
            ib = claim(policy.clears_infantry(self.clear[s, rows], last, squad))
        todo &= has_t  # g. with no target nothing else applies
        if last and j == 0 and self.spotter[s, rows].any():  # c. spot for the ally
            surv = np.minimum(use[rules.SURVEILLANCE], len(self.reach_range) - 1)
            in_cover = np.where(first_op, self.cover[e, rows], self.cover[e + 1, rows]) > 0
            sees = rules.can_spot(
                surv, d, in_cover, self.reach_range[surv, rows], self.reach_cover[surv, rows]
            )
            spot_any = self.P[s].take(rows, axis=1).max(0) > 0
            ally = self.op[s + 1, rows]  # slot 1, yet to act after slot 0 (reading 9)
            ic = claim(policy.spots(self.spotter[s, rows], last, spot_any | skill_any, ally, sees))
        id_ = EMPTY
        if self.grapple_pol[s, rows].any():  # d. grapple
            held_t = np.where(first_op, self.grappled_by[e, rows], self.grappled_by[e + 1, rows])
            grappling = self.grappling[s, rows] >= 0
            id_ = claim(
                policy.grapples(
                    self.grapple_pol[s, rows], d, grappling, grappled, held_t >= 0, skill_any
                )
            )
        # e. move
        close_in = policy.closes_in(self.approach[s, rows], h2h, reach)
        goal = policy.move_goal(close_in, p.direct_fire_range)
        ie = claim(policy.moves(self.hold[s, rows], grappled, close_in, beyond, d, goal))
        if_ = claim(policy.attacks(reach, atk_any | skill_any))  # f. attack

        if len(ia):
            self.break_free(rows[ia], s)
        if len(ib):
            self.clear_infantry(rows[ib], s, enemy)
        if len(ic):
            r, tc = rows[ic], t[ic]
            die = self.take(self.P, s, r)
            self.spot[tc, r] = np.maximum(self.spot[tc, r], die)
        if len(id_):
            self.grapple(rows[id_], s, t[id_])
        if len(ie):
            self.move(rows[ie], s, d[ie] - goal[ie], xt[ie] > xs[ie], use[rules.MOVEMENT, ie] > 0)
        if len(if_):
            r = rows[if_]
            kind = kinds[if_]
            att = self.take(self.A, s, r)
            self.resolve(r, side, s, t[if_], att, kind, beyond[if_])

    def break_free(self, r: np.ndarray, s: int) -> None:
        """3a. Armor ``s``, grappled in rows ``r``: its highest unspent Skill die against the
        grappler's, neither spent; it breaks free only when higher."""
        g = self.grappled_by[s, r]
        theirs = self.K[g, :, r].max(1)
        free = rules.breaks_free(self.K[s].take(r, axis=1).max(0), theirs)
        r, g = r[free], g[free]
        self.grappled_by[s, r] = -1
        self.grappling[g, r] = -1

    def clear_infantry(self, r: np.ndarray, s: int, enemy: int) -> None:
        """3b. Armor ``s`` dedicates its highest unspent Attack die (else Skill die) to the
        first enemy squad with soldiers; that many soldiers fall."""
        sold = self.soldiers[enemy][:, r]  # [squads, n]
        q = (sold > 0).argmax(0)
        fell = rules.soldiers_fall(self.take(self.A, s, r), sold[q, np.arange(len(r))])
        self.soldiers[enemy, q, r] -= fell
        self.cnt["soldiers_lost"][enemy, r] += fell

    def grapple(self, r: np.ndarray, s: int, tg: np.ndarray) -> None:
        """3d. Armor ``s`` tries to grapple Armor ``tg``: its highest Skill die (spent)
        against the target's highest unspent Move die (else Skill die, else 0; spent)."""
        side = s // 2
        mine = self.take(self.K, s, r, fallback=False)
        theirs = self.take_at(self.M, tg, r)
        ok = rules.grapples(mine, theirs)
        r, tg = r[ok], tg[ok]
        self.grappled_by[tg, r] = s
        self.grappling[s, r] = tg
        self.cnt["grapples"][side, r] += 1

    def move(
        self, r: np.ndarray, s: int, to_goal: np.ndarray, ahead: np.ndarray, mover: np.ndarray
    ) -> None:
        """3e. Armor ``s`` spends its highest unspent Move die (else Skill die, else 0) and
        moves ``rules.hexes_moved`` hexes toward the target (``ahead``: at a higher x),
        at most ``to_goal``; without a usable movement system (``mover``) it leaves cover
        (reading 9)."""
        hexes = rules.hexes_moved(self.base_move[s, r], self.take(self.M, s, r), self.p)
        step = np.minimum(hexes, to_goal)
        self.x[s, r] += np.where(ahead, step, -step)
        walk = r[~mover]  # reading 9
        self.cover[s, walk] = 0

    def squads(self, live: np.ndarray) -> None:
        """4. Foot soldiers: squad initiative, then each squad's one die at the first
        operable enemy Armor within direct fire range of where it stands."""
        p = self.p
        has = live & (self.soldiers > 0).any(1)  # [2, N]
        both = np.flatnonzero(has[0] & has[1])
        val = np.zeros((2, len(both)), I32)
        for side in (0, 1):
            if len(both):
                val[side] = self.roll(p.squad_initiative_die, both) + self.morale[side, both]
        first = np.where(has[0], 0, 1)
        first[both] = np.where(val[0] > val[1], 0, np.where(val[1] > val[0], 1, self.first[both]))
        for o in (0, 1):
            order = first if o == 0 else 1 - first
            for side in (0, 1):
                sq_x = np.zeros(self.n, I32) if side == 0 else self.range
                e = 2 * (1 - side)
                for q in range(self.soldiers.shape[1]):
                    go = has[side] & (order == side) & (self.soldiers[side, q] > 0)
                    rows = np.flatnonzero(go)
                    if not len(rows):
                        continue
                    near = [
                        self.op[e + i, rows]
                        & ~rules.beyond_range(np.abs(self.x[e + i, rows] - sq_x[rows]), p)
                        for i in (0, 1)
                    ]
                    t = policy.first_target(near[0], near[1], e)
                    rows, t = rows[t >= 0], t[t >= 0]
                    if len(rows):
                        att = self.roll(p.squad_die, rows)
                        self.resolve(
                            rows,
                            side,
                            -1,
                            t,
                            att,
                            np.full(len(rows), RANGED),
                            np.zeros(len(rows), bool),
                        )

    def morale_checks(self, live: np.ndarray) -> None:
        """5. Morale: a side with a rating, due (half its Armors or its lead lost) and
        not yet checked rolls once; ``rules.routs`` ends the battle for it."""
        for side in (0, 1):
            pair = slice(2 * side, 2 * side + 2)
            out = self.present[pair] & ~self.op[pair]
            due = rules.morale_check_due(out.sum(0), self.present[pair].sum(0), out[0])
            rows = np.flatnonzero(live & (self.morale[side] > 0) & ~self.checked[side] & due)
            if not len(rows):
                continue
            total = np.zeros(len(rows), I32)
            for _ in range(self.p.morale_dice):
                total += self.roll(self.p.morale_die, rows)
            self.checked[side, rows] = True
            self.routed[side, rows] = rules.routs(total, self.morale[side, rows])

    # ---- the battle ------------------------------------------------------------------------

    def store(self, rows: np.ndarray, winner, rounds: int) -> None:
        """Finished battles' results, at their places in the call."""
        f, ix = self.final, self.index[rows]
        f["winner"][ix] = winner
        f["rounds"][ix] = rounds
        for side, s in enumerate("ab"):
            f[f"routed_{s}"][ix] = self.routed[side, rows]
            f[f"armors_left_{s}"][ix] = self.op[2 * side : 2 * side + 2, rows].sum(0)
            for c in COUNTERS:
                f[f"{c}_{s}"][ix] = self.cnt[c][side, rows]

    def compact(self, live: np.ndarray) -> None:
        """Finished battles leave every working array."""
        keep = np.flatnonzero(live)
        for name in self.PER_BATTLE:
            setattr(self, name, np.ascontiguousarray(getattr(self, name)[..., keep]))
        self.cnt = {c: v[:, keep] for c, v in self.cnt.items()}
        self.n = len(keep)

    def play(self) -> dict[str, np.ndarray]:
        self.final = {k: np.zeros(self.n, dt) for k, dt in FIELDS.items()}
        live = np.ones(self.n, bool)
        for r in range(1, self.p.round_cap + 1):
            if not live.any():
                break
            if live.sum() < COMPACT * self.n:
                self.compact(live)
                live = np.ones(self.n, bool)
            self.pools(live, r)
            order = self.initiative(live, r)
            for o in (0, 1):  # 3. the sides in initiative order, their Armors in slot order
                for j in (0, 1):
                    for side in (0, 1):
                        s = 2 * side + j
                        rows = np.flatnonzero(live & (order[o] == side) & self.op[s])
                        if len(rows):
                            self.turn(rows, s)
            self.squads(live)
            self.morale_checks(live)
            # 6. End: rules.winner
            beaten = ~self.op.reshape(2, 2, self.n).any(1) | self.routed
            winner = rules.winner(beaten[0], beaten[1], r >= self.p.round_cap)
            end = np.flatnonzero(live & (winner != rules.ONGOING))
            if len(end):
                self.store(end, winner[end], r)
                live[end] = False
        return self.final


def play_dice(
    battles: Sequence[Battle], scenario_ids: np.ndarray, dice: Dice
) -> dict[str, np.ndarray]:
    """Play battle i of ``battles[scenario_ids[i]]`` for every i, drawing from ``dice``
    (a :class:`~sims.core.batch.ScriptedDice` for one hand-traced battle), in working
    sets of up to ``CHUNK`` battles."""
    sid = check_batch(battles, scenario_ids)
    st, params = stack(battles), battles[0].params
    return engine.in_working_sets(lambda ids: _Battles(st, ids, dice, params).play(), sid, CHUNK)


play = engine.seeded(play_dice)  # the engine contract's entry point: dice from ``rng``
