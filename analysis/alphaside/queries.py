"""ALPHASIDE queries over the store: the ``duel`` round robin (one unit a side over a whole
game) and the ``squads`` round robin, read per ordered cell, per matchup (pooled from each
side's seat), per unit or squad, per weapon slot and per time of the first defeat.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; only the view name (``duel``, or ``alphaside_duel`` when another
game has a ``duel`` experiment: :func:`view_of`) and the side columns (``unit_a``/``unit_b``
of ``duel``, ``squad_a``/``squad_b`` of ``squads``: ``key``) are filled in. ``winner`` is
the labelled outcome (``winner = 'a'`` or ``'b'``: equal VP goes to the side that acted
last, so there are no draws). A score is wins / games, with its 95% Wilson interval.

Every ordered pair is a cell, mirrors included, so a matchup X-Y of two different units is
played in two cells (X as side a, and X as side b); its rows pool both, each game counted
once, from X's seat. In a mirror both sides are the unit: its score is 1/2 by
construction, and every other number of it is side a's.

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

from analysis.query import fetch, ident

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
    included): games, side a's wins and losses, its score with the 95% Wilson interval,
    each side's mean VP, and each side's damage, TL spent on attacks, attacks, hits and
    crits summed."""
    k = _key(key)
    a, b = ident(f"{k}_a"), ident(f"{k}_b")
    sql = f"""
    WITH m AS (
        SELECT run, {a}, {b},
               count(*) AS games,
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               count(*) FILTER (WHERE winner = 'b') AS losses_a,
               avg(vp_a) AS mean_vp_a, avg(vp_b) AS mean_vp_b,
               CAST(sum(damage_a) AS BIGINT) AS damage_a,
               CAST(sum(damage_b) AS BIGINT) AS damage_b,
               CAST(sum(tl_attack_a) AS BIGINT) AS tl_attack_a,
               CAST(sum(tl_attack_b) AS BIGINT) AS tl_attack_b,
               CAST(sum(attacks_a) AS BIGINT) AS attacks_a,
               CAST(sum(attacks_b) AS BIGINT) AS attacks_b,
               CAST(sum(hits_a) AS BIGINT) AS hits_a, CAST(sum(hits_b) AS BIGINT) AS hits_b,
               CAST(sum(crits_a) AS BIGINT) AS crits_a, CAST(sum(crits_b) AS BIGINT) AS crits_b
        FROM {ident(view)}
        GROUP BY run, {a}, {b}
    )
    SELECT run, {a}, {b}, games, wins_a, losses_a,
           wins_a / games AS score_a,
           wilson_low(wins_a, games) AS score_low,
           wilson_high(wins_a, games) AS score_high,
           mean_vp_a, mean_vp_b, damage_a, damage_b, tl_attack_a, tl_attack_b,
           attacks_a, attacks_b, hits_a, hits_b, crits_a, crits_b
    FROM m
    ORDER BY run, {a}, {b}
    """
    return fetch(con, sql)


def _sides(view: str, k: str, columns: str) -> str:
    """Each game once from each seat (a mirror once, from side a): ``columns`` written
    with ``{me}`` and ``{foe}`` for the seat's own side letter and the other's."""
    a, b = ident(f"{k}_a"), ident(f"{k}_b")
    seat_a = columns.format(me="a", foe="b")
    seat_b = columns.format(me="b", foe="a")
    return f"""
        SELECT run, {a} AS {ident(k)}, {b} AS opponent, winner = 'a' AS won, {seat_a}
        FROM {ident(view)}
        UNION ALL
        SELECT run, {b} AS {ident(k)}, {a} AS opponent, winner = 'b' AS won, {seat_b}
        FROM {ident(view)}
        WHERE {a} <> {b}"""


SIDE_COLUMNS = (
    "vp_{me} AS vp, vp_{foe} AS vp_against, defeats_{foe} AS defeats, "
    "defeats_{me} AS defeated, damage_{me} AS damage, damage_{foe} AS damage_taken, "
    "tl_attack_{me} AS tl, attacks_{me} AS attacks, hits_{me} AS hits, crits_{me} AS crits, "
    "activations_{me} AS activations, first_defeat_{me} AS first_defeat"
)


