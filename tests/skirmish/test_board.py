"""The board as the engines play it (``sims/skirmish/board.py``, 003 H, I) against hand-worked
cases on small maps written here, and walking against a brute-force search.

Maps are drawn one token per hex, rows top to bottom (odd rows sit half a hex right): the
ground level digit, then ``.`` open, ``f`` foliage or ``#N`` an obstacle N levels high.
Flat index h = row * length + col. Distances by hand through odd-r cube coordinates
x = col - (row - (row & 1)) // 2, z = row, y = -x - z; distance = max(|dx|, |dy|, |dz|)
(written [x,z] below). On open level-0 ground a movement cost is that distance.
Movement (geometry.py readings): entering open 1, foliage 2, +1 per level climbed, two or
more levels up never; a Board's paths never drop two or more levels (falls=False).
Directions: E, NE, NW, W, SW, SE; even row (c,r): (c+1,r) (c,r-1) (c-1,r-1) (c-1,r)
(c-1,r+1) (c,r+1); odd row: (c+1,r) (c+1,r-1) (c,r-1) (c-1,r) (c,r+1) (c+1,r+1).
"""

from __future__ import annotations

import heapq
import itertools

import numpy as np
import pytest

from sims.skirmish import board as B
from sims.skirmish.geometry import UNREACHABLE
from sims.skirmish.maps import Map, Terrain, flower
from tests.skirmish.test_geometry import board

# ---------------------------------------------------------------- helpers

_IDS = itertools.count()


def drawn(*rows: str, zones, deploy: int = 2, name: str | None = None) -> Map:
    """A Map of the drawn rows, with its own id unless ``name`` is given (the caches key by
    id, ground and zones, so ids need not differ; distinct ids keep failures readable)."""
    name = f"board_test_{next(_IDS)}" if name is None else name
    return board(*rows, zones=tuple(tuple(z) for z in zones), deploy=deploy, name=name)


def flat(n_cols: int, n_rows: int, zones, deploy: int = 2, **hexes: str) -> Map:
    """An open level-0 board with the named hexes ``c{col}r{row}`` replaced."""
    rows = [["0."] * n_cols for _ in range(n_rows)]
    for key, tok in hexes.items():
        c, r = key[1:].split("r")
        rows[int(r)][int(c)] = tok
    return drawn(*(" ".join(r) for r in rows), zones=zones, deploy=deploy)


def board_for(m: Map, terrain=None) -> B.Board:
    """The Board of a test map (board_of caches by the map's content: id, ground, zones)."""
    return B.board_of(m, terrain)


def ix(length: int):
    return lambda col, row: row * length + col


def stance(n: int, **kw) -> B.Stance:
    base = dict(
        target=0,
        goal=0,
        reach=0,
        zone=-1,
        ally=-1,
        w_zone=0,
        w_approach=0,
        w_shot=0,
        w_cover=0,
        w_flank=0,
        w_screen=0,
    )
    base.update(kw)
    return B.Stance(
        **{k: np.broadcast_to(np.asarray(v, np.int64), (n,)).copy() for k, v in base.items()}
    )


def one_row(h: list[int]) -> np.ndarray:
    return np.array([h], np.int64)


NONE = np.full((1, 1), -1, np.int64)  # no other mechs

# ---------------------------------------------------------------- board_of


def test_board_of_by_hand():
    # (0,0) level 2 has its two neighbours (1,0) and (0,1) two levels down: no walking out.
    m = drawn("2. 0. 0.  0.", "0. 0. 0f  0#1", zones=[[(1, 0)], [(2, 0)], [(2, 1)]], deploy=1)
    b = board_for(m)
    assert B.board_of(m, None) is b  # built once
    assert (b.map_id, b.zones, b.hexes, b.front) == (m.id, 3, 8, (0, 3))
    # side A col 0: (0,0) 0, (0,1) 4; side B col 3: (3,0) 3, (3,1) 7 is an obstacle
    assert b.deploy[0].tolist() == [0, 4] and b.deploy[1].tolist() == [3]
    assert b.geo.step_cost[0, 0] == -1  # E from (0,0): a two-level drop (falls=False)
    zc = b.zone_cost
    assert zc[:, 0].tolist() == [UNREACHABLE] * 3  # (0,0) cannot walk down
    # from (0,1) (odd): NE (1,0) is zone 0 at 1; (1,0) then (2,0) = 2; (1,1) then (2,1)f = 1 + 2
    assert zc[:, 4].tolist() == [1, 2, 3]
    # from (3,0): W (2,0) zone 1 at 1, SW (2,1) foliage 2, then (1,0) one more than (2,0)
    assert zc[:, 3].tolist() == [2, 1, 2]
    assert zc[1, 2] == 0
    # terrain.toml costs: foliage 1 makes (0,1) -> (1,1) -> (2,1) cost 2
    cheap = Terrain(enter=(1, 1, None), climb_per_level=1, climb_max=1, fall_drop=2, provenance={})
    assert board_for(m, cheap).zone_cost[2, 4] == 2


def _tiny(level: int) -> Map:
    rows = ["0. 0. 0.", f"0. {level}. 0."]
    return drawn(*rows, zones=[[(0, 0)], [(1, 0)], [(2, 0)]], deploy=1, name="tiny")


