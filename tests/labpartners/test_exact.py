"""Lab Partners exact tables: values derived by hand from the rulebook (000) and the
catalog numbers (catalogs/labpartners/*.toml), never recomputed with the code under test."""

from fractions import Fraction

import polars as pl
import pytest

from sims.labpartners import exact
from sims.labpartners.catalog import load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


@pytest.fixture(scope="module")
def frames(catalog):
    return exact.tables(catalog)


def one(frame: pl.DataFrame, **keys) -> dict:
    rows = frame.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items())).to_dicts()
    assert len(rows) == 1, (keys, rows)
    return rows[0]


def test_every_declared_table_with_its_columns(frames):
    assert [t.stem for t in exact.TABLES] == list(frames)
    for table in exact.TABLES:
        assert frames[table.stem].columns == table.file_columns(), table.stem


def test_row_counts(frames):
    # draws: 2 attributes x 5 values x (45 alpha + 75 full body cards seen)
    assert frames["draws"].height == 2 * 5 * (45 + 75)
    # lesson: 5 Forms + "any" per deck; combo: 25 alpha + 75 full Arms seen
    assert frames["lesson"].height == 12
    assert frames["combo"].height == 25 + 75
    # crit: 5 Head cases x crit-immune no/yes
    assert frames["crit"].height == 10
    # arm_damage: 5 kaiju x 75 Arms of the full spread x lesson no/yes x head no/yes
    assert frames["arm_damage"].height == 5 * 75 * 2 * 2
    # battle: 4 mechs of mechs.toml x 5 kaiju
    assert frames["battle"].height == 20


def test_draws_contract(frames):
    d = frames["draws"]
    assert d["deck"].unique(maintain_order=True).to_list() == ["alpha", "full"]
    # floats are the fractions' values
    for row in d.head(50).to_dicts():
        assert row["p_at_least_one_float"] == float(Fraction(row["p_at_least_one"]))


def test_draws_hand_values(frames):
    d = frames["draws"]
    # decks.toml alpha: Beast legs (projectile, energy, melee, magic), Beast torso (energy,
    # melee, projectile, magic), Beast head (melee, projectile, energy, magic): 12 of the
    # 45 body cards, so the first body card is Beast 12/45 = 4/15.
    assert (
        one(d, deck="alpha", attribute="form", value="beast", cards_seen=1)["p_at_least_one"]
        == "4/15"
    )
    # No Sonic body card in the alpha list: never seen, even after all 45.
    for seen in (1, 45):
        assert (
            one(d, deck="alpha", attribute="type", value="sonic", cards_seen=seen)["p_at_least_one"]
            == "0"
        )
    # Full spread: 5 Forms x 3 body Part-Types = 15 Sonic body cards of 75: 15/75 = 1/5;
    # two cards: 1 - C(60,2)/C(75,2) = 1 - 3540/5550 = 2010/5550 = 67/185.
    assert (
        one(d, deck="full", attribute="type", value="sonic", cards_seen=1)["p_at_least_one"]
        == "1/5"
    )
    assert (
        one(d, deck="full", attribute="type", value="sonic", cards_seen=2)["p_at_least_one"]
        == "67/185"
    )
    # 61 cards is more than the 60 non-Sonic ones: certain.
    assert (
        one(d, deck="full", attribute="type", value="sonic", cards_seen=61)["p_at_least_one"] == "1"
    )


def test_lesson_hand_values(frames):
    le = frames["lesson"]
    # alpha: Beast 12/45 = 4/15; Ghost-Crystal has 1 Legs + 1 Torso + 1 Head = 3/45 = 1/15.
    assert one(le, deck="alpha", form="beast")["p_lesson"] == "4/15"
    assert one(le, deck="alpha", form="ghost_crystal")["p_lesson"] == "1/15"
    # ... and it still fills 3 distinct slots (Legs, Torso, Head, + one Arm): it can take.
    assert one(le, deck="alpha", form="ghost_crystal")["can_take"] == 1
    # full: every Form 15 of 75 = 1/5; all 5 can take.
    assert one(le, deck="full", form="vehicle")["p_lesson"] == "1/5"
    assert one(le, deck="full", form="any")["can_take"] == 5


