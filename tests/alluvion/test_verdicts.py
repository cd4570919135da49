"""Alluvion's verdicts (analysis/alluvion/verdicts.py) measured on a tiny ``loadouts``
run, each against the same number computed here from the run's rows with polars (not by
the queries under test): the best and worst loadout, a flag's direction, the brawler
mirror's draw share and side a's score; and the variants and what the page rests on."""

from __future__ import annotations

import math

import polars as pl
import pytest

from analysis.alluvion import ANALYSIS, queries
from analysis.alluvion import verdicts as V
from analysis.flags import Limit
from analysis.query import connect
from analysis.readings import wilson
from analysis.verdicts import RunRows, flag_id
from sims.alluvion.catalog import load_catalog
from sims.core.runner import simulate
from tests.conftest import CATALOGS

LIMIT = Limit("loadout_score", "", 0.30, 0.70, "assumed")


@pytest.fixture(scope="module")
def cat():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    store = tmp_path_factory.mktemp("store")
    run = simulate(
        "alluvion",
        "loadouts",
        n=1280,
        seed=3,
        catalog_root=CATALOGS,
        store_root=store,
        progress=None,
    )
    con = connect(store, catalog=CATALOGS, runs=[run.plan.run_id])
    yield RunRows(con, queries.view_of(con), run.plan.run_id, "loadouts")
    con.close()


def by_hand(frame: pl.DataFrame, seat: str | None) -> pl.DataFrame:
    """Each loadout's score (wins + draws / 2 over its duels, mirrors left out) from the
    rows: from side a its wins are winner 'a', from side b winner 'b'."""
    parts = []
    for me, other, win in (("a", "b", "a"), ("b", "a", "b")):
        if seat not in (None, me):
            continue
        parts.append(
            frame.filter(pl.col(f"loadout_{me}") != pl.col(f"loadout_{other}")).select(
                pl.col(f"loadout_{me}").alias("subject"),
                ((pl.col("winner") == win).cast(float) + (pl.col("winner") == "draw") / 2).alias(
                    "points"
                ),
            )
        )
    return (
        pl.concat(parts)
        .group_by("subject")
        .agg(pl.col("points").sum().alias("points"), pl.len().alias("duels"))
        .with_columns((pl.col("points") / pl.col("duels")).alias("score"))
        .sort("score", descending=True)
    )


def test_registered(cat):
    assert ANALYSIS.verdicts is V.verdicts
    assert ANALYSIS.variants is V.variants and ANALYSIS.rests_on is V.rests_on
    ids = [v.id for v in V.verdicts(cat, {"loadout_score": LIMIT})]
    assert ids[:2] == ["best:loadout", "worst:loadout"]
    assert {flag_id("loadout_score", x) for x in cat.loadouts} <= set(ids)
    assert {"draws:brawler_mirror", "side_a"} <= set(ids)
    verdicts = V.verdicts(cat, {"loadout_score": LIMIT})
    # the page's run: the loadouts experiment with no options (report.run_default_experiments)
    assert all(v.experiment == "loadouts" and dict(v.options) == {} for v in verdicts)


@pytest.mark.parametrize("seat", [None, "a", "b"])
def test_best_and_worst_by_hand(rows, cat, seat):
    table = by_hand(rows.frame(), seat)
    verdicts = {v.id: v for v in V.verdicts(cat, {"loadout_score": LIMIT})}
    best = verdicts["best:loadout"].measure(rows, seat)
    worst = verdicts["worst:loadout"].measure(rows, seat)
    top, bottom = table.row(0, named=True), table.row(-1, named=True)
    assert best.label == top["subject"] and best.value == pytest.approx(top["score"])
    assert worst.label == bottom["subject"] and worst.value == pytest.approx(bottom["score"])
    # a flag's direction by the one flag rule, on the Wilson interval of the hand score
    for r in table.iter_rows(named=True):
        low, high = wilson(r["points"], r["duels"])
        want = "above" if low > LIMIT.max else "below" if high < LIMIT.min else "within"
        got = verdicts[flag_id("loadout_score", r["subject"])].measure(rows, seat)
        assert got.label == want and got.value == pytest.approx(r["score"])


def test_mirror_draws_and_side_a_by_hand(rows, cat):
    frame = rows.frame()
    mirror = frame.filter((pl.col("loadout_a") == "brawler") & (pl.col("loadout_b") == "brawler"))
    share = (mirror["winner"] == "draw").mean()
    got = V.mirror_draws(rows, None)
    assert got.value == pytest.approx(share)
    low, high = wilson((mirror["winner"] == "draw").sum(), mirror.height)
    assert (got.low, got.high) == (pytest.approx(low), pytest.approx(high))
    want = (
        "most mirrors drawn"
        if low > 0.5
        else "mostly decided"
        if high < 0.5
        else "about half drawn"
    )
    assert got.label == want
    score_a = ((frame["winner"] == "a").sum() + (frame["winner"] == "draw").sum() / 2) / len(frame)
    side = V.first_side(rows, None)
    assert side.value == pytest.approx(score_a)
    assert side.label in ("first ahead", "second ahead", "even")
    assert (side.label == "even") == (side.low <= 0.5 <= side.high)


def test_variants_and_rests_on(cat):
    variants = {v.id: v for v in V.variants(cat)}
    for pol in cat.policies:
        sets = variants[f"policy={pol}"].sets
        assert sets == {f"loadout.{x}.policy": pol for x in cat.loadouts}
    assert variants["brawler_grapple=off"].sets == {"policy.brawler.grapple": False}
    assert all(v.kind == "policy" for v in variants.values())
    for v in variants.values():  # every variant's --set loads
        load_catalog(CATALOGS, overrides=dict(v.sets))
    what = dict(V.rests_on(cat))
    assert set(what) == {"policies", "format", "board"}
    assert "12 hexes" in what["format"] and "10 rounds" in what["format"]
    assert not math.isnan(V.DRAWN_ABOVE)
