"""`mechbal simulate skirmish ...`: the Skirmish experiments through the runner.

The runner itself (parallelism, kill and resume, run ids, chunking) is tested on the toy
game in tests/core/test_runner.py; here: Skirmish's sweeps, its bad inputs, the rows'
columns as its --describe documents them, and every matchup of a chunk played in one
engine call with each row carrying its own matchup's numbers.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

from analysis.cli import main
from tests import runs
from tests.conformance import check_declared_columns
from tests.conftest import CATALOGS, ROOT
from tests.runs import assert_user_error, counts_of, manifest, run_id_of, run_ok, simulate, snapshot

KITS = "foreman,reaver"


# ---- helpers ---------------------------------------------------------------------------


def tiny_duel(out: Path, *extra: str | Path, catalog: Path = CATALOGS) -> list[str]:
    return simulate(
        "skirmish duel --kits foreman --n 20", "--out", out, "--catalog", catalog, *extra
    )


def only_run(store: Path, experiment: str = "duel") -> Path:
    return runs.only_run(store, "skirmish", experiment)


def read_rows(pattern: Path | str) -> pl.DataFrame:
    return runs.read_rows(pattern, ("cell", "battle"))


# ---- 5. sweeps -------------------------------------------------------------------------


def test_crit_margin_sweep(tmp_path, capsys):
    store = tmp_path / "store"
    per_cell = 3_000
    words = f"skirmish crit-margin --kits {KITS} --sweep crit_margin=3,4 --n {8 * per_cell}"
    run_ok(simulate(words, "--out", store, "--catalog", CATALOGS), capsys)
    folder = only_run(store, "crit-margin")
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == [
        "crit_margin=3",
        "crit_margin=4",
    ]
    assert not list(folder.glob("part-*.parquet"))  # every chunk is in its hive folder
    m = manifest(folder)
    assert m["complete"] is True and m["rows"] == 8 * per_cell
    rows = read_rows(folder / "crit_margin=*" / "part-*.parquet")
    assert rows.height == 8 * per_cell
    counts = dict(rows.group_by("crit_margin").len().iter_rows())
    assert counts == {3: 4 * per_cell, 4: 4 * per_cell}
    for margin in (3, 4):
        on_disk = read_rows(folder / f"crit_margin={margin}" / "part-*.parquet")
        assert on_disk.height == 4 * per_cell
        cells = {c["cell"] for c in m["cells"] if c["crit_margin"] == margin}
        assert set(on_disk["cell"].unique()) == cells
    crits = {
        margin: rows.filter(pl.col("crit_margin") == margin)
        .select((pl.col("crits_a") + pl.col("crits_b")).mean())
        .item()
        for margin in (3, 4)
    }
    assert crits[3] > crits[4] * 1.1, crits  # a wider margin crits less often

    # duel with --set crit_margin=3 is one chunk (chunk 0) of its 4 cells in order; the
    # swept grid's margin-3 cells (0, 2, 4, 6: the same 4 matchups in the same order) are
    # one chunk too, numbered 0 by its first cell: the same random stream, the same rows.
    duel_store = tmp_path / "duel"
    run_ok(
        simulate(
            f"skirmish duel --kits {KITS} --set crit_margin=3 --n {4 * per_cell}",
            "--out",
            duel_store,
            "--catalog",
            CATALOGS,
        ),
        capsys,
    )
    duel = read_rows(only_run(duel_store) / "part-*.parquet")
    swept3 = (
        rows.filter(pl.col("crit_margin") == 3)
        .drop("run", "crit_margin")
        .with_columns(pl.col("cell") // 2)
    )
    assert swept3.height == 4 * per_cell and (swept3["chunk"] == 0).all()
    assert_frame_equal(swept3, duel.drop("run"))


def test_bands_sweep_writes_hive_folders(tmp_path, capsys):
    store = tmp_path / "store"
    run_ok(
        simulate(
            "skirmish bands --kits foreman --sweep part.cannon.size=2,4 --n 40",
            "--out",
            store,
            "--catalog",
            CATALOGS,
        ),
        capsys,
    )
    folder = only_run(store, "bands")
    rows = read_rows(folder / "part_cannon_size=*" / "part-*.parquet")
    assert dict(rows.group_by("part_cannon_size").len().iter_rows()) == {2: 20, 4: 20}


# ---- 6. user errors write nothing --------------------------------------------------------


@pytest.fixture(scope="module")
def finished_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("finished")
    assert main(tiny_duel(store)) == 0
    assert manifest(only_run(store))["complete"] is True
    return store


def _bad(words: str, id: str, xfail: str | None = None) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    return pytest.param(
        words.replace("TINY", "skirmish duel --kits foreman --n 20"), marks=marks, id=id
    )


BAD_INPUTS = [
    _bad("nogame duel --n 20", "unknown game"),
    _bad("skirmish nope --n 20", "unknown experiment"),
    _bad("skirmish duel --kits foreman,nobody --n 20", "unknown kit"),
    _bad("TINY --policy gunline,nope", "unknown policy"),
    _bad("TINY --set nope=3", "unknown set parameter"),
    _bad("TINY --set part.cannon.pne=3", "unknown field path"),
    _bad("TINY --set crit_margin=9", "out of range"),
    _bad("TINY --set part.cannon.pen=abc", "text for a number"),
    _bad("skirmish crit-margin --kits foreman --n 20 --sweep crit_margin=3,99", "sweep bad value"),
    _bad("TINY --set crit_margin", "malformed set"),
    _bad("TINY --sweep crit_margin=", "sweep without values"),
    _bad("skirmish bands --kits foreman --n 20", "bands without sweep"),
    _bad(
        "skirmish crit-margin --kits foreman --n 20 --sweep part.cannon.pen=3,4",
        "crit-margin swept over another name",
    ),
    _bad(
        "skirmish crit-margin --kits foreman --n 20 --set crit_margin=3 --sweep crit_margin=3,4",
        "set and swept",
    ),
    _bad("skirmish duel --kits foreman", "missing n"),
    _bad("skirmish duel --kits foreman --n 0", "n zero"),
    _bad("skirmish teamfight --kits foreman --n 20", "option not for the experiment"),
    _bad("skirmish ratings --custom many --n 20", "custom not a number"),
    _bad("TINY --engine bogus", "engine bogus"),
    _bad("TINY --jobs 0", "jobs 0"),
    _bad(
        "skirmish teamfight --n 20 --teams bastion+foreman+reaver,courier+foreman+reaver",
        "illegal team",
    ),
    _bad("TINY --backend bogus --seed 7", "backend bogus (new run)"),
    _bad("TINY --backend bogus", "backend bogus (args of a finished run)"),
    _bad("TINY --backend dask --seed 8", "dask without scheduler"),
    _bad("TINY --seed -1", "negative seed"),
    _bad("skirmish team-cap --parts bogus", "team-cap unknown part list"),
    _bad("skirmish team-cap --set copy_limit=1", "team-cap copy limit it cannot count"),
]


@pytest.mark.parametrize("args", BAD_INPUTS)
def test_user_error_one_line_exit_2_nothing_written(args, finished_store, capsys):
    argv = simulate(args, "--out", finished_store, "--catalog", CATALOGS)
    assert_user_error(argv, finished_store, capsys)


def test_user_error_from_the_module_entry_point(finished_store):
    before = snapshot(finished_store)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "simulate",
            "skirmish",
            "duel",
            "--kits",
            "foreman,nobody",
            "--n",
            "20",
            "--out",
            str(finished_store),
            "--catalog",
            str(CATALOGS),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("mechbal: error: --kits: unknown kit 'nobody'")
    assert "Traceback" not in proc.stderr
    assert snapshot(finished_store) == before


# ---- 7. the reference engine -------------------------------------------------------------


def test_reference_engine_same_store_and_columns(tmp_path, capsys):
    store = tmp_path / "store"
    vec = run_id_of(run_ok(tiny_duel(store), capsys))
    ref = run_id_of(run_ok(tiny_duel(store, "--engine", "reference"), capsys))
    assert vec != ref
    folders = {f.name: f for f in runs.run_dirs(store, "skirmish", "duel")}
    assert set(folders) == {f"run={vec}", f"run={ref}"}
    assert manifest(folders[f"run={ref}"])["engine"] == "reference"
    schemas = {}
    for rid in (vec, ref):
        parts = sorted(folders[f"run={rid}"].glob("part-*.parquet"))
        assert len(parts) == 1
        schemas[rid] = pq.read_schema(parts[0]).remove_metadata()
        assert pq.read_metadata(parts[0]).num_rows == 20
    assert schemas[vec].equals(schemas[ref])


# ---- 8. the row schema -------------------------------------------------------------------

STR = "str"
SIDES = ("a", "b")
PARTS = ("head", "right_arm", "left_arm", "core", "back", "legs")
COMMON = {
    "cell": pa.int32(),
    "side_a": STR,
    "side_b": STR,
    "policy_a": STR,
    "policy_b": STR,
    "battle": pa.int64(),
    "winner": pa.int8(),
    "rounds": pa.int8(),
    "decided": pa.int8(),
    "hull_a": pa.float32(),
    "hull_b": pa.float32(),
    "kills_a": pa.int16(),
    "kills_b": pa.int16(),
    "crits_a": pa.int32(),
    "crits_b": pa.int32(),
    "shots_a": pa.int32(),
    "shots_b": pa.int32(),
    "hits_a": pa.int32(),
    "hits_b": pa.int32(),
    **{f"destroyed_{s}_{p}": pa.int16() for s in SIDES for p in PARTS},
    **{f"{k}_{s}": pa.int16() for k in ("points", "zones") for s in SIDES},
    **{f"zones_{s}_r{r}": pa.int8() for s in SIDES for r in range(1, 8)},
    "seed": pa.int64(),
    "chunk": pa.int32(),
}


def per_mech(mechs: int) -> dict:
    """hex_<side>_<k> and down_<side>_<k> for ``mechs`` mechs a side."""
    return {
        name: dtype
        for s in SIDES
        for k in range(mechs)
        for name, dtype in ((f"hex_{s}_{k}", pa.int16()), (f"down_{s}_{k}", pa.bool_()))
    }


PER_WEAPON = {
    name: dtype
    for s in SIDES
    for k in range(3)
    for name, dtype in (
        (f"weapon_{s}_{k}", STR),
        (f"hits_{s}_{k}", pa.int16()),
        (f"crits_{s}_{k}", pa.int16()),
    )
}


def _check_schema(schema: pa.Schema, expected: dict) -> None:
    assert set(schema.names) == set(expected), set(schema.names) ^ set(expected)
    for name, dtype in expected.items():
        got = schema.field(name).type
        if dtype == STR:
            if pa.types.is_dictionary(got):
                got = got.value_type
            assert pa.types.is_string(got) or pa.types.is_large_string(got), (name, got)
        else:
            assert got == dtype, (name, got, dtype)


def test_declared_columns_are_written(tmp_path, capsys, skirmish):
    """The rows hold the declared columns (tests/conformance.py) and, written out here
    independently, the types below."""
    from sims.skirmish import experiments

    store = tmp_path / "store"
    run_ok(tiny_duel(store), capsys)
    (part,) = only_run(store).glob("part-*.parquet")
    _check_schema(pq.read_schema(part), {**COMMON, **per_mech(1), **PER_WEAPON})
    check_declared_columns(experiments.EXPERIMENTS["duel"], skirmish, pq.ParquetFile(part).read())
    rows = pl.read_parquet(part)
    assert rows["winner"].is_in([0, 1, 2]).all()
    assert rows["decided"].is_in([0, 1, 2, 3]).all()
    assert rows["hull_a"].is_between(0, 1).all() and rows["hull_b"].is_between(0, 1).all()
    assert (rows["seed"] == 1).all() and (rows["chunk"] == 0).all()
    assert rows["battle"].to_list() == list(range(20))


def test_teamfight_rows_have_no_per_weapon_columns(tmp_path, capsys, skirmish):
    from sims.skirmish import experiments

    store = tmp_path / "store"
    words = "skirmish teamfight --teams courier+foreman+reaver,bastion+foreman+courier --n 8"
    out = run_ok(simulate(words, "--out", store, "--catalog", CATALOGS), capsys)
    assert counts_of(out) == (1, 0)  # 4 matchups, 8 battles: one chunk, one engine call
    folder = only_run(store, "teamfight")
    for part in folder.glob("part-*.parquet"):
        _check_schema(pq.read_schema(part), {**COMMON, **per_mech(3)})
        table = pq.ParquetFile(part).read()
        check_declared_columns(experiments.EXPERIMENTS["teamfight"], skirmish, table)
    rows = read_rows(folder / "part-*.parquet")
    assert rows.height == 8
    assert set(rows["side_a"]) == {"courier+foreman+reaver", "bastion+foreman+courier"}


def test_a_chunk_of_many_matchups_keeps_each_rows_numbers(tmp_path, capsys):
    """Every matchup of the duel grid in one chunk (one vector call): each row names its
    own matchup and the weapons of its own kits, which alone score hits."""
    from sims.skirmish.catalog import load_catalog

    catalog = load_catalog(CATALOGS)
    store = tmp_path / "store"
    kits = list(catalog.kits)
    out = run_ok(
        simulate(f"skirmish duel --n {len(kits) ** 2 * 40}", "--out", store, "--catalog", CATALOGS),
        capsys,
    )
    assert counts_of(out) == (1, 0)
    rows = read_rows(only_run(store) / "part-*.parquet")
    assert rows.group_by("side_a", "side_b").len()["len"].to_list() == [40] * len(kits) ** 2
    for side in "ab":
        for k in range(3):
            for (kit, weapon), group in rows.group_by(f"side_{side}", f"weapon_{side}_{k}"):
                mech = catalog.mech(kit)
                part = (mech.right_arm, mech.left_arm, mech.back)[k]
                assert weapon == (part.id if part.is_weapon else None), (kit, k)
                if weapon is None:
                    assert group[f"hits_{side}_{k}"].sum() == 0, (kit, k)
