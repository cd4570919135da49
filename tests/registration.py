"""The games the tests run are installed: each has its ``mechbal.games`` and
``mechbal.analysis`` entry points (pyproject.toml). A missing one fails the test in one line
naming the fix, never a skip, which would hide a broken registration."""

from __future__ import annotations

from importlib import metadata

import pytest

from analysis.plugin import ENTRY_POINTS as ANALYSIS_ENTRY_POINTS
from sims.core.protocol import ENTRY_POINTS as GAME_ENTRY_POINTS


def installed(name: str) -> str:
    """``name``, once both of its entry points are found; else the test fails."""
    for group in (GAME_ENTRY_POINTS, ANALYSIS_ENTRY_POINTS):
        if name not in {ep.name for ep in metadata.entry_points(group=group)}:
            pytest.fail(
                f"{name} is not installed as a {group} entry point: declare it in "
                f'pyproject.toml [project.entry-points."{group}"] and reinstall (pip install -e .)',
                pytrace=False,
            )
    return name
