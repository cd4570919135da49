"""Lab Partners rulebook claims: every claim of ``catalogs/labpartners/claims.toml``
passes on the shipped catalog, and every claim can fail: for each, a change that makes
it FAIL (tests/skirmish/test_claims_fail.py is the model).

A change is one of: a designer edit (``load_catalog(overrides=...)``, the names of
``--set``: ``torso_armor=3``, ``kaiju.lumenyx.speed=4``); an edited copy of the catalog
folder (text added to a file, for what ``--set`` cannot do: a sixth Form); a catalog the
loader would refuse, built in memory (the alpha deck holding a card twice: the loader's
refusal is tested in test_catalog_errors.py, here the claim's own check must see it); a
rule of ``rules.py`` or a step of the reference engine replaced by a buggy one
(monkeypatched: the claim must run the rule, not a stored number); or, where the
rulebook's number is structural (no Legs is Speed 0 whatever the catalog says), other
claim arguments. Adding a claim without a case here fails
``test_every_claim_has_a_flip``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from sims.core.claims import load_claims
from sims.labpartners import reference, rules
from sims.labpartners.catalog import Card, Catalog, Deck, load_catalog
from sims.labpartners.claims import CHECKS
from tests.claim_flips import (
    Flip,
    assert_flip_fails,
    cases,
    check_flips_cover_claims,
    check_shipped_passes,
    set_,
)
from tests.conftest import CATALOGS

CLAIMS_PATH = CATALOGS / "labpartners" / "claims.toml"
CLAIMS = {c.id: c for c in load_claims(CLAIMS_PATH, CHECKS)}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOGS)


# ---- the alpha deck's card list, edited ------------------------------------------------


def _alpha_ids() -> list[str]:
    import tomllib

    with (CATALOGS / "labpartners" / "decks.toml").open("rb") as fh:
        return list(tomllib.load(fh)["deck"][0]["cards"])


ALPHA = _alpha_ids()
COUNTS = {"legs": 15, "torso": 15, "head": 15, "arms": 25}


def drop_one(part: str) -> dict[str, Any]:
    """The alpha deck without its first card of ``part``, its counts to match."""
    cards = list(ALPHA)
    cards.remove(next(c for c in cards if c.startswith(part + "-")))
    return {"deck.alpha.cards": cards, "deck.alpha.counts": {**COUNTS, part: COUNTS[part] - 1}}


def power_3_common() -> dict[str, Any]:
    """The alpha deck with 8 of its Power 1 Arms swapped for Power 3 Arms it lacks:
    4 of Power 1, 9 of Power 2, 12 of Power 3 (the counts stay 25)."""
    cards = list(ALPHA)
    spare = [
        f"arms-{f}-{t}-3"
        for f in ("ghost_crystal", "clockwork")
        for t in ("projectile", "energy", "melee", "magic")
    ]
    assert not set(spare) & set(cards)
    ones = [c for c in cards if c.startswith("arms-") and c.endswith("-1")][:8]
    for old, new in zip(ones, spare, strict=True):
        cards[cards.index(old)] = new
    return {"deck.alpha.cards": cards}


def two_tiers() -> dict[str, Any]:
    """Power tiers 1..2 (``power_tiers=2``), the alpha deck's 4 Power 3 Arms swapped for
    Power 2 Arms it lacks and the heavy_hitter mech's Power 3 Arms for Power 2, so the
    catalog still loads."""
    cards = list(ALPHA)
    spare = [f"arms-ghost_crystal-{t}-2" for t in ("projectile", "melee", "magic", "sonic")]
    assert not set(spare) & set(cards)
    threes = [c for c in cards if c.startswith("arms-") and c.endswith("-3")]
    for old, new in zip(threes, spare, strict=True):
        cards[cards.index(old)] = new
    return {
        "power_tiers": 2,
        "deck.alpha.cards": cards,
        "mech.heavy_hitter.arm_1": "arms-mechsuit-sonic-2",
        "mech.heavy_hitter.arm_2": "arms-clockwork-magic-2",
    }


def alpha_with(extra: Card) -> Callable[[Catalog], Catalog]:
    """The catalog with ``extra`` added to the alpha deck (the loader refuses that)."""

    def edit(cat: Catalog) -> Catalog:
        alpha = cat.decks["alpha"]
        deck = Deck("alpha", (*alpha.cards, extra), alpha.provenance)
        return dataclasses.replace(cat, decks={**cat.decks, "alpha": deck})

    return edit


SIXTH_FORM = '\n[[form]]\nid = "plasma"\nname = "Plasma"\nskill = "Heat"\nprovenance = "assumed"\n'

# ---- planted rule and engine bugs --------------------------------------------------------


def strict_initiative(speed, kaiju_speed, forced):
    """Planted bug: the kaiju wins ties."""
    return (speed > kaiju_speed) | forced


def mech_always_first(speed, kaiju_speed, forced):
    return True


def type_then_form(power, lesson, has_head, form, type_, p):
    """Planted bug: the Type step before the Form step."""
    base = max(power + lesson - (1 - has_head) * p.no_head_damage, 0)
    if type_ > 0:
        base *= p.type_factor
    elif type_ < 0 and base > 0:
        base = max(base // p.type_factor, p.resisted_min)
    return max(base + form * p.form_step, 0)


def always_combo(power_1, power_2, damage_1, damage_2, p):
    return p.combo_bonus


def same_target(battle, s, hit):
    """Planted bug: every attack on the first intact part, hit or not."""
    order = [int(x) for x in battle.priority if s.intact(int(x))]
    return order[0] if order else -1


def below_inclusive(won, hp_left, hp_start, grades):
    """Planted bug: "under 25%" read as at most 25%."""
    left = max(hp_left, 0) * 100
    for i, g in enumerate(grades):
        if g.result == "win" and won:
            return i
        if g.result == "loss" and not won:
            bound = g.hp_left_below if g.hp_left_below >= 0 else g.hp_left_at_most
            if left <= bound * hp_start:
                return i
    return -1


ADD_LEGS = {"legs": "legs-beast-melee"}
ADD_HEAD = {"head": "head-clockwork-melee"}


def with_slot(claim_id: str, slot: dict[str, str]) -> dict[str, Any]:
    return {"mech": {**CLAIMS[claim_id].args["mech"], **slot}}


def without_slot(claim_id: str, slot: str) -> dict[str, Any]:
    return {"mech": {k: v for k, v in CLAIMS[claim_id].args["mech"].items() if k != slot}}


FLIPS: dict[str, list[Flip]] = {
    # Appendix
    "full_spread_counts": [
        set_("power-tiers-2", two_tiers()),
        Flip("sixth-form", files={"forms.toml": SIXTH_FORM}),
    ],
    "full_spread_total": [
        set_("power-tiers-4", power_tiers=4),
        Flip("sixth-form", files={"forms.toml": SIXTH_FORM}),
    ],
    "full_spread_every_combination": [
        set_("power-tiers-2-no-power-3", two_tiers()),
        Flip("args-power-4", args={"powers": [1, 2, 3, 4]}),
        set_("power-tiers-4-outside", power_tiers=4),
    ],
    "alpha_counts": [set_("alpha-14-legs", drop_one("legs"))],
    "alpha_total": [set_("alpha-24-arms", drop_one("arms"))],
    "alpha_in_full_spread": [
        Flip(
            "card-twice",
            edit=alpha_with(Card("legs-beast-projectile", "legs", "beast", "projectile")),
        ),
        Flip(
            "power-4-arm", edit=alpha_with(Card("arms-beast-sonic-4", "arms", "beast", "sonic", 4))
        ),
    ],
    "alpha_low_power_common": [set_("power-3-common", power_3_common())],
    # Battle/crits
    "crit_chance_base": [set_("accuracy-2", base_accuracy=2), set_("d10", crit_die=10)],
    "crit_chance_clockwork_head": [set_("clockwork-0", clockwork_accuracy=0)],
    "crit_chance_lesson_head": [
        set_("lesson-bonus-0", lesson_bonus=0),
        set_("lesson-at-4", lesson_threshold=4),
    ],
    "crit_chance_lesson_clockwork_head": [
        set_("lesson-at-4", lesson_threshold=4),
        set_("clockwork-2", clockwork_accuracy=2),
    ],
    "crit_chance_no_head": [Flip("args-head", args=with_slot("crit_chance_no_head", ADD_HEAD))],
    "crit_chance_crit_immune": [set_("lumenyx-not-immune", {"kaiju.lumenyx.crit_immune": False})],
    "crit_doubles": [set_("crit-x3", crit_factor=3)],
    # Battle/wimpy punch
    "punch_with_head": [set_("punch-2", punch_damage=2)],
    "punch_no_head": [set_("miss-2-of-3", punch_miss_faces=2), set_("d2", punch_die=2)],
    # Battle/initiative
    "mech_speed_base": [set_("base-speed-3", base_speed=3)],
    "mech_speed_beast_legs": [set_("beast-speed-2", beast_speed=2)],
    "mech_speed_lesson_legs": [
        set_("lesson-bonus-2", lesson_bonus=2),
        set_("lesson-at-4", lesson_threshold=4),
    ],
    "mech_speed_beast_lesson_legs": [set_("beast-speed-0", beast_speed=0)],
    "mech_speed_no_legs": [Flip("args-legs", args=with_slot("mech_speed_no_legs", ADD_LEGS))],
    "kaiju_speeds": [
        set_("lumenyx-4", {"kaiju.lumenyx.speed": 4}),
        set_("thornmaw-3", {"kaiju.thornmaw.speed": 3}),
    ],
    "mech_wins_ties": [
        Flip("rule-kaiju-wins-ties", patch=(rules, "mech_acts_first", strict_initiative)),
        set_("base-speed-1", base_speed=1),
    ],
    "mech_wins_ties_at_4": [
        Flip("rule-kaiju-wins-ties", patch=(rules, "mech_acts_first", strict_initiative)),
        set_("trivex-5", {"kaiju.trivex.speed": 5}),
    ],
    "faster_kaiju_first": [
        Flip("rule-mech-always-first", patch=(rules, "mech_acts_first", mech_always_first)),
        set_("lumenyx-2", {"kaiju.lumenyx.speed": 2}),
    ],
    "no_legs_kaiju_first": [
        set_("gorgadon-0", {"kaiju.gorgadon.speed": 0}),
        Flip("args-legs", args=with_slot("no_legs_kaiju_first", ADD_LEGS)),
    ],
    # Battle/Torso
    "torso_armor": [set_("armor-1", torso_armor=1), set_("armor-3", torso_armor=3)],
    "no_torso_double": [set_("no-torso-x1", no_torso_factor=1)],
    # Assembly/lesson
    "lesson_threshold": [
        set_("lesson-at-2", lesson_threshold=2),
        set_("lesson-at-4", lesson_threshold=4),
    ],
    "lesson_bonus_five": [
        set_("lesson-bonus-2", lesson_bonus=2),
        set_("lesson-bonus-0", lesson_bonus=0),
    ],
    "lesson_bonus_three": [set_("lesson-at-4", lesson_threshold=4)],
    "lesson_no_bonus_two": [set_("lesson-at-2", lesson_threshold=2)],
    # Battle/damage
    "arm_damage_power": [
        set_("gorgadon-resists-beast", {"kaiju.gorgadon.resist_forms": ["beast"]})
    ],
    "arm_damage_no_head": [set_("no-head-2", no_head_damage=2)],
    "arm_damage_form": [set_("form-step-2", form_step=2)],
    "arm_damage_type": [set_("type-x3", type_factor=3)],
    "resisted_type_min_1": [set_("resisted-min-0", resisted_min=0)],
    "arm_damage_form_then_type": [
        Flip("rule-type-then-form", patch=(rules, "arm_damage", type_then_form))
    ],
    "combo_same_tier": [set_("combo-2", combo_bonus=2), set_("combo-0", combo_bonus=0)],
    "combo_different_tiers": [Flip("rule-always-combo", patch=(rules, "combo", always_combo))],
    "combo_needs_both_arms": [
        Flip("rule-always-combo", patch=(rules, "combo", always_combo)),
        Flip(
            "args-second-arm",
            args=with_slot("combo_needs_both_arms", {"arm_2": "arms-beast-energy-2"}),
        ),
    ],
    # Battle/targeting
    "only_thornmaw_leads_with_arms": [
        set_("gorgadon-disarms", {"kaiju.gorgadon.priority": ["arms", "torso", "legs", "head"]}),
        set_(
            "thornmaw-torso-first", {"kaiju.thornmaw.priority": ["torso", "arms", "head", "legs"]}
        ),
    ],
    "two_attacks_two_parts": [
        set_("cinderwyrm-1-attack", {"kaiju.cinderwyrm.attacks": 1}),
        Flip("engine-same-target", patch=(reference, "target", same_target)),
        Flip("args-no-torso", args=without_slot("two_attacks_two_parts", "torso")),
    ],
    "two_attacks_two_parts_trivex": [
        set_("trivex-1-attack", {"kaiju.trivex.attacks": 1}),
        Flip("engine-same-target", patch=(reference, "target", same_target)),
    ],
    # Grading
    "gpa_win": [set_("c-2.3", {"grade.c.gpa": "2.3"})],
    "gpa_loss_under_25": [
        set_("d-plus-below-20", {"grade.d_plus.hp_left_below": 20}),
        set_("d-plus-1.0", {"grade.d_plus.gpa": "1.0"}),
    ],
    "gpa_loss_25_50": [set_("d-1.1", {"grade.d.gpa": "1.1"})],
    "gpa_loss_50_75": [set_("d-minus-to-50", {"grade.d_minus.hp_left_at_most": 50})],
    "gpa_loss_over_75": [set_("f-0.3", {"grade.f.gpa": "0.3"})],
    "gpa_boundaries": [
        set_("d-plus-below-26", {"grade.d_plus.hp_left_below": 26}),
        set_("d-to-49", {"grade.d.hp_left_at_most": 49}),
        set_("d-minus-to-74", {"grade.d_minus.hp_left_at_most": 74}),
        Flip("rule-under-inclusive", patch=(rules, "grade_index", below_inclusive)),
    ],
}

CASES = cases(FLIPS)


def test_shipped_catalog_passes_every_claim(catalog) -> None:
    check_shipped_passes(CLAIMS_PATH, CHECKS, catalog, CLAIMS, at_least=50)


def test_every_claim_has_a_flip() -> None:
    check_flips_cover_claims(FLIPS, CLAIMS)


@pytest.mark.parametrize(("claim_id", "flip"), CASES)
def test_flip_fails_the_claim(claim_id: str, flip: Flip, catalog, monkeypatch, tmp_path) -> None:
    assert_flip_fails(
        CLAIMS[claim_id], flip, CHECKS, catalog, load_catalog, "labpartners", monkeypatch, tmp_path
    )


def test_loader_refuses_what_the_edit_flips_build(tmp_path) -> None:
    """The in-memory flips of alpha_in_full_spread are catalogs the loader refuses: the
    same edits made in decks.toml are one-line errors (more in test_catalog_errors)."""
    from sims.core.catalog import CatalogError

    for bad in ("legs-beast-projectile", "arms-beast-sonic-4"):
        with pytest.raises(
            CatalogError, match=r"--set deck.alpha.cards=\[.*\]: deck 'alpha', field 'cards'"
        ):
            load_catalog(CATALOGS, overrides={"deck.alpha.cards": [*ALPHA, bad]})
