"""Mecha Skirmish boards (003 H): hex maps as data.

Hex layout: "odd-r" offset coordinates, pointy-top hexes. A hex is (col, row): col
0..length-1 along the long axis (32 standard, 40 large), row 0..depth-1 along the short axis
(20 / 24); odd rows are shifted half a hex right. Flat arrays over hexes use the index
h = row * length + col.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Terrain codes in Map.terrain (003 H: open ground, foliage for soft cover, obstacles).
OPEN, FOLIAGE, OBSTACLE = 0, 1, 2

# odd-r neighbour offsets (dcol, drow) by row parity, in the usual order:
# east, north-east, north-west, west, south-west, south-east.
NEIGHBOUR_OFFSETS = (
    ((+1, 0), (0, -1), (-1, -1), (-1, 0), (-1, +1), (0, +1)),  # even rows
    ((+1, 0), (+1, -1), (0, -1), (-1, 0), (0, +1), (+1, +1)),  # odd rows (shifted right)
)


@dataclass(frozen=True)
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
