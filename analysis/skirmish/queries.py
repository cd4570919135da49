"""Mecha Skirmish queries over the store: win rates of kit duels and team fights,
destroyed-by-round curves, crit share per weapon and margin (003 F5), time to kill, and
the board (003 H, I4): win rates and how battles are decided by map, zone control by
round, where mechs end, and how kit scores move between a map and the track.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``; the matchup of a Skirmish row is its two sides and their policies.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb
import polars as pl

from analysis import queries, round_robin
from analysis.query import fetch, ident
from analysis.round_robin import RoundRobin

MATCHUP = ("side_a", "side_b", "policy_a", "policy_b")
SIDES = RoundRobin("side")  # side_a against side_b, one row a battle, draws possible
MOUNTS = 3  # weapon mounts per mech: right arm, left arm, back
TRACK = "track"  # the rules' one-dimensional range track (no zones, no hexes)
# How a battle is decided (decided_by_map), in reading order.
HOW = ("wipe", "zones", "kills", "hull", "draw")


def matchup_keys(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    """Run, the two sides and their policies, and the view's parameter columns."""
    return queries.matchup_keys(con, view, MATCHUP)


def win_rates(con: duckdb.DuckDBPyConnection, view: str = "skirmish_duel") -> pl.DataFrame:
    """:func:`analysis.queries.win_rates` per run, kit (or team) pair, policy pair and
    parameter values."""
    return queries.win_rates(con, view, MATCHUP)


def standings(con: duckdb.DuckDBPyConnection, view: str = "skirmish_duel") -> pl.DataFrame:
    """Per run and kit (or team), ``side``: its standing over both seats against every
    other side, mirrors left out (:func:`analysis.round_robin.standings`: battles, wins,
    draws, losses, the score with draws counting half and its 95% Wilson interval), every
    policy pair pooled."""
    return round_robin.standings(con, view, SIDES)


def destroyed_by_round(con: duckdb.DuckDBPyConnection, view: str = "skirmish_duel") -> pl.DataFrame:
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


def crit_share(con: duckdb.DuckDBPyConnection, view: str = "skirmish_crit_margin") -> pl.DataFrame:
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


def time_to_kill(
    con: duckdb.DuckDBPyConnection, view: str = "skirmish_crit_margin"
) -> pl.DataFrame:
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


# ---- the board (003 H, I4) ---------------------------------------------------------------


def _text(value: str) -> str:
    """``value`` as a SQL string literal."""
    return "'" + value.replace("'", "''") + "'"