def test_board_of_keys_by_content():
    """Two maps of one id and size but other ground get their own Boards."""
    old, new = _tiny(0), _tiny(1)  # (1,1) at level 0, then at level 1
    assert old.id == new.id
    assert B.board_of(old, None).geo.elevation.tolist() == [0, 0, 0, 0, 0, 0]
    assert B.board_of(new, None).geo.elevation.tolist() == [0, 0, 0, 0, 1, 0]
    assert B.board_of(_tiny(0), None) is B.board_of(old, None)  # the same content: cached


def test_board_geo_zones_follow_the_map():
    first = drawn(*ROW, zones=ROW_ZONES, name="same")
    second = drawn(*ROW, zones=ROW_ZONES[::-1], name="same")  # zones (4,0), (7,0), (0,0)
    board_for(first)
    b = board_for(second)
    assert b.zone_cost[:, 4].tolist()[0] == 0  # zone 0 is (4,0) here
    assert b.geo.zone[[0, 7, 4]].tolist() == [2, 1, 0]


# ---------------------------------------------------------------- zone priority, deployment

# 13 x 5 open, deploy 2 (side A cols 0-1, front col 1; side B cols 11-12, front col 11).
# Zone 0 = flower(4,1): (4,1) (5,1) (5,0) (4,0) (3,1) (4,2) (5,2)   [x,z]: [4,1] [5,1] [5,0]
#   [4,0] [3,1] [3,2] [4,2]
# Zone 1 = flower(6,3): (6,3) (7,3) (7,2) (6,2) (5,3) (6,4) (7,4)   [5,3] [6,3] [6,2] [5,2]
#   [4,3] [4,4] [5,4]
# Zone 2 = flower(8,1): (8,1) (9,1) (9,0) (8,0) (7,1) (8,2) (9,2)   [8,1] [9,1] [9,0] [8,0]
#   [7,1] [7,2] [8,2]
FIELD = (flower(4, 1), flower(6, 3), flower(8, 1))
F = ix(13)


def test_zone_priority_middle_then_own_end():
    b = board_for(flat(13, 5, FIELD))
    # middle (1) first; side A from the west end: zone 0 (cols 3-5) then zone 2 (cols 7-9);
    # side B from the east end: zone 2 then zone 0
    assert B.zone_priority(b, 0) == [1, 0, 2]
    assert B.zone_priority(b, 1) == [1, 2, 0]
    # the same zones listed east to west: the order follows the columns, not the list
    rev = board_for(flat(13, 5, FIELD[::-1]))
    assert B.zone_priority(rev, 0) == [1, 2, 0]
    assert B.zone_priority(rev, 1) == [1, 0, 2]


def test_zone_priority_uses_zone_centres():
    # zone 0 centre (5,2) (even row: its top-left ring hex is (4,1)); zone 2 centre (4,5)
    # (odd row: top-left ring hex (4,4)); the middle zone at (9,3). Zone 2's centre is one
    # column nearer side A's (west) end, so A takes the middle, then zone 2, then zone 0.
    b = board_for(flat(13, 7, (flower(5, 2), flower(9, 3), flower(4, 5))))
    assert B.zone_priority(b, 1) == [1, 0, 2]  # B from the east: zone 0 (col 5) first
    assert B.zone_priority(b, 0) == [1, 2, 0]


def test_deployment_by_hand():
    b = board_for(flat(13, 5, FIELD))
    side = np.array([0, 0, 0, 1, 1, 1])
    weight = np.array([1, 1, 0, 1, 0, 1])  # zone players: 0, 1, 3, 5
    # Order: B first, then alternating: 3, 0, 4, 1, 5, 2.
    # Ties go to the lowest index for side A and the highest for side B (a half turn).
    # m3 (B, zone): zone 1. From B's front (11,2) [10,2], (11,3) [10,3], (11,4) [9,4] the
    #   zone is 4 away ((7,2), (7,3), (7,4)); (11,0), (11,1) and col 12 are 5: the highest
    #   index (11,4) = 63.
    # m0 (A, zone): zone 1. (1,3) [0,3] -> (5,3) [4,3] = 4; (1,2), (1,4), (0,3) are 5: (1,3) 40.
    # m4 (B, no zone): the middle zone: (11,2) 37 and (11,3) 50 left at 4 -> 50.
    # m1 (A, zone): zone 1 is claimed, next zone 0: (1,1) [1,1] -> (3,1) [3,1] = 2, every
    #   other free A hex 3 or more -> 14.
    # m5 (B, zone): B's order 1, 2, 0 -> zone 2, flower(8,1) holding (9,0), (9,1), (9,2):
    #   (11,0), (11,1) and (11,2) are 2 away ((11,3) is 3), the highest index (11,2) = 37.
    # m2 (A, no zone): the middle zone: (1,2) 27, (0,3) 39, (1,4) 53 all 5 -> front column
    #   and lowest index: 27.
    start = B.deployment(b, side, weight)
    assert start.dtype == np.int16
    assert start.tolist() == [F(1, 3), F(1, 1), F(1, 2), F(11, 4), F(11, 3), F(11, 2)]
    assert start.tolist() == [40, 14, 27, 63, 50, 37]


