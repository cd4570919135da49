"""The Alluvion report: its queries, readings, dominance, ratings and flags on a round
robin made by hand (known scores and Wilson intervals), then the page built end to end on
a small ``loadouts`` run (a chart in each section, every chart rendering to SVG offline,
the tables behind them carrying their run) and opened in a headless Chromium.

The hand-made round robin: loadouts A, B, C, 100 duels a cell, (side a wins, draws,
side b wins):

    AA 40 20 40   AB 80 10 10   AC 90  0 10
    BA 20  0 80   BB 50  0 50   BC 70  0 30
    CA 10  0 90   CB 30  0 70   CC 45 10 45

Pooled from each loadout's side: A against B wins 80 + 80, draws 10, loses 30 of 200,
score 165/200; A against C 180/200; B against C 140/200. Over the round robin (mirrors
left out) A wins 340, draws 10, loses 50 of 400 duels from its side: 345/400; B 175/400;
C 80/400.
"""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from analysis.alluvion import flags, queries, report
from analysis.flags import Limit
from analysis.query import MACROS
from analysis.readings import wilson
from tests.registration import installed

CELLS = {
    ("A", "A"): (40, 20, 40),
    ("A", "B"): (80, 10, 10),
    ("A", "C"): (90, 0, 10),
    ("B", "A"): (20, 0, 80),
    ("B", "B"): (50, 0, 50),
    ("B", "C"): (70, 0, 30),
    ("C", "A"): (10, 0, 90),
    ("C", "B"): (30, 0, 70),
    ("C", "C"): (45, 10, 45),
}
RUN = "r1"


def rows() -> pl.DataFrame:
    """One row per duel: winner as the views label it; A's attacks hit 3 of 4, the
    others' 1 of 4; rounds 2 when side a wins, else 4."""
    out = []
    for (a, b), counts in CELLS.items():
        for winner, k in zip(("a", "draw", "b"), counts, strict=True):
            for _ in range(k):
                out.append(
                    {
                        "run": RUN,
                        "loadout_a": a,
                        "loadout_b": b,
                        "winner": winner,
                        "rounds": 2 if winner == "a" else 4,
                        "attacks_a": 4,
                        "hits_a": 3 if a == "A" else 1,
                        "attacks_b": 4,
                        "hits_b": 3 if b == "A" else 1,
                    }
                )
    return pl.DataFrame(out)


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    c.execute(MACROS)
    frame = rows()  # noqa: F841  (DuckDB reads the local frame by name)
    c.execute("CREATE TABLE duels AS SELECT * FROM frame")
    c.execute("CREATE VIEW loadouts AS SELECT * FROM duels")
    yield c
    c.close()


def one(frame: pl.DataFrame, **keys) -> dict:
    for k, v in keys.items():
        frame = frame.filter(pl.col(k) == v)
    assert frame.height == 1, keys
    return frame.row(0, named=True)


# ---- the queries ---------------------------------------------------------------------------


def test_cells_are_side_a_scores_with_wilson_intervals(con):
    cells = queries.cells(con, "loadouts")
    assert cells.height == 9 and set(cells["duels"]) == {100}
    ab = one(cells, loadout_a="A", loadout_b="B")
    assert (ab["wins_a"], ab["draws"], ab["losses_a"]) == (80, 10, 10)
    assert ab["score_a"] == pytest.approx(0.85)
    assert (ab["score_low"], ab["score_high"]) == pytest.approx(wilson(85, 100))
    assert ab["mean_rounds"] == pytest.approx(0.8 * 2 + 0.2 * 4)
    assert (ab["attacks_a"], ab["hits_a"], ab["hits_b"]) == (400, 300, 100)


def test_matchups_pool_both_cells_from_each_side(con):
    m = queries.matchups(con, "loadouts")
    assert m.height == 9
    ab = one(m, loadout="A", opponent="B")
    assert (ab["duels"], ab["wins"], ab["draws"], ab["losses"]) == (200, 160, 10, 30)
    assert ab["score"] == pytest.approx(165 / 200)
    assert (ab["low"], ab["high"]) == pytest.approx(wilson(165, 200))
    assert ab["hit_share"] == pytest.approx(0.75) and not ab["mirror"]
    ba = one(m, loadout="B", opponent="A")
    assert ba["score"] == pytest.approx(35 / 200) and ba["hit_share"] == pytest.approx(0.25)
    assert one(m, loadout="A", opponent="C")["score"] == pytest.approx(0.9)
    assert one(m, loadout="B", opponent="C")["score"] == pytest.approx(0.7)
    mirror = one(m, loadout="C", opponent="C")
    # a mirror: counted once (side a's results), its score 1/2 by construction
    assert mirror["mirror"] and mirror["duels"] == 100 and mirror["wins"] == 45
    assert (mirror["score"], mirror["low"], mirror["high"]) == (0.5, 0.5, 0.5)


