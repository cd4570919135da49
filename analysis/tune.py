"""``mechbal tune GAME --param NAME[=LO..HI] ... --target TARGET ...``: the parameter
values that bring a game's metrics closest to what the designer wants.

Parameters. A rules parameter by name (its declared tuning range from the game's
parameters dataclass, ``sims.core.params``, unless ``=LO..HI`` narrows it) or a catalog
field path ``KIND.ID.FIELD=LO..HI`` (a range is required); integers only. Every
candidate is the catalog loaded with the ``--set`` edits plus the candidate's values,
exactly as ``--set`` applies them.

Targets. ``METRIC(FILTER=VALUE, ...) ~ VALUE`` (as close as possible; VALUE a number, a
fraction ``1/3`` or a percentage ``40%``) or ``METRIC(...) in LO..HI`` (anywhere inside
the range). The metrics are the game's (``Game.targets``, listed by ``mechbal tune GAME
--list``, :mod:`sims.core.targets`): exact ones are computed from the candidate's
catalog, simulated ones run the game's experiment with N games on the same seed for
every candidate (common random numbers: candidates differ by the rules, not by luck)
into the store, where a later tune finds them again (``--temp-store``: a temporary
store, removed afterwards). A filter given ``*`` gives an estimate per value, and each
must meet the goal; an omitted filter is pooled over every value (or takes the default
the metric declares).

Objective (lower is better, 0 when every goal is met): the sum over targets of the
target's miss relative to the goal's size: miss = |estimate - VALUE| for ``~`` and the
distance outside LO..HI for ``in``, averaged over the target's estimates (``*`` keys),
divided by the goal's value scale (|VALUE|, or the larger of |LO| and |HI|; 1 when
that is 0). So a miss of a tenth of the goal counts 0.1 whatever the metric's unit, and
each ``--target`` weighs the same. Simulated estimates enter as they are (their 95%
intervals are reported beside them, not folded in); with common random numbers the
noise shifts every candidate alike, so a ranking is steadier than the intervals suggest.

Search. One or two parameters: the full grid (every integer in each range), refused when
it holds more than ``--budget`` candidates. More: SciPy's differential evolution with
integrality (seeded with ``--seed``, the catalog's own setting among the first
population), stopped after ``--budget`` distinct candidates or once every goal is met.
Ties go to the candidate that moves the parameters least from the catalog's values (in
range widths), then to the lowest values. Sensitivity: from the best setting, each parameter
moved alone to the low and the high end of its range, every target re-estimated.

Output: the best setting and each target reached (with its 95% interval when simulated)
on the terminal, and ``OUT/tune-GAME.html`` (default OUT ``reports``): the best setting,
the targets reached, every candidate evaluated (a table and the objective against each
parameter's value) and a sensitivity (tornado) chart; offline, one self-contained page.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import itertools
import math
import re
import shlex
import sys
import tempfile
import textwrap
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from analysis.args import UserError, _assignments, _catalog_and_set_flags
from analysis.readings import Z95
from sims.core.catalog import CatalogError, load_toml
from sims.core.params import specs
from sims.core.protocol import Game, get_game
from sims.core.targets import ALL, Estimate, Target, check_filters

if TYPE_CHECKING:  # the page's modules load when a page is made: every command imports this
    import altair as alt

RANGE_RE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
TARGET_RE = re.compile(
    r"^\s*(?P<metric>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\((?P<args>[^()]*)\))?\s*"
    r"(?:(?P<near>~)\s*(?P<value>\S.*?)|(?P<inside>in)\s+(?P<range>\S.*?))\s*$"
)
DEFAULT_N = 4_000
DEFAULT_BUDGET = 200


# ---- what is tuned, toward what ------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One tuned parameter: a rules parameter or a catalog field path, its integer range,
    and its value in the catalog (None where a field's value cannot be read)."""

    name: str
    low: int
    high: int
    current: int | None = None

    @property
    def values(self) -> range:
        return range(self.low, self.high + 1)


@dataclass(frozen=True)
class Goal:
    """One ``--target``: the metric, its filters (defaults filled in), and the goal."""

    text: str  # as the report writes it
    metric: str
    filters: Mapping[str, str]
    target: Target
    value: Fraction | None = None  # ~ VALUE
    low: Fraction | None = None  # in LO..HI
    high: Fraction | None = None
    typed: str = ""  # the goal's numbers as typed: 1/3, 0.4..0.6

    @property
    def goal_text(self) -> str:
        return f"~ {self.typed}" if self.value is not None else f"in {self.typed}"

    @property
    def scale(self) -> float:
        """The goal's size: what a miss is measured against."""
        size = abs(self.value) if self.value is not None else max(abs(self.low), abs(self.high))
        return float(size) or 1.0

    def miss(self, x: float) -> float:
        if self.value is not None:
            return abs(x - float(self.value))
        return max(float(self.low) - x, 0.0, x - float(self.high))

    def bounds(self) -> tuple[float, float]:
        if self.value is not None:
            return float(self.value), float(self.value)
        return float(self.low), float(self.high)


