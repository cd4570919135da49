"""The whole-game study's readings on hand-made numbers: the paired differences (queries
over a tiny frame of four games, each played with both decks), their sentences, the
ranking, study completion, scarcity, the exact lesson odds, and the balance flags
(raised only when the 95% interval lies wholly outside a limit). Every expected value is
worked out by hand in a comment."""

from __future__ import annotations

from fractions import Fraction

import duckdb
import polars as pl
import pytest

from analysis.flags import Limit
from analysis.labpartners import queries, report
from analysis.labpartners.flags import abs_interval, deck_gap_flags, win_rate_flags
from analysis.query import MACROS
from sims.labpartners.catalog import Card

VIEW = "full_spread_vs_alpha"


def hand_rows() -> pl.DataFrame:
    """Four games of one cell (kaiju k, 2 players), each with the alpha deck and the full
    spread. Only wins and gaps differ between the decks:
      win  alpha 1 0 1 0, full 1 1 1 1
      gaps alpha 2 1 2 1, full 0 0 1 0
    Seat 1 holds study "s1" (done in games 0 and 1 with both decks), seat 2 "s2" (never
    done); seats 3-5 are empty. The lesson's Form was in the opening hands in game 0 only
    and among the body cards seen in games 0-2, with both decks."""
    rows = []
    for deck, wins, gaps in (
        ("alpha", [1, 0, 1, 0], [2, 1, 2, 1]),
        ("full", [1, 1, 1, 1], [0, 0, 1, 0]),
    ):
        for g in range(4):
            rows.append(
                {
                    "run": "r1",
                    "cell": 0,
                    "chunk": 0,
                    "game": g,
                    "deck": deck,
                    "kaiju": "k",
                    "players": 2,
                    "lesson_took": g < 2,
                    "gaps": gaps[g],
                    "weak_matches": 1,
                    "result": "win" if wins[g] else "city",
                    "gpa": 2.0 if wins[g] else 1.0,
                    "study_1": "s1",
                    "study_done_1": g < 2,
                    "study_2": "s2",
                    "study_done_2": False,
                    **{f"study_{k}": None for k in (3, 4, 5)},
                    **{f"study_done_{k}": None for k in (3, 4, 5)},
                    "body_seen": 3,
                    "lesson_seen": g != 3,
                    "lesson_dealt": g == 0,
                    # alpha: a Beast mech with a gap at arm_2; full: a Vehicle one
                    "legs": f"legs-{'beast' if deck == 'alpha' else 'vehicle'}-melee",
                    "torso": "torso-beast-energy" if deck == "alpha" else "torso-vehicle-energy",
                    "head": None,
                    "arm_1": "arms-clockwork-sonic-1",
                    "arm_2": None,
                }
            )
    schema = {f"study_{k}": pl.String for k in range(1, 6)}
    schema |= {f"study_done_{k}": pl.Boolean for k in range(1, 6)}
    schema |= {c: pl.String for c in ("head", "arm_2")}
    return pl.DataFrame(rows, schema_overrides=schema)


@pytest.fixture
def con():
    c = duckdb.connect()
    c.execute(MACROS)
    c.register("hand", hand_rows())
    c.execute(f"CREATE TABLE {VIEW} AS SELECT * FROM hand")
    yield c
    c.close()


def test_paired_differences_by_hand(con):
    diffs = queries.paired_differences(con, VIEW).filter(pl.col("deck") == "alpha")
    win = diffs.filter(pl.col("metric") == "win").row(0, named=True)
    # per game alpha - full: 0, -1, 0, -1: mean -0.5; deviations +-0.5, squares sum 1,
    # sample variance 1/3, sd 0.577350; SE = sd / sqrt(4) = 0.288675; half-width 1.96 SE
    # = 0.565803 -> -1.065803 to +0.065803
    assert win["games"] == 4
    assert win["diff"] == pytest.approx(-0.5)
    assert win["low"] == pytest.approx(-1.065803, abs=1e-6)
    assert win["high"] == pytest.approx(0.065803, abs=1e-6)
    assert (win["mean_deck"], win["mean_base"]) == pytest.approx((0.5, 1.0))
    gaps = diffs.filter(pl.col("metric") == "gaps").row(0, named=True)
    # per game 2, 1, 1, 1: mean 1.25; deviations .75, -.25 x3, squares .75, variance
    # .25, sd .5; SE .25; half-width .49 -> 0.76 to 1.74
    assert gaps["diff"] == pytest.approx(1.25)
    assert (gaps["low"], gaps["high"]) == pytest.approx((0.76, 1.74))
    # pooled sd: alpha 2 1 2 1 variance 1/3, full 0 0 1 0 variance .75 / 3 = .25:
    # sqrt((1/3 + 1/4) / 2) = sqrt(7/24) = 0.540062
    assert gaps["sd_pooled"] == pytest.approx(0.540062, abs=1e-6)
    assert set(diffs["metric"]) == set(queries.METRICS)
    for metric in ("lesson_took", "weak_matches", "study_done"):
        row = diffs.filter(pl.col("metric") == metric).row(0, named=True)
        assert (row["diff"], row["low"], row["high"]) == (0.0, 0.0, 0.0), metric


