"""The Skirmish report in a real headless Chromium (DESIGN.md "Tests, CI and the
browser"): Debian's chromium driven by Playwright, never `playwright install`. Every
chart renders (an SVG or canvas with class `marks`), the console stays clean, nothing
is fetched from the network, and a screenshot is kept in `test-artifacts/`."""

import re
from pathlib import Path

import pytest

from analysis.report import build_report
from tests.browser import CHROMIUM, FLAGS, browser_or_skip
from tests.conftest import CATALOGS, ROOT

ARTIFACTS = ROOT / "test-artifacts"
BOARD_HEADINGS = (
    "Where are battles won: zones, kills or Hull?",
    "Which map favours whom?",
    "Who holds the zones, round by round?",
    "Where do mechs stand and fall?",
    "How did the kit win rates move against the track?",
)


_browser_or_skip = browser_or_skip  # the shared helper (tests/browser.py)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    store = tmp_path_factory.mktemp("store")
    build_report(["skirmish"], CATALOGS, out, store=store, n=3200, seed=3, jobs=1)
    return out


def test_report_renders_every_chart_offline(report):
    sync_playwright = _browser_or_skip()
    page_path = report / "skirmish.html"
    errors, requests = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on(
                "request",
                lambda r: (
                    requests.append(r.url)
                    if not r.url.startswith(("file:", "data:", "blob:"))
                    else None
                ),
            )
            page.goto(page_path.as_uri())
            charts = page.locator("div.chart")
            count = charts.count()
            assert count >= 5
            page.wait_for_function(
                "n => document.querySelectorAll("
                "'div.chart svg.marks, div.chart canvas.marks').length >= n",
                arg=count,
                timeout=60_000,
            )
            for i in range(count):
                chart = charts.nth(i)
                assert chart.locator("svg.marks, canvas.marks").count() == 1, f"chart {i}"
            # the board's sections (issue 15) each draw their chart: the hex heat map
            # among them, one panel per map and state
            for heading in BOARD_HEADINGS:
                section = page.locator("section", has=page.locator("h2", has_text=heading))
                assert (
                    section.locator("div.chart svg.marks, div.chart canvas.marks").count() == 1
                ), heading
            # the first screen says what the numbers rest on, then what is out of balance
            heads = page.locator("h2")
            assert heads.nth(0).inner_text() == "What these numbers rest on"
            assert "out of balance" in heads.nth(1).inner_text().lower()
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "skirmish-report.png"), full_page=True)
        finally:
            browser.close()
    assert errors == []
    assert requests == []


def test_charts_save_as_svg_and_png_from_the_page_offline(report):
    """Each chart's actions menu offers exactly the two exports (no source, no online
    editor), and saving one hands over the file without any network request."""
    sync_playwright = _browser_or_skip()
    errors, requests = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        try:
            page = browser.new_page(accept_downloads=True)
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on(
                "request",
                lambda r: (
                    requests.append(r.url)
                    if not r.url.startswith(("file:", "data:", "blob:"))
                    else None
                ),
            )
            page.goto((report / "skirmish.html").as_uri())
            charts = page.locator("div.chart")
            page.wait_for_function(
                "n => document.querySelectorAll('div.chart .vega-actions').length >= n",
                arg=charts.count(),
                timeout=60_000,
            )
            first = charts.first
            assert first.locator("details > summary").count() == 1  # the "..." menu
            first.locator("details > summary").click()
            actions = first.locator(".vega-actions a")
            assert actions.all_inner_texts() == ["Save as SVG", "Save as PNG"]
            saved = {}
            for label, kind in (("Save as SVG", "svg"), ("Save as PNG", "png")):
                link = first.locator(".vega-actions a", has_text=label)
                assert link.get_attribute("download") == f"which-kit-wins-each-duel.{kind}"
                link.dispatch_event("mousedown")  # vega-embed renders the image on mousedown
                page.wait_for_function(  # into a blob: (SVG) or data: (PNG) URL, never online
                    "a => /^(blob|data):/.test(a.href)",
                    arg=link.element_handle(),
                    timeout=30_000,
                )
                with page.expect_download() as download:
                    link.click()
                saved[kind] = Path(download.value.path()).read_bytes()
        finally:
            browser.close()
    svg = saved["svg"]
    assert svg.lstrip().startswith(b"<svg") and b"Which kit wins each duel?" in svg
    assert saved["png"].startswith(b"\x89PNG\r\n\x1a\n")
    assert errors == [] and requests == []
    # every section with simulated tables links them as CSV beside the page
    html = (report / "skirmish.html").read_text()
    for stem in (
        "flags",
        "win_rates",
        "crit_share",
        "time_to_kill",
        "team_cap_builds",
        "decided_by_map",
        "team_scores_by_map",
        "win_rates_by_map",
        "zone_control",
        "positions",
        "kit_moves",
    ):
        assert f"href='skirmish/{stem}.csv' download" in html
        assert (report / "skirmish" / f"{stem}.csv").is_file()


def test_index_links_the_game_page_and_repeats_its_flags(report):
    index = (report / "index.html").read_text()
    page = (report / "skirmish.html").read_text()
    assert "href='skirmish.html'" in index
    # the game page opens with what its numbers rest on, then the flags, one sentence
    # each, and the index repeats the same sentences
    rests = page.index("<h2>What these numbers rest on</h2>")
    first = page.index("<h2>What is out of balance</h2>")
    assert rests < first < page.index("<h2>Which kit wins each duel?</h2>")
    flags = page[first : page.index("</section>", first)]
    sentences = re.findall(r"<li><strong>(.*?)</strong>", flags)
    assert sentences
    for sentence in sentences:
        assert sentence in index


def test_team_cap_sections_show_exact_build_counts_and_the_sideboard(report):
    from sims.skirmish import builds, team_counts
    from sims.skirmish.catalog import load_catalog

    page = (report / "skirmish.html").read_text()
    for heading in (
        "How many teams of builds does the Team Cap admit?",
        "Teams of builds at the Team Cap 145",
        "Which rosters keep every sideboard swap legal?",
    ):
        assert f"<h2>{heading}</h2>" in page
    # the exact total at the rulebook cap, as an integer (it passes 2^64: never a float)
    catalog = load_catalog(CATALOGS)
    counts = team_counts.build_team_counts(
        builds.load_parts(CATALOGS, "full"), catalog.params, len(catalog.pilots)
    )
    total = sum(int(v) for v in counts.filter(team_cap=145)["teams"])
    assert total > 2**64
    assert f"<tr><td>all</td><td>{total}</td>" in page
    # 003 I2: the Bastion on the sideboard may not come in for the Courier (158 > 145)
    assert "the sideboard bastion may not come in for courier (I2)" in page
