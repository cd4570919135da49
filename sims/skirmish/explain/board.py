"""The working of where a Mecha Skirmish shot stands on a map (003 H4, H5).

:func:`explain_board` reads the shot's geometry from ``geometry.py``'s tables (built once
per map in this process): the hex distance, the hex line with each intervening hex's top
against the sight height, line of sight, hard and soft cover with what gives them, and
high ground. Every verdict shown is checked against those tables; a disagreement is a bug
here. :func:`board_text` renders it as the map section of the shot's working.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sims.core.dist import fraction_str
from sims.skirmish import geometry
from sims.skirmish.catalog import Catalog
from sims.skirmish.explain.errors import ExplainError
from sims.skirmish.explain.layout import expectation, table
from sims.skirmish.maps import FOLIAGE, OBSTACLE, OPEN, Map

Hex = tuple[int, int]  # (col, row), odd-r (maps.py)

TERRAIN_NAMES = {OPEN: "open", FOLIAGE: "foliage", OBSTACLE: "obstacle"}


@dataclass(frozen=True)
class LineHex:
    """One intervening hex of the hex line (003 H4) and what it does to the shot."""

    hex: Hex
    step: int  # i of the line's N steps from the attacker
    ground: int
    terrain: str  # open | foliage | obstacle
    top: int  # ground + obstacle height (foliage never blocks sight)
    sight: Fraction  # the sight height interpolated at this hex
    verdict: str  # "below" | "at" (exactly at the sight height) | "blocks" | "off the board"


@dataclass(frozen=True)
class Board:
    """Where the attacker and target stand on a map and what that gives the shot (003 H)."""

    map_id: str
    map_name: str
    attacker_hex: Hex
    target_hex: Hex
    attacker_ground: int
    target_ground: int
    attacker_terrain: str
    target_terrain: str
    distance: int  # hex distance
    line: tuple[LineHex, ...]  # the intervening hexes of the line the tables use
    los: bool  # 003 H4
    hard_sources: tuple[str, ...]  # what would give hard cover (H5)
    hard_ignored: bool  # ... but the attacker stands two or more levels above (H5)
    soft_sources: tuple[str, ...]  # the foliage on the line or under the target (H5)
    high_ground: bool  # attacker at least one level above: 1[+] (H5)
    high_ground_dice: int = 1  # the [+] it gives (rules parameter high_ground_dice)

    @property
    def hard(self) -> bool:
        return bool(self.hard_sources) and not self.hard_ignored

    @property
    def cover(self) -> str:
        """003 H5: only the best single cover applies (hard over soft)."""
        return "hard" if self.hard else "soft" if self.soft_sources else "none"

    @property
    def climb(self) -> int:
        """Levels the attacker's ground stands above the target's (negative: below)."""
        return self.attacker_ground - self.target_ground


class NoLineOfSight(ExplainError):
    """003 F Declare, H4: the target is out of sight on the map; ``board`` says why."""

    def __init__(self, board: Board) -> None:
        a, t = board.attacker_hex, board.target_hex
        super().__init__(
            f"no shot: no line of sight from {a[0]},{a[1]} to {t[0]},{t[1]} "
            f"on map {board.map_id} (003 H4)"
        )
        self.board = board


def map_geometry(catalog: Catalog, map_id: str) -> geometry.Geometry:
    """The geometry tables of map ``map_id`` of ``catalog`` (built once per map content)."""
    if map_id not in catalog.maps:
        known = ", ".join(sorted(catalog.maps)) or "none"
        raise ExplainError(f"--map: unknown map {map_id!r} (known: {known})")
    costs = catalog.terrain if catalog.terrain is not None else geometry.DEFAULT_TERRAIN_COSTS
    return geometry.cached(catalog.maps[map_id], costs, cover_between=catalog.params.cover_between)


def parse_hex(text: str) -> Hex:
    """``COL,ROW`` -> (col, row); ValueError with the reason otherwise."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise ValueError(f"expected COL,ROW such as 12,7, got {text!r}") from None


def _stand(g: geometry.Geometry, board: Map, where: Hex, flag: str) -> int:
    col, row = where
    if not board.in_bounds(col, row):
        raise ExplainError(
            f"{flag} {col},{row} is off map {board.id} ({board.length} x "
            f"{board.depth}: COL 0-{board.length - 1}, ROW 0-"
            f"{board.depth - 1})"
        )
    h = g.index(col, row)
    if g.terrain[h] == OBSTACLE:
        raise ExplainError(
            f"{flag} {col},{row} is an obstacle hex on map {board.id}: "
            "a mech cannot stand there (003 H)"
        )
    return h