def _columns(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    return fetch(con, f"SELECT * FROM {ident(view)} LIMIT 0").columns


def _board(columns: Sequence[str], default: str) -> str:
    """A row's board as SQL: its ``board`` column (swept, or the run's ``--set board``),
    else ``default`` (the catalog's board) where its run set none."""
    return f"coalesce(board, {_text(default)})" if "board" in columns else _text(default)


def _runs_filter(runs: Sequence[str] | None) -> str:
    """A WHERE condition keeping the rows of ``runs`` (every row when None)."""
    if runs is None:
        return "true"
    return f"run IN ({', '.join(_text(r) for r in runs)})" if runs else "false"


def win_rates_by_map(
    con: duckdb.DuckDBPyConnection,
    view: str = "skirmish_teamfight",
    *,
    default_board: str = "broken",
    runs: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Per run, board and matchup (sides and policies): battles, side A's wins, draws and
    losses, its score (wins + draws / 2, over battles) with a 95% Wilson interval
    (``score_low``, ``score_high``).

    The board is the row's ``board`` (a swept value or the run's ``--set board``), else
    ``default_board`` (the catalog's ``board``, for runs that set none). ``runs`` keeps
    only those runs (all by default), e.g. over ``duel_all`` holding a map and a track run.
    """
    board = _board(_columns(con, view), default_board)
    sql = f"""
    WITH m AS (
        SELECT run, {board} AS board, side_a, side_b, policy_a, policy_b,
               count(*) AS battles,
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               count(*) FILTER (WHERE winner = 'draw') AS draws,
               count(*) FILTER (WHERE winner = 'b') AS losses_a
        FROM {ident(view)}
        WHERE {_runs_filter(runs)}
        GROUP BY ALL
    )
    SELECT run, board, side_a, side_b, policy_a, policy_b, battles, wins_a, draws, losses_a,
           (wins_a + draws / 2) / battles AS score_a,
           wilson_low(wins_a + draws / 2, battles) AS score_low,
           wilson_high(wins_a + draws / 2, battles) AS score_high
    FROM m
    ORDER BY run, board, side_a, side_b, policy_a, policy_b
    """
    return fetch(con, sql)


def _seats(view: str, board: str, runs: Sequence[str] | None) -> str:
    """SQL rows (run, board, side, policy, score): each battle between different sides once
    from each seat, scored 1 for a win, 0.5 for a draw, 0 for a loss."""
    rows = []
    for me in "ab":
        rows.append(f"""
        SELECT run, {board} AS board, side_{me} AS side, policy_{me} AS policy,
               (CASE winner WHEN '{me}' THEN 1 WHEN 'draw' THEN 0.5 ELSE 0 END)::DOUBLE
                   AS score
        FROM {ident(view)}
        WHERE side_a <> side_b AND {_runs_filter(runs)}""")
    return "\n        UNION ALL".join(rows)


def scores_by_map(
    con: duckdb.DuckDBPyConnection,
    view: str = "skirmish_teamfight",
    *,
    default_board: str = "broken",
    runs: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Per run, board, side (a kit, or a team: its kits joined by "+") and its policy: its
    score over both seats against every other side (mirrors, side_a = side_b, left out),
    a win 1, a draw 0.5, a loss 0, with a 95% Wilson interval (``low``, ``high``);
    ``battles`` counts the battles it played, ``points`` its wins + draws / 2.

    The board and ``runs`` as in :func:`win_rates_by_map`.
    """
    board = _board(_columns(con, view), default_board)
    sql = f"""
    WITH seats AS ({_seats(view, board, runs)}
    )
    SELECT run, board, side, policy, count(*) AS battles, sum(score) AS points,
           sum(score) / count(*) AS score,
           wilson_low(sum(score), count(*)) AS low,
           wilson_high(sum(score), count(*)) AS high
    FROM seats
    GROUP BY run, board, side, policy
    ORDER BY run, board, side, policy
    """
    return fetch(con, sql)


def score_moves(
    con: duckdb.DuckDBPyConnection,
    view: str = "skirmish_duel_all",
    *,
    base: str = TRACK,
    default_board: str = "broken",
    runs: Sequence[str] | None = None,
) -> pl.DataFrame:
    """How each side's score (as :func:`scores_by_map`, pooled over the chosen runs) moves
    from the ``base`` board (the track by default) to each other board: per board, side
    and policy, ``score`` with ``low``/``high`` (95% Wilson) and ``battles`` on the board,
    the same as ``base_score``, ``base_low``, ``base_high``, ``base_battles`` on ``base``,
    and ``change`` = score - base_score with a 95% normal interval of the difference of
    two independent shares, change +/- 1.96 * sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2)
    (``change_low``, ``change_high``). Only sides played on both boards.

    Give ``runs`` (a run on the board and one on ``base``, e.g. the duel and its track
    twin over ``duel_all``), so that no older run of the same board is pooled in.
    """
    board = _board(_columns(con, view), default_board)
    sql = f"""
    WITH seats AS ({_seats(view, board, runs)}
    ),
    s AS (
        SELECT board, side, policy, count(*) AS battles, sum(score) AS points,
               sum(score) / count(*) AS score
        FROM seats
        GROUP BY board, side, policy
    )
    SELECT m.board, m.side, m.policy,
           m.score, wilson_low(m.points, m.battles) AS low,
           wilson_high(m.points, m.battles) AS high, m.battles,
           b.score AS base_score, wilson_low(b.points, b.battles) AS base_low,
           wilson_high(b.points, b.battles) AS base_high, b.battles AS base_battles,
           m.score - b.score AS change,
           m.score - b.score - 1.96 * sqrt(m.score * (1 - m.score) / m.battles
                                           + b.score * (1 - b.score) / b.battles)
               AS change_low,
           m.score - b.score + 1.96 * sqrt(m.score * (1 - m.score) / m.battles
                                           + b.score * (1 - b.score) / b.battles)
               AS change_high
    FROM s AS m
    JOIN s AS b ON b.side = m.side AND b.policy = m.policy AND b.board = {_text(base)}
    WHERE m.board <> {_text(base)}
    ORDER BY m.board, change DESC, m.side, m.policy
    """
    return fetch(con, sql)


def decided_by_map(
    con: duckdb.DuckDBPyConnection,
    view: str = "skirmish_teamfight",
    *,
    default_board: str = "broken",
    runs: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Per run and board, how the battles were decided (003 I4), one row per way ``how``
    in the order wipe, zones, kills, hull, draw: ``games`` decided so (``won_a``,
    ``won_b`` of them won by side A, side B), ``battles`` on that board, ``share`` =
    games / battles with a 95% Wilson interval (``low``, ``high``).

    - ``wipe``: one side destroyed every enemy mech (``decided = 'wipe'``, kills);
    - ``zones``: on points (``decided = 'points'``), the winner's zone points alone
      exceed the loser's zone points: zones_winner > zones_loser, where a side's zone
      points are its ``zones_x`` (zone-rounds held: 1 point per zone per round, rules
      ``zone_points = 1``), so the zones would have decided the game with every kill left
      out (also when the winner destroyed more mechs as well);
    - ``kills``: on points otherwise: the winner held no more zone-rounds than the loser,
      so its kill points (3 * ``kills_x``) carried it;
    - ``hull``: points level, the higher Hull fraction won (``decided = 'hull'``, also
      after the sudden-death round);
    - ``draw``: still level (``decided = 'draw'``).

    The board and ``runs`` as in :func:`win_rates_by_map`. On the track no side holds a
    zone, so every points win is a ``kills`` win.
    """
    board = _board(_columns(con, view), default_board)
    kinds = ", ".join(f"({_text(h)}, {i})" for i, h in enumerate(HOW, 1))
    sql = f"""
    WITH games AS (
        SELECT run, {board} AS board, winner,
               CASE
                   WHEN decided = 'wipe' THEN 'wipe'
                   WHEN decided = 'points' AND CASE winner WHEN 'a' THEN zones_a > zones_b
                                                           ELSE zones_b > zones_a END
                       THEN 'zones'
                   WHEN decided = 'points' THEN 'kills'
                   WHEN decided = 'hull' THEN 'hull'
                   ELSE 'draw'
               END AS how
        FROM {ident(view)}
        WHERE {_runs_filter(runs)}
    ),
    kinds(how, rank) AS (VALUES {kinds}),
    totals AS (
        SELECT run, board, count(*) AS battles FROM games GROUP BY run, board
    ),
    counted AS (
        SELECT run, board, how, count(*) AS games,
               count(*) FILTER (WHERE winner = 'a') AS won_a,
               count(*) FILTER (WHERE winner = 'b') AS won_b
        FROM games
        GROUP BY run, board, how
    )
    SELECT t.run, t.board, k.how,
           coalesce(c.games, 0) AS games, coalesce(c.won_a, 0) AS won_a,
           coalesce(c.won_b, 0) AS won_b, t.battles,
           coalesce(c.games, 0) / t.battles AS share,
           wilson_low(coalesce(c.games, 0), t.battles) AS low,
           wilson_high(coalesce(c.games, 0), t.battles) AS high
    FROM totals AS t
    CROSS JOIN kinds AS k
    LEFT JOIN counted AS c ON c.run = t.run AND c.board = t.board AND c.how = k.how
    ORDER BY t.run, t.board, k.rank
    """
    return fetch(con, sql)


def _numbered(columns: Sequence[str], pattern: str) -> list[int]:
    """The numbers n of the columns matching ``pattern`` (one group), ascending."""
    return sorted(int(m[1]) for c in columns if (m := re.fullmatch(pattern, c)))


def zone_control(
    con: duckdb.DuckDBPyConnection,
    view: str = "skirmish_teamfight",
    *,
    default_board: str = "broken",
    runs: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Per run, board, round r and side (``a``, ``b``): the mean zones that side held at
    the end of round r (``zones_a_r<r>``, ``zones_b_r<r>``; 003 H Zones, I4) over the
    battles still running then (``battles``), with a 95% normal interval of the mean,
    mean +/- 1.96 * sd / sqrt(battles) (``low``, ``high``).

    A battle still runs at the end of round r when it played past r (``rounds > r``), or
    played r and was not ended in it by a wipe: a wiped battle scores no zones in its
    last round, and rows hold 0 for rounds never played. The board and ``runs`` as in
    :func:`win_rates_by_map`.
    """
    columns = _columns(con, view)
    board = _board(columns, default_board)
    r = [n for n in _numbered(columns, r"zones_a_r(\d+)") if f"zones_b_r{n}" in columns]
    if not r:
        raise ValueError(f"zone_control: {view} has no zones_<side>_r<r> columns")

    def held(side: str) -> str:
        return ", ".join(f"zones_{side}_r{n}" for n in r)

    sql = f"""
    WITH per AS (
        SELECT run, {board} AS board, rounds, decided,
               unnest([{", ".join(map(str, r))}]) AS round,
               unnest([{held("a")}]) AS held_a,
               unnest([{held("b")}]) AS held_b
        FROM {ident(view)}
        WHERE {_runs_filter(runs)}
    ),
    running AS (
        SELECT * FROM per WHERE rounds > round OR (rounds = round AND decided <> 'wipe')
    ),
    sides AS (
        SELECT run, board, round, 'a' AS side, held_a AS held FROM running
        UNION ALL
        SELECT run, board, round, 'b' AS side, held_b AS held FROM running
    )
    SELECT run, board, round, side, count(*) AS battles, avg(held) AS mean_zones,
           avg(held) - 1.96 * stddev_samp(held) / sqrt(count(*)) AS low,
           avg(held) + 1.96 * stddev_samp(held) / sqrt(count(*)) AS high
    FROM sides
    GROUP BY run, board, round, side
    ORDER BY run, board, round, side
    """
    return fetch(con, sql)


def positions(
    con: duckdb.DuckDBPyConnection,
    view: str = "skirmish_teamfight",
    *,
    lengths: Mapping[str, int],
    default_board: str = "broken",
    runs: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Per run, board, side (``a``, ``b``), state and hex: how many mechs ended there
    (``mechs``): ``state`` is ``standing`` where the mech ended the battle alive
    (``down_<side>_<k>`` false) and ``destroyed`` where it was destroyed (true), from its
    ``hex_<side>_<k>``, the flat index h = row * length + col, so col = h % length and
    row = h // length (odd-r offset rows: odd rows sit half a hex right, 003 H).

    ``lengths`` gives each map's columns (``{id: catalog.maps[id].length}``); boards not
    in it (the track: its positions are not hexes) are left out. The board and ``runs``
    as in :func:`win_rates_by_map`.
    """
    columns = _columns(con, view)
    board = _board(columns, default_board)
    mechs = [
        (s, k)
        for s in "ab"
        for k in _numbered(columns, rf"hex_{s}_(\d+)")
        if f"down_{s}_{k}" in columns
    ]
    if not mechs:
        raise ValueError(f"positions: {view} has no hex_<side>_<k> and down_<side>_<k> columns")
    maps = (
        f"(VALUES {', '.join(f'({_text(b)}, {int(n)})' for b, n in lengths.items())})"
        if lengths
        else "(SELECT NULL::VARCHAR, NULL::INTEGER WHERE false)"
    )
    sql = f"""
    WITH maps(board, length) AS {maps},
    mechs AS (
        SELECT run, {board} AS board,
               unnest([{", ".join(_text(s) for s, _ in mechs)}]) AS side,
               unnest([{", ".join(f"hex_{s}_{k}" for s, k in mechs)}]) AS hex,
               unnest([{", ".join(f"down_{s}_{k}" for s, k in mechs)}]) AS down
        FROM {ident(view)}
        WHERE {_runs_filter(runs)}
    )
    SELECT m.run, m.board, m.side,
           CASE WHEN m.down THEN 'destroyed' ELSE 'standing' END AS state,
           (m.hex % p.length)::INTEGER AS col, (m.hex // p.length)::INTEGER AS row,
           count(*) AS mechs
    FROM mechs AS m
    JOIN maps AS p ON p.board = m.board
    WHERE m.hex IS NOT NULL AND m.hex >= 0
    GROUP BY ALL
    ORDER BY m.run, m.board, m.side, state, row, col
    """
    return fetch(con, sql)
