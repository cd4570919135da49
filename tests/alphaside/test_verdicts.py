"""ALPHASIDE's verdicts (analysis/alphaside/verdicts.py) on a tiny run of the page's own
experiments: each measure against the rows counted here in polars, seat by seat."""

import polars as pl
import pytest

from analysis.alphaside import ANALYSIS, queries, report
from analysis.flags import Limit
from analysis.query import connect
from analysis.readings import wilson
from analysis.verdicts import RunRows, flag_id
from sims.alphaside.catalog import load_catalog
from sims.core.runner import simulate
from tests.conftest import CATALOGS

LIMIT = Limit("unit_score", "a unit's duel score", 0.30, 0.70, "assumed")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The page's two runs, tiny: 10 games a duel cell, 4 a squad cell."""
    store = tmp_path_factory.mktemp("verdicts")
    runs = {
        exp: simulate("alphaside", exp, n=n, seed=3, catalog_root=CATALOGS, store_root=store)
        for exp, n in ((queries.DUEL, 640), (queries.SQUADS, 64))
    }
    con = connect(store, catalog=CATALOGS, runs=[r.plan.run_id for r in runs.values()])
    rows = {
        exp: RunRows(con, queries.view_of(con, exp), r.plan.run_id, exp) for exp, r in runs.items()
    }
    yield rows
    con.close()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def by_hand(frame: pl.DataFrame, key: str, seat: str | None) -> dict[str, tuple[int, int]]:
    """(wins, games) of each choice from its seat(s), mirrors left out."""
    out: dict[str, list[int]] = {}
    for r in frame.iter_rows(named=True):
        a, b = r[f"{key}_a"], r[f"{key}_b"]
        if a == b:
            continue
        for me, side in ((a, "a"), (b, "b")):
            if seat in (None, side):
                tally = out.setdefault(me, [0, 0])
                tally[0] += r["winner"] == side
                tally[1] += 1
    return {k: (w, g) for k, (w, g) in out.items()}


def test_declared_as_the_page_runs(catalog):
    vs = ANALYSIS.verdicts(catalog, {"unit_score": LIMIT})
    ids = {v.id for v in vs}
    assert {"best:unit", "worst:unit", "best:squad", "worst:squad"} <= ids
    assert {"side_a:duel", "side_a:squads"} <= ids
    assert {flag_id("unit_score", u) for u in catalog.units} <= ids
    assert {v.experiment for v in vs} == {queries.DUEL, queries.SQUADS}
    assert all(dict(v.options) == {} for v in vs)  # report.run_default_experiments: none
    assert report.SQUAD_SHARE == 4  # the squads verdicts read the page's N // 4 games
    variants = ANALYSIS.variants(catalog)
    assert [v.id for v in variants] == [f"policy={p}" for p in catalog.policies]
    for v in variants:
        c = load_catalog(CATALOGS, overrides=dict(v.sets))
        assert {u.policy for u in c.units.values()} == {v.id.split("=")[1]}
    assert [w for w, _ in ANALYSIS.rests_on(catalog)] == ["policies", "format", "board"]


@pytest.mark.parametrize("seat", [None, "a", "b"])
@pytest.mark.parametrize("key,experiment", [("unit", "duel"), ("squad", "squads")])
def test_best_and_worst_measured_right(run, catalog, seat, key, experiment):
    rows = run[experiment]
    counts = by_hand(rows.frame(), key, seat)
    score = {k: w / g for k, (w, g) in counts.items()}
    vs = {v.id: v for v in ANALYSIS.verdicts(catalog, {"unit_score": LIMIT})}
    best, worst = vs[f"best:{key}"].measure(rows, seat), vs[f"worst:{key}"].measure(rows, seat)
    assert best.value == pytest.approx(max(score.values()))
    assert score[best.label] == pytest.approx(best.value)
    assert worst.value == pytest.approx(min(score.values()))
    assert score[worst.label] == pytest.approx(worst.value)
    low, high = wilson(*counts[best.label])
    assert (best.low, best.high) == (pytest.approx(low), pytest.approx(high))


def test_flags_and_side_a_measured_right(run, catalog):
    rows = run["duel"]
    frame = rows.frame()
    counts = by_hand(frame, "unit", None)
    vs = {v.id: v for v in ANALYSIS.verdicts(catalog, {"unit_score": LIMIT})}
    for unit, (w, g) in counts.items():
        # the side of the limit the hand score lies on (analysis.verdicts.side_of)
        want = "above" if w / g > 0.70 else "below" if w / g < 0.30 else "within"
        out = vs[flag_id("unit_score", unit)].measure(rows, None)
        assert out.label == want and out.value == pytest.approx(w / g), unit
        assert vs[flag_id("unit_score", unit)].headline(out) == (want != "within")
    wins_a = int((frame["winner"] == "a").sum())
    low, high = wilson(wins_a, frame.height)
    side = vs["side_a:duel"].measure(rows, None)
    assert side.value == pytest.approx(wins_a / frame.height)
    assert side.label == ("a ahead" if low > 0.5 else "b ahead" if high < 0.5 else "even")
    assert not vs["side_a:duel"].seats
