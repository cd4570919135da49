"""Tests for sims.core.dist: hand-derived values, algebraic properties, and icepool as oracle."""

from __future__ import annotations

from fractions import Fraction as F

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sims.core.dist import Dist, fraction_str

# Moderate example counts keep the whole file to a few seconds.
FAST = settings(max_examples=60, deadline=None)

sides = st.integers(min_value=1, max_value=12)
dice = st.builds(Dist.die, sides)
weighted = st.dictionaries(
    st.integers(min_value=-6, max_value=12), st.integers(min_value=0, max_value=5), min_size=1
).filter(lambda w: sum(w.values()) > 0)
dists = st.one_of(dice, st.builds(Dist.from_weights, weighted))


def icepool_pmf(die: icepool.Die) -> dict[int, F]:
    return {o: p for o, p in zip(die.outcomes(), die.probabilities(), strict=True) if p}


# ---- hand-derived values ----------------------------------------------------------------


def test_two_d6_seven() -> None:
    d = Dist.parse("2d6")
    assert d.p_eq(7) == F(1, 6)
    assert d.p_eq(2) == d.p_eq(12) == F(1, 36)
    assert d.outcomes == tuple(range(2, 13))
    assert d.mean() == 7
    assert d.variance() == F(35, 6)


def test_highest_of_two_d6() -> None:
    assert Dist.die(6).highest(2).pmf() == {k: F(2 * k - 1, 36) for k in range(1, 7)}


def test_lowest_of_two_d6() -> None:
    assert Dist.die(6).lowest(2).pmf() == {k: F(13 - 2 * k, 36) for k in range(1, 7)}


def test_highest_lowest_of_different_dice() -> None:
    d4, d6 = Dist.die(4), Dist.die(6)
    # P(max <= x) = F4(x) F6(x): for x <= 4 that is x^2/24, so P(max = 1) = 1/24.
    assert Dist.highest_of([d4, d6]).pmf() == {
        1: F(1, 24),
        2: F(3, 24),
        3: F(5, 24),
        4: F(7, 24),
        5: F(1, 6),
        6: F(1, 6),
    }
    assert Dist.lowest_of([d4, d6]).pmf() == {1: F(9, 24), 2: F(7, 24), 3: F(5, 24), 4: F(3, 24)}
    assert Dist.highest_of([d6, d6]) == d6.highest(2)


def test_at_least_with_modifier() -> None:
    d = Dist.die(6) + 2
    assert d.p_at_least(5) == F(2, 3)
    assert d.p_at_most(4) == F(1, 3)
    assert (2 + Dist.die(6)) == d


def test_parse() -> None:
    assert Dist.parse("1d6+4").mean() == F(15, 2)
    assert Dist.parse("d6") == Dist.parse("1d6") == Dist.die(6)
    assert Dist.parse("1d3") == Dist.die(3)
    assert Dist.parse("3") == Dist.constant(3)
    assert Dist.parse("2d6-1") == Dist.parse("2d6") - 1
    assert Dist.parse("2d6 + 1d8") == Dist.die(6).repeat(2) + Dist.die(8)
    assert Dist.parse("2D6").p_eq(7) == F(1, 6)
    assert Dist.parse("1d6-1d6").mean() == 0


