"""`mechbal explain skirmish shot`: the working of one shot, checked against values worked
out by hand from catalogs/skirmish/*.toml and against the exact tables.

Catalog facts used below (read from the TOML files):
- courier: pilot hana (Gunnery 2, Piloting 2), head spotter (Acc 1), rifle (Range 8,
  Shots 1, Acc 1, Pen 2, 1d6+1) and repeater (Range 5, Shots 3, Acc 0, Pen 1, 1d3).
- foreman: foreman_frame (Evasion 7, Size 10, Armor 5), walker legs (Evasion 1, Size 8,
  Armor 5), pilot dorn (Gunnery 2, Piloting 1), hardhat head (Acc 0, Size 2, Armor 4),
  rifle (Size 5, Armor 5), buckler shield (Size 5, Armor 5), sensor_mast (Size 3, Armor 3);
  Weight 20+3+6+6+8+5 = 48 <= Medium cap 50, so no overload: Evasion 7 + 1 + 1 = 9.
  Bands (003 F4): head 1, right arm 2-4, left arm 5-7, core 8-13, back 14-15, legs 16-20.
- bastion: pilot ilse (Gunnery 1), lattice head (Acc 0), cannon (Acc 0, Pen 4, 2d6, heavy).
- reaver: pilot ruko (Gunnery 2, Piloting 2), halo head (Acc 0), blade (melee, Acc 1).
- rules.toml: crit margin 4, natural 20 +1 Pen, Brace +1 Armor, long range 150% at 1[-],
  hard cover 2[-], soft cover 1[-], Engaged 1[-], glance does no damage.

Map facts (catalogs/skirmish/maps/*.toml, read from the hex text: row r is the r-th line,
col c its c-th token "<ground><terrain>", . open, f foliage, o / O an obstacle 1 / 2 levels
above its ground). Cube coordinates of odd-r (col, row): x = col - (row - (row & 1)) // 2,
z = row, y = -x - z; distance = max |difference|.
- open, row 0: all "0."; row 4: "0f" at cols 3, 4, 5, else "0."; rows 5-7 "0." at col 16,
  "0O" at (17, 6) and (17, 7); row 8: "0O" at cols 10, 11, 13, 18; row 9: "1." at cols 4
  and 5, cols 0-3 and 6-11 "0."; row 10: "1." col 4, "2." col 5, cols 0-3 "0.".
- broken: (24, 9) "3."; row 10: (24, 10) "2O" (top 4), (25, 10) "2."; row 11: (23, 11),
  (24, 11), (25, 11) "1."; (24, 12), (25, 12) "0.".
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction as F

import pytest

from analysis.cli import EXIT_USER_ERROR, main
from sims.core.dist import fraction_str
from sims.skirmish import exact, rules
from sims.skirmish.explain.board import NoLineOfSight, explain_board, map_geometry
from sims.skirmish.explain.errors import ExplainError
from sims.skirmish.explain.shot import NeedRow, Term, contract_shot, explain_shot
from sims.skirmish.explain.shot_text import shot_text, to_text
from sims.skirmish.modifiers import Die
from tests.conftest import CATALOGS, ROOT

FOREMAN_BANDS = [
    ("head", 1, 1),
    ("right_arm", 2, 4),
    ("left_arm", 5, 7),
    ("core", 8, 13),
    ("back", 14, 15),
    ("legs", 16, 20),
]


def rifle_shot(catalog, **kw):
    return explain_shot(catalog, "courier", "rifle", "foreman", **kw)


# ---- hit -----------------------------------------------------------------------------------


def test_rifle_at_foreman_optimal_range(skirmish):
    e = rifle_shot(skirmish)
    assert (e.distance, e.range_band, e.long_range) == (8, "optimal", 12)  # Range 8; 8*3//2
    assert e.accuracy_terms == (
        Term("Gunnery", "pilot hana", 2),
        Term("weapon Acc", "part rifle", 1),
        Term("Head Acc", "part spotter", 1),
    )
    assert e.accuracy == 4
    assert [t.value for t in e.evasion_terms] == [7, 1, 1, 0] and e.evasion == 9
    assert e.dice == () and e.net_dice == 0
    # d20 + 4 >= 9: naturals 5..20 hit, 16 faces of 20.
    assert e.needs == (NeedRow(0, F(1), 5, F(4, 5)),)
    assert e.p_hit == F(4, 5) and e.p_nat20 == F(1, 20)
    assert e.p_nat20_given_hit == F(1, 16)  # (1/20) / (4/5)


def test_long_range_costs_one_die(skirmish):
    e = rifle_shot(skirmish, distance=10)  # Range 8 < 10 <= 12: long range, 1[-]
    assert e.range_band == "long"
    assert e.dice == (Die(-1, "long range", "F Declare"),) and e.net_dice == -1
    # By hand: the modifier is -d for d = 1..6 (1/6 each). A natural 20 always hits; a
    # natural n in 2..19 hits when n + 4 - d >= 9, i.e. n >= 5 + d: 15 - d faces. So
    # P(hit | d) = (16 - d)/20 and P(hit) = (16 - 7/2)/20 = 5/8.
    assert e.p_hit == F(5, 8) == rules.hit_chances(4, 9, -1)[0]
    assert [(n.result, n.p_result, n.natural, n.p_hit) for n in e.needs] == [
        (-d, F(1, 6), 5 + d, F(16 - d, 20)) for d in range(6, 0, -1)
    ]
    assert sum(n.p_result * n.p_hit for n in e.needs) == e.p_hit


def test_designer_dice_add_and_cancel(skirmish):
    e = rifle_shot(skirmish, modifier=1)
    assert e.dice == (Die(1, "designer's extra dice (--modifier)", "F3"),)
    # +d: natural 4+ (d=1, 17 faces), 3+ (d=2, 18), 2+ (d>=3, 19; a natural 1 misses).
    assert e.p_hit == F(17 + 18 + 4 * 19, 6 * 20) == F(37, 40)
    cancel = rifle_shot(skirmish, distance=10, modifier=1)  # 1[-] long range, 1[+] extra
    assert cancel.net_dice == 0 and cancel.p_hit == F(4, 5)
    assert "net 0 (they cancel)" in to_text(cancel)


def test_adjacent_ranged_shot_is_engaged(skirmish):
    e = rifle_shot(skirmish, distance=1)
    assert e.dice == (Die(-1, "Engaged: adjacent hostile", "E"),) and e.p_hit == F(5, 8)


# ---- location, penetration, damage -----------------------------------------------------------


def test_rifle_band_table_by_hand(skirmish):
    e = rifle_shot(skirmish)
    assert [(r.part, r.first, r.last) for r in e.bands] == FOREMAN_BANDS
    assert [r.armor for r in e.bands] == [4, 5, 5, 5, 3, 5]
    assert [r.part_id for r in e.bands] == [
        "hardhat",
        "rifle",
        "buckler",
        "foreman_frame",
        "sensor_mast",
        "walker",
    ]
    head, arm = e.bands[0], e.bands[1]
    # Head, Armor 4: d6+2 is 3..8, glance on a 1, crit (>= 8) on a 6.
    assert dict(head.plain) == {"glance": F(1, 6), "full": F(2, 3), "crit": F(1, 6)}
    # natural 20: d6+3 is 4..9, never a glance, crit on 5 or 6.
    assert dict(head.nat20) == {"glance": F(0), "full": F(2, 3), "crit": F(1, 3)}
    assert head.given_hit["crit"] == F(15, 16) * F(1, 6) + F(1, 16) * F(1, 3) == F(17, 96)
    # 003 F5: a Rifle gets Full on a Medium arm (Armor 5) two rolls in three.
    assert arm.plain["full"] == F(2, 3) and arm.plain["glance"] == F(1, 3)
    assert arm.given_hit["glance"] == F(15, 16) * F(1, 3) + F(1, 16) * F(1, 6) == F(31, 96)
    # Glances: head 1/20 * 5/32, the four Armor-5 parts 17/20 * 31/96, the back none.
    glance = F(1, 20) * F(5, 32) + F(17, 20) * F(31, 96)
    assert e.shares["glance"] == glance == F(271, 960)
    assert sum(e.shares.values()) == 1 and e.shares["cover"] == 0
    # 1d6+1 averages 9/2; a glance does nothing (glance_damage = none).
    assert dict(e.damage_by_outcome) == {"glance": 0, "full": F(9, 2), "crit": F(9, 2)}
    assert e.damage_per_hit == F(9, 2) * (1 - glance) == F(2067, 640)
    assert e.damage_per_fire == F(4, 5) * F(2067, 640) == F(2067, 800)


def test_hard_cover_takes_the_legs_band(skirmish):
    e = rifle_shot(skirmish, cover="hard")
    assert e.dice == (Die(-1, "hard cover", "H5"),) * 2  # 2[-], one Die each
    # By hand: the highest of 2d6 is k with P (2k-1)/36 and leaves 16 - k hitting faces;
    # E[k] = 161/36, so P(hit) = (16 - 161/36)/20 = 83/144.
    assert e.p_hit == F(83, 144) == rules.hit_chances(4, 9, -2)[0]
    assert [r.part for r in e.bands] == ["head", "right_arm", "left_arm", "core", "back", "cover"]
    cover = e.bands[-1]
    assert (cover.first, cover.last, cover.p_strike, cover.armor) == (16, 20, F(1, 4), None)
    assert cover.plain is None and cover.damage == 0
    assert e.shares["cover"] == F(1, 4) and sum(e.shares.values()) == 1
    text = to_text(e)
    assert "hits the cover" in text and "003 H5" in text
    rows = [line.split()[:2] for line in text.splitlines()]
    assert ["cover", "16-20"] in rows and ["legs", "16-20"] not in rows


def test_soft_cover_keeps_the_legs(skirmish):
    e = rifle_shot(skirmish, cover="soft")
    assert e.dice == (Die(-1, "soft cover", "H5"),) and e.p_hit == F(5, 8)
    assert e.bands[-1].part == "legs"


def test_brace_adds_armor(skirmish):
    e = rifle_shot(skirmish, braced=True)
    assert [r.armor for r in e.bands] == [5, 6, 6, 6, 4, 6]
    # Arm at Armor 6: d6+2 >= 6 on 4..6.
    assert dict(e.bands[1].plain) == {"glance": F(1, 2), "full": F(1, 2), "crit": F(0)}


def test_cannon_crit_share_matches_strike_outcomes(skirmish):
    e = explain_shot(skirmish, "bastion", "cannon", "foreman")
    assert e.accuracy == 1 and [t.value for t in e.accuracy_terms] == [1, 0, 0]
    assert e.needs[0].natural == 8 and e.p_hit == F(13, 20)  # 8 + 1 >= 9: naturals 8..20
    cannon, foreman = skirmish.parts["cannon"], skirmish.mech("foreman")
    outcomes = exact.strike_outcomes(cannon, foreman, skirmish.params, accuracy=1)
    assert e.shares["crit"] == exact.outcome_shares(outcomes)["crit"]
    for r in e.bands:
        for o in rules.OUTCOMES:
            assert r.p_strike * r.given_hit[o] == outcomes[(r.part, o)]
    # By hand, d6+4 (d6+5 on a natural 20) crits at Armor + 4: head (Armor 4) 1/2 (2/3),
    # Armor-5 parts (17 bands) 1/3 (1/2), back (Armor 3) 2/3 (5/6). Plain 3/8, natural 20
    # 13/24; P(natural 20 | hit) = 1/13: 12/13 * 3/8 + 1/13 * 13/24 = 121/312.
    assert e.shares["crit"] == F(121, 312)
    assert any("Heavy" in n for n in e.notes)


def test_reference_attacker_matches_weapon_vs_kit(skirmish):
    # foreman: dorn Gunnery 2 and a hardhat head (Acc 0) is the weapon_vs_kit attacker.
    rifle = skirmish.parts["rifle"]
    for kit in skirmish.kits:
        e = explain_shot(skirmish, "foreman", "rifle", kit)
        target = skirmish.mech(kit)
        assert e.damage_per_fire == exact.expected_damage(rifle, target, skirmish.params)
        assert e.shares["crit"] == exact.crit_share(rifle, target, skirmish.params)


def test_contract_shot_is_the_weapon_vs_kit_attacker(skirmish):
    # weapon_vs_kit's attacker: Gunnery 2 + weapon Acc, no Head, no modifier dice.
    e = contract_shot(skirmish, "rifle", "foreman")
    assert e.accuracy_terms == (
        Term("Gunnery", "weapon_vs_kit attacker", 2),
        Term("weapon Acc", "part rifle", 1),
    )
    assert (e.accuracy, e.distance, e.range_band, e.dice) == (3, 8, "optimal", ())
    assert e.p_hit == F(3, 4)  # naturals 6..20
    rifle, foreman = skirmish.parts["rifle"], skirmish.mech("foreman")
    assert e.damage_per_fire == exact.expected_damage(rifle, foreman, skirmish.params)
    # the contract leaves out the Shield's 1[-] against melee, and says so
    blade = contract_shot(skirmish, "blade", "foreman")
    assert blade.accuracy_terms[0] == Term("Piloting", "weapon_vs_kit attacker", 2)
    assert blade.dice == () and blade.p_hit == F(3, 4)
    assert any("F11.6" in n for n in blade.notes)
    assert not any("F11.6" in n for n in contract_shot(skirmish, "blade", "courier").notes)
    with pytest.raises(ExplainError, match="unknown weapon 'buckler'"):
        contract_shot(skirmish, "buckler", "foreman")


def test_bursts_multiply_by_shots(skirmish):
    e = explain_shot(skirmish, "courier", "repeater", "foreman")
    assert e.distance == 5 and e.shots == 3
    assert e.p_hit == F(3, 4)  # 2 + 0 + 1 = 3; natural 6+
    assert e.damage_per_fire == 3 * F(3, 4) * e.damage_per_hit


# ---- melee -------------------------------------------------------------------------------------


def test_melee_rolls_piloting(skirmish):
    # Give the reaver Marrow (Gunnery 1, Piloting 3) so Piloting and Gunnery differ.
    kits = {**skirmish.kits, "reaver": replace(skirmish.kits["reaver"], pilot="marrow")}
    e = explain_shot(replace(skirmish, kits=kits), "reaver", "blade", "foreman")
    assert e.melee and e.distance == 1
    assert e.accuracy_terms[0] == Term("Piloting", "pilot marrow", 3)
    assert e.accuracy == 3 + 1 + 0 == 4
    # the foreman's buckler gives melee 1[-] (F11.6): 4 - d6 against Evasion 9 needs
    # d6 <= natural - 5: (1+2+3+4+5 + 9 x 6)/6 of 18 naturals, plus the natural 20:
    # (69/6 + 1) / 20 = 5/8
    assert e.dice == (Die(-1, "target's intact Shield arm", "F11.6"),)
    assert e.needs[0].natural == 11 and e.p_hit == F(5, 8)
    stock = explain_shot(skirmish, "reaver", "blade", "foreman")  # Ruko: Piloting 2
    # accuracy 3: d6 <= natural - 6: ((1+2+3+4+5 + 8 x 6)/6 + 1)/20 = 23/40
    assert stock.accuracy == 3 and stock.p_hit == F(23, 40)
    unshielded = explain_shot(skirmish, "reaver", "blade", "courier")  # no Shield arm
    assert unshielded.dice == ()
    assert "Piloting for melee" in to_text(e)


def test_melee_ignores_cover_and_engaged(skirmish):
    e = explain_shot(skirmish, "reaver", "blade", "courier", cover="hard")
    assert e.dice == ()  # no cover die, no Engaged die; the courier has no Shield
    # accuracy 3 against the courier's Evasion 13: naturals 10..20
    assert e.p_hit == F(11, 20)
    assert e.bands[-1].part == "legs" and e.shares["cover"] == 0
    assert "cover ignored (melee, F11)" in to_text(e)


# ---- on a map (003 H4, H5) -------------------------------------------------------------------


def map_shot(catalog, map_id, a, t, attacker="courier", weapon="rifle", target="foreman"):
    return explain_shot(
        catalog, attacker, weapon, target, map_id=map_id, attacker_hex=a, target_hex=t
    )


def line_of(board):
    return [(x.hex, x.top, x.sight, x.verdict) for x in board.line]


def test_map_clear_line(skirmish):
    # open, row 0 is all level-0 open ground: from (2, 0) to (10, 0) the line is the row,
    # 8 hexes, both eyes at 1, so the sight height is 1 over every top 0.
    e = map_shot(skirmish, "open", (2, 0), (10, 0))
    b = e.board
    assert (b.distance, b.los, b.cover, b.high_ground) == (8, True, "none", False)
    assert line_of(b) == [((c, 0), 0, 1, "below") for c in range(3, 10)]
    assert b.hard_sources == () and b.soft_sources == ()
    # the usual working at distance 8 with no dice: the rifle shot of the track
    assert (e.distance, e.cover, e.dice, e.p_hit) == (8, "none", (), F(4, 5))
    text = to_text(e)
    for line in (
        "  distance 8 (from the map): optimal range",
        "  line of sight: yes",
        "  hard cover: none",
        "  soft cover: none",
        "Board: map open (Open ground)",
        "  high ground: none, the attacker stands level with the target",
    ):
        assert line in text, line


def test_map_blocked_line_stops(skirmish):
    # open row 8: the rocks at (10, 8) and (11, 8) are "0O", top 2 above the sight height 1.
    b = explain_board(skirmish, "open", (6, 8), (12, 8))
    assert b.distance == 6 and not b.los
    assert [x.verdict for x in b.line] == ["below"] * 3 + ["blocks"] * 2
    assert [(x.hex, x.top) for x in b.line[3:]] == [((10, 8), 2), ((11, 8), 2)]
    with pytest.raises(NoLineOfSight, match="no line of sight from 6,8 to 12,8 on map open"):
        map_shot(skirmish, "open", (6, 8), (12, 8))
    text = shot_text(
        skirmish, "courier", "rifle", "foreman", map="open", **{"from": (6, 8), "to": (12, 8)}
    )
    assert "  line of sight: none" in text
    assert "10,8  0       obstacle  2    1      above the sight height: BLOCKS" in text
    assert text.endswith(
        "No line of sight: the shot cannot be taken (003 F Declare: a target you have LOS to; H4)."
    )
    assert "Accuracy" not in text and "P(hit)" not in text


def test_map_hard_cover_from_an_obstacle(skirmish):
    # open, (16, 4) -> (16, 7): cubes (14, -18, 4) and (13, -20, 7), distance 3; the line
    # rounds (13.67, -18.67, 5) to (16, 5) and (13.33, -19.33, 6) to (16, 6), both open.
    # The rock (17, 6) ("0O", top 2, 2 above the target's ground) is next to (16, 7) and
    # closer to the attacker: cube (14, -20, 6), distance 2 < 3. The rock (17, 7) is at
    # distance 3, not between.
    e = map_shot(skirmish, "open", (16, 4), (16, 7))
    b = e.board
    assert line_of(b) == [((16, 5), 0, 1, "below"), ((16, 6), 0, 1, "below")]
    assert b.hard_sources == ("obstacle at 17,6 (top 2, 2 above the target's ground) lies between",)
    assert (b.hard_ignored, b.cover, b.soft_sources) == (False, "hard", ())
    # then the hard-cover working of the track: 2[-], 83/144, the Legs band hits the cover
    assert e.dice == (Die(-1, "hard cover", "H5"),) * 2 and e.p_hit == F(83, 144)
    assert e.bands[-1].part == "cover" and e.shares["cover"] == F(1, 4)
    text = to_text(e)
    assert "  cover hard (from the map); target not braced" in text
    assert "    obstacle at 17,6 (top 2, 2 above the target's ground) lies between" in text


def test_map_hard_cover_at_sight_height(skirmish):
    # open row 9, (10, 9) -> (3, 9): the line is the row; (5, 9) and (4, 9) are "1.", top 1,
    # exactly the sight height 1 (both eyes 1): neither blocks, and (4, 9), next to the
    # target, gives hard cover (003 H4). No rock near (3, 9).
    e = map_shot(skirmish, "open", (10, 9), (3, 9))
    b = e.board
    assert b.distance == 7 and b.los
    assert line_of(b) == [((c, 9), 0, 1, "below") for c in range(9, 5, -1)] + [
        ((5, 9), 1, 1, "at"),
        ((4, 9), 1, 1, "at"),
    ]
    assert b.hard_sources == (
        "4,9 next to the target has its top exactly at the sight height 1 (H4)",
    )
    assert b.cover == "hard" and e.p_hit == F(83, 144)
    text = to_text(e)
    assert "exactly at the sight height: does not block; next to the target: hard cover" in text


def test_map_soft_cover_on_the_line(skirmish):
    # open row 4: (0, 4) -> (8, 4) crosses the woods at (3, 4), (4, 4), (5, 4); the target
    # stands in the open.
    e = map_shot(skirmish, "open", (0, 4), (8, 4))
    b = e.board
    assert [x.hex for x in b.line if x.terrain == "foliage"] == [(3, 4), (4, 4), (5, 4)]
    assert b.soft_sources == tuple(f"foliage at {c},4 on the line" for c in (3, 4, 5))
    assert (b.cover, b.hard_sources) == ("soft", ())
    assert e.dice == (Die(-1, "soft cover", "H5"),) and e.p_hit == F(5, 8)
    assert e.bands[-1].part == "legs"  # soft cover keeps the Legs band


def test_map_soft_cover_under_the_target(skirmish):
    # open row 4: (12, 4) -> (5, 4), the target in the woods ("0f"), the line open.
    b = map_shot(skirmish, "open", (12, 4), (5, 4)).board
    assert (b.distance, b.target_terrain) == (7, "foliage")
    assert all(x.terrain == "open" for x in b.line)
    assert b.soft_sources == ("the target stands in foliage",) and b.cover == "soft"


def test_map_high_ground(skirmish):
    # open row 10: (4, 10) is "1.", (0, 10) to (3, 10) "0.": eye 2 down to eye 1 over 4
    # steps, sight 2 - i/4 at step i: 7/4, 3/2, 5/4 over tops 0.
    e = map_shot(skirmish, "open", (4, 10), (0, 10))
    b = e.board
    assert line_of(b) == [
        ((3, 10), 0, F(7, 4), "below"),
        ((2, 10), 0, F(3, 2), "below"),
        ((1, 10), 0, F(5, 4), "below"),
    ]
    assert b.high_ground and b.climb == 1 and b.cover == "none"
    # 1[+]: as the designer's +1 above, P(hit) = (17 + 18 + 4 x 19) / 120 = 37/40
    assert e.dice == (Die(+1, "high ground", "H5"),) and e.p_hit == F(37, 40)
    text = to_text(e)
    assert "  1[+]  high ground (H5)" in text
    assert "  high ground: 1[+], the attacker stands 1 level above the target (H5)" in text


def test_map_hard_cover_ignored_from_two_levels_above(skirmish):
    # broken, (24, 9) ground 3 -> (24, 11) ground 1: cubes (20, -29, 9) and (19, -30, 11),
    # distance 2. The line runs along the edge between (24, 10) and (25, 10); the attacker
    # draws it past (25, 10) (top 2 under the sight height (4 + 2) / 2 = 3), the other side
    # (24, 10) (top 4) would block. The rock (24, 10), top 4, 3 above the target's ground,
    # is at distance 1 from the attacker, so between: hard cover, but the attacker stands
    # 2 levels above, so it is ignored (003 H5); high ground gives 1[+].
    e = map_shot(skirmish, "broken", (24, 9), (24, 11))
    b = e.board
    assert (b.distance, b.los, b.attacker_ground, b.target_ground) == (2, True, 3, 1)
    assert line_of(b) == [((25, 10), 2, 3, "below")]
    assert b.hard_sources == (
        "obstacle at 24,10 (top 4, 3 above the target's ground) lies between",
    )
    assert b.hard_ignored and not b.hard and b.cover == "none" and b.high_ground
    assert e.dice == (Die(+1, "high ground", "H5"),) and e.p_hit == F(37, 40)
    assert e.shares["cover"] == 0
    text = to_text(e)
    assert "  hard cover: ignored from 2 levels above (two or more, H5); it would be:" in text
    assert "  cover: none (only the best single cover applies, H5)" in text


def test_map_melee_takes_high_ground(skirmish):
    # open row 10: the reaver on (4, 10) (ground 1) strikes the foreman on (3, 10) (ground
    # 0): adjacent, nothing between. The buckler's 1[-] (F11.6) and high ground's 1[+]
    # cancel; accuracy 3 (Ruko 2 + blade 1) against Evasion 9: naturals 6..20, 3/4.
    e = map_shot(skirmish, "open", (4, 10), (3, 10), attacker="reaver", weapon="blade")
    assert e.board.line == () and e.board.los and e.distance == 1
    assert e.net_dice == 0 and e.p_hit == F(3, 4)
    assert "  hex line: adjacent, no hex between: always in sight (003 H4)" in to_text(e)


def test_map_geometry_built_once(skirmish):
    assert map_geometry(skirmish, "open") is map_geometry(skirmish, "open")


@pytest.mark.parametrize(
    "kw, words",
    [
        (
            {"map_id": "moon", "attacker_hex": (1, 1), "target_hex": (2, 2)},
            ("--map: unknown map 'moon'", "broken, large_broken, open, urban"),
        ),
        (
            {"map_id": "open", "attacker_hex": (32, 1), "target_hex": (2, 2)},
            ("--from 32,1 is off map open", "COL 0-31, ROW 0-19"),
        ),
        (
            {"map_id": "open", "attacker_hex": (1, 1), "target_hex": (2, 20)},
            ("--to 2,20 is off map open",),
        ),
        (
            {"map_id": "open", "attacker_hex": (1, 1), "target_hex": (10, 8)},
            ("--to 10,8 is an obstacle hex on map open",),
        ),
        (
            {"map_id": "open", "attacker_hex": (10, 8), "target_hex": (1, 1)},
            ("--from 10,8 is an obstacle hex",),
        ),
        ({"map_id": "open", "attacker_hex": (1, 1)}, ("--map needs --to",)),
        ({"map_id": "open"}, ("--map needs --from and --to",)),
        ({"attacker_hex": (1, 1), "target_hex": (2, 2)}, ("--from and --to need --map",)),
        (
            {"map_id": "open", "attacker_hex": (1, 1), "target_hex": (1, 1)},
            ("--to 1,1 is the --from hex",),
        ),
        (
            {"map_id": "open", "attacker_hex": (1, 1), "target_hex": (2, 2), "distance": 3},
            ("--range: not with --map",),
        ),
        (
            {"map_id": "open", "attacker_hex": (1, 1), "target_hex": (2, 2), "cover": "soft"},
            ("--cover: not with --map",),
        ),
        # open row 0: 18 hexes apart, beyond the rifle's long range 12
        (
            {"map_id": "open", "attacker_hex": (2, 0), "target_hex": (20, 0)},
            ("no shot", "distance 18"),
        ),
    ],
)
def test_map_errors(skirmish, kw, words):
    with pytest.raises(ExplainError) as info:
        explain_shot(skirmish, "courier", "rifle", "foreman", **kw)
    message = str(info.value)
    assert "\n" not in message
    for w in words:
        assert w in message


# ---- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, kw, words",
    [
        (("nobody", "rifle", "foreman"), {}, ("unknown attacker kit 'nobody'", "courier")),
        (("courier", "rifle", "nobody"), {}, ("unknown target kit 'nobody'",)),
        (("courier", "cannon", "foreman"), {}, ("no weapon 'cannon'", "repeater, rifle")),
        (("courier", "smoke", "foreman"), {}, ("no weapon 'smoke'",)),
        (("courier", "rifle", "foreman"), {"distance": 13}, ("no shot", "12")),
        (("courier", "rifle", "foreman"), {"distance": 0}, ("at least 1",)),
        (("reaver", "blade", "foreman"), {"distance": 2}, ("melee", "adjacency")),
        (("courier", "rifle", "foreman"), {"cover": "partial"}, ("none, soft, hard",)),
    ],
)
def test_explain_errors(skirmish, args, kw, words):
    with pytest.raises(ExplainError) as info:
        explain_shot(skirmish, *args, **kw)
    message = str(info.value)
    assert "\n" not in message
    for w in words:
        assert w in message


# ---- command line ---------------------------------------------------------------------------


def explain(*args: str) -> list[str]:
    return ["explain", "skirmish", "shot", *args]


def test_cli_explain_rifle(capsys):
    assert main(explain("--attacker", "courier", "--weapon", "rifle", "--target", "foreman")) == 0
    out = capsys.readouterr().out
    for line in (
        "Shot: courier (pilot hana) fires rifle at foreman (pilot dorn)",
        "= accuracy",
        "needs a natural 5+ (16 of 20 faces)",
        "P(hit)               = 4/5 (80.0%)",
        "P(natural 20 | hit)  = 1/16 (6.2%)",
        "E[damage] = Shots 1 x P(hit) 4/5 x E[damage | hit] 2067/640 = 2067/800 (2.584)",
    ):
        assert line in out, line
    for section in ("F3", "F Hit", "F4", "F5", "F6"):
        assert section in out


def test_cli_explain_flags(capsys):
    argv = explain(
        "--attacker",
        "courier",
        "--weapon",
        "rifle",
        "--target",
        "foreman",
        "--range",
        "10",
        "--cover",
        "hard",
        "--modifier",
        "-1",
        "--braced",
    )
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "2[-]  hard cover (H5)" in out and "1[-]  designer's extra dice" in out
    assert "net 4[-]" in out and "hits the cover" in out and "Braced" in out
    p_hit = next(line for line in out.splitlines() if line.startswith("  P(hit) "))
    assert p_hit.split("=")[1].split()[0] == fraction_str(rules.hit_chances(4, 9, -4)[0])


def test_cli_explain_reads_catalog_flag(tmp_path, capsys):
    shutil.copytree(CATALOGS, tmp_path / "cat")
    parts = tmp_path / "cat" / "skirmish" / "parts.toml"
    text = parts.read_text()
    rifle_acc = "range = 8\nshots = 1\nacc = 1\n"
    assert rifle_acc in text
    parts.write_text(text.replace(rifle_acc, "range = 8\nshots = 1\nacc = 2\n"))
    argv = explain(
        "--attacker",
        "courier",
        "--weapon",
        "rifle",
        "--target",
        "foreman",
        "--catalog",
        str(tmp_path / "cat"),
    )
    assert main(argv) == 0
    assert "P(hit)               = 17/20 (85.0%)" in capsys.readouterr().out  # natural 4+


KIT = ("--attacker", "courier", "--weapon", "rifle", "--target", "foreman")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["explain", "nosuchgame", "shot", *KIT], ("unknown game 'nosuchgame'",)),
        (["explain", "skirmish", "volley", *KIT], ("unknown WHAT 'volley'", "shot")),
        (explain("--attacker", "courier"), ("needs --weapon, --target",)),
        (
            explain("--attacker", "nobody", "--weapon", "rifle", "--target", "foreman"),
            ("unknown attacker kit 'nobody'",),
        ),
        (
            explain("--attacker", "courier", "--weapon", "cannon", "--target", "foreman"),
            ("kit 'courier' mounts no weapon 'cannon'", "repeater, rifle"),
        ),
        (explain(*KIT, "--range", "13"), ("no shot",)),
        (explain(*KIT, "--range", "ten"), ("invalid int value",)),
        (explain(*KIT, "--cover", "partial"), ("cover must be one of",)),
        (
            explain(
                "--attacker", "reaver", "--weapon", "blade", "--target", "foreman", "--range", "3"
            ),
            ("needs adjacency",),
        ),
    ],
)
def test_cli_explain_errors(capsys, argv, words):
    rc = main(argv)
    captured = capsys.readouterr()
    assert rc == EXIT_USER_ERROR and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mechbal: error: "), captured.err
    for w in words:
        assert w in lines[0]


def test_cli_explain_on_a_map(capsys):
    # the hard-cover shot of test_map_hard_cover_from_an_obstacle
    assert main(explain(*KIT, "--map", "open", "--from", "16,4", "--to", "16,7")) == 0
    out = capsys.readouterr().out
    for line in (
        "  attacker at 16,4: ground level 0, open; eye 1",
        "  target at 16,7: ground level 0, open; eye 1",
        "  hex distance 3 (the map's, in place of --range)",
        "    1     16,5  0       open     0    1      below the sight height",
        "    obstacle at 17,6 (top 2, 2 above the target's ground) lies between",
        "  2[-]  hard cover (H5)",
        "  P(hit)               = 83/144 (57.6%)",
    ):
        assert line in out, line
    # no line of sight: the working stops, and that is an answer, not an error
    assert main(explain(*KIT, "--map", "open", "--from", "6,8", "--to", "12,8")) == 0
    out = capsys.readouterr().out
    assert "No line of sight: the shot cannot be taken" in out and "P(hit)" not in out


@pytest.mark.parametrize(
    "args, words",
    [
        (("--map", "moon", "--from", "1,1", "--to", "2,2"), ("--map: unknown map 'moon'",)),
        (
            ("--map", "open", "--from", "1;1", "--to", "2,2"),
            ("argument --from", "expected COL,ROW"),
        ),
        (("--map", "open", "--from", "1,1", "--to", "2"), ("argument --to",)),
        (("--map", "open", "--from", "40,1", "--to", "2,2"), ("--from 40,1 is off map open",)),
        (("--map", "open", "--from", "1,1", "--to", "11,8"), ("--to 11,8 is an obstacle",)),
        (("--map", "open"), ("--map needs --from and --to",)),
        (("--from", "1,1", "--to", "2,2"), ("--from and --to need --map",)),
        (("--map", "open", "--from", "1,1", "--to", "2,2", "--range", "2"), ("--range",)),
    ],
)
def test_cli_explain_map_errors(capsys, args, words):
    rc = main(explain(*KIT, *args))
    captured = capsys.readouterr()
    assert rc == EXIT_USER_ERROR and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mechbal: error: "), captured.err
    for w in words:
        assert w in lines[0]


def test_python_dash_m_explain():
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "explain", "skirmish", "shot", *KIT, "--range", "99"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "no shot" in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "explain", "skirmish", "shot", *KIT],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and "4/5 (80.0%)" in run.stdout
