"""The deck question (DESIGN.md "Lab Partners' deck question"): ``--alpha-list FILE``
(a designer's alpha in place of the catalog's: checked, in the run's identity), the
random alpha decks' distribution the report states first, and the verdicts of
analysis/labpartners/verdicts.py measured on a tiny run against the rows themselves."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from analysis.flags import load_limits
from analysis.labpartners import queries, report
from analysis.labpartners import verdicts as V
from analysis.plugin import get_analysis
from analysis.query import connect
from analysis.verdicts import KINDS, RunRows
from sims.core.catalog import CatalogError
from sims.core.runner import simulate
from sims.labpartners.catalog import load_catalog
from tests.conftest import CATALOGS
from tests.registration import installed

GAME = "labpartners"
N = 200  # games: each with the alpha, the full spread and report.SAMPLES random alphas


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def alpha_ids(catalog) -> list[str]:
    return [c.id for c in catalog.deck("alpha").cards]


def _rows(run) -> pl.DataFrame:
    files = sorted(run.plan.folder.rglob("*.parquet"))
    frame = pl.concat([pl.read_parquet(f) for f in files])
    return frame.drop("run", strict=False).sort("cell", "game", "deck")


def _study(store: Path, **options):
    return simulate(GAME, V.STUDY, n=40, seed=3, store_root=store, options=options)


def test_alpha_list_of_the_catalog_alpha_plays_the_same_games(tmp_path, alpha_ids) -> None:
    """The catalog's own alpha, listed (text with a comment, and TOML), plays exactly
    the catalog's rows, as another run (the list is in the identity and the notes)."""
    text = tmp_path / "alpha.txt"
    text.write_text("# the catalog alpha\n" + "\n".join(alpha_ids) + "\n")
    toml = tmp_path / "alpha.toml"
    toml.write_text("cards = [" + ", ".join(f'"{c}"' for c in alpha_ids) + "]\n")
    base = _study(tmp_path / "s")
    for path in (text, toml):
        listed = _study(tmp_path / "s", alpha_list=str(path))
        assert listed.plan.run_id != base.plan.run_id
        assert listed.plan.manifest["notes"]["alpha_list"]["cards"] == alpha_ids
        assert _rows(listed).equals(_rows(base))


def test_alpha_list_another_deck_changes_the_alpha_rows(tmp_path, catalog, alpha_ids) -> None:
    """A list one Arm different: the alpha's rows change, the full spread's do not."""
    full_arms = [c.id for c in catalog.deck("full").of("arms")]
    swap = next(c for c in full_arms if c not in alpha_ids)
    arms = [c for c in alpha_ids if c.startswith("arms-")]
    other = [c for c in alpha_ids if c != arms[-1]] + [swap]
    path = tmp_path / "other.txt"
    path.write_text(", ".join(other))
    base, got = _rows(_study(tmp_path / "s")), _rows(_study(tmp_path / "s", alpha_list=str(path)))
    assert got.filter(pl.col("deck") == "full").equals(base.filter(pl.col("deck") == "full"))
    assert not got.filter(pl.col("deck") == "alpha").equals(base.filter(pl.col("deck") == "alpha"))


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda ids: ids[:-1] + ["arms-beast-laser-9"], "card 'arms-beast-laser-9': unknown card"),
        (lambda ids: ids[:-1] + [ids[0]], "listed twice"),
        (lambda ids: ids[:-1], "part 'arms': 24 arms cards, the alpha holds 25"),
        (lambda ids: ids[1:] + [ids[-1]], "listed twice"),
    ],
)
def test_alpha_list_errors_name_the_file_and_the_entry(tmp_path, alpha_ids, edit, message) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(edit(list(alpha_ids))))
    with pytest.raises(CatalogError) as err:
        _study(tmp_path / "s", alpha_list=str(path))
    line = str(err.value)
    assert "\n" not in line and str(path) in line and message in line


def test_alpha_list_missing_file(tmp_path) -> None:
    with pytest.raises(CatalogError, match=r"--alpha-list: .*nope\.txt: no such file"):
        _study(tmp_path / "s", alpha_list=str(tmp_path / "nope.txt"))


# ---- the verdicts on a tiny run of the page's study -------------------------------------


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, catalog):
    store = tmp_path_factory.mktemp("lpv")
    limits = load_limits(CATALOGS / GAME / "limits.toml", ("win_rate", "deck_gap"))
    verdicts = V.verdicts(catalog, limits)
    run = simulate(GAME, V.STUDY, n=N, seed=4, store_root=store, options=dict(V.OPTIONS))
    con = connect(store, catalog=CATALOGS, runs=[run.plan.run_id])
    rows = RunRows(con, queries.view_of(con, V.STUDY), run.plan.run_id, V.STUDY)
    yield verdicts, rows, _rows(run)
    con.close()


def _gap(frame: pl.DataFrame, deck: str, column: str, kaiju: str | None = None) -> float:
    """Mean over games of (deck - full) of a per-game 0/1 column, straight from the rows."""
    if kaiju is not None:
        frame = frame.filter(pl.col("kaiju") == kaiju)
    a = frame.filter(pl.col("deck") == deck).sort("cell", "game")[column].cast(pl.Float64)
    b = frame.filter(pl.col("deck") == "full").sort("cell", "game")[column].cast(pl.Float64)
    return float((a - b).mean())


