"""Typed columns (sims.core.protocol): families expand in declared order, labels carry
their words, and --describe is made from the declaration."""

from __future__ import annotations

from types import SimpleNamespace

import pyarrow as pa
import pytest

from sims.core.protocol import SIDES, Column, Each, Experiment, Family, per, type_text


def _experiment(*columns) -> Experiment:
    return Experiment(
        "bout", "a test", "Bouts.", 1, lambda c, o: [], lambda *a: pa.table({}), columns=columns
    )


def test_a_family_expands_outermost_first_its_columns_together():
    mech = Each("mech", of=lambda catalog: range(catalog.params.fielded), text="0..fielded - 1")
    family = per(
        (SIDES, mech),
        Column("hex_<side>_<mech>", "id", dtype=pa.int16()),
        Column("down_<side>_<mech>", "probability", dtype=pa.bool_()),
    )
    catalog = SimpleNamespace(params=SimpleNamespace(fielded=2))
    names = [c.name for c in family.expand(catalog)]
    assert names == [
        "hex_a_0",
        "down_a_0",
        "hex_a_1",
        "down_a_1",
        "hex_b_0",
        "down_b_0",
        "hex_b_1",
        "down_b_1",
    ]
    assert [c.dtype for c in family.expand(catalog)][:2] == [pa.int16(), pa.bool_()]


def test_row_columns_end_with_the_runners_and_labels_come_from_label_columns():
    exp = _experiment(
        Column("cell", "id", dtype=pa.int32()),
        Column("winner", "label", "who won", pa.int8(), ("a", "b", "draw")),
        per(SIDES, Column("hp_<side>", "count", "HP left", pa.int16())),
    )
    names = [c.name for c in exp.row_columns(None)]
    assert names == ["cell", "winner", "hp_a", "hp_b", "seed", "chunk"]
    assert exp.labels == {"winner": ("a", "b", "draw")}


def test_a_label_needs_words_and_stands_alone():
    with pytest.raises(ValueError, match="a label, and only a label, has words"):
        Column("winner", "label", dtype=pa.int8())
    with pytest.raises(ValueError, match="a label, and only a label, has words"):
        Column("rounds", "count", dtype=pa.int8(), words=("one",))
    with pytest.raises(ValueError, match="not in a family"):
        Family((SIDES,), (Column("won_<side>", "label", dtype=pa.int8(), words=("no", "yes")),))


def test_describe_lists_types_kinds_codes_and_placeholders():
    exp = _experiment(
        Column("winner", "label", "who won", pa.int8(), ("a", "b")),
        per(SIDES, Column("unit_<side>", "id", "unit ids", pa.dictionary(pa.int32(), pa.string()))),
    )
    text = exp.describe()
    assert text.startswith("Bouts.\n\nRow columns (one row per game):\n")
    assert "  winner       int8       label        who won (codes 0 a, 1 b; the query" in text
    assert "  unit_<side>  dict<str>  id           unit ids" in text
    assert text.endswith("where <side> is a, b")


def test_type_text():
    assert type_text(pa.float32()) == "float32"
    assert type_text(pa.string()) == "str"
    assert type_text(pa.dictionary(pa.int16(), pa.string())) == "dict<str>"
    assert type_text(pa.decimal128(38, 0)) == "decimal(38,0)"
