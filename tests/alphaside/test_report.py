"""The ALPHASIDE report: its queries, readings, damage per TL, time to defeat, weapons and
flags on a round robin made by hand (known scores, Wilson intervals and ratios), the exact
dice odds on a hand-made hits table, then the page built end to end on a small ``duel``
and ``squads`` run (a chart in each section, every chart rendering to SVG offline, the
tables behind them carrying their run) and opened in a headless Chromium.

The hand-made round robin: units A, B, C, 10 games a cell, (side a wins, side b wins):

    AA 5 5   AB 8 2   AC 9 1
    BA 3 7   BB 4 6   BC 6 4
    CA 2 8   CB 5 5   CC 6 4

A side that wins scored 3 VP, dealt 6 damage for 4 TL with weapon slot 0 and first
defeated the enemy at time 4 + game % 3; a side that loses scored 1 VP and dealt 2 damage
for 3 TL with slot 1 (C carries one weapon: everything in slot 0), no defeat. Pooled from
each unit's seat: A against B wins 8 + 7 of 20, A against C 9 + 8, B against C 6 + 5.
Over the round robin (mirrors left out) A wins 8 + 7 + 9 + 8 = 32 of 40, B 16, C 12.
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import polars as pl
import pytest

from analysis.alphaside import flags, queries, report
from analysis.flags import Limit
from analysis.query import MACROS
from analysis.readings import wilson
from tests.registration import installed

CELLS = {
    ("A", "A"): (5, 5),
    ("A", "B"): (8, 2),
    ("A", "C"): (9, 1),
    ("B", "A"): (3, 7),
    ("B", "B"): (4, 6),
    ("B", "C"): (6, 4),
    ("C", "A"): (2, 8),
    ("C", "B"): (5, 5),
    ("C", "C"): (6, 4),
}
WEAPONS = {"A": ("gun", "saw"), "B": ("gun", "pike"), "C": ("claw",)}
RUN = "r1"


def _side(won: bool, unit: str, game: int) -> dict:
    d, t = (6, 4) if won else (2, 3)
    slot = 0 if won or len(WEAPONS[unit]) == 1 else 1
    return {
        "vp": 3 if won else 1,
        "damage": d,
        "tl_attack": t,
        "attacks": 2 if won else 1,
        "hits": 4 if won else 1,
        "crits": 1 if won else 0,
        "activations": 5,
        "first_defeat": 4 + game % 3 if won else 0,
        "damage_w0": d if slot == 0 else 0,
        "tl_w0": t if slot == 0 else 0,
        "damage_w1": d if slot == 1 else 0,
        "tl_w1": t if slot == 1 else 0,
    }


def rows(key: str = "unit") -> pl.DataFrame:
    """One row per game, winner as the views label it."""
    out = []
    for (a, b), (wins_a, wins_b) in CELLS.items():
        for g in range(wins_a + wins_b):
            won_a = g < wins_a
            row = {
                "run": RUN,
                f"{key}_a": a,
                f"{key}_b": b,
                "game": g,
                "winner": "a" if won_a else "b",
            }
            for side, unit, won in (("a", a, won_a), ("b", b, not won_a)):
                row.update({f"{k}_{side}": v for k, v in _side(won, unit, g).items()})
            row["defeats_a"], row["defeats_b"] = int(not won_a), int(won_a)
            out.append(row)
    return pl.DataFrame(out)


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    c.execute(MACROS)
    duel, squads = rows(), rows("squad")  # noqa: F841  (DuckDB reads the frames by name)
    c.execute("CREATE TABLE duel_rows AS SELECT * FROM duel")
    c.execute("CREATE VIEW duel AS SELECT * FROM duel_rows")
    c.execute("CREATE TABLE squad_rows AS SELECT * FROM squads")
    c.execute("CREATE VIEW squads AS SELECT * FROM squad_rows")
    yield c
    c.close()


def one(frame: pl.DataFrame, **keys) -> dict:
    for k, v in keys.items():
        frame = frame.filter(pl.col(k) == v)
    assert frame.height == 1, keys
    return frame.row(0, named=True)


def ratio(d: list[float], t: list[float]) -> tuple[float, float]:
    """The ratio estimator and its delta-method standard error, written out."""
    d, t = np.asarray(d, float), np.asarray(t, float)
    r = d.sum() / t.sum()
    n = len(d)
    return r, math.sqrt(((d - r * t) ** 2).sum() * n / (n - 1)) / t.sum()


# ---- the queries ---------------------------------------------------------------------------


def test_cells_are_side_a_scores_with_wilson_intervals(con):
    cells = queries.cells(con, "duel")
    assert cells.height == 9 and set(cells["games"]) == {10}
    ab = one(cells, unit_a="A", unit_b="B")
    assert (ab["wins_a"], ab["losses_a"], ab["score_a"]) == (8, 2, pytest.approx(0.8))
    assert (ab["score_low"], ab["score_high"]) == pytest.approx(wilson(8, 10))
    assert ab["mean_vp_a"] == pytest.approx(0.8 * 3 + 0.2 * 1)
    assert (ab["damage_a"], ab["tl_attack_a"], ab["damage_b"]) == (52, 38, 28)


def test_matchups_pool_both_cells_from_each_seat(con):
    m = queries.matchups(con, "duel")
    assert m.height == 9
    ab = one(m, unit="A", opponent="B")
    assert (ab["games"], ab["wins"], ab["losses"]) == (20, 15, 5) and not ab["mirror"]
    assert ab["score"] == pytest.approx(0.75)
    assert (ab["low"], ab["high"]) == pytest.approx(wilson(15, 20))
    assert (ab["damage"], ab["tl"], ab["defeats"]) == (100, 75, pytest.approx(0.75))
    assert ab["vp"] == pytest.approx(2.5) and ab["vp_against"] == pytest.approx(1.5)
    half = 1.96 * np.std([3] * 15 + [1] * 5, ddof=1) / math.sqrt(20)
    assert (ab["vp_low"], ab["vp_high"]) == pytest.approx((2.5 - half, 2.5 + half))
    assert ab["crit_share"] == pytest.approx(15 / (15 * 4 + 5))
    assert one(m, unit="A", opponent="C")["score"] == pytest.approx(17 / 20)
    assert one(m, unit="B", opponent="C")["score"] == pytest.approx(11 / 20)
    mirror = one(m, unit="C", opponent="C")
    assert mirror["mirror"] and mirror["games"] == 10 and mirror["wins"] == 6
    assert (mirror["score"], mirror["low"], mirror["high"]) == (0.5, 0.5, 0.5)
    # the matrix adds up: X's score against Y and Y's against X make 1
    assert one(m, unit="C", opponent="B")["score"] == pytest.approx(9 / 20)


def test_standings_leave_the_mirrors_out(con):
    s = queries.standings(con, "duel")
    a = one(s, unit="A")
    assert (a["games"], a["wins"], a["losses"]) == (40, 32, 8)
    assert (a["score"], a["low"], a["high"]) == pytest.approx((0.8, *wilson(32, 40)))
    assert [one(s, unit=u)["wins"] for u in "BC"] == [16, 12]
    assert s["score"].sum() == pytest.approx(1.5)  # every game's point is shared out
    r, se = ratio([6] * 32 + [2] * 8, [4] * 32 + [3] * 8)
    assert (a["damage"], a["tl"]) == (208, 152)
    assert a["damage_per_tl"] == pytest.approx(r)
    assert (a["dpt_low"], a["dpt_high"]) == pytest.approx((r - 1.96 * se, r + 1.96 * se))


def test_side_a_is_the_first_sides_edge(con):
    side = queries.side_a(con, "duel").row(0, named=True)
    assert (side["games"], side["wins_a"], side["wins_b"]) == (90, 48, 42)
    assert side["score_a"] == pytest.approx(48 / 90) and side["level_share"] == 0
    text = report.side_sentence(queries.side_a(con, "duel"), "engagements")
    assert "53.3% (95% " in text and "cannot tell the seats apart" in text


def test_damage_per_tl_is_a_ratio_estimator_with_a_delta_method_interval(con):
    d = queries.damage_per_tl(con, "duel")
    ab = one(d, unit="A", opponent="B")
    r, se = ratio([6] * 15 + [2] * 5, [4] * 15 + [3] * 5)
    assert r == pytest.approx(4 / 3)
    assert (ab["damage"], ab["tl"], ab["damage_per_tl"]) == (100, 75, pytest.approx(r))
    assert ab["se"] == pytest.approx(se)
    assert (ab["low"], ab["high"]) == pytest.approx((r - 1.96 * se, r + 1.96 * se))
    assert ab["attacked_share"] == 1.0
    aa = one(d, unit="A", opponent="A")  # a mirror: side a's games only
    assert (aa["games"], aa["damage"], aa["tl"]) == (10, 40, 35)


def test_weapons_map_slots_to_the_units_weapons_beside_the_exact(con):
    exact = pl.DataFrame(
        {
            "weapon": ["gun", "gun", "saw", "claw"],
            "unit": ["B", "C", "B", "A"],
            "p_defeat": ["1/2", "1/4", "0", "1"],
            "p_defeat_float": [0.5, 0.25, 0.0, 1.0],
            "expected_damage": ["3", "2", "1", "4"],
            "expected_damage_float": [3.0, 2.0, 1.0, 4.0],
            "damage_per_tl": ["1", "2/3", "1/3", "2"],
            "damage_per_tl_float": [1.0, 2 / 3, 1 / 3, 2.0],
        }
    )
    per = report.weapon_frame(queries.weapons(con, "duel"), WEAPONS, exact)
    # 3 opponents x (A 2 slots, B 2 slots, C 1): C's empty slot dropped
    assert per.height == 15 and per.columns[:4] == ["run", "unit", "weapon", "slot"]
    gun = one(per, unit="A", opponent="B", weapon="gun")
    # slot 0 fires only in A's 15 wins: 6 damage for 4 TL each, no spread
    assert (gun["damage"], gun["tl"], gun["used_share"]) == (90, 60, 0.75)
    assert (gun["damage_per_tl"], gun["se"]) == (pytest.approx(1.5), pytest.approx(0.0))
    assert (gun["exact_per_tl"], gun["exact_p_defeat"]) == (1.0, 0.5)
    saw = one(per, unit="A", opponent="B", weapon="saw")
    assert (saw["damage"], saw["tl"], saw["exact_per_tl"]) == (10, 15, pytest.approx(1 / 3))
    claw = one(per, unit="C", opponent="A")
    assert (claw["weapon"], claw["damage"], claw["tl"]) == ("claw", 3 * 6 + 17 * 2, 3 * 4 + 17 * 3)
    assert claw["exact_per_tl"] == 2.0
    assert one(per, unit="B", opponent="A", weapon="gun")["exact_per_tl"] is None
    totals = report.weapon_frame(queries.weapons(con, "duel", per_opponent=False), WEAPONS, exact)
    assert totals.height == 5 and "opponent" not in totals.columns
    a_gun = one(totals, unit="A", weapon="gun")
    # the mirror from side a only: 5 + 8 + 9 + 7 + 8 wins
    assert (a_gun["damage"], a_gun["tl"], a_gun["games"]) == (37 * 6, 37 * 4, 50)
    assert a_gun["exact_per_tl"] == pytest.approx((1 + 2 / 3) / 2)  # mean over the units
    text = report.weapon_sentence(totals)
    assert text.startswith(
        "The data cannot decide which weapon is best per Timeline space spent on it: "
    )  # A's and B's gun both deal exactly 1.5


def test_time_to_defeat_median_with_its_interval(con):
    times = queries.defeat_times(con, "duel")
    assert times.filter(pl.col("unit") == "A", pl.col("opponent") == "B")["games"].sum() == 20
    ttd = report.time_to_defeat(times)
    ab = one(ttd, unit="A", opponent="B")
    # 15 defeats: at time 4 six times, 5 five times, 6 four times
    assert (ab["games"], ab["defeats"], ab["share"]) == (20, 15, 0.75)
    assert (ab["share_low"], ab["share_high"]) == pytest.approx(wilson(15, 20))
    assert (ab["median"], ab["median_low"], ab["median_high"]) == (5.0, 4.0, 6.0)
    assert ab["mean"] == pytest.approx((6 * 4 + 5 * 5 + 4 * 6) / 15)
    assert report.median_interval({1: 1, 2: 1, 3: 1, 4: 1}) == (2.5, 1.0, 4.0)
    assert report.median_interval({7: 1}) == (7.0, 7.0, 7.0)
    assert all(math.isnan(x) for x in report.median_interval({}))
    none = report.time_to_defeat(
        pl.DataFrame({"run": ["r"], "unit": ["X"], "opponent": ["Y"], "time": [0], "games": [5]})
    )
    row = none.row(0, named=True)
    assert (row["defeats"], row["share"], row["median"]) == (0, 0.0, None)
    assert report.defeat_table(none, ["X", "Y"]).rows() == [("X", "none")]


def test_squads_read_vp_with_intervals(con):
    m = queries.matchups(con, "squads", "squad")
    ab = one(m, squad="A", opponent="B")
    assert (ab["vp"], ab["vp_against"], ab["margin"]) == pytest.approx((2.5, 1.5, 1.0))
    spread = np.std([2] * 15 + [-2] * 5, ddof=1) * 1.96 / math.sqrt(20)
    assert (ab["margin_low"], ab["margin_high"]) == pytest.approx((1 - spread, 1 + spread))
    table = report.squad_table(m, ["A", "B", "C"])
    assert table.row(0) == ("A", "VP 2.0–2.0, mirror", "VP 2.5–1.5, 75%", "VP 2.7–1.3, 85%")
    with pytest.raises(ValueError, match="key must be one of unit, squad"):
        queries.cells(con, "squads", "team")


# ---- readings and flags -------------------------------------------------------------------


def test_best_and_worst_say_when_the_data_cannot_decide(con):
    s = queries.standings(con, "duel")
    best = report.extreme_sentence(s, best=True)
    assert best.startswith(
        "A scores highest, 80.0% (95% 65.2% to 89.5%) over the round "
        "robin, clear of every other: the best unit (the next, B, 40.0% "
        "(95% "
    )
    worst = report.extreme_sentence(s, best=False)
    assert worst.startswith(
        "The data cannot decide which unit is worst over the round robin: "
        "C scores lowest, 30.0% (95% "
    )
    assert "overlap it (B, 40.0% (95% " in worst
    tl = report.unit_tl_sentence(s)
    assert tl == (
        "A deals highest, 1.37 (95% 1.28 to 1.46) per Timeline space spent "
        "attacking, clear of every other: the best unit (the next, B, 1.06 (95% 0.93 "
        "to 1.19))."
    )  # 208 / 152 against 144 / 136
    assert report.leader_sentence(s.head(0), "unit") == "No unit to compare."


def test_flags_only_when_the_whole_interval_is_outside(con):
    s = queries.standings(con, "duel")
    limit = Limit("unit_score", "m", 0.50, 0.55, "assumed")
    out = flags.score_flags(s, limit, "run r1")
    # A 32/40 (95% 65.2% to 89.5%): above; C 12/40 (95% 18.1% to 45.4%): below; B straddles
    assert [(f.subject, f.limit) for f in out] == [("A", "unit_score"), ("C", "unit_score")]
    assert "above the limit of 55.0%" in out[0].sentence and "(95% interval" in out[0].sentence
    assert "below the limit of 50.0%" in out[1].sentence and "run r1" in out[1].evidence
    assert out[0].value == 0.8 and "40 engagements from A's seat" in out[0].evidence
    wide = Limit("unit_score", "m", 0.30, 0.55, "assumed")  # C's interval reaches inside
    assert [f.subject for f in flags.score_flags(s, wide, "")] == ["A"]
    # A's 80.0% is above a limit of 66% but its interval (from 65.2%) reaches inside
    high = Limit("unit_score", "m", 0.50, 0.66, "assumed")
    assert [f.subject for f in flags.score_flags(s, high, "")] == ["C"]


def test_matrix_and_damage_tables_read_in_order(con):
    m = queries.matchups(con, "duel")
    table = report.matrix_table(m, ["A", "B", "C"])
    assert table.columns == ["unit", "A", "B", "C"]
    assert table.row(0)[:2] == ("A", "50% mirror") and table.row(0)[2].startswith("75% (")
    d = report.damage_table(queries.damage_per_tl(con, "duel"), ["C", "A", "B"])
    assert d.columns == ["unit", "C", "A", "B"] and d["unit"].to_list() == ["C", "A", "B"]
    assert d.row(1)[3].startswith("1.33 (")  # A against B: 100 / 75


# ---- the exact dice odds ---------------------------------------------------------------------


def test_at_least_hits_from_the_joint_table():
    # one die hits 3 in 5 (a crit 1 in 5); two dice: the joint of two such dice
    hits = pl.DataFrame(
        [
            (1, 0, 0, 0.4),
            (1, 1, 0, 0.4),
            (1, 1, 1, 0.2),
            (2, 0, 0, 0.16),
            (2, 1, 0, 0.32),
            (2, 1, 1, 0.16),
            (2, 2, 0, 0.16),
            (2, 2, 1, 0.16),
            (2, 2, 2, 0.04),
        ],
        schema=["dice", "hits", "crits", "p_float"],
        orient="row",
    ).with_columns(accuracy=pl.lit(0), crit_from=pl.lit(9), p=pl.lit("x"))
    odds = report.at_least_hits(hits)
    assert odds.select("dice", "k").rows() == [(1, 1), (2, 1), (2, 2)]
    assert odds["p_at_least"].to_list() == pytest.approx([0.6, 0.84, 0.36])
    assert odds["mean_hits"].to_list() == pytest.approx([0.6, 1.2, 1.2])
    assert odds["p_crit"].to_list() == pytest.approx([0.2, 0.36, 0.36])
    defeat = pl.DataFrame(
        {
            "dice": [1],
            "accuracy": [0],
            "crit_from": [9],
            "shields": [0],
            "hp": [1],
            "p_defeat": ["3/5"],
            "p_defeat_float": [0.6],
        }
    )
    assert report.defeat_odds(defeat)["p_defeat"].to_list() == [0.6]


def test_mean_damage_through_shields():
    # one die: no hit 0.4, one hit 0.6; behind a Shield it deals nothing
    damage = pl.DataFrame(
        [
            (1, 0, 0, 0, 0.4),
            (1, 0, 0, 1, 0.6),
            (1, 0, 1, 0, 1.0),
            (2, 0, 0, 0, 0.16),
            (2, 0, 0, 1, 0.48),
            (2, 0, 0, 2, 0.36),
            (2, 0, 1, 0, 0.64),
            (2, 0, 1, 1, 0.36),
            (1, 1, 0, 1, 1.0),
        ],
        schema=["dice", "accuracy", "shields", "damage", "p_float"],
        orient="row",
    ).with_columns(effect=pl.lit("plain"), p=pl.lit("x"))
    table = report.mean_damage(damage)
    assert table.columns == ["dice", "shields_0", "shields_1"]
    assert table.rows() == [
        (1, pytest.approx(0.6), 0.0),
        (2, pytest.approx(1.2), pytest.approx(0.36)),
    ]


def test_charts_build_from_the_hand_made_frames(con):
    import altair as alt

    from analysis.alphaside import charts

    m = queries.matchups(con, "duel")
    built = [
        charts.matchup_heatmap(m, "c"),
        charts.standings_chart(queries.standings(con, "duel"), "c", None, (0.3, 0.7)),
        charts.damage_heatmap(queries.damage_per_tl(con, "duel"), "c"),
        charts.defeat_time_heatmap(report.time_to_defeat(queries.defeat_times(con, "duel")), "c"),
        charts.weapons_chart(
            report.weapon_label(
                report.weapon_frame(queries.weapons(con, "duel", per_opponent=False), WEAPONS)
            ),
            "c",
        ),
        charts.squad_heatmap(queries.matchups(con, "squads", "squad"), "c"),
    ]
    for chart in built:
        assert isinstance(chart, alt.TopLevelMixin)
        chart.to_dict()  # a valid Vega-Lite spec
    with pytest.raises(ValueError, match="2 rows for unit A"):
        charts.matchup_heatmap(pl.concat([m, m]), "c")


# ---- the page, end to end on a small run ---------------------------------------------------

HEADINGS = [
    "What should a designer know first?",
    "The matchup matrix: how does each unit fare against each other?",
    "Damage per Timeline space: what does each unit deal for the TL it spends?",
    "Time to defeat: how soon does each unit first defeat each other?",
    "Which weapons deal the most per Timeline space spent?",
    "Squads: how many VP does each squad score over a game?",
    "The exact dice odds: how many hits does an attack roll?",
    "The exact odds of a defeat: one attack against HP and Shields",
]
N = 64 * 20  # engagements: 20 a cell over the 64 ordered pairs of the 8 units (squads: 1/4)


def _registered() -> None:
    installed("alphaside")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from analysis.flags import load_limits
    from analysis.plugin import ReportContext, get_analysis
    from sims.core.protocol import get_game
    from tests.conftest import CATALOGS

    _registered()
    game = get_game("alphaside")
    catalog = game.load_catalog(CATALOGS)
    limits = load_limits(CATALOGS / "alphaside" / "limits.toml", flags.LIMITS)
    tmp = tmp_path_factory.mktemp("alphaside")
    ctx = ReportContext(
        game=game,
        catalog=catalog,
        catalog_root=CATALOGS,
        claims=[],
        frames=game.exact(catalog),
        limits=limits,
        store=tmp / "data",
        reports_dir=tmp / "reports",
        n=N,
        seed=3,
        jobs=1,
    )
    analysis = get_analysis("alphaside")
    runs = analysis.default_runs(ctx)
    return ctx, runs, analysis.page(ctx, runs)


def pieces(section) -> list:
    body = section.content
    return list(body) if isinstance(body, list | tuple) else [body]


def test_page_has_its_sections_each_with_a_chart_and_its_run(built):
    import altair as alt

    ctx, runs, page = built
    duel, squads = runs["duel"].plan.run_id, runs["squads"].plan.run_id
    assert [s.heading for s in page.sections] == HEADINGS
    for section in page.sections:
        charts = [p for p in pieces(section) if isinstance(p, alt.TopLevelMixin)]
        assert len(charts) == 1, section.heading
        for name, frame in section.data.items():
            want = squads if name.startswith("squad") else duel
            assert frame["run"].unique().to_list() == [want], name
    matchups = page.sections[1].data["matchups"]
    assert matchups.height == 64 and matchups["mirror"].sum() == 8
    other = matchups.filter(~pl.col("mirror"))
    assert set(other["games"]) == {40}  # both cells of a matchup, 20 games each
    assert ((other["low"] <= other["score"]) & (other["score"] <= other["high"])).all()
    back = other.join(other, left_on=["unit", "opponent"], right_on=["opponent", "unit"])
    assert (back["score"] + back["score_right"]).to_list() == pytest.approx([1.0] * 56)
    standings = page.sections[0].data["standings"]
    assert standings.height == 8 and set(standings["games"]) == {280}  # 7 others, no mirror
    text = "".join(p for p in pieces(page.sections[0]) if isinstance(p, str))
    assert "scores highest, " in text and "scores lowest, " in text
    assert "(95% " in text and "Side a " in text and "per Timeline space" in text
    damage = page.sections[2].data["damage_per_tl"].drop_nulls("damage_per_tl")
    assert (
        (damage["low"] <= damage["damage_per_tl"]) & (damage["damage_per_tl"] <= damage["high"])
    ).all()
    defeat = page.sections[3].data["time_to_defeat"]
    assert defeat.height == 64 and defeat["median"].drop_nulls().is_between(1, 20).all()
    weapons = page.sections[4].data["weapons"]
    for r in weapons.select("unit", "slot", "weapon").unique().iter_rows(named=True):
        assert ctx.catalog.units[r["unit"]].weapons[r["slot"]] == r["weapon"]
    assert weapons["exact_per_tl"].is_not_null().all()
    squad = page.sections[5].data["squad_matchups"]
    assert squad.height == len(ctx.catalog.squads) ** 2
    for flag in page.flags:
        assert flag.limit == "unit_score" and "95% " in flag.sentence
        assert duel in flag.evidence


def test_every_chart_renders_to_svg_offline(built):
    from analysis.report import lay_out, render_charts

    ctx, runs, page = built
    laid = lay_out(ctx, page)
    assert f"run {runs['duel'].plan.run_id}" in laid.html
    assert {
        "standings",
        "matchups",
        "cells",
        "damage_per_tl",
        "time_to_defeat",
        "weapons",
        "weapon_totals",
        "squad_matchups",
        "flags",
    } <= set(laid.files)
    images = render_charts(laid.charts)
    assert len(images) == 2 * len(HEADINGS)
    for name, data in images.items():
        if name.endswith(".svg"):
            assert data.lstrip().startswith(b"<svg"), name


def test_report_renders_every_chart_offline_in_chromium(built, tmp_path):
    from analysis.report import build_report
    from tests.browser import opened
    from tests.conftest import CATALOGS, ROOT

    ctx, _, _ = built
    out = tmp_path / "reports"
    build_report(["alphaside"], CATALOGS, out, store=ctx.store, n=N, seed=3, jobs=1)
    with opened(out / "alphaside.html") as seen:
        page = seen.page
        seen.wait_for_charts(len(HEADINGS))
        # the dice odds' pickers are inputs on the page, and moving one redraws
        slider = page.locator("input[name='accuracy']")
        assert slider.count() == 2
        slider.first.fill("2")
        slider.first.dispatch_event("input")
        # what the numbers rest on first, then the flags
        heads = page.locator("h2")
        assert heads.nth(0).inner_text() == "What these numbers rest on"
        assert "out of balance" in heads.nth(1).inner_text().lower()
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / "alphaside-report.png"), full_page=True)
    assert seen.errors == [] and seen.requests == []
    html = (out / "alphaside.html").read_text()
    for stem in (
        "standings",
        "matchups",
        "cells",
        "damage_per_tl",
        "time_to_defeat",
        "weapons",
        "squad_matchups",
    ):
        assert f"href='alphaside/{stem}.csv' download" in html
    index = (out / "index.html").read_text()
    assert "href='alphaside.html'" in index
