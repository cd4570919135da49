"""sims.core.batch, game-free: the masked gathers against plain NumPy indexing, the
counting dice against the same Generator drawn by hand, highest_of against sorting, and
the scripted twin's refusals. No game is named; any vectorized engine can rely on these."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.batch import Dice, Grid, Script, ScriptedDice, highest_of, keep


def test_keep_is_boolean_indexing_of_every_array():
    rng = np.random.default_rng(7)
    for n in (0, 1, 5, 200):
        mask = rng.random(n) < 0.4
        a, b = rng.integers(0, 9, n), rng.random(n)
        got = keep(mask, a, b)
        assert len(got) == 2
        assert np.array_equal(got[0], a[mask]) and np.array_equal(got[1], b[mask])
    assert keep(np.ones(3, bool), np.arange(3))[0].tolist() == [0, 1, 2]
    assert keep(np.zeros(3, bool), np.arange(3))[0].tolist() == []


@pytest.mark.parametrize("shape", [(6, 3), (6, 3, 4)])
def test_grid_reads_and_writes_like_fancy_indexing(shape):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 100, shape).astype(np.int16)
    plain, g = a.copy(), Grid(a)
    ix, col = np.array([0, 2, 5, 5]), np.array([1, 0, 2, 1])
    assert np.array_equal(g[ix, col], plain[ix, col])  # whole rows for a 3-d array
    if len(shape) == 3:
        k = np.array([3, 0, 1, 2])
        assert np.array_equal(g[ix, col, k], plain[ix, col, k])
        g[ix[:2], col[:2], k[:2]] = -1
        plain[ix[:2], col[:2], k[:2]] = -1
    g[ix[:2], col[:2]] = 7  # unique (row, column) pairs
    plain[ix[:2], col[:2]] = 7
    assert np.array_equal(g.a, plain)
    assert np.array_equal(g[1], plain[1])  # anything else goes to the array
    g[:, 0] = 0
    plain[:, 0] = 0
    assert np.array_equal(g.a, plain) and g.a is a  # a view: the array itself changes


def test_highest_of_against_sorting():
    rng = np.random.default_rng(11)
    faces = rng.integers(1, 7, (300, 4))
    count = rng.integers(0, 5, 300)
    brute = [
        max(sorted(row[:c]), default=0)
        for row, c in zip(faces.tolist(), count.tolist(), strict=True)
    ]
    assert highest_of(faces, count).tolist() == brute
    assert int(highest_of([2, 6, 5], 2)) == 6  # one row of faces, an int count
    assert int(highest_of([3, 6], 1)) == 3
    assert int(highest_of(np.zeros(0, int), 0)) == 0  # no dice: 0
    assert highest_of(np.zeros((2, 0), int), np.array([0, 0])).tolist() == [0, 0]


def test_dice_draw_what_the_generator_draws_and_count_it():
    dice, twin = Dice(np.random.default_rng(5)), np.random.default_rng(5)
    got = dice.roll(6, 50)
    assert np.array_equal(got, twin.integers(1, 7, size=50, dtype=np.int16))
    assert got.dtype == np.int16 and got.min() >= 1 and got.max() <= 6
    sides = np.array([4, 6, 8, 20])
    assert np.array_equal(dice.roll(sides, 4), twin.integers(1, sides + 1, size=4, dtype=np.int16))
    count = np.array([0, 2, 1, 3])
    faces = dice.faces(count, 6)
    assert faces.shape == (4, 3)
    assert np.array_equal(faces, twin.integers(1, 7, size=(4, 3), dtype=np.int16))
    assert dice.faces(np.zeros(5, int), 6).shape == (5, 0)  # no row rolls: no draw
    total = dice.sum(count, 6, 1)
    drawn = twin.integers(1, 7, size=(4, 3), dtype=np.int16)
    assert total.tolist() == [1 + int(drawn[i, :c].sum()) for i, c in enumerate(count)]
    best = dice.highest(count, 6)
    drawn = twin.integers(1, 7, size=(4, 3), dtype=np.int16)
    assert best.tolist() == [int(drawn[i, :c].max(initial=0)) for i, c in enumerate(count)]
    assert dice.blocks == [50, 4, 12, 12, 12] and dice.drawn == sum(dice.blocks)


def test_dice_sum_with_row_sides_and_bonus():
    dice = Dice(np.random.default_rng(9))
    count, sides, bonus = np.array([1, 2, 0]), np.array([3, 6, 8]), np.array([0, -1, 4])
    totals = np.array([dice.sum(count, sides, bonus) for _ in range(2000)])
    assert totals[:, 2].tolist() == [4] * 2000  # no dice: the bonus alone
    assert totals[:, 0].min() == 1 and totals[:, 0].max() == 3
    assert totals[:, 1].min() == 1 and totals[:, 1].max() == 11  # 2d6 - 1
    assert abs(totals[:, 1].mean() - 6) < 0.25  # 7 - 1, standard error about 0.05


def test_script_reads_in_order_and_refuses_what_it_does_not_hold():
    script = Script([(6, 4), (20, 20)])
    assert script.face(6) == 4 and script.face(20) == 20 and script.used == 2
    with pytest.raises(AssertionError, match="exhausted at roll 3"):
        script.face(6)
    with pytest.raises(AssertionError, match="d20, script has a d6"):
        Script([(6, 1)]).face(20)
    with pytest.raises(AssertionError, match="face 7 is off a d6"):
        Script([(6, 7)]).face(6)


def test_scripted_dice_read_one_row_from_the_script():
    dice = ScriptedDice([(6, 2), (6, 5), (6, 3), (6, 6), (6, 1), (10, 9), (4, 4)])
    assert dice.roll(6, 1).tolist() == [2]
    assert dice.sum(np.array([2]), 6, 3).tolist() == [5 + 3 + 3]
    assert dice.highest(np.array([2]), 6).tolist() == [6]  # faces 6, 1
    assert dice.roll(np.array([10]), 1).tolist() == [9]
    assert dice.faces(np.array([0]), 6).shape == (1, 0)  # no dice, nothing read
    assert dice.roll(4, 0).tolist() == []
    assert dice.faces(np.array([1]), 4).tolist() == [[4]]
    assert dice.used == 7 and dice.drawn == 7
    with pytest.raises(AssertionError, match="one battle; 2 rows"):
        ScriptedDice([(6, 1), (6, 2)]).roll(6, 2)


def test_recording_dice_replay_through_scripted_dice():
    from sims.core.batch import RecordingDice, ScriptedDice

    rec = RecordingDice(np.random.default_rng(4))
    a = rec.roll(np.array([6]), 1)
    b = rec.faces(np.array([3]), 8)
    c = rec.roll(10, 1)
    assert [s for s, _ in rec.script] == [6, 8, 8, 8, 10]
    replay = ScriptedDice(rec.script)
    np.testing.assert_array_equal(replay.roll(np.array([6]), 1), a)
    np.testing.assert_array_equal(replay.faces(np.array([3]), 8), b)
    np.testing.assert_array_equal(replay.roll(10, 1), c)
    assert replay.used == len(rec.script)
