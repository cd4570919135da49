"""Board geometry (``sims/skirmish/geometry.py``, 003 H) against hand-worked cases on small
maps written here, and movement costs against a brute-force search over (hex, spent).

Maps are drawn one token per hex, rows top to bottom (odd rows sit half a hex right):
the ground level digit, then ``.`` open, ``f`` foliage or ``#N`` an obstacle N levels high.
Flat index h = row * length + col. Odd-r cube: x = col - (row - (row & 1)) // 2, z = row.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sims.skirmish import geometry as g
from sims.skirmish.maps import Map


def board(*rows: str, zones=(), deploy: int = 2, name: str = "test") -> Map:
    """A Map of the drawn rows: a token per hex, its elevation digit then ``.`` open, ``f``
    foliage or ``#N`` an obstacle N levels above its ground."""
    grid = [r.split() for r in rows]
    depth, length = len(grid), len(grid[0])
    elevation = np.zeros((depth, length), dtype=np.int8)
    terrain = np.zeros((depth, length), dtype=np.int8)
    obstacle = np.zeros((depth, length), dtype=np.int8)
    for r, row in enumerate(grid):
        assert len(row) == length
        for c, tok in enumerate(row):
            elevation[r, c] = int(tok[0])
            if tok[1] == "f":
                terrain[r, c] = 1
            elif tok[1] == "#":
                terrain[r, c], obstacle[r, c] = 2, int(tok[2:])
    return Map(name, name, "assumed", length, depth, elevation, terrain, obstacle, zones, deploy, 4)


def flat(n_rows: int = 5, n_cols: int = 7, **hexes: str) -> Map:
    """An open level-0 board with the named hexes ``c{col}r{row}`` replaced."""
    rows = [["0."] * n_cols for _ in range(n_rows)]
    for name, tok in hexes.items():
        c, r = name[1:].split("r")
        rows[int(r)][int(c)] = tok
    return board(*(" ".join(r) for r in rows))


def H(col: int, row: int, length: int = 7) -> int:
    return row * length + col


# ---------------------------------------------------------------- distances and lines


def test_cube_and_distance_by_hand():
    assert g.cube(0, 0) == (0, 0, 0)
    assert g.cube(3, 2) == (2, -4, 2)  # x = 3 - (2 - 0) // 2
    assert g.cube(4, 1) == (4, -5, 1)  # odd row: x = 4 - 0
    assert g.distance((0, 0), (6, 0)) == 6
    assert g.distance((0, 0), (0, 4)) == 4  # (0,0,0) to (-2,-2,4)
    assert g.distance((0, 0), (6, 4)) == 8  # (0,0,0) to (4,-8,4)
    assert g.distance((3, 2), (3, 0)) == 2  # (2,-4,2) to (3,-3,0)
    assert g.distance((0, 1), (1, 0)) == 1  # odd row's north-east neighbour
    # arrays broadcast: (0,0)-(6,0) 6, (0,0)-(0,0) 0, (3,2)-(3,0) 2
    d = g.distance((np.array([0, 0, 3]), np.array([0, 0, 2])), (np.array([6, 0, 3]), 0))
    assert d.tolist() == [6, 0, 2]


def test_neighbours_direction_order():
    # (3,2) even row: E (4,2), NE (3,1), NW (2,1), W (2,2), SW (2,3), SE (3,3)
    assert g.neighbours(H(3, 2), 7, 5) == [H(4, 2), H(3, 1), H(2, 1), H(2, 2), H(2, 3), H(3, 3)]
    # (0,0) corner: only E (1,0) and SE (0,1) on the board
    assert g.neighbours(0, 7, 5) == [1, 7]
    geo = g.build(flat())
    assert geo.neighbour[H(3, 2)].tolist() == g.neighbours(H(3, 2), 7, 5)
    assert geo.neighbour[0].tolist() == [1, -1, -1, -1, -1, 7]


def test_dist_table_symmetric_and_by_hand():
    geo = g.build(flat())
    assert (geo.dist == geo.dist.T).all()
    assert geo.dist[H(0, 0), H(6, 4)] == 8
    assert geo.dist[H(0, 0), H(0, 4)] == 4
    assert geo.dist[H(1, 0), H(5, 2)] == 5  # (1,-1,0) to (4,-6,2)
    assert (np.diag(geo.dist) == 0).all()


