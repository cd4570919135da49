"""Broken Lab Partners catalogs end in ONE clear line naming the file, the entry and the
field (a :class:`CatalogError`), never a traceback or a silently wrong deck.

Each case copies ``catalogs/`` into a temporary folder, breaks exactly one thing with a
plain text edit of a TOML file (the edited text must be present exactly once, so a case
cannot pass by editing nothing), loads it with ``load_catalog`` and asserts the whole
message. The same cases run through ``mechbal tables`` / ``mechbal claims`` (the game must be
installed: a missing registration fails), which must also write nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sims.core.catalog import CatalogError
from sims.labpartners.catalog import load_catalog
from tests import catalog_copies
from tests.catalog_copies import Prepare, copy_catalogs
from tests.conftest import CATALOGS
from tests.registration import installed

GAME = "labpartners"
FORMS = "beast, mechsuit, vehicle, clockwork, ghost_crystal"
TYPES = "projectile, energy, melee, magic, sonic"


def edit(file: str, old: str, new: str) -> Prepare:
    return catalog_copies.edit(GAME, file, old, new)


GORGADON_END = 'debuff_amount = 1\nprovenance = "assumed"\nrulebook_fields = ["name", "speed"]\n'
ALPHA_COUNTS = "counts = { legs = 15, torso = 15, head = 15, arms = 25 }"

# (file, old text, new text, "entry, field: message" after the file's path)
CASES = [
    # -- the card list: the alpha deck names cards of the full spread, once each
    pytest.param(
        "decks.toml",
        '"arms-mechsuit-sonic-2",',
        '"arms-beast-sonic-4",',
        "deck 'alpha', field 'cards': 'arms-beast-sonic-4' is not a card of the full "
        "spread (Arms have Power 1..3)",
        id="card-outside-full-spread",
    ),
    pytest.param(
        "decks.toml",
        '"arms-mechsuit-sonic-2",',
        '"arms-beast-melee-2",',
        "deck 'alpha', field 'cards': 'arms-beast-melee-2' is listed twice (a reduced "
        "deck holds each card once)",
        id="card-twice",
    ),
    pytest.param(
        "decks.toml",
        ALPHA_COUNTS,
        ALPHA_COUNTS.replace("legs = 15", "legs = 16"),
        "deck 'alpha', field 'cards': 15 legs cards listed, but counts says 16",
        id="counts-do-not-add-up",
    ),
    pytest.param(
        "decks.toml",
        '"legs-beast-projectile",',
        '"legs-robot-projectile",',
        f"deck 'alpha', field 'cards': 'legs-robot-projectile': unknown Form 'robot' "
        f"(known: {FORMS})",
        id="unknown-form",
    ),
    pytest.param(
        "decks.toml",
        '"legs-beast-projectile",',
        '"legs-beast-laser",',
        f"deck 'alpha', field 'cards': 'legs-beast-laser': unknown Type 'laser' (known: {TYPES})",
        id="unknown-type",
    ),
    pytest.param(
        "decks.toml",
        '"legs-beast-projectile",',
        '"wings-beast-projectile",',
        "deck 'alpha', field 'cards': 'wings-beast-projectile': unknown Part-Type "
        "'wings' (known: legs, torso, head, arms)",
        id="unknown-part-type",
    ),
    pytest.param(
        "decks.toml",
        '"arms-mechsuit-sonic-2",',
        '"arms-mechsuit-sonic",',
        "deck 'alpha', field 'cards': 'arms-mechsuit-sonic' is not a card id "
        "(arms-FORM-TYPE-POWER)",
        id="arm-without-power",
    ),
    pytest.param(
        "decks.toml",
        ALPHA_COUNTS,
        ALPHA_COUNTS.replace("arms = 25", "wings = 0, arms = 25"),
        "deck 'alpha', field 'counts': unknown Part-Type 'wings' (known: legs, torso, head, arms)",
        id="counts-unknown-part-type",
    ),
    # -- a bad kaiju
    pytest.param(
        "kaiju.toml",
        'priority = ["torso", "legs", "head", "arms"]',
        'priority = ["torso", "legs", "wings", "arms"]',
        "kaiju 'gorgadon', field 'priority': 'wings' is not one of legs, torso, head, arms",
        id="priority-unknown-part",
    ),
    pytest.param(
        "kaiju.toml",
        'priority = ["torso", "legs", "head", "arms"]',
        'priority = ["torso", "legs", "torso", "arms"]',
        "kaiju 'gorgadon', field 'priority': must name each Part-Type once (legs, torso, "
        "head, arms), got torso, legs, torso, arms",
        id="priority-part-twice",
    ),
    pytest.param(
        "kaiju.toml",
        "hp = 20\n",
        "hp = -3\n",
        "kaiju 'gorgadon', field 'hp': -3 hit points: a kaiju needs at least 1",
        id="negative-hp",
    ),
    pytest.param(
        "kaiju.toml",
        'weak_types = ["sonic"]',
        'weak_types = ["laser"]',
        "kaiju 'gorgadon', field 'weak_types': names unknown Type 'laser'",
        id="kaiju-unknown-type",
    ),
    pytest.param(
        "kaiju.toml",
        GORGADON_END,
        GORGADON_END.replace('provenance = "assumed"\n', ""),
        "kaiju 'gorgadon', field 'provenance': missing required field (rulebook or assumed)",
        id="missing-provenance",
    ),
    pytest.param(
        "kaiju.toml",
        "hp = 20\n",
        "hp = 20\narmour = 2\n",
        "kaiju 'gorgadon', field 'armour': unknown field",
        id="unknown-field",
    ),
    # -- the others
    pytest.param(
        "traits.toml",
        'weakness_target = "sonic"',
        'weakness_target = "laser"',
        "trait 'thick_hide', field 'weakness_target': names unknown Type 'laser'",
        id="trait-target-unknown-type",
    ),
    pytest.param(
        "mechs.toml",
        'legs = "legs-mechsuit-energy"',
        'legs = "head-clockwork-energy"',
        "mech 'mechsuit_lesson', field 'legs': 'head-clockwork-energy' is a head card, not legs",
        id="mech-card-in-wrong-slot",
    ),
    pytest.param(
        "mechs.toml",
        'legs = "legs-mechsuit-energy"',
        'legs = "legs-mechsuit-laser"',
        f"mech 'mechsuit_lesson', field 'legs': 'legs-mechsuit-laser': unknown Type "
        f"'laser' (known: {TYPES})",
        id="mech-unknown-type",
    ),
    pytest.param(
        "grades.toml",
        'gpa = "1.3"',
        'gpa = "one point three"',
        "grade 'd_plus', field 'gpa': expected a decimal like 1.3, got 'one point three'",
        id="grade-not-a-decimal",
    ),
]


def _message(root: Path, file: str, rest: str) -> str:
    return f"{root / GAME / file}: {rest}"


@pytest.mark.parametrize(("file", "old", "new", "rest"), CASES)
def test_bad_catalog_is_one_clear_line(tmp_path: Path, file, old, new, rest) -> None:
    root = edit(file, old, new)(tmp_path)
    with pytest.raises(CatalogError) as caught:
        load_catalog(root)
    text = str(caught.value)
    assert "\n" not in text
    assert text == _message(root, file, rest)


def test_untouched_copy_loads(tmp_path: Path) -> None:
    """The control: the copy itself is a good catalog."""
    catalog = load_catalog(copy_catalogs(tmp_path))
    assert len(catalog.deck("alpha").cards) == 70


def test_bad_override_is_one_clear_line() -> None:
    """``--set`` edits are checked like the same edit in the file, and the error names
    the edit (the file does not hold the value)."""
    with pytest.raises(CatalogError) as caught:
        load_catalog(CATALOGS, overrides={"kaiju.gorgadon.hp": -3})
    assert str(caught.value) == (
        "--set kaiju.gorgadon.hp=-3: kaiju 'gorgadon', field 'hp': -3 hit points: "
        "a kaiju needs at least 1"
    )
    with pytest.raises(CatalogError) as caught:
        load_catalog(CATALOGS, overrides={"kaiju.gorgadon.wings": 2})
    assert (
        str(caught.value)
        == "--set: 'kaiju.gorgadon.wings': kaiju 'gorgadon' has no field 'wings' to set"
    )


# ---- through the command line ---------------------------------------------------------


def _cli():
    from analysis.cli import EXIT_USER_ERROR, main

    installed(GAME)
    return EXIT_USER_ERROR, main


def _argv(command: str, root: Path, out: Path) -> list[str]:
    if command == "claims":
        return ["claims", GAME, "--catalog", str(root)]
    return [command, GAME, "--out", str(out), "--catalog", str(root)]


@pytest.mark.parametrize("command", ("tables", "claims"))
@pytest.mark.parametrize(("file", "old", "new", "rest"), CASES)
def test_cli_bad_catalog_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, file, old, new, rest
) -> None:
    exit_user_error, main = _cli()
    root = edit(file, old, new)(tmp_path)
    out = tmp_path / "out"
    capsys.readouterr()
    rc = main(_argv(command, root, out))
    captured = capsys.readouterr()
    assert rc == exit_user_error, (rc, captured.err)
    assert captured.out == ""
    assert "Traceback" not in captured.err
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0] == "mechbal: error: " + _message(root, file, rest)
    assert not out.exists()