def test_deployment_zone_players_beyond_three_take_the_middle():
    b = board_for(flat(13, 5, FIELD))
    # Side A alone, four zone players: zones 1 (-> (1,3)), 0 (-> (1,1)), then 2: from
    # (1,0) [1,0] -> (7,1) [7,1] 7, (1,2) [0,2] -> (8,2) [7,2] 7, (0,1) [0,1] -> (7,1) 7
    # (back column), (1,1) taken: front column, lowest index (1,0) = 1. The fourth finds
    # every zone claimed and stands nearest the middle: (1,2) at 5 (as above) = 27.
    start = B.deployment(b, np.zeros(4, int), np.ones(4, int))
    assert start.tolist() == [40, 14, 1, 27]


def test_deployment_side_b_first_then_alternating():
    # 7 x 2, deploy 4: side A cols 0-3, side B cols 3-6, so both may take col 3 (the front
    # of both). The middle zone is (3,0). No zone players: everyone makes for (3,0).
    m = flat(7, 2, [[(0, 1)], [(3, 0)], [(6, 1)]], deploy=4)
    b = board_for(m)
    # order m0 (B), m2 (A), m1 (B), m3 (A):
    # m0: (3,0) itself, cost 0 -> 3.
    # m2: (3,1) [3,1] (NW is (3,0)) 1, front col 3; (2,0) 1 and (2,1) 1 are not front -> 10.
    # m1: (4,0) 1 (col 4, B's front is col 3 but (3,*) are taken); (4,1) [4,1] 2 -> 4.
    # m3: (2,0) 2 and (2,1) 9 both 1, neither front -> 2.
    # (Were B to place both first, m1 would take (3,1).)
    start = B.deployment(b, np.array([1, 1, 0, 0]), np.zeros(4, int))
    assert start.tolist() == [3, 4, 10, 2]


def test_deployment_ties_go_to_the_front_column():
    # 7 x 3, deploy 2 (side B cols 5-6, front col 5). Obstacles at (4,1), (4,2): side B
    # reaches the middle zone (3,1) only through (4,0) (whose SW is (3,1)).
    m = flat(7, 3, [[(0, 0)], [(3, 1)], [(0, 2)]], c4r1="0#1", c4r2="0#1")
    b = board_for(m)
    # m0: (5,0) -> (4,0) -> (3,1) = 2, the only 2 -> 5.
    # m1: (6,0) -> (5,0) -> (4,0) -> (3,1) = 3 (index 6, back column) and (5,1) -> (5,0) ->
    #   (4,0) -> (3,1) = 3 (index 12, front column): the front column wins -> 12.
    start = B.deployment(b, np.array([1, 1]), np.zeros(2, int))
    assert start.tolist() == [5, 12]


@pytest.mark.parametrize(
    "weights",
    [(1, 1, 1, 1, 1, 1), (0, 0, 0, 0, 0, 0), (1, 0, 1, 0, 0, 1), (1, 1, 1, 1, 1, 1, 1, 1)],
)
def test_deployment_on_the_broken_map(skirmish, weights):
    m = skirmish.maps["broken"]
    b = board_for(m, skirmish.terrain)
    n = len(weights)
    side = np.arange(n) % 2
    start = B.deployment(b, side, np.array(weights)).astype(int)
    cols, rows = start % m.length, start // m.length
    assert len(set(start.tolist())) == n  # a hex holds one mech
    assert (cols[side == 0] < m.deploy).all()  # 003 H: three columns at each short end
    assert (cols[side == 1] >= m.length - m.deploy).all()
    assert (m.terrain[rows, cols] != 2).all()  # no obstacle


# ---------------------------------------------------------------- claim_zones


def test_claim_zones_by_hand():
    b = board_for(flat(13, 5, FIELD))
    side = np.array([0, 0, 1, 1])
    pos = np.array(
        [
            # one player a side: the middle, though each stands on another zone's centre
            [F(4, 1), F(0, 0), F(8, 1), F(12, 4)],
            # two a side: zone 1 to the nearer ((1,3) 4 against (1,1) 5; (11,3) 4 against
            # (11,0) [11,0] -> (7,2) [6,2] 5), the other takes its own end's zone
            [F(1, 1), F(1, 3), F(11, 0), F(11, 3)],
            # players already in zones and nearest to them keep them: (6,3) in zone 1 (0 against
            # (4,1)'s 2); (7,3) in zone 1 (0 against (8,1) [8,1] -> (7,2) [6,2] 2)
            [F(4, 1), F(6, 3), F(8, 1), F(7, 3)],
            # (5,2) stands in zone 0 but is 1 from zone 1 ((6,2)), nearer than (1,1)'s 5: it
            # makes for the middle and (1,1) takes zone 0. Side B does not play here.
            [F(5, 2), F(1, 1), F(7, 3), F(8, 1)],
            # ties to the lower index: (1,4) and (1,2) are both 5 from zone 1; (11,4) and (11,2)
            # both 4
            [F(1, 4), F(1, 2), F(11, 4), F(11, 2)],
        ]
    )
    plays = np.ones(pos.shape, bool)
    plays[0, [1, 3]] = False
    plays[3, [2, 3]] = False
    got = B.claim_zones(b, pos, plays, side)
    assert got.tolist() == [
        [1, -1, 1, -1],
        [0, 1, 2, 1],
        [0, 1, 2, 1],
        [1, 0, -1, -1],
        [1, 0, 1, 2],
    ]


