"""The reference engine put together: :class:`Game` plays one battle; :func:`play_battle`
and :func:`play` are the entry points (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.core import engine
from sims.skirmish import modifiers
from sims.skirmish.battle import Battle, batch_key
from sims.skirmish.reference.actions import Actions
from sims.skirmish.reference.attack import Attacks
from sims.skirmish.reference.dice import Dice, RandomDice
from sims.skirmish.reference.effects import Effects
from sims.skirmish.reference.scoring import Scoring
from sims.skirmish.reference.state import BattleResult, MechState
from sims.skirmish.reference.turns import Turns

ENGINE_VERSION = "skirmish-reference-5"


class Game(Turns, Actions, Attacks, Effects, Scoring):
    """One battle in progress: its state (``mechs`` and the counts below), and the
    engine's parts: turns, actions, attack, effects, scoring (one module each)."""

    def __init__(self, battle: Battle, dice: Dice) -> None:
        self.b, self.dice, self.p = battle, dice, battle.params
        self.board = battle.board
        self.wants_more = False  # the last Move on a map stopped short of a better hex
        self.zones = [0, 0]  # zone-rounds held per side (I4)
        self.zones_by_round: list[list[int]] = []  # zones each side held at each round's end
        self.cap_points: list[int] | None = None  # points at the cap, before sudden death
        self.effects = modifiers.EffectDice(crit=battle.fx_attack, stress=battle.flicker_dice)
        self.mechs = [
            MechState(pos=int(battle.start[m]), dur=[int(d) for d in battle.durability[m]])
            for m in range(battle.mechs)
        ]
        self.kills = [0, 0]
        self.crits = [0, 0]
        self.shots = [0, 0]
        self.hits = [0, 0]
        self.destroyed = [[0] * 6, [0] * 6]
        self.mount_hits = [[0] * 3 for _ in range(battle.mechs)]
        self.mount_crits = [[0] * 3 for _ in range(battle.mechs)]
        self.winner: int | None = None


def play_battle(battle: Battle, dice: Dice | np.random.Generator) -> BattleResult:
    """Play one battle. ``dice`` is a Generator (random play) or a Dice source."""
    source = RandomDice(dice) if isinstance(dice, np.random.Generator) else dice
    return Game(battle, source).play()


def play(
    battles: Sequence[Battle], scenario_ids: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Battles one after another on the one ``rng``: battle i plays the matchup
    ``battles[scenario_ids[i]]`` (the engine contract of ``vector.play``, whose result
    arrays these are shaped like). The battles must share a ``battle.batch_key``."""
    ids = engine.check_batch(battles, scenario_ids, batch_key)
    n, M = len(ids), battles[0].mechs
    results = [play_battle(battles[i], rng) for i in ids.tolist()]
    return {
        "winner": np.array([r.winner for r in results], np.int8),
        "rounds": np.array([r.rounds for r in results], np.int8),
        "decided": np.array([r.decided for r in results], np.int8),
        "hull": np.array([r.hull for r in results], float).reshape(n, 2),
        "kills": np.array([r.kills for r in results], np.int16).reshape(n, 2),
        "crits": np.array([r.crits for r in results], np.int32).reshape(n, 2),
        "shots": np.array([r.shots for r in results], np.int32).reshape(n, 2),
        "hits": np.array([r.hits for r in results], np.int32).reshape(n, 2),
        "destroyed": np.array([r.destroyed for r in results], np.int16).reshape(n, 2, 6),
        "mount_hits": np.array([r.mount_hits for r in results], np.int16).reshape(n, M, 3),
        "mount_crits": np.array([r.mount_crits for r in results], np.int16).reshape(n, M, 3),
        "points": np.array([r.points for r in results], np.int16).reshape(n, 2),
        "zones": np.array([r.zones for r in results], np.int16).reshape(n, 2),
        "zones_by_round": np.array([r.zones_by_round for r in results], np.int8).reshape(
            n, battles[0].params.round_cap, 2
        ),
        "hexes": np.array([r.hexes for r in results], np.int16).reshape(n, M),
        "down": np.array([r.down for r in results], bool).reshape(n, M),
    }
