"""The Lab Partners report page: built on small ``full-spread-vs-alpha`` (with sampled
alphas) and ``battles`` runs it opens with the whole-game study's sections, then the
Battle-only ones, a chart in each (every chart renders to SVG offline through
vl-convert), the tables behind them carry their run, every simulated section names its
run; and the Battle-only readings (the deck gap and the hardest kaiju) on hand-made
numbers. The study's readings on hand-made numbers: test_study_report.py."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import altair as alt
import polars as pl
import pytest

from analysis.flags import load_limits
from analysis.labpartners import report
from analysis.plugin import ReportContext, get_analysis
from analysis.report import lay_out, render_charts
from sims.core.protocol import get_game
from tests.conftest import CATALOGS
from tests.registration import installed

LIMITS = load_limits(CATALOGS / "labpartners" / "limits.toml", ("win_rate", "deck_gap"))

STUDY_HEADINGS = [
    "The alpha deck against the full spread: random alpha decks first",
    "What the catalog's alpha changes (one sample of an alpha list)",
    "How does each deck build its mechs?",
    "How often does each deck beat each kaiju, at each player count?",
    "Which kaiju does the alpha deck make too hard or too easy?",
    "Which Independent Studies get completed?",
    "Which Forms and Types are scarce in the locked mechs?",
    "Does the lesson's Form show up as often as the exact draw odds say?",
    "How much does the answer depend on which 70 cards the alpha holds?",
]
BATTLE_HEADINGS = [
    "Battle only: what should a designer know first?",
    "Battle only: how often does each deck beat each kaiju?",
    "Battle only: what makes a dealt mech win?",
    "How soon does a Form or Type show up?",
    "Each catalog mech against each kaiju (exact)",
    "Battle only: how much do crits matter?",
]
HEADINGS = STUDY_HEADINGS + BATTLE_HEADINGS
N = 1000  # games of the study (each with 2 + report.SAMPLES decks) and battles


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    game = get_game(installed("labpartners"))
    catalog = game.load_catalog(CATALOGS)
    tmp = tmp_path_factory.mktemp("lp")
    ctx = ReportContext(
        game=game,
        catalog=catalog,
        catalog_root=CATALOGS,
        claims=[],
        frames=game.exact(catalog),
        limits=LIMITS,
        store=tmp / "data",
        reports_dir=tmp / "reports",
        n=N,
        seed=3,
        jobs=1,
    )
    analysis = get_analysis("labpartners")
    runs = analysis.default_runs(ctx)
    page = analysis.page(ctx, runs)
    ids = {name: run.plan.run_id for name, run in runs.items()}
    return ctx, ids, page


def pieces(section) -> list:
    body = section.content
    return list(body) if isinstance(body, list | tuple) else [body]


def test_page_has_its_sections_each_with_a_chart(built):
    ctx, ids, page = built
    assert [s.heading for s in page.sections] == HEADINGS
    for section in page.sections:
        charts = [p for p in pieces(section) if isinstance(p, alt.TopLevelMixin)]
        assert len(charts) == 1, section.heading
    for k, section in enumerate(page.sections):
        run_id = ids[report.STUDY_KEY if k < len(STUDY_HEADINGS) else "battles"]
        for name, frame in section.data.items():
            assert frame["run"].unique().to_list() == [run_id], name
    win = page.sections[len(STUDY_HEADINGS) + 1].data["win_rates"]
    assert win.height == 10  # 2 decks x 5 kaiju
    assert ((win["win_low"] <= win["win_rate"]) & (win["win_rate"] <= win["win_high"])).all()
    assert win["battles"].to_list() == [N // 10] * 10
    summary = "".join(p for p in pieces(page.sections[len(STUDY_HEADINGS)]) if isinstance(p, str))
    assert summary.count("the hardest kaiju is") == 2
    assert "percentage points above" in summary or "percentage points below" in summary


def test_the_random_alpha_decks_open_the_page(built):
    """The headline: the distribution over the random alpha decks first (mean, sd,
    signs), the catalog's alpha one marked sample of it."""
    ctx, ids, page = built
    head = page.sections[0]
    text = unescape("".join(p for p in pieces(head) if isinstance(p, str)))
    k = report.SAMPLES
    assert k >= 16
    assert text.count(f"over {k} random alpha decks the gap to the full spread averages") == 4
    assert text.count("The catalog's alpha (one sample): ") == 4
    assert text.index("Study completion: over") < text.index("Lesson-take rate: over")
    table = head.data["alpha_sample_gaps"]
    assert set(table["samples"]) == {k}
    assert ((table["above"] + table["below"]) <= k).all()
    assert (table["sd"] > 0).all() and (table["lowest"] <= table["highest"]).all()


