"""Build enumeration (sims/skirmish/builds.py) against brute force and rules.py (003 B, C, F4),
and the projected full part catalog (catalogs/skirmish/parts_full.toml, 003 K)."""

from __future__ import annotations

import functools
import itertools
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sims.core.catalog import CatalogError
from sims.skirmish import builds, make_full_catalog, rules
from sims.skirmish.catalog import CLASSES, RUNNERS, SLOTS, Catalog, Mech, Part, Pilot

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "catalogs"
FULL_PATH = CATALOGS / "skirmish" / builds.FULL_FILE
NO_PILOT = Pilot(
    id="nobody",
    name="Nobody",
    faction="tessellate",
    specialty="scout",
    gunnery=0,
    piloting=0,
    systems=0,
    initiative=0,
    ability="",
    ability_kind="acc",
    ability_value=0,
    bonds=(),
    provenance="assumed",
)
STAT_FIELDS = (
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
)


@pytest.fixture(scope="module")
def playable() -> dict[str, Part]:
    return builds.load_parts(CATALOGS, "playable")


@pytest.fixture(scope="module")
def full() -> dict[str, Part]:
    return builds.load_parts(CATALOGS, "full")


@pytest.fixture(scope="module")
def enumerated(playable: dict[str, Part], skirmish: Catalog) -> builds.Builds:
    return builds.enumerate_builds(playable, skirmish.params)


def by_slot(parts: dict[str, Part], slot: str) -> list[Part]:
    return [p for p in parts.values() if p.slot == slot]


def mech(parts: dict[str, Part], b: builds.Builds, n: int, pilot: Pilot = NO_PILOT) -> Mech:
    """Build number ``n`` as a rules.Mech."""
    pick = {
        slot: parts[b.ids[builds.CATALOG_SLOT[slot]][int(getattr(b, slot)[n])]]
        for slot in builds.BUILD_SLOTS
    }
    return Mech(name=f"build{n}", pilot=pilot, **pick)


def find(b: builds.Builds, **ids: str) -> int:
    """The index of the one build with these part ids."""
    mask = np.ones(len(b), bool)
    for slot, ident in ids.items():
        mask &= getattr(b, slot) == b.ids[builds.CATALOG_SLOT[slot]].index(ident)
    (hits,) = np.nonzero(mask)
    assert len(hits) == 1, ids
    return int(hits[0])


# ---- the rules over arrays against rules.py ----------------------------------------------


def test_overload_at_5_and_6_over(skirmish: Catalog):
    over = np.array([-7, 0, 1, 4, 5, 6, 9, 10, 11, 15, 16])
    penalty = builds.overload_penalty(over, 5)
    assert penalty.tolist() == [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4]  # 003 B4: 5 over costs 1, 6 two
    assert builds.is_legal(over, skirmish.params).tolist() == [True] * 8 + [False] * 3
    assert builds.overload_penalty(5, 5) == 1 and builds.overload_penalty(6, 5) == 2  # ints too


def test_overload_matches_rules_scalar(skirmish: Catalog):
    weights = np.arange(0, 121)
    for step in range(1, 11):
        params = replace(skirmish.params, overload_step=step)
        for cap in (35, 50, 65):
            want = [rules.overload_penalty(int(w), cap, params) for w in weights]
            assert builds.overload_penalty(weights - cap, step).tolist() == want


@pytest.mark.parametrize("k", [6, 4, 3])
def test_bands_match_rules_on_random_sizes(k: int):
    rng = np.random.default_rng(6)
    # small Sizes make many ties in remainder and Size; a few rows with zeros
    sizes = np.concatenate([rng.integers(1, 9, (4000, k)), rng.integers(0, 41, (2000, k))])
    sizes = sizes[sizes.sum(axis=1) > 0]
    got = builds.bands(sizes)
    assert got.dtype == np.int8 and (got.sum(axis=1) == 20).all()
    for row, band in zip(sizes.tolist(), got.tolist(), strict=True):
        assert tuple(band) == rules.bands(row), row


def test_bands_hand_cases():
    cases = {
        (2, 5, 5, 10, 3, 8): (1, 3, 3, 6, 2, 5),
        (1, 1, 1, 1, 1, 1): (4, 4, 3, 3, 3, 3),
        (3, 3, 1, 1, 1, 1): (6, 6, 2, 2, 2, 2),
        (1, 1, 3, 3): (2, 2, 8, 8),
    }
    for sizes, want in cases.items():
        assert tuple(builds.bands(np.array([sizes]))[0]) == want == rules.bands(sizes)
    with pytest.raises(ValueError):
        builds.bands(np.array([[0, 0, 0]]))


