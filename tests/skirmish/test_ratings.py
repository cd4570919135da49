"""Bradley-Terry team ratings (issue 6): the fit recovers known strengths, and a small
real round robin runs end to end through the store."""

import numpy as np
import polars as pl
import pytest

from analysis import ratings
from analysis.query import connect
from analysis.skirmish import queries
from analysis.skirmish.ratings import best_by_cap, by_heavies
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
    rows = [
        {"side_a": "x", "side_b": "y", "battles": 100, "points": 50.0},
        {"side_a": "y", "side_b": "x", "battles": 100, "points": 50.0},
    ]
    fit = ratings.bradley_terry(pl.DataFrame(rows))
    assert np.allclose(fit["rating"].to_numpy(), 0.0)


def test_round_robin_end_to_end(tmp_path):
    teams = ["courier+foreman+reaver", "bastion+courier+foreman", "bastion+courier+reaver"]
    out = simulate(
        "skirmish",
        "ratings",
        n=9 * 200,
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"teams": teams},
    )
    assert out.rows == 9 * 200
    fit = ratings.bradley_terry(ratings.pairwise(queries.win_rates(connect(tmp_path), "ratings")))
    assert sorted(fit["team"].to_list()) == sorted(teams)
    assert fit["battles"].to_list() == [800, 800, 800]  # 2 seats x 2 opponents x 200
    best = best_by_cap(
        fit,
        {
            "courier+foreman+reaver": 129,
            "bastion+courier+foreman": 143,
            "bastion+courier+reaver": 143,
        },
        range(128, 146),
    )
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

    out = simulate(
        "skirmish",
        "ratings",
        n=16 * 10,
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"teams": ["courier+foreman+reaver", "bastion+courier+foreman"], "custom": 2},
    )
    assert len(out.plan.cells) == 16  # (2 kit teams + 2 custom teams) squared
    manifest = json.loads((out.plan.folder / "manifest.json").read_text())
    kits = manifest["notes"]["custom_kits"]
    sides = set(queries.win_rates(connect(tmp_path), "ratings")["side_a"])
    for team in sides:
        for kit in team.split("+"):
            assert kit in kits or not kit.startswith("custom_")
    assert all(len(v["parts"]) == 6 and v["pilot"] for v in kits.values())


def _hand_fit(rows: dict[str, float]) -> pl.DataFrame:
    """A fit frame as bradley_terry returns it (team, rating, low, high, battles, score)."""
    return pl.DataFrame(
        {
            "team": list(rows),
            "rating": list(rows.values()),
            "low": [r - 30 for r in rows.values()],
            "high": [r + 30 for r in rows.values()],
            "battles": [100] * len(rows),
            "expected_score": [0.5] * len(rows),
        }
    ).sort("rating", descending=True)


def test_by_heavies_groups_the_fit_by_heavy_count():
    fit = _hand_fit(
        {"a": 100.0, "b": 60.0, "c": 20.0, "g": 5.0, "h": 0.0, "d": -10.0, "e": -50.0, "f": -125.0}
    )
    heavies = {"a": 0, "c": 0, "f": 0, "b": 1, "g": 1, "d": 1, "e": 2, "h": 2}
    table = by_heavies(fit, heavies)
    assert table.columns == [
        "heavies",
        "teams",
        "best_team",
        "best_rating",
        "best_rank",
        "mean_rating",
        "in_top_quarter",
    ]
    # 8 teams: the top quarter is a (0 Heavies) and b (1 Heavy); h is 5th of 8
    assert table.select(pl.exclude("mean_rating")).rows() == [
        (0, 3, "a", 100.0, 1, 1),
        (1, 3, "b", 60.0, 2, 1),
        (2, 2, "h", 0.0, 5, 0),
    ]
    assert table["mean_rating"].to_list() == pytest.approx([-5 / 3, 55 / 3, -25.0])
    assert table["in_top_quarter"].sum() == 2


def test_by_heavies_top_quarter_rounds_up_and_needs_every_team():
    fit = _hand_fit(
        {
            "a": 100.0,
            "b": 60.0,
            "c": 20.0,
            "g": 5.0,
            "h": 0.0,
            "d": -10.0,
            "e": -50.0,
            "f": -125.0,
            "i": -200.0,
        }
    )
    heavies = {"a": 0, "c": 0, "f": 0, "i": 0, "b": 1, "g": 1, "d": 1, "e": 2, "h": 2}
    table = by_heavies(fit, heavies)
    # 9 teams: the top quarter is ceil(9 / 4) = 3 teams, a, b and c
    assert table.select("heavies", "teams", "in_top_quarter").rows() == [
        (0, 4, 2),
        (1, 3, 1),
        (2, 2, 0),
    ]
    with pytest.raises(ValueError, match="no Heavy count for team.* i"):
        by_heavies(fit, {k: v for k, v in heavies.items() if k != "i"})