def test_hex_line_both_nudges():
    # (0,0) -> (1,1): cube (0,0,0) -> (1,-2,1); the midpoint (0.5,-1,0.5) is on the edge
    # between (1,0) and (0,1). +nudge rounds x up: (1,-1,0) = (1,0); -nudge: (0,-1,1) = (0,1)
    assert g.hex_line((0, 0), (1, 1), 1) == [(0, 0), (1, 0), (1, 1)]
    assert g.hex_line((0, 0), (1, 1), -1) == [(0, 0), (0, 1), (1, 1)]
    # along row 2, exact centres: (1,2) (2,2) ... (5,2)
    assert g.hex_line((1, 2), (5, 2)) == [(c, 2) for c in range(1, 6)]


# ---------------------------------------------------------------- movement (003 H)

MOVE_MAP = (
    "0. 0.  0.  0.  0. 0. 0.",
    "0. 0f  0f  0.  1. 2. 0.",
    "0. 0#1 0.  1f  1. 3. 0.",
    "0. 0.  0#2 0.  0. 0. 0.",
    "0. 0.  0.  0.  0. 0. 0.",
)


def entering(m: Map, a: int, b: int, falls: bool = True) -> int | None:
    """The movement rule restated: terrain 1 open / 2 foliage / obstacle never; +1 to climb
    one level; two or more up never; any drop free (no drop of 2+ without falls)."""
    ea, eb = int(m.elevation.flat[a]), int(m.elevation.flat[b])
    t = int(m.terrain.flat[b])
    if t == 2 or eb - ea >= 2 or (not falls and ea - eb >= 2):
        return None
    return (1 if t == 0 else 2) + (1 if eb - ea == 1 else 0)


def brute_costs(m: Map, falls: bool = True) -> np.ndarray:
    """Least cost for every pair by layers of exactly-s spent: layer[s] holds every hex a
    walk from the source reaches having spent exactly s (no priority queue)."""
    n = m.length * m.depth
    steps = [
        [
            (b, c)
            for b in g.neighbours(a, m.length, m.depth)
            if (c := entering(m, a, b, falls)) is not None
        ]
        for a in range(n)
    ]
    out = np.full((n, n), g.UNREACHABLE)
    for src in range(n):
        layers = [{src}]
        out[src, src] = 0
        for s in range(1, 3 * n + 1):
            layer = {
                b
                for back in (1, 2, 3)
                if s - back >= 0
                for a in layers[s - back]
                for b, c in steps[a]
                if c == back
            }
            layers.append(layer)
            for b in layer:
                out[src, b] = min(out[src, b], s)
    return out


@pytest.mark.parametrize("falls", [True, False])
def test_move_cost_matches_brute_force(falls):
    m = board(*MOVE_MAP)
    geo = g.build(m, falls=falls)
    assert (geo.move_cost == brute_costs(m, falls)).all()


def test_move_cost_by_hand():
    geo = g.build(board(*MOVE_MAP))
    mc = geo.move_cost
    assert mc[H(0, 0), H(3, 0)] == 3  # three open hexes
    assert mc[H(3, 1), H(4, 1)] == 2  # open 1, climb one level +1
    # (5,1) level 2 is entered only from (4,1) level 1 (2) or (5,2) level 3 (1, a drop); (5,2)
    # is entered only from (5,1). So (3,1) -> (4,1) 2 -> (5,1) 2 = 4, then (5,2) 2 more.
    assert mc[H(3, 1), H(5, 1)] == 4
    assert mc[H(3, 1), H(5, 2)] == 6
    # (6,1) is next to (5,1) but two levels below it: around by (6,0) 1, (5,0) 1, (4,1) 2,
    # (5,1) 2 = 6
    assert mc[H(6, 1), H(5, 1)] == 6
    assert mc[H(5, 2), H(6, 2)] == 1  # a three-level drop: allowed (a fall)
    # (1,2) is an obstacle: (0,2) -> (0,3) -> (1,3) -> (2,2) = 3 beats (0,1), (1,1)f, (2,2) = 4
    assert mc[H(0, 2), H(2, 2)] == 3
    assert mc[H(0, 2), H(1, 2)] == g.UNREACHABLE
    assert mc[H(3, 0), H(3, 2)] == 4  # (3,1) open 1, then (3,2) foliage 2 + climb 1
    assert (np.diag(mc) == 0).all()
    # without falls the three-level drop is closed: (5,1) 1, (4,1) 1, (4,2) 1, (4,3) 1,
    # (5,3) 1, (6,2) 1 = 6
    assert g.build(board(*MOVE_MAP), falls=False).move_cost[H(5, 2), H(6, 2)] == 6


