"""Alluvion Knights' verdicts (DESIGN.md "Verdicts: what they rest on, whether they
survive"): the headlines of the report page, each recomputed from a ``loadouts`` run by
the queries the page reads (:mod:`analysis.alluvion.queries`), the variants only this game
knows (its shipped policies) and what the page's numbers rest on.

- ``best:loadout``, ``worst:loadout`` and ``flag:loadout_score:<id>`` (one per named
  loadout): the round robin's standings, mirrors left out, by
  :func:`analysis.verdicts.standing_verdicts`; a seat's standings read the loadout's
  games from that seat alone (:func:`analysis.round_robin.standings` ``only``).
- ``draws:brawler_mirror``: whether most brawler-against-brawler duels end undecided at
  the round cap (:data:`DRAWN_ABOVE`).
- ``side_a``: the first-listed side's edge over every duel, as the page states it.

The run is the page's own (``report.run_default_experiments``: the ``loadouts``
experiment with no options), so the robust pass's baseline is the page's run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from analysis import round_robin
from analysis.alluvion import queries
from analysis.flags import Limit
from analysis.readings import wilson
from analysis.verdicts import Outcome, RunRows, Variant, Verdict, standing_verdicts

EXPERIMENT = queries.EXPERIMENT
OPTIONS: Mapping[str, Any] = {}  # report.run_default_experiments passes none
MIRROR = "brawler"  # the loadout whose mirror's draws the page's readers ask about
# A mirror is "mostly drawn" when more than half its duels reach the round cap
# undecided: then the round cap, not the dice, decides what most of those duels say. As
# with a flag, the label needs the whole 95% interval on one side of it.
DRAWN_ABOVE = 0.5
DRAWN, DECIDED, HALF = "most mirrors drawn", "mostly decided", "about half drawn"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def loadout_standings(rows: RunRows, seat: str | None) -> pl.DataFrame:
    """Each loadout's standing over the round robin, mirrors left out (the page's
    ``queries.standings``); ``seat`` ``"a"``/``"b"``: its games from that seat alone.
    Columns ``subject`` (the loadout), ``score``, ``low``, ``high``, ``duels``."""
    if seat is None:
        table = queries.standings(rows.con, rows.view)
    else:
        table = round_robin.standings(rows.con, rows.view, queries.LOADOUTS, only=seat)
    return table.filter(pl.col("run") == rows.run_id).rename({"loadout": "subject"})


def mirror_draws(rows: RunRows, seat: str | None, loadout: str = MIRROR) -> Outcome:
    """The share of ``loadout``'s mirror duels that are draws (``queries.cells``: the
    mirror is one cell), with its 95% Wilson interval; label ``most mirrors drawn`` when
    the whole interval lies above :data:`DRAWN_ABOVE`, ``mostly decided`` when it lies
    below, else ``about half drawn``."""
    cells = queries.cells(rows.con, rows.view).filter(
        (pl.col("run") == rows.run_id)
        & (pl.col("loadout_a") == loadout)
        & (pl.col("loadout_b") == loadout)
    )
    if cells.is_empty():
        return Outcome("absent", float("nan"), text=f"no {loadout} mirror in the run")
    duels, draws = int(cells["duels"].sum()), int(cells["draws"].sum())
    share = draws / duels
    low, high = wilson(draws, duels)
    label = DRAWN if low > DRAWN_ABOVE else DECIDED if high < DRAWN_ABOVE else HALF
    text = (
        f"{draws:,} of {duels:,} {loadout} mirror duels are draws: {_pct(share)} "
        f"(95% {_pct(low)} to {_pct(high)}), {label}"
    )
    return Outcome(label, share, low, high, text)


def first_side(rows: RunRows, seat: str | None) -> Outcome:
    """The first-listed side's score over every duel (``queries.side_a``, the page's
    sentence): label ``first ahead`` / ``second ahead`` when its 95% interval leaves 1/2,
    else ``even``."""
    table = queries.side_a(rows.con, rows.view).filter(pl.col("run") == rows.run_id)
    r = table.row(0, named=True)
    if r["low"] > 0.5:
        label = "first ahead"
    elif r["high"] < 0.5:
        label = "second ahead"
    else:
        label = "even"
    text = (
        f"side a scores {_pct(r['score_a'])} (95% {_pct(r['low'])} to {_pct(r['high'])}) "
        f"over {r['duels']:,} duels: {label}"
    )
    return Outcome(label, r["score_a"], r["low"], r["high"], text)


def verdicts(catalog: Any, limits: Mapping[str, Limit]) -> list[Verdict]:
    """The page's headlines: best and worst loadout, a flag verdict per named loadout
    (with ``loadout_score``), the brawler mirror's draws and the first side's edge."""
    out = standing_verdicts(
        "loadout",
        EXPERIMENT,
        loadout_standings,
        limit=limits.get("loadout_score"),
        subjects=tuple(catalog.loadouts),
        options=OPTIONS,
    )
    if MIRROR in catalog.loadouts:
        out.append(
            Verdict(
                f"draws:{MIRROR}_mirror",
                "other",
                f"most {MIRROR} mirror duels are draws (the 95% interval of the share "
                f"that reaches the round cap undecided lies above {DRAWN_ABOVE:.0%})",
                EXPERIMENT,
                mirror_draws,
                OPTIONS,
                seats=False,
            )
        )
    out.append(
        Verdict(
            "side_a",
            "other",
            "the first-listed side's edge over every duel (the round robin plays each "
            "ordered pair both ways, so it cancels in the standings)",
            EXPERIMENT,
            first_side,
            OPTIONS,
            seats=False,
        )
    )
    return out


def variants(catalog: Any) -> list[Variant]:
    """The policy variants: every shipped policy played by every named loadout, each
    policy's defender's die switched (``defense`` block / highest for every policy), and
    the brawler policy without its grapple."""
    out = []
    for policy in catalog.policies:
        sets = {f"loadout.{ident}.policy": policy for ident in catalog.loadouts}
        out.append(
            Variant(
                f"policy={policy}",
                "policy",
                f"every loadout plays the {policy} policy",
                sets=sets,
                experiments=(EXPERIMENT,),
            )
        )
    for defense in ("block", "highest"):
        sets = {
            f"policy.{p}.defense": defense
            for p, pol in catalog.policies.items()
            if pol.defense != defense
        }
        if sets:
            out.append(
                Variant(
                    f"defense={defense}",
                    "policy",
                    f"every policy's defender assigns its {defense} die",
                    sets=sets,
                    experiments=(EXPERIMENT,),
                )
            )
    if "brawler" in catalog.policies and catalog.policies["brawler"].grapple:
        out.append(
            Variant(
                "brawler_grapple=off",
                "policy",
                "the brawler policy never grapples",
                sets={"policy.brawler.grapple": False},
                experiments=(EXPERIMENT,),
            )
        )
    return out


def rests_on(catalog: Any) -> Sequence[tuple[str, str]]:
    """What the page's numbers rest on besides the catalog's values."""
    p = catalog.params
    by_policy: dict[str, list[str]] = {}
    for ident, loadout in catalog.loadouts.items():
        by_policy.setdefault(loadout.policy, []).append(ident)
    plays = "; ".join(f"{pol}: {', '.join(ids)}" for pol, ids in by_policy.items())
    return [
        ("policies", f"each loadout plays its own policy of policies.toml ({plays})"),
        (
            "format",
            f"duels of one Armor a side, every ordered pair of the {len(catalog.loadouts)} "
            f"named loadouts, {p.start_range} hexes apart, no cover, squads or morale; "
            f"undecided after {p.round_cap} rounds is a draw",
        ),
        ("board", "a line: the rulebook prints no map, so no terrain blocks the line of fire"),
    ]
