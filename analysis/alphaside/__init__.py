"""ALPHASIDE's analysis plugin (``analysis.plugin``): its report page (the ``duel`` round
robin: the matchup matrix, damage per Timeline space, time to defeat, the weapons per TL
beside the exact expectation; the ``squads`` round robin's VP; the exact dice odds),
charts, queries and balance flags. Installed as the ``mechbal.analysis`` entry point
``alphaside`` (pyproject.toml)."""

from analysis.alphaside import choices, flags, report, verdicts
from analysis.plugin import Analysis

ANALYSIS = Analysis(
    game="alphaside",
    default_runs=report.run_default_experiments,
    page=report.build_page,
    limits=flags.LIMITS,  # catalogs/alphaside/limits.toml (the duel round robin's scores)
    choices=choices.choice_sets,  # mechbal dominated (analysis.dominance)
    verdicts=verdicts.verdicts,  # the page's headlines (analysis.verdicts)
    variants=verdicts.variants,  # every shipped policy played by every unit
    rests_on=verdicts.rests_on,
)
