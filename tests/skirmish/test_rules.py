"""Skirmish rule functions against values derived by hand from the rulebook (003)."""

from dataclasses import replace
from fractions import Fraction

import pytest

from sims.skirmish import rules


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        ((2, 5, 5, 10, 3, 8), (1, 3, 3, 6, 2, 5)),  # 003 F4 standard Medium from raw Sizes
        ((1, 3, 3, 6, 2, 5), (1, 3, 3, 6, 2, 5)),  # already sums to 20
        ((1, 1, 1, 1, 1, 1), (4, 4, 3, 3, 3, 3)),  # equal remainders and Sizes: earlier part
        ((3, 3, 1, 1), (8, 8, 2, 2)),  # 7.5/7.5/2.5/2.5: tie to the larger Size
        ((1, 1, 3, 3), (2, 2, 8, 8)),  # ...even when the larger Size comes later
        ((1, 100), (0, 20)),  # no minimum: a part can own no band
    ],
)
def test_bands_largest_remainder(sizes, expected):
    assert rules.bands(sizes) == expected
    assert sum(rules.bands(sizes)) == 20


def test_band_ranges_and_location():
    counts = (1, 3, 3, 6, 2, 5)
    assert rules.band_ranges(counts) == [
        (0, 1, 1),
        (1, 2, 4),
        (2, 5, 7),
        (3, 8, 13),
        (4, 14, 15),
        (5, 16, 20),
    ]
    assert [rules.location_of(r, counts) for r in (1, 2, 7, 8, 13, 14, 20)] == [0, 1, 2, 3, 3, 4, 5]
    assert rules.band_ranges((0, 20)) == [(1, 1, 20)]


def test_modifier_dice_highest_of_two_d6():
    two_plus = rules.modifier(2)
    for k in range(1, 7):
        assert two_plus.p_eq(k) == Fraction(2 * k - 1, 36)  # (k^2 - (k-1)^2) / 36
    assert rules.modifier(-1).p_eq(-6) == Fraction(1, 6)
    assert rules.modifier(0).p_eq(0) == 1
    # 003 F3: cancel one for one
    assert rules.modifier(rules.net_modifier_dice(3, 1)) == two_plus
    assert rules.modifier_result([2, 5], 2) == 5
    assert rules.modifier_result([2, 5], -2) == -5


@pytest.mark.parametrize(
    ("bonus", "evasion", "net", "p"),
    [
        (0, 6, 0, Fraction(3, 4)),  # naturals 6..20
        (5, 20, 0, Fraction(3, 10)),  # naturals 15..20
        (0, 20, 0, Fraction(1, 20)),  # only the natural 20
        (10, 6, 0, Fraction(19, 20)),  # all but the natural 1
        (0, 20, 1, Fraction(9, 40)),  # nat 20 + sum_{r=14..19} (r-13)/6 / 20 = (1 + 21/6)/20
        # 1[-]: r - d6 >= 6 needs d6 <= r - 6: (1+2+3+4+5 + 6*8)/6 = 63/6 of 18 naturals,
        # plus the natural 20: (1 + 63/6) / 20 = 23/40
        (0, 6, -1, Fraction(23, 40)),
    ],
)
def test_hit_chances(bonus, evasion, net, p):
    assert rules.hit_chances(bonus, evasion, net) == (p, Fraction(1, 20))


def test_hit_scalar_rule():
    assert rules.hits(20, -10, -6, 30)  # natural 20 always hits
    assert not rules.hits(1, 30, 6, 2)  # natural 1 always misses
    assert rules.hits(7, 2, 0, 9) and not rules.hits(6, 2, 0, 9)


