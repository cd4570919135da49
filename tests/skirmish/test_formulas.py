"""Every formula of ``sims/skirmish/rules.py`` two ways:

1. the same answer on Python ints and on NumPy arrays, over a full grid of its inputs
   (:func:`agree`: one call on the whole grid as arrays, one call per grid point as
   ints; given ints a formula returns a Python int or bool, never a NumPy scalar);
2. hand-derived values at its edges, written as literals with the rulebook (003)
   section they come from, never computed with the code under test.

The parameters are the catalog's (``catalogs/skirmish/rules.toml``) with the rulebook
values restated where a test depends on one (``RULEBOOK``), so a catalog edit cannot
make an edge test pass or fail silently.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from sims.skirmish import rules

RULEBOOK = {  # 003 values the hand-derived expectations below rely on
    "prone_evasion": 3,  # F7 Prone: Evasion -3
    "nat20_pen": 1,  # F Hit: a natural 20 adds +1 to that shot's penetration roll
    "brace_armor": 1,  # E Brace: +1 Armor
    "overload_step": 5,  # B4: each 5 over, or part thereof
    "overload_max": 10,  # B4: up to 10 over
    "long_range_percent": 150,  # F Declare: 1.5x Range, rounded down
    "kill_points": 3,  # I4 reading: 3 per enemy mech destroyed
    "zone_points": 1,  # I4 reading: 1 per zone held per round
    "legs_lost_speed": 1,  # reading of 003 A: Speed left with the Legs gone
    "kick_fall_below": 10,  # F11.1: a missed kick falls Prone below 10
    "charge_hexes_per_die": 3,  # F11.3: 1[+] per 3 hexes moved
    "charge_max_dice": 2,  # F11.3: max 2
}


@pytest.fixture(scope="module")
def params(skirmish):
    return replace(skirmish.params, **RULEBOOK)


@pytest.fixture(scope="module")
def half(params):
    return replace(params, glance_damage="half")


def agree(fn, grid: dict[str, list], **fixed) -> np.ndarray:
    """``fn`` over every combination of ``grid`` as arrays equals ``fn`` at each
    combination as ints (and returns Python ints or bools there). Returns the arrays'
    answer for further checks."""
    names = list(grid)
    points = list(itertools.product(*grid.values()))
    columns = {n: np.array([p[i] for p in points]) for i, n in enumerate(names)}
    batch = np.asarray(fn(**columns, **fixed))
    assert batch.shape == (len(points),), fn.__name__
    for k, point in enumerate(points):
        one = fn(
            **dict(
                zip(
                    names,
                    (v.item() if isinstance(v, np.generic) else v for v in point),
                    strict=True,
                )
            ),
            **fixed,
        )
        assert type(one) in (int, bool, float), (fn.__name__, point, type(one))
        assert one == batch[k], (fn.__name__, point, one, batch[k])
    return batch


# ---- ints and arrays agree over full grids -------------------------------------------


def test_hit_ints_and_arrays(skirmish):
    # natural 1..20 x accuracy 0..10 x modifier -6..+6 x Evasion 6..20 (003 F Hit)
    agree(
        lambda natural, accuracy, mod, evasion: rules.hits(natural, accuracy, mod, evasion),
        {
            "natural": list(range(1, 21)),
            "accuracy": list(range(0, 11)),
            "mod": list(range(-6, 7)),
            "evasion": list(range(6, 21)),
        },
    )


def test_penetration_ints_and_arrays(params):
    agree(
        rules.outcome_code,
        {"total": list(range(0, 18)), "armor": list(range(3, 11)), "margin": list(range(2, 7))},
    )
    agree(
        lambda roll, pen, natural: rules.penetration_total(roll, pen, natural, params),
        {"roll": list(range(1, 7)), "pen": list(range(0, 7)), "natural": [1, 2, 19, 20]},
    )
    agree(
        lambda armor, braced, lost: rules.armor_now(armor, params, braced=braced, lost=lost),
        {"armor": list(range(0, 11)), "braced": [False, True], "lost": [0, 1, 2]},
    )


def test_damage_ints_and_arrays(params, half):
    for p in (params, half):
        agree(
            lambda code, rolled, p=p: rules.hit_damage(code, rolled, p),
            {"code": [0, 1, 2], "rolled": list(range(0, 25))},
        )
        agree(lambda rolled, p=p: rules.glance_damage(rolled, p), {"rolled": list(range(0, 25))})


def test_range_ints_and_arrays(params):
    agree(
        rules.range_code,
        {
            "distance": list(range(0, 20)),
            "weapon_range": [1, 3, 8, 10],
            "weapon_long": [1, 4, 12, 15],
            "melee": [False, True],
        },
    )
    agree(
        lambda weapon_range: rules.long_range(weapon_range, params),
        {"weapon_range": list(range(1, 41))},
    )


def test_modifier_die_ints_and_arrays():
    # k = 3 dice rolled per row, the first |net| kept (003 F3); every face triple
    faces = list(itertools.product(range(1, 7), repeat=3))
    for net in range(-3, 4):
        rows = np.array(faces)
        batch = rules.modifier_result(rows, np.full(len(rows), net))
        for row, got in zip(faces, batch, strict=True):
            one = rules.modifier_result(list(row[: abs(net)]), net)
            assert type(one) is int and one == got, (row, net)


def test_location_and_cover_ints_and_arrays():
    tops = rules.band_top((1, 3, 3, 6, 2, 5))
    agree(lambda roll: rules.location(roll, tops), {"roll": list(range(1, 21))})
    agree(lambda roll: rules.location_of(roll, (0, 20, 0, 0, 0, 0)), {"roll": list(range(1, 21))})
    agree(rules.hits_cover, {"part": list(range(6)), "hard_cover": [False, True]})


def test_derived_stats_ints_and_arrays(params):
    agree(
        lambda chassis, legs, piloting, overload, legs_alive, prone: rules.evasion(
            chassis, legs, piloting, overload, params, legs_alive=legs_alive, prone=prone
        ),
        {
            "chassis": [0, 5, 10],
            "legs": [-2, 0, 2],
            "piloting": [0, 3],
            "overload": [0, 2],
            "legs_alive": [False, True],
            "prone": [False, True],
        },
    )
    agree(
        lambda chassis, legs, overload, legs_alive, penalty: rules.speed(
            chassis, legs, overload, params, legs_alive=legs_alive, penalty=penalty
        ),
        {
            "chassis": [0, 4, 6],
            "legs": [-1, 0, 2],
            "overload": [0, 2],
            "legs_alive": [False, True],
            "penalty": [0, 1],
        },
    )
    agree(
        lambda chassis, head, back, head_alive, back_alive: rules.sensors(
            chassis, head, back, head_alive=head_alive, back_alive=back_alive
        ),
        {
            "chassis": [0, 6],
            "head": [0, 4],
            "back": [0, 3],
            "head_alive": [False, True],
            "back_alive": [False, True],
        },
    )
    agree(
        lambda chassis, head, systems, head_alive: rules.e_def(
            chassis, head, systems, head_alive=head_alive
        ),
        {"chassis": [3, 8], "head": [0, 2], "systems": [0, 3], "head_alive": [False, True]},
    )
    agree(
        lambda chassis, back, back_alive: rules.reactor_cap(chassis, back, back_alive=back_alive),
        {"chassis": [6, 10], "back": [0, 4], "back_alive": [False, True]},
    )
    agree(
        lambda gunnery, piloting, melee, weapon_acc, head_acc, head_alive: rules.accuracy(
            gunnery, piloting, melee, weapon_acc, head_acc, head_alive=head_alive
        ),
        {
            "gunnery": [0, 3],
            "piloting": [1, 2],
            "melee": [False, True],
            "weapon_acc": [-1, 0, 2],
            "head_acc": [0, 1],
            "head_alive": [False, True],
        },
    )


def test_overload_heat_and_scoring_ints_and_arrays(params):
    agree(
        lambda weight, cap: rules.overload_penalty(weight, cap, params),
        {"weight": list(range(20, 80)), "cap": [35, 50, 65]},
    )
    agree(lambda over: params.within_overload(over), {"over": list(range(-10, 20))})
    agree(rules.overheats, {"heat": list(range(0, 20)), "reactor": [6, 8, 13]})
    agree(
        lambda kills, zone_rounds: rules.points(kills, zone_rounds, params),
        {"kills": [0, 1, 2, 3], "zone_rounds": [0, 1, 5, 21]},
    )
    grid = {
        "wipe_winner": [-1, 0, 1],
        "points_a": [0, 3],
        "points_b": [0, 3],
        "hull_a": [0.5, 1.0],
        "hull_b": [0.5, 1.0],
    }
    agree(lambda **k: rules.decide(**k)[0], grid)
    agree(lambda **k: rules.decide(**k)[1], grid)


def test_bands_one_and_many_agree():
    sizes = [s for s in itertools.product((0, 1, 2, 3, 5, 8), repeat=6) if sum(s) > 0][::37]
    many = rules.bands_of(np.array(sizes))
    for row, got in zip(sizes, many, strict=True):
        assert rules.bands(row) == tuple(got.tolist())


# ---- hand-derived values at the edges --------------------------------------------------


def test_natural_1_misses_and_natural_20_hits():
    # 003 F Hit: "A natural 20 always hits ... A natural 1 always misses."
    assert rules.hits(1, 10, 6, 6) is False  # 1 + 10 + 6 = 17 >= 6, still a miss
    assert rules.hits(1, 10, 6, 17) is False
    assert rules.hits(20, 0, -6, 20) is True  # 20 - 6 = 14 < 20, still a hit
    assert rules.hits(20, 0, 0, 99) is True
    # otherwise d20 + accuracy +/- modifier >= Evasion: exactly Evasion hits
    assert rules.hits(19, 1, 0, 20) is True and rules.hits(19, 0, 0, 20) is False
    assert rules.hits(2, 4, 0, 6) is True and rules.hits(2, 3, 0, 6) is False
    assert rules.hits(10, 3, -2, 11) is True and rules.hits(10, 3, -3, 11) is False
    naturals = np.arange(1, 21)
    # Evasion 25 out of reach of d20 + 4: only the natural 20 hits
    assert rules.hits(naturals, 4, 0, 25).tolist() == [False] * 19 + [True]
    # Evasion 2 within reach of every roll: all but the natural 1 hit
    assert rules.hits(naturals, 4, 0, 2).tolist() == [False] + [True] * 19


def test_prone_and_lost_legs_lower_evasion(params):
    # 003 C Evasion = Chassis + Legs + Piloting - overload; F7 Prone: Evasion -3; with the
    # Legs destroyed their Evasion is lost. Foreman: 7 + 1 + 1 (Dorn) = 9.
    assert rules.evasion(7, 1, 1, 0, params) == 9
    assert rules.evasion(7, 1, 1, 0, params, prone=True) == 6
    assert rules.evasion(7, 1, 1, 0, params, legs_alive=False) == 8
    assert rules.evasion(7, 1, 1, 0, params, legs_alive=False, prone=True) == 5
    # Skiff: 10 + 2 + 3 (Sable) = 15; Prone 12; overloaded by 2 steps: 13
    assert rules.evasion(10, 2, 3, 0, params, prone=True) == 12
    assert rules.evasion(10, 2, 3, 2, params) == 13
    assert rules.evasion(
        np.array([10, 10]), 2, 3, 0, params, prone=np.array([False, True])
    ).tolist() == [15, 12]


def test_half_glance_rounds_down(params, half):
    # DESIGN reading of F5: glance_damage = half does half the dice, rounded down
    assert [rules.glance_damage(r, half) for r in (1, 2, 3, 5, 7, 12)] == [0, 1, 1, 2, 3, 6]
    assert rules.hit_damage(rules.GLANCE, 5, half) == 2
    assert rules.hit_damage(rules.FULL, 5, half) == 5 and rules.hit_damage(rules.CRIT, 5, half) == 5
    # glance_damage = none (the default reading): a glance does nothing, full and crit all
    assert rules.hit_damage(rules.GLANCE, 5, params) == 0
    assert rules.hit_damage(rules.FULL, 5, params) == 5
    assert rules.hit_damage(rules.CRIT, 7, params) == 7
    assert rules.outcome_damage("glance", 9, half) == 4
    assert rules.hit_damage(np.array([0, 1, 2, 0]), np.array([5, 5, 5, 1]), half).tolist() == [
        2,
        5,
        5,
        0,
    ]


def test_highest_kept_modifier_die():
    # 003 F3: cancel one for one, roll the rest as d6, keep the single highest, add it
    # for [+], subtract it for [-]
    assert rules.modifier_result([2, 5], 2) == 5
    assert rules.modifier_result([2, 5], -2) == -5
    assert rules.modifier_result([6], -1) == -6
    assert rules.modifier_result([1], 1) == 1
    assert rules.modifier_result([3, 1, 4], 3) == 4
    assert rules.modifier_result([], 0) == 0
    assert rules.net_modifier_dice(3, 1) == 2 and rules.net_modifier_dice(1, 3) == -2
    # rows rolled 3 dice; each keeps its first |net|: [2, 6, 1] with 1[-] keeps only 2
    rows = np.array([[2, 6, 1], [2, 6, 1], [4, 3, 5], [6, 6, 6]])
    assert rules.modifier_result(rows, np.array([-1, 2, -3, 0])).tolist() == [-2, 6, -5, 0]
    with pytest.raises(ValueError):
        rules.modifier_result([2, 5], 1)


def test_penetration_outcome_edges(params):
    # 003 F5 (DESIGN reading): below Armor a glance, Armor + margin a crit, else full
    assert [rules.outcome_code(t, 5, 4) for t in (4, 5, 8, 9, 12)] == [0, 1, 1, 2, 2]
    assert [rules.penetration_outcome(t, 8, 3) for t in (7, 8, 10, 11)] == [
        "glance",
        "full",
        "full",
        "crit",
    ]
    # d6 + Pen, +1 on a natural-20 hit: Rifle Pen 2 rolling 6 makes 8, on a 20 it is 9
    assert rules.penetration_total(6, 2, 19, params) == 8
    assert rules.penetration_total(6, 2, 20, params) == 9
    assert rules.penetration_total(1, 4, 20, params, bonus=1) == 7  # an active pen ability
    # Brace +1 Armor (E); a crit's lost Armor (F7)
    assert rules.armor_now(5, params, braced=True) == 6
    assert rules.armor_now(8, params, braced=True, bonus=1, lost=2) == 8


def test_range_band_edges(params):
    # 003 F Declare: Range 8 is optimal to 8, long to 12 (1.5x), out beyond
    assert rules.long_range(8, params) == 12 and rules.long_range(3, params) == 4
    assert [rules.range_code(d, 8, 12, False) for d in (1, 8, 9, 12, 13)] == [0, 0, 1, 1, 2]
    # F11: melee reaches adjacent hexes only, never at long range
    assert [rules.range_code(d, 1, 1, True) for d in (0, 1, 2)] == [0, 0, 2]
    assert rules.RANGE_BANDS[rules.range_code(4, 3, 4, False)] == "long"


def test_location_and_hard_cover_edges():
    # 003 F4: the standard Medium reads Head 1, Right Arm 2-4, Left Arm 5-7, Core 8-13,
    # Back 14-15, Legs 16-20
    medium = (1, 3, 3, 6, 2, 5)
    want = [0] + [1] * 3 + [2] * 3 + [3] * 6 + [4] * 2 + [5] * 5
    assert [rules.location_of(r, medium) for r in range(1, 21)] == want
    assert rules.location_of(np.arange(1, 21), medium).tolist() == want
    # a part owning no band is never struck
    assert {rules.location_of(r, (0, 20, 0, 0, 0, 0)) for r in range(1, 21)} == {1}
    # 003 H5 / F4: behind hard cover the Legs band hits the cover, no other band does
    assert rules.hits_cover(rules.LEGS, True) is True
    assert rules.hits_cover(rules.LEGS, False) is False
    assert [rules.hits_cover(p, True) for p in range(5)] == [False] * 5


def test_derived_stat_edges(params):
    # 003 C, with F7 losses: Speed 5 + 0 = 5 (Foreman), legs lost: the crawl of 1
    assert rules.speed(5, 0, 0, params) == 5
    assert rules.speed(5, 0, 0, params, legs_alive=False) == 1
    assert rules.speed(5, 2, 1, params, bonus=1, penalty=1) == 6  # 7 + 1 - 1 - 1
    assert rules.sensors(6, 2, 4) == 12 and rules.sensors(6, 2, 4, head_alive=False) == 10
    assert rules.sensors(6, 2, 4, back_alive=False, penalty=2) == 6
    assert rules.e_def(5, 1, 2) == 8 and rules.e_def(5, 1, 2, head_alive=False) == 7
    assert rules.reactor_cap(10, 3) == 13 and rules.reactor_cap(10, 3, back_alive=False) == 10
    # Accuracy = Gunnery + weapon Acc + Head Acc; melee rolls Piloting (F11)
    assert rules.accuracy(2, 1, False, 1, 0) == 3 and rules.accuracy(2, 1, True, 1, 0) == 2
    assert rules.accuracy(1, 3, False, 2, 1, head_alive=False) == 3


def test_overload_edges(params):
    # 003 B4: each 5 over, or part thereof, costs 1; up to 10 over is legal
    assert [rules.overload_penalty(50 + o, 50, params) for o in (-3, 0, 1, 5, 6, 10)] == [
        0,
        0,
        1,
        1,
        2,
        2,
    ]
    assert params.within_overload(10) is True and params.within_overload(11) is False
    assert params.class_cap("medium") == params.medium_cap


def test_heat_and_scoring_edges(params):
    # 003 G: stress "the moment your Heat exceeds Reactor Cap": equal is not over
    assert rules.overheats(13, 13) is False and rules.overheats(14, 13) is True
    # I4 reading: 3 per kill, 1 per zone-round; 21 zone points against 9 for a wipe
    assert rules.points(3, 0, params) == 9 and rules.points(0, 21, params) == 21
    # I: a wipe decides; else points, then Hull, else a draw
    assert rules.decide(rules.SIDE_B, 9, 0, 1.0, 0.0) == (rules.SIDE_B, 0)
    assert rules.decide(-1, 3, 0, 0.2, 0.9) == (rules.SIDE_A, 1)
    assert rules.decide(-1, 3, 3, 0.2, 0.9) == (rules.SIDE_B, 2)
    assert rules.decide(-1, 3, 3, 0.5, 0.5) == (rules.DRAW, 3)


def test_shot_steps_ints_and_arrays(params):
    agree(rules.struck_part, {"part": list(range(6)), "alive": [False, True]})
    agree(rules.location_rerolls, {"melee": [False, True], "prone": [False, True]})
    agree(rules.carry_over, {"durability_left": list(range(-12, 12))})
    agree(
        rules.knocks_down,
        {
            "melee": [False, True],
            "code": [0, 1, 2],
            "attacker_class": [0, 1, 2],
            "target_class": [0, 1, 2],
        },
    )
    agree(
        lambda roll, piloting: rules.kick_falls(roll, piloting, params),
        {"roll": list(range(1, 21)), "piloting": [0, 1, 2, 3]},
    )
    agree(
        lambda roll, systems, e_def: rules.locks_on(roll, systems, e_def),
        {"roll": list(range(1, 21)), "systems": [0, 3], "e_def": [5, 12, 20]},
    )
    agree(lambda hexes: rules.charge_dice(hexes, params), {"hexes": list(range(0, 13))})


def test_shot_step_edges(params):
    # 003 F4: a destroyed part's band transfers to the Core
    assert rules.struck_part(rules.LEGS, False) == rules.CORE
    assert rules.struck_part(rules.LEGS, True) == rules.LEGS
    # F11: melee rerolls location once, twice against Prone (F7); ranged never
    assert [rules.location_rerolls(m, p) for m in (False, True) for p in (False, True)] == [
        0,
        0,
        1,
        2,
    ]
    # F6: 11 damage on a 4-Durability head leaves -7: 7 carries into the Core
    assert rules.carry_over(4 - 11) == 7 and rules.carry_over(0) == 0 and rules.carry_over(3) == 0
    # F11.4: melee Full or Crit from a heavier class (heavy 2 on medium 1) knocks Prone
    assert rules.knocks_down(True, rules.FULL, 2, 1) is True
    assert rules.knocks_down(True, rules.GLANCE, 2, 1) is False
    assert rules.knocks_down(True, rules.CRIT, 1, 1) is False
    assert rules.knocks_down(False, rules.CRIT, 2, 0) is False
    # F11.1: d20 + Piloting below 10 falls: 8 + 1 = 9 falls, 9 + 1 = 10 stands
    assert rules.kick_falls(8, 1, params) is True and rules.kick_falls(9, 1, params) is False
    # E Lock On: d20 + Systems >= E-Def
    assert rules.locks_on(10, 2, 12) is True and rules.locks_on(9, 2, 12) is False
    assert rules.locks_on(9, 2, 12, bonus=1) is True
    # F11.3: 1[+] per 3 hexes moved, max 2
    assert [rules.charge_dice(h, params) for h in (0, 2, 3, 5, 6, 9, 12)] == [0, 0, 1, 1, 2, 2, 2]


def test_track_cover(params):
    # the range track's cover reading (rules.toml: 10% hard, the next 20% soft, H5)
    p = replace(params, hard_cover_percent=10, soft_cover_percent=20)
    agree(lambda roll: rules.track_cover(roll, p), {"roll": list(range(1, 101))})
    assert [rules.track_cover(r, p) for r in (1, 10, 11, 30, 31, 100)] == [2, 2, 1, 1, 0, 0]
    none = replace(p, hard_cover_percent=0, soft_cover_percent=0)
    assert {rules.track_cover(r, none) for r in range(1, 101)} == {0}
