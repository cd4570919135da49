"""Mecha Skirmish's verdicts (DESIGN.md "Verdicts: what they rest on, whether they
survive"): the headlines of its report page as :class:`analysis.verdicts.Verdict`
objects, the variants only this game knows, and what the page's numbers rest on.

The headlines, each read from the run the page makes (``report.run_default_experiments``:
the duel grid, every kit, gunline on both sides, no options):

- the best and the worst kit of the duel grid and, per kit, its ``win_rate`` flag
  (:func:`analysis.verdicts.standing_verdicts` over :func:`analysis.round_robin.standings`
  with ``only`` for one seat; mirrors left out, as the page's flags);
- per weapon, its ``crit_share`` flag. The page computes it exactly (``weapon_vs_kit``,
  :func:`analysis.skirmish.flags.crit_share_flags`), not from a run, so its verdict
  recomputes the exact table from the catalog with the run's ``--set`` values (a
  reading, a crit margin or a placeholder draw moves it; a seat or a policy cannot:
  ``seats=False``). It is declared on the duel run, which the robust pass makes anyway.

The team fights' headlines (side A's score, the best team and the map that matters most,
per map) read a run swept over the standard maps; a :class:`Verdict` names an experiment
and options, not a sweep, so they are not declared here (see the branch report).

Variants: one per shipped policy besides gunline (kind ``policy``: every kit plays it on
both sides, experiment option ``policy``). No ``end`` variants: no run can fix the end
(side A always holds the west end, board.deployment), every map is the same after a half
turn, and the grid plays every pairing in both orders, so the seat variants (side A's and
side B's games apart) already read both ends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from analysis import round_robin
from analysis.flags import Limit, beyond
from analysis.skirmish.queries import SIDES
from analysis.verdicts import Outcome, RunRows, Variant, Verdict, flag_id, standing_verdicts

DUEL = "duel"  # report.run_default_experiments: the page's duel grid
DUEL_OPTIONS: dict[str, Any] = {}  # the page runs it with no options: every kit, gunline
DUEL_POLICY = "gunline"  # experiments._policies' default: what the page's duels play


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def kit_standings(rows: RunRows, seat: str | None) -> pl.DataFrame:
    """Each kit's score in the run's duel grid against every other kit (mirrors left out,
    draws counted half, 95% Wilson interval), from both seats (``None``, the page's) or
    one (``"a"``/``"b"``), with the kit in column ``subject``."""
    table = round_robin.standings(rows.con, rows.view, SIDES, only=seat)
    return table.filter(pl.col("run") == rows.run_id).rename({"side": "subject"})


def run_sets(rows: RunRows) -> dict[str, Any]:
    """The run's ``--set`` values (its manifest, through the store's ``runs`` table)."""
    found = rows.con.execute("SELECT set_json FROM runs WHERE run_id = ?", [rows.run_id]).fetchall()
    if not found or not found[0][0]:
        return {}
    return dict(json.loads(found[0][0]))


def crit_shares(catalog: Any) -> dict[str, float]:
    """Per weapon, its exact crit share averaged over every kit with equal weight (the
    page's ``crit_share`` flag: weapon_vs_kit.csv's attacker at the catalog's margin)."""
    from sims.skirmish import exact

    table = exact.weapon_vs_kit_table(catalog)
    per = table.group_by("weapon", maintain_order=True).agg(pl.col("crit_share_float").mean())
    return dict(per.iter_rows())


def crit_share_verdicts(catalog: Any, limit: Limit) -> list[Verdict]:
    """A flag verdict per weapon of the catalog's kits: its exact crit share against
    ``limit`` (label above, below or within; a headline only where the baseline flags it,
    as the page's :func:`analysis.skirmish.flags.crit_share_flags`)."""
    from sims.skirmish.catalog import load_catalog

    root = Path(catalog.root)
    weapons = list(crit_shares(catalog))

    def flag_of(weapon: str):
        def measure(rows: RunRows, seat: str | None) -> Outcome:
            sets = run_sets(rows)
            moved = load_catalog(root, game_dir=True, overrides=sets) if sets else catalog
            share = crit_shares(moved).get(weapon)
            if share is None:
                return Outcome("absent", float("nan"), text=f"the {weapon} is on no kit")
            side = beyond(share, share, limit)
            label = side[0] if side else "within"
            return Outcome(
                label,
                share,
                share,
                share,
                f"the {weapon} crits on {_pct(share)} of its hits (exact, crit margin "
                f"{moved.params.crit_margin}), {label} the limit "
                f"{_pct(limit.min)}..{_pct(limit.max)}",
            )

        return measure

    return [
        Verdict(
            flag_id(limit.name, weapon),
            "flag",
            f"the {weapon} crits too often or too rarely ({limit.name})",
            DUEL,
            flag_of(weapon),
            DUEL_OPTIONS,
            seats=False,
            headline=lambda o: o.label in ("above", "below"),
        )
        for weapon in weapons
    ]


def verdicts(catalog: Any, limits: Mapping[str, Limit]) -> list[Verdict]:
    """The page's headlines: best and worst kit, each kit's win_rate flag and each
    weapon's crit_share flag (the limits the catalog declares)."""
    out = standing_verdicts(
        "kit",
        DUEL,
        kit_standings,
        limit=limits.get("win_rate"),
        subjects=list(catalog.kits),
        options=DUEL_OPTIONS,
    )
    if "crit_share" in limits:
        out += crit_share_verdicts(catalog, limits["crit_share"])
    return out


def variants(catalog: Any) -> list[Variant]:
    """Every shipped policy besides the page's gunline, played by every kit on both
    sides of the duel grid. No end variants (module docstring)."""
    return [
        Variant(
            f"policy={policy}",
            "policy",
            f"every kit plays the {policy} policy on both sides (policies.toml), not {DUEL_POLICY}",
            options={"policy": [policy]},
            experiments=(DUEL,),
        )
        for policy in catalog.policies
        if policy != DUEL_POLICY
    ]


def rests_on(catalog: Any) -> Sequence[tuple[str, str]]:
    """What the page's numbers rest on besides the catalog's values."""
    board = catalog.params.board
    where = "the range track" if board == "track" else f"the map {board}"
    return [
        ("policies", f"every kit plays the {DUEL_POLICY} policy on both sides (policies.toml)"),
        (
            "format",
            f"duels of one kit a side, every ordered pair of the {len(catalog.kits)} kits "
            f"(mirrors played, left out of the standings), at most "
            f"{catalog.params.round_cap} rounds, each kit with its suggested pilot",
        ),
        (
            "board",
            f"{where}; side A deploys at the west end (the rulebook rolls off for ends; every "
            "map is the same after a half turn, and each pairing is played in both orders)",
        ),
        (
            "exact tables",
            "crit shares are exact: weapon_vs_kit's attacker (Gunnery 2, no Head Acc, no "
            "modifier dice, no cover), averaged over every kit",
        ),
    ]