@pytest.mark.parametrize("bad", ["two", "", "2d", "d", "2x6", "1d6+", "1.5", "2d6*2", "0d6", "1d0"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match="bad dice expression"):
        Dist.parse(bad)


def test_parse_error_message() -> None:
    with pytest.raises(ValueError) as exc:
        Dist.parse("two")
    assert str(exc.value) == "bad dice expression 'two': expected like 2d6, 1d6+4"


def test_binomial_and_bernoulli() -> None:
    assert Dist.binomial(3, F(1, 2)).probabilities == (F(1, 8), F(3, 8), F(3, 8), F(1, 8))
    assert Dist.binomial(2, F(1, 3)).pmf() == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    assert Dist.binomial(4, 1) == Dist.constant(4)
    assert Dist.bernoulli("1/3").pmf() == {0: F(2, 3), 1: F(1, 3)}
    assert Dist.bernoulli(0) == Dist.constant(0)
    assert Dist.bernoulli(F(1, 4)).repeat(5) == Dist.binomial(5, F(1, 4))


def test_fraction_str() -> None:
    assert fraction_str(F(2, 4)) == "1/2"
    assert fraction_str(F(1)) == "1"
    assert fraction_str(F(0)) == "0"
    assert fraction_str(F(6, 2)) == "3"
    assert fraction_str(3) == "3"
    assert fraction_str(F(-1, 2)) == "-1/2"
    assert fraction_str(F(1, 6) ** 30) == "1/" + str(6**30)
    with pytest.raises(TypeError):
        fraction_str(0.5)  # type: ignore[arg-type]


def test_mixture() -> None:
    m = Dist.mixture([(1, Dist.constant(0)), (3, Dist.die(4))])
    assert m.pmf() == {0: F(1, 4), 1: F(3, 16), 2: F(3, 16), 3: F(3, 16), 4: F(3, 16)}
    # A hit roll (4+ on d6) then d3 damage, expressed as a mixture.
    hit = Dist.mixture([(1, Dist.constant(0)), (1, Dist.die(3))])
    assert hit.p_eq(0) == F(1, 2) and hit.mean() == 1
    assert Dist.mixture([(F(1, 2), Dist.die(2)), (F(1, 2), Dist.die(2))]) == Dist.die(2)


def test_given() -> None:
    assert Dist.die(6).given(lambda x: x >= 4) == Dist.from_weights({4: 1, 5: 1, 6: 1})
    assert Dist.die(6).given(lambda x: x % 2 == 0).pmf() == {2: F(1, 3), 4: F(1, 3), 6: F(1, 3)}
    two = Dist.parse("2d6").given(lambda x: x >= 10)
    assert two.pmf() == {10: F(1, 2), 11: F(1, 3), 12: F(1, 6)}
    with pytest.raises(ValueError, match="probability 0"):
        Dist.die(6).given(lambda x: x > 6)


def test_repeat_neg_sub_map() -> None:
    d6 = Dist.die(6)
    assert d6.repeat(3) == d6.sum_of(3) == d6 + d6 + d6 == Dist.parse("3d6")
    assert d6.repeat(3).p_eq(10) == F(27, 216)
    assert d6.repeat(0) == Dist.constant(0)
    assert (-d6).outcomes == (-6, -5, -4, -3, -2, -1)
    assert (10 - Dist.die(4)).pmf() == {6: F(1, 4), 7: F(1, 4), 8: F(1, 4), 9: F(1, 4)}
    assert (d6 - d6).p_eq(0) == F(1, 6)
    assert d6.map(lambda x: min(x, 3)).pmf() == {1: F(1, 6), 2: F(1, 6), 3: F(2, 3)}
    assert d6.map(lambda x: x >= 5).pmf() == {False: F(2, 3), True: F(1, 3)}


def test_accessors_and_dunder() -> None:
    d = Dist.from_weights({3: 1, 1: 2, 2: 0, 5: F(1, 2)})
    assert d.outcomes == (1, 3, 5)
    assert d.probabilities == (F(4, 7), F(2, 7), F(1, 7))
    assert len(d) == 3
    assert list(d) == [(1, F(4, 7)), (3, F(2, 7)), (5, F(1, 7))]
    assert d.cdf() == {1: F(4, 7), 3: F(6, 7), 5: F(1)}
    assert d.sf() == {1: F(1), 3: F(3, 7), 5: F(1, 7)}
    assert d.p(lambda x: x > 1) == F(3, 7)
    assert repr(d) == "Dist({1: 4/7, 3: 2/7, 5: 1/7})"
    assert len({Dist.parse("2d6"), Dist.die(6) + Dist.die(6)}) == 1


def test_validation() -> None:
    with pytest.raises(ValueError):
        Dist(((1, F(1, 2)),))
    with pytest.raises(ValueError):
        Dist(((2, F(1, 2)), (1, F(1, 2))))
    with pytest.raises(ValueError):
        Dist(())
    with pytest.raises(ValueError):
        Dist.from_weights({1: -1, 2: 2})
    with pytest.raises(ValueError):
        Dist.from_weights({1: 0})
    with pytest.raises(TypeError):
        Dist.from_weights({1: 0.5})
    with pytest.raises(TypeError):
        Dist.bernoulli(0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Dist.die(0)
    for bad_k in (0, -1):
        with pytest.raises(ValueError):
            Dist.die(6).highest(bad_k)
        with pytest.raises(ValueError):
            Dist.die(6).lowest(bad_k)
    with pytest.raises(ValueError):
        Dist.highest_of([])
    with pytest.raises(ValueError):
        Dist.die(6).repeat(-1)
    with pytest.raises(ValueError):
        Dist.mixture([(0, Dist.die(6))])


def test_to_frame() -> None:
    frame = Dist.parse("2d6").to_frame("damage")
    assert frame.columns == [
        "damage",
        "p",
        "p_float",
        "p_at_least",
        "p_at_least_float",
        "p_at_most",
        "p_at_most_float",
    ]
    assert frame.height == 11
    row = frame.filter(frame["damage"] == 7).row(0, named=True)
    assert row["p"] == "1/6" and row["p_float"] == pytest.approx(1 / 6)
    assert row["p_at_least"] == "7/12" and row["p_at_least_float"] == pytest.approx(7 / 12)
    assert row["p_at_most"] == "7/12"
    assert frame["p_at_most"][-1] == "1" and frame["p_at_least"][0] == "1"


def test_to_frame_huge_denominators() -> None:
    frame = Dist.die(6).repeat(40).to_frame()
    assert frame["p"][0] == "1/" + str(6**40)
    assert sum(F(s) for s in frame["p"]) == 1


def test_repr_html() -> None:
    out = Dist.parse("2d6")._repr_html_()
    assert "<table" in out and "<script" not in out.lower()
    assert "1 in 36.0" in out and "1 in 6.0" in out
    assert "16.7%" in out and "1/6" in out
    assert "mean 7" in out and "2.415" in out  # sd of 2d6 = sqrt(35/6)


# ---- properties ------------------------------------------------------------------------


@FAST
@given(dists, dists)
def test_mass_and_commutative(a: Dist, b: Dist) -> None:
    assert sum(a.probabilities) == 1
    assert sum((a + b).probabilities) == 1
    assert a + b == b + a


@FAST
@given(dists, dists, dists)
def test_associative(a: Dist, b: Dist, c: Dist) -> None:
    assert (a + b) + c == a + (b + c)


@FAST
@given(dists, dists)
def test_mean_and_variance_add(a: Dist, b: Dist) -> None:
    assert (a + b).mean() == a.mean() + b.mean()
    assert (a + b).variance() == a.variance() + b.variance()
    assert (a - b).variance() == a.variance() + b.variance()


@FAST
@given(sides, st.integers(min_value=1, max_value=5))
def test_highest_formula(n: int, k: int) -> None:
    expected = {m: F(m**k - (m - 1) ** k, n**k) for m in range(1, n + 1)}
    assert Dist.die(n).highest(k).pmf() == {m: p for m, p in expected.items() if p}


@FAST
@given(dists, st.integers(min_value=1, max_value=4))
def test_highest_lowest_mirror(d: Dist, k: int) -> None:
    assert d.lowest(k) == -((-d).highest(k))
    assert d.highest(k) == Dist.highest_of([d] * k)
    assert d.lowest(k) == Dist.lowest_of([d] * k)


@FAST
@given(dists, st.integers(min_value=-5, max_value=5))
def test_map(d: Dist, c: int) -> None:
    assert d.map(lambda x: x) == d
    assert d.map(lambda x: x + c) == d + c == d + Dist.constant(c)


@FAST
@given(dists, st.data())
def test_given_renormalises(d: Dist, data: st.DataObject) -> None:
    t = data.draw(st.sampled_from(d.outcomes))
    g = d.given(lambda x: x >= t)
    assert sum(g.probabilities) == 1
    assert min(g.outcomes) >= t
    tail = d.p_at_least(t)
    assert all(g.p_eq(o) == d.p_eq(o) / tail for o in g.outcomes)


# ---- icepool oracle --------------------------------------------------------------------

terms = st.lists(st.tuples(st.sampled_from("+-"), st.integers(1, 3), sides), min_size=1, max_size=3)


@FAST
@given(terms, st.integers(min_value=-6, max_value=6))
def test_expressions_match_icepool(parts: list[tuple[str, int, int]], const: int) -> None:
    expr = "".join(f"{sign}{k}d{n}" for sign, k, n in parts).lstrip("+") + f"{const:+d}"
    oracle = icepool.Die([const])
    for sign, k, n in parts:
        oracle = oracle + k @ icepool.d(n) if sign == "+" else oracle - k @ icepool.d(n)
    assert Dist.parse(expr).pmf() == icepool_pmf(oracle), expr


@FAST
@given(sides, st.integers(min_value=1, max_value=4))
def test_highest_lowest_match_icepool(n: int, k: int) -> None:
    assert Dist.die(n).highest(k).pmf() == icepool_pmf(icepool.d(n).highest(k))
    assert Dist.die(n).lowest(k).pmf() == icepool_pmf(icepool.d(n).lowest(k))


@FAST
@given(st.lists(sides, min_size=2, max_size=4))
def test_highest_of_mixed_matches_icepool(ns: list[int]) -> None:
    ours = Dist.highest_of([Dist.die(n) for n in ns])
    assert ours.pmf() == icepool_pmf(icepool.highest(*(icepool.d(n) for n in ns)))
    low = Dist.lowest_of([Dist.die(n) for n in ns])
    assert low.pmf() == icepool_pmf(icepool.lowest(*(icepool.d(n) for n in ns)))