def test_penetration_hand_values():
    # 003 F5: Rifle Pen 2 on Armor 5 reaches Armor two rolls in three, on Armor 8 one in six.
    for armor, p in ((5, Fraction(2, 3)), (8, Fraction(1, 6))):
        odds = rules.penetration(2, armor, 4)
        assert odds["full"] + odds["crit"] == p
    # Cannon Pen 4 on Armor 5, margin 3: d6+4 in 5..10, crit at 8+.
    assert rules.penetration(4, 5, 3) == {
        "glance": 0,
        "full": Fraction(1, 2),
        "crit": Fraction(1, 2),
    }
    # natural 20: d6+5, crit at 8+ -> d6 >= 3
    assert rules.penetration(4, 5, 3, nat20=True)["crit"] == Fraction(2, 3)
    # Braced: Armor 6, glance on a 1, crit at 9+ -> d6 >= 5
    assert rules.penetration(4, 5, 3, braced=True) == {
        "glance": Fraction(1, 6),
        "full": Fraction(1, 2),
        "crit": Fraction(1, 3),
    }
    assert rules.penetration_outcome(4, 5, 4) == "glance"
    assert rules.penetration_outcome(8, 5, 4) == "full"
    assert rules.penetration_outcome(9, 5, 4) == "crit"


def test_overload(skirmish):
    p = skirmish.params
    assert [rules.overload_penalty(w, 35, p) for w in (30, 35, 36, 40, 41, 45)] == [
        0,
        0,
        1,
        1,
        2,
        2,
    ]
    harrier = rules.mech_stats(skirmish.mech("harrier"), p)
    assert (harrier.weight, harrier.cap, harrier.overload) == (44, 35, 2)
    # Evasion = 9 (chassis) + 1 (legs) + 1 (Vex) - 2 overload; Speed = 5 + 1 - 2
    assert (harrier.evasion, harrier.speed) == (9, 4)


def test_foreman_derived_stats(skirmish):
    s = rules.mech_stats(skirmish.mech("foreman"), skirmish.params)
    # 003 C: Evasion 7 + 1 + Dorn's Piloting 1; Speed 4 + 1; Sensors 5 + 3 + 4;
    # E-Def 10 + 1 + Dorn's Systems 2; Reactor 8 + 0; Hull = sum of Durability.
    assert (s.evasion, s.speed, s.sensors, s.e_def, s.reactor_cap) == (9, 5, 12, 13, 8)
    assert s.hull == 4 + 8 + 9 + 16 + 4 + 11
    assert s.bands == (1, 3, 3, 6, 2, 5)
    assert s.weight == 48


def test_attack_accuracy(skirmish):
    m = skirmish.mech("reaver")  # Ruko: Gunnery 2, Piloting 2; Halo Acc 0
    blade, scattergun = m.right_arm, m.left_arm
    assert rules.attack_accuracy(m.pilot, scattergun, m.head) == 2 + 1 + 0
    assert rules.attack_accuracy(m.pilot, blade, m.head) == 2 + 1 + 0  # Piloting for melee
    vex = skirmish.pilots["vex"]  # Gunnery 3, Piloting 1
    assert rules.attack_accuracy(vex, blade, None) == 1 + 1
    assert rules.attack_accuracy(vex, scattergun, skirmish.parts["spotter"]) == 3 + 1 + 1


def test_pilot_examples(skirmish):
    # 003 D: Ruko, Marrow, Vex -> Ruko and Marrow on; Ilse for Vex -> still only the
    # Saints pair; Q for Marrow -> no one.
    def on(*ids):
        return rules.active_pilots([skirmish.pilots[i] for i in ids])

    assert on("ruko", "marrow", "vex") == {"ruko", "marrow"}
    assert on("ruko", "marrow", "ilse") == {"ruko", "marrow"}
    assert on("ruko", "q", "vex") == set()
    assert rules.bonded_pairs([skirmish.pilots[i] for i in ("ruko", "marrow", "vex")]) == [
        ("marrow", "ruko")
    ]


