"""Numbers a designer can trust from ``mechbal query``: one run per view (never several
added up), every run in ``<view>_all``, runs listed with their label, results of another
catalog never shown as current, and SQL that can only read the store."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from analysis.cli import main
from analysis.query import QueryError, connect, query, shown
from tests.core.toy import CATALOGS
from tests.runs import run_id_of, run_ok, simulate, snapshot

N = 90  # 9 matchups x 10 bouts


def bout(store: Path, catalog: Path, *extra: str) -> list[str]:
    return simulate(f"toy bout --n {N}", "--out", store, "--catalog", catalog, *extra)


def query_cli(sql: str, store: Path, catalog: Path, capsys, *extra: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(["query", sql, "--store", str(store), "--catalog", str(catalog), *extra])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """A designer's copy of the toy catalogs, free to edit."""
    root = tmp_path / "catalogs"
    shutil.copytree(CATALOGS, root)
    return root


def test_one_run_per_view_and_every_run_in_all(tmp_path: Path, catalog: Path, capsys) -> None:
    store = tmp_path / "data"
    first = run_id_of(run_ok(bout(store, catalog, "--label", "baseline"), capsys))
    second = run_id_of(run_ok(bout(store, catalog, "--seed", "5"), capsys))
    what_if = run_id_of(run_ok(bout(store, catalog, "--set", "coin_bonus=2"), capsys))
    # The same content again (a spelled-out default seed) is the same run: nothing new.
    assert run_id_of(run_ok(bout(store, catalog, "--seed", "1"), capsys)) == first

    con = connect(store, catalog=catalog)
    # The view holds the latest finished run of the catalog as it stands: 90 rows, not
    # 270, and not the --set what-if that finished after it.
    assert query("SELECT run, count(*) FROM bout GROUP BY run", con).rows() == [(second, N)]
    every = query(
        "SELECT run, label, n, sets, seed, count(*) AS rows FROM bout_all "
        "GROUP BY ALL ORDER BY run",
        con,
    )
    assert sorted(every.rows()) == sorted(
        [
            (first, "baseline", N, "{}", 1, N),
            (second, None, N, "{}", 5, N),
            (what_if, None, N, '{"coin_bonus": 2}', 1, N),
        ]
    )
    runs = query("SELECT run_id, label, current, shown FROM runs ORDER BY run_id", con)
    assert sorted(runs.rows()) == sorted(
        [
            (first, "baseline", True, False),
            (second, None, True, True),
            (what_if, None, False, False),
        ]
    )
    assert shown(con).select("view", "run_id").rows() == [("bout", second)]
    # Outcome codes read as the game's words (a DuckDB ENUM).
    labels = query("SELECT DISTINCT winner::VARCHAR AS w FROM bout ORDER BY w", con)
    assert set(labels["w"]) <= {"a", "b", "draw"} and labels.height >= 2
    con.close()

    # --set asks for the what-if's run; --run names any run by a prefix of its id.
    con = connect(store, catalog=catalog, sets={"coin_bonus": 2})
    assert query("SELECT DISTINCT run FROM bout", con).rows() == [(what_if,)]
    con.close()
    assert query(
        "SELECT DISTINCT run FROM bout", store, catalog=catalog, runs=[first[:6]]
    ).rows() == [(first,)]
    with pytest.raises(QueryError, match="^--run zzz: no such run in the store"):
        query("SELECT 1", store, runs=["zzz"])

    # The command line says which run a view shows when there are others.
    rc, out, err = query_cli("SELECT count(*) AS n FROM bout", store, catalog, capsys)
    assert rc == 0 and f"{N}" in out
    assert err == (
        f"note: bout shows run {second}: latest finished run of the current "
        "catalog; bout_all holds all 3 runs\n"
    )
    rc, out, _ = query_cli("SELECT 1", store, catalog, capsys, "--run", first)
    assert rc == 0
    capsys.readouterr()
    assert main(["runs", "toy", "--store", str(store), "--catalog", str(catalog)]) == 0
    listing = capsys.readouterr().out
    assert "baseline" in listing and what_if in listing and "3 runs" in listing


def test_a_catalog_edit_leaves_no_stale_view(tmp_path: Path, catalog: Path, capsys) -> None:
    store = tmp_path / "data"
    old = run_id_of(run_ok(bout(store, catalog), capsys))
    # limits.toml never decides rows: editing it keeps the run current.
    limits = catalog / "toy" / "limits.toml"
    limits.write_text(limits.read_text().replace("min = 0.30", "min = 0.25"))
    assert query("SELECT DISTINCT run FROM bout", store, catalog=catalog).rows() == [(old,)]
    fighters = catalog / "toy" / "fighters.toml"
    fighters.write_text(fighters.read_text().replace("hp = 3", "hp = 4", 1))
    # The brute's hp changed: the old run is of another catalog and is not shown.
    assert query("SELECT count(*) FROM bout", store, catalog=catalog).item() == 0
    rc, out, err = query_cli("SELECT count(*) AS n FROM bout", store, catalog, capsys)
    assert rc == 0
    assert err == (
        f"note: bout shows no run: no finished run of the current catalog in "
        f"{catalog} (1 of other catalogs or settings: name one with --run ID); "
        "bout_all holds its 1 run\n"
    )
    new = run_id_of(run_ok(bout(store, catalog), capsys))
    assert new != old
    assert query("SELECT DISTINCT run FROM bout", store, catalog=catalog).rows() == [(new,)]


