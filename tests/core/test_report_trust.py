"""Reports a designer can trust, on Coin Duel (generic machinery, no game named): pages
read only runs of the catalog they describe and name the others as stale; ``--set`` on
``report``; the tables behind each section as CSV beside the page; ``--export`` with
every chart as PNG and SVG; and the readings (analysis.ratings) that put an estimate
into words with its interval, on hand-made frames."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analysis import plugin, queries, ratings, readings
from analysis.charts import run_caption, win_rate_heatmap
from analysis.cli import main
from analysis.plugin import Analysis, Page, ReportContext, Section
from analysis.query import connect
from analysis.report import (
    choose_run,
    run_differences,
    run_label,
    simulate_command,
    stale_notice,
)
from sims.core.protocol import get_game
from sims.core.runner import current_catalog_hash
from tests.core.toy import CATALOGS

PNG = b"\x89PNG\r\n\x1a\n"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


# --- --export, --set and the CSV files, with the toy's own plugin ---------------------------


def test_export_writes_csv_png_and_svg(tmp_path: Path, capsys) -> None:
    reports, export = tmp_path / "reports", tmp_path / "export"
    rc, out, _ = run(
        [
            "report",
            "toy",
            "--catalog",
            CATALOGS,
            "--store",
            tmp_path / "data",
            "--out",
            reports,
            "--n",
            "900",
            "--export",
            export,
        ],
        capsys,
    )
    assert rc == 0 and f"exported (CSV tables, PNG and SVG charts): {export.resolve()}" in out
    files = sorted(p.name for p in (export / "toy").iterdir())
    assert files == [
        "flags.csv",
        "provenance.csv",
        "provenance_by_experiment.csv",
        "readings.csv",
        "who-wins.png",
        "who-wins.svg",
    ]
    assert (export / "toy" / "who-wins.png").read_bytes().startswith(PNG)
    svg = (export / "toy" / "who-wins.svg").read_text()
    assert svg.lstrip().startswith("<svg") and "Which side wins each matchup?" in svg
    flags = pl.read_csv(export / "toy" / "flags.csv")
    assert flags.columns == ["subject", "limit", "value", "sentence", "evidence", "status", "tag"]
    # the same CSV beside the page, linked under its section
    beside = reports / "toy" / "flags.csv"
    assert beside.read_bytes() == (export / "toy" / "flags.csv").read_bytes()
    page = (reports / "toy.html").read_text()
    assert "href='toy/flags.csv' download" in page
    # the charts' menu offers the two exports and nothing that goes online
    assert '"export": {"svg": true, "png": true}' in page and '"editor": false' in page


def test_report_with_set(tmp_path: Path, capsys) -> None:
    store, reports = tmp_path / "data", tmp_path / "reports"
    rc, out, _ = run(
        [
            "report",
            "toy",
            "--catalog",
            CATALOGS,
            "--store",
            store,
            "--out",
            reports,
            "--n",
            "900",
            "--set",
            "coin_bonus=2",
        ],
        capsys,
    )
    assert rc == 0 and out.strip().endswith("(with --set coin_bonus=2)")
    page = (reports / "toy.html").read_text()
    assert "<p class='sets'><strong>With --set coin_bonus=2</strong>" in page
    assert "with <strong>--set coin_bonus=2</strong>" in (reports / "index.html").read_text()
    (manifest,) = store.glob("toy/bout/run=*/manifest.json")
    assert json.loads(manifest.read_text())["set"] == {"coin_bonus": 2}  # the runs too


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "coin_bonus=2"], "report --set needs GAME"),
        (["toy", "--set", "nope=1"], "nope"),
        (["toy", "--set", "coin_bonus=9"], "coin_bonus"),
        (
            ["toy", "--export", "/proc/mechbal-nope"],
            "--export /proc/mechbal-nope: cannot write there",
        ),
    ],
)
def test_report_user_errors_are_one_line(tmp_path: Path, capsys, argv, message) -> None:
    reports = tmp_path / "reports"
    rc, out, err = run(
        [
            "report",
            *argv,
            "--catalog",
            CATALOGS,
            "--store",
            tmp_path / "data",
            "--out",
            reports,
            "--n",
            "90",
        ],
        capsys,
    )
    assert rc == 2 and err.startswith("mechbal: error: ") and err.count("\n") == 1, err
    assert message in err
    assert not (tmp_path / "data").exists()  # nothing simulated


# --- a plugin that reads what the store holds: sections with tables, stale notices --------


def _nothing(ctx: ReportContext) -> Mapping[str, Any]:
    return {}  # the page reads whatever run of this catalog the store holds


def _page(ctx: ReportContext, runs: Mapping[str, Any]) -> Page:
    con = connect(ctx.store, catalog=ctx.catalog_root, sets=ctx.sets)
    try:
        choice = choose_run(con, "toy", "bout")
        if choice.run is None:
            if choice.stale is None:
                return Page([Section("Who wins?", "<p>no run</p>")])
            game = get_game("toy")
            now = current_catalog_hash(game, game.experiments["bout"], ctx.catalog_root)
            command = simulate_command(
                "toy", "bout", n=900, catalog_root=ctx.catalog_root, sets=ctx.sets, store=ctx.store
            )
            notice = stale_notice(
                "bout run",
                run_label(con, choice.stale),
                run_differences(con, choice.stale, now, ctx.sets),
                command,
            )
            return Page([Section("Who wins?", notice)])
        win = queries.win_rates(con, "bout", ("side_a", "side_b"))
        nested = pl.DataFrame({"fighter": ["pawn"], "seen": [[1, 2]]})
        chart = win_rate_heatmap(win, run_caption(con, choice.run))
        return Page(
            [
                Section(
                    "Who wins?",
                    [chart, "<p>after the chart</p>"],
                    {"win rates": win, "nested": nested},
                )
            ]
        )
    finally:
        con.close()


TRUST = Analysis("toy", _nothing, _page, limits=("win_rate",))


@pytest.fixture
def trust_plugin() -> Iterator[None]:
    plugin.register("toy", "tests.core.test_report_trust:TRUST")
    try:
        yield
    finally:
        plugin.register("toy", "tests.core.toy.analysis:ANALYSIS")  # as tests/conftest.py


def test_sections_read_only_runs_of_their_catalog(tmp_path: Path, capsys, trust_plugin) -> None:
    catalogs, store, reports = tmp_path / "catalogs", tmp_path / "data", tmp_path / "reports"
    shutil.copytree(CATALOGS / "toy", catalogs / "toy")
    common = ["--catalog", catalogs, "--store", store, "--out", reports]
    rc, out, _ = run(
        [
            "simulate",
            "toy",
            "bout",
            "--n",
            "900",
            "--catalog",
            catalogs,
            "--out",
            store,
            "--label",
            "first",
        ],
        capsys,
    )
    assert rc == 0
    old = out.split()[1]  # "run <id> (first): ..."
    assert run(["report", "toy", *common], capsys)[0] == 0
    page = (reports / "toy.html").read_text()
    assert f"run {old} (first)" in page and "class='stale'" not in page  # the caption names it
    # the section's tables, linked under it after its chart and HTML
    after = page.index("<p>after the chart</p>")
    links = page.index("Download CSV: <a href='toy/win_rates.csv' download>win_rates.csv</a>")
    assert page.index('<div class="chart" id="chart-1">') < after < links
    assert "<a href='toy/nested.csv' download>nested.csv</a>" in page
    win = pl.read_csv(reports / "toy" / "win_rates.csv")
    assert win.height == 9 and set(win["run"]) == {old}
    assert (reports / "toy" / "nested.csv").read_text() == 'fighter,seen\npawn,"[1, 2]"\n'

    # A designer edits the catalog: the run above is of the old one, named but not shown.
    fighters = catalogs / "toy" / "fighters.toml"
    fighters.write_text(fighters.read_text().replace("die = 6", "die = 7", 1))
    assert run(["report", "toy", *common], capsys)[0] == 0
    page = (reports / "toy.html").read_text()
    start = page.index("<div class='stale'>")
    end = page.index("</div>", start)
    assert page.count(old) == page[start:end].count(old) == 1  # only inside the notice
    notice = page[start:end]
    assert f"run {old} (first): seed 1, N 900" in notice
    assert "made from another catalog" in notice and "Stale: not shown." in notice
    command = f"mechbal simulate toy bout --n 900 --jobs 2 --catalog {catalogs} --out {store}"
    assert command in notice
    assert "vegaEmbed" not in page  # no chart of the old run
    # old CSVs gone; what the page rests on is of the catalog, not of a run
    assert sorted(p.name for p in (reports / "toy").iterdir()) == [
        "flags.csv",
        "provenance.csv",
        "provenance_by_experiment.csv",
        "readings.csv",
    ]

    # A run of the edited catalog is read again; with --set, it is of other settings.
    rc, out, _ = run(
        ["simulate", "toy", "bout", "--n", "900", "--catalog", catalogs, "--out", store], capsys
    )
    new = out.split()[1].rstrip(":")
    assert run(["report", "toy", *common], capsys)[0] == 0
    page = (reports / "toy.html").read_text()
    assert f"run {new}" in page and old not in page and "class='stale'" not in page
    assert run(["report", "toy", *common, "--set", "coin_bonus=2"], capsys)[0] == 0
    page = (reports / "toy.html").read_text()
    notice = page[page.index("<div class='stale'>") :]
    assert f"run {new}" in notice and "made without --set" in notice
    assert "--set coin_bonus=2" in notice


# --- readings: estimates in words with their intervals (hand-made frames) -----------------


def row(team: str, rating: float, low: float, high: float) -> dict[str, Any]:
    return {"team": team, "rating": rating, "low": low, "high": high}


def test_compare_names_the_winner_only_when_the_intervals_part() -> None:
    apart = readings.compare(row("a", 40, 20, 60), row("b", -10, -30, 10))
    assert apart == "a rates above b: +40 (95% +20 to +60) against -10 (95% -30 to +10)."
    # the order of the arguments does not matter
    assert readings.compare(row("b", -10, -30, 10), row("a", 40, 20, 60)) == apart
    close = readings.compare(row("a", 12, -8, 32), row("b", 6, -14, 26))
    assert close == (
        "The data cannot decide between a, +12 (95% -8 to +32), and b, +6 "
        "(95% -14 to +26): their 95% intervals overlap."
    )
    shares = readings.compare(
        {"k": "x", "p": 0.5, "low": 0.45, "high": 0.55},
        {"k": "y", "p": 0.3, "low": 0.25, "high": 0.35},
        name="k",
        value="p",
        fmt="{:.0%}",
        above="scores more than",
    )
    assert shares == "x scores more than y: 50% (95% 45% to 55%) against 30% (95% 25% to 35%)."


def test_best_sentence_says_when_the_best_cannot_be_told() -> None:
    clear = pl.DataFrame([row("a", 100, 80, 120), row("b", 0, -20, 20), row("c", -100, -120, -80)])
    assert readings.best_sentence(clear) == (
        "a rates highest, +100 (95% +80 to +120), clear of every other rated team (the "
        "next, b, +0 (95% -20 to +20))."
    )
    tied = pl.DataFrame([row("a", 10, -10, 30), row("b", 5, -15, 25), row("c", -15, -35, 5)])
    text = readings.best_sentence(tied)
    assert text.startswith(
        "The data cannot decide which team is best: a rates highest, +10 "
        "(95% -10 to +30), but the 95% intervals of 2 others overlap it"
    )
    assert "b, +5 (95% -15 to +25); c, -15 (95% -35 to +5)" in text


def test_gap_sentence_and_mean_gap() -> None:
    decided = readings.gap_sentence(
        {"gap": -45.0, "low": -70.0, "high": -20.0}, "Teams with a brute", "teams without"
    )
    assert decided == (
        "Teams with a brute rate 45 Elo points below teams without on average (95% -70 to -20)."
    )
    open_ = readings.gap_sentence({"gap": -6.0, "low": -36.0, "high": 23.0}, "H", "L")
    assert open_.endswith("the interval holds 0, so the data cannot decide whether they differ.")
    # four teams, a and b equally strong and stronger than c and d: the gap's interval is
    # the contrast's, narrower than two single ratings' added up
    strength = {"a": 0.5, "b": 0.5, "c": -0.5, "d": -0.5}
    rows = [
        {
            "side_a": i,
            "side_b": j,
            "battles": 2000,
            "points": 2000 / (1 + 2.718281828459045 ** (strength[j] - strength[i])),
        }
        for i in strength
        for j in strength
        if i != j
    ]
    games = pl.DataFrame(rows)
    gap = ratings.mean_gap(games, ["a", "b"])
    assert gap["gap"] == pytest.approx(1.0 * ratings.ELO, rel=1e-6)
    assert gap["low"] < gap["gap"] < gap["high"] and (gap["in_group"], gap["others"]) == (2, 2)
    fit = ratings.bradley_terry(games)
    single = ((fit["high"] - fit["low"]) / 2).mean()
    assert (gap["high"] - gap["low"]) / 2 < 2 * single
    with pytest.raises(ValueError, match="some of the rated teams"):
        ratings.mean_gap(games, ["a", "b", "c", "d"])


def test_nearest_sample_and_preview() -> None:
    shares = {
        2: (0.55, 0.50, 0.60),
        3: (0.40, 0.35, 0.45),
        4: (0.31, 0.27, 0.35),
        5: (0.20, 0.16, 0.24),
    }
    assert readings.nearest(shares, 1 / 3) == (4, [3])  # 3's interval reaches as near
    assert readings.nearest({4: (0.33, 0.32, 0.34), 3: (0.40, 0.39, 0.41)}, 1 / 3) == (4, [])
    text = readings.nearest_sentence(shares, 1 / 3, what="margin {}", goal="one third")
    assert text == (
        "margin 4 comes nearest one third: 31.0% (95% 27.0% to 35.0%); the data "
        "cannot decide between it and margin 3, 40.0% (95% 35.0% to 45.0%): "
        "their intervals reach as near."
    )
    assert readings.sample_note(36, 36) == ""
    assert readings.sample_note(6, 36, "fighter teams").startswith(
        "These are 6 of the 36 legal fighter teams, a sample"
    )
    wide = pl.DataFrame([row("a", 30, -10, 70), row("b", -30, -70, 10)])  # +/-40
    note = readings.preview_note(1600, wide)
    assert note is not None and note.startswith(
        "PREVIEW: 1,600 battles give each rating to +/-40 Elo points"
    )
    assert "about 25,600 battles" in note  # intervals shrink as 1/sqrt(N): (40/10)^2 x 1600
    narrow = pl.DataFrame([row("a", 30, 25, 35), row("b", -30, -35, -25)])
    assert readings.preview_note(64_000, narrow) is None


def test_wilson_matches_the_store_macro() -> None:
    import duckdb

    from analysis.query import MACROS

    con = duckdb.connect()
    con.execute(MACROS)
    for k, n in ((0, 10), (3, 10), (7.5, 20), (20, 20), (1, 1000)):
        low, high = con.execute(
            "SELECT wilson_low(?, ?), wilson_high(?, ?)", [k, n, k, n]
        ).fetchone()
        assert readings.wilson(k, n) == pytest.approx((low, high), abs=1e-12)
