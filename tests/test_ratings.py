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


def test_custom_teams_are_legal_strong_and_deterministic(skirmish):
    from sims.skirmish import rules, teams

    catalog, found = teams.with_custom_teams(skirmish, 3)
    again = teams.with_custom_teams(skirmish, 3)[1]
    assert found == again and len(found) == 3 and len(set(found)) == 3
    for team in found:
        mechs = [catalog.mech(k) for k in team.split("+")]
        assert rules.team_problems(mechs, catalog.params) == []  # cap, copies, pilots
        assert all(k.startswith(teams.CUSTOM_PREFIX) for k in team.split("+"))
    custom = [k for k in catalog.kits if k.startswith(teams.CUSTOM_PREFIX)]
    assert all(catalog.kits[k].provenance == "assumed" for k in custom)


def test_ratings_with_custom_teams_record_their_kits(tmp_path):
    import json

    out = simulate("skirmish", "ratings", n=16 * 10, catalog_root=CATALOGS, store_root=tmp_path,
                   options={"teams": ["courier+foreman+reaver", "bastion+courier+foreman"],
                            "custom": ["2"]})  # fmt: skip
    assert len(out.plan.cells) == 16  # (2 kit teams + 2 custom teams) squared
    manifest = json.loads((out.plan.folder / "manifest.json").read_text())
    kits = manifest["notes"]["custom_kits"]
    sides = set(queries.win_rates(connect(tmp_path), "ratings")["side_a"])
    for team in sides:
        for kit in team.split("+"):
            assert kit in kits or not kit.startswith("custom_")
    assert all(len(v["parts"]) == 6 and v["pilot"] for v in kits.values())
