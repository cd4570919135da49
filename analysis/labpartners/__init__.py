"""Mech Lab Partners' analysis plugin (``analysis.plugin``): its report page, charts and
queries. Installed as the ``mechbal.analysis`` entry point ``labpartners``
(pyproject.toml)."""

from analysis.labpartners import report
from analysis.plugin import Analysis

ANALYSIS = Analysis(
    game="labpartners",
    default_runs=report.run_default_experiments,
    page=report.build_page,
    limits=("win_rate", "deck_gap"),  # catalogs/labpartners/limits.toml (whole games)
)
