"""Mecha Skirmish's analysis plugin (``analysis.plugin``): its report page, charts,
queries, flags and rating readings. Installed as the ``mechbal.analysis`` entry point
``skirmish`` (pyproject.toml)."""

from analysis.plugin import Analysis
from analysis.skirmish import choices, flags, report, verdicts

ANALYSIS = Analysis(
    game="skirmish",
    default_runs=report.run_default_experiments,
    page=report.build_page,
    limits=flags.LIMITS,
    choices=choices.choice_sets,  # mechbal dominated (analysis.dominance)
    verdicts=verdicts.verdicts,  # the page's headlines (mechbal robust)
    variants=verdicts.variants,
    rests_on=verdicts.rests_on,
)