def test_claim_zones_leftover_players_take_their_nearest_zone():
    b = board_for(flat(13, 5, FIELD))
    # five players of side A: zone 1 -> (6,3) (0); zone 0 -> (4,1) (0); zone 2 -> (8,1) (0).
    # Left over: (10,4) [8,4]: zone 2 via (9,2) [8,2] 2, zone 1 via (7,3)/(7,4) 3 -> 2;
    # (0,0) [0,0]: zone 0 via (4,0) / (3,1) 4, the others farther -> 0.
    pos = np.array([[F(6, 3), F(4, 1), F(8, 1), F(10, 4), F(0, 0)]] * 2)
    plays = np.array([[True] * 5, [False] * 5])  # second battle: all dead
    got = B.claim_zones(b, pos, plays, np.zeros(5, int))
    assert got.tolist() == [[1, 0, 2, 2, 0], [-1] * 5]


# ---------------------------------------------------------------- stand_score

# 7 x 5 maps; zone 1 = flower(3,2): (3,2) (4,2) (3,1) (2,1) (2,2) (2,3) (3,3)
SEVEN = ([(0, 0)], flower(3, 2), [(6, 4)])
S = ix(7)


def test_stand_score_zone():
    b = board_for(flat(7, 5, SEVEN))
    h = np.array([[S(3, 2), S(4, 2), S(5, 2), S(6, 2), S(6, 0)]] * 3)
    st = stance(3, zone=[1, -1, 0], w_zone=[2, 2, 1])
    # zone 1: inside 0, 0; (5,2) 1 from (4,2); (6,2) 2; (6,0) [6,0] -> (3,1) [3,1] 3 -> x -2
    # no zone: nothing
    # zone 0 = (0,0) [0,0]: (3,2) [2,2] 4, (4,2) [3,2] 5, (5,2) 6, (6,2) 7, (6,0) 6
    assert B.stand_score(b, st, h).tolist() == [[0, 0, -2, -4, -6], [0] * 5, [-4, -5, -6, -7, -6]]


def test_stand_score_approach_beyond_goal():
    h = np.array([[S(2, 2), S(4, 2), S(5, 2), S(1, 0)]])
    st = stance(1, target=S(6, 2), goal=2, w_approach=3)
    # to (6,2): (2,2) 4 -> 2 beyond; (4,2) 2 -> 0; (5,2) 1, nearer than wanted -> 0;
    # (1,0) [1,0] -> [5,2] 6 -> 4 beyond
    assert B.stand_score(board_for(flat(7, 5, SEVEN)), st, h).tolist() == [[-6, 0, 0, -12]]
    # foliage on (5,2): (4,2) -> (6,2) costs 3 every way (through (5,2)f 2 + 1, or round by
    # (4,1), (5,1) or (4,3), (5,3)): 1 beyond
    b = board_for(flat(7, 5, SEVEN, c5r2="0f"))
    assert B.stand_score(b, st, one_row([S(4, 2)])).tolist() == [[-3]]


def test_stand_score_shot_needs_sight_and_reach():
    # a 2-high obstacle at (3,2) blocks the row-2 line to the target (5,2)
    b = board_for(flat(7, 5, SEVEN, c3r2="0#2"))
    h = np.array([[S(4, 2), S(2, 2), S(1, 0)]] * 2)
    st = stance(2, target=S(5, 2), reach=[3, 5], w_shot=3)
    # (4,2) adjacent: seen, 1 away. (2,2): 3 away, the line runs through (3,2): no sight.
    # (1,0): the line (2,0) (2,1) (3,1) (4,2) is clear, 5 away: out of reach 3, in reach 5
    assert B.stand_score(b, st, h).tolist() == [[3, 0, 0], [3, 0, 3]]


def test_stand_score_cover_hard_two_soft_one_within_reach():
    # the target (5,2) shoots at the candidates: (1,2) is foliage beside an obstacle one
    # level up at (2,2) (3 from (5,2), nearer than (1,2)'s 4): hard cover, and only the
    # best cover counts (2, not 3); (4,1) is foliage (soft, 1 away); (6,3) open (2 away)
    b = board_for(flat(7, 5, SEVEN, c2r2="0#1", c1r2="0f", c4r1="0f"))
    h = np.array([[S(1, 2), S(4, 1), S(6, 3)]] * 2)
    st = stance(2, target=S(5, 2), reach=[4, 3], w_cover=2)
    # reach 4: 2 x [2, 1, 0]; reach 3: (1,2) at 4 is beyond the mech's own reach -> 0
    assert B.stand_score(b, st, h).tolist() == [[4, 2, 0], [0, 2, 0]]


def test_stand_score_flank():
    # an obstacle one level up at (4,2), west of the target (5,2)
    b = board_for(flat(7, 5, SEVEN, c4r2="0#1"))
    h = np.array([[S(2, 2), S(6, 2), S(5, 4)]] * 2)
    st = stance(2, target=S(5, 2), reach=[3, 1], w_flank=1)
    # (2,2): 3 away, sees over (4,2) (top 1 = sight 1) but the target has hard cover -> 0.
    # (6,2): adjacent, (4,2) is farther from it than the target: no cover -> 1.
    # (5,4) [3,4]: 2 away; (4,2) [3,2] is 2 from it too, not between: no cover -> 1 in
    # reach 3, no shot in reach 1 -> 0
    assert B.stand_score(b, st, h).tolist() == [[0, 1, 1], [0, 1, 0]]


