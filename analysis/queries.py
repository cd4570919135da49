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

from analysis.query import fetch, ident, parameters


def matchup_keys(con: duckdb.DuckDBPyConnection, view: str, matchup: Sequence[str]) -> list[str]:
    """Run, the matchup columns and the view's parameter columns: what one comparison
    holds fixed."""
    fixed = ("run", *matchup)
    return [*fixed, *(p for p in parameters(con, view) if p not in fixed)]


def win_rates(con: duckdb.DuckDBPyConnection, view: str, matchup: Sequence[str]) -> pl.DataFrame:
    """Per run, matchup (the ``matchup`` columns) and parameter values: battles, wins,
    draws, losses of side A, its score (draws count half) with a 95% Wilson interval,
    and the mean rounds played."""
    keys = ", ".join(ident(k) for k in matchup_keys(con, view, matchup))
    sql = f"""
    WITH m AS (
        SELECT {keys},
               count(*) AS battles,
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               count(*) FILTER (WHERE winner = 'draw') AS draws,
               count(*) FILTER (WHERE winner = 'b') AS losses_a,
               avg(rounds) AS mean_rounds
        FROM {ident(view)}
        GROUP BY {keys}
    )
    SELECT {keys}, battles, wins_a, draws, losses_a,
           (wins_a + draws / 2) / battles AS score_a,
           wilson_low(wins_a + draws / 2, battles) AS score_low,
           wilson_high(wins_a + draws / 2, battles) AS score_high,
           mean_rounds
    FROM m
    ORDER BY {keys}
    """
    return fetch(con, sql)
