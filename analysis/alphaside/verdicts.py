"""ALPHASIDE's verdicts (DESIGN.md "Verdicts: what they rest on, whether they survive"):
the headlines of its report page, each recomputed from the run the page makes
(:func:`analysis.alphaside.report.run_default_experiments`: ``duel`` over every unit,
``squads`` over every squad, no options), and the variants only this game knows.

- ``duel``: the best and the worst unit by its score over the round robin (mirrors left
  out), a flag verdict per unit for each limit the page flags (``unit_score``:
  :func:`analysis.verdicts.flag_id`), and side a's edge (the summary's seat sentence);
- ``squads``: the best and the worst squad, and side a's edge there.

Variants: every shipped policy of ``policies.toml`` played by every unit (``--set
unit.<id>.policy=<policy>``: a unit's policy is its units.toml field). The board is a
range track with the Bases at its two ends and both seats played in every ordered pair,
so there are no ends to swap (the seats are the generic seat variants).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from analysis.alphaside import queries
from analysis.alphaside.report import SQUAD_SHARE  # the page's squads play N // 4
from analysis.flags import Limit
from analysis.verdicts import Outcome, RunRows, Variant, Verdict, standing_verdicts

DUEL, SQUADS = queries.DUEL, queries.SQUADS


def _standings(key: str):
    """(rows, seat) -> the standings of one run as ``subject``, ``score``, ``low``,
    ``high`` (mirrors left out; seat None: both seats pooled, as the page)."""

    def standings(rows: RunRows, seat: str | None) -> pl.DataFrame:
        frame = queries.standings(rows.con, rows.view, key, only=seat)
        return frame.filter(pl.col("run") == rows.run_id).rename({key: "subject"})

    return standings


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def side_a_edge(rows: RunRows, seat: str | None = None) -> Outcome:
    """Side a's score over every game of the run (:func:`queries.side_a`): label ``a
    ahead`` or ``b ahead`` when its 95% Wilson interval leaves 50%, else ``even``."""
    frame = queries.side_a(rows.con, rows.view).filter(pl.col("run") == rows.run_id)
    if not frame.height:
        return Outcome("absent", math.nan, text="no games in the run")
    r = frame.row(0, named=True)
    label = "a ahead" if r["low"] > 0.5 else "b ahead" if r["high"] < 0.5 else "even"
    return Outcome(
        label,
        r["score_a"],
        r["low"],
        r["high"],
        f"side a scores {_pct(r['score_a'])} (95% {_pct(r['low'])} to {_pct(r['high'])}) "
        f"over {r['games']:,} games: {label}",
    )


def _side_verdict(experiment: str, what: str, share: int = 1) -> Verdict:
    return Verdict(
        f"side_a:{experiment}",
        "gap",
        f"side a's edge over the {what}",
        experiment,
        side_a_edge,
        {},
        seats=False,  # the edge of one seat over the other: a seat alone means nothing
        share=share,
    )


def verdicts(catalog: Any, limits: Mapping[str, Limit]) -> list[Verdict]:
    """The page's headlines: the best and worst unit (``duel``) with a flag verdict per
    unit for each limit the page flags, side a's edge; the best and worst squad
    (``squads``) and side a's edge there. Options as the page's runs: none (every unit,
    every squad); the squads run's N is the page's N // 4 (``report.SQUAD_SHARE``)."""
    limit = limits.get("unit_score")
    out = standing_verdicts(
        "unit", DUEL, _standings("unit"), limit=limit, subjects=tuple(catalog.units)
    )
    out.append(_side_verdict(DUEL, "duel round robin"))
    # the page plays the squads at a share of its N: the pass reads the same run
    out += standing_verdicts("squad", SQUADS, _standings("squad"), share=SQUAD_SHARE)
    out.append(_side_verdict(SQUADS, "squads round robin", SQUAD_SHARE))
    return out


def variants(catalog: Any) -> list[Variant]:
    """Every shipped policy of policies.toml played by every unit (both experiments)."""
    out = []
    for pid in catalog.policies:
        sets = {f"unit.{uid}.policy": pid for uid in catalog.units}
        out.append(
            Variant(f"policy={pid}", "policy", f"every unit plays the {pid} policy", sets=sets)
        )
    return out


def rests_on(catalog: Any) -> Sequence[tuple[str, str]]:
    """What the page's numbers rest on besides the catalog's values."""
    own = ", ".join(f"{u} {v.policy}" for u, v in catalog.units.items())
    p = catalog.params
    return [
        (
            "policies",
            f"each unit plays its own policy of policies.toml ({own}): target the nearest "
            f"enemy, Advance toward its goal before the action, attack when a weapon "
            f"reaches (the weapon by expected damage or per TL), else Dash, else Energize; "
            f"the first Tactics card of the hand on every attack",
        ),
        (
            "format",
            f"duels of one unit a side and squad games over a whole game ({p.phases} "
            f"Phases of {p.spaces} Timeline spaces), every ordered pair played (both seats); "
            f"VP only from defeated units (no Objectives, Garrisons or Rescue)",
        ),
        (
            "board",
            f"a range track, the Bases {p.board_length} hexes apart; no Line of Sight, "
            f"terrain or elevation; several units may share a hex",
        ),
    ]
