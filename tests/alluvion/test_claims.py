"""Alluvion rulebook claims: every claim of ``catalogs/alluvion/claims.toml`` passes on the
shipped catalog, and every claim can fail: for each, a change that makes it FAIL
(tests/labpartners/test_claims.py is the model).

A change is one of: a designer edit (``load_catalog(overrides=...)``, the names of
``--set``: ``hit_at=2``, ``reach.none.cover=true``); a rule of ``rules.py`` replaced by a
buggy one (monkeypatched: the claim must run the rule, not a stored number); or, where
the rulebook's number is structural (no defensive system is no Defense dice whatever the
parameters say), other claim arguments. Adding a claim without a case here fails
``test_every_claim_has_a_flip``.
"""

from __future__ import annotations

import numpy as np
import pytest

from sims.alluvion import rules
from sims.alluvion.catalog import Catalog, load_catalog
from sims.alluvion.claims import CHECKS
from sims.core.claims import load_claims, run_claims
from tests.claim_flips import (
    Flip,
    assert_flip_fails,
    bug_in,
    cases,
    check_flips_cover_claims,
    check_shipped_passes,
    set_,
)
from tests.conftest import CATALOGS

CLAIMS_PATH = CATALOGS / "alluvion" / "claims.toml"
CLAIMS = {c.id: c for c in load_claims(CLAIMS_PATH, CHECKS)}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOGS)


bug = bug_in(rules)


# ---- planted rule bugs ---------------------------------------------------------------------


def attack_dice_second_only(counts, params):
    """Planted bug: only the second weapon adds a d8, later ones a d6."""
    w = sum(counts[k] for k in rules.WEAPONS)
    return tuple((params.weapon_first_die if i != 1 else params.weapon_later_die) for i in range(w))


def move_dice_ignoring_direct_fire(counts, params):
    """Planted bug: the mobile frame's die denied by Smart systems only."""
    mobile = params.mobile_die and not counts[rules.SMART]
    return (params.move_die,) * counts[rules.MOVEMENT] + ((params.mobile_die,) if mobile else ())


def loadout_problem_one_of_a_kind(counts, rockets, slots, params):
    """Planted bug: "0-2" read as fewer than 2."""
    if any(n >= params.systems_per_kind for n in counts):
        return "too many of a kind"
    return None


def is_hit_without_spot(attack, spot, defense, params):
    return attack - defense >= params.hit_at


def systems_lost_per_attack(before, now, params):
    """Planted bug: Direct Hits do not accumulate, each hit's own count is halved."""
    return (now - before) // params.hits_per_system


def grapples_on_tie(grapple_die, move_die):
    return grapple_die - move_die >= 0


def breaks_free_on_tie(grappled_die, grappler_die):
    return grappled_die >= grappler_die


def morale_due_more_than_half(lost, fielded, lead_lost):
    return (2 * lost > fielded) | lead_lost


def routs_at_rating(morale_roll, rating):
    return morale_roll >= rating


def defense_dice_always(counts, params):
    """Planted bug: every Armor has the first system's dice."""
    n = counts[rules.ECM] + counts[rules.RESISTIVE]
    both = (params.defense_die,) * (
        params.defense_first_dice + params.defense_later_dice * max(n - 1, 0)
    )
    return (), both


def can_spot_ignoring_cover(surveillance, distance, target_in_cover, reach_range, reach_cover):
    return (reach_range == 0) | (distance <= reach_range) | (distance <= 1) | np.False_


ONE_ROCKET = {"rockets_max": 1, "loadout.skirmisher.rockets": 1}

