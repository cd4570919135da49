"""``mechbal diff GAME --base A --change B``: everything that moved between two versions
of a game's rules and catalogs, in ``OUT/diff-GAME.html`` (default OUT ``reports``),
with CSV files of its tables in ``OUT/diff-GAME/`` and the summary on the terminal.

A side (``--base``, ``--change``) is a catalog folder holding one folder per game (like
``catalogs``), or ``git:REV``: the project's ``catalogs`` folder at git revision REV of
the repository the command runs in (``git archive`` into a temporary folder, removed
afterwards; ``git:REV:PATH`` takes another folder of the repository, e.g. a test
catalog). ``--base-set`` edits the base, ``--set`` the change, as ``mechbal simulate
--set`` does: ``mechbal diff skirmish --base catalogs --change catalogs --base-set
crit_margin=3`` compares margin 3 with the shipped 4.

What is compared (:mod:`analysis.diff_stats` holds the comparisons):

- every exact table of the game (``game.exact`` of both versions), joined on its id
  columns, every exact column compared as a fraction: the rows that moved, biggest
  first;
- every default experiment of the game rerun for both versions on the same seed and N
  (common random numbers), each numeric result compared by its mean per cell and over
  every cell, each outcome by the share of each label, with a 95% interval (paired by
  cell and game when both runs hold the same games, Welch's otherwise). A difference
  counts as moved when its interval excludes zero. Enumerations among the default runs
  (no randomness) are compared exactly, beside the tables.

Which experiments: the default runs of the game's analysis plugin (``default_runs`` of
:mod:`analysis.plugin`, one :class:`ReportContext` per side, its ``sets`` the side's
edits), so "every default experiment" is exactly what ``mechbal report`` runs and
reads: the plugin knows which options, sweeps and second boards its report needs, what
``Game.experiments`` alone cannot say (an experiment may need a sweep or options to mean
anything). A game without a plugin falls back on each of its experiments that takes
``--n`` and needs no sweep, run with its defaults (:func:`default_runs`). Both sides'
runs land in the store (``--store``, default ``data``) like any run, so a second diff
of the same versions, or a report of either, reuses them; identical versions are the
same runs.

``--only EXPERIMENT[,...]`` reruns only those experiments, each with its defaults, for a
quicker look (the experiments that need a sweep are refused: a diff does not choose one).

Identical versions report "Nothing moved": equal tables, and with common random numbers
identical rows (the same run ids: one run serves both sides), so every simulated
difference is exactly zero.

Written: ``OUT/diff-GAME.html`` (the report's page helpers: offline, charts inline) holding
the summary (a sentence per change, the biggest first: exact values by the size of the
change, then simulated quantities over every cell of a run, then single cells, by the
difference in standard deviations), the exact changes, the simulated comparisons over
every cell (moved or not, so a small change is seen with its interval), the simulated
changes per cell, before/after dumbbell charts of the columns and metrics that moved
most, and the runs compared; beside it ``OUT/diff-GAME/exact_changes.csv`` (every value
that moved), ``simulated_changes.csv`` (every comparison, column ``moved``) and
``runs.csv``. Printed: the summary and where the page is.
"""

from __future__ import annotations

import argparse
import html
import io
import math
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from analysis import diff_stats
from sims.core import store as store_mod
from sims.core.catalog import CatalogError, parse_assignment, parse_value
from sims.core.protocol import Game, InputError, get_game

if TYPE_CHECKING:  # the charting and report modules load when a diff runs, not with the CLI
    import altair as alt

    from sims.core.runner import RunOutcome

DEFAULT_N = 64_000  # the report's default (mechbal report --n)
GIT = "git:"
GIT_FOLDER = "catalogs"  # the project's catalog folder, as git:REV reads it
SUMMARY_LINES = 10  # sentences per part of the summary (exact, simulated)
TABLE_ROWS = 300  # rows of each table on the page (the CSV holds them all)
CHARTS_EXACT = 2  # before/after charts of the exact columns that moved most
CHARTS_SIMULATED = 3  # and of the simulated metrics
CHART_ROWS = 20


class DiffError(InputError):
    """A mistake in what the diff was asked for: one line."""


# ---- the two sides -------------------------------------------------------------------------


