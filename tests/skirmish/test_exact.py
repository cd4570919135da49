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
        "pen",
        "armor",
        "margin",
        "variant",
        "glance",
        "glance_float",
        "full",
        "full_float",
        "crit",
        "crit_float",
    ]
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
        ("head", 1, 1, "1/20"),
        ("right_arm", 2, 4, "3/20"),
        ("left_arm", 5, 7, "3/20"),
        ("core", 8, 13, "3/10"),
        ("back", 14, 15, "1/10"),
        ("legs", 16, 20, "1/4"),
    ]
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
        "weapon",
        "kit",
        "p_hit",
        "p_hit_float",
        "crit_share",
        "crit_share_float",
        "expected_damage",
        "expected_damage_float",
    ]
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
    # 1d6+1 rolls 2..7; half of each, rounded down: 1, 1, 2, 2, 3, 3 (mean 2, not 5/2)
    means = exact.outcome_damage_means(rifle, replace(skirmish.params, glance_damage="half"))
    assert means == {"glance": 2, "full": Fraction(9, 2), "crit": Fraction(9, 2)}
    assert exact.outcome_damage_means(rifle, skirmish.params)["glance"] == 0


# ---- damage_by_range: the standard Medium and the Shield against melee (003 F11.6) ----------


def test_reaver_blade_at_the_foreman_by_hand(skirmish):
    """The Reaver's Blade (melee, F11.2) at the Foreman, adjacent.

    Catalog: Ruko Piloting 2 + Blade Acc 1 + halo Head Acc 0 = 3 (melee rolls Piloting,
    F11); the Foreman's Evasion 7 + 1 + 1 = 9; Blade Pen 3, 2d6 (mean 7). The Foreman's
    left arm is the buckler, a Shield arm, and 003 F11.6 reads "An intact Shield arm
    gives melee attacks against you 1[-]": one [-] die, nothing cancels it.
    Hit: the result is -d, d = 1..6; a natural n in 2..19 hits when n + 3 - d >= 9, i.e.
    n >= 6 + d (14 - d faces), plus the natural 20: P(hit | d) = (15 - d)/20, so
    P(hit) = (15 - 7/2)/20 = 23/40 and P(natural 20 | hit) = (1/20)/(23/40) = 2/23.
    Penetration d6 + 3 (+1 on a natural 20): only the 17 Armor-5 bands (arms 3 + 3,
    core 6, legs 5) can glance, on a d6 of 1 and not on a natural 20: P(glance | hit) =
    17/20 x 21/23 x 1/6 = 119/920. A glance does nothing, full and crit roll 2d6:
    E[damage | hit] = 7 x 801/920 = 5607/920; per Fire action 23/40 x 5607/920 =
    5607/1600 (3.504). Without the Shield's die it was 3/4 x 7 x (1 - 17/20 x 14/15 x
    1/6) = 5467/1200 (4.556): the table's old value, which forgot F11.6."""
    by_hand = Fraction(23, 40) * 7 * (1 - Fraction(17, 20) * Fraction(21, 23) * Fraction(1, 6))
    assert by_hand == Fraction(5607, 1600)
    forgot = Fraction(3, 4) * 7 * (1 - Fraction(17, 20) * Fraction(14, 15) * Fraction(1, 6))
    assert forgot == Fraction(5467, 1200)
    reaver, foreman = skirmish.mech("reaver"), skirmish.mech("foreman")
    blade = skirmish.parts["blade"]
    value = exact.damage_at_distance(blade, reaver, foreman, 1, skirmish.params)
    assert value == by_hand
    frame = exact.damage_by_range_table(skirmish)
    r = row(frame, kit="reaver", distance=1)
    assert (r["target"], r["weapon"], r["expected_damage"]) == ("foreman", "blade", "5607/1600")
    # The same Blade at the Courier (no Shield arm) has no modifier dice at all.
    courier = skirmish.mech("courier")
    plain = exact.fire_damage(blade, courier, skirmish.params, accuracy=3)
    assert exact.damage_at_distance(blade, reaver, courier, 1, skirmish.params) == plain


