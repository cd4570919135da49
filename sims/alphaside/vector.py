"""ALPHASIDE (004) vectorized engine: N games at once over NumPy arrays, each game
carrying its own compiled matchup (a round robin is one call; sims/core/protocol.py's
engine contract).

It plays THE GAME PROCEDURE of ``battle.py``'s docstring (shared with the scalar
reference engine, ``reference.py``) and is tested against it die for die on scripted
dice.

- The S battles' static numbers are stacked once into flat tables indexed by
  ``sid * 10 + slot`` (:func:`stack`) and gathered by each game's scenario id and the
  acting unit's slot, so one call plays many different matchups.
- State is arrays over the N games, one row per unit slot ``A0..A4, B0..B4``: [10, N]
  (the token as one key of time, arrival and slot; the hex, ``OFF`` in the Reserve; HP,
  active Shields, Energy, Slow, Fracture, Disarm), per side [2, N] (VP, cards played,
  the tally) and each side's shuffled deck [2, deck, N]. The game is the LAST axis (as
  in sims/alluvion/vector.py): a slot's row is contiguous and the reductions over the
  slots run along the long axis. An attack's targets are flat lists (slot-major).
- The Timeline is sequential within a game, so the games step in lockstep: each step
  every unfinished game takes ONE activation, of the unit its own Timeline picks (the
  lowest token time, then the side that did not act most recently, then the token that
  arrived first); a game whose tokens are all past the last time is finished and leaves
  the working arrays once enough have.
- Python loops run over steps, deck positions and ability slots, never over games;
  every formula is a ``rules.py`` call on arrays; the weapon choice reads
  ``Battle.w_expected``.
- Dice: ``Dice.roll`` (the deck shuffle, one draw per die size) and ``Dice.faces`` (an
  attack's block, a Disarm's re-rolls) for exactly the games that roll, in the
  procedure's order, so a batch of one game on :class:`sims.core.batch.ScriptedDice`
  reads the script the reference engine reads.

Readings where the procedure is silent: the reference engine's R1-R17 (reference.py),
taken the same way so the two agree die for die:

R1  Side A's forward is +1, side B's -1; toward a unit is forward, away backward (also on
    a shared hex). Every A unit on the board stands at or behind every B unit, so the
    target stays the nearest enemy through the Advance and the Dash.
R2  A forward move stops on the hex of the nearest enemy on the board (an enemy on its
    own hex: 0 hexes) and at the enemy Base's hex; a backward move at its own Base's
    hex. Advance, Dash, Push and Pull alike; allies never block.
R3  Energy starts at 0; abilities in the unit's order, each at most once, Energy
    allowing when tried: step b ``repair`` (HP below full) and ``shields`` (an enemy on
    the board), step f ``strength`` and ``accuracy``.
R4  An enemy on the board: deployed. The target is chosen once, at step c.
R5  Every activation's Advance consumes Slow. Engaged: the Advance reads the distance to
    the target before it, the Dash after the Advance; no target: not Engaged.
R6  Advance: d > goal forward min(hexes, d - goal); keep_range and d < goal backward
    min(hexes, goal - d); no target forward min(hexes, hexes to the enemy Base - 1); a
    deploying unit still on its Base then moves 1 hex forward (R2 limits). Dash: forward
    min(Dash hexes, d - goal).
R7  Weapon weight: ``w_expected`` at the target's active Shields (capped at the last
    column), per TL in float64 for ``per_tl``; the second weapon only when strictly
    heavier.
R8  The first card of the hand on every attack: accuracy, strength, crit_from (the lower
    of the weapon's and the card's), damage (Damage+X with the crit's, through
    ``rules.combat_damage``). The hand is the deck's cards ``played .. drawn``.
R9  The TL is paid as the action is declared: a token the attack defeats onto the same
    time arrives after the attacker's.
R10 ``hits`` and ``crits`` count once per attack the dice that decide the hits (a
    Disarmed attack's re-rolls, their crits counted though without effect). Disarm is
    removed by the next attack, even with no hit to re-roll.
R11 Area: the targets of an area weapon are the enemies on the board within ``area``
    hexes of the target, itself included; a weapon without area hits its target alone,
    even when other enemies share its hex; crit effects on every target, then damage
    target by target, in slot order.
R12 Push X: backward min(X, hexes to its own Base); fewer than X is a collision
    (``rules.collision`` against the active Shields, ``rules.blocked`` flipping them).
    Pull X: none at distance <= 1, else forward min(X, d - 1), R2 limits.
R13 A Fracture set by the attack's own crit counts for its damage; it is removed when it
    adds damage.
R14 Defeat is checked once per target after its combat damage (a collision's included):
    token ``rules.after_defeat`` of its own time (done stays done), arriving after the
    tokens there, several in slot order; full HP, no status, Energy kept.
R15 Damage counted in full (collision included, in its weapon's ``damage_w``);
    ``first_defeat`` is the current time t.
R16 Entering Phase 2, 3, ... each side draws min(tactics_draw, cards left).
R17 ``advance = either``: a unit Advances after its attack when a weapon reaches from
    where it stands and the policy's weight there beats the weight from the Advance's
    end (none in range there: any); the late Advance re-picks the nearest enemy, reads
    Engaged and consumes Slow then. ``before``: always first.

Bounds: a token key holds times below ``NEVER`` and 65,536 arrivals a game (a game has
at most 10 x last_time activations, each defeating at most 5 units).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.alphaside import policy, rules
from sims.alphaside.battle import (
    ABILITIES,
    ABILITY,
    APPROACH,
    CHOICE,
    FIELDS,
    SIDE_SLOTS,
    TACTIC,
    WEAPONS,
    Battle,
    batch_key,
)
from sims.alphaside.params import Parameters
from sims.core import engine
from sims.core.batch import Dice

ENGINE_VERSION = "alphaside-vector-1"

NS = 2 * SIDE_SLOTS  # unit slots a game
I32 = np.int32
BIG = 1 << 20  # a time or key past everything
SH, TAG = 20, 4  # a token's key: time << SH | its arrival number << TAG | its slot
OFF = 1 << 12  # the position of a unit in the Reserve (or an empty slot): off the track
NEVER = 1 << 10  # the time of an empty slot's token (every time fits below it)
CHUNK = 65536  # games per working set (bounds the memory of one call)
COMPACT = 0.75  # narrow the working arrays once fewer than this share of them is live
COUNTERS = ("defeats", "damage", "attacks", "hits", "crits", "tl_attack", "activations")
SLOT = np.arange(NS, dtype=I32)[:, None]
ENEMY = np.arange(SIDE_SLOTS, dtype=I32)[:, None]  # enemy slot within its side
KEEP = APPROACH["keep_range"]
PER_TL = CHOICE["per_tl"]
REPAIR, SHIELDS, STRENGTH, ACCURACY = (
    ABILITY[k] for k in ("repair", "shields", "strength", "accuracy")
)
T_ACC, T_STR, T_CRIT, T_DMG = (TACTIC[k] for k in ("accuracy", "strength", "crit_from", "damage"))


# ---- the batch ------------------------------------------------------------------------------


def stack(battles: Sequence[Battle]) -> dict[str, np.ndarray]:
    """The S battles' static numbers as flat tables: per unit ``[S * 10]`` (key
    ``sid * 10 + slot``), per weapon or ability ``[S * 10 * 2]`` (``key * 2 + k``),
    the expected damage ``[S * 10 * 2 * E]`` and the decks ``[S, 2, deck]``. ``goal``
    is the Advance's goal distance: the shortest weapon range (``close``) or the
    longest (``keep_range``)."""

    def flat(name, dtype=I32):
        return np.stack([getattr(b, name) for b in battles]).astype(dtype).reshape(-1)

    out = {
        f: flat(f)
        for f in (
            "hp",
            "shields",
            "speed",
            "vp",
            "approach",
            "choice",
            "w_tl",
            "w_range",
            "w_strength",
            "w_accuracy",
            "w_area",
            "w_effect",
            "w_value",
            "w_crit_from",
            "a_energy",
            "a_effect",
            "a_value",
        )
    }
    for f in ("present", "use_abilities", "w_present", "a_present"):
        out[f] = flat(f, bool)
    out["w_expected"] = flat("w_expected", np.float64)
    per_tl = np.stack(
        [policy.weapon_weight(b.w_expected, b.w_tl[..., None], True) for b in battles]
    )
    out["w_score"] = np.concatenate([out["w_expected"], per_tl.reshape(-1)])  # by CHOICE
    eff = np.where(out["a_present"], out["a_effect"], -1).reshape(-1, ABILITIES)
    for name, kinds in (("b_abilities", (REPAIR, SHIELDS)), ("f_abilities", (STRENGTH, ACCURACY))):
        out[name] = out["use_abilities"] & np.isin(eff, kinds).any(1)  # step b / f has one
    rng = out["w_range"].reshape(-1, WEAPONS)
    wp = out["w_present"].reshape(-1, WEAPONS)
    shortest = np.where(wp, rng, BIG).min(1)
    longest = np.where(wp, rng, 0).max(1)
    out["goal"] = policy.advance_goal(out["approach"] == KEEP, shortest, longest).astype(I32)
    out["t_effect"] = np.stack([b.t_effect for b in battles]).astype(I32)
    out["t_value"] = np.stack([b.t_value for b in battles]).astype(I32)
    return out


# ---- the games ------------------------------------------------------------------------------


class _Games:
    """N games' state and the steps of an activation, each on the games it applies to (an
    index array of working columns); every state array has the game on its last axis.

    A token is one int32 key, ``time << SH | arrival << TAG | slot``, so a side's lowest
    key is its next unit, its time ``key >> SH`` and its slot ``key & 15``; a unit's
    position is its hex, ``OFF`` in the Reserve (no distance to it is within the track)."""

    PER_GAME = (
        "sid",
        "tk",
        "pos",
        "hp",
        "sh",
        "en",
        "slow",
        "frac",
        "dis",
        "vp",
        "played",
        "first",
        "last_side",
        "nseq",
        "c_eff",
        "c_val",
        "dmg_w",
        "tl_w",
        "index",
    )

    def __init__(
        self, st: dict[str, np.ndarray], sid: np.ndarray, dice: Dice, params: Parameters
    ) -> None:
        self.p = params
        self.st, self.dice = st, dice
        n = self.n = len(sid)
        self.sid = sid.astype(I32)
        self.E = len(st["w_expected"]) // len(st["w_tl"])
        self.deck = rules.deck_size(params)
        self.last = rules.last_time(params)
        key = self.sid[None, :] * NS + SLOT  # [10, n]
        # 1. Setup: every present unit in its Reserve, its token on time 1 in slot order
        self.tk = np.where(
            st["present"][key], (1 << SH) + (SLOT << TAG) + SLOT, NEVER << SH
        ).astype(I32)
        self.nseq = np.full(n, NS, I32)
        self.pos = np.full((NS, n), OFF, I32)
        self.hp = st["hp"][key].astype(I32)
        self.sh = np.zeros((NS, n), I32)
        self.en = np.zeros((NS, n), I32)  # R3
        self.slow = np.zeros((NS, n), bool)
        self.frac = np.zeros((NS, n), bool)
        self.dis = np.zeros((NS, n), bool)
        self.vp = np.zeros((2, n), I32)
        self.played = np.zeros((2, n), I32)
        self.first = np.zeros((2, n), I32)
        self.last_side = np.full(n, -1, I32)
        self.cnt = {c: np.zeros((2, n), I32) for c in COUNTERS}
        self.dmg_w = np.zeros((2, WEAPONS, n), I32)
        self.tl_w = np.zeros((2, WEAPONS, n), I32)
        self.index = np.arange(n)
        self.final: dict[str, np.ndarray] = {}
        self.shuffle()

    def shuffle(self) -> None:
        """1. Each side's deck, side A's first: for i = n-1 .. 1 a d(i+1) picks the card
        swapped into place i."""
        n, d = self.n, self.deck
        perm = np.broadcast_to(np.arange(d, dtype=I32)[None, :, None], (2, d, n)).copy()
        cols = np.arange(n)
        for side in (0, 1):
            for i in range(d - 1, 0, -1):
                j = self.dice.roll(i + 1, n).astype(np.intp) - 1
                here = perm[side, i].copy()
                perm[side, i] = perm[side, j, cols]
                perm[side, j, cols] = here
        at = (self.sid[None, None, :] * 2 + np.arange(2)[:, None, None]) * d + perm
        self.c_eff = self.st["t_effect"].reshape(-1)[at]
        self.c_val = self.st["t_value"].reshape(-1)[at]

    # ---- one activation a game -------------------------------------------------------------

    def step(self, r: np.ndarray, s: np.ndarray, u: np.ndarray, t: np.ndarray) -> None:
        """3. One activation in each game ``r``: unit ``u`` of side ``s`` at time ``t``."""
        p, st, n = self.p, self.st, self.n
        L = p.board_length
        fu = u * n + r
        key = self.sid[r] * NS + u
        pos_f, hp_f, sh_f, en_f = (a.reshape(-1) for a in (self.pos, self.hp, self.sh, self.en))
        # a. Shields back; from the Reserve it deploys on its Base
        xu = pos_f[fu]
        deploy = xu == OFF
        xu = np.where(deploy, s * L, xu).astype(I32)
        pos_f[fu] = xu
        sh_f[fu] = st["shields"][key]
        # c. (read first: abilities move nobody) the nearest enemy on the board, ties to
        # the lower slot (R4)
        eb = (1 - s) * (SIDE_SLOTS * n) + r  # flat index of the enemy side's first slot
        pe = pos_f[eb + ENEMY * n]  # [5, m]
        dk = policy.target_rank(np.abs(pe - xu), ENEMY).min(0)
        d = dk >> 3  # (policy.TARGET_RANK is 8)
        has_t = d <= L
        tj = dk & 7
        xt = pos_f[eb + tj * n]
        # b. repair and shields (R3)
        i = np.flatnonzero(st["b_abilities"][key])
        if len(i):
            fi, ki = fu[i], key[i]
            use = st["use_abilities"][ki]
            for k in range(ABILITIES):
                ak = ki * ABILITIES + k
                eff, cost, there = st["a_effect"][ak], st["a_energy"][ak], st["a_present"][ak]
                en, hp = en_f[fi], hp_f[fi]
                rep = there & (eff == REPAIR) & policy.uses_repair(use, en, cost, hp, st["hp"][ki])
                shl = there & (eff == SHIELDS) & policy.uses_shields(use, en, cost, has_t[i])
                go = rep | shl
                if go.any():
                    val = st["a_value"][ak]
                    en_f[fi[go]] -= cost[go]
                    hp_f[fi[rep]] = np.minimum(hp_f[fi[rep]] + val[rep], st["hp"][ki[rep]])
                    sh_f[fi[shl]] += val[shl]
        # d. the Advance (R5, R6): forward, or backward for keep_range, within R2's limits
        slow_f = self.slow.reshape(-1)
        slowed = slow_f[fu]
        x2 = self.advance_to(xu, s, key, d, has_t, slowed, deploy)
        fwd = 1 - 2 * s  # side A +1, side B -1
        goal = st["goal"][key]
        wk = key * WEAPONS
        # f's weights (R7): the policy's weight of each weapon against the target's
        # active Shields
        col = np.minimum(sh_f[eb + tj * n], self.E - 1)
        score = np.where(st["choice"][key] == PER_TL, 1, 0) * len(st["w_expected"])
        table = st["w_score"]
        e0 = table[score + wk * self.E + col]
        e1 = table[score + (wk + 1) * self.E + col]
        later = np.zeros(len(r), bool)
        if p.advance == "either":  # R17: Advance after the attack when that weighs more
            n0, n1 = (
                has_t & st["w_present"][wk + k] & (st["w_range"][wk + k] >= d) for k in (0, 1)
            )
            dt = np.abs(xt - x2)
            t0, t1 = (
                has_t & st["w_present"][wk + k] & (st["w_range"][wk + k] >= dt) for k in (0, 1)
            )
            now = np.where(n0 & n1, np.maximum(e0, e1), np.where(n0, e0, e1))
            then = np.where(t0 & t1, np.maximum(e0, e1), np.where(t0, e0, e1))
            later = policy.advances_after(n0 | n1, now, t0 | t1, then)
            x2 = np.where(later, xu, x2).astype(I32)
        slow_f[fu] = slowed & later  # consumed by the Advance (R5), kept until it comes
        pos_f[fu] = x2
        # e. the weapons in range; Dash or Energize
        d2 = np.abs(xt - x2)
        in0 = has_t & st["w_present"][wk] & (st["w_range"][wk] >= d2)
        in1 = has_t & st["w_present"][wk + 1] & (st["w_range"][wk + 1] >= d2)
        attack = in0 | in1
        dash = policy.dashes(has_t, attack)
        # f. the weapon (R7)
        w = (in1 & policy.outweighs(e1, e0, in0)).astype(I32)
        wt = wk + w
        cost = np.where(attack, st["w_tl"][wt], np.where(dash, p.dash_tl, p.energize_tl))
        # the token moves as the action is declared (R9)
        self.tk.reshape(-1)[fu] = ((t + cost) << SH) + (self.nseq[r] << TAG) + u
        self.nseq[r] += 1
        self.last_side[r] = s
        self.cnt["activations"].reshape(-1)[s * n + r] += 1
        if dash.any():  # forward min(Dash hexes, d - goal), the target still the nearest
            i = np.flatnonzero(dash)
            hx = rules.dash_hexes(rules.engaged(d2[i]), p)
            room = np.minimum(np.abs((1 - s[i]) * L - x2[i]), d2[i])
            go = np.maximum(np.minimum(np.minimum(hx, d2[i] - goal[i]), room), 0)
            pos_f[fu[i]] = x2[i] + fwd[i] * go
        energize = policy.energizes(has_t)
        if energize.any():
            en_f[fu[energize]] += p.energize_gain
        if attack.any():
            i = np.flatnonzero(attack)
            self.attack(
                r[i], t[i], s[i], u[i], key[i], eb[i], pe[:, i], xt[i], x2[i], wt[i], w[i], tj[i]
            )
        if later.any():  # R17: the Advance after the attack, toward the nearest enemy now
            i = np.flatnonzero(later)
            fi, si = fu[i], s[i]
            xi = pos_f[fi]
            pi = pos_f[eb[i] + ENEMY * n]
            dk = policy.target_rank(np.abs(pi - xi), ENEMY).min(0)
            di = dk >> 3
            slowed = slow_f[fi]
            slow_f[fi] = False
            pos_f[fi] = self.advance_to(xi, si, key[i], di, di <= L, slowed, deploy[i])

    def advance_to(self, xu, s, key, d, has_t, slowed, deploy) -> np.ndarray:
        """3d (R5, R6): where the Advance takes each unit from hex ``xu`` (side ``s``,
        the nearest enemy at ``d`` when ``has_t``): toward its goal, or backward for
        keep_range, within R2's limits; a deploying unit still on its Base 1 hex on."""
        p, st, L = self.p, self.st, self.p.board_length
        hexes = rules.advance_hexes(st["speed"][key], slowed, has_t & rules.engaged(d), p)
        goal = st["goal"][key]
        fwd = 1 - 2 * s  # side A +1, side B -1
        far = np.abs((1 - s) * L - xu)  # to the enemy Base
        ahead = np.where(has_t, np.minimum(far, d), far)  # the target is the nearest enemy
        closer = has_t & (d > goal)
        away = has_t & (st["approach"][key] == KEEP) & (d < goal)
        want = np.where(closer, d - goal, np.where(away, goal - d, np.where(has_t, 0, far - 1)))
        room = np.where(away, np.abs(xu - s * L), ahead)
        go = np.maximum(np.minimum(np.minimum(hexes, want), room), 0)
        x2 = xu + np.where(away, -fwd, fwd) * go
        return np.where(deploy & (x2 == xu), xu + fwd * np.minimum(ahead, 1), x2).astype(I32)

    def attack(self, r, t, s, u, key, eb, pe, xt, xa, wt, w, tj) -> None:
        """3f-g. Each game's attack: the card, the abilities, the roll, the Disarm, the
        crit effects and the damage target by target (``pe``: the enemy side's positions
        [5, m], ``eb``: the flat index of its first slot)."""
        p, st, n, m = self.p, self.st, self.n, len(r)
        fu = u * n + r
        tl = st["w_tl"][wt]
        sn = s * n + r
        acc, strength, cf, plus = self.play_card(r, t, s, wt)
        self.use_abilities(fu, key, strength, acc)
        hits, crits, disarmed = self.roll_attack(fu, strength, acc, cf)
        effect = np.where((crits > 0) & ~disarmed, st["w_effect"][wt], rules.NONE)
        value = st["w_value"][wt]
        plus = plus + np.where(effect == rules.DAMAGE, value, 0)
        for c, v in (("attacks", 1), ("hits", hits), ("crits", crits), ("tl_attack", tl)):
            self.cnt[c].reshape(-1)[sn] += v
        sw = (s * WEAPONS + w) * n + r
        self.tl_w.reshape(-1)[sw] += tl
        # the targets, one entry each in slot order within a game (R11): enemy j of game c
        area = st["w_area"][wt]
        near = np.abs(pe - xt) <= area
        near &= (area > 0) | (np.arange(pe.shape[0])[:, None] == tj)  # one target without area
        j, c = np.nonzero(near)
        f = eb[c] + j * n
        sh = self.sh.reshape(-1)[f]
        hp = self.hp.reshape(-1)[f]
        frac = self.frac.reshape(-1)[f]
        hc, pc, ec = hits[c], plus[c], effect[c]
        dealt = np.zeros(len(f), I32)
        # 6. crit effects on every target
        if (effect != rules.NONE).any():
            for code, flag in (
                (rules.SLOW, self.slow),
                (rules.FRACTURE, self.frac),
                (rules.DISARM, self.dis),
            ):
                sel = ec == code
                if sel.any():
                    flag.reshape(-1)[f[sel]] = True
            frac = frac | (ec == rules.FRACTURE)
            move = np.flatnonzero((ec == rules.PUSH) | (ec == rules.PULL))
            if len(move):  # R12
                self.shove(move, c, f, r, s, xa, value, ec, sh, hp, dealt)
        # 7. damage, target by target (R13, R14, R15)
        base = rules.combat_damage(hc, sh, pc, False, p)
        dmg = rules.combat_damage(hc, sh, pc, frac, p)
        self.frac.reshape(-1)[f] = frac & (dmg == base)
        self.sh.reshape(-1)[f] = sh - rules.blocked(rules.met_by_shields(hc, pc, p), sh)
        hp -= dmg
        dealt += dmg
        total = np.bincount(c, weights=dealt, minlength=m).astype(I32)
        self.cnt["damage"].reshape(-1)[sn] += total
        self.dmg_w.reshape(-1)[sw] += total
        down = rules.defeated(hp)
        slot = (1 - s[c]) * SIDE_SLOTS + j
        vkey = self.sid[r[c]] * NS + slot
        self.hp.reshape(-1)[f] = np.where(down, st["hp"][vkey], hp)
        if down.any():
            self.defeat(r, t, s, c[down], j[down], f[down], vkey[down])

    def play_card(self, r, t, s, wt):
        """The first card of the hand (R8, R16), when one is left of the cards drawn by
        round ``t``: the weapon ``wt``'s accuracy, strength, crit-from face and damage
        bonus with the card's effect."""
        p, st, n = self.p, self.st, self.n
        sn = s * n + r
        drawn = np.minimum(p.tactics_draw * (1 + rules.phase_of(t, p)), self.deck)
        played = self.played.reshape(-1)[sn]
        card = played < drawn
        at = (s * self.deck + np.minimum(played, self.deck - 1)) * n + r
        ce = np.where(card, self.c_eff.reshape(-1)[at], -1)
        cv = self.c_val.reshape(-1)[at]
        self.played.reshape(-1)[sn] = played + card
        acc = st["w_accuracy"][wt] + np.where(ce == T_ACC, cv, 0)
        strength = st["w_strength"][wt] + np.where(ce == T_STR, cv, 0)
        cf = st["w_crit_from"][wt]
        cf = np.where(ce == T_CRIT, np.minimum(cf, cv), cf)
        plus = np.where(ce == T_DMG, cv, 0)
        return acc, strength, cf, plus

    def use_abilities(self, fu, key, strength, acc) -> None:
        """The strength and accuracy abilities (R3) the unit's energy pays for, in ability
        order; in place on ``strength`` and ``acc``."""
        st = self.st
        en_f = self.en.reshape(-1)
        i = np.flatnonzero(st["f_abilities"][key])
        if len(i):
            fi, ki = fu[i], key[i]
            use = st["use_abilities"][ki]
            for k in range(ABILITIES):
                ak = ki * ABILITIES + k
                eff, cost, val = st["a_effect"][ak], st["a_energy"][ak], st["a_value"][ak]
                ok = st["a_present"][ak] & policy.uses_attack_ability(use, en_f[fi], cost)
                go_s, go_a = ok & (eff == STRENGTH), ok & (eff == ACCURACY)
                go = go_s | go_a
                if go.any():
                    en_f[fi[go]] -= cost[go]
                    strength[i] += np.where(go_s, val, 0)
                    acc[i] += np.where(go_a, val, 0)

    def roll_attack(self, fu, strength, acc, cf):
        """The roll: one block of d10, ``strength`` dice each; hits and crits. A Disarmed
        unit re-rolls every hit die, in die order, and the re-roll decides, without crits
        (R10); the Disarm is spent. Returns hits, crits and who was disarmed."""
        p = self.p
        faces = np.ascontiguousarray(self.dice.faces(strength, p.die).T)  # [k, m]
        rolled = np.arange(len(faces))[:, None] < strength
        hits = (rules.is_hit(faces, acc, cf, p) & rolled).sum(0)
        crits = (rules.is_crit(faces, cf, p) & rolled).sum(0)
        dis_f = self.dis.reshape(-1)
        disarmed = dis_f[fu]
        dis_f[fu] = False
        if disarmed.any():  # every hit die re-rolled, in die order; the re-roll decides (R10)
            crits[disarmed] = 0
            again = np.flatnonzero(disarmed & (hits > 0))
            if len(again):
                k = hits[again]
                f2 = self.dice.faces(k, p.die).T  # [k, games]
                kept = np.arange(len(f2))[:, None] < k
                hits[again] = (rules.is_hit(f2, acc[again], cf[again], p) & kept).sum(0)
                crits[again] = (rules.is_crit(f2, cf[again], p) & kept).sum(0)
        return hits, crits, disarmed

    def shove(self, move, c, f, r, s, xa, value, ec, sh, hp, dealt) -> None:
        """6. Push and Pull on the targets ``move`` (entries of ``c``/``f``), in place on
        ``sh``, ``hp`` and ``dealt``: a push goes backward (away from the attacker) to its
        own Base at most, short of X a collision against its active Shields; a pull
        forward down to distance 1, stopping on the hex of the attacker's side's nearest
        unit or the Base (R2), never from distance 1 or less."""
        p, n, L = self.p, self.n, self.p.board_length
        pos_f = self.pos.reshape(-1)
        g, fm = c[move], f[move]
        x, sg, x_a, v = pos_f[fm], s[g], xa[g], value[g]
        push = ec[move] == rules.PUSH
        back = np.abs(x - (1 - sg) * L)
        crash = push & rules.pushed_off(np.minimum(v, back), v, p)  # R12, push_end
        gap = np.abs(x - x_a)
        pull = ~push & ~rules.engaged(gap)
        # the attacker's side [5, k] for the pulls' limit: its units on the board
        mates = pos_f[sg * (SIDE_SLOTS * n) + r[g] + ENEMY * n]
        ahead = np.minimum(np.abs(sg * L - x), np.abs(mates - x).min(0))
        go = np.where(
            push,
            np.minimum(v, back),
            np.where(pull, np.maximum(np.minimum(np.minimum(v, gap - 1), ahead), 0), 0),
        )
        pos_f[fm] = x + (1 - 2 * sg) * np.where(push, go, -go)
        if crash.any():
            i = move[crash]
            bump = rules.collision(sh[i], p)
            sh[i] -= rules.blocked(p.collision_damage, sh[i])
            hp[i] -= bump
            dealt[i] += bump

    def defeat(self, r, t, s, c, j, f, vkey) -> None:
        """3g. Defeated targets (game ``c``, enemy ``j``, ordered by ``j``) go to the
        Reserve: token ``after_defeat``, arriving in slot order (R14); full HP (set by
        the caller), statuses lost, Energy kept; the attacker's side scores their VP."""
        n, m = self.n, len(r)
        self.pos.reshape(-1)[f] = OFF
        for flag in (self.slow, self.frac, self.dis):
            flag.reshape(-1)[f] = False
        rank = np.zeros(len(c), I32)  # the defeats before it in its game
        if len(c) > 1:
            seen = np.zeros(m, I32)
            for k in np.unique(j):
                at = np.flatnonzero(j == k)
                rank[at] = seen[c[at]]
                seen[c[at]] += 1
        tk_f = self.tk.reshape(-1)
        tk_f[f] = (
            (rules.after_defeat(tk_f[f] >> SH, self.p) << SH)
            + ((self.nseq[r[c]] + rank) << TAG)
            + vkey % NS
        )
        count = np.bincount(c, minlength=m).astype(I32)
        self.nseq[r] += count
        got = np.flatnonzero(count)
        sn = s[got] * n + r[got]
        vp = np.bincount(c, weights=self.st["vp"][vkey], minlength=m).astype(I32)
        self.vp.reshape(-1)[sn] += vp[got]
        self.cnt["defeats"].reshape(-1)[(1 - s[got]) * n + r[got]] += count[got]
        fd = self.first.reshape(-1)
        fd[sn] = np.where(fd[sn] == 0, t[got], fd[sn])

    # ---- the game --------------------------------------------------------------------------

    def store(self, rows: np.ndarray) -> None:
        """4. Finished games' results at their places in the call: ``rules.winner``
        (more VP wins, equal VP goes to the side that acted last)."""
        f, ix = self.final, self.index[rows]
        vp = self.vp[:, rows]
        f["winner"][ix] = rules.winner(vp[0], vp[1], self.last_side[rows])
        for side, x in enumerate("ab"):
            f[f"vp_{x}"][ix] = vp[side]
            f[f"first_defeat_{x}"][ix] = self.first[side, rows]
            for name in COUNTERS:
                f[f"{name}_{x}"][ix] = self.cnt[name][side, rows]
            for k in range(WEAPONS):
                f[f"damage_w{k}_{x}"][ix] = self.dmg_w[side, k, rows]
                f[f"tl_w{k}_{x}"][ix] = self.tl_w[side, k, rows]

    def compact(self, live: np.ndarray) -> None:
        """Finished games leave every working array."""
        keep = np.flatnonzero(live)
        for name in self.PER_GAME:
            setattr(self, name, np.ascontiguousarray(getattr(self, name)[..., keep]))
        self.cnt = {c: np.ascontiguousarray(v[:, keep]) for c, v in self.cnt.items()}
        self.n = len(keep)

    def play(self) -> dict[str, np.ndarray]:
        """2. The Timeline: every step each unfinished game's next unit acts (the lowest
        token; both sides there: the side that did not act most recently, side A when
        nobody has; within a side the token that arrived first)."""
        self.final = {k: np.zeros(self.n, dt) for k, dt in FIELDS.items()}
        live = np.ones(self.n, bool)
        while True:
            if live.sum() < COMPACT * self.n:
                self.compact(live)
                live = np.ones(self.n, bool)
            r = np.flatnonzero(live)
            tk = self.tk if len(r) == self.n else self.tk.take(r, axis=1)
            ka, kb = tk[:SIDE_SLOTS].min(0), tk[SIDE_SLOTS:].min(0)
            ta, tb = ka >> SH, kb >> SH
            done = np.minimum(ta, tb) > self.last
            if done.any():
                self.store(r[done])
                live[r[done]] = False
                go = np.flatnonzero(~done)
                r, ka, kb, ta, tb = r[go], ka[go], kb[go], ta[go], tb[go]
            if not len(r):
                return self.final
            s = np.where(ta == tb, self.last_side[r] == 0, tb < ta).astype(I32)
            k = np.where(s == 1, kb, ka)
            self.step(r, s, k & 15, k >> SH)


def play_dice(
    battles: Sequence[Battle], scenario_ids: np.ndarray, dice: Dice
) -> dict[str, np.ndarray]:
    """Play game i of ``battles[scenario_ids[i]]`` for every i, drawing from ``dice`` (a
    :class:`~sims.core.batch.ScriptedDice` for one hand-traced game), in working sets of
    up to ``CHUNK`` games."""
    sid = engine.check_batch(battles, scenario_ids, batch_key)
    st, params = stack(battles), battles[0].params
    return engine.in_working_sets(lambda ids: _Games(st, ids, dice, params).play(), sid, CHUNK)


play = engine.seeded(play_dice)  # the engine contract's entry point: dice from ``rng``
