"""A game's analysis plugin: what the generic report reads of it (STYLE.md 13).

Each game's ``analysis/<game>/__init__.py`` defines ``ANALYSIS = Analysis(...)``: the
limit names its ``limits.toml`` may hold, the default runs ``mechbal report`` makes for
it, and its page (sections of charts and tables, and the balance flags listed first).
The generic report (:mod:`analysis.report`) calls these and names no game. Plugins are
found by the ``mechbal.analysis`` entry points (``pyproject.toml``) and by
:func:`register`; a game without one gets the generic page (claims, tables, parameters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import altair as alt
import polars as pl

from analysis.flags import Flag, Limit
from sims.core.claims import ClaimResult
from sims.core.protocol import Catalog, Game, load_target
from sims.core.runner import RunOutcome

ENTRY_POINTS = "mechbal.analysis"

Section = tuple[str, "str | alt.TopLevelMixin"]  # heading, and HTML or a chart


@dataclass(frozen=True)
class ReportContext:
    """Everything a game's report page is computed from (loaded and checked first)."""

    game: Game
    catalog: Catalog
    catalog_root: Path
    claims: list[ClaimResult]
    frames: dict[str, pl.DataFrame]  # the exact tables, by stem
    limits: dict[str, Limit]  # the game's limits.toml ({} when it has none)
    store: Path
    reports_dir: Path
    n: int  # games per default experiment
    seed: int
    jobs: int


@dataclass(frozen=True)
class Page:
    """A game's report page: its sections in order, and the flags listed before them."""

    sections: list[Section]
    flags: list[Flag] = field(default_factory=list)


@dataclass(frozen=True)
class Analysis:
    game: str
    # run the default experiments into the store (resumable); their outcomes by name
    default_runs: Callable[[ReportContext], Mapping[str, RunOutcome]]
    page: Callable[[ReportContext, Mapping[str, RunOutcome]], Page]
    limits: Sequence[str] = ()  # the limit names limits.toml may hold


_REGISTERED: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Make ``target`` (``"package.module:ANALYSIS"``) the analysis plugin of game ``name``."""
    _REGISTERED[name] = target


def unregister(name: str) -> None:
    _REGISTERED.pop(name, None)


def get_analysis(name: str) -> Analysis | None:
    """The analysis plugin of game ``name``, or None when it has none."""
    targets = {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINTS)}
    targets.update(_REGISTERED)
    if name not in targets:
        return None
    return load_target(targets[name], "ANALYSIS")
