"""One conformance test over every registered game (DESIGN.md "One protocol, four games";
STYLE.md 2, 13): the installed games and Coin Duel, the toy game of tests/core.

Each game: its catalog meets the Catalog protocol and every rules parameter is declared
with a tuning range holding its rules.toml value; its claims hold; its exact tables are
written with exactly the declared columns, every exact column with a float beside it;
every experiment writes exactly the columns it declares (names, order, Arrow types,
label codes; ``--describe`` lists them), and the same rows whatever ``--jobs``; both
engines give the same results for the same seed, with the same keys, dtypes and shapes
(an empty call too), and refuse a call mixing batch keys or
with ids outside its scenarios; the reference and vector engines agree within 4 standard
errors on every sample scenario, played alone and mixed in one vector call (which agrees
with the vector engine playing it alone); and where a game's engines read dice in one
order (``Engines.play_dice``), a battle the reference plays is replayed die for die by
the vector engine with the same results (:func:`replay`, which the games' own tests also
call on battles of their own).
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from fractions import Fraction

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analysis.tables import write_tables
from sims.core.batch import RecordingDice, ScriptedDice
from sims.core.claims import run_claims
from sims.core.params import specs
from sims.core.protocol import EXACT_KINDS, Catalog, Experiment, Game, game_names, get_game
from sims.core.runner import simulate
from tests.conftest import CATALOGS

TOY_CATALOGS = CATALOGS.parent / "tests" / "core" / "toy" / "catalogs"
SMALL_CHUNK = 64  # rows per chunk in these runs: several chunks from a small N


def catalogs_of(game: Game):
    return TOY_CATALOGS if game.name == "toy" else CATALOGS


@pytest.fixture(scope="module", params=game_names())
def game(request) -> Game:
    return get_game(request.param)


@pytest.fixture(scope="module")
def catalog(game):
    return game.load_catalog(catalogs_of(game))


def test_game_declares_the_protocol(game, catalog):
    assert game.rules_version and game.title and game.tables and game.experiments
    assert game.engines is not None, "every game brings a reference and a vector engine"
    assert isinstance(catalog, Catalog)
    assert catalog.root == catalogs_of(game) / game.name
    assert game.vocabulary and game.name in game.vocabulary


def test_every_parameter_has_a_range_holding_its_value(catalog):
    for name, spec in specs(type(catalog.params)).items():
        value = getattr(catalog.params, name)
        if spec.choices:
            assert value in spec.choices, name
        elif spec.dice_list:
            assert value, name
        else:
            assert spec.low is not None and spec.high is not None, f"{name}: no tuning range"
            assert spec.low <= value <= spec.high, name
        assert catalog.param_provenance[name] in ("rulebook", "assumed"), name


def test_claims_hold(game, catalog):
    results = run_claims(game.claims_path(catalogs_of(game)), game.checks, catalog)
    assert results and all(r.passed for r in results), [r.row() for r in results if not r.passed]


def test_tables_are_written_with_their_declared_columns(game, catalog, tmp_path):
    write_tables(game, game.exact(catalog), tmp_path)
    written = sorted(p.name for p in (tmp_path / game.name).iterdir())
    assert written == sorted(f"{t.stem}.{ext}" for t in game.tables for ext in ("csv", "md"))
    for table in game.tables:
        frame = pl.read_csv(tmp_path / game.name / f"{table.stem}.csv", infer_schema_length=0)
        assert frame.columns == table.file_columns(), table.stem
        assert table.doc and table.doc in (tmp_path / game.name / f"{table.stem}.md").read_text()
        for col in table.columns:
            if col.kind in EXACT_KINDS:
                for text, value in zip(frame[col.name], frame[f"{col.name}_float"], strict=True):
                    assert re.fullmatch(r"-?\d+(/\d+)?", text), (table.stem, col.name, text)
                    assert float(Fraction(text)) == pytest.approx(float(value))
                    if col.kind == "probability":
                        assert 0 <= Fraction(text) <= 1
            elif col.kind == "id" and frame[col.name].str.contains(r"[A-Z]").any():
                pytest.fail(f"{table.stem}.{col.name}: ids are lower-case")


def _run(game, experiment, store, **kw):
    kw = {"n": 3 * SMALL_CHUNK, "chunk_size": SMALL_CHUNK, **kw}
    return simulate(
        game.name, experiment, seed=11, catalog_root=catalogs_of(game), store_root=store, **kw
    )


def _rows(outcome, hive: bool = True) -> pl.DataFrame:
    """A run's rows; with ``hive``, its swept values as columns (from the folders)."""
    df = pl.read_parquet(str(outcome.plan.folder / "**" / "*.parquet"), hive_partitioning=hive)
    return df.with_columns(pl.col(pl.Categorical).cast(pl.String))


