"""Named queries over the store that serve any game, each a function returning polars.

Each function writes its SQL in full, so it can be copied into ``mechbal query``: only the
view name and the key columns (``{keys}``: ``run``, the game's matchup columns, then the
view's swept and ``--set`` parameter columns) are filled in. ``wilson_low`` and
``wilson_high`` are the macros :func:`analysis.query.connect` defines (95% Wilson score
interval, z = 1.96). A game's own queries live in ``analysis/<game>/queries.py``.

Rows of two-sided games follow one convention: ``winner`` is stored as 0 when side A
won, 1 when side B won, 2 for a draw (counted as half a win), which the game labels
``a``, ``b``, ``draw`` (``Experiment.labels``: the views show the words), and ``rounds``
the rounds played.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from analysis import round_robin
from analysis.query import parameters
from analysis.round_robin import RoundRobin


def matchup_keys(con: duckdb.DuckDBPyConnection, view: str, matchup: Sequence[str]) -> list[str]:
    """Run, the matchup columns and the view's parameter columns: what one comparison
    holds fixed."""
    fixed = ("run", *matchup)
    return [*fixed, *(p for p in parameters(con, view) if p not in fixed)]


def win_rates(con: duckdb.DuckDBPyConnection, view: str, matchup: Sequence[str]) -> pl.DataFrame:
    """Per run, matchup (the ``matchup`` columns) and parameter values:
    :func:`analysis.round_robin.cells` (battles, wins, draws, losses of side A, its score
    with a 95% Wilson interval, draws counting half) and the mean rounds played."""
    keys = matchup_keys(con, view, matchup)
    rr = RoundRobin(matchup[0].removesuffix("_a"))  # the count and the draws: battles, drawn
    return round_robin.cells(con, view, rr, keys, {"mean_rounds": "avg(rounds)"})
