"""Alluvion exact tables: hand-derived values (the derivation beside each), the table
shapes and declarations, and icepool (an independent exact engine) as the oracle for
every attack.csv / margin.csv row family and the round's joint top two."""

from __future__ import annotations

from fractions import Fraction as F

import icepool
import polars as pl
import pytest

from analysis.tables import render_markdown
from sims.alluvion import exact, rules
from sims.alluvion.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def frames(catalog):
    return exact.tables(catalog)


def pool(text: str) -> tuple[int, ...]:
    return rules.parse_pool(text)


def row(frame: pl.DataFrame, **keys) -> dict:
    hits = frame.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items()))
    assert hits.height == 1, keys
    return hits.row(0, named=True)


def totals(frame: pl.DataFrame, keys: list[str]) -> dict[tuple, F]:
    """The exact sum of ``p`` over each group of ``keys``."""
    out: dict[tuple, F] = {}
    for r in frame.iter_rows(named=True):
        k = tuple(r[c] for c in keys)
        out[k] = out.get(k, F(0)) + F(r["p"])
    return out


# ---- the highest die ----------------------------------------------------------------------------


def test_highest_of_two_d6():
    # P(max of 2d6 <= k) = (k/6)^2, so P(max = k) = (k^2 - (k-1)^2)/36 = (2k-1)/36.
    assert exact.highest((6, 6)).pmf() == {k: F(2 * k - 1, 36) for k in range(1, 7)}


def test_highest_of_d6_and_d8():
    # P(<= x) = min(x,6)/6 x x/8: x <= 6 gives x^2/48, so P(= x) = (2x-1)/48 for x <= 6;
    # above 6, P(<= x) = x/8, so P(7) = P(8) = 1/8.
    want = {x: F(2 * x - 1, 48) for x in range(1, 7)} | {7: F(1, 8), 8: F(1, 8)}
    assert exact.highest((8, 6)).pmf() == want


def test_empty_pool_is_zero():
    assert exact.highest(()).pmf() == {0: 1}


# ---- p_hit --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defense", "spot", "want"),
    [
        # d6 v d6: P(A > D) = (1 - P(tie))/2 = (1 - 6/36)/2 = 15/36 = 5/12.
        ("1d6", "1d6", 0, F(5, 12)),
        # max 2d6 v max 2d6: P(= k) = (2k-1)/36; P(tie) = (1+9+25+49+81+121)/1296 =
        # 286/1296; P(A > D) = (1296 - 286)/2/1296 = 505/1296.
        ("2d6", "2d6", 0, F(505, 1296)),
        # no Defense dice: Defense 0, every face of the d6 is >= 1.
        ("1d6", "0", 0, F(1)),
        # d8 v d6: sum over d of P(A > d)/6 = (7+6+5+4+3+2)/8/6 = 27/48 = 9/16.
        ("1d8", "1d6", 0, F(9, 16)),
        # spot 1: A + 1 - D >= 1 is A >= D: (36 - 15)/36 = 21/36 = 7/12.
        ("1d6", "1d6", 1, F(7, 12)),
        # spot 5: misses only on A = 1, D = 6: 35/36.
        ("1d6", "1d6", 5, F(35, 36)),
        # 1d6 v max 2d6: sum over a of 1/6 x P(D < a) = sum (a-1)^2/216 = 55/216.
        ("1d6", "2d6", 0, F(55, 216)),
    ],
)
def test_p_hit(catalog, attack, defense, spot, want):
    assert exact.p_hit(pool(attack), pool(defense), spot, catalog.params) == want


def test_attack_table_rows(frames):
    t = frames["attack"]
    assert row(t, attack_pool="1d6", defense_pool="0", spot=0)["p_hit"] == "1"
    assert row(t, attack_pool="2d6", defense_pool="2d6", spot=0)["p_hit"] == "505/1296"
    assert row(t, attack_pool="1d6", defense_pool="2d6", spot=0)["p_hit"] == "55/216"
    r = row(t, attack_pool="1d6+1d8", defense_pool="3d6", spot=8)
    assert r["p_hit"] == "1" and r["p_hit_float"] == 1.0  # 1 + 8 - 6 >= 1 always


def test_attack_pools_derived(catalog):
    texts = [rules.pool_text(x) for x in exact.attack_pools(catalog)]
    # weapons: 0..5 systems (Bulwark 5 slots, 3 kinds x 2): the first 1d6, later 1d8;
    # 0..2 rockets of 1d8; dedup; then + 2d6 Skill; the empty pool dropped.
    base = ["1d6", "1d8", "1d6+1d8", "2d8"] + [f"1d6+{k}d8" for k in range(2, 7)]
    skill = ["2d6", "3d6", "2d6+1d8", "3d6+1d8", "2d6+2d8"] + [f"3d6+{k}d8" for k in range(2, 7)]
    assert sorted(texts) == sorted(base + skill)
    assert texts[: len(base)] == base  # pools without Skill dice first
    defense = [rules.pool_text(x) for x in exact.defense_pools(catalog)]
    # 0..4 defensive systems: 0, 2d6, 3d6, 4d6, 5d6; with Skill: 2d6 .. 7d6.
    assert defense == ["0", "2d6", "3d6", "4d6", "5d6", "6d6", "7d6"]


