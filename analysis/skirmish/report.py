"""The Mecha Skirmish report page, ``reports/skirmish.html`` (its analysis plugin's
``default_runs`` and ``page``; the generic report adds the flags first and the claims).

It runs the default experiments into the store (resumable: a second report reuses
them), reads them back through DuckDB, and lays out the flags (one sentence each, with
the number and how it was computed), the charts, the board (003 H, I4: how battles are
decided on each map, which map favours whom, zone control by round, where mechs stand
and fall, and how the kit duel scores moved from the track to the map), the Team Cap
counts and ratings, and the key exact tables. Everything on the page works offline.

It reads only runs of the catalog it describes (with the report's ``--set`` values): the
runs it just made, and the latest ratings run of that catalog; a ratings run of another
catalog is named in a stale notice with the command that refreshes it, never shown.
Every section built from simulation names its run, and every sentence read from it
carries its 95% interval and says when the data cannot decide.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from typing import Any

import polars as pl

from analysis import ratings, readings
from analysis.charts import caption, run_caption
from analysis.plugin import Page, ReportContext, Section
from analysis.query import connect
from analysis.readings import interval, wilson
from analysis.report import (
    choose_run,
    option_flags,
    run_differences,
    run_label,
    simulate_command,
    stale_notice,
)
from analysis.report import frame_table as _table_html
from analysis.skirmish import charts, queries
from analysis.skirmish.flags import crit_share_flags, win_rate_flags
from analysis.skirmish.ratings import best_by_cap, by_heavies, heavy_sentence
from sims.core.protocol import get_game
from sims.core.runner import RunOutcome, current_catalog_hash, simulate
from sims.core.store import read_manifest, run_dir
from sims.skirmish import builds, rules, teams

GAME = "skirmish"
MARGINS = [2, 3, 4, 5, 6]
BUILD_PARTS = "full"  # the part list whose teams of builds the report counts
ROSTER_CAPS = (129, 143, 145, 158, 200)  # the rulebook's team Weights (B3) and the top cap
RULEBOOK_ROSTER = ("courier", "foreman", "reaver", "bastion")  # B3's example kits
RULEBOOK_FIELDED = ("courier", "foreman", "reaver")  # 129: the Bastion is the sideboard
# The ratings round robin of every legal kit team (36 teams, 1,296 cells) is too long to
# rerun inside a report: a stale one is named with this N to refresh it (about 77
# battles a cell, ratings to about +/-10 Elo points).
RATINGS_N = 100_000
TRACK = queries.TRACK  # the range track: the board of the duels the map is compared with
STANDARD_MAP = "broken"  # rules.toml board: the standard map (003 H), when --set board=track
STANDARD_MAPS = ("open", "broken", "urban")  # the hand-made 32 x 20 maps the team fights sweep
# The team fights get N / 16 battles: a 3v3 on a board plays about 14 times slower than
# a duel on the track (760 against 10,600 rows/s on two workers), and about 1,300 battles
# per map give each decided share to about +/-2.5 points.
TEAMFIGHT_SHARE = 16


def run_default_experiments(ctx: ReportContext) -> dict[str, RunOutcome]:
    """The duel grid and the crit-margin sweep, every kit, gunline; the duel grid again
    on the range track (on the standard map when the report's board is the track), the
    rulebook's team fights swept over the standard maps (and the report's board), and the
    exact team-cap counts over the full part list (all resumable)."""
    # as mechbal simulate: a line on stderr per run, its progress bar on a terminal
    common = dict(
        seed=ctx.seed,
        catalog_root=ctx.catalog_root,
        store_root=ctx.store,
        jobs=ctx.jobs,
        progress=None,
        announce="report",
    )
    duel = simulate(GAME, "duel", n=ctx.n, sets=ctx.sets, **common)
    swept = {k: v for k, v in ctx.sets.items() if k != "crit_margin"}  # the sweep sets it
    crit = simulate(
        GAME, "crit-margin", n=ctx.n, sweeps={"crit_margin": MARGINS}, sets=swept, **common
    )
    # Exact counts (no --n, no randomness): the default seed, so every report's seed
    # reuses the one run (about 5 s the first time).
    team_cap = simulate(
        GAME,
        "team-cap",
        catalog_root=ctx.catalog_root,
        store_root=ctx.store,
        sets=ctx.sets,
        jobs=ctx.jobs,
        options={"parts": BUILD_PARTS},
        progress=None,
        announce="report",
    )
    # The same duels on the other board (issue 15: how the kit win rates moved against
    # the track), and the team fights on every standard map.
    board = _board(ctx)
    other = simulate(
        GAME, "duel", n=ctx.n, sets={**ctx.sets, "board": _other_board(board)}, **common
    )
    out = {"duel": duel, "crit_margin": crit, "team_cap": team_cap, "duel_other": other}
    if maps := _fight_maps(ctx):  # a catalog without the standard maps has no team fights
        out["teamfight"] = simulate(
            GAME,
            "teamfight",
            n=max(ctx.n // TEAMFIGHT_SHARE, 1),
            sweeps={"board": maps},
            sets={k: v for k, v in ctx.sets.items() if k != "board"},
            **common,
        )
    return out


def _board(ctx: ReportContext) -> str:
    """The report's board: the catalog's ``board`` with the report's ``--set`` values."""
    return str(ctx.catalog.params.board)


