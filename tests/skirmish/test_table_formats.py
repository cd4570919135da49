"""`mechbal tables skirmish --format xlsx` and `--set` on tables, claims and explain,
checked against the CSV contract and against values worked out by hand.

Catalog facts used below (catalogs/skirmish/*.toml, as in tests/skirmish/test_explain.py):
- cannon: Pen 4, Acc 0, 2d6. The weapon_vs_kit attacker has Gunnery 2 and no Head Acc,
  so accuracy 2; foreman Evasion 9: d20 + 2 >= 9 hits on naturals 7..20, P(hit) = 14/20,
  so P(natural 20 | hit) = q = 1/14. The bastion's pilot ilse has Gunnery 1: naturals
  8..20, q = 1/13.
- foreman bands (003 F4): head 1 (Armor 4), right arm 2-4, left arm 5-7, core 8-13,
  legs 16-20 (Armor 5), back 14-15 (Armor 3): 1 band at Armor 4, 17 at 5, 2 at 3.
- crit when d6 + Pen (+1 on a natural 20) >= Armor + crit_margin (003 F5); crit_margin 4.

Cannon at the foreman, P(crit | given hit) = (1 - q) x plain + q x nat20 per Armor:
- margin 4, q = 1/14: Armor 5 13/14 x 1/3 + 1/14 x 1/2 = 29/84; Armor 4 43/84; Armor 3
  57/84; over the bands (1 x 43 + 17 x 29 + 2 x 57) / (20 x 84) = 650/1680 = 65/168.
- margin 3, q = 1/14: Armor 5 13/14 x 1/2 + 1/14 x 2/3 = 43/84; Armor 4 57/84; Armor 3
  71/84; (57 + 17 x 43 + 2 x 71) / 1680 = 930/1680 = 31/56.
- margin 3, q = 1/13 (explain, bastion's pilot): Armor 5 12/13 x 1/2 + 1/13 x 2/3 = 20/39;
  Armor 4 53/78; Armor 3 11/13; (53 + 17 x 40 + 2 x 66) / (20 x 78) = 865/1560 = 173/312
  (margin 4: 121/312, the shipped explain output).
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import openpyxl
import polars as pl
import pytest

from analysis.cli import main
from analysis.tables import workbook_name
from sims.core.protocol import EXACT_KINDS, get_game
from tests.conftest import CATALOGS
from tests.runs import assert_user_error, run_ok

FOREMAN_ARMOR = {"head": 4, "right_arm": 5, "left_arm": 5, "core": 5, "back": 3, "legs": 5}


def stored(value: str | float) -> float:
    """A float as the workbook holds it: xlsxwriter writes 16 significant digits."""
    return float(f"{float(value):.16G}")


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """The shipped catalog's tables as CSV and workbook, and the same with crit margin 3."""
    out = tmp_path_factory.mktemp("tables")
    cat = ["tables", "skirmish", "--catalog", str(CATALOGS)]
    assert main([*cat, "--out", str(out / "plain"), "--format", "csv,xlsx"]) == 0
    assert main([*cat, "--out", str(out / "margin3"), "--set", "crit_margin=3"]) == 0
    return out


def csv(folder: Path, stem: str) -> pl.DataFrame:
    return pl.read_csv(folder / "skirmish" / f"{stem}.csv", infer_schema_length=0)


def cannon_at_foreman(folder: Path) -> str:
    rows = csv(folder, "weapon_vs_kit").filter(
        (pl.col("weapon") == "cannon") & (pl.col("kit") == "foreman")
    )
    return rows["crit_share"].item()


# ---- xlsx --------------------------------------------------------------------------------


