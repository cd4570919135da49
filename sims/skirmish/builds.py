"""Every legal mech: enumeration of Skirmish builds (003 B3, B4, C, F4).

A build is one part per slot: Chassis x Head x Right Arm x Left Arm x Legs x Back (003 B:
arms are two slots and may hold the same part; pilots are left out, they weigh nothing).
Its Weight is the sum of the six parts; it may exceed its chassis class cap by at most
``overload_max`` (10), each ``overload_step`` (5) over, or part thereof, costing 1 Speed
and 1 Evasion (B4).

Enumeration is vectorized. The only Python loop is over chassis: for one chassis the
other five slots are the axes of a grid of H x A x A x G x B builds. Each slot's per-part
stat vector is laid along its own axis, so the rule functions below, applied to those
vectors, broadcast to every combination at once; raveling the grid (C order: head
slowest, back fastest) gives one value per build, and each build's part indices are
the axes' ``arange`` broadcast the same way. Bands are computed once per distinct
combination of Sizes and looked up. The formulas are ``rules.py``'s own (overload,
derived stats, bands: written once for ints and arrays); ``tests/skirmish/test_builds.py``
holds the rows to ``rules.mech_stats`` and the whole playable enumeration to a
brute-force ``itertools.product``.

Two part lists (:func:`load_parts`): ``playable`` (the catalog's ``parts.toml``, 121,000
builds) and ``full``, the projected five-runner catalog ``parts_full.toml`` (003 K; all
``assumed``, written by ``make_full_catalog.py``; 7,200,000 builds).

Rows (:func:`build_rows`, one per build; all builds with the ``legal`` flag unless
``legal_only``, so the rows also show what the cap refuses and by how much): the columns
``experiments.BUILD_COLUMNS`` declares (``mechbal simulate skirmish builds --describe``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core.catalog import CatalogError, apply_overrides, load_toml
from sims.skirmish import rules
from sims.skirmish.catalog import (
    CLASSES,
    GAME,
    KIT_SLOTS,
    Part,
    _load_parts,
    load_catalog,
)

FULL_FILE = "parts_full.toml"
WHICH = ("full", "playable")
# The six build slots (kit order) and the catalog slot each takes its part from.
BUILD_SLOTS = KIT_SLOTS  # chassis, head, right_arm, left_arm, legs, back
GRID_SLOTS = BUILD_SLOTS[1:]  # the axes of one chassis's build grid
CATALOG_SLOT = {
    "chassis": "chassis",
    "head": "head",
    "right_arm": "arm",
    "left_arm": "arm",
    "legs": "legs",
    "back": "back",
}
# 003 F4 silhouette order, as build slots (the chassis is the core).
SILHOUETTE_SLOTS = ("head", "right_arm", "left_arm", "chassis", "back", "legs")
SlotIds = Mapping[str, tuple[str, ...]]  # part ids per catalog slot
SlotVectors = Mapping[str, Mapping[str, np.ndarray]]  # [catalog slot][stat] -> int16[parts]
BAND_COLUMNS = tuple(f"band_{name}" for name in rules.SILHOUETTE)
STATS = (
    "size",
    "armor",
    "durability",
    "weight",
    "evasion",
    "speed",
    "sensors",
    "e_def",
    "reactor",
    "acc",
)


# ---- part lists ------------------------------------------------------------------------


def load_parts(
    catalog_root: Path | str,
    which: str = "full",
    *,
    game_dir: bool = False,
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, Part]:
    """The parts to enumerate: ``playable`` (the catalog's parts.toml, loaded and checked
    with the whole catalog) or ``full`` (parts_full.toml, checked exactly like parts.toml:
    a bad entry is one CatalogError line naming file, part and field).

    ``catalog_root`` holds one folder per game (``catalogs/``), or with ``game_dir`` is
    the skirmish folder. ``overrides`` are ``--set`` edits; only ``part.ID.FIELD`` ones
    concern the part list (``full`` applies them to parts_full.toml)."""
    if which not in WHICH:
        raise CatalogError("--parts", f"unknown part list {which!r} (full or playable)")
    folder = Path(catalog_root) if game_dir else Path(catalog_root) / GAME
    if which == "playable":
        return load_catalog(folder, game_dir=True, overrides=overrides).parts
    path = folder / FULL_FILE
    docs = {FULL_FILE: load_toml(path), "rules.toml": {}}
    part_edits = {k: v for k, v in (overrides or {}).items() if k.startswith("part.")}
    apply_overrides(docs, part_edits, {"part": FULL_FILE}, "rules.toml")
    return _load_parts(path, docs[FULL_FILE])


def slot_ids(parts: Mapping[str, Part]) -> dict[str, tuple[str, ...]]:
    """Part ids per catalog slot (chassis, head, arm, legs, back), in file order; a
    build's part index in a slot points into these."""
    return {
        s: tuple(p.id for p in parts.values() if p.slot == s)
        for s in dict.fromkeys(CATALOG_SLOT.values())
    }


