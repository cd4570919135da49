"""The one protocol every game package exposes (DESIGN.md "One protocol, four games").

A game package defines ``GAME = Game(...)`` in its ``__init__``; tools reach games only
through :func:`get_game`, so adding a game is one registry line. Later issues extend
this with the reference and vector engines and experiments.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

# Game name -> package holding its GAME. Names are the short names of seeds/README.md.
REGISTRY = {"skirmish": "sims.skirmish"}


class UnknownGame(ValueError):
    pass


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    rulebook: str  # seed file the rules come from
    load_catalog: Callable[[Path], Any]  # catalog root (one folder per game) -> catalog
    tables: Callable[[Any], dict[str, pl.DataFrame]]  # exact tables by file stem
    table_docs: Mapping[str, str]  # file stem -> how it is computed
    checks: Mapping[str, Callable[..., Any]]  # claim check name -> function
    rules_version: str

    def claims_path(self, catalog_root: Path) -> Path:
        return Path(catalog_root) / self.name / "claims.toml"


def game_names() -> list[str]:
    return sorted(REGISTRY)


def get_game(name: str) -> Game:
    if name not in REGISTRY:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return importlib.import_module(REGISTRY[name]).GAME
