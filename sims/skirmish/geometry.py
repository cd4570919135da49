"""Mecha Skirmish board geometry (003 H), precomputed once per map as NumPy tables so the
engines read distances, paths, line of sight and cover by lookup.

Hexes are odd-r offset (col, row) pairs, flat index ``h = row * length + col`` (see
``maps.py``). :func:`build` turns a :class:`~sims.skirmish.maps.Map` into a frozen
:class:`Geometry`; every ``[H, H]`` table is indexed ``[from, to]``, for line of sight and
cover ``[attacker, target]``.

Readings where the rulebook is open (the lead copies these into ASSUMPTIONS.md):

- Movement (003 H, its cost table missing): entering a hex costs its terrain's cost (a
  ``maps.Terrain`` from terrain.toml, or ``terrain_costs``: open 1, foliage 2, obstacle
  impassable by default); climbing costs ``climb_cost`` (+1) more per level; climbing more
  than ``max_climb`` (1) levels in one step is impassable (no Jump; a jumper's table is a
  build with a higher ``max_climb``); dropping any number of levels costs nothing extra, and
  a drop of ``fall_drop`` (2) or more levels is a fall (H3, table ``fall_levels``;
  ``falls=False`` builds paths that never fall). Leaving a hex is free; mechs are not
  obstacles (the engine handles occupied hexes). Cheapest paths are Dijkstra over these
  entering costs; ``next_step`` breaks ties between equally cheap first steps by the lowest
  hex index. Rows from an obstacle hex are filled as if a mech stood there.
- Hex line (003 H4 "draw the hex line"): cube linear interpolation rounded to hexes, drawn
  twice, with the usual epsilon nudge added (+1e-6, +2e-6, -3e-6) and subtracted. The two
  lines differ only where the true line runs along a hex edge. The attacker draws the line
  (H4), so: LOS exists if either line is clear and stays on the board; of the clear lines
  the tables use the one that gives the target the least cover (hard counts 2, soft 1; on a
  tie the + nudge). ``line_hexes`` returns that same line. Near a board edge one nudged
  line can leave the board (e.g. (0,0) to (0,2)); the other then stays on it.
- Sight height (H4): linear from the attacker's eye (level + 1) to the target's eye
  (level + 1) over the hex steps: at the i-th hex of an N-hex line it is
  ``eye_a + (eye_t - eye_a) * i / N``, compared exactly in integers. An intervening hex
  (neither end) blocks when its top (ground + obstacle height; foliage never blocks
  sight) is higher than that; exactly at the sight height does not block. Mechs do not
  block sight. Adjacent hexes always see each other (nothing between); a hex sees itself
  (diagonal True, no cover).
- Hard cover (H5): the target's neighbour that is an obstacle whose top stands at least one
  level above the target's ground ("one level above" read as one or more) and lies
  "between" attacker and target, read by the rules parameter ``cover_between``
  (``rules.obstacle_between``): ``nearer`` (the default) that neighbour is closer to the
  attacker than the target is (every hex of any hex line adjacent to the target is such a
  neighbour, so this contains "on the hex line"; it is also the same for both nudged
  lines); ``line`` it is the hex next to the target of the line drawn (then the attacker's
  choice of nudged line counts it as cover, hard 2, like the line's own). Also hard cover:
  the line's hex adjacent to the target has its top (ground or obstacle) exactly at the
  sight height (H4). Neither applies when the attacker's ground is two or more levels
  above the target's (H5). Hard cover is only set where there is LOS.
- Soft cover (H5): the target's hex is foliage, or an intervening hex of the line is
  foliage. The attacker's own hex does not count. Smoke is dynamic: the engine tests its
  smoke hexes with :meth:`Geometry.lines_through` (intervening hexes of the same line) and
  the target's own hex itself. The tables give hard and soft separately; "only the best
  single cover applies" (H5) is the engine's choice (hard over soft).
- High ground (H5): attacker's ground at least one level above the target's: 1[+].
- Falls (H3): ``fall_levels[a, b]`` is the levels dropped stepping from ``a`` to a
  neighbouring ``b`` when that drop is two or more, else 0 (whether ``b`` can be entered is
  ``passable``). ``push[a, b]`` is the hex directly away from an adjacent attacker ``a``
  beyond ``b`` (F11.3), -1 off the board or when not adjacent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from sims.skirmish.maps import FOLIAGE, NEIGHBOUR_OFFSETS, OBSTACLE, OPEN, Map
from sims.skirmish.rules import obstacle_between

# Movement cost for hexes that cannot be reached (fits int16; twice it still does).
UNREACHABLE = 10_000

# 003 H (its cost table missing; assumed): entering open 1, foliage 2, obstacles never.
DEFAULT_TERRAIN_COSTS: dict[int, int | None] = {OPEN: 1, FOLIAGE: 2, OBSTACLE: None}

FALL_DROP = 2  # 003 H3 / F11.3: a drop of two or more levels is a fall
CLIMB_COST = 1  # assumed: +1 movement per level climbed
MAX_CLIMB = 1  # assumed: two or more levels up in one step is impassable without a Jump
HIGH_GROUND_LEVELS = 1  # 003 H5: an attacker at least one level above gets 1[+]
HARD_COVER_IGNORED_LEVELS = 2  # 003 H5: hard cover ignored from two or more levels above
HARD_COVER_LEVELS = 1  # 003 H5: an obstacle one level above the target's own ground

# The usual epsilon nudge for cube lines (redblobgames), added for one line and subtracted
# for the other.
_NUDGE = np.array([1e-6, 2e-6, -3e-6])

# Cube (x, y, z) steps in the order of maps.NEIGHBOUR_OFFSETS: east, north-east, north-west,
# west, south-west, south-east.
_CUBE_STEPS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def cube(col, row):
    """odd-r (col, row) -> cube (x, y, z), on ints or integer arrays alike."""
    x = col - (row - (row & 1)) // 2
    z = row
    return x, -x - z, z


def offset(x, z):
    """cube (x, z) -> odd-r (col, row), on ints or integer arrays alike."""
    return x + (z - (z & 1)) // 2, z


def distance(a, b):
    """Hex distance between odd-r hexes ``a = (col, row)`` and ``b``; each coordinate an int
    or an integer array (broadcast)."""
    ax, ay, az = cube(*a)
    bx, by, bz = cube(*b)
    return np.maximum(np.maximum(abs(ax - bx), abs(ay - by)), abs(az - bz))


def neighbours(h: int, length: int, depth: int) -> list[int]:
    """The on-board neighbours of hex index ``h``, in direction order (east first)."""
    col, row = h % length, h // length
    out = []
    for dc, dr in NEIGHBOUR_OFFSETS[row & 1]:
        c, r = col + dc, row + dr
        if 0 <= c < length and 0 <= r < depth:
            out.append(r * length + c)
    return out


def hex_line(a: tuple[int, int], b: tuple[int, int], nudge: int = 1) -> list[tuple[int, int]]:
    """The hex line from ``a`` to ``b`` (odd-r, both ends included): cube interpolation
    rounded to hexes, with the epsilon nudge added (``nudge=1``) or subtracted (``-1``).
    Bounds are not checked."""
    n = int(distance(a, b))
    if n == 0:
        return [a]
    ca = np.array(cube(*a), dtype=float)
    cb = np.array(cube(*b), dtype=float)
    t = np.arange(n + 1)[:, None] / n
    x, _, z = _cube_round(ca + (cb - ca) * t + nudge * _NUDGE)
    cols, rows = offset(x, z)
    return [(int(c), int(r)) for c, r in zip(cols, rows, strict=True)]


def _cube_round(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Round fractional cube points (last axis x, y, z) to hexes."""
    r = np.rint(points)
    d = np.abs(r - points)
    x, y, z = r[..., 0], r[..., 1], r[..., 2]
    fix_x = (d[..., 0] > d[..., 1]) & (d[..., 0] > d[..., 2])
    fix_y = ~fix_x & (d[..., 1] > d[..., 2])
    fix_z = ~fix_x & ~fix_y
    x = np.where(fix_x, -y - z, x)
    y = np.where(fix_y, -x - z, y)
    z = np.where(fix_z, -x - y, z)
    return x.astype(np.int64), y.astype(np.int64), z.astype(np.int64)


