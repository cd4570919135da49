"""Every Skirmish claim can fail (issue 11): for each claim in ``claims.toml`` a change
that makes it FAIL, so no claim passes whatever the catalog or the rules say.

A change is one of: a designer edit of the catalog (``load_catalog(overrides=...)``,
the same names as ``--set``: ``crit_margin=3``, ``part.cannon.pen=5``,
``kit.reaver.left_arm=rifle``); a rule function or constant of ``rules.py`` replaced by
a buggy one (monkeypatched: the claim must see the rule, not a stored number), or of
``policy.py`` or ``catalog.py`` when the number lives there (``policy.FULL``, the
loader's bounds on pilot stats); or, where the rulebook's number is not in the catalog
(the F3 modifier dice are d6 in the rules), other claim arguments. Adding a claim
without a case here fails ``test_every_claim_has_a_flip``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from sims.core import catalog as core_catalog
from sims.core.claims import evaluate, load_claims
from sims.core.dist import Dist
from sims.core.protocol import get_game
from sims.skirmish import catalog as skirmish_catalog
from sims.skirmish import policy, rules
from sims.skirmish.catalog import load_catalog
from tests import catalog_copies
from tests.conftest import CATALOGS

GAME = get_game("skirmish")
CLAIMS = {c.id: c for c in load_claims(GAME.claims_path(CATALOGS), GAME.checks)}


@dataclass(frozen=True)
class Flip:
    """One change expected to fail a claim; exactly one of the four kinds is given."""

    label: str
    sets: dict[str, Any] = field(default_factory=dict)  # catalog overrides (--set)
    args: dict[str, Any] = field(default_factory=dict)  # claim args replaced
    patch: tuple[str, Any] | None = None  # rules.<name> (or MODULE.<name>) replaced
    edit: tuple[str, str, str] | None = None  # (file, old, new) in a copy of the catalogs


PATCHABLE = {"rules": rules, "policy": policy, "catalog": skirmish_catalog}


def patch_target(name: str) -> tuple[Any, str]:
    """``NAME`` is ``rules.NAME``; ``policy.NAME`` and ``catalog.NAME`` name those modules."""
    module, _, attr = name.rpartition(".")
    return PATCHABLE[module or "rules"], attr


def set_(label: str, fields: dict[str, Any] | None = None, **params: Any) -> Flip:
    """Catalog overrides: rules parameters as keywords, ``KIND.ID.FIELD`` in ``fields``."""
    return Flip(label, sets={**(fields or {}), **params})


def refuse_nothing(*_: Any) -> list[str]:
    return []


def refuse_everything(*_: Any) -> list[str]:
    return ["refused (planted bug)"]


def one_die(net: int) -> Dist:
    """Planted F3 bug: one d6 whatever the number of dice."""
    return Dist.constant(0) if net == 0 else Dist.die(6) if net > 0 else -Dist.die(6)


def never_subtract(net: int) -> Dist:
    """Planted F3 bug: [-] dice added like [+]."""
    return Dist.constant(0) if net == 0 else Dist.die(6).highest(abs(net))


def crit_beyond_margin(total: int, armor: int, margin: int) -> str:
    """Planted F5 bug: a crit needs more than Armor + margin."""
    return "glance" if total < armor else "crit" if total > armor + margin else "full"


def overload_floor(over: Any, step: int) -> Any:
    """Planted B4 bug: only whole steps of 5 cost (not "or part thereof")."""
    return max(0, over // step)


def locks_on_above(roll: Any, systems: Any, e_def: Any, *, bonus: Any = 0) -> Any:
    """Planted E bug: Lock On needs more than the target's E-Def."""
    return roll + systems + bonus > e_def


def armor_never_braced(
    armor: Any, params: Any, *, braced: Any = False, bonus: Any = 0, lost: Any = 0
) -> Any:
    """Planted E bug: Brace adds nothing."""
    return armor + bonus - lost


