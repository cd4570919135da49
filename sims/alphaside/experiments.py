"""ALPHASIDE experiments for ``mechbal simulate alphaside EXPERIMENT``.

``duel``: engagements of one unit a side over a whole game (two Phases of ten spaces on
the Timeline, battle.py's procedure), every ordered pair of the chosen units including
each against itself. ``squads``: whole games between squads of 3 or 5 (squads.toml), every
ordered pair of the chosen squads. ``--n`` is the total number of games, each cell gets
ceil(N / cells). A whole chunk is one engine call: every game carries its own compiled
units.

Row columns (one row per game; side a is the first unit or squad of the cell):
  cell               int32   the grid cell (manifest.json lists each cell's values)
  unit_a/_b          str     (duel) the unit ids (catalogs/alphaside/units.toml)
  squad_a/_b         str     (squads) the squad ids (catalogs/alphaside/squads.toml)
  game               int64   index of the game within its cell
  winner             int8    0 side a, 1 side b (more VP; equal VP: the side that acted
                             last); the query views show a, b
  vp_a/_b            int16   victory points scored (the VP of each enemy unit defeated)
  defeats_a/_b       int16   the side's units defeated (each defeat sends one back to
                             the Reserve, +2 TL)
  damage_a/_b        int16   damage the side dealt (combat and collision)
  attacks_a/_b       int16   attacks the side made
  hits_a/_b          int16   hits rolled (crits included)
  crits_a/_b         int16   crits rolled
  tl_attack_a/_b     int16   Timeline spaces the side spent on attacks
  activations_a/_b   int16   activations the side took
  first_defeat_a/_b  int8    the Timeline time (1..20: space + 10 x (Phase - 1)) the side
                             first defeated an enemy unit; 0 never
  damage_w<k>_<side> int16   damage dealt with weapon slot k (0, 1) of the side's units
  tl_w<k>_<side>     int16   Timeline spaces spent attacking with weapon slot k
  seed               int64   the run's seed (chunk k draws SeedSequence(seed, spawn_key=(k,)))
  chunk              int32   the chunk the row came from
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from sims.alphaside import battle, rules
from sims.alphaside.catalog import Catalog
from sims.core.catalog import CatalogError
from sims.core.protocol import Batch, Experiment, Option, comma_list

GAME_CHUNK = 20_000  # games a chunk: one vector call
RESULT_KEYS = tuple(battle.FIELDS)  # the engines' results, row columns in this order
LABELS = {"winner": rules.RESULTS}


def _engine(name: str) -> Any:
    # imported on use: a chunk needs one engine
    return importlib.import_module(f"sims.alphaside.{name}")


def _chosen(catalog: Catalog, options: Mapping[str, Any], key: str, known: Mapping) -> list:
    names = list(options.get(key) or known)
    for name in names:
        if name not in known:
            raise CatalogError(
                f"--{key}", f"unknown {key.rstrip('s')} {name!r} (known: {', '.join(known)})"
            )
    return names


def duel_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every ordered pair of the chosen units (mirror matches included)."""
    units = _chosen(catalog, options, "units", catalog.units)
    return [{"unit_a": a, "unit_b": b} for a in units for b in units]


def squad_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every ordered pair of the chosen squads (mirror matches included)."""
    squads = _chosen(catalog, options, "squads", catalog.squads)
    return [{"squad_a": a, "squad_b": b} for a in squads for b in squads]


def _rows(
    batch: Batch, battles: list, rng: np.random.Generator, engine: str, names: tuple[str, str]
) -> pa.Table:
    res = _engine(engine).play(battles, batch.cell.astype(np.int32), rng)
    cell_numbers = np.array([c.get("cell", -1) for c in batch.cells], np.int32)
    out: dict[str, Any] = {"cell": cell_numbers[batch.cell]}
    for name in names:
        out[name] = batch.column(name)
    out["game"] = batch.index
    for key in RESULT_KEYS:
        out[key] = np.asarray(res[key])
    return pa.table(out)


def duel_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    """A chunk's engagements in one engine call: one compiled game per cell."""
    battles = [battle.duel(catalog, c["unit_a"], c["unit_b"]) for c in batch.cells]
    return _rows(batch, battles, rng, engine, ("unit_a", "unit_b"))


def squad_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    """A chunk's squad games in one engine call."""
    battles = [battle.compile_battle(catalog, c["squad_a"], c["squad_b"]) for c in batch.cells]
    return _rows(batch, battles, rng, engine, ("squad_a", "squad_b"))


UNITS_OPTION = Option(
    "units",
    "unit ids of units.toml, comma-separated (default: every unit)",
    comma_list,
    metavar="U1,U2,...",
)
SQUADS_OPTION = Option(
    "squads",
    "squad ids of squads.toml, comma-separated (default: every squad)",
    comma_list,
    metavar="S1,S2,...",
)

EXPERIMENTS = {
    "duel": Experiment(
        name="duel",
        summary="engagements of one unit a side over a whole game, every ordered pair",
        schema=__doc__ or "",
        chunk_size=GAME_CHUNK,
        cells=duel_cells,
        run_chunk=duel_rows,
        labels=LABELS,
        options=(UNITS_OPTION,),
    ),
    "squads": Experiment(
        name="squads",
        summary="whole games between squads of 3 or 5, every ordered pair",
        schema=__doc__ or "",
        chunk_size=GAME_CHUNK,
        cells=squad_cells,
        run_chunk=squad_rows,
        labels=LABELS,
        options=(SQUADS_OPTION,),
    ),
}