def test_difference_sentences_and_ranking_by_hand(con):
    diffs = queries.paired_differences(con, VIEW)
    ranked = report.biggest_first(diffs)
    # effect sizes: gaps 1.25 / 0.540062 = 2.3146; win: pooled sd sqrt((1/3 + 0) / 2)
    # = 0.408248, 0.5 / 0.408248 = 1.2247; gpa the same as win (2.0 or 1.0 follows the
    # win, the difference and spread both x1); the rest 0, by name
    assert ranked["metric"].to_list() == [
        "gaps",
        "gpa",
        "win",
        "lesson_took",
        "study_done",
        "weak_matches",
    ]
    assert ranked["effect_size"][0] == pytest.approx(2.3146, abs=1e-4)
    rows = {r["metric"]: r for r in ranked.iter_rows(named=True)}
    assert report.difference_sentence(rows["gaps"]) == (
        "Gaps per mech: the alpha deck is 1.25 per mech above the full spread (95% +0.76 to "
        "+1.74), 1.50 against 0.25 over the same 4 games."
    )
    # win in percentage points: -50.0 (95% -106.6 to +6.6): the interval holds 0
    assert report.difference_sentence(rows["win"]) == (
        "Win rate: the alpha deck is 50.0 percentage points below the full spread (95% "
        "-106.6 to +6.6), 50.0% against 100.0% over the same 4 games: the interval holds 0, "
        "so the data cannot decide whether they differ."
    )
    assert report.difference_sentence(rows["lesson_took"]).startswith(
        "Lesson-take rate: the alpha deck is level with the full spread (95% +0.0 to +0.0), "
        "50.0% against 50.0%"
    )


def test_deck_means_study_completion_and_scarcity_by_hand(con):
    means = queries.deck_means(con, VIEW)
    win = means.filter((pl.col("deck") == "alpha") & (pl.col("metric") == "win")).row(0, named=True)
    # 2 wins in 4: Wilson centre (.5 + 3.8416/8) / (1 + 3.8416/4) = .9802 / 1.9604 = .5;
    # half 1.96 sqrt(.0625 + .060025) / 1.9604 = 1.96 x .350036 / 1.9604 = .349964
    assert (win["games"], win["mean"]) == (4, 0.5)
    assert (win["low"], win["high"]) == pytest.approx((0.150036, 0.849964), abs=1e-6)
    study = means.filter((pl.col("deck") == "full") & (pl.col("metric") == "study_done"))
    # per game (done seats) / 2 players: .5 .5 0 0 -> mean .25
    assert study["mean"][0] == pytest.approx(0.25)
    done = queries.study_completion(con, VIEW).filter(pl.col("deck") == "alpha")
    assert done.select("study", "seats", "done").rows() == [("s1", 4, 2), ("s2", 4, 0)]
    scarce = queries.scarcity(con, VIEW)
    alpha = scarce.filter(pl.col("deck") == "alpha")
    # alpha mechs: Beast Legs and Torso, a Clockwork Arm; Types melee, energy, sonic
    assert alpha.select("attribute", "value", "mechs").rows() == [
        ("form", "beast", 4),
        ("form", "clockwork", 4),
        ("type", "energy", 4),
        ("type", "melee", 4),
        ("type", "sonic", 4),
    ]
    full = report.complete_scarcity(
        scarce, ["full"], {"full": 4}, ["beast", "vehicle"], ["magic"], "r1"
    )
    # Beast and Magic were never held with the full spread: 0 of 4, Wilson high
    # (0 + 3.8416/8 + 1.96 sqrt(3.8416/64)) / 1.9604 = (.4802 + .4802) / 1.9604 = .489900
    assert full.select("value", "mechs", "share").rows() == [
        ("beast", 0, 0.0),
        ("vehicle", 4, 1.0),
        ("magic", 0, 0.0),
    ]
    assert full["high"][0] == pytest.approx(0.4899, abs=1e-6)


