"""Exact discrete distributions for dice maths, shared by every game in mechbal.

Probabilities are `fractions.Fraction` throughout so that tables are exact and comparisons
between games never drift; floats appear only in display columns (`to_frame`, HTML).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational
from typing import Any

import polars as pl

__all__ = ["Dist", "fraction_str"]

Outcome = int
Exact = int | Fraction | str

_TERM = r"(\d*)d(\d+)|(\d+)"
_EXPR = re.compile(rf"[+-]?(?:{_TERM})(?:[+-](?:{_TERM}))*")
_PIECE = re.compile(rf"([+-]?)(?:{_TERM})")


def fraction_str(x: Fraction | int) -> str:
    """Render exactly as "a/b" in lowest terms, or as a bare integer ("0", "1", "3")."""
    x = _exact(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _text(x: Any) -> str:
    """:func:`fraction_str` of a Fraction without its re-check (tables hold ~75,000)."""
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return fraction_str(x)


def exact_frame(
    rows: Iterable[Mapping[str, Any]] | Iterable[Sequence[Any]],
    exact: Iterable[str],
    names: Sequence[str] | None = None,
) -> pl.DataFrame:
    """An exact table's frame: the one place its floats are made. ``rows`` are dicts (or
    sequences in ``names`` order) whose ``exact`` columns hold Fractions; each of those is
    written as text ``a/b`` with ``<column>_float``, its value as a float, right after it;
    the other columns keep their values, in the rows' order."""
    exact = set(exact)
    rows = list(rows)
    if names is None:
        names = list(dict.fromkeys(k for row in rows for k in row))
        rows = [[row.get(n) for n in names] for row in rows]
    data: dict[str, pl.Series] = {}
    for i, name in enumerate(names):
        values = [row[i] for row in rows]
        if name in exact:
            data[name] = pl.Series(name, [_text(v) for v in values], pl.String)
            data[f"{name}_float"] = pl.Series([float(v) for v in values], dtype=pl.Float64)
        else:
            data[name] = pl.Series(name, values)
    return pl.DataFrame(data)


def _exact(x: Exact) -> Fraction:
    # A float has already lost the value the caller meant (0.1 is not 1/10), so refuse it.
    if not isinstance(x, Rational | str):
        raise TypeError(f"expected an exact number (int, Fraction or 'a/b'), got {x!r}")
    return Fraction(x)


def _one_in(p: Fraction) -> str:
    return "—" if p == 0 else f"1 in {float(1 / p):,.1f}"