# ---- the playable catalog: brute force ----------------------------------------------------


def test_playable_brute_force(
    playable: dict[str, Part], enumerated: builds.Builds, skirmish: Catalog
):
    """Every one of 8 x 5 x 11 x 11 x 5 x 5 builds, one Python loop, rules.py formulas."""
    params = skirmish.params
    slots = [by_slot(playable, builds.CATALOG_SLOT[s]) for s in builds.BUILD_SLOTS]
    assert [len(s) for s in slots] == [8, 5, 11, 11, 5, 5]
    band = functools.cache(rules.bands)  # bands depend on the Sizes alone
    want: dict[str, list] = {k: [] for k in (*STAT_FIELDS, "ids", "klass", "bands")}
    for c, h, r, left, g, b in itertools.product(*slots):
        weight = c.weight + h.weight + r.weight + left.weight + g.weight + b.weight  # B3
        cap = rules.class_cap(c.klass, params)
        penalty = rules.overload_penalty(weight, cap, params)  # B4
        want["ids"].append((c.id, h.id, r.id, left.id, g.id, b.id))
        want["klass"].append(CLASSES.index(c.klass))
        want["weight"].append(weight)
        want["cap"].append(cap)
        want["over"].append(weight - cap)
        want["overload"].append(penalty)
        want["legal"].append(weight - cap <= params.overload_max)
        want["evasion"].append(c.evasion + g.evasion - penalty)  # C, no pilot
        want["speed"].append(c.speed + g.speed - penalty)
        want["sensors"].append(c.sensors + h.sensors + b.sensors)
        want["e_def"].append(c.e_def + h.e_def)
        want["reactor_cap"].append(c.reactor + b.reactor)
        want["hull"].append(sum(p.durability for p in (c, h, r, left, g, b)))
        want["head_acc"].append(h.acc)
        want["bands"].append(band((h.size, r.size, left.size, c.size, b.size, g.size)))  # F4
    assert len(enumerated) == 121_000
    got_ids = zip(
        *(
            np.array(enumerated.ids[builds.CATALOG_SLOT[s]])[getattr(enumerated, s)]
            for s in builds.BUILD_SLOTS
        ),
        strict=True,
    )
    assert [tuple(t) for t in got_ids] == want["ids"]
    assert enumerated.klass.tolist() == want["klass"]
    for name in STAT_FIELDS:
        assert getattr(enumerated, name).tolist() == want[name], name
    assert [tuple(row) for row in enumerated.bands.tolist()] == want["bands"]


def test_playable_matches_mech_stats(
    playable: dict[str, Part], enumerated: builds.Builds, skirmish: Catalog
):
    """rules.mech_stats (pilot with Piloting and Systems 0) on 3,000 random builds."""
    rng = np.random.default_rng(3)
    for n in rng.choice(len(enumerated), 3000, replace=False).tolist():
        stats = rules.mech_stats(mech(playable, enumerated, n), skirmish.params)
        assert CLASSES[enumerated.klass[n]] == stats.klass
        assert (enumerated.weight[n], enumerated.cap[n], enumerated.overload[n]) == (
            stats.weight,
            stats.cap,
            stats.overload,
        )
        assert (enumerated.evasion[n], enumerated.speed[n], enumerated.sensors[n]) == (
            stats.evasion,
            stats.speed,
            stats.sensors,
        )
        assert (enumerated.e_def[n], enumerated.reactor_cap[n], enumerated.hull[n]) == (
            stats.e_def,
            stats.reactor_cap,
            stats.hull,
        )
        assert tuple(enumerated.bands[n]) == stats.bands


KIT_WEIGHTS = {"courier": 33, "foreman": 48, "reaver": 48, "bastion": 62, "harrier": 44}