def _other_board(board: str) -> str:
    """The board the duel grid is compared with: the track, or the standard map when the
    report's board is the track."""
    return TRACK if board != TRACK else STANDARD_MAP


def _fight_maps(ctx: ReportContext) -> list[str]:
    """The maps the team fights sweep: the standard maps of the catalog, and the report's
    board when it is another map."""
    maps = [m for m in STANDARD_MAPS if m in ctx.catalog.maps]
    board = _board(ctx)
    return maps + [board] if board != TRACK and board not in maps else maps


def _of_run(frame: pl.DataFrame, run: RunOutcome) -> pl.DataFrame:
    return frame.filter(pl.col("run") == run.plan.run_id) if "run" in frame.columns else frame


def build_page(ctx: ReportContext, runs: Mapping[str, RunOutcome]) -> Page:
    """The page's sections (charts over the default runs, Team Cap counts, ratings, the
    weapon table), the tables behind them, and its flags."""
    # The runs just made, by id; any other view (ratings) shows only a run of this
    # catalog with the report's --set values.
    # One run per view: the duel on the other board is read from duel_all by its id.
    con = connect(
        ctx.store,
        catalog=ctx.catalog_root,
        sets=ctx.sets,
        runs=[r.plan.run_id for k, r in runs.items() if k != "duel_other"],
    )
    try:
        return _page(ctx, con, runs)
    finally:
        con.close()


def _page(ctx: ReportContext, con: Any, runs: Mapping[str, RunOutcome]) -> Page:
    catalog, frames = ctx.catalog, ctx.frames
    duel, crit_run = runs["duel"], runs["crit_margin"]
    win = _of_run(queries.win_rates(con, "skirmish_duel"), duel)
    curves = _of_run(queries.destroyed_by_round(con, "skirmish_duel"), duel)
    crit = _of_run(queries.crit_share(con, "skirmish_crit_margin"), crit_run)
    ttk = _of_run(queries.time_to_kill(con, "skirmish_crit_margin"), crit_run)
    duel_caption = run_caption(con, duel.plan.run_id)
    crit_caption = run_caption(con, crit_run.plan.run_id)
    limits = ctx.limits
    margin = catalog.params.crit_margin
    flags = []
    if "crit_share" in limits:
        flags += crit_share_flags(frames["weapon_vs_kit"], limits["crit_share"], margin)
    if "win_rate" in limits:
        standings = _of_run(queries.standings(con, "skirmish_duel"), duel)
        flags += win_rate_flags(standings, limits["win_rate"], duel_caption + " Policy gunline.")
    exact_caption = caption(source="exact", params={"crit_margin": margin})
    damage = frames.get("damage_by_range")
    sections: list[Section] = [
        Section(
            "Which kit wins each duel?",
            charts.win_rate_heatmap(win, duel_caption + " Policy gunline, mirrors included."),
            {"win_rates": win},
        ),
        Section(
            "How fast does each kit destroy each opponent?",
            charts.destroyed_by_round_chart(curves, duel_caption + " Policy gunline."),
            {"destroyed_by_round": curves},
        ),
        *board_sections(ctx, con, runs),
        Section(
            "What does the crit margin do?",
            charts.crit_margin_chart(crit, ttk, crit_caption + " Policy gunline."),
            {"crit_share": crit, "time_to_kill": ttk},
        ),
        Section(
            "Which parts get hit?", charts.strike_frequency_chart(frames["bands"], exact_caption)
        ),
    ]
    if damage is not None:
        sections.append(
            Section(
                "How much damage at each range?",
                charts.damage_by_range_chart(damage, exact_caption),
            )
        )
    sections += team_cap_sections(ctx, con, runs.get("team_cap"))
    wvk = frames["weapon_vs_kit"].with_columns(
        pl.col("crit_share_float").round(3),
        pl.col("p_hit_float").round(3),
        pl.col("expected_damage_float").round(3),
    )
    sections.append(
        Section(
            "Each weapon against each kit (exact)",
            _table_html(
                wvk,
                [
                    "weapon",
                    "kit",
                    "p_hit",
                    "p_hit_float",
                    "crit_share",
                    "crit_share_float",
                    "expected_damage",
                    "expected_damage_float",
                ],
            )
            + "<p class='small'>The whole table: <a href='tables/skirmish/weapon_vs_kit.csv'>"
            "weapon_vs_kit.csv</a>.</p>",
        )
    )
    return Page(sections, flags)