def test_pools_follow_the_parameters():
    no_rockets = {f"loadout.{lid}.rockets": 0 for lid in ("skirmisher", "scout", "lancer")}
    cat = load_catalog(CATALOGS, overrides={"rockets_max": 0, "skill_dice": 0, **no_rockets})
    texts = [rules.pool_text(x) for x in exact.attack_pools(cat)]
    assert texts == ["1d6", "1d6+1d8"] + [f"1d6+{k}d8" for k in range(2, 5)]
    assert [rules.pool_text(x) for x in exact.defense_pools(cat)] == [
        "0",
        "2d6",
        "3d6",
        "4d6",
        "5d6",
    ]
    assert exact.tables(cat)["attack"].height == 5 * 5 * 9


# ---- margin -------------------------------------------------------------------------------------


def test_margin_d6_v_d6(catalog):
    # margin k >= 1 when A - D = k: 6 - k pairs of 36; a miss when A <= D: 21/36 = 7/12.
    d = exact.margin_dist((6,), (6,), 0, catalog.params)
    assert d.pmf() == {0: F(7, 12)} | {k: F(6 - k, 36) for k in range(1, 6)}


def test_margin_spot(catalog):
    # spot 2 adds to the margin (DESIGN reading): 1d6 v nothing rolls face + 2 dice.
    d = exact.margin_dist((6,), (), 2, catalog.params)
    assert d.pmf() == {k: F(1, 6) for k in range(3, 9)}
    off = load_catalog(CATALOGS, overrides={"spot_adds_to_margin": "off"})
    # without Spot in the margin: A - D, at least 1 on a hit: 1d6 v 0 is the face.
    assert exact.margin_dist((6,), (), 2, off.params).pmf() == {k: F(1, 6) for k in range(1, 7)}


def test_margin_table_consistent(frames):
    m, a = frames["margin"], frames["attack"]
    keys = ["attack_pool", "defense_pool", "spot"]
    sums = totals(m, keys)
    assert set(sums.values()) == {1} and len(sums) == a.height
    miss = m.filter(pl.col("margin") == 0).join(a, on=keys)
    assert all(F(p) == 1 - F(h) for p, h in zip(miss["p"], miss["p_hit"], strict=True))
    # a section (attack_pool, spot) lists the same margins for every Defense pool
    spans = m.group_by(["attack_pool", "spot", "defense_pool"]).agg(pl.col("margin").max())
    assert (
        spans.group_by(["attack_pool", "spot"])
        .agg(pl.col("margin").n_unique())
        .select(pl.col("margin").max())
        .item()
        == 1
    )
    # 1d6 v 0 at spot 0: margins 0..1d8's max 8 (+0); 0 and 7, 8 hold p = 0 here
    assert row(m, attack_pool="1d6", defense_pool="0", spot=0, margin=0)["p"] == "0"


# ---- icepool: every row family of attack.csv and margin.csv ----------------------------------- -


def _ice_highest(dice: tuple[int, ...]) -> icepool.Die:
    # (icepool.highest of a single die would read the die as its outcomes: use a Pool)
    if not dice:
        return icepool.Die([0])
    return icepool.Pool([icepool.d(s) for s in dice]).highest(1).sum()


def test_attack_and_margin_against_icepool(catalog, frames):
    """Every (Attack pool, Defense pool) of the tables, every spot: P(hit) = P(A + spot -
    D >= 1) and the margin max(A + spot - D, 0) (hit_at 1, Spot in the margin) by
    icepool."""
    assert catalog.params.hit_at == 1 and catalog.params.spot_adds_to_margin == "on"
    p_hit = {
        (r["attack_pool"], r["defense_pool"], r["spot"]): F(r["p_hit"])
        for r in frames["attack"].iter_rows(named=True)
    }
    margin: dict[tuple, dict[int, F]] = {}
    for r in frames["margin"].iter_rows(named=True):
        if r["p"] != "0":
            margin.setdefault((r["attack_pool"], r["defense_pool"], r["spot"]), {})[r["margin"]] = (
                F(r["p"])
            )
    checked = 0
    for atk in exact.attack_pools(catalog):
        for dfn in exact.defense_pools(catalog):
            diff = _ice_highest(atk) - _ice_highest(dfn)
            for spot in exact.SPOTS:
                key = (rules.pool_text(atk), rules.pool_text(dfn), spot)
                assert p_hit[key] == diff.probability(">=", 1 - spot), key
                ice = (diff + spot).map(lambda v: max(v, 0))
                assert margin[key] == dict(zip(ice.outcomes(), ice.probabilities(), strict=True)), (
                    key
                )
                checked += 1
    assert checked == len(p_hit) == 19 * 7 * 9


