"""Dominated choices (analysis.dominance), generic: the Pareto frontier and dominators on
hand-built frames (ties, min and max objectives, groups, large sets), and
``mechbal dominated`` on Coin Duel with a choice set plugged in (the page, its CSV,
--set, --confirm, errors) and with its own plugin, which declares none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis import dominance, plugin
from analysis.cli import main
from analysis.dominance import ChoiceSet, frontier_mask, pareto
from tests.core.toy import CATALOGS
from tests.core.toy.analysis import ANALYSIS as TOY

# ---- pareto on hand-built frames ------------------------------------------------------------


def _lists(frame: pl.DataFrame) -> dict[str, list[str]]:
    return dict(zip(frame["id"], frame["dominated_by"].to_list(), strict=True))


def test_a_known_frontier_with_max_and_min_objectives() -> None:
    # damage and range more is better, weight less is better
    frame = pl.DataFrame(
        {
            "id": ["a", "b", "c", "d", "e"],
            "damage": [5.0, 4.0, 5.0, 3.0, 6.0],
            "range": [3, 3, 2, 3, 1],
            "weight": [4, 4, 4, 5, 9],
        }
    )
    out = pareto(frame, {"damage": "max", "range": "max", "weight": "min"})
    assert out.columns == [*frame.columns, "on_frontier", "dominated_by"]
    # a beats b (more damage), c (more range) and d (all three); e trades weight for damage
    assert dict(zip(out["id"], out["on_frontier"], strict=True)) == {
        "a": True,
        "b": False,
        "c": False,
        "d": False,
        "e": True,
    }
    assert _lists(out) == {"a": [], "b": ["a"], "c": ["a"], "d": ["a", "b"], "e": []}


def test_the_sense_of_an_objective_decides() -> None:
    frame = pl.DataFrame({"id": ["x", "y"], "cost": [1, 2]})
    assert _lists(pareto(frame, {"cost": "min"})) == {"x": [], "y": ["x"]}
    assert _lists(pareto(frame, {"cost": "max"})) == {"x": ["y"], "y": []}


def test_ties_dominate_nobody_and_share_the_frontier() -> None:
    frame = pl.DataFrame({"id": ["p", "q", "r"], "a": [2, 2, 1], "b": [1, 1, 1]})
    out = pareto(frame, {"a": "max", "b": "max"})
    assert out["on_frontier"].to_list() == [True, True, False]
    assert _lists(out) == {"p": [], "q": [], "r": ["p", "q"]}
    # every choice equal: all on the frontier
    same = pareto(frame.with_columns(a=pl.lit(1)), {"a": "max", "b": "max"})
    assert same["on_frontier"].all() and same["dominated_by"].list.len().sum() == 0


def test_groups_compete_only_within_themselves() -> None:
    frame = pl.DataFrame({"id": ["a1", "a2", "b1"], "slot": ["arm", "arm", "leg"], "v": [3, 2, 1]})
    out = pareto(frame, {"v": "max"}, group="slot")
    assert _lists(out) == {"a1": [], "a2": ["a1"], "b1": []}  # b1 would lose to both


def test_frontier_only_dominators_in_a_large_set() -> None:
    # a chain: c < b < a. All dominators of c are a and b; the frontier's only a.
    frame = pl.DataFrame({"id": ["a", "b", "c"], "v": [3, 2, 1]})
    assert _lists(pareto(frame, {"v": "max"}))["c"] == ["a", "b"]
    assert _lists(pareto(frame, {"v": "max"}, every_dominator=False))["c"] == ["a"]


def test_the_sweep_agrees_with_every_pair() -> None:
    rng = np.random.default_rng(7)
    for k in (1, 2, 3, 5):
        for n in (1, 2, 40, 1500):
            v = rng.integers(0, 4, size=(n, k)).astype(float)
            brute = ((v[:, None] >= v[None]).all(2) & (v[:, None] > v[None]).any(2)).any(0)
            assert (frontier_mask(v) == ~brute).all(), (n, k)


def test_a_large_set_is_fast_and_right() -> None:
    rng = np.random.default_rng(3)
    n = 60_000
    frame = pl.DataFrame(
        {
            "id": [f"c{i}" for i in range(n)],
            "x": rng.integers(0, 40, n),
            "y": rng.integers(0, 40, n),
            "z": rng.normal(size=n),
        }
    )
    out = pareto(frame, {"x": "max", "y": "min", "z": "max"})
    front = out.filter("on_frontier")
    v = np.column_stack([front["x"], -front["y"], front["z"]]).astype(float)
    assert not ((v[:, None] >= v[None]).all(2) & (v[:, None] > v[None]).any(2)).any()
    some = out.filter(~pl.col("on_frontier")).head(50)
    assert (some["dominated_by"].list.len() > 0).all()  # each names a frontier dominator


@pytest.mark.parametrize(
    "objectives, words",
    [
        ({}, "no objectives"),
        ({"v": "most"}, "not 'max' or 'min'"),
        ({"w": "max"}, "no objective column 'w'"),
        ({"name": "max"}, "not numeric"),
    ],
)
def test_bad_objectives_are_refused(objectives: dict, words: str) -> None:
    frame = pl.DataFrame({"id": ["a"], "v": [1], "name": ["x"]})
    with pytest.raises(ValueError, match=words):
        pareto(frame, objectives)


def test_duplicate_ids_and_missing_values_are_refused() -> None:
    with pytest.raises(ValueError, match="'a' appears more than once"):
        pareto(pl.DataFrame({"id": ["a", "a"], "v": [1, 2]}), {"v": "max"})
    with pytest.raises(ValueError, match="'v' has missing values"):
        pareto(pl.DataFrame({"id": ["a", "b"], "v": [1.0, None]}), {"v": "max"})


# ---- the command, on Coin Duel ---------------------------------------------------------------


def fighters(catalog) -> list[ChoiceSet]:
    """Coin Duel's fighters: a bigger die and more HP are better."""
    frame = pl.DataFrame(
        [{"id": f.id, "die": f.die, "hp": f.hp} for f in catalog.fighters.values()]
    )
    return [
        ChoiceSet(
            name="fighters",
            what="a fighter",
            frame=frame,
            objectives={"die": "max", "hp": "max"},
            doc="Exact: as printed.",
            confirm=lambda result, n, seed: pl.DataFrame(
                {"fighter": result["id"], "games": n, "seed": seed}
            ),
        )
    ]


