"""Fielded teams of builds against the Team Cap, counted exactly without listing (003 B, B3).

A fielded team is an unordered triple of legal builds (B3: each within its class cap plus
``overload_max``) whose Weights sum to at most the Team Cap, with at most ``copy_limit``
(2) copies of any part across it, chassis included (B). The arms are two mounts of one
part list: a build holding the same weapon in both hands holds two copies. With the
projected full part catalog there are about 7 million legal builds, so about 10^20
ordered triples: counting them means generating functions, never a list.

Weights and classes are all that legality and the cap see, so every count here is a
polynomial in z (z^w: Weight w) with one polynomial per class mix, and the copy limit
enters by inclusion-exclusion, in two independent halves:

* **Frames** (chassis, head, legs, back: one part each per build). With three builds a
  part breaks the limit only when all three hold it in the same slot. Inclusion-exclusion
  over the set S of slots where all three agree: the shared parts of S weigh d (D_S, a
  polynomial) and add d to each build, the free slots give each build its own
  polynomial A (per class when the chassis is free). So the number of ordered frame
  triples with frame Weights (f1, f2, f3) and no broken frame part is

      M[f1, f2, f3] = sum_S (-1)^|S| sum_d D_S[d] A[f1 - d] A[f2 - d] A[f3 - d].

* **Arms** (six mounts, two per build). A build of class c and frame Weight f may carry
  arms weighing at most ``budget = cap_c + overload_max - f``. Three or more copies of
  one arm part break the limit; two parts can both break it only by filling all six
  mounts three and three, so inclusion-exclusion stops at pairs:

      valid = all - sum_a [a >= 3 copies] + sum_{a<b} [a, b >= 3 copies each].

  Each term counts mounts per build with a marker u for copies of a (and b), and depends
  on the parts only through their Weights, so parts of equal Weight are counted once and
  multiplied. ``AV[b1, b2, b3]`` is the polynomial of the arms' Weight for budgets
  (b1, b2, b3).

Ordered triples are then ``sum M[f1,f2,f3] z^(f1+f2+f3) AV[budget(f1), ...](z)``, per
sorted class triple (ordering the classes relabels the builds, so every ordering of a
mix counts the same). Unordered teams follow by Burnside's lemma over the 3! orderings:
a triple fixed by swapping two builds is (b, b, c), and it is legal only when b's two
arms differ and c shares no part with b (each of b's parts is already at two copies);
three equal builds hold three chassis. So

      teams = (ordered + 3 * doubled) / 6,

and the division is checked to be exact. ``piloted`` counts teams with a pilot each,
all three different (B: each pilot unique): pilots tell the mechs apart, so it is
``ordered * P(P-1)(P-2) / 6`` for P pilots.

The counts pass 2^63, so the last sums are done in Python integers: see
:func:`_contract`. ``tests/skirmish/test_team_counts.py`` holds every count to
:func:`brute_force` over reduced part lists (every unordered triple listed and checked
with the rules).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from sims.core.catalog import CatalogError
from sims.skirmish import rules
from sims.skirmish.builds import enumerate_builds, slot_ids
from sims.skirmish.catalog import CLASSES, Part
from sims.skirmish.teams import CAPS

FRAME_SLOTS = ("chassis", "head", "legs", "back")  # one part per build (003 B)
NON_CHASSIS = FRAME_SLOTS[1:]
COUNTS = ("teams", "ordered", "piloted")
COUNT_TYPE = pl.Decimal(38, 0)  # counts pass 2^63: Parquet decimal128, DuckDB DECIMAL(38,0)
MIXES = tuple((a, b, 3 - a - b) for a in range(3, -1, -1) for b in range(3 - a, -1, -1))


# ---- weight tables ---------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """What team counting needs of a part list: how many parts of each Weight per slot
    (``chassis`` per class), as int64 count vectors indexed by Weight."""

    chassis: Mapping[str, np.ndarray]  # class -> count by Weight
    slots: Mapping[str, np.ndarray]  # head, legs, back -> count by Weight
    arm: np.ndarray  # arm parts (both mounts draw on them) by Weight


def weights(parts: Mapping[str, Part]) -> Weights:
    ids = slot_ids(parts)

    def counts(part_ids: Iterable[str]) -> np.ndarray:
        ws = [parts[i].weight for i in part_ids]
        if any(w < 0 for w in ws):
            raise CatalogError("parts", "team counting needs non-negative Weights")
        return np.bincount(np.asarray(ws, np.int64), minlength=1).astype(np.int64)

    return Weights(
        chassis={c: counts(i for i in ids["chassis"] if parts[i].klass == c) for c in CLASSES},
        slots={s: counts(ids[s]) for s in NON_CHASSIS},
        arm=counts(ids["arm"]),
    )


def _conv(*polys: np.ndarray) -> np.ndarray:
    out = np.ones(1, np.int64)
    for p in polys:
        out = np.convolve(out, p)
    return out


def _fit(poly: np.ndarray, length: int) -> np.ndarray:
    out = np.zeros(length, np.int64)
    out[: min(length, len(poly))] = poly[:length]
    return out


def _shifted(poly: np.ndarray, d: int, length: int) -> np.ndarray:
    """z^d poly, cut to ``length`` coefficients."""
    out = np.zeros(length, np.int64)
    if d < length:
        out[d:] = _fit(poly, length - d)
    return out


def _pconv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Polynomial products along the last axis, broadcasting the others (int64)."""
    if a.shape[-1] > b.shape[-1]:
        a, b = b, a  # loop over the shorter
    la, lb = a.shape[-1], b.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    out = np.zeros((*shape, la + lb - 1), np.int64)
    for s in range(la):
        out[..., s : s + lb] += a[..., s : s + 1] * b
    return out


