"""Mecha Skirmish boards (003 H): hex maps as data.

Hex layout: "odd-r" offset coordinates, pointy-top hexes. A hex is (col, row): col
0..length-1 along the long axis (32 standard, 40 large), row 0..depth-1 along the short axis
(20 / 24); odd rows are shifted half a hex right. Flat arrays over hexes use the index
h = row * length + col.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sims.core.catalog import ID_RE, CatalogError, FieldSpec, check_entry, load_toml

# Terrain codes in Map.terrain (003 H: open ground, foliage for soft cover, obstacles).
OPEN, FOLIAGE, OBSTACLE = 0, 1, 2

# odd-r neighbour offsets (dcol, drow) by row parity, in the usual order:
# east, north-east, north-west, west, south-west, south-east.
NEIGHBOUR_OFFSETS = (
    ((+1, 0), (0, -1), (-1, -1), (-1, 0), (-1, +1), (0, +1)),  # even rows
    ((+1, 0), (+1, -1), (0, -1), (-1, 0), (0, +1), (+1, +1)),  # odd rows (shifted right)
)


# eq=False: equality and hash by identity, so a Map can key a cache of its precomputed
# geometry (a field-wise == would compare arrays, which has no single truth value).
@dataclass(frozen=True, eq=False)
class Map:
    """One board (003 H): elevation, terrain, obstacles, three zones, deployment columns."""

    id: str
    name: str
    provenance: str
    length: int  # columns
    depth: int  # rows
    elevation: np.ndarray  # int8[depth, length], 0..max_elevation (3 standard, 4 large)
    terrain: np.ndarray  # int8[depth, length]: 0 open, 1 foliage, 2 obstacle
    obstacle: np.ndarray  # int8[depth, length]: obstacle height above its ground (0 if none)
    zones: tuple[tuple[tuple[int, int], ...], ...]  # each zone: 7 (col, row), center first
    deploy: int  # deployment columns at each short end: side a cols < deploy,
    # side b cols >= length - deploy
    max_elevation: int

    def top(self) -> np.ndarray:
        """int8[depth, length]: a hex's top for line of sight, ground plus obstacle
        (003 H4: foliage does not block sight)."""
        return (self.elevation + self.obstacle).astype(np.int8)

    def hex_index(self, col: int, row: int) -> int:
        """The flat index of (col, row): row * length + col."""
        return row * self.length + col

    def hexes(self) -> list[tuple[int, int]]:
        """Every (col, row) in flat-index order."""
        return [(c, r) for r in range(self.depth) for c in range(self.length)]

    def in_bounds(self, col: int, row: int) -> bool:
        return 0 <= col < self.length and 0 <= row < self.depth


def neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """The six odd-r neighbours of (col, row), bounds not checked."""
    return [(col + dc, row + dr) for dc, dr in NEIGHBOUR_OFFSETS[row & 1]]


def flower(col: int, row: int) -> tuple[tuple[int, int], ...]:
    """A zone (003 H): the center hex first, then its ring of six."""
    return ((col, row), *neighbours(col, row))


def to_cube(col: int, row: int) -> tuple[int, int, int]:
    """odd-r offset -> cube (x, y, z) with x + y + z = 0."""
    x = col - (row - (row & 1)) // 2
    z = row
    return x, -x - z, z


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance between two (col, row) hexes."""
    ax, ay, az = to_cube(*a)
    bx, by, bz = to_cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


# ---- loading maps from catalogs/skirmish/maps/*.toml ------------------------------------

KIND = "map"
ZONE_COUNT = 3  # 003 H: each map has three zones
LARGE_LENGTH = 40  # 003 H: the large variant is 40 long, with elevation up to 4
RULEBOOK_MAX_ELEVATION = 3  # 003 H: elevation 0 to 3 ...
LARGE_MAX_ELEVATION = 4  # ... and up to 4 on the large variant
HEX_RE = re.compile(r"^(\d)([.foO])$")
# terrain letter -> (terrain code, obstacle height above its ground)
LETTERS = {".": (OPEN, 0), "f": (FOLIAGE, 0), "o": (OBSTACLE, 1), "O": (OBSTACLE, 2)}

SPECS = (
    FieldSpec("name", "str"),
    FieldSpec("length", "int", min=1, meaning="columns, along the long axis"),
    FieldSpec("depth", "int", min=1, meaning="rows, along the short axis"),
    FieldSpec("max_elevation", "int", min=0, meaning="highest ground level"),
    FieldSpec("deploy", "int", min=1, max=6, meaning="deployment columns at each short end"),
    FieldSpec("hexes", "str", meaning="one line per row, one token per hex"),
)


