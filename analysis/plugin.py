"""A game's analysis plugin: what the generic report reads of it (STYLE.md 13).

Each game's ``analysis/<game>/__init__.py`` defines ``ANALYSIS = Analysis(...)``: the
limit names its ``limits.toml`` may hold, the default runs ``mechbal report`` makes for
it, and its page (sections of charts and tables, and the balance flags listed first).
A section may carry the tables behind it (:class:`Section` ``data``): the report writes
each as CSV beside the page and links it under the section.
The generic report (:mod:`analysis.report`) calls these and names no game. Plugins are
found by the ``mechbal.analysis`` entry points (``pyproject.toml``) and by
:func:`register`; a game without one gets the generic page (claims, tables, parameters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import altair as alt
import polars as pl

from analysis.flags import Flag, Limit
from sims.core.claims import ClaimResult
from sims.core.protocol import Catalog, Game, load_target
from sims.core.runner import RunOutcome

ENTRY_POINTS = "mechbal.analysis"

# What a section shows: HTML (inserted as is), a chart, or several of them in order.
Content = str | alt.TopLevelMixin | Sequence[str | alt.TopLevelMixin]


@dataclass(frozen=True)
class Section:
    """One section of a game's page: its heading, what it shows, and the tables behind it
    by file stem (``{"win_rates": frame}``), which the report writes as
    ``<reports>/<game>/<stem>.csv`` with a download link under the section (and into
    ``--export DIR``). Give the tables of simulated results here, with their ``run``
    column: a designer takes them away to a spreadsheet."""

    heading: str
    content: Content
    data: Mapping[str, pl.DataFrame] = field(default_factory=dict)


def as_section(item: Section | tuple[Any, ...]) -> Section:
    """A plugin may give a :class:`Section` or a plain ``(heading, content)`` or
    ``(heading, content, data)`` tuple."""
    if isinstance(item, Section):
        return item
    if isinstance(item, tuple) and len(item) in (2, 3):
        return Section(*item)
    raise TypeError(f"a page section is a Section or (heading, content[, data]), got {item!r:.80}")


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
    # ``--set`` edits the catalog was loaded with; default runs are made with them, and
    # runs made without them are of another catalog
    sets: Mapping[str, Any] = field(default_factory=dict)
    # the robustness pass of this catalog (analysis.robust.RobustResult) when there is one:
    # a page tags its headline sentences from it (analysis.report_rests.tagged)
    robustness: Any = None


@dataclass(frozen=True)
class Page:
    """A game's report page: its sections in order, and the flags listed before them."""

    sections: Sequence[Section | tuple[Any, ...]]
    flags: list[Flag] = field(default_factory=list)


@dataclass(frozen=True)
class Analysis:
    game: str
    # run the default experiments into the store (resumable); their outcomes by name
    default_runs: Callable[[ReportContext], Mapping[str, RunOutcome]]
    page: Callable[[ReportContext, Mapping[str, RunOutcome]], Page]
    limits: Sequence[str] = ()  # the limit names limits.toml may hold
    # the choice sets of the loaded catalog whose dominated choices ``mechbal dominated``
    # finds (analysis.dominance.ChoiceSet); None: the game declares none
    choices: Callable[[Any], Sequence[Any]] | None = None
    # the headline verdicts of the page (analysis.verdicts.Verdict), from the loaded
    # catalog and the limits: what mechbal robust reruns and the page tags
    verdicts: Callable[[Any, Mapping[str, Limit]], Sequence[Any]] | None = None
    # the variants only the game knows (analysis.verdicts.Variant: its shipped policies,
    # the ends of a map, its sampled lists); readings, seats and placeholders are generic
    variants: Callable[[Any], Sequence[Any]] | None = None
    # what the page's numbers rest on besides the catalog: (what, words) pairs such as
    # ("policies", "each loadout plays its own policy of policies.toml"), ("format", ...)
    rests_on: Callable[[Any], Sequence[tuple[str, str]]] | None = None


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
