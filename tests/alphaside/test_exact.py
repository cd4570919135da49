"""ALPHASIDE exact tables: hand-derived values (the derivation beside each), the table
shapes and declarations, agreement between the tables, and icepool (an independent exact
engine) as the oracle for hits.csv's joint distribution and defeat.csv's rows."""

from __future__ import annotations

from fractions import Fraction as F

import icepool
import polars as pl
import pytest

from analysis.tables import render_markdown
from sims.alphaside import exact
from sims.alphaside.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def frames(catalog):
    return exact.tables(catalog)


def row(frame: pl.DataFrame, **keys) -> dict:
    hits = frame.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items()))
    assert hits.height == 1, keys
    return hits.row(0, named=True)


def pmf(frame: pl.DataFrame, value: str, **keys) -> dict:
    """``{value column: p}`` of the rows matching ``keys`` (p as a Fraction)."""
    sub = frame.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items()))
    return {r[value]: F(r["p"]) for r in sub.iter_rows(named=True)}


def totals(frame: pl.DataFrame, keys: list[str], col: str = "p") -> dict[tuple, F]:
    out: dict[tuple, F] = {}
    for r in frame.iter_rows(named=True):
        k = tuple(r[c] for c in keys)
        out[k] = out.get(k, F(0)) + F(r[col])
    return out


# ---- one die, hits -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accuracy", "crit_from", "want"),
    [
        # Accuracy 0: faces 1-3 miss (3/10), 4-8 plain hits (5/10), 9-10 crits (2/10).
        (0, 9, {(0, 0): F(3, 10), (1, 0): F(1, 2), (1, 1): F(1, 5)}),
        # -3: a face hits at 7+ (face - 3 >= 4): 7-8 plain, 9-10 crit; 1-6 miss (3/5).
        (-3, 9, {(0, 0): F(3, 5), (1, 0): F(1, 5), (1, 1): F(1, 5)}),
        # +3: every face reaches 4 but the 1 misses: 1/10 miss, 2-8 plain 7/10, 9-10 crit.
        (3, 9, {(0, 0): F(1, 10), (1, 0): F(7, 10), (1, 1): F(1, 5)}),
        # -3 with crits on 7-10: the hits are 7-10 and all of them crits (2/5): no row
        # with a plain hit (p = 0 rows are left out).
        (-3, 7, {(0, 0): F(3, 5), (1, 1): F(2, 5)}),
    ],
)
def test_one_die(frames, accuracy, crit_from, want):
    t = frames["hits"].filter(
        (pl.col("dice") == 1)
        & (pl.col("accuracy") == accuracy)
        & (pl.col("crit_from") == crit_from)
    )
    assert {(r["hits"], r["crits"]): F(r["p"]) for r in t.iter_rows(named=True)} == want


def test_two_dice(frames):
    # each die hits 7/10: P(2 hits) = 49/100, P(1) = 2 x 7/10 x 3/10 = 21/50, P(0) = 9/100.
    # Both crits: (1/5)^2 = 1/25; one crit and one plain hit: 2 x 1/5 x 1/2 = 1/5.
    t = frames["hits"].filter(
        (pl.col("dice") == 2) & (pl.col("accuracy") == 0) & (pl.col("crit_from") == 9)
    )
    by_hits = totals(t, ["hits"])
    assert by_hits == {(0,): F(9, 100), (1,): F(21, 50), (2,): F(49, 100)}
    assert row(t, hits=2, crits=2)["p"] == "1/25"
    assert row(t, hits=2, crits=1)["p"] == "1/5"
    assert row(t, hits=2, crits=0)["p"] == "1/4"  # both plain: (1/2)^2


def test_hits_table_shape(frames):
    t = frames["hits"]
    sums = totals(t, ["dice", "accuracy", "crit_from"])
    assert len(sums) == 20 * 7 * 2 and set(sums.values()) == {1}
    assert t.filter(pl.col("crits") > pl.col("hits")).height == 0
    assert t.filter(pl.col("p") == "0").height == 0  # only rows with p > 0
    assert t["p_float"].min() > 0


