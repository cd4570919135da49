"""The Skirmish report after a catalog edit (issue 12): no section shows a run of the old
catalog; the ratings run of the old catalog is named in a stale notice with the command
that refreshes it, never shown; once refreshed, the ratings are back, exported as CSV
with every chart as PNG and SVG; and the Heavy answer words its intervals."""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
from pathlib import Path

import polars as pl
import pytest

from analysis.cli import main
from analysis.html import slug
from analysis.skirmish.ratings import by_heavies, heavy_sentence
from tests.conftest import CATALOGS

TEAMS = "courier+foreman+reaver,bastion+courier+foreman,bastion+courier+reaver"
BOARD_HEADINGS = (
    "Where are battles won: zones, kills or Hull?",
    "Which map favours whom?",
    "Who holds the zones, round by round?",
    "Where do mechs stand and fall?",
    "How did the kit win rates move against the track?",
)
PNG = b"\x89PNG\r\n\x1a\n"


def run(argv: list, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def run_ids(store: Path) -> dict[str, str]:
    """Every run in the store: id -> experiment."""
    return {
        json.loads(p.read_text())["run_id"]: p.parent.parent.name
        for p in store.glob("skirmish/*/run=*/manifest.json")
    }


def run_sets(store: Path, run_id: str) -> dict:
    """A run's --set values, from its manifest."""
    (path,) = store.glob(f"skirmish/*/run={run_id}/manifest.json")
    return json.loads(path.read_text())["set"]


def stale_notices(page: str) -> list[str]:
    return re.findall(r"<div class='stale'>.*?</div>", page, flags=re.S)


def test_report_after_a_catalog_edit_shows_nothing_of_the_old_catalog(tmp_path: Path, capsys):
    catalogs, store = tmp_path / "catalogs", tmp_path / "data"
    reports, export = tmp_path / "reports", tmp_path / "export"
    shutil.copytree(CATALOGS / "skirmish", catalogs / "skirmish")
    common = ["--catalog", catalogs, "--store", store, "--out", reports, "--n", "200"]
    run(
        [
            "simulate",
            "skirmish",
            "ratings",
            "--n",
            "90",
            "--teams",
            TEAMS,
            "--catalog",
            catalogs,
            "--out",
            store,
            "--label",
            "before-edit",
        ],
        capsys,
    )
    run(["report", "skirmish", *common], capsys)
    before = run_ids(store)
    # the duel grid on the standard map and on the track, the team fights on three maps
    assert sorted(before.values()) == [
        "crit-margin",
        "duel",
        "duel",
        "ratings",
        "team-cap",
        "teamfight",
    ]
    (rating_run,) = (r for r, e in before.items() if e == "ratings")
    page = (reports / "skirmish.html").read_text()
    assert stale_notices(page) == []
    for run_id in before:  # every section built from simulation names its run
        assert f"run {run_id}" in page
    assert f"run {rating_run} (before-edit)" in page and "Bradley-Terry ratings" in page
    # the board's sections (issue 15), each sentence naming its run
    (fight,) = (r for r, e in before.items() if e == "teamfight")
    (track,) = (
        r for r, e in before.items() if e == "duel" and run_sets(store, r).get("board") == "track"
    )
    (duel,) = (r for r, e in before.items() if e == "duel" and r != track)
    for heading in BOARD_HEADINGS:
        assert f"<h2>{html.escape(heading)}</h2>" in page
    for where in ("open", "broken", "urban"):
        assert f"Team fights on {where} (run {fight}, " in page
    assert f"Duels on broken (run {duel}, " in page and f"Duels on track (run {track}, " in page
    assert f"against the track (runs {duel} and {track}), the kits that gain most" in page
    assert set(pl.read_csv(reports / "skirmish" / "decided_by_map.csv")["run"]) == {
        fight,
        duel,
        track,
    }
    assert pl.read_csv(reports / "skirmish" / "ratings.csv")["run"].unique().to_list() == [
        rating_run
    ]

    # The designer edits a value that decides rows and reruns the report.
    parts = catalogs / "skirmish" / "parts.toml"
    text = parts.read_text()
    railgun = text.index('id = "railgun"')
    pen = text.index("pen = 5", railgun)
    parts.write_text(text[:pen] + "pen = 3" + text[pen + len("pen = 5") :])
    run(["report", "skirmish", *common], capsys)
    page = (reports / "skirmish.html").read_text()
    (notice,) = stale_notices(page)
    for run_id in before:  # the old catalog's runs: nowhere but the one notice
        assert page.count(run_id) == notice.count(run_id), run_id
    assert rating_run in notice and "made from another catalog" in notice
    assert "Bradley-Terry ratings" not in page
    command = re.search(r"<code>(mechbal simulate skirmish ratings [^<]*)</code>", notice)[1]
    assert command == (
        f"mechbal simulate skirmish ratings --n 100000 --jobs 2 --catalog "
        f"{catalogs} --out {store} --teams {TEAMS}"
    )
    files = sorted(p.name for p in (reports / "skirmish").iterdir())
    assert "ratings.csv" not in files and "win_rates.csv" in files
    for name in files:  # no table beside the page comes from an old run
        body = (reports / "skirmish" / name).read_text()
        assert not any(run_id in body for run_id in before), name
    fresh = {r for r, e in run_ids(store).items() if r not in before}
    # the duels on the map and the track, crit-margin, team-cap and the team fights of the
    # edited catalog
    assert sorted(run_ids(store)[r] for r in fresh) == [
        "crit-margin",
        "duel",
        "duel",
        "team-cap",
        "teamfight",
    ]
    for run_id in fresh:
        assert f"run {run_id}" in page

    # The command the notice gives (a smaller N) makes the ratings current again.
    words = shlex.split(command)[1:]
    words[words.index("--n") + 1] = "90"
    run(words, capsys)
    run(["report", "skirmish", *common, "--export", export], capsys)
    page = (reports / "skirmish.html").read_text()
    (new_rating,) = (r for r, e in run_ids(store).items() if e == "ratings" and r != rating_run)
    assert stale_notices(page) == [] and rating_run not in page
    assert f"run {new_rating}" in page and "Bradley-Terry ratings" in page
    # the ratings, the win-rate matrix and the flags to take away, and every chart
    out = export / "skirmish"
    assert pl.read_csv(out / "ratings.csv")["run"].unique().to_list() == [new_rating]
    assert pl.read_csv(out / "win_rates.csv").height == 64  # 8 kits x 8 kits
    assert pl.read_csv(out / "flags.csv").columns[:2] == ["subject", "limit"]
    charts = page.count('<div class="chart"')
    assert len(list(out.glob("*.png"))) == len(list(out.glob("*.svg"))) == charts >= 12
    for heading in BOARD_HEADINGS:  # the board's charts export too
        assert (out / f"{slug(heading)}.png").read_bytes().startswith(PNG), heading
    assert (out / "which-kit-wins-each-duel.png").read_bytes().startswith(PNG)
    assert (out / "which-kit-wins-each-duel.svg").read_text().lstrip().startswith("<svg")

    # The same catalog with --set: the ratings run above is of other settings.
    run(["report", "skirmish", *common, "--set", "part.railgun.pen=4"], capsys)
    page = (reports / "skirmish.html").read_text()
    assert "<strong>With --set part.railgun.pen=4</strong>" in page
    (notice,) = stale_notices(page)
    assert new_rating in notice and "made without --set" in notice
    assert "--set part.railgun.pen=4" in notice


# --- the Heavy answer, on hand-made ratings -------------------------------------------------


def fit(*rows: tuple[str, float, float, float]) -> pl.DataFrame:
    return pl.DataFrame([{"team": t, "rating": r, "low": lo, "high": hi} for t, r, lo, hi in rows])


def test_heavy_sentence_states_intervals_and_when_it_cannot_decide():
    heavies = {"h1": 1, "l1": 0, "l2": 0, "l3": 0}
    close = fit(
        ("l1", 20, -10, 50), ("h1", 10, -20, 40), ("l2", -10, -40, 20), ("l3", -20, -50, 10)
    )
    text = heavy_sentence(close, by_heavies(close, heavies), sample="These are a sample.")
    assert text.startswith(
        "The best team with a Heavy, h1, is rank 2 of 4. Against the best "
        "team: The data cannot decide between l1, +20 (95% -10 to +50), "
        "and h1, +10 (95% -20 to +40)"
    )
    assert text.endswith("These are a sample.")
    apart = fit(
        ("h1", 200, 170, 230), ("l1", 0, -30, 30), ("l2", -90, -120, -60), ("l3", -110, -140, -80)
    )
    text = heavy_sentence(apart, by_heavies(apart, heavies), heavies=heavies)
    assert text.startswith(
        "The best rated team, h1, fields a Heavy (rank 1 of 4). Against the "
        "best team without a Heavy: h1 rates above l1: +200 (95% +170 to "
        "+230) against +0 (95% -30 to +30)."
    )
    none = fit(("l1", 0, -5, 5), ("l2", 0, -5, 5))
    assert heavy_sentence(none, by_heavies(none, {"l1": 0, "l2": 0})).startswith(
        "None of the 2 rated teams fields a Heavy"
    )
