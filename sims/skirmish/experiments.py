"""Mecha Skirmish experiments for ``mechbal simulate skirmish EXPERIMENT``.

Every experiment here plays battles with the chosen engine and writes one row per
battle. ``--n`` is the total number of battles: each grid cell (matchup x swept values)
gets ceil(N / cells). Matchup grids are ordered pairs, mirror matches included.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

from sims.core.catalog import CatalogError
from sims.core.protocol import (
    SIDES,
    TEXT,
    Batch,
    Column,
    Each,
    Experiment,
    Option,
    comma_list,
    per,
    per_side,
    whole_number,
)
from sims.skirmish import builds, reference, rules, team_counts, teams, vector
from sims.skirmish.battle import Battle, Side, compile_battle
from sims.skirmish.catalog import Catalog
from sims.skirmish.teams import legal_kit_teams

PARTS = ("head", "right_arm", "left_arm", "core", "back", "legs")
PART_LISTS = ("full", "playable")
DUEL_CHUNK = 50_000
TEAM_CHUNK = 20_000
RULEBOOK_TEAMS = ("courier+foreman+reaver", "bastion+foreman+courier", "bastion+reaver+courier")
PART = Each("part", PARTS)  # a mech's locations, by which parts are destroyed
ROUND = Each(
    "round", of=lambda catalog: range(1, catalog.params.round_cap + 1), text="1..round_cap"
)
MOUNT = Each("mount", (0, 1, 2), text="0, 1, 2 (right arm, left arm, back)")
CELL = Column("cell", "id", "the grid cell (manifest.json lists each cell's values)", pa.int32())


def _policies(catalog: Catalog, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    names = options.get("policy") or ["gunline"]
    for name in names:
        if name not in catalog.policies:
            raise CatalogError(
                "--policy", f"unknown policy {name!r} (known: {', '.join(catalog.policies)})"
            )
    return [(a, b) for a in names for b in names]


def duel_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every ordered pair of the chosen kits (mirrors included) x policy pairs."""
    kits = options.get("kits") or list(catalog.kits)
    for kit in kits:
        if kit not in catalog.kits:
            raise CatalogError("--kits", f"unknown kit {kit!r} (known: {', '.join(catalog.kits)})")
    return [
        {"side_a": a, "side_b": b, "policy_a": pa_, "policy_b": pb}
        for a in kits
        for b in kits
        for pa_, pb in _policies(catalog, options)
    ]


def team_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every ordered pair of the given fielded teams (mirrors included) x policy pairs."""
    teams = options.get("teams") or list(RULEBOOK_TEAMS)
    for team in teams:
        kits = team.split("+")
        for kit in kits:
            if kit not in catalog.kits:
                raise CatalogError("--teams", f"team {team!r}: unknown kit {kit!r}")
        if len(kits) != catalog.params.fielded:
            raise CatalogError(
                "--teams", f"team {team!r}: a fielded team is {catalog.params.fielded} kits"
            )
        problems = rules.team_problems([catalog.mech(k) for k in kits], catalog.params)
        if problems:
            raise CatalogError("--teams", f"team {team!r} is not legal: {problems[0]}")
    return [
        {"side_a": a, "side_b": b, "policy_a": pa_, "policy_b": pb}
        for a in teams
        for b in teams
        for pa_, pb in _policies(catalog, options)
    ]


def rating_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The round robin for ratings: every ordered pair of legal kit teams at the Team
    Cap (or of ``--teams``), plus ``--custom N`` strong custom teams
    (``teams.custom_teams``), mirrors included, under the chosen policies."""
    teams = list(options.get("teams") or legal_kit_teams(catalog))
    count = options.get("custom") or 0
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise CatalogError("--custom", f"expected a number of custom teams, got {count!r}")
    if count:
        catalog, extra = _with_custom(catalog, count)
        teams += extra
    cells = team_cells(catalog, {**options, "teams": teams})
    return [{**cell, "custom": count} for cell in cells] if count else cells


