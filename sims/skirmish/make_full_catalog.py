"""Write ``catalogs/skirmish/parts_full.toml``: the projected full part catalog (003 K).

The rulebook expects a part catalog of five runners (003 A: a runner is one
manufacturer's sprue sheet; K: the catalog), of which only a playable handful is
drafted (``parts.toml``, 34 parts). Build enumeration (``sims.skirmish.builds``) needs
the full sheet to say how many mechs the rules admit, so this module projects it:

- every playable part of ``parts.toml``, copied field by field (same ids, same stats);
- plus :data:`PROJECTED`, listed below, so that each runner carries 3 chassis (one per
  class), 2 or 3 heads, 4 arms (weapons and shields), 2 legs and 2 backs: 15 chassis,
  12 heads, 20 arms, 10 legs, 10 backs, 67 parts.

Every projected stat lies within the range the playable parts of its slot span (chassis:
of its class; weapon stats: over all playable weapons), widened by at most 1 either way
(:func:`range_problems` checks it). Every entry is ``provenance = "assumed"``.

Nothing is random: running ``python -m sims.skirmish.make_full_catalog`` rewrites the
same file from ``parts.toml`` and this table (``--check`` only compares). Change a
projected part here, or a playable one in ``parts.toml``, and run it again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sims.core.catalog import CatalogError, load_toml
from sims.skirmish.catalog import RUNNERS, SLOTS, Part, _load_parts

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "catalogs" / "skirmish"
PLAYABLE_FILE = "parts.toml"
FULL_FILE = "parts_full.toml"

# ---- the projected parts (003 K), by slot --------------------------------------------
# Runner philosophies, read off the playable parts: Kessler Yards sturdy workhorses,
# Meridian Circuit fast electronics, Hollow Saints melee and evasion, Nine Suns long guns,
# Tessellate armour and energy.


def _rows(fields: str, common: Mapping[str, Any], *rows: tuple[Any, ...]) -> list[dict]:
    names = fields.split()
    out = []
    for row in rows:
        if len(row) != len(names):
            raise ValueError(f"{row[0]}: {len(row)} values for {len(names)} fields")
        out.append({**dict(zip(names, row, strict=True)), **common})
    return out


CHASSIS = _rows(
    "id name runner class size armor durability weight evasion speed sensors e_def reactor",
    {"slot": "chassis"},
    ("bulwark_frame", "Bulwark frame", "kessler_yards", "heavy", 14, 8, 23, 29, 4, 3, 5, 10, 9),
    ("courser_frame", "Courser frame", "meridian_circuit", "medium", 9, 5, 14, 18, 8, 5, 6, 10, 8),
    ("pylon_frame", "Pylon frame", "meridian_circuit", "heavy", 13, 8, 20, 26, 6, 3, 7, 11, 10),
    ("wraith_frame", "Wraith frame", "hollow_saints", "light", 7, 4, 11, 11, 10, 6, 5, 9, 6),
    ("penitent_frame", "Penitent frame", "hollow_saints", "heavy", 14, 8, 22, 28, 5, 3, 4, 10, 9),
    ("sunspear_frame", "Sunspear frame", "nine_suns", "medium", 10, 5, 15, 20, 7, 4, 6, 9, 9),
    ("facet_frame", "Facet frame", "tessellate", "light", 8, 5, 12, 13, 9, 5, 6, 11, 7),
)
HEADS = _rows(
    "id name runner size armor durability weight acc sensors e_def",
    {"slot": "head"},
    ("welder_mask", "Welder mask", "kessler_yards", 2, 4, 5, 4, 0, 2, 2),
    ("floodlight", "Floodlight head", "kessler_yards", 2, 3, 3, 2, 0, 4, 0),
    ("relay_crown", "Relay crown", "meridian_circuit", 1, 3, 3, 2, 1, 3, 1),
    ("cowl", "Cowl", "hollow_saints", 1, 3, 2, 1, 1, 2, 1),
    ("scope", "Scope head", "nine_suns", 2, 3, 3, 3, 2, 3, 0),
    ("sunhelm", "Sunhelm", "nine_suns", 2, 4, 4, 4, 1, 4, 1),
    ("mosaic", "Mosaic head", "tessellate", 2, 4, 5, 4, 0, 3, 3),
)
WEAPON_FIELDS = "id name runner size armor durability weight range shots acc pen damage heat tags"
ARM_WEAPONS = _rows(
    WEAPON_FIELDS,
    {"slot": "arm", "kind": "weapon"},
    ("rivet_gun", "Rivet gun", "kessler_yards", 5, 5, 8, 7, 6, 2, 0, 2, "1d6", 1, ["burst"]),
    ("needler", "Needler", "meridian_circuit", 4, 4, 6, 4, 7, 3, 1, 1, "1d3", 1, ["burst"]),
    ("sickle", "Sickle", "hollow_saints", 4, 4, 7, 6, 1, 1, 2, 3, "1d6+1", 0, ["melee"]),
    ("howitzer", "Howitzer", "nine_suns", 6, 5, 9, 11, 15, 1, 0, 4, "2d6+1", 5, ["heavy"]),
    ("flare_carbine", "Flare carbine", "nine_suns", 4, 4, 7, 6, 9, 1, 1, 2, "1d6", 1, []),
    ("beam_lance", "Beam lance", "tessellate", 5, 5, 8, 9, 12, 1, 2, 4, "1d6+1", 3, ["heavy"]),
    (
        "prism_arc",
        "Prism arc",
        "tessellate",
        4,
        4,
        6,
        6,
        6,
        2,
        1,
        2,
        "1d3+1",
        2,
        ["burst", "pulse"],
    ),
)
ARM_SHIELDS = _rows(
    "id name runner size armor durability weight tags",
    {"slot": "arm", "kind": "shield"},
    ("deflector", "Deflector", "meridian_circuit", 5, 5, 8, 5, ["guard"]),
    ("reliquary", "Reliquary shield", "hollow_saints", 6, 6, 10, 7, ["guard"]),
)
LEGS = _rows(
    "id name runner size armor durability weight evasion speed tags",
    {"slot": "legs"},
    ("stomper", "Stomper legs", "kessler_yards", 9, 6, 12, 10, 0, 1, []),
    ("glider", "Glider legs", "meridian_circuit", 6, 4, 7, 5, 2, 1, ["jump"]),
    ("stalker", "Stalker legs", "hollow_saints", 7, 4, 9, 6, 2, 1, []),
    ("bracer", "Bracer legs", "nine_suns", 8, 5, 11, 7, 0, 1, []),
    ("hexapod", "Hexapod base", "tessellate", 8, 6, 12, 8, 1, 1, []),
)
BACK_WEAPONS = _rows(
    WEAPON_FIELDS,
    {"slot": "back", "kind": "weapon"},
    ("flak_rack", "Flak rack", "kessler_yards", 3, 4, 5, 5, 6, 3, 0, 1, "1d3", 1, ["burst"]),
    ("mortar", "Mortar", "nine_suns", 3, 4, 6, 7, 13, 1, 0, 3, "2d6", 3, ["indirect", "heavy"]),
)
BACK_SYSTEMS = _rows(
    "id name runner size armor durability weight sensors reactor tags",
    {"slot": "back", "kind": "system"},
    ("ecm_mast", "ECM mast", "meridian_circuit", 2, 3, 4, 4, 3, 0, []),
    ("censer", "Censer", "hollow_saints", 2, 3, 4, 4, 0, 1, ["smoke"]),
    ("capacitor", "Capacitor bank", "tessellate", 3, 5, 6, 6, 0, 4, []),
)
# Heavy cores are Armor 8 (003 F5), as on the playable heavies.
for _row in CHASSIS:
    if _row["class"] == "heavy":
        _row["rulebook_fields"] = ["armor"]

PROJECTED: list[dict[str, Any]] = (
    CHASSIS + HEADS + ARM_WEAPONS + ARM_SHIELDS + LEGS + BACK_WEAPONS + BACK_SYSTEMS
)

# ---- writing ---------------------------------------------------------------------------

# Key order of a written entry (keys an entry lacks are skipped).
KEY_ORDER = (
    "id",
    "name",
    "slot",
    "runner",
    "kind",
    "class",
    "size",
    "armor",
    "durability",
    "weight",
    "evasion",
    "speed",
    "acc",
    "sensors",
    "e_def",
    "reactor",
    "range",
    "shots",
    "pen",
    "damage",
    "heat",
    "tags",
    "provenance",
    "rulebook_fields",
)
HEADER = """\
# Mecha Skirmish (003) projected FULL part catalog: a projection of the five runners'
# sheets the rulebook's part catalog (K) anticipates, for build enumeration
# (sims/skirmish/builds.py). Not the playable catalog (that is parts.toml).
#
# GENERATED by `python -m sims.skirmish.make_full_catalog` from parts.toml and the
# projected parts listed in sims/skirmish/make_full_catalog.py: do not edit by hand.
#
# Every playable part of parts.toml is here unchanged (same id and stats), plus projected
# parts so that each runner has 3 chassis (one per class), 2-3 heads, 4 arms, 2 legs and
# 2 backs. Every entry is provenance = "assumed": none of these numbers is the rulebook's
# (rulebook_fields names the few stated ones, as in parts.toml).
"""
SECTIONS = {
    "chassis": "Chassis (the core)",
    "head": "Heads",
    "arm": "Arms: weapons and shields",
    "legs": "Legs",
    "back": "Backs: the one system mount",
}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string for plain text
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def _entry(raw: Mapping[str, Any], origin: str) -> str:
    unknown = set(raw) - set(KEY_ORDER)
    if unknown:
        raise ValueError(f"part {raw.get('id')!r}: no place for fields {sorted(unknown)}")
    lines = [f"[[part]]  # {origin}"]
    lines += [f"{key} = {_value(raw[key])}" for key in KEY_ORDER if key in raw]
    return "\n".join(lines) + "\n"


def _ordered(playable: Iterable[dict], projected: Iterable[dict]) -> list[tuple[dict, str]]:
    """Slot by slot, runner by runner; a runner's playable parts before projected ones."""
    tagged = [(raw, "playable (parts.toml)") for raw in playable]
    tagged += [({**raw, "provenance": "assumed"}, "projected (003 K)") for raw in projected]
    order = {
        id(raw): (SLOTS.index(raw["slot"]), RUNNERS.index(raw["runner"]), n)
        for n, (raw, _) in enumerate(tagged)
    }
    return sorted(tagged, key=lambda t: order[id(t[0])])


