"""Fielded teams and rosters of kits (003 B, B3, D, I2): which kit trios fit the Team Cap
and by class mix, what a roster or a sideboard swap breaks, which pilots switch on in a
trio, and strong custom teams for the ratings.

Counting teams of *builds* (about 10^19 of them) is ``team_counts.py``."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from sims.core.dist import exact_frame
from sims.skirmish import rules
from sims.skirmish.catalog import CLASSES, Catalog

# ---- D: pilot synergy over every trio -----------------------------------------------


def pilot_trios(catalog: Catalog) -> pl.DataFrame:
    """Every unordered trio of pilots (003 D): who switches on (another fielded pilot
    shares Faction or Specialty) and which bonds are present (D4)."""
    rows = []
    for trio in itertools.combinations(sorted(catalog.pilots), 3):
        pilots = [catalog.pilots[p] for p in trio]
        on = rules.active_pilots(pilots)
        rows.append(
            {
                "pilot_1": trio[0],
                "pilot_2": trio[1],
                "pilot_3": trio[2],
                "active": ",".join(sorted(on)),
                "n_active": len(on),
                "bonds": ",".join("+".join(pair) for pair in rules.bonded_pairs(pilots)),
            }
        )
    return pl.DataFrame(rows)


def activation_shares(trios: pl.DataFrame) -> pl.DataFrame:
    """Share of trios with 3, 2, 1 and 0 pilots switched on, as exact fractions."""
    total = trios.height
    counts = Counter(trios["n_active"].to_list())
    rows = [
        {"pilots_on": k, "trios": counts[k], "share": Fraction(counts[k], total)}
        for k in (3, 2, 1, 0)
    ]
    return exact_frame(rows, ["share"])


# ---- B3: fielded kit teams against the Team Cap -------------------------------------

CAPS = range(100, 201)


def kit_team_counts(catalog: Catalog, caps: Iterable[int] = CAPS) -> pl.DataFrame:
    """Legal fielded teams of three distinct kits for every Team Cap, per class mix
    (Light/Medium/Heavy counts), by a generating function over kit Weights: the product
    of one polynomial per class, taking each class's kits without repetition (the
    elementary symmetric polynomials of x^weight). Copy limits, unique pilots and
    overload (B, B4) are the exceptions: the trios breaking them are listed (at most
    C(kits, 3)) and taken off at every cap their Weight fits. With the rulebook's kits
    there are none (the claim ``four_kit_rosters_legal``)."""
    by_class: dict[str, list[int]] = {c: [] for c in CLASSES}
    klass, weight = {}, {}
    for kit in catalog.kits:
        mech = catalog.mech(kit)
        klass[kit], weight[kit] = mech.chassis.klass, rules.mech_weight(mech)
        by_class[klass[kit]].append(weight[kit])
    top = sum(sorted(weight.values(), reverse=True)[:3])
    # e_k(class): coefficient of t^k x^w in prod_kits (1 + t x^w), a polynomial per k
    elementary = {c: _elementary(ws, top) for c, ws in by_class.items()}
    polys = {}
    for mix in ((a, b, 3 - a - b) for a in range(4) for b in range(4 - a)):
        poly = np.zeros(top + 1, dtype=object)
        poly[0] = 1
        for c, k in zip(CLASSES, mix, strict=True):
            poly = np.convolve(poly, elementary[c][k])[: top + 1]
        polys[mix] = poly
    # at a cap no trio exceeds, whatever a trio breaks is not the cap
    for trio, broken in kit_teams_brute_force(catalog, sum(weight.values())):
        if broken:
            kits = trio.split("+")
            mix = tuple(sum(klass[k] == c for k in kits) for c in CLASSES)
            polys[mix][sum(weight[k] for k in kits)] -= 1
    rows = []
    for mix, poly in polys.items():
        cumulative = np.cumsum(poly)
        for cap in caps:
            rows.append(
                {
                    "team_cap": cap,
                    "light": mix[0],
                    "medium": mix[1],
                    "heavy": mix[2],
                    "teams": int(cumulative[min(cap, top)]),
                }
            )
    return pl.DataFrame(rows)


def _elementary(weights: Sequence[int], top: int) -> list[np.ndarray]:
    """e_0..e_3 of the terms x^w (each kit at most once), as coefficient arrays."""
    e = [np.zeros(top + 1, dtype=object) for _ in range(4)]
    e[0][0] = 1
    for w in weights:
        for k in (3, 2, 1):  # descending k: each kit enters a team once
            shifted = np.zeros(top + 1, dtype=object)
            shifted[w:] = e[k - 1][: top + 1 - w]
            e[k] = e[k] + shifted
    return e


def kit_teams_brute_force(catalog: Catalog, cap: int | None = None) -> list[tuple[str, list[str]]]:
    """Every unordered trio of distinct kits, with the rules it breaks at ``cap`` (the
    catalog's Team Cap by default)."""
    from dataclasses import replace

    params = catalog.params if cap is None else replace(catalog.params, team_cap=cap)
    out = []
    for trio in itertools.combinations(sorted(catalog.kits), params.fielded):
        mechs = [catalog.mech(k) for k in trio]
        out.append(("+".join(trio), rules.team_problems(mechs, params)))
    return out


def legal_kit_teams(catalog: Catalog) -> list[str]:
    """Every unordered trio of distinct kits that is a legal fielded team (B, B3)."""
    return [team for team, problems in kit_teams_brute_force(catalog) if not problems]


def roster_report(catalog: Catalog, roster: Sequence[str], fielded: Sequence[str]) -> list[str]:
    """What a roster of kits (and its fielded three) breaks, each line naming the roster
    and the rule (B copy limits, unique pilots, B3 Team Cap, B4 overload)."""
    params = catalog.params
    name, team = "+".join(roster), "+".join(fielded)
    in_roster = rules.roster_problems([catalog.mech(k) for k in roster], params)
    in_team = rules.team_problems([catalog.mech(k) for k in fielded], params)
    return [f"roster {name}: {p}" for p in in_roster] + [
        f"fielded team {team}: {p}" for p in in_team
    ]


def sideboard_report(catalog: Catalog, roster: Sequence[str], fielded: Sequence[str]) -> list[str]:
    """The sideboard swaps the rules refuse (003 I2: between games one fielded mech may
    be swapped for the fourth, and the team must stay legal, B3), one line each naming
    the roster, the swap and the rule."""
    bench = list(roster)
    for kit in fielded:
        bench.remove(kit)
    if len(bench) != 1:
        raise ValueError(
            f"roster {'+'.join(roster)} minus {'+'.join(fielded)} leaves "
            f"{len(bench)} mechs, not one sideboard"
        )
    lines = []
    for out in dict.fromkeys(fielded):
        team = [k for k in fielded if k != out] + bench
        for problem in rules.team_problems([catalog.mech(k) for k in team], catalog.params):
            lines.append(
                f"roster {'+'.join(roster)}: the sideboard {bench[0]} may not come "
                f"in for {out} (I2): {problem}"
            )
    return lines


def kit_roster_counts(catalog: Catalog, caps: Iterable[int] = CAPS) -> pl.DataFrame:
    """Rosters of four distinct kits within copy limits and unique pilots (B), by how
    many of their four possible fielded trios fit the Team Cap: with all four, any
    sideboard swap from any fielded team stays legal (I2); with one, the sideboard never
    comes in. Listed (70 rosters for 8 kits): each trio checked once without the cap
    (:func:`kit_teams_brute_force`), then its Weight compared with every cap."""
    params = catalog.params
    rosters = [
        r
        for r in itertools.combinations(sorted(catalog.kits), params.roster_size)
        if not rules.roster_problems([catalog.mech(k) for k in r], params)
    ]
    weight = {k: rules.mech_weight(catalog.mech(k)) for k in catalog.kits}
    # the lightest Weight at which each trio is legal (None: it breaks more than the cap)
    fits_from = {
        trio: None if broken else sum(weight[k] for k in trio.split("+"))
        for trio, broken in kit_teams_brute_force(catalog, sum(weight.values()))
    }
    rows = []
    for cap in caps:
        tally = Counter(
            sum(
                fits_from["+".join(trio)] is not None and fits_from["+".join(trio)] <= cap
                for trio in itertools.combinations(r, params.fielded)
            )
            for r in rosters
        )
        rows += [
            {"team_cap": cap, "legal_trios": n, "rosters": tally[n]}
            for n in range(params.roster_size + 1)
        ]
    return pl.DataFrame(rows)


# ---- strong custom teams for the ratings (issue 6) ------------------------------------

CUSTOM_PREFIX = "custom_"
SLOT_FIELDS = ("chassis", "head", "right_arm", "left_arm", "legs", "back")


def _team_proxy(
    mechs: Sequence[Any], threat: Mapping[str, float], params: rules.Parameters
) -> float:
    """A crude exact strength: each mech's best weapon (expected damage per Fire action
    against the standard Medium) times its Hull. The ratings then test it in battle."""
    total = 0.0
    for mech in mechs:
        best = max((threat[w.id] for w in mech.weapons), default=0.0)
        total += best * rules.mech_stats(mech, params).hull
    return total


def custom_teams(catalog: Catalog, count: int) -> tuple[dict[str, Any], list[str]]:
    """Up to ``count`` strong custom teams: each starts from a legal kit team (strongest
    by the proxy first) and climbs by single part swaps while the team stays legal (Team
    Cap, overload, copy limits; pilots unchanged, so unique) and the proxy improves. The
    copy limits keep the climb from piling the same parts onto every mech. Returns the
    generated kits (``custom_<n>``, provenance assumed) and the teams. Deterministic."""
    from dataclasses import replace

    from sims.skirmish import exact
    from sims.skirmish.catalog import Kit

    params = catalog.params
    standard = catalog.mech(params.standard_medium)  # rules.toml: the standard Medium (F4)
    threat = {w.id: float(exact.expected_damage(w, standard, params)) for w in catalog.weapons()}
    by_slot = {
        f: sorted(
            p.id for p in catalog.parts.values() if p.slot == ("arm" if f.endswith("_arm") else f)
        )
        for f in SLOT_FIELDS
    }
    seeds = []
    for team in legal_kit_teams(catalog):
        mechs = [catalog.mech(k) for k in team.split("+")]
        seeds.append((-_team_proxy(mechs, threat, params), team, mechs))
    seeds.sort(key=lambda s: (s[0], s[1]))
    found: list[list[Any]] = []
    for _, _, mechs in seeds:
        if len(found) == count:
            break
        best = _team_proxy(mechs, threat, params)
        while True:
            move = None
            for i, mech in enumerate(mechs):
                for field in SLOT_FIELDS:
                    for pid in by_slot[field]:
                        if getattr(mech, field).id == pid:
                            continue
                        trial = list(mechs)
                        trial[i] = replace(mech, **{field: catalog.parts[pid]})
                        if rules.team_problems(trial, params):
                            continue
                        value = _team_proxy(trial, threat, params)
                        if value > best + 1e-9 and (move is None or value > move[0]):
                            move = (value, trial)
            if move is None:
                break
            best, mechs = move
        signature = sorted(tuple(p.id for p in m.parts) for m in mechs)
        if all(sorted(tuple(p.id for p in m.parts) for m in t) != signature for t in found):
            found.append(mechs)
    kits: dict[str, Any] = {}
    teams = []
    for mechs in found:
        names = []
        for mech in mechs:
            ids = tuple(p.id for p in mech.parts)  # chassis, head, arms, legs, back
            ident = next(
                (k for k, v in kits.items() if (v.part_ids, v.pilot) == (ids, mech.pilot.id)), None
            )
            if ident is None:
                ident = f"{CUSTOM_PREFIX}{len(kits) + 1}"
                kits[ident] = Kit(
                    ident,
                    f"Custom {len(kits) + 1}",
                    *ids,
                    pilot=mech.pilot.id,
                    provenance="assumed",
                )
            names.append(ident)
        teams.append("+".join(names))
    return kits, teams


def with_custom_teams(catalog: Catalog, count: int) -> tuple[Catalog, list[str]]:
    """The catalog with the kits of :func:`custom_teams` added, and those teams."""
    from dataclasses import replace

    kits, teams = custom_teams(catalog, count)
    return replace(catalog, kits={**catalog.kits, **kits}), teams