WITH_CHOICES = plugin.Analysis("toy", TOY.default_runs, TOY.page, TOY.limits, choices=fighters)


@pytest.fixture
def toy_with_choices() -> Iterator[None]:
    plugin.register("toy", f"{__name__}:WITH_CHOICES")
    try:
        yield
    finally:
        plugin.register("toy", "tests.core.toy.analysis:ANALYSIS")


def run(argv: list, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_the_page_and_its_csv(tmp_path: Path, capsys, toy_with_choices) -> None:
    rc, out, err = run(
        [
            "dominated",
            "toy",
            "--catalog",
            CATALOGS,
            "--out",
            tmp_path,
            "--set",
            "fighter.brute.hp=2",
        ],
        capsys,
    )
    assert rc == 0, err
    assert "fighters: 3 choices, 1 dominated, 2 on the frontier" in out
    page = (tmp_path / "dominated-toy.html").read_text()
    # brute (d4, 2 HP with the edit) loses to pawn (d6, 3 HP) and knave (d8, 2 HP)
    assert "Of 3 fighters, 1 is dominated and 2 are on the frontier: pawn, knave." in page
    assert "--set fighter.brute.hp=2" in page and "Which fighters are dominated?" in page
    assert "vegaEmbed" in page and "https://" not in page.split("<script")[0]
    csv = pl.read_csv(tmp_path / "dominated-toy" / "fighters.csv")
    assert csv.filter(pl.col("id") == "brute").row(0, named=True) == {
        "id": "brute",
        "die": 4,
        "hp": 2,
        "on_frontier": False,
        "dominated_by": "pawn;knave",
        "dominators": 2,
    }
    # without the edit nobody is dominated; the page says so
    rc, out, _ = run(["dominated", "toy", "--catalog", CATALOGS, "--out", tmp_path], capsys)
    assert rc == 0 and "0 dominated, 3 on the frontier" in out
    assert "None: every choice is on the frontier." in (tmp_path / "dominated-toy.html").read_text()


def test_confirm_runs_the_declared_check(tmp_path: Path, capsys, toy_with_choices) -> None:
    rc, out, _ = run(
        [
            "dominated",
            "toy",
            "--catalog",
            CATALOGS,
            "--out",
            tmp_path,
            "--confirm",
            "7",
            "--seed",
            "5",
        ],
        capsys,
    )
    assert rc == 0 and "checked by simulation: 3 rows" in out
    assert "Checked by simulation" in (tmp_path / "dominated-toy.html").read_text()
    rc, _, err = run(
        ["dominated", "toy", "--catalog", CATALOGS, "--out", tmp_path, "--confirm", "0"], capsys
    )
    assert rc == 2 and err.count("\n") == 1 and "--confirm must be at least 1" in err


def test_a_game_without_choices_is_one_line(tmp_path: Path, capsys) -> None:
    rc, out, err = run(["dominated", "toy", "--catalog", CATALOGS, "--out", tmp_path], capsys)
    assert rc == 0 and not err
    assert out == "toy: its analysis plugin declares no choices: nothing to compare\n"
    assert not list(tmp_path.iterdir())


def test_user_errors_are_one_line_and_write_nothing(
    tmp_path: Path, capsys, toy_with_choices
) -> None:
    for argv in (
        ["dominated", "nogame", "--out", tmp_path],
        [
            "dominated",
            "toy",
            "--catalog",
            CATALOGS,
            "--out",
            tmp_path,
            "--set",
            "fighter.nobody.hp=2",
        ],
    ):
        rc, out, err = run(argv, capsys)
        assert rc == 2 and err.startswith("mechbal: error:") and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


def test_the_page_keeps_a_large_set_small() -> None:
    n = 9_000
    rng = np.random.default_rng(1)
    frame = pl.DataFrame(
        {
            "id": [f"c{i}" for i in range(n)],
            "x": rng.integers(0, 60, n),
            "y": rng.integers(0, 60, n),
        }
    )
    res = dominance.analyse(
        ChoiceSet("things", "a thing", frame, {"x": "max", "y": "max"}, "Exact.")
    )
    assert not res.complete  # 9,000 > FULL_LIMIT: frontier dominators only, said on the page
    doc, files = dominance.build_page("T", "game", [res], catalog="c", sets={})
    assert "not every choice that does" in doc and len(doc) < 2_500_000
    assert (
        files["things"].height == n
        and files["things"]["dominated_by"].str.count_matches(";").max() == 0
    )
