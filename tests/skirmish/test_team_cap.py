"""Team Cap counts, pilot synergy and roster errors (003 B, B3, D) for kits."""

import itertools
from fractions import Fraction

import polars as pl

from sims.skirmish import experiments, rules, teams
from tests.conformance import check_declared_columns, chunk_tables


def test_kit_team_counts_equal_brute_force(skirmish):
    counts = teams.kit_team_counts(skirmish)
    assert counts.height == 101 * 10  # caps 100..200 x the ten class mixes of three
    klass = {k: skirmish.mech(k).chassis.klass for k in skirmish.kits}
    weight = {k: rules.mech_weight(skirmish.mech(k)) for k in skirmish.kits}
    for cap in (100, 128, 129, 142, 143, 145, 157, 158, 200):
        listed: dict[tuple[int, int, int], int] = {}
        for trio in itertools.combinations(skirmish.kits, 3):
            if sum(weight[k] for k in trio) <= cap:
                mix = tuple(sum(klass[k] == c for k in trio) for c in ("light", "medium", "heavy"))
                listed[mix] = listed.get(mix, 0) + 1
        at_cap = counts.filter(pl.col("team_cap") == cap)
        got = {
            (r["light"], r["medium"], r["heavy"]): r["teams"]
            for r in at_cap.iter_rows(named=True)
            if r["teams"]
        }
        assert got == listed, cap


def test_kit_team_counts_take_off_trios_breaking_copy_limits(skirmish):
    # With copy_limit 1 (a designer's variant) most kit trios share a part: the weight
    # count alone would overcount; the listed exceptions are taken off at every cap.
    from dataclasses import replace

    strict = replace(skirmish, params=replace(skirmish.params, copy_limit=1))
    counts = teams.kit_team_counts(strict)
    for cap in (129, 145, 200):
        listed = sum(not p for _, p in teams.kit_teams_brute_force(strict, cap))
        assert counts.filter(pl.col("team_cap") == cap)["teams"].sum() == listed
    assert counts.filter(pl.col("team_cap") == 200)["teams"].sum() == 7  # of 56 trios


def test_team_cap_examples(skirmish):
    # 003 B3: 145 fits Courier + Foreman + Reaver (129) and Bastion + a Medium + Courier
    # (143) but not Bastion + two Mediums (158): so the count of (1 light, 1 medium,
    # 1 heavy) teams including the bastion grows at 143, and 158 is the first cap with
    # bastion+foreman+reaver.
    at_145 = {t: p for t, p in teams.kit_teams_brute_force(skirmish, 145)}
    assert at_145["courier+foreman+reaver"] == []
    assert at_145["bastion+courier+foreman"] == []
    assert at_145["bastion+foreman+reaver"] == ["fielded Weight 158 exceeds the Team Cap 145 (B3)"]
    at = {t: p for t, p in teams.kit_teams_brute_force(skirmish, 158)}
    assert at["bastion+foreman+reaver"] == []


def test_pilot_trios(skirmish):
    trios = teams.pilot_trios(skirmish)
    n = len(skirmish.pilots)
    assert trios.height == n * (n - 1) * (n - 2) // 6
    row = trios.filter(
        (pl.col("pilot_1") == "marrow")
        & (pl.col("pilot_2") == "ruko")
        & (pl.col("pilot_3") == "vex")
    ).row(0, named=True)
    assert (row["active"], row["n_active"], row["bonds"]) == ("marrow,ruko", 2, "marrow+ruko")
    row = trios.filter(
        (pl.col("pilot_1") == "q") & (pl.col("pilot_2") == "ruko") & (pl.col("pilot_3") == "vex")
    ).row(0, named=True)
    assert row["n_active"] == 0 and row["active"] == ""
    shares = teams.activation_shares(trios)
    assert sum(Fraction(s) for s in shares["share"]) == 1
    assert shares["trios"].sum() == trios.height
    # exactly one pilot on is impossible: sharing a Faction or Specialty is mutual
    assert shares.filter(pl.col("pilots_on") == 1)["trios"].item() == 0