def parse_number(text: str, where: str) -> Fraction:
    """``0.4``, ``1/3``, ``40%`` or ``2`` as an exact fraction; anything else one line."""
    body = text.strip()
    percent = body.endswith("%")
    try:
        value = Fraction(body[:-1].strip() if percent else body)
    except (ValueError, ZeroDivisionError):
        raise UserError(
            f"{where}: {text.strip()!r} is not a number (like 0.4, 1/3 or 40%)"
        ) from None
    return value / 100 if percent else value


def parse_goal(text: str, game: Game, catalog: Any) -> Goal:
    """One ``--target`` checked against the game's metrics and the catalog's values."""
    where = f"--target {text.strip()!r}"
    m = TARGET_RE.match(text)
    if not m:
        raise UserError(
            f"{where}: expected METRIC(FILTER=VALUE, ...) ~ VALUE or METRIC(...) in LO..HI"
        )
    metric = m["metric"]
    if metric not in game.targets:
        known = ", ".join(game.targets) or "none"
        raise UserError(
            f"{where}: unknown metric {metric!r} for {game.name} (known: {known}; "
            f"mechbal tune {game.name} --list)"
        )
    target = game.targets[metric]
    given: dict[str, str] = {}
    for item in (m["args"] or "").split(","):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise UserError(f"{where}: expected FILTER=VALUE, got {item.strip()!r}")
        if name in given:
            raise UserError(f"{where}: filter {name!r} given twice")
        given[name] = value
    merged = {**target.defaults, **given}
    try:
        check_filters(metric, target, merged, catalog)
    except ValueError as exc:
        raise UserError(f"{where}: {exc}") from None
    filters = {name: merged[name] for name in target.filters if name in merged}
    shown = ", ".join(f"{k}={v}" for k, v in filters.items())
    if m["near"]:
        value = parse_number(m["value"], where)
        goal = Goal("", metric, filters, target, value=value, typed=m["value"].strip())
    else:
        bits = m["range"].split("..")
        if len(bits) != 2:
            raise UserError(f"{where}: expected a range LO..HI, got {m['range']!r}")
        low, high = (parse_number(b, where) for b in bits)
        if low > high:
            raise UserError(f"{where}: the range {m['range']} runs backwards (LO above HI)")
        typed = "..".join(b.strip() for b in bits)
        goal = Goal("", metric, filters, target, low=low, high=high, typed=typed)
    return replace(goal, text=f"{metric}({shown}) {goal.goal_text}")


def parse_param(
    text: str, game: Game, catalog_root: Path, catalog: Any, sets: Mapping[str, Any]
) -> Param:
    """One ``--param NAME[=LO..HI]`` checked: a known integer rules parameter (its declared
    range unless given, the given one within it) or a catalog field path with a range,
    the catalog loading at both ends."""
    name, sep, span = text.partition("=")
    name = name.strip()
    where = f"--param {text.strip()}"
    if not name:
        raise UserError(f"{where}: expected NAME or NAME=LO..HI")
    bounds = None
    if sep:
        m = RANGE_RE.match(span)
        if not m:
            raise UserError(f"{where}: expected a range of integers LO..HI, got {span.strip()!r}")
        bounds = int(m[1]), int(m[2])
        if bounds[0] > bounds[1]:
            raise UserError(f"{where}: the range runs backwards (LO above HI)")
    if name in sets:
        raise UserError(f"{where}: {name} is also given by --set; tune it or set it, not both")
    table = specs(type(catalog.params))
    if "." not in name:
        if name not in table:
            ints = [k for k, s in table.items() if _integer(s)]
            raise UserError(
                f"{where}: unknown rules parameter {name!r} of {game.name} "
                f"(integer ones: {', '.join(ints)})"
            )
        spec = table[name]
        if not _integer(spec):
            raise UserError(
                f"{where}: {name} is not an integer parameter (tune searches "
                "integers; try --set for each value)"
            )
        declared = (spec.low, spec.high)
        if bounds is None:
            if None in declared:
                raise UserError(
                    f"{where}: {name} declares no tuning range; give one (--param {name}=LO..HI)"
                )
            bounds = declared  # type: ignore[assignment]
        elif (spec.low is not None and bounds[0] < spec.low) or (
            spec.high is not None and bounds[1] > spec.high
        ):
            raise UserError(f"{where}: outside {name}'s tuning range {spec.low}..{spec.high}")
        current = getattr(catalog.params, name)
        return Param(name, bounds[0], bounds[1], current)
    if len(name.split(".")) != 3:
        raise UserError(f"{where}: {name!r} is neither a rules parameter nor KIND.ID.FIELD")
    if bounds is None:
        raise UserError(f"{where}: a catalog field needs a range (--param {name}=LO..HI)")
    for end in dict.fromkeys(bounds):  # the catalog must load at both ends
        try:
            game.load_catalog(catalog_root, overrides={**sets, name: end})
        except CatalogError as exc:
            raise UserError(
                f"--param {name}={end}: {exc.message if exc.path == '--set' else exc}"
            ) from None
    return Param(name, bounds[0], bounds[1], _field_value(Path(catalog.root), name))


