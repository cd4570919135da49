"""``mechbal tables GAME --format csv|md|xlsx`` and ``--set`` on tables, claims and
explain, on Coin Duel (the toy game of tests/core): the generic parts, naming no real
game.

Coin Duel facts used below (tests/core/toy/catalogs/toy): pawn d6, knave d8, brute d4;
coin_bonus 1 (adds 1 on heads), allowed 0..3. With coin_bonus 0 a round is the bare dice:
two d6 tie 6/36 = 1/6 and each wins (1 - 1/6) / 2 = 5/12; a d6 beats a d8 with
(0 + 1 + 2 + 3 + 4 + 5) / 48 = 5/16.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import polars as pl
import pytest

from analysis.cli import main
from analysis.tables import (
    DEFAULT_FORMATS,
    parse_formats,
    render_markdown,
    sheet_names,
    workbook_name,
    write_tables,
)
from sims.core.protocol import Game, Table, columns, get_game
from tests.core.toy import CATALOGS
from tests.runs import assert_user_error, run_ok, snapshot

TOY = ["--catalog", str(CATALOGS)]


def tables(out: Path, *words: str) -> list[str]:
    return ["tables", "toy", *TOY, "--out", str(out), *words]


def read_csv_text(path: Path) -> pl.DataFrame:
    """The CSV as written: every cell its text."""
    return pl.read_csv(path, infer_schema_length=0)


def stored(value: str | float) -> float:
    """A float as the workbook holds it: xlsxwriter writes numbers to 16 significant
    digits (beyond the 15 a spreadsheet shows), so a float may come back 1 ulp away."""
    return float(f"{float(value):.16G}")


def pawn_mirror(frame: pl.DataFrame) -> dict:
    return frame.filter((pl.col("a") == "pawn") & (pl.col("b") == "pawn")).row(0, named=True)


# ---- formats -----------------------------------------------------------------------------


def test_default_is_csv_and_markdown_as_before(tmp_path: Path, capsys) -> None:
    out = run_ok(tables(tmp_path / "default"), capsys)
    assert out.strip() == f"wrote 2 files to {tmp_path / 'default' / 'toy'}"
    run_ok(tables(tmp_path / "asked", "--format", "md,csv"), capsys)
    default, asked = tmp_path / "default" / "toy", tmp_path / "asked" / "toy"
    assert sorted(p.name for p in default.iterdir()) == ["round.csv", "round.md"]
    for name in ("round.csv", "round.md"):  # naming the defaults changes nothing
        assert (default / name).read_bytes() == (asked / name).read_bytes()
    # the bytes are what the writers render: the frame's CSV and the Markdown page
    game = get_game("toy")
    frame = game.exact(game.load_catalog(CATALOGS))["round"]
    assert (default / "round.csv").read_text() == frame.write_csv()
    assert (default / "round.md").read_text() == render_markdown(
        game.table("round"), frame, game.title
    )


def test_formats_are_repeatable_or_a_comma_list() -> None:
    assert parse_formats(None) == DEFAULT_FORMATS == ("csv", "md")
    assert parse_formats(["xlsx"]) == ("xlsx",)
    assert parse_formats(["xlsx", "CSV"]) == parse_formats(["csv, xlsx"]) == ("csv", "xlsx")
    assert parse_formats("md,xlsx,md") == ("md", "xlsx")
    for bad, words in ((["pdf"], "unknown format 'pdf'"), ([","], "no format given")):
        with pytest.raises(ValueError, match=words):
            parse_formats(bad)


def test_xlsx_only_writes_one_workbook(tmp_path: Path, capsys) -> None:
    out = run_ok(tables(tmp_path, "--format", "xlsx"), capsys)
    assert "wrote 1 files" in out
    # no temporary left beside it
    assert [p.name for p in (tmp_path / "toy").iterdir()] == ["toy-tables.xlsx"]
    run_ok(tables(tmp_path / "two", "--format", "csv", "--format", "xlsx"), capsys)
    assert sorted(p.name for p in (tmp_path / "two" / "toy").iterdir()) == [
        "round.csv",
        "toy-tables.xlsx",
    ]


def test_workbook_cells_are_the_csv_values(tmp_path: Path, capsys) -> None:
    run_ok(tables(tmp_path, "--format", "csv,xlsx"), capsys)
    game = get_game("toy")
    book = openpyxl.load_workbook(tmp_path / "toy" / workbook_name(game))
    assert book.sheetnames == ["about", *(t.stem for t in game.tables)]
    csv = read_csv_text(tmp_path / "toy" / "round.csv")
    ws = book["round"]
    assert [c.value for c in ws[1]] == csv.columns  # the header row, frozen below it
    assert ws.freeze_panes == "A2"
    exact = {"p_a", "p_tie"}
    rows = list(ws.iter_rows(min_row=2))
    assert len(rows) == csv.height == 9  # three fighters against three
    for cells, want in zip(rows, csv.iter_rows(named=True), strict=True):
        for cell, col in zip(cells, csv.columns, strict=True):
            if col in exact or col in ("a", "b"):  # fractions and text ids: text cells
                assert (cell.data_type, cell.value) == ("s", want[col])
            else:
                assert col.endswith("_float")
                assert cell.data_type == "n" and cell.value == stored(want[col])
    # the pawns' row, worked out in claims.toml: text, never a date or a number
    pawns = next(r for r in rows if (r[0].value, r[1].value) == ("pawn", "pawn"))
    assert [(c.value, c.data_type) for c in pawns[2:]] == [
        ("61/144", "s"),
        (stored(61 / 144), "n"),
        ("11/72", "s"),
        (stored(11 / 72), "n"),
    ]


def test_about_sheet_names_game_catalog_and_docs(tmp_path: Path, capsys) -> None:
    run_ok(tables(tmp_path, "--format", "xlsx"), capsys)
    game = get_game("toy")
    about = openpyxl.load_workbook(tmp_path / "toy" / workbook_name(game))["about"]
    text = [str(c.value) for row in about.iter_rows() for c in row if c.value is not None]
    assert "Coin Duel (toy)" in text and game.rules_version in text
    assert str(CATALOGS / "toy") in text
    assert "none: the catalog as it is" in text  # no --set
    for table in game.tables:
        assert table.doc in text and table.stem in text


def test_integers_are_numbers_unless_too_long_to_show_exactly(tmp_path: Path) -> None:
    """A count too large for a spreadsheet's 15 digits stays exact, as text."""
    frame = pl.DataFrame({"n": [3, 10**15 + 1], "what": ["small", "large"]})
    table = Table("counts", "Two counts.", columns(("n", "count"), ("what", "id")))
    game = Game(
        "demo",
        "Demo",
        "",
        lambda root, overrides=None: None,
        (table,),
        lambda catalog: {"counts": frame},
        {},
        "demo-1",
    )
    (path,) = write_tables(game, {"counts": frame}, tmp_path, formats="xlsx")
    ws = openpyxl.load_workbook(path)["counts"]
    assert [(c.value, c.data_type) for c in ws["A"][1:]] == [(3, "n"), ("1000000000000001", "s")]