def test_next_step_by_hand_and_ties():
    geo = g.build(board(*MOVE_MAP))
    assert geo.next_step[H(0, 2), H(2, 2)] == H(0, 3)  # the only cost-3 route
    # (0,0) -> (1,1): two open middles (1,0) = 1 and (0,1) = 7; the lowest index wins
    assert geo.next_step[H(0, 0), H(1, 1)] == 1
    assert geo.next_step[H(4, 4), H(4, 4)] == H(4, 4)
    assert geo.next_step[H(0, 0), H(1, 2)] == -1  # obstacle: no path


def test_next_step_walks_reach_target_at_move_cost():
    m = board(*MOVE_MAP)
    geo = g.build(m)
    n = m.length * m.depth
    for a in range(n):
        for b in range(n):
            if geo.move_cost[a, b] == g.UNREACHABLE:
                assert geo.next_step[a, b] == -1
                continue
            here, spent = a, 0
            while here != b:
                step = int(geo.next_step[here, b])
                spent += entering(m, here, step)
                here = step
            assert spent == geo.move_cost[a, b]


def test_falls_and_push():
    geo = g.build(board(*MOVE_MAP))
    assert geo.fall_levels[H(5, 2), H(6, 2)] == 3  # level 3 to level 0
    assert geo.fall_levels[H(5, 1), H(6, 1)] == 2  # level 2 to level 0
    assert geo.fall_levels[H(4, 1), H(3, 1)] == 0  # one level: no fall
    assert geo.fall_levels[H(6, 2), H(5, 2)] == 0  # climbing
    assert geo.fall_levels[H(5, 2), H(6, 4)] == 0  # not neighbours
    assert geo.push[H(1, 2), H(2, 2)] == H(3, 2)  # east, one more east
    assert geo.push[H(5, 2), H(6, 2)] == -1  # off the board
    # (3,2) -> its NE (3,1) -> NE of odd-row (3,1) is (4,0)
    assert geo.push[H(3, 2), H(3, 1)] == H(4, 0)
    assert geo.push[H(1, 2), H(3, 2)] == -1  # not adjacent


# ---------------------------------------------------------------- line of sight (003 H4)
# The straight line (1,2) -> (5,2) runs through (2,2), (3,2), (4,2) (i = 1, 2, 3 of N = 4).

A, T = H(1, 2), H(5, 2)


def test_level_sight_equal_top_does_not_block_higher_blocks():
    # both eyes at 1: sight height 1 along the line; an obstacle of height 1 tops at 1
    geo = g.build(flat(c3r2="0#1"))
    assert geo.los[A, T] and geo.los[T, A]
    assert not geo.hard_cover[A, T]  # (3,2) is not adjacent to the target
    geo = g.build(flat(c3r2="0#2"))  # top 2 > 1
    assert not geo.los[A, T] and not geo.los[T, A]
    geo = g.build(flat(c3r2="2."))  # a hill two levels high blocks too
    assert not geo.los[A, T]
    geo = g.build(flat(c3r2="0f"))  # foliage never blocks sight
    assert geo.los[A, T]