def test_every_table_has_a_sheet_holding_the_csv(written: Path) -> None:
    game = get_game("skirmish")
    frames = game.exact(game.load_catalog(CATALOGS))  # for which ids are integers
    book = openpyxl.load_workbook(written / "plain" / "skirmish" / workbook_name(game))
    assert book.sheetnames == ["about", *(t.stem for t in game.tables)]
    for table in game.tables:
        ws, want = book[table.stem], csv(written / "plain", table.stem)
        assert [c.value for c in ws[1]] == want.columns, table.stem
        assert ws.freeze_panes == "A2"
        kinds = {c.name: c.kind for c in table.columns}
        rows = list(ws.iter_rows(min_row=2))
        assert len(rows) == want.height, table.stem
        for col_index, col in enumerate(want.columns):
            cells = [r[col_index] for r in rows]
            texts = want[col].to_list()
            if col.endswith("_float"):
                assert {c.data_type for c in cells} == {"n"}, col
                assert [c.value for c in cells] == [stored(t) for t in texts], col
            elif kinds[col] in EXACT_KINDS:  # text: 3/4 never becomes a date
                assert {c.data_type for c in cells} == {"s"}, col
                assert [c.value for c in cells] == texts, col
            elif frames[table.stem][col].dtype.is_integer():
                assert {c.data_type for c in cells} == {"n"}, col
                assert [str(c.value) for c in cells] == texts, col
            else:
                assert [(c.data_type, c.value) for c in cells] == [("s", t) for t in texts], col


def test_date_like_fraction_is_a_text_cell(written: Path) -> None:
    ws = openpyxl.load_workbook(written / "plain" / "skirmish" / "skirmish-tables.xlsx")[
        "weapon_vs_kit"
    ]
    row = next(
        r for r in ws.iter_rows(min_row=2) if (r[0].value, r[1].value) == ("rifle", "foreman")
    )
    # 003 F Hit: Gunnery 2 + Acc 1 against Evasion 9 hits on naturals 6..20, 15/20
    assert (row[2].value, row[2].data_type) == ("3/4", "s")
    assert (row[3].value, row[3].data_type) == (0.75, "n")


def test_about_sheet_lists_each_tables_doc(written: Path) -> None:
    game = get_game("skirmish")
    about = openpyxl.load_workbook(written / "plain" / "skirmish" / workbook_name(game))["about"]
    text = [c.value for row in about.iter_rows() for c in row if c.value is not None]
    assert f"{game.title} (skirmish)" in text and str(CATALOGS / "skirmish") in text
    assert "none: the catalog as it is" in text  # no --set
    for table in game.tables:
        assert table.doc in text


def test_bad_format_is_one_line_and_writes_nothing(tmp_path: Path, capsys) -> None:
    assert_user_error(
        ["tables", "skirmish", "--out", str(tmp_path), "--format", "xls"], tmp_path, capsys
    )
    assert list(tmp_path.iterdir()) == []


# ---- --set -------------------------------------------------------------------------------


def test_set_crit_margin_moves_the_cannons_crit_share(written: Path) -> None:
    assert cannon_at_foreman(written / "plain") == "65/168"  # margin 4 (module docstring)
    assert cannon_at_foreman(written / "margin3") == "31/56"  # margin 3
    # penetration.csv lists margins 2..6 itself: the parameter leaves it as it was
    for name in ("penetration.csv", "hit.csv", "bands.csv"):
        plain = (written / "plain" / "skirmish" / name).read_bytes()
        assert plain == (written / "margin3" / "skirmish" / name).read_bytes(), name


@pytest.mark.parametrize(("folder", "margin"), [("plain", 4), ("margin3", 3)])
def test_crit_share_agrees_with_the_bands_and_penetration_rows(
    written: Path, folder: str, margin: int
) -> None:
    """weapon_vs_kit's crit share is the bands table's foreman rows over penetration.csv's
    rows at the margin in force, natural 20s weighted by q = 1/14."""
    pen = csv(written / "plain", "penetration").filter(
        (pl.col("pen") == "4") & (pl.col("margin") == str(margin))
    )
    crit = {(int(r["armor"]), r["variant"]): F(r["crit"]) for r in pen.iter_rows(named=True)}
    bands = csv(written / "plain", "bands").filter(
        (pl.col("kit") == "foreman") & (pl.col("cover") == "none")
    )
    q = F(1, 14)
    want = sum(
        F(r["p_strike"])
        * (
            (1 - q) * crit[(FOREMAN_ARMOR[r["part"]], "plain")]
            + q * crit[(FOREMAN_ARMOR[r["part"]], "nat20")]
        )
        for r in bands.iter_rows(named=True)
    )
    assert F(cannon_at_foreman(written / folder)) == want


