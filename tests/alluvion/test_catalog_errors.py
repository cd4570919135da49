"""Broken Alluvion catalogs and impossible loadouts end in ONE clear line naming the
file, the entry and the field (a :class:`CatalogError`), or the loadout and the broken
limit (an :class:`InputError` for a loadout written on the command line).

Each case copies ``catalogs/`` into a temporary folder, breaks exactly one thing with a
plain text edit of a TOML file (the edited text must be present exactly once), loads it
and asserts the whole message; the same cases through ``mechbal tables`` and ``mechbal
claims`` must also write nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.cli import EXIT_USER_ERROR, main
from sims.alluvion.catalog import load_catalog
from sims.core.catalog import CatalogError
from sims.core.protocol import InputError
from tests import catalog_copies
from tests.catalog_copies import copy_catalogs
from tests.conftest import CATALOGS

GAME = "alluvion"
GUNNER = 'systems = ["direct_fire", "direct_fire", "resistive", "resistive"]'
SKIMMER_SLOTS = 'id = "skimmer"\nname = "Skimmer"\nslots = 3'

CASES = [
    pytest.param(
        "loadouts.toml",
        GUNNER,
        'systems = ["direct_fire", "direct_fire", "direct_fire", "resistive"]',
        "loadout 'gunner', field 'systems': 3 direct_fire systems: at most 2 of a "
        "kind (The Systems)",
        id="three-of-a-kind",
    ),
    pytest.param(
        "loadouts.toml",
        GUNNER,
        'systems = ["direct_fire", "direct_fire", "resistive", "resistive", "ecm"]',
        "loadout 'gunner', field 'systems': 5 systems on a chassis of 4 slots",
        id="more-systems-than-slots",
    ),
    pytest.param(
        "loadouts.toml",
        GUNNER,
        "systems = []",
        "loadout 'gunner', field 'systems': no systems: an Armor with none is inoperable (Damage)",
        id="no-systems",
    ),
    pytest.param(
        "loadouts.toml",
        GUNNER,
        'systems = ["direct_fire", "laser", "resistive", "resistive"]',
        "loadout 'gunner', field 'systems': names unknown system 'laser'",
        id="unknown-system",
    ),
    pytest.param(
        "loadouts.toml",
        'rockets = 2\npolicy = "striker"',
        'rockets = 3\npolicy = "striker"',
        "loadout 'skirmisher', field 'rockets': 3 rockets: at most 2 single-shot rockets",
        id="three-rockets",
    ),
    pytest.param(
        "loadouts.toml",
        'chassis = "bulwark"\nsystems = ["resistive"',
        'chassis = "titan"\nsystems = ["resistive"',
        "loadout 'sentinel', field 'chassis': names unknown chassis 'titan'",
        id="unknown-chassis",
    ),
    pytest.param(
        "cover.toml",
        "oh = 8",
        "oh = 0",
        "cover 'concrete', field 'oh': 0 is below the minimum 1",
        id="cover-oh-zero",
    ),
    pytest.param(
        "scenarios.toml",
        "morale_b = 6",
        "morale_b = 2",
        "scenario 'patrol_with_infantry', field 'morale_b': a Morale rating runs "
        "3..10 (0: never checks)",
        id="morale-below-3",
    ),
    pytest.param(
        "scenarios.toml",
        'a = ["scout", "gunner"]',
        'a = ["scout", "gunner", "brawler"]',
        "scenario 'patrol_with_infantry', field 'a': a side fields 1..2 Armors",
        id="three-armors",
    ),
    pytest.param(
        "policies.toml",
        'id = "brawler"\napproach = true',
        'id = "brawler"\napproach = "yes"',
        "policy 'brawler', field 'approach': expected true or false, got 'yes'",
        id="policy-not-a-bool",
    ),
    pytest.param(
        "systems.toml",
        'code = "x"',
        'code = "d"',
        "system 'direct_fire', field 'code': two systems share a code letter",
        id="code-letter-twice",
    ),
]


def _message(root: Path, file: str, rest: str) -> str:
    return f"{root / GAME / file}: {rest}"


@pytest.mark.parametrize(("file", "old", "new", "rest"), CASES)
def test_bad_catalog_is_one_clear_line(tmp_path: Path, file, old, new, rest) -> None:
    root = catalog_copies.edit(GAME, file, old, new)(tmp_path)
    with pytest.raises(CatalogError) as caught:
        load_catalog(root)
    text = str(caught.value)
    assert "\n" not in text
    assert text == _message(root, file, rest)


def test_a_chassis_shrunk_under_a_loadout_names_the_loadout(tmp_path: Path) -> None:
    root = catalog_copies.edit(
        GAME, "chassis.toml", SKIMMER_SLOTS, SKIMMER_SLOTS.replace("3", "2")
    )(tmp_path)
    with pytest.raises(CatalogError) as caught:
        load_catalog(root)
    assert str(caught.value) == _message(
        root,
        "loadouts.toml",
        "loadout 'skirmisher', field 'systems': 3 systems on a chassis of 2 slots",
    )


def test_untouched_copy_loads(tmp_path: Path) -> None:
    catalog = load_catalog(copy_catalogs(tmp_path))
    assert len(catalog.loadouts) == 8 and catalog.loadouts["gunner"].code == "knight:rrdd"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (
            "knight:dddr",
            "loadout 'knight:dddr': 3 direct_fire systems: at most 2 of a kind (The Systems)",
        ),
        ("skimmer:rrdd", "loadout 'skimmer:rrdd': 4 systems on a chassis of 3 slots"),
        ("knight:dd+3r", "loadout 'knight:dd+3r': 3 rockets: at most 2 single-shot rockets"),
        (
            "knight:dq",
            "loadout 'knight:dq': unknown system letter 'q' (known: r=resistive, "
            "e=ecm, m=movement, s=surveillance, h=hand_to_hand, d=direct_fire, x=smart)",
        ),
        (
            "titan:DD",
            "loadout 'titan:DD': neither a named loadout (brawler, gunner, lancer, "
            "missileer, phantom, scout, sentinel, skirmisher) nor a code like "
            "knight:rsdd+1r (chassis: skimmer, knight, bulwark)",
        ),
        (
            "knight:dd@sniper",
            "loadout 'knight:dd@sniper': unknown policy 'sniper' (known: "
            "gunline, brawler, striker, overwatch)",
        ),
    ],
)
def test_impossible_loadout_code_is_one_line(code: str, message: str) -> None:
    catalog = load_catalog(CATALOGS)
    with pytest.raises(InputError) as caught:
        catalog.loadout(code)
    assert str(caught.value) == message


def test_bad_override_is_one_clear_line() -> None:
    with pytest.raises(CatalogError) as caught:
        load_catalog(CATALOGS, overrides={"chassis.knight.slots": 3})
    assert str(caught.value) == (
        f"{CATALOGS / GAME / 'loadouts.toml'}: loadout 'gunner', field 'systems': 4 systems "
        "on a chassis of 3 slots"
    )
    with pytest.raises(CatalogError) as caught:
        load_catalog(CATALOGS, overrides={"pilot_hp": 0})
    assert "parameter 'pilot_hp', field 'value': 0 is below the tuning range 1..10" in str(
        caught.value
    )


@pytest.mark.parametrize("command", ("tables", "claims"))
@pytest.mark.parametrize(("file", "old", "new", "rest"), CASES[:3])
def test_cli_bad_catalog_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, file, old, new, rest
) -> None:
    root = catalog_copies.edit(GAME, file, old, new)(tmp_path)
    out = tmp_path / "out"
    capsys.readouterr()
    argv = (
        ["claims", GAME, "--catalog", str(root)]
        if command == "claims"
        else [command, GAME, "--out", str(out), "--catalog", str(root)]
    )
    rc = main(argv)
    captured = capsys.readouterr()
    assert rc == EXIT_USER_ERROR, (rc, captured.err)
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.splitlines() == ["mechbal: error: " + _message(root, file, rest)]
    assert not out.exists()
