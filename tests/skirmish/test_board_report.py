"""The Skirmish report's board sections (issue 15; analysis.skirmish.report): the runs the
report makes for them, with and without --set board, and the sentences and tables they
read from the hand-made store of tests/skirmish/test_queries.py, against values worked out
by hand."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from analysis.query import connect
from analysis.skirmish import report
from tests.core.test_query import wilson
from tests.skirmish.test_charts import tiny_map
from tests.skirmish.test_queries import board_store

HEADINGS = [
    "Where are battles won: zones, kills or Hull?",
    "Which map favours whom?",
    "Who holds the zones, round by round?",
    "Where do mechs stand and fall?",
    "How did the kit win rates move against the track?",
]
MAPS = ("open", "broken", "urban", "large_broken")


def pct(k: float, n: int) -> str:
    """A share and its Wilson interval as the report words them (reference wilson)."""
    low, high = (
        wilson(k, n)
        if 0 < k < n
        else ((0.0, wilson(k, n)[1]) if k == 0 else (wilson(k, n)[0], 1.0))
    )
    return f"{k / n:.1%} (95% {low:.1%} to {high:.1%})"


def fake_ctx(
    board: str, sets: dict[str, Any], maps: dict[str, Any] | None = None
) -> SimpleNamespace:
    catalog = SimpleNamespace(
        params=SimpleNamespace(board=board), maps=maps if maps is not None else dict.fromkeys(MAPS)
    )
    return SimpleNamespace(
        catalog=catalog,
        sets=sets,
        n=64_000,
        seed=1,
        jobs=2,
        catalog_root=Path("catalogs"),
        store=Path("data"),
    )


@pytest.mark.parametrize(
    ("board", "sets", "other", "fight_sets", "maps"),
    [
        ("broken", {}, {"board": "track"}, {}, ["open", "broken", "urban"]),
        # the report on the track compares it with the standard map
        ("track", {"board": "track"}, {"board": "broken"}, {}, ["open", "broken", "urban"]),
        # another map is swept too; other --set values ride along
        (
            "large_broken",
            {"board": "large_broken", "crit_margin": 3},
            {"board": "track", "crit_margin": 3},
            {"crit_margin": 3},
            ["open", "broken", "urban", "large_broken"],
        ),
    ],
)
def test_default_runs_add_the_track_duels_and_the_team_fights(
    monkeypatch: pytest.MonkeyPatch,
    board: str,
    sets: dict[str, Any],
    other: dict[str, Any],
    fight_sets: dict[str, Any],
    maps: list[str],
) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []

    def simulate(game: str, experiment: str, **kw: Any) -> SimpleNamespace:
        calls.append((experiment, kw))
        return SimpleNamespace(plan=SimpleNamespace(run_id=f"{experiment}-{len(calls)}"))

    monkeypatch.setattr(report, "simulate", simulate)
    runs = report.run_default_experiments(fake_ctx(board, sets))
    assert sorted(runs) == ["crit_margin", "duel", "duel_other", "team_cap", "teamfight"]
    by_run = {runs[k].plan.run_id: k for k in runs}
    kw = {by_run[f"{e}-{i}"]: c for i, (e, c) in enumerate(calls, 1)}
    assert kw["duel"]["sets"] == sets and kw["duel"]["n"] == 64_000
    assert kw["duel_other"]["sets"] == other and kw["duel_other"]["n"] == 64_000
    assert kw["teamfight"]["sweeps"] == {"board": maps}
    assert kw["teamfight"]["sets"] == fight_sets
    assert kw["teamfight"]["n"] == 4_000  # 64,000 / 16
    assert "options" not in kw["teamfight"]  # the rulebook's three teams, gunline


def test_no_team_fights_without_the_standard_maps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        report,
        "simulate",
        lambda game, experiment, **kw: SimpleNamespace(plan=SimpleNamespace(run_id=experiment)),
    )
    runs = report.run_default_experiments(fake_ctx("track", {}, maps={}))
    assert "teamfight" not in runs and runs["duel_other"].plan.run_id == "duel"
    assert report.board_sections(fake_ctx("track", {}), None, runs) == []


@pytest.fixture(scope="module")
def sections(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    store = board_store(tmp_path_factory.mktemp("board"))
    maps = {
        "open": tiny_map("open", 4, 4, ((1, 1), (2, 1))),
        "broken": tiny_map("broken", 5, 5, ((2, 2),)),
    }
    runs = {
        k: SimpleNamespace(plan=SimpleNamespace(run_id=r))
        for k, r in (("duel", "dm"), ("duel_other", "dt"), ("teamfight", "tf"))
    }
    con = connect(store, catalog=None)
    try:
        out = report.board_sections(fake_ctx("broken", {}, maps), con, runs)
    finally:
        con.close()
    return {s.heading: s for s in out}


def text(section: Any) -> str:
    """The section's HTML text (its charts left out), tags dropped."""
    return re.sub(r"<[^>]+>", " ", "".join(c for c in section.content if isinstance(c, str)))


