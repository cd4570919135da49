"""Alluvion Knights queries over the store: the ``loadouts`` round robin read per ordered
cell, per matchup (pooled from each loadout's side) and per loadout.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; only the view name (``loadouts``, or ``alluvion_loadouts`` when
another game has a ``loadouts`` experiment: :func:`view_of`) is filled in. ``winner`` is
the labelled outcome (``winner = 'a'``, ``'b'``, ``'draw'``). A score is (wins + draws /
2) / duels, with its 95% Wilson interval (``wilson_low``/``wilson_high`` of the fractional
count wins + draws / 2).

Every ordered pair is a cell of the round robin, mirrors included, so a matchup X-Y of two
different loadouts is played in two cells (X as side a, and X as side b); its rows pool
both, each duel counted once, from X's side. In a mirror both sides are the loadout: its
score is 1/2 by construction, and its wins, draws and losses are side a's.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.query import fetch, ident

GAME = "alluvion"
EXPERIMENT = "loadouts"


def view_of(con: duckdb.DuckDBPyConnection, experiment: str = EXPERIMENT) -> str:
    """The one-run view of an Alluvion experiment on this connection."""
    rows = con.execute(
        "SELECT view FROM shown WHERE game = ? AND experiment = ?", [GAME, experiment]
    ).fetchall()
    return str(rows[0][0]) if rows else experiment.replace("-", "_")


def cells(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run and ordered cell (``loadout_a`` as side a against ``loadout_b``, mirrors
    included): duels, side a's wins, draws and losses, its score with the 95% Wilson
    interval, mean rounds, and each side's attacks and hits."""
    sql = f"""
    WITH m AS (
        SELECT run, loadout_a, loadout_b,
               count(*) AS duels,
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               count(*) FILTER (WHERE winner = 'draw') AS draws,
               count(*) FILTER (WHERE winner = 'b') AS losses_a,
               avg(rounds) AS mean_rounds,
               CAST(sum(attacks_a) AS BIGINT) AS attacks_a,
               CAST(sum(hits_a) AS BIGINT) AS hits_a,
               CAST(sum(attacks_b) AS BIGINT) AS attacks_b,
               CAST(sum(hits_b) AS BIGINT) AS hits_b
        FROM {ident(view)}
        GROUP BY run, loadout_a, loadout_b
    )
    SELECT run, loadout_a, loadout_b, duels, wins_a, draws, losses_a,
           (wins_a + draws / 2) / duels AS score_a,
           wilson_low(wins_a + draws / 2, duels) AS score_low,
           wilson_high(wins_a + draws / 2, duels) AS score_high,
           mean_rounds, attacks_a, hits_a, attacks_b, hits_b
    FROM m
    ORDER BY run, loadout_a, loadout_b
    """
    return fetch(con, sql)


def matchups(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run, loadout and opponent: the duels of both cells of the matchup pooled, each
    counted once from the loadout's side (a mirror once, from side a): duels, wins, draws,
    losses, the score with its 95% Wilson interval (a mirror's is exactly 1/2, its
    interval [1/2, 1/2]), mean rounds, and the loadout's attacks, hits and hit share."""
    sql = f"""
    WITH sides AS (
        SELECT run, loadout_a AS loadout, loadout_b AS opponent,
               winner = 'a' AS won, winner = 'draw' AS drew, winner = 'b' AS lost,
               rounds, attacks_a AS attacks, hits_a AS hits
        FROM {ident(view)}
        UNION ALL
        SELECT run, loadout_b AS loadout, loadout_a AS opponent,
               winner = 'b' AS won, winner = 'draw' AS drew, winner = 'a' AS lost,
               rounds, attacks_b AS attacks, hits_b AS hits
        FROM {ident(view)}
        WHERE loadout_a <> loadout_b
    ),
    m AS (
        SELECT run, loadout, opponent,
               count(*) AS duels,
               count(*) FILTER (WHERE won) AS wins,
               count(*) FILTER (WHERE drew) AS draws,
               count(*) FILTER (WHERE lost) AS losses,
               avg(rounds) AS mean_rounds,
               CAST(sum(attacks) AS BIGINT) AS attacks, CAST(sum(hits) AS BIGINT) AS hits
        FROM sides
        GROUP BY run, loadout, opponent
    )
    SELECT run, loadout, opponent, loadout = opponent AS mirror,
           duels, wins, draws, losses,
           CASE WHEN loadout = opponent THEN 0.5
                ELSE (wins + draws / 2) / duels END AS score,
           CASE WHEN loadout = opponent THEN 0.5
                ELSE wilson_low(wins + draws / 2, duels) END AS low,
           CASE WHEN loadout = opponent THEN 0.5
                ELSE wilson_high(wins + draws / 2, duels) END AS high,
           mean_rounds, attacks, hits,
           hits / nullif(attacks, 0) AS hit_share
    FROM m
    ORDER BY run, loadout, opponent
    """
    return fetch(con, sql)


def standings(con: duckdb.DuckDBPyConnection, view: str = "loadouts") -> pl.DataFrame:
    """Per run and loadout, over the whole round robin (every opponent, mirrors included:
    a mirror duel counts once from each side, so exactly half a point each time): duels
    (from the loadout's side), wins, draws, losses, the score with its 95% Wilson
    interval, and its attacks, hits and hit share."""
    sql = f"""
    WITH sides AS (
        SELECT run, loadout_a AS loadout, winner = 'a' AS won, winner = 'draw' AS drew,
               winner = 'b' AS lost, attacks_a AS attacks, hits_a AS hits
        FROM {ident(view)}
        UNION ALL
        SELECT run, loadout_b AS loadout, winner = 'b' AS won, winner = 'draw' AS drew,
               winner = 'a' AS lost, attacks_b AS attacks, hits_b AS hits
        FROM {ident(view)}
    ),
    m AS (
        SELECT run, loadout,
               count(*) AS duels,
               count(*) FILTER (WHERE won) AS wins,
               count(*) FILTER (WHERE drew) AS draws,
               count(*) FILTER (WHERE lost) AS losses,
               CAST(sum(attacks) AS BIGINT) AS attacks, CAST(sum(hits) AS BIGINT) AS hits
        FROM sides
        GROUP BY run, loadout
    )
    SELECT run, loadout, duels, wins, draws, losses,
           (wins + draws / 2) / duels AS score,
           wilson_low(wins + draws / 2, duels) AS low,
           wilson_high(wins + draws / 2, duels) AS high,
           attacks, hits, hits / nullif(attacks, 0) AS hit_share
    FROM m
    ORDER BY run, loadout
    """
    return fetch(con, sql)


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