def team_cap_sections(
    ctx: ReportContext, con: Any, team_cap_run: RunOutcome | None = None
) -> list[Section]:
    """The Team Cap section (003 B, B3, D, I2): legal kit teams per cap and class mix
    (exact), legal teams of builds per cap and class mix, kit rosters and the sideboard
    (exact, from the ``team-cap`` run, else that of this catalog in the store), pilot
    trios switched on (exact), and team ratings from the latest ``ratings`` run of this
    catalog (``mechbal simulate skirmish ratings``), or a stale notice."""
    catalog = ctx.catalog
    counts = teams.kit_team_counts(catalog)
    cap = catalog.params.team_cap
    at_cap = counts.filter(pl.col("team_cap") == cap)["teams"].sum()
    trios = teams.pilot_trios(catalog)
    shares = teams.activation_shares(trios)
    out: list[Section] = [
        Section(
            "How many teams does the Team Cap admit?",
            charts.team_cap_chart(
                counts,
                caption(source="exact", params={"kits": len(catalog.kits)})
                + f" At the Team Cap {cap}: {at_cap} legal teams of three distinct kits.",
            ),
        ),
    ]
    out += _build_team_sections(ctx, con, team_cap_run)
    out.append(
        Section(
            "Which pilot trios switch on?",
            _table_html(shares, ["pilots_on", "trios", "share", "share_float"])
            + f"<p class='small'>Exact, over all {trios.height} trios of "
            f"{len(catalog.pilots)} pilots (003 D).</p>",
        )
    )
    out.append(ratings_section(ctx, con))
    return out


# ---- the board: maps, zones, where mechs stand and fall (003 H, I4) -------------------


def _pct(value: float, low: float, high: float) -> str:
    """``12.3% (95% 10.1% to 14.6%)``."""
    return interval(value, low, high, "{:.1%}")


def _points(value: float, low: float, high: float) -> str:
    """A change of score in percentage points: ``+4.2 points (95% +1.0 to +7.4)``."""
    return f"{value * 100:+.1f} points (95% {low * 100:+.1f} to {high * 100:+.1f})" + (
        ": the interval holds 0, the data cannot decide whether it moved"
        if low <= 0 <= high
        else ""
    )


def _board_caption(con: Any, run_id: str, board: str) -> str:
    """:func:`run_caption`, naming the board where the run neither set nor swept one
    (it played the catalog's)."""
    rows = con.execute(
        "SELECT set_json, sweep_json FROM runs WHERE run_id = ?", [run_id]
    ).fetchall()
    named = bool(rows) and any("board" in json.loads(j or "{}") for j in rows[0])
    return run_caption(con, run_id, None if named else {"board": board})


def _items(sentences: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(t)}</li>" for t in sentences) + "</ul>"


def board_sections(ctx: ReportContext, con: Any, runs: Mapping[str, RunOutcome]) -> list[Section]:
    """The board's sections (003 H, I4), from the team fights swept over the standard maps
    and the duel grid on the map and on the track: how battles are decided, which map
    favours whom, zone control by round, where mechs stand and fall, and how each kit's
    duel score moved from the track to the map. Empty without those runs."""
    fight, other = runs.get("teamfight"), runs.get("duel_other")
    if fight is None or other is None:
        return []
    board = _board(ctx)
    duel_map, duel_track = (runs["duel"], other) if board != TRACK else (other, runs["duel"])
    fight_id = fight.plan.run_id
    duel_ids = [duel_map.plan.run_id, duel_track.plan.run_id]
    fight_caption = (
        _board_caption(con, fight_id, board)
        + " Policy gunline, the rulebook's three teams, mirrors included."
    )
    duel_caption = " ".join(_board_caption(con, r, board) for r in duel_ids) + " Policy gunline."
    return [
        _decided_section(con, board, fight_id, duel_ids, fight_caption, duel_caption),
        _maps_section(con, board, fight_id, fight_caption),
        _zones_section(con, board, fight_id, fight_caption),
        _positions_section(ctx, con, board, fight_id, fight_caption),
        _moves_section(con, board, duel_ids, duel_caption),
    ]