def _stat_vectors(parts: Mapping[str, Part]) -> dict[str, dict[str, np.ndarray]]:
    """``vec[slot][stat]``: int16[parts of that slot], stats not carried being 0 (C)."""
    ids = slot_ids(parts)
    return {
        slot: {
            stat: np.array([getattr(parts[i], stat) for i in ids[slot]], np.int16) for stat in STATS
        }
        for slot in ids
    }


# ---- the rules, over arrays: rules.py's own formulas ------------------------------------


def overload_penalty(over: Any, step: int) -> Any:
    """003 B4 (``rules.overload_steps``): ceil(over / step) above the cap, else 0."""
    return rules.overload_steps(over, step)


def is_legal(over: Any, params: rules.Parameters) -> Any:
    """003 B4 (``Parameters.within_overload``): at most ``overload_max`` over the cap."""
    return params.within_overload(over)


bands = rules.bands_of  # 003 F4 for many silhouettes at once: int[N, 6] -> int8[N, 6]


# ---- enumeration -----------------------------------------------------------------------


@dataclass(frozen=True)
class Builds:
    """Builds as parallel arrays (index n = one build); part fields index
    ``ids[CATALOG_SLOT[slot]]``. Dtypes as in the module docstring's rows."""

    ids: SlotIds  # part ids per catalog slot (see slot_ids)
    chassis: np.ndarray  # int16[N]
    head: np.ndarray  # int16[N]
    right_arm: np.ndarray  # int16[N]  index into ids["arm"]
    left_arm: np.ndarray  # int16[N]  index into ids["arm"]
    legs: np.ndarray  # int16[N]
    back: np.ndarray  # int16[N]
    klass: np.ndarray  # int8[N]  index into CLASSES: 0 light, 1 medium, 2 heavy
    weight: np.ndarray  # int16[N]
    cap: np.ndarray  # int16[N]
    over: np.ndarray  # int16[N]  weight - cap
    overload: np.ndarray  # int16[N]  B4 penalty
    legal: np.ndarray  # bool[N]
    evasion: np.ndarray  # int16[N]  without a pilot
    speed: np.ndarray  # int16[N]
    sensors: np.ndarray  # int16[N]
    e_def: np.ndarray  # int16[N]  without a pilot
    reactor_cap: np.ndarray  # int16[N]
    hull: np.ndarray  # int16[N]
    head_acc: np.ndarray  # int8[N]
    bands: np.ndarray  # int8[N, 6]  silhouette order

    def __len__(self) -> int:
        return len(self.weight)

    @staticmethod
    def array_fields() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Builds) if f.name != "ids")

    def select(self, which: slice | np.ndarray) -> Builds:
        """The builds at a slice, a boolean mask or an index array."""
        arrays = {name: getattr(self, name)[which] for name in self.array_fields()}
        return Builds(ids=self.ids, **arrays)

    @staticmethod
    def concat(ids: SlotIds, blocks: Sequence[Builds]) -> Builds:
        arrays = {}
        for name in Builds.array_fields():
            parts = [getattr(b, name) for b in blocks]
            arrays[name] = np.concatenate(parts) if parts else _empty(name)
        return Builds(ids=ids, **arrays)


