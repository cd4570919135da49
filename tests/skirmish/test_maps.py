"""Skirmish maps (003 H): the shipped boards, the drawn-hex format, and one clear line per
bad map. Expected values are read off the rulebook and the drawn files by hand."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from sims.core.catalog import CatalogError
from sims.skirmish.maps import (
    FOLIAGE,
    OBSTACLE,
    OPEN,
    Map,
    distance,
    flower,
    load_map,
    load_maps,
    load_terrain,
    neighbours,
)

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "catalogs" / "skirmish" / "maps"
TERRAIN = ROOT / "catalogs" / "skirmish" / "terrain.toml"
STANDARD = ("open", "broken", "urban")


@pytest.fixture(scope="module")
def maps() -> dict[str, Map]:
    return load_maps(MAPS)


# ---- hex arithmetic (odd-r) --------------------------------------------------------------


def test_neighbours_odd_r():
    # even row: the row above and below lean left; odd row (shifted right): they lean right
    assert neighbours(2, 2) == [(3, 2), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3)]
    assert neighbours(2, 1) == [(3, 1), (3, 0), (2, 0), (1, 1), (2, 2), (3, 2)]
    assert flower(2, 1) == ((2, 1), (3, 1), (3, 0), (2, 0), (1, 1), (2, 2), (3, 2))


def test_distance():
    # (0,0) -> (0,1) -> (1,2) -> (1,3) down the south-east diagonal, then 2 east: 5
    assert distance((0, 0), (3, 3)) == 5
    assert distance((0, 0), (31, 0)) == 31
    assert distance((2, 2), (2, 2)) == 0
    assert all(distance((2, 1), n) == 1 for n in neighbours(2, 1))


# ---- the shipped maps --------------------------------------------------------------------


def test_shipped_maps_and_sizes(maps):
    assert sorted(maps) == ["broken", "large_broken", "open", "urban"]
    for ident in STANDARD:  # 003 H: 32 long by 20 deep, elevation 0 to 3
        m = maps[ident]
        assert (m.length, m.depth, m.max_elevation, m.deploy) == (32, 20, 3, 3)
        assert m.provenance == "assumed"
    large = maps["large_broken"]  # 003 H: the large variant, 40 by 24, elevation up to 4
    assert (large.length, large.depth, large.max_elevation, large.deploy) == (40, 24, 4, 3)


def test_arrays_shapes_and_ranges(maps):
    for m in maps.values():
        for a in (m.elevation, m.terrain, m.obstacle, m.top()):
            assert a.shape == (m.depth, m.length) and a.dtype == np.int8
        assert m.elevation.min() == 0 and m.elevation.max() <= m.max_elevation
        assert set(np.unique(m.terrain)) <= {OPEN, FOLIAGE, OBSTACLE}
        # an obstacle is 1 or 2 levels above its ground exactly where terrain says obstacle
        assert ((m.obstacle > 0) == (m.terrain == OBSTACLE)).all()
        assert set(np.unique(m.obstacle)) <= {0, 1, 2}
        assert not m.elevation.flags.writeable
    # the drawn extremes: broken and urban climb to 3, the large map to 4, open to 2
    assert [maps[i].elevation.max() for i in ("open", "broken", "urban", "large_broken")] == [
        2,
        3,
        3,
        4,
    ]


def test_hand_read_hexes(maps):
    # open.toml row 6 is seventeen "0." then "0O": a two-level rock on ground 0 at (17, 6)
    m = maps["open"]
    assert (m.elevation[6, 17], m.terrain[6, 17], m.obstacle[6, 17], m.top()[6, 17]) == (
        0,
        OBSTACLE,
        2,
        2,
    )
    assert m.terrain[3, 3] == FOLIAGE  # row 3: " 0. 0. 0. 0f ..."
    assert m.elevation[10, 5] == 2  # the top of the low rise west of the middle
    # large_broken: the high hill's top at (8, 13) and its half-turn twin at (31, 10)
    large = maps["large_broken"]
    assert large.elevation[13, 8] == large.elevation[10, 31] == 4


def test_zones_seven_hexes_in_bounds_apart(maps):
    for m in maps.values():
        assert len(m.zones) == 3  # 003 H: three zones
        seen: set[tuple[int, int]] = set()
        for zone in m.zones:
            assert len(set(zone)) == 7 and zone == flower(*zone[0])  # the 7-hex flower
            for c, r in zone:
                assert m.in_bounds(c, r)
                assert m.deploy <= c < m.length - m.deploy  # not in the deployment columns
                assert m.terrain[r, c] != OBSTACLE  # the shipped maps keep zones clear
            assert not seen & set(zone)
            seen |= set(zone)


def test_zone_centers_at_thirds(maps):
    # 003 H: about one third, one half, two thirds of the long axis. Standard: cols 0..31,
    # so 31/3 = 10.3, 15.5, 20.7; large: cols 0..39, so 13, 19.5, 26.
    for ident in STANDARD:
        assert [z[0] for z in maps[ident].zones] == [(10, 4), (16, 10), (21, 15)]
    assert [z[0] for z in maps["large_broken"].zones] == [(13, 5), (20, 12), (26, 18)]
    for m in maps.values():
        cols = [z[0][0] for z in m.zones]
        for col, third in zip(cols, (1, 1.5, 2), strict=True):
            assert abs(col - (m.length - 1) * third / 3) <= 1


def test_zones_offset_to_different_sides(maps):
    # 003 H: offset to different sides so no single position sees all three. Proxy until the
    # geometry helper's line of sight: the zone centers' rows differ pairwise by 5 or more.
    for m in maps.values():
        rows = [z[0][1] for z in m.zones]
        assert all(abs(a - b) >= 5 for i, a in enumerate(rows) for b in rows[i + 1 :]), m.id


def test_half_turn_symmetry(maps):
    # both sides get the same ground: (col, row) -> (length-1-col, depth-1-row)
    for m in maps.values():
        for a in (m.elevation, m.terrain, m.obstacle):
            assert (a == np.rot90(a, 2)).all(), m.id
        z1, _, z3 = (z[0] for z in m.zones)
        assert z3 == (m.length - 1 - z1[0], m.depth - 1 - z1[1])


def test_files_state_rulebook_fields():
    for path in sorted(MAPS.glob("*.toml")):
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
        assert doc["provenance"] == "assumed"
        assert set(doc["rulebook_fields"]) == {"length", "depth", "max_elevation", "deploy"}


def test_hex_index_and_hexes(maps):
    m = maps["open"]
    assert m.hex_index(0, 0) == 0
    assert m.hex_index(31, 0) == 31
    assert m.hex_index(3, 2) == 2 * 32 + 3 == 67
    hexes = m.hexes()
    assert len(hexes) == 640 and hexes[67] == (3, 2) and hexes[-1] == (31, 19)
    # flat arrays follow the same order
    assert m.top().ravel()[m.hex_index(17, 6)] == 2


# ---- a tiny map written here, parsed by hand ---------------------------------------------

TINY = '''id = "tiny"
name = "Tiny"
provenance = "assumed"
length = 11
depth = 3
max_elevation = 3
deploy = 1
zones = [[2, 1], [5, 1], [8, 1]]
hexes = """
0. 1f 2o 3O 0. 0. 0. 0. 0. 0. 0.
 0. 0. 1. 0. 0. 0. 0. 0. 0. 0. 0.