def test_standard_medium_is_data(skirmish):
    """damage_by_range's target is the rules' standard Medium (Foreman by default)."""
    from dataclasses import replace

    assert skirmish.params.standard_medium == exact.standard_medium(skirmish) == "foreman"
    assert set(exact.damage_by_range_table(skirmish)["target"]) == {"foreman"}
    params = replace(skirmish.params, standard_medium="reaver")
    frame = exact.damage_by_range_table(replace(skirmish, params=params))
    assert set(frame["target"]) == {"reaver"}
    # the Reaver carries no Shield arm: a Blade at it has no modifier dice
    r = row(frame, kit="reaver", distance=1)
    assert r["weapon"] == "blade"
    blade = skirmish.parts["blade"]
    assert Fraction(r["expected_damage"]) == exact.fire_damage(
        blade, skirmish.mech("reaver"), params, accuracy=3
    )


# ---- the modifier dice of a Fire action (sims/skirmish/modifiers.py, 003 F3) ------------------


def _situations():
    """Every situation field, one at a time, with the dice 003 and rules.toml give it."""
    from sims.skirmish.modifiers import Situation

    return [
        # (situation, expected (sign, reason, section) per die)
        (Situation(), []),
        (Situation(long_range=True), [(-1, "long range", "F Declare")]),
        (Situation(cover=1), [(-1, "soft cover", "H5")]),
        (Situation(cover=2), [(-1, "hard cover", "H5")] * 2),
        (Situation(cover=2, melee=True), []),  # F11: melee ignores cover
        (Situation(engaged=True), [(-1, "Engaged: adjacent hostile", "E")]),
        (Situation(engaged=True, melee=True), []),  # F11: and Engaged
        (Situation(heavy=True), []),  # Heavy only after moving
        (Situation(moved=True), []),
        (Situation(heavy=True, moved=True), [(-1, "Heavy weapon after moving", "B tags")]),
        (Situation(reaction=True), [(-1, "reaction attack", "E6")]),
        (Situation(aimed=True), [(-1, "Aimed Shot", "E")]),
        (Situation(target_shield=True), []),  # a Shield arm only answers melee
        (Situation(target_shield=True, melee=True), [(-1, "target's intact Shield arm", "F11.6")]),
        (Situation(bonded=True), [(1, "bonded partner near", "D4")]),
        (Situation(locked=True), [(1, "target Locked", "E Lock On")]),
        (Situation(charge_hexes=2, melee=True), []),  # 1[+] per 3 hexes moved
        (Situation(charge_hexes=3, melee=True), [(1, "Charge momentum", "F11.3")]),
        (Situation(charge_hexes=9, melee=True), [(1, "Charge momentum", "F11.3")] * 2),  # max 2
        (Situation(extra=-2), [(-1, "designer's extra dice (--modifier)", "F3")] * 2),
        (Situation(extra=1), [(1, "designer's extra dice (--modifier)", "F3")]),
    ]


def test_fire_dice_each_reason_by_hand(skirmish):
    from sims.skirmish import modifiers

    assert (
        skirmish.params.long_range_dice,
        skirmish.params.hard_cover_dice,
        skirmish.params.soft_cover_dice,
        skirmish.params.charge_max_dice,
        skirmish.params.charge_hexes_per_die,
    ) == (1, 2, 1, 2, 3)
    for situation, want in _situations():
        got = modifiers.fire_dice(situation, skirmish.params)
        assert [(d.sign, d.reason, d.section) for d in got.dice] == want, situation
        assert (
            got.net == sum(s for s, _, _ in want) == modifiers.net_dice(situation, skirmish.params)
        )


