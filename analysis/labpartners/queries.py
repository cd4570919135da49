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
    rows = con.execute(
        "SELECT view FROM shown WHERE game = ? AND experiment = ?", [GAME, experiment]
    ).fetchall()
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


# ---- the whole-game study: full-spread-vs-alpha ------------------------------------------
#
# Every game of ``full-spread-vs-alpha`` is played with every deck on the same seeds, so a
# game is a (run, cell, chunk, game) and each deck gives it one row. The outcomes compared
# are per-game numbers (METRICS); a game's study completion is the share of its seats whose
# Independent Study was completed.

STUDY = "full-spread-vs-alpha"
SEATS = 5  # study_<k>, study_done_<k>, gpa_<k> for k = 1..5 (null for an empty seat)
GAME_KEY = ("run", "cell", "chunk", "game")
# name -> the per-game SQL expression (a DOUBLE); binary ones are rates (Wilson intervals)
METRICS = {
    "lesson_took": "CAST(lesson_took AS DOUBLE)",
    "gaps": "CAST(gaps AS DOUBLE)",
    "weak_matches": "CAST(weak_matches AS DOUBLE)",
    "win": "CAST(result = 'win' AS DOUBLE)",
    "gpa": "CAST(gpa AS DOUBLE)",
    "study_done": "("
    + " + ".join(f"coalesce(CAST(study_done_{k} AS DOUBLE), 0)" for k in range(1, SEATS + 1))
    + ") / players",
}
RATES = ("lesson_took", "win")
BY = ("kaiju", "players")


def _by(by: tuple[str, ...]) -> tuple[str, str]:
    """The grouping columns as SQL (``, kaiju, players``) and checked."""
    for column in by:
        if column not in BY:
            raise ValueError(f"group by {BY} only, got {column!r}")
    return "".join(f", {ident(c)}" for c in by), "".join(f", l.{ident(c)}" for c in by)


def _long(view: str, decks: str = "") -> str:
    """One row per game, deck and metric (``metric``, ``x``): the METRICS stacked."""
    where = f"WHERE {decks}" if decks else ""
    return "\n        UNION ALL\n".join(
        f"        SELECT run, cell, chunk, game, deck, kaiju, players, {name!r} AS metric, "
        f"{expr} AS x FROM {ident(view)} {where}"
        for name, expr in METRICS.items()
    )


def deck_means(
    con: duckdb.DuckDBPyConnection, view: str = "full_spread_vs_alpha", by: tuple[str, ...] = ()
) -> pl.DataFrame:
    """Per run, deck, the ``by`` columns (kaiju, players) and metric (METRICS): games,
    the mean with its 95% interval (Wilson for the rates lesson_took and win, else
    normal: 1.96 standard errors), its standard deviation and, for rates, the count."""
    cols, _ = _by(by)
    sql = f"""
    WITH long AS (
{_long(view)}
    ),
    m AS (
        SELECT run, deck{cols}, metric,
               count(*) AS games,
               sum(x) AS total,
               avg(x) AS mean,
               coalesce(stddev_samp(x), 0) AS sd
        FROM long
        GROUP BY run, deck{cols}, metric
    )
    SELECT run, deck{cols}, metric, games, mean,
           CASE WHEN metric IN {RATES!r} THEN wilson_low(total, games)
                ELSE mean - 1.96 * sd / sqrt(games) END AS low,
           CASE WHEN metric IN {RATES!r} THEN wilson_high(total, games)
                ELSE mean + 1.96 * sd / sqrt(games) END AS high,
           sd, total
    FROM m
    ORDER BY run, deck{cols}, metric
    """
    return fetch(con, sql)


def paired_differences(
    con: duckdb.DuckDBPyConnection,
    view: str = "full_spread_vs_alpha",
    by: tuple[str, ...] = (),
    base: str = "full",
) -> pl.DataFrame:
    """Per run, deck (every deck but ``base``), the ``by`` columns and metric: the mean
    over games of (the deck's value - ``base``'s value in the SAME game), ``diff``, with
    the paired 95% interval diff +/- 1.96 sd(per-game difference) / sqrt(games); each
    deck's mean (``mean_deck``, ``mean_base``) and the pooled standard deviation of the
    metric (sqrt of the mean of the two variances: a difference in its units)."""
    cols, lcols = _by(by)
    sql = f"""
    WITH long AS (
{_long(view)}
    ),
    pairs AS (
        SELECT l.run, l.deck{lcols}, l.metric, l.x AS x_deck, r.x AS x_base,
               l.x - r.x AS d
        FROM long AS l
        JOIN long AS r
          ON l.run = r.run AND l.cell = r.cell AND l.chunk = r.chunk AND l.game = r.game
         AND l.metric = r.metric
        WHERE r.deck = {base!r} AND l.deck <> {base!r}
    ),
    m AS (
        SELECT run, deck{cols}, metric,
               count(*) AS games,
               avg(x_deck) AS mean_deck,
               avg(x_base) AS mean_base,
               avg(d) AS diff,
               coalesce(stddev_samp(d), 0) AS sd_diff,
               sqrt((coalesce(var_samp(x_deck), 0) + coalesce(var_samp(x_base), 0)) / 2)
                   AS sd_pooled
        FROM pairs
        GROUP BY run, deck{cols}, metric
    )
    SELECT run, deck{cols}, metric, games, mean_deck, mean_base, diff,
           diff - 1.96 * sd_diff / sqrt(games) AS low,
           diff + 1.96 * sd_diff / sqrt(games) AS high,
           sd_diff, sd_pooled
    FROM m
    ORDER BY run, deck{cols}, metric
    """
    return fetch(con, sql)


