"""The shipped Lab Partners catalog against the rulebook: the generated full spread, the
alpha deck's card list, provenance on every entry, the kaiju Speeds. Every number below
is read from the rulebook (Appendix: The Full Spread; Battle/initiative) by hand."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from sims.labpartners.catalog import FILES, Catalog, load_catalog
from tests.conftest import CATALOGS

FORMS = ("beast", "mechsuit", "vehicle", "clockwork", "ghost_crystal")  # Cards: Form table
TYPES = ("projectile", "energy", "melee", "magic", "sonic")  # Cards: Combat Type table


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOGS)


# ---- the full spread (Appendix) ----------------------------------------------------------


def test_full_spread_is_150_cards_25_25_25_75(catalog) -> None:
    # every Form x Type: 5 x 5 = 25 per body Part-Type; x Power 1..3 for Arms: 75
    full = catalog.deck("full")
    assert len(full.cards) == 150
    assert Counter(c.part for c in full.cards) == {"legs": 25, "torso": 25, "head": 25, "arms": 75}
    assert len(catalog.cards) == 150
    assert {c.id for c in full.cards} == set(catalog.cards)


def test_full_spread_holds_every_combination_once(catalog) -> None:
    full = catalog.deck("full").cards
    assert tuple(catalog.forms) == FORMS and tuple(catalog.types) == TYPES
    body = Counter((c.part, c.form, c.type) for c in full if c.part != "arms")
    arms = Counter((c.form, c.type, c.power) for c in full if c.part == "arms")
    assert set(body.values()) == {1} and len(body) == 3 * 5 * 5
    assert set(arms.values()) == {1} and len(arms) == 5 * 5 * 3
    # 30 cards of each Form and of each Type (3 body x 5 + 5 x 3 Powers), 25 of each Power
    assert Counter(c.form for c in full) == dict.fromkeys(FORMS, 30)
    assert Counter(c.type for c in full) == dict.fromkeys(TYPES, 30)
    assert Counter(c.power for c in full if c.part == "arms") == {1: 25, 2: 25, 3: 25}
    assert all(c.power == 0 for c in full if c.part != "arms")


@pytest.mark.parametrize(
    ("ident", "part", "form", "type_", "power"),
    [
        ("arms-beast-sonic-2", "arms", "beast", "sonic", 2),
        ("arms-ghost_crystal-magic-3", "arms", "ghost_crystal", "magic", 3),
        ("legs-beast-projectile", "legs", "beast", "projectile", 0),
        ("torso-vehicle-energy", "torso", "vehicle", "energy", 0),
        ("head-clockwork-melee", "head", "clockwork", "melee", 0),
    ],
)
def test_card_ids_say_what_the_card_is(catalog, ident, part, form, type_, power) -> None:
    card = catalog.cards[ident]
    assert (card.id, card.part, card.form, card.type, card.power) == (
        ident,
        part,
        form,
        type_,
        power,
    )


def test_no_card_outside_the_spread(catalog) -> None:
    for missing in (
        "arms-beast-sonic-4",
        "arms-beast-sonic-0",
        "legs-beast-sonic-1",
        "arms-beast-sonic",
    ):
        assert missing not in catalog.cards


# ---- the alpha deck ----------------------------------------------------------------------


def test_alpha_is_15_15_15_25_no_card_twice_all_in_full_spread(catalog) -> None:
    alpha = catalog.deck("alpha")
    ids = [c.id for c in alpha.cards]
    assert len(ids) == 70
    assert Counter(c.part for c in alpha.cards) == {"legs": 15, "torso": 15, "head": 15, "arms": 25}
    assert len(set(ids)) == 70
    assert set(ids) <= set(catalog.cards)
    assert all(catalog.cards[c.id] == c for c in alpha.cards)
    assert len(alpha.body) == 45


def test_alpha_deck_file_lists_what_the_catalog_holds(catalog) -> None:
    """The alpha deck is the file's list, in its order (nothing added or dropped)."""
    with (CATALOGS / "labpartners" / "decks.toml").open("rb") as fh:
        raw = next(d for d in tomllib.load(fh)["deck"] if d["id"] == "alpha")
    assert [c.id for c in catalog.deck("alpha").cards] == raw["cards"]
    assert raw["counts"] == {"legs": 15, "torso": 15, "head": 15, "arms": 25}


def test_alpha_spread_is_uneven(catalog) -> None:
    # Cards "Low Power is common, high Power is rare" (DESIGN.md: the alpha deck)
    powers = Counter(c.power for c in catalog.deck("alpha").of("arms"))
    assert powers[1] > powers[2] > powers[3] > 0
    assert sum(powers.values()) == 25
    # "a type you can't find": the alpha is not every Form and Type evenly
    forms = Counter(c.form for c in catalog.deck("alpha").cards)
    types = Counter(c.type for c in catalog.deck("alpha").cards)
    assert len(set(forms.values())) > 1 and len(set(types.values())) > 1


# ---- provenance on every entry --------------------------------------------------------------


def test_every_file_entry_states_its_provenance() -> None:
    folder = CATALOGS / "labpartners"
    seen = 0
    for name in FILES:
        with (folder / name).open("rb") as fh:
            doc = tomllib.load(fh)
        for kind, value in doc.items():
            tables = value if isinstance(value, list) else [value]
            for entry in tables:
                assert entry.get("provenance") in ("rulebook", "assumed"), (name, kind, entry)
                seen += 1
    assert seen > 50


def test_every_loaded_entry_has_provenance(catalog) -> None:
    groups = [
        catalog.forms,
        catalog.types,
        catalog.decks,
        catalog.kaiju,
        catalog.traits,
        catalog.studies,
        catalog.credits,
        catalog.specialties,
        catalog.policies,
        catalog.mechs,
    ]
    entries = [e for g in groups for e in g.values()] + list(catalog.grades)
    assert all(e.provenance in ("rulebook", "assumed") for e in entries)
    assert set(catalog.param_provenance.values()) <= {"rulebook", "assumed"}
    # the generated full spread is the rulebook's (Appendix); the alpha list is assumed,
    # its counts stated
    assert catalog.deck("full").provenance == "rulebook"
    assert catalog.deck("alpha").provenance == "assumed"


# ---- the kaiju (Battle/initiative, Battle/targeting) -----------------------------------------


def test_kaiju_speeds_as_the_rulebook(catalog) -> None:
    # "Alpha kaiju Speeds: Gorgadon 2, Cinderwyrm 4, Lumenyx 3, Thornmaw 2, Trivex 4"
    speeds = {k: v.speed for k, v in catalog.kaiju.items()}
    assert speeds == {"gorgadon": 2, "cinderwyrm": 4, "lumenyx": 3, "thornmaw": 2, "trivex": 4}
    assert all(
        "speed" in v.rulebook_fields and "name" in v.rulebook_fields for v in catalog.kaiju.values()
    )
    names = {k: v.name for k, v in catalog.kaiju.items()}
    assert names == {
        "gorgadon": "Gorgadon",
        "cinderwyrm": "Cinderwyrm",
        "lumenyx": "Lumenyx",
        "thornmaw": "Thornmaw",
        "trivex": "Trivex",
    }


def test_only_thornmaw_leads_with_the_arms(catalog) -> None:
    # "No kaiju leads with the Arms except Thornmaw (the disarmer)"
    leaders = {k for k, v in catalog.kaiju.items() if v.priority[0] == "arms"}
    assert leaders == {"thornmaw"}
    assert "priority" in catalog.kaiju["thornmaw"].rulebook_fields
