"""Mecha Skirmish on a map (003 H, I): what both engines read and decide about positions,
written once on arrays (the reference engine passes one battle as arrays of length 1).

- :class:`Board` is a map as the engines play it: its :class:`~.geometry.Geometry` built
  for walking (no path drops two or more levels: a mech never walks off a cliff, it only
  falls when pushed, H3) and each zone's movement cost from every hex.
- :func:`deployment` places the fielded mechs before round 1 (I "Deployment").
- :func:`claim_zones` says which zone each zone-playing mech makes for now.
- :func:`stand_score` is where a mech wants to stand (its policy's weights, policies.toml);
  :func:`walk` moves it there hex by hex, :func:`path_walk` along a cheapest path.
- :func:`cover`, :func:`smoke_on_line`, :func:`guard_covers` and :func:`push` are the
  board's cover and Charge push; :func:`control` is zone control at the end of a round.

Readings (ASSUMPTIONS.md, "The engines on the board") are in each function's docstring.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sims.skirmish import geometry
from sims.skirmish.geometry import UNREACHABLE, Geometry
from sims.skirmish.maps import Map, Terrain

TRACK = "track"  # rules parameter ``board``: the one-dimensional range track, no map
BIG = 1 << 40  # a score no hex reaches: marks hexes a mech may not stand in


@dataclass(frozen=True, eq=False)
class Board:
    """One map as the engines play it (hashed by identity: a Battle's batch key holds it)."""

    map_id: str
    geo: Geometry  # built with falls=False: walking never drops two or more levels
    zones: int
    zone_cost: np.ndarray  # int64[Z, H] least movement cost from each hex into zone z
    deploy: tuple[np.ndarray, np.ndarray]  # int64[k] deployment hexes of side A, side B
    front: tuple[int, int]  # each side's front deployment column
    centers: tuple[int, ...]  # each zone's center column
    jump_step_cost: np.ndarray  # int16[H, 6] a step's cost for a jumper (climbs up to jump_climb)
    climb: np.ndarray  # int8[H, 6] levels a step climbs (0 on a drop or level ground)
    foot_climb: int  # the most levels a step climbs on foot (terrain.toml)
    cover_table: np.ndarray  # int8[H, H] H5 cover of t against a at [a, t]: 2 hard, 1 soft, 0

    @property
    def hexes(self) -> int:
        return self.geo.hexes


_BOARDS: dict[tuple, Board] = {}


def board_of(
    map: Map, terrain: Terrain | None, jump_climb: int = 3, cover_between: str = "nearer"
) -> Board:
    """The Board of ``map`` (built once per process and map content); a jumper's steps may
    climb ``jump_climb`` levels (rules parameter, 003 G); hard cover reads "between" by
    ``cover_between`` (rules parameter, 003 H5: ``rules.obstacle_between``)."""
    key = (
        map.id,
        map.length,
        map.depth,
        map.elevation.tobytes(),
        map.terrain.tobytes(),
        map.obstacle.tobytes(),
        map.zones,
        map.deploy,
        repr(terrain),
        jump_climb,
        cover_between,
    )
    if key in _BOARDS:
        return _BOARDS[key]
    costs = terrain if terrain is not None else geometry.DEFAULT_TERRAIN_COSTS
    geo = geometry.cached(map, costs, falls=False, cover_between=cover_between)
    Z = len(map.zones)
    zone_cost = np.full((Z, geo.hexes), UNREACHABLE, np.int64)
    for z, flower in enumerate(map.zones):
        cells = [map.hex_index(c, r) for c, r in flower]
        zone_cost[z] = geo.move_cost[:, cells].min(axis=1)
    cols = np.arange(geo.hexes) % map.length
    ok = geo.passable
    deploy = (
        np.flatnonzero(ok & (cols < map.deploy)),
        np.flatnonzero(ok & (cols >= map.length - map.deploy)),
    )
    jumping = geometry.build(map, costs, max_climb=jump_climb, falls=False)
    nb = geo.neighbour.astype(np.int64)
    rise = geo.elevation[np.maximum(nb, 0)].astype(np.int64) - geo.elevation[:, None]
    climb = np.where((nb >= 0) & (rise > 0), rise, 0).astype(np.int8)
    foot = terrain.climb_max if terrain is not None else geometry.MAX_CLIMB
    board = Board(
        map.id,
        geo,
        Z,
        zone_cost,
        deploy,
        (map.deploy - 1, map.length - map.deploy),
        tuple(int(flower[0][0]) for flower in map.zones),
        jumping.step_cost,
        climb,
        foot,
        np.where(geo.hard_cover, 2, geo.soft_cover).astype(np.int8),
    )
    _BOARDS[key] = board
    return board


# ---- deployment (003 I) -------------------------------------------------------------------


def deployment(board: Board, side: np.ndarray, zone_weight: np.ndarray) -> np.ndarray:
    """Starting hexes (int16[M]) for mechs of ``side`` (0 A, 1 B) whose policies weigh zones
    by ``zone_weight``.

    Readings (003 I "Deployment"): side A holds the west end (the roll-off's winner picks
    an end; the maps are the same after a half turn, so which end does not matter) and
    side B, read as the roll-off's loser, places first; then the sides alternate, each
    placing its mechs in index order. A zone player takes the next zone in
    :func:`zone_priority` order that no ally placed before it has claimed, and stands on
    the free deployment hex nearest that zone; any other mech stands on the free
    deployment hex nearest the middle zone. Ties: the front column, then the lowest index
    for side A and the highest for side B (the same hex after a half turn).
    """
    side = np.asarray(side)
    M = len(side)
    queues = [list(np.flatnonzero(side == s)) for s in (1, 0)]  # side B places first
    order = [m for pair in zip(*queues, strict=False) for m in pair]
    longer = max(queues, key=len)
    order += longer[min(map(len, queues)) :]
    start = np.full(M, -1, np.int64)
    taken: set[int] = set()
    claimed: list[set[int]] = [set(), set()]
    middle = board.zones // 2
    for m in order:
        s = int(side[m])
        free = np.array([h for h in board.deploy[s] if h not in taken], np.int64)
        front = (free % board.geo.length) == board.front[s]
        if zone_weight[m] > 0:
            open_zones = [z for z in zone_priority(board, s) if z not in claimed[s]]
            z = open_zones[0] if open_zones else middle
            claimed[s].add(z)
        else:
            z = middle
        key = board.zone_cost[z, free] * 4 + np.where(front, 0, 2)
        # ties: the lowest index for side A, the highest for side B (the half turn's)
        h = int(free[int(key.argmin())] if s == 0 else free[::-1][int(key[::-1].argmin())])
        start[m] = h
        taken.add(h)
    return start.astype(np.int16)


# ---- where a mech makes for (policies.toml weights) ------------------------------------------


def zone_priority(board: Board, side: int) -> list[int]:
    """The order in which a side claims zones (a reading): the middle zone first, where
    the sides meet (003 I4: "keeps mechs moving toward each other"), then the rest from
    the side's own end outward (side A holds the low columns)."""
    centers = board.centers
    middle = board.zones // 2
    by_column = sorted(range(board.zones), key=lambda z: centers[z] * (1 if side == 0 else -1))
    return [middle] + [z for z in by_column if z != middle]


def claim_zones(board: Board, pos: np.ndarray, plays: np.ndarray, side: np.ndarray) -> np.ndarray:
    """Each zone player's zone now, -1 for the rest: int64[n, M].

    ``pos`` int[n, M] hexes, ``plays`` bool[n, M] (living mechs whose policy weighs
    zones), ``side`` int[M]. Reading: a side takes its zones in :func:`zone_priority`
    order, each claimed by its nearest unclaimed zone player (least movement cost, ties to
    the lower index), so one player makes for the middle and more spread outward; a
    player left over when every zone is claimed makes for its nearest zone."""
    pos = np.asarray(pos, np.int64)
    n, M = pos.shape
    plays = np.broadcast_to(np.asarray(plays, bool), (n, M))
    key = np.empty((n, 2 * M), np.int64)
    key[:, :M], key[:, M:] = pos, plays
    return _once_each(key, lambda rows: (_claim_zones(board, pos[rows], plays[rows], side),))[0]


def _claim_zones(board: Board, pos: np.ndarray, plays: np.ndarray, side: np.ndarray) -> np.ndarray:
    """:func:`claim_zones` on every row."""
    n, M = pos.shape
    out = np.full((n, M), -1, np.int64)
    cost = board.zone_cost[:, pos].transpose(1, 2, 0)  # [n, M, Z]
    rows = np.arange(n)
    for s in (0, 1):
        free = plays & (side[None, :] == s)
        for z in zone_priority(board, s):
            c = np.where(free, cost[:, :, z], BIG)
            m = c.argmin(axis=1)
            ok = c[rows, m] < BIG
            out[rows[ok], m[ok]] = z
            free[rows[ok], m[ok]] = False
        if free.any():
            out = np.where(free, cost.argmin(axis=2), out)
    return out


# ---- the same question asked by many battles --------------------------------------------------

_DISTINCT_MIN = 64  # below this many rows (the reference engine asks one) ask every row
# the row hash's multipliers: fixed odd 64-bit numbers, one per key column
_MIX = np.random.default_rng(15).integers(0, 1 << 63, 256, np.uint64) * np.uint64(2) + np.uint64(1)


def _distinct(key: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Where a batch asks the same question many times: ``key`` int64[n, F] holds every
    input of a row's answer (a walk, a zone claim or a Charge hex draws no dice, so equal
    rows get equal answers). Returns (first, inverse): the first row of each distinct key
    and each row's distinct key (``key[first][inverse]`` equals ``key``), so the answer is
    worked out once per distinct key and scattered back; None where there are few rows or
    few repeats. Rows are grouped by a hash, then checked equal in full: a collision falls
    back to sorting the rows themselves, so the grouping is always exact."""
    n = len(key)
    if n < _DISTINCT_MIN or key.shape[1] > len(_MIX):
        return None
    key = np.ascontiguousarray(key)
    h = key.view(np.uint64) @ _MIX[: key.shape[1]]  # wraps modulo 2**64
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    if 4 * len(first) > 3 * n:
        return None
    inverse = inverse.ravel()
    if not np.array_equal(key.take(first.take(inverse), axis=0), key):
        _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
    return first, inverse


def _once_each(key: np.ndarray, answer):
    """``answer(rows)`` (a tuple of per-row arrays for the rows ``rows`` of ``key``) worked
    out once per distinct row of ``key`` (:func:`_distinct`) and scattered back to every
    row; for every row at once where grouping does not pay."""
    rep = _distinct(key)
    if rep is None:
        return answer(slice(None))
    first, inverse = rep
    return tuple(out[inverse] for out in answer(first))


@dataclass(frozen=True)
class Stance:
    """What one moving mech weighs, per battle row (int arrays [n]): its target's hex, the
    distance it wants (1 adjacent, else its longest optimal Range), how far its weapons
    reach, its claimed zone (-1 none), the ally it screens (a hex, -1 none) and its
    policy's weights (policies.toml: zone, approach, shot, cover, flank, screen)."""

    target: np.ndarray
    goal: np.ndarray
    reach: np.ndarray
    zone: np.ndarray
    ally: np.ndarray
    w_zone: np.ndarray
    w_approach: np.ndarray
    w_shot: np.ndarray
    w_cover: np.ndarray
    w_flank: np.ndarray
    w_screen: np.ndarray


# a Stance stacked as the columns of one int64[n, 11] array, in field order
_FIELDS = tuple(Stance.__dataclass_fields__)
(
    _TARGET,
    _GOAL,
    _REACH,
    _ZONE,
    _ALLY,
    _W_ZONE,
    _W_APPROACH,
    _W_SHOT,
    _W_COVER,
    _W_FLANK,
    _W_SCREEN,
) = range(len(_FIELDS))


def _stacked(st: Stance, out: np.ndarray) -> np.ndarray:
    """Fill ``out`` int64[n, 11] with ``st``'s fields as columns (each broadcast to n)."""
    for j, f in enumerate(_FIELDS):
        out[:, j] = getattr(st, f)
    return out


def stand_score(board: Board, st: Stance, h: np.ndarray) -> np.ndarray:
    """How much a mech wants to stand on hex ``h`` (int[n, k], each row its battle's
    candidates): higher is better, int64[n, k].

    score = - zone x (movement cost into its zone; 0 inside)
            - approach x (movement cost to its target beyond the wanted distance)
            + shot x (line of sight to the target within its weapons' reach)
            + cover x (the target's line to it: hard cover 2, soft 1), counted only
              within its own weapons' reach of the target (cover far from the fight
              would hold a mech back from it)
            + flank x (a shot that leaves the target no hard cover)
            + screen x (adjacent to its ally and nearer the target than the ally)
    """
    h = np.asarray(h, np.int64)
    return _score(board, _stacked(st, np.empty((len(h), len(_FIELDS)), np.int64)), h)


def _score(board: Board, S: np.ndarray, h: np.ndarray) -> np.ndarray:
    """:func:`stand_score` of the stacked Stance ``S`` int64[n, 11]. The [H, H] tables are
    read flat at h * H + t; a term whose weight is 0 on every row adds nothing and is
    skipped (the sum is of integers, so the score is the same)."""
    g = board.geo
    H = g.hexes
    col = lambda j: S[:, j, None]  # noqa: E731
    t = col(_TARGET)
    at = h * H + t  # [h, t] in a flat [H, H] table
    d = g.dist.ravel().take(at)
    within = d <= col(_REACH)
    score = np.zeros(h.shape, np.int64)
    zone, w = col(_ZONE), col(_W_ZONE)
    if ((w != 0) & (zone >= 0)).any():
        zc = board.zone_cost.ravel().take(np.maximum(zone, 0) * H + h)
        score -= w * np.where(zone >= 0, zc, 0)
    w = col(_W_APPROACH)
    if (w != 0).any():
        score -= w * np.maximum(g.move_cost.ravel().take(at).astype(np.int64) - col(_GOAL), 0)
    shoot, flank = col(_W_SHOT), col(_W_FLANK)
    if (shoot != 0).any() or (flank != 0).any():
        shot = g.los.ravel().take(at) & within
        score += shoot * shot
        score += flank * (shot & ~g.hard_cover.ravel().take(at))
    w = col(_W_COVER)
    if (w != 0).any():
        score += w * board.cover_table.ravel().take(t * H + h) * within
    ally, w = col(_ALLY), col(_W_SCREEN)
    if ((w != 0) & (ally >= 0)).any():
        a = np.maximum(ally, 0)
        dist = g.dist.ravel()
        screen = (ally >= 0) & (dist.take(h * H + a) <= 1) & (d < dist.take(a * H + t))
        score += w * screen
    return score


def _directions(mirrored: np.ndarray | bool, n: int) -> np.ndarray:
    """int64[n, 6]: the order in which each row breaks ties between directions: east first
    for side A; for side B (``mirrored``) the same order turned half round, west first,
    so a mirror match on a map that is the same after a half turn plays the same for both
    sides (a reading: the rulebook has no tie-breaks)."""
    turn = np.broadcast_to(np.asarray(mirrored, bool), (n,))
    return (np.arange(6)[None, :] + 3 * turn[:, None]) % 6


def _first(ok: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(any, the first direction in ``order`` where ``ok``) per row of bool[n, 6]."""
    ranked = np.take_along_axis(ok, order, axis=1)
    return ranked.any(axis=1), order[np.arange(len(ok)), ranked.argmax(axis=1)]


def _free(nb: np.ndarray, others: np.ndarray) -> np.ndarray:
    """bool[k, 6]: neighbours ``nb`` that hold none of ``others`` int[k, K] (-1 none)."""
    free = nb >= 0
    for o in others.T:
        free &= nb != o[:, None]
    return free


def walk(
    board: Board,
    pos: np.ndarray,
    budget: np.ndarray,
    others: np.ndarray,
    st: Stance,
    mirrored: np.ndarray | bool = False,
    jumper: np.ndarray | bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Move hex by hex toward a better place to stand (:func:`stand_score`), paying each
    step's movement cost from ``budget`` (003 E Move, H movement).

    ``pos`` int[n], ``budget`` int[n], ``others`` int[n, K] the hexes of the other living
    mechs (-1 none), ``mirrored`` the rows of side B (:func:`_directions`). Each step goes
    to the neighbour with the best score if that is better than staying (ties in
    direction order), never into another mech's hex (a hex holds one mech, a reading) nor
    down a drop of two or more levels. A ``jumper`` (003 G: jump legs or a jump booster)
    steps up to ``jump_climb`` levels at a time, where on foot a climb of more than the
    terrain's max_levels is impassable. Returns (end hex, hexes moved, wants more,
    jumped): wants more where a better neighbour was out of the budget left (the Boost's
    condition on the board); jumped where a step climbed more than a mech can on foot
    (the Jump's Heat, G)."""
    n = len(pos)
    others = np.asarray(others)
    F = len(_FIELDS)
    key = np.empty((n, 4 + F + others.shape[1]), np.int64)  # every input of a row's walk
    key[:, 0], key[:, 1], key[:, 2], key[:, 3] = pos, budget, mirrored, jumper
    _stacked(st, key[:, 4 : 4 + F])
    key[:, 4 + F :] = others
    return _once_each(key, lambda rows: _walk(board, key[rows]))


def _walk(board: Board, key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`walk` on every row of its ``key`` (pos, budget, mirrored, jumper, the
    stacked Stance, others)."""
    g = board.geo
    n, F = len(key), len(_FIELDS)
    pos, left = key[:, 0].copy(), key[:, 1].copy()
    jumps = key[:, 3] != 0
    any_jump = bool(jumps.any())
    S, others = key[:, 4 : 4 + F], key[:, 4 + F :]
    jumped = np.zeros(n, bool)
    order = _directions(key[:, 2] != 0, n)
    steps = np.zeros(n, np.int64)
    more = np.zeros(n, bool)
    go = np.arange(n)  # a row with no budget left still says whether it wants more
    here = _score(board, S, pos[:, None])[:, 0]
    while len(go):
        p = pos[go]
        nb = g.neighbour[p].astype(np.int64)  # [k, 6]
        cost = g.step_cost[p]
        if any_jump:
            cost = np.where(jumps[go][:, None], board.jump_step_cost[p], cost)
        cost = cost.astype(np.int64)
        free = _free(nb, others[go]) & (cost >= 0)
        there = np.where(free, _score(board, S[go], np.maximum(nb, 0)), -BIG)
        better = there > here[go][:, None]
        affordable = better & (cost <= left[go][:, None])
        best = np.where(affordable, there, -BIG)
        moves, k = _first(affordable & (best == best.max(axis=1, keepdims=True)), order[go])
        more[go] = better.any(axis=1) & ~moves
        r, k, rows = go[moves], k[moves], np.flatnonzero(moves)
        pos[r] = nb[rows, k]
        left[r] -= cost[rows, k]
        here[r] = there[rows, k]  # the others stand still: the score moves with the mech
        jumped[r] |= board.climb[p[rows], k] > board.foot_climb
        steps[r] += 1
        go = r
    return pos, steps, more, jumped


def path_walk(
    board: Board,
    pos: np.ndarray,
    dest: np.ndarray,
    budget: np.ndarray,
    others: np.ndarray,
    mirrored: np.ndarray | bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Move along a cheapest path toward ``dest`` while a next step's cost is within the
    budget left: each step to a neighbour on a cheapest path (its step cost plus its
    ``move_cost`` to ``dest`` equals the ``move_cost`` from here) that holds no other
    mech (``others`` as in :func:`walk`), the first in direction order
    (:func:`_directions`). Returns (end hex, hexes moved)."""
    n = len(pos)
    others = np.asarray(others)
    key = np.empty((n, 4 + others.shape[1]), np.int64)  # every input of a row's path
    key[:, 0], key[:, 1], key[:, 2], key[:, 3] = pos, dest, budget, mirrored
    key[:, 4:] = others
    return _once_each(key, lambda rows: _path_walk(board, key[rows]))


def _path_walk(board: Board, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`path_walk` on every row of its ``key`` (pos, dest, budget, mirrored, others)."""
    g = board.geo
    H = g.hexes
    move_cost = g.move_cost.ravel()
    pos, dest, left = key[:, 0].copy(), key[:, 1], key[:, 2].copy()
    others = key[:, 4:]
    order = _directions(key[:, 3] != 0, len(key))
    steps = np.zeros(len(key), np.int64)
    go = np.flatnonzero((left > 0) & (pos != dest))
    while len(go):
        p, d = pos[go], dest[go]
        nb = g.neighbour[p].astype(np.int64)
        cost = g.step_cost[p].astype(np.int64)
        rest = move_cost.take(np.maximum(nb, 0) * H + d[:, None]).astype(np.int64)
        on = (
            _free(nb, others[go])
            & (cost >= 0)
            & (cost + rest == move_cost.take(p * H + d)[:, None])
            & (cost <= left[go][:, None])
        )
        ok, k = _first(on, order[go])
        r, k, rows = go[ok], k[ok], np.flatnonzero(ok)
        pos[r] = nb[rows, k]
        left[r] -= cost[rows, k]
        steps[r] += 1
        go = r[(left[r] > 0) & (pos[r] != dest[r])]
    return pos, steps


def charge_hex(
    board: Board,
    pos: np.ndarray,
    target: np.ndarray,
    others: np.ndarray,
    mirrored: np.ndarray | bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """F11.3 where a Charge ends: the target's neighbour cheapest to reach from ``pos`` that
    holds no other mech (ties in direction order, :func:`_directions`). Returns (hex or
    -1, its cost)."""
    n = len(target)
    others = np.asarray(others)
    key = np.empty((n, 3 + others.shape[1]), np.int64)  # every input of a row's answer
    key[:, 0], key[:, 1], key[:, 2] = pos, target, mirrored
    key[:, 3:] = others
    return _once_each(key, lambda rows: _charge_hex(board, key[rows]))


def _charge_hex(board: Board, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`charge_hex` on every row of its ``key`` (pos, target, mirrored, others)."""
    g = board.geo
    p, t = key[:, 0, None], key[:, 1]
    nb = g.neighbour[t].astype(np.int64)  # [n, 6]
    near = g.move_cost.ravel().take(p * g.hexes + np.maximum(nb, 0)).astype(np.int64)
    taken = ~_free(nb, key[:, 3:]) & (nb != p)
    cost = np.where(taken | (nb < 0), UNREACHABLE, near)
    _, k = _first(cost == cost.min(axis=1, keepdims=True), _directions(key[:, 2] != 0, len(t)))
    rows = np.arange(len(t))
    best = cost[rows, k]
    return np.where(best < UNREACHABLE, nb[rows, k], -1), best


# ---- cover, smoke, Guard, push (003 H5, E5, F11.3) --------------------------------------


def cover(board: Board, a: np.ndarray, t: np.ndarray) -> np.ndarray:
    """H5 the terrain's cover of ``t`` against ``a``: 2 hard, 1 soft, 0 none."""
    return np.asarray(board.cover_table[a, t], np.int64)


def smoke_on_line(board: Board, a: np.ndarray, t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """H5: smoke on hex ``s`` covers the line from ``a`` to ``t`` when ``s`` is the
    target's hex or an intervening hex of the line (the attacker's own hex does not
    count, as with foliage). bool[n]."""
    a, t, s = (np.asarray(x, np.int64).ravel() for x in (a, t, s))
    g = board.geo
    out = s == t
    lens = np.maximum(g.dist[a, t].astype(np.int64) - 1, 0)
    total = int(lens.sum())
    if total:
        seg = np.repeat(np.arange(len(a)), lens)
        first = np.cumsum(lens) - lens
        idx = np.repeat(g.line_start[a, t].astype(np.int64) - first, lens) + np.arange(total)
        hit = g.line_flat[idx].astype(np.int64) == s[seg]
        out = out | np.bincount(seg[hit], minlength=len(a)).astype(bool)
    return out


def guard_covers(board: Board, a: np.ndarray, t: np.ndarray, guard: np.ndarray) -> np.ndarray:
    """E5 on the board: a Guard's hard cover applies against attacks "coming from your
    side of them", read as: the guard (adjacent to the target) is nearer the attacker than
    the target is (the same reading as an obstacle "between", H5)."""
    d = board.geo.dist
    return d[a, guard] < d[a, t]


def push(
    board: Board, a: np.ndarray, t: np.ndarray, others: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """F11.3 the hex a Charge pushes its target into, directly away from the charger, and
    the levels it falls (H3: a drop of two or more). The hex is -1 where the push is
    blocked: off the board, an obstacle, another mech's hex, or more than one level up."""
    g = board.geo
    a, t = np.asarray(a, np.int64), np.asarray(t, np.int64)
    to = g.push[a, t].astype(np.int64)
    ok = to >= 0
    h = np.maximum(to, 0)
    rise = g.elevation[h].astype(np.int64) - g.elevation[t]
    ok &= g.passable[h] & (rise <= 1) & ~(h[:, None] == others).any(axis=1)
    drop = np.where(ok & (-rise >= geometry.FALL_DROP), -rise, 0)
    return np.where(ok, to, -1), drop


# ---- zones (003 H, I4) ------------------------------------------------------------------------


def control(board: Board, pos: np.ndarray, alive: np.ndarray, side: np.ndarray) -> np.ndarray:
    """003 H Zones: bool[n, 2, Z], side s controls zone z at the end of a round when at
    least one of its living mechs stands in it and no living enemy does."""
    zone = board.geo.zone[np.asarray(pos, np.int64)].astype(np.int64)  # [n, M]
    bit = np.where(zone >= 0, np.left_shift(1, np.maximum(zone, 0)), 0)  # its zone as a bit
    a, b = (np.bitwise_or.reduce(np.where(alive & (side == s), bit, 0), axis=1) for s in (0, 1))
    held = np.stack([a & ~b, b & ~a], axis=1)  # [n, 2] the zones each side holds, bitwise
    return ((held[:, :, None] >> np.arange(board.zones)) & 1).astype(bool)
