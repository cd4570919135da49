"""Mech Lab Partners' analysis plugin (``analysis.plugin``): its report page (the whole-game
study ``full-spread-vs-alpha`` first, then part 1's Battle-only ``battles``), charts,
queries and balance flags. Installed as the ``mechbal.analysis`` entry point
``labpartners`` (pyproject.toml)."""

from analysis.labpartners import choices, flags, report, verdicts
from analysis.plugin import Analysis

ANALYSIS = Analysis(
    game="labpartners",
    default_runs=report.run_default_experiments,
    page=report.build_page,
    limits=flags.LIMITS,  # catalogs/labpartners/limits.toml (whole games)
    choices=choices.choice_sets,  # mechbal dominated (analysis.dominance)
    verdicts=verdicts.verdicts,  # the page's headlines (analysis.verdicts), mechbal robust
    variants=verdicts.variants,  # random alpha decks, Battle policies, seatings
    rests_on=verdicts.rests_on,
)