def _decided_section(
    con: Any, board: str, fight_id: str, duel_ids: list[str], fight_caption: str, duel_caption: str
) -> Section:
    """How the team fights on each map, and the duels on the map and the track, were
    decided: wipe, zones, kills, Hull, draw (queries.decided_by_map)."""
    fights = queries.decided_by_map(con, "skirmish_teamfight", default_board=board, runs=[fight_id])
    duels = queries.decided_by_map(
        con, "skirmish_duel_all", default_board=board, runs=duel_ids
    ).sort(
        pl.col("run").replace_strict({r: i for i, r in enumerate(duel_ids)}, return_dtype=pl.Int64),
        maintain_order=True,
    )  # map first
    frame = pl.concat(
        [
            fights.with_columns(fight=pl.lit("team fights")),
            duels.with_columns(fight=pl.lit("duels")),
        ]
    )
    sentences = []
    for (fight, b, run), rows in frame.group_by("fight", "board", "run", maintain_order=True):
        shares = {r["how"]: r for r in rows.iter_rows(named=True)}
        parts = [
            f"{what} {_pct(shares[h]['share'], shares[h]['low'], shares[h]['high'])}"
            for h, what in (
                ("wipe", "by wipe"),
                ("zones", "on points by zones"),
                ("kills", "on points by kills"),
                ("hull", "on Hull"),
                ("draw", "drawn"),
            )
        ]
        sentences.append(
            f"{str(fight).capitalize()} on {b} (run {run}, "
            f"{rows['battles'][0]:,} battles): decided " + ", ".join(parts) + "."
        )
    text = (
        f"<p>Each share with its 95% Wilson interval, on the report's board {board} and the "
        f"others:</p>"
        + _items(sentences)
        + "<p class='small'>A battle is decided by <em>wipe</em> when one side destroys "
        "every enemy mech; on points (003 I4: 3 per enemy mech destroyed, 1 per zone held "
        "at the end of each round) by <em>zones</em> when the winner held more zone-rounds "
        "than the loser (its zone points alone beat the loser's), else by <em>kills</em> "
        "(its kill points carried it); on <em>Hull</em> when the points were level and the "
        "higher Hull fraction won (also after the sudden-death round); a <em>draw</em> when "
        "still level. The track has no zones: every points win there is by kills. "
        "won_a and won_b in the table: battles of each kind won by side A and side B.</p>"
    )
    chart = charts.decided_by_map_chart(
        frame, f"Team fights: {fight_caption} Duels: {duel_caption}"
    )
    return Section(
        "Where are battles won: zones, kills or Hull?", [text, chart], {"decided_by_map": frame}
    )


def _maps_section(con: Any, board: str, fight_id: str, caption_text: str) -> Section:
    """Each team's score on each map (both seats), side A's score on each map, and the
    team the map matters most to (queries.scores_by_map, win_rates_by_map)."""
    scores = queries.scores_by_map(con, "skirmish_teamfight", default_board=board, runs=[fight_id])
    win = queries.win_rates_by_map(con, "skirmish_teamfight", default_board=board, runs=[fight_id])
    sentences = []
    for (b,), rows in scores.group_by("board", maintain_order=True):
        ranked = rows.sort("score", descending=True)
        if ranked.height >= 2:
            sentences.append(
                f"On {b} (run {fight_id}): "
                + readings.compare(
                    ranked.row(0, named=True),
                    ranked.row(1, named=True),
                    name="side",
                    value="score",
                    fmt="{:.1%}",
                    above="scores above",
                )
            )
    for (b,), rows in win.group_by("board", maintain_order=True):
        k, n = float((rows["wins_a"] + rows["draws"] / 2).sum()), int(rows["battles"].sum())
        low, high = wilson(k, n)
        sentences.append(
            f"On {b} (run {fight_id}), side A scores {_pct(k / n, low, high)} "
            f"over all {n:,} team fights, mirrors included"
            + (
                ", clear of an even 50%."
                if not low <= 0.5 <= high
                else ": the data cannot tell it from an even 50%."
            )
        )
    if scores["board"].n_unique() > 1:
        spread = scores.group_by("side").agg(
            (pl.col("score").max() - pl.col("score").min()).alias("spread")
        )
        side = spread.sort(["spread", "side"], descending=[True, False])["side"][0]
        rows = scores.filter(pl.col("side") == side).sort("score")
        lo, hi = rows.row(0, named=True), rows.row(-1, named=True)
        apart = lo["high"] < hi["low"]
        sentences.append(
            f"The map matters most to {side} (run {fight_id}): "
            f"{_pct(lo['score'], lo['low'], lo['high'])} on {lo['board']} against "
            f"{_pct(hi['score'], hi['low'], hi['high'])} on {hi['board']}"
            + (
                "."
                if apart
                else ": their 95% intervals overlap, so the data cannot decide "
                "that the map matters."
            )
        )
    text = _items(sentences) + (
        "<p class='small'>A team's score: wins + draws / 2 over its team fights against the "
        "other teams, both seats (mirrors left out), 95% Wilson interval; side A's score "
        "pools every matchup of the map. Per matchup: win_rates_by_map.csv. The engines "
        "favour neither side (a test plays each mirror match on a map and on the map turned "
        "half round); a side's edge is the map's: on a board 32 hexes long no hex is the "
        "middle, so the middle zone sits half a hex nearer one end.</p>"
    )
    chart = charts.win_rate_by_map_chart(scores, caption_text)
    return Section(
        "Which map favours whom?",
        [text, chart],
        {"team_scores_by_map": scores, "win_rates_by_map": win},
    )


