"""Alluvion Knights experiments for ``mechbal simulate alluvion EXPERIMENT``.

``loadouts``: a round robin of loadouts in duels (one Armor a side, battle.py's round),
every ordered pair of the chosen loadouts including each against itself (side A acts
first on equal initiative only by its d2, so the two orders of a pair are two cells of
the same matchup). ``--n`` is the total number of duels, each cell gets ceil(N / cells).
A whole chunk is one engine call: every duel carries its own compiled battle.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from sims.alluvion import battle, rules
from sims.alluvion.catalog import Catalog
from sims.core.catalog import CatalogError
from sims.core.protocol import (
    TEXT,
    Batch,
    Column,
    Experiment,
    InputError,
    Option,
    comma_list,
    expanded,
    per_side,
    whole_number,
)

DUEL_CHUNK = 20_000  # duels a chunk: one vector call


# One row per duel (battle.py's results, in the engines' order after the cell's columns).
RESULT_COLUMNS = (
    Column(
        "winner",
        "label",
        "the side that won; a draw when undecided after round_cap rounds, or both out",
        pa.int8(),
        rules.RESULTS,
    ),
    Column("rounds", "count", "rounds played", pa.int8()),
    per_side("routed", pa.int8(), "probability", "1 when the side routed on a Morale check"),
    per_side("systems_lost", pa.int16(), "count", "systems destroyed on that side's Armor"),
    per_side(
        "pilot_hits",
        pa.int16(),
        "count",
        "Direct Hits that side's pilot took (a 6 on the loss die)",
    ),
    per_side("attacks", pa.int16(), "count", "attacks the side made"),
    per_side("hits", pa.int16(), "count", "of those, hits"),
    per_side("direct_hits", pa.int16(), "count", "Direct Hits the side dealt"),
    per_side("soldiers_lost", pa.int16(), "count", "foot soldiers the side lost (none in duels)"),
    per_side(
        "shutdowns", pa.int8(), "count", "the side's Armors that shut down (depleted batteries)"
    ),
    per_side("grapples", pa.int16(), "count", "grapples the side made"),
    per_side("armors_left", pa.int8(), "count", "the side's Armors operable at the end"),
)
COLUMNS = (
    Column("cell", "id", "the grid cell (manifest.json lists each cell's values)", pa.int32()),
    per_side("loadout", TEXT, "id", "the loadouts, as given (a loadouts.toml id or a code)"),
    per_side(
        "code",
        TEXT,
        "id",
        "their codes, ``chassis:letters[+Nr]`` (r resistive, e ecm, m movement, "
        "s surveillance, h hand-to-hand, d direct fire, x smart; +Nr rockets)",
    ),
    Column("game", "id", "index of the duel within its cell", pa.int64()),
    *RESULT_COLUMNS,
)
RESULT_KEYS = tuple(c.name for c in expanded(RESULT_COLUMNS))


def _engine(name: str) -> Any:
    # imported on use: a chunk needs one engine
    return importlib.import_module(f"sims.alluvion.{name}")


def loadout_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every ordered pair of the chosen loadouts (mirror matches included)."""
    names = list(options.get("loadouts") or catalog.loadouts)
    codes = {}
    for name in names:
        try:
            codes[name] = catalog.loadout(name).code
        except InputError as exc:
            raise CatalogError("--loadouts", str(exc)) from None
    cover = options.get("cover") or "none"
    if cover != "none" and cover not in catalog.cover:
        raise CatalogError(
            "--cover", f"unknown cover {cover!r} (known: none, {', '.join(catalog.cover)})"
        )
    range_ = int(options.get("range") or 0)
    if range_ > 60:
        raise CatalogError("--range", f"{range_} hexes: at most 60")
    return [
        {
            "loadout_a": a,
            "loadout_b": b,
            "code_a": codes[a],
            "code_b": codes[b],
            "cover": cover,
            "range": range_,
        }
        for a in names
        for b in names
    ]


def duel_of(catalog: Catalog, cell: Mapping[str, Any]) -> battle.Battle:
    """The compiled duel of one cell (both sides behind the cell's cover)."""
    cover = cell.get("cover", "none")
    return battle.duel(
        catalog,
        cell["loadout_a"],
        cell["loadout_b"],
        cover=(cover, cover),
        range_=int(cell.get("range", 0)),
    )


def duel_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    """Play a chunk's duels in one engine call: one compiled battle per cell of the
    chunk, each row indexing its cell's."""
    battles = [duel_of(catalog, c) for c in batch.cells]
    res = _engine(engine).play(battles, batch.cell.astype(np.int32), rng)
    cell_numbers = np.array([c.get("cell", -1) for c in batch.cells], np.int32)
    out: dict[str, Any] = {
        "cell": cell_numbers[batch.cell],
        "loadout_a": batch.column("loadout_a"),
        "loadout_b": batch.column("loadout_b"),
        "code_a": batch.column("code_a"),
        "code_b": batch.column("code_b"),
        "game": batch.index,
    }
    for key in RESULT_KEYS:
        out[key] = np.asarray(res[key])
    return pa.table(out)


def _range(text: str) -> int:
    return whole_number(text)


LOADOUTS_OPTION = Option(
    "loadouts",
    "loadouts, comma-separated: ids of loadouts.toml or "
    "codes like knight:rsdd+1r (default: every named loadout)",
    comma_list,
    metavar="L1,L2,...",
)
COVER_OPTION = Option(
    "cover",
    "cover both sides start behind: none or a cover.toml id (default none)",
    str,
    default="none",
    metavar="COVER",
)
RANGE_OPTION = Option(
    "range",
    "hexes between the sides at the start (default: the rules' start_range)",
    _range,
    default=0,
    metavar="HEXES",
)

EXPERIMENTS = {
    "loadouts": Experiment(
        name="loadouts",
        summary="a round robin of loadouts in duels (every ordered pair, mirrors included)",
        doc=__doc__ or "",
        chunk_size=DUEL_CHUNK,
        cells=loadout_cells,
        run_chunk=duel_rows,
        columns=COLUMNS,
        rows="one row per duel; run options such as --cover are in the run's manifest",
        options=(LOADOUTS_OPTION, COVER_OPTION, RANGE_OPTION),
        # the scenarios are the engines' samples; the repairs a table only
        identity_files=(),
    ),
}