@dataclass(frozen=True, eq=False)  # eq=False: hashed by identity, arrays never compared
class Geometry:
    """A map's geometry as lookup tables (003 H). ``[H, H]`` tables are ``[from, to]``
    (``[attacker, target]`` for sight and cover). See the module docstring for readings."""

    map_id: str
    length: int
    depth: int
    elevation: np.ndarray  # int8[H] ground level
    terrain: np.ndarray  # int8[H] 0 open, 1 foliage, 2 obstacle
    top: np.ndarray  # int8[H] ground + obstacle height (003 H4)
    passable: np.ndarray  # bool[H] a mech may enter (terrain cost not None)
    zone: np.ndarray  # int8[H] zone number 0..2, -1 outside every zone
    neighbour: np.ndarray  # int16[H, 6] neighbour per direction, -1 off the board
    dist: np.ndarray  # int16[H, H] hex distance
    move_cost: np.ndarray  # int16[H, H] least movement cost, UNREACHABLE if none
    next_step: np.ndarray  # int16[H, H] first hex of a cheapest path, a on a==b, -1 if none
    step_cost: np.ndarray  # int16[H, 6] cost of one step to neighbour k, -1 if not allowed
    fall_levels: np.ndarray  # int8[H, H] levels fallen stepping a -> neighbour b, 0 if no fall
    push: np.ndarray  # int16[H, H] hex directly away beyond adjacent b, -1 off board/far
    los: np.ndarray  # bool[H, H] line of sight (003 H4)
    hard_cover: np.ndarray  # bool[H, H] (003 H5)
    soft_cover: np.ndarray  # bool[H, H] terrain only: foliage (003 H5); smoke is the engine's
    high_ground: np.ndarray  # bool[H, H] attacker at least one level above (1[+])
    line_start: np.ndarray  # int32[H, H] offset in line_flat of the line the tables use
    line_flat: np.ndarray  # int16[...] intervening hexes, stored from min(a,b) to max(a,b)

    @property
    def hexes(self) -> int:
        return self.length * self.depth

    def index(self, col: int, row: int) -> int:
        return row * self.length + col

    def coords(self, h: int) -> tuple[int, int]:
        return h % self.length, h // self.length

    def line_hexes(self, a: int, b: int) -> np.ndarray:
        """The hex indices of the line the tables use from ``a`` to ``b``, ends included."""
        n = int(self.dist[a, b])
        if n == 0:
            return np.array([a], dtype=np.int64)
        start = int(self.line_start[a, b])
        mid = self.line_flat[start : start + n - 1].astype(np.int64)
        if a > b:
            mid = mid[::-1]
        return np.concatenate(([a], mid, [b]))

    def lines_through(self, a, b, mask: np.ndarray) -> np.ndarray:
        """Whether the line from each ``a`` to its ``b`` has an intervening hex in ``mask``
        (smoke, 003 H5). ``a``, ``b``: int arrays [n]; ``mask``: bool[H] for all, or
        bool[n, H] per line. Returns bool[n]."""
        a = np.asarray(a, dtype=np.int64).ravel()
        b = np.asarray(b, dtype=np.int64).ravel()
        lens = np.maximum(self.dist[a, b].astype(np.int64) - 1, 0)
        total = int(lens.sum())
        out = np.zeros(a.size, dtype=bool)
        if total == 0:
            return out
        seg = np.repeat(np.arange(a.size), lens)
        first = np.cumsum(lens) - lens
        idx = np.repeat(self.line_start[a, b].astype(np.int64) - first, lens) + np.arange(total)
        hexes = self.line_flat[idx].astype(np.int64)
        seg, hexes = seg[hexes >= 0], hexes[hexes >= 0]  # a line off the board has no LOS
        hit = mask[hexes] if mask.ndim == 1 else mask[seg, hexes]
        out[seg[hit]] = True
        return out


