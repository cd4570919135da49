"""ALPHASIDE rulebook claims: every claim of ``catalogs/alphaside/claims.toml`` passes on
the shipped catalog, and every claim can fail: for each, a change that makes it FAIL
(tests/alluvion/test_claims.py is the model).

A change is one of: a designer edit (``load_catalog(overrides=...)``, the names of
``--set``: ``hit_on=5``, ``collision_damage=3``); a rule of ``rules.py`` replaced by a
buggy one (monkeypatched: the claim must run the rule, not a stored number; the memoized
distributions are cleared around it); or other claim arguments. Adding a claim without
a case here fails ``test_every_claim_has_a_flip``.
"""

from __future__ import annotations

import numpy as np
import pytest

from sims.alphaside import exact, rules
from sims.alphaside.catalog import Catalog, load_catalog
from sims.alphaside.claims import CHECKS
from sims.core.claims import load_claims
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

CLAIMS_PATH = CATALOGS / "alphaside" / "claims.toml"
CLAIMS = {c.id: c for c in load_claims(CLAIMS_PATH, CHECKS)}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOGS)


bug = bug_in(rules)


# ---- planted rule bugs ---------------------------------------------------------------------


def is_hit_crits_can_miss(face, accuracy, crit_from, params):
    """Planted bug: a crit needs to reach 4 like any face."""
    return (face != params.miss_face) & (face + accuracy >= params.hit_on)


def is_hit_without_accuracy(face, accuracy, crit_from, params):
    return (face != params.miss_face) & ((face >= params.hit_on) | (face >= crit_from))


def combat_damage_shields_two_each(hits, shields, plus=0, fractured=False, params=None):
    base = np.maximum(hits - 2 * shields, 0) + np.where(hits >= 1, plus, 0)
    if params is None:
        return base
    return base + np.where(fractured & (base >= params.fracture_at), params.fracture_damage, 0)


def combat_damage_without_plus(hits, shields, plus=0, fractured=False, params=None):
    return combat_damage_shields_two_each(hits, shields / 2, 0, fractured, params)


def combat_damage_plus_before_shields(hits, shields, plus=0, fractured=False, params=None):
    """Planted bug: Damage+X added before Shields (so Shields block it)."""
    base = np.maximum(hits + np.where(hits >= 1, plus, 0) - shields, 0)
    if params is None:
        return base
    return base + np.where(fractured & (base >= params.fracture_at), params.fracture_damage, 0)


def combat_damage_fracture_before_shields(hits, shields, plus=0, fractured=False, params=None):
    """Planted bug: Fracture's 3+ counted on the hits, before Shields."""
    base = np.maximum(hits - shields, 0) + np.where(hits >= 1, plus, 0)
    if params is None:
        return base
    return base + np.where(fractured & (hits >= params.fracture_at), params.fracture_damage, 0)


def disarmed_without_reroll(accuracy, crit_from, params):
    return rules.die_chances(accuracy, crit_from, params)[0]


def deck_size_from_one_phase(params):
    """Planted bug: +3 per Phase beyond the first."""
    return params.tactics_deck + params.tactics_per_phase * (params.phases - 1)


def advance_ignoring_slow(speed, slowed, engaged, params):
    return np.maximum(params.advance_base + speed - np.where(engaged, params.engaged_penalty, 0), 0)


def phase_of_zero_based_spaces(t, params):
    """Planted bug: spaces 0..9, so time 10 opens Phase 2."""
    return t // params.spaces


