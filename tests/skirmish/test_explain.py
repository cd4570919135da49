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
from sims.skirmish.explain import (
    ExplainError,
    NeedRow,
    Term,
    contract_shot,
    explain_shot,
    to_text,
)
from sims.skirmish.modifiers import Die
from tests.conftest import CATALOGS, ROOT

FOREMAN_BANDS = [("head", 1, 1), ("right_arm", 2, 4), ("left_arm", 5, 7), ("core", 8, 13),
                 ("back", 14, 15), ("legs", 16, 20)]  # fmt: skip


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
        "hardhat", "rifle", "buckler", "foreman_frame", "sensor_mast", "walker"
    ]  # fmt: skip
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
    assert e.accuracy_terms == (Term("Gunnery", "weapon_vs_kit attacker", 2),
                                Term("weapon Acc", "part rifle", 1))  # fmt: skip
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
    argv = explain("--attacker", "courier", "--weapon", "rifle", "--target", "foreman",
                   "--range", "10", "--cover", "hard", "--modifier", "-1", "--braced")  # fmt: skip
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
    argv = explain("--attacker", "courier", "--weapon", "rifle", "--target", "foreman",
                   "--catalog", str(tmp_path / "cat"))  # fmt: skip
    assert main(argv) == 0
    assert "P(hit)               = 17/20 (85.0%)" in capsys.readouterr().out  # natural 4+


KIT = ("--attacker", "courier", "--weapon", "rifle", "--target", "foreman")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["explain", "nosuchgame", "shot", *KIT], ("unknown game 'nosuchgame'",)),
        (["explain", "skirmish", "volley", *KIT], ("unknown WHAT 'volley'", "shot")),
        (explain("--attacker", "courier"), ("needs --weapon, --target",)),
        (explain("--attacker", "nobody", "--weapon", "rifle", "--target", "foreman"),
         ("unknown attacker kit 'nobody'",)),
        (explain("--attacker", "courier", "--weapon", "cannon", "--target", "foreman"),
         ("kit 'courier' mounts no weapon 'cannon'", "repeater, rifle")),
        (explain(*KIT, "--range", "13"), ("no shot",)),
        (explain(*KIT, "--range", "ten"), ("invalid int value",)),
        (explain(*KIT, "--cover", "partial"), ("cover must be one of",)),
        (explain("--attacker", "reaver", "--weapon", "blade", "--target", "foreman",
                 "--range", "3"), ("needs adjacency",)),
    ],
)  # fmt: skip
def test_cli_explain_errors(capsys, argv, words):
    rc = main(argv)
    captured = capsys.readouterr()
    assert rc == EXIT_USER_ERROR and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mechbal: error: "), captured.err
    for w in words:
        assert w in lines[0]


def test_python_dash_m_explain():
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "explain", "skirmish", "shot", *KIT, "--range", "99"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "no shot" in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "explain", "skirmish", "shot", *KIT],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 0 and "4/5 (80.0%)" in run.stdout