def test_lesson_dealt_and_seen_by_hand(con):
    dealt = queries.lesson_dealt(con, VIEW)
    # per deck, 2 players: 1 of 4 games dealt the lesson's Form. Wilson (z^2 = 3.8416):
    # centre (.25 + .4802) / 1.9604 = .372475; half 1.96 sqrt(.25 x .75 / 4 + 3.8416 / 64)
    # / 1.9604 = 1.96 x sqrt(.1069) / 1.9604 = 1.96 x .326956 / 1.9604 = .326889
    assert dealt.select("deck", "players", "games", "hits", "rate").rows() == [
        ("alpha", 2, 4, 1, 0.25),
        ("full", 2, 4, 1, 0.25),
    ]
    assert dealt["low"].to_list() == pytest.approx([0.045586] * 2, abs=1e-6)
    assert dealt["high"].to_list() == pytest.approx([0.699364] * 2, abs=1e-6)
    seen = queries.lesson_seen(con, VIEW)
    # 3 of 4 seen, 3 body cards each game; Wilson mirrors 1 of 4: 1 - .699364, 1 - .045586
    assert seen.select("deck", "games", "body_seen", "hits", "rate").rows() == [
        ("alpha", 4, 3.0, 3, 0.75),
        ("full", 4, 3.0, 3, 0.75),
    ]
    assert seen["low"].to_list() == pytest.approx([0.300636] * 2, abs=1e-6)
    assert report.lesson_seen_sentence(seen.head(1)) == (
        "The lesson's Form was among all the body cards that left the draw pile in Assembly "
        "in 75.0% of 4 games with the alpha deck (95% 30.1% to 95.4%; 3.0 body cards left the "
        "pile a game on average)."
    )


def test_exact_lesson_odds_at_the_deal_by_hand():
    deck = [
        Card("legs-beast-melee", "legs", "beast", "melee", 0),
        Card("head-beast-magic", "head", "beast", "magic", 0),
        Card("torso-vehicle-energy", "torso", "vehicle", "energy", 0),
        Card("arms-vehicle-sonic-1", "arms", "vehicle", "sonic", 1),
    ]
    forms = ["beast", "vehicle"]
    odds = report.exact_lesson_dealt(deck, forms, [1, 2, 3, 4])
    # body pile: 2 Beast, 1 Vehicle (the Arm is not in it). P(lesson Beast) = 2/3.
    # k = 1: 2/3 x (1 - C(1,1)/C(3,1)) + 1/3 x (1 - C(2,1)/C(3,1)) = 4/9 + 1/9 = 5/9
    # k = 2: 2/3 x 1 + 1/3 x (1 - C(2,2)/C(3,2)) = 2/3 + 2/9 = 8/9; k = 3: 1; k = 4: no pile
    assert odds == {1: Fraction(5, 9), 2: Fraction(8, 9), 3: Fraction(1)}
    sim = pl.DataFrame(
        {
            "deck": ["d", "d", "d", "e"],
            "players": [1, 2, 3, 1],
            "games": [81, 9, 10, 5],
            "rate": [5 / 9 + 1 / 9, 8 / 9, 1.0, 0.2],
        }
    )
    # hand size 1: cards dealt = players (1, 2, 3); deck e's cards are unknown
    out = report.with_exact(sim, {"d": deck}, forms, hand_size=1)
    assert out["dealt"].to_list() == [1, 2, 3, 1]
    assert out["exact"].to_list() == pytest.approx([5 / 9, 8 / 9, 1.0, None])
    # 1 card: SE sqrt(5/9 x 4/9 / 81) = sqrt(20)/81 = .055212; (6/9 - 5/9) / SE = 2.0125.
    # 3 cards: exact 1, SE 0: no z
    assert out["z"].to_list()[:2] == pytest.approx([2.012461, 0.0], abs=1e-6)
    assert out["z"].to_list()[2:] == [None, None]
    assert report.lesson_check(out) == (
        "0 of 4 (deck, player count) groups lie more than 4 standard errors from the exact "
        "odds; the largest gap is +2.01 standard errors (d at 1 players, 1 cards dealt)."
    )
    # hand size 2 at 1 player deals 2 cards: exact 8/9; a rate of 1 in 81 games is
    # (1 - 8/9) / sqrt(8/9 x 1/9 / 81) = (1/9) / (sqrt(8)/81) = 9 / sqrt(8) = 3.181981
    # standard errors; at 1 card a rate of 1 in 81 games is (4/9) / (sqrt(20)/81)
    # = 36 / sqrt(20) = 8.049845
    two = report.with_exact(sim.head(1).with_columns(rate=pl.lit(1.0)), {"d": deck}, forms, 2)
    assert (two["dealt"][0], two["exact"][0]) == (2, pytest.approx(8 / 9))
    assert two["z"][0] == pytest.approx(3.181981, abs=1e-6)
    one = report.with_exact(sim.head(1).with_columns(rate=pl.lit(1.0)), {"d": deck}, forms, 1)
    assert one["z"][0] == pytest.approx(8.049845, abs=1e-6)
    assert report.lesson_check(one).startswith(
        "1 of 1 (deck, player count) groups lie more than 4 standard errors from the exact "
        "odds; the largest gap is +8.05 standard errors"
    )