# ---- direct hits, systems -----------------------------------------------------------------------


def test_direct_hits_by_hand(frames):
    t = frames["direct_hits"]
    # exposed, 2 dice of 1/3: (2/3)^2 = 4/9, 2 x 1/3 x 2/3 = 4/9, 1/9.
    got = [row(t, case="exposed", margin=2, direct_hits=k)["p"] for k in range(3)]
    assert got == ["4/9", "4/9", "1/9"]
    # close, 3 dice of 1/2: 1/8, 3/8, 3/8, 1/8.
    got = [row(t, case="close", margin=3, direct_hits=k)["p"] for k in range(4)]
    assert got == ["1/8", "3/8", "3/8", "1/8"]
    # cover, 12 dice of 1/6, all Direct Hits: (1/6)^12.
    assert row(t, case="cover", margin=12, direct_hits=12)["p"] == f"1/{6**12}"
    # smart, 1 die: 4-6, 1/2.
    assert row(t, case="smart", margin=1, direct_hits=1)["p"] == "1/2"
    assert t.height == 4 * sum(m + 1 for m in range(1, 13))


def test_direct_hit_chance_matches_the_faces(catalog):
    p = catalog.params
    for case in range(len(rules.CASES)):
        faces = sum(f >= rules.direct_from(case, p) for f in range(1, p.damage_die + 1))
        assert exact.direct_hit_p(case, p) == F(faces, p.damage_die)


def test_systems_for_four_direct_hits(frames):
    t = frames["systems"].filter(pl.col("direct_hits") == 4)
    # 4 Direct Hits: 2 losses, each the pilot on a 6 (1/6): both systems (5/6)^2 = 25/36,
    # one each 2 x 1/6 x 5/6 = 10/36 = 5/18, the pilot twice 1/36.
    got = {(r["systems_destroyed"], r["pilot_hits"]): r["p"] for r in t.iter_rows(named=True)}
    assert got == {(2, 0): "25/36", (1, 1): "5/18", (0, 2): "1/36"}
    # 1 Direct Hit: nothing lost yet
    one = frames["systems"].filter(pl.col("direct_hits") == 1)
    assert one.select("systems_destroyed", "pilot_hits", "p").rows() == [(0, 0, "1")]


def test_systems_choice():
    cat = load_catalog(CATALOGS, overrides={"system_loss": "choice"})
    t = exact.systems_table(cat).filter(pl.col("direct_hits") == 5)
    # choice: every loss a system, no loss die: 5 // 2 = 2 systems, certain.
    assert t.select("systems_destroyed", "pilot_hits", "p").rows() == [(2, 0, "1")]


# ---- morale, battery, repairs -------------------------------------------------------------------


def test_morale(frames):
    t = frames["morale"]
    # P(2d6 > 7) = (5+4+3+2+1)/36 = 15/36 = 5/12; > 10: 3/36 = 1/12; > 3: 33/36 = 11/12.
    assert row(t, rating=7)["p_rout"] == "5/12"
    assert row(t, rating=10)["p_rout"] == "1/12"
    assert row(t, rating=3)["p_rout"] == "11/12"
    assert t["rating"].to_list() == list(range(3, 11))


def test_battery(frames):
    t = frames["battery"]
    # 1 - (5/6)^3 = 91/216; one turn 1/6.
    assert row(t, turns=3)["p_shutdown"] == "91/216"
    assert row(t, turns=1)["p_shutdown"] == "1/6"
    assert row(t, turns=12)["p_shutdown"] == f"{6**12 - 5**12}/{6**12}"


def test_repairs(frames):
    t = frames["repairs"]
    # face 1 (1/6): none; 2-3 (1/3): 1d3; 4-6 (1/2): 1d6.
    # P(0) = 1/6; P(1..3) = 1/3 x 1/3 + 1/2 x 1/6 = 7/36; P(4..6) = 1/2 x 1/6 = 1/12.
    want = ["1/6"] + ["7/36"] * 3 + ["1/12"] * 3
    assert t["systems_replaced"].to_list() == list(range(7))
    assert t["p"].to_list() == want


# ---- the round ----------------------------------------------------------------------------------