def test_standings_leave_the_mirrors_out(con):
    s = queries.standings(con, "loadouts")
    a = one(s, loadout="A")
    assert (a["duels"], a["wins"], a["draws"], a["losses"]) == (400, 340, 10, 50)
    assert a["score"] == 345 / 400
    assert (a["low"], a["high"]) == pytest.approx(wilson(345, 400))
    # the score over the round robin is the mean of the other two matchups' (no mirror)
    assert a["score"] == pytest.approx((0.825 + 0.9) / 2)
    assert one(s, loadout="B")["score"] == 175 / 400 and one(s, loadout="C")["score"] == 0.2
    assert s["score"].sum() == pytest.approx(1.5)  # every duel's point is shared out


def test_side_a_is_the_first_sides_edge(con):
    side = queries.side_a(con, "loadouts").row(0, named=True)
    assert (side["duels"], side["wins_a"], side["draws"], side["wins_b"]) == (900, 435, 40, 425)
    assert side["score_a"] == pytest.approx(455 / 900)
    text = report.side_sentence(queries.side_a(con, "loadouts"))
    assert "50.6% (95% " in text and "cannot tell the sides apart" in text


# ---- ratings, dominance, readings ---------------------------------------------------------


def test_bradley_terry_orders_the_loadouts(con):
    fit = report.rate(queries.cells(con, "loadouts"))
    assert fit["loadout"].to_list() == ["A", "B", "C"]
    assert fit["rating"].sum() == pytest.approx(0, abs=1e-6)
    assert ((fit["low"] < fit["rating"]) & (fit["rating"] < fit["high"])).all()
    assert set(fit["battles"]) == {400}  # mirrors left out: 2 x 2 x 100 duels each


def test_dominance_constructed(con):
    m = queries.matchups(con, "loadouts")
    pairs = report.dominance(m)
    assert pairs.height == 6
    ab = one(pairs, loadout="A", other="B")
    # against A (the head-to-head: 1/2 beside B's 35/200) and against C (0.9 beside 0.7)
    assert (ab["opponents"], ab["at_least"], ab["apart_above"]) == (2, 2, 2)
    assert ab["dominates"] and not ab["dominated"]
    bc = one(pairs, loadout="B", other="C")
    # against A: 35/200 beside 20/200, intervals overlapping; head-to-head 0.7 apart from 1/2
    assert (bc["at_least"], bc["apart_above"], bc["above"]) == (2, 1, "B")
    assert bc["dominates"] and bc["closest"] == "A"
    assert bc["closest_gap"] == pytest.approx(35 / 200 - 20 / 200)
    assert one(pairs, loadout="C", other="B")["dominated"]
    assert report.dominant(pairs) == ["A"]
    assert report.dominated(pairs) == {"B": ["A"], "C": ["A", "B"]}
    words = report.dominance_sentences(pairs)
    assert words == [
        "Dominant (dominates every other loadout): A.",
        "Dominated: B (by A); C (by A, B).",
    ]
    evidence = report.dominance_evidence(pairs, m)
    assert len(evidence) == 3
    assert evidence[2] == (
        "B dominates C: at least as good against all 2 opponents, the 95% "
        "intervals apart against 1 (head to head); closest call: against "
        "A, B scores 18% (95% 13% to 23%) and C 10% (95% 7% to 15%)."
    )
    assert evidence[0] == (
        "A dominates B: at least as good against all 2 opponents, the 95% "
        "intervals apart against 2; closest call: against C, A scores 90% "
        "(95% 85% to 93%) and B 70% (95% 63% to 76%)."
    )
    assert evidence[1].endswith(
        "closest call: head to head, A scores 90% (95% 85% to 93%) against C."
    )


