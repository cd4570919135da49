"""``mechbal tune`` on Coin Duel, the toy game (analysis/tune.py, sims/core/targets.py):
a simulated target finds a planted answer, the evolutionary search keeps to its budget,
runs land in the store and are reused, and a bad request is one line that writes nothing;
and every registered game's metrics give estimates.

The planted answer: the pawn's HP is tuned toward the win rate against the brute that
an exact Markov chain over the two HP totals (written here from the rulebook's rules,
not from any of mechbal's code) gives at HP 2; the simulation must find 2."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from analysis.cli import EXIT_USER_ERROR, main
from analysis.tune import tune
from sims.core.protocol import game_names, get_game
from sims.core.targets import ALL, check_filters
from tests.conftest import ROOT
from tests.core.toy import CATALOGS
from tests.core.toy.game import load_catalog


def round_odds(die_a: int, die_b: int, bonus: int) -> tuple[Fraction, Fraction]:
    """P(A's total beats B's), P(B's beats A's) in one round: every die face and coin."""
    a = b = total = 0
    for ra, ca, rb, cb in product(range(1, die_a + 1), (0, 1), range(1, die_b + 1), (0, 1)):
        ta, tb = ra + bonus * ca, rb + bonus * cb
        total += 1
        a += ta > tb
        b += tb > ta
    return Fraction(a, total), Fraction(b, total)


def exact_score(hp_a: int, hp_b: int, die_a: int, die_b: int, bonus: int, cap: int) -> Fraction:
    """A's score (win 1, draw 1/2): the HP pair's distribution round by round."""
    pa, pb = round_odds(die_a, die_b, bonus)
    states = {(hp_a, hp_b): Fraction(1)}
    for _ in range(cap):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (a, b), p in states.items():
            moves = (
                [((a, b), Fraction(1))]
                if min(a, b) <= 0
                else [((a, b - 1), pa), ((a - 1, b), pb), ((a, b), 1 - pa - pb)]
            )
            for state, q in moves:
                nxt[state] = nxt.get(state, Fraction(0)) + p * q
        states = nxt
    return sum(
        (p * (1 if a > b else Fraction(1, 2) if a == b else 0) for (a, b), p in states.items()),
        Fraction(0),
    )


@pytest.fixture(scope="module")
def duel():
    c = load_catalog(CATALOGS)
    pawn, brute = c.fighters["pawn"], c.fighters["brute"]

    def score(hp: int) -> Fraction:
        return exact_score(
            hp, brute.hp, pawn.die, brute.die, c.params.coin_bonus, c.params.round_cap
        )

    return score


def test_a_simulated_target_finds_the_planted_hp(duel, tmp_path):
    planted = 2  # the catalog says 3: the search has to move it
    scores = {hp: duel(hp) for hp in range(1, 10)}
    # the planted HP is far from its neighbours, in standard errors of N = 1,000
    assert min(abs(scores[planted] - scores[h]) for h in (1, 3)) > 0.1
    goal = f"win_rate(fighter=pawn, opponent=brute) ~ {float(scores[planted]):.6f}"
    store = tmp_path / "store"
    result = tune(
        "toy",
        ["fighter.pawn.hp=1..9"],
        [goal],
        catalog_root=CATALOGS,
        n=2000,
        seed=5,
        store=store,
        out=None,
    )
    assert result.method == "grid" and len(result.candidates) == 9
    assert result.best.setting == {"fighter.pawn.hp": planted}
    (estimate,) = result.best.readings[0].estimates
    assert estimate.n == 1000 and estimate.se > 0  # both seats of pawn v brute
    assert abs(estimate.value - float(scores[planted])) < 4 * estimate.se
    # every candidate ran on the same seed into the store: a run per HP, and a second
    # tune (another goal over the same runs) reuses them: nothing new is written
    runs = sorted(store.glob("toy/bout/run=*"))
    assert len(runs) == 9
    inside = [h for h, s in scores.items() if 0.6 <= s <= 0.7]
    again = tune(
        "toy",
        ["fighter.pawn.hp=1..9"],
        ["win_rate(fighter=pawn, opponent=brute) in 0.6..0.7"],
        catalog_root=CATALOGS,
        n=2000,
        seed=5,
        store=store,
        out=None,
    )
    assert sorted(store.glob("toy/bout/run=*")) == runs
    assert [again.best.setting["fighter.pawn.hp"]] == inside == [4]
    assert again.best.objective == 0


def test_three_parameters_use_the_evolutionary_search_within_its_budget():
    # exact: P(pawn wins a round against the brute), pulled toward 1/2
    result = tune(
        "toy",
        ["fighter.pawn.die=2..20", "fighter.brute.die=2..20", "coin_bonus"],
        ["p_round(fighter=pawn, opponent=brute) ~ 1/2"],
        catalog_root=CATALOGS,
        budget=40,
        seed=3,
        store=None,
        out=None,
    )
    assert result.method == "differential evolution"
    assert len(result.candidates) <= 40
    assert result.best.objective == min(c.objective for c in result.candidates)
    c = load_catalog(CATALOGS)
    shipped = float(
        round_odds(c.fighters["pawn"].die, c.fighters["brute"].die, c.params.coin_bonus)[0]
    )
    assert result.best.objective <= abs(shipped - 0.5) / 0.5  # no worse than the catalog
    best = result.best.setting
    a, _ = round_odds(best["fighter.pawn.die"], best["fighter.brute.die"], best["coin_bonus"])
    assert result.best.readings[0].estimates[0].value == pytest.approx(float(a))
    # sensitivity: each parameter at each end of its range, from the best
    assert {(s.param.name, s.end) for s in result.sensitivity} == {
        (p, e) for p in best for e in ("low", "high")
    }


@pytest.mark.parametrize(
    "args, words",
    [
        (["--param", "round_cap", "--target", "nosuch(fighter=pawn) ~ 1"], "unknown metric"),
        (["--param", "round_cap", "--target", "win_rate(side=pawn) ~ 1"], "unknown filter"),
        (["--param", "round_cap", "--target", "win_rate(fighter=queen) ~ 1"], "unknown fighter"),
        (["--param", "round_cap", "--target", "win_rate(fighter=pawn) ~ lots"], "not a number"),
        (["--param", "round_cap", "--target", "win_rate(fighter=pawn) is 1"], "expected METRIC"),
        (["--param", "round_cap", "--target", "win_rate(fighter=pawn) in 0.6..0.4"], "backwards"),
        (["--param", "nosuch", "--target", "p_round ~ 1/2"], "unknown rules parameter"),
        (["--param", "round_cap=9..3", "--target", "p_round ~ 1/2"], "backwards"),
        (["--param", "round_cap=0..3", "--target", "p_round ~ 1/2"], "tuning range"),
        (["--param", "round_cap=a..b", "--target", "p_round ~ 1/2"], "range of integers"),
        (["--param", "fighter.pawn.hp", "--target", "p_round ~ 1/2"], "needs a range"),
        (["--param", "fighter.pawn.hp=1..99", "--target", "p_round ~ 1/2"], "above the maximum"),
        (["--param", "fighter.queen.hp=1..3", "--target", "p_round ~ 1/2"], "no fighter"),
        (
            [
                "--param",
                "round_cap",
                "--param",
                "coin_bonus",
                "--budget",
                "10",
                "--target",
                "p_round ~ 1/2",
            ],
            "more than --budget",
        ),
        (["--param", "round_cap", "--set", "round_cap=3", "--target", "p_round ~ 1/2"], "not both"),
        (["--param", "round_cap"], "at least one --target"),
    ],
)
def test_a_bad_request_is_one_line_and_writes_nothing(args, words, tmp_path, capsys):
    out, store = tmp_path / "out", tmp_path / "store"
    code = main(
        ["tune", "toy", "--catalog", str(CATALOGS), "--out", str(out), "--store", str(store), *args]
    )
    err = capsys.readouterr().err
    assert code == EXIT_USER_ERROR
    assert err.count("\n") == 1 and words in err, err
    assert not out.exists() and not store.exists()


def test_list_names_every_metric_with_its_doc(capsys):
    assert main(["tune", "toy", "--catalog", str(CATALOGS), "--list"]) == 0
    text = capsys.readouterr().out
    assert "p_round(fighter=, opponent=)  [exact]" in text
    assert "win_rate(fighter=, opponent=)  [simulated]" in text
    assert "round_cap 5 (1..20)" in text and "KIND.ID.FIELD=LO..HI" in text


@pytest.mark.parametrize("name", [g for g in game_names() if get_game(g).targets])
def test_every_metric_of_every_game_gives_estimates(name, tmp_path):
    """Each declared metric: a doc, its filters' values, and estimates keyed by the first
    filter given ``*`` (exact ones with no standard error, simulated ones from a tiny run
    into the store with one)."""
    game = get_game(name)
    root = CATALOGS if name == "toy" else ROOT / "catalogs"
    catalog = game.load_catalog(root)
    for metric, target in game.targets.items():
        assert target.doc and target.filters, metric
        domains = target.domains(catalog)
        assert set(domains) == set(target.filters), metric
        assert all(len(domains[f]) for f in target.filters), metric
        assert set(target.defaults) <= set(target.filters), metric
        first = target.filters[0]
        filters = {**target.defaults, first: ALL}
        check_filters(metric, target, filters, catalog)
        estimates = target.estimate(catalog, filters, 200, 1, 1, tmp_path / "store")
        keys = [e.key[first] for e in estimates]
        assert sorted(keys) == sorted(map(str, domains[first])), metric
        for e in estimates:
            assert math.isfinite(e.value), metric
            if target.exact:
                assert e.se == 0 and e.n == 0, metric
            else:
                assert e.n > 0 and e.se >= 0, metric
