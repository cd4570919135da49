"""ALPHASIDE experiments for ``mechbal simulate alphaside EXPERIMENT``.

``duel``: engagements of one unit a side over a whole game (two Phases of ten spaces on
the Timeline, battle.py's procedure), every ordered pair of the chosen units including
each against itself. ``squads``: whole games between squads of 3 or 5 (squads.toml), every
ordered pair of the chosen squads. ``--n`` is the total number of games, each cell gets
ceil(N / cells). A whole chunk is one engine call: every game carries its own compiled
units.
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
from sims.core.protocol import (
    SIDES,
    TEXT,
    Batch,
    Column,
    Each,
    Experiment,
    Option,
    comma_list,
    expanded,
    per,
    per_side,
)

GAME_CHUNK = 20_000  # games a chunk: one vector call
SLOT = Each("slot", (0, 1))  # a unit's weapon slots


# The engines' results, in their order after the cell's columns (side a is the first
# unit or squad of the cell).
RESULT_COLUMNS = (
    Column(
        "winner",
        "label",
        "the side that won: more VP; equal VP, the side that acted last",
        pa.int8(),
        rules.RESULTS,
    ),
    per_side(
        "vp", pa.int16(), "count", "victory points scored (the VP of each enemy unit defeated)"
    ),
    per_side(
        "defeats",
        pa.int16(),
        "count",
        "the side's units defeated (each defeat sends one back to the Reserve, +2 TL)",
    ),
    per_side("damage", pa.int16(), "count", "damage the side dealt (combat and collision)"),
    per_side("attacks", pa.int16(), "count", "attacks the side made"),
    per_side("hits", pa.int16(), "count", "hits rolled (crits included)"),
    per_side("crits", pa.int16(), "count", "crits rolled"),
    per_side("tl_attack", pa.int16(), "count", "Timeline spaces the side spent on attacks"),
    per_side("activations", pa.int16(), "count", "activations the side took"),
    per_side(
        "first_defeat",
        pa.int8(),
        "expectation",
        "the Timeline time (1..20: space + 10 x (Phase - 1)) the side first defeated an "
        "enemy unit; 0 never",
    ),
    per(
        (SIDES, SLOT),
        Column(
            "damage_w<slot>_<side>",
            "count",
            "damage dealt with that weapon slot of the side's units",
            pa.int16(),
        ),
    ),
    per(
        (SIDES, SLOT),
        Column(
            "tl_w<slot>_<side>",
            "count",
            "Timeline spaces spent attacking with that weapon slot",
            pa.int16(),
        ),
    ),
)
RESULT_KEYS = tuple(c.name for c in expanded(RESULT_COLUMNS))


def _columns(side: str, ids: str) -> tuple[Any, ...]:
    """The rows of a grid of ``side`` pairs (``unit``, ``squad``) named in ``ids``."""
    return (
        Column("cell", "id", "the grid cell (manifest.json lists each cell's values)", pa.int32()),
        per_side(side, TEXT, "id", f"the {side} ids ({ids})"),
        Column("game", "id", "index of the game within its cell", pa.int64()),
        *RESULT_COLUMNS,
    )


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
        doc=__doc__ or "",
        chunk_size=GAME_CHUNK,
        cells=duel_cells,
        run_chunk=duel_rows,
        columns=_columns("unit", "catalogs/alphaside/units.toml"),
        rows="one row per game; side a is the cell's first unit",
        options=(UNITS_OPTION,),
    ),
    "squads": Experiment(
        name="squads",
        summary="whole games between squads of 3 or 5, every ordered pair",
        doc=__doc__ or "",
        chunk_size=GAME_CHUNK,
        cells=squad_cells,
        run_chunk=squad_rows,
        columns=_columns("squad", "catalogs/alphaside/squads.toml"),
        rows="one row per game; side a is the cell's first squad",
        options=(SQUADS_OPTION,),
    ),
}
