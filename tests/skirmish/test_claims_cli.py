"""`mechbal claims`, `tables` and `report` from the command line, on the real catalog."""

import subprocess
import sys
from fractions import Fraction
from importlib import metadata

import polars as pl

from analysis.cli import main
from sims.core.claims import load_claims, run_claims
from sims.core.protocol import ENTRY_POINTS, get_game
from tests.conftest import CATALOGS, ROOT


def test_every_skirmish_claim_passes(skirmish):
    game = get_game("skirmish")
    results = run_claims(game.claims_path(CATALOGS), game.checks, skirmish)
    failed = [r.row() for r in results if not r.passed]
    assert failed == []
    # The claims DESIGN.md lists are all there (a claim dropped from the file is a defect).
    ids = {r.claim.id for r in results}
    for must in (
        "rifle_full_medium_arm",
        "rifle_full_heavy_core",
        "cannon_crit_margin_3",
        "cannon_crit_margin_4",
        "standard_medium_silhouette",
        "kit_weights",
        "team_bastion_two_mediums_over",
        "four_kit_rosters_legal",
        "pilots_ruko_marrow_vex",
        "pilots_ruko_marrow_ilse",
        "pilots_ruko_q_vex",
        "modifiers_cancel",
        "overcharge_rest",
        "fronts_apart",
        "zone_points",
        "wipe_points",
        "crit_margin_default",
        "rifle_pen",
        "cannon_pen",
        "medium_arm_armor_right",
        "medium_arm_armor_left",
        "heavy_core_armor",
        "team_cap",
        "board_length",
        "board_depth",
        "round_cap",
        "overcharge_first",
        "overcharge_second",
        "overcharge_third",
        "rifle_full_heavy_core",
    ):
        assert must in ids


def test_claims_compute_not_copy(skirmish):
    """A claim fails when the catalog stops satisfying it: checks compute from data."""
    from dataclasses import replace

    game = get_game("skirmish")
    claims = {c.id: c for c in load_claims(game.claims_path(CATALOGS), game.checks)}
    harder = replace(skirmish, params=replace(skirmish.params, team_cap=140))
    from sims.core.claims import evaluate

    assert not evaluate(claims["team_bastion_foreman_courier_fits"], game.checks, harder).passed
    assert evaluate(claims["rifle_full_medium_arm"], game.checks, skirmish).actual == Fraction(2, 3)


def test_cli_claims_exit_codes(tmp_path, capsys):
    assert main(["claims", "skirmish"]) == 0
    out = capsys.readouterr().out
    game = get_game("skirmish")
    n = len(load_claims(game.claims_path(CATALOGS), game.checks))
    assert f"{n} passed, 0 failed" in out
    # a catalog whose Team Cap breaks the rulebook's example makes claims fail (exit 1)
    import shutil

    shutil.copytree(CATALOGS, tmp_path / "cat")
    rules = tmp_path / "cat" / "skirmish" / "rules.toml"
    text = rules.read_text()
    assert "value = 145" in text
    rules.write_text(text.replace("value = 145", "value = 140"))
    assert main(["claims", "skirmish", "--catalog", str(tmp_path / "cat")]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_cli_tables_writes_contract_files(tmp_path, capsys):
    assert main(["tables", "skirmish", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "skirmish"
    for stem in ("hit", "penetration", "bands", "weapon_vs_kit", "strikes"):
        assert (folder / f"{stem}.csv").is_file() and (folder / f"{stem}.md").is_file()
    bands = pl.read_csv(folder / "bands.csv")
    foreman = bands.filter((pl.col("kit") == "foreman") & (pl.col("cover") == "none"))
    assert foreman["last"].to_list() == [1, 4, 7, 13, 15, 20]
    pen = pl.read_csv(folder / "penetration.csv", infer_schema_length=0)
    r = pen.filter(
        (pl.col("pen") == "2")
        & (pl.col("armor") == "8")
        & (pl.col("margin") == "4")
        & (pl.col("variant") == "plain")
    )
    assert r["full"].item() == "1/6" and r["crit"].item() == "0"
    assert "| head | 1 | 1 | 1/20 (5.0%) |" in (folder / "bands.md").read_text()
    assert not list(folder.glob("*.tmp"))


def test_cli_report_writes_index(tmp_path, capsys):
    args = ["report", "--out", str(tmp_path), "--store", str(tmp_path / "store"), "--n", "640"]
    assert main(args) == 0
    assert "report written" in capsys.readouterr().out
    page = (tmp_path / "index.html").read_text()
    game = get_game("skirmish")
    n = len(load_claims(game.claims_path(CATALOGS), game.checks))
    assert f"All {n} rulebook claims hold." in page
    assert "tables/skirmish/bands.csv" in page
    assert (tmp_path / "tables" / "skirmish" / "weapon_vs_kit.csv").is_file()


def test_python_dash_m_analysis(tmp_path):
    """`python -m analysis` is the same command; an unknown game is one line, exit 2."""
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "claims", "nosuchgame"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    # the installed games (the subprocess does not know the tests' toy game)
    known = ", ".join(sorted(ep.name for ep in metadata.entry_points(group=ENTRY_POINTS)))
    assert run.stderr.strip().splitlines() == [
        f"mechbal: error: unknown game 'nosuchgame' (known: {known})"
    ]