def _empty(name: str) -> np.ndarray:
    if name == "bands":
        return np.zeros((0, 6), np.int8)
    dtype = {"legal": bool, "klass": np.int8, "head_acc": np.int8}.get(name, np.int16)
    return np.zeros(0, dtype)


def _chassis_indices(ids: SlotIds, chassis_ids: Iterable[str] | None) -> list[int]:
    known = ids["chassis"]
    if chassis_ids is None:
        return list(range(len(known)))
    out = []
    for cid in chassis_ids:
        if cid not in known:
            raise CatalogError("chassis", f"unknown chassis {cid!r} (known: {', '.join(known)})")
        out.append(known.index(cid))
    return out


def _grid_shape(ids: SlotIds) -> tuple[int, ...]:
    """Parts per build slot after the chassis: head, right arm, left arm, legs, back."""
    return tuple(len(ids[CATALOG_SLOT[s]]) for s in GRID_SLOTS)


def _along(slot: str, values: np.ndarray) -> np.ndarray:
    """A per-part vector of ``slot`` laid along that slot's axis of the build grid, so
    that arithmetic between slots broadcasts to every combination."""
    shape = [1] * len(GRID_SLOTS)
    shape[GRID_SLOTS.index(slot)] = -1
    return values.reshape(shape)


def _block_bands(chassis_size: int, vec: SlotVectors, shape: tuple[int, ...]) -> np.ndarray:
    """003 F4 bands of every build on one chassis: int8[N, 6].

    Bands depend on the six Sizes alone, and a chassis block holds only a few hundred
    distinct Size combinations: compute :func:`bands` once per combination, then give
    each build its combination's row (index arithmetic, no loop)."""
    others = [s for s in SILHOUETTE_SLOTS if s != "chassis"]
    distinct = {s: np.unique(vec[CATALOG_SLOT[s]]["size"], return_inverse=True) for s in others}
    dims = tuple(len(distinct[s][0]) for s in others)
    combos = np.indices(dims).reshape(len(dims), -1)  # [slot, combination]: distinct-Size index
    columns = {s: distinct[s][0][combos[k]] for k, s in enumerate(others)}
    columns["chassis"] = np.full(combos.shape[1], chassis_size)
    table = rules.bands_of(np.stack([columns[s] for s in SILHOUETTE_SLOTS], axis=1))
    which = [np.broadcast_to(_along(s, distinct[s][1].ravel()), shape) for s in others]
    return table[np.ravel_multi_index(which, dims).ravel()]  # each build's combination


def _block(c: int, ids: SlotIds, vec: SlotVectors, params: rules.Parameters, klass: str) -> Builds:
    """Every build on chassis ``c``: the grid of the five other slots, by broadcasting."""
    shape = _grid_shape(ids)
    n = int(np.prod(shape))
    if n == 0:  # a slot without parts: no builds
        return Builds.concat(ids, [])

    def part(slot: str, stat: str) -> Any:
        """That slot's part stat along the grid (the chassis's: one number per block)."""
        table = vec[CATALOG_SLOT[slot]][stat]
        return int(table[c]) if slot == "chassis" else _along(slot, table)

    def col(values: Any, dtype: type = np.int16) -> np.ndarray:
        """One value per build, in grid order (head slowest, back fastest)."""
        return np.broadcast_to(np.asarray(values, dtype), shape).reshape(n)

    weight = sum(part(s, "weight") for s in BUILD_SLOTS)  # 003 B3
    cap = rules.class_cap(klass, params)  # 003 B3
    over = weight - cap
    penalty = rules.overload_steps(over, params.overload_step)  # 003 B4
    index = {s: col(_along(s, np.arange(k))) for s, k in zip(GRID_SLOTS, shape, strict=True)}
    return Builds(
        ids=ids,
        chassis=np.full(n, c, np.int16),
        **index,
        klass=np.full(n, CLASSES.index(klass), np.int8),
        weight=col(weight),
        cap=np.full(n, cap, np.int16),
        over=col(over),
        overload=col(penalty),
        legal=col(params.within_overload(over), bool),
        # 003 C without a pilot (Piloting and Systems 0)
        evasion=col(
            rules.evasion(part("chassis", "evasion"), part("legs", "evasion"), 0, penalty, params)
        ),
        speed=col(rules.speed(part("chassis", "speed"), part("legs", "speed"), penalty, params)),
        sensors=col(
            rules.sensors(
                part("chassis", "sensors"), part("head", "sensors"), part("back", "sensors")
            )
        ),
        e_def=col(rules.e_def(part("chassis", "e_def"), part("head", "e_def"), 0)),
        reactor_cap=col(rules.reactor_cap(part("chassis", "reactor"), part("back", "reactor"))),
        hull=col(sum(part(s, "durability") for s in BUILD_SLOTS)),
        head_acc=col(part("head", "acc"), np.int8),
        bands=_block_bands(int(vec["chassis"]["size"][c]), vec, shape),
    )


