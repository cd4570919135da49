"""policy.py's predicates on hand-made cases, the expected choice read off the policy's
description (battle.py's game procedure, policies.toml, ASSUMPTIONS.md readings R3, R4,
R6, R7), on Python values (the reference engine's calls) and on arrays (the vector
engine's)."""

from __future__ import annotations

import numpy as np

from sims.alphaside import policy

T, F = True, False


def arr(*xs) -> np.ndarray:
    return np.array(xs)


def test_advance_goal_close_or_keep_range() -> None:
    # weapons reaching 1 and 4 hexes: close stops at 1, keep_range at 4
    assert policy.advance_goal(F, 1, 4) == 1 and policy.advance_goal(T, 1, 4) == 4
    np.testing.assert_array_equal(policy.advance_goal(arr(F, T), arr(1, 2), arr(4, 3)), [1, 3])


def test_weapon_weight_strongest_or_per_tl() -> None:
    # 3.0 expected damage for 2 TL: 3.0 strongest, 1.5 per TL; a 0-TL weapon costs 1
    assert policy.weapon_weight(3.0, 2, F) == 3.0 and policy.weapon_weight(3.0, 2, T) == 1.5
    assert policy.weapon_weight(3.0, 0, T) == 3.0
    np.testing.assert_array_equal(
        policy.weapon_weight(arr(3.0, 3.0), arr(2, 2), arr(F, T)), [3.0, 1.5]
    )


def test_target_rank_nearest_then_lower_slot() -> None:
    # enemy 3 at 2 hexes before enemy 0 at 5; at equal distance enemy 1 before enemy 4
    assert policy.target_rank(2, 3) < policy.target_rank(5, 0)
    assert policy.target_rank(4, 1) < policy.target_rank(4, 4)
    ranks = policy.target_rank(arr(5, 4, 7, 2, 4), np.arange(5))
    assert ranks.argmin() == 3 and ranks.min() // policy.TARGET_RANK == 2
    assert policy.target_rank(arr(4, 4), arr(4, 1)).argmin() == 1


def test_uses_repair_when_damaged_and_paid() -> None:
    assert policy.uses_repair(T, 2, 2, 5, 8)  # Energy 2 pays 2, HP 5 of 8
    assert not policy.uses_repair(T, 1, 2, 5, 8)  # Energy 1 short
    assert not policy.uses_repair(T, 3, 2, 8, 8)  # full HP: nothing to repair
    assert not policy.uses_repair(F, 3, 2, 5, 8)  # ability = false
    np.testing.assert_array_equal(
        policy.uses_repair(arr(T, T, F), arr(2, 1, 3), 2, arr(5, 5, 5), 8), [T, F, F]
    )


def test_uses_shields_when_an_enemy_is_on_the_board() -> None:
    assert policy.uses_shields(T, 1, 1, T)
    assert not policy.uses_shields(T, 1, 1, F) and not policy.uses_shields(T, 0, 1, T)
    assert not policy.uses_shields(F, 1, 1, T)
    np.testing.assert_array_equal(policy.uses_shields(T, arr(1, 1), 1, arr(T, F)), [T, F])


def test_uses_attack_ability_when_paid() -> None:
    assert policy.uses_attack_ability(T, 3, 3) and not policy.uses_attack_ability(T, 2, 3)
    assert not policy.uses_attack_ability(F, 3, 3)
    np.testing.assert_array_equal(
        policy.uses_attack_ability(arr(T, T, F), arr(3, 2, 5), arr(3, 3, 1)), [T, F, F]
    )


def test_primary_action_attack_dash_or_energize() -> None:
    # no enemy on the board: Energize; a target out of every weapon's range: Dash;
    # a weapon in range: neither (Attack)
    assert policy.energizes(F) and not policy.energizes(T)
    assert policy.dashes(T, F) and not policy.dashes(T, T) and not policy.dashes(F, F)
    np.testing.assert_array_equal(policy.energizes(arr(T, F)), [F, T])
    np.testing.assert_array_equal(policy.dashes(arr(T, T, F), arr(F, T, F)), [T, F, F])


def test_outweighs_strictly_greater_or_first() -> None:
    assert policy.outweighs(1.0, 0.0, F)  # the first weapon in range is taken
    assert policy.outweighs(2.5, 2.0, T)
    assert not policy.outweighs(2.0, 2.0, T)  # a tie keeps the first weapon
    assert not policy.outweighs(1.0, 2.0, T)
    np.testing.assert_array_equal(
        policy.outweighs(arr(2.0, 2.0, 1.0), arr(2.0, 2.0, 2.0), arr(F, T, T)), [T, F, F]
    )
