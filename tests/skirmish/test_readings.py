"""Skirmish's readings as data (catalogs/skirmish/readings.toml, DESIGN.md "Verdicts: what
they rest on"): the file loads and agrees with the game and with ASSUMPTIONS.md; the
``cover_between`` switch (003 H5 "that obstacle lies between attacker and target") on a
hand-worked hex line and in both engines; and the page's verdicts
(analysis/skirmish/verdicts.py) measured on a tiny run."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from analysis.flags import load_limits
from analysis.query import connect
from analysis.skirmish import ANALYSIS
from analysis.skirmish.flags import LIMITS
from analysis.verdicts import RunRows
from sims.core import readings
from sims.core.runner import simulate
from sims.skirmish import geometry, reference, rules, vector
from sims.skirmish.battle import compile_battle, metrics
from sims.skirmish.catalog import load_catalog
from sims.skirmish.maps import flower
from tests.conftest import CATALOGS
from tests.skirmish.test_board import flat as board_flat
from tests.skirmish.test_board_engines import BOARD_METRICS
from tests.skirmish.test_engines import assert_same_distribution, side
from tests.skirmish.test_geometry import H, flat

# ---------------------------------------------------------------- the file


@pytest.fixture(scope="module")
def skirmish_readings() -> readings.Readings:
    return readings.load(CATALOGS, "skirmish")


def test_readings_load_and_agree_with_the_game(skirmish_readings):
    assert len(skirmish_readings.readings) >= 40  # every reading of ASSUMPTIONS.md's prose
    assert readings.problems(skirmish_readings, load_catalog, CATALOGS) == []
    switches = {r.parameter: (r.taken, r.alternatives) for r in skirmish_readings.readings}
    assert switches["glance_damage"] == ("none", ("half",))
    assert switches["cover_between"] == ("nearer", ("line",))
    assert switches["high_ground_attacks"] == ("all", ("ranged",))
    assert switches["board"][0] == "broken"


def test_assumptions_section_is_generated_from_the_file(skirmish_readings):
    text = (CATALOGS / "skirmish" / "ASSUMPTIONS.md").read_text()
    assert readings.section_of(text) == readings.render(skirmish_readings)
    # the hand-written readings prose is gone: one readings section
    assert text.count("## Readings") == 1


def test_placeholders_leave_out_what_the_claims_fix(skirmish_readings):
    from sims.skirmish import KIND_FILES

    moved = {p.name for p in readings.placeholders(skirmish_readings, CATALOGS, KIND_FILES)}
    assert moved, "the placeholder ranges move some assumed values"
    # B3 weights, the standard Medium's bands (F4), the Cannon crit-share claim (F5)
    assert not any(name.endswith(".weight") for name in moved)
    for part in ("foreman_frame", "hardhat", "rifle", "buckler", "walker", "sensor_mast"):
        assert f"part.{part}.size" not in moved and f"part.{part}.armor" not in moved
    assert "part.railgun.pen" in moved and "pilot.vex.gunnery" in moved


# ---------------------------------------------------------------- cover_between (H5)


def test_obstacle_between_reads_the_switch():
    nearer, on_line = np.array([True, True, False]), np.array([True, False, False])
    assert rules.obstacle_between("nearer", nearer, on_line).tolist() == [True, True, False]
    assert rules.obstacle_between("line", nearer, on_line).tolist() == [True, False, False]
    with pytest.raises(ValueError):
        rules.obstacle_between("beside", nearer, on_line)


def test_cover_between_on_a_hand_worked_line():
    """Attacker (1,0), target (5,2) on open level-0 ground, N = 5. Odd-r cube: attacker
    (1,-1,0), target (4,-6,2). The target's neighbours at distance 4 from the attacker (the
    rest are at 5 or 6) are (4,1) (cube (4,-5,1)) and (4,2) (cube (3,-5,2)). The hex line
    (cube interpolation at i/5, rounded) is (2,0) (2,1) (3,1) (4,2): (4,2) is on it, (4,1)
    is not. An obstacle one level high at (4,1): "nearer" gives hard cover, "line" none.
    At (4,2) with the attacker on a level-1 hill (eye 2, sight at (4,2) 2 - 4/5 = 1.2 above
    the obstacle's top 1, so not the at-height rule): both readings give hard cover."""
    a, t = H(1, 0), H(5, 2)
    off_line = flat(c4r1="0#1")
    near = geometry.build(off_line, cover_between="nearer")
    line = geometry.build(off_line, cover_between="line")
    assert near.line_hexes(a, t).tolist() == [a, H(2, 0), H(2, 1), H(3, 1), H(4, 2), t]
    assert near.los[a, t] and line.los[a, t]
    assert near.hard_cover[a, t] and not line.hard_cover[a, t]
    on_line = flat(c1r0="1.", c4r2="0#1")
    for reading in ("nearer", "line"):
        g = geometry.build(on_line, cover_between=reading)
        assert g.los[a, t] and g.hard_cover[a, t], reading
    # beside (distance 5) or behind the target: neither reading
    for tok in ("c5r1", "c6r2"):
        for reading in ("nearer", "line"):
            assert not geometry.build(flat(**{tok: "0#1"}), cover_between=reading).hard_cover[a, t]


def test_line_is_the_narrower_reading(skirmish):
    """Every drawn line's hex next to the target is nearer the attacker, so "line" covers
    a subset of "nearer"'s pairs (and sight and soft cover do not move)."""
    m = walled_map()
    near = geometry.build(m, skirmish.terrain, falls=False)
    line = geometry.build(m, skirmish.terrain, falls=False, cover_between="line")
    assert not (line.hard_cover & ~near.hard_cover).any()
    assert (near.hard_cover & ~line.hard_cover).any()
    assert (near.los == line.los).all() and (near.soft_cover == line.soft_cover).all()


def walled_map():
    """A small 14 x 9 level map with one-level walls scattered between the ends (fast to
    build and to play), three zones across the middle."""
    walls = ("c3r2", "c3r6", "c5r4", "c6r1", "c7r7", "c8r4", "c10r2", "c10r6", "c4r5", "c9r3")
    m = board_flat(
        14, 9, zones=[flower(4, 4), flower(7, 4), flower(10, 4)], **dict.fromkeys(walls, "0#1")
    )
    return m


def test_engines_agree_under_cover_between_line(skirmish):
    """Vector against reference within 4 standard errors with the "line" reading, a
    cover-seeking careful side against gunline, on a walled map where the two readings
    differ."""
    m = walled_map()
    near = geometry.cached(m, skirmish.terrain, falls=False)
    line = geometry.cached(m, skirmish.terrain, falls=False, cover_between="line")
    assert line.hard_cover.sum() < near.hard_cover.sum()
    catalog = replace(skirmish, maps={**skirmish.maps, m.id: m})
    params = replace(skirmish.params, board=m.id, cover_between="line")
    battle = compile_battle(catalog, side("lancer", "gunline"), side("warden", "careful"), params)
    assert (battle.board.geo.hard_cover == line.hard_cover).all()
    ref = metrics(reference.play([battle], np.zeros(300, np.int64), np.random.default_rng(26)))
    vec = metrics(vector.play([battle], np.zeros(6_000, np.int64), np.random.default_rng(27)))
    assert_same_distribution(ref, vec, "walled line", BOARD_METRICS)


def test_explain_follows_cover_between(skirmish):
    """mechbal explain shot names the obstacle under "nearer" and none under "line" for a
    pair the two readings split (its own check against the tables raises otherwise)."""
    from sims.skirmish.explain.board import explain_board

    m = walled_map()
    near = geometry.cached(m, skirmish.terrain)
    line = geometry.cached(m, skirmish.terrain, cover_between="line")
    split = near.hard_cover & ~line.hard_cover & near.passable[:, None] & near.passable[None, :]
    a, t = (int(x) for x in np.argwhere(split)[0])
    shown = {}
    for reading in ("nearer", "line"):
        params = replace(skirmish.params, cover_between=reading)
        catalog = replace(skirmish, maps={**skirmish.maps, m.id: m}, params=params)
        shown[reading] = explain_board(catalog, m.id, near.coords(a), near.coords(t)).hard_sources
    assert len(shown["nearer"]) == 1 and "lies between" in shown["nearer"][0]
    assert shown["line"] == ()


# ---------------------------------------------------------------- high_ground_attacks (H5)


def test_high_ground_attacks_by_hand(skirmish):
    """H5 "An attacker at least one level above the target gets 1[+]" (high_ground_dice
    1): a melee attack from high ground, nothing else applying, nets +1 under "all" and 0
    under "ranged"; a ranged one +1 under both; the batched form gives the same."""
    from sims.skirmish.modifiers import Situation, net_dice

    every = skirmish.params
    ranged_only = replace(every, high_ground_attacks="ranged")
    melee, shot = Situation(melee=True, high_ground=True), Situation(high_ground=True)
    assert (int(net_dice(melee, every)), int(net_dice(shot, every))) == (1, 1)
    assert (int(net_dice(melee, ranged_only)), int(net_dice(shot, ranged_only))) == (0, 1)
    batch = Situation(melee=np.array([True, False, True]), high_ground=np.array([1, 1, 0], bool))
    assert net_dice(batch, ranged_only).tolist() == [0, 1, 0]
    assert net_dice(batch, every).tolist() == [1, 1, 0]


def hill_map():
    """A small map whose west half (columns 0-6) is a level-1 plateau above level-0
    ground: brawlers coming from both ends meet at its edge, across a level."""
    plateau = {f"c{c}r{r}": "1." for c in range(7) for r in range(9)}
    return board_flat(14, 9, zones=[flower(4, 4), flower(7, 4), flower(10, 4)], **plateau)


def test_engines_agree_under_high_ground_ranged(skirmish):
    """Vector against reference within 4 standard errors with high ground for ranged
    attacks only, brawlers (melee) meeting among hills."""
    m = hill_map()
    catalog = replace(skirmish, maps={**skirmish.maps, m.id: m})
    params = replace(skirmish.params, board=m.id, high_ground_attacks="ranged")
    battle = compile_battle(catalog, side("reaver", "brawler"), side("foreman", "brawler"), params)
    ref = metrics(reference.play([battle], np.zeros(300, np.int64), np.random.default_rng(28)))
    vec = metrics(vector.play([battle], np.zeros(6_000, np.int64), np.random.default_rng(29)))
    assert_same_distribution(ref, vec, "hills ranged", BOARD_METRICS)


# ---------------------------------------------------------------- verdicts


@pytest.fixture(scope="module")
def tiny_duel(tmp_path_factory):
    """The page's duel grid, tiny and on the track (fast): 16 battles a cell."""
    store = tmp_path_factory.mktemp("store")
    run = simulate(
        "skirmish",
        "duel",
        n=1024,
        seed=3,
        store_root=store,
        catalog_root=CATALOGS,
        sets={"board": "track"},
    )
    con = connect(store, runs=[run.plan.run_id])
    yield RunRows(con, "duel", run.plan.run_id, "duel")
    con.close()


@pytest.fixture(scope="module")
def page_verdicts(skirmish):
    limits = load_limits(CATALOGS / "skirmish" / "limits.toml", LIMITS)
    return {v.id: v for v in ANALYSIS.verdicts(skirmish, limits)}


def _scores(frame: pl.DataFrame, seat: str | None) -> dict[str, float]:
    """Each kit's wins + draws / 2 over its battles against other kits, by hand."""
    games = frame.filter(pl.col("side_a") != pl.col("side_b"))
    points: dict[str, list[float]] = {}
    for a, b, winner in games.select("side_a", "side_b", "winner").iter_rows():
        score_a = 1.0 if winner == "a" else 0.0 if winner == "b" else 0.5
        if seat in (None, "a"):
            points.setdefault(a, []).append(score_a)
        if seat in (None, "b"):
            points.setdefault(b, []).append(1.0 - score_a)
    return {k: sum(v) / len(v) for k, v in points.items()}


@pytest.mark.parametrize("seat", [None, "a", "b"])
def test_best_and_worst_kit_measure_right(tiny_duel, page_verdicts, seat):
    scores = _scores(tiny_duel.frame(), seat)
    best = page_verdicts["best:kit"].measure(tiny_duel, seat)
    worst = page_verdicts["worst:kit"].measure(tiny_duel, seat)
    assert best.value == pytest.approx(max(scores.values()))
    assert worst.value == pytest.approx(min(scores.values()))
    assert scores[best.label] == max(scores.values())
    assert scores[worst.label] == min(scores.values())
    assert best.low <= best.value <= best.high


def test_win_rate_flags_follow_the_one_flag_rule(tiny_duel, page_verdicts, skirmish):
    scores = _scores(tiny_duel.frame(), None)
    for kit in skirmish.kits:
        out = page_verdicts[f"flag:win_rate:{kit}"].measure(tiny_duel, None)
        assert out.value == pytest.approx(scores[kit])
        # the side of the limit the score lies on (analysis.verdicts.side_of)
        s = scores[kit]
        want = "above" if s > 0.60 else "below" if s < 0.40 else "within"
        assert out.label == want


def test_crit_share_flag_reads_the_runs_settings(tiny_duel, page_verdicts, tmp_path):
    """The railgun (Pen 5) crits on more than the 40% limit at margin 4 (exact, the page's
    figure 52.7%); the same verdict on a run made with crit_margin = 6 reads that margin."""
    railgun = page_verdicts["flag:crit_share:railgun"]
    assert not railgun.seats
    base = railgun.measure(tiny_duel, None)
    assert base.label == "above" and base.value == pytest.approx(0.527, abs=0.001)
    assert railgun.headline(base)
    run = simulate(
        "skirmish",
        "duel",
        n=64,
        seed=3,
        store_root=tmp_path,
        catalog_root=CATALOGS,
        sets={"board": "track", "crit_margin": 6},
        options={"kits": ["foreman", "reaver"]},
    )
    con = connect(tmp_path, runs=[run.plan.run_id])
    try:
        moved = railgun.measure(RunRows(con, "duel", run.plan.run_id, "duel"), None)
    finally:
        con.close()
    assert moved.value < base.value and not math.isnan(moved.value)


def test_variants_and_rests_on(skirmish):
    ids = [v.id for v in ANALYSIS.variants(skirmish)]
    assert ids == [f"policy={p}" for p in skirmish.policies if p != "gunline"]
    assert all(
        v.kind == "policy" and v.options["policy"] != ["gunline"]
        for v in ANALYSIS.variants(skirmish)
    )
    assert {what for what, _ in ANALYSIS.rests_on(skirmish)} >= {"policies", "format", "board"}
