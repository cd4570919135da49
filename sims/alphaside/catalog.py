"""ALPHASIDE catalogs: schema, loading and validation (004).

A catalog folder (``catalogs/alphaside/``) holds:

- ``weapons.toml``    ``[[weapon]]`` TL cost, Range, Strength, Accuracy, area, crit effect
- ``abilities.toml``  ``[[ability]]`` Command abilities paid with Energy
- ``tactics.toml``    ``[[tactic]]`` Tactics cards that change attack odds
- ``policies.toml``   ``[[policy]]`` how a unit plays an activation
- ``units.toml``      ``[[unit]]`` HP, Shields, Speed, VP, faction, weapons, abilities
- ``squads.toml``     ``[[squad]]`` squads of 3 or 5 units and their Tactics decks
- ``rules.toml``      rules parameter values (``params.Parameters``)
- ``claims.toml``     the rulebook's claims, checked by ``mechbal claims alphaside``

The rulebook prints no unit, weapon or card: every entry is ``provenance = "assumed"``
and listed in ``ASSUMPTIONS.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.alphaside import rules
from sims.alphaside.params import Parameters
from sims.core.catalog import (
    CatalogError,
    FieldSpec,
    apply_overrides,
    check_entry,
    check_reference,
    entries,
    load_toml,
)
from sims.core.params import load_params

GAME = "alphaside"
CRIT_EFFECTS = ("none", "damage", "slow", "fracture", "disarm", "push", "pull")
ABILITY_EFFECTS = ("strength", "accuracy", "repair", "shields")
TACTIC_EFFECTS = ("accuracy", "strength", "crit_from", "damage")
APPROACH = ("close", "keep_range")
WEAPON_CHOICE = ("per_tl", "strongest")
SQUAD_SIZES = (3, 5)
MAX_WEAPONS = 2
MAX_ABILITIES = 2


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    tl: int
    range: int
    strength: int
    accuracy: int
    area: int
    crit_effect: str
    crit_value: int
    crit_from: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    energy: int
    effect: str
    value: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tactic:
    id: str
    name: str
    effect: str
    value: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    id: str
    approach: str
    weapon: str
    ability: bool
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    title: str
    faction: str
    hp: int
    shields: int
    speed: int
    vp: int
    mass_produced: bool
    weapons: tuple[str, ...]
    abilities: tuple[str, ...]
    policy: str
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Squad:
    id: str
    units: tuple[str, ...]
    tactics: tuple[str, ...]
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalog:
    root: Path
    weapons: dict[str, Weapon]
    abilities: dict[str, Ability]
    tactics: dict[str, Tactic]
    policies: dict[str, Policy]
    units: dict[str, Unit]
    squads: dict[str, Squad]
    params: Parameters
    param_provenance: dict[str, str]
    overrides: tuple[tuple[str, Any], ...] = ()


FILES = (
    "rules.toml",
    "weapons.toml",
    "abilities.toml",
    "tactics.toml",
    "policies.toml",
    "units.toml",
    "squads.toml",
)
KIND_FILES = {
    "weapon": "weapons.toml",
    "ability": "abilities.toml",
    "tactic": "tactics.toml",
    "policy": "policies.toml",
    "unit": "units.toml",
    "squad": "squads.toml",
}


def _load_weapons(path: Path, doc: dict[str, Any], params: Parameters) -> dict[str, Weapon]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("tl", "int", min=1, max=20),
        FieldSpec("range", "int", min=1, max=40),
        FieldSpec("strength", "int", min=1, max=20),
        FieldSpec("accuracy", "int", min=-3, max=3),
        FieldSpec("area", "int", min=0, max=5),
        FieldSpec("crit_effect", "str", choices=CRIT_EFFECTS),
        FieldSpec("crit_value", "int", min=0, max=10),
        FieldSpec("crit_from", "int", min=2, max=params.die),
    ]
    out = {}
    for raw in entries(doc, "weapon", path):
        vals = check_entry(raw, specs, path, "weapon")
        valued = vals["crit_effect"] in ("damage", "push", "pull")
        if valued != (vals["crit_value"] > 0):
            raise CatalogError(
                path,
                "a damage, push or pull effect needs a value above 0; the others 0",
                kind="weapon",
                entry=vals["id"],
                field="crit_value",
            )
        vals["rulebook_fields"] = tuple(vals["rulebook_fields"])
        out[vals["id"]] = Weapon(**vals)
    return out


def _load_simple(path: Path, doc: dict[str, Any], kind: str, cls: type, specs: list) -> dict:
    out = {}
    for raw in entries(doc, kind, path):
        vals = check_entry(raw, specs, path, kind)
        vals["rulebook_fields"] = tuple(vals["rulebook_fields"])
        out[vals["id"]] = cls(**vals)
    return out


def _load_units(path: Path, doc: dict[str, Any], weapons, abilities, policies) -> dict[str, Unit]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("title", "str"),
        FieldSpec("faction", "id"),
        FieldSpec("hp", "int", min=1, max=40),
        FieldSpec("shields", "int", min=0, max=6),
        FieldSpec("speed", "int", min=0, max=6),
        FieldSpec("vp", "int", min=0, max=20),
        FieldSpec("mass_produced", "bool"),
        FieldSpec("weapons", "list[str]"),
        FieldSpec("abilities", "list[str]"),
        FieldSpec("policy", "id"),
    ]
    out = {}
    for raw in entries(doc, "unit", path):
        vals = check_entry(raw, specs, path, "unit")
        ident = vals["id"]
        if not 1 <= len(vals["weapons"]) <= MAX_WEAPONS:
            raise CatalogError(
                path,
                f"a unit carries 1..{MAX_WEAPONS} weapons",
                kind="unit",
                entry=ident,
                field="weapons",
            )
        for w in vals["weapons"]:
            check_reference(w, weapons, path, "unit", ident, "weapons", "weapon")
        if len(vals["abilities"]) > MAX_ABILITIES:
            raise CatalogError(
                path,
                f"a unit has at most {MAX_ABILITIES} abilities",
                kind="unit",
                entry=ident,
                field="abilities",
            )
        for a in vals["abilities"]:
            check_reference(a, abilities, path, "unit", ident, "abilities", "ability")
        check_reference(vals["policy"], policies, path, "unit", ident, "policy", "policy")
        vals["rulebook_fields"] = tuple(vals["rulebook_fields"])
        out[ident] = Unit(**vals)
    return out


def squad_problem(unit_ids: tuple[str, ...], units: Mapping[str, Unit]) -> str | None:
    """Why a squad cannot be fielded, or None (Squad & Tactics deck)."""
    if len(unit_ids) not in SQUAD_SIZES:
        return f"{len(unit_ids)} units: a squad has 3 or 5"
    for uid, n in Counter(unit_ids).items():
        if uid in units and n > 1 and not units[uid].mass_produced:
            return f"{n} copies of {uid!r}, which is not Mass Produced"
    return None


def _load_squads(path: Path, doc: dict[str, Any], units, tactics, params) -> dict[str, Squad]:
    specs = [FieldSpec("units", "list[str]"), FieldSpec("tactics", "list[str]")]
    out = {}
    deck = rules.deck_size(params)
    for raw in entries(doc, "squad", path):
        vals = check_entry(raw, specs, path, "squad")
        ident = vals["id"]
        for u in vals["units"]:
            check_reference(u, units, path, "squad", ident, "units", "unit")
        if problem := squad_problem(vals["units"], units):
            raise CatalogError(path, problem, kind="squad", entry=ident, field="units")
        for t in vals["tactics"]:
            check_reference(t, tactics, path, "squad", ident, "tactics", "tactic")
        if len(vals["tactics"]) != deck or len(set(vals["tactics"])) != deck:
            raise CatalogError(
                path,
                f"a deck holds exactly {deck} cards, each once, for {params.phases} Phases",
                kind="squad",
                entry=ident,
                field="tactics",
            )
        vals["rulebook_fields"] = tuple(vals["rulebook_fields"])
        out[ident] = Squad(**vals)
    return out


def load_catalog(
    root: Path | str, game_dir: bool = False, overrides: Mapping[str, Any] | None = None
) -> Catalog:
    """Load and validate the ALPHASIDE catalog (``root`` holds one folder per game, or
    with ``game_dir=True`` is the ``alphaside`` folder itself); ``overrides`` are designer
    edits (``{"dash_hexes": 4, "weapon.rifle.strength": 5}``) applied first."""
    folder = Path(root) if game_dir else Path(root) / GAME
    if not folder.is_dir():
        raise CatalogError(folder, "catalog folder not found")
    docs = {name: load_toml(folder / name) for name in FILES}
    if overrides:
        apply_overrides(docs, overrides, KIND_FILES, "rules.toml")
    params, provenance = load_params(Parameters, folder / "rules.toml", docs["rules.toml"])
    weapons = _load_weapons(folder / "weapons.toml", docs["weapons.toml"], params)
    abilities = _load_simple(
        folder / "abilities.toml",
        docs["abilities.toml"],
        "ability",
        Ability,
        [
            FieldSpec("name", "str"),
            FieldSpec("energy", "int", min=0, max=10),
            FieldSpec("effect", "str", choices=ABILITY_EFFECTS),
            FieldSpec("value", "int", min=1, max=10),
        ],
    )
    tactics = _load_simple(
        folder / "tactics.toml",
        docs["tactics.toml"],
        "tactic",
        Tactic,
        [
            FieldSpec("name", "str"),
            FieldSpec("effect", "str", choices=TACTIC_EFFECTS),
            FieldSpec("value", "int", min=1, max=params.die),
        ],
    )
    policies = _load_simple(
        folder / "policies.toml",
        docs["policies.toml"],
        "policy",
        Policy,
        [
            FieldSpec("approach", "str", choices=APPROACH),
            FieldSpec("weapon", "str", choices=WEAPON_CHOICE),
            FieldSpec("ability", "bool"),
        ],
    )
    units = _load_units(folder / "units.toml", docs["units.toml"], weapons, abilities, policies)
    squads = _load_squads(folder / "squads.toml", docs["squads.toml"], units, tactics, params)
    return Catalog(
        folder,
        weapons,
        abilities,
        tactics,
        policies,
        units,
        squads,
        params,
        provenance,
        tuple(sorted((overrides or {}).items())),
    )