def test_the_study_opens_the_page(built):
    ctx, ids, page = built
    first = page.sections[1]
    text = "".join(p for p in pieces(first) if isinstance(p, str))
    # a sentence per metric, each with its paired interval, biggest first
    assert text.count("<li>") >= 6 and text.count("(95% ") >= 6
    ranked = first.data["deck_differences"]
    assert sorted(ranked["metric"]) == sorted(
        ["lesson_took", "gaps", "weak_matches", "win", "gpa", "study_done"]
    )
    assert ranked["effect_size"].to_list() == sorted(ranked["effect_size"], reverse=True)
    # every game is played with every deck: N games per deck (N / 20 cells each)
    by = page.sections[3].data["study_by_kaiju"]
    decks = {"full", "alpha", *(f"alpha-sample-{k}" for k in range(1, report.SAMPLES + 1))}
    assert set(by["deck"]) == decks
    assert set(by["games"]) == {N // 5}
    assert ((by["low"] <= by["mean"]) & (by["mean"] <= by["high"])).all()
    gaps = page.sections[4].data["kaiju_gaps"]
    assert ((gaps["low"] <= gaps["diff"]) & (gaps["diff"] <= gaps["high"])).all()
    lesson = page.sections[7].data["lesson_dealt"]
    # a row per deck and player count, the opening hands 5 body cards a player (Setup)
    assert lesson.height == len(decks) * 4
    assert (lesson["dealt"] == 5 * lesson["players"].cast(pl.Int64)).all()
    assert set(lesson["games"]) == {N // 4}
    assert lesson["exact"].is_between(0, 1).all()  # every deck's cards known, samples too
    assert ((lesson["low"] <= lesson["rate"]) & (lesson["rate"] <= lesson["high"])).all()
    seen = page.sections[7].data["lesson_seen"]  # descriptive: one row per deck
    assert set(seen["deck"]) == decks and set(seen["games"]) == {N}
    text = "".join(p for p in pieces(page.sections[7]) if isinstance(p, str))
    assert "groups lie more than 4 standard errors from the exact odds" in text
    assert "before any choice" in text
    for flag in page.flags:  # flags come from the study's run, with their interval
        assert flag.limit in ("win_rate", "deck_gap") and "95% " in flag.sentence
        assert ids[report.STUDY_KEY] in flag.evidence


def test_laid_out_page_names_its_run_and_every_chart_renders(built):
    ctx, ids, page = built
    laid = lay_out(ctx, page)
    for run_id in ids.values():
        assert f"run {run_id}" in laid.html
    assert {
        "win_rates",
        "win_by",
        "crits",
        "deck_totals",
        "deck_gaps",
        "deck_differences",
        "kaiju_gaps",
        "study_completion",
        "scarcity",
        "lesson_dealt",
        "lesson_seen",
        "alpha_samples",
        "flags",
    } <= set(laid.files)
    images = render_charts(laid.charts)
    assert len(images) == 2 * len(HEADINGS)
    for name, data in images.items():
        if name.endswith(".svg"):
            assert data.lstrip().startswith(b"<svg"), name


# ---- the readings, by hand ---------------------------------------------------------------


def test_difference_of_two_win_rates():
    # 50/100 against 60/100: gap +10 points; SE = sqrt(.5*.5/100 + .6*.4/100)
    # = sqrt(.0049) = .07, so the 95% half-width is 1.96 * 7 = 13.72 points
    gap = report.difference(50, 100, 60, 100)
    assert gap["gap"] == pytest.approx(10.0)
    assert gap["low"] == pytest.approx(-3.72) and gap["high"] == pytest.approx(23.72)


def test_hardest_kaiju_sentence_says_when_it_cannot_decide():
    win = pl.DataFrame(
        {
            "deck": ["alpha"] * 3,
            "kaiju": ["a", "b", "c"],
            "win_rate": [0.10, 0.30, 0.12],
            "win_low": [0.08, 0.27, 0.10],
            "win_high": [0.12, 0.33, 0.14],
        }
    )
    text = report.hardest_sentence(win, "alpha")
    assert text.startswith(
        "With the alpha deck the hardest kaiju is a: win rate 10% "
        "(95% 8% to 12%). The data cannot decide between c"
    )
    apart = win.with_columns(
        pl.Series("win_rate", [0.10, 0.30, 0.20]),
        pl.Series("win_low", [0.08, 0.27, 0.18]),
        pl.Series("win_high", [0.12, 0.33, 0.22]),
    )
    assert report.hardest_sentence(apart, "alpha").endswith(
        "c is beaten more often than a: 20% (95% 18% to 22%) against 10% (95% 8% to 12%)."
    )
    gaps = report.deck_gaps(
        pl.DataFrame(
            {
                "deck": ["alpha", "full"],
                "kaiju": ["k", "k"],
                "wins": [50, 60],
                "battles": [100, 100],
            }
        )
    )
    assert gaps["kaiju"].to_list() == ["k"]
    assert gaps.select("gap", "low", "high").row(0) == pytest.approx((10.0, -3.72, 23.72))


def test_context_paths_are_the_callers(built):
    ctx, _, _ = built
    assert isinstance(ctx.store, Path) and (ctx.store / "labpartners" / "battles").is_dir()


# ---- the whole report in a headless Chromium (as tests/skirmish/test_report_browser.py) ----


def test_report_renders_every_chart_offline_in_chromium(built, tmp_path):
    from analysis.report import build_report
    from tests.browser import opened

    ctx, _, _ = built
    out = tmp_path / "reports"
    build_report(["labpartners"], CATALOGS, out, store=ctx.store, n=N, seed=3, jobs=1)
    with opened(out / "labpartners.html") as seen:
        seen.wait_for_charts(len(HEADINGS))
    assert seen.errors == [] and seen.requests == []
    html = (out / "labpartners.html").read_text()
    assert html.index("random alpha decks first") < html.index("Battle only: what should")
    for stem in ("win_rates", "win_by", "crits", "deck_totals", "deck_differences"):
        assert f"href='labpartners/{stem}.csv' download" in html