def rulebook_max_elevation(length: int) -> int:
    """The highest ground the rulebook allows on a board this long (003 H)."""
    return LARGE_MAX_ELEVATION if length >= LARGE_LENGTH else RULEBOOK_MAX_ELEVATION


def parse_hexes(
    text: str, length: int, depth: int, max_elevation: int, fail: Callable[[str], Exception]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The drawn hexes -> (elevation, terrain, obstacle), each int8[depth, length].

    One line per row, row 0 first; tokens separated by spaces, each an elevation digit then
    a terrain letter (``.`` open, ``f`` foliage, ``o`` an obstacle one level above its
    ground, ``O`` two levels). Leading spaces (odd rows drawn shifted) are ignored.
    ``fail(message)`` builds the error raised for a problem."""
    lines = text.strip("\n").splitlines()
    if len(lines) != depth:
        raise fail(f"has {len(lines)} rows, expected depth {depth}")
    elevation = np.zeros((depth, length), dtype=np.int8)
    terrain = np.zeros((depth, length), dtype=np.int8)
    obstacle = np.zeros((depth, length), dtype=np.int8)
    for row, line in enumerate(lines):
        tokens = line.split()
        if len(tokens) != length:
            raise fail(f"row {row} has {len(tokens)} hexes, expected length {length}")
        for col, token in enumerate(tokens):
            match = HEX_RE.match(token)
            if match is None:
                raise fail(
                    f"row {row}, col {col}: bad hex {token!r} (an elevation digit then "
                    f"one of . f o O, like 0. 2f 1o)"
                )
            level = int(match.group(1))
            if level > max_elevation:
                raise fail(
                    f"row {row}, col {col}: elevation {level} is above "
                    f"max_elevation {max_elevation}"
                )
            elevation[row, col] = level
            terrain[row, col], obstacle[row, col] = LETTERS[match.group(2)]
    return elevation, terrain, obstacle


def _zone_centers(value: Any, fail: Callable[[str], Exception]) -> list[tuple[int, int]]:
    def is_pair(v: Any) -> bool:
        return (
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in v)
        )

    if not isinstance(value, list) or len(value) != ZONE_COUNT or not all(map(is_pair, value)):
        raise fail(f"expected {ZONE_COUNT} zone centers [[col, row], ...] (003 H), got {value!r}")
    return [(c, r) for c, r in value]


def _check_zones(
    centers: list[tuple[int, int]],
    length: int,
    depth: int,
    deploy: int,
    terrain: np.ndarray,
    fail: Callable[[str], Exception],
) -> tuple[tuple[tuple[int, int], ...], ...]:
    zones = []
    owner: dict[tuple[int, int], int] = {}
    for n, (col, row) in enumerate(centers, start=1):
        if not (0 <= col < length and 0 <= row < depth):
            raise fail(f"zone {n} center ({col}, {row}) is off the {length} x {depth} board")
        zone = flower(col, row)
        for c, r in zone[1:]:
            if not (0 <= c < length and 0 <= r < depth):
                raise fail(
                    f"zone {n} at ({col}, {row}): ring hex ({c}, {r}) is off the "
                    f"board (a zone is 7 hexes, 003 H)"
                )
        if terrain[row, col] == OBSTACLE:
            raise fail(f"zone {n} center ({col}, {row}) is an obstacle")
        for c, r in zone:
            if (c, r) in owner:
                raise fail(f"zones {owner[(c, r)]} and {n} share hex ({c}, {r})")
            owner[(c, r)] = n
            if c < deploy or c >= length - deploy:
                raise fail(
                    f"zone {n} hex ({c}, {r}) lies in the deployment columns "
                    f"(cols < {deploy} or >= {length - deploy})"
                )
        zones.append(zone)
    return tuple(zones)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def load_map(path: Path) -> Map:
    """Read and validate one map file; every problem is one CatalogError line."""
    doc = load_toml(path)
    ident = doc.get("id")
    if not isinstance(ident, str) or not ID_RE.match(ident):
        raise CatalogError(
            path,
            f"missing or bad id {ident!r} (lower-case letters, digits, _)",
            kind=KIND,
            entry=path.stem,
            field="id",
        )
    if ident != path.stem:
        raise CatalogError(
            path,
            f"id {ident!r} differs from the file name {path.stem!r}",
            kind=KIND,
            entry=ident,
            field="id",
        )

    def failing(field: str) -> Callable[[str], CatalogError]:
        return lambda message: CatalogError(path, message, kind=KIND, entry=ident, field=field)

    if "zones" not in doc:
        raise failing("zones")("missing required field")
    vals = check_entry(
        {k: v for k, v in doc.items() if k != "zones"},
        SPECS,
        path,
        KIND,
        extra_rulebook_fields=("zones",),
    )
    length, depth, deploy = vals["length"], vals["depth"], vals["deploy"]
    if length < depth:
        raise failing("length")(
            f"{length} is less than depth {depth}: the deployment columns must sit at the "
            f"short ends (cols run along the long axis, 003 H)"
        )
    if length < 2 * deploy + 1:
        raise failing("length")(f"{length} is narrower than 2 x deploy + 1 = {2 * deploy + 1}")
    limit = rulebook_max_elevation(length)
    if vals["max_elevation"] > limit:
        raise failing("max_elevation")(
            f"{vals['max_elevation']} is above the rulebook's {limit} for a board "
            f"{length} long (003 H: 0 to 3, up to 4 on the 40-long variant)"
        )
    elevation, terrain, obstacle = parse_hexes(
        vals["hexes"], length, depth, vals["max_elevation"], failing("hexes")
    )
    centers = _zone_centers(doc["zones"], failing("zones"))
    zones = _check_zones(centers, length, depth, deploy, terrain, failing("zones"))
    return Map(
        id=ident,
        name=vals["name"],
        provenance=vals["provenance"],
        length=length,
        depth=depth,
        elevation=_frozen(elevation),
        terrain=_frozen(terrain),
        obstacle=_frozen(obstacle),
        zones=zones,
        deploy=deploy,
        max_elevation=vals["max_elevation"],
    )


def load_maps(folder: Path | str) -> dict[str, Map]:
    """Every ``*.toml`` map in ``folder`` (catalogs/skirmish/maps/), by id."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CatalogError(folder, "maps folder not found")
    paths = sorted(folder.glob("*.toml"))
    if not paths:
        raise CatalogError(folder, "no map files (*.toml)")
    return {m.id: m for m in map(load_map, paths)}


# ---- movement costs: catalogs/skirmish/terrain.toml ---------------------------------------

IMPASSABLE = "impassable"
TERRAIN_TABLES = {
    "open": ("enter",),
    "foliage": ("enter",),
    "obstacle": ("enter",),
    "climb": ("per_level", "max_levels"),
    "fall": ("drop_levels",),
}


@dataclass(frozen=True)
class Terrain:
    """Movement costs by terrain (003 H: each hex entered costs movement; values assumed)."""

    enter: tuple[int | None, ...]  # by terrain code (OPEN, FOLIAGE, OBSTACLE); None: impassable
    climb_per_level: int  # added per level climbed into a hex
    climb_max: int  # most levels one step may climb on foot (more needs a Jump booster)
    fall_drop: int  # a drop of this many levels or more is a fall (003 H3)
    provenance: dict[str, str]  # table name -> rulebook / assumed


def load_terrain(path: Path | str) -> Terrain:
    """Read and validate terrain.toml: one table per entry, each with its provenance."""
    path = Path(path)
    doc = load_toml(path)
    for name in doc:
        if name not in TERRAIN_TABLES:
            raise CatalogError(
                path, f"unknown table [{name}] (expected {', '.join(TERRAIN_TABLES)})"
            )
    vals: dict[str, dict[str, Any]] = {}
    for name, fields in TERRAIN_TABLES.items():
        table = doc.get(name)
        if not isinstance(table, dict):
            raise CatalogError(path, f"missing table [{name}]")
        entry = {"id": name, **table}
        if name in ("open", "foliage", "obstacle"):
            enter = table.get("enter")
            ok = enter == IMPASSABLE or (
                isinstance(enter, int) and not isinstance(enter, bool) and enter >= 1
            )
            if not ok:
                raise CatalogError(
                    path,
                    f"expected a cost of 1 or more or {IMPASSABLE!r}, got {enter!r}",
                    kind="terrain",
                    entry=name,
                    field="enter",
                )
            entry["enter"] = 1  # checked above; check_entry still checks fields and provenance
        specs = [FieldSpec(f, "int", min=1 if f == "drop_levels" else 0) for f in fields]
        vals[name] = check_entry(entry, specs, path, "terrain")
        if name in ("open", "foliage", "obstacle"):
            vals[name]["enter"] = None if table["enter"] == IMPASSABLE else table["enter"]
    return Terrain(
        enter=(vals["open"]["enter"], vals["foliage"]["enter"], vals["obstacle"]["enter"]),
        climb_per_level=vals["climb"]["per_level"],
        climb_max=vals["climb"]["max_levels"],
        fall_drop=vals["fall"]["drop_levels"],
        provenance={name: v["provenance"] for name, v in vals.items()},
    )