0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 2f
"""
'''


def write(tmp_path: Path, text: str, name: str = "tiny.toml") -> Path:
    folder = tmp_path / "maps"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def test_tiny_map_parses(tmp_path):
    m = load_map(write(tmp_path, TINY))
    zero = [0] * 7
    assert m.elevation.tolist() == [
        [0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 1] + [0] * 8,
        [0] * 10 + [2],
    ]
    assert m.terrain.tolist() == [[0, 1, 2, 2, *zero], [0] * 11, [0] * 10 + [1]]
    assert m.obstacle.tolist() == [[0, 0, 1, 2, *zero], [0] * 11, [0] * 11]
    # top = ground + obstacle: 2 + 1 at col 2, 3 + 2 at col 3; foliage adds nothing
    assert m.top().tolist() == [[0, 1, 3, 5, *zero], [0, 0, 1] + [0] * 8, [0] * 10 + [2]]
    # zone centers on row 1 (odd): ring east, NE, NW, west, SW, SE = (+1,0) (+1,-1) (0,-1)
    # (-1,0) (0,+1) (+1,+1)
    assert m.zones == (
        ((2, 1), (3, 1), (3, 0), (2, 0), (1, 1), (2, 2), (3, 2)),
        ((5, 1), (6, 1), (6, 0), (5, 0), (4, 1), (5, 2), (6, 2)),
        ((8, 1), (9, 1), (9, 0), (8, 0), (7, 1), (8, 2), (9, 2)),
    )
    assert (m.id, m.name, m.length, m.depth, m.deploy, m.max_elevation) == (
        "tiny",
        "Tiny",
        11,
        3,
        1,
        3,
    )
    loaded = load_maps(tmp_path / "maps")
    assert list(loaded) == ["tiny"] and (loaded["tiny"].top() == m.top()).all()
    assert {m: 1}[m] == 1  # hashable by identity: a Map can key a geometry cache


# ---- one clear line per problem ----------------------------------------------------------


def copy_maps(tmp_path: Path) -> Path:
    folder = tmp_path / "maps"
    shutil.copytree(MAPS, folder)
    return folder


def edit(folder: Path, name: str, old: str, new: str) -> Path:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{name}: expected {old!r} once"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def edit_row(folder: Path, name: str, row: int, change) -> Path:
    """Replace drawn row ``row`` of ``name``'s hexes by ``change(tokens)`` (None: drop it)."""
    path = folder / name
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index('hexes = """') + 1
    new = change(lines[start + row].split())
    if new is None:
        del lines[start + row]
    else:
        lines[start + row] = " ".join(new)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def message(folder: Path) -> str:
    with pytest.raises(CatalogError) as info:
        load_maps(folder)
    text = str(info.value)
    assert "\n" not in text
    return text