FLIPS: dict[str, list[Flip]] = {
    # Dice, Accuracy & Crits
    "die_at_accuracy_0": [set_("hit-on-5", hit_on=5), set_("crit-from-8", crit_from=8)],
    "hit_faces_at_accuracy_0": [set_("hit-on-3", hit_on=3)],
    "die_at_accuracy_minus_3": [
        set_("hit-on-5", hit_on=5),
        bug("rule-no-accuracy", "is_hit", is_hit_without_accuracy),
    ],
    "die_at_accuracy_plus_3": [set_("no-miss-face", miss_face=0)],
    "one_always_misses": [set_("no-miss-face", miss_face=0)],
    "crits_9_10": [set_("crit-from-10", crit_from=10)],
    "crits_7_10": [set_("d12", die=12)],
    "crits_always_hit": [bug("rule-crits-can-miss", "is_hit", is_hit_crits_can_miss)],
    "two_dice_both_hit": [set_("hit-on-5", hit_on=5), Flip("args-1-hit", args={"hits": 1})],
    # Damage, Shields & defeat
    "shields_block_one_each": [
        bug("rule-shields-block-2", "combat_damage", combat_damage_shields_two_each)
    ],
    "defeat_through_a_shield": [
        set_("hit-on-5", hit_on=5),
        bug("rule-shields-block-2", "combat_damage", combat_damage_shields_two_each),
    ],
    "damage_plus_after_shields": [
        bug("rule-plus-before-shields", "combat_damage", combat_damage_plus_before_shields)
    ],
    "damage_plus_one_die": [
        set_("crit-from-8", crit_from=8),
        bug("rule-ignores-plus", "combat_damage", combat_damage_without_plus),
    ],
    "defeat_moves_token_2": [set_("delay-3", defeat_delay=3)],
    # Push & Pull
    "collision_two_damage": [set_("collision-3", collision_damage=3)],
    # Status effects
    "fracture_three_more": [
        set_("fracture-2-more", fracture_damage=2),
        set_("fracture-at-4", fracture_at=4),
    ],
    "fracture_after_shields": [
        bug("rule-fracture-before-shields", "combat_damage", combat_damage_fracture_before_shields)
    ],
    "disarm_rerolls_hits": [bug("rule-no-reroll", "disarmed_hit_chance", disarmed_without_reroll)],
    "disarm_one_die_damage": [
        set_("hit-on-5", hit_on=5),
        bug("rule-no-reroll", "disarmed_hit_chance", disarmed_without_reroll),
    ],
    "slow_advance_zero": [bug("rule-ignores-slow", "advance_hexes", advance_ignoring_slow)],
    # Movement
    "advance_three_plus_speed": [set_("advance-4", advance_base=4)],
    "engaged_minus_one": [set_("engaged-2", engaged_penalty=2)],
    # The Timeline; Squad & Tactics deck
    "two_phases_of_ten": [
        set_("spaces-12", spaces=12),
        bug("rule-zero-based", "phase_of", phase_of_zero_based_spaces),
    ],
    "deck_nine_for_two_phases": [bug("rule-from-one", "deck_size", deck_size_from_one_phase)],
    "deck_twelve_for_three_phases": [set_("per-phase-4", tactics_per_phase=4)],
    "deck_fifteen_for_four_phases": [set_("per-phase-4", tactics_per_phase=4)],
    "draw_three": [set_("draw-4", tactics_draw=4)],
}

CASES = cases(FLIPS)


@pytest.fixture
def fresh_memos():
    """The exact distributions are memoized per parameters: a replaced rule must not read
    (or leave behind) the shipped rule's results."""
    exact.clear_caches()
    yield
    exact.clear_caches()


def test_shipped_catalog_passes_every_claim(catalog) -> None:
    check_shipped_passes(CLAIMS_PATH, CHECKS, catalog, CLAIMS, at_least=25)


def test_every_claim_has_a_flip() -> None:
    check_flips_cover_claims(FLIPS, CLAIMS)


@pytest.mark.parametrize(("claim_id", "flip"), CASES)
def test_flip_fails_the_claim(
    claim_id: str, flip: Flip, catalog, monkeypatch, tmp_path, fresh_memos
) -> None:
    assert_flip_fails(
        CLAIMS[claim_id],
        flip,
        CHECKS,
        catalog,
        load_catalog,
        "alphaside",
        monkeypatch,
        tmp_path,
        forget=exact.clear_caches,
    )