def rating_notes(catalog: Catalog, options: Mapping[str, Any]) -> dict[str, Any]:
    """The custom kits a ratings run made up (rows name them only by id)."""
    count = options.get("custom") or 0
    if not count:
        return {}
    with_custom, _ = _with_custom(catalog, count)
    return {
        "custom_kits": {
            k: {"parts": list(v.part_ids), "pilot": v.pilot}
            for k, v in with_custom.kits.items()
            if k.startswith(teams.CUSTOM_PREFIX)
        }
    }


_CUSTOM_CACHE: dict[tuple, tuple[Catalog, list[str]]] = {}


def _with_custom(catalog: Catalog, count: int) -> tuple[Catalog, list[str]]:
    # Workers rebuild the same custom kits from the catalog (deterministic); once each.
    key = (str(catalog.root), catalog.overrides, count)
    if key not in _CUSTOM_CACHE:
        _CUSTOM_CACHE[key] = teams.with_custom_teams(catalog, count)
    return _CUSTOM_CACHE[key]


_BATTLES: dict[tuple, Battle] = {}


def _battle(catalog: Catalog, cell: Mapping[str, Any]) -> Battle:
    """The compiled matchup of a cell; a worker compiles each matchup of a catalog
    variant once, however many chunks hold it."""
    key = (
        str(catalog.root),
        catalog.overrides,
        cell.get("custom", 0),
        cell["side_a"],
        cell["side_b"],
        cell["policy_a"],
        cell["policy_b"],
    )
    if key not in _BATTLES:
        if len(_BATTLES) > 20_000:  # a bound on a long-lived worker's memory
            _BATTLES.clear()
        side_a = Side(tuple(cell["side_a"].split("+")), cell["policy_a"])
        side_b = Side(tuple(cell["side_b"].split("+")), cell["policy_b"])
        _BATTLES[key] = compile_battle(catalog, side_a, side_b)
    return _BATTLES[key]


def battle_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    """Play a chunk's battles, every matchup of it in one engine call (each battle
    gathers its matchup by scenario id); one row per battle (module docstring)."""
    custom = batch.cells[0].get("custom")
    if custom:  # the ratings' custom kits live only in the run
        catalog = _with_custom(catalog, int(custom))[0]
    battles = [_battle(catalog, cell) for cell in batch.cells]
    play = reference.play if engine == "reference" else vector.play
    res = play(battles, batch.cell, rng)
    cell_numbers = np.array([c.get("cell", -1) for c in batch.cells], np.int32)
    cols: dict[str, Any] = {
        "cell": cell_numbers[batch.cell],
        "side_a": batch.column("side_a"),
        "side_b": batch.column("side_b"),
        "policy_a": batch.column("policy_a"),
        "policy_b": batch.column("policy_b"),
        "battle": batch.index,
        "winner": res["winner"].astype(np.int8),
        "rounds": res["rounds"].astype(np.int8),
        "decided": res["decided"].astype(np.int8),
        "hull_a": res["hull"][:, 0].astype(np.float32),
        "hull_b": res["hull"][:, 1].astype(np.float32),
    }
    for key, dtype in (
        ("kills", np.int16),
        ("crits", np.int32),
        ("shots", np.int32),
        ("hits", np.int32),
    ):
        cols[f"{key}_a"] = res[key][:, 0].astype(dtype)
        cols[f"{key}_b"] = res[key][:, 1].astype(dtype)
    for s, side in enumerate("ab"):
        for i, part in enumerate(PARTS):
            cols[f"destroyed_{side}_{part}"] = res["destroyed"][:, s, i].astype(np.int16)
    for key in ("points", "zones"):
        cols[f"{key}_a"] = res[key][:, 0].astype(np.int16)
        cols[f"{key}_b"] = res[key][:, 1].astype(np.int16)
    for s, side in enumerate("ab"):
        for r in range(res["zones_by_round"].shape[1]):
            cols[f"zones_{side}_r{r + 1}"] = res["zones_by_round"][:, r, s].astype(np.int8)
    sides = battles[0].side
    for s, side in enumerate("ab"):
        for k, m in enumerate(np.flatnonzero(sides == s)):
            cols[f"hex_{side}_{k}"] = res["hexes"][:, m].astype(np.int16)
            cols[f"down_{side}_{k}"] = res["down"][:, m]
    if all(b.mechs == 2 for b in battles):  # duels: hits and crits per weapon mount
        for s, side in enumerate("ab"):
            for k in range(3):
                names = [_mounted(catalog, cell[f"side_{side}"], k) for cell in batch.cells]
                cols[f"weapon_{side}_{k}"] = batch.column_of(names, pa.string())
                cols[f"hits_{side}_{k}"] = res["mount_hits"][:, s, k].astype(np.int16)
                cols[f"crits_{side}_{k}"] = res["mount_crits"][:, s, k].astype(np.int16)
    return pa.table(cols)