def test_sheet_names_are_legal_and_unique() -> None:
    long = "a" * 40
    names = sheet_names(["about", "x/y", long, long + "b", "ABOUT"])
    assert names["about"] != "about" and names["ABOUT"].lower() != "about"
    assert names["x/y"] == "x_y"
    assert names[long] == "a" * 31 and names[long + "b"] == "a" * 29 + "~2"
    assert all(len(n) <= 31 for n in names.values())
    assert len({n.lower() for n in names.values()}) == 5


def test_nothing_is_written_when_anything_fails(tmp_path: Path, monkeypatch) -> None:
    """Every file is rendered before the first is written: a workbook that fails to
    render leaves the CSV and Markdown unwritten too."""
    import analysis.tables

    game = get_game("toy")
    frames = game.exact(game.load_catalog(CATALOGS))

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(analysis.tables, "render_workbook", broken)
    with pytest.raises(RuntimeError):
        write_tables(game, frames, tmp_path, formats=("csv", "md", "xlsx"))
    assert snapshot(tmp_path) == {}


@pytest.mark.parametrize(
    "words",
    [
        ["--format", "pdf"],
        ["--format", "csv,pdf"],
        ["--format", ","],
        ["--format", "xlsx", "--set", "coin_bonnus=0"],  # unknown name
        ["--format", "xlsx", "--set", "coin_bonus=9"],  # out of range (0..3)
        ["--format", "xlsx", "--set", "coin_bonus=lots"],  # not an integer
        ["--set", "coin_bonus"],  # not NAME=VALUE
        ["--set", "fighter.pawn.die=1"],  # a d1 is no die
        ["--set", "fighter.king.die=6"],  # no such fighter
    ],
)
def test_bad_format_or_set_is_one_line_and_writes_nothing(tmp_path: Path, capsys, words) -> None:
    run_ok(tables(tmp_path), capsys)  # what is there stays byte for byte
    assert_user_error(tables(tmp_path, *words), tmp_path, capsys)