def _zones_section(con: Any, board: str, fight_id: str, caption_text: str) -> Section:
    """Mean zones each side holds at the end of each round, per map (queries.zone_control)."""
    zones = queries.zone_control(con, "skirmish_teamfight", default_board=board, runs=[fight_id])
    named = zones.with_columns(
        name=pl.format("side {}", pl.col("side").str.to_uppercase()), value=pl.col("mean_zones")
    )
    sentences = []
    for (b,), rows in named.group_by("board", maintain_order=True):
        last = int(rows["round"].max())
        for r in sorted({min(2, last), last}):
            # one battle still running has no interval: nothing to read
            here = rows.filter((pl.col("round") == r) & pl.col("low").is_not_null()).sort("side")
            if here.height != 2:
                continue
            a, b_ = here.row(0, named=True), here.row(1, named=True)
            sentences.append(
                f"On {b} at the end of round {r} (run {fight_id}, {a['battles']:,} battles "
                f"still running): "
                + readings.compare(
                    a, b_, name="name", value="value", fmt="{:.2f}", above="holds more zones than"
                ).replace("The data", "the data")
            )
    text = _items(sentences) + (
        "<p class='small'>The mean over the battles still running at the end of the round "
        "(a battle ended by a wipe scores no zones in that round), with a 95% normal "
        "interval of the mean. A zone is held by the side alone in it (003 H).</p>"
    )
    return Section(
        "Who holds the zones, round by round?",
        [text, charts.zone_control_chart(zones, caption_text)],
        {"zone_control": zones},
    )


def _positions_section(
    ctx: ReportContext, con: Any, board: str, fight_id: str, caption_text: str
) -> Section:
    """Where mechs end the team fights standing and where they are destroyed, per map
    (queries.positions), on the map's terrain with its zones outlined."""
    maps = ctx.catalog.maps
    pos = queries.positions(
        con,
        "skirmish_teamfight",
        lengths={m: v.length for m, v in maps.items()},
        default_board=board,
        runs=[fight_id],
    )
    grid = charts.map_grid([maps[b] for b in pos["board"].unique(maintain_order=True)])
    in_zone = pos.join(
        grid.select("board", "col", "row", "zone"), on=["board", "col", "row"], how="left"
    )
    sentences = []
    for (b,), rows in in_zone.group_by("board", maintain_order=True):
        total = int(rows["mechs"].sum())
        down = int(rows.filter(pl.col("state") == "destroyed")["mechs"].sum())
        standing = rows.filter(pl.col("state") == "standing")
        up, zoned = int(standing["mechs"].sum()), int(standing.filter("zone")["mechs"].sum())
        low, high = wilson(down, total)
        text = (
            f"On {b} (run {fight_id}): {_pct(down / total, low, high)} of the "
            f"{total:,} mechs are destroyed"
        )
        if up:
            zl, zh = wilson(zoned, up)
            text += f"; of those still standing, {_pct(zoned / up, zl, zh)} end inside a zone"
        sentences.append(text + ".")
    text = _items(sentences) + (
        "<p class='small'>Each mech counted once, where it ended the battle or where it was "
        "destroyed; the 95% Wilson intervals treat the mechs as independent, though three "
        "fight on each side of a battle. Blue outlines: the zone hexes; odd rows sit half a "
        "hex right (003 H).</p>"
    )
    chart = charts.positions_heatmap(pos, grid, caption_text + " Both sides.")
    return Section("Where do mechs stand and fall?", [text, chart], {"positions": pos})


def _moves_section(con: Any, board: str, duel_ids: list[str], caption_text: str) -> Section:
    """Each kit's duel score on the map against the track, and the change
    (queries.score_moves)."""
    moves = queries.score_moves(
        con, "skirmish_duel_all", base=TRACK, default_board=board, runs=duel_ids
    )
    sentences = []
    for (b,), rows in moves.group_by("board", maintain_order=True):
        ranked = rows.sort("change", descending=True)
        up = ranked.filter(pl.col("change") > 0).head(3)
        down = ranked.filter(pl.col("change") < 0).reverse().head(3)
        for label, part in (("gain most", up), ("lose most", down)):
            if not part.height:
                continue
            kits = "; ".join(
                f"{r['side']} from {_pct(r['base_score'], r['base_low'], r['base_high'])} to "
                f"{_pct(r['score'], r['low'], r['high'])}, "
                f"{_points(r['change'], r['change_low'], r['change_high'])}"
                for r in part.iter_rows(named=True)
            )
            sentences.append(
                f"On {b} against the track (runs {' and '.join(duel_ids)}), "
                f"the kits that {label}: {kits}."
            )
    text = _items(sentences) + (
        "<p class='small'>A kit's duel score: wins + draws / 2 over its duels against every "
        "other kit, both seats (mirrors left out), 95% Wilson interval; the change's 95% "
        "interval is the normal one of the difference of two independent shares.</p>"
    )
    content: list[Any] = [text]
    if moves.height:
        content.append(
            charts.kit_moves_chart(
                moves.filter(pl.col("board") == moves["board"][0]), caption_text, base=TRACK
            )
        )
    return Section(
        "How did the kit win rates move against the track?", content, {"kit_moves": moves}
    )


# ---- teams of builds, rosters and the sideboard (the team-cap experiment) ------------