def _mounted(catalog: Catalog, kit: str, mount: int) -> str | None:
    """The weapon id on a kit's mount (0 right arm, 1 left arm, 2 back), else None."""
    mech = catalog.mech(kit)
    part = (mech.right_arm, mech.left_arm, mech.back)[mount]
    return part.id if part.is_weapon else None


def _only(name: str, allowed: str) -> Any:
    def check(swept: str) -> str | None:
        if re.fullmatch(allowed, swept):
            return None
        return f"{name} sweeps {allowed!r} only, got {swept!r}"

    return check


def build_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One cell per chassis of the chosen part list (``--parts full`` by default)."""
    which = options.get("parts") or "full"
    if which not in PART_LISTS:
        raise CatalogError("--parts", f"expected playable or full, got {which!r}")
    parts = _build_parts(catalog, which)
    return [{"chassis": cid, "parts": which} for cid in builds.slot_ids(parts)["chassis"]]


def _build_parts(catalog: Catalog, which: str) -> Mapping[str, Any]:
    if which == "playable":
        return catalog.parts
    # --set part.ID.FIELD reaches the full list too (other names are rules parameters)
    edits = {k: v for k, v in catalog.overrides if k.startswith("part.")}
    return builds.load_parts(catalog.root, "full", game_dir=True, overrides=edits)


def build_chunk(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    """Every build on one chassis (no randomness: the seed does not enter the rows)."""
    (cell,) = batch.cells  # an enumeration: one cell per chunk
    parts = _build_parts(catalog, cell["parts"])
    table = builds.build_rows(
        builds.enumerate_builds(parts, catalog.params, [cell["chassis"]]), parts
    )
    return table.append_column("cell", pa.array(np.full(table.num_rows, cell["cell"], np.int32)))


SLOTS = ("chassis", "head", "right_arm", "left_arm", "legs", "back")
BUILD_COLUMNS = (
    *(Column(s, "id", f"the {s} part id", pa.dictionary(pa.int16(), pa.string())) for s in SLOTS),
    Column(
        "class",
        "id",
        "light | medium | heavy (the chassis class)",
        pa.dictionary(pa.int8(), pa.string()),
    ),
    Column("weight", "count", "sum of the six parts' Weight (B3)", pa.int16()),
    Column("cap", "count", "the class cap (B3)", pa.int16()),
    Column("over", "count", "weight - cap (negative: Weight to spare)", pa.int16()),
    Column(
        "overload",
        "count",
        "Speed and Evasion lost: ceil(over / step) when over > 0 (B4)",
        pa.int16(),
    ),
    Column("legal", "probability", "over <= overload_max (B4)", pa.bool_()),
    Column(
        "evasion",
        "count",
        "chassis + legs Evasion - overload (C; no pilot: Piloting 0)",
        pa.int16(),
    ),
    Column("speed", "count", "chassis + legs Speed - overload (C)", pa.int16()),
    Column("sensors", "count", "chassis + head + back Sensors (C)", pa.int16()),
    Column("e_def", "count", "chassis + head E-Def (C; no pilot: Systems 0)", pa.int16()),
    Column("reactor_cap", "count", "chassis + back Reactor (C)", pa.int16()),
    Column("hull", "count", "sum of the six parts' Durability (C)", pa.int16()),
    Column("head_acc", "count", "the head's Acc (C: added to every attack)", pa.int8()),
    per(
        PART,
        Column(
            "band_<part>",
            "count",
            "d20 faces of that part: Sizes scaled to 20 by largest remainder (F4)",
            pa.int8(),
        ),
    ),
    CELL,
)

TEAM_CAP_DOC = """``team-cap``: exact counts, no randomness, one chunk per cell. Methods:
sims/skirmish/team_counts.py (builds), sims/skirmish/teams.py (kits, rosters)."""
TEAM_CAP_COLUMNS = (
    Column(
        "of",
        "id",
        "what the rows count: kits (fielded teams of three distinct kits with their "
        "suggested pilots), builds (fielded teams of builds of the --parts list), "
        "kit_rosters (rosters of four distinct kits)",
        pa.string(),
    ),
    Column(
        "parts", "id", "the part list: full or playable (kits and rosters: playable)", pa.string()
    ),
    Column("team_cap", "id", "the Team Cap, 100..200 (003 B3)", pa.int16()),
    *(
        Column(c, "count", f"{c} mechs of the fielded three (null for rosters)", pa.int8())
        for c in ("light", "medium", "heavy")
    ),
    Column(
        "teams",
        "count",
        "legal fielded teams: unordered, within the cap, at most copy_limit copies of any "
        "part (chassis and both arms included, B)",
        pa.decimal128(38, 0),
    ),
    Column(
        "ordered", "count", "builds: ordered triples (teams x 6 for kits)", pa.decimal128(38, 0)
    ),
    Column(
        "piloted",
        "count",
        "builds: teams with a pilot each, all different (ordered x P(P-1)(P-2)/6); kits: "
        "teams (their suggested pilots)",
        pa.decimal128(38, 0),
    ),
    Column(
        "legal_trios",
        "count",
        "rosters: how many of the roster's four trios fit the cap (4: every sideboard swap "
        "stays legal, I2)",
        pa.int8(),
    ),
    Column("rosters", "count", "rosters with that many legal trios", pa.int32()),
    Column("cell", "id", "the grid cell (manifest.json lists each cell's values)", pa.int32()),
)


def team_cap_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Kit teams, teams of builds of the chosen part list, and kit rosters."""
    which = build_cells(catalog, options)[0]["parts"]
    team_counts.check_supported(catalog.params)
    return [
        {"of": "kits", "parts": "playable"},
        {"of": "builds", "parts": which},
        {"of": "kit_rosters", "parts": "playable"},
    ]