def matchups(con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit") -> pl.DataFrame:
    """Per run, ``<key>`` and opponent: the games of both cells of the matchup pooled,
    each counted once from the ``<key>``'s seat (a mirror once, from side a): games,
    wins, losses, the score with its 95% Wilson interval (a mirror's is exactly 1/2, its
    interval [1/2, 1/2]); mean VP scored and conceded, each with its 95% interval (mean
    +/- 1.96 standard errors), the mean VP margin likewise; enemy units defeated and own
    units lost per game; and the damage dealt, TL spent on attacks, attacks, hits and
    crits summed, with the hits per attack and the share of hits that are crits."""
    k = _key(key)
    sql = f"""
    WITH sides AS ({_sides(view, k, SIDE_COLUMNS)}
    ),
    m AS (
        SELECT run, {ident(k)}, opponent,
               count(*) AS games,
               count(*) FILTER (WHERE won) AS wins,
               count(*) FILTER (WHERE NOT won) AS losses,
               avg(vp) AS vp, stddev_samp(vp) AS sd_vp,
               avg(vp_against) AS vp_against, stddev_samp(vp_against) AS sd_against,
               avg(vp - vp_against) AS margin, stddev_samp(vp - vp_against) AS sd_margin,
               avg(defeats) AS defeats, avg(defeated) AS defeated,
               CAST(sum(damage) AS BIGINT) AS damage,
               CAST(sum(damage_taken) AS BIGINT) AS damage_taken,
               CAST(sum(tl) AS BIGINT) AS tl, CAST(sum(attacks) AS BIGINT) AS attacks,
               CAST(sum(hits) AS BIGINT) AS hits, CAST(sum(crits) AS BIGINT) AS crits,
               avg(activations) AS activations
        FROM sides
        GROUP BY run, {ident(k)}, opponent
    )
    SELECT run, {ident(k)}, opponent, {ident(k)} = opponent AS mirror,
           games, wins, losses,
           CASE WHEN {ident(k)} = opponent THEN 0.5 ELSE wins / games END AS score,
           CASE WHEN {ident(k)} = opponent THEN 0.5 ELSE wilson_low(wins, games) END AS low,
           CASE WHEN {ident(k)} = opponent THEN 0.5 ELSE wilson_high(wins, games) END AS high,
           vp, vp - 1.96 * sd_vp / sqrt(games) AS vp_low,
           vp + 1.96 * sd_vp / sqrt(games) AS vp_high,
           vp_against, vp_against - 1.96 * sd_against / sqrt(games) AS vp_against_low,
           vp_against + 1.96 * sd_against / sqrt(games) AS vp_against_high,
           margin, margin - 1.96 * sd_margin / sqrt(games) AS margin_low,
           margin + 1.96 * sd_margin / sqrt(games) AS margin_high,
           defeats, defeated, damage, damage_taken, tl, attacks, hits, crits, activations,
           hits / nullif(attacks, 0) AS hits_per_attack,
           crits / nullif(hits, 0) AS crit_share
    FROM m
    ORDER BY run, {ident(k)}, opponent
    """
    return fetch(con, sql)


def standings(con: duckdb.DuckDBPyConnection, view: str = DUEL, key: str = "unit") -> pl.DataFrame:
    """Per run and ``<key>`` over the whole round robin (every opponent, mirrors included:
    a mirror game counts once from each seat, so exactly half a point each time): games
    (from its seat), wins, losses, the score with its 95% Wilson interval, its mean VP
    and VP conceded, and its damage per TL spent on attacks over every game (the ratio
    estimator with its delta-method 95% interval, the module docstring)."""
    k = _key(key)
    a, b = ident(f"{k}_a"), ident(f"{k}_b")
    sql = f"""
    WITH sides AS (
        SELECT run, {a} AS {ident(k)}, winner = 'a' AS won, vp_a AS vp, vp_b AS vp_against,
               damage_a AS d, tl_attack_a AS t, hits_a AS hits, attacks_a AS attacks
        FROM {ident(view)}
        UNION ALL
        SELECT run, {b} AS {ident(k)}, winner = 'b' AS won, vp_b AS vp, vp_a AS vp_against,
               damage_b AS d, tl_attack_b AS t, hits_b AS hits, attacks_b AS attacks
        FROM {ident(view)}
    ),
    m AS (
        SELECT run, {ident(k)},
               count(*) AS games,
               count(*) FILTER (WHERE won) AS wins,
               count(*) FILTER (WHERE NOT won) AS losses,
               avg(vp) AS vp, avg(vp_against) AS vp_against,
               CAST(sum(d) AS DOUBLE) AS s_d, CAST(sum(t) AS DOUBLE) AS s_t,
               sum(CAST(d AS DOUBLE) * d) AS s_dd, sum(CAST(d AS DOUBLE) * t) AS s_dt,
               sum(CAST(t AS DOUBLE) * t) AS s_tt,
               CAST(sum(hits) AS BIGINT) AS hits, CAST(sum(attacks) AS BIGINT) AS attacks
        FROM sides
        GROUP BY run, {ident(k)}
    )
    SELECT run, {ident(k)}, games, wins, losses,
           wins / games AS score,
           wilson_low(wins, games) AS low,
           wilson_high(wins, games) AS high,
           vp, vp_against,
           CAST(s_d AS BIGINT) AS damage, CAST(s_t AS BIGINT) AS tl,
           {_ratio("dpt_")},
           attacks, hits, hits / nullif(attacks, 0) AS hits_per_attack
    FROM m
    ORDER BY run, {ident(k)}
    """
    return fetch(con, sql)


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
    WITH sides AS ({_sides(view, k, "damage_{me} AS d, tl_attack_{me} AS t")}
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
    WITH sides AS ({_sides(view, "unit", seat)}
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
    WITH sides AS ({_sides(view, k, "first_defeat_{me} AS first_defeat")}
    )
    SELECT run, {ident(k)}, opponent, CAST(first_defeat AS INTEGER) AS time,
           count(*) AS games
    FROM sides
    GROUP BY run, {ident(k)}, opponent, first_defeat
    ORDER BY run, {ident(k)}, opponent, time
    """
    return fetch(con, sql)
