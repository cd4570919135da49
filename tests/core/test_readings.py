"""Readings as data (sims.core.readings) on Coin Duel, the toy game: the file's checks
(one line naming file, entry and field), the ASSUMPTIONS.md section, the placeholders'
ranges and Latin hypercube, and the provenance counts (counted by hand below)."""

from __future__ import annotations

import shutil

import pytest

from sims.core import readings as rd
from sims.core.catalog import CatalogError
from tests.core.toy import CATALOGS
from tests.core.toy.game import KIND_FILES, load_catalog


@pytest.fixture
def copy(tmp_path):
    shutil.copytree(CATALOGS, tmp_path / "catalogs")
    return tmp_path / "catalogs"


def test_the_toy_readings_load_with_their_switches():
    readings = rd.load(CATALOGS, "toy")
    assert [r.id for r in readings.readings] == ["hp_rule", "coin_bonus", "tie"]
    assert readings.by_id("hp_rule").alternatives == ("equal",)
    assert readings.by_id("coin_bonus").alternatives == (0, 3)
    assert not readings.by_id("tie").switchable
    assert set(readings.parameters) == {"hp_rule", "coin_bonus"}
    assert rd.problems(readings, load_catalog, CATALOGS) == []


def _refused(copy, old: str, new: str, message: str) -> None:
    path = copy / "toy" / "readings.toml"
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(CatalogError) as err:
        rd.load(copy, "toy")
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_the_value_in_force_listed_as_an_alternative_is_refused(copy):
    _refused(
        copy,
        'alternatives = ["equal"]',
        'alternatives = ["catalog"]',
        "reading 'hp_rule', field 'alternatives': the value in force is listed",
    )


def test_a_reading_without_alternatives_must_say_why(copy):
    _refused(
        copy,
        'reason = "the rule names the higher total only: a tie has none"\n',
        "",
        "reading 'tie', field 'reason': no alternatives: say why",
    )


def test_problems_name_a_switch_that_does_not_load_or_disagrees(copy):
    path = copy / "toy" / "readings.toml"
    path.write_text(
        path.read_text()
        .replace('taken = "catalog"', 'taken = "equal"')
        .replace('alternatives = ["equal"]', 'alternatives = ["catalog", "both"]')
    )
    found = rd.problems(rd.load(copy, "toy"), load_catalog, copy)
    assert any("taken 'equal' but rules.toml holds 'catalog'" in p for p in found)
    assert any("alternative 'both' does not load" in p for p in found)


def test_an_assumed_switch_missing_from_the_readings_is_a_problem(copy):
    path = copy / "toy" / "readings.toml"
    text = path.read_text()
    start, end = (
        text.index('[[reading]]\nid = "hp_rule"'),
        text.index('[[reading]]\nid = "coin_bonus"'),
    )
    path.write_text(text[:start] + text[end:])
    found = rd.problems(rd.load(copy, "toy"), load_catalog, copy)
    assert found == [f"{path}: assumed switch 'hp_rule' is not a registered reading"]


def test_assumptions_section_is_generated_and_replaced(copy):
    readings = rd.load(copy, "toy")
    path = copy / "toy" / "ASSUMPTIONS.md"
    assert rd.section_of(path.read_text()) == rd.render(readings)
    assert rd.write_assumptions(readings, path) is False  # already current
    (copy / "toy" / "readings.toml").write_text(
        (copy / "toy" / "readings.toml")
        .read_text()
        .replace("Heads adds 1 to the die.", "Heads adds one.")
    )
    assert rd.write_assumptions(rd.load(copy, "toy"), path) is True
    text = path.read_text()
    assert text.count(rd.BEGIN) == 1 and "Heads adds one." in text
    assert text.startswith("# Coin Duel")  # the hand-written part is kept


def test_placeholders_cover_the_assumed_values_in_their_declared_range():
    readings = rd.load(CATALOGS, "toy")
    items = {p.name: p for p in rd.placeholders(readings, CATALOGS, KIND_FILES)}
    # pawn is the rulebook's; knave and brute are assumed; the range names hp only
    # (relative 0.5): knave hp 2 -> 1..3, brute hp 5 -> 2.5..7.5 -> 3..8 (half up)
    assert {n: (p.value, p.low, p.high) for n, p in items.items()} == {
        "fighter.knave.hp": (2, 1, 3),
        "fighter.brute.hp": (5, 3, 8),
    }


def test_the_latin_hypercube_uses_each_stratum_once():
    item = rd.Placeholder("fighter.brute.hp", 5, 1, 8)  # 8 values, 8 draws: each once
    draws = rd.latin_hypercube([item, rd.Placeholder("fighter.knave.hp", 2, 1, 4)], 8, seed=3)
    assert sorted(d["fighter.brute.hp"] for d in draws) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert sorted(d["fighter.knave.hp"] for d in draws) == [1, 1, 2, 2, 3, 3, 4, 4]
    assert draws == rd.latin_hypercube(
        [item, rd.Placeholder("fighter.knave.hp", 2, 1, 4)], 8, seed=3
    )


def test_provenance_counts_by_kind():
    readings = rd.load(CATALOGS, "toy")
    catalog = load_catalog(CATALOGS)
    rows = {
        r["what"]: r
        for r in rd.provenance_counts(
            CATALOGS, "toy", KIND_FILES, catalog.param_provenance, readings
        )
    }
    # fighters: pawn is the rulebook's, knave and brute assumed; two fields each
    assert rows["fighter entries (fighters.toml)"] == {
        "what": "fighter entries (fighters.toml)",
        "rulebook": 1,
        "assumed": 2,
        "reading": 0,
    }
    assert (rows["fighter fields"]["rulebook"], rows["fighter fields"]["assumed"]) == (2, 4)
    # round_cap assumed; coin_bonus and hp_rule are switched by readings
    params = rows["rules parameters (rules.toml)"]
    assert (params["rulebook"], params["assumed"], params["reading"]) == (0, 1, 2)
    # the tie is read in the code (no switch); each reading counted once
    assert rows["readings of the rules (no switch)"]["reading"] == 1
    assert "readings of the numbers (no switch)" not in rows