def team_cap_chunk(
    catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str
) -> pa.Table:
    """One cell's counts for every Team Cap 100..200 (no randomness)."""
    (cell,) = batch.cells  # an enumeration: one cell per chunk
    if cell["of"] == "builds":
        parts = _build_parts(catalog, cell["parts"])
        frame = team_counts.build_team_counts(parts, catalog.params, len(catalog.pilots))
    elif cell["of"] == "kits":
        frame = teams.kit_team_counts(catalog).with_columns(
            ordered=pl.col("teams") * 6, piloted=pl.col("teams")
        )
    else:
        frame = teams.kit_roster_counts(catalog)
    rows = frame.with_columns(of=pl.lit(cell["of"]), parts=pl.lit(cell["parts"])).to_arrow()
    n = rows.num_rows
    cols = {
        c.name: (
            rows[c.name].cast(c.dtype) if c.name in rows.column_names else pa.nulls(n, c.dtype)
        )
        for c in TEAM_CAP_COLUMNS[:-1]
    }
    cols["cell"] = pa.array(np.full(n, cell["cell"], np.int32))
    return pa.table(cols)


def _part_list(text: str) -> str:
    if text not in PART_LISTS:
        raise ValueError(f"expected playable or full, got {text!r}")
    return text


KITS = Option(
    "kits", "kit ids, comma-separated (default: every kit)", comma_list, metavar="K1,K2,..."
)
POLICY = Option(
    "policy",
    "policies of catalogs/skirmish/policies.toml, comma-separated (default gunline)",
    comma_list,
    default="gunline",
    metavar="P1,P2,...",
)
TEAMS = Option(
    "teams",
    "fielded teams, comma-separated, each its kits joined by +: k1+k2+k3,k4+k5+k6",
    comma_list,
    metavar="TEAM,...",
)
PARTS_OPTION = Option(
    "parts",
    "the part list: full (parts_full.toml, default) or playable",
    _part_list,
    default="full",
    metavar="LIST",
)
CUSTOM = Option(
    "custom", "add this many strong custom teams (teams.custom_teams)", whole_number, metavar="K"
)


