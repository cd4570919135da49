"""Alluvion Knights queries over the store: the ``loadouts`` round robin read per ordered
cell, per matchup (pooled from each loadout's side) and per loadout.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; only the view name (``loadouts``, or ``alluvion_loadouts`` when
another game has a ``loadouts`` experiment: :func:`view_of`) is filled in. ``winner`` is
the labelled outcome (``winner = 'a'``, ``'b'``, ``'draw'``). A score is (wins + draws /
2) / duels, with its 95% Wilson interval (``wilson_low``/``wilson_high`` of the fractional
count wins + draws / 2).

The round robin's cells, matchups and standings are :mod:`analysis.round_robin`'s, read
with the loadout's columns; a standing leaves the mirrors out.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis import round_robin
from analysis.query import fetch, ident
from analysis.round_robin import RoundRobin

GAME = "alluvion"
EXPERIMENT = "loadouts"
# The round robin's sides: loadout_a against loadout_b, one row a duel, draws possible.
LOADOUTS = RoundRobin("loadout", count="duels")
SUMS = {"attacks": "CAST(sum(attacks) AS BIGINT)", "hits": "CAST(sum(hits) AS BIGINT)"}


def view_of(con: duckdb.DuckDBPyConnection, experiment: str = EXPERIMENT) -> str:
    """The one-run view of an Alluvion experiment on this connection."""
    rows = con.execute(
        "SELECT view FROM shown WHERE game = ? AND experiment = ?", [GAME, experiment]
    ).fetchall()
    return str(rows[0][0]) if rows else experiment.replace("-", "_")


def cells(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run and ordered cell (``loadout_a`` as side a against ``loadout_b``, mirrors
    included): :func:`analysis.round_robin.cells` (duels, side a's wins, draws and losses,
    its score with the 95% Wilson interval), mean rounds, and each side's attacks and
    hits."""
    extra = {"mean_rounds": "avg(rounds)"}
    for column in ("attacks_a", "hits_a", "attacks_b", "hits_b"):
        extra[column] = f"CAST(sum({column}) AS BIGINT)"
    return round_robin.cells(con, view, LOADOUTS, extra=extra)


def matchups(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run, loadout and opponent: :func:`analysis.round_robin.matchups` (the duels of
    both cells of the matchup pooled, each counted once from the loadout's side, a mirror
    once from side a: duels, wins, draws, losses, the score with its 95% Wilson interval,
    a mirror's exactly 1/2), mean rounds, and the loadout's attacks, hits and hit share."""
    return round_robin.matchups(
        con,
        view,
        LOADOUTS,
        "rounds, attacks_{me} AS attacks, hits_{me} AS hits",
        {"mean_rounds": "avg(rounds)", **SUMS},
        ("mean_rounds", "attacks", "hits", "hits / nullif(attacks, 0) AS hit_share"),
    )


def standings(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run and loadout over the whole round robin, mirrors left out:
    :func:`analysis.round_robin.standings` (duels from the loadout's side, wins, draws,
    losses, the score with its 95% Wilson interval), and its attacks, hits and hit
    share."""
    return round_robin.standings(
        con,
        view,
        LOADOUTS,
        "attacks_{me} AS attacks, hits_{me} AS hits",
        SUMS,
        ("attacks", "hits", "hits / nullif(attacks, 0) AS hit_share"),
    )


def side_a(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run: side a's score over every duel, with its 95% Wilson interval. Every
    ordered pair is played both ways, so this is the first-listed side's edge alone
    (side a acts first on equal initiative only by its d2): 1/2 when the sides are even."""
    sql = f"""
    WITH m AS (
        SELECT run,
               count(*) AS duels,
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               count(*) FILTER (WHERE winner = 'draw') AS draws,
               count(*) FILTER (WHERE winner = 'b') AS wins_b,
               avg(rounds) AS mean_rounds
        FROM {ident(view)}
        GROUP BY run
    )
    SELECT run, duels, wins_a, draws, wins_b,
           (wins_a + draws / 2) / duels AS score_a,
           wilson_low(wins_a + draws / 2, duels) AS low,
           wilson_high(wins_a + draws / 2, duels) AS high,
           draws / duels AS draw_share, mean_rounds
    FROM m
    ORDER BY run
    """
    return fetch(con, sql)