def explain_board(
    catalog: Catalog, map_id: str | None, attacker_hex: Hex | None, target_hex: Hex | None
) -> Board:
    """Where the attacker (``attacker_hex``) and target stand on map ``map_id`` and what
    that gives a shot: distance, the hex line against the sight height, line of sight
    (H4), hard and soft cover and high ground (H5), each checked against the geometry
    tables."""
    if map_id is None:
        raise ExplainError("--from and --to need --map (a map id, e.g. --map open)")
    missing = [f for f, v in (("--from", attacker_hex), ("--to", target_hex)) if v is None]
    if missing:
        raise ExplainError(
            f"--map needs {' and '.join(missing)} (the attacker's and the "
            "target's hexes as COL,ROW)"
        )
    g = map_geometry(catalog, map_id)
    board = catalog.maps[map_id]
    a = _stand(g, board, attacker_hex, "--from")
    t = _stand(g, board, target_hex, "--to")
    if a == t:
        raise ExplainError(f"--to {target_hex[0]},{target_hex[1]} is the --from hex")
    n = int(g.dist[a, t])
    ground_a, ground_t = int(g.elevation[a]), int(g.elevation[t])

    line = _hex_line(g, a, t)
    los = bool(g.los[a, t])
    blocked = any(x.verdict in ("blocks", "off the board") for x in line)
    _agree("line of sight", not blocked, los, attacker_hex, target_hex, map_id)

    hard = _hard_cover(g, a, t, line, catalog.params.cover_between) if los else []
    ignored = bool(hard) and ground_a - ground_t >= geometry.HARD_COVER_IGNORED_LEVELS
    _agree(
        "hard cover",
        bool(hard) and not ignored,
        bool(g.hard_cover[a, t]),
        attacker_hex,
        target_hex,
        map_id,
    )

    soft = _soft_cover(g, t, line) if los else []
    _agree("soft cover", bool(soft), bool(g.soft_cover[a, t]), attacker_hex, target_hex, map_id)
    high = ground_a - ground_t >= geometry.HIGH_GROUND_LEVELS
    _agree("high ground", high, bool(g.high_ground[a, t]), attacker_hex, target_hex, map_id)
    return Board(
        map_id=map_id,
        map_name=board.name,
        attacker_hex=attacker_hex,
        target_hex=target_hex,
        attacker_ground=ground_a,
        target_ground=ground_t,
        attacker_terrain=TERRAIN_NAMES[int(g.terrain[a])],
        target_terrain=TERRAIN_NAMES[int(g.terrain[t])],
        distance=n,
        line=tuple(line),
        los=los,
        hard_sources=tuple(hard),
        hard_ignored=ignored,
        soft_sources=tuple(soft),
        high_ground=high,
        high_ground_dice=catalog.params.high_ground_dice,
    )


def _hex_line(g: geometry.Geometry, a: int, t: int) -> list[LineHex]:
    """003 H4: the intervening hexes of the line from hex ``a`` to hex ``t``, each against
    the sight height. The sight height runs from the attacker's eye (level + 1) to the
    target's; an intervening hex whose top is above it blocks, exactly at it does not."""
    n = int(g.dist[a, t])
    eye_a, eye_t = int(g.elevation[a]) + 1, int(g.elevation[t]) + 1
    line = []
    for i, h in enumerate(g.line_hexes(a, t)[1:-1].tolist(), start=1):
        sight = eye_a + Fraction((eye_t - eye_a) * i, n)
        if h < 0:  # a nudged line may run off the board near an edge (geometry.py)
            line.append(LineHex((-1, -1), i, 0, "", 0, sight, "off the board"))
            continue
        top = int(g.top[h])
        verdict = "blocks" if top > sight else "at" if top == sight else "below"
        line.append(
            LineHex(
                g.coords(h),
                i,
                int(g.elevation[h]),
                TERRAIN_NAMES[int(g.terrain[h])],
                top,
                sight,
                verdict,
            )
        )
    return line