def test_combo_hand_values(frames):
    c = frames["combo"]
    # alpha Arms by Power: 12 ones, 9 twos, 4 threes (25). Two Arms share a tier:
    # (C(12,2) + C(9,2) + C(4,2)) / C(25,2) = (66 + 36 + 6) / 300 = 9/25.
    assert one(c, deck="alpha", arms_seen=2)["p_combo"] == "9/25"
    # full: 25 of each tier: 3 x C(25,2) / C(75,2) = 900/2775 = 12/37.
    assert one(c, deck="full", arms_seen=2)["p_combo"] == "12/37"
    # one Arm never pairs; four Arms over three tiers always do (pigeonhole)
    assert one(c, deck="full", arms_seen=1)["p_combo"] == "0"
    assert one(c, deck="full", arms_seen=4)["p_combo"] == "1"


def test_crit_hand_values(frames):
    c = frames["crit"]
    # Battle/crits: Accuracy 1 base (5%), +1 Clockwork, +1 lesson-matched (up to 3 / 15%)
    want = {
        "none": (0, "0"),
        "plain": (1, "1/20"),
        "clockwork": (2, "1/10"),
        "lesson": (2, "1/10"),
        "clockwork_lesson": (3, "3/20"),
    }
    for head, (acc, p) in want.items():
        row = one(c, head=head, crit_immune="no")
        assert (row["accuracy"], row["p_crit"]) == (acc, p), head
        # a crit-immune kaiju: no crit whatever the Head
        assert one(c, head=head, crit_immune="yes")["p_crit"] == "0"


def test_arm_damage_against_gorgadon(frames):
    a = frames["arm_damage"]
    # gorgadon: weak mechsuit, resists vehicle; weak sonic, resists projectile; bonus 0.
    # arms-mechsuit-sonic-2, Head, no lesson: (2 + 1 Form) x 2 Type = 6; crit 12;
    # expected 19/20 x 6 + 1/20 x 12 = 114/20 + 12/20 = 126/20 = 63/10.
    row = one(a, kaiju="gorgadon", card="arms-mechsuit-sonic-2", lesson="no", head="yes")
    assert (row["damage"], row["hit"], row["crit_damage"]) == (6, 6, 12)
    assert (row["p_crit"], row["expected"]) == ("1/20", "63/10")
    # with the lesson: (2 + 1 + 1) x 2 = 8
    assert (
        one(a, kaiju="gorgadon", card="arms-mechsuit-sonic-2", lesson="yes", head="yes")["damage"]
        == 8
    )
    # arms-vehicle-projectile-1, no Head: 1 - 1 (no Head) - 1 (Form) = -1 -> 0; the
    # resisted minimum of 1 does not lift 0: nothing, and no crit die.
    row = one(a, kaiju="gorgadon", card="arms-vehicle-projectile-1", lesson="no", head="no")
    assert (row["damage"], row["crit_damage"], row["p_crit"], row["expected"]) == (0, 0, "0", "0")
    # ... with a Head and the lesson: 1 + 1 - 1 = 1, resisted 1 // 2 = 0 -> at least 1
    assert (
        one(a, kaiju="gorgadon", card="arms-vehicle-projectile-1", lesson="yes", head="yes")[
            "damage"
        ]
        == 1
    )
    # arms-beast-projectile-3, Head: Beast neither; projectile resisted 3 // 2 = 1
    row = one(a, kaiju="gorgadon", card="arms-beast-projectile-3", lesson="no", head="yes")
    assert (row["damage"], row["crit_damage"], row["expected"]) == (1, 2, "21/20")


def test_arm_damage_bonus_and_immunity(frames):
    a = frames["arm_damage"]
    # trivex: weak ghost_crystal and energy, per-Arm bonus +1. arms-ghost_crystal-energy-1
    # with a Head: (1 + 1) x 2 = 4; hit 4 + 1 = 5; crit 4 x 2 + 1 = 9;
    # expected 19/20 x 5 + 1/20 x 9 = 104/20 = 26/5.
    row = one(a, kaiju="trivex", card="arms-ghost_crystal-energy-1", lesson="no", head="yes")
    assert (row["damage"], row["hit"], row["crit_damage"], row["expected"]) == (4, 5, 9, "26/5")
    # lumenyx is crit-immune: Head or not, P(crit) 0. arms-beast-projectile-3: 3 x 2 = 6
    row = one(a, kaiju="lumenyx", card="arms-beast-projectile-3", lesson="no", head="yes")
    assert (row["damage"], row["p_crit"], row["expected"]) == (6, "0", "6")