def test_kits_are_legal_builds(
    playable: dict[str, Part], enumerated: builds.Builds, skirmish: Catalog
):
    """The eight kits are among the legal builds; stated weights (B3), Harrier overload 2."""
    assert len(skirmish.kits) == 8
    for kit in skirmish.kits.values():
        n = find(enumerated, **{s: getattr(kit, s) for s in builds.BUILD_SLOTS})
        assert enumerated.legal[n], kit.id
        if kit.id in KIT_WEIGHTS:
            assert enumerated.weight[n] == KIT_WEIGHTS[kit.id], kit.id
        m = skirmish.mech(kit.id)
        stats = rules.mech_stats(m, skirmish.params)
        assert enumerated.weight[n] == stats.weight and enumerated.overload[n] == stats.overload
        # the kit's pilot adds Piloting to Evasion and Systems to E-Def (C)
        assert enumerated.evasion[n] + m.pilot.piloting == stats.evasion
        assert enumerated.e_def[n] + m.pilot.systems == stats.e_def
        assert tuple(enumerated.bands[n]) == stats.bands
    harrier = find(
        enumerated, **{s: getattr(skirmish.kits["harrier"], s) for s in builds.BUILD_SLOTS}
    )
    assert (enumerated.over[harrier], enumerated.overload[harrier]) == (9, 2)
    foreman = find(
        enumerated, **{s: getattr(skirmish.kits["foreman"], s) for s in builds.BUILD_SLOTS}
    )
    assert tuple(enumerated.bands[foreman]) == (1, 3, 3, 6, 2, 5)  # 003 F4 standard Medium


def test_count_legal_matches_enumeration(
    playable: dict[str, Part], enumerated: builds.Builds, skirmish: Catalog
):
    counts = builds.count_legal(playable, skirmish.params)
    for k, klass in enumerate(CLASSES):
        mine = enumerated.klass == k
        assert counts[klass] == {
            "builds": int(mine.sum()),
            "legal": int((mine & enumerated.legal).sum()),
            "overloaded": int((mine & enumerated.legal & (enumerated.over > 0)).sum()),
        }
    assert counts["all"]["builds"] == 121_000
    assert counts["all"]["legal"] == int(enumerated.legal.sum()) == 117_022


def test_chassis_subset_is_its_block(
    playable: dict[str, Part], enumerated: builds.Builds, skirmish: Catalog
):
    part = builds.enumerate_builds(playable, skirmish.params, chassis_ids=["foreman_frame"])
    c = enumerated.ids["chassis"].index("foreman_frame")
    block = enumerated.select(enumerated.chassis == c)
    for name in builds.Builds.array_fields():
        assert np.array_equal(getattr(part, name), getattr(block, name)), name
    with pytest.raises(CatalogError, match="unknown chassis 'nope'"):
        builds.enumerate_builds(playable, skirmish.params, chassis_ids=["nope"])


def test_other_caps_move_legality(playable: dict[str, Part], skirmish: Catalog):
    tight = replace(skirmish.params, light_cap=30, overload_max=0)
    b = builds.enumerate_builds(playable, tight, chassis_ids=["courier_frame"])
    assert (b.legal == (b.weight <= 30)).all() and (b.overload[b.legal] == 0).all()


# ---- rows ---------------------------------------------------------------------------------


def test_build_rows_columns_and_parquet(
    playable: dict[str, Part], enumerated: builds.Builds, tmp_path: Path
):
    table = builds.build_rows(enumerated, playable)
    assert table.num_rows == 121_000
    assert table.column_names == [*builds.BUILD_SLOTS, "class", *STAT_FIELDS, *builds.BAND_COLUMNS]
    for slot in (*builds.BUILD_SLOTS, "class"):
        assert pa.types.is_dictionary(table.schema.field(slot).type), slot
    for band in builds.BAND_COLUMNS:
        assert table.schema.field(band).type == pa.int8()
    assert table.schema.field("legal").type == pa.bool_()
    n = find(
        enumerated,
        chassis="bastion_frame",
        head="lattice",
        right_arm="cannon",
        left_arm="shield",
        legs="tread",
        back="reactor_pack",
    )
    row = table.slice(n, 1).to_pylist()[0]
    assert row["chassis"] == "bastion_frame" and row["left_arm"] == "shield"
    assert row["class"] == "heavy" and row["weight"] == 62 and row["legal"] is True
    assert sum(row[b] for b in builds.BAND_COLUMNS) == 20

    legal = builds.build_rows(enumerated, playable, legal_only=True)
    assert legal.num_rows == 117_022 and all(legal.column("legal").to_pylist())
    chunk = builds.build_rows(enumerated, playable, slice(1000, 1500))
    assert chunk.equals(table.slice(1000, 500))

    path = tmp_path / "builds.parquet"
    pq.write_table(table, path)
    back = pq.read_table(path)
    assert back.num_rows == 121_000
    assert back.column("head").to_pylist() == table.column("head").to_pylist()

    with pytest.raises(ValueError, match="another part list"):
        builds.build_rows(enumerated, builds.load_parts(CATALOGS, "full"))


# ---- the projected full catalog (003 K) ----------------------------------------------------