def test_stand_score_screen():
    b = board_for(flat(7, 5, SEVEN))
    h = np.array([[S(4, 2), S(2, 2), S(5, 2), S(3, 1), S(3, 2)]] * 2)
    st = stance(2, target=S(6, 2), ally=[S(3, 2), -1], w_screen=5)
    # ally (3,2) is 3 from the target. (4,2): beside it, 2 from the target -> screens.
    # (2,2): beside, 4. (5,2): 2 from the ally. (3,1) [3,1]: beside, [5,2] 3 - not nearer.
    # (3,2) the ally's own hex: not nearer. No ally: nothing.
    assert B.stand_score(b, st, h).tolist() == [[5, 0, 0, 0, 0], [0] * 5]


# ---------------------------------------------------------------- walk

# One row (only E and W neighbours); the zone is (7,0). Entering: col 1 open 1, col 2 foliage
# 2, col 3 open 1, col 4 one level up 1 + 1, col 5 level 1 to 1: 1, col 6 one level down 1,
# col 7 1. Zone cost by column: 9 8 6 5 3 2 1 0.
ROW = ("0. 0. 0f 0. 1. 1. 0. 0.",)
ROW_ZONES = ([(0, 0)], [(7, 0)], [(4, 0)])


def _walk(b, pos, budget, others=None, **kw):
    n = len(pos)
    others = np.full((n, 1), -1, np.int64) if others is None else np.asarray(others, np.int64)
    st = stance(n, zone=1, w_zone=1, **kw)
    end, steps, more, _ = B.walk(b, np.array(pos), np.array(budget), others, st)
    return end.tolist(), steps.tolist(), more.tolist()


def test_walk_terrain_costs_and_stops():
    b = board_for(drawn(*ROW, zones=ROW_ZONES))
    assert b.zone_cost[1].tolist() == [9, 8, 6, 5, 3, 2, 1, 0]
    end, steps, more = _walk(b, [0, 2, 3, 0, 0, 5, 7], [2, 2, 1, 20, 9, 3, 5])
    # 0, budget 2: (1) for 1; (2) foliage 2 > 1 left: wants more
    # 2, budget 2: (3) for 1; (4) climbs, 2 > 1 left: wants more
    # 3, budget 1: (4) costs 2: stays, wants more
    # 0, budget 20: all the way, 9 spent, 7 hexes; in the zone nothing is better
    # 0, budget 9: exactly enough
    # 5, budget 3: (6) 1, (7) 1, stops in the zone with 1 left
    # 7: already in the zone
    assert end == [1, 3, 3, 7, 7, 7, 7]
    assert steps == [1, 1, 0, 7, 7, 2, 0]
    assert more == [True, True, True, False, False, False, False]


def test_walk_wants_more_when_the_budget_runs_out_exactly():
    b = board_for(drawn(*ROW, zones=ROW_ZONES))
    # 0, budget 4: (1) 1, (2) 2, (3) 1 -> 0 left at (3), zone cost 5; (4) is better (3) and
    # costs 2 > 0 left: "a better neighbour was out of the budget left"
    end, steps, more = _walk(b, [0], [4])
    assert (end, steps) == ([3], [3])
    assert more == [True]


def test_walk_never_enters_another_mechs_hex():
    b = board_for(drawn(*ROW, zones=ROW_ZONES))
    # a mech on (3): the walker from 0 stops at (2); its only better neighbour is taken,
    # which is not "out of the budget"
    assert _walk(b, [0], [20], others=[[3, -1]]) == ([2], [2], [False])


def test_walk_takes_the_next_best_free_hex_ties_east_first():
    # 9 x 5 open, zone 1 = flower(6,2): (6,2) (7,2) (6,1) (5,1) (5,2) (5,3) (6,3).
    b = board_for(flat(9, 5, ([(0, 4)], flower(6, 2), [(8, 0)])))
    N = ix(9)
    # from (4,1) (zone cost 1): E (5,1) and SE (5,2) are both in the zone; E first. With
    # (5,1) taken, SE.
    end, steps, _ = _walk(b, [N(4, 1), N(4, 1)], [1, 1], others=[[-1], [N(5, 1)]])
    assert end == [N(5, 1), N(5, 2)] and steps == [1, 1]


def test_walk_never_drops_two_levels():
    # zone (3,0); the walker on (0,0) level 2
    zones = ([(0, 0)], [(3, 0)], [(1, 0)])
    cliff = board_for(drawn("2. 0. 0. 0.", zones=zones))
    # (1,0) is two levels down: no step (and no path: zone cost UNREACHABLE)
    assert _walk(cliff, [0], [10]) == ([0], [0], [False])
    steps = board_for(drawn("2. 1. 0. 0.", zones=zones))
    # one level at a time: 1 + 1 + 1
    assert _walk(steps, [0], [10]) == ([3], [3], [False])


# Brute force: a lone mech makes for each zone on a map of every terrain, zone cost by a
# Dijkstra written here, the greedy walk restated.
BRUTE = (
    "0. 0.  0f  0f  1. 2.  2. 0.",
    "0. 0#1 0f  1.  1f 2.  0. 0.",
    "0. 0.  0.  0#2 1. 3.  1. 0.",
    "0. 0f  0.  0.  0. 2.  0f 0.",
    "0. 0.  0.  1.  0. 0.  0. 0.",
)
BRUTE_ZONES = (flower(1, 2), flower(4, 3), flower(6, 1))
OFFSETS = (
    ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)),
    ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)),
)