def test_board_section_headings_and_tables(sections: dict[str, Any]) -> None:
    assert list(sections) == HEADINGS
    tables = {h: sorted(s.data) for h, s in sections.items()}
    assert tables == {
        HEADINGS[0]: ["decided_by_map"],
        HEADINGS[1]: ["team_scores_by_map", "win_rates_by_map"],
        HEADINGS[2]: ["zone_control"],
        HEADINGS[3]: ["positions"],
        HEADINGS[4]: ["kit_moves"],
    }
    for section in sections.values():  # every section draws a chart
        assert [type(c).__name__ for c in section.content if not isinstance(c, str)]
    decided = sections[HEADINGS[0]].data["decided_by_map"]
    assert decided.select("fight", "run", "board").unique(maintain_order=True).rows() == [
        ("team fights", "tf", "broken"),
        ("team fights", "tf", "open"),
        ("duels", "dm", "broken"),
        ("duels", "dt", "track"),
    ]


def test_decided_sentences(sections: dict[str, Any]) -> None:
    page = text(sections[HEADINGS[0]])
    # open: wipe B1, zones B2 B4 B7, kills B3, Hull B5, draw B6 of 7
    assert (
        f"Team fights on open (run tf, 7 battles): decided by wipe {pct(1, 7)}, on points "
        f"by zones {pct(3, 7)}, on points by kills {pct(1, 7)}, on Hull {pct(1, 7)}, "
        f"drawn {pct(1, 7)}."
    ) in page
    # the track duels: no points win by zones
    assert (
        f"Duels on track (run dt, 4 battles): decided by wipe {pct(1, 4)}, on points by "
        f"zones {pct(0, 4)}, on points by kills {pct(1, 4)}"
    ) in page
    assert "0.0% (95% 0.0% to 49.0%)" in page  # 0 of 4: Wilson's upper end 0.4899


def test_map_sentences(sections: dict[str, Any]) -> None:
    page = text(sections[HEADINGS[1]])
    # open: t1 3.5 of 6, t2 2.5 of 6, the intervals overlap
    assert (
        f"On open (run tf): The data cannot decide between t1, {pct(3.5, 6)}, and t2, "
        f"{pct(2.5, 6)}: their 95% intervals overlap."
    ) in page
    # side A on open: 1 (the mirror) + 2 + 1 + a draw = 4.5 of 7
    assert (
        f"On open (run tf), side A scores {pct(4.5, 7)} over all 7 team fights, mirrors "
        f"included: the data cannot tell it from an even 50%."
    ) in page
    # t1 and t2 both move 1/12 between the maps: the first by name is named
    assert (
        f"The map matters most to t1 (run tf): {pct(1, 2)} on broken against "
        f"{pct(3.5, 6)} on open: their 95% intervals overlap"
    ) in page


def test_zone_sentences(sections: dict[str, Any]) -> None:
    page = text(sections[HEADINGS[2]])
    # open, round 3: A 2, 1, 0, 1, 0, 1 (mean 5/6, half-width 1.96 sqrt(17/180) = 0.602);
    # B 0, 1, 1, 1, 0, 0 (mean 1/2, half-width 1.96 sqrt(0.3 / 6) = 0.438)
    assert (
        "On open at the end of round 3 (run tf, 6 battles still running): the data cannot "
        "decide between side A, 0.83 (95% 0.23 to 1.44), and side B, 0.50 (95% 0.06 to "
        "0.94): their 95% intervals overlap."
    ) in page
    # broken: one battle still running after round 1 has no interval, so no sentence
    assert "On broken" not in page


def test_position_sentences(sections: dict[str, Any]) -> None:
    page = text(sections[HEADINGS[3]])
    # open: 28 mechs, 3 destroyed; of 25 standing, 13 on the zone hexes (1, 1) and (2, 1)
    assert (
        f"On open (run tf): {pct(3, 28)} of the 28 mechs are destroyed; of those still "
        f"standing, {pct(13, 25)} end inside a zone."
    ) in page
    # broken: 8 mechs, 3 destroyed; of 5 standing, 1 on the zone hex (2, 2)
    assert f"On broken (run tf): {pct(3, 8)} of the 8 mechs are destroyed; of those " in page
    assert f"standing, {pct(1, 5)} end inside a zone." in page


def test_move_sentences(sections: dict[str, Any]) -> None:
    page = text(sections[HEADINGS[4]])
    # k1: 1.5 of 4 on the track, 2 of 3 on broken: +29.2 points, half-width
    # 1.96 sqrt((2/3)(1/3)/3 + 0.375 * 0.625 / 4) = 0.7139
    assert (
        f"On broken against the track (runs dm and dt), the kits that gain most: k1 from "
        f"{pct(1.5, 4)} to {pct(2, 3)}, +29.2 points (95% -42.2 to +100.6): the interval "
        f"holds 0, the data cannot decide whether it moved."
    ) in page
    assert (
        f"the kits that lose most: k2 from {pct(2.5, 4)} to {pct(1, 3)}, -29.2 points "
        f"(95% -100.6 to +42.2)"
    ) in page