def test_round_d6_v_d6(catalog):
    # Attack pool 1d6, Defense pool 1d6, both with 2d6 Skill: the first attack is A (d6)
    # against D (d6): 5/12; the pool has run out, so the second is the attacker's highest
    # Skill die against the defender's highest Skill die (max 2d6 each): 505/1296; the
    # two are independent.
    # P(2) = 5/12 x 505/1296 = 2525/15552; P(0) = 7/12 x 791/1296 = 5537/15552;
    # P(1) = (5 x 791 + 7 x 505)/15552 = 7490/15552 = 3745/7776.
    hits, _ = exact.round_outcome((6,), (6,), catalog.params)
    assert hits.pmf() == {0: F(5537, 15552), 1: F(3745, 7776), 2: F(2525, 15552)}


def test_round_expected_direct_hits_by_hand(catalog):
    # Attack 1d6 against no Defense dice and no Skill dice: the first attack rolls the
    # face in damage dice (mean 7/2); the second has no die left, Attack 0 v Defense 0
    # misses. Exposed 1/3 a die: 7/2 x 1/3 = 7/6.
    bare = load_catalog(CATALOGS, overrides={"skill_dice": 0})
    hits, dh = exact.round_outcome((6,), (), bare.params)
    assert hits.pmf() == {1: F(1)}
    assert dh == F(7, 6)


def test_round_tables(frames, catalog):
    r, d = frames["round"], frames["round_direct_hits"]
    n = len(catalog.loadouts)
    assert r.height == 3 * n * n and d.height == n * n
    assert set(totals(r, ["attacker", "defender"]).values()) == {1}
    g = row(d, attacker="gunner", defender="sentinel")
    assert (g["attack_pool"], g["defense_pool"]) == ("1d6+1d8", "5d6")


def test_top_two_against_icepool(catalog):
    """The joint (highest, second-highest) of every Attack and Defense pool with two
    dice or more, by icepool's expand of the highest two."""
    pools = {x for x in exact.attack_pools(catalog) + exact.defense_pools(catalog) if len(x) >= 2}
    for dice in pools:
        ice = icepool.Pool([icepool.d(s) for s in dice]).highest(2).expand()
        want = {
            (hi, lo): p for (lo, hi), p in zip(ice.outcomes(), ice.probabilities(), strict=True)
        }
        assert exact.top_two(dice) == want, dice


def _ice_first_two(dice: tuple[int, ...], skill: tuple[int, ...]) -> icepool.Die:
    """(first, second) die a Knight assigns, by icepool: the pool's top two, else its one
    die then the highest Skill die, else the Skill dice's top two (0 when missing)."""

    def top(ds):
        if len(ds) >= 2:
            return (
                icepool.Pool([icepool.d(s) for s in ds])
                .highest(2)
                .expand()
                .map(lambda t: (t[1], t[0]))
            )
        return _ice_highest(ds).map(lambda v: (v, 0))

    if len(dice) == 1:
        return icepool.map(lambda a, s: (a, s), icepool.d(dice[0]), _ice_highest(skill))
    return top(dice if dice else skill)


def test_round_against_icepool(catalog, frames):
    """Every row of round.csv: hits of two attacks, first die against first die, second
    against second (hit_at 1, spot 0), by icepool over the joint first-two dice."""
    skill = rules.skill_dice(catalog.params)
    pools = exact.loadout_pools(catalog)
    got = {
        (r["attacker"], r["defender"], r["hits"]): F(r["p"])
        for r in frames["round"].iter_rows(named=True)
    }
    memo = {}
    for attacker, (atk, _) in pools.items():
        for defender, (_, dfn) in pools.items():
            if (atk, dfn) not in memo:
                hits = icepool.map(
                    lambda a, d: (a[0] > d[0]) + (a[1] > d[1]),
                    _ice_first_two(atk, skill),
                    _ice_first_two(dfn, skill),
                )
                memo[(atk, dfn)] = dict(zip(hits.outcomes(), hits.probabilities(), strict=True))
            want = memo[(atk, dfn)]
            for k in range(3):
                assert got[(attacker, defender, k)] == want.get(k, 0), (attacker, defender)


# ---- declarations and Markdown ------------------------------------------------------------------


def test_frames_match_declarations(frames):
    assert [t.stem for t in exact.TABLES] == list(frames)
    for table in exact.TABLES:
        assert frames[table.stem].columns == table.file_columns(), table.stem


def test_markdown_renders(frames):
    """Every pivot finds a cell for each row x column of each section."""
    for table in exact.TABLES:
        text = render_markdown(table, frames[table.stem], "Alluvion Knights")
        assert text.startswith(f"# Alluvion Knights: {table.stem}")
    attack = render_markdown(exact.TABLES[0], frames["attack"], "Alluvion Knights")
    assert "## spot 0" in attack and "| 1d6 | 100.0% |" in attack
