"""Skirmish exact tables: contract columns and values derived by hand (003 F)."""

from fractions import Fraction

import polars as pl
import pytest

from sims.skirmish import exact

NAMED_KITS = ["courier", "foreman", "reaver", "bastion"]


@pytest.fixture(scope="module")
def tables(skirmish):
    return exact.tables(skirmish)


def row(frame: pl.DataFrame, **keys) -> dict:
    found = frame.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items()))
    assert found.height == 1, keys
    return found.row(0, named=True)


def test_hit_table_contract(tables):
    hit = tables["hit"]
    assert hit.columns == ["bonus", "evasion", "modifier", "p_hit", "p_hit_float"]
    assert hit.height == 11 * 15 * 7
    assert row(hit, bonus=0, evasion=6, modifier=0)["p_hit"] == "3/4"
    assert row(hit, bonus=0, evasion=20, modifier=0)["p_hit"] == "1/20"
    assert row(hit, bonus=10, evasion=6, modifier=0)["p_hit"] == "19/20"
    assert row(hit, bonus=0, evasion=20, modifier=1)["p_hit"] == "9/40"
    # a fraction string and its float agree everywhere
    for r in hit.iter_rows(named=True):
        assert float(Fraction(r["p_hit"])) == pytest.approx(r["p_hit_float"])


def test_penetration_table_contract(tables):
    pen = tables["penetration"]
    assert pen.columns == [
        "pen", "armor", "margin", "variant",
        "glance", "glance_float", "full", "full_float", "crit", "crit_float",
    ]  # fmt: skip
    assert pen.height == 7 * 8 * 5 * 3
    for r in pen.iter_rows(named=True):
        assert Fraction(r["glance"]) + Fraction(r["full"]) + Fraction(r["crit"]) == 1
    r = row(pen, pen=2, armor=5, margin=4, variant="plain")
    assert Fraction(r["full"]) + Fraction(r["crit"]) == Fraction(2, 3)  # 003 F5
    r = row(pen, pen=2, armor=8, margin=4, variant="plain")
    assert (r["glance"], r["full"], r["crit"]) == ("5/6", "1/6", "0")  # 003 F5
    r = row(pen, pen=4, armor=5, margin=3, variant="nat20")
    assert (r["glance"], r["full"], r["crit"]) == ("0", "1/3", "2/3")
    r = row(pen, pen=4, armor=5, margin=3, variant="brace")
    assert (r["glance"], r["full"], r["crit"]) == ("1/6", "1/2", "1/3")
    r = row(pen, pen=0, armor=10, margin=6, variant="plain")
    assert (r["glance"], r["full"], r["crit"]) == ("1", "0", "0")


def test_foreman_bands(tables):
    bands = tables["bands"]
    assert bands.columns == ["kit", "cover", "part", "first", "last", "p_strike", "p_strike_float"]
    f = bands.filter((pl.col("kit") == "foreman") & (pl.col("cover") == "none"))
    # 003 F4: Head 1, Right Arm 2-4, Left Arm 5-7, Core 8-13, Back 14-15, Legs 16-20
    assert f.select("part", "first", "last", "p_strike").rows() == [
        ("head", 1, 1, "1/20"), ("right_arm", 2, 4, "3/20"), ("left_arm", 5, 7, "3/20"),
        ("core", 8, 13, "3/10"), ("back", 14, 15, "1/10"), ("legs", 16, 20, "1/4"),
    ]  # fmt: skip
    hard = bands.filter((pl.col("kit") == "foreman") & (pl.col("cover") == "hard"))
    assert hard["part"].to_list()[-1] == "cover" and "legs" not in hard["part"].to_list()
    for (_, _), g in bands.group_by(["kit", "cover"]):
        assert sum(Fraction(p) for p in g["p_strike"]) == 1


def test_cannon_crit_share_by_hand(skirmish):
    cannon = skirmish.parts["cannon"]
    from dataclasses import replace

    # Foreman, Evasion 9, attacker accuracy 2: P(hit) = 14/20, P(nat 20 | hit) = 1/14.
    # Bands/Armor: head 1 @4, arms 3+3 @5, core 6 @5, back 2 @3, legs 5 @5.
    # Margin 3 crit iff d6 >= A-1 (A-2 on a natural 20):
    #   (1*57 + 17*43 + 2*71) / (20*84) = 930/1680 = 31/56
    m3 = replace(skirmish.params, crit_margin=3)
    assert exact.crit_share(cannon, skirmish.mech("foreman"), m3) == Fraction(31, 56)
    # Margin 4 crit iff d6 >= A (A-1 on a natural 20): (43 + 17*29 + 2*57)/1680 = 65/168
    m4 = replace(skirmish.params, crit_margin=4)
    assert exact.crit_share(cannon, skirmish.mech("foreman"), m4) == Fraction(65, 168)


def test_cannon_53_percent_claim(skirmish):
    # DESIGN.md: averaged over the four named kits, 0.50-0.56 at margin 3, <= 0.43 at 4.
    at3 = exact.mean_crit_share(skirmish, "cannon", NAMED_KITS, 3)
    at4 = exact.mean_crit_share(skirmish, "cannon", NAMED_KITS, 4)
    assert Fraction(50, 100) <= at3 <= Fraction(56, 100)
    assert at4 <= Fraction(43, 100)
    assert at4 < at3


def test_weapon_vs_kit_rifle_on_foreman(tables):
    wvk = tables["weapon_vs_kit"]
    assert wvk.columns == [
        "weapon", "kit", "p_hit", "p_hit_float", "crit_share", "crit_share_float",
        "expected_damage", "expected_damage_float",
    ]  # fmt: skip
    r = row(wvk, weapon="rifle", kit="foreman")
    # accuracy 2 + 1 vs Evasion 9: naturals 6..20 -> 3/4; P(nat20 | hit) = 1/15.
    assert r["p_hit"] == "3/4"
    # P(full or crit | hit): head A4 76/90, 17 bands at A5 61/90, back A3 1
    # -> (76 + 17*61 + 2*90) / 1800 = 1293/1800; damage 1d6+1 averages 9/2.
    assert Fraction(r["expected_damage"]) == Fraction(3, 4) * Fraction(1293, 1800) * Fraction(9, 2)
    # shields are not weapons; every weapon meets every kit once
    assert "shield" not in wvk["weapon"].to_list()
    assert wvk.height == wvk.select("weapon", "kit").unique().height


def test_strikes_sum_to_one_and_match_crit_share(tables):
    strikes, wvk = tables["strikes"], tables["weapon_vs_kit"]
    for (weapon, kit), g in strikes.group_by(["weapon", "kit"]):
        assert sum(Fraction(p) for p in g["p"]) == 1
        crit = sum(Fraction(p) for p, o in zip(g["p"], g["outcome"], strict=True) if o == "crit")
        assert crit == Fraction(row(wvk, weapon=weapon, kit=kit)["crit_share"])


def test_glance_half_adds_damage(skirmish):
    from dataclasses import replace

    rifle, bastion = skirmish.parts["rifle"], skirmish.mech("bastion")
    none = exact.expected_damage(rifle, bastion, skirmish.params)
    half = exact.expected_damage(rifle, bastion, replace(skirmish.params, glance_damage="half"))
    assert half > none