def _icepool_joint(dice: int, accuracy: int, crit_from: int) -> dict[tuple[int, int], F]:
    """The oracle: a d10 face by face as the rulebook reads (hit on face + Accuracy >= 4,
    a 1 always misses, a crit face crit_from-10 always hits), coded hits + 100 x crits,
    summed over the dice by icepool."""

    def code(f: int) -> int:
        crit = f >= crit_from
        hit = f != 1 and (f + accuracy >= 4 or crit)
        return int(hit) + 100 * int(crit)

    total = dice @ icepool.d10.map(code)
    return {(o % 100, o // 100): total.probability(o) for o in total.outcomes()}


@pytest.mark.parametrize(
    ("dice", "accuracy", "crit_from"), [(3, 0, 9), (5, -2, 7), (8, 3, 9), (12, -3, 9), (20, 1, 7)]
)
def test_hits_match_icepool(frames, dice, accuracy, crit_from):
    t = frames["hits"].filter(
        (pl.col("dice") == dice)
        & (pl.col("accuracy") == accuracy)
        & (pl.col("crit_from") == crit_from)
    )
    got = {(r["hits"], r["crits"]): F(r["p"]) for r in t.iter_rows(named=True)}
    assert got == _icepool_joint(dice, accuracy, crit_from)


# ---- damage ----------------------------------------------------------------------------------


def test_damage_hand_values(frames):
    d = frames["damage"]
    # 1 die, Accuracy 0, no Shields, Damage+1 on a crit: miss 3/10 -> 0; 4-8 -> 1 (1/2);
    # 9-10 -> 1 + 1 = 2 (1/5).
    assert pmf(d, "damage", dice=1, accuracy=0, shields=0, effect="damage_1") == {
        0: F(3, 10),
        1: F(1, 2),
        2: F(1, 5),
    }
    # Damage+2 behind 1 Shield: a plain hit is blocked (0); a crit deals 0 + 2 = 2. The
    # rows run to 3, the most 1 die deals with Damage+2 (no Shields).
    assert pmf(d, "damage", dice=1, accuracy=0, shields=1, effect="damage_2") == {
        0: F(4, 5),
        1: F(0),
        2: F(1, 5),
        3: F(0),
    }
    # Disarmed, 1 die at Accuracy 0: the hit must survive its re-roll: (7/10)^2 = 49/100.
    assert pmf(d, "damage", dice=1, accuracy=0, shields=0, effect="disarm") == {
        0: F(51, 100),
        1: F(49, 100),
    }
    # Fractured, 3 dice, no Shields: 3 hits (343/1000) deal 3 + 3 = 6; 0..2 hits as
    # plain: 27/1000, 189/1000, 441/1000.
    assert {
        k: v
        for k, v in pmf(d, "damage", dice=3, accuracy=0, shields=0, effect="fracture").items()
        if v
    } == {0: F(27, 1000), 1: F(189, 1000), 2: F(441, 1000), 6: F(343, 1000)}
    # plain, 2 dice behind 1 Shield: 1 damage only when both hit (49/100).
    assert pmf(d, "damage", dice=2, accuracy=0, shields=1, effect="plain") == {
        0: F(51, 100),
        1: F(49, 100),
        2: F(0),
    }


def test_damage_table_shape(frames):
    d = frames["damage"]
    sums = totals(d, ["dice", "accuracy", "shields", "effect"])
    assert len(sums) == 10 * 7 * 4 * 5 and set(sums.values()) == {1}
    assert sorted(d["effect"].unique()) == sorted(exact.EFFECTS)
    # each (effect, dice) lists the same damages for every accuracy and Shields (a full
    # grid for the Markdown pivot): dice + 2 at most for damage_2, dice + 3 for fracture
    tops = d.group_by("effect", "dice").agg(pl.col("damage").max().alias("top"))
    top = {(r["effect"], r["dice"]): r["top"] for r in tops.iter_rows(named=True)}
    assert top[("damage_2", 4)] == 6 and top[("fracture", 4)] == 7 and top[("plain", 4)] == 4


def test_damage_follows_rules_expected_damage(catalog, frames):
    """The damage table's mean is rules.expected_damage (its own sum over hits_and_crits)."""
    from sims.alphaside import rules

    d = frames["damage"]
    for dice, acc, shields, effect, plus in [
        (4, 0, 0, "damage_1", 1),
        (6, -2, 2, "plain", 0),
        (10, 3, 3, "damage_2", 2),
    ]:
        mean = sum(
            (
                k * p
                for k, p in pmf(
                    d, "damage", dice=dice, accuracy=acc, shields=shields, effect=effect
                ).items()
            ),
            F(0),
        )
        assert mean == rules.expected_damage(dice, acc, 9, shields, plus, catalog.params)


# ---- defeat ---------------------------------------------------------------------------------


def test_defeat_hand_values(frames):
    t = frames["defeat"]
    # 3 dice against 1 Shield, 2 HP: 3 hits needed: (7/10)^3 = 343/1000.
    assert row(t, dice=3, accuracy=0, crit_from=9, shields=1, hp=2)["p_defeat"] == "343/1000"
    # 1 die, HP 1, no Shields: the die's hit chance (-3: 2/5).
    assert row(t, dice=1, accuracy=-3, crit_from=9, shields=0, hp=1)["p_defeat"] == "2/5"
    # more HP + Shields than dice: never.
    assert row(t, dice=4, accuracy=3, crit_from=7, shields=3, hp=2)["p_defeat"] == "0"
    assert t.height == 20 * 7 * 2 * 4 * 10


@pytest.mark.parametrize(
    ("dice", "accuracy", "crit_from"), [(4, 0, 9), (9, -1, 7), (15, 2, 9), (20, -3, 9)]
)
def test_defeat_matches_icepool(frames, dice, accuracy, crit_from):
    def hit(f: int) -> int:
        return int(f != 1 and (f + accuracy >= 4 or f >= crit_from))

    hits = dice @ icepool.d10.map(hit)
    t = frames["defeat"].filter(
        (pl.col("dice") == dice)
        & (pl.col("accuracy") == accuracy)
        & (pl.col("crit_from") == crit_from)
    )
    for r in t.iter_rows(named=True):
        assert F(r["p_defeat"]) == hits.probability(">=", r["hp"] + r["shields"]), r


def test_defeat_over_attacks(frames):
    t = frames["defeat_over_attacks"]
    # 1 die, no Shields, 2 HP: two hits needed: within 2 attacks (7/10)^2 = 49/100; within
    # 3, P(Bin(3, 7/10) >= 2) = 3 x 49/100 x 3/10 + 343/1000 = 784/1000 = 98/125.
    assert row(t, dice=1, accuracy=0, shields=0, hp=2, attacks=1)["p_defeat"] == "0"
    assert row(t, dice=1, accuracy=0, shields=0, hp=2, attacks=2)["p_defeat"] == "49/100"
    assert row(t, dice=1, accuracy=0, shields=0, hp=2, attacks=3)["p_defeat"] == "98/125"
    # The Shield returns each activation: 2 dice behind 1 Shield deal 1 only when both hit
    # (49/100); 2 HP need two such attacks: (49/100)^2 = 2401/10000.
    assert row(t, dice=2, accuracy=0, shields=1, hp=2, attacks=2)["p_defeat"] == "2401/10000"
    # 1 die behind 1 Shield never deals damage, however many attacks.
    assert set(t.filter((pl.col("dice") == 1) & (pl.col("shields") == 1))["p_defeat"]) == {"0"}
    # one attack is defeat.csv's row
    one = t.filter(pl.col("attacks") == 1).drop("attacks")
    d = frames["defeat"].filter(pl.col("crit_from") == 9).drop("crit_from")
    assert (
        one.join(d, on=["dice", "accuracy", "shields", "hp"])
        .filter(pl.col("p_defeat") != pl.col("p_defeat_right"))
        .height
        == 0
    )
    # never less likely with more attacks
    wide = t.pivot(
        on="attacks", index=["dice", "accuracy", "shields", "hp"], values="p_defeat_float"
    )
    for k in range(1, 5):
        assert (wide[str(k + 1)] >= wide[str(k)]).all()


# ---- area, collision -------------------------------------------------------------------------


def test_area_two_dice(frames):
    # 2 dice at Accuracy 0 on two 1-HP units behind 0 and 1 Shield: the first falls on
    # 1+ hits, the second on 2+: both 49/100; the first only P(1 hit) = 21/50; none 9/100.
    t = frames["area"]
    got = pmf(t, "defeated", dice=2, accuracy=0, hp=1, shields_1=0, shields_2=1)
    assert got == {"none": F(9, 100), "first": F(21, 50), "both": F(49, 100)}
    # equal Shields: the same hits decide both, never the first only.
    got = pmf(t, "defeated", dice=2, accuracy=0, hp=1, shields_1=1, shields_2=1)
    assert got == {"none": F(51, 100), "first": F(0), "both": F(49, 100)}
    sums = totals(t, ["dice", "accuracy", "hp", "shields_1", "shields_2"])
    assert len(sums) == 10 * 7 * 6 * 10 and set(sums.values()) == {1}
    assert t.filter(pl.col("shields_1") > pl.col("shields_2")).height == 0


def test_collision_hand_values(frames):
    t = frames["collision"]
    # 2 dice, no Shields, 3 HP: 2 hits are not enough; a crit's collision (2) plus its own
    # hit makes 3: P(at least one crit) = 1 - (4/5)^2 = 9/25.
    r = row(t, dice=2, accuracy=0, shields=0, hp=3)
    assert (r["p_defeat_plain"], r["p_defeat_push"]) == ("0", "9/25")
    # 2 Shields, 1 HP: plain needs 3 hits of 2 dice (never); a crit's collision uses both
    # Shields (0 damage), so the hits meet none: the crit's own hit defeats: 9/25.
    r = row(t, dice=2, accuracy=0, shields=2, hp=1)
    assert (r["p_defeat_plain"], r["p_defeat_push"]) == ("0", "9/25")
    # 1 die, 1 Shield, 2 HP: the crit's collision deals 2 - 1 = 1, the Shield is gone, its
    # hit deals 1: 1/5.
    r = row(t, dice=1, accuracy=0, shields=1, hp=2)
    assert (r["p_defeat_plain"], r["p_defeat_push"]) == ("0", "1/5")
    assert t.height == 10 * 7 * 4 * 10
    assert (t["p_defeat_push_float"] >= t["p_defeat_plain_float"]).all()


def test_weapon_vs_unit(catalog, frames):
    t = frames["weapon_vs_unit"]
    assert t.height == len(catalog.weapons) * len(catalog.units)
    # rifle (4 dice, Accuracy 0, Damage+1 on a crit, TL 3) on a grunt (4 HP, no Shields):
    # defeated by 4 hits ((7/10)^4 = 2401/10000) or 3 hits with a crit (4 x (7/10)^3 x
    # 3/10 - 4 x (1/2)^3 x 3/10 = 4116/10000 - 1500/10000 = 2616/10000): 5017/10000.
    # Expected: 4 x 7/10 hits + P(a crit) = 28/10 + 1 - (4/5)^4 = 2.8 + 0.5904 = 2119/625;
    # per TL 2119/1875.
    r = row(t, weapon="rifle", unit="grunt")
    assert (r["p_defeat"], r["expected_damage"], r["damage_per_tl"]) == (
        "5017/10000",
        "2119/625",
        "2119/1875",
    )
    # vulcan (2 dice, no crit effect) on a 2-Shield ace: nothing gets through.
    r = row(t, weapon="vulcan", unit="ace")
    assert (r["p_defeat"], r["expected_damage"]) == ("0", "0")


# ---- declarations, rendering, parameters ---------------------------------------------------


def test_declared_columns(frames):
    assert [t.stem for t in exact.TABLES] == list(frames)
    for table in exact.TABLES:
        assert frames[table.stem].columns == table.file_columns(), table.stem
        for c in table.columns:
            if c.kind in ("probability", "expectation"):
                assert frames[table.stem][c.name].dtype == pl.Utf8


def test_markdown_renders(frames):
    """Every pivot finds each of its cells (a full grid per section)."""
    for table in exact.TABLES:
        if table.pivot is None:
            continue
        text = render_markdown(table, frames[table.stem], "ALPHASIDE")
        assert text.startswith(f"# ALPHASIDE: {table.stem}")
    text = render_markdown(exact.TABLES[-1], frames["weapon_vs_unit"], "ALPHASIDE")
    assert "| rifle | grunt | 5017/10000 (50.2%) | 2119/625 (3.390) |" in text


def test_tables_follow_the_parameters():
    cat = load_catalog(CATALOGS, overrides={"hit_on": 5, "collision_damage": 3})
    # hit on 5+: one die at Accuracy 0 hits on 5-10: 3/5.
    assert exact.p_defeat(1, 0, 9, 0, 1, cat.params) == F(3, 5)
    # a collision of 3 against 2 Shields gets 1 through; with the crit's own hit: 2 HP.
    assert exact.push_damage(1, 0, 2, cat.params).pmf() == {0: F(4, 5), 2: F(1, 5)}
