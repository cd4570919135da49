"""The Skirmish notebooks: stored clean, each opening with its question, and each running
top to bottom with a small N into a temporary store, in a kernel of this venv's Python
(tests/notebooks.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.notebooks import (  # noqa: F401  (venv_kernel is a fixture)
    NOTEBOOKS,
    assert_stored_clean,
    chart_outputs,
    printed,
    run_small,
    venv_kernel,
)

PATHS = sorted(NOTEBOOKS.glob("skirmish_*.ipynb"))  # each game tests its own
SMALL_N = 1600


def test_the_notebooks_are_there() -> None:
    names = {p.name for p in PATHS}
    assert {
        "skirmish_hit_bands.ipynb",
        "skirmish_crit_margin.ipynb",
        "skirmish_board.ipynb",
    } <= names


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_stored_clean_and_open_with_a_question(path: Path) -> None:
    assert_stored_clean(path)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_runs_with_a_small_n(
    path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    venv_kernel: Path,  # noqa: F811
) -> None:
    store = tmp_path / "data"
    nb = run_small(path, store, SMALL_N, monkeypatch, venv_kernel)
    assert chart_outputs(nb) >= CHARTS.get(path.stem, 1), "a chart is missing from the outputs"
    assert any(store.glob("skirmish/*/run=*/manifest.json")), "nothing simulated into the store"
    text = printed(nb)
    for line in CONCLUSIONS.get(path.stem, ()):  # a small N reads as what it is
        assert line in text, line
    if path.stem in READINGS:  # what its printed readings must satisfy
        READINGS[path.stem](text)


# What a notebook run with SMALL_N must print: its readings are a preview, of a sample,
# with intervals; and where those overlap, that the data cannot decide.
CONCLUSIONS = {
    "skirmish_team_cap": (
        "PREVIEW: ",
        "These are 6 of the 36 legal kit teams, a sample",
        "Teams with a Heavy rate ",
        "(95% ",
    ),
    "skirmish_crit_margin": ("Simulated at margin 4: ", "comes nearest one third: ", "(95% "),
}


# ---- skirmish_board: the team fights on the maps and the duels on a map and the track ----

# Charts a notebook draws (each in its own cell), where it draws more than one.
CHARTS = {"skirmish_board": 5}  # decided, scores by map, zone control, positions, kit moves

BOARD_MAPS = {"open", "broken", "urban"}  # the notebook's MAPS
KITS = {"bastion", "courier", "foreman", "harrier", "lancer", "reaver", "skiff", "warden"}
HOW = ["wipe", "zones", "kills", "hull", "draw"]  # queries.decided_by_map, in its order
# With SMALL_N = 1600 the team fights get 1600 // 16 = 100 battles over 3 maps x 9 ordered
# team pairs x 4 ordered policy pairs = 108 cells, ceil(100 / 108) = 1 battle each: 36 per
# map, 6 mechs each (216). The duels: 1600 over 8 x 8 kit pairs = 64 cells, 25 each, 1600
# per board; a kit plays 7 other kits x 2 seats x 25 = 350 duels per board (mirrors out).
FIGHTS_PER_MAP, MECHS_PER_MAP = 36, 216
DUELS_PER_BOARD, DUELS_PER_KIT = 1600, 350

DECIDED = re.compile(r"(team fights|duels) on (\w+) \(([\d,]+) battles\): (.*)")
WAY = re.compile(r"(\w+) ([\d,]+) = ([\d.]+)% \(95% ([\d.]+)% to ([\d.]+)%\)")
HELD = re.compile(
    r"On (\w+), mean zones held at the end of rounds (\d+) to (\d+): "
    r"side A (.*); side B (.*)"
)
ENDS = re.compile(r"On (\w+): ([\d,]+) mechs (standing|destroyed), ([\d,]+) of them in a zone")
MOVE = re.compile(
    r"(\w+): ([\d.]+)% of ([\d,]+) duels on the track, ([\d.]+)% of ([\d,]+) "
    r"on (\w+): change ([+-][\d.]+) \(95% ([+-][\d.]+) to ([+-][\d.]+)\) points"
)


def _count(text: str) -> int:
    return int(text.replace(",", ""))


def _lines(pattern: re.Pattern[str], text: str) -> list[tuple[str, ...]]:
    return [m.groups() for line in text.splitlines() if (m := pattern.fullmatch(line))]


def read_board(text: str) -> None:
    """skirmish_board's printed readings: how battles were decided, zone control by round,
    where mechs ended and how each kit's duel score moved, against counts derived by hand."""
    decided: dict[tuple[str, str], dict[str, int]] = {}
    for fight, board, battles, ways in _lines(DECIDED, text):
        parts = [WAY.fullmatch(p) for p in ways.split("; ")]
        assert all(parts), ways
        rows = [m.groups() for m in parts if m]
        assert [r[0] for r in rows] == HOW, ways
        games = {r[0]: _count(r[1]) for r in rows}
        assert sum(games.values()) == _count(battles), ways  # every battle decided one way
        assert abs(sum(float(r[2]) for r in rows) - 100) <= 0.25, ways  # five 0.1% roundings
        assert all(float(r[3]) <= float(r[2]) <= float(r[4]) for r in rows), ways
        decided[fight, board] = {"battles": _count(battles), **games}
    assert set(decided) == {("team fights", m) for m in BOARD_MAPS} | {
        ("duels", "broken"),
        ("duels", "track"),
    }
    for m in BOARD_MAPS:
        assert decided["team fights", m]["battles"] == FIGHTS_PER_MAP
    for board in ("broken", "track"):
        assert decided["duels", board]["battles"] == DUELS_PER_BOARD
        assert decided["duels", board]["kills"] == 0  # in a duel the one kill is a wipe (I4)
    assert decided["duels", "track"]["zones"] == 0  # the track has no zones

    held = _lines(HELD, text)
    assert {h[0] for h in held} == BOARD_MAPS and len(held) == 3
    for board, first, last, side_a, side_b in held:
        assert (first, last) == ("1", "7"), board  # zones scored at the end of rounds 1..7
        a, b = ([float(v) for v in s.split(", ")] for s in (side_a, side_b))
        assert len(a) == len(b) == 7, board
        # 003 H: a zone is held by one side alone, and there are three
        assert all(0 <= x and 0 <= y and x + y <= 3.01 for x, y in zip(a, b, strict=True)), board

    ends: dict[str, dict[str, tuple[int, int]]] = {}
    for board, mechs, state, in_zone in _lines(ENDS, text):
        assert _count(in_zone) <= _count(mechs)
        ends.setdefault(board, {})[state] = (_count(mechs), _count(in_zone))
    assert set(ends) == BOARD_MAPS
    for board, by_state in ends.items():  # every mech counted once, standing or destroyed
        assert sum(m for m, _ in by_state.values()) == MECHS_PER_MAP, board

    moves = _lines(MOVE, text)
    assert {m[0] for m in moves} == KITS and len(moves) == len(KITS)
    changes = [float(m[6]) for m in moves]
    assert changes == sorted(changes, reverse=True)  # kits listed by change, largest first
    for kit, base, base_n, score, n, board, change, low, high in moves:
        assert board == "broken" and _count(base_n) == _count(n) == DUELS_PER_KIT, kit
        assert abs(float(score) - float(base) - float(change)) <= 0.15, kit  # 0.1 roundings
        assert float(low) <= float(change) <= float(high), kit
    # each duel between two kits hands out one point of score: with equal duels per kit, the
    # kits' mean score is one half on either board (eight 0.1% roundings)
    for column in (1, 3):
        assert abs(sum(float(m[column]) for m in moves) - 50 * len(KITS)) <= 0.4


READINGS: dict[str, Callable[[str], None]] = {"skirmish_board": read_board}