FLIPS: dict[str, list[Flip]] = {
    # Stats, The Systems
    "skill_dice": [set_("3-skill-dice", skill_dice=3), set_("d8-skill", skill_die=8)],
    "resistive_defense": [set_("later-2d6", defense_later_dice=2)],
    "first_defense_2d6": [set_("first-3d6", defense_first_dice=3), set_("d8", defense_die=8)],
    "ecm_then_resistive": [set_("later-none", defense_later_dice=0)],
    "four_defenses": [set_("later-2d6", defense_later_dice=2)],
    "no_defense": [
        Flip("args-resistive", args={"systems": ["resistive"]}),
        bug("rule-always-defends", "defense_dice", defense_dice_always),
    ],
    "first_weapon_1d6": [set_("first-d8", weapon_first_die=8)],
    "second_weapon_1d8": [set_("later-d6", weapon_later_die=6)],
    "third_weapon_1d8": [
        set_("later-d10", weapon_later_die=10),
        bug("rule-second-only", "attack_dice", attack_dice_second_only),
    ],
    "rockets_1d8_each": [set_("rocket-d6", rocket_die=6)],
    "two_rockets_legal": [set_("one-rocket", ONE_ROCKET)],
    "three_rockets_illegal": [set_("three-rockets", rockets_max=3)],
    "two_of_a_kind_legal": [
        bug("rule-fewer-than-2", "loadout_problem", loadout_problem_one_of_a_kind)
    ],
    "three_of_a_kind_illegal": [set_("three-of-a-kind", systems_per_kind=3)],
    "mobile_frame_1d8": [set_("mobile-d6", mobile_die=6), set_("no-mobile", mobile_die=0)],
    "direct_fire_no_mobile_die": [
        bug("rule-smart-only", "move_dice", move_dice_ignoring_direct_fire)
    ],
    "movement_systems": [set_("move-d8", move_die=8)],
    "surveillance_spot": [set_("spot-d8", spot_die=8)],
    "spot_reach_none": [
        set_("none-sees-cover", {"reach.none.cover": True}),
        bug("rule-ignores-cover", "can_spot", can_spot_ignoring_cover),
    ],
    "spot_reach_one": [set_("one-anywhere", {"reach.one.range": 0})],
    "spot_reach_two": [set_("two-20-hexes", {"reach.two.range": 20})],
    # General Combat Info, Actions
    "direct_fire_range": [set_("range-21", direct_fire_range=21)],
    "sixty_meters_twenty_hexes": [set_("2m-hexes", hex_meters=2)],
    "opportunity_1d8": [
        set_("opportunity-d6", opportunity_die=6),
        set_("range-21", direct_fire_range=21),
    ],
    "two_actions": [set_("3-actions", actions=3)],
    # Knowing When Attacks Hit
    "hit_at_one": [set_("hit-at-0", hit_at=0), set_("hit-at-2", hit_at=2)],
    "spot_adds": [bug("rule-no-spot", "is_hit", is_hit_without_spot)],
    "d6_against_d6": [set_("hit-at-0", hit_at=0)],
    "two_d6_against_two_d6": [set_("hit-at-2", hit_at=2)],
    "d6_against_nothing": [set_("hit-at-2", hit_at=2)],
    "d8_against_d6": [set_("hit-at-0", hit_at=0)],
    # Damage
    "margin_dice": [set_("hit-at-2", hit_at=2)],
    "spot_in_margin": [set_("spot-not-in-margin", spot_adds_to_margin="off")],
    "direct_hit_chances": [
        set_("exposed-4", exposed_direct_from=4),
        set_("cover-5", cover_direct_from=5),
        set_("damage-d8", damage_die=8),
    ],
    "exposed_two_dice": [set_("exposed-6", exposed_direct_from=6)],
    "cover_three_dice": [set_("cover-5", cover_direct_from=5)],
    "system_per_two_direct_hits": [set_("three-per-system", hits_per_system=3)],
    "direct_hits_accumulate": [bug("rule-no-carry", "systems_lost", systems_lost_per_attack)],
    "pilot_hit_on_six": [set_("loss-d8", loss_die=8)],
    # Grappling
    "grapple_at_one": [bug("rule-ties-grapple", "grapples", grapples_on_tie)],
    "break_free_beats": [bug("rule-ties-break-free", "breaks_free", breaks_free_on_tie)],
    # Foot Soldiers, Morale, Batteries, Repairs
    "squad_six_1d6": [set_("squad-5", squad_size=5), set_("squad-d8", squad_die=8)],
    "morale_check_due": [bug("rule-more-than-half", "morale_check_due", morale_due_more_than_half)],
    "rout_at_seven": [
        set_("3d6-morale", morale_dice=3),
        bug("rule-rout-at-rating", "routs", routs_at_rating),
    ],
    "rout_at_ten": [bug("rule-rout-at-rating", "routs", routs_at_rating)],
    "rout_at_three": [set_("1d6-morale", morale_dice=1)],
    "shutdown_one_turn": [set_("shutdown-1-2", shutdown_faces=2), set_("d8", battery_die=8)],
    "shutdown_three_turns": [set_("shutdown-1-2", shutdown_faces=2)],
    "repairs": [set_("full-1d3", {"repair.full.replaces": "1d3"})],
}

CASES = cases(FLIPS)


def test_shipped_catalog_passes_every_claim(catalog) -> None:
    check_shipped_passes(CLAIMS_PATH, CHECKS, catalog, CLAIMS, at_least=45)


def test_every_claim_has_a_flip() -> None:
    check_flips_cover_claims(FLIPS, CLAIMS)


@pytest.mark.parametrize(("claim_id", "flip"), CASES)
def test_flip_fails_the_claim(claim_id: str, flip: Flip, catalog, monkeypatch, tmp_path) -> None:
    assert_flip_fails(
        CLAIMS[claim_id], flip, CHECKS, catalog, load_catalog, "alluvion", monkeypatch, tmp_path
    )


def test_unknown_system_is_named(catalog, tmp_path) -> None:
    """A claim naming a system the catalog lacks is a one-line CatalogError."""
    from sims.core.catalog import CatalogError

    bad = tmp_path / "claims.toml"
    bad.write_text(
        '[[claim]]\nid = "x"\nsection = "The Systems"\nrulebook = "r"\n'
        'definition = "d"\ncheck = "defense_pool"\n'
        'args = { systems = ["laser"] }\nexpected = "0"\n'
        'provenance = "rulebook"\n',
        encoding="utf-8",
    )
    with pytest.raises(CatalogError, match="names unknown id 'laser'"):
        run_claims(bad, CHECKS, catalog)
