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

Modules: this one holds :func:`tune` and the command line; :mod:`analysis.tune_goals`
reads ``--param`` and ``--target``, :mod:`analysis.tune_search` evaluates candidates and
searches them, :mod:`analysis.tune_page` writes the summary, the tables, the charts and
the page.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import shlex
import tempfile
import textwrap
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from analysis.args import UserError, _assignments, _catalog_and_set_flags
from analysis.tune_goals import Goal, Param, is_integer, parse_goal, parse_param
from analysis.tune_page import (
    candidates_frame,
    objective_chart,
    objective_map,
    sensitivity_frame,
    summary_lines,
    tornado_chart,
    tune_page,
)
from analysis.tune_search import Evaluator, Sensitivity, TuneResult, evolve, grid_search, rank
from sims.core.params import specs
from sims.core.protocol import Game, get_game
from sims.core.targets import ALL

DEFAULT_N = 4_000
DEFAULT_BUDGET = 200


# ---- the whole tune ----------------------------------------------------------------------


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
        best = min(searched, key=lambda c: rank(tuned, c))
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
    ints = [(k, s) for k, s in specs(type(catalog.params)).items() if is_integer(s)]
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
    # the tune page's frames and charts, which notebooks show
    "candidates_frame",
    "objective_chart",
    "objective_map",
    "sensitivity_frame",
    "tornado_chart",
]
