"""Exact counts of fielded teams of builds (003 B, B3) against listing every triple.

``team_counts`` never lists a team: frames and arms by inclusion-exclusion, unordered
teams by Burnside. ``team_counts.brute_force`` lists every unordered triple of legal
builds and checks the copy limit part by part. They must agree at every cap and class
mix, on reduced part lists that make every term of the inclusion-exclusion matter:
shared chassis, heads, legs and backs; one arm on three or more mounts; two arms on
three mounts each; budgets that leave some frames no arms at all."""

import random
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from sims.core.catalog import CatalogError
from sims.skirmish import builds, team_counts
from sims.skirmish.catalog import Part

CAPS = range(40, 201, 3)


def _reduced(skirmish, keep: dict[str, int]) -> dict[str, Part]:
    ids = builds.slot_ids(skirmish.parts)
    chosen = {pid for slot, n in keep.items() for pid in ids[slot][:n]}
    return {k: p for k, p in skirmish.parts.items() if k in chosen}


def _synthetic(seed: int) -> dict[str, Part]:
    """A random small part list: few distinct Weights, so that parts of equal Weight
    (grouped by the count) and shared parts both occur."""
    rng = random.Random(seed)
    parts = {}

    def add(slot: str, n: int, low: int, high: int, **extra) -> None:
        for i in range(n):
            pid = f"{slot}{i}"
            parts[pid] = Part(
                id=pid,
                name=pid,
                slot=slot,
                runner="r",
                size=rng.randint(1, 6),
                armor=3,
                durability=5,
                weight=rng.randint(low, high),
                provenance="assumed",
                **extra,
            )

    for klass, (low, high) in {"light": (8, 12), "medium": (14, 18), "heavy": (20, 24)}.items():
        for i in range(1 + (klass == rng.choice(["light", "medium", "heavy"]))):
            pid = f"{klass}{i}"
            parts[pid] = Part(
                id=pid,
                name=pid,
                slot="chassis",
                runner="r",
                size=8,
                armor=5,
                durability=12,
                weight=rng.randint(low, high),
                klass=klass,
                provenance="assumed",
            )
    add("head", 2, 1, 3)
    add("arm", 3, 3, 6, kind="weapon")
    add("legs", 2, 3, 5)
    add("back", 2, 2, 4)
    return parts


def _agree(parts, params) -> dict:
    listed = team_counts.brute_force(parts, params, CAPS)
    polys = team_counts.team_polynomials(parts, params, max(CAPS))
    counted = {(cap, mix): sum(polys[mix]["teams"][: cap + 1]) for cap, mix in listed}
    assert counted == listed
    return listed


@pytest.mark.parametrize(
    "keep",
    [
        {"chassis": 8, "head": 2, "arm": 3, "legs": 2, "back": 2},  # every chassis, 3 arms
        {"chassis": 3, "head": 2, "arm": 4, "legs": 2, "back": 2},
    ],
)
def test_counts_equal_brute_force_on_reduced_playable_lists(skirmish, keep):
    listed = _agree(_reduced(skirmish, keep), skirmish.params)
    assert max(listed.values()) > 1000  # not a vacuous agreement


@pytest.mark.parametrize("seed", range(4))
def test_counts_equal_brute_force_on_random_part_lists(skirmish, seed):
    parts = _synthetic(seed)
    # tight class caps: some frames have no arm budget left, some builds only overload
    params = replace(skirmish.params, light_cap=24, medium_cap=32, heavy_cap=40, overload_max=5)
    listed = _agree(parts, params)
    top = {mix: n for (cap, mix), n in listed.items() if cap == max(CAPS)}
    assert sum(top.values()) > 0


def test_the_copy_limit_matters_on_the_reduced_lists(skirmish):
    # Without the limit (copy_limit 6: no triple breaks it) brute force counts more; the
    # difference is what the inclusion-exclusion removes.
    parts = _reduced(skirmish, {"chassis": 3, "head": 2, "arm": 3, "legs": 2, "back": 2})
    limited = team_counts.brute_force(parts, skirmish.params, [200])
    free = team_counts.brute_force(parts, replace(skirmish.params, copy_limit=6), [200])
    assert sum(limited.values()) < sum(free.values())


def test_same_arm_twice_everywhere_leaves_no_team(skirmish):
    # Hand case: one arm part only, so every build holds it twice and any three builds
    # hold six copies (B: at most two): no legal team at any cap.
    parts = _reduced(skirmish, {"chassis": 8, "head": 5, "arm": 1, "legs": 5, "back": 5})
    polys = team_counts.team_polynomials(parts, skirmish.params)
    assert all(sum(p["teams"]) == 0 and sum(p["ordered"]) == 0 for p in polys.values())


