"""The one protocol every game package exposes (DESIGN.md "One protocol, four games").

A game package defines ``GAME = Game(...)`` in its ``__init__``; tools reach games only
through :func:`get_game`, so adding a game is one registry line. What a game offers:

- ``load_catalog(root)``: its validated catalog (one folder per game under ``root``);
- ``tables(catalog)``: its exact rulebook tables, by file stem (DESIGN.md "Tables");
- ``checks``: the functions behind its ``claims.toml``;
- ``engines``: its two battle engines (:class:`Engines`): a scalar ``reference`` that
  plays one game at a time, rule by rule, and a batched ``vector`` engine that plays N
  at once; both take a compiled scenario, a count and a ``numpy.random.Generator`` and
  return the same per-game result arrays, and ``metrics`` turns those into the
  per-game numbers the engines must agree on. ``tests/test_protocol.py`` checks every
  registered game against this.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

# Game name -> package holding its GAME. Names are the short names of seeds/README.md.
REGISTRY = {"skirmish": "sims.skirmish"}


class UnknownGame(ValueError):
    pass


Results = dict[str, np.ndarray]


@dataclass(frozen=True)
class Engines:
    """A game's reference and vectorized engines over compiled scenarios."""

    scenarios: Callable[[Any], list[tuple[str, Any]]]  # catalog -> [(name, scenario)]
    reference: Callable[[Any, int, np.random.Generator], Results]
    vector: Callable[[Any, int, np.random.Generator], Results]
    metrics: Callable[[Results], dict[str, np.ndarray]]  # per-game numbers to compare
    reference_version: str
    vector_version: str


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    rulebook: str  # seed file the rules come from
    load_catalog: Callable[..., Any]  # (catalog root, overrides=...) -> validated catalog
    tables: Callable[[Any], dict[str, pl.DataFrame]]  # exact tables by file stem
    table_docs: Mapping[str, str]  # file stem -> how it is computed
    checks: Mapping[str, Callable[..., Any]]  # claim check name -> function
    rules_version: str
    engines: Engines | None = None
    experiments: Mapping[str, Any] = field(default_factory=dict)  # name -> runner.Experiment

    def claims_path(self, catalog_root: Path) -> Path:
        return Path(catalog_root) / self.name / "claims.toml"


def game_names() -> list[str]:
    return sorted(REGISTRY)


def get_game(name: str) -> Game:
    if name not in REGISTRY:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return importlib.import_module(REGISTRY[name]).GAME