@dataclass
class Side:
    """One version: where its catalogs came from, its edits, and what was computed."""

    role: str  # "base" or "change"
    spec: str  # as given: a folder or git:REV
    flag: str  # --base or --change
    sets: dict[str, Any]
    root: Path = Path()
    commit: str = ""  # the commit a git:REV resolved to
    catalog: Any = None
    frames: dict[str, pl.DataFrame] = field(default_factory=dict)
    runs: Mapping[str, RunOutcome] = field(default_factory=dict)

    @property
    def words(self) -> str:
        """``catalogs --set crit_margin=3``: the side as a designer reads it."""
        where = self.spec + (f" (commit {self.commit})" if self.commit else "")
        edits = " ".join(
            f"{'--base-set' if self.role == 'base' else '--set'} {k}={v}"
            for k, v in sorted(self.sets.items())
        )
        return where + (f" {edits}" if edits else "")


def parse_sets(items: Sequence[str] | None, flag: str) -> dict[str, Any]:
    """``NAME=VALUE`` items as ``--set`` reads them."""
    out: dict[str, Any] = {}
    for item in items or []:
        name, text = parse_assignment(item, flag)
        out[name] = parse_value(text)
    return out


def _git(args: Sequence[str], cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise DiffError("git:REV needs git, which is not installed") from None


def _first_line(data: bytes) -> str:
    lines = [x.strip() for x in data.decode(errors="replace").splitlines() if x.strip()]
    return lines[0].removeprefix("fatal: ") if lines else "git failed"


def git_catalogs(spec: str, flag: str, into: Path) -> tuple[Path, str]:
    """``git:REV`` (or ``git:REV:PATH``): the folder at that revision of the repository
    holding the working directory, extracted under ``into``; and the commit's short id."""
    rev, _, folder = spec[len(GIT) :].partition(":")
    folder = folder.strip("/") or GIT_FOLDER
    if not rev:
        raise DiffError(f"{flag} {spec}: name a revision (git:HEAD, git:v1.2, git:abc1234)")
    top = _git(["rev-parse", "--show-toplevel"])
    if top.returncode != 0:
        raise DiffError(f"{flag} {spec}: {Path.cwd()} is not inside a git repository")
    repo = Path(top.stdout.decode().strip())
    commit = _git(["rev-parse", "--verify", "--quiet", "--short", f"{rev}^{{commit}}"], repo)
    if commit.returncode != 0:
        raise DiffError(f"{flag} {spec}: no revision {rev!r} in the git repository {repo}")
    short = commit.stdout.decode().strip()
    tree = _git(["archive", "--format=tar", f"{short}:{folder}"], repo)
    if tree.returncode != 0:
        raise DiffError(
            f"{flag} {spec}: no folder {folder!r} at revision {rev} ({_first_line(tree.stderr)})"
        )
    root = into / f"{flag.strip('-')}-{short}"
    root.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(tree.stdout)) as archive:
        archive.extractall(root, filter="data")
    return root, short


def resolve(side: Side, game: Game, stack: ExitStack) -> None:
    """The side's catalog folder (extracted for git:REV), its catalog loaded with its edits
    and its exact tables: every mistake a one-line error, before anything is written."""
    if side.spec.startswith(GIT):
        temp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mechbal-diff-")))
        side.root, side.commit = git_catalogs(side.spec, side.flag, temp)
    else:
        side.root = Path(side.spec)
        if not side.root.is_dir():
            raise DiffError(
                f"{side.flag} {side.spec}: no such folder (a catalog folder "
                f"holding one folder per game, or git:REV)"
            )
    try:
        side.catalog = game.load_catalog(side.root, overrides=dict(side.sets))
    except (CatalogError, InputError) as exc:
        raise DiffError(f"{side.flag} {side.spec}: {exc}") from None
    side.frames = game.exact(side.catalog)


def chosen_experiments(game: Game, only: Sequence[str] | None) -> list[str] | None:
    """The experiments ``--only`` names, checked (None: the default runs)."""
    if not only:
        return None
    for name in only:
        if name not in game.experiments:
            raise DiffError(
                f"--only: unknown experiment {name!r} for {game.name} "
                f"(known: {', '.join(game.experiments)})"
            )
        if game.experiments[name].sweep_required:
            raise DiffError(
                f"--only {name}: it needs {game.experiments[name].sweep_required}, "
                f"which a diff does not choose"
            )
    return list(dict.fromkeys(only))