def test_verdicts_are_registered_and_read_the_pages_run(catalog) -> None:
    analysis = get_analysis(installed(GAME))
    limits = load_limits(CATALOGS / GAME / "limits.toml", ("win_rate", "deck_gap"))
    got = analysis.verdicts(catalog, limits)
    ids = [v.id for v in got]
    assert len(ids) == len(set(ids)) and all(v.kind in KINDS for v in got)
    assert {"comparison:alpha_typical", "gap:alpha:win", "flag:deck_gap:cinderwyrm"} <= set(ids)
    assert all(v.options == {"alpha_samples": report.SAMPLES} and not v.seats for v in got)
    kinds = {v.kind for v in analysis.variants(catalog)}
    assert kinds == {"sample", "policy"}
    assert [w for w, _ in analysis.rests_on(catalog)] == ["format", "policies", "decks"]


def test_verdicts_measure_what_the_rows_say(tiny) -> None:
    verdicts, rows, frame = tiny
    by = {v.id: v.measure(rows, None) for v in verdicts}
    win = pl.col("result") == 0
    frame = frame.with_columns(win=win.cast(pl.Int8))
    for metric, column in (("win", "win"), ("lesson_took", "lesson_took")):
        want = _gap(frame, "alpha", column)
        o = by[f"gap:alpha:{metric}"]
        assert math.isclose(o.value, want, abs_tol=1e-9)
        assert o.label == (
            "alpha above" if o.low > 0 else "alpha below" if o.high < 0 else "no gap"
        )
    # the random decks' mean and spread of the win-rate gap
    samples = [f"alpha-sample-{k}" for k in range(1, report.SAMPLES + 1)]
    gaps = [_gap(frame, d, "win") for d in samples]
    mean = sum(gaps) / len(gaps)
    assert math.isclose(by["comparison:random:win"].value, mean, abs_tol=1e-9)
    # the kaiju the catalog alpha moves most, and the typical-of-random verdict
    kaiju = sorted(frame["kaiju"].unique().to_list())
    moved = {k: _gap(frame, "alpha", "win", k) for k in kaiju}
    top = max(kaiju, key=lambda k: (abs(moved[k]), [-ord(c) for c in k]))
    assert by["gap:alpha:kaiju"].label.startswith(top + ": ")
    assert math.isclose(by["gap:alpha:kaiju"].value, moved[top], abs_tol=1e-9)
    lo, hi = min(gaps), max(gaps)
    inside_win = lo <= _gap(frame, "alpha", "win") <= hi
    assert (
        "win" in by["comparison:alpha_typical"].label.split("on ")[-1].split(", ")
    ) != inside_win
    # the win-rate flags and the easiest / hardest kaiju, from the full spread's rows
    full = frame.filter(pl.col("deck") == "full").group_by("kaiju").agg(pl.col("win").mean())
    rates = dict(full.iter_rows())
    assert by["worst:kaiju"].label == min(rates, key=rates.get)
    assert by["best:kaiju"].label == max(rates, key=rates.get)


def test_a_random_deck_given_as_the_alpha_plays_its_own_rows(tmp_path, catalog) -> None:
    """alpha-sample-3's cards given as --alpha-list ids (no file): the deck alpha plays
    exactly the rows of alpha-sample-3 of the same run (why a sample variant may re-read
    the study's rows instead of rerunning it)."""
    deck = next(d for d in V.alpha_samples(catalog, report.SAMPLES, 0) if d.id == "alpha-sample-3")
    listed = {"file": "x", "cards": [c.id for c in deck.cards]}
    run = simulate(
        GAME,
        V.STUDY,
        n=20,
        seed=1,
        store_root=tmp_path,
        options={**V.OPTIONS, "alpha_list": listed},
    )
    frame = _rows(run)
    alpha = frame.filter(pl.col("deck") == "alpha").drop("deck")
    assert alpha.equals(frame.filter(pl.col("deck") == "alpha-sample-3").drop("deck"))


def test_a_random_deck_read_in_the_alphas_place_is_the_run_that_plays_it(tmp_path, catalog):
    """A sample variant re-reads the study's rows with alpha-sample-k as the alpha
    (Variant.stand_in): every game plays every deck on the same seeds, so its gaps are
    those of a run made with that deck as --alpha-list."""
    variant = next(v for v in V.variants(catalog) if v.id == "alpha=alpha-sample-3")
    assert variant.rereads and variant.stand_in == {"alpha": "alpha-sample-3"}
    deck = next(d for d in V.alpha_samples(catalog, report.SAMPLES, 0) if d.id == "alpha-sample-3")
    listed = {"file": "x", "cards": [c.id for c in deck.cards]}
    base = _study(tmp_path / "a", **V.OPTIONS)
    other = _study(tmp_path / "b", **V.OPTIONS, alpha_list=listed)
    verdicts = [v for v in V.verdicts(catalog, {}) if v.id.startswith("gap:alpha:")]
    one = connect(tmp_path / "a", catalog=None, runs=[base.plan.run_id])
    two = connect(tmp_path / "b", catalog=None, runs=[other.plan.run_id])
    try:
        stand_in = (("alpha", "alpha-sample-3"),)
        read = RunRows(one, queries.view_of(one, V.STUDY), base.plan.run_id, V.STUDY, stand_in)
        rerun = RunRows(two, queries.view_of(two, V.STUDY), other.plan.run_id, V.STUDY)
        for v in verdicts:
            a, b = v.measure(read, None), v.measure(rerun, None)
            assert (a.label, a.value) == (b.label, pytest.approx(b.value)), v.id
    finally:
        one.close()
        two.close()