def test_team_cap_and_copy_limits(skirmish):
    p = skirmish.params
    weights = {
        k: rules.mech_weight(skirmish.mech(k)) for k in ("courier", "foreman", "reaver", "bastion")
    }
    assert weights == {"courier": 33, "foreman": 48, "reaver": 48, "bastion": 62}

    def problems(*kits):
        return rules.team_problems([skirmish.mech(k) for k in kits], p)

    assert problems("courier", "foreman", "reaver") == []  # 129
    assert problems("bastion", "foreman", "courier") == []  # 143
    assert problems("bastion", "reaver", "courier") == []  # 143
    assert problems("bastion", "foreman", "reaver") == [
        "fielded Weight 158 exceeds the Team Cap 145 (B3)"
    ]
    # A roster with three of one kit breaks the copy limits for every part and the pilot.
    roster = [skirmish.mech("courier")] * 3 + [skirmish.mech("foreman")]
    found = rules.roster_problems(roster, p)
    assert "3 copies of part 'courier_frame' (at most 2, B)" in found
    assert "pilot 'hana' flies 3 mechs (each pilot is unique, B)" in found
    # The cap is a parameter: at 128 even the rulebook's 129 team is over.
    assert problems("courier", "foreman", "reaver") == []
    tight = replace(p, team_cap=128)
    assert rules.team_problems([skirmish.mech(k) for k in ("courier", "foreman", "reaver")], tight)


def test_board_and_score_arithmetic(skirmish):
    p = skirmish.params
    assert rules.front_distance(p) == 26  # 32 - 2 x 3
    assert rules.zone_points_available(p) == 21 and rules.wipe_points(p) == 9
    assert [rules.overcharge_heat(n, p).mean() for n in (1, 2, 3, 4, 9)] == [
        1,
        2,
        Fraction(7, 2),
        Fraction(15, 2),
        Fraction(15, 2),
    ]


def test_assumptions_list_every_assumed_entry(skirmish):
    """ASSUMPTIONS.md names every placeholder, so a designer sees what to replace."""
    from tests.conftest import CATALOGS

    text = (CATALOGS / "skirmish" / "ASSUMPTIONS.md").read_text()
    assumed = [
        *(k for k, v in skirmish.parts.items() if v.provenance == "assumed"),
        *(k for k, v in skirmish.kits.items() if v.provenance == "assumed"),
        *(k for k, v in skirmish.pilots.items() if v.provenance == "assumed"),
        *(r.id for r in skirmish.crit + skirmish.stress if r.provenance == "assumed"),
        *(k for k, v in skirmish.strikes.items() if v.provenance == "assumed"),
        *(k for k, v in skirmish.policies.items() if v.provenance == "assumed"),
        *(k for k, v in skirmish.param_provenance.items() if v == "assumed"),
    ]
    assert assumed, "the v0 catalog is mostly placeholders"
    missing = [name for name in assumed if name not in text]
    assert missing == []


def test_dice_and_standard_medium_are_rules_parameters(skirmish):
    """The dice the engines roll besides weapons and d20s, and the standard Medium, come
    from rules.toml (003 G Pulse 1d3, F11.3 Charge 1d3 and the wall 1d6, E Vent 1d6,
    I initiative 2d6; F4 the standard Medium is the Foreman)."""
    from sims.core.catalog import CatalogError
    from sims.skirmish.catalog import load_catalog
    from tests.conftest import CATALOGS

    p = skirmish.params
    assert (
        p.pulse_heat,
        p.charge_self_damage,
        p.charge_wall_damage,
        p.vent_heat,
        p.initiative_dice,
    ) == ("1d3", "1d3", "1d6", "1d6", "2d6")
    assert p.standard_medium == "foreman"
    assert [rules.simple_dice(e) for e in ("1d3", "2d6", "1d6+4", "d8")] == [
        (1, 3, 0),
        (2, 6, 0),
        (1, 6, 4),
        (1, 8, 0),
    ]
    edited = load_catalog(CATALOGS, overrides={"vent_heat": "2d6", "standard_medium": "lancer"})
    assert (edited.params.vent_heat, edited.params.standard_medium) == ("2d6", "lancer")
    refused = [
        ("vent_heat", "lots", "not one of the dice expressions NdS"),  # not NdS or NdS+C
        ("pulse_heat", 3, "not one of the dice expressions NdS"),  # a number, not dice
        ("standard_medium", "bastion", "'bastion' is a heavy, not a Medium"),
        ("standard_medium", "nobody", "names unknown kit 'nobody'"),
    ]
    for name, value, why in refused:
        with pytest.raises(CatalogError, match=f"parameter '{name}'.*{why}"):
            load_catalog(CATALOGS, overrides={name: value})
