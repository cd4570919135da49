"""``mechbal tune``'s search: each candidate evaluated once (every target on the catalog
with the candidate's values), the full grid or SciPy's differential evolution over
them, and the result of a whole tune (:mod:`analysis.tune` describes the objective)."""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.args import UserError
from analysis.tune_goals import Goal, Param
from sims.core.protocol import Game
from sims.core.targets import Estimate

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


def rank(params: Sequence[Param], cand: Candidate) -> tuple[Any, ...]:
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


# ---- the result of a whole tune ----------------------------------------------------------


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
