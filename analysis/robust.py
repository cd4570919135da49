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
The result, its files and the report's reading back: :mod:`analysis.robust_result`;
the tags' words: :mod:`analysis.robust_tags`. Names no game.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from analysis.flags import load_limits
from analysis.plugin import get_analysis
from analysis.robust_result import RobustResult, from_json, latest, result_path, write
from analysis.robust_tags import Check, Tag, classify
from analysis.verdicts import VARIANT_KINDS, Outcome, RunRows, Variant, Verdict
from sims.core import readings as rd
from sims.core import store as store_io
from sims.core.catalog import CatalogError
from sims.core.protocol import Game, InputError, get_game
from sims.core.runner import catalog_hash, plan_run, simulate

DEFAULT_N = 16_000  # games per run: a quarter of the report's, so a pass fits a budget
DEFAULT_BUDGET = 300.0  # seconds
PLACEHOLDER_SEED = 20_261_202  # the Latin hypercube's own seed (not the runs')
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
            fresh = not variant.rereads and not all(
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
                    if variant.rereads:
                        stand_in = tuple(sorted(variant.stand_in.items()))
                        rows = replace(base_rows[id(gr)], stand_in=stand_in)
                    else:
                        rows = run(gr, variant.sets, variant.options)
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
                if not variant.rereads:  # a rerun's own connection: the baseline's stays open
                    rows.con.close()
            if fresh:
                cost = max(cost, time.perf_counter() - t0)
            _tick(bar)
    finally:
        if bar is not None:
            bar.close()
        for rows in base_rows.values():
            rows.con.close()

    tags = [classify(v, base[v.id], checks, variants, items, draws_made) for v in headlines]
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


__all__ = [
    "Check",
    "RobustResult",
    "Tag",
    "classify",
    "from_json",
    "latest",
    "result_path",
    "robust",
    "write",
]
