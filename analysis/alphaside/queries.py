"""ALPHASIDE queries over the store: the ``duel`` round robin (one unit a side over a whole
game) and the ``squads`` round robin, read per ordered cell, per matchup (pooled from each
side's seat), per unit or squad, per weapon slot and per time of the first defeat.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; only the view name (``duel``, or ``alphaside_duel`` when another
game has a ``duel`` experiment: :func:`view_of`) and the side columns (``unit_a``/``unit_b``
of ``duel``, ``squad_a``/``squad_b`` of ``squads``: ``key``) are filled in. ``winner`` is
the labelled outcome (``winner = 'a'`` or ``'b'``: equal VP goes to the side that acted
last, so there are no draws). A score is wins / games, with its 95% Wilson interval.

The round robin's cells, matchups and standings are :mod:`analysis.round_robin`'s, read
with the side columns (``key``); a matchup counts a mirror once, from side a, and a
standing leaves the mirrors out (a mirror's score is 1/2 by construction).

Damage per Timeline space (TL) is a ratio estimator: the damage summed over the games
divided by the TL spent on attacks summed over the same games (games without an attack
add nothing to either). Its 95% interval is the ratio plus or minus 1.96 standard errors
by the delta method, the games being the independent draws: se = sqrt(sum over games of
(d - R t)^2 x n / (n - 1)) / sum t, with d a game's damage, t its TL, R the ratio and n the
games (NULL with fewer than two games or no TL).
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis import round_robin
from analysis.query import fetch, ident
from analysis.round_robin import RoundRobin

GAME = "alphaside"
DUEL = "duel"
SQUADS = "squads"
KEYS = ("unit", "squad")  # the side columns: unit_a/_b (duel), squad_a/_b (squads)
SLOTS = (0, 1)  # weapon slots a unit carries (battle.WEAPONS)


def view_of(con: duckdb.DuckDBPyConnection, experiment: str = DUEL) -> str:
    """The one-run view of an ALPHASIDE experiment on this connection."""
    rows = con.execute(
        "SELECT view FROM shown WHERE game = ? AND experiment = ?", [GAME, experiment]
    ).fetchall()
    return str(rows[0][0]) if rows else experiment.replace("-", "_")


def _key(key: str) -> str:
    if key not in KEYS:
        raise ValueError(f"key must be one of {', '.join(KEYS)}, got {key!r}")
    return key


def _round_robin(key: str) -> RoundRobin:
    """The round robin of ``duel`` (``unit``) or ``squads`` (``squad``): one row a whole
    game, no draws (equal VP goes to the side that acted last)."""
    return RoundRobin(_key(key), count="games", draws=False)


def _ratio(prefix: str = "") -> str:
    """SQL of the ratio s_d / s_t (``damage_per_tl``) and its delta-method standard error
    and 95% interval (``<prefix>se``, ``<prefix>low``, ``<prefix>high``), from the sums
    ``s_d``, ``s_t``, ``s_dd``, ``s_dt``, ``s_tt`` and the ``games`` of a CTE."""
    r = "(s_d / nullif(s_t, 0))"
    resid = f"(s_dd - 2 * {r} * s_dt + {r} * {r} * s_tt)"
    se = f"(sqrt(greatest({resid}, 0) * games / nullif(games - 1, 0)) / nullif(s_t, 0))"
    return (
        f"{r} AS damage_per_tl, {se} AS {prefix}se, {r} - 1.96 * {se} AS {prefix}low, "
        f"{r} + 1.96 * {se} AS {prefix}high"
    )


def cells(con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit") -> pl.DataFrame:
    """Per run and ordered cell (``<key>_a`` as side a against ``<key>_b``, mirrors
    included): :func:`analysis.round_robin.cells` (games, side a's wins and losses, its
    score with the 95% Wilson interval), each side's mean VP, and each side's damage, TL
    spent on attacks, attacks, hits and crits summed."""
    extra = {"mean_vp_a": "avg(vp_a)", "mean_vp_b": "avg(vp_b)"}
    for stem in ("damage", "tl_attack", "attacks", "hits", "crits"):
        for column in (f"{stem}_a", f"{stem}_b"):
            extra[column] = f"CAST(sum({column}) AS BIGINT)"
    return round_robin.cells(con, view, _round_robin(key), extra=extra)


SIDE_COLUMNS = (
    "vp_{me} AS vp, vp_{foe} AS vp_against, defeats_{foe} AS defeats, "
    "defeats_{me} AS defeated, damage_{me} AS damage, damage_{foe} AS damage_taken, "
    "tl_attack_{me} AS tl, attacks_{me} AS attacks, hits_{me} AS hits, crits_{me} AS crits, "
    "activations_{me} AS activations, first_defeat_{me} AS first_defeat"
)


def matchups(con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit") -> pl.DataFrame:
    """Per run, ``<key>`` and opponent: :func:`analysis.round_robin.matchups` (the games of
    both cells of the matchup pooled, each counted once from the ``<key>``'s seat, a
    mirror once from side a: games, wins, losses, the score with its 95% Wilson interval,
    a mirror's exactly 1/2); mean VP scored and conceded, each with its 95% interval (mean
    +/- 1.96 standard errors), the mean VP margin likewise; enemy units defeated and own
    units lost per game; and the damage dealt, TL spent on attacks, attacks, hits and
    crits summed, with the hits per attack and the share of hits that are crits."""
    aggregates = {
        "vp": "avg(vp)",
        "sd_vp": "stddev_samp(vp)",
        "vp_against": "avg(vp_against)",
        "sd_against": "stddev_samp(vp_against)",
        "margin": "avg(vp - vp_against)",
        "sd_margin": "stddev_samp(vp - vp_against)",
        "defeats": "avg(defeats)",
        "defeated": "avg(defeated)",
        **{c: f"CAST(sum({c}) AS BIGINT)" for c in ("damage", "damage_taken", "tl")},
        **{c: f"CAST(sum({c}) AS BIGINT)" for c in ("attacks", "hits", "crits")},
        "activations": "avg(activations)",
    }
    outputs = (
        "vp, vp - 1.96 * sd_vp / sqrt(games) AS vp_low",
        "vp + 1.96 * sd_vp / sqrt(games) AS vp_high",
        "vp_against, vp_against - 1.96 * sd_against / sqrt(games) AS vp_against_low",
        "vp_against + 1.96 * sd_against / sqrt(games) AS vp_against_high",
        "margin, margin - 1.96 * sd_margin / sqrt(games) AS margin_low",
        "margin + 1.96 * sd_margin / sqrt(games) AS margin_high",
        "defeats, defeated, damage, damage_taken, tl, attacks, hits, crits, activations",
        "hits / nullif(attacks, 0) AS hits_per_attack",
        "crits / nullif(hits, 0) AS crit_share",
    )
    return round_robin.matchups(con, view, _round_robin(key), SIDE_COLUMNS, aggregates, outputs)


def standings(
    con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit", only: str | None = None
) -> pl.DataFrame:
    """Per run and ``<key>`` over the whole round robin, mirrors left out:
    :func:`analysis.round_robin.standings` (games from its seat, wins, losses, the score
    with its 95% Wilson interval), its mean VP and VP conceded, and its damage per TL
    spent on attacks over every game (the ratio estimator with its delta-method 95%
    interval, the module docstring). ``only`` (``"a"``/``"b"``): from that seat's games
    alone (the verdicts' seat variants)."""
    seat = (
        "vp_{me} AS vp, vp_{foe} AS vp_against, damage_{me} AS d, tl_attack_{me} AS t, "
        "hits_{me} AS hits, attacks_{me} AS attacks"
    )
    aggregates = {
        "vp": "avg(vp)",
        "vp_against": "avg(vp_against)",
        "s_d": "CAST(sum(d) AS DOUBLE)",
        "s_t": "CAST(sum(t) AS DOUBLE)",
        "s_dd": "sum(CAST(d AS DOUBLE) * d)",
        "s_dt": "sum(CAST(d AS DOUBLE) * t)",
        "s_tt": "sum(CAST(t AS DOUBLE) * t)",
        "hits": "CAST(sum(hits) AS BIGINT)",
        "attacks": "CAST(sum(attacks) AS BIGINT)",
    }
    outputs = (
        "vp, vp_against",
        "CAST(s_d AS BIGINT) AS damage, CAST(s_t AS BIGINT) AS tl",
        _ratio("dpt_"),
        "attacks, hits, hits / nullif(attacks, 0) AS hits_per_attack",
    )
    return round_robin.standings(con, view, _round_robin(key), seat, aggregates, outputs, only=only)


def side_a(con: duckdb.DuckDBPyConnection, view: str = DUEL) -> pl.DataFrame:
    """Per run: side a's score over every game, with its 95% Wilson interval, and the
    share of games that end level on VP (won by the side that acted last). Every ordered
    pair is played both ways, so this is the first-listed side's edge alone (side a acts
    first at each tied time when nobody has acted yet): 1/2 when the seats are even."""
    sql = f"""
    WITH m AS (
        SELECT run,
               count(*) AS games,
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               count(*) FILTER (WHERE winner = 'b') AS wins_b,
               count(*) FILTER (WHERE vp_a = vp_b) AS level,
               avg(vp_a) AS vp_a, avg(vp_b) AS vp_b
        FROM {ident(view)}
        GROUP BY run
    )
    SELECT run, games, wins_a, wins_b,
           wins_a / games AS score_a,
           wilson_low(wins_a, games) AS low,
           wilson_high(wins_a, games) AS high,
           level / games AS level_share, vp_a, vp_b
    FROM m
    ORDER BY run
    """
    return fetch(con, sql)


def damage_per_tl(
    con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit"
) -> pl.DataFrame:
    """Per run, ``<key>`` and opponent (both cells pooled, a mirror from side a): games,
    the damage dealt and the TL spent on attacks summed, the damage per TL (the ratio
    estimator, module docstring) with its standard error and 95% interval, and the
    share of games in which it attacked."""
    k = _key(key)
    sql = f"""
    WITH sides AS ({round_robin.seats(view, _round_robin(k), "damage_{me} AS d, tl_attack_{me} AS t")}
    ),
    m AS (
        SELECT run, {ident(k)}, opponent,
               count(*) AS games,
               count(*) FILTER (WHERE t > 0) AS attacked,
               CAST(sum(d) AS DOUBLE) AS s_d, CAST(sum(t) AS DOUBLE) AS s_t,
               sum(CAST(d AS DOUBLE) * d) AS s_dd, sum(CAST(d AS DOUBLE) * t) AS s_dt,
               sum(CAST(t AS DOUBLE) * t) AS s_tt
        FROM sides
        GROUP BY run, {ident(k)}, opponent
    )
    SELECT run, {ident(k)}, opponent, {ident(k)} = opponent AS mirror, games,
           CAST(s_d AS BIGINT) AS damage, CAST(s_t AS BIGINT) AS tl,
           {_ratio()},
           attacked / games AS attacked_share
    FROM m
    ORDER BY run, {ident(k)}, opponent
    """
    return fetch(con, sql)


def weapons(
    con: duckdb.DuckDBPyConnection, view: str = DUEL, per_opponent: bool = True
) -> pl.DataFrame:
    """Per run, unit, opponent (``per_opponent``; else over every opponent, the mirror
    from side a) and weapon slot (0, 1) of the ``duel`` round robin (both cells pooled, a
    mirror from side a): games, the share of them in which the slot attacked, the damage
    dealt with that slot's attacks and the TL spent on them summed, and the damage per TL
    (the ratio estimator, module docstring) with its standard error and 95% interval.
    One unit a side, so a slot is one weapon (the unit's ``weapons[slot]`` in
    units.toml)."""
    slots = " UNION ALL ".join(
        f"SELECT run, unit, opponent, {k} AS slot, d{k} AS d, t{k} AS t FROM sides" for k in SLOTS
    )
    seat = ", ".join(f"damage_w{k}_{{me}} AS d{k}, tl_w{k}_{{me}} AS t{k}" for k in SLOTS)
    keys = "run, unit, opponent, slot" if per_opponent else "run, unit, slot"
    mirror = ", unit = opponent AS mirror" if per_opponent else ""
    sql = f"""
    WITH sides AS ({round_robin.seats(view, _round_robin("unit"), seat)}
    ),
    slots AS ({slots}),
    m AS (
        SELECT {keys},
               count(*) AS games,
               count(*) FILTER (WHERE t > 0) AS used,
               CAST(sum(d) AS DOUBLE) AS s_d, CAST(sum(t) AS DOUBLE) AS s_t,
               sum(CAST(d AS DOUBLE) * d) AS s_dd, sum(CAST(d AS DOUBLE) * t) AS s_dt,
               sum(CAST(t AS DOUBLE) * t) AS s_tt
        FROM slots
        GROUP BY {keys}
    )
    SELECT {keys.replace("slot", "CAST(slot AS INTEGER) AS slot")}{mirror},
           games, used / games AS used_share,
           CAST(s_d AS BIGINT) AS damage, CAST(s_t AS BIGINT) AS tl,
           {_ratio()}
    FROM m
    ORDER BY {keys}
    """
    return fetch(con, sql)


def defeat_times(
    con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit"
) -> pl.DataFrame:
    """Per run, ``<key>``, opponent (both cells pooled, a mirror from side a) and time:
    the games whose first defeat of an enemy unit by the ``<key>``'s side came at that
    Timeline time (1..20: space + 10 x (Phase - 1)); time 0: games with none."""
    k = _key(key)
    sql = f"""
    WITH sides AS ({round_robin.seats(view, _round_robin(k), "first_defeat_{me} AS first_defeat")}
    )
    SELECT run, {ident(k)}, opponent, CAST(first_defeat AS INTEGER) AS time,
           count(*) AS games
    FROM sides
    GROUP BY run, {ident(k)}, opponent, first_defeat
    ORDER BY run, {ident(k)}, opponent, time
    """
    return fetch(con, sql)