def _team_cap_run(con: Any, run: RunOutcome | None) -> str | None:
    """The team-cap run to show: ``run``, else the store's run of this catalog."""
    if run is not None:
        return run.plan.run_id
    return choose_run(con, GAME, "team-cap").run


def _team_cap_rows(con: Any, run_id: str, of: str) -> pl.DataFrame:
    """One run's rows of one kind (kits, builds, kit_rosters), without the bookkeeping."""
    rel = con.sql(
        "SELECT * EXCLUDE (run, cell, seed, chunk) FROM skirmish_team_cap "
        "WHERE run = $run AND of = $of "
        "ORDER BY team_cap, light DESC, medium DESC, legal_trios DESC",
        params={"run": run_id, "of": of},
    )
    return rel.pl()


def _share(part: int, total: int) -> str:
    """A share of a whole for reading: a percentage, or "1 in N" below 0.01%."""
    if not total or not part:
        return "0" if total else ""
    if part * 10_000 < total:
        return f"1 in {round(total / part):,}"
    return f"{100 * part / total:.2f}%"


def teams_at_cap(counts: pl.DataFrame, cap: int) -> pl.DataFrame:
    """Legal fielded teams of builds at one Team Cap, a row per class mix and a last row
    ``all``: the exact counts as text (``teams``, and ``piloted`` where given: each pilot
    unique, B), their size in floating point, and each mix's share of all teams.

    ``counts`` from ``team_counts.build_team_counts`` or the ``team_cap`` view (one run's
    ``of = 'builds'`` rows); the exact integers never pass through a float."""
    here = counts.filter(pl.col("team_cap") == cap)
    if not here.height:
        raise ValueError(f"teams_at_cap: no rows at the Team Cap {cap}")
    total = sum(int(v) for v in here["teams"])
    rows = []
    for row in here.sort("light", "medium", "heavy", descending=True).iter_rows(named=True):
        n = int(row["teams"])
        rows.append(
            {
                "class mix": f"{row['light']}L {row['medium']}M {row['heavy']}H",
                "teams of builds (exact)": str(n),
                "about": f"{n:.2e}",
                **(
                    {"with unique pilots (exact)": str(int(row["piloted"]))}
                    if "piloted" in here.columns
                    else {}
                ),
                "share of all teams": _share(n, total),
            }
        )
    rows.append(
        {
            "class mix": "all",
            "teams of builds (exact)": str(total),
            "about": f"{total:.2e}",
            **(
                {"with unique pilots (exact)": str(sum(int(v) for v in here["piloted"]))}
                if "piloted" in here.columns
                else {}
            ),
            "share of all teams": _share(total, total),
        }
    )
    return pl.DataFrame(rows)


ROSTER_LABELS = {
    4: "4: every swap legal",
    1: "1: the sideboard never comes in",
    0: "0: no fielded team fits",
}


def roster_table(rosters: pl.DataFrame, caps: Iterable[int]) -> pl.DataFrame:
    """Rosters of four distinct kits by how many of their four fielded trios fit the cap
    (003 I2: with all four, any sideboard swap stays legal), a column per cap:
    ``teams.kit_roster_counts`` (or the ``team_cap`` view's ``kit_rosters`` rows) made
    wide, most legal trios first."""
    caps = sorted(set(caps))
    shown = rosters.filter(pl.col("team_cap").is_in(caps))
    if shown["team_cap"].n_unique() != len(caps):
        missing = sorted(set(caps) - set(shown["team_cap"]))
        raise ValueError(f"roster_table: no rows at the Team Cap(s) {missing}")
    wide = (
        shown.with_columns(pl.format("cap {}", "team_cap").alias("cap"))
        .pivot(on="cap", index="legal_trios", values="rosters")
        .sort("legal_trios", descending=True)
    )
    label = pl.col("legal_trios").replace_strict(
        ROSTER_LABELS, default=pl.col("legal_trios").cast(pl.String), return_dtype=pl.String
    )
    return wide.select(label.alias("legal fielded trios of 4"), *(f"cap {c}" for c in caps))