def _cost_table(terrain_costs) -> dict[int, int | None]:
    items = terrain_costs.items() if isinstance(terrain_costs, Mapping) else None
    if items is None:
        if not isinstance(terrain_costs, Sequence):
            raise ValueError(f"terrain_costs: not a mapping or sequence: {terrain_costs!r}")
        items = enumerate(terrain_costs)
    out: dict[int, int | None] = {}
    for code, cost in items:
        if cost is not None and (not isinstance(cost, int | np.integer) or cost < 1):
            raise ValueError(f"terrain_costs[{code!r}]: cost {cost!r} is not None or an int >= 1")
        out[int(code)] = None if cost is None else int(cost)
    return out


def build(
    map: Map,
    terrain_costs=DEFAULT_TERRAIN_COSTS,
    *,
    climb_cost: int | None = None,
    max_climb: int | None = None,
    fall_drop: int | None = None,
    falls: bool = True,
    cover_between: str = "nearer",
) -> Geometry:
    """Every geometry table of ``map`` (003 H).

    ``terrain_costs``: a ``maps.Terrain`` (catalogs/skirmish/terrain.toml: its ``enter``
    costs, ``climb_per_level``, ``climb_max`` and ``fall_drop``), or the cost of entering each
    terrain code as a mapping or sequence (None: impassable). ``climb_cost`` (per level
    climbed, default 1), ``max_climb`` (levels one step may climb, default 1; a Jump booster
    would raise it) and ``fall_drop`` (default 2) override the Terrain's. ``falls=False``
    builds paths that never drop ``fall_drop`` levels or more. ``cover_between``: the
    rules parameter of that name (003 H5, the module docstring).
    """
    if hasattr(terrain_costs, "enter"):  # a maps.Terrain
        costs = _cost_table(terrain_costs.enter)
        climb_cost = terrain_costs.climb_per_level if climb_cost is None else climb_cost
        max_climb = terrain_costs.climb_max if max_climb is None else max_climb
        fall_drop = terrain_costs.fall_drop if fall_drop is None else fall_drop
    else:
        costs = _cost_table(terrain_costs)
    climb_cost = CLIMB_COST if climb_cost is None else climb_cost
    max_climb = MAX_CLIMB if max_climb is None else max_climb
    fall_drop = FALL_DROP if fall_drop is None else fall_drop
    length, depth = map.length, map.depth
    n_hex = length * depth
    elevation = np.asarray(map.elevation, dtype=np.int64).ravel()
    terrain = np.asarray(map.terrain, dtype=np.int64).ravel()
    top = elevation + np.asarray(map.obstacle, dtype=np.int64).ravel()
    missing = sorted(set(np.unique(terrain).tolist()) - set(costs))
    if missing:
        raise ValueError(f"map {map.id}: terrain code {missing[0]} has no entry in terrain_costs")
    enter = np.array([costs[t] if costs[t] is not None else -1 for t in terrain])
    passable = enter >= 0

    hexes = np.arange(n_hex)
    cols, rows = hexes % length, hexes // length
    cx, cy, cz = cube(cols, rows)
    dist = np.maximum(
        np.maximum(abs(cx[:, None] - cx), abs(cy[:, None] - cy)), abs(cz[:, None] - cz)
    )

    neighbour = _neighbours(length, depth, cx, cz)
    move_cost, next_step, step_cost = _paths(
        neighbour, elevation, enter, passable, climb_cost, max_climb, fall_drop, falls
    )
    fall_levels, push = _falls_and_pushes(neighbour, elevation, fall_drop)
    on_line = cover_between == "line"  # the attacker's line choice counts the obstacle
    los, line_cover_hard, line_soft, line_start, line_flat, line_obstacle = _sight(
        map, dist, cx, cy, cz, elevation, top, terrain == FOLIAGE, terrain == OBSTACLE, on_line
    )
    climb = elevation[:, None] - elevation[None, :]
    hard_cover, soft_cover = _cover(
        neighbour,
        dist,
        elevation,
        terrain,
        top,
        climb,
        los,
        line_cover_hard,
        line_soft,
        line_obstacle,
        cover_between,
    )
    return Geometry(
        map_id=map.id,
        length=length,
        depth=depth,
        elevation=_frozen(elevation, np.int8),
        terrain=_frozen(terrain, np.int8),
        top=_frozen(top, np.int8),
        passable=_frozen(passable, bool),
        zone=_frozen(_zones(map), np.int8),
        neighbour=_frozen(neighbour, np.int16),
        dist=_frozen(dist, np.int16),
        move_cost=_frozen(move_cost, np.int16),
        next_step=_frozen(next_step, np.int16),
        step_cost=_frozen(step_cost, np.int16),
        fall_levels=_frozen(fall_levels, np.int8),
        push=_frozen(push, np.int16),
        los=_frozen(los, bool),
        hard_cover=_frozen(hard_cover, bool),
        soft_cover=_frozen(soft_cover, bool),
        high_ground=_frozen(climb >= HIGH_GROUND_LEVELS, bool),
        line_start=_frozen(line_start, np.int32),
        line_flat=_frozen(line_flat, np.int16),
    )