def test_sight_over_a_ridge_from_above():
    # attacker level 3 (eye 4) to target level 0 (eye 1): at (3,2) the sight is
    # 4 - 3 * 2/4 = 2.5, above a level-2 ridge
    geo = g.build(flat(c1r2="3.", c3r2="2."))
    assert geo.los[A, T] and geo.los[T, A]
    # attacker level 2 (eye 3) to (4,2) level 0, N = 3: sight 2.33 at (2,2), 1.67 at (3,2)
    t = H(4, 2)
    assert g.build(flat(c1r2="2.", c2r2="0#2")).los[A, t]  # 2 < 2.33
    assert not g.build(flat(c1r2="2.", c3r2="0#2")).los[A, t]  # 2 > 1.67


def test_exactly_at_height_next_to_target_is_hard_cover():
    # a level-1 hill (not an obstacle) at (4,2), next to the target: top 1 = sight 1
    geo = g.build(flat(c4r2="1."))
    assert geo.los[A, T] and geo.hard_cover[A, T]
    # the other way the hill is next to the attacker, and (2,2) by the target is open
    assert geo.los[T, A] and not geo.hard_cover[T, A]


def test_obstacle_beside_target_between_reading():
    # attacker (1,0) to target (5,2), N = 5; the target's neighbours closer to the attacker
    # (distance 4) are (4,1) and (4,2). The line is (2,0) (2,1) (3,1) (4,2): (4,1) is off it
    # and still gives hard cover ("between": a neighbour closer to the attacker).
    a = H(1, 0)
    geo = g.build(flat(c4r1="0#1"))
    assert geo.line_hexes(a, T).tolist() == [a, H(2, 0), H(2, 1), H(3, 1), H(4, 2), T]
    assert geo.los[a, T] and geo.hard_cover[a, T]
    assert g.build(flat(c4r2="0#1")).hard_cover[a, T]  # on the line, at height 1 too
    assert not g.build(flat(c5r1="0#1")).hard_cover[a, T]  # (5,1) is at distance 5: beside
    assert not g.build(flat(c6r2="0#1")).hard_cover[a, T]  # behind the target
    assert not g.build(flat(c4r1="0f")).hard_cover[a, T]  # foliage is not an obstacle


def test_hard_cover_ignored_from_two_levels_above():
    # obstacle height 1 at (4,2), next to target (5,2) level 0, toward the attacker
    one_up = g.build(flat(c1r2="1.", c4r2="0#1"))  # eye 2: sight at (4,2) 2 - 3/4 = 1.25
    assert one_up.los[A, T] and one_up.hard_cover[A, T] and one_up.high_ground[A, T]
    two_up = g.build(flat(c1r2="2.", c4r2="0#1"))  # eye 3: sight 1.5, obstacle rule ignored
    assert two_up.los[A, T] and not two_up.hard_cover[A, T] and two_up.high_ground[A, T]
    # exactly at height, two levels above: (1,2) level 2 (eye 3) to (3,2) level 0 (eye 1),
    # N = 2, sight 2 at (2,2), a level-2 hill there: seen, its hard cover ignored
    geo = g.build(flat(c1r2="2.", c2r2="2."))
    assert geo.los[A, H(3, 2)] and not geo.hard_cover[A, H(3, 2)]
    # one level above, N = 2: sight 1.5 at (2,2); an obstacle of height 1 gives cover
    geo = g.build(flat(c1r2="1.", c2r2="0#1"))
    assert geo.los[A, H(3, 2)] and geo.hard_cover[A, H(3, 2)]


def test_no_cover_without_sight():
    geo = g.build(flat(c3r2="0#2", c4r2="0#1"))  # blocked at (3,2)
    assert not geo.los[A, T] and not geo.hard_cover[A, T]


def test_soft_cover():
    assert g.build(flat(c3r2="0f")).soft_cover[A, T]  # foliage on the line
    assert g.build(flat(c5r2="0f")).soft_cover[A, T]  # the target stands in foliage
    assert not g.build(flat(c1r2="0f")).soft_cover[A, T]  # the attacker's hex does not count
    assert not g.build(flat(c3r1="0f")).soft_cover[A, T]  # off the line
    geo = g.build(flat(c3r2="0f"))
    assert not geo.hard_cover[A, T]


def test_high_ground():
    geo = g.build(flat(c1r2="1."))
    assert geo.high_ground[A, T] and not geo.high_ground[T, A]
    assert not g.build(flat()).high_ground[A, T]