def long_range_rounded_up(weapon_range: Any, params: Any) -> Any:
    """Planted F Declare bug: 1.5x Range rounded up."""
    return -(-weapon_range * params.long_range_percent // 100)


def rerolls_once(melee: Any, prone: Any) -> Any:
    """Planted F7 bug: Prone does not add the second location reroll."""
    return int(bool(melee))


def kick_falls_at(roll: Any, piloting: Any, params: Any) -> Any:
    """Planted F11.1 bug: the kicker falls at 10 too (not only below)."""
    return roll + piloting <= params.kick_fall_below


def charge_dice_unbounded(hexes: Any, params: Any) -> Any:
    """Planted F11.3 bug: no max on the Charge's dice."""
    import numpy as np

    return np.asarray(hexes) // params.charge_hexes_per_die


def check_entry_unbounded_pilots(raw: Any, specs: Any, path: Any, kind: str, **kw: Any) -> Any:
    """Planted D bug: the loader forgets the 0-3 bounds of pilot stats."""
    if kind == "pilot":
        specs = [replace(s, min=None, max=None) if s.type == "int" else s for s in specs]
    return core_catalog.check_entry(raw, specs, path, kind, **kw)


def contest_ties_to_defender(
    roll: Any, piloting: Any, bonus: Any, other_roll: Any, other_piloting: Any, other_bonus: Any
) -> Any:
    """Planted F11.5 bug: the acting mech loses ties."""
    return roll + piloting + bonus > other_roll + other_piloting + other_bonus


_SHIPPED_COPY_PROBLEMS = rules.copy_problems


def copies_without_chassis(mechs: Any, params: Any) -> list[str]:
    """Planted B bug: chassis are not counted as parts (each given its own id)."""
    own = [replace(m, chassis=replace(m.chassis, id=f"{m.name}-chassis")) for m in mechs]
    return _SHIPPED_COPY_PROBLEMS(own, params)


OVERCHARGE = ["1", "1d3", "1d6", "1d6+4"]


def overcharge(i: int, dice: str) -> list[str]:
    return [dice if k == i else d for k, d in enumerate(OVERCHARGE)]


FLIPS: dict[str, list[Flip]] = {
    # F5
    "rifle_pen": [
        set_("rifle-pen-3", {"part.rifle.pen": 3}),
        set_("rifle-pen-1", {"part.rifle.pen": 1}),
    ],
    "cannon_pen": [set_("cannon-pen-5", {"part.cannon.pen": 5})],
    "medium_arm_armor_right": [set_("rifle-armor-6", {"part.rifle.armor": 6})],
    "medium_arm_armor_left": [set_("buckler-armor-4", {"part.buckler.armor": 4})],
    "heavy_core_armor": [
        set_("warden-core-9", {"part.warden_frame.armor": 9}),
        set_("bastion-core-7", {"part.bastion_frame.armor": 7}),
    ],
    "rifle_full_medium_arm": [
        set_("rifle-pen-1", {"part.rifle.pen": 1}),
        set_("rifle-armor-6", {"part.rifle.armor": 6}),
    ],
    "rifle_full_heavy_core": [set_("bastion-core-7", {"part.bastion_frame.armor": 7})],
    "crit_margin_default": [
        set_("margin-3", crit_margin=3),
        set_("margin-5", crit_margin=5),
        Flip("rule-crit-beyond-margin", patch=("penetration_outcome", crit_beyond_margin)),
    ],
    "cannon_crit_margin_3": [
        set_("cannon-pen-5-above", {"part.cannon.pen": 5}),
        set_("cannon-pen-3-below", {"part.cannon.pen": 3}),
    ],
    "cannon_crit_margin_4": [
        set_("cannon-pen-5-above", {"part.cannon.pen": 5}),
        set_("cannon-pen-3-below", {"part.cannon.pen": 3}),
    ],
    # F3: the modifier dice are d6 in the rules, not a catalog number
    "modifiers_cancel": [
        Flip("args-net-1", args={"minus": 2}),
        Flip("rule-no-cancelling", patch=("net_modifier_dice", lambda plus, minus: plus)),
        Flip("rule-one-die", patch=("modifier", one_die)),
    ],
    "modifier_two_plus_six": [
        Flip("args-one-plus", args={"plus": 1}),
        Flip("rule-one-die", patch=("modifier", one_die)),
    ],
    "modifier_net_minus_one": [
        Flip("args-net-minus-2", args={"minus": 3}),
        Flip("rule-never-subtract", patch=("modifier", never_subtract)),
    ],
    # F4
    "standard_medium_silhouette": [set_("hardhat-size-4", {"part.hardhat.size": 4})],
    # B3, B
    "team_cap": [
        set_("cap-150", team_cap=150),
        Flip("rule-refuses-nothing", patch=("team_problems", refuse_nothing)),
        Flip("rule-refuses-everything", patch=("team_problems", refuse_everything)),
    ],
    "kit_weights": [set_("smoke-weight-4", {"part.smoke.weight": 4})],
    "team_courier_foreman_reaver": [set_("rifle-weight-7", {"part.rifle.weight": 7})],
    "team_courier_foreman_reaver_fits": [
        set_("cap-128", team_cap=128),
        Flip("rule-refuses-everything", patch=("team_problems", refuse_everything)),
    ],
    "team_bastion_foreman_courier": [
        set_("bastion-frame-weight-29", {"part.bastion_frame.weight": 29})
    ],
    "team_bastion_foreman_courier_fits": [set_("cap-142", team_cap=142)],
    "team_bastion_reaver_courier": [
        set_("reaver-frame-weight-21", {"part.reaver_frame.weight": 21})
    ],
    "team_bastion_reaver_courier_fits": [set_("cap-142", team_cap=142)],
    "team_bastion_two_mediums": [set_("lattice-weight-4", {"part.lattice.weight": 4})],
    "team_bastion_two_mediums_over": [
        set_("cap-158", team_cap=158),
        Flip("rule-refuses-nothing", patch=("team_problems", refuse_nothing)),
    ],
    "four_kit_rosters_legal": [
        Flip("rule-refuses-nothing", patch=("roster_problems", refuse_nothing)),
        Flip("rule-refuses-everything", patch=("roster_problems", refuse_everything)),
        set_("copy-limit-1", copy_limit=1),
        set_("copy-limit-3", copy_limit=3),
        set_("overload-max-11", overload_max=11),
        set_("reaver-carries-a-third-rifle", {"kit.reaver.left_arm": "rifle"}),
        set_("hana-flies-the-reaver-too", {"kit.reaver.pilot": "hana"}),
    ],
    # D
    "pilots_ruko_marrow_vex": [set_("vex-striker", {"pilot.vex.specialty": "striker"})],
    "pilots_ruko_marrow_ilse": [set_("ilse-saint", {"pilot.ilse.faction": "hollow_saints"})],
    "pilots_ruko_q_vex": [set_("q-marksman", {"pilot.q.specialty": "marksman"})],
    # G3
    "overcharge_first": [set_("first-2", overcharge_heat=overcharge(0, "2"))],
    "overcharge_second": [
        set_("second-1d4", overcharge_heat=overcharge(1, "1d4")),
        set_("second-flat-2-same-mean", overcharge_heat=overcharge(1, "2")),
    ],
    "overcharge_third": [set_("third-2d3", overcharge_heat=overcharge(2, "2d3"))],
    "overcharge_rest": [
        set_("rest-1d6+3", overcharge_heat=overcharge(3, "1d6+3")),
        set_("fifth-entry-1d6", overcharge_heat=[*OVERCHARGE, "1d6"]),
    ],
    # H, I, I4
    "board_length": [set_("length-33", board_length=33)],
    "board_depth": [set_("depth-21", board_depth=21)],
    "fronts_apart": [set_("deploy-rows-2", deploy_rows=2), set_("length-34", board_length=34)],
    "round_cap": [set_("rounds-8", round_cap=8)],
    "zone_points": [
        set_("zones-2", zones=2),
        set_("zone-points-2", zone_points=2),
        set_("rounds-8", round_cap=8),
    ],
    "wipe_points": [set_("kill-points-2", kill_points=2)],
    # B, B4 (issue 15)
    "overload_per_five": [
        set_("step-4", overload_step=4),
        set_("step-6", overload_step=6),
        Flip("rule-whole-steps-only", patch=("overload_steps", overload_floor)),
    ],
    "roster_four": [
        set_("roster-5", roster_size=5),
        Flip("rule-refuses-nothing", patch=("roster_problems", refuse_nothing)),
    ],
    "fielded_three": [set_("fielded-2", fielded=2)],
    "copy_limit_part": [
        set_("copy-limit-1", copy_limit=1),
        set_("copy-limit-3", copy_limit=3),
        Flip("rule-refuses-nothing", patch=("roster_problems", refuse_nothing)),
    ],
    "copy_limit_chassis": [
        set_("copy-limit-3", copy_limit=3),
        Flip("rule-ignores-chassis", patch=("copy_problems", copies_without_chassis)),
    ],
    # D, D4
    "pilot_stats_zero_to_three": [
        Flip("loader-forgets-bounds", patch=("catalog.check_entry", check_entry_unbounded_pilots)),
        Flip("args-from-1", args={"values": [1, 2, 3, 4]}),
    ],
    "bond_dice": [set_("bond-dice-2", bond_dice=2)],
    "bond_range": [set_("bond-range-3", bond_range=3)],
    "backup_fire_dice": [set_("reaction-dice-0", reaction_dice=0)],
    # E, E6
    "full_action_two_quick": [
        Flip("full-takes-3", patch=("policy.FULL", 3)),
        Flip("full-takes-1", patch=("policy.FULL", 1)),
    ],
    "reaction_attack_dice": [set_("reaction-dice-2", reaction_dice=2)],
    "lock_on_roll": [Flip("rule-above-e-def", patch=("locks_on", locks_on_above))],
    "lock_on_dice": [set_("lock-dice-2", lock_dice=2)],
    "brace_armor": [
        set_("brace-2", brace_armor=2),
        Flip("rule-brace-adds-nothing", patch=("armor_now", armor_never_braced)),
    ],
    "vent_heat": [set_("vent-2d3", vent_heat="2d3")],
    "barrage_heat": [set_("barrage-heat-2", barrage_heat=2)],
    "aimed_shot_dice": [set_("aimed-dice-0", aimed_dice=0)],
    "engaged_dice": [set_("engaged-dice-2", engaged_dice=2)],
    "high_ground_dice": [set_("high-ground-dice-0", high_ground_dice=0)],
    # B tags, F Declare, F Hit
    "heavy_moved_dice": [set_("heavy-dice-0", heavy_dice=0)],
    "long_range_reach": [
        set_("long-160", long_range_percent=160),
        Flip("rule-rounds-up", patch=("long_range", long_range_rounded_up)),
    ],
    "long_range_dice": [set_("long-range-dice-2", long_range_dice=2)],
    "natural_20_pen": [set_("nat20-pen-0", nat20_pen=0), set_("nat20-pen-2", nat20_pen=2)],
    # F7, G
    "crit_table_d6": [
        Flip("table-d8", patch=("TABLE_DIE", 8)),
        Flip("table-d4", patch=("TABLE_DIE", 4)),
    ],
    "stress_table_d6": [Flip("table-d8", patch=("TABLE_DIE", 8))],
    "prone_evasion": [set_("prone-evasion-2", prone_evasion=2)],
    "prone_location_rerolls": [Flip("rule-rerolls-once", patch=("location_rerolls", rerolls_once))],
    # F11
    "kick_fall": [
        set_("fall-below-11", kick_fall_below=11),
        Flip("rule-falls-at-10", patch=("kick_falls", kick_falls_at)),
    ],
    "shield_punch_pen": [set_("shield-punch-2", shield_punch_pen=2)],
    "charge_dice": [
        set_("per-2-hexes", charge_hexes_per_die=2),
        set_("max-3", charge_max_dice=3),
        Flip("rule-no-max", patch=("charge_dice", charge_dice_unbounded)),
    ],
    "charge_blocked_damage": [set_("wall-1d3", charge_wall_damage="1d3")],
    "charge_self_damage": [set_("self-1d6", charge_self_damage="1d6")],
    "charge_heat": [set_("charge-heat-2", charge_heat=2)],
    "grapple_class_bonus": [set_("heavy-3", grapple_heavy=3), set_("light-1", grapple_light=1)],
    "grapple_contest": [
        set_("medium-2", grapple_medium=2),
        Flip("rule-ties-to-defender", patch=("wins_contest", contest_ties_to_defender)),
    ],
    "shield_melee_dice": [set_("shield-dice-2", shield_melee_dice=2)],
    # G, H5, H, I
    "pulse_heat": [set_("pulse-1d6", pulse_heat="1d6")],
    "hard_cover_dice": [set_("hard-1", hard_cover_dice=1)],
    "soft_cover_dice": [set_("soft-2", soft_cover_dice=2)],
    "initiative_2d6": [
        set_("init-1d12", initiative_dice="1d12"),
        set_("init-2d6+1", initiative_dice="2d6+1"),
    ],
    "deploy_rows": [set_("deploy-rows-2", deploy_rows=2)],
    "three_zones": [set_("zones-2", zones=2)],
    # the maps: a standard map that declares elevation up to 2, zones on one row (one
    # position then sees all three), and only the large board of the standard size
    "board_sizes": [
        Flip(
            "open-max-elevation-2",
            edit=("maps/open.toml", "max_elevation = 3", "max_elevation = 2"),
        )
    ],
    "zones_not_seen_together": [
        Flip(
            "open-zones-in-a-row",
            edit=(
                "maps/open.toml",
                "zones = [[10, 4], [16, 10], [21, 15]]",
                "zones = [[6, 10], [9, 10], [12, 10]]",
            ),
        )
    ],
    "medium_reaches_middle": [
        set_("standard-is-40x24", board_length=40, board_depth=24),
        Flip("a-heavy-kit", args={"kit": "bastion"}),
    ],
}

CASES = [
    pytest.param(claim_id, flip, id=f"{claim_id}-{flip.label}")
    for claim_id, flips in FLIPS.items()
    for flip in flips
]


@pytest.fixture(autouse=True)
def _fresh_rule_caches():
    """A planted rule bug must not leave its results in the rules' caches."""
    rules.clear_caches()
    yield
    rules.clear_caches()


def test_every_claim_has_a_flip() -> None:
    assert set(FLIPS) == set(CLAIMS)
    for claim_id, flips in FLIPS.items():
        assert flips, claim_id
        for flip in flips:
            kinds = [
                bool(flip.sets),
                bool(flip.args),
                flip.patch is not None,
                flip.edit is not None,
            ]
            assert sum(kinds) == 1, (claim_id, flip.label)


@pytest.mark.parametrize(("claim_id", "flip"), CASES)
def test_flip_fails_the_claim(claim_id: str, flip: Flip, skirmish, monkeypatch, tmp_path) -> None:
    claim = CLAIMS[claim_id]
    before = evaluate(claim, GAME.checks, skirmish)
    assert before.passed, before.row()  # the shipped catalog passes: the flip is the change
    catalog = load_catalog(CATALOGS, overrides=flip.sets) if flip.sets else skirmish
    if flip.edit is not None:
        catalog = load_catalog(catalog_copies.edit("skirmish", *flip.edit)(tmp_path))
    if flip.args:
        assert set(flip.args) <= set(claim.args), "a flip changes existing args only"
        claim = replace(claim, args={**claim.args, **flip.args})
    if flip.patch is not None:
        name, bug = flip.patch
        module, attr = patch_target(name)
        shipped = getattr(module, attr)
        assert callable(shipped) == callable(bug), name  # a function for a function
        rules.clear_caches()  # forget what the shipped rule computed above
        monkeypatch.setattr(module, attr, bug)
    after = evaluate(claim, GAME.checks, catalog)
    assert not after.passed, after.row()


LEGALITY_REFUSALS = {
    "four_kit_rosters_legal",
    "team_bastion_two_mediums_over",
    "team_cap",
    "roster_four",
    "copy_limit_part",
    "copy_limit_chassis",
}
LEGALITY_ACCEPTANCES = {
    "four_kit_rosters_legal",
    "team_cap",
    "team_courier_foreman_reaver_fits",
    "team_bastion_foreman_courier_fits",
    "team_bastion_reaver_courier_fits",
    "roster_four",
    "copy_limit_part",
    "copy_limit_chassis",
}


def _failing(catalog) -> set[str]:
    return {cid for cid, c in CLAIMS.items() if not evaluate(c, GAME.checks, catalog).passed}


def test_legality_that_refuses_nothing_fails_claims(skirmish, monkeypatch) -> None:
    """The negative side: a roster or team the rulebook forbids must be refused."""
    assert _failing(skirmish) == set()
    monkeypatch.setattr(rules, "roster_problems", refuse_nothing)
    monkeypatch.setattr(rules, "team_problems", refuse_nothing)
    assert _failing(skirmish) == LEGALITY_REFUSALS


def test_legality_that_refuses_everything_fails_claims(skirmish, monkeypatch) -> None:
    """The positive side: what the rulebook allows must be accepted."""
    monkeypatch.setattr(rules, "roster_problems", refuse_everything)
    monkeypatch.setattr(rules, "team_problems", refuse_everything)
    assert _failing(skirmish) == LEGALITY_ACCEPTANCES


def test_each_forbidden_roster_breaks_exactly_one_rule(skirmish) -> None:
    """The forbidden rosters of four_kit_rosters_legal each break one rule of B or B4
    and nothing else, so each tests that rule alone."""
    from sims.skirmish.claims import swap_roster

    claim = CLAIMS["four_kit_rosters_legal"]
    base = [skirmish.mech(k) for k in claim.args["base"]]
    assert rules.roster_problems(base, skirmish.params) == []
    found = []
    for swap in claim.args["forbidden"]:
        problems = rules.roster_problems(swap_roster(skirmish, base, swap), skirmish.params)
        assert len(problems) == 1, (swap, problems)
        found.append(problems[0])
    assert "rifle" in found[0] and "dorn" in found[1] and "courier" in found[2]