def render(folder: Path = FOLDER) -> str:
    """The text of parts_full.toml, from ``folder/parts.toml`` and :data:`PROJECTED`."""
    playable = load_toml(folder / PLAYABLE_FILE)["part"]
    clash = {p["id"] for p in playable} & {p["id"] for p in PROJECTED}
    if clash:
        raise ValueError(f"projected part ids already in {PLAYABLE_FILE}: {sorted(clash)}")
    out, slot = [HEADER], None
    for raw, origin in _ordered(playable, PROJECTED):
        if raw["slot"] != slot:
            slot = raw["slot"]
            title = f"# ---- {SECTIONS[slot]} "
            out.append("\n" + title + "-" * (88 - len(title)) + "\n")
        out.append("\n" + _entry(raw, origin))
    return "".join(out)


# ---- checks ----------------------------------------------------------------------------

COMMON = ("size", "armor", "durability", "weight")
SLOT_STATS = {
    "chassis": ("evasion", "speed", "sensors", "e_def", "reactor"),
    "head": ("acc", "sensors", "e_def"),
    "arm": (),
    "legs": ("evasion", "speed"),
    "back": ("sensors", "reactor"),
}
WEAPON_STATS = ("range", "shots", "acc", "pen", "heat")
SLACK = 1  # how far a projected stat may stray outside the playable range