def test_no_dominance_when_a_point_estimate_falls_short():
    # X beats Y head to head, but scores a hair below Y against Z: no dominance, either way
    m = pl.DataFrame(
        [
            ("X", "X", 0.5, 0.5, 0.5),
            ("X", "Y", 0.8, 0.75, 0.85),
            ("X", "Z", 0.49, 0.4, 0.58),
            ("Y", "X", 0.2, 0.15, 0.25),
            ("Y", "Y", 0.5, 0.5, 0.5),
            ("Y", "Z", 0.52, 0.43, 0.61),
            ("Z", "X", 0.51, 0.42, 0.6),
            ("Z", "Y", 0.48, 0.39, 0.57),
            ("Z", "Z", 0.5, 0.5, 0.5),
        ],
        schema=["loadout", "opponent", "score", "low", "high"],
        orient="row",
    ).with_columns(mirror=pl.col("loadout") == pl.col("opponent"))
    pairs = report.dominance(m)
    xy = one(pairs, loadout="X", other="Y")
    assert (xy["at_least"], xy["apart_above"], xy["dominates"]) == (1, 1, False)
    assert not pairs["dominates"].any()
    assert report.dominant(pairs) == [] and report.dominated(pairs) == {}
    # short by one opponent, apart against another: X over Y (short against Z), X over Z
    # and Z over Y (short head to head)
    near = report.near_misses(pairs).select("loadout", "other", "closest").rows()
    assert near == [("X", "Y", "Z"), ("X", "Z", "X"), ("Z", "Y", "Z")]
    assert report.dominance_sentences(pairs) == [
        "No loadout dominates every other.",
        "No loadout is dominated by another in this run.",
    ]
    # everything at least as good but nowhere apart is not dominance either
    even = m.with_columns(
        pl.lit(0.5).alias("score"), pl.lit(0.4).alias("low"), pl.lit(0.6).alias("high")
    )
    assert not report.dominance(even)["dominates"].any()


def test_best_and_worst_say_when_the_data_cannot_decide(con):
    s = queries.standings(con, "loadouts")
    best = report.extreme_sentence(s, best=True)
    assert best.startswith(
        "A scores highest, 86.2% (95% 82.5% to 89.3%) over the round robin, "
        "clear of every other: the best loadout (the next, B, 43.8% (95% "
    )
    worst = report.extreme_sentence(s, best=False)
    assert worst.startswith(
        "C scores lowest, 20.0% (95% 16.4% to 24.2%) over the round robin, "
        "clear of every other: the worst loadout (the next, B, "
    )
    close = pl.DataFrame(
        {
            "loadout": ["p", "q", "r"],
            "score": [0.52, 0.51, 0.40],
            "low": [0.48, 0.47, 0.36],
            "high": [0.56, 0.55, 0.44],
        }
    )
    text = report.extreme_sentence(close, best=True)
    assert text == (
        "The data cannot decide which loadout is best: p scores highest, 52.0% "
        "(95% 48.0% to 56.0%), but the 95% intervals of 1 other overlap it "
        "(q, 51.0% (95% 47.0% to 55.0%))."
    )


def test_flags_only_when_the_whole_interval_is_outside(con):
    s = queries.standings(con, "loadouts")
    limit = Limit("loadout_score", "m", 0.35, 0.70, "assumed")
    out = flags.score_flags(s, limit, "run r1")
    # A 345/400 (95% 82.5% to 89.3%): above; C 80/400 (95% 16.4% to 24.2%): below; B inside
    assert [(f.subject, f.limit) for f in out] == [("A", "loadout_score"), ("C", "loadout_score")]
    assert "above the limit of 70.0%" in out[0].sentence and "(95% interval" in out[0].sentence
    assert "below the limit of 35.0%" in out[1].sentence and "run r1" in out[1].evidence
    assert out[0].value == 0.8625 and "400 duels from A's side" in out[0].evidence
    assert "mirrors left out" in out[0].evidence
    # A's 86.2% is above a limit of 85% but its interval (from 82.5%) reaches inside: no flag
    wide = Limit("loadout_score", "m", 0.34, 0.85, "assumed")
    assert [f.subject for f in flags.score_flags(s, wide, "")] == ["C"]


def test_exact_odds_pair_each_attack_pool_with_each_defense_pool():
    attack = pl.DataFrame(
        {
            "attack_pool": ["1d6", "1d6", "1d6", "1d6"],
            "defense_pool": ["2d6", "2d6", "0", "0"],
            "spot": [0, 1, 0, 1],
            "p_hit": ["55/216", "x", "1", "1"],
            "p_hit_float": [55 / 216, 0.0, 1.0, 1.0],
        }
    )
    pools = pl.DataFrame(
        {"loadout": ["g", "h"], "attack_pool": ["1d6", "1d6"], "defense_pool": ["2d6", "0"]}
    )
    odds = report.exact_odds(attack, pools)
    assert odds.height == 4
    assert one(odds, attacker="g", defender="h")["p_hit_exact"] == "1"
    assert one(odds, attacker="h", defender="g")["p_hit"] == pytest.approx(55 / 216)
    table = report.odds_table(odds, ["h", "g"])
    assert table.columns == ["attacker", "attack_pool", "h (0)", "g (2d6)"]
    assert table.rows() == [("h", "1d6", "100 / -", "25 / -"), ("g", "1d6", "100 / -", "25 / -")]
    assert report.dice_count("2d6+1d8") == 3 and report.dice_count("0") == 0


# ---- the page, end to end on a small run ---------------------------------------------------