def _build_team_sections(ctx: ReportContext, con: Any, run: RunOutcome | None) -> list[Section]:
    """Teams of builds against the Team Cap (chart and the table at the rulebook cap),
    and rosters of kits against the sideboard rule (I2)."""
    catalog = ctx.catalog
    run_id = _team_cap_run(con, run)
    if run_id is None:
        command = simulate_command(
            GAME, "team-cap", n=None, catalog_root=ctx.catalog_root, sets=ctx.sets, store=ctx.store
        )
        return [
            Section(
                "How many teams of builds does the Team Cap admit?",
                f"<p>No <code>team-cap</code> run of this catalog in the store: run "
                f"<code>{html.escape(command)}</code>.</p>",
            )
        ]
    named = run_label(con, run_id)
    built = _team_cap_rows(con, run_id, "builds")
    which = built["parts"][0] if built.height else BUILD_PARTS
    n_parts = len(builds.load_parts(catalog.root, which, game_dir=True))
    file = "parts_full.toml" if which == "full" else "parts.toml"
    cap = catalog.params.team_cap
    total = sum(int(v) for v in built.filter(pl.col("team_cap") == cap)["teams"])
    text = (
        caption(source="exact", params={"parts": f"{which} ({n_parts} parts, {file})"})
        + f" Counted by generating functions (sims/skirmish/team_counts.py), {named}:"
        f" unordered teams of three legal builds (class cap + overload), at most "
        f"{catalog.params.copy_limit} copies of any part. At the Team Cap {cap}: {total} "
        f"legal fielded teams of builds (about {total:.2e})."
    )
    table = teams_at_cap(built, cap)
    rosters = _team_cap_rows(con, run_id, "kit_rosters")
    out: list[Section] = [
        Section(
            "How many teams of builds does the Team Cap admit?",
            charts.build_team_cap_chart(built, text),
            {"team_cap_builds": built},
        ),
        Section(
            f"Teams of builds at the Team Cap {cap}",
            _table_html(table, table.columns)
            + f"<p class='small'>Exact integers from {html.escape(named)} ({which} part "
            f"list, {n_parts} parts). A team is three builds, unordered; with pilots, each "
            f"of the {len(catalog.pilots)} pilots at most once (B). The share is of all "
            f"legal teams at the cap.</p>",
            {"teams_at_cap": table},
        ),
    ]
    out.append(
        Section(
            "Which rosters keep every sideboard swap legal?",
            _roster_html(catalog, rosters, named),
            {"kit_rosters": rosters},
        )
    )
    return out


def _roster_html(catalog: Any, rosters: pl.DataFrame, named: str) -> str:
    """Rosters of four distinct kits by how many of their four fielded trios fit each
    cap (I2: with four, any sideboard swap stays legal), and the rulebook roster's
    refused swaps."""
    cap = catalog.params.team_cap
    caps = sorted({*ROSTER_CAPS, cap})
    wide = roster_table(rosters, caps)
    legal = int(rosters.filter(pl.col("team_cap") == cap)["rosters"].sum())
    every = int(
        rosters.filter((pl.col("team_cap") == cap) & (pl.col("legal_trios") == 4))["rosters"].sum()
    )
    roster, fielded = list(RULEBOOK_ROSTER), list(RULEBOOK_FIELDED)
    refused = teams.sideboard_report(catalog, roster, fielded)
    bench = next(k for k in roster if k not in fielded)
    lines = (
        "".join(f"<li>{html.escape(line)}</li>" for line in refused)
        or "<li>none: every swap stays legal</li>"
    )
    return (
        f"<p>At the Team Cap {cap}, {every} of the {legal} legal rosters of four distinct "
        f"kits keep all four fielded trios within the cap, so any sideboard swap stays legal "
        f"(003 I2).</p>"
        + _table_html(wide, wide.columns)
        + f"<p class='small'>Exact, every roster of four distinct kits within the copy limits "
        f"and unique pilots (B) listed, from {html.escape(named)}; a cell counts the "
        f"rosters with that many of their four possible fielded trios within the cap.</p>"
        + f"<p>The rulebook roster {html.escape('+'.join(roster))} fielding "
        f"{html.escape('+'.join(fielded))} ({html.escape(bench)} on the sideboard): swaps "
        f"the rules refuse.</p><ul>{lines}</ul>"
    )


# ---- ratings ---------------------------------------------------------------------------


def ratings_section(ctx: ReportContext, con: Any) -> Section:
    """ "Which teams are strongest?": the ratings of the latest ``ratings`` run of this
    catalog (with the report's ``--set`` values); with only runs of another catalog, a
    stale notice naming the run it does NOT use and the command that refreshes it."""
    heading = "Which teams are strongest?"
    choice = choose_run(con, GAME, "ratings")
    if choice.run is not None:
        return _ratings_section(ctx, con, choice.run)
    game = get_game(GAME)
    experiment = game.experiments["ratings"]
    flags: list[str] = []
    if choice.stale is not None:
        rows = con.execute("SELECT options FROM runs WHERE run_id = ?", [choice.stale]).fetchall()
        flags = option_flags(experiment, json.loads(rows[0][0] or "{}") if rows else {})
    command = simulate_command(
        GAME,
        "ratings",
        n=RATINGS_N,
        catalog_root=ctx.catalog_root,
        sets=ctx.sets,
        store=ctx.store,
        flags=flags,
    )
    if choice.stale is None:
        return Section(
            heading,
            f"<p>No ratings run of this catalog in the store. Team ratings "
            f"(Bradley-Terry, every legal kit team) come from <code>"
            f"{html.escape(command)}</code>; run it, then the report "
            f"again.</p>",
        )
    differences = run_differences(
        con, choice.stale, current_catalog_hash(game, experiment, ctx.catalog_root), ctx.sets
    )
    return Section(
        heading, stale_notice("ratings run", run_label(con, choice.stale), differences, command)
    )