def _neighbours(length: int, depth: int, cx: np.ndarray, cz: np.ndarray) -> np.ndarray:
    """The six neighbours of every hex (003 H), in ``_CUBE_STEPS`` order; -1 off the map."""
    n_hex = length * depth
    neighbour = np.full((n_hex, 6), -1, dtype=np.int64)
    for k, (sx, _, sz) in enumerate(_CUBE_STEPS):
        ncol, nrow = offset(cx + sx, cz + sz)
        ok = (ncol >= 0) & (ncol < length) & (nrow >= 0) & (nrow < depth)
        neighbour[ok, k] = (nrow * length + ncol)[ok]
    return neighbour


def _falls_and_pushes(
    neighbour: np.ndarray, elevation: np.ndarray, fall_drop: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per step from hex a to its neighbour b: the levels fallen when the drop is
    ``fall_drop`` or more (else 0), and the hex a mech on b is pushed to (F11.3)."""
    n_hex = len(neighbour)
    hexes = np.arange(n_hex)
    fall_levels = np.zeros((n_hex, n_hex), dtype=np.int8)
    push = np.full((n_hex, n_hex), -1, dtype=np.int16)
    for k in range(6):
        nb = neighbour[:, k]
        ok = nb >= 0
        drop = elevation[ok] - elevation[nb[ok]]
        fall_levels[hexes[ok], nb[ok]] = np.where(drop >= fall_drop, drop, 0)
        # F11.3: pushed "directly away": one more step in the direction from a to b.
        beyond = np.where(ok, neighbour[np.maximum(nb, 0), k], -1)
        push[hexes[ok], nb[ok]] = beyond[ok]
    return fall_levels, push


def _cover(
    neighbour: np.ndarray,
    dist: np.ndarray,
    elevation: np.ndarray,
    terrain: np.ndarray,
    top: np.ndarray,
    climb: np.ndarray,
    los: np.ndarray,
    line_cover_hard: np.ndarray,
    line_soft: np.ndarray,
    line_obstacle: np.ndarray,
    cover_between: str,
) -> tuple[np.ndarray, np.ndarray]:
    """003 H5 hard and soft cover of target t against attacker a, [a, t], in sight only."""
    n_hex = len(neighbour)
    hexes = np.arange(n_hex)
    # H5 hard cover by an obstacle: a neighbour o of target t, an obstacle whose top stands
    # at least one level above t's ground, closer to the attacker than t.
    high_obstacle = np.zeros((n_hex, 6), dtype=bool)
    for k in range(6):
        nb = neighbour[:, k]
        ok = nb >= 0
        high_obstacle[ok, k] = (terrain[nb[ok]] == OBSTACLE) & (
            top[nb[ok]] - elevation[ok] >= HARD_COVER_LEVELS
        )
    obstacle_cover = np.zeros((n_hex, n_hex), dtype=bool)
    for k in range(6):
        nb = neighbour[:, k]
        t_ok = high_obstacle[:, k]
        if not t_ok.any():
            continue
        targets = hexes[t_ok]
        obstacle_cover[:, targets] |= dist[:, nb[t_ok]] < dist[:, targets]
    # "lies between" (H5), by the reading in force: nearer, or on the drawn line
    obstacle_cover = obstacle_between(cover_between, obstacle_cover, line_obstacle)
    hard_cover = (obstacle_cover | line_cover_hard) & (climb < HARD_COVER_IGNORED_LEVELS) & los
    soft_cover = (line_soft | (terrain == FOLIAGE)[None, :]) & los
    np.fill_diagonal(hard_cover, False)
    np.fill_diagonal(soft_cover, False)
    return hard_cover, soft_cover


def _zones(map: Map) -> np.ndarray:
    """The zone (I4) each hex belongs to, -1 for none."""
    length = map.length
    zone = np.full(map.length * map.depth, -1, dtype=np.int8)
    for z, flower in enumerate(map.zones):
        for col, row in flower:
            zone[row * length + col] = z
    return zone


def _frozen(a: np.ndarray, dtype) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=dtype)
    a.flags.writeable = False
    return a


def _paths(neighbour, elevation, enter, passable, climb_cost, max_climb, fall_drop, falls):
    """Least movement costs (Dijkstra over entering costs, 003 H), first steps, and the
    cost of each single step (-1 where it is not allowed)."""
    n_hex = len(elevation)
    src = np.repeat(np.arange(n_hex), 6)
    dst = neighbour.ravel()
    on = dst >= 0
    src, dst = src[on], dst[on]
    rise = elevation[dst] - elevation[src]
    ok = passable[dst] & (rise <= max_climb)
    if not falls:
        ok &= rise > -fall_drop
    weight = enter[dst] + np.where(rise > 0, rise * climb_cost, 0)
    src, dst, weight = src[ok], dst[ok], weight[ok]
    graph = csr_matrix((weight.astype(float), (src, dst)), shape=(n_hex, n_hex))
    far = dijkstra(graph, directed=True)
    reach = np.isfinite(far)
    cost = np.where(reach, far, UNREACHABLE).astype(np.int64)

    # next_step[a, b]: the lowest-index neighbour n of a with w(a, n) + cost[n, b] == cost[a, b].
    edge_w = np.full((n_hex, 6), -1, dtype=np.int64)
    k_of = np.tile(np.arange(6), n_hex)[on][ok]
    edge_w[src, k_of] = weight
    big = np.iinfo(np.int64).max
    best = np.full((n_hex, n_hex), big, dtype=np.int64)
    for k in range(6):
        has = edge_w[:, k] >= 0
        nb = np.maximum(neighbour[:, k], 0)
        on_path = has[:, None] & reach & (edge_w[:, k][:, None] + cost[nb, :] == cost)
        best = np.where(on_path, np.minimum(best, nb[:, None]), best)
    next_step = np.where(best == big, -1, best)
    np.fill_diagonal(next_step, np.arange(n_hex))
    return cost, next_step, edge_w


def _sight(map, dist, cx, cy, cz, elevation, top, foliage, obstacle, count_obstacle=False):
    """Line of sight and the line's own cover for every ordered pair (003 H4, H5), and
    whether the line's hex next to the target is an obstacle one or more levels above the
    target's ground (``line_obstacle``, for ``cover_between = "line"``; with
    ``count_obstacle`` the attacker's choice of nudged line counts it as hard cover).

    Works on unordered pairs a < b: both nudged lines are the same hexes either way and the
    sight height is symmetric, so blocking and foliage on the line are too; only the hex
    adjacent to the target (hard cover at exactly the sight height) depends on the direction.
    """
    length, depth = map.length, map.depth
    n_hex = len(elevation)
    los = np.zeros((n_hex, n_hex), dtype=bool)
    hard = np.zeros((n_hex, n_hex), dtype=bool)
    soft = np.zeros((n_hex, n_hex), dtype=bool)
    line_obstacle = np.zeros((n_hex, n_hex), dtype=bool)
    line_start = np.zeros((n_hex, n_hex), dtype=np.int64)
    np.fill_diagonal(los, True)
    upper_a, upper_b = np.triu_indices(n_hex, k=1)
    upper_n = dist[upper_a, upper_b]
    near = upper_n == 1  # adjacent: nothing between, always seen
    los[upper_a[near], upper_b[near]] = los[upper_b[near], upper_a[near]] = True
    cube_f = np.stack([cx, cy, cz], axis=1).astype(float)
    eye = elevation + 1
    chunks = []
    offset_now = 0
    for n in range(2, int(upper_n.max(initial=0)) + 1):
        sel = upper_n == n
        a, b = upper_a[sel], upper_b[sel]
        steps = np.arange(1, n)
        frac = steps / n
        # Sight height times n at each intervening hex: exact in integers (H4).
        sight_n = eye[a][:, None] * n + (eye[b] - eye[a])[:, None] * steps
        ca, cb = cube_f[a][:, None, :], cube_f[b][:, None, :]
        along = ca + (cb - ca) * frac[None, :, None]
        on_board, clear, line_soft, at_b, at_a, lines = [], [], [], [], [], []
        ob_b, ob_a = [], []  # the line's hex next to b (a) is a high obstacle (H5)
        for sign in (1, -1):
            x, _, z = _cube_round(along + sign * _NUDGE)
            col, row = offset(x, z)
            board = (col >= 0) & (col < length) & (row >= 0) & (row < depth)
            h = np.where(board, row * length + col, -1)  # -1: off the board
            top_n = top[h] * n
            on_board.append(board.all(axis=1))
            clear.append(on_board[-1] & ~(board & (top_n > sight_n)).any(axis=1))
            line_soft.append((board & foliage[h]).any(axis=1))
            at_b.append(board[:, -1] & (top_n[:, -1] == sight_n[:, -1]))  # next to b
            at_a.append(board[:, 0] & (top_n[:, 0] == sight_n[:, 0]))  # next to a
            ob_b.append(
                board[:, -1]
                & obstacle[h[:, -1]]
                & (top[h[:, -1]] - elevation[b] >= HARD_COVER_LEVELS)
            )
            ob_a.append(
                board[:, 0] & obstacle[h[:, 0]] & (top[h[:, 0]] - elevation[a] >= HARD_COVER_LEVELS)
            )
            lines.append(h.astype(np.int16))
        seen = clear[0] | clear[1]
        los[a, b] = los[b, a] = seen
        use1 = []  # per direction (a -> b, then b -> a): the attacker draws the - line
        for tgt, src, at, ob in ((b, a, at_b, ob_b), (a, b, at_a, ob_a)):
            if count_obstacle:
                score0 = 2 * (at[0] | ob[0]) + line_soft[0]
                score1 = 2 * (at[1] | ob[1]) + line_soft[1]
            else:
                score0 = 2 * at[0] + line_soft[0]
                score1 = 2 * at[1] + line_soft[1]
            use = clear[1] & (~clear[0] | (score1 < score0))
            # No LOS: still keep a line on the board for line_hexes where one exists.
            use |= ~seen & on_board[1] & ~on_board[0]
            hard[src, tgt] = np.where(use, at[1], at[0]) & seen
            soft[src, tgt] = np.where(use, line_soft[1], line_soft[0]) & seen
            line_obstacle[src, tgt] = np.where(use, ob[1], ob[0]) & seen
            use1.append(use)
        # Store only the lines some direction uses (most pairs use the + line both ways).
        need0 = ~use1[0] | ~use1[1]
        need1 = use1[0] | use1[1]
        k0, k1 = int(need0.sum()), int(need1.sum())
        start0 = np.zeros(len(a), dtype=np.int64)
        start1 = np.zeros(len(a), dtype=np.int64)
        start0[need0] = offset_now + np.arange(k0) * (n - 1)
        start1[need1] = offset_now + (k0 + np.arange(k1)) * (n - 1)
        chunks += [lines[0][need0].ravel(), lines[1][need1].ravel()]
        offset_now += (k0 + k1) * (n - 1)
        line_start[a, b] = np.where(use1[0], start1, start0)
        line_start[b, a] = np.where(use1[1], start1, start0)
    line_flat = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
    return los, hard, soft, line_start, line_flat, line_obstacle


_BUILT: dict[tuple, Geometry] = {}


def cached(
    map: Map,
    terrain_costs: Any = DEFAULT_TERRAIN_COSTS,
    *,
    falls: bool = True,
    cover_between: str = "nearer",
) -> Geometry:
    """:func:`build` with default options (and ``falls``, ``cover_between``), remembered by the map's content
    and the costs (a map reloaded from the same file is not built twice in a process:
    claims, explain, the engines and the tests each ask for the shipped maps' tables)."""
    key = (
        map.id,
        map.length,
        map.depth,
        map.elevation.tobytes(),
        map.terrain.tobytes(),
        map.obstacle.tobytes(),
        map.zones,
        repr(terrain_costs),
        falls,
        cover_between,
    )
    if key not in _BUILT:
        _BUILT[key] = build(map, terrain_costs, falls=falls, cover_between=cover_between)
    return _BUILT[key]