# ---- frames: chassis, head, legs, back ------------------------------------------------


def _frame_terms(w: Weights) -> Iterable[tuple[int, str | None, np.ndarray, dict[str, np.ndarray]]]:
    """Inclusion-exclusion over the frame slots S where all builds share a part: for each
    S, its sign, the class fixed by a shared chassis (None if the chassis is free), the
    shared parts' Weight polynomial D_S, and each class's free-slot polynomial A."""
    for r in range(len(FRAME_SLOTS) + 1):
        for shared in itertools.combinations(FRAME_SLOTS, r):
            sign = -1 if r % 2 else 1
            free = _conv(*(w.slots[s] for s in NON_CHASSIS if s not in shared))
            common = _conv(*(w.slots[s] for s in NON_CHASSIS if s in shared))
            if "chassis" in shared:
                for c in CLASSES:
                    yield sign, c, _conv(common, w.chassis[c]), {c: free}
            else:
                yield sign, None, common, {c: _conv(free, w.chassis[c]) for c in CLASSES}


def _frame_width(w: Weights) -> int:
    top = sum(len(w.slots[s]) - 1 for s in NON_CHASSIS)
    return top + max(len(v) for v in w.chassis.values())


def _frame_tuples(w: Weights, keys: Iterable[tuple[str, ...]]) -> dict[tuple[str, ...], np.ndarray]:
    """For each class tuple in ``keys``: int64[F, ..., F], ordered tuples of frames by
    their frame Weights such that no frame part is held by every frame of the tuple,
    by the inclusion-exclusion of :func:`_frame_terms` (an outer product per term)."""
    width = _frame_width(w)
    out = {key: np.zeros((width,) * len(key), np.int64) for key in keys}
    for sign, fixed, shared, free in _frame_terms(w):
        tuples = [key for key in out if fixed is None or set(key) == {fixed}]
        for d in np.flatnonzero(shared):
            shift = {c: _shifted(a, int(d), width) for c, a in free.items()}
            for key in tuples:
                outer = functools.reduce(np.multiply.outer, (shift[c] for c in key))
                out[key] += sign * int(shared[d]) * outer
    return out


def frame_triples(w: Weights) -> dict[tuple[str, ...], np.ndarray]:
    """M per sorted class triple: int64[F, F, F], ordered frame triples by the three
    frame Weights with no frame part held by all three (at most 18000^3 < 2^63)."""
    return _frame_tuples(w, itertools.combinations_with_replacement(CLASSES, 3))


def frame_pairs(w: Weights) -> dict[tuple[str, ...], np.ndarray]:
    """For the doubled triples (b, b, c): int64[F, F] ordered pairs (frame of b, frame
    of c) by frame Weight whose frames share no part, per (class of b, class of c)."""
    return _frame_tuples(w, itertools.product(CLASSES, repeat=2))


