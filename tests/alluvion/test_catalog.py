"""The shipped Alluvion catalog: what the rulebook states, provenance on every entry,
and every placeholder listed in ASSUMPTIONS.md."""

from __future__ import annotations

import dataclasses

import pytest

from sims.alluvion import rules
from sims.alluvion.catalog import load_catalog
from sims.core import readings
from tests.conftest import CATALOGS

ASSUMPTIONS = (CATALOGS / "alluvion" / "ASSUMPTIONS.md").read_text()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def test_the_seven_kinds_in_order(catalog) -> None:
    assert tuple(catalog.systems) == rules.KINDS
    assert "".join(s.code for s in catalog.systems.values()) == rules.CODES
    weapons = {s.id: s.attack for s in catalog.systems.values() if s.family == "weapon"}
    assert weapons == {"hand_to_hand": "close", "direct_fire": "ranged", "smart": "smart"}
    assert [s.id for s in catalog.systems.values() if s.ecm] == ["ecm"]
    assert all(s.provenance == "rulebook" for s in catalog.systems.values())


def test_spotting_reach(catalog) -> None:
    # none: direct line of fire, out of cover; one: behind cover too; two: the whole map
    assert [(r.surveillance, r.range, r.cover) for r in catalog.reach] == [
        (0, 20, False),
        (1, 20, True),
        (2, 0, True),
    ]


def test_rulebook_numbers(catalog) -> None:
    p = catalog.params
    assert (p.skill_dice, p.skill_die, p.systems_per_kind, p.rockets_max) == (2, 6, 2, 2)
    assert (p.defense_first_dice, p.defense_later_dice, p.defense_die) == (2, 1, 6)
    assert (p.weapon_first_die, p.weapon_later_die, p.rocket_die, p.mobile_die) == (6, 8, 8, 8)
    assert (p.hex_meters, p.direct_fire_range, p.opportunity_die, p.actions) == (3, 20, 8, 2)
    assert (
        p.close_direct_from,
        p.exposed_direct_from,
        p.cover_direct_from,
        p.smart_direct_from,
    ) == (4, 5, 6, 4)
    assert (p.hits_per_system, p.loss_die, p.pilot_face) == (2, 6, 6)
    assert (p.squad_size, p.squad_die, p.morale_dice, p.battery_die, p.shutdown_faces) == (
        6,
        6,
        2,
        6,
        1,
    )
    assert [(r.low, r.high, r.replaces) for r in catalog.repairs] == [
        (4, 6, "1d6"),
        (2, 3, "1d3"),
        (1, 1, "0"),
    ]


def test_every_entry_carries_provenance(catalog) -> None:
    kinds = (
        catalog.systems,
        catalog.chassis,
        catalog.cover,
        catalog.policies,
        catalog.loadouts,
        catalog.scenarios,
    )
    for entries in kinds:
        for entry in entries.values():
            assert entry.provenance in ("rulebook", "assumed"), entry.id
    for entry in (*catalog.reach, *catalog.repairs):
        assert entry.provenance in ("rulebook", "assumed")
    assert set(catalog.param_provenance.values()) <= {"rulebook", "assumed"}


def test_every_assumed_parameter_and_file_is_listed_in_assumptions(catalog) -> None:
    # a switch is listed through its reading (readings.toml, rendered into ASSUMPTIONS.md)
    switched = readings.load(CATALOGS, "alluvion").parameters
    for f in dataclasses.fields(catalog.params):
        if catalog.param_provenance[f.name] == "assumed":
            assert f"`{f.name}`" in ASSUMPTIONS or f.name in switched, f.name
    for file in (
        "chassis.toml",
        "cover.toml",
        "policies.toml",
        "loadouts.toml",
        "scenarios.toml",
        "limits.toml",
    ):
        assert f"`{file}`" in ASSUMPTIONS, file
