"""The vectorized engine put together: :class:`Engine` plays N battles over a State;
:func:`stack` makes S matchups one Battle; :func:`play` is the entry point (see the
package's docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from sims.core import engine
from sims.skirmish import modifiers
from sims.skirmish.battle import PER_MECH, Battle, batch_key
from sims.skirmish.vector.actions import Actions
from sims.skirmish.vector.attack import Attacks
from sims.skirmish.vector.dice import Dice
from sims.skirmish.vector.effects import Effects
from sims.skirmish.vector.scoring import Scoring
from sims.skirmish.vector.state import I16, IX, State
from sims.skirmish.vector.turns import Turns

ENGINE_VERSION = "skirmish-vector-5"


def stack(battles: Sequence[Battle]) -> Battle:
    """S matchups of one batch key as one Battle: each per-mech field (``PER_MECH``) the
    S matchups' rows one after another, [S * M, ...], row ``scenario * M + m`` (so
    ``bonded`` is [S * M, M], a key by a local mech); the catalog-level fields of the
    first (equal in all, ``battle.batch_key``). Its ``mechs`` is S * M: the engine reads
    the mechs per battle from the matchups themselves."""
    fields = {f: np.concatenate([getattr(b, f) for b in battles]) for f in PER_MECH}
    return replace(battles[0], **fields)


def attack_profiles(b: Battle) -> dict[str, np.ndarray]:
    """Flat [K * 5] tables of everything an attack reads from its weapon, for the K rows
    of ``b`` (K = M, or S * M stacked): mounts 0-2 (right arm, left arm, back), then the
    punch (3) and the kick (4) of F11.1. Index ``key * 5 + profile``; a strike reaches
    adjacent only and rolls Piloting like melee."""
    K = b.mechs

    def table(weapon: np.ndarray, strike) -> np.ndarray:
        strikes = np.broadcast_to(np.asarray(strike), (K, 2))
        return np.concatenate([weapon, strikes], axis=1).reshape(-1)

    return {
        "melee": table(b.w_melee, True),
        "shots": table(b.w_shots, 1),
        "acc": table(b.w_acc, 0),
        "pen": table(b.w_pen, b.s_pen),
        "dice": table(b.w_dice, b.s_dice),
        "sides": table(b.w_sides, b.s_sides),
        "bonus": table(b.w_bonus, b.s_bonus),
        "heavy": table(b.w_heavy, False),
        "pulse": table(b.w_pulse, False),
        "range": table(b.w_range, 1),
        "long": table(b.w_long, 1),
    }


class Engine(Turns, Actions, Attacks, Effects, Scoring):
    """Plays the battle model over a State; method names follow reference.Game; its parts
    (turns, actions, attack, effects, scoring) are a module each.

    ``battles`` are the S compiled matchups of the call (one ``battle.batch_key``),
    ``scenario_ids`` the matchup of each of the N battles (ints in 0..S-1)."""

    def __init__(
        self,
        battles: Sequence[Battle],
        scenario_ids: np.ndarray,
        rng: np.random.Generator | None,
        dice: Dice | None = None,
    ) -> None:
        scenario = engine.check_batch(battles, scenario_ids, batch_key)
        first = battles[0]
        n, M, S = len(scenario), first.mechs, len(battles)
        self.n, self.M, self.S = n, M, S
        self.p = first.params
        self.side = first.side.astype(np.int64)  # int64[M]  the same in every matchup
        if S == 1:
            battle = first
            self.scenario = self.base = None
            pos = np.tile(first.start.astype(I16), (n, 1))
            dur = np.tile(first.durability.astype(I16), (n, 1, 1))
        else:
            battle = stack(battles)
            self.scenario = scenario.astype(IX)  # int32[N]  each battle's matchup
            self.base = self.scenario * IX(M)  # int32[N]  its first row in self.b
            pos = self.gather(battle.start.astype(I16))
            dur = self.gather(battle.durability.astype(I16))
        self.b = battle  # static numbers: one matchup, or S stacked (module docstring)
        self.s = State.start(pos, dur, first.params.round_cap)
        self.board = battle.board
        self.cap_points = None  # points at the round cap, where sudden death follows
        self.dice = dice if dice is not None else Dice(rng)  # tests: ScriptedDice
        self.any_bonds = bool(battle.bonded.any())
        self.profile = attack_profiles(battle)
        self.any_melee = bool(battle.w_melee.any())
        # flat [K * 3] tables, read with index key * 3 + mount
        self.order_flat = battle.w_order.reshape(-1).astype(IX)
        self.reach_flat = np.where(battle.has_weapon, battle.w_long, -1).reshape(-1)
        self.melee_flat = (battle.has_weapon & battle.w_melee).reshape(-1)
        self.indirect_flat = (battle.has_weapon & battle.w_indirect).reshape(-1)
        self.ranged_flat = (
            np.where(battle.has_weapon & ~battle.w_melee, battle.w_range, 0).reshape(-1).astype(I16)
        )
        self.any_shields = bool(battle.shield.any())
        self.any_grapple = bool(battle.p_grapple.any() or battle.p_break.any())  # F11.5
        self.any_guard = bool(battle.p_guard.any() and battle.shield.any())  # E5
        self.any_smoke = bool((battle.p_smoke & battle.back_smoke).any())  # H5
        self.any_jump = bool((battle.p_jump & (battle.back_jump | battle.legs_jump)).any())
        self.effects = modifiers.EffectDice(crit=battle.fx_attack, stress=battle.flicker_dice)
        self.record: list | None = None  # tests: (battle, part, outcome) of every hit


def play(
    battles: Sequence[Battle], scenario_ids: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Play ``len(scenario_ids)`` battles, battle i the matchup
    ``battles[scenario_ids[i]]``; arrays of per-battle results in that order (see State).
    The battles must share a ``battle.batch_key`` (ValueError otherwise); with one matchup
    the results are those of N battles of it, draw for draw."""
    return Engine(battles, scenario_ids, rng).play()
