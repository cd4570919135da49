"""``mechbal diff`` on Coin Duel, the toy game (issue 18): identical versions move nothing,
a changed parameter moves the exact rows it must and the simulated win rate with an
interval excluding zero, ``git:REV`` of HEAD equals the working catalogs, a bad version
is one line and writes nothing; and the comparisons of :mod:`analysis.diff_stats` on
frames made by hand (paired and Welch intervals, exact differences, enumerations)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

from analysis import diff_stats
from analysis.cli import main
from tests.core.toy import CATALOGS

N = 900  # 100 games a cell over the 9 matchups: each diff well under a second of play
TOY_GIT = "git:HEAD:" + CATALOGS.relative_to(Path(__file__).resolve().parents[2]).as_posix()


def diff(tmp_path: Path, capsys, *extra: str, store: Path | None = None) -> tuple[int, str, str]:
    argv = [
        "diff",
        "toy",
        "--n",
        str(N),
        "--store",
        str(store or tmp_path / "data"),
        "--out",
        str(tmp_path / "out"),
        *extra,
    ]
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def tables(tmp_path: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    folder = tmp_path / "out" / "diff-toy"
    return (
        pl.read_csv(folder / "exact_changes.csv", infer_schema=False),
        pl.read_csv(folder / "simulated_changes.csv"),
    )


def test_identical_versions_move_nothing(tmp_path: Path, capsys) -> None:
    rc, out, err = diff(tmp_path, capsys, "--base", str(CATALOGS), "--change", str(CATALOGS))
    assert rc == 0, err
    assert out.startswith("Nothing moved")
    page = (tmp_path / "out" / "diff-toy.html").read_text()
    assert "Nothing moved" in page
    assert "<script" not in page  # no chart: nothing to draw, no bundle
    exact, sim = tables(tmp_path)
    assert exact.height == 0
    assert sim.height > 0 and (sim["difference"] == 0).all()  # common random numbers
    assert not sim["moved"].any() and set(sim["test"]) == {"paired"}
    runs = pl.read_csv(tmp_path / "out" / "diff-toy" / "runs.csv")
    assert (runs["base_run"] == runs["change_run"]).all()  # one run serves both sides


def test_a_changed_fighter_moves_its_rows_and_its_win_rate(tmp_path: Path, capsys) -> None:
    rc, out, err = diff(
        tmp_path,
        capsys,
        "--base",
        str(CATALOGS),
        "--change",
        str(CATALOGS),
        "--set",
        "fighter.brute.die=12",
    )
    assert rc == 0, err
    exact, sim = tables(tmp_path)
    # every round with the brute moves, and only those
    moved = set(exact.filter(pl.col("column") == "p_a")["row"])
    brute = {
        f"a {a}, b {b}"
        for a in ("pawn", "knave", "brute")
        for b in ("pawn", "knave", "brute")
        if "brute" in (a, b)
    }
    assert moved == brute
    row = exact.filter((pl.col("row") == "a brute, b pawn") & (pl.col("column") == "p_a")).row(
        0, named=True
    )
    assert Fraction(row["change"]) - Fraction(row["base"]) == Fraction(row["difference"]) > 0
    # a d12 brute beats the pawn more often: side A's win share, paired interval above 0
    win = sim.filter(
        (pl.col("cell") == "side_a brute, side_b pawn") & (pl.col("metric") == "winner=a")
    ).row(0, named=True)
    assert win["moved"] and win["low"] > 0 and win["test"] == "paired"
    assert win["n_base"] == win["n_change"] == N // 9
    # the summary names it, interval and all, and the page is written with its charts
    assert "round p_a (a brute, b pawn): 26% -> 71%" in out  # the biggest exact change
    assert "bout rounds (every cell): " in out and " ± " in out and "page: " in out
    page = (tmp_path / "out" / "diff-toy.html").read_text()
    assert "Before and after" in page and "vegaEmbed" in page
    assert "http://" not in page.replace("http://www.w3.org", "")  # nothing fetched


def test_base_set_edits_the_base_only(tmp_path: Path, capsys) -> None:
    rc, out, err = diff(
        tmp_path,
        capsys,
        "--base",
        str(CATALOGS),
        "--change",
        str(CATALOGS),
        "--base-set",
        "coin_bonus=3",
        "--only",
        "bout",
    )
    assert rc == 0, err
    exact, _ = tables(tmp_path)
    tie = exact.filter((pl.col("row") == "a pawn, b pawn") & (pl.col("column") == "p_tie"))
    assert tie["change"].to_list() == ["11/72"]  # the shipped coin_bonus 1 (claims.toml)
    assert tie["base"].to_list() != ["11/72"]
    assert "--base-set coin_bonus=3" in (tmp_path / "out" / "diff-toy.html").read_text()


def test_git_head_equals_the_working_catalogs(tmp_path: Path, capsys) -> None:
    rc, out, err = diff(tmp_path, capsys, "--base", TOY_GIT, "--change", str(CATALOGS))
    assert rc == 0, err
    assert out.startswith("Nothing moved")
    assert "(commit " in (tmp_path / "out" / "diff-toy.html").read_text()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--base", "git:no-such-revision", "--change", str(CATALOGS)], "no revision"),
        (["--base", "git:HEAD:no/such/folder", "--change", str(CATALOGS)], "no folder"),
        (["--base", "no/such/folder", "--change", str(CATALOGS)], "no such folder"),
        (
            ["--base", str(CATALOGS), "--change", str(CATALOGS), "--set", "coin_bonus=99"],
            "--change",
        ),
        (["--base", str(CATALOGS), "--change", str(CATALOGS), "--only", "nothing"], "--only"),
    ],
)
def test_a_bad_version_is_one_line_and_writes_nothing(tmp_path: Path, capsys, argv, words) -> None:
    rc, out, err = diff(tmp_path, capsys, *argv)
    assert rc == 2
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert not (tmp_path / "out").exists() and not (tmp_path / "data").exists()


# ---- the comparisons on frames made by hand -----------------------------------------------


def manifest(cells: list[dict], per_cell: int) -> dict:
    return {"cells": [{"cell": i, **c} for i, c in enumerate(cells)], "n_per_cell": per_cell}


def rows(values: dict[str, list[float]], per_cell: int) -> pl.DataFrame:
    frames = []
    for k, (side, xs) in enumerate(values.items()):
        frames.append(
            pl.DataFrame(
                {
                    "cell": [k] * per_cell,
                    "side": [side] * per_cell,
                    "game": list(range(per_cell)),
                    "x": xs,
                }
            )
        )
    return pl.concat(frames)


def test_paired_interval_is_the_t_interval_of_the_differences() -> None:
    base = rows({"p": [1.0, 2.0, 3.0, 4.0], "q": [5.0, 5.0, 5.0, 5.0]}, 4)
    change = rows({"p": [2.0, 2.5, 4.0, 5.5], "q": [5.0, 5.0, 5.0, 5.0]}, 4)
    m = manifest([{"side": "p"}, {"side": "q"}], 4)
    frame, notes = diff_stats.run_changes(
        "r", "e", base, change, base_manifest=m, change_manifest=m, labels={}
    )
    assert notes["test"] == "paired" and notes["index"] == "game"
    p = frame.filter(pl.col("cell") == "side p").row(0, named=True)
    d = [1.0, 0.5, 1.0, 1.5]
    mean = sum(d) / 4
    sd = (sum((x - mean) ** 2 for x in d) / 3) ** 0.5
    half = 3.182446305284263 * sd / 2  # t(0.975, 3) * sd / sqrt(4)
    assert p["difference"] == pytest.approx(mean) and p["half"] == pytest.approx(half)
    assert p["moved"]
    q = frame.filter(pl.col("cell") == "side q").row(0, named=True)
    # the same value in every game of both sides: too few games to call it fixed
    assert q["difference"] == 0 and q["half"] is None and not q["moved"]
    assert frame.filter(pl.col("cell") == diff_stats.EVERY_CELL).height == 1


def test_a_fixed_value_moves_exactly_and_lucky_agreement_does_not() -> None:
    n = diff_stats.MIN_FIXED
    base = rows({"p": [5.0] * n, "q": [1.0, 2.0] * (n // 2)}, n)
    change = rows({"p": [6.0] * n, "q": [2.0, 3.0] * (n // 2)}, n)
    m = manifest([{"side": "p"}, {"side": "q"}], n)
    frame, _ = diff_stats.run_changes(
        "r", "e", base, change, base_manifest=m, change_manifest=m, labels={}
    )
    fixed = frame.filter(pl.col("cell") == "side p").row(0, named=True)
    assert fixed["difference"] == 1 and fixed["half"] == 0 and fixed["moved"]
    # every game moved by exactly 1 while the values vary: Welch's interval, not width 0
    lucky = frame.filter(pl.col("cell") == "side q").row(0, named=True)
    assert lucky["difference"] == 1 and lucky["half"] > 0


def test_other_games_fall_back_on_welch_and_labels_compare_shares() -> None:
    base = rows({"p": [0, 0, 1, 1]}, 4).with_columns(pl.col("x").cast(pl.Int8))
    change = rows({"p": [0, 1, 1, 1, 1, 1]}, 6).with_columns(pl.col("x").cast(pl.Int8))
    frame, notes = diff_stats.run_changes(
        "r",
        "e",
        base,
        change,
        base_manifest=manifest([{"side": "p"}], 4),
        change_manifest=manifest([{"side": "p"}], 6),
        labels={"x": ("lost", "won")},
    )
    assert notes["test"] == "welch"
    won = frame.filter(pl.col("metric") == "x=won").row(0, named=True)
    assert won["kind"] == "share"
    assert won["base"] == 0.5 and won["change"] == pytest.approx(5 / 6)
    assert (won["n_base"], won["n_change"]) == (4, 6)


def test_exact_tables_join_on_ids_and_differ_as_fractions() -> None:
    from sims.core.protocol import Table, columns

    table = Table("t", "", columns(("k", "id"), ("hits", "count"), ("p", "probability")))
    base = pl.DataFrame({"k": ["a", "a", "b"], "hits": [0, 1, 0], "p": ["1/3", "2/3", "1"]})
    change = pl.DataFrame({"k": ["a", "a", "c"], "hits": [0, 1, 0], "p": ["1/2", "1/2", "1"]})
    out = diff_stats.exact_changes([table], {"t": base}, {"t": change})
    # ids repeat, so the count column joins the key: rows are outcomes
    assert set(out["kind"]) == {"probability", "added", "removed"}
    moved = out.filter(pl.col("kind") == "probability").sort("row")
    assert moved["difference"].to_list() == ["+1/6", "-1/6"]
    assert moved["row"].to_list() == ["k a, hits 0", "k a, hits 1"]
    assert out["kind"][0] in ("added", "removed")  # a row on one side only leads


def test_enumerations_compare_exactly_keyed_by_their_leading_columns() -> None:
    base = pl.DataFrame({"cap": [1, 2, 3], "teams": [4, 5, 6], "cell": [0, 0, 0]})
    change = pl.DataFrame({"cap": [1, 2, 3], "teams": [4, 7, 6], "cell": [0, 0, 0]})
    out = diff_stats.enumeration_changes("e", base, change)
    assert out.select("row", "column", "base", "change", "difference").rows() == [
        ("cap 2", "teams", "5", "7", "+2")
    ]