def played(game: Game) -> list[str]:
    """Experiments that play games from a seed (enumerations are each game's own tests)."""
    return [name for name, e in game.experiments.items() if e.needs_n and not e.sweep_required]


def chunk_tables(outcome) -> list[pa.Table]:
    """Each chunk file of a run as written (Arrow types kept, no hive columns)."""
    files = sorted(outcome.plan.folder.rglob("*.parquet"))
    return [pq.ParquetFile(f).read() for f in files]


def check_declared_columns(exp: Experiment, catalog, table: pa.Table) -> None:
    """Rows hold exactly the columns ``exp`` declares: names in order, Arrow types, and
    label codes each naming a word (a code past the words would read NULL in the views)."""
    want = exp.row_columns(catalog)
    assert table.column_names == [c.name for c in want], exp.name
    for col in want:
        got = table.schema.field(col.name).type
        assert got == col.dtype, f"{exp.name}.{col.name}: {got}, declared {col.dtype}"
        if col.words:
            codes = table[col.name].to_numpy()
            assert ((codes >= 0) & (codes < len(col.words))).all(), (exp.name, col.name)


def test_declared_columns_check_catches_a_drift(game, catalog):
    exp = game.experiments[played(game)[0]]
    want = exp.row_columns(catalog)
    good = pa.table({c.name: pa.nulls(2, c.dtype) for c in want})
    for c in want:  # label codes 0 read a word
        if c.words:
            good = good.set_column(
                good.column_names.index(c.name), c.name, pa.array([0, 0], c.dtype)
            )
    check_declared_columns(exp, catalog, good)
    with pytest.raises(AssertionError):  # two columns swapped
        check_declared_columns(exp, catalog, good.select([1, 0, *range(2, good.num_columns)]))
    with pytest.raises(AssertionError):  # the last column's type changed
        wider = pa.nulls(2, pa.float64() if want[-1].dtype != pa.float64() else pa.int8())
        check_declared_columns(
            exp, catalog, good.set_column(good.num_columns - 1, want[-1].name, wider)
        )


def test_experiments_write_the_columns_they_declare(game, catalog, tmp_path):
    for name in played(game):
        exp = game.experiments[name]
        assert exp.columns and exp.describe(), f"{name}: no columns declared"
        # one game per cell, in the experiment's own chunks
        outcome = _run(game, name, tmp_path / name, n=1, chunk_size=None)
        tables = chunk_tables(outcome)
        assert tables and sum(t.num_rows for t in tables) >= 1
        for table in tables:
            check_declared_columns(exp, catalog, table)
        labels = {c.name: c.words for c in exp.row_columns(catalog) if c.words}
        assert labels == exp.labels, f"{name}: the views' labels are the label columns'"


def test_rows_do_not_depend_on_jobs(game, tmp_path):
    name = played(game)[0]
    one = _run(game, name, tmp_path / "one", jobs=1)
    two = _run(game, name, tmp_path / "two", jobs=2)
    assert one.plan.run_id == two.plan.run_id and len(one.plan.chunks) >= 3
    key = [c for c in ("cell", "battle", "game") if c in _rows(one).columns]
    a, b = _rows(one).sort(key), _rows(two).sort(key)
    assert a.height == 3 * SMALL_CHUNK or a.height >= len(one.plan.cells)
    assert a.equals(b)