def test_roster_errors_name_the_roster_and_the_rule(skirmish):
    lines = teams.roster_report(
        skirmish, ["courier", "courier", "foreman", "reaver"], ["bastion", "foreman", "reaver"]
    )
    assert "roster courier+courier+foreman+reaver: 3 copies of part 'rifle' (at most 2, B)" in lines
    assert (
        "roster courier+courier+foreman+reaver: pilot 'hana' flies 2 mechs "
        "(each pilot is unique, B)"
    ) in lines
    assert (
        "fielded team bastion+foreman+reaver: fielded Weight 158 exceeds the Team Cap 145 (B3)"
    ) in lines
    assert (
        teams.roster_report(
            skirmish, ["courier", "foreman", "reaver", "bastion"], ["courier", "foreman", "reaver"]
        )
        == []
    )


def test_sideboard_swaps_the_cap_refuses_name_roster_swap_and_rule(skirmish):
    # 003 I2: the bastion may come in for a Medium (143) but not for the courier (158)
    lines = teams.sideboard_report(
        skirmish, ["courier", "foreman", "reaver", "bastion"], ["courier", "foreman", "reaver"]
    )
    assert lines == [
        "roster courier+foreman+reaver+bastion: the sideboard bastion may not "
        "come in for courier (I2): fielded Weight 158 exceeds the Team Cap 145 "
        "(B3)"
    ]
    assert teams.sideboard_report(
        skirmish, ["courier", "foreman", "reaver", "bastion"], ["bastion", "foreman", "courier"]
    ) == [
        "roster courier+foreman+reaver+bastion: the sideboard reaver may not come in for "
        "courier (I2): fielded Weight 158 exceeds the Team Cap 145 (B3)"
    ]


def test_kit_rosters_by_legal_trios_equal_listing(skirmish):
    counts = teams.kit_roster_counts(skirmish, [145, 200])
    weight = {k: rules.mech_weight(skirmish.mech(k)) for k in skirmish.kits}
    for cap in (145, 200):
        listed = [0] * 5
        for roster in itertools.combinations(skirmish.kits, 4):
            fits = sum(
                sum(weight[k] for k in trio) <= cap for trio in itertools.combinations(roster, 3)
            )
            listed[fits] += 1
        got = counts.filter(pl.col("team_cap") == cap).sort("legal_trios")["rosters"].to_list()
        assert got == listed
    assert sum(listed) == 70  # 003 B: any four distinct kits make a legal roster
    assert listed[4] == 70  # at cap 200 every swap is legal


def test_team_cap_experiment_writes_exact_counts(tmp_path, skirmish):
    from analysis.query import query
    from sims.core.runner import simulate
    from sims.skirmish import team_counts
    from tests.conftest import CATALOGS

    out = simulate(
        "skirmish",
        "team-cap",
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"parts": "playable"},
    )
    assert out.rows == 101 * 10 * 2 + 101 * 5  # kits and builds: caps x mixes; rosters
    for table in chunk_tables(out):
        check_declared_columns(experiments.EXPERIMENTS["team-cap"], skirmish, table)
    rows = query(
        "SELECT of, sum(teams) AS teams, sum(rosters) AS rosters, typeof(sum(teams)) "
        "AS kind FROM team_cap WHERE team_cap = 145 GROUP BY of ORDER BY of",
        tmp_path,
    )
    got = {r["of"]: r for r in rows.iter_rows(named=True)}
    assert got["kits"]["teams"] == 36 and got["kit_rosters"]["rosters"] == 70
    polys = team_counts.team_polynomials(skirmish.parts, skirmish.params, 145)
    assert got["builds"]["teams"] == sum(sum(p["teams"]) for p in polys.values())
    assert got["builds"]["kind"].startswith("DECIMAL(38")
    again = simulate(
        "skirmish",
        "team-cap",
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"parts": "playable"},
    )
    assert again.ran == 0 and again.plan.run_id == out.plan.run_id


