"""Alluvion Knights' analysis plugin (``analysis.plugin``): its report page (the
``loadouts`` round robin: the matchup matrix, the ranking, dominance, the dice pools and
the exact single-attack odds), charts, queries, balance flags and verdicts. Installed as the
``mechbal.analysis`` entry point ``alluvion`` (pyproject.toml)."""

from analysis.alluvion import choices, flags, report, verdicts
from analysis.plugin import Analysis

ANALYSIS = Analysis(
    game="alluvion",
    default_runs=report.run_default_experiments,
    page=report.build_page,
    limits=flags.LIMITS,  # catalogs/alluvion/limits.toml (the round robin's scores)
    choices=choices.choice_sets,  # mechbal dominated (analysis.dominance)
    verdicts=verdicts.verdicts,  # the page's headlines, rerun by mechbal robust
    variants=verdicts.variants,  # its shipped policies (readings and seats are generic)
    rests_on=verdicts.rests_on,
)