# ---- flags -----------------------------------------------------------------------------

WIN = Limit("win_rate", "", 0.40, 0.60, "assumed")
GAP = Limit("deck_gap", "", 0.0, 0.05, "assumed")


def test_win_rate_flags_only_when_the_interval_is_outside():
    win = pl.DataFrame(
        {
            "kaiju": ["a", "b", "c", "d", "e"],
            "games": [100, 100, 1000, 100, 100],
            "wins": [70, 55, 650, 62, 30],
        }
    )
    flags = win_rate_flags(win, WIN, "hand-made")
    # Wilson 95% (z^2 = 3.8416):
    # a 70/100: centre (.7 + .019208) / 1.038416 = .692601, half 1.96 sqrt(.0021 +
    #   .00009604) / 1.038416 = .088451 -> .6041 to .7811: wholly above .60, flagged
    # b 55/100: inside. d 62/100: the point is above .60 but the interval (.522 to .709)
    #   reaches inside: not flagged.
    # c 650/1000: centre .649426, half .029512 -> .6199 to .6789: flagged
    # e 30/100: centre .307399, half .088451 -> .2189 to .3958: wholly below .40, flagged
    assert [(f.subject, f.limit, f.value) for f in flags] == [
        ("a", "win_rate", 0.7),
        ("c", "win_rate", 0.65),
        ("e", "win_rate", 0.3),
    ]
    assert flags[0].sentence == (
        "With the full spread a is beaten in 70.0% of whole games (95% interval 60.4% to "
        "78.1%), above the limit of 60.0%."
    )
    assert flags[2].sentence.endswith("(95% interval 21.9% to 39.6%), below the limit of 40.0%.")
    assert "hand-made" in flags[0].evidence


def test_no_win_rate_flag_within_the_limits():
    win = pl.DataFrame({"kaiju": ["a", "b"], "games": [1000, 1000], "wins": [450, 550]})
    assert win_rate_flags(win, WIN, "") == []


def test_deck_gap_flags_only_when_the_interval_is_outside():
    gaps = pl.DataFrame(
        {
            "kaiju": ["a", "b", "c", "d", "e"],
            "games": [4000] * 5,
            "diff": [-0.10, 0.06, 0.08, -0.07, 0.0],
            "low": [-0.12, 0.04, 0.06, -0.09, -0.2],
            "high": [-0.08, 0.08, 0.10, -0.05, 0.2],
        }
    )
    flags = deck_gap_flags(gaps, GAP, "hand-made")
    # |gap| intervals: a .08-.12 (flagged, harder), b .04-.08 (reaches inside), c
    # .06-.10 (flagged, easier), d .05-.09 (starts AT the limit: not beyond it), e 0-.20
    assert [(f.subject, f.value) for f in flags] == [("a", -0.10), ("c", 0.08)]
    assert flags[0].sentence == (
        "The catalog's alpha (one invented list, not the printed alpha) makes a harder: its "
        "win rate is -10.0 percentage points from the full spread's (95% -12.0 to -8.0), a "
        "gap above the limit of 5.0 points."
    )
    assert flags[1].sentence.startswith(
        "The catalog's alpha (one invented list, not the printed alpha) makes c easier: "
    )
    calm = gaps.with_columns(pl.col("low", "high") / 10, pl.col("diff") / 10)
    assert deck_gap_flags(calm, GAP, "") == []


def test_abs_interval_folds_at_zero():
    assert abs_interval(-0.1, -0.12, -0.08) == (0.1, 0.08, 0.12)
    assert abs_interval(0.1, 0.08, 0.12) == (0.1, 0.08, 0.12)
    assert abs_interval(0.01, -0.03, 0.05) == (0.01, 0.0, 0.05)


def test_samples_table_places_the_alpha_among_the_samples():
    win = pl.DataFrame(
        {
            "deck": ["full", "alpha", "alpha-sample-1", "alpha-sample-2", "alpha-sample-3"],
            "kaiju": ["k"] * 5,
            "metric": ["win"] * 5,
            "mean": [0.6, 0.3, 0.5, 0.4, 0.55],
        }
    )
    table = report.samples_table(win)
    # samples .4 .5 .55: low .4, median .5, high .55; the alpha's .3 beats none of them
    assert table.row(0) == ("k", 0.6, 0.3, 3, 0.4, 0.5, 0.55, 0)
    text = report.samples_sentence(table)
    assert "k 40% to 55% (catalog alpha 30%)" in text
    assert "outside the samples' range against k" in text
    assert report.deck_order(["alpha-sample-10", "alpha", "alpha-sample-2", "full"]) == (
        "full",
        "alpha",
        "alpha-sample-2",
        "alpha-sample-10",
    )