def lesson_dealt(
    con: duckdb.DuckDBPyConnection, view: str = "full_spread_vs_alpha"
) -> pl.DataFrame:
    """Per run, deck and player count: games, how many had a body card of the lesson Form
    in the opening hands (``lesson_dealt``: the first hand_size x players body cards, dealt
    before any choice), and that rate with its 95% Wilson interval."""
    sql = f"""
    SELECT run, deck, players,
           count(*) AS games,
           count(*) FILTER (WHERE lesson_dealt) AS hits,
           count(*) FILTER (WHERE lesson_dealt) / count(*) AS rate,
           wilson_low(count(*) FILTER (WHERE lesson_dealt), count(*)) AS low,
           wilson_high(count(*) FILTER (WHERE lesson_dealt), count(*)) AS high
    FROM {ident(view)}
    GROUP BY run, deck, players
    ORDER BY run, deck, players
    """
    return fetch(con, sql)


def lesson_seen(con: duckdb.DuckDBPyConnection, view: str = "full_spread_vs_alpha") -> pl.DataFrame:
    """Per run and deck (descriptive: how many body cards leave the pile depends on
    choices that read the lesson): games, the mean body cards that left the draw pile in
    Assembly, how many games saw a body card of the lesson Form among them, and that rate
    with its 95% Wilson interval."""
    sql = f"""
    SELECT run, deck,
           count(*) AS games,
           avg(body_seen) AS body_seen,
           count(*) FILTER (WHERE lesson_seen) AS hits,
           count(*) FILTER (WHERE lesson_seen) / count(*) AS rate,
           wilson_low(count(*) FILTER (WHERE lesson_seen), count(*)) AS low,
           wilson_high(count(*) FILTER (WHERE lesson_seen), count(*)) AS high
    FROM {ident(view)}
    GROUP BY run, deck
    ORDER BY run, deck
    """
    return fetch(con, sql)


def study_completion(
    con: duckdb.DuckDBPyConnection, view: str = "full_spread_vs_alpha"
) -> pl.DataFrame:
    """Per run, deck and Independent Study: the seats that held it, how many completed
    it, and the completion rate with its 95% Wilson interval (every seat of every game:
    seat k's study is ``study_<k>``, completed when ``study_done_<k>``)."""
    seats = "\n        UNION ALL\n".join(
        f"        SELECT run, deck, study_{k} AS study, study_done_{k} AS done "
        f"FROM {ident(view)} WHERE study_{k} IS NOT NULL"
        for k in range(1, SEATS + 1)
    )
    sql = f"""
    WITH seats AS (
{seats}
    )
    SELECT run, deck, study,
           count(*) AS seats,
           count(*) FILTER (WHERE done) AS done,
           count(*) FILTER (WHERE done) / count(*) AS rate,
           wilson_low(count(*) FILTER (WHERE done), count(*)) AS low,
           wilson_high(count(*) FILTER (WHERE done), count(*)) AS high
    FROM seats
    GROUP BY run, deck, study
    ORDER BY run, deck, study
    """
    return fetch(con, sql)


def scarcity(con: duckdb.DuckDBPyConnection, view: str = "full_spread_vs_alpha") -> pl.DataFrame:
    """Per run, deck, attribute (form, type) and value: the locked mechs holding at
    least one part of that Form (Type), of all the deck's games, and that share with its
    95% Wilson interval. A card id is PART-FORM-TYPE[-POWER] (catalog.card_id), so the
    Form and Type are its second and third fields. A value no mech held has no row."""
    sql = f"""
    WITH parts AS (
        SELECT run, deck, cell, chunk, game,
               unnest([legs, torso, head, arm_1, arm_2]) AS card
        FROM {ident(view)}
    ),
    held AS (
        SELECT DISTINCT run, deck, cell, chunk, game, 'form' AS attribute,
               split_part(card, '-', 2) AS value
        FROM parts WHERE card IS NOT NULL
        UNION ALL
        SELECT DISTINCT run, deck, cell, chunk, game, 'type' AS attribute,
               split_part(card, '-', 3) AS value
        FROM parts WHERE card IS NOT NULL
    ),
    totals AS (
        SELECT run, deck, count(*) AS games FROM {ident(view)} GROUP BY run, deck
    )
    SELECT h.run, h.deck, h.attribute, h.value,
           count(*) AS mechs, any_value(t.games) AS games,
           count(*) / any_value(t.games) AS share,
           wilson_low(count(*), any_value(t.games)) AS low,
           wilson_high(count(*), any_value(t.games)) AS high
    FROM held AS h
    JOIN totals AS t ON t.run = h.run AND t.deck = h.deck
    GROUP BY h.run, h.deck, h.attribute, h.value
    ORDER BY h.run, h.deck, h.attribute, h.value
    """
    return fetch(con, sql)