def _field_value(folder: Path, name: str) -> int | None:
    """The value a field path ``KIND.ID.FIELD`` holds in the game's catalog files (the
    ``[[KIND]]`` entry with that id), when it is an integer; None when not found."""
    kind, ident, field_name = name.split(".")
    for path in sorted(folder.rglob("*.toml")):
        try:
            doc = load_toml(path)
        except CatalogError:
            continue
        for entry in doc.get(kind) or []:
            if isinstance(entry, dict) and entry.get("id") == ident:
                value = entry.get(field_name)
                ok = isinstance(value, int) and not isinstance(value, bool)
                return value if ok else None
    return None


def _integer(spec: Any) -> bool:
    return spec.choices is None and not spec.dice_list


# ---- evaluating candidates -------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One target at one candidate: its estimates and its term of the objective."""

    goal: Goal
    estimates: tuple[Estimate, ...]

    @property
    def miss(self) -> float:
        """The mean miss over the estimates (every ``*`` key must meet the goal)."""
        return sum(self.goal.miss(e.value) for e in self.estimates) / len(self.estimates)

    @property
    def term(self) -> float:
        return self.miss / self.goal.scale


@dataclass(frozen=True)
class Candidate:
    setting: Mapping[str, int]
    readings: tuple[Reading, ...]
    seconds: float
    order: int  # evaluation number, from 1

    @property
    def objective(self) -> float:
        return sum(r.term for r in self.readings)

    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.setting.items())


class _Spent(Exception):
    """The budget of distinct candidates is used up (stops the evolutionary search)."""


@dataclass
class Evaluator:
    """Evaluates candidates once each (a cache by setting), every target on the catalog
    loaded with the ``--set`` edits plus the candidate."""

    game: Game
    catalog_root: Path
    sets: Mapping[str, Any]
    goals: Sequence[Goal]
    n: int
    seed: int
    jobs: int
    store: Path
    budget: int | None = None
    progress: bool = False
    cache: dict[tuple[tuple[str, int], ...], Candidate] = field(default_factory=dict)

    def __call__(self, setting: Mapping[str, int]) -> Candidate:
        key = tuple(setting.items())
        if key in self.cache:
            return self.cache[key]
        if self.budget is not None and len(self.cache) >= self.budget:
            raise _Spent
        start = time.perf_counter()
        catalog = self.game.load_catalog(self.catalog_root, overrides={**self.sets, **setting})
        readings = []
        for goal in self.goals:
            estimates = goal.target.estimate(
                catalog, goal.filters, self.n, self.seed, self.jobs, self.store
            )
            readings.append(Reading(goal, tuple(estimates)))
        cand = Candidate(
            dict(setting), tuple(readings), time.perf_counter() - start, len(self.cache) + 1
        )
        self.cache[key] = cand
        if self.progress:
            print(
                f"tune: candidate {cand.order} ({cand.label()}): objective "
                f"{cand.objective:.4g} ({cand.seconds:.1f} s)",
                file=sys.stderr,
            )
        return cand


def _change(params: Sequence[Param], cand: Candidate) -> float:
    """How far a candidate moves the parameters from the catalog, in range widths."""
    return sum(
        abs(cand.setting[p.name] - p.current) / max(p.high - p.low, 1)
        for p in params
        if p.current is not None
    )


def _rank(params: Sequence[Param], cand: Candidate) -> tuple[Any, ...]:
    return (round(cand.objective, 12), _change(params, cand), tuple(cand.setting.values()))


def grid_search(params: Sequence[Param], evaluate: Evaluator) -> None:
    for combo in itertools.product(*(p.values for p in params)):
        evaluate(dict(zip((p.name for p in params), combo, strict=True)))