def default_runs(
    game: Game,
    side: Side,
    *,
    n: int,
    seed: int,
    jobs: int,
    store: Path,
    out: Path,
    only: Sequence[str] | None = None,
) -> dict[str, RunOutcome]:
    """The side's default experiments into the store (resumable): the plugin's default
    runs, else each experiment with ``--n`` and no required sweep (module docstring);
    with ``only``, those experiments, each with its defaults."""
    from analysis.plugin import ReportContext, get_analysis
    from sims.core.runner import simulate

    analysis = get_analysis(game.name)
    if only:
        return {
            name: simulate(
                game.name,
                name,
                n=n if game.experiments[name].needs_n else None,
                seed=seed,
                catalog_root=side.root,
                store_root=store,
                sets=side.sets,
                jobs=jobs,
                progress=None,
            )
            for name in only
        }
    if analysis is not None:
        ctx = ReportContext(
            game=game,
            catalog=side.catalog,
            catalog_root=side.root,
            claims=[],
            frames=side.frames,
            limits={},
            store=store,
            reports_dir=out,
            n=n,
            seed=seed,
            jobs=jobs,
            sets=dict(side.sets),
        )
        return dict(analysis.default_runs(ctx))
    return {
        name: simulate(
            game.name,
            name,
            n=n,
            seed=seed,
            catalog_root=side.root,
            store_root=store,
            sets=side.sets,
            jobs=jobs,
            progress=None,
        )
        for name, exp in game.experiments.items()
        if exp.needs_n and not exp.sweep_required
    }


# ---- the comparison ------------------------------------------------------------------------


@dataclass(frozen=True)
class Diff:
    """Everything the page and the terminal show, computed before anything is written."""

    game: Game
    base: Side
    change: Side
    n: int
    seed: int
    exact: pl.DataFrame  # diff_stats.EXACT_SCHEMA: moved values, biggest first
    simulated: pl.DataFrame  # diff_stats.SIM_SCHEMA: every comparison, moved first
    runs: pl.DataFrame  # a row per default run: both run ids, rows, test, notes
    only: tuple[str, ...] = ()  # the experiments --only named (else the default runs)
    # the game's exact tune metrics that moved (diff_stats.EXACT_SCHEMA, source "metrics")
    metrics: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=diff_stats.EXACT_SCHEMA)
    )

    @property
    def moved(self) -> pl.DataFrame:
        return self.simulated.filter(pl.col("moved"))

    @property
    def nothing_moved(self) -> bool:
        return self.exact.height == 0 and self.moved.height == 0 and self.metrics.height == 0


def compare(
    game: Game, base: Side, change: Side, *, n: int, seed: int, only: Sequence[str] | None = None
) -> Diff:
    """Both sides' tables and default runs compared (runs already made)."""
    exact = [diff_stats.exact_changes(game.tables, base.frames, change.frames)]
    simulated, runs = [], []
    for name in [*base.runs, *(k for k in change.runs if k not in base.runs)]:
        b, c = base.runs.get(name), change.runs.get(name)
        info = {
            "run": name,
            "experiment": (b or c).plan.experiment,
            "base_run": b.plan.run_id if b else "",
            "change_run": c.plan.run_id if c else "",
            "base_rows": b.rows if b else 0,
            "change_rows": c.rows if c else 0,
            "test": "",
            "note": "",
        }
        if b is None or c is None:
            info["note"] = f"made for the {'change' if b is None else 'base'} only: not compared"
            runs.append(info)
            continue
        rows_b = diff_stats.read_rows(b.plan.folder)
        rows_c = rows_b if c.plan.run_id == b.plan.run_id else diff_stats.read_rows(c.plan.folder)
        exp = game.experiments[b.plan.experiment]
        if c.plan.run_id == b.plan.run_id:
            info["note"] = "the same run on both sides (same catalog content and settings)"
        if not exp.needs_n:
            info["test"] = "exact (an enumeration)"
            exact.append(diff_stats.enumeration_changes(f"{name} (enumeration)", rows_b, rows_c))
        else:
            frame, notes = diff_stats.run_changes(
                name,
                b.plan.experiment,
                rows_b,
                rows_c,
                base_manifest=b.plan.manifest,
                change_manifest=c.plan.manifest,
                labels=exp.labels,
            )
            info["test"] = notes["test"]
            lost = [
                f"{len(notes[k])} cell(s) only in the {k.split('_')[1]} ("
                + "; ".join(notes[k][:3])
                + ("; ..." if len(notes[k]) > 3 else "")
                + ")"
                for k in ("only_base", "only_change")
                if notes[k]
            ]
            info["note"] = "; ".join(x for x in [info["note"], *lost] if x)
            simulated.append(frame)
        runs.append(info)
    exact_frame = diff_stats.sort_exact(pl.concat(exact))
    sim = pl.concat(simulated) if simulated else pl.DataFrame(schema=diff_stats.SIM_SCHEMA)
    return Diff(
        game,
        base,
        change,
        n,
        seed,
        exact_frame,
        diff_stats.sort_simulated(sim),
        pl.DataFrame(
            runs,
            schema={
                k: pl.Int64 if k.endswith("_rows") else pl.String
                for k in (
                    "run",
                    "experiment",
                    "base_run",
                    "change_run",
                    "base_rows",
                    "change_rows",
                    "test",
                    "note",
                )
            },
        ),
        tuple(only or ()),
        metric_changes(game, base, change),
    )