def first_group(eng, catalog) -> list:
    """The sample scenarios that share the first one's batch key (one engine call)."""
    scenarios = [s for _, s in eng.scenarios(catalog)]
    return [s for s in scenarios if eng.batch_key(s) == eng.batch_key(scenarios[0])]


def same_layout(one: dict, two: dict, rows: int) -> None:
    """The same keys in the same order, each with the same dtype and shape, ``rows``
    games along the first axis."""
    assert list(one) == list(two)
    for key in one:
        assert one[key].dtype == two[key].dtype, key
        assert one[key].shape == two[key].shape and one[key].shape[0] == rows, key


def test_same_seed_same_results(game, catalog):
    """Each engine, a mixed call of the first batch key's scenarios twice on the same
    generator state: the same results, value for value."""
    eng = game.engines
    scenarios = first_group(eng, catalog)
    ids = np.random.default_rng(0).permutation(np.arange(len(scenarios), dtype=np.int32).repeat(8))
    for play in (eng.vector, eng.reference):
        one = play(scenarios, ids, np.random.default_rng(3))
        two = play(scenarios, ids, np.random.default_rng(3))
        same_layout(one, two, len(ids))
        for key in one:
            np.testing.assert_array_equal(one[key], two[key], err_msg=key)


def test_engines_return_the_same_keys_dtypes_and_shapes(game, catalog):
    eng = game.engines
    for _, scenario in eng.scenarios(catalog):
        ids = np.zeros(5, np.int32)
        ref = eng.reference([scenario], ids, np.random.default_rng(1))
        vec = eng.vector([scenario], ids, np.random.default_rng(1))
        same_layout(ref, vec, len(ids))
        empty = [
            play([scenario], ids[:0], np.random.default_rng(1))
            for play in (eng.reference, eng.vector)
        ]
        for none in empty:  # a call of no games: every key, no rows
            same_layout(none, {k: v[:0] for k, v in ref.items()}, 0)


def _agree(ref: dict, vec: dict, label: str) -> None:
    for key in ref:
        r, v = ref[key], vec[key]
        pooled = np.concatenate([r - r.mean(), v - v.mean()]).var()
        se = np.sqrt(pooled * (1 / len(r) + 1 / len(v)))
        assert abs(r.mean() - v.mean()) <= 4 * se + 1e-12, f"{label} {key}"


def _select(results: dict, rows: np.ndarray) -> dict:
    return {k: v[rows] for k, v in results.items()}


def test_reference_and_vector_agree_alone_and_mixed(game, catalog):
    """Each sample scenario: the reference engine's metrics against the vector engine's
    playing it alone, and against the vector engine playing it inside one mixed call with
    the other scenarios of its batch key (interleaved ids)."""
    eng = game.engines
    named = eng.scenarios(catalog)
    groups: dict = defaultdict(list)
    for i, (_, scenario) in enumerate(named):
        groups[eng.batch_key(scenario)].append(i)
    n_ref, n_vec = 300, 6_000
    for members in groups.values():
        scenarios = [named[i][1] for i in members]
        mixed_ids = np.random.default_rng(9).permutation(
            np.repeat(np.arange(len(members), dtype=np.int32), n_vec)
        )
        mixed = eng.vector(scenarios, mixed_ids, np.random.default_rng(6))
        for k, i in enumerate(members):
            label = named[i][0]
            ref = eng.metrics(
                eng.reference([scenarios[k]], np.zeros(n_ref, np.int32), np.random.default_rng(5))
            )
            alone = eng.metrics(
                eng.vector([scenarios[k]], np.zeros(n_vec, np.int32), np.random.default_rng(7))
            )
            part = eng.metrics(_select(mixed, np.flatnonzero(mixed_ids == k)))
            _agree(ref, alone, f"{label} (alone)")
            _agree(ref, part, f"{label} (mixed)")
            _agree(alone, part, f"{label} (mixed against alone)")