def test_two_light_builds_and_nothing_to_share(skirmish):
    # Hand case: two light chassis and two of every other part, all Weight 1 apart from
    # the chassis. Builds: 2 chassis x 2 heads x 2x2 arms x 2 legs x 2 backs = 64. A team
    # of three cannot have all three chassis different (only two), so two share one
    # chassis: fine (two copies). But heads, legs, backs: three builds over two parts
    # each; all-equal is forbidden, so each slot splits 2+1. Counted by hand below.
    def part(pid, slot, weight, **kw):
        return Part(
            id=pid,
            name=pid,
            slot=slot,
            runner="r",
            size=2,
            armor=1,
            durability=1,
            weight=weight,
            provenance="assumed",
            **kw,
        )

    parts = {
        p.id: p
        for p in [
            part("c1", "chassis", 10, klass="light"),
            part("c2", "chassis", 10, klass="light"),
            part("h1", "head", 1),
            part("h2", "head", 1),
            part("a1", "arm", 1),
            part("a2", "arm", 1),
            part("g1", "legs", 1),
            part("g2", "legs", 1),
            part("k1", "back", 1),
            part("k2", "back", 1),
        ]
    }
    # Ordered triples: each of chassis, head, legs, back is a word of length 3 over 2
    # letters, not constant: 2^3 - 2 = 6 ways each. Arms: 6 mounts over a1, a2 with at
    # most two of each: impossible (6 mounts, 2 parts x 2 copies = 4). So zero teams;
    # with a third arm part a3: 6 mounts, each of 3 parts exactly twice: 6!/(2!2!2!) =
    # 90 words. Ordered = 6^4 * 90; doubled (b, b, c) needs c to avoid b's parts in
    # every slot and b's two arms to differ: b any of 2^4 frames x 3*2 arm pairs, c the
    # other frame letter everywhere and the third arm twice: 16 * 6 = 96.
    polys = team_counts.team_polynomials(parts, skirmish.params)
    assert sum(polys[(3, 0, 0)]["ordered"]) == 0
    parts["a3"] = part("a3", "arm", 1)
    polys = team_counts.team_polynomials(parts, skirmish.params)
    light = polys[(3, 0, 0)]
    assert sum(light["ordered"]) == 6**4 * 90
    assert sum(light["doubled"]) == 96
    assert sum(light["teams"]) == (6**4 * 90 + 3 * 96) // 6
    assert light["teams"][3 * 15] == sum(light["teams"])  # every build weighs 15
    assert team_counts.brute_force(parts, skirmish.params, [45])[(45, (3, 0, 0))] == (
        sum(light["teams"])
    )


def test_counts_by_cap_are_cumulative_and_piloted_is_ordered_times_pilot_trios(skirmish):
    parts = _reduced(skirmish, {"chassis": 8, "head": 2, "arm": 3, "legs": 2, "back": 2})
    frame = team_counts.build_team_counts(parts, skirmish.params, 11)
    assert frame.schema["teams"] == pl.Decimal(38, 0)
    for mix, rows in frame.group_by(["light", "medium", "heavy"]):
        teams = [int(v) for v in rows.sort("team_cap")["teams"]]
        assert teams == sorted(teams), mix
    for row in frame.iter_rows(named=True):
        assert int(row["piloted"]) == int(row["ordered"]) * 11 * 10 * 9 // 6


def test_full_catalog_counts_pass_int64(skirmish):
    # The projected full catalog: about 7 million legal builds, so about 5 x 10^19 teams at
    # cap 200, beyond int64: the counts are exact integers all the same (the sum over
    # mixes of unordered teams is at most C(legal + 2, 3)).
    parts = builds.load_parts(builds.Path(__file__).resolve().parents[2] / "catalogs", "full")
    polys = team_counts.team_polynomials(parts, skirmish.params)
    total = sum(sum(p["teams"]) for p in polys.values())
    legal = builds.count_legal(parts, skirmish.params)["all"]["legal"]
    assert total > np.iinfo(np.int64).max
    assert total <= (legal + 2) * (legal + 1) * legal // 6


def test_other_copy_limits_are_refused_in_one_line(skirmish):
    parts = _reduced(skirmish, {"chassis": 3, "head": 2, "arm": 3, "legs": 2, "back": 1})
    with pytest.raises(CatalogError, match="copy_limit 2 and 3 fielded, got 1"):
        team_counts.team_polynomials(parts, replace(skirmish.params, copy_limit=1))
