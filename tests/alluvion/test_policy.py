"""policy.py's predicates on hand-made cases, the expected choice read off the policy's
description (battle.py's round procedure, policies.toml, ASSUMPTIONS.md "Policies"), on
Python values (the reference engine's calls) and on arrays (the vector engine's)."""

from __future__ import annotations

import numpy as np

from sims.alluvion import policy

T, F = True, False


def arr(*xs) -> np.ndarray:
    return np.array(xs)


def test_fires_rocket_from_its_round_on() -> None:
    # policy rockets_from 2: not in round 1, from round 2 on while a rocket is left
    assert not policy.fires_rocket(2, 2, 1)
    assert policy.fires_rocket(2, 2, 2) and policy.fires_rocket(1, 2, 5)
    assert not policy.fires_rocket(0, 2, 5)  # none left
    assert not policy.fires_rocket(2, 0, 5)  # rockets_from 0: never
    np.testing.assert_array_equal(
        policy.fires_rocket(arr(2, 2, 0, 2), arr(2, 2, 2, 0), arr(1, 2, 5, 5)), [F, T, F, F]
    )


def test_blocks_is_the_block_policy() -> None:
    assert policy.blocks(policy.DEFENSE["block"]) and not policy.blocks(policy.DEFENSE["highest"])


def test_tries_to_break_free_on_the_first_action_only() -> None:
    assert policy.tries_to_break_free(T, T)
    assert not policy.tries_to_break_free(T, F) and not policy.tries_to_break_free(F, T)
    np.testing.assert_array_equal(policy.tries_to_break_free(arr(T, F), T), [T, F])


def test_clears_infantry_with_its_last_action() -> None:
    assert policy.clears_infantry(T, T, T)
    assert not policy.clears_infantry(T, F, T)  # first action: it attacks instead
    assert not policy.clears_infantry(T, T, F)  # no squad within direct fire range
    assert not policy.clears_infantry(F, T, T)  # a policy that never clears
    np.testing.assert_array_equal(policy.clears_infantry(arr(T, T, F), T, arr(T, F, T)), [T, F, F])


def test_spots_for_an_ally_yet_to_act() -> None:
    assert policy.spots(T, T, T, T, T)
    # each condition alone stops it: policy, last action, a die, the ally, the reach
    for i in range(5):
        args = [T] * 5
        args[i] = F
        assert not policy.spots(*args)
    np.testing.assert_array_equal(
        policy.spots(arr(T, T), T, arr(T, F), arr(T, T), arr(T, T)), [T, F]
    )


def test_grapples_an_adjacent_free_target() -> None:
    assert policy.grapples(T, 1, F, F, F, T) and policy.grapples(T, 0, F, F, F, T)
    assert not policy.grapples(T, 2, F, F, F, T)  # 2 hexes away
    assert not policy.grapples(T, 1, T, F, F, T)  # already grappling: one at a time
    assert not policy.grapples(T, 1, F, T, F, T)  # itself held
    assert not policy.grapples(T, 1, F, F, T, T)  # the target held by another
    assert not policy.grapples(T, 1, F, F, F, F)  # no Skill die left
    assert not policy.grapples(F, 1, F, F, F, T)  # the policy does not grapple
    np.testing.assert_array_equal(
        policy.grapples(arr(T, T, T), arr(1, 3, 1), arr(F, F, T), F, F, T), [T, F, F]
    )


def test_move_goal_and_moves() -> None:
    # an approaching brawler with Hand-to-Hand closes to 1 hex; so does any Armor that
    # nothing reaches the target with; a gunline with Direct Fire keeps 20 hexes
    assert policy.closes_in(T, T, T) and policy.closes_in(F, F, F) and policy.closes_in(T, F, F)
    assert not policy.closes_in(T, F, T) and not policy.closes_in(F, T, T)
    assert policy.move_goal(T, 20) == 1 and policy.move_goal(F, 20) == 20
    np.testing.assert_array_equal(policy.move_goal(arr(T, F), 20), [1, 20])
    # a brawler 5 hexes off moves; at 1 hex it is there
    assert policy.moves(F, F, T, F, 5, 1) and not policy.moves(F, F, T, F, 1, 1)
    # a gunline (not closing in) 25 hexes off moves only because it is beyond 20 hexes;
    # at 12 hexes it stays and fires
    assert policy.moves(F, F, F, T, 25, 20) and not policy.moves(F, F, F, F, 12, 20)
    assert not policy.moves(T, F, T, T, 25, 1)  # hold: never moves
    assert not policy.moves(F, T, T, T, 25, 1)  # grappled: can't move
    np.testing.assert_array_equal(
        policy.moves(arr(F, F, T), arr(F, F, F), arr(T, F, T), arr(F, F, F), 5, arr(1, 20, 1)),
        [T, F, F],
    )


def test_attacks_when_an_attack_reaches_and_a_die_is_left() -> None:
    assert policy.attacks(T, T)
    assert not policy.attacks(T, F) and not policy.attacks(F, T)
    np.testing.assert_array_equal(policy.attacks(arr(T, T, F), arr(T, F, T)), [T, F, F])


def test_first_target_lead_then_second() -> None:
    # side B's lead is slot 2: operable lead -> 2; lead out, second operable -> 3; none -> -1
    assert policy.first_target(T, T, 2) == 2 and policy.first_target(T, F, 2) == 2
    assert policy.first_target(F, T, 2) == 3 and policy.first_target(F, F, 0) == -1
    np.testing.assert_array_equal(policy.first_target(arr(T, F, F), arr(F, T, F), 0), [0, 1, -1])


def test_attack_kind_close_then_smart_then_ranged() -> None:
    # Hand-to-Hand at 1 hex beats Smart; Smart beats Direct Fire; nothing: no attack
    assert policy.attack_kind(T, T, T) == policy.CLOSE
    assert policy.attack_kind(F, T, T) == policy.SMART
    assert policy.attack_kind(F, F, T) == policy.RANGED
    assert policy.attack_kind(F, F, F) == policy.NO_ATTACK == -1
    assert policy.ATTACKS[policy.SMART] == "smart" and policy.ATTACKS[policy.CLOSE] == "close"
    np.testing.assert_array_equal(
        policy.attack_kind(arr(T, F, F, F), arr(F, T, F, F), arr(T, T, T, F)),
        [policy.CLOSE, policy.SMART, policy.RANGED, -1],
    )