def battle_columns(mech: Each, duels: bool) -> tuple[Any, ...]:
    """The rows of :func:`battle_rows`: ``mech`` numbers a side's mechs; ``duels`` adds
    the columns per weapon mount."""
    columns = (
        CELL,
        per_side("side", TEXT, "id", 'kit ids; a team is its kit ids joined by "+"'),
        per_side("policy", TEXT, "id", "the sides' policies (catalogs/skirmish/policies.toml)"),
        Column("battle", "id", "index of the battle within its cell", pa.int64()),
        Column(
            "winner",
            "label",
            "the side that won; a draw counts as half a win",
            pa.int8(),
            ("a", "b", "draw"),
        ),
        Column("rounds", "count", "rounds played (at most the round cap)", pa.int8()),
        Column(
            "decided",
            "label",
            "what decided the battle: a wipe, points, Hull percentage, or a draw",
            pa.int8(),
            ("wipe", "points", "hull", "draw"),
        ),
        per_side(
            "hull", pa.float32(), "expectation", "Hull left, current over maximum Durability (0..1)"
        ),
        per_side("kills", pa.int16(), "count", "enemy mechs destroyed by the side"),
        per_side("crits", pa.int32(), "count", "crits dealt by the side"),
        per_side("shots", pa.int32(), "count", "shots fired by the side"),
        per_side("hits", pa.int32(), "count", "hits landed by the side"),
        per(
            (SIDES, PART),
            Column(
                "destroyed_<side>_<part>",
                "count",
                "parts destroyed on that side's mechs, by location",
                pa.int16(),
            ),
        ),
        per_side(
            "points",
            pa.int16(),
            "count",
            "score (003 I4): 3 per enemy mech destroyed, 1 per zone held at the end of each "
            "round; after a sudden-death round, the score at the round cap (that round "
            "decides by a wipe or Hull)",
        ),
        per_side(
            "zones", pa.int16(), "count", "zone-rounds held (0 on the track: it has no zones)"
        ),
        per(
            (SIDES, ROUND),
            Column(
                "zones_<side>_r<round>",
                "count",
                "zones that side held at the end of that round",
                pa.int8(),
            ),
        ),
        per(
            (SIDES, mech),
            Column(
                "hex_<side>_<mech>",
                "id",
                "where that mech stands at the end, or where it was destroyed: the map's flat "
                "hex index row * length + col (on the track its hex, side A starting at 0)",
                pa.int16(),
            ),
            Column("down_<side>_<mech>", "probability", "that mech was destroyed", pa.bool_()),
        ),
    )
    if not duels:
        return columns
    return (
        *columns,
        per(
            (SIDES, MOUNT),
            Column(
                "weapon_<side>_<mount>",
                "id",
                "the weapon id on that mount (null where it holds none)",
                TEXT,
            ),
            Column("hits_<side>_<mount>", "count", "hits that weapon's Fire landed", pa.int16()),
            Column("crits_<side>_<mount>", "count", "crits that weapon's Fire landed", pa.int16()),
        ),
    )


