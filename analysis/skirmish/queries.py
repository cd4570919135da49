"""Mecha Skirmish queries over the store: win rates of kit duels and team fights,
destroyed-by-round curves, crit share per weapon and margin (003 F5), time to kill.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; the matchup of a Skirmish row is its two sides and their policies.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis import queries
from analysis.query import fetch, ident

MATCHUP = ("side_a", "side_b", "policy_a", "policy_b")
MOUNTS = 3  # weapon mounts per mech: right arm, left arm, back


def matchup_keys(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    """Run, the two sides and their policies, and the view's parameter columns."""
    return queries.matchup_keys(con, view, MATCHUP)


def win_rates(con: duckdb.DuckDBPyConnection, view: str = "duel") -> pl.DataFrame:
    """:func:`analysis.queries.win_rates` per run, kit (or team) pair, policy pair and
    parameter values."""
    return queries.win_rates(con, view, MATCHUP)


def destroyed_by_round(con: duckdb.DuckDBPyConnection, view: str = "duel") -> pl.DataFrame:
    """Per run, matchup and round 1..(the run's last round played): the share of battles in
    which side A (side B) had been wiped out by that round.

    A side is wiped in a battle decided by wipe (``decided = 'wipe'``) that the other side won;
    it happened in round ``rounds``.
    """
    keys = matchup_keys(con, view)
    cols = ", ".join(ident(k) for k in keys)
    p_cols = ", ".join(f"p.{ident(k)}" for k in keys)
    sql = f"""
    WITH per_round AS (
        SELECT {cols}, rounds,
               count(*) AS battles,
               count(*) FILTER (WHERE decided = 'wipe' AND winner = 'b') AS a_wiped,
               count(*) FILTER (WHERE decided = 'wipe' AND winner = 'a') AS b_wiped
        FROM {ident(view)}
        GROUP BY {cols}, rounds
    ),
    last_round AS (
        SELECT run, max(rounds) AS last_round FROM per_round GROUP BY run
    ),
    cumulative AS (
        SELECT {p_cols}, s.round,
               sum(p.battles)::BIGINT AS battles,
               coalesce(sum(p.a_wiped) FILTER (WHERE p.rounds <= s.round), 0)::BIGINT
                   AS wiped_a,
               coalesce(sum(p.b_wiped) FILTER (WHERE p.rounds <= s.round), 0)::BIGINT
                   AS wiped_b
        FROM per_round AS p
        JOIN last_round AS l ON l.run = p.run
        CROSS JOIN generate_series(1, l.last_round) AS s(round)
        GROUP BY {p_cols}, s.round
    )
    SELECT {cols}, round, battles, wiped_a, wiped_b,
           wiped_a / battles AS share_wiped_a,
           wiped_b / battles AS share_wiped_b
    FROM cumulative
    ORDER BY {cols}, round
    """
    return fetch(con, sql)


def crit_share(con: duckdb.DuckDBPyConnection, view: str = "crit_margin") -> pl.DataFrame:
    """Per run, weapon and crit margin: hits, crits, crit share (crits / hits) with a 95%
    Wilson interval, pooling every mount of both sides (filter on ``run`` for one run).

    The margin is the view's ``crit_margin`` column (swept, else the run's ``--set``
    value); NULL where there is none (the catalog's default margin).
    """
    has_margin = "crit_margin" in fetch(con, f"SELECT * FROM {ident(view)} LIMIT 0").columns
    margin = "crit_margin" if has_margin else "NULL::BIGINT"

    def mounts(kind: str) -> str:
        return ", ".join(f"{kind}_{side}_{k}" for side in "ab" for k in range(MOUNTS))

    sql = f"""
    WITH mounts AS (
        SELECT run, {margin} AS crit_margin,
               unnest([{mounts("weapon")}]) AS weapon,
               unnest([{mounts("hits")}]) AS hits,
               unnest([{mounts("crits")}]) AS crits
        FROM {ident(view)}
    ),
    pooled AS (
        SELECT run, weapon, crit_margin, sum(hits)::BIGINT AS hits,
               sum(crits)::BIGINT AS crits
        FROM mounts
        WHERE weapon IS NOT NULL
        GROUP BY run, weapon, crit_margin
    )
    SELECT run, weapon, crit_margin, hits, crits,
           crits / nullif(hits, 0) AS crit_share,
           wilson_low(crits, hits) AS crit_low,
           wilson_high(crits, hits) AS crit_high
    FROM pooled
    ORDER BY run, weapon, crit_margin
    """
    return fetch(con, sql)


def time_to_kill(con: duckdb.DuckDBPyConnection, view: str = "crit_margin") -> pl.DataFrame:
    """Per kit (side A) and crit margin: battles, wipes (battles side A won by destroying
    side B: ``decided = 'wipe'`` and ``winner = 'a'``), their share, and the mean rounds
    those wipes took (NULL where there was none), per run, pooling every opponent and policy.

    The margin is found as in :func:`crit_share`: the view's ``crit_margin`` column (swept,
    else the run's ``--set`` value), NULL where there is none.
    """
    has_margin = "crit_margin" in fetch(con, f"SELECT * FROM {ident(view)} LIMIT 0").columns
    margin = "crit_margin" if has_margin else "NULL::BIGINT"
    sql = f"""
    WITH per_kit AS (
        SELECT run, side_a, {margin} AS crit_margin,
               count(*) AS battles,
               count(*) FILTER (WHERE decided = 'wipe' AND winner = 'a') AS wipes,
               avg(rounds) FILTER (WHERE decided = 'wipe' AND winner = 'a') AS mean_rounds_to_kill
        FROM {ident(view)}
        GROUP BY ALL
    )
    SELECT run, side_a, crit_margin, battles, wipes,
           wipes / battles AS share_wiped,
           mean_rounds_to_kill
    FROM per_kit
    ORDER BY run, side_a, crit_margin
    """
    return fetch(con, sql)