def evolve(params: Sequence[Param], evaluate: Evaluator, seed: int, budget: int) -> None:
    """SciPy's differential evolution over the integer box, until ``budget`` distinct
    candidates are spent or the population converges."""
    import numpy as np
    from scipy.optimize import differential_evolution

    names = [p.name for p in params]

    def objective(x: np.ndarray) -> float:
        setting = {
            p.name: int(min(max(round(float(v)), p.low), p.high))
            for p, v in zip(params, x, strict=True)
        }
        return evaluate(setting).objective

    d = len(params)
    popsize = max(4, min(15, budget // (4 * d)))
    start = None
    if all(p.current is not None and p.low <= p.current <= p.high for p in params):
        start = [p.current for p in params]  # the catalog's own setting is one candidate

    def met(*_: Any, **__: Any) -> bool:  # every goal met: nothing left to gain
        return min(c.objective for c in evaluate.cache.values()) == 0

    try:
        differential_evolution(
            objective,
            [(p.low, p.high) for p in params],
            integrality=[True] * d,
            seed=seed,
            popsize=popsize,
            maxiter=10_000,
            polish=False,
            init="latinhypercube",
            x0=start,
            callback=met,
        )
    except _Spent:
        pass
    if not evaluate.cache:  # (cannot happen with a budget of 1 or more)
        raise UserError(f"tune: nothing evaluated for {', '.join(names)}")


# ---- the whole tune -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sensitivity:
    param: Param
    end: str  # "low" | "high"
    candidate: Candidate


@dataclass(frozen=True)
class TuneResult:
    game: Game
    params: tuple[Param, ...]
    goals: tuple[Goal, ...]
    method: str  # "grid" | "differential evolution"
    candidates: tuple[Candidate, ...]  # in evaluation order (search only)
    best: Candidate
    sensitivity: tuple[Sensitivity, ...]
    n: int
    seed: int
    sets: Mapping[str, Any]
    catalog_root: Path
    store: Path | None  # None: a temporary store
    seconds: float
    page: Path | None = None

    @property
    def simulated(self) -> bool:
        return any(not g.target.exact for g in self.goals)


def tune(
    game_name: str,
    params: Sequence[str],
    targets: Sequence[str],
    *,
    catalog_root: Path | str = "catalogs",
    sets: Mapping[str, Any] | None = None,
    n: int = DEFAULT_N,
    seed: int = 1,
    jobs: int = 1,
    budget: int = DEFAULT_BUDGET,
    store: Path | str | None = "data",
    out: Path | str | None = "reports",
    progress: bool = False,
    command: str = "",
) -> TuneResult:
    """``mechbal tune`` from Python: everything is checked before anything runs or is
    written; ``store=None`` uses a temporary store; ``out=None`` writes no page."""
    game = get_game(game_name)
    catalog_root = Path(catalog_root)
    sets = dict(sets or {})
    if not game.targets:
        raise UserError(f"tune: {game.name} declares no targets")
    if not params:
        raise UserError("tune needs at least one --param NAME[=LO..HI]")
    if not targets:
        raise UserError(f"tune needs at least one --target (mechbal tune {game.name} --list)")
    if n < 1 or jobs < 1 or budget < 1:
        raise UserError("--n, --jobs and --budget must be at least 1")
    if seed < 0:
        raise UserError(f"--seed must be 0 or more, got {seed}")
    catalog = game.load_catalog(catalog_root, overrides=sets)
    tuned = [parse_param(p, game, catalog_root, catalog, sets) for p in params]
    names = [p.name for p in tuned]
    if len(set(names)) != len(names):
        twice = next(x for x in names if names.count(x) > 1)
        raise UserError(f"--param {twice} is given twice")
    goals = [parse_goal(t, game, catalog) for t in targets]
    grid = len(tuned) <= 2
    size = math.prod(len(p.values) for p in tuned)
    if grid and size > budget:
        raise UserError(
            f"tune: the grid holds {size:,} candidates, more than --budget {budget} "
            "(narrow the ranges or raise --budget)"
        )
    if out is not None:
        from analysis.report import writable_folder

        writable_folder(Path(out), "--out")
    start = time.perf_counter()
    temporary = tempfile.TemporaryDirectory(prefix="mechbal-tune-") if store is None else None
    with temporary or contextlib.nullcontext(str(store)) as where:
        root = Path(where)
        slow = not all(g.target.exact for g in goals)  # say each simulated candidate
        evaluate = Evaluator(
            game,
            catalog_root,
            sets,
            goals,
            n,
            seed,
            jobs,
            root,
            budget=None if grid else budget,
            progress=progress and slow,
        )
        if grid:
            grid_search(tuned, evaluate)
        else:
            evolve(tuned, evaluate, seed, budget)
        searched = tuple(evaluate.cache.values())
        best = min(searched, key=lambda c: _rank(tuned, c))
        evaluate.budget = None  # the sensitivity runs beyond the search's budget
        sens = []
        for p in tuned:
            for end, value in (("low", p.low), ("high", p.high)):
                sens.append(Sensitivity(p, end, evaluate({**best.setting, p.name: value})))
    result = TuneResult(
        game,
        tuple(tuned),
        tuple(goals),
        "grid" if grid else "differential evolution",
        searched,
        best,
        tuple(sens),
        n,
        seed,
        sets,
        catalog_root,
        None if store is None else Path(store),
        time.perf_counter() - start,
    )
    if out is not None:
        from analysis.html import write_page

        path = Path(out) / f"tune-{game.name}.html"
        write_page(path, tune_page(result, command))
        result = replace(result, page=path)
    return result


# ---- words and numbers ---------------------------------------------------------------------------


def _key_text(key: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in key.items())


def _value(x: float) -> str:
    return f"{x:.4f}" if abs(x) < 10 else f"{x:.2f}"


def estimate_text(e: Estimate) -> str:
    """``0.3664 (exact)`` or ``0.412 (95% 0.398..0.426, N 4,000)``."""
    if e.n == 0 and e.se == 0:
        return f"{_value(e.value)} (exact)"
    low, high = e.value - Z95 * e.se, e.value + Z95 * e.se
    return f"{_value(e.value)} (95% {_value(low)}..{_value(high)}, N {e.n:,})"


def _status(goal: Goal, e: Estimate) -> str:
    """How the estimate stands to the goal; a miss the noise could explain says so."""
    miss = goal.miss(e.value)
    if miss == 0:
        return "inside" if goal.value is None else "exact hit"
    if goal.value is None:
        text = f"{'below' if e.value < float(goal.low) else 'above'} by {_value(miss)}"
    else:
        text = f"off by {_value(miss)}"
    return text + (" (within the 95% interval)" if e.se and miss <= Z95 * e.se else "")


def target_rows(cand: Candidate) -> list[dict[str, Any]]:
    rows = []
    for r in cand.readings:
        for e in r.estimates:
            low, high = e.value - Z95 * e.se, e.value + Z95 * e.se
            rows.append(
                {
                    "target": r.goal.text,
                    "key": _key_text(e.key) or "(pooled)",
                    "goal": r.goal.goal_text,
                    "estimate": e.value,
                    "low": low if e.se or e.n else None,
                    "high": high if e.se or e.n else None,
                    "games": e.n or None,
                    "reached": _status(r.goal, e),
                    "term": r.term,
                }
            )
    return rows


def summary_lines(result: TuneResult) -> list[str]:
    best = result.best
    lines = [
        f"best of {len(result.candidates)} candidates ({result.method}): {best.label()}"
        f"  (objective {best.objective:.4g})"
    ]
    for p in result.params:
        shipped = f", catalog {p.current}" if p.current is not None else ""
        lines.append(f"  {p.name} = {best.setting[p.name]}  (range {p.low}..{p.high}{shipped})")
    for r in best.readings:
        lines.append(f"  {r.goal.text}:")
        for e in r.estimates:
            key = _key_text(e.key)
            lines.append(f"    {key + ': ' if key else ''}{estimate_text(e)}  {_status(r.goal, e)}")
    return lines


# ---- the page -----------------------------------------------------------------------------------


def candidates_frame(result: TuneResult) -> pl.DataFrame:
    rows = []
    for c in result.candidates:
        row: dict[str, Any] = {"candidate": c.order, **c.setting, "objective": c.objective}
        for r in c.readings:
            for e in r.estimates:
                row[f"{r.goal.metric}({_key_text(e.key)})"] = e.value
        row["best"] = c is result.best
        row["seconds"] = round(c.seconds, 3)
        rows.append(row)
    return pl.DataFrame(rows).sort(["objective", *(p.name for p in result.params)])


def sensitivity_frame(result: TuneResult) -> pl.DataFrame:
    best = {
        (r.goal.text, _key_text(e.key)): e.value for r in result.best.readings for e in r.estimates
    }
    rows = []
    for s in result.sensitivity:
        for r in s.candidate.readings:
            goal_low, goal_high = r.goal.bounds()
            for e in r.estimates:
                key = _key_text(e.key)
                label = f"{r.goal.metric}({key})" if key else r.goal.metric
                rows.append(
                    {
                        "target": label,
                        "parameter": s.param.name,
                        "end": s.end,
                        "end_label": f"{s.end} ({s.candidate.setting[s.param.name]})",
                        "value": s.candidate.setting[s.param.name],
                        "estimate": e.value,
                        "best": best.get((r.goal.text, key), math.nan),
                        "goal_low": goal_low,
                        "goal_high": goal_high,
                        "objective": s.candidate.objective,
                    }
                )
    return pl.DataFrame(rows)


def _caption(result: TuneResult) -> str:
    from analysis.report import sets_text

    kind = (
        "simulated with common random numbers: N "
        f"{result.n:,} games per evaluation, "
        f"seed {result.seed} for every candidate"
        if result.simulated
        else "exact: computed from each candidate's catalog"
    )
    edits = f"; with {sets_text(result.sets)}" if result.sets else ""
    count = len(result.candidates)
    return f"{result.game.title}, {count} candidates ({result.method}), {kind}{edits}."


def objective_chart(result: TuneResult) -> alt.TopLevelMixin:
    import altair as alt

    from analysis.charts import title, values

    rows = []
    for c in result.candidates:
        for p in result.params:
            rows.append(
                {
                    "parameter": p.name,
                    "value": c.setting[p.name],
                    "objective": c.objective,
                    "candidate": c.label(),
                    "best": "best" if c is result.best else "other",
                }
            )
    rows.sort(key=lambda r: (r["parameter"], r["value"]))
    x = alt.X(
        "value:Q",
        title="parameter value",
        scale=alt.Scale(zero=False),
        axis=alt.Axis(tickMinStep=1, format="d"),
    )
    y = alt.Y("objective:Q", title="objective (sum of misses / goal size; 0 = every goal met)")
    tooltip = [
        alt.Tooltip("candidate:N", title="setting"),
        alt.Tooltip("objective:Q", format=".4g"),
    ]
    points = (
        alt.Chart()
        .mark_circle(size=70, opacity=0.8)
        .encode(
            x=x,
            y=y,
            tooltip=tooltip,
            color=alt.Color(
                "best:N",
                scale=alt.Scale(domain=["best", "other"], range=["#d62728", "#1f77b4"]),
                legend=alt.Legend(title=None),
            ),
        )
    )
    layers = [points]
    if len(result.params) == 1:
        layers.insert(0, alt.Chart().mark_line(color="#9ab").encode(x=x, y=y))
    chart = alt.layer(*layers, data=values(rows)).properties(width=320, height=220)
    return (
        chart.facet(column=alt.Column("parameter:N", title=None))
        .resolve_scale(x="independent")
        .properties(title=title("How close does each candidate come?", _caption(result)))
    )


def objective_map(result: TuneResult) -> alt.TopLevelMixin:
    """Two parameters: the objective of every candidate over the plane of their values."""
    import altair as alt

    from analysis.charts import title, values

    first, second = result.params
    rows = [
        {
            "x": c.setting[first.name],
            "y": c.setting[second.name],
            "objective": c.objective,
            "candidate": c.label(),
        }
        for c in result.candidates
    ]
    base = alt.Chart(values(rows)).encode(
        x=alt.X("x:O", title=first.name),
        y=alt.Y("y:O", title=second.name, sort="descending"),
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "objective:Q", scale=alt.Scale(scheme="viridis"), legend=alt.Legend(title="objective")
        ),
        tooltip=[
            alt.Tooltip("candidate:N", title="setting"),
            alt.Tooltip("objective:Q", format=".4g"),
        ],
    )
    best = base.transform_filter(
        (alt.datum.x == result.best.setting[first.name])
        & (alt.datum.y == result.best.setting[second.name])
    ).mark_text(text="best", color="white", fontWeight="bold")
    return (cells + best).properties(
        width=alt.Step(26),
        height=alt.Step(22),
        title=title(
            "Where on the plane of the two parameters are the goals met?",
            "Darker is closer (0 = every goal met). " + _caption(result),
        ),
    )


def tornado_chart(result: TuneResult, frame: pl.DataFrame) -> alt.TopLevelMixin:
    import altair as alt

    from analysis.charts import title, values

    y = alt.Y("parameter:N", title=None)
    x = alt.X("estimate:Q", title="target value", scale=alt.Scale(zero=False))
    tooltip = [
        alt.Tooltip("parameter:N"),
        alt.Tooltip("end_label:N", title="moved to"),
        alt.Tooltip("estimate:Q", format=".4f", title="target value there"),
        alt.Tooltip("best:Q", format=".4f", title="at the best setting"),
    ]
    bars = (
        alt.Chart()
        .mark_bar(height={"band": 0.4})
        .encode(
            y=y,
            x=x,
            x2="best:Q",
            yOffset=alt.YOffset("end:N", sort=["low", "high"]),
            color=alt.Color(
                "end:N",
                scale=alt.Scale(domain=["low", "high"], range=["#4c78a8", "#f58518"]),
                legend=alt.Legend(title="parameter moved to its range's"),
            ),
            tooltip=tooltip,
        )
    )
    best = alt.Chart().mark_tick(color="black", thickness=2).encode(y=y, x="best:Q")
    goal_low = alt.Chart().mark_rule(color="#2ca02c", strokeDash=[4, 3]).encode(x="goal_low:Q")
    goal_high = alt.Chart().mark_rule(color="#2ca02c", strokeDash=[4, 3]).encode(x="goal_high:Q")
    chart = alt.layer(goal_low, goal_high, bars, best, data=values(frame)).properties(
        width=460, height=alt.Step(28)
    )
    return (
        chart.facet(
            row=alt.Row(
                "target:N",
                title=None,
                header=alt.Header(labelAngle=0, labelAlign="left", labelFontWeight="bold"),
            )
        )
        .resolve_scale(x="independent", y="independent")
        .properties(
            title=title(
                "What does each parameter move?",
                "From the best setting, each parameter alone moved to the low (blue) and high "
                "(orange) end of its range; the black tick is the best setting's value, the "
                "green dashes the goal. " + _caption(result),
            )
        )
    )


def _collapsed(frame: pl.DataFrame, what: str, open_up_to: int = 25) -> str:
    """A long table folded away (``<details>``), best first; a short one shown."""
    table = _frame_html(frame, limit=2_000)
    if frame.height <= open_up_to:
        return table
    return (
        f"<details><summary>Every {what}, best first ({frame.height:,} rows)</summary>"
        f"{table}</details>"
    )


def _frame_html(frame: pl.DataFrame, limit: int = 500) -> str:
    from analysis.report import frame_table

    shown = frame.with_columns(pl.col(pl.Float64).round(4)).with_columns(
        pl.all().cast(pl.String).fill_null("")
    )
    return frame_table(shown, limit=limit)


def tune_page(result: TuneResult, command: str = "") -> str:
    from analysis.html import EXPORT_OPTIONS, page
    from analysis.report import sets_text

    best = result.best
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    params = pl.DataFrame(
        [
            {
                "parameter": p.name,
                "best": best.setting[p.name],
                "range": f"{p.low}..{p.high}",
                "catalog": "" if p.current is None else str(p.current),
            }
            for p in result.params
        ]
    )
    reached = pl.DataFrame(target_rows(best))
    met = all(r.term == 0 for r in best.readings)
    headline = (
        f"<p><strong>Best: {html.escape(best.label())}</strong> "
        f"(objective {best.objective:.4g}{', every goal met' if met else ''}), the best "
        f"of {len(result.candidates)} candidates ({result.method}).</p>"
    )
    sentences = "".join(
        f"<li>{html.escape(r.goal.text)}: "
        + "; ".join(
            html.escape(
                (f"{_key_text(e.key)} " if e.key else "")
                + estimate_text(e)
                + ", "
                + _status(r.goal, e)
            )
            for e in r.estimates
        )
        + "</li>"
        for r in best.readings
    )
    best_html = [
        headline,
        f"<ul>{sentences}</ul>",
        "<h3>Parameters</h3>",
        _frame_html(params),
        "<h3>Targets reached</h3>",
        _frame_html(reached),
    ]
    candidates = candidates_frame(result)
    charts = [objective_chart(result)]
    if len(result.params) == 2:
        charts.append(objective_map(result))
    sens = sensitivity_frame(result)
    sens_table = sens.select("target", "parameter", "end_label", "estimate", "best", "objective")
    how = (
        f"<p>Game {html.escape(result.game.title)} ({html.escape(result.game.name)}), catalog "
        f"<code>{html.escape(str(result.catalog_root))}</code>"
        + (f" with <code>{html.escape(sets_text(result.sets))}</code>" if result.sets else "")
        + f". Generated {stamp} in {result.seconds:.1f} s.</p>"
        + (f"<p>Command: <code>{html.escape(command)}</code></p>" if command else "")
        + "<p><strong>Objective</strong> (lower is better; 0 when every goal is met): the sum "
        "over targets of the miss relative to the goal's size: the miss is |estimate - VALUE| "
        "for <code>~ VALUE</code> and the distance outside the range for <code>in LO..HI"
        "</code>, averaged over a target's estimates (a <code>*</code> filter gives one per "
        "value, each must meet the goal), divided by |VALUE| (or the larger of |LO| and "
        "|HI|). A tenth of the goal missed counts 0.1 whatever the metric's unit.</p>"
        + (
            "<p><strong>Simulation</strong>: each candidate's simulated targets ran "
            f"{result.n:,} games on seed {result.seed}, the same seed for every candidate "
            "(common random numbers), into "
            + (
                f"the store <code>{html.escape(str(result.store))}</code> (a later tune or "
                "query finds the runs there)"
                if result.store is not None
                else "a temporary store"
            )
            + "; intervals are estimate ± 1.96 standard errors.</p>"
            if result.simulated
            else "<p>Every target is exact: no simulation.</p>"
        )
        + f"<p><strong>Search</strong>: {result.method}"
        + (
            " over every integer of each range"
            if result.method == "grid"
            else " (SciPy, integrality, seeded), stopped at the budget of distinct candidates "
            "or once every goal is met"
        )
        + "; ties go to the setting nearest the catalog's values. Sensitivity: from the best "
        "setting, each parameter alone at each end of its range.</p>"
    )
    sections = [
        ("Best setting", best_html),
        ("Every candidate", [*charts, _collapsed(candidates, "candidate")]),
        ("Sensitivity", [tornado_chart(result, sens), _frame_html(sens_table)]),
        ("How this was computed", how),
    ]
    intro = (
        "<p class='small'>Targets: "
        + "; ".join(f"<code>{html.escape(g.text)}</code>" for g in result.goals)
        + ". Parameters: "
        + ", ".join(f"<code>{html.escape(p.name)}</code> {p.low}..{p.high}" for p in result.params)
        + ".</p>"
    )
    return page(
        f"{result.game.title}: tune", sections, intro_html=intro, embed_options=EXPORT_OPTIONS
    )


# ---- the command ---------------------------------------------------------------------------------


def list_targets(game: Game, catalog: Any) -> str:
    lines = [
        f"{game.title} ({game.name}): metrics for --target "
        "'METRIC(FILTER=VALUE, ...) ~ VALUE' or '... in LO..HI' (FILTER=* every value; "
        "an omitted filter is pooled unless a default is shown)"
    ]
    for name, target in game.targets.items():
        filters = ", ".join(f"{f}={target.defaults.get(f, '')}" for f in target.filters)
        kind = "exact" if target.exact else "simulated"
        lines.append(f"  {name}({filters})  [{kind}]")
        lines += textwrap.wrap(target.doc, 88, initial_indent="      ", subsequent_indent="      ")
    ints = [(k, s) for k, s in specs(type(catalog.params)).items() if _integer(s)]
    lines += textwrap.wrap(
        "rules parameters for --param NAME[=LO..HI] (value, tuning range): "
        + ", ".join(f"{k} {getattr(catalog.params, k)} ({s.low}..{s.high})" for k, s in ints),
        92,
        subsequent_indent="  ",
    )
    lines.append("catalog fields: --param KIND.ID.FIELD=LO..HI (a range is required)")
    return "\n".join(lines)


def _command(args: argparse.Namespace, game: str) -> str:
    """The command line that repeats this tune (flags at their defaults left out)."""
    words = ["mechbal", "tune", game]
    for flag, items in (("--param", args.param), ("--target", args.target), ("--set", args.set)):
        for item in items or []:
            words += [flag, item]
    for flag, value, default in (
        ("--n", args.n, DEFAULT_N),
        ("--seed", args.seed, 1),
        ("--jobs", args.jobs, 1),
        ("--budget", args.budget, DEFAULT_BUDGET),
        ("--catalog", args.catalog, "catalogs"),
        ("--store", args.store, "data"),
        ("--out", args.out, "reports"),
    ):
        if value != default:
            words += [flag, str(value)]
    if args.temp_store:
        words.append("--temp-store")
    return shlex.join(words)


def cmd_tune(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    sets = _assignments(args.set, "--set")
    if args.list:
        catalog = game.load_catalog(Path(args.catalog), overrides=sets)
        if not game.targets:
            raise UserError(f"tune: {game.name} declares no targets")
        print(list_targets(game, catalog))
        return 0
    command = _command(args, game.name)
    result = tune(
        game.name,
        args.param or [],
        args.target or [],
        catalog_root=args.catalog,
        sets=sets,
        n=args.n,
        seed=args.seed,
        jobs=args.jobs,
        budget=args.budget,
        store=None if args.temp_store else args.store,
        out=args.out,
        progress=True,
        command=command,
    )
    print(f"tune {game.name}: {result.seconds:.1f} s")
    print("\n".join(summary_lines(result)))
    if result.page is not None:
        print(f"report: {result.page.resolve()}")
    return 0


def add_parser(subparsers: Any) -> None:
    """``mechbal tune GAME --param NAME[=LO..HI] ... --target TARGET ...``."""
    p = subparsers.add_parser(
        "tune",
        help="search rules parameters or catalog fields for the values that bring "
        "a game's metrics closest to targets",
    )
    p.add_argument("game")
    p.add_argument(
        "--param",
        action="append",
        metavar="NAME[=LO..HI]",
        help="a rules parameter (its tuning range unless given) or "
        "KIND.ID.FIELD=LO..HI (repeatable)",
    )
    p.add_argument(
        "--target",
        action="append",
        metavar="TARGET",
        help="'METRIC(FILTER=VALUE, ...) ~ VALUE' or 'METRIC(...) in LO..HI' "
        "(repeatable; --list shows the metrics)",
    )
    p.add_argument("--list", action="store_true", help="list the game's metrics and parameters")
    p.add_argument(
        "--n",
        type=int,
        default=DEFAULT_N,
        help=f"games per evaluation of a simulated target (default {DEFAULT_N:,})",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=1,
        help="the seed of every candidate's runs (common random numbers)",
    )
    p.add_argument("--jobs", type=int, default=1, help="local worker processes per run")
    p.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help="most candidates evaluated (the grid is refused beyond it; the "
        f"evolutionary search stops at it; default {DEFAULT_BUDGET})",
    )
    p.add_argument("--out", default="reports", help="folder of tune-GAME.html (default reports)")
    p.add_argument("--store", default="data", help="the store simulated runs go into")
    p.add_argument(
        "--temp-store", action="store_true", help="run into a temporary store, removed afterwards"
    )
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_tune)


__all__ = [
    "ALL",
    "Goal",
    "Param",
    "TuneResult",
    "add_parser",
    "tune",
    "parse_goal",
    "parse_param",
    "summary_lines",
]