DUEL_COLUMNS = battle_columns(Each("mech", (0,), text="0 (one mech a side)"), duels=True)
TEAM_COLUMNS = battle_columns(
    Each(
        "mech", of=lambda catalog: range(catalog.params.fielded), text="0..fielded - 1 (team order)"
    ),
    duels=False,
)
DUEL_ROWS = "one row per battle; swept values are the run's hive folders, run parameters come from its manifest; see ``mechbal query``"

EXPERIMENTS = {
    "duel": Experiment(
        name="duel",
        summary="every kit against every kit (both orders, mirrors) under the chosen policies",
        doc=__doc__ or "",
        chunk_size=DUEL_CHUNK,
        cells=duel_cells,
        run_chunk=battle_rows,
        columns=DUEL_COLUMNS,
        rows=DUEL_ROWS,
        options=(KITS, POLICY),
    ),
    "teamfight": Experiment(
        name="teamfight",
        summary="3v3 between the given fielded teams (default: the rulebook's three)",
        doc=__doc__ or "",
        chunk_size=TEAM_CHUNK,
        cells=team_cells,
        run_chunk=battle_rows,
        columns=TEAM_COLUMNS,
        rows=DUEL_ROWS,
        options=(TEAMS, POLICY),
    ),
    "ratings": Experiment(
        name="ratings",
        summary="round robin of every legal kit team at the Team Cap, for Bradley-Terry "
        "ratings (analysis.ratings)",
        doc=__doc__ or "",
        chunk_size=TEAM_CHUNK,
        cells=rating_cells,
        run_chunk=battle_rows,
        columns=TEAM_COLUMNS,
        rows=DUEL_ROWS,
        options=(TEAMS, POLICY, CUSTOM),
        run_notes=rating_notes,
    ),
    "crit-margin": Experiment(
        name="crit-margin",
        summary="the duel grid swept over crit_margin 2..6 (003 F5)",
        doc=__doc__ or "",
        chunk_size=DUEL_CHUNK,
        cells=duel_cells,
        run_chunk=battle_rows,
        columns=DUEL_COLUMNS,
        rows=DUEL_ROWS,
        default_sweep={"crit_margin": [2, 3, 4, 5, 6]},
        check_sweep=_only("crit-margin", r"crit_margin"),
        options=(KITS, POLICY),
    ),
    "builds": Experiment(
        name="builds",
        summary="every mech buildable from the part list (--parts full|playable), legal flag",
        doc=builds.__doc__ or "",
        columns=BUILD_COLUMNS,
        rows="one row per build, with the legal flag",
        chunk_size=1,
        cells=build_cells,
        run_chunk=build_chunk,
        needs_n=False,
        options=(PARTS_OPTION,),
        identity_files=("parts_full.toml",),
    ),
    "team-cap": Experiment(
        name="team-cap",
        summary="exact counts of legal fielded teams (kits and builds) and kit rosters for "
        "every Team Cap 100..200, by class mix",
        doc=TEAM_CAP_DOC,
        columns=TEAM_CAP_COLUMNS,
        rows="one row per count",
        chunk_size=1,
        cells=team_cap_cells,
        run_chunk=team_cap_chunk,
        needs_n=False,
        options=(PARTS_OPTION,),
        identity_files=("parts_full.toml",),
    ),
    "bands": Experiment(
        name="bands",
        summary="the duel grid with one part's Size varied (--sweep part.ID.size=...)",
        doc=__doc__ or "",
        chunk_size=DUEL_CHUNK,
        cells=duel_cells,
        run_chunk=battle_rows,
        columns=DUEL_COLUMNS,
        rows=DUEL_ROWS,
        sweep_required="--sweep part.ID.size=V1,V2,... (one part's Size)",
        check_sweep=_only("bands", r"part\.[a-z0-9_]+\.size"),
        options=(KITS, POLICY),
    ),
}
