"""The Mecha Skirmish report page, ``reports/skirmish.html`` (its analysis plugin's
``default_runs`` and ``page``; the generic report adds the flags first and the claims).

It runs the default experiments into the store (resumable: a second report reuses
them), reads them back through DuckDB, and lays out the flags (one sentence each, with
the number and how it was computed), the charts, the Team Cap counts and ratings, and
the key exact tables. Everything on the page works offline.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from analysis import ratings
from analysis.charts import caption
from analysis.plugin import Page, ReportContext
from analysis.query import connect, views
from analysis.report import frame_table as _table_html
from analysis.skirmish import charts, queries
from analysis.skirmish.flags import crit_share_flags, win_rate_flags
from analysis.skirmish.ratings import best_by_cap, by_heavies
from sims.core.runner import RunOutcome, simulate
from sims.core.store import read_manifest, run_dir
from sims.skirmish import builds, rules, teams

GAME = "skirmish"
MARGINS = [2, 3, 4, 5, 6]
BUILD_PARTS = "full"  # the part list whose teams of builds the report counts
ROSTER_CAPS = (129, 143, 145, 158, 200)  # the rulebook's team Weights (B3) and the top cap
RULEBOOK_ROSTER = ("courier", "foreman", "reaver", "bastion")  # B3's example kits
RULEBOOK_FIELDED = ("courier", "foreman", "reaver")  # 129: the Bastion is the sideboard


def run_default_experiments(ctx: ReportContext) -> dict[str, RunOutcome]:
    """The duel grid and the crit-margin sweep, every kit, gunline, and the exact
    team-cap counts over the full part list (all resumable)."""
    # as mechbal simulate: a line on stderr per run, its progress bar on a terminal
    common = dict(seed=ctx.seed, catalog_root=ctx.catalog_root, store_root=ctx.store,
                  jobs=ctx.jobs, progress=None, announce="report")  # fmt: skip
    duel = simulate(GAME, "duel", n=ctx.n, **common)
    crit = simulate(GAME, "crit-margin", n=ctx.n, sweeps={"crit_margin": MARGINS}, **common)
    # Exact counts (no --n, no randomness): the default seed, so every report's seed
    # reuses the one run (about 5 s the first time).
    team_cap = simulate(GAME, "team-cap", catalog_root=ctx.catalog_root, store_root=ctx.store,
                        jobs=ctx.jobs, options={"parts": BUILD_PARTS}, progress=None,
                        announce="report")  # fmt: skip
    return {"duel": duel, "crit_margin": crit, "team_cap": team_cap}


def _of_run(frame: pl.DataFrame, run: RunOutcome) -> pl.DataFrame:
    return frame.filter(pl.col("run") == run.plan.run_id) if "run" in frame.columns else frame


def _caption(run: RunOutcome, what: str) -> str:
    m = run.plan.manifest
    params: dict[str, Any] = dict(m.get("set") or {})
    if m.get("sweep"):
        params.update({k: f"{v[0]}..{v[-1]}" for k, v in m["sweep"].items()})
    return caption(source="simulated", n=int(m.get("rows") or run.rows),
                          seed=m["seed"], params=params or None, run=run.plan.run_id,
                          engine=m["engine"]) + f" {what}"  # fmt: skip


def build_page(ctx: ReportContext, runs: Mapping[str, RunOutcome]) -> Page:
    """The page's sections (charts over the default runs, Team Cap counts, ratings, the
    weapon table) and its flags."""
    catalog, frames, store = ctx.catalog, ctx.frames, ctx.store
    duel, crit_run = runs["duel"], runs["crit_margin"]
    con = connect(store)
    win = _of_run(queries.win_rates(con, "duel"), duel)
    curves = _of_run(queries.destroyed_by_round(con, "duel"), duel)
    crit = _of_run(queries.crit_share(con, "crit_margin"), crit_run)
    ttk = _of_run(queries.time_to_kill(con, "crit_margin"), crit_run)
    limits = ctx.limits
    margin = catalog.params.crit_margin
    flags = []
    if "crit_share" in limits:
        flags += crit_share_flags(frames["weapon_vs_kit"], limits["crit_share"], margin)
    if "win_rate" in limits:
        m = duel.plan.manifest
        flags += win_rate_flags(win, limits["win_rate"],
                                f"seed {m['seed']}, run {m['run_id']}, policy gunline")  # fmt: skip
    exact_caption = caption(source="exact", params={"crit_margin": margin})
    damage = frames.get("damage_by_range")
    sections: list[tuple[str, Any]] = [
        ("Which kit wins each duel?", charts.win_rate_heatmap(
            win, _caption(duel, "Policy gunline, mirrors included."))),
        ("How fast does each kit destroy each opponent?", charts.destroyed_by_round_chart(
            curves, _caption(duel, "Policy gunline."))),
        ("What does the crit margin do?", charts.crit_margin_chart(
            crit, ttk, _caption(crit_run, "Policy gunline."))),
        ("Which parts get hit?", charts.strike_frequency_chart(frames["bands"], exact_caption)),
    ]  # fmt: skip
    if damage is not None:
        sections.append(("How much damage at each range?",
                         charts.damage_by_range_chart(damage, exact_caption)))  # fmt: skip
    sections += team_cap_sections(catalog, con, store, runs.get("team_cap"))
    wvk = frames["weapon_vs_kit"].with_columns(
        pl.col("crit_share_float").round(3), pl.col("p_hit_float").round(3),
        pl.col("expected_damage_float").round(3))  # fmt: skip
    sections.append(("Each weapon against each kit (exact)", _table_html(
        wvk, ["weapon", "kit", "p_hit", "p_hit_float", "crit_share", "crit_share_float",
              "expected_damage", "expected_damage_float"])))  # fmt: skip
    return Page(sections, flags)


def team_cap_sections(catalog: Any, con: Any, store: Path,
                      team_cap_run: RunOutcome | None = None) -> list[tuple[str, Any]]:  # fmt: skip
    """The Team Cap section (003 B, B3, D, I2): legal kit teams per cap and class mix
    (exact), legal teams of builds per cap and class mix, kit rosters and the sideboard
    (exact, from the ``team-cap`` run, else the store's latest), pilot trios switched on
    (exact), and team ratings when the store holds a ``ratings`` run
    (``mechbal simulate skirmish ratings``)."""
    counts = teams.kit_team_counts(catalog)
    cap = catalog.params.team_cap
    at_cap = counts.filter(pl.col("team_cap") == cap)["teams"].sum()
    trios = teams.pilot_trios(catalog)
    shares = teams.activation_shares(trios)
    out: list[tuple[str, Any]] = [
        ("How many teams does the Team Cap admit?", charts.team_cap_chart(
            counts, caption(source="exact", params={"kits": len(catalog.kits)})
            + f" At the Team Cap {cap}: {at_cap} legal teams of three distinct kits.")),
    ]  # fmt: skip
    out += _build_team_sections(catalog, con, team_cap_run)
    out.append(("Which pilot trios switch on?", _table_html(
        shares, ["pilots_on", "trios", "share", "share_float"])
        + f"<p class='small'>Exact, over all {trios.height} trios of "
          f"{len(catalog.pilots)} pilots (003 D).</p>"))  # fmt: skip
    if "ratings" in views(con):
        out.append(_ratings_section(catalog, con, store))
    return out


# ---- teams of builds, rosters and the sideboard (the team-cap experiment) ------------


def _team_cap_run(con: Any, run: RunOutcome | None) -> str | None:
    """The team-cap run to show: ``run``, else the latest complete one in the store."""
    if run is not None:
        return run.plan.run_id
    if "team_cap" not in views(con):
        return None
    rows = con.execute(
        "SELECT run_id FROM runs WHERE game = ? AND experiment = 'team-cap' AND complete "
        "ORDER BY finished DESC LIMIT 1", [GAME]
    ).fetchall()
    return str(rows[0][0]) if rows else None


def _team_cap_rows(con: Any, run_id: str, of: str) -> pl.DataFrame:
    """One run's rows of one kind (kits, builds, kit_rosters), without the bookkeeping."""
    rel = con.sql(
        "SELECT * EXCLUDE (run, cell, seed, chunk) FROM team_cap WHERE run = $run AND of = $of "
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
        rows.append({"class mix": f"{row['light']}L {row['medium']}M {row['heavy']}H",
                     "teams of builds (exact)": str(n), "about": f"{n:.2e}",
                     **({"with unique pilots (exact)": str(int(row["piloted"]))}
                        if "piloted" in here.columns else {}),
                     "share of all teams": _share(n, total)})  # fmt: skip
    rows.append({"class mix": "all", "teams of builds (exact)": str(total),
                 "about": f"{total:.2e}",
                 **({"with unique pilots (exact)": str(sum(int(v) for v in here["piloted"]))}
                    if "piloted" in here.columns else {}),
                 "share of all teams": _share(total, total)})  # fmt: skip
    return pl.DataFrame(rows)


ROSTER_LABELS = {4: "4: every swap legal", 1: "1: the sideboard never comes in",
                 0: "0: no fielded team fits"}  # fmt: skip


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


def _build_team_sections(catalog: Any, con: Any, run: RunOutcome | None
                         ) -> list[tuple[str, Any]]:  # fmt: skip
    """Teams of builds against the Team Cap (chart and the table at the rulebook cap),
    and rosters of kits against the sideboard rule (I2)."""
    run_id = _team_cap_run(con, run)
    if run_id is None:
        return [("How many teams of builds does the Team Cap admit?",
                 "<p>No <code>team-cap</code> run in the store: run <code>mechbal simulate "
                 "skirmish team-cap</code>.</p>")]  # fmt: skip
    built = _team_cap_rows(con, run_id, "builds")
    which = built["parts"][0] if built.height else BUILD_PARTS
    n_parts = len(builds.load_parts(catalog.root, which, game_dir=True))
    file = "parts_full.toml" if which == "full" else "parts.toml"
    cap = catalog.params.team_cap
    total = sum(int(v) for v in built.filter(pl.col("team_cap") == cap)["teams"])
    text = (
        caption(source="exact", params={"parts": f"{which} ({n_parts} parts, {file})"})
        + f" Counted by generating functions (sims/skirmish/team_counts.py), run {run_id}:"
        f" unordered teams of three legal builds (class cap + overload), at most "
        f"{catalog.params.copy_limit} copies of any part. At the Team Cap {cap}: {total} "
        f"legal fielded teams of builds (about {total:.2e})."
    )
    table = teams_at_cap(built, cap)
    out: list[tuple[str, Any]] = [
        ("How many teams of builds does the Team Cap admit?",
         charts.build_team_cap_chart(built, text)),
        (f"Teams of builds at the Team Cap {cap}", _table_html(table, table.columns)
         + f"<p class='small'>Exact integers from run {html.escape(run_id)} ({which} part "
           f"list, {n_parts} parts). A team is three builds, unordered; with pilots, each "
           f"of the {len(catalog.pilots)} pilots at most once (B). The share is of all "
           f"legal teams at the cap.</p>"),
    ]  # fmt: skip
    out.append(("Which rosters keep every sideboard swap legal?",
                _roster_html(catalog, _team_cap_rows(con, run_id, "kit_rosters"), run_id)))
    return out


def _roster_html(catalog: Any, rosters: pl.DataFrame, run_id: str) -> str:
    """Rosters of four distinct kits by how many of their four fielded trios fit each
    cap (I2: with four, any sideboard swap stays legal), and the rulebook roster's
    refused swaps."""
    cap = catalog.params.team_cap
    caps = sorted({*ROSTER_CAPS, cap})
    wide = roster_table(rosters, caps)
    legal = int(rosters.filter(pl.col("team_cap") == cap)["rosters"].sum())
    every = int(rosters.filter((pl.col("team_cap") == cap) & (pl.col("legal_trios") == 4))
                ["rosters"].sum())  # fmt: skip
    roster, fielded = list(RULEBOOK_ROSTER), list(RULEBOOK_FIELDED)
    refused = teams.sideboard_report(catalog, roster, fielded)
    bench = next(k for k in roster if k not in fielded)
    lines = ("".join(f"<li>{html.escape(line)}</li>" for line in refused)
             or "<li>none: every swap stays legal</li>")  # fmt: skip
    return (
        f"<p>At the Team Cap {cap}, {every} of the {legal} legal rosters of four distinct "
        f"kits keep all four fielded trios within the cap, so any sideboard swap stays legal "
        f"(003 I2).</p>"
        + _table_html(wide, wide.columns)
        + f"<p class='small'>Exact, every roster of four distinct kits within the copy limits "
          f"and unique pilots (B) listed, from run {html.escape(run_id)}; a cell counts the "
          f"rosters with that many of their four possible fielded trios within the cap.</p>"
        + f"<p>The rulebook roster {html.escape('+'.join(roster))} fielding "
          f"{html.escape('+'.join(fielded))} ({html.escape(bench)} on the sideboard): swaps "
          f"the rules refuse.</p><ul>{lines}</ul>"
    )  # fmt: skip


# ---- ratings ---------------------------------------------------------------------------


def _ratings_section(catalog: Any, con: Any, store: Path) -> tuple[str, str]:
    """Bradley-Terry ratings of the latest ratings run, the best team at each cap, and
    whether Heavies are viable."""
    games = queries.win_rates(con, "ratings")
    present = set(games["run"])
    rows = con.execute(
        "SELECT run_id FROM runs WHERE game = ? AND experiment = 'ratings' "
        "ORDER BY complete DESC, coalesce(finished, created) DESC", [GAME]
    ).fetchall()
    latest = next((r for (r,) in rows if r in present), None) or sorted(present)[-1]
    games = games.filter(pl.col("run") == latest)  # one run at a time: never pool runs
    fit = ratings.bradley_terry(ratings.pairwise(games))
    manifest = read_manifest(run_dir(store, GAME, "ratings", str(latest))) or {}
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
    sets = manifest.get("set") or {}
    run_cap = int(sets.get("team_cap", catalog.params.team_cap))
    source = "the run's --set team_cap" if "team_cap" in sets else "the catalog's"
    drawn = ("its --teams" if (manifest.get("options") or {}).get("teams")
             else "every legal kit team") + (" and custom teams" if custom else "")
    drawn += ", each legal at"
    rounded = fit.with_columns(pl.col(c).round(0) for c in ("rating", "low", "high"))
    best = best_by_cap(rounded, weights,
                               sorted({*range(100, 201, 10), catalog.params.team_cap}))
    by_heavy = by_heavies(fit, heavies)
    above = (
        f" Above {run_cap} the table can only repeat teams legal at {run_cap}: to rate heavier "
        f"teams, run <code>mechbal simulate skirmish ratings --set team_cap=200</code>."
        if run_cap < 200 else ""
    )
    html_ = (
        _table_html(rounded, ["team", "rating", "low", "high", "battles", "expected_score"],
                    limit=60)
        + f"<p class='small'>Bradley-Terry ratings (Elo points, 95% interval) from "
          f"run {html.escape(str(latest))}.</p>"
        + "<h3>The best rated team at each Team Cap</h3>"
        + _table_html(best, ["team_cap", "team", "weight", "rating"])
        + f"<p class='small'>Only the {fit.height} teams of run {html.escape(str(latest))} "
          f"compete: {drawn} the Team Cap {run_cap} ({source}).{above}"
          "</p>"
        + "<h3>Are Heavies viable?</h3>"
        + f"<p>{html.escape(_heavy_sentence(fit, by_heavy))}</p>"
        + _table_html(by_heavy.with_columns(pl.col("best_rating", "mean_rating").round(0)),
                      by_heavy.columns)
        + f"<p class='small'>Rated teams grouped by the Heavy mechs they field; rank 1 is "
          f"the best of all {fit.height}; the top quarter is the best "
          f"{-(-fit.height // 4)} teams.</p>"
        + (_table_html(pl.DataFrame([{"kit": k, "pilot": v["pilot"],
                                      "parts": ", ".join(v["parts"])}
                                     for k, v in custom.items()]),
                       ["kit", "pilot", "parts"]) if custom else "")
    )  # fmt: skip
    return ("Which teams are strongest?", html_)


def _heavy_sentence(fit: pl.DataFrame, by_heavy: pl.DataFrame) -> str:
    """One plain answer to "are Heavies viable?" from ``ratings.by_heavies``."""
    n = fit.height
    heavy = by_heavy.filter(pl.col("heavies") > 0).sort("best_rank")
    if not heavy.height:
        return f"None of the {n} rated teams fields a Heavy: this run cannot say."
    top = heavy.row(0, named=True)
    interval = fit.filter(pl.col("team") == top["best_team"]).row(0, named=True)
    lead = fit.sort("rating", "team", descending=[True, False]).row(0, named=True)
    gap = "" if top["best_rank"] == 1 else (
        f", {lead['rating'] - top['best_rating']:.0f} points below the best team "
        f"{lead['team']} ({lead['rating']:+.0f})"
    )  # fmt: skip
    return (
        f"The best team with a Heavy, {top['best_team']}, rates {top['best_rating']:+.0f} "
        f"(95% {interval['low']:+.0f} to {interval['high']:+.0f}), rank {top['best_rank']} "
        f"of {n}{gap}. Teams with a Heavy are {heavy['in_top_quarter'].sum()} of the top "
        f"{-(-n // 4)} and {heavy['teams'].sum()} of all {n}."
    )