HEADINGS = [
    "What should a designer know first?",
    "The matchup matrix: how does each loadout fare against each other?",
    "The ranking: which loadouts are strongest?",
    "Dominance: is any loadout always at least as good as another?",
    "How do the dice pools trade off?",
    "The exact single-attack odds, pool against pool",
]
N = 3200  # duels: 50 a cell over the 64 ordered pairs of the 8 named loadouts


def _registered() -> None:
    installed("alluvion")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from analysis.flags import load_limits
    from analysis.plugin import ReportContext, get_analysis
    from sims.core.protocol import get_game
    from tests.conftest import CATALOGS

    _registered()
    game = get_game("alluvion")
    catalog = game.load_catalog(CATALOGS)
    limits = load_limits(CATALOGS / "alluvion" / "limits.toml", flags.LIMITS)
    tmp = tmp_path_factory.mktemp("alluvion")
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
    analysis = get_analysis("alluvion")
    runs = analysis.default_runs(ctx)
    return ctx, runs["loadouts"].plan.run_id, analysis.page(ctx, runs)


def pieces(section) -> list:
    body = section.content
    return list(body) if isinstance(body, list | tuple) else [body]


def test_page_has_its_sections_each_with_a_chart_and_its_run(built):
    import altair as alt

    ctx, run_id, page = built
    assert [s.heading for s in page.sections] == HEADINGS
    for section in page.sections:
        charts = [p for p in pieces(section) if isinstance(p, alt.TopLevelMixin)]
        assert len(charts) == 1, section.heading
        assert section.data, section.heading
        for name, frame in section.data.items():
            assert frame["run"].unique().to_list() == [run_id], name
    matchups = page.sections[1].data["matchups"]
    assert matchups.height == 64 and matchups["mirror"].sum() == 8
    other = matchups.filter(~pl.col("mirror"))
    assert set(other["duels"]) == {100}  # both cells of a matchup, 50 duels each
    assert ((other["low"] <= other["score"]) & (other["score"] <= other["high"])).all()
    # the matrix is consistent: X's score against Y and Y's against X add up to 1
    back = other.join(other, left_on=["loadout", "opponent"], right_on=["opponent", "loadout"])
    assert (back["score"] + back["score_right"]).to_list() == pytest.approx([1.0] * 56)
    standings = page.sections[0].data["standings"]
    assert standings.height == 8 and set(standings["duels"]) == {700}  # 7 others, no mirror
    ratings = page.sections[2].data["ratings"]
    assert sorted(ratings["loadout"]) == sorted(ctx.catalog.loadouts)
    text = "".join(p for p in pieces(page.sections[0]) if isinstance(p, str))
    assert "scores highest, " in text and "scores lowest, " in text
    assert "(95% " in text and "Side a " in text
    odds = page.sections[5].data["exact_odds"]
    assert odds.height == 64 and odds["p_hit"].is_between(0, 1).all()
    for flag in page.flags:
        assert flag.limit == "loadout_score" and "95% " in flag.sentence
        assert run_id in flag.evidence


def test_pools_are_the_loadouts_own(built):
    ctx, _, page = built
    pools = page.sections[4].data["pools"]
    gunner = one(pools, loadout="gunner")  # 2 Direct Fire, 2 Resistive (loadouts.toml)
    assert (gunner["attack_pool"], gunner["defense_pool"]) == ("1d6+1d8", "3d6")
    assert (gunner["attack_dice"], gunner["defense_dice"]) == (2, 3)


def test_every_chart_renders_to_svg_offline(built):
    from analysis.report import lay_out, render_charts

    ctx, run_id, page = built
    laid = lay_out(ctx, page)
    assert f"run {run_id}" in laid.html
    assert {
        "standings",
        "matchups",
        "cells",
        "ratings",
        "dominance",
        "pools",
        "exact_odds",
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
    build_report(["alluvion"], CATALOGS, out, store=ctx.store, n=N, seed=3, jobs=1)
    with opened(out / "alluvion.html") as seen:
        page = seen.page
        seen.wait_for_charts(len(HEADINGS))
        # what the numbers rest on first, then the flags
        heads = page.locator("h2")
        assert heads.nth(0).inner_text() == "What these numbers rest on"
        assert "out of balance" in heads.nth(1).inner_text().lower()
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / "alluvion-report.png"), full_page=True)
    assert seen.errors == [] and seen.requests == []
    html = (out / "alluvion.html").read_text()
    for stem in ("standings", "matchups", "cells", "ratings", "dominance", "exact_odds"):
        assert f"href='alluvion/{stem}.csv' download" in html
    index = (out / "index.html").read_text()
    assert "href='alluvion.html'" in index
