"""Alluvion Knights catalogs: schema, loading and validation (001).

A catalog folder (``catalogs/alluvion/``) holds:

- ``systems.toml``    ``[[system]]`` the seven system kinds (The Systems)
- ``reach.toml``      ``[[reach]]`` spotting reach by surveillance systems carried
- ``chassis.toml``    ``[[chassis]]`` frames: system slots and base movement (assumed)
- ``cover.toml``      ``[[cover]]`` cover materials and their Object Health (assumed)
- ``repairs.toml``    ``[[repair]]`` the repairs roll (Repairs)
- ``policies.toml``   ``[[policy]]`` how a Knight plays its actions and assigns dice
- ``loadouts.toml``   ``[[loadout]]`` named loadouts the study plays
- ``scenarios.toml``  ``[[scenario]]`` battles the engines are checked on
- ``rules.toml``      rules parameter values (``params.Parameters``)
- ``claims.toml``     the rulebook's claims, checked by ``mechbal claims alluvion``

A loadout's systems are kept as a count per kind in :data:`KINDS` order; the order and
the kinds are the rulebook's, so a catalog cannot add an eighth kind (the engines'
arrays are laid out by them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.alluvion import rules
from sims.alluvion.params import Parameters
from sims.core.catalog import (
    CatalogError,
    FieldSpec,
    apply_overrides,
    check_entry,
    check_reference,
    entries,
    load_toml,
)
from sims.core.dist import Dist
from sims.core.params import load_params

GAME = "alluvion"
KINDS = rules.KINDS
FAMILIES = ("defense", "movement", "surveillance", "weapon")
ATTACKS = ("", "close", "ranged", "smart")
DEFENSE_POLICIES = ("block", "highest")
AMBUSH = ("none", "a", "b")


@dataclass(frozen=True)
class System:
    id: str
    name: str
    family: str
    code: str  # the letter of a loadout code (lower-case)
    attack: str  # close | ranged | smart for weapons, "" otherwise
    ecm: bool
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reach:
    id: str
    surveillance: int
    range: int  # hexes, 0 anywhere
    cover: bool
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chassis:
    id: str
    name: str
    slots: int
    base_move: int  # meters a round
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cover:
    id: str
    name: str
    oh: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Repair:
    id: str
    low: int
    high: int
    replaces: str  # dice expression
    choice: bool
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    id: str
    approach: bool
    spotter: bool
    grapple: bool
    clear_infantry: bool
    rockets_from: int
    defense: str
    hold: bool
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loadout:
    """An Armor as fielded: a chassis, a count of systems per kind (KINDS order),
    single-shot rockets and the policy it plays."""

    id: str
    chassis: str
    counts: tuple[int, ...]  # systems per kind, KINDS order
    rockets: int
    policy: str = "gunline"
    provenance: str = "assumed"
    rulebook_fields: tuple[str, ...] = ()

    @property
    def code(self) -> str:
        return rules.loadout_code(self.chassis, self.counts, self.rockets)


@dataclass(frozen=True)
class Scenario:
    id: str
    a: tuple[str, ...]  # loadout ids
    b: tuple[str, ...]
    squads_a: int
    squads_b: int
    morale_a: int
    morale_b: int
    ambush: str
    cover_a: str
    cover_b: str
    depleted_a: bool
    depleted_b: bool
    range: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalog:
    root: Path
    systems: dict[str, System]
    reach: tuple[Reach, ...]  # by surveillance systems 0, 1, 2
    chassis: dict[str, Chassis]
    cover: dict[str, Cover]
    repairs: tuple[Repair, ...]
    policies: dict[str, Policy]
    loadouts: dict[str, Loadout]
    scenarios: dict[str, Scenario]
    params: Parameters
    param_provenance: dict[str, str]
    overrides: tuple[tuple[str, Any], ...] = ()

    def loadout(self, text: str) -> Loadout:
        """A named loadout, or one written as a code (``knight:rsdd+1r``); anything
        else is an InputError naming it."""
        if text in self.loadouts:
            return self.loadouts[text]
        return parse_loadout(text, self)


FILES = (
    "rules.toml",
    "systems.toml",
    "reach.toml",
    "chassis.toml",
    "cover.toml",
    "repairs.toml",
    "policies.toml",
    "loadouts.toml",
    "scenarios.toml",
)
# --set KIND.ID.FIELD: the file each kind lives in
KIND_FILES = {
    "system": "systems.toml",
    "reach": "reach.toml",
    "chassis": "chassis.toml",
    "cover": "cover.toml",
    "repair": "repairs.toml",
    "policy": "policies.toml",
    "loadout": "loadouts.toml",
    "scenario": "scenarios.toml",
}


def _load_systems(path: Path, doc: dict[str, Any]) -> dict[str, System]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("family", "str", choices=FAMILIES),
        FieldSpec("code", "str"),
        FieldSpec("attack", "str", choices=ATTACKS),
        FieldSpec("ecm", "bool"),
    ]
    out = {
        raw["id"]: System(**check_entry(raw, specs, path, "system"))
        for raw in entries(doc, "system", path)
    }
    if tuple(out) != KINDS:
        raise CatalogError(path, f"must list the seven kinds in order: {', '.join(KINDS)}")
    for s in out.values():
        if s.family != rules.FAMILY[s.id]:
            raise CatalogError(
                path,
                f"{s.id} is a {rules.FAMILY[s.id]} system",
                kind="system",
                entry=s.id,
                field="family",
            )
        if (s.family == "weapon") != bool(s.attack):
            raise CatalogError(
                path,
                "weapons (and only weapons) name their attack",
                kind="system",
                entry=s.id,
                field="attack",
            )
        if len(s.code) != 1 or not s.code.islower():
            raise CatalogError(
                path,
                f"{s.code!r} is not one lower-case letter",
                kind="system",
                entry=s.id,
                field="code",
            )
    codes = [s.code for s in out.values()]
    if len(set(codes)) != len(codes):
        raise CatalogError(
            path,
            "two systems share a code letter",
            kind="system",
            entry=next(s.id for s in out.values() if codes.count(s.code) > 1),
            field="code",
        )
    return out


def _load_reach(path: Path, doc: dict[str, Any]) -> tuple[Reach, ...]:
    specs = [
        FieldSpec("surveillance", "int", min=0, max=4),
        FieldSpec("range", "int", min=0, max=200),
        FieldSpec("cover", "bool"),
    ]
    out = tuple(
        Reach(**check_entry(raw, specs, path, "reach")) for raw in entries(doc, "reach", path)
    )
    if [r.surveillance for r in out] != list(range(len(out))):
        raise CatalogError(path, "one entry per surveillance count 0, 1, 2, ... in order")
    return out


def _load_chassis(path: Path, doc: dict[str, Any]) -> dict[str, Chassis]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("slots", "int", min=1, max=14),
        FieldSpec("base_move", "int", min=0, max=60),
    ]
    return {
        raw["id"]: Chassis(**check_entry(raw, specs, path, "chassis"))
        for raw in entries(doc, "chassis", path)
    }


def _load_cover(path: Path, doc: dict[str, Any]) -> dict[str, Cover]:
    specs = [FieldSpec("name", "str"), FieldSpec("oh", "int", min=1, max=100)]
    return {
        raw["id"]: Cover(**check_entry(raw, specs, path, "cover"))
        for raw in entries(doc, "cover", path)
    }


def _load_repairs(path: Path, doc: dict[str, Any]) -> tuple[Repair, ...]:
    specs = [
        FieldSpec("low", "int", min=1, max=6),
        FieldSpec("high", "int", min=1, max=6),
        FieldSpec("replaces", "dice"),
        FieldSpec("choice", "bool"),
    ]
    out = tuple(
        Repair(**check_entry(raw, specs, path, "repair")) for raw in entries(doc, "repair", path)
    )
    faces = sorted(f for r in out for f in range(r.low, r.high + 1))
    if faces != list(range(1, 7)):
        raise CatalogError(path, "the repairs must cover each face 1..6 of the d6 once")
    for r in out:
        Dist.parse(r.replaces)
    return out


def _load_policies(path: Path, doc: dict[str, Any]) -> dict[str, Policy]:
    specs = [
        FieldSpec("approach", "bool"),
        FieldSpec("spotter", "bool"),
        FieldSpec("grapple", "bool"),
        FieldSpec("clear_infantry", "bool"),
        FieldSpec("rockets_from", "int", min=0, max=30),
        FieldSpec("defense", "str", choices=DEFENSE_POLICIES),
        FieldSpec("hold", "bool"),
    ]
    return {
        raw["id"]: Policy(**check_entry(raw, specs, path, "policy"))
        for raw in entries(doc, "policy", path)
    }


def _load_loadouts(
    path: Path, doc: dict[str, Any], chassis, policies, systems, params: Parameters
) -> dict[str, Loadout]:
    specs = [
        FieldSpec("chassis", "id"),
        FieldSpec("systems", "list[str]"),
        FieldSpec("rockets", "int", min=0, max=10),
        FieldSpec("policy", "id"),
    ]
    out = {}
    for raw in entries(doc, "loadout", path):
        vals = check_entry(raw, specs, path, "loadout")
        ident = vals["id"]
        check_reference(vals["chassis"], chassis, path, "loadout", ident, "chassis", "chassis")
        check_reference(vals["policy"], policies, path, "loadout", ident, "policy", "policy")
        for s in vals["systems"]:
            check_reference(s, systems, path, "loadout", ident, "systems", "system")
        counts = tuple(vals["systems"].count(k) for k in KINDS)
        problem = rules.loadout_problem(
            counts, vals["rockets"], chassis[vals["chassis"]].slots, params
        )
        if problem:
            field = "rockets" if "rocket" in problem else "systems"
            raise CatalogError(path, problem, kind="loadout", entry=ident, field=field)
        out[ident] = Loadout(
            ident,
            vals["chassis"],
            counts,
            vals["rockets"],
            vals["policy"],
            vals["provenance"],
            tuple(vals["rulebook_fields"]),
        )
    return out


def _load_scenarios(path: Path, doc: dict[str, Any], loadouts, cover) -> dict[str, Scenario]:
    specs = [
        FieldSpec("a", "list[str]"),
        FieldSpec("b", "list[str]"),
        FieldSpec("squads_a", "int", min=0, max=2),
        FieldSpec("squads_b", "int", min=0, max=2),
        FieldSpec("morale_a", "int", min=0, max=10),
        FieldSpec("morale_b", "int", min=0, max=10),
        FieldSpec("ambush", "str", choices=AMBUSH),
        FieldSpec("cover_a", "str"),
        FieldSpec("cover_b", "str"),
        FieldSpec("depleted_a", "bool"),
        FieldSpec("depleted_b", "bool"),
        FieldSpec("range", "int", min=0, max=60),
    ]
    out = {}
    for raw in entries(doc, "scenario", path):
        vals = check_entry(raw, specs, path, "scenario")
        ident = vals["id"]
        for side in ("a", "b"):
            if not 1 <= len(vals[side]) <= rules.MAX_ARMORS:
                raise CatalogError(
                    path,
                    f"a side fields 1..{rules.MAX_ARMORS} Armors",
                    kind="scenario",
                    entry=ident,
                    field=side,
                )
            for lid in vals[side]:
                check_reference(lid, loadouts, path, "scenario", ident, side, "loadout")
            if vals[f"cover_{side}"] != "none":
                check_reference(
                    vals[f"cover_{side}"], cover, path, "scenario", ident, f"cover_{side}", "cover"
                )
            if 0 < vals[f"morale_{side}"] < 3:
                raise CatalogError(
                    path,
                    "a Morale rating runs 3..10 (0: never checks)",
                    kind="scenario",
                    entry=ident,
                    field=f"morale_{side}",
                )
        vals["a"], vals["b"] = tuple(vals["a"]), tuple(vals["b"])
        vals["rulebook_fields"] = tuple(vals["rulebook_fields"])
        out[ident] = Scenario(**vals)
    return out


def parse_loadout(text: str, catalog: Catalog) -> Loadout:
    """A loadout written ``chassis:LETTERS[+Nr][@policy]`` (``knight:rsdd+1r``; the letters
    are systems.toml's codes, in either case): an InputError naming the text and the
    problem."""
    from sims.core.protocol import InputError

    letters = {s.code: s.id for s in catalog.systems.values()}
    head, _, policy = text.partition("@")
    chassis, sep, rest = head.partition(":")
    codes, _, rockets = rest.partition("+")
    if not sep or chassis not in catalog.chassis:
        known = ", ".join(sorted(catalog.loadouts))
        raise InputError(
            f"loadout {text!r}: neither a named loadout ({known}) nor a code "
            f"like knight:rsdd+1r (chassis: {', '.join(catalog.chassis)})"
        )
    codes = codes.lower()
    bad = [c for c in codes if c not in letters]
    if bad:
        raise InputError(
            f"loadout {text!r}: unknown system letter {bad[0]!r} "
            f"(known: {', '.join(f'{k}={v}' for k, v in letters.items())})"
        )
    if rockets and not (rockets.endswith("r") and rockets[:-1].isdigit()):
        raise InputError(f"loadout {text!r}: rockets are written +Nr, e.g. +2r")
    policy = policy or "gunline"
    if policy not in catalog.policies:
        raise InputError(
            f"loadout {text!r}: unknown policy {policy!r} (known: {', '.join(catalog.policies)})"
        )
    counts = tuple(sum(letters[c] == k for c in codes) for k in KINDS)
    n_rockets = int(rockets[:-1]) if rockets else 0
    problem = rules.loadout_problem(
        counts, n_rockets, catalog.chassis[chassis].slots, catalog.params
    )
    if problem:
        raise InputError(f"loadout {text!r}: {problem}")
    return Loadout(text, chassis, counts, n_rockets, policy, "assumed")


def load_catalog(
    root: Path | str, game_dir: bool = False, overrides: Mapping[str, Any] | None = None
) -> Catalog:
    """Load and validate the Alluvion catalog (``root`` holds one folder per game, or
    with ``game_dir=True`` is the ``alluvion`` folder itself); ``overrides`` are designer
    edits (``{"pilot_hp": 2, "chassis.knight.slots": 5}``) applied first."""
    folder = Path(root) if game_dir else Path(root) / GAME
    if not folder.is_dir():
        raise CatalogError(folder, "catalog folder not found")
    docs = {name: load_toml(folder / name) for name in FILES}
    if overrides:
        apply_overrides(docs, overrides, KIND_FILES, "rules.toml")
    params, provenance = load_params(Parameters, folder / "rules.toml", docs["rules.toml"])
    systems = _load_systems(folder / "systems.toml", docs["systems.toml"])
    chassis = _load_chassis(folder / "chassis.toml", docs["chassis.toml"])
    cover = _load_cover(folder / "cover.toml", docs["cover.toml"])
    policies = _load_policies(folder / "policies.toml", docs["policies.toml"])
    loadouts = _load_loadouts(
        folder / "loadouts.toml", docs["loadouts.toml"], chassis, policies, systems, params
    )
    return Catalog(
        root=folder,
        systems=systems,
        reach=_load_reach(folder / "reach.toml", docs["reach.toml"]),
        chassis=chassis,
        cover=cover,
        repairs=_load_repairs(folder / "repairs.toml", docs["repairs.toml"]),
        policies=policies,
        loadouts=loadouts,
        scenarios=_load_scenarios(
            folder / "scenarios.toml", docs["scenarios.toml"], loadouts, cover
        ),
        params=params,
        param_provenance=provenance,
        overrides=tuple(sorted((overrides or {}).items())),
    )
