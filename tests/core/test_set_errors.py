"""A bad value typed with --set is blamed on the flag, not on the file that does not hold
it (sims.core.catalog.apply_overrides, CatalogError); a bad value in the file still names
the file. On Coin Duel, the toy game."""

from __future__ import annotations

import shutil

import pytest

from sims.core.catalog import CatalogError
from tests.core.toy import CATALOGS
from tests.core.toy.game import load_catalog


def _error(root, overrides=None) -> str:
    with pytest.raises(CatalogError) as err:
        load_catalog(root, overrides=overrides)
    return str(err.value)


def test_a_rules_value_typed_with_set_names_the_flag():
    assert _error(CATALOGS, {"round_cap": 99}) == (
        "--set round_cap=99: parameter 'round_cap', field 'value': "
        "99 is above the tuning range 1..20"
    )


def test_a_catalog_field_typed_with_set_names_the_flag():
    message = _error(CATALOGS, {"fighter.knave.hp": 99})
    assert message.startswith("--set fighter.knave.hp=99: fighter 'knave', field 'hp': ")


def test_a_bad_value_in_the_file_still_names_the_file(tmp_path):
    shutil.copytree(CATALOGS, tmp_path / "catalogs")
    rules = tmp_path / "catalogs" / "toy" / "rules.toml"
    rules.write_text(rules.read_text().replace("value = 5", "value = 99", 1))
    # an earlier load's --set edits do not follow into the next load
    assert _error(CATALOGS, {"round_cap": 99}).startswith("--set ")
    assert _error(tmp_path / "catalogs").startswith(f"{rules}: parameter 'round_cap'")
    # a --set of another value leaves the file's own fault on the file
    message = _error(tmp_path / "catalogs", {"coin_bonus": 2})
    assert message.startswith(f"{rules}: parameter 'round_cap'")
