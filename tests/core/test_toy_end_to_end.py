"""Coin Duel through every command with no edit to a generic module: tables, claims,
explain, simulate, query and report, as a designer would run them."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis.cli import main
from tests.core.toy import CATALOGS


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_tables_claims_and_explain(tmp_path: Path, capsys) -> None:
    rc, out, _ = run(["tables", "toy", "--catalog", str(CATALOGS), "--out", str(tmp_path)], capsys)
    assert rc == 0 and "wrote 2 files" in out
    csv = pl.read_csv(tmp_path / "toy" / "round.csv", infer_schema_length=0)
    pawns = csv.filter((pl.col("a") == "pawn") & (pl.col("b") == "pawn")).row(0, named=True)
    assert (pawns["p_a"], pawns["p_tie"]) == ("61/144", "11/72")  # worked out in claims.toml
    md = (tmp_path / "toy" / "round.md").read_text()
    assert "| pawn | 7/12 | 61/192 | 61/144 |" in md  # the declared pivot: a row per a
    rc, out, _ = run(["claims", "toy", "--catalog", str(CATALOGS)], capsys)
    assert rc == 0 and "2 passed, 0 failed" in out
    rc, out, _ = run(
        ["explain", "toy", "round", "--a", "pawn", "--b", "knave", "--catalog", str(CATALOGS)],
        capsys,
    )
    assert rc == 0 and out.strip() == "P(pawn wins a round against knave) = 61/192"
    rc, _, err = run(["explain", "toy", "round", "--a", "pawn", "--catalog", str(CATALOGS)], capsys)
    assert rc == 2 and err.strip() == "mechbal: error: explain toy round needs --b"
    rc, _, err = run(
        ["explain", "toy", "round", "--a", "pawn", "--b", "king", "--catalog", str(CATALOGS)],
        capsys,
    )
    assert rc == 2 and "unknown fighter 'king'" in err and err.count("\n") == 1


def test_help_is_built_from_the_declarations(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "toy", "bout", "--help"])
    out = capsys.readouterr().out
    assert "--fighters" in out and "every fighter against every fighter" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "toy (Coin Duel): experiments bout; explain round" in capsys.readouterr().out


def test_simulate_query_and_report(tmp_path: Path, capsys) -> None:
    store, reports = tmp_path / "data", tmp_path / "reports"
    rc, out, _ = run(
        ["simulate", "toy", "bout", "--n", "2700", "--out", str(store), "--catalog", str(CATALOGS)],
        capsys,
    )
    assert rc == 0 and "9 cells, 3 chunks" in out
    csv = tmp_path / "wins.csv"
    rc, out, _ = run(
        [
            "query",
            "SELECT side_a, side_b, count(*) AS games, avg(hp_a) AS hp "
            "FROM bout GROUP BY ALL ORDER BY ALL",
            "--store",
            str(store),
            "--out",
            str(csv),
        ],
        capsys,
    )
    assert rc == 0 and "wrote 9 rows" in out
    assert pl.read_csv(csv)["games"].to_list() == [300] * 9
    rc, out, _ = run(
        [
            "report",
            "toy",
            "--catalog",
            str(CATALOGS),
            "--store",
            str(store),
            "--out",
            str(reports),
            "--n",
            "2700",
        ],
        capsys,
    )
    assert rc == 0 and "report written" in out
    index = (reports / "index.html").read_text()
    assert "Coin Duel" in index and "toy.html" in index and "All 2 rulebook claims hold." in index
    assert "Designer tools" not in index  # no tool page written yet: no link
    (reports / "diff-toy.html").write_text("<html></html>")  # as mechbal diff leaves it
    rc, out, _ = run(
        [
            "report",
            "toy",
            "--catalog",
            str(CATALOGS),
            "--store",
            str(store),
            "--out",
            str(reports),
            "--n",
            "2700",
        ],
        capsys,
    )
    index = (reports / "index.html").read_text()
    assert "Designer tools: <a href='diff-toy.html'>what changed" in index
    assert "dominated-toy.html" not in index and "tune-toy.html" not in index
    page = (reports / "toy.html").read_text()
    for heading in ("What is out of balance", "Who wins?", "Rulebook claims"):
        assert f">{heading}</h2>" in page
    assert "vegaEmbed" in page