def test_builds_experiment_writes_every_playable_build(tmp_path, skirmish):
    from analysis.query import query
    from sims.core.runner import simulate
    from tests.conftest import CATALOGS

    out = simulate(
        "skirmish",
        "builds",
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"parts": "playable"},
    )
    assert out.rows == 121_000  # 8 chassis x 5 heads x 11 x 11 arms x 5 legs x 5 backs
    for table in chunk_tables(out):
        check_declared_columns(experiments.EXPERIMENTS["builds"], skirmish, table)
    legal = query("SELECT count(*) AS n FROM builds WHERE legal", tmp_path)["n"].item()
    assert legal == 117_022
    again = simulate(
        "skirmish",
        "builds",
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"parts": "playable"},
    )
    assert again.ran == 0 and again.plan.run_id == out.plan.run_id


def test_team_cap_chart(skirmish):
    import vl_convert

    from analysis.skirmish import charts

    chart = charts.team_cap_chart(teams.kit_team_counts(skirmish), "Exact.")
    spec = chart.to_dict()
    assert spec["title"]["text"] == "How many teams does the Team Cap admit?"
    assert spec["encoding"]["x"]["title"] == "Team Cap"
    mixes = {row["mix"] for row in spec["data"]["values"]}
    assert "1L 1M 1H" in mixes and "0L 0M 3H" not in mixes  # no cap up to 200 fits 3 Heavies
    svg = vl_convert.vegalite_to_svg(chart.to_json())
    assert svg.startswith("<svg") and 'class="marks"' in svg


def test_readme_sequence_counts_teams_once(tmp_path, skirmish, capsys):
    """The README's order: the report makes the team-cap run, then the command line's
    `simulate skirmish team-cap` (defaults left out), then one with `--seed 5`: one run
    in the store, and the README's query counts every team once (issue 12: it gave 2x,
    then 3x the count)."""
    from analysis.cli import main
    from sims.core.runner import simulate
    from sims.skirmish import builds, team_counts
    from tests.conftest import CATALOGS
    from tests.runs import run_dirs, run_id_of, run_ok

    store = ["--out", str(tmp_path), "--catalog", str(CATALOGS)]
    made = simulate(
        "skirmish",
        "team-cap",
        catalog_root=CATALOGS,
        store_root=tmp_path,
        options={"parts": "full"},
    )  # as the report calls it
    out = run_ok(["simulate", "skirmish", "team-cap", *store], capsys)
    assert run_id_of(out) == made.plan.run_id and "(0 run now, 3 kept)" in out
    capsys.readouterr()
    assert main(["simulate", "skirmish", "team-cap", "--seed", "5", "--n", "1000", *store]) == 0
    out, err = capsys.readouterr()
    assert run_id_of(out) == made.plan.run_id
    assert err == "note: team-cap enumerates without randomness: --n, --seed do not apply\n"
    assert len(run_dirs(tmp_path, "skirmish", "team-cap")) == 1
    sql = "SELECT team_cap, sum(teams) AS teams FROM team_cap WHERE of = 'builds' GROUP BY ALL"
    out = run_ok(
        [
            "query",
            sql + " HAVING team_cap = 200",
            "--store",
            str(tmp_path),
            "--catalog",
            str(CATALOGS),
            "--format",
            "csv",
        ],
        capsys,
    )
    full = builds.load_parts(CATALOGS, "full")
    counts = team_counts.build_team_counts(full, skirmish.params, len(skirmish.pilots))
    once = int(counts.filter(pl.col("team_cap") == 200)["teams"].sum())
    assert 4.5e19 < once < 5.5e19  # the README's "about 5 x 10^19", counted once (not 2x, 3x)
    assert out == f"team_cap,teams\n200,{once}\n"