def test_engines_refuse_scenarios_of_different_batch_keys(game, catalog):
    eng = game.engines
    _, scenario = eng.scenarios(catalog)[0]
    params = scenario.params
    changed = None
    for f in dataclasses.fields(params):  # another value of the first integer parameter
        value = getattr(params, f.name)
        if isinstance(value, int) and not isinstance(value, bool):
            spec = specs(type(params))[f.name]
            other = spec.low if value != spec.low else spec.high
            changed = dataclasses.replace(
                scenario, params=dataclasses.replace(params, **{f.name: other})
            )
            break
    assert changed is not None and eng.batch_key(changed) != eng.batch_key(scenario)
    for play in (eng.vector, eng.reference):
        with pytest.raises(ValueError, match="batch_key"):
            play([scenario, changed], np.array([0, 1], np.int32), np.random.default_rng(1))
        with pytest.raises(ValueError, match="scenario ids"):
            play([scenario], np.array([0, 1], np.int32), np.random.default_rng(1))


def replay(play_dice, scenario, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """One game of ``scenario`` played by the reference engine on dice from ``rng``,
    recorded, then by the vector engine on the record (``play_dice``: the two engines on
    dice passed in): the vector engine reads every face, in order, and gives the same
    results, key for key, dtype and value. Returns those results."""
    reference, vector = play_dice
    one = np.zeros(1, np.int64)
    recorded = RecordingDice(rng)
    want = reference([scenario], one, recorded)
    script = ScriptedDice(recorded.script)
    got = vector([scenario], one, script)
    assert script.used == len(recorded.script), f"read {script.used} of {len(recorded.script)}"
    same_layout(got, want, 1)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    return got


def test_vector_replays_the_references_dice(game, catalog):
    """Every sample scenario, four games each: the reference's dice replayed in the
    vector engine give its results exactly (games whose engines read dice in other
    orders say so with ``play_dice=None``)."""
    eng = game.engines
    if eng.play_dice is None:
        pytest.skip(f"{game.name}: its engines read a battle's dice in different orders")
    for i, (label, scenario) in enumerate(eng.scenarios(catalog)):
        for seed in range(4):
            try:
                replay(eng.play_dice, scenario, np.random.default_rng(100 * i + seed))
            except AssertionError as e:
                raise AssertionError(f"{label}, seed {100 * i + seed}: {e}") from e


# ---- readings as data and verdicts (DESIGN.md "Verdicts: what they rest on") --------------


def test_readings_are_registered_and_assumptions_agree(game):
    """Every game has readings.toml; every switch loads with each alternative and holds
    its value in force; every assumed rules switch is a registered reading; and the
    readings section of ASSUMPTIONS.md is the one generated from the file."""
    from sims.core import readings as rd

    root = catalogs_of(game)
    readings = rd.load(root, game.name)
    assert readings.path.is_file(), f"{readings.path} is missing"
    assert readings.readings, f"{readings.path} lists no reading"
    assert rd.problems(readings, game.load_catalog, root) == []
    assumptions = root / game.name / "ASSUMPTIONS.md"
    section = rd.section_of(assumptions.read_text())
    assert section is not None, f"{assumptions} has no generated readings section"
    assert section == rd.render(readings), (
        f"{assumptions} disagrees with readings.toml: run mechbal readings {game.name} --write"
    )


def test_the_analysis_plugin_declares_its_verdicts(game):
    """mechbal robust has something to check in every game: verdicts whose ids are
    unique, and flag verdicts for the flags (ids flag:<limit>:<subject>)."""
    from analysis.flags import load_limits
    from analysis.plugin import get_analysis

    analysis = get_analysis(game.name)
    assert analysis is not None and analysis.verdicts is not None
    root = catalogs_of(game)
    catalog = game.load_catalog(root)
    limits_path = game.limits_path(root)
    limits = load_limits(limits_path, analysis.limits) if limits_path.is_file() else {}
    verdicts = list(analysis.verdicts(catalog, limits))
    ids = [v.id for v in verdicts]
    assert len(ids) == len(set(ids)), "verdict ids repeat"
    assert any(v.kind in ("best", "worst", "gap", "comparison") for v in verdicts)
    if limits:
        assert any(i.startswith("flag:") for i in ids), "limits but no flag verdicts"
    experiments = set(game.experiments)
    assert {v.experiment for v in verdicts} <= experiments