# ---- arms: six mounts, copies counted per part -----------------------------------------


def _by_budget(poly: np.ndarray, width: int) -> np.ndarray:
    """int64[budget, Weight]: row b is ``poly`` keeping only terms of Weight <= b."""
    p = _fit(poly, width)
    return np.where(np.arange(width)[None, :] <= np.arange(width)[:, None], p[None, :], 0)


def _monomial(weight: int, coef: int, width: int) -> np.ndarray:
    return _by_budget(_shifted(np.array([coef], np.int64), weight, width), width)


def arm_triples(arm: np.ndarray) -> np.ndarray:
    """AV: int64[b1, b2, b3, Weight], ordered arm loadouts (right, left) of three builds
    with arm budgets b1, b2, b3 and no arm part on three or more mounts, by the arms'
    total Weight. Budgets run 0..2*max arm Weight (a larger budget constrains nothing)."""
    width = 2 * (len(arm) - 1) + 1  # budgets and pair Weights 0..2*max
    every = _by_budget(_conv(arm, arm), width)  # [b, w]
    out = _pconv(_pconv(every[:, None, None], every[None, :, None]), every[None, None, :])
    present = np.flatnonzero(arm)
    for alpha in present:  # - sum_a [a on >= 3 mounts], a of Weight alpha
        others = arm.copy()
        others[alpha] -= 1
        by_copies = [  # pairs holding 0, 1, 2 copies of a, per budget
            _by_budget(_conv(others, others), width),
            _by_budget(2 * _shifted(others, int(alpha), width), width),
            _monomial(2 * int(alpha), 1, width),
        ]
        first_two: dict[int, np.ndarray] = {}
        for k1, k2 in itertools.product(range(3), repeat=2):
            term = _pconv(by_copies[k1][:, None], by_copies[k2][None, :])
            first_two[k1 + k2] = first_two.get(k1 + k2, 0) + term
        for k12, pair in first_two.items():
            if k12 == 0:  # the third build alone holds at most two copies
                continue
            third = sum(by_copies[k3] for k3 in range(3 - k12, 3) if k3 >= 0)  # copies >= 3
            out -= arm[alpha] * _pconv(pair[:, :, None], third[None, None])
    for a_w, b_w in itertools.combinations_with_replacement(present, 2):
        # + sum_{a<b} [a and b on three mounts each]: every mount holds a or b
        n = arm[a_w] * arm[b_w] if a_w != b_w else arm[a_w] * (arm[a_w] - 1) // 2
        if n == 0:
            continue
        pair = [(2 * int(b_w), 1), (int(a_w + b_w), 2), (2 * int(a_w), 1)]  # j copies of a
        for js in itertools.product(range(3), repeat=3):
            if sum(js) != 3:
                continue
            fits = [np.arange(width) >= pair[j][0] for j in js]
            coef = int(np.prod([pair[j][1] for j in js]))
            weight = sum(pair[j][0] for j in js)
            out[..., weight] += (
                n
                * coef
                * (fits[0][:, None, None] & fits[1][None, :, None] & fits[2][None, None, :])
            )
    return out


def arm_doubles(arm: np.ndarray) -> np.ndarray:
    """For (b, b, c): int64[budget of b, budget of c, Weight], b's arms two different
    parts (counted twice: b is fielded twice) and c's arms avoiding both."""
    width = 2 * (len(arm) - 1) + 1
    out = np.zeros((width, width, 2 * (width - 1) + width), np.int64)
    present = np.flatnonzero(arm)
    for a_w, b_w in itertools.product(present, repeat=2):
        n = arm[a_w] * (arm[b_w] - (a_w == b_w))  # ordered (right, left), different parts
        if n == 0:
            continue
        rest = arm.copy()
        rest[a_w] -= 1
        rest[b_w] -= 1
        c_arms = _by_budget(_conv(rest, rest), width)  # [budget of c, w]
        pair = int(a_w + b_w)
        fits = (np.arange(width) >= pair)[:, None, None]
        out[:, :, 2 * pair : 2 * pair + width] += n * fits * c_arms[None]
    return out


# ---- putting frames and arms together --------------------------------------------------