def replaced(col: int, token: str):
    return lambda tokens: [token if i == col else t for i, t in enumerate(tokens)]


def test_wrong_row_count(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit_row(folder, "open.toml", 19, lambda tokens: None)
    assert message(folder) == f"{path}: map 'open', field 'hexes': has 19 rows, expected depth 20"


def test_wrong_row_length(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit_row(folder, "open.toml", 3, lambda tokens: tokens[:-1])
    assert message(folder) == (
        f"{path}: map 'open', field 'hexes': row 3 has 31 hexes, expected length 32"
    )


def test_bad_token(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit_row(folder, "open.toml", 2, replaced(5, "0x"))
    assert message(folder) == (
        f"{path}: map 'open', field 'hexes': row 2, col 5: bad hex '0x' "
        "(an elevation digit then one of . f o O, like 0. 2f 1o)"
    )


def test_elevation_above_max(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit_row(folder, "urban.toml", 2, replaced(5, "4."))
    assert message(folder) == (
        f"{path}: map 'urban', field 'hexes': row 2, col 5: elevation 4 is above max_elevation 3"
    )


def test_elevation_above_max_large(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit_row(folder, "large_broken.toml", 0, replaced(0, "5f"))
    assert message(folder) == (
        f"{path}: map 'large_broken', field 'hexes': row 0, col 0: elevation 5 is above "
        "max_elevation 4"
    )


def test_max_elevation_against_rulebook(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit(folder, "broken.toml", "max_elevation = 3", "max_elevation = 4")
    assert message(folder) == (
        f"{path}: map 'broken', field 'max_elevation': 4 is above the rulebook's 3 for a "
        "board 32 long (003 H: 0 to 3, up to 4 on the 40-long variant)"
    )
    shutil.rmtree(folder)
    folder = copy_maps(tmp_path)
    path = edit(folder, "large_broken.toml", "max_elevation = 4", "max_elevation = 5")
    assert message(folder) == (
        f"{path}: map 'large_broken', field 'max_elevation': 5 is above the rulebook's 4 for "
        "a board 40 long (003 H: 0 to 3, up to 4 on the 40-long variant)"
    )


ZONES = "zones = [[10, 4], [16, 10], [21, 15]]"


@pytest.mark.parametrize(
    ("zones", "expected"),
    [
        ("[[10, 4], [16, 10], [32, 15]]", "zone 3 center (32, 15) is off the 32 x 20 board"),
        # (10, 0) is on even row 0: its second ring hex, north-east, is (10, -1)
        (
            "[[10, 0], [16, 10], [21, 15]]",
            "zone 1 at (10, 0): ring hex (10, -1) is off the board (a zone is 7 hexes, 003 H)",
        ),
        # zone 1 around (10, 4) holds (11, 4); (12, 4)'s ring reaches west to it
        ("[[10, 4], [12, 4], [21, 15]]", "zones 1 and 2 share hex (11, 4)"),
        # open.toml row 6: seventeen "0." then "0O"
        ("[[17, 6], [16, 10], [21, 15]]", "zone 1 center (17, 6) is an obstacle"),
        (
            "[[2, 4], [16, 10], [21, 15]]",
            "zone 1 hex (2, 4) lies in the deployment columns (cols < 3 or >= 29)",
        ),
        (
            "[[10, 4], [16, 10]]",
            "expected 3 zone centers [[col, row], ...] (003 H), got [[10, 4], [16, 10]]",
        ),
        (
            "[[10, 4], [16, 10], [21]]",
            "expected 3 zone centers [[col, row], ...] (003 H), got [[10, 4], [16, 10], [21]]",
        ),
    ],
)
def test_zone_problems(tmp_path, zones, expected):
    folder = copy_maps(tmp_path)
    path = edit(folder, "open.toml", ZONES, f"zones = {zones}")
    assert message(folder) == f"{path}: map 'open', field 'zones': {expected}"


@pytest.mark.parametrize(
    ("old", "new", "field", "expected"),
    [
        ("deploy = 3", "deploy = 7", "deploy", "7 is above the maximum 6"),
        ("deploy = 3", "deploy = 0", "deploy", "0 is below the minimum 1"),
        (
            "length = 32",
            "length = 19",
            "length",
            "19 is less than depth 20: the deployment columns must sit at the short ends "
            "(cols run along the long axis, 003 H)",
        ),
        (
            'provenance = "assumed"',
            'provenance = "guessed"',
            "provenance",
            "'guessed' is not one of rulebook, assumed",
        ),
        (
            'name = "Open ground"',
            'name = "Open ground"\ncolour = "green"',
            "colour",
            "unknown field",
        ),
        (ZONES, "", "zones", "missing required field"),
    ],
)
def test_field_problems(tmp_path, old, new, field, expected):
    folder = copy_maps(tmp_path)
    path = edit(folder, "open.toml", old, new)
    assert message(folder) == f"{path}: map 'open', field '{field}': {expected}"


def test_id_must_match_file(tmp_path):
    folder = copy_maps(tmp_path)
    path = edit(folder, "open.toml", 'id = "open"', 'id = "opem"')
    assert message(folder) == (
        f"{path}: map 'opem', field 'id': id 'opem' differs from the file name 'open'"
    )


def test_narrower_than_two_deployments(tmp_path):
    # 6 long with deploy 3: the two deployment strips would meet (2 x 3 + 1 = 7)
    text = TINY.replace("length = 11", "length = 6").replace("deploy = 1", "deploy = 3")
    path = write(tmp_path, text)
    assert message(path.parent) == (
        f"{path}: map 'tiny', field 'length': 6 is narrower than 2 x deploy + 1 = 7"
    )


def test_folder_problems(tmp_path):
    assert message(tmp_path / "nowhere") == f"{tmp_path / 'nowhere'}: maps folder not found"
    assert message(tmp_path) == f"{tmp_path}: no map files (*.toml)"


# ---- terrain.toml: movement costs --------------------------------------------------------


def test_terrain_costs():
    t = load_terrain(TERRAIN)
    # open 1, foliage 2, obstacle impassable on foot; +1 per level climbed, at most one level
    # a step; a drop of two or more levels is a fall (003 H3)
    assert t.enter == (1, 2, None)
    assert (t.climb_per_level, t.climb_max, t.fall_drop) == (1, 1, 2)
    assert set(t.provenance.values()) == {"assumed"}
    assert sorted(t.provenance) == ["climb", "fall", "foliage", "obstacle", "open"]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "enter = 2",
            "enter = 0",
            "terrain 'foliage', field 'enter': expected a cost of 1 or more or 'impassable', got 0",
        ),
        (
            "per_level = 1",
            "per_level = -1",
            "terrain 'climb', field 'per_level': -1 is below the minimum 0",
        ),
        (
            "drop_levels = 2",
            "drop_levels = 0",
            "terrain 'fall', field 'drop_levels': 0 is below the minimum 1",
        ),
        (
            "[fall]",
            "[swamp]",
            "unknown table [swamp] (expected open, foliage, obstacle, climb, fall)",
        ),
        (
            'enter = 2\nprovenance = "assumed"',
            "enter = 2",
            "terrain 'foliage', field 'provenance': missing required field (rulebook or assumed)",
        ),
    ],
)
def test_terrain_problems(tmp_path, old, new, expected):
    path = tmp_path / "terrain.toml"
    text = TERRAIN.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_terrain(path)
    assert str(info.value) == f"{path}: {expected}"


def test_terrain_missing_table(tmp_path):
    path = tmp_path / "terrain.toml"
    text = TERRAIN.read_text(encoding="utf-8")
    path.write_text(text[: text.index("[fall]")], encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_terrain(path)
    assert str(info.value) == f"{path}: missing table [fall]"
