"""What a report page's numbers rest on, and whether its verdicts survive (DESIGN.md
"Verdicts: what they rest on"): the section every game page and the index open with
(provenance counts, the readings in force, the policies and the format, each headline
verdict with its robustness tag) and the flags split into those that hold and those that
are fragile. Names no game."""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from analysis.flags import RULE, Flag
from analysis.plugin import Analysis, ReportContext, Section
from analysis.robust import RobustResult, Tag, latest, robust, write
from analysis.verdicts import flag_id
from sims.core import readings as rd

# The report's robustness pass: a quarter of the page's N a run (what `mechbal robust`
# runs by default at the report's default N, so a pass made with it is read back whole)
ROBUST_SHARE = 4


def provenance_frame(ctx: ReportContext) -> pl.DataFrame:
    """Per kind of value: how many are the rulebook's, assumed (placeholders) or a reading."""
    readings = rd.load(ctx.catalog_root, ctx.game.name)
    rows = rd.provenance_counts(
        ctx.catalog_root,
        ctx.game.name,
        ctx.game.kind_files,
        ctx.catalog.param_provenance,
        readings,
    )
    schema = {"what": pl.String, "rulebook": pl.Int64, "assumed": pl.Int64, "reading": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def experiment_kinds(ctx: ReportContext, experiment: str) -> list[str]:
    """The catalog kinds a run of ``experiment`` reads: every kind whose file decides its
    rows (the game's files less those that never do, plus the experiment's own)."""
    from sims.core.runner import NOT_IN_IDENTITY

    exp = ctx.game.experiments[experiment]
    skip = {
        f for f in (*NOT_IN_IDENTITY, *ctx.game.identity_exclude) if f not in exp.identity_files
    }
    return sorted(k for k, f in ctx.game.kind_files.items() if f not in skip)


def experiments_frame(ctx: ReportContext) -> pl.DataFrame:
    """Per experiment: the values its runs depend on, by provenance (the catalog kinds it
    reads, entries and fields; every rules parameter; every reading)."""
    readings = rd.load(ctx.catalog_root, ctx.game.name)
    rows = []
    for name in ctx.game.experiments:
        kinds = experiment_kinds(ctx, name)
        counts = rd.provenance_counts(
            ctx.catalog_root,
            ctx.game.name,
            ctx.game.kind_files,
            ctx.catalog.param_provenance,
            readings,
            kinds,
        )
        rows.append(
            {
                "experiment": name,
                "reads": ", ".join(kinds),
                **{k: sum(int(r[k]) for r in counts) for k in ("rulebook", "assumed", "reading")},
            }
        )
    schema = {
        "experiment": pl.String,
        "reads": pl.String,
        "rulebook": pl.Int64,
        "assumed": pl.Int64,
        "reading": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


def readings_frame(ctx: ReportContext) -> pl.DataFrame:
    readings = rd.load(ctx.catalog_root, ctx.game.name)
    rows = []
    for r in readings.readings:
        value = ctx.sets.get(r.parameter, r.taken) if r.parameter else None
        rows.append(
            {
                "reading": r.id,
                "title": r.title,
                "section": r.section,
                "in force": "" if value is None else str(value),
                "alternatives": ", ".join(map(str, r.alternatives)) or f"none: {r.reason}",
            }
        )
    schema = {k: pl.String for k in ("reading", "title", "section", "in force", "alternatives")}
    return pl.DataFrame(rows, schema=schema)


def run_pass(ctx: ReportContext, analysis: Analysis, budget: float) -> RobustResult | None:
    """The report's budgeted robustness pass (``budget`` seconds; 0: none, and the last
    ``mechbal robust`` of this catalog is read back when there is one)."""
    if analysis.verdicts is None:
        return None
    if budget <= 0:
        return latest(ctx.reports_dir, ctx.game.name, ctx.catalog_root, ctx.sets)
    result = robust(
        ctx.game.name,
        catalog_root=ctx.catalog_root,
        store=ctx.store,
        n=max(ctx.n // ROBUST_SHARE, 1),
        seed=ctx.seed,
        sets=ctx.sets,
        budget=budget,
        jobs=ctx.jobs,
        progress=None,
        announce="report",
    )
    write(result, ctx.reports_dir)
    return result


def _assumptions_link(ctx: ReportContext) -> str:
    target = Path(ctx.catalog_root) / ctx.game.name / "ASSUMPTIONS.md"
    return os.path.relpath(target.resolve(), Path(ctx.reports_dir).resolve())


def _counts_sentence(frame: pl.DataFrame) -> str:
    total = {k: int(frame[k].sum()) for k in ("rulebook", "assumed", "reading")}
    n = sum(total.values()) or 1
    return (
        f"Of the {n:,} catalog entries, fields, rules parameters and readings behind these "
        f"numbers, {total['rulebook']:,} are the rulebook's, {total['assumed']:,} are assumed "
        f"(placeholders: invented where the rulebook prints nothing) and {total['reading']:,} "
        f"are readings of rules the rulebook leaves silent or ambiguous."
    )


def tag_class(tag: Tag | None) -> str:
    return {"robust": "ok", "fragile": "bad"}.get(tag.status if tag else "", "small")


def tag_words(tag: Tag | None, game: str) -> str:
    if tag is None:
        return f"not checked: run mechbal robust {game}"
    return tag.words


def tagged(ctx: ReportContext, verdict_id: str, sentence: str) -> str:
    """A page's headline sentence (HTML) with its verdict's robustness tag after it: what
    every headline a page states carries (not checked, when no pass of this catalog
    tagged it)."""
    result = ctx.robustness
    tag = result.tag(verdict_id) if result is not None else None
    return f"{sentence} <span class='tag {tag_class(tag)}'>[{html.escape(tag_words(tag, ctx.game.name))}]</span>"


def tag_text(result: RobustResult | None, verdict_id: str, game: str) -> str:
    """A headline sentence's tag as plain text (`` [robust: ...]``), for pages that
    escape their sentences."""
    tag = result.tag(verdict_id) if result is not None else None
    if tag is None and result is not None and verdict_id not in result.headlines:
        return ""  # not a headline of the pass (a flag the pass's N does not raise)
    return f" [{tag_words(tag, game)}]"


def verdicts_html(result: RobustResult | None, game: str) -> str:
    if result is None:
        return (
            f"<p><strong>Not checked.</strong> No robustness pass of this catalog: run "
            f"<code>mechbal robust {html.escape(game)}</code> (or <code>mechbal report</code> "
            f"with <code>--robust-budget</code>) to learn which verdicts survive the other "
            f"readings, policies, seats and placeholder values.</p>"
        )
    rows = []
    for t in result.tags:
        rows.append(
            f"<li class='verdict'><strong>{html.escape(t.claim)}</strong>: "
            f"{html.escape(t.base.text or t.base.label)}<br>"
            f"<span class='{tag_class(t)}'>{html.escape(t.words)}</span></li>"
        )
    unchecked = len({c.variant for c in result.checks if c.status == "unchecked"})
    tail = (
        f" The budget ({result.budget:.0f} s) ran out before {unchecked} of "
        f"{len(result.variants)} variants: <code>mechbal robust {html.escape(game)}</code> "
        f"checks them all (its runs are kept, so the next report reads them)."
        if unchecked and result.budget is not None
        else ""
    )
    return (
        f"<p>Each headline verdict rerun on the same seed ({result.n:,} games a run) under "
        f"both seats, every alternative reading, the shipped policies and placeholder draws: "
        f"<a href='robust-{html.escape(game)}.html'>the robustness page</a>.{tail}</p>"
        f"<ul class='verdicts'>{''.join(rows)}</ul>"
    )


def rests_on_section(
    ctx: ReportContext, analysis: Analysis, result: RobustResult | None
) -> Section:
    """ "What these numbers rest on": the counts, the readings in force (linked to
    ASSUMPTIONS.md), the policies and the format, then the verdicts with their tags."""
    prov = provenance_frame(ctx)
    per_experiment = experiments_frame(ctx)
    readings = readings_frame(ctx)
    from analysis.report import frame_table

    extra = list(analysis.rests_on(ctx.catalog)) if analysis.rests_on else []
    said = "".join(
        f"<li><strong>{html.escape(what)}</strong>: {html.escape(words)}</li>"
        for what, words in extra
    )
    link = html.escape(_assumptions_link(ctx), quote=True)
    switchable = readings.filter(~pl.col("alternatives").str.starts_with("none: "))
    body = (
        f"<p>{html.escape(_counts_sentence(prov))} Every assumed value and reading is listed in "
        f"<a href='{link}'>ASSUMPTIONS.md</a>.</p>"
        + (f"<ul>{said}</ul>" if said else "")
        + frame_table(prov)
        + "<p>The same counts for each experiment, over the catalog kinds its runs read:</p>"
        + frame_table(per_experiment)
        + f"<p>Readings in force with an alternative ({switchable.height} of {readings.height}; "
        f"the rest have none a reader could take):</p>"
        + frame_table(switchable, ["reading", "title", "section", "in force", "alternatives"])
        + "<h3>Verdicts and whether they survive</h3>"
        + verdicts_html(result, ctx.game.name)
    )
    data = {"provenance": prov, "provenance_by_experiment": per_experiment, "readings": readings}
    if result is not None:
        data["verdicts"] = result.tags_frame()
    return Section("What these numbers rest on", body, data)


def flags_html(flags: Sequence[Flag], result: RobustResult | None, game: str) -> str:
    """The flags, each with its evidence and robustness tag: those a variant flips are
    shown apart as fragile, not as out of balance."""
    rule = f"<p class='small rule'>{html.escape(RULE)}</p>"
    if not flags:
        return "<p class='ok'>Nothing is outside the limits in <code>limits.toml</code>.</p>" + rule
    tags: Mapping[str, Tag] = {t.verdict: t for t in result.tags} if result else {}

    def item(f: Flag) -> str:
        tag = tags.get(flag_id(f.limit, f.subject))
        return (
            f"<li><strong>{html.escape(f.sentence)}</strong><br>"
            f"<span class='small'>{html.escape(f.evidence)}</span><br>"
            f"<span class='{tag_class(tag)}'>{html.escape(tag_words(tag, game))}</span></li>"
        )

    fragile = [
        f for f in flags if (t := tags.get(flag_id(f.limit, f.subject))) and t.status == "fragile"
    ]
    firm = [f for f in flags if f not in fragile]
    out = f"<ol class='flags'>{''.join(item(f) for f in firm)}</ol>" if firm else ""
    if fragile:
        out += (
            "<h3>Fragile flags: these depend on a reading, a policy or a placeholder</h3>"
            "<p class='small'>Each holds on this catalog as it stands, but a variant named "
            "under it moves the number back inside the limit: a fact about that choice, not "
            "(yet) about the game.</p>"
            f"<ol class='flags fragile'>{''.join(item(f) for f in fragile)}</ol>"
        )
    return out + rule


def flag_rows(
    flags: Sequence[Flag], result: RobustResult | None, game: str
) -> list[dict[str, Any]]:
    """Each flag's robustness: its status (robust, fragile, unconfirmed, unchecked) and tag."""
    tags = {t.verdict: t for t in result.tags} if result else {}
    rows = []
    for f in flags:
        tag = tags.get(flag_id(f.limit, f.subject))
        rows.append({"status": tag.status if tag else "unchecked", "tag": tag_words(tag, game)})
    return rows


def index_summary(ctx_game: str, prov: pl.DataFrame | None, result: RobustResult | None) -> str:
    """The index's words per game (HTML, no paragraph): the provenance counts and the
    verdicts' tags."""
    parts = []
    if prov is not None:
        parts.append(html.escape(_counts_sentence(prov)))
    if result is None:
        parts.append(f"Verdicts not checked (<code>mechbal robust {html.escape(ctx_game)}</code>).")
    else:
        counts = {
            s: sum(t.status == s for t in result.tags)
            for s in ("robust", "fragile", "unconfirmed", "unchecked")
        }
        words = ", ".join(f"{v} {k}" for k, v in counts.items() if v) or "none"
        parts.append(
            f"Headline verdicts: {words} (<a href='robust-{html.escape(ctx_game)}.html'>robustness page</a>)."
        )
    return " ".join(parts)
