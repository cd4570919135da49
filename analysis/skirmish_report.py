"""The Mecha Skirmish report page, ``reports/skirmish.html``.

It runs the default experiments into the store (resumable: a second report reuses
them), reads them back through DuckDB, and lays out, first, what is out of balance
(one sentence per flag, with the number and how it was computed), then the charts, the
key exact tables and the rulebook claims. Everything on the page works offline.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from analysis import charts, queries, ratings
from analysis.flags import Flag, crit_share_flags, load_limits, win_rate_flags
from analysis.html import page, write_page
from analysis.query import connect, views
from sims.core.claims import ClaimResult
from sims.core.runner import RunOutcome, simulate
from sims.core.store import read_manifest, run_dir
from sims.skirmish import rules, teams

GAME = "skirmish"
MARGINS = [2, 3, 4, 5, 6]


@dataclass(frozen=True)
class Runs:
    duel: RunOutcome
    crit_margin: RunOutcome


def run_default_experiments(catalog_root: Path, store: Path, n: int, seed: int,
                            jobs: int) -> Runs:  # fmt: skip
    """The duel grid and the crit-margin sweep, every kit, gunline (resumable)."""
    common = dict(seed=seed, catalog_root=catalog_root, store_root=store, jobs=jobs)
    duel = simulate(GAME, "duel", n=n, **common)
    crit = simulate(GAME, "crit-margin", n=n, sweeps={"crit_margin": MARGINS}, **common)
    return Runs(duel, crit)


def _of_run(frame: pl.DataFrame, run: RunOutcome) -> pl.DataFrame:
    return frame.filter(pl.col("run") == run.plan.run_id) if "run" in frame.columns else frame


def _caption(run: RunOutcome, what: str) -> str:
    m = run.plan.manifest
    params: dict[str, Any] = dict(m.get("set") or {})
    if m.get("sweep"):
        params.update({k: f"{v[0]}..{v[-1]}" for k, v in m["sweep"].items()})
    return charts.caption(source="simulated", n=int(m.get("rows") or run.rows),
                          seed=m["seed"], params=params or None, run=run.plan.run_id,
                          engine=m["engine"]) + f" {what}"  # fmt: skip


def _table_html(frame: pl.DataFrame, columns: list[str], limit: int = 200) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    rows = []
    for row in frame.select(columns).head(limit).iter_rows():
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _flags_html(flags: list[Flag]) -> str:
    if not flags:
        return "<p class='ok'>Nothing is outside the limits in <code>limits.toml</code>.</p>"
    items = "".join(
        f"<li><strong>{html.escape(f.sentence)}</strong><br>"
        f"<span class='small'>{html.escape(f.evidence)}</span></li>"
        for f in flags
    )
    return f"<ol class='flags'>{items}</ol>"


def build_page(
    catalog: Any,
    catalog_root: Path,
    claims: list[ClaimResult],
    frames: dict[str, pl.DataFrame],
    runs: Runs,
    store: Path,
    reports_dir: Path,
) -> tuple[Path, list[Flag]]:
    """Write ``reports/skirmish.html``; returns its path and the flags shown."""
    con = connect(store)
    win = _of_run(queries.win_rates(con, "duel"), runs.duel)
    curves = _of_run(queries.destroyed_by_round(con, "duel"), runs.duel)
    crit = _of_run(queries.crit_share(con, "crit_margin"), runs.crit_margin)
    ttk = _of_run(queries.time_to_kill(con, "crit_margin"), runs.crit_margin)
    limits = load_limits(Path(catalog_root) / GAME / "limits.toml")
    margin = catalog.params.crit_margin
    flags = []
    if "crit_share" in limits:
        flags += crit_share_flags(frames["weapon_vs_kit"], limits["crit_share"], margin)
    if "win_rate" in limits:
        m = runs.duel.plan.manifest
        flags += win_rate_flags(win, limits["win_rate"],
                                f"seed {m['seed']}, run {m['run_id']}, policy gunline")  # fmt: skip
    exact_caption = charts.caption(source="exact", params={"crit_margin": margin})
    damage = frames.get("damage_by_range")
    failed = [r for r in claims if not r.passed]
    verdict = (f"All {len(claims)} rulebook claims hold." if not failed else
               f"{len(failed)} of {len(claims)} rulebook claims FAIL: "
               + ", ".join(r.claim.id for r in failed))  # fmt: skip
    intro = (
        f"<p>{len(flags)} balance flag{'s' if len(flags) != 1 else ''} against "
        f"<code>catalogs/skirmish/limits.toml</code>. {html.escape(verdict)}</p>"
    )
    sections: list[tuple[str, Any]] = [
        ("What is out of balance", _flags_html(flags)),
        ("Which kit wins each duel?", charts.win_rate_heatmap(
            win, _caption(runs.duel, "Policy gunline, mirrors included."))),
        ("How fast does each kit destroy each opponent?", charts.destroyed_by_round_chart(
            curves, _caption(runs.duel, "Policy gunline."))),
        ("What does the crit margin do?", charts.crit_margin_chart(
            crit, ttk, _caption(runs.crit_margin, "Policy gunline."))),
        ("Which parts get hit?", charts.strike_frequency_chart(frames["bands"], exact_caption)),
    ]  # fmt: skip
    if damage is not None:
        sections.append(("How much damage at each range?",
                         charts.damage_by_range_chart(damage, exact_caption)))  # fmt: skip
    sections += team_cap_sections(catalog, con, store)
    wvk = frames["weapon_vs_kit"].with_columns(
        pl.col("crit_share_float").round(3), pl.col("p_hit_float").round(3),
        pl.col("expected_damage_float").round(3))  # fmt: skip
    sections += [
        ("Each weapon against each kit (exact)", _table_html(
            wvk, ["weapon", "kit", "p_hit", "p_hit_float", "crit_share", "crit_share_float",
                  "expected_damage", "expected_damage_float"])),
        ("Rulebook claims", _table_html(
            pl.DataFrame([r.row() for r in claims]),
            ["claim", "section", "expected", "actual", "result"], limit=500)),
    ]  # fmt: skip
    doc = page("Mecha Skirmish balance report", sections, intro_html=intro)
    path = Path(reports_dir) / f"{GAME}.html"
    write_page(path, doc)
    return path, flags


def team_cap_sections(catalog: Any, con: Any, store: Path) -> list[tuple[str, Any]]:
    """The Team Cap section (003 B, B3, D): legal kit teams per cap and class mix
    (exact), pilot trios switched on (exact), and team ratings when the store holds a
    ``ratings`` run (``mechbal simulate skirmish ratings``)."""
    counts = teams.kit_team_counts(catalog)
    cap = catalog.params.team_cap
    at_cap = counts.filter(pl.col("team_cap") == cap)["teams"].sum()
    trios = teams.pilot_trios(catalog)
    shares = teams.activation_shares(trios)
    out: list[tuple[str, Any]] = [
        ("How many teams does the Team Cap admit?", charts.team_cap_chart(
            counts, charts.caption(source="exact", params={"kits": len(catalog.kits)})
            + f" At the Team Cap {cap}: {at_cap} legal teams of three distinct kits.")),
        ("Which pilot trios switch on?", _table_html(
            shares, ["pilots_on", "trios", "share", "share_float"])
         + f"<p class='small'>Exact, over all {trios.height} trios of "
           f"{len(catalog.pilots)} pilots (003 D).</p>"),
    ]  # fmt: skip
    if "ratings" in views(con):
        games = queries.win_rates(con, "ratings")
        latest = games["run"].unique().sort()[-1]  # one run at a time: never pool runs
        games = games.filter(pl.col("run") == latest)
        fit = ratings.bradley_terry(ratings.pairwise(games))
        manifest = read_manifest(run_dir(store, GAME, "ratings", str(latest))) or {}
        custom = (manifest.get("notes") or {}).get("custom_kits", {})

        def kit_weight(kit: str) -> int:
            if kit in custom:  # a generated kit: its parts are in the run's manifest
                return sum(catalog.parts[p].weight for p in custom[kit]["parts"])
            return rules.mech_weight(catalog.mech(kit))

        weights = {t: sum(kit_weight(k) for k in t.split("+")) for t in fit["team"]}
        fit = fit.with_columns(pl.col(c).round(0) for c in ("rating", "low", "high"))
        best = ratings.best_by_cap(fit, weights, range(100, 201, 10))
        out.append(("Which teams are strongest?", _table_html(
            fit, ["team", "rating", "low", "high", "battles", "expected_score"], limit=60)
            + f"<p class='small'>Bradley-Terry ratings (Elo points, 95% interval) from "
              f"run {html.escape(str(latest))}.</p>"
            + _table_html(best, ["team_cap", "team", "weight", "rating"])
            + (_table_html(pl.DataFrame([{"kit": k, "pilot": v["pilot"],
                                          "parts": ", ".join(v["parts"])}
                                         for k, v in custom.items()]),
                           ["kit", "pilot", "parts"]) if custom else "")))  # fmt: skip
    return out
