"""Round robins over the store: a two-sided game's rows read per ordered cell, per matchup
(pooled from each choice's side) and per choice (its standing), for any game; the game
passes its side columns (:class:`RoundRobin`) and the columns it sums beside the score.

Like :mod:`analysis.queries`, each function writes its SQL in full, so it can be copied
into ``mechbal query``: only the view name, the side columns and the game's own columns
are filled in. ``winner`` is the labelled outcome (``winner = 'a'``, ``'b'``, ``'draw'``:
``Experiment.labels``). A score is (wins + draws / 2) / games (wins / games in a game
without draws), with its 95% Wilson interval (``wilson_low``/``wilson_high`` of the
fractional count wins + draws / 2).

Every ordered pair is a cell, mirrors included, so a matchup X-Y of two different choices
is played in two cells (X as side a, and X as side b); a matchup's rows pool both, each
game counted once, from X's side. In a mirror both sides are the choice: its score is 1/2
by construction, and every other number of it is side a's. A **standing** (a choice's
score over the whole round robin) leaves the mirrors out, in every game (DESIGN.md "One
flag rule"): a mirror would only pull the score toward 1/2 by an amount that depends on
how many choices the round robin holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb
import polars as pl

from analysis.query import fetch, ident


@dataclass(frozen=True)
class RoundRobin:
    """How a game stores its round robin: the choices are in ``<side>_a`` and
    ``<side>_b`` (a matchup or standing names its choice ``<side>``), one row is one
    ``count`` (battles, duels, games), and ``draws`` says whether a game can be drawn
    (``winner = 'draw'``, half a point each)."""

    side: str
    count: str = "battles"
    draws: bool = True

    @property
    def a(self) -> str:
        return f"{self.side}_a"

    @property
    def b(self) -> str:
        return f"{self.side}_b"

    def points(self, wins: str) -> str:
        """SQL of the points a side scores from its ``wins`` (and the draws, if any)."""
        return f"{wins} + draws / 2" if self.draws else wins


def cells(
    con: duckdb.DuckDBPyConnection,
    view: str,
    rr: RoundRobin,
    keys: Sequence[str] | None = None,
    extra: Mapping[str, str] | None = None,
) -> pl.DataFrame:
    """Per ``keys`` (default: run and the ordered cell ``<side>_a`` against ``<side>_b``,
    mirrors included): the count of games, side a's wins, draws (when the game has them)
    and losses, its score with the 95% Wilson interval (``score_a``, ``score_low``,
    ``score_high``), then ``extra`` (column name -> SQL aggregate over the cell's rows)."""
    names = ", ".join(ident(k) for k in (keys or ("run", rr.a, rr.b)))
    n = ident(rr.count)
    draws = "count(*) FILTER (WHERE winner = 'draw') AS draws,\n" if rr.draws else ""
    aggregates = "".join(
        f",\n               {sql} AS {ident(name)}" for name, sql in (extra or {}).items()
    )
    more = "".join(f", {ident(name)}" for name in extra or {})
    points = rr.points("wins_a")
    sql = f"""
    WITH m AS (
        SELECT {names},
               count(*) AS {n},
               count(*) FILTER (WHERE winner = 'a') AS wins_a,
               {draws}count(*) FILTER (WHERE winner = 'b') AS losses_a{aggregates}
        FROM {ident(view)}
        GROUP BY {names}
    )
    SELECT {names}, {n}, wins_a, {"draws, " if rr.draws else ""}losses_a,
           ({points}) / {n} AS score_a,
           wilson_low({points}, {n}) AS score_low,
           wilson_high({points}, {n}) AS score_high{more}
    FROM m
    ORDER BY {names}
    """
    return fetch(con, sql)


def seats(
    view: str, rr: RoundRobin, seat: str = "", mirrors: bool = True, only: str | None = None
) -> str:
    """Each game once from each side: the choice, its opponent, whether it won, drew or
    lost, and ``seat`` (SQL columns written with ``{me}`` and ``{foe}`` for the side's own
    letter and the other's). A mirror once, from side a, with ``mirrors``; else not at all.
    ``only`` (``"a"`` or ``"b"``) keeps the games from that seat alone (each choice read
    from its games in that seat: a verdict checked seat by seat)."""
    a, b, side = ident(rr.a), ident(rr.b), ident(rr.side)
    parts = []
    for me, foe, mine, theirs in (("a", "b", a, b), ("b", "a", b, a)):
        if only is not None and me != only:
            continue
        columns = f", {seat.format(me=me, foe=foe)}" if seat else ""
        drew = " winner = 'draw' AS drew," if rr.draws else ""
        where = "" if mirrors and me == "a" else f"\n        WHERE {a} <> {b}"
        parts.append(
            f"""
        SELECT run, {mine} AS {side}, {theirs} AS opponent, winner = '{me}' AS won,{drew}
               winner = '{foe}' AS lost{columns}
        FROM {ident(view)}{where}"""
        )
    return "\n        UNION ALL".join(parts)


def _tally(rr: RoundRobin, aggregates: Mapping[str, str] | None) -> str:
    """The m CTE's counts (games, wins, draws, losses) and the game's ``aggregates``."""
    draws = "\n               count(*) FILTER (WHERE drew) AS draws," if rr.draws else ""
    more = "".join(
        f",\n               {sql} AS {ident(name)}" for name, sql in (aggregates or {}).items()
    )
    return (
        f"count(*) AS {ident(rr.count)},\n"
        f"               count(*) FILTER (WHERE won) AS wins,{draws}\n"
        f"               count(*) FILTER (WHERE lost) AS losses{more}"
    )


def matchups(
    con: duckdb.DuckDBPyConnection,
    view: str,
    rr: RoundRobin,
    seat: str = "",
    aggregates: Mapping[str, str] | None = None,
    outputs: Sequence[str] = (),
) -> pl.DataFrame:
    """Per run, choice (``<side>``) and opponent: the games of both cells of the matchup
    pooled, each counted once from the choice's side (a mirror once, from side a), with
    ``mirror``; the count, wins, draws (when the game has them), losses, the score with its
    95% Wilson interval (``score``, ``low``, ``high``; a mirror's exactly 1/2, its
    interval [1/2, 1/2]), then ``outputs`` (SQL select expressions over the ``seat``
    columns' ``aggregates``, column name -> SQL)."""
    side, n = ident(rr.side), ident(rr.count)
    points = f"({rr.points('wins')}) / {n}"
    tail = "".join(f",\n           {o}" for o in outputs)
    sql = f"""
    WITH sides AS ({seats(view, rr, seat)}
    ),
    m AS (
        SELECT run, {side}, opponent,
               {_tally(rr, aggregates)}
        FROM sides
        GROUP BY run, {side}, opponent
    )
    SELECT run, {side}, opponent, {side} = opponent AS mirror,
           {n}, wins, {"draws, " if rr.draws else ""}losses,
           CASE WHEN {side} = opponent THEN 0.5 ELSE {points} END AS score,
           CASE WHEN {side} = opponent THEN 0.5
                ELSE wilson_low({rr.points("wins")}, {n}) END AS low,
           CASE WHEN {side} = opponent THEN 0.5
                ELSE wilson_high({rr.points("wins")}, {n}) END AS high{tail}
    FROM m
    ORDER BY run, {side}, opponent
    """
    return fetch(con, sql)


def standings(
    con: duckdb.DuckDBPyConnection,
    view: str,
    rr: RoundRobin,
    seat: str = "",
    aggregates: Mapping[str, str] | None = None,
    outputs: Sequence[str] = (),
    only: str | None = None,
) -> pl.DataFrame:
    """Per run and choice (``<side>``) over the whole round robin, mirrors left out (a
    mirror scores 1/2 by construction): the count of games from its side, wins, draws
    (when the game has them), losses, the score with its 95% Wilson interval (``score``,
    ``low``, ``high``), then ``outputs`` (SQL select expressions over the ``seat``
    columns' ``aggregates``, as in :func:`matchups`). ``only`` (``"a"``/``"b"``): from
    that seat's games alone."""
    side, n = ident(rr.side), ident(rr.count)
    tail = "".join(f",\n           {o}" for o in outputs)
    sql = f"""
    WITH sides AS ({seats(view, rr, seat, mirrors=False, only=only)}
    ),
    m AS (
        SELECT run, {side},
               {_tally(rr, aggregates)}
        FROM sides
        GROUP BY run, {side}
    )
    SELECT run, {side}, {n}, wins, {"draws, " if rr.draws else ""}losses,
           ({rr.points("wins")}) / {n} AS score,
           wilson_low({rr.points("wins")}, {n}) AS low,
           wilson_high({rr.points("wins")}, {n}) AS high{tail}
    FROM m
    ORDER BY run, {side}
    """
    return fetch(con, sql)