def _group(part: Part) -> str:
    """Parts whose stats are compared: a slot, chassis by class."""
    return f"chassis/{part.klass}" if part.slot == "chassis" else part.slot


def range_problems(playable: Mapping[str, Part], full: Mapping[str, Part]) -> list[str]:
    """Projected stats outside the playable range of their slot (+/- SLACK)."""

    def span(parts: Iterable[Part], field: str) -> tuple[int, int]:
        values = [getattr(p, field) for p in parts]
        return min(values), max(values)

    problems = []
    for part in full.values():
        if part.id in playable:
            continue
        peers = [p for p in playable.values() if _group(p) == _group(part)]
        fields = [(f, peers) for f in COMMON + SLOT_STATS[part.slot]]
        if part.is_weapon:
            weapons = [p for p in playable.values() if p.is_weapon]
            fields += [(f, weapons) for f in WEAPON_STATS]
        for field, group in fields:
            low, high = span(group, field)
            value = getattr(part, field)
            if not low - SLACK <= value <= high + SLACK:
                problems.append(
                    f"{part.id}.{field} = {value} is outside {low}..{high} "
                    f"(+/- {SLACK}) of the playable {_group(part)} parts"
                )
    return problems


def check(folder: Path, text: str) -> dict[str, Part]:
    """Validate rendered text like parts.toml; the playable parts must come out equal."""
    import tomllib

    path = folder / FULL_FILE
    full = _load_parts(path, tomllib.loads(text))
    playable = _load_parts(folder / PLAYABLE_FILE)
    for ident, part in playable.items():
        if full.get(ident) != part:
            raise CatalogError(path, f"differs from {PLAYABLE_FILE}", kind="part", entry=ident)
    problems = range_problems(playable, full)
    if problems:
        raise ValueError("; ".join(problems))
    return full


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--catalog", type=Path, default=FOLDER, help="the skirmish catalog folder")
    ap.add_argument("--check", action="store_true", help="only say whether the file is current")
    args = ap.parse_args(argv)
    text = render(args.catalog)
    full = check(args.catalog, text)
    path = args.catalog / FULL_FILE
    if args.check:
        current = path.is_file() and path.read_text(encoding="utf-8") == text
        print(f"{path}: {'current' if current else 'STALE: run without --check to rewrite'}")
        return 0 if current else 1
    path.write_text(text, encoding="utf-8")
    counts = {s: sum(p.slot == s for p in full.values()) for s in SLOTS}
    print(f"wrote {path}: {len(full)} parts ({', '.join(f'{n} {s}' for s, n in counts.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