def _around(m: Map, h: int) -> list[int | None]:
    c, r = h % m.length, h // m.length
    out = []
    for dc, dr in OFFSETS[r & 1]:
        cc, rr = c + dc, r + dr
        out.append(rr * m.length + cc if 0 <= cc < m.length and 0 <= rr < m.depth else None)
    return out


def _enter(m: Map, a: int, b: int) -> int | None:
    """The walking rule: obstacle never, two or more up never, two or more down never."""
    ea, eb = int(m.elevation.flat[a]), int(m.elevation.flat[b])
    if m.terrain.flat[b] == 2 or abs(eb - ea) >= 2:
        return None
    return (1 if m.terrain.flat[b] == 0 else 2) + (1 if eb > ea else 0)


def _zone_costs(m: Map) -> np.ndarray:
    n = m.length * m.depth
    out = np.full((3, n), UNREACHABLE)
    for src in range(n):
        best = {src: 0}
        queue = [(0, src)]
        while queue:
            d, a = heapq.heappop(queue)
            if d > best[a]:
                continue
            for b in _around(m, a):
                if b is not None and (c := _enter(m, a, b)) is not None:
                    if d + c < best.get(b, UNREACHABLE):
                        best[b] = d + c
                        heapq.heappush(queue, (d + c, b))
        for z, cells in enumerate(m.zones):
            out[z, src] = min(best.get(m.hex_index(*cell), UNREACHABLE) for cell in cells)
    return out


def _greedy(m: Map, zc: np.ndarray, p: int, left: int) -> tuple[int, int, bool, int]:
    """Step to the best-scoring (least zone cost) affordable better neighbour, first in
    direction order, until none: (end, steps, wants more, budget left)."""
    steps = 0
    while True:  # with 0 left a better neighbour still means it wants more
        pick, better = None, False
        for b in _around(m, p):
            c = None if b is None else _enter(m, p, b)
            if c is None or zc[b] >= zc[p]:
                continue
            better = True
            if c <= left and (pick is None or zc[b] < zc[pick[0]]):
                pick = (b, c)
        if pick is None:
            return p, steps, better, left
        p, left, steps = pick[0], left - pick[1], steps + 1


def test_walk_matches_brute_force_greedy_on_zone_cost():
    m = drawn(*BRUTE, zones=BRUTE_ZONES)
    b = board_for(m)
    zc = _zone_costs(m)
    assert (b.zone_cost == zc).all()
    starts = [h for h in range(m.length * m.depth) if m.terrain.flat[h] != 2]
    cases = [(h, z, budget) for h in starts for z in range(3) for budget in (1, 2, 3, 5, 100)]
    pos, zone, budget = (np.array(v) for v in zip(*cases, strict=True))
    st = stance(len(cases), zone=zone, w_zone=1)
    end, steps, more, _ = B.walk(b, pos, budget, np.full((len(cases), 1), -1), st)
    for k, (h, z, left) in enumerate(cases):
        want_end, want_steps, want_more, rest = _greedy(m, zc[z], h, left)
        assert (end[k], steps[k]) == (want_end, want_steps), (h, z, left)
        assert more[k] == want_more, (h, z, left)
        assert zc[z, end[k]] <= zc[z, h]
        if left == 100 and zc[z, h] < UNREACHABLE:
            assert zc[z, end[k]] == 0  # every hex that can reach the zone walks into it


# ---------------------------------------------------------------- path_walk, charge_hex


def test_path_walk_one_row():
    # entering (1) 1, (2) foliage 2, (3) one level up 2, (4) 1, (5) one down 1, (6) 1:
    # spent after each hex 1, 3, 5, 6, 7, 8
    b = board_for(drawn("0. 0. 0f 1. 1. 0. 0.", zones=([(0, 0)], [(6, 0)], [(4, 0)])))
    pos = np.array([0, 0, 0, 0, 0, 6, 0])
    dest = np.array([6, 6, 6, 6, 0, 0, 6])
    budget = np.array([4, 5, 10, 10, 5, 3, 0])
    others = np.array([[-1], [-1], [-1], [4], [-1], [-1], [-1]])
    end, steps = B.path_walk(b, pos, dest, budget, others)
    # budget 4: (1), (2) with 1 left, (3) costs 2; 5: reaches (3); 10: all the way;
    # a mech on (4): stops at (3); already there; 6 -> 0 with 3: (5) 1, (4) climbs 2;
    # budget 0: no step
    assert end.tolist() == [2, 3, 6, 3, 0, 4, 0]
    assert steps.tolist() == [2, 3, 6, 3, 0, 2, 0]


def test_path_walk_cheapest_path():
    # 5 x 3: row 1 foliage at cols 1-3. (0,1) -> (3,1)f: straight through the foliage
    # 2 + 2 + 2 = 6; round by row 0: (1,0) 1, (2,0) 1, (3,0) 1, (3,1) 2 = 5; by row 2:
    # (1,2), (2,2), (3,2), (3,1) = 5 too; equal first steps go to the lower index (1,0).
    b = board_for(flat(5, 3, ([(0, 0)], [(4, 1)], [(0, 2)]), c1r1="0f", c2r1="0f", c3r1="0f"))
    P = ix(5)
    n = 3
    pos, dest = np.full(n, P(0, 1)), np.full(n, P(3, 1))
    others = np.array([[-1], [-1], [P(2, 0)]])
    end, steps = B.path_walk(b, pos, dest, np.array([4, 5, 5]), others)
    # budget 4: (3,0) with 1 left, the foliage costs 2; 5: arrives; a mech on (2,0): waits
    # at (1,0) (no new path round it)
    assert end.tolist() == [P(3, 0), P(3, 1), P(1, 0)]
    assert steps.tolist() == [3, 4, 1]