# Every trick the issue found, each refused in one line with nothing written.
TRICKS = [
    ("COPY (SELECT 1) TO 'README.md'", "COPY"),
    ("COPY (SELECT * FROM bout) TO '{part}' (FORMAT parquet)", "COPY"),
    ("DROP VIEW bout", "DROP"),
    ("CREATE TABLE t AS SELECT 1", "CREATE"),
    ("ATTACH 'made.db'", "ATTACH"),
    ("SET threads = 1", "SET"),
    ("PRAGMA threads = 1", "SET"),
    ("PRAGMA show_tables", "PRAGMA"),
    ("INSTALL httpfs", "LOAD"),
    ("EXPLAIN ANALYZE COPY (SELECT 1) TO 'x.csv'", "EXPLAIN"),
    ("SELECT 1; COPY (SELECT 1) TO 'y.csv'", "COPY"),
    ("EXPORT DATABASE 'dump'", "EXPORT"),
]
READS = [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('../README.md')",
    "SELECT * FROM glob('/etc/*')",
]


def test_sql_is_read_only_and_sandboxed(tmp_path: Path, catalog: Path, capsys, monkeypatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("# the project\n")
    monkeypatch.chdir(repo)  # relative paths of the tricks land in the "repository"
    store = repo / "data"
    run_ok(bout(store, catalog), capsys)
    part = next(store.rglob("part-*.parquet"))
    before_store, before_repo = snapshot(store), snapshot(repo)
    for sql, word in TRICKS:
        rc, out, err = query_cli(sql.format(part=part), store, catalog, capsys)
        assert (rc, out) == (2, ""), sql
        article = "an" if word[0] in "AE" else "a"
        assert err == (
            f"mechbal: error: mechbal query only reads the store: {article} {word} "
            "statement is refused (write a result with --out FILE)\n"
        ), sql
    for sql in READS:
        rc, out, err = query_cli(sql, store, catalog, capsys)
        assert (rc, out) == (2, ""), sql
        assert (
            err.startswith("mechbal: error: Permission Error: Cannot access ")
            and err.count("\n") == 1
        ), (sql, err)
    rc, _, err = query_cli("  -- nothing\n", store, catalog, capsys)
    assert rc == 2 and err.startswith("mechbal: error: the query is empty")
    # The same checks hold for Python callers, on a connection from connect().
    con = connect(store, catalog=catalog)
    for sql, _ in TRICKS:
        with pytest.raises(QueryError, match="only reads the store"):
            query(sql.format(part=part), con)
    # Even bypassing the statement check, nothing outside the store can be read and no
    # setting can be changed back.
    with pytest.raises(Exception, match="Permission Error"):
        con.sql("SELECT * FROM read_csv('/etc/passwd')").fetchall()
    with pytest.raises(Exception, match="configuration has been locked"):
        con.execute("SET enable_external_access = true")
    con.close()
    assert snapshot(store) == before_store
    assert snapshot(repo) == before_repo
    # The store is whole: a rerun keeps every chunk.
    assert "(0 run now, 1 kept)" in run_ok(bout(store, catalog), capsys)


def test_query_output_is_ordered_limited_and_labelled(
    tmp_path: Path, catalog: Path, capsys
) -> None:
    store = tmp_path / "data"
    run_ok(bout(store, catalog), capsys)
    sql = "SELECT side_a, side_b, count(*) AS n FROM bout GROUP BY ALL ORDER BY side_a DESC, side_b"
    rc, out, _ = query_cli(sql, store, catalog, capsys, "--format", "csv")
    rows = pl.read_csv(out.encode())
    assert rc == 0 and rows.height == 9
    assert rows["side_a"].to_list() == sorted(rows["side_a"].to_list(), reverse=True)
    rc, out, _ = query_cli(sql, store, catalog, capsys, "--limit", "4")
    assert rc == 0 and "4 of 9 rows shown (--limit 0 shows all" in out
    rc, out, _ = query_cli(sql, store, catalog, capsys, "--limit", "0")
    assert rc == 0 and out.rstrip().endswith("9 rows")
    rc, out, _ = query_cli(
        "SELECT winner, count(*) FROM bout GROUP BY ALL ORDER BY ALL",
        store,
        catalog,
        capsys,
        "--format",
        "csv",
    )
    assert rc == 0 and {line.split(",")[0] for line in out.splitlines()[1:]} <= {"a", "b", "draw"}
