"""Mecha Skirmish catalogs: schema, loading and validation (003 B, C, D, K).

A catalog folder (``catalogs/skirmish/``) holds:

- ``parts.toml``   ``[[part]]`` chassis, heads, arms (weapons and shields), legs, backs
- ``kits.toml``    ``[[kit]]`` a chassis with all six parts and a suggested pilot (B6)
- ``pilots.toml``  ``[[pilot]]`` Faction, Specialty, four stats, ability, bonds (D)
- ``tables.toml``  ``[[crit]]`` and ``[[stress]]`` d6 tables (F7, G), ``[[strike]]`` (F11.1)
- ``policies.toml`` ``[[policy]]`` how a mech plays in simulation (brawler, gunline ...)
- ``rules.toml``   rules parameter values (see ``params.Parameters``)
- ``claims.toml``  the rulebook's claims, checked by ``mechbal claims``

:func:`load_catalog` reads and validates all of it, or raises ``CatalogError`` naming
file, entry and field. Nothing in the project reads these files any other way.

This module imports the parameters (``params.py``) and nothing of the rules: ``rules.py``
computes on the types defined here. A kit's Weight is checked with the one legality
test of a mech's Weight, ``Parameters.within_overload`` (also used by ``rules`` and
``builds``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
from sims.skirmish.maps import Map, Terrain, load_maps, load_terrain
from sims.skirmish.params import Parameters, simple_dice

GAME = "skirmish"
RUNNERS = ("kessler_yards", "meridian_circuit", "hollow_saints", "nine_suns", "tessellate")
SPECIALTIES = ("striker", "vanguard", "marksman", "operator", "engineer", "scout")
SLOTS = ("chassis", "head", "arm", "legs", "back")
CLASSES = ("light", "medium", "heavy")
WEAPON_TAGS = ("burst", "heavy", "melee", "guard", "pulse", "indirect")
PART_TAGS = WEAPON_TAGS + ("jump", "smoke")
ABILITY_KINDS = (
    "acc",
    "pen",
    "evasion",
    "armor",
    "speed",
    "vent",
    "initiative",
    "lock_on",
    "riposte",
)
EFFECT_KINDS = (
    "sensors",
    "speed",
    "attack_die",
    "heat_per_activation",
    "armor",
    "heat",
    "core_damage",
    "skip_activation",
    "prone",
    "back_damage",
    "none",
)
KIT_SLOTS = ("chassis", "head", "right_arm", "left_arm", "legs", "back")
PILOT_STATS = ("gunnery", "piloting", "systems", "initiative")  # 003 D, each 0 to 3


def _common() -> list[FieldSpec]:
    return [
        FieldSpec("name", "str"),
        FieldSpec("slot", "str", choices=SLOTS),
        FieldSpec("runner", "str", choices=RUNNERS),
        FieldSpec("size", "int", min=1, max=40, meaning="share of the hit table (F4)"),
        FieldSpec("armor", "int", min=0, max=20, meaning="penetration target (F5)"),
        FieldSpec("durability", "int", min=1, max=99, meaning="damage absorbed (F6)"),
        FieldSpec("weight", "int", min=0, max=99, meaning="cost against caps (B3)"),
        FieldSpec("tags", "list[str]", required=False, default=(), choices=PART_TAGS),
    ]


def _weapon(required: bool) -> list[FieldSpec]:
    return [
        FieldSpec("kind", "str", choices=("weapon", "shield", "system")),
        FieldSpec("range", "int", required=required, default=0, min=1, max=40),
        FieldSpec("shots", "int", required=required, default=0, min=1, max=10),
        FieldSpec("acc", "int", required=required, default=0, min=-5, max=5),
        FieldSpec("pen", "int", required=required, default=0, min=0, max=10),
        FieldSpec("damage", "dice", required=required, default="0"),
        FieldSpec("heat", "int", required=required, default=0, min=0, max=20),
    ]


# Fields each slot may carry; which are required is decided per part below.
SLOT_FIELDS: dict[str, list[FieldSpec]] = {
    "chassis": [
        FieldSpec("class", "str", choices=CLASSES),
        FieldSpec("evasion", "int", min=0, max=20),
        FieldSpec("speed", "int", min=0, max=12),
        FieldSpec("sensors", "int", min=0, max=30),
        FieldSpec("e_def", "int", min=0, max=30),
        FieldSpec("reactor", "int", min=0, max=30),
    ],
    "head": [
        FieldSpec("acc", "int", min=-5, max=5),
        FieldSpec("sensors", "int", min=0, max=30),
        FieldSpec("e_def", "int", min=0, max=10),
    ],
    "legs": [
        FieldSpec("evasion", "int", min=-5, max=10),
        FieldSpec("speed", "int", min=-5, max=10),
    ],
    "back": [
        FieldSpec("sensors", "int", required=False, default=0, min=0, max=30),
        FieldSpec("reactor", "int", required=False, default=0, min=0, max=30),
    ],
}


@dataclass(frozen=True)
class Part:
    """One part; slot stats not carried by a slot are 0 (003 C)."""

    id: str
    name: str
    slot: str
    runner: str
    size: int
    armor: int
    durability: int
    weight: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    kind: str = ""  # arms: weapon | shield; backs: weapon | system
    klass: str = ""  # chassis class: light | medium | heavy
    evasion: int = 0
    speed: int = 0
    sensors: int = 0
    e_def: int = 0
    reactor: int = 0
    acc: int = 0
    range: int = 0
    shots: int = 0
    pen: int = 0
    damage: str = "0"
    heat: int = 0

    @property
    def is_weapon(self) -> bool:
        return self.kind == "weapon"

    @property
    def is_melee(self) -> bool:
        return "melee" in self.tags


@dataclass(frozen=True)
class Pilot:
    id: str
    name: str
    faction: str
    specialty: str
    gunnery: int
    piloting: int
    systems: int
    initiative: int
    ability: str
    ability_kind: str
    ability_value: int
    bonds: tuple[str, ...]
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kit:
    id: str
    name: str
    chassis: str
    head: str
    right_arm: str
    left_arm: str
    legs: str
    back: str
    pilot: str
    provenance: str
    rulebook_fields: tuple[str, ...] = ()

    @property
    def part_ids(self) -> tuple[str, ...]:
        """The six parts in kit-slot order (chassis first)."""
        return tuple(getattr(self, s) for s in KIT_SLOTS)


@dataclass(frozen=True)
class TableRow:
    """One row of a d6 table (crit or stress)."""

    id: str
    roll: int
    name: str
    text: str
    effect_kind: str
    effect_value: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Strike:
    """An improvised melee strike every mech has (003 F11.1)."""

    id: str
    name: str
    pen: int
    damage: str
    needs: str  # "arm" or "legs": the part that must be intact
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    """How a mech plays its activation in simulation; see policies.toml."""

    id: str
    preferred: str
    charge: bool
    boost: bool
    lock_on: bool
    barrage: bool
    aimed: bool
    overwatch: bool
    brace: bool
    strike: bool
    vent_at_percent: int
    stabilize_at_effects: int
    overcharge_below_percent: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()
    grapple: bool = False  # Grapple an adjacent target, Throw once in one (F11.5)
    break_grapple: bool = False  # Break a grapple it is caught in (F11.5)
    guard: bool = False  # E5: an escort: Guard an adjacent ally after the Move (Shield arm)
    smoke: bool = False  # H5: lay smoke from an intact smoke back (a Quick action)
    jump: bool = False  # jump out of adjacency with an intact jump booster (+1 Heat, G)
    # where it stands on a map (board.stand_score): the weight of each wish, 0..9
    zone: int = 0  # its claimed zone: take and hold zones
    approach: int = 1  # close to its wanted distance from the target
    shot: int = 0  # line of sight to the target within reach
    cover: int = 0  # cover from the target
    flank: int = 0  # a shot that leaves the target no hard cover
    screen: int = 0  # stand next to an ally, between it and the target


@dataclass(frozen=True)
class Mech:
    """Six parts plus a pilot (003 A), resolved from ids."""

    name: str
    chassis: Part
    head: Part
    right_arm: Part
    left_arm: Part
    legs: Part
    back: Part
    pilot: Pilot

    @property
    def parts(self) -> tuple[Part, ...]:
        return (self.chassis, self.head, self.right_arm, self.left_arm, self.legs, self.back)

    @property
    def weapons(self) -> tuple[Part, ...]:
        """Fireable weapons: arm weapons and a Back weapon (003 E Fire)."""
        return tuple(p for p in (self.right_arm, self.left_arm, self.back) if p.is_weapon)


@dataclass(frozen=True)
class Catalog:
    root: Path
    parts: dict[str, Part]
    kits: dict[str, Kit]
    pilots: dict[str, Pilot]
    crit: tuple[TableRow, ...]
    stress: tuple[TableRow, ...]
    strikes: dict[str, Strike]
    policies: dict[str, Policy]
    params: Parameters
    param_provenance: dict[str, str]
    overrides: tuple[tuple[str, Any], ...] = ()  # designer edits applied (--set/--sweep)
    # the hex maps (maps/*.toml) and movement costs (terrain.toml), validated on load;
    # the engines still play the one-dimensional track (ASSUMPTIONS.md, issue 15)
    maps: dict[str, Map] = dataclasses.field(default_factory=dict)
    terrain: Terrain | None = None

    def mech(self, kit_id: str, pilot_id: str | None = None) -> Mech:
        kit = self.kits[kit_id]
        p = self.parts
        return Mech(
            name=kit.id,
            chassis=p[kit.chassis],
            head=p[kit.head],
            right_arm=p[kit.right_arm],
            left_arm=p[kit.left_arm],
            legs=p[kit.legs],
            back=p[kit.back],
            pilot=self.pilots[pilot_id or kit.pilot],
        )

    def weapons(self) -> list[Part]:
        """Every weapon in the catalog (arm or back), in file order."""
        return [p for p in self.parts.values() if p.is_weapon]


def _load_parts(path: Path, doc: dict[str, Any] | None = None) -> dict[str, Part]:
    doc = load_toml(path) if doc is None else doc
    out: dict[str, Part] = {}
    for raw in entries(doc, "part", path):
        ident = raw["id"]
        slot = raw.get("slot")
        if slot not in SLOTS:
            # The slot decides which other fields belong, so it is checked first.
            raise CatalogError(
                path,
                f"{slot!r} is not one of {', '.join(SLOTS)}",
                kind="part",
                entry=ident,
                field="slot",
            )
        kind = raw.get("kind")
        specs = _common() + SLOT_FIELDS.get(slot, [])
        if slot == "arm":
            if kind not in ("weapon", "shield"):
                raise CatalogError(
                    path,
                    f"arm kind must be weapon or shield, got {kind!r}",
                    kind="part",
                    entry=ident,
                    field="kind",
                )
            specs += _weapon(required=kind == "weapon")
        elif slot == "back":
            if kind not in ("weapon", "system"):
                raise CatalogError(
                    path,
                    f"back kind must be weapon or system, got {kind!r}",
                    kind="part",
                    entry=ident,
                    field="kind",
                )
            specs += _weapon(required=kind == "weapon")
        vals = check_entry(raw, specs, path, "part")
        if kind == "weapon":
            _simple_dice_field(vals, path, "part")
        vals["klass"] = vals.pop("class", "")
        vals.setdefault("kind", "")
        out[ident] = Part(**{k: v for k, v in vals.items() if v is not None})
    return out


def _load_pilots(path: Path, doc: dict[str, Any] | None = None) -> dict[str, Pilot]:
    doc = load_toml(path) if doc is None else doc
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("faction", "str", choices=RUNNERS),
        FieldSpec("specialty", "str", choices=SPECIALTIES),
        *(FieldSpec(s, "int", min=0, max=3) for s in PILOT_STATS),
        FieldSpec("ability", "str"),
        FieldSpec("ability_effect", "table"),
        FieldSpec("bonds", "list[str]", required=False, default=()),
    ]
    out: dict[str, Pilot] = {}
    raws = entries(doc, "pilot", path)
    for raw in raws:
        vals = check_entry(raw, specs, path, "pilot")
        kind, value = _effect(vals.pop("ability_effect"), ABILITY_KINDS, path, "pilot", raw["id"])
        out[raw["id"]] = Pilot(**vals, ability_kind=kind, ability_value=value)
    for pilot in out.values():
        if pilot.id in pilot.bonds or len(set(pilot.bonds)) != len(pilot.bonds):
            raise CatalogError(
                path,
                "a bond names another pilot, once each",
                kind="pilot",
                entry=pilot.id,
                field="bonds",
            )
        for other in pilot.bonds:
            check_reference(other, out, path, "pilot", pilot.id, "bonds", "pilot")
            if pilot.id not in out[other].bonds:
                raise CatalogError(
                    path,
                    f"bond with {other!r} is not listed by {other!r} (bonds are pairs)",
                    kind="pilot",
                    entry=pilot.id,
                    field="bonds",
                )
    return out


def _effect(
    table: dict[str, Any], kinds: tuple[str, ...], path: Path, what: str, ident: str
) -> tuple[str, int]:
    field = "ability_effect" if what == "pilot" else "effect"
    kind, value = table.get("kind"), table.get("value")
    bad_value = isinstance(value, bool) or not isinstance(value, int)
    if kind not in kinds or bad_value or set(table) != {"kind", "value"}:
        raise CatalogError(
            path,
            f"expected {{ kind = one of {', '.join(kinds)}, value = integer }}",
            kind=what,
            entry=ident,
            field=field,
        )
    return kind, value


def _load_d6_table(path: Path, doc: dict[str, Any], kind: str) -> tuple[TableRow, ...]:
    specs = [
        FieldSpec("roll", "int", min=1, max=6),
        FieldSpec("name", "str"),
        FieldSpec("text", "str"),
        FieldSpec("effect", "table"),
    ]
    rows = []
    for raw in doc[kind]:
        vals = check_entry(raw, specs, path, kind)
        ek, ev = _effect(vals.pop("effect"), EFFECT_KINDS, path, kind, raw["id"])
        rows.append(TableRow(**vals, effect_kind=ek, effect_value=ev))
    rolls = Counter(r.roll for r in rows)
    for face in range(1, 7):
        if rolls[face] != 1:
            raise CatalogError(
                path,
                f"the {kind} table needs exactly one row per d6 face; "
                f"face {face} has {rolls[face]}",
            )
    return tuple(sorted(rows, key=lambda r: r.roll))


def _simple_dice_field(vals: dict[str, Any], path: Path, kind: str) -> None:
    """The engines roll damage as NdS+C (003 F6); richer expressions are refused here."""
    try:
        simple_dice(vals["damage"])
    except ValueError as exc:
        raise CatalogError(path, str(exc), kind=kind, entry=vals["id"], field="damage") from None


def _load_tables(
    path: Path, doc: dict[str, Any] | None = None
) -> tuple[tuple[TableRow, ...], tuple[TableRow, ...], dict[str, Strike]]:
    doc = load_toml(path) if doc is None else doc
    for kind in ("crit", "stress", "strike"):
        entries({kind: doc.get(kind)}, kind, path)
    unknown = sorted(set(doc) - {"crit", "stress", "strike"})
    if unknown:
        raise CatalogError(path, f"unknown top-level key '{unknown[0]}'")
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("pen", "int", min=0, max=10),
        FieldSpec("damage", "dice"),
        FieldSpec("needs", "str", choices=("arm", "legs")),
    ]
    strikes = {}
    for raw in doc["strike"]:
        vals = check_entry(raw, specs, path, "strike")
        _simple_dice_field(vals, path, "strike")
        strikes[raw["id"]] = Strike(**vals)
    for needed in ("punch", "kick"):
        if needed not in strikes:
            raise CatalogError(path, f"the strike table needs a {needed!r} entry (F11.1)")
    return _load_d6_table(path, doc, "crit"), _load_d6_table(path, doc, "stress"), strikes


def _load_policies(path: Path, doc: dict[str, Any] | None = None) -> dict[str, Policy]:
    doc = load_toml(path) if doc is None else doc
    specs = [
        FieldSpec("preferred", "str", choices=("adjacent", "max_optimal")),
        *(
            FieldSpec(f, "bool")
            for f in (
                "charge",
                "boost",
                "lock_on",
                "barrage",
                "aimed",
                "overwatch",
                "brace",
                "strike",
            )
        ),
        FieldSpec("vent_at_percent", "int", min=0, max=999),
        FieldSpec("stabilize_at_effects", "int", min=1, max=99),
        FieldSpec("overcharge_below_percent", "int", min=0, max=100),
        FieldSpec("grapple", "bool", required=False, default=False),
        FieldSpec("break_grapple", "bool", required=False, default=False),
        FieldSpec("guard", "bool", required=False, default=False),
        FieldSpec("smoke", "bool", required=False, default=False),
        FieldSpec("jump", "bool", required=False, default=False),
        *(
            FieldSpec(f, "int", min=0, max=9, required=False, default=d)
            for f, d in (
                ("zone", 0),
                ("approach", 1),
                ("shot", 0),
                ("cover", 0),
                ("flank", 0),
                ("screen", 0),
            )
        ),
    ]
    return {
        raw["id"]: Policy(**check_entry(raw, specs, path, "policy"))
        for raw in entries(doc, "policy", path)
    }


def _load_kits(
    path: Path,
    parts: dict[str, Part],
    pilots: dict[str, Pilot],
    params: Parameters,
    doc: dict[str, Any] | None = None,
) -> dict[str, Kit]:
    doc = load_toml(path) if doc is None else doc
    specs = [FieldSpec("name", "str")] + [FieldSpec(s, "id") for s in KIT_SLOTS]
    specs.append(FieldSpec("pilot", "id"))
    out: dict[str, Kit] = {}
    for raw in entries(doc, "kit", path):
        vals = check_entry(
            raw, specs, path, "kit", extra_rulebook_fields=("class", "weight", "bands")
        )
        ident = raw["id"]
        for field in KIT_SLOTS:
            check_reference(vals[field], parts, path, "kit", ident, field, "part")
            want = "arm" if field in ("right_arm", "left_arm") else field
            got = parts[vals[field]].slot
            if got != want:
                raise CatalogError(
                    path,
                    f"part {vals[field]!r} is in slot {got}, not {want}",
                    kind="kit",
                    entry=ident,
                    field=field,
                )
        check_reference(vals["pilot"], pilots, path, "kit", ident, "pilot", "pilot")
        kit = Kit(**vals)
        weight = sum(parts[p].weight for p in kit.part_ids)
        chassis = parts[kit.chassis]
        cap = params.class_cap(chassis.klass)
        if not params.within_overload(weight - cap):
            raise CatalogError(
                path,
                f"weighs {weight}, {weight - cap} over the {chassis.klass} cap {cap} "
                f"(at most {params.overload_max} over is allowed, 003 B4)",
                kind="kit",
                entry=ident,
                field="weight",
            )
        out[ident] = kit
    return out


def _check_standard_medium(
    path: Path, params: Parameters, kits: dict[str, Kit], parts: dict[str, Part]
) -> None:
    """``standard_medium`` names a kit of the catalog whose chassis is a Medium (003 F4)."""
    kit = kits.get(params.standard_medium)
    if kit is None:
        raise CatalogError(
            path,
            f"names unknown kit {params.standard_medium!r}",
            kind="parameter",
            entry="standard_medium",
            field="value",
        )
    klass = parts[kit.chassis].klass
    if klass != "medium":
        raise CatalogError(
            path,
            f"kit {kit.id!r} is a {klass}, not a Medium",
            kind="parameter",
            entry="standard_medium",
            field="value",
        )


def _check_board(path: Path, params: Parameters, maps: dict[str, Map]) -> None:
    """``board`` names a map of maps/ or the range track (003 H)."""
    if params.board != "track" and params.board not in maps:
        raise CatalogError(
            path,
            f"names unknown map {params.board!r} (maps: track, {', '.join(sorted(maps))})",
            kind="parameter",
            entry="board",
            field="value",
        )


FILES = ("rules.toml", "parts.toml", "kits.toml", "pilots.toml", "tables.toml", "policies.toml")
# --set KIND.ID.FIELD: the file each kind lives in
KIND_FILES = {
    "part": "parts.toml",
    "kit": "kits.toml",
    "pilot": "pilots.toml",
    "policy": "policies.toml",
    "strike": "tables.toml",
    "crit": "tables.toml",
    "stress": "tables.toml",
}


def load_catalog(
    root: Path | str, game_dir: bool = False, overrides: Mapping[str, Any] | None = None
) -> Catalog:
    """Load and validate the Skirmish catalog.

    ``root`` is a catalog folder holding one folder per game (``catalogs/``), or with
    ``game_dir=True`` the ``skirmish`` folder itself. ``overrides`` are designer edits
    (``{"crit_margin": 3, "part.cannon.pen": 5}``) applied before validation."""
    folder = Path(root) if game_dir else Path(root) / GAME
    if not folder.is_dir():
        raise CatalogError(folder, "catalog folder not found")
    docs = {name: load_toml(folder / name) for name in FILES}
    if overrides:
        apply_overrides(docs, overrides, KIND_FILES, "rules.toml")
    params, provenance = load_params(Parameters, folder / "rules.toml", docs["rules.toml"])
    parts = _load_parts(folder / "parts.toml", docs["parts.toml"])
    pilots = _load_pilots(folder / "pilots.toml", docs["pilots.toml"])
    crit, stress, strikes = _load_tables(folder / "tables.toml", docs["tables.toml"])
    policies = _load_policies(folder / "policies.toml", docs["policies.toml"])
    kits = _load_kits(folder / "kits.toml", parts, pilots, params, docs["kits.toml"])
    _check_standard_medium(folder / "rules.toml", params, kits, parts)
    maps = load_maps(folder / "maps")
    _check_board(folder / "rules.toml", params, maps)
    return Catalog(
        folder,
        parts,
        kits,
        pilots,
        crit,
        stress,
        strikes,
        policies,
        params,
        provenance,
        tuple(sorted((overrides or {}).items())),
        maps=maps,
        terrain=load_terrain(folder / "terrain.toml"),
    )