def test_charge_hex_by_hand():
    plain = board_for(flat(7, 5, SEVEN))
    # target (3,2); its sides E (4,2) NE (3,1) NW (2,1) W (2,2) SW (2,3) SE (3,3)
    t = S(3, 2)
    sides = [S(4, 2), S(3, 1), S(2, 1), S(2, 2), S(2, 3), S(3, 3)]
    pos = np.array([S(0, 2), S(0, 2), S(4, 0), S(2, 2), S(0, 2)])
    others = np.array(
        [
            [-1, -1, -1, -1, -1, -1],
            [S(2, 2), -1, -1, -1, -1, -1],
            [S(3, 1), -1, -1, -1, -1, -1],
            [S(2, 2), -1, -1, -1, -1, -1],  # the charger's own hex is no block to itself
            sides,
        ]
    )
    hexes, cost = B.charge_hex(plain, pos, np.full(5, t), others)
    # (0,2) [-1,2]: W (2,2) [1,2] 2; NW (2,1) [2,1] 3; SW (2,3) [1,3] 3; the rest 4 -> (2,2)
    # with (2,2) taken: NW and SW tie at 3: the lower direction, NW (2,1)
    # (4,0) [4,0]: NE (3,1) 1; with it taken E (4,2) [3,2] (dir 0, index 18) and NW (2,1)
    #   [2,1] (dir 2, index 9) tie at 2: the lower direction, E
    # (2,2) is already beside the target: 0
    # every side taken: none
    assert hexes.tolist() == [S(2, 2), S(2, 1), S(4, 2), S(2, 2), -1]
    assert cost.tolist() == [2, 3, 2, 0, UNREACHABLE]
    # foliage on (2,1): reaching it costs 4 ((0,1), (1,1), (2,1)f or (1,2), (2,2), (2,1)f),
    # so with (2,2) taken SW (2,3) at 3 is cheapest
    wood = board_for(flat(7, 5, SEVEN, c2r1="0f"))
    hexes, cost = B.charge_hex(wood, pos[1:2], np.array([t]), others[1:2])
    assert (hexes.tolist(), cost.tolist()) == ([S(2, 3)], [3])
    # obstacles on three sides, mechs on the other three: blocked
    walled = board_for(flat(7, 5, SEVEN, c4r2="0#1", c3r1="0#1", c2r1="0#1"))
    others = np.array([[S(2, 2), S(2, 3), S(3, 3)]])
    hexes, cost = B.charge_hex(walled, np.array([S(0, 2)]), np.array([t]), others)
    assert hexes.tolist() == [-1]


# ---------------------------------------------------------------- cover, smoke, Guard


def test_cover_by_hand():
    b = board_for(flat(7, 5, SEVEN, c2r2="0#1", c1r2="0f", c4r1="0f", c3r3="0f"))
    a = np.full(5, S(5, 2))
    t = np.array([S(1, 2), S(4, 1), S(6, 3), S(2, 3), S(4, 2)])
    # (1,2): foliage, and the obstacle (2,2) one level up beside it, nearer (5,2): hard, 2
    # (4,1): stands in foliage: soft 1; (6,3) open: 0
    # (2,3) [1,3]: 3 from (5,2) [4,-6,2]; at 1/3 and 2/3 of the way to [1,-4,3] the cube
    #   points (3,-5.33,2.33) and (2,-4.67,2.67) round (either nudge) to (4,2) and (3,3):
    #   foliage on the line, soft 1. Its neighbour (2,2), the obstacle, is 3 from (5,2),
    #   no nearer than (2,3): not between, no hard cover.
    # (4,2): adjacent, open: 0
    assert B.cover(b, a, t).tolist() == [2, 1, 0, 1, 0]


def test_cover_soft_through_foliage_on_the_line():
    # (1,2) -> (5,2) runs along row 2: (2,2) (3,2) (4,2); foliage on (3,2) covers (5,2),
    # foliage on the attacker's own hex does not
    b = board_for(flat(7, 5, SEVEN, c3r2="0f", c6r2="0f"))
    assert B.cover(b, np.array([S(1, 2), S(6, 2)]), np.array([S(5, 2), S(5, 2)])).tolist() == [1, 0]


def test_smoke_on_line():
    b = board_for(flat(7, 5, SEVEN))
    a, t = S(1, 2), S(5, 2)  # the line (2,2) (3,2) (4,2) between
    s = [S(3, 2), S(5, 2), S(1, 2), S(3, 1), S(6, 2), S(2, 2)]
    n = len(s)
    got = B.smoke_on_line(b, np.full(n, a), np.full(n, t), np.array(s))
    # intervening: yes; the target's hex: yes; the attacker's: no; off the line: no;
    # beyond the target: no; first intervening hex: yes
    assert got.tolist() == [True, True, False, False, False, True]
    # adjacent: nothing between; only the target's own hex counts
    got = B.smoke_on_line(b, np.array([a, a]), np.array([S(2, 2)] * 2), np.array([S(2, 2), a]))
    assert got.tolist() == [True, False]
    # the other way along the same line
    assert B.smoke_on_line(b, np.array([t]), np.array([a]), np.array([S(4, 2)])).tolist() == [True]


