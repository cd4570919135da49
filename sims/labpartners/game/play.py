"""Whole Mech Lab Partners games (000): Assembly, the Battle, then the grades.

A batch of G games shares one deck and one seating (player policies by seat); each game
reads its row of a :class:`random_setup.Shuffle` (the random setup, common to every deck)
and meets its own kaiju. :func:`play_games` plays them in three steps:

1. Assembly by an engine's Assembly module (``game.reference.assembly``: one game at a
   time, rule by rule; ``game.vector.assembly``: the G games as arrays). Assembly is
   deterministic given the shuffle, so both lock the same mechs (``locked_mech.Locked``);
2. the Battle of each locked mech against its kaiju with the flipped Traits (the
   Battle-only study's compile on ``locked_mech.dealt``): the reference engine compiles
   each game (``game.reference.battles``) and plays it with ``reference.play`` (the
   oracle); the vector engine compiles the batch as arrays (``game.vector.battles``) and
   plays it with ``vector.play_stacked``. The Battle's dice come from ``battle_rng`` alone;
3. scoring (Academy Grading Rubric, Independent Studies; ``game.scoring``): the group's
   grade GPA, the group credits that hold, and each seat's study with its personal
   credit.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from sims.labpartners.catalog import Catalog, Deck
from sims.labpartners.game.dealt_mechs import trait_lists
from sims.labpartners.game.locked_mech import dealt
from sims.labpartners.game.random_setup import Shuffle
from sims.labpartners.game.scoring import body_forms, lesson_dealt, lesson_seen, score

ENGINES = ("reference", "vector")


def assembly(engine: str) -> Any:
    """The Assembly module of ``engine`` (its ``play(catalog, deck, shuffle, kaiju, seats,
    mode, battle_policy) -> locked_mech.Locked``)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (reference or vector)")
    return importlib.import_module(f"sims.labpartners.game.{engine}.assembly")


def battles(engine: str) -> Any:
    """The Battle module of ``engine`` (its ``play_locked(catalog, locked, dealt, kaiju,
    battle_rng)``)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (reference or vector)")
    return importlib.import_module(f"sims.labpartners.game.{engine}.battles")


def play_games(
    catalog: Catalog,
    deck: Deck | str,
    shuffle: Shuffle,
    kaiju: Sequence[str],
    seats: Sequence[str],
    mode: str = "standalone",
    battle_policy: str = "steady",
    engine: str = "vector",
    battle_rng: np.random.Generator | None = None,
) -> dict[str, np.ndarray]:
    """G whole games (module docstring): game ``i`` reads ``shuffle`` row ``i`` and meets
    ``kaiju[i]``; seat ``k`` plays the player policy ``seats[k]``. Returns arrays over the
    games: the locked mech (``slots`` as full-spread card indices, -1 a gap; ``lesson``,
    ``battle_policy`` as catalog indices), what Assembly did, the Battle's results, and
    per seat ``study``, ``study_done`` and ``seat_gpa`` ([G, seats])."""
    d = catalog.deck(deck) if isinstance(deck, str) else deck
    kaiju = np.asarray(kaiju, object)
    if len(kaiju) != shuffle.games:
        raise ValueError(f"{shuffle.games} games but {len(kaiju)} kaiju: give one per game")
    locked = assembly(engine).play(
        catalog, d, shuffle, kaiju.tolist(), list(seats), mode, battle_policy
    )
    rng = battle_rng if battle_rng is not None else np.random.default_rng()
    d_locked = dealt(catalog, locked, shuffle)
    fought = {
        **battles(engine).play_locked(catalog, locked, d_locked, kaiju, rng),
        "traits": trait_lists(d_locked),
    }
    forms = body_forms(catalog, d, shuffle)
    out = {
        "slots": locked.slots,
        "lesson": locked.lesson,
        "gaps": (locked.slots < 0).sum(1),
        "assembly_rounds": locked.rounds,
        "traits_flipped": locked.flips,
        "body_seen": locked.body_seen,
        "lesson_seen": lesson_seen(catalog, d, shuffle, locked, forms),
        "lesson_dealt": lesson_dealt(catalog, d, shuffle, locked, len(seats), forms),
        "battle_policy": locked.battle_policy,
        **fought,
    }
    return {**out, **score(catalog, shuffle, locked, len(seats), fought)}