def _budget_index(
    w: Weights, klass: str, params: rules.Parameters, width: int, arm_width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per frame Weight f: the arm budget index (clipped to the largest) and whether any
    budget is left (a frame over the cap by itself has no legal build)."""
    budget = rules.class_cap(klass, params) + params.overload_max - np.arange(width)
    return np.clip(budget, 0, arm_width - 1), budget >= 0


def _contract(m: np.ndarray, f_sum: np.ndarray, av: np.ndarray, top: int) -> list[int]:
    """sum over frame cells x of m[x] z^f_sum[x] av[x](z), cut at Weight ``top``, exactly.

    m (int64[X], < 2^63) times av (int64[X, W]) passes 2^63. Split m into limbs of k bits
    so that every sum of limb x av products stays below 2^63, sum each limb in int64, and
    recombine the limbs in Python integers."""
    out = [0] * (top + 1)
    if not m.size:
        return out
    x_count = av.shape[0]
    bound = int(av.max(initial=0)) * x_count
    bits = 62 - bound.bit_length()
    if bits < 1:
        raise ValueError("team counting: part list too large for exact int64 limbs")
    mask = (1 << bits) - 1
    order = np.argsort(f_sum, kind="stable")
    sums, starts = np.unique(f_sum[order], return_index=True)
    m, av = m[order], av[order]
    shift = 0
    while m.any():
        # per distinct frame Weight sum, the limb-weighted arm polynomials: int64, exact
        grouped = np.add.reduceat((m & mask)[:, None] * av, starts, axis=0)
        for fs, poly in zip(sums.tolist(), grouped, strict=True):
            for s in np.flatnonzero(poly[: max(0, top + 1 - fs)]).tolist():
                out[fs + s] += int(poly[s]) << shift
        m = m >> bits
        shift += bits
    return out


def _with_arms(
    w: Weights,
    params: rules.Parameters,
    top: int,
    frames: Mapping[tuple[str, ...], np.ndarray],
    av: np.ndarray,
    fielded: Sequence[int],
) -> dict[tuple[str, ...], list[int]]:
    """Per class tuple: sum over frame cells of frames[cell] z^Weight av[budgets](z),
    where frame axis i is fielded ``fielded[i]`` times (the doubled b counts twice) and
    a cell whose frame is over its class cap by itself has no build."""
    arm_width = av.shape[0]
    width = _frame_width(w)
    out = {}
    for key, m in frames.items():
        idx, ok = zip(*(_budget_index(w, c, params, width, arm_width) for c in key), strict=True)
        x = np.nonzero(functools.reduce(np.logical_and.outer, ok) & (m != 0))
        cells = av[tuple(i[xi] for i, xi in zip(idx, x, strict=True))]
        f_sum = sum(k * xi for k, xi in zip(fielded, x, strict=True))
        out[key] = _contract(m[x], f_sum, cells, top)
    return out


def _mix(classes: Sequence[str]) -> tuple[int, int, int]:
    n = Counter(classes)
    return n["light"], n["medium"], n["heavy"]


def _orderings(ct: Sequence[str]) -> int:
    return {1: 1, 2: 3, 3: 6}[len(set(ct))]


def check_supported(params: rules.Parameters) -> None:
    """The inclusion-exclusion above is derived for the rulebook's copy limit 2 and three
    fielded mechs (B): refuse other values in one line rather than miscount."""
    for name, value in (("copy_limit", 2), ("fielded", 3)):
        if getattr(params, name) != value:
            raise CatalogError(
                "rules.toml",
                f"team counting is derived for copy_limit 2 and "
                f"3 fielded, got {getattr(params, name)}",
                entry=name,
                field="value",
            )


def team_polynomials(
    parts: Mapping[str, Part], params: rules.Parameters, top: int = max(CAPS)
) -> dict[tuple[int, int, int], dict[str, list[int]]]:
    """Per class mix (Light, Medium, Heavy counts): ``ordered`` triples, ``doubled``
    ones (b, b, c) and unordered ``teams``, each a list of counts by team Weight 0..top."""
    check_supported(params)
    w = weights(parts)
    out = {mix: {k: [0] * (top + 1) for k in ("ordered", "doubled", "teams")} for mix in MIXES}
    ordered = _with_arms(w, params, top, frame_triples(w), arm_triples(w.arm), (1, 1, 1))
    doubled = _with_arms(w, params, top, frame_pairs(w), arm_doubles(w.arm), (2, 1))
    for ct, poly in ordered.items():
        row = out[_mix(ct)]["ordered"]
        for i, v in enumerate(poly):
            row[i] += _orderings(ct) * v
    for (cb, cc), poly in doubled.items():
        row = out[_mix((cb, cb, cc))]["doubled"]
        for i, v in enumerate(poly):
            row[i] += v
    for mix, polys in out.items():
        for i in range(top + 1):
            n = polys["ordered"][i] + 3 * polys["doubled"][i]
            if n % 6:
                raise ArithmeticError(f"team count for mix {mix} at Weight {i} is not whole")
            polys["teams"][i] = n // 6
    return out


def build_team_counts(
    parts: Mapping[str, Part], params: rules.Parameters, pilots: int, caps: Iterable[int] = CAPS
) -> pl.DataFrame:
    """Legal fielded teams of builds for every Team Cap and class mix: ``teams``
    (unordered, pilots aside), ``ordered`` triples and ``piloted`` teams (three different
    pilots of ``pilots``), as ``COUNT_TYPE`` (they pass 2^63)."""
    caps = list(caps)
    polys = team_polynomials(parts, params, max(caps))
    pilot_sets = pilots * (pilots - 1) * (pilots - 2)
    rows = []
    for mix, p in polys.items():
        teams = list(itertools.accumulate(p["teams"]))
        ordered = list(itertools.accumulate(p["ordered"]))
        for cap in caps:
            rows.append(
                {
                    "team_cap": cap,
                    "light": mix[0],
                    "medium": mix[1],
                    "heavy": mix[2],
                    "teams": teams[cap],
                    "ordered": ordered[cap],
                    "piloted": ordered[cap] * pilot_sets // 6,
                }
            )
    return pl.DataFrame(
        rows,
        schema={
            "team_cap": pl.Int16,
            "light": pl.Int8,
            "medium": pl.Int8,
            "heavy": pl.Int8,
            **dict.fromkeys(COUNTS, COUNT_TYPE),
        },
    )


# ---- brute force, for the tests --------------------------------------------------------


def brute_force(
    parts: Mapping[str, Part], params: rules.Parameters, caps: Iterable[int] = CAPS
) -> dict[tuple[int, tuple[int, int, int]], int]:
    """Every unordered triple of legal builds listed and checked: ``{(cap, mix): teams}``.
    Independent of the generating functions above: each build is a row of part copies
    (both arms into one arm column per part), a triple is legal when no column of the
    three rows' sum passes ``copy_limit`` and its Weight is within the cap. For small
    part lists only (the third build is a vectorized axis, the first two a loop)."""
    b = enumerate_builds(parts, params)
    legal = np.flatnonzero(b.legal)
    n_parts = {s: len(b.ids[s]) for s in ("chassis", "head", "arm", "legs", "back")}
    offset = dict(zip(n_parts, itertools.accumulate([0, *n_parts.values()]), strict=False))
    held = np.zeros((len(legal), sum(n_parts.values())), np.int8)
    rows = np.arange(len(legal))
    for field, slot in (
        ("chassis", "chassis"),
        ("head", "head"),
        ("right_arm", "arm"),
        ("left_arm", "arm"),
        ("legs", "legs"),
        ("back", "back"),
    ):
        np.add.at(held, (rows, offset[slot] + getattr(b, field)[legal]), 1)
    weight = b.weight[legal].astype(np.int64)
    light, medium = (b.klass[legal] == 0).astype(np.int64), (b.klass[legal] == 1).astype(np.int64)
    tally = np.zeros((3 * int(weight.max(initial=0)) + 1, 4, 4), np.int64)  # Weight, L, M
    for i in range(len(legal)):
        for j in range(i, len(legal)):
            k = np.arange(j, len(legal))
            k = k[(held[i] + held[j] + held[k]).max(axis=1) <= params.copy_limit]
            np.add.at(
                tally,
                (
                    weight[i] + weight[j] + weight[k],
                    light[i] + light[j] + light[k],
                    medium[i] + medium[j] + medium[k],
                ),
                1,
            )
    upto = np.cumsum(tally, axis=0)
    return {
        (cap, mix): int(upto[min(cap, len(upto) - 1), mix[0], mix[1]])
        for cap in caps
        for mix in MIXES
    }