def metric_changes(game: Game, base: Side, change: Side) -> pl.DataFrame:
    """The game's exact tune metrics (``Game.targets``, the exact ones) for both versions,
    one value per value of each metric's first filter, its other filters pooled or at
    their defaults: the headline numbers a designer tunes (the Cannon's crit share over
    the kits the rulebook names). Only the values that moved, biggest first."""
    from sims.core.targets import ALL

    frames = []
    for name, target in game.targets.items():
        if not target.exact or not target.filters:
            continue
        first = target.filters[0]
        filters = {**{k: v for k, v in target.defaults.items() if k != first}, first: ALL}
        sides = []
        for side in (base, change):
            estimates = target.estimate(side.catalog, filters, 0, 0, 1, Path())
            sides.append(
                pl.DataFrame(
                    [
                        {**e.key, name: str(Fraction(e.value).limit_denominator(10**9))}
                        for e in estimates
                    ]
                )
            )
        key = [c for c in sides[0].columns if c != name]
        values = [
            float(v)
            for f in sides
            for v in f[name].map_elements(lambda x: float(Fraction(x)), return_dtype=pl.Float64)
        ]
        kind = "probability" if all(0 <= v <= 1 for v in values) else "expectation"
        frames.append(diff_stats.compare_frames("metrics", sides[0], sides[1], key, {name: kind}))
    if not frames:
        return pl.DataFrame(schema=diff_stats.EXACT_SCHEMA)
    return diff_stats.sort_exact(pl.concat(frames))


# ---- sentences -----------------------------------------------------------------------------


def _distinct(a: float, b: float, scale: float, unit: str, most: int = 4) -> tuple[str, str]:
    """``a`` and ``b`` (times ``scale``) with the fewest decimals (0..most) that tell them
    apart."""
    places = 0
    while places < most and round(a * scale, places) == round(b * scale, places):
        places += 1
    return f"{a * scale:.{places}f}{unit}", f"{b * scale:.{places}f}{unit}"


def _places(half: float) -> int:
    """Decimals that show a 95% half-width to its first significant digit (0..4)."""
    if not half or not math.isfinite(half) or half <= 0:
        return 2
    return max(0, min(4, -math.floor(math.log10(half))))


def _where(text: str) -> str:
    return f" ({text})" if text else ""


def exact_sentence(row: Mapping[str, Any]) -> str:
    """``weapon_vs_kit crit_share (weapon cannon, kit courier): 53% -> 36%``."""
    if row["kind"] in ("added", "removed"):
        side = "change" if row["kind"] == "added" else "base"
        return f"{row['source']}: row{_where(row['row'])} only in the {side}"
    if row["base_float"] is None or row["change_float"] is None:
        return (
            f"{row['source']} {row['column']}{_where(row['row'])}: {row['base'] or '-'} -> "
            f"{row['change'] or '-'}"
        )
    a, b = row["base_float"], row["change_float"]
    if row["kind"] == "probability":
        old, new = _distinct(a, b, 100, "%")
    else:
        whole = float(a).is_integer() and float(b).is_integer()
        old, new = _distinct(a, b, 1, "", 0 if whole else 4)
        if not whole and "." not in old + new:
            old, new = f"{a:.1f}", f"{b:.1f}"
    return f"{row['source']} {row['column']}{_where(row['row'])}: {old} -> {new}"


def simulated_sentence(row: Mapping[str, Any]) -> str:
    """``duel rounds (side_a x, side_b y): 7.1 -> 6.4 (-0.7 ± 0.2)``; shares in percent
    and points."""
    share = row["kind"] == "share"
    scale, unit = (100, "%") if share else (1, "")
    half = row["half"]
    places = _places(half * scale) if half is not None else 2
    if half == 0:  # no spread: as many places as tell the values apart
        places = len(_distinct(row["base"], row["change"], scale, "")[0].partition(".")[2])
    old = f"{row['base'] * scale:.{places}f}{unit}"
    new = f"{row['change'] * scale:.{places}f}{unit}"
    diff = f"{row['difference'] * scale:+.{places}f}"
    width = f" ± {half * scale:.{places}f}" if half is not None else ""
    points = " points" if share else ""
    cell = "" if row["cell"] == diff_stats.EVERY_CELL else row["cell"]
    where = _where(cell) if cell else " (every cell)"
    return f"{row['run']} {row['metric']}{where}: {old} -> {new} ({diff}{width}{points})"