@pytest.mark.parametrize(
    "words",
    [
        ["--set", "crit_marign=3"],  # unknown name
        ["--set", "crit_margin=9"],  # out of range (2..6)
        ["--set", "part.cannon.pen=two"],  # not an integer
        ["--set", "part.howitzer.pen=5"],  # no such part
    ],
)
def test_bad_set_on_tables_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys, words: list[str]
) -> None:
    assert_user_error(
        ["tables", "skirmish", "--out", str(tmp_path), "--format", "xlsx", *words], tmp_path, capsys
    )
    assert list(tmp_path.iterdir()) == []


def test_set_on_claims_fails_the_claim_that_reads_it(capsys) -> None:
    capsys.readouterr()
    assert main(["claims", "skirmish", "--set", "crit_margin=3"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Mecha Skirmish (skirmish) with --set crit_margin=3\n")
    failed = [line.split()[0] for line in out.splitlines() if line.rstrip().endswith("FAIL")]
    # the two cannon claims name their margin; only the rulebook's default reads the value
    assert failed == ["crit_margin_default"]


def test_set_on_explain_changes_the_working(capsys) -> None:
    words = [
        "explain",
        "skirmish",
        "shot",
        "--attacker",
        "bastion",
        "--weapon",
        "cannon",
        "--target",
        "foreman",
    ]
    plain = run_ok(words, capsys)
    edited = run_ok([*words, "--set", "crit_margin=3"], capsys)
    assert "crit at Armor + 4 or more" in plain and "crit at Armor + 3 or more" in edited
    assert edited.splitlines()[0] == "with --set crit_margin=3"
    total = [line for line in plain.splitlines() if line.lstrip().startswith("all ")]
    assert "121/312" in total[0]  # margin 4 (module docstring)
    total = [line for line in edited.splitlines() if line.lstrip().startswith("all ")]
    assert "173/312" in total[0]  # margin 3


def test_bad_set_on_explain_is_one_line(tmp_path: Path, capsys) -> None:
    assert_user_error(
        [
            "explain",
            "skirmish",
            "shot",
            "--attacker",
            "bastion",
            "--weapon",
            "cannon",
            "--target",
            "foreman",
            "--set",
            "crit_margin=1",
        ],
        tmp_path,
        capsys,
    )


def test_markdown_shows_percentages_for_probabilities_only(written: Path) -> None:
    """Issue 12: expected damage printed as ``39/20 (195.0%)``. Column kinds decide: a
    probability reads ``a/b (pp.p%)``, an expectation ``a/b (x.xxx)``."""
    md = (written / "margin3" / "skirmish" / "weapon_vs_kit.md").read_text()
    rows = [line.split(" | ") for line in md.splitlines() if line.startswith("| rifle | ")]
    assert rows
    for cells in rows:
        p_hit, crit_share, damage = cells[2], cells[3], cells[4].rstrip(" |")
        assert p_hit.endswith("%)") and crit_share.endswith("%)"), cells
        fraction, shown = damage.split(" (")
        assert not shown.endswith("%)") and shown == f"{float(F(fraction)):.3f})", cells
    # damage_by_range: a row per kit and distance, its last cell the expected damage
    text = (written / "margin3" / "skirmish" / "damage_by_range.md").read_text()
    data = [line for line in text.splitlines() if line.startswith("| ") and "/" in line]
    assert len(data) > 10 and not any(line.endswith("%) |") for line in data)