def _ratings_section(ctx: ReportContext, con: Any, run_id: str) -> Section:
    """Bradley-Terry ratings of one ratings run, the best team at each cap, and whether
    Heavies are viable: every sentence with its interval."""
    catalog = ctx.catalog
    games = queries.win_rates(con, "ratings").filter(pl.col("run") == run_id)
    pairs = ratings.pairwise(games)
    fit = ratings.bradley_terry(pairs)
    manifest = read_manifest(run_dir(ctx.store, GAME, "ratings", run_id)) or {}
    custom = (manifest.get("notes") or {}).get("custom_kits", {})

    def kit_weight(kit: str) -> int:
        if kit in custom:  # a generated kit: its parts are in the run's manifest
            return sum(catalog.parts[p].weight for p in custom[kit]["parts"])
        return rules.mech_weight(catalog.mech(kit))

    def kit_class(kit: str) -> str:
        if kit in custom:  # chassis first: chassis, head, arms, legs, back
            return str(catalog.parts[custom[kit]["parts"][0]].klass)
        return str(catalog.mech(kit).chassis.klass)

    weights = {t: sum(kit_weight(k) for k in t.split("+")) for t in fit["team"]}
    heavies = {t: sum(kit_class(k) == "heavy" for k in t.split("+")) for t in fit["team"]}
    # The catalog is loaded with the report's --set values, the run's own: its cap.
    run_cap = catalog.params.team_cap
    source = "--set team_cap" if "team_cap" in ctx.sets else "the catalog's"
    chosen = (manifest.get("options") or {}).get("teams")
    kit_teams = [t for t in fit["team"] if not any(k in custom for k in t.split("+"))]
    sample = (
        readings.sample_note(len(kit_teams), len(teams.legal_kit_teams(catalog)), "kit teams")
        if chosen
        else ""
    )
    drawn = (
        ("its --teams" if chosen else "every legal kit team")
        + (" and custom teams" if custom else "")
        + ", each legal at"
    )
    rounded = fit.with_columns(pl.col(c).round(0) for c in ("rating", "low", "high"))
    best = best_by_cap(rounded, weights, sorted({*range(100, 201, 10), run_cap}))
    by_heavy = by_heavies(fit, heavies)
    fits_cap = fit.filter(pl.col("team").replace_strict(weights, default=10**9) <= run_cap)
    above = (
        f" Above {run_cap} the table can only repeat teams legal at {run_cap}: to rate heavier "
        f"teams, run <code>mechbal simulate skirmish ratings --set team_cap=200</code> and "
        f"read it with <code>mechbal report skirmish --set team_cap=200</code>."
        if run_cap < 200
        else ""
    )
    named = html.escape(run_caption(con, run_id))
    sample_html = f"<p><strong>A sample.</strong> {html.escape(sample)}</p>" if sample else ""
    preview = readings.preview_note(int(games["battles"].sum()), fit)
    preview_html = f"<p class='stale'>{html.escape(preview)}</p>" if preview else ""
    html_ = (
        preview_html
        + f"<p>{html.escape(readings.best_sentence(fit))}</p>"
        + sample_html
        + _table_html(
            rounded, ["team", "rating", "low", "high", "battles", "expected_score"], limit=60
        )
        + f"<p class='small'>Bradley-Terry ratings (Elo points, 95% interval) from {named} "
        f"Teams whose intervals overlap are not told apart by this run.</p>"
        + "<h3>The best rated team at each Team Cap</h3>"
        + f"<p>At the Team Cap {run_cap}: "
        f"{html.escape(readings.best_sentence(fits_cap))}</p>"
        + _table_html(best, ["team_cap", "team", "weight", "rating", "low", "high"])
        + f"<p class='small'>Only the {fit.height} teams of run {html.escape(run_id)} "
        f"compete: {drawn} the Team Cap {run_cap} ({source}).{above}"
        "</p>"
        + "<h3>Are Heavies viable?</h3>"
        + f"<p>{html.escape(heavy_sentence(fit, by_heavy, pairs, heavies, sample))}</p>"
        + _table_html(
            by_heavy.with_columns(pl.col("best_rating", "mean_rating").round(0)), by_heavy.columns
        )
        + f"<p class='small'>Rated teams grouped by the Heavy mechs they field; rank 1 is "
        f"the best of all {fit.height}; the top quarter is the best "
        f"{-(-fit.height // 4)} teams.</p>"
        + (
            _table_html(
                pl.DataFrame(
                    [
                        {"kit": k, "pilot": v["pilot"], "parts": ", ".join(v["parts"])}
                        for k, v in custom.items()
                    ]
                ),
                ["kit", "pilot", "parts"],
            )
            if custom
            else ""
        )
    )
    return Section(
        "Which teams are strongest?",
        html_,
        {
            "ratings": fit.with_columns(run=pl.lit(run_id)),
            "best_by_cap": best.with_columns(run=pl.lit(run_id)),
            "heavies": by_heavy.with_columns(run=pl.lit(run_id)),
        },
    )
