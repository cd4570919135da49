"""The engine contract's machinery, written once for every game (``protocol.py``'s module
docstring is the contract; DESIGN.md "One protocol, four games").

- :func:`check_batch`: the check every engine makes of a call (one batch key, ids a 1-D
  integer array into the scenarios), refused in one line;
- :func:`one_at_a_time`: a batched engine on dice passed in (``play_dice``) from a
  per-battle function and the fields it returns, the battles played one after another
  (a reference engine);
- :func:`in_working_sets`: a vectorized engine's call played in working sets of ids
  (bounding its memory), results concatenated in call order;
- :func:`seeded`: the contract's ``play(scenarios, scenario_ids, rng)`` from a
  ``play_dice`` (dice drawn from ``rng`` by :class:`sims.core.batch.Dice`).

A game whose two engines read a battle's dice in one order declares both ``play_dice``
(``Engines.play_dice``): a game the reference plays on
:class:`~sims.core.batch.RecordingDice` then replays die for die in the vector engine on
:class:`~sims.core.batch.ScriptedDice` (``tests/conformance.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from sims.core.batch import Dice
from sims.core.protocol import Results

PlayDice = Callable[[Sequence[Any], Any, Dice], Results]
Play = Callable[[Sequence[Any], Any, np.random.Generator], Results]


def check_batch(
    scenarios: Sequence[Any], scenario_ids: Any, batch_key: Callable[[Any], Hashable]
) -> np.ndarray:
    """``scenario_ids`` as a 1-D int64 array. A call with no scenarios, scenarios of
    different ``batch_key``, ids that are not a 1-D integer array or ids outside the
    scenarios is refused with a ValueError in one line."""
    if not len(scenarios):
        raise ValueError("no scenarios to play: give at least one compiled scenario")
    first = batch_key(scenarios[0])
    for i, s in enumerate(scenarios[1:], 1):
        if s is not scenarios[0] and batch_key(s) != first:
            raise ValueError(
                f"scenarios {i} and 0 cannot share an engine call: their batch_key differs "
                f"(rules parameters or shape, {batch_key.__module__}.batch_key)"
            )
    ids = np.asarray(scenario_ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(
            f"scenario_ids must be a 1-D integer array, got {ids.dtype} of shape {ids.shape}"
        )
    if len(ids) and (ids.min() < 0 or ids.max() >= len(scenarios)):
        raise ValueError(
            f"scenario ids must lie in 0..{len(scenarios) - 1} (one per scenario given), "
            f"got {ids.min()}..{ids.max()}"
        )
    return ids.astype(np.int64)


def one_at_a_time(
    play_battle: Callable[[Any, Dice], Mapping[str, Any]],
    fields: Mapping[str, Any],
    batch_key: Callable[[Any], Hashable],
) -> PlayDice:
    """``play_dice(scenarios, scenario_ids, dice)``: battle i is
    ``play_battle(scenarios[scenario_ids[i]], dice)``, one after another on the same
    dice; its results are ``{field: array}`` in ``fields`` order (name -> dtype), one
    number a battle."""

    def play_dice(scenarios: Sequence[Any], scenario_ids: Any, dice: Dice) -> Results:
        ids = check_batch(scenarios, scenario_ids, batch_key)
        rows = [play_battle(scenarios[i], dice) for i in ids.tolist()]
        return {k: np.array([r[k] for r in rows], dtype=t) for k, t in fields.items()}

    return play_dice


def in_working_sets(play: Callable[[np.ndarray], Results], ids: np.ndarray, size: int) -> Results:
    """``play(ids[i : i + size])`` for each working set of ``ids`` in turn (one call with
    no ids too, so an empty call still has its keys), the results concatenated."""
    parts = [play(ids[i : i + size]) for i in range(0, max(len(ids), 1), size)]
    return {k: np.concatenate([x[k] for x in parts]) for k in parts[0]}


def seeded(play_dice: PlayDice) -> Play:
    """The engine contract's ``play(scenarios, scenario_ids, rng)``: ``play_dice`` on
    dice drawn from ``rng``."""

    def play(scenarios: Sequence[Any], scenario_ids: Any, rng: np.random.Generator) -> Results:
        """The engine contract's entry point: ``play_dice`` on dice drawn from ``rng``."""
        return play_dice(scenarios, scenario_ids, Dice(rng))

    return play