@dataclass(frozen=True)
class Dist:
    """Immutable distribution: `items` is a sorted tuple of (outcome, probability) pairs."""

    items: tuple[tuple[Outcome, Fraction], ...]

    def __post_init__(self) -> None:
        # The representation is canonical (sorted, merged, no zeros, exact), which is what
        # makes the generated __eq__ and __hash__ compare distributions by content.
        if not self.items:
            raise ValueError("a distribution needs at least one outcome")
        outcomes = [o for o, _ in self.items]
        if any(a >= b for a, b in zip(outcomes, outcomes[1:], strict=False)):
            raise ValueError("outcomes must be strictly increasing")
        for o, p in self.items:
            if not isinstance(p, Fraction) or not 0 < p <= 1:
                raise ValueError(f"probability of {o!r} must be a Fraction in (0, 1], got {p!r}")
        if sum(p for _, p in self.items) != 1:
            raise ValueError("probabilities must sum to exactly 1")

    # ---- constructors -------------------------------------------------------------------

    @classmethod
    def _make(cls, pairs: Iterable[tuple[Outcome, Fraction]]) -> Dist:
        merged: dict[Outcome, Fraction] = {}
        for o, p in pairs:
            merged[o] = merged.get(o, Fraction(0)) + p
        return cls(tuple(sorted((o, Fraction(p)) for o, p in merged.items() if p != 0)))

    @classmethod
    def from_weights(cls, weights: Mapping[Outcome, Exact]) -> Dist:
        """Normalise non-negative exact weights (ints or Fractions) into a distribution."""
        w = {o: _exact(x) for o, x in weights.items()}
        if any(x < 0 for x in w.values()):
            raise ValueError("weights must be non-negative")
        total = sum(w.values(), Fraction(0))
        if total == 0:
            raise ValueError("weights must not all be zero")
        return cls._make((o, x / total) for o, x in w.items())

    @classmethod
    def constant(cls, v: Outcome) -> Dist:
        """Always `v`."""
        return cls(((v, Fraction(1)),))

    @classmethod
    def die(cls, n: int) -> Dist:
        """A fair die numbered 1..n."""
        if n < 1:
            raise ValueError(f"die size must be at least 1, got {n}")
        return cls(tuple((i, Fraction(1, n)) for i in range(1, n + 1)))

    @classmethod
    def bernoulli(cls, p: Exact) -> Dist:
        """1 with probability p, else 0."""
        p = _exact(p)
        if not 0 <= p <= 1:
            raise ValueError(f"probability must be in [0, 1], got {p}")
        return cls._make([(0, 1 - p), (1, p)])

    @classmethod
    def binomial(cls, n: int, p: Exact) -> Dist:
        """Number of successes in n independent trials of probability p."""
        p = _exact(p)
        if n < 0 or not 0 <= p <= 1:
            raise ValueError(f"binomial needs n >= 0 and 0 <= p <= 1, got n={n}, p={p}")
        return cls._make((k, math.comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1))

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Exact, Dist]]) -> Dist:
        """Pick a component with probability proportional to its weight, then draw from it."""
        parts = [(_exact(w), d) for w, d in parts]
        if any(w < 0 for w, _ in parts):
            raise ValueError("mixture weights must be non-negative")
        total = sum((w for w, _ in parts), Fraction(0))
        if total == 0:
            raise ValueError("mixture weights must not all be zero")
        return cls._make((o, w / total * p) for w, d in parts for o, p in d.items)

    @classmethod
    def parse(cls, expr: str) -> Dist:
        """Parse a dice expression such as "d6", "2d6+1d8", "1d6+4" or "2d6-1"."""
        text = re.sub(r"\s+", "", str(expr)).lower()
        if not _EXPR.fullmatch(text):
            raise ValueError(f"bad dice expression {expr!r}: expected like 2d6, 1d6+4")
        total = cls.constant(0)
        for sign, count, sides, const in _PIECE.findall(text):
            if const:
                term = cls.constant(int(const))
            else:
                k, n = int(count or 1), int(sides)
                if k < 1 or n < 1:
                    raise ValueError(f"bad dice expression {expr!r}: need 1+ dice of 1+ sides")
                term = cls.die(n).repeat(k)
            total = total - term if sign == "-" else total + term
        return total

    # ---- combining ----------------------------------------------------------------------

    def _scaled(self) -> tuple[dict[Outcome, int], int]:
        # Convolving integer numerators over a common denominator avoids a gcd per product.
        den = math.lcm(*(p.denominator for _, p in self.items))
        return {o: p.numerator * (den // p.denominator) for o, p in self.items}, den

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return Dist(tuple((o + other, p) for o, p in self.items))
        if not isinstance(other, Dist):
            return NotImplemented
        (a, da), (b, db) = self._scaled(), other._scaled()
        acc: dict[Outcome, int] = {}
        for x, wx in a.items():
            for y, wy in b.items():
                acc[x + y] = acc.get(x + y, 0) + wx * wy
        return Dist._make((o, Fraction(w, da * db)) for o, w in acc.items())

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist(tuple((-o, p) for o, p in reversed(self.items)))

    def __sub__(self, other: Dist | int) -> Dist:
        if not isinstance(other, Dist | int):
            return NotImplemented
        return self + (-other)

    def __rsub__(self, other: int) -> Dist:
        return -self + other

    def repeat(self, k: int) -> Dist:
        """Sum of k independent copies (k = 0 gives the constant 0)."""
        if k < 0:
            raise ValueError(f"cannot sum a negative number of copies ({k})")
        result, power = Dist.constant(0), self
        while k:  # repeated squaring: O(log k) convolutions
            if k & 1:
                result = result + power
            k >>= 1
            if k:
                power = power + power
        return result

    sum_of = repeat

    @staticmethod
    def _from_cdf(xs: Sequence[Outcome], cdf: Sequence[Fraction]) -> Dist:
        return Dist._make((x, f - prev) for x, f, prev in zip(xs, cdf, [0, *cdf], strict=False))

    @staticmethod
    def _from_sf(xs: Sequence[Outcome], sf: Sequence[Fraction]) -> Dist:
        return Dist._make((x, s - nxt) for x, s, nxt in zip(xs, sf, [*sf[1:], 0], strict=True))

    def _cdf_at(self, xs: Sequence[Outcome]) -> list[Fraction]:
        out, acc, i = [], Fraction(0), 0
        for x in xs:
            while i < len(self.items) and self.items[i][0] <= x:
                acc += self.items[i][1]
                i += 1
            out.append(acc)
        return out

    def _sf_at(self, xs: Sequence[Outcome]) -> list[Fraction]:
        # Only valid when xs covers the support: then P(X < x_j) = F(x_{j-1}).
        return [1 - f for f in [Fraction(0), *self._cdf_at(xs)[:-1]]]

    def highest(self, k: int) -> Dist:
        """Highest of k independent copies, via P(max <= x) = F(x)^k."""
        xs = self.outcomes
        return Dist._from_cdf(xs, [f ** _positive(k) for f in self._cdf_at(xs)])

    def lowest(self, k: int) -> Dist:
        """Lowest of k independent copies, via P(min >= x) = S(x)^k."""
        xs = self.outcomes
        return Dist._from_sf(xs, [s ** _positive(k) for s in self._sf_at(xs)])

    @staticmethod
    def highest_of(dists: Sequence[Dist]) -> Dist:
        """Highest of independent, possibly different, distributions."""
        xs = sorted({o for d in _nonempty(dists) for o in d.outcomes})
        cdfs = [d._cdf_at(xs) for d in dists]
        return Dist._from_cdf(xs, [math.prod(c) for c in zip(*cdfs, strict=True)])

    @staticmethod
    def lowest_of(dists: Sequence[Dist]) -> Dist:
        """Lowest of independent, possibly different, distributions."""
        xs = sorted({o for d in _nonempty(dists) for o in d.outcomes})
        sfs = [d._sf_at(xs) for d in dists]
        return Dist._from_sf(xs, [math.prod(c) for c in zip(*sfs, strict=True)])

    def map(self, f: Callable[[Outcome], Outcome]) -> Dist:
        """Apply f to every outcome, merging outcomes that land on the same value."""
        return Dist._make((f(o), p) for o, p in self.items)

    def given(self, pred: Callable[[Outcome], bool]) -> Dist:
        """Condition on pred(outcome) being true."""
        total = self.p(pred)
        if total == 0:
            raise ValueError("cannot condition on an event of probability 0")
        return Dist._make((o, p / total) for o, p in self.items if pred(o))

    # ---- queries ------------------------------------------------------------------------

    def p(self, pred: Callable[[Outcome], bool]) -> Fraction:
        """Probability that pred(outcome) holds."""
        return sum((p for o, p in self.items if pred(o)), Fraction(0))

    def p_eq(self, v: Outcome) -> Fraction:
        return self.p(lambda o: o == v)

    def p_at_least(self, t: Any) -> Fraction:
        return self.p(lambda o: o >= t)

    def p_at_most(self, t: Any) -> Fraction:
        return self.p(lambda o: o <= t)

    def mean(self) -> Fraction:
        return sum((o * p for o, p in self.items), Fraction(0))

    def variance(self) -> Fraction:
        m = self.mean()
        return sum(((o - m) ** 2 * p for o, p in self.items), Fraction(0))

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(o for o, _ in self.items)

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        return tuple(p for _, p in self.items)

    def pmf(self) -> dict[Outcome, Fraction]:
        return dict(self.items)

    def cdf(self) -> dict[Outcome, Fraction]:
        """P(X <= x) for each outcome x."""
        return dict(zip(self.outcomes, self._cdf_at(self.outcomes), strict=True))

    def sf(self) -> dict[Outcome, Fraction]:
        """P(X >= x) for each outcome x."""
        return dict(zip(self.outcomes, self._sf_at(self.outcomes), strict=True))

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[tuple[Outcome, Fraction]]:
        return iter(self.items)

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {fraction_str(p)}" for o, p in self.items)
        return f"Dist({{{body}}})"

    # ---- display ------------------------------------------------------------------------

    def to_frame(self, name: str = "value") -> pl.DataFrame:
        """One row per outcome; probabilities as exact strings with float columns beside."""
        # Strings, not integers: numerators of long convolutions overflow int64.
        cols: dict[str, list[Any]] = {name: list(self.outcomes)}
        for col, ps in (
            ("p", self.probabilities),
            ("p_at_least", self.sf().values()),
            ("p_at_most", self.cdf().values()),
        ):
            cols[col] = [fraction_str(p) for p in ps]
            cols[f"{col}_float"] = [float(p) for p in ps]
        return pl.DataFrame(cols)

    def _repr_html_(self) -> str:
        def cell(p: Fraction) -> str:
            bar = (
                f'<div style="width:80px;height:8px;background:#eee;display:inline-block">'
                f'<div style="width:{float(p) * 100:.1f}%;height:8px;background:#4c78a8">'
                f"</div></div>"
            )
            text = f"{fraction_str(p)} · {float(p) * 100:.1f}% · {_one_in(p)}"
            return f'<td style="padding:1px 8px;white-space:nowrap">{bar} {html.escape(text)}</td>'

        cdf, sf = self.cdf(), self.sf()
        rows = "".join(
            f'<tr><td style="text-align:right;padding:1px 8px">{html.escape(str(o))}</td>'
            f"{cell(p)}{cell(sf[o])}{cell(cdf[o])}</tr>"
            for o, p in self.items
        )
        m, sd = self.mean(), math.sqrt(self.variance())
        caption = f"mean {fraction_str(m)} ≈ {float(m):.3f}, standard deviation ≈ {sd:.3f}"
        head = "".join(f"<th>{h}</th>" for h in ("outcome", "P(=)", "P(≥)", "P(≤)"))
        return (
            f'<table style="border-collapse:collapse;font-size:12px">'
            f"<caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )


def _positive(k: int) -> int:
    if k < 1:
        raise ValueError(f"need at least one copy, got k={k}")
    return k


def _nonempty(dists: Sequence[Dist]) -> Sequence[Dist]:
    if not dists:
        raise ValueError("need at least one distribution")
    return dists
