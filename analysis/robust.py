"""``mechbal robust GAME``: every headline verdict of a game's page rerun under each
alternative it rests on, and tagged **robust** (it holds in every variant) or **fragile:
depends on X** (the variants that flip it, with the flipped values).

The variants (:class:`analysis.verdicts.Variant`), in the order they run:
- both seats: the baseline's rows read from seat a's games, then seat b's (no rerun);
- every alternative of every reading in ``catalogs/<game>/readings.toml``, one at a time;
- the game's own: its shipped policies, the ends of a map, its sampled lists
  (:attr:`analysis.plugin.Analysis.variants`);
- the placeholders: ``draws`` Latin-hypercube draws moving every assumed numeric catalog
  value a declared range covers, all at once (:func:`sims.core.readings.latin_hypercube`).

Every rerun is a run of the store on the baseline's seed and N, so variants meet the
same dice (common random numbers), an interrupted pass resumes where it stopped, and a
second pass over the same catalog costs only the reading of its rows. ``budget`` (seconds)
stops starting reruns once the time is spent; what was not run is reported as not checked.
Names no game.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.flags import load_limits
from analysis.plugin import get_analysis
from analysis.verdicts import VARIANT_KINDS, Outcome, RunRows, Variant, Verdict
from sims.core import readings as rd
from sims.core import store as store_io
from sims.core.catalog import CatalogError
from sims.core.protocol import Game, InputError, get_game
from sims.core.runner import catalog_hash, plan_run, simulate

DEFAULT_N = 16_000  # games per run: a quarter of the report's, so a pass fits a budget
DEFAULT_BUDGET = 300.0  # seconds
PLACEHOLDER_SEED = 20_261_202  # the Latin hypercube's own seed (not the runs')
KIND_WORDS = {
    "seat": ("seat", "both seats"),
    "reading": ("reading alternative", "reading alternatives"),
    "policy": ("policy", "policies"),
    "end": ("map end", "map ends"),
    "sample": ("sampled list", "sampled lists"),
    "placeholder": ("placeholder draw", "placeholder draws"),
}


@dataclass(frozen=True)
class Check:
    """One verdict under one variant: its outcome, and whether it is the same verdict
    (``holds``: None when it could not be checked: ``status`` says why)."""

    verdict: str
    variant: str
    kind: str
    status: str  # "checked", "unchecked" (budget), "invalid" (the variant does not load)
    holds: bool | None = None
    label: str = ""
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    text: str = ""


@dataclass(frozen=True)
class Tag:
    """A verdict's robustness: ``status`` robust | fragile | unconfirmed (it held where
    checked, but not every variant was checked) | unchecked; ``words`` the tag a page
    prints beside the headline."""

    verdict: str
    claim: str
    kind: str
    base: Outcome
    status: str
    words: str
    flips: tuple[Check, ...] = ()
    moved_by: tuple[tuple[str, float], ...] = ()  # placeholders most correlated with the value


@dataclass
class RobustResult:
    game: str
    n: int
    seed: int
    sets: dict[str, Any]
    catalog: str  # the catalog's content hash (the page uses a result of its own catalog)
    budget: float | None
    seconds: float
    variants: list[Variant]
    tags: list[Tag]
    checks: list[Check]
    placeholder_draws: list[dict[str, int]] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)  # verdict ids checked

    def tag(self, verdict_id: str) -> Tag | None:
        return next((t for t in self.tags if t.verdict == verdict_id), None)

    @property
    def complete(self) -> bool:
        return not any(c.status == "unchecked" for c in self.checks)

    def verdict_checks(self, verdict_id: str) -> pl.DataFrame:
        """One verdict's checks (a notebook's table): each variant, whether the verdict
        holds there, and what it reads instead."""
        return (
            self.checks_frame()
            .filter(pl.col("verdict") == verdict_id)
            .select("variant", "kind", "status", "holds", "label", "value", "low", "high", "text")
        )

    def checks_frame(self) -> pl.DataFrame:
        rows = [asdict(c) for c in self.checks]
        schema = {
            "verdict": pl.String,
            "variant": pl.String,
            "kind": pl.String,
            "status": pl.String,
            "holds": pl.Boolean,
            "label": pl.String,
            "value": pl.Float64,
            "low": pl.Float64,
            "high": pl.Float64,
            "text": pl.String,
        }
        return pl.DataFrame(rows, schema=schema)

    def tags_frame(self) -> pl.DataFrame:
        return pl.DataFrame(
            [
                {
                    "verdict": t.verdict,
                    "claim": t.claim,
                    "kind": t.kind,
                    "label": t.base.label,
                    "value": t.base.value,
                    "low": t.base.low,
                    "high": t.base.high,
                    "status": t.status,
                    "tag": t.words,
                }
                for t in self.tags
            ],
            schema={
                "verdict": pl.String,
                "claim": pl.String,
                "kind": pl.String,
                "label": pl.String,
                "value": pl.Float64,
                "low": pl.Float64,
                "high": pl.Float64,
                "status": pl.String,
                "tag": pl.String,
            },
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "n": self.n,
            "seed": self.seed,
            "sets": self.sets,
            "catalog": self.catalog,
            "budget": self.budget,
            "seconds": round(self.seconds, 1),
            "complete": self.complete,
            "headlines": self.headlines,
            "variants": [asdict(v) for v in self.variants],
            "placeholder_draws": self.placeholder_draws,
            "tags": [
                {**asdict(t), "base": asdict(t.base), "flips": [asdict(c) for c in t.flips]}
                for t in self.tags
            ],
            "checks": [asdict(c) for c in self.checks],
        }


def from_json(doc: Mapping[str, Any]) -> RobustResult:
    """A result written by :func:`write` (the report reads the latest pass back)."""
    tags = [
        Tag(
            t["verdict"],
            t["claim"],
            t["kind"],
            Outcome(**t["base"]),
            t["status"],
            t["words"],
            tuple(Check(**c) for c in t["flips"]),
            tuple(tuple(m) for m in t.get("moved_by") or ()),
        )
        for t in doc["tags"]
    ]
    return RobustResult(
        doc["game"],
        doc["n"],
        doc["seed"],
        dict(doc["sets"]),
        doc["catalog"],
        doc["budget"],
        doc["seconds"],
        [Variant(**{**v, "experiments": _tuple(v.get("experiments"))}) for v in doc["variants"]],
        tags,
        [Check(**c) for c in doc["checks"]],
        list(doc.get("placeholder_draws") or []),
        list(doc.get("headlines") or []),
    )


def _tuple(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


# ---- the variants --------------------------------------------------------------------------


def reading_variants(readings: rd.Readings) -> list[Variant]:
    """One variant per alternative of every switchable reading."""
    out = []
    for r in readings.readings:
        for alt in r.alternatives:
            meaning = r.meaning(alt)
            out.append(
                Variant(
                    f"{r.parameter}={_text(alt)}",
                    "reading",
                    f"{r.title}: {_text(alt)}"
                    + (f" ({meaning})" if meaning else "")
                    + f" instead of {_text(r.taken)}",
                    sets={r.parameter: alt},
                )
            )
    return out


def placeholder_variants(
    readings: rd.Readings, catalog_root: Path, kind_files: Mapping[str, str], draws: int | None
) -> tuple[list[Variant], list[rd.Placeholder], list[dict[str, int]]]:
    items = rd.placeholders(readings, catalog_root, kind_files)
    count = readings.draws if draws is None else draws
    maps = rd.latin_hypercube(items, count, PLACEHOLDER_SEED)
    variants = [
        Variant(
            f"placeholders#{i + 1}",
            "placeholder",
            f"placeholder draw {i + 1} of {len(maps)}: {len(items)} assumed values moved at once",
            sets=m,
        )
        for i, m in enumerate(maps)
    ]
    return variants, items, maps


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def seat_variants() -> list[Variant]:
    return [
        Variant("seat=a", "seat", "the verdict read from seat a's games only", seat="a"),
        Variant("seat=b", "seat", "the verdict read from seat b's games only", seat="b"),
    ]


# ---- the pass ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Group:
    experiment: str
    options: tuple[tuple[str, Any], ...]
    share: int
    verdicts: tuple[Verdict, ...]


def _groups(verdicts: Sequence[Verdict]) -> list[_Group]:
    keyed: dict[tuple[str, tuple[tuple[str, Any], ...], int], list[Verdict]] = {}
    for v in verdicts:
        options = tuple(sorted((k, _hashable(x)) for k, x in v.options.items()))
        keyed.setdefault((v.experiment, options, v.share), []).append(v)
    return [_Group(e, o, share, tuple(vs)) for (e, o, share), vs in keyed.items()]


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _read_rows(
    store: Path,
    catalog_root: Path,
    sets: Mapping[str, Any],
    game: str,
    experiment: str,
    run_id: str,
):
    from analysis.query import connect

    con = connect(store, catalog=catalog_root, sets=sets, runs=[run_id])
    found = con.execute(
        "SELECT view FROM shown WHERE game = ? AND experiment = ?", [game, experiment]
    ).fetchall()
    view = str(found[0][0]) if found else experiment.replace("-", "_")
    return RunRows(con, view, run_id, experiment)


def _measure(verdict: Verdict, rows: RunRows, seat: str | None) -> Outcome:
    try:
        return verdict.measure(rows, seat)
    except Exception as e:  # a verdict that cannot be read from a variant's rows is a finding
        return Outcome("unreadable", math.nan, text=f"could not be read: {type(e).__name__}: {e}")


def robust(
    game: str,
    *,
    catalog_root: Path | str = "catalogs",
    store: Path | str = "data",
    n: int = DEFAULT_N,
    seed: int = 1,
    sets: Mapping[str, Any] | None = None,
    budget: float | None = DEFAULT_BUDGET,
    jobs: int = 1,
    draws: int | None = None,
    kinds: Sequence[str] = VARIANT_KINDS,
    progress: bool | None = None,
    announce: str | None = None,
) -> RobustResult:
    """Run the robustness pass of ``game`` (see the module doc) and classify each
    headline verdict. ``kinds`` limits the variants run (the rest count as not checked)."""
    start = time.perf_counter()
    root, store = Path(catalog_root), Path(store)
    sets = dict(sets or {})
    g: Game = get_game(game)
    analysis = get_analysis(game)
    if analysis is None or analysis.verdicts is None:
        raise InputError(f"{game} declares no verdicts (its analysis plugin has no verdicts=)")
    catalog = g.load_catalog(root, overrides=sets)
    limits_path = g.limits_path(root)
    limits = load_limits(limits_path, analysis.limits) if limits_path.is_file() else {}
    verdicts = list(analysis.verdicts(catalog, limits))
    readings = rd.load(root, game)
    groups = _groups(verdicts)

    def run(group: _Group, extra: Mapping[str, Any], options: Mapping[str, Any]) -> RunRows:
        outcome = simulate(
            game,
            group.experiment,
            n=max(n // group.share, 1),
            seed=seed,
            catalog_root=root,
            store_root=store,
            sets={**sets, **extra},
            options={**dict(group.options), **options},
            jobs=jobs,
            progress=False,
        )
        return _read_rows(
            store, root, {**sets, **extra}, game, group.experiment, outcome.plan.run_id
        )

    if announce:
        print(f"{announce}: {game} baseline ({len(groups)} run(s) of {n:,} games)", file=sys.stderr)
    base_rows = {id(gr): run(gr, {}, {}) for gr in groups}
    base = {v.id: _measure(v, base_rows[id(gr)], None) for gr in groups for v in gr.verdicts}
    headlines = [v for v in verdicts if v.headline(base[v.id])]
    heads = {v.id for v in headlines}
    spent_base = time.perf_counter() - start

    variants = seat_variants() if "seat" in kinds else []
    if "reading" in kinds:
        variants += reading_variants(readings)
    if analysis.variants is not None:
        variants += [v for v in analysis.variants(catalog) if v.kind in kinds]
    draws_made: list[dict[str, int]] = []
    items: list[rd.Placeholder] = []
    if "placeholder" in kinds:
        more, items, draws_made = placeholder_variants(readings, root, g.kind_files, draws)
        variants += more

    checks: list[Check] = []
    bar = _bar(len(variants), progress)
    cost = max(spent_base, 0.01)  # a rerun's cost, estimated from the baseline's
    try:
        for variant in variants:
            used = time.perf_counter() - start
            todo = [
                gr
                for gr in groups
                if any(variant.applies(v) and v.id in heads for v in gr.verdicts)
            ]
            fresh = variant.seat is None and not all(
                _stored(g, gr, n, seed, root, store, {**sets, **variant.sets}, variant.options)
                for gr in todo
            )
            if (
                fresh
                and budget is not None
                and used + cost * len(todo) / max(len(groups), 1) > budget
            ):
                checks += _skipped(
                    variant, todo, heads, "unchecked", "the budget ran out before this variant"
                )
                _tick(bar)
                continue
            t0 = time.perf_counter()
            for gr in todo:
                try:
                    rows = (
                        base_rows[id(gr)]
                        if variant.seat is not None
                        else run(gr, variant.sets, variant.options)
                    )
                except (CatalogError, InputError) as e:
                    checks += _skipped(variant, [gr], heads, "invalid", str(e))
                    continue
                for v in gr.verdicts:
                    if v.id not in heads or not variant.applies(v):
                        continue
                    o = _measure(v, rows, variant.seat)
                    checks.append(
                        Check(
                            v.id,
                            variant.id,
                            variant.kind,
                            "checked",
                            bool(v.same(base[v.id], o)),
                            o.label,
                            o.value,
                            o.low,
                            o.high,
                            o.text,
                        )
                    )
            if fresh:
                cost = max(cost, time.perf_counter() - t0)
            _tick(bar)
    finally:
        if bar is not None:
            bar.close()
        for rows in base_rows.values():
            rows.con.close()

    tags = [_classify(v, base[v.id], checks, variants, items, draws_made) for v in headlines]
    return RobustResult(
        game,
        n,
        seed,
        sets,
        catalog_hash(root, game),
        budget,
        time.perf_counter() - start,
        variants,
        tags,
        checks,
        draws_made,
        [v.id for v in headlines],
    )


def _stored(
    g: Game,
    gr: _Group,
    n: int,
    seed: int,
    root: Path,
    store: Path,
    sets: Mapping[str, Any],
    options: Mapping[str, Any],
) -> bool:
    """Whether the run is finished in the store already (a resumed pass costs nothing)."""
    try:
        plan = plan_run(
            g.name,
            gr.experiment,
            n=max(n // gr.share, 1),
            seed=seed,
            catalog_root=root,
            sets=dict(sets),
            sweeps={},
            options={**dict(gr.options), **options},
            engine="vector",
            store_root=store,
        )
    except (CatalogError, InputError):
        return True  # it will fail at once: no cost
    return bool((store_io.read_manifest(plan.folder) or {}).get("complete"))


def _skipped(
    variant: Variant, groups: Sequence[_Group], heads: set[str], status: str, why: str
) -> list[Check]:
    return [
        Check(v.id, variant.id, variant.kind, status, None, text=why)
        for gr in groups
        for v in gr.verdicts
        if v.id in heads and variant.applies(v)
    ]


def _bar(total: int, progress: bool | None) -> Any:
    show = sys.stderr.isatty() if progress is None else progress
    if not show or not total:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="variant", file=sys.stderr, desc="robust")


def _tick(bar: Any) -> None:
    if bar is not None:
        bar.update(1)


# ---- classification ---------------------------------------------------------------------


def _count_words(counter: Counter[str]) -> str:
    parts = []
    for kind in VARIANT_KINDS:
        k = counter.get(kind, 0)
        if not k:
            continue
        one, many = KIND_WORDS[kind]
        parts.append(many if kind == "seat" and k == 2 else f"{k} {one if k == 1 else many}")
    if not parts:
        return "no variant"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _fmt(value: float, unit: str = "share") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{100 * value:.1f}%" if unit == "share" else f"{value:+.2f}"


def _classify(
    verdict: Verdict,
    base: Outcome,
    checks: Sequence[Check],
    variants: Sequence[Variant],
    items: Sequence[rd.Placeholder],
    draws: Sequence[Mapping[str, int]],
) -> Tag:
    mine = [c for c in checks if c.verdict == verdict.id]
    done = [c for c in mine if c.status == "checked"]
    flips = tuple(c for c in done if c.holds is False)
    unchecked = [c for c in mine if c.status == "unchecked"]
    invalid = [c for c in mine if c.status == "invalid"]
    held = Counter(c.kind for c in done if c.holds)
    moved = _moved_by(verdict.id, mine, items, draws)
    if not done:
        status, words = (
            "unchecked",
            "not checked: "
            + ("the budget ran out before any variant" if unchecked else "no variant applies"),
        )
    elif flips:
        named = [c for c in flips if c.kind != "placeholder"]
        ph = [c for c in flips if c.kind == "placeholder"]
        # every variant that flips it, named with the verdict it gives instead (the
        # sentences are on the robustness page and in the checks CSV)
        parts = [f"{c.variant} ({c.label}, {_fmt(c.value, verdict.unit)})" for c in named]
        if ph:
            total = sum(1 for c in done if c.kind == "placeholder")
            lead = f"; most moved by {moved[0][0]} (r = {moved[0][1]:+.2f})" if moved else ""
            parts.append(f"the placeholders ({len(ph)} of {total} draws flip it{lead})")
        status, words = "fragile", "fragile: depends on " + "; ".join(parts)
        if held:
            words += f"; holds under {_count_words(held)}"
    elif unchecked:
        status = "unconfirmed"
        words = (
            f"holds where checked ({_count_words(held)}); "
            f"{len({c.variant for c in unchecked})} variants not checked (budget)"
        )
    else:
        total = sum(held.values())
        status = "robust"
        words = f"robust: holds under all {total} variants ({_count_words(held)})"
    if invalid:
        words += f" ({len({c.variant for c in invalid})} variants did not load)"
    return Tag(verdict.id, verdict.claim, verdict.kind, base, status, words, flips, moved)


def _moved_by(
    verdict_id: str,
    checks: Sequence[Check],
    items: Sequence[rd.Placeholder],
    draws: Sequence[Mapping[str, int]],
) -> tuple[tuple[str, float], ...]:
    """The placeholders whose drawn values correlate most with the verdict's number over
    the draws (Pearson r, strongest first, |r| >= 0.3): what to pin down first."""
    by_draw = {
        c.variant: c.value for c in checks if c.kind == "placeholder" and c.status == "checked"
    }
    idx = [i for i in range(len(draws)) if f"placeholders#{i + 1}" in by_draw]
    if len(idx) < 6:  # too few draws to say which value moves it
        return ()
    y = np.array([by_draw[f"placeholders#{i + 1}"] for i in idx], dtype=float)
    if not np.isfinite(y).all() or y.std() == 0:
        return ()
    out = []
    for p in items:
        x = np.array([draws[i][p.name] for i in idx], dtype=float)
        if x.std() == 0:
            continue
        r = float(np.corrcoef(x, y)[0, 1])
        if abs(r) >= 0.3:
            out.append((p.name, round(r, 3)))
    return tuple(sorted(out, key=lambda t: -abs(t[1]))[:5])


# ---- files -------------------------------------------------------------------------------


def result_path(reports: Path | str, game: str) -> Path:
    return Path(reports) / "robust" / f"{game}.json"


def write(result: RobustResult, reports: Path | str) -> dict[str, Path]:
    """``reports/robust/GAME.json`` (what the report reads back), ``GAME-checks.csv`` and
    ``GAME-tags.csv`` (to take away), ``reports/robust-GAME.html`` (the page)."""
    from analysis.robust_page import write_page

    folder = Path(reports) / "robust"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": store_io.write_text(
            result_path(reports, result.game), json.dumps(result.to_json(), indent=1, default=str)
        ),
        "checks": folder / f"{result.game}-checks.csv",
        "tags": folder / f"{result.game}-tags.csv",
    }
    result.checks_frame().write_csv(paths["checks"])
    result.tags_frame().write_csv(paths["tags"])
    paths["page"] = write_page(result, Path(reports))
    return paths


def latest(
    reports: Path | str, game: str, catalog_root: Path | str, sets: Mapping[str, Any]
) -> RobustResult | None:
    """The pass last written for ``game`` if it was made from this catalog and these
    --set edits (else None: a page never tags its verdicts from another catalog)."""
    path = result_path(reports, game)
    if not path.is_file():
        return None
    try:
        result = from_json(json.loads(path.read_text()))
    except (ValueError, KeyError, TypeError):
        return None
    if result.catalog != catalog_hash(Path(catalog_root), game) or result.sets != dict(sets):
        return None
    return result
