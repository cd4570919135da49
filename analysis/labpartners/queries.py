"""Mech Lab Partners queries over the store: win rate and GPA per deck and kaiju, win
rate by what a dealt mech brought (lesson took, gaps, weakness matches), and crits.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; only the view name (``battles``, or ``labpartners_battles`` when
another game has a ``battles`` experiment: :func:`view_of`) and a grouping column are
filled in. ``result`` is the labelled outcome (``result = 'win'``). Win rates carry the
95% Wilson interval (``wilson_low``/``wilson_high``), mean GPA a normal 95% interval
(1.96 standard errors).
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.query import fetch, ident

GAME = "labpartners"
FACTORS = ("lesson_took", "gaps", "weak_matches", "resist_matches")


def view_of(con: duckdb.DuckDBPyConnection, experiment: str = "battles") -> str:
    """The one-run view of a Lab Partners experiment on this connection."""
    rows = con.execute("SELECT view FROM shown WHERE game = ? AND experiment = ?",
                       [GAME, experiment]).fetchall()  # fmt: skip
    return str(rows[0][0]) if rows else experiment.replace("-", "_")


def win_rates(con: duckdb.DuckDBPyConnection, view: str = "battles") -> pl.DataFrame:
    """Per run, deck, kaiju and policy: battles, wins, the win rate with its 95% Wilson
    interval, mean GPA with a normal 95% interval, mean rounds, the share of battles lost
    to the city and to destruction."""
    sql = f"""
    WITH m AS (
        SELECT run, deck, kaiju, policy,
               count(*) AS battles,
               count(*) FILTER (WHERE result = 'win') AS wins,
               count(*) FILTER (WHERE result = 'city') AS city,
               count(*) FILTER (WHERE result = 'destroyed') AS destroyed,
               avg(gpa) AS mean_gpa,
               coalesce(stddev_samp(gpa), 0) AS sd_gpa,
               avg(rounds) AS mean_rounds
        FROM {ident(view)}
        GROUP BY run, deck, kaiju, policy
    )
    SELECT run, deck, kaiju, policy, battles, wins,
           wins / battles AS win_rate,
           wilson_low(wins, battles) AS win_low,
           wilson_high(wins, battles) AS win_high,
           mean_gpa,
           mean_gpa - 1.96 * sd_gpa / sqrt(battles) AS gpa_low,
           mean_gpa + 1.96 * sd_gpa / sqrt(battles) AS gpa_high,
           city / battles AS city_rate,
           destroyed / battles AS destroyed_rate,
           mean_rounds
    FROM m
    ORDER BY run, deck, kaiju, policy
    """
    return fetch(con, sql)


def deck_totals(con: duckdb.DuckDBPyConnection, view: str = "battles") -> pl.DataFrame:
    """Per run, deck and policy, every kaiju pooled (each kaiju has the same number of
    battles): battles, wins, win rate with its Wilson interval, mean and standard
    deviation of GPA."""
    sql = f"""
    SELECT run, deck, policy,
           count(*) AS battles,
           count(*) FILTER (WHERE result = 'win') AS wins,
           count(*) FILTER (WHERE result = 'win') / count(*) AS win_rate,
           wilson_low(count(*) FILTER (WHERE result = 'win'), count(*)) AS win_low,
           wilson_high(count(*) FILTER (WHERE result = 'win'), count(*)) AS win_high,
           avg(gpa) AS mean_gpa,
           coalesce(stddev_samp(gpa), 0) AS sd_gpa
    FROM {ident(view)}
    GROUP BY run, deck, policy
    ORDER BY run, deck, policy
    """
    return fetch(con, sql)


def win_by(con: duckdb.DuckDBPyConnection, factor: str, view: str = "battles") -> pl.DataFrame:
    """Per run, deck, policy and value of ``factor`` (one of FACTORS; every kaiju
    pooled): battles, wins and the win rate with its Wilson interval. The value is text
    (``true``/``false`` for lesson_took) so the factors stack in one frame."""
    if factor not in FACTORS:
        raise ValueError(f"factor must be one of {FACTORS}, got {factor!r}")
    sql = f"""
    SELECT run, deck, policy, {factor!r} AS factor,
           CAST({ident(factor)} AS VARCHAR) AS value,
           count(*) AS battles,
           count(*) FILTER (WHERE result = 'win') AS wins,
           count(*) FILTER (WHERE result = 'win') / count(*) AS win_rate,
           wilson_low(count(*) FILTER (WHERE result = 'win'), count(*)) AS win_low,
           wilson_high(count(*) FILTER (WHERE result = 'win'), count(*)) AS win_high
    FROM {ident(view)}
    GROUP BY run, deck, policy, {ident(factor)}
    ORDER BY run, deck, policy, {ident(factor)}
    """
    return fetch(con, sql)


def crits(con: duckdb.DuckDBPyConnection, view: str = "battles") -> pl.DataFrame:
    """Per run, deck, kaiju and policy: mean crits per battle (normal 95% interval), the
    share of battles with at least one crit (Wilson), mean parts lost and rebuilds, and
    the win rate of battles with and without a crit."""
    sql = f"""
    WITH m AS (
        SELECT run, deck, kaiju, policy,
               count(*) AS battles,
               avg(crits) AS mean_crits,
               coalesce(stddev_samp(crits), 0) AS sd_crits,
               count(*) FILTER (WHERE crits > 0) AS with_crit,
               count(*) FILTER (WHERE crits > 0 AND result = 'win') AS wins_with_crit,
               count(*) FILTER (WHERE crits = 0 AND result = 'win') AS wins_without,
               avg(parts_lost) AS mean_parts_lost,
               avg(rebuilds) AS mean_rebuilds,
               avg(punches) AS mean_punches
        FROM {ident(view)}
        GROUP BY run, deck, kaiju, policy
    )
    SELECT run, deck, kaiju, policy, battles,
           mean_crits,
           mean_crits - 1.96 * sd_crits / sqrt(battles) AS crits_low,
           mean_crits + 1.96 * sd_crits / sqrt(battles) AS crits_high,
           with_crit / battles AS crit_share,
           wilson_low(with_crit, battles) AS crit_share_low,
           wilson_high(with_crit, battles) AS crit_share_high,
           wins_with_crit / nullif(with_crit, 0) AS win_rate_with_crit,
           wins_without / nullif(battles - with_crit, 0) AS win_rate_without_crit,
           mean_parts_lost, mean_rebuilds, mean_punches
    FROM m
    ORDER BY run, deck, kaiju, policy
    """
    return fetch(con, sql)