def enumerate_builds(
    parts: Mapping[str, Part], params: rules.Parameters, chassis_ids: Iterable[str] | None = None
) -> Builds:
    """Every combination Chassis x Head x Right Arm x Left Arm x Legs x Back of ``parts``
    (legal or not: see ``legal``), chassis by chassis in file order (or ``chassis_ids``);
    within a chassis, head slowest and back fastest."""
    ids = slot_ids(parts)
    vec = _stat_vectors(parts)
    blocks = [
        _block(c, ids, vec, params, parts[ids["chassis"][c]].klass)
        for c in _chassis_indices(ids, chassis_ids)
    ]
    return Builds.concat(ids, blocks)


def count_legal(parts: Mapping[str, Part], params: rules.Parameters) -> dict[str, dict[str, int]]:
    """Builds per class without enumerating their stats: for each class (and ``all``),
    ``builds`` (combinations), ``legal`` (within the cap + overload_max) and
    ``overloaded`` (legal but over the cap). Weight only, by broadcasting."""
    ids, vec = slot_ids(parts), _stat_vectors(parts)
    out = {k: {"builds": 0, "legal": 0, "overloaded": 0} for k in (*CLASSES, "all")}
    # the five other slots' Weight over the whole grid, the same for every chassis (B3)
    rest = np.asarray(sum(_along(s, vec[CATALOG_SLOT[s]]["weight"]) for s in GRID_SLOTS))
    for c, cid in enumerate(ids["chassis"]):
        klass = parts[cid].klass
        over = int(vec["chassis"]["weight"][c]) + rest - rules.class_cap(klass, params)
        legal = params.within_overload(over)
        counts = {
            "builds": over.size,
            "legal": int(legal.sum()),
            "overloaded": int((legal & (over > 0)).sum()),
        }
        for key in (klass, "all"):
            for name, value in counts.items():
                out[key][name] += value
    return out


# ---- rows --------------------------------------------------------------------------------


def build_rows(
    builds: Builds,
    parts: Mapping[str, Part],
    chunk: slice = slice(None),
    *,
    legal_only: bool = False,
) -> pa.Table:
    """Rows for Parquet (columns in the module docstring): the builds in ``chunk`` (a
    slice of ``builds``), all of them with their ``legal`` flag, or only the legal ones.
    ``parts`` must be the part list the builds were enumerated from."""
    ids = slot_ids(parts)
    if dict(ids) != dict(builds.ids):
        raise ValueError("builds were enumerated from another part list")
    rows = builds.select(chunk)
    if legal_only:
        rows = rows.select(rows.legal)

    def names(indices: np.ndarray, dictionary: Sequence[str]) -> pa.DictionaryArray:
        return pa.DictionaryArray.from_arrays(pa.array(indices), pa.array(dictionary, pa.string()))

    cols: dict[str, Any] = {
        slot: names(getattr(rows, slot), ids[CATALOG_SLOT[slot]]) for slot in BUILD_SLOTS
    }
    cols["class"] = names(rows.klass, CLASSES)
    for name in (
        "weight",
        "cap",
        "over",
        "overload",
        "legal",
        "evasion",
        "speed",
        "sensors",
        "e_def",
        "reactor_cap",
        "hull",
        "head_acc",
    ):
        cols[name] = getattr(rows, name)
    for i, name in enumerate(BAND_COLUMNS):
        cols[name] = np.ascontiguousarray(rows.bands[:, i])
    return pa.table(cols)