def test_guard_covers_from_the_guards_side():
    b = board_for(flat(7, 5, SEVEN))
    t, guard = S(3, 2), S(2, 2)  # the guard west of the target
    a = np.array([S(0, 2), S(6, 2), S(3, 0)])
    # (0,2): 2 to the guard, 3 to the target -> covered. (6,2): 4 against 3 -> no.
    # (3,0) [3,0]: guard (2,2) [1,2] 2, target (3,2) [2,2] 2: not nearer -> no
    got = B.guard_covers(b, a, np.full(3, t), np.full(3, guard))
    assert got.tolist() == [True, False, False]


# ---------------------------------------------------------------- push (F11.3, H3)


def test_push_on_open_ground():
    b = board_for(flat(7, 5, SEVEN))
    a = np.array([S(2, 2), S(2, 2), S(5, 2), S(1, 2), S(3, 2)])
    t = np.array([S(3, 2), S(3, 2), S(6, 2), S(3, 2), S(3, 1)])
    others = np.array([[-1], [S(4, 2)], [-1], [-1], [-1]])
    to, drop = B.push(b, a, t, others)
    # east one more: (4,2); a mech there: blocked; off the board's east edge: blocked;
    # not adjacent: no push; (3,2) -> NE (3,1) -> its NE (odd row) (4,0)
    assert to.tolist() == [S(4, 2), -1, -1, -1, S(4, 0)]
    assert drop.tolist() == [0] * 5


@pytest.mark.parametrize(
    "hexes, to, drop",
    [
        ({"c4r2": "0#1"}, -1, 0),  # an obstacle
        ({"c4r2": "2."}, -1, 0),  # two levels up
        ({"c4r2": "1."}, 18, 0),  # one level up: allowed
        ({"c4r2": "0f"}, 18, 0),  # foliage: allowed
        ({"c3r2": "1."}, 18, 0),  # one level down: no fall
        ({"c3r2": "2."}, 18, 2),  # two down: a fall of 2 (H3)
        ({"c3r2": "3."}, 18, 3),  # three down
        ({"c3r2": "3.", "c4r2": "2."}, 18, 0),  # three to two: one down
    ],
)
def test_push_blocks_and_falls(hexes, to, drop):
    # (2,2) charges (3,2), pushing it east into (4,2) = 18
    b = board_for(flat(7, 5, SEVEN, **hexes))
    got_to, got_drop = B.push(b, np.array([S(2, 2)]), np.array([S(3, 2)]), NONE)
    assert (got_to.tolist(), got_drop.tolist()) == ([to], [drop])


# ---------------------------------------------------------------- control (003 H Zones)


def test_control_by_hand():
    b = board_for(flat(7, 5, SEVEN))
    side = np.array([0, 0, 1, 1])
    pos = np.array(
        [
            [S(0, 0), S(3, 2), S(2, 3), S(6, 4)],  # A in 0; both in 1; B in 2
            [S(0, 0), S(3, 2), S(2, 3), S(6, 4)],  # the same, B's mech in zone 1 dead
            [S(0, 0), S(3, 2), S(2, 3), S(6, 4)],  # A's in 0 and B's in 2 dead
            [S(6, 0), S(5, 0), S(0, 4), S(1, 4)],  # nobody in a zone
            [S(2, 1), S(3, 3), S(4, 2), S(6, 4)],  # A twice in 1, B's mechs dead
        ]
    )
    alive = np.ones(pos.shape, bool)
    alive[1, 2] = False
    alive[2, [0, 3]] = False
    alive[4, [2, 3]] = False
    got = B.control(b, pos, alive, side)
    assert got.shape == (5, 2, 3)
    assert got.tolist() == [
        [[True, False, False], [False, False, True]],
        [[True, True, False], [False, False, True]],
        [[False, False, False], [False, False, False]],
        [[False, False, False], [False, False, False]],
        [[False, True, False], [False, False, False]],
    ]


CLIFF = ("0. 0. 2. 2. 0.",)  # a two-level step up at col 2
CLIFF_ZONES = ([(0, 0)], [(3, 0)], [(4, 0)])


def test_a_jumper_climbs_what_a_mech_on_foot_cannot():
    """003 G: on foot a step climbs at most 1 level (terrain.toml), so the cliff at col 2
    is impassable; a jumper steps up 2 levels (jump_climb 3) and pays the Jump's Heat.
    Making for zone 1 at (3,0) from (1,0): on foot (3,0) cannot be reached at all (the
    only way in is up the cliff), so zone cost from (1,0) is unreachable and the mech
    stays; the jumper climbs to (2,0) (open 1 + climb 2 x 1 = 3) and then (3,0) (1):
    4 movement, 2 hexes, jumped on the first step."""
    b = board_for(drawn(*CLIFF, zones=CLIFF_ZONES, deploy=1))
    st = stance(2, zone=1, w_zone=1)
    pos, budget, others = np.array([1, 1]), np.array([9, 9]), np.full((2, 1), -1)
    end, steps, more, jumped = B.walk(b, pos, budget, others, st, jumper=np.array([False, True]))
    assert end.tolist() == [1, 3]
    assert steps.tolist() == [0, 2]
    assert jumped.tolist() == [False, True]
    assert int(b.jump_step_cost[1, 0]) == 3  # east from (1,0): enter 1 + 2 levels x 1
    assert int(b.geo.step_cost[1, 0]) == -1  # on foot: not allowed