def test_edge_line_attacker_takes_the_clear_line():
    a, t = H(0, 0), H(1, 1)  # the + line goes by (1,0), the - line by (0,1)
    geo = g.build(flat(c1r0="0#2"))
    assert geo.los[a, t]  # the (0,1) line is clear
    assert geo.line_hexes(a, t).tolist() == [a, H(0, 1), t]
    assert not g.build(flat(c1r0="0#2", c0r1="0#2")).los[a, t]
    geo = g.build(flat(c0r1="0f"))  # both clear: the attacker takes the line without foliage
    assert geo.los[a, t] and not geo.soft_cover[a, t]
    assert geo.line_hexes(a, t).tolist() == [a, H(1, 0), t]
    geo = g.build(flat(c1r0="0#2", c0r1="0f"))  # only the foliage line is clear
    assert geo.los[a, t] and geo.soft_cover[a, t]


def test_line_off_the_board_is_not_drawn():
    # (0,0) -> (0,2): the + line leaves the board at (-1,1); the - line runs through (0,1)
    a, t = H(0, 0), H(0, 2)
    geo = g.build(flat())
    assert geo.line_hexes(a, t).tolist() == [a, H(0, 1), t]
    assert not g.build(flat(c0r1="0#2")).los[a, t]


def test_lines_stay_on_board_and_symmetric_sight():
    geo = g.build(board(*MOVE_MAP))
    assert (geo.line_flat >= 0).all()
    assert (geo.los == geo.los.T).all()  # sight heights and lines are the same both ways
    assert (geo.hard_cover <= geo.los).all() and (geo.soft_cover <= geo.los).all()


def test_line_hexes_and_lines_through():
    geo = g.build(flat())
    assert geo.line_hexes(A, T).tolist() == [A, H(2, 2), H(3, 2), H(4, 2), T]
    assert geo.line_hexes(T, A).tolist() == [T, H(4, 2), H(3, 2), H(2, 2), A]
    smoke = np.zeros(35, dtype=bool)
    smoke[H(3, 2)] = True
    got = geo.lines_through([A, T, A, H(1, 1)], [T, A, H(3, 2), H(5, 1)], smoke)
    # through; through; (3,2) is the target, not on the way; row 1 misses it
    assert got.tolist() == [True, True, False, False]
    per_line = np.zeros((2, 35), dtype=bool)
    per_line[1, H(3, 2)] = True
    assert geo.lines_through([A, A], [T, T], per_line).tolist() == [False, True]


def test_zone_table_and_bad_costs():
    m = board(*MOVE_MAP, zones=(((3, 2), (4, 2)),))
    geo = g.build(m)
    assert geo.zone[H(3, 2)] == 0 and geo.zone[H(4, 2)] == 0 and geo.zone[0] == -1
    with pytest.raises(ValueError, match="terrain code 2"):
        g.build(m, {0: 1, 1: 2})
    with pytest.raises(ValueError, match=r"terrain_costs\[1\]"):
        g.build(m, [1, 0, None])
    # foliage costing 1 instead of 2: (0,1) -> (1,1)f -> (2,1)f = 2 (4 at the default)
    assert g.build(m, [1, 1, None]).move_cost[H(0, 1), H(2, 1)] == 2


def test_terrain_table_and_jump_climb():
    m = board(*MOVE_MAP)
    # the fields build reads from a maps.Terrain (catalogs/skirmish/terrain.toml)
    terrain = SimpleNamespace(enter=(1, 2, None), climb_per_level=2, climb_max=2, fall_drop=3)
    geo = g.build(m, terrain)
    # (6,1) level 0 -> (5,1) level 2 straight up: open 1 + 2 levels x 2 = 5 (around: 8)
    assert geo.move_cost[H(6, 1), H(5, 1)] == 5
    assert geo.fall_levels[H(5, 1), H(6, 1)] == 0  # a drop of 2 is no fall at fall_drop 3
    assert geo.fall_levels[H(5, 2), H(6, 2)] == 3
    # the defaults with max_climb 2 (a jumper): 1 + 2 levels x 1 = 3
    assert g.build(m, max_climb=2).move_cost[H(6, 1), H(5, 1)] == 3