def _hard_cover(
    g: geometry.Geometry, a: int, t: int, line: list[LineHex], between: str = "nearer"
) -> list[str]:
    """003 H5 hard cover, what gives it (a shot in line of sight): an obstacle next to the
    target, one or more levels above its ground, between the two (``between``, the rules
    parameter ``cover_between``: "nearer", closer to the attacker than the target is;
    "line", the line's hex next to the target); or the line's hex next to the target
    exactly at the sight height (H4)."""
    ground_t = int(g.elevation[t])
    last = line[-1].hex if line else None
    hard = []
    for o in g.neighbour[t].tolist():
        if (
            o >= 0
            and g.terrain[o] == OBSTACLE
            and g.top[o] - ground_t >= geometry.HARD_COVER_LEVELS
            and (g.dist[a, o] < g.dist[a, t] if between == "nearer" else g.coords(o) == last)
        ):
            col, row = g.coords(o)
            hard.append(
                f"obstacle at {col},{row} (top {int(g.top[o])}, "
                f"{int(g.top[o]) - ground_t} above the target's ground) "
                "lies between"
            )
    if line and line[-1].verdict == "at":
        col, row = line[-1].hex
        hard.append(
            f"{col},{row} next to the target has its top exactly at the "
            f"sight height {fraction_str(line[-1].sight)} (H4)"
        )
    return hard


def _soft_cover(g: geometry.Geometry, t: int, line: list[LineHex]) -> list[str]:
    """003 H5 soft cover, what gives it (a shot in line of sight): foliage under the
    target or on the line (smoke is the engine's)."""
    soft = [f"foliage at {x.hex[0]},{x.hex[1]} on the line" for x in line if x.terrain == "foliage"]
    if g.terrain[t] == FOLIAGE:
        soft.append("the target stands in foliage")
    return soft


def _agree(what: str, shown: bool, table: bool, a: Hex, t: Hex, map_id: str) -> None:
    # The working is for display; the verdict comes from geometry.py. Disagreement is a bug.
    if shown != table:
        raise AssertionError(
            f"{what} from {a} to {t} on map {map_id}: the working says "
            f"{shown}, geometry.py's table {table}"
        )


def _levels(n: int) -> str:
    return f"{n} level{'' if n == 1 else 's'}"


def _verdict(x: LineHex, last: bool) -> str:
    words = {
        "below": "below the sight height",
        "at": "exactly at the sight height: does not block"
        + ("; next to the target: hard cover" if last else ""),
        "blocks": "above the sight height: BLOCKS",
        "off the board": "off the board: no line",
    }[x.verdict]
    return words + ("; foliage: soft cover" if x.terrain == "foliage" else "")


def board_text(b: Board) -> list[str]:
    """The map section of the working (003 H4, H5)."""
    out = [
        f"Board: map {b.map_id} ({b.map_name}); 003 H4 line of sight, H5 cover and high ground",
    ]
    for who, (col, row), ground, terrain in (
        ("attacker", b.attacker_hex, b.attacker_ground, b.attacker_terrain),
        ("target", b.target_hex, b.target_ground, b.target_terrain),
    ):
        out.append(f"  {who} at {col},{row}: ground level {ground}, {terrain}; eye {ground + 1}")
    out.append(f"  hex distance {b.distance} (the map's, in place of --range)")
    eye_a, eye_t = b.attacker_ground + 1, b.target_ground + 1
    if not b.line:
        out.append("  hex line: adjacent, no hex between: always in sight (003 H4)")
    else:
        out += [
            f"  hex line (003 H4): sight height from eye {eye_a} to eye {eye_t} over "
            f"{b.distance} steps; an intervening",
            "  hex blocks when its top (ground + obstacle) is above it, not when exactly at it",
        ]
        cells = [["step", "hex", "ground", "terrain", "top", "sight", ""]]
        for k, x in enumerate(b.line):
            where = "-" if x.verdict == "off the board" else f"{x.hex[0]},{x.hex[1]}"
            cells.append(
                [
                    str(x.step),
                    where,
                    str(x.ground),
                    x.terrain,
                    str(x.top),
                    expectation(x.sight),
                    _verdict(x, k == len(b.line) - 1),
                ]
            )
        out += ["  " + line for line in table(cells)]
    if not b.los:
        out.append("  line of sight: none")
        return out
    out.append("  line of sight: yes")
    if not b.hard_sources:
        out.append("  hard cover: none")
    elif b.hard_ignored:
        out.append(
            f"  hard cover: ignored from {_levels(b.climb)} above (two or more, H5); it would be:"
        )
    else:
        out.append("  hard cover (H5):")
    out += [f"    {why}" for why in b.hard_sources]
    out.append("  soft cover (H5):" if b.soft_sources else "  soft cover: none")
    out += [f"    {why}" for why in b.soft_sources]
    out.append(f"  cover: {b.cover} (only the best single cover applies, H5)")
    if b.high_ground:
        out.append(
            f"  high ground: {b.high_ground_dice}[+], the attacker stands "
            f"{_levels(b.climb)} above the target (H5)"
        )
    else:
        where = "level with" if b.climb == 0 else f"{_levels(-b.climb)} below"
        out.append(f"  high ground: none, the attacker stands {where} the target")
    return out
