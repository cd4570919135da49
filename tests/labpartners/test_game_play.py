"""Whole Lab Partners games (game/play.py) and `mechbal simulate labpartners
full-spread-vs-alpha`: common random numbers across decks, the lesson's Form seen against
the exact draw odds, the Battle of each locked mech against part 1's exact DP, the two
engines agreeing, and the rows the runner writes (a seat's grade by hand:
test_game_scoring.py).

Hand counts (rulebook Appendix, catalogs/labpartners/decks.toml): the full spread holds
every Form x Type for Legs, Torso and Head (5 x 5 = 25 each, a 75-card body pile with 15
cards of each Form) and every Form x Type x Power for Arms (5 x 5 x 3 = 75); the alpha
deck holds 15 Legs, 15 Torso, 15 Head and 25 Arms (a 45-card body pile: Beast 12,
Mechsuit 12, Vehicle 9, Clockwork 9, Ghost-Crystal 3).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from sims.core.protocol import register, registry
from sims.core.runner import simulate
from sims.labpartners import draws, exact_battle, experiments
from sims.labpartners.catalog import PARTS, load_catalog
from sims.labpartners.game import decks, locked_mech, play, random_setup, scoring
from sims.labpartners.game.locked_mech import Locked
from sims.labpartners.game.reference.battles import compile_game
from tests.catalog_copies import copy_catalogs
from tests.conformance import check_declared_columns, chunk_tables
from tests.conftest import CATALOGS

SEATS = ["builder", "seeker", "holdout"]
BODY_FORMS = {
    "alpha": {"beast": 12, "mechsuit": 12, "vehicle": 9, "clockwork": 9, "ghost_crystal": 3},
    "full": dict.fromkeys(("beast", "mechsuit", "vehicle", "clockwork", "ghost_crystal"), 15),
}
EXPERIMENT = "full-spread-vs-alpha"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def game():
    if "labpartners" not in registry():
        register("labpartners", "sims.labpartners:GAME")
    return "labpartners"


def kaiju_of(catalog, games_: int) -> list[str]:
    ids = list(catalog.kaiju)
    return [ids[i % len(ids)] for i in range(games_)]


def rows_of(outcome) -> pl.DataFrame:
    df = pl.read_parquet(str(outcome.plan.folder / "**" / "*.parquet"))
    return df.with_columns(pl.col(pl.Categorical).cast(pl.String))


def mean_within(values: np.ndarray, exact: float, variance: float, k: float = 4.0) -> bool:
    """The mean of ``values`` within ``k`` standard errors of ``exact`` (``variance``: the
    summed variance of the values; a tiny floor so a certain outcome is not 0 +- 0)."""
    se = math.sqrt(max(variance, 1e-3)) / len(values)
    return abs(float(np.mean(values)) - exact) <= k * se


# ---- common random numbers -------------------------------------------------------------


@pytest.fixture(scope="module")
def twin_root(tmp_path_factory):
    """A catalog copy whose alpha deck lists all 150 full-spread cards (in reverse order):
    the same deck as the full spread under another name."""
    root = copy_catalogs(tmp_path_factory.mktemp("twin"))
    path = root / "labpartners" / "decks.toml"
    cards = list(load_catalog(CATALOGS).cards)[::-1]
    listed = "cards = [\n" + "".join(f'  "{c}",\n' for c in cards) + "]"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "counts = { legs = 15, torso = 15, head = 15, arms = 25 }",
        "counts = { legs = 25, torso = 25, head = 25, arms = 75 }",
    )
    text, n = re.subn(r"cards = \[\n.*?\n\]", listed, text, count=1, flags=re.S)
    assert n == 1
    path.write_text(text, encoding="utf-8")
    return root


def test_identical_decks_on_the_same_seeds_give_identical_games(twin_root):
    twin = load_catalog(twin_root)
    assert len(twin.deck("alpha").cards) == 150  # 25 + 25 + 25 + 75
    G = 300
    setup = random_setup.shuffle(twin, G, np.random.default_rng(3))
    kaiju = kaiju_of(twin, G)
    for mode in ("standalone", "campaign"):
        a, f = (
            play.play_games(
                twin, deck, setup, kaiju, SEATS, mode, "steady", "vector", np.random.default_rng(4)
            )
            for deck in ("alpha", "full")
        )
        assert a.keys() == f.keys()
        for key in a:
            np.testing.assert_array_equal(a[key], f[key], err_msg=f"{mode} {key}")


def test_identical_decks_give_identical_rows_through_the_runner(game, twin_root, tmp_path):
    out = simulate(
        game,
        EXPERIMENT,
        n=200,
        seed=5,
        catalog_root=twin_root,
        store_root=tmp_path,
        chunk_size=30,
        options={"kaiju": "gorgadon,trivex", "players": "2,4"},
    )
    rows = rows_of(out)
    assert rows.height == 2 * 200  # 4 cells x 50 games, each game once per deck (2 decks)
    alpha, full = (
        rows.filter(pl.col("deck") == d).drop("deck").sort("cell", "game")
        for d in ("alpha", "full")
    )
    assert alpha.height == full.height == 200
    assert alpha.equals(full)


# ---- the lesson's Form seen, against the exact draw odds --------------------------------


@pytest.mark.parametrize("deck", ["alpha", "full"])
def test_lesson_dealt_matches_the_exact_draw_odds(catalog, deck):
    """The lesson's Form among the opening hands (5 body cards a seat, dealt before any
    choice) against the exact odds: P = sum over Forms F of P(lesson = F) x P(an F among
    the first 5 x seats body cards). The count of cards seen later depends on the
    players' choices (which read the lesson), so the exact comparison is at the deal;
    every card seen later only adds: lesson_seen holds wherever lesson_dealt does."""
    G = 4000
    cards = catalog.deck(deck).cards
    body = [c for c in cards if c.is_body]
    lesson = draws.lesson_form_odds(cards, tuple(catalog.forms))
    form_cards = Counter(c.form for c in body)
    assert form_cards == BODY_FORMS[deck]  # the hand counts (module docstring)
    assert lesson == {f: Fraction(n, len(body)) for f, n in BODY_FORMS[deck].items()}
    for n, players in enumerate((2, 3, 4, 5)):
        setup = random_setup.shuffle(catalog, G, np.random.default_rng(11 + n))
        seats = ["builder", "seeker", "holdout", "builder", "seeker"][:players]
        locked = play.assembly("vector").play(
            catalog, catalog.deck(deck), setup, kaiju_of(catalog, G), seats
        )
        dealt = scoring.lesson_dealt(catalog, catalog.deck(deck), setup, locked, players)
        seen = scoring.lesson_seen(catalog, catalog.deck(deck), setup, locked)
        assert (seen >= dealt).all()
        assert locked.body_seen.min() >= 5 * players
        p = float(
            sum(
                q * draws.p_at_least_one(len(body), form_cards[f], 5 * players)
                for f, q in lesson.items()
            )
        )
        assert mean_within(dealt, p, G * p * (1 - p)), (deck, players, dealt.mean(), p)


# ---- the Battle of each locked mech, against the exact DP --------------------------------


def test_battles_of_locked_mechs_match_the_exact_dp(catalog):
    G = 400
    setup = random_setup.shuffle(catalog, G, np.random.default_rng(21))
    kaiju = kaiju_of(catalog, G)
    deck = catalog.deck("alpha")
    locked = play.assembly("vector").play(catalog, deck, setup, kaiju, SEATS)
    d = locked_mech.dealt(catalog, locked, setup)
    policies = list(catalog.policies)
    p_win, gpa, var_win, var_gpa = (np.zeros(G) for _ in range(4))
    for i in range(G):
        b, _ = compile_game(catalog, d, i, kaiju[i], policies[locked.battle_policy[i]])
        o = exact_battle.outcome(b)
        p_win[i], gpa[i] = float(o.p_win), float(o.expected_gpa)
        var_win[i] = p_win[i] * (1 - p_win[i])
        var_gpa[i] = sum(float(q) * (float(v) - gpa[i]) ** 2 for v, q in o.gpa_dist().items())
    got = play.play_games(
        catalog,
        deck,
        setup,
        kaiju,
        SEATS,
        "standalone",
        "steady",
        "vector",
        np.random.default_rng(22),
    )
    np.testing.assert_array_equal(got["slots"], locked.slots)
    assert mean_within(got["result"] == 0, p_win.mean(), var_win.sum())
    assert mean_within(got["gpa"], gpa.mean(), var_gpa.sum())


# ---- the two engines ----------------------------------------------------------------------

# what does not depend on the Battle's dice: the two engines give it exactly
DETERMINED = (
    "slots",
    "lesson",
    "gaps",
    "assembly_rounds",
    "traits_flipped",
    "body_seen",
    "lesson_seen",
    "lesson_dealt",
    "battle_policy",
    "lesson_took",
    "weak_matches",
    "resist_matches",
    "kaiju_hp",
    "traits",
    "study",
)


@pytest.mark.parametrize(
    ("deck", "kaiju", "mode", "seats"),
    [
        ("alpha", "gorgadon", "standalone", ["builder", "seeker"]),
        ("full", "thornmaw", "campaign", ["seeker", "builder", "holdout", "builder"]),
        ("alpha", "lumenyx", "campaign", ["holdout", "seeker", "seeker", "builder", "builder"]),
    ],
)
def test_reference_and_vector_games_agree(catalog, deck, kaiju, mode, seats):
    G = 500
    setup = random_setup.shuffle(catalog, G, np.random.default_rng(31))
    kaiju_ids = [kaiju] * G
    locks = {
        e: play.assembly(e).play(
            catalog, catalog.deck(deck), setup, kaiju_ids, seats, mode, "steady"
        )
        for e in play.ENGINES
    }
    assert isinstance(locks["vector"], Locked)
    assert locks["reference"].equals(locks["vector"])
    ref, vec = (
        play.play_games(
            catalog, deck, setup, kaiju_ids, seats, mode, "steady", e, np.random.default_rng(32 + k)
        )
        for k, e in enumerate(play.ENGINES)
    )
    for key in DETERMINED:
        np.testing.assert_array_equal(ref[key], vec[key], err_msg=key)
    metrics = {
        "win": lambda r: (r["result"] == 0).astype(float),
        "gpa": lambda r: r["gpa"],
        "done": lambda r: r["study_done"].mean(1),
        "seat_gpa": lambda r: r["seat_gpa"].mean(1),
    }
    for name, metric in metrics.items():
        a, b = metric(ref), metric(vec)
        se = math.sqrt((a.var() + b.var()) / G) or 0.01
        assert abs(a.mean() - b.mean()) <= 4 * se, (name, a.mean(), b.mean())


# ---- the decks --------------------------------------------------------------------------


def test_alpha_samples_hold_the_alphas_counts_of_full_spread_cards(catalog):
    samples = decks.alpha_samples(catalog, 3, sample_seed=7)
    assert [d.id for d in samples] == ["alpha-sample-1", "alpha-sample-2", "alpha-sample-3"]
    for d in samples:
        # 15 Legs, 15 Torso, 15 Head, 25 Arms (the alpha's counts, Appendix)
        assert [len(d.of(p)) for p in PARTS] == [15, 15, 15, 25]
        assert len({c.id for c in d.cards}) == 70
        assert all(catalog.cards[c.id] == c for c in d.cards)
    assert samples[0].cards != samples[1].cards
    # sample k is the same whatever K, and another seed gives another deck
    assert decks.alpha_samples(catalog, 1, sample_seed=7)[0] == samples[0]
    assert decks.alpha_samples(catalog, 1, sample_seed=8)[0].cards != samples[0].cards


# ---- through the runner --------------------------------------------------------------------


def test_rows_are_documented_and_one_per_game_and_deck(game, catalog, tmp_path, capsys):
    from analysis.cli import main

    assert main(["simulate", "labpartners", EXPERIMENT, "--describe"]) == 0
    described = capsys.readouterr().out
    exp = experiments.EXPERIMENTS[EXPERIMENT]
    assert exp.describe() in described
    options = {
        "kaiju": "cinderwyrm,thornmaw",
        "players": "3,5",
        "alpha_samples": 2,
        "sample_seed": 4,
    }
    out = simulate(
        game,
        EXPERIMENT,
        n=120,
        seed=9,
        catalog_root=CATALOGS,
        store_root=tmp_path / "one",
        chunk_size=50,
        options=options,
    )
    rows = rows_of(out)
    for table in chunk_tables(out):
        check_declared_columns(exp, catalog, table)
    # 4 cells x 30 games = 120 games, each once with alpha, full and the 2 samples
    assert rows.height == 120 * 4 and len(out.plan.chunks) == 3
    decks = ["alpha", "full", "alpha-sample-1", "alpha-sample-2"]
    assert rows.group_by("deck").len().sort("deck")["len"].to_list() == [120] * 4
    assert sorted(rows["deck"].unique().to_list()) == sorted(decks)
    manifest = json.loads((out.plan.folder / "manifest.json").read_text())
    listed = manifest["notes"]["alpha_samples"]
    assert sorted(listed) == decks[2:]
    for deck, ids in listed.items():
        assert Counter(catalog.cards[c].part for c in ids) == {
            "legs": 15,
            "torso": 15,
            "head": 15,
            "arms": 25,
        }
        used = rows.filter(pl.col("deck") == deck)
        for slot in ("legs", "torso", "head", "arm_1", "arm_2"):
            assert set(used[slot].drop_nulls().to_list()) <= set(ids)
    # seats: 3 players hold study_1..3, study_4 and _5 are empty (null)
    three = rows.filter(pl.col("players") == 3)
    assert three["seats"].unique().to_list() == ["builder,seeker,builder"]
    assert three["study_3"].null_count() == 0 and three["study_4"].null_count() == three.height
    assert three["gpa_5"].null_count() == three.height
    five = rows.filter(pl.col("players") == 5)
    assert five["study_done_5"].null_count() == 0
    # the seats' studies are dealt without replacement: never two alike at one table
    studies = five.select([f"study_{k}" for k in range(1, 6)]).rows()
    assert all(len(set(s)) == 5 for s in studies)
    assert set(rows["result"].unique()) <= {0, 1, 2}
    # the same seed twice: the same rows
    again = simulate(
        game,
        EXPERIMENT,
        n=120,
        seed=9,
        catalog_root=CATALOGS,
        store_root=tmp_path / "two",
        chunk_size=50,
        options=options,
    )
    key = ["deck", "cell", "game"]
    assert rows.sort(key).equals(rows_of(again).sort(key))