def test_battle_mechsuit_lesson_v_lumenyx(frames):
    # mechsuit_lesson: legs-mechsuit-energy, torso-mechsuit-melee, head-clockwork-energy,
    # arms-mechsuit-energy-2, arms-beast-projectile-2, lesson mechsuit: 3 matches, takes.
    # lumenyx: HP 14, Speed 3, 1 attack of 4, regen 1, crit-immune (no dice at all);
    # debuff needs 2 projectile parts (1 here): none. Mech Speed 2 + 1 lesson = 3 >= 3:
    # the mech first. Arm 1: 2 + 1 lesson = 3, energy resisted -> 1; Arm 2: 2,
    # projectile weak -> 4; combo (both Power 2) +1: 6 a round.
    # R1 14 - 6 = 8; the Head (HP 3) takes 4 - 2 = 2 -> 1; regen 9.
    # R2 9 - 6 = 3; the Head takes 2 -> destroyed; regen 4.
    # R3 no Head: Arm 1 3 - 1 = 2 -> 1; Arm 2 1 -> 2; combo +1 = 4: 4 - 4 = 0, a win.
    row = one(frames["battle"], mech="mechsuit_lesson", kaiju="lumenyx")
    assert (row["p_win"], row["p_city"], row["p_destroyed"]) == ("1", "0", "0")
    assert (row["expected_gpa"], row["expected_rounds"]) == ("2", "3")


def test_battle_mechsuit_lesson_v_trivex(frames):
    # trivex: HP 22 - 3 (debuff: the lesson took) = 19, Speed 4 > 3: the kaiju first;
    # 2 attacks of 4 (legs, head first); per-Arm bonus +1. Head Clockwork: P(crit) 1/10.
    # With the Head: Arm 1 2 + 1 = 3, energy weak -> 6, hit 7 (crit 13); Arm 2 2,
    # projectile resisted -> 1, hit 2 (crit 3); combo +1: 10 without crits.
    # R1: Legs 4 -> 2, Head 3 -> 1; the mech 10, 11, 16 or 17.
    # R2: Legs and Head destroyed; no Head: Arm 1 (2 + 1 - 1) x 2 = 4, hit 5; Arm 2
    # 2 - 1 = 1 resisted -> 1, hit 2; combo 1: 8. After any crit in R1 (1 - 81/100) the
    # kaiju (at most 19 - 11 = 8) falls in R2; without (81/100) it is at 19 - 18 = 1.
    # R3: the Torso and Arm 1 take 2 each, both stand; 8 >= 1: a win.
    # E[rounds] = 2 x 19/100 + 3 x 81/100 = 281/100.
    row = one(frames["battle"], mech="mechsuit_lesson", kaiju="trivex")
    assert (row["p_win"], row["expected_gpa"], row["expected_rounds"]) == ("1", "2", "281/100")


def test_battle_gappy_v_gorgadon(frames):
    # gappy: no Legs, no Head; torso-clockwork-energy (HP 5), arms-vehicle-melee-1
    # (HP 3 + 2 Vehicle). Its Arm: 1 - 1 (no Head) - 1 (vehicle resisted) -> 0.
    # gorgadon (Speed 2 > 0) hits the Torso 5 - 2 = 3 a round: 5 -> 2 -> destroyed in
    # R2; R3 the Arm takes 5 x 2 = 10: nothing intact, destroyed in round 3 with the
    # kaiju untouched: F, GPA 0.
    row = one(frames["battle"], mech="gappy", kaiju="gorgadon")
    assert (row["p_win"], row["p_destroyed"], row["expected_gpa"], row["expected_rounds"]) == (
        "0",
        "1",
        "0",
        "3",
    )
