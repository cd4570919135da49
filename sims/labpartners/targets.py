"""Mech Lab Partners metrics for ``mechbal tune labpartners --target ...``
(``sims.core.targets``).

Simulated (the ``battles`` experiment: finished mechs dealt from the deck, policy
steady, 10% gaps; N battles per evaluation):
  win_rate(kaiju=, deck=)       P(the mech defeats the kaiju), deck full unless given
Exact (from the catalog, no simulation):
  p_win(mech=, kaiju=)          battle.csv's P(win) of a mechs.toml mech against the kaiju
  crit_chance(head=, crit_immune=)  crit.csv's P(crit) per damaging Arm for a Head case
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from sims.core.targets import Estimate, Target, exact_estimates, mean_estimates, run_rows
from sims.labpartners import exact, rules
from sims.labpartners.catalog import Catalog


def _battle_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"kaiju": list(catalog.kaiju), "deck": list(catalog.decks)}


def win_rate(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    options = {}
    for name, option in (("kaiju", "kaiju"), ("deck", "decks")):
        if filters.get(name) not in (None, "*"):  # one value: play only its cells
            options[option] = [filters[name]]
    rows = run_rows(
        "labpartners",
        "battles",
        catalog,
        n=n,
        seed=seed,
        jobs=jobs,
        store=store,
        options=options,
        columns=("deck", "kaiju", "result"),
    )
    rows = rows.with_columns((pl.col("result") == rules.WIN).cast(pl.Float64).alias("win"))
    return mean_estimates(rows, filters, {"kaiju": "kaiju", "deck": "deck"}, "win")


def _mech_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"mech": list(catalog.mechs), "kaiju": list(catalog.kaiju)}


def p_win(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    return exact_estimates(
        filters,
        _mech_domains(catalog),
        lambda mech, kaiju: exact.battle_row(catalog, mech, kaiju)["p_win"],
    )


def _crit_domains(catalog: Catalog) -> Mapping[str, Sequence[Any]]:
    return {"head": [case[0] for case in exact.HEAD_CASES], "crit_immune": list(exact.YES_NO)}


def crit_chance(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    p = catalog.params
    cases = {case[0]: case[1:] for case in exact.HEAD_CASES}

    def value(head: str, crit_immune: str) -> Any:
        has_head, clockwork, lesson = cases[head]
        bonus = int(rules.lesson_bonus(lesson, True, p))
        acc = int(rules.accuracy(has_head, clockwork, bonus, exact.YES_NO.index(crit_immune), p))
        return rules.p_crit(acc, p)

    return exact_estimates(filters, _crit_domains(catalog), value)


TARGETS = {
    "win_rate": Target(
        doc="P(the finished mech defeats the kaiju) in the battles experiment (mechs dealt "
        "from the deck, policy steady, 10% gaps, Traits flipped), the full spread "
        "unless deck= says otherwise; kaiju omitted: over every kaiju. Simulated, N "
        "battles per evaluation.",
        filters=("kaiju", "deck"),
        exact=False,
        domains=_battle_domains,
        estimate=win_rate,
        defaults={"deck": "full"},
    ),
    "p_win": Target(
        doc="battle.csv's exact P(win) of a sample mech of mechs.toml against the kaiju as "
        "printed (no Traits, policy steady). Exact; an omitted filter averages over "
        "every value.",
        filters=("mech", "kaiju"),
        exact=True,
        domains=_mech_domains,
        estimate=p_win,
    ),
    "crit_chance": Target(
        doc="crit.csv's P(crit) of one damaging Arm for a Head case (none, plain, "
        "clockwork, lesson, clockwork_lesson) against a kaiju that can (crit_immune=no) "
        "or cannot be crit. Exact.",
        filters=("head", "crit_immune"),
        exact=True,
        domains=_crit_domains,
        estimate=crit_chance,
        defaults={"crit_immune": "no"},
    ),
}