def test_fire_dice_cancel_and_table_effects(skirmish):
    """Dice cancel one for one (003 F3); crit and stress dice come from tables.toml."""
    from sims.skirmish import modifiers
    from sims.skirmish.modifiers import Die, EffectDice, Situation

    effects = EffectDice.of(skirmish)
    assert effects == EffectDice(crit=1, stress=1)  # targeting_scramble, the stress flicker
    s = Situation(long_range=True, cover=2, locked=True, bonded=True, attack_crits=2, flicker=True)
    got = modifiers.fire_dice(s, skirmish.params, effects)
    # 1 + 2 + 2 + 1 [-] against 1 + 1 [+]: net 4[-]
    assert got.net == -4 and len(got.dice) == 8
    assert got.grouped() == (
        (-1, "long range", "F Declare"),
        (-2, "hard cover", "H5"),
        (-2, "crit effect on attacks", "F7"),
        (-1, "stress: next attack", "G"),
        (1, "bonded partner near", "D4"),
        (1, "target Locked", "E Lock On"),
    )
    assert Die(-1, "stress: next attack", "G") in got.dice
    # designer dice of both signs cancel against the situation's
    assert modifiers.fire_dice(Situation(long_range=True, extra=1), skirmish.params).net == 0


def test_shot_situation_reads_weapon_target_and_distance(skirmish):
    from sims.skirmish import modifiers

    p = skirmish.params
    rifle, blade, cannon = (skirmish.parts[w] for w in ("rifle", "blade", "cannon"))
    foreman, courier = skirmish.mech("foreman"), skirmish.mech("courier")

    def net(*args, **kw):
        return modifiers.fire_dice(modifiers.shot_situation(*args, **kw), p).net

    assert net(rifle, foreman, 8, p) == 0  # Range 8: optimal
    assert net(rifle, foreman, 12, p) == -1  # long range to 8 * 150 // 100 = 12
    assert net(rifle, foreman, 1, p) == -1  # Engaged
    assert net(rifle, foreman, 8, p, cover="hard") == -2
    assert net(blade, foreman, 1, p, cover="hard") == -1  # only the buckler's die
    assert net(blade, courier, 1, p) == 0  # no Shield arm
    assert net(cannon, foreman, cannon.range, p, moved=True) == -1  # Heavy after moving
    with pytest.raises(ValueError, match="cover must be one of"):
        modifiers.shot_situation(rifle, foreman, 8, p, cover="partial")


def test_net_dice_ints_and_arrays_agree(skirmish):
    """The one formula on ints and on NumPy arrays over a grid of every field."""
    import itertools

    import numpy as np

    from sims.skirmish import modifiers
    from sims.skirmish.modifiers import EffectDice, Situation

    effects = EffectDice(crit=1, stress=2)
    flags = (
        "melee",
        "long_range",
        "engaged",
        "heavy",
        "moved",
        "bonded",
        "locked",
        "reaction",
        "aimed",
        "target_shield",
        "flicker",
    )
    # Every combination of the flags with every cover, the counts cycled along; then
    # every combination of the counts with and without melee.
    counts = list(itertools.product((0, 2, 3, 7), (0, 1, 2), (-3, 0, 2)))
    grid = [
        (*f, c, *counts[i % len(counts)])
        for i, (f, c) in enumerate(
            itertools.product(itertools.product((False, True), repeat=len(flags)), (0, 1, 2))
        )
    ]
    grid += [
        (m, *([True] * (len(flags) - 1)), c, *k)
        for m in (False, True)
        for c in (0, 2)
        for k in counts
    ]
    cols = list(zip(*grid, strict=True))
    names = (*flags, "cover", "charge_hexes", "attack_crits", "extra")
    arrays = {
        n: np.array(c, dtype=bool if n in flags else np.int64)
        for n, c in zip(names, cols, strict=True)
    }
    batched = modifiers.net_dice(Situation(**arrays), skirmish.params, effects)
    assert batched.dtype == np.int64 and batched.shape == (len(grid),)
    scalar = [
        modifiers.fire_dice(
            Situation(**dict(zip(names, g, strict=True))), skirmish.params, effects
        ).net
        for g in grid
    ]
    assert batched.tolist() == scalar
    assert isinstance(modifiers.net_dice(Situation(cover=2), skirmish.params), int)
    with pytest.raises(TypeError):
        modifiers.fire_dice(Situation(**arrays), skirmish.params)