# ---- --set -------------------------------------------------------------------------------


def test_set_on_tables_changes_the_values(tmp_path: Path, capsys) -> None:
    run_ok(tables(tmp_path / "plain"), capsys)
    run_ok(tables(tmp_path / "set", "--set", "coin_bonus=0", "--format", "csv,xlsx"), capsys)
    plain = pawn_mirror(read_csv_text(tmp_path / "plain" / "toy" / "round.csv"))
    bare = pawn_mirror(read_csv_text(tmp_path / "set" / "toy" / "round.csv"))
    assert (plain["p_a"], plain["p_tie"]) == ("61/144", "11/72")
    assert (bare["p_a"], bare["p_tie"]) == ("5/12", "1/6")  # two bare d6 (module docstring)
    about = openpyxl.load_workbook(tmp_path / "set" / "toy" / "toy-tables.xlsx")["about"]
    assert "coin_bonus=0" in [c.value for row in about.iter_rows() for c in row]
    # a catalog field by path: the pawn's die as a d8 makes the mirror a knave's
    run_ok(tables(tmp_path / "field", "--set", "fighter.pawn.die=8"), capsys)
    field = read_csv_text(tmp_path / "field" / "toy" / "round.csv")
    knaves = field.filter((pl.col("a") == "knave") & (pl.col("b") == "knave")).row(0, named=True)
    assert pawn_mirror(field)["p_a"] == knaves["p_a"]


def test_set_on_claims_fails_a_claim_that_reads_the_value(capsys) -> None:
    assert "2 passed, 0 failed" in run_ok(["claims", "toy", *TOY], capsys)
    # the catalog's own value changes nothing
    assert "2 passed, 0 failed" in run_ok(["claims", "toy", *TOY, "--set", "coin_bonus=1"], capsys)
    assert main(["claims", "toy", *TOY, "--set", "coin_bonus=0"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Coin Duel (toy) with --set coin_bonus=0\n")
    failed = [line.split()[0] for line in out.splitlines() if line.rstrip().endswith("FAIL")]
    assert failed == ["pawn_mirror_round"]  # 5/12, not 61/144; the die claim holds
    assert "1 passed, 1 failed" in out


def test_set_on_claims_errors(tmp_path: Path, capsys) -> None:
    assert_user_error(["claims", "toy", *TOY, "--set", "coin_bonus=5"], tmp_path, capsys)
    # without GAME a name could mean something in one game only
    assert_user_error(["claims", *TOY, "--set", "coin_bonus=0"], tmp_path, capsys)


def test_set_on_explain_changes_the_working(tmp_path: Path, capsys) -> None:
    words = ["explain", "toy", "round", "--a", "pawn", "--b", "knave", *TOY]
    assert run_ok(words, capsys).strip() == "P(pawn wins a round against knave) = 61/192"
    out = run_ok([*words, "--set", "coin_bonus=0"], capsys)
    assert out.splitlines() == [
        "with --set coin_bonus=0",
        "P(pawn wins a round against knave) = 5/16",
    ]
    # --set is the explain command's own flag: before GAME too
    assert run_ok(["explain", "--set", "coin_bonus=0", *words[1:]], capsys) == out
    assert_user_error([*words, "--set", "coin_bonus=-1"], tmp_path, capsys)
    with pytest.raises(SystemExit):
        run_ok(["explain", "toy", "round", "--help"], capsys)
    assert "--set NAME=VALUE" in capsys.readouterr().out