def test_full_catalog_is_current_and_assumed(full: dict[str, Part], playable: dict[str, Part]):
    text = FULL_PATH.read_text(encoding="utf-8")
    assert make_full_catalog.render() == text, "run python -m sims.skirmish.make_full_catalog"
    assert "projection" in text.splitlines()[0] + text.splitlines()[1] and "003" in text[:200]
    raw = tomllib.loads(text)["part"]
    assert len(raw) == len(full) == 67
    assert all(entry["provenance"] == "assumed" for entry in raw)
    for ident, part in playable.items():
        assert full[ident] == part, ident  # unchanged: same id, every stat, provenance
    assert make_full_catalog.range_problems(playable, full) == []


def test_full_catalog_runners_in_every_slot(full: dict[str, Part]):
    for slot in SLOTS:
        runners = {p.runner for p in full.values() if p.slot == slot}
        assert runners == set(RUNNERS), slot
    for runner in RUNNERS:
        mine = [p for p in full.values() if p.runner == runner]
        assert sorted(p.klass for p in mine if p.slot == "chassis") == sorted(CLASSES)
        count = {s: sum(p.slot == s for p in mine) for s in SLOTS}
        assert 2 <= count["head"] <= 3 and count["arm"] == 4, (runner, count)
        assert count["legs"] == 2 and count["back"] == 2, (runner, count)
        arms = [p for p in mine if p.slot == "arm"]
        assert any(p.is_weapon for p in arms)


def test_full_enumeration_passes_a_million(full: dict[str, Part], skirmish: Catalog):
    """The whole projected catalog (7,200,000 builds, about a second)."""
    counts = builds.count_legal(full, skirmish.params)
    assert counts["all"]["builds"] == 15 * 12 * 20 * 20 * 10 * 10
    assert counts["all"]["legal"] > 1_000_000
    b = builds.enumerate_builds(full, skirmish.params)
    assert len(b) == counts["all"]["builds"]
    for k, klass in enumerate(CLASSES):
        assert int((b.legal & (b.klass == k)).sum()) == counts[klass]["legal"]
    rng = np.random.default_rng(7)
    for n in rng.choice(len(b), 1000, replace=False).tolist():
        stats = rules.mech_stats(mech(full, b, n), skirmish.params)
        assert (b.weight[n], b.overload[n], b.evasion[n], b.speed[n], b.sensors[n]) == (
            stats.weight,
            stats.overload,
            stats.evasion,
            stats.speed,
            stats.sensors,
        )
        assert (b.e_def[n], b.reactor_cap[n], b.hull[n]) == (
            stats.e_def,
            stats.reactor_cap,
            stats.hull,
        )
        assert tuple(b.bands[n]) == stats.bands
        assert b.legal[n] == (not rules.mech_problems(mech(full, b, n), skirmish.params))


def copy_skirmish(tmp_path: Path) -> Path:
    root = tmp_path / "catalogs"
    shutil.copytree(CATALOGS, root)
    return root


def test_broken_full_entry_is_one_line(tmp_path: Path):
    root = copy_skirmish(tmp_path)
    path = root / "skirmish" / builds.FULL_FILE
    text = path.read_text(encoding="utf-8")
    block = text.index('id = "bulwark_frame"')
    old = "weight = 29"
    at = text.index(old, block)
    path.write_text(text[:at] + 'weight = "29"' + text[at + len(old) :], encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        builds.load_parts(root, "full")
    message = str(err.value)
    assert message == (
        f"{path}: part 'bulwark_frame', field 'weight': expected an integer, got '29'"
    )
    assert "\n" not in message


def test_missing_full_file_and_unknown_list(tmp_path: Path):
    root = copy_skirmish(tmp_path)
    (root / "skirmish" / builds.FULL_FILE).unlink()
    with pytest.raises(CatalogError, match="parts_full.toml: file not found"):
        builds.load_parts(root, "full")
    with pytest.raises(CatalogError, match="unknown part list 'all'"):
        builds.load_parts(CATALOGS, "all")


def test_part_overrides_reach_both_lists():
    for which in builds.WHICH:
        parts = builds.load_parts(
            CATALOGS, which, overrides={"part.cannon.weight": 10, "crit_margin": 3}
        )
        assert parts["cannon"].weight == 10
    with pytest.raises(CatalogError, match="no part with id 'nope'"):
        builds.load_parts(CATALOGS, "full", overrides={"part.nope.weight": 1})
    with pytest.raises(CatalogError, match="weight"):
        builds.load_parts(CATALOGS, "full", overrides={"part.cannon.weight": "heavy"})
