"""Bradley-Terry team ratings (issue 6): the fit recovers known strengths, and a small
real round robin runs end to end through the store."""

import numpy as np
import polars as pl

from analysis import queries, ratings
from analysis.query import connect
from sims.core.runner import simulate
from tests.conftest import CATALOGS


def test_bradley_terry_recovers_known_strengths():
    truth = {"a": 0.8, "b": 0.0, "c": -0.3, "d": -0.5}  # theta, centred below
    rows = []
    for i in truth:
        for j in truth:
            if i != j:  # expected points exactly: the MLE then equals the truth
                p = 1 / (1 + np.exp(truth[j] - truth[i]))
                rows.append({"side_a": i, "side_b": j, "battles": 10_000, "points": 10_000 * p})
    fit = ratings.bradley_terry(pl.DataFrame(rows))
    mean = np.mean(list(truth.values()))
    for team, rating, low, high in fit.select("team", "rating", "low", "high").iter_rows():
        assert abs(rating / ratings.ELO - (truth[team] - mean)) < 1e-6
        assert low < rating < high
    assert fit["team"].to_list() == ["a", "b", "c", "d"]  # sorted by rating


def test_draws_count_half_and_equal_teams_rate_equal():
    rows = [{"side_a": "x", "side_b": "y", "battles": 100, "points": 50.0},
            {"side_a": "y", "side_b": "x", "battles": 100, "points": 50.0}]  # fmt: skip
    fit = ratings.bradley_terry(pl.DataFrame(rows))
    assert np.allclose(fit["rating"].to_numpy(), 0.0)


def test_round_robin_end_to_end(tmp_path):
    teams = ["courier+foreman+reaver", "bastion+courier+foreman", "bastion+courier+reaver"]
    out = simulate("skirmish", "ratings", n=9 * 200, catalog_root=CATALOGS,
                   store_root=tmp_path, options={"teams": teams})  # fmt: skip
    assert out.rows == 9 * 200
    fit = ratings.bradley_terry(ratings.pairwise(queries.win_rates(connect(tmp_path), "ratings")))
    assert sorted(fit["team"].to_list()) == sorted(teams)
    assert fit["battles"].to_list() == [800, 800, 800]  # 2 seats x 2 opponents x 200
    best = ratings.best_by_cap(fit, {"courier+foreman+reaver": 129, "bastion+courier+foreman": 143,
                                     "bastion+courier+reaver": 143}, range(128, 146))  # fmt: skip
    assert best["team_cap"].min() == 129  # nothing fits below the lightest team
    assert best.filter(pl.col("team_cap") == 129)["team"].item() == "courier+foreman+reaver"