def summary_sentences(d: Diff, limit: int = SUMMARY_LINES) -> list[str]:
    """The designer's summary, a sentence per change, the biggest first: the exact tables,
    then the simulated quantities whose interval excludes zero (every cell of a run first,
    then single cells)."""
    if d.nothing_moved:
        compared = d.simulated.height
        return [
            f"Nothing moved: every exact table is identical, and none of the {compared:,} "
            f"simulated differences has a 95% interval excluding zero."
        ]
    lines: list[str] = []
    if d.metrics.height:
        lines.append("Metrics (exact; the game's tune targets, mechbal tune --list):")
        lines += ["  " + exact_sentence(r) for r in d.metrics.head(limit).iter_rows(named=True)]
        if d.metrics.height > limit:
            lines.append(f"  ... and {d.metrics.height - limit:,} more (the metrics table)")
    exact = d.exact
    if exact.height:
        tables = exact["source"].n_unique()
        lines.append(
            f"Exact: {exact.height:,} value{'s' if exact.height != 1 else ''} moved in "
            f"{tables} table{'s' if tables != 1 else ''}; the biggest:"
        )
        lines += ["  " + exact_sentence(r) for r in exact.head(limit).iter_rows(named=True)]
        if exact.height > limit:
            lines.append(f"  ... and {exact.height - limit:,} more (the exact changes table)")
    else:
        lines.append("Exact: every table is identical.")
    moved = d.moved
    compared = d.simulated.height
    if moved.height:
        lines.append(
            f"Simulated: {moved.height:,} of {compared:,} differences have a 95% "
            f"interval excluding zero; the biggest:"
        )
        every = moved.filter(pl.col("cell") == diff_stats.EVERY_CELL)
        cells = moved.filter(pl.col("cell") != diff_stats.EVERY_CELL)
        first = every.head(max(limit // 2, 1) if cells.height else limit)
        shown = pl.concat([first, cells.head(limit - first.height)])
        lines += ["  " + simulated_sentence(r) for r in shown.iter_rows(named=True)]
        if moved.height > shown.height:
            lines.append(
                f"  ... and {moved.height - shown.height:,} more (the simulated changes table)"
            )
    else:
        lines.append(
            f"Simulated: none of the {compared:,} differences has a 95% interval excluding zero."
        )
    return lines


# ---- the page ------------------------------------------------------------------------------


def dumbbell(
    frame: pl.DataFrame,
    *,
    label: str,
    question: str,
    caption: str,
    percent: bool,
    axis: str,
    tooltip_extra: Sequence[tuple[str, str]] = (),
) -> alt.LayerChart:
    """Before and after of each row (``base``, ``change``): a rule between two dots, rows
    in the order given."""
    import altair as alt

    from analysis.charts import title, values

    order = frame[label].to_list()
    fmt = ".1%" if percent else ".3~g"
    tips = [
        alt.Tooltip(f"{label}:N", title="Where"),
        alt.Tooltip("base:Q", title="Base", format=fmt),
        alt.Tooltip("change:Q", title="Change", format=fmt),
        *(alt.Tooltip(f"{c}:N", title=t) for c, t in tooltip_extra),
    ]
    y = alt.Y(f"{label}:N", sort=order, title=None, axis=alt.Axis(labelLimit=420))
    wide = frame.select(label, "base", "change", *(c for c, _ in tooltip_extra))
    rule = (
        alt.Chart(values(wide))
        .mark_rule(color="#999", strokeWidth=2)
        .encode(
            y=y,
            x=alt.X(
                "base:Q",
                title=axis,
                axis=alt.Axis(format=".0%" if percent else "~g"),
                scale=alt.Scale(zero=False),
            ),
            x2="change:Q",
            tooltip=tips,
        )
    )
    long = wide.unpivot(
        ["base", "change"],
        index=[label, *(c for c, _ in tooltip_extra)],
        variable_name="side",
        value_name="value",
    )
    long = long.join(wide.select(label, "base", "change"), on=label, how="left")
    dots = (
        alt.Chart(values(long))
        .mark_circle(size=90, opacity=1)
        .encode(
            y=y,
            x=alt.X("value:Q"),
            color=alt.Color(
                "side:N",
                scale=alt.Scale(domain=["base", "change"], range=["#8c8c8c", "#1f5fa8"]),
                legend=alt.Legend(title=None, orient="top"),
            ),
            tooltip=tips,
        )
    )
    return (rule + dots).properties(title=title(question, caption), width=520, height=alt.Step(22))


def exact_charts(d: Diff) -> list[alt.TopLevelMixin]:
    """A before/after chart of each of the exact columns that moved most."""
    moved = d.exact.filter(
        pl.col("base_float").is_not_null() & pl.col("change_float").is_not_null()
    )
    if not moved.height:
        return []
    groups = (
        moved.group_by("source", "column", "kind")
        .agg(pl.col("size").max())
        .sort("size", "source", "column", descending=[True, False, False])
        .head(CHARTS_EXACT)
    )
    charts = []
    for source, column, kind, _ in groups.iter_rows():
        rows = (
            moved.filter((pl.col("source") == source) & (pl.col("column") == column))
            .head(CHART_ROWS)
            .select(
                pl.col("row").replace("", "(the table)"),
                pl.col("base_float").alias("base"),
                pl.col("change_float").alias("change"),
                "difference",
            )
        )
        charts.append(
            dumbbell(
                rows,
                label="row",
                question=f"{source}: {column}, before and after",
                percent=kind == "probability",
                axis=column,
                tooltip_extra=[("difference", "Exact difference")],
                caption=f"Exact: from each version's catalog, no simulation. The {rows.height} rows "
                f"that moved most; grey the base ({d.base.words}), blue the change "
                f"({d.change.words}).",
            )
        )
    return charts


def simulated_charts(d: Diff) -> list[alt.TopLevelMixin]:
    """A before/after chart of each of the simulated metrics that moved most, every cell
    of its run that moved."""
    moved = d.moved
    if not moved.height:
        return []
    groups = (
        moved.group_by("run", "metric", "kind")
        .agg(pl.col("effect").max())
        .sort("effect", "run", "metric", descending=[True, False, False])
    )
    # the metric that moved most in each run first, so the charts cover several runs
    ranked = (
        groups.with_columns(pl.int_range(pl.len()).over("run").alias("rank"))
        .sort("rank", "effect", descending=[False, True])
        .head(CHARTS_SIMULATED)
    )
    charts = []
    for run, metric, kind, _, _ in ranked.iter_rows():
        rows = moved.filter((pl.col("run") == run) & (pl.col("metric") == metric))
        rows = rows.sort(
            pl.col("cell") != diff_stats.EVERY_CELL, pl.col("effect"), descending=[False, True]
        ).head(CHART_ROWS)
        share = kind == "share"
        scale = 100 if share else 1
        rows = rows.with_columns(
            interval=pl.format(
                "{} ({} to {})",
                (pl.col("difference") * scale).round(3),
                (pl.col("low") * scale).round(3),
                (pl.col("high") * scale).round(3),
            )
        )
        test = rows["test"][0]
        games = d.runs.filter(pl.col("run") == run)["base_rows"]
        caption = (
            f"Simulated: {games[0] if games.len() else d.n:,} games per version, seed "
            f"{d.seed}, common random numbers on "
            f"both sides; the {rows.height} cells that moved most (95% interval of the "
            f"difference excludes zero; {test} interval in the tooltip"
            f"{', in points' if share else ''}); grey the base, blue the change."
        )
        charts.append(
            dumbbell(
                rows.select("cell", "base", "change", "interval"),
                label="cell",
                question=f"{run}: {metric}, before and after",
                percent=share,
                axis=metric,
                caption=caption,
                tooltip_extra=[("interval", "Difference (95% interval)")],
            )
        )
    return charts


def _list(lines: Sequence[str]) -> str:
    """The summary as HTML: each heading line bold, the indented sentences under it a list."""
    out: list[str] = []
    current: list[str] | None = None
    for line in lines:
        if line.startswith("  "):
            if current is None:
                current = []
            current.append(f"<li>{html.escape(line.strip())}</li>")
        else:
            if current is not None:
                out.append("<ul>" + "".join(current) + "</ul>")
                current = None
            out.append(f"<p><strong>{html.escape(line)}</strong></p>")
    if current is not None:
        out.append("<ul>" + "".join(current) + "</ul>")
    return "\n".join(out)


def _shown(frame: pl.DataFrame, columns: list[str], what: str, stem: str, folder: str) -> str:
    from analysis.report import frame_table

    note = (
        f"<p class='small'>The first {TABLE_ROWS} of {frame.height:,} {what}; every one is "
        f"in the CSV.</p>"
        if frame.height > TABLE_ROWS
        else ""
    )
    link = (
        f"<p class='downloads small'>Download CSV: <a href='{html.escape(folder)}/{stem}.csv' "
        f"download>{stem}.csv</a></p>"
    )
    if not frame.height:
        return f"<p>No {html.escape(what)}.</p>" + link
    return frame_table(frame, columns, limit=TABLE_ROWS) + note + link


def build_page(d: Diff, folder: str) -> str:
    """The page: the summary, the exact changes, the simulated changes, the charts, how it
    was computed."""
    from analysis.html import EXPORT_OPTIONS, page
    from analysis.report import frame_table

    game = d.game
    rerun = (
        f"the experiments {', '.join(d.only)} (--only)"
        if d.only
        else "every default experiment of the game (what mechbal report runs)"
    )
    intro = (
        f"<p><strong>Base</strong>: <code>{html.escape(d.base.words)}</code><br>"
        f"<strong>Change</strong>: <code>{html.escape(d.change.words)}</code><br>"
        f"<span class='small'>Every exact table of both versions; {html.escape(rerun)} rerun "
        f"for both with seed {d.seed} and N {d.n:,} (common random numbers). A simulated "
        f"difference counts as moved when its 95% interval excludes zero.</span></p>"
    )
    exact = d.exact.with_columns(pl.col("size").round(6))
    sim = d.simulated.with_columns(
        pl.col(c).round(6) for c in ("base", "change", "difference", "low", "high", "effect")
    )
    moved = sim.filter(pl.col("moved"))
    every = sim.filter(pl.col("cell") == diff_stats.EVERY_CELL)
    every_cols = [
        "run",
        "metric",
        "base",
        "change",
        "difference",
        "low",
        "high",
        "moved",
        "n_base",
        "n_change",
        "test",
    ]
    exact_cols = ["source", "row", "column", "kind", "base", "change", "difference"]
    sim_cols = [
        "run",
        "cell",
        "metric",
        "base",
        "change",
        "difference",
        "low",
        "high",
        "n_base",
        "n_change",
        "test",
    ]
    sections: list[tuple[str, Any]] = [
        ("What moved", _list(summary_sentences(d))),
        (
            "Metrics",
            _shown(d.metrics, exact_cols, "exact metrics that moved", "metrics", folder)
            + "<p class='small'>The game's exact tune targets (mechbal tune GAME --list), each "
            "value of its first filter with the others pooled: the numbers a designer states "
            "targets in.</p>",
        ),
        (
            "Exact changes",
            _shown(exact, exact_cols, "exact values that moved", "exact_changes", folder)
            + "<p class='small'>Biggest first: rows in one version only, then by the size of the "
            "change (a probability's in points, any other value's relative to the larger of "
            "its two values). Differences are exact fractions.</p>",
        ),
        (
            "Simulated, every cell together",
            _shown(every, every_cols, "comparisons over every cell", "simulated_changes", folder)
            + "<p class='small'>Each metric of each run over all the cells both versions hold, "
            "moved or not (<code>moved</code>: the 95% interval excludes zero), so a change "
            "too small to show is seen with its interval.</p>",
        ),
        (
            "Simulated changes",
            _shown(
                moved,
                sim_cols,
                "differences whose 95% interval excludes zero",
                "simulated_changes",
                folder,
            )
            + f"<p class='small'>{moved.height:,} of {sim.height:,} comparisons moved; the CSV "
            "holds every comparison (column <code>moved</code>). Biggest first: by the "
            "difference in standard deviations of the metric. <code>every cell</code> compares "
            "all the cells both runs hold. Shares (<code>metric=label</code>) are of an "
            "outcome column's label. With many comparisons about 1 in 20 of the differences "
            "that are truly zero would show by chance where the runs' games differ; with "
            "common random numbers a quantity the change cannot touch differs by exactly 0."
            "</p>",
        ),
    ]
    charts = [*exact_charts(d), *simulated_charts(d)]
    if charts:
        sections.append(("Before and after", charts))
    runs = d.runs
    sections.append(
        (
            "How this was computed",
            frame_table(runs)
            + (
                "<p class='small'>Paired: both runs hold the same cells and games, each game compared "
                "with the same game (same random stream) of the other version; Student's t interval "
                "of the mean paired difference per cell. Welch: the runs' games differ (other cells "
                "or N), so the two means are compared as independent samples. Runs are in the store "
                "and reused by a later diff or report of the same version.</p>"
            ),
        )
    )
    return page(
        f"{game.title}: what changed", sections, intro_html=intro, embed_options=EXPORT_OPTIONS
    )


def write(d: Diff, out: Path) -> Path:
    """``OUT/diff-GAME.html`` and its CSV files in ``OUT/diff-GAME/``."""
    from analysis.html import write_page
    from analysis.report import csv_text

    stem = f"diff-{d.game.name}"
    doc = build_page(d, stem)
    files = {
        "metrics": d.metrics,
        "exact_changes": d.exact,
        "simulated_changes": d.simulated,
        "runs": d.runs,
    }
    for name, frame in files.items():
        store_mod.write_text(out / stem / f"{name}.csv", csv_text(frame))
    return write_page(out / f"{stem}.html", doc)


# ---- the command ---------------------------------------------------------------------------


def run_diff(
    game_name: str,
    base: str,
    change: str,
    *,
    base_sets: Mapping[str, Any] | None = None,
    sets: Mapping[str, Any] | None = None,
    n: int = DEFAULT_N,
    seed: int = 1,
    jobs: int = 1,
    store: Path | str = "data",
    out: Path | str = "reports",
    only: Sequence[str] | None = None,
    quiet: bool = False,
) -> tuple[Diff, Path]:
    """The diff from Python (tests, notebooks): both sides checked first (a mistake is
    one line and writes nothing), their default runs made (or the ``only`` experiments),
    compared and written."""
    from analysis.report import writable_folder

    game = get_game(game_name)
    if n < 1 or jobs < 1 or seed < 0:
        raise DiffError("--n and --jobs must be at least 1, --seed 0 or more")
    only = chosen_experiments(game, only)
    sides = (
        Side("base", base, "--base", dict(base_sets or {})),
        Side("change", change, "--change", dict(sets or {})),
    )
    with ExitStack() as stack:
        for side in sides:
            resolve(side, game, stack)
        store, out = Path(store), Path(out)
        writable_folder(out, "--out")
        writable_folder(store, "--store")
        for side in sides:
            if not quiet:
                print(f"diff: {side.role}: {side.words}", file=sys.stderr)
            side.runs = default_runs(
                game, side, n=n, seed=seed, jobs=jobs, store=store, out=out, only=only
            )
        d = compare(game, *sides, n=n, seed=seed, only=only)
        path = write(d, out)
    return d, path


def cmd_diff(args: argparse.Namespace) -> int:
    base_sets = parse_sets(args.base_set, "--base-set")
    sets = parse_sets(args.set, "--set")
    only = [v.strip() for v in (args.only or "").split(",") if v.strip()]
    d, path = run_diff(
        args.game,
        args.base,
        args.change,
        base_sets=base_sets,
        sets=sets,
        n=args.n,
        seed=args.seed,
        jobs=args.jobs,
        store=args.store,
        out=args.out,
        only=only,
    )
    for line in summary_sentences(d):
        print(line)
    print(f"page: {path.resolve()}")
    return 0


def add_parser(subparsers: Any) -> None:
    """``mechbal diff GAME --base A --change B [--base-set ...] [--set ...]``."""
    p = subparsers.add_parser(
        "diff",
        help="what moved between two versions: exact tables and default experiments",
        description="Compare two versions of a game's catalogs and rules: every exact table, "
        "and every default experiment rerun on the same seed and N. A version is a catalog "
        "folder (one folder per game) or git:REV (the project's catalogs at a git revision).",
    )
    p.add_argument("game")
    p.add_argument("--base", required=True, metavar="A", help="catalog folder or git:REV")
    p.add_argument("--change", required=True, metavar="B", help="catalog folder or git:REV")
    p.add_argument(
        "--base-set",
        action="append",
        metavar="NAME=VALUE",
        help="edit the base: a rules parameter or KIND.ID.FIELD (repeatable)",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="edit the change: a rules parameter or KIND.ID.FIELD (repeatable)",
    )
    p.add_argument(
        "--n",
        type=int,
        default=DEFAULT_N,
        help=f"games per default experiment (default {DEFAULT_N:,}, as the report)",
    )
    p.add_argument(
        "--only",
        metavar="EXPERIMENT[,...]",
        help="rerun only these experiments (each with its defaults) instead of "
        "the report's default runs: a quicker look",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="local worker processes")
    p.add_argument("--store", default="data", help="the Parquet store for the runs")
    p.add_argument(
        "--out",
        default="reports",
        help="where diff-GAME.html and its CSV folder go (default reports)",
    )
    p.set_defaults(func=cmd_diff)
