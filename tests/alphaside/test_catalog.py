"""The shipped ALPHASIDE catalog: what the rulebook states, provenance on every entry,
every placeholder listed in ASSUMPTIONS.md, and broken entries as one clear line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sims.alphaside import rules
from sims.alphaside.catalog import load_catalog
from sims.core.catalog import CatalogError
from tests import catalog_copies
from tests.conftest import CATALOGS

GAME = "alphaside"
ASSUMPTIONS = (CATALOGS / GAME / "ASSUMPTIONS.md").read_text()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def test_rulebook_numbers(catalog) -> None:
    p = catalog.params
    assert (p.die, p.hit_on, p.miss_face, p.crit_from) == (10, 4, 1, 9)
    assert (p.defeat_delay, p.fracture_at, p.fracture_damage, p.collision_damage) == (2, 3, 3, 2)
    assert (p.spaces, p.phases, p.tactics_draw, p.advance_base, p.engaged_penalty) == (
        10,
        2,
        3,
        1 + 2,
        1,
    )
    # "exactly 9 cards for a 2-Phase game, +3 cards per extra Phase (12 for 3, 15 for 4)"
    assert rules.deck_size(p) == 9
    assert [rules.deck_size(dataclasses.replace(p, phases=k)) for k in (3, 4)] == [12, 15]


def test_every_entry_carries_provenance(catalog) -> None:
    for entries in (
        catalog.weapons,
        catalog.abilities,
        catalog.tactics,
        catalog.policies,
        catalog.units,
        catalog.squads,
    ):
        for entry in entries.values():
            assert entry.provenance in ("rulebook", "assumed"), entry.id
    assert set(catalog.param_provenance.values()) <= {"rulebook", "assumed"}


def test_every_assumed_parameter_and_file_is_listed(catalog) -> None:
    for f in dataclasses.fields(catalog.params):
        if catalog.param_provenance[f.name] == "assumed":
            assert f"`{f.name}`" in ASSUMPTIONS, f.name
    for file in (
        "weapons.toml",
        "units.toml",
        "abilities.toml",
        "tactics.toml",
        "policies.toml",
        "squads.toml",
        "limits.toml",
    ):
        assert f"`{file}`" in ASSUMPTIONS, file


def test_squads_are_legal(catalog) -> None:
    for squad in catalog.squads.values():
        assert len(squad.units) in (3, 5) and len(set(squad.tactics)) == 9
        for uid in set(squad.units):
            assert squad.units.count(uid) == 1 or catalog.units[uid].mass_produced


GRUNT_WEAPONS = 'weapons = ["rifle", "vulcan"]\nabilities = []\npolicy = "assault"'
CASES = [
    pytest.param(
        "units.toml",
        GRUNT_WEAPONS,
        'abilities = []\npolicy = "assault"',
        "units.toml",
        "unit 'grunt', field 'weapons': missing required field",
        id="unit-without-weapons",
    ),
    pytest.param(
        "weapons.toml",
        "tl = 3\nrange = 4",
        "tl = -1\nrange = 4",
        "weapons.toml",
        "weapon 'rifle', field 'tl': -1 is below the minimum 1",
        id="negative-tl",
    ),
    pytest.param(
        "weapons.toml",
        'id = "rifle"\nname = "Assault Rifle"',
        'id = "rifle"',
        "weapons.toml",
        "weapon 'rifle', field 'name': missing required field",
        id="weapon-field",
    ),
    pytest.param(
        "units.toml",
        GRUNT_WEAPONS,
        GRUNT_WEAPONS.replace('"vulcan"', '"laser"'),
        "units.toml",
        "unit 'grunt', field 'weapons': names unknown weapon 'laser'",
        id="unknown-weapon",
    ),
    pytest.param(
        "weapons.toml",
        'crit_effect = "damage"\ncrit_value = 1',
        'crit_effect = "damage"\ncrit_value = 0',
        "weapons.toml",
        "weapon 'rifle', field 'crit_value': a damage, push or pull effect needs a "
        "value above 0; the others 0",
        id="damage-effect-without-value",
    ),
    pytest.param(
        "squads.toml",
        'units = ["sniper", "bulwark", "grunt"]',
        'units = ["sniper", "sniper", "grunt"]',
        "squads.toml",
        "squad 'federation_line', field 'units': 2 copies of 'sniper', which is not Mass Produced",
        id="two-copies",
    ),
    pytest.param(
        "squads.toml",
        'units = ["sniper", "bulwark", "grunt"]',
        'units = ["sniper", "bulwark"]',
        "squads.toml",
        "squad 'federation_line', field 'units': 2 units: a squad has 3 or 5",
        id="squad-of-two",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "where", "rest"), CASES)
def test_bad_catalog_is_one_clear_line(tmp_path: Path, file, old, new, where, rest) -> None:
    text = (CATALOGS / GAME / file).read_text()
    if text.count(old) != 1:  # the first entry only: make the edit unique
        old_first = old
        root = catalog_copies.copy_catalogs(tmp_path)
        path = root / GAME / file
        path.write_text(text.replace(old_first, new, 1))
    else:
        root = catalog_copies.edit(GAME, file, old, new)(tmp_path)
    with pytest.raises(CatalogError) as caught:
        load_catalog(root)
    assert str(caught.value) == f"{root / GAME / where}: {rest}"
