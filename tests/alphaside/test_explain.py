"""ALPHASIDE explain subjects: the working shows the hand-derived numbers, and a bad
request is one InputError line naming the bad value."""

import pytest

from sims.alphaside.catalog import load_catalog
from sims.alphaside.explain import EXPLAIN, attack_text, faces_text, signed_number, weapon_text
from sims.core.protocol import InputError
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def table(text: str, after: str) -> list[list[str]]:
    """The ``value  p`` lines of the block that starts with the line ``after``."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(after))
    out = []
    for ln in lines[start + 1 :]:
        if not ln.startswith("    "):
            break
        out.append(ln.split()[:2])
    return out


def test_subjects_and_options():
    assert set(EXPLAIN) == {"attack", "weapon"}
    assert [o.flag for o in EXPLAIN["attack"].options] == [
        "--dice",
        "--accuracy",
        "--crit-from",
        "--shields",
        "--hp",
        "--plus",
        "--disarmed",
        "--fractured",
    ]
    assert [o.flag for o in EXPLAIN["weapon"].options] == ["--weapon", "--unit"]
    assert signed_number("-3") == -3 and signed_number("+2") == 2 and signed_number("0") == 0
    with pytest.raises(ValueError):
        signed_number("three")


def test_faces_text():
    assert faces_text([4, 5, 6, 7, 8, 9, 10]) == "4-10"
    assert faces_text([1]) == "1"
    assert faces_text([2, 5, 6]) == "2, 5-6"
    assert faces_text([]) == "no face"


def test_three_dice_through_a_shield(catalog):
    # 3 dice at Accuracy 0: each hits 7/10; hits 0..3: 27/1000, 189/1000, 441/1000,
    # 343/1000. Behind 1 Shield the damage is hits - 1: 0 with 27/1000 + 189/1000 =
    # 216/1000 = 27/125, 1 with 441/1000, 2 with 343/1000; 2 HP falls only on 2 damage:
    # 343/1000. Expected damage 441/1000 + 2 x 343/1000 = 1127/1000.
    text = attack_text(catalog, dice=3, hp=2, shields=1)
    assert text.startswith(
        "Attack of 3 d10 at Accuracy +0, crits on 9-10, against 1 active Shield and 2 HP"
    )
    assert "hits on faces 4-10 (face + 0 >= 4; a 1 always misses" in text
    assert "crits on faces 9-10 (read from the face, before Accuracy): 1/5 (20.0%)" in text
    assert "misses on faces 1-3: 3/10 (30.0%)" in text
    assert table(text, "Hits of 3") == [
        ["0", "27/1000"],
        ["1", "189/1000"],
        ["2", "441/1000"],
        ["3", "343/1000"],
    ]
    assert table(text, "Combat damage") == [["0", "27/125"], ["1", "441/1000"], ["2", "343/1000"]]
    assert "expected damage 1127/1000 (1.127)" in text
    assert text.rstrip().endswith("= 343/1000 (34.3%)")


def test_damage_plus_one_die(catalog):
    # 1 die, Damage+1 on a crit, no Shields: 0 with 3/10, 1 with 1/2 (faces 4-8), 2 with
    # 1/5 (9-10); P(a crit) = 1/5; expected 1/2 + 2/5 = 9/10; 2 HP falls on the crit only.
    text = attack_text(catalog, dice=1, hp=2, plus=1)
    assert "Damage+1 on a crit" in text
    assert "P(at least one crit) = sum of hits.csv's rows with crits >= 1 = 1/5 (20.0%)" in text
    assert table(text, "Combat damage") == [["0", "3/10"], ["1", "1/2"], ["2", "1/5"]]
    assert "expected damage 9/10 (0.900)" in text
    assert text.rstrip().endswith("= 1/5 (20.0%)")


def test_disarmed_and_accuracy(catalog):
    # Disarmed at Accuracy 0: a die hits 7/10 x 7/10 = 49/100; no Damage+X.
    text = attack_text(catalog, dice=1, hp=1, plus=2, disarmed=True)
    assert "7/10 x 7/10 = 49/100 (49.0%)" in text
    assert "not triggered, the attacker is Disarmed" in text
    assert table(text, "Combat damage") == [["0", "51/100"], ["1", "49/100"]]
    # Accuracy -4, crits on 7-10: face 7 makes 3 yet hits as a crit: faces 7-10, 2/5.
    text = attack_text(catalog, dice=1, hp=1, accuracy=-4, crit_from=7)
    assert "hits on faces 7-10 (face - 4 >= 4" in text and "crits on 7-10" in text
    assert text.rstrip().endswith("= 2/5 (40.0%)")
    # Accuracy +3: faces 2-10, the 1 still misses.
    text = attack_text(catalog, dice=1, hp=1, accuracy=3)
    assert "hits on faces 2-10" in text and "misses on faces 1: 1/10" in text


def test_fractured(catalog):
    # Fractured, 3 dice, no Shields: 3 hits (343/1000) deal 3 + 3 = 6, so 6 HP falls
    # exactly then.
    text = attack_text(catalog, dice=3, hp=6, fractured=True)
    assert "then + 3 when that reaches 3 (Fracture)" in text
    assert table(text, "Combat damage")[-1] == ["6", "343/1000"]
    assert text.rstrip().endswith("= 343/1000 (34.3%)")


def test_weapon(catalog):
    # rifle on a grunt (tests/alphaside/test_exact.py derives these): P(defeat)
    # 5017/10000, expected 2119/625, per TL (3) 2119/1875.
    text = weapon_text(catalog, "rifle", "grunt")
    assert text.startswith("Assault Rifle (rifle): Strength 4, Accuracy +0, crits from 9, TL 3")
    assert "against Grunt (grunt): 4 HP, 0 Shields" in text
    assert "  = 5017/10000 (50.2%)" in text
    assert "= 2119/625 (3.390)" in text
    assert text.rstrip().endswith("/ 3 TL = 2119/1875 (1.130)")
    text = EXPLAIN["weapon"].run(catalog, weapon="heat_axe", unit="brawler")
    assert "its crit effect (fracture) is not counted here" in text


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"dice": 0, "hp": 1}, "dice 0"),
        ({"dice": 99, "hp": 1}, "dice 99"),
        ({"dice": 2, "hp": 0}, "hp 0"),
        ({"dice": 2, "hp": 1, "accuracy": -11}, "accuracy -11"),
        ({"dice": 2, "hp": 1, "crit_from": 11}, "crit-from 11"),
        ({"dice": 2, "hp": 1, "crit_from": 1}, "crit-from 1"),
        ({"dice": 2, "hp": 1, "shields": 21}, "shields 21"),
        ({"dice": 2, "hp": 1, "plus": 21}, "plus 21"),
    ],
)
def test_bad_attack(catalog, kwargs, named):
    with pytest.raises(InputError) as err:
        attack_text(catalog, **kwargs)
    message = str(err.value)
    assert named in message and "\n" not in message


@pytest.mark.parametrize(
    ("weapon", "unit", "named"),
    [("laser", "grunt", "weapon 'laser'"), ("rifle", "titan", "unit 'titan'")],
)
def test_bad_weapon(catalog, weapon, unit, named):
    with pytest.raises(InputError) as err:
        weapon_text(catalog, weapon, unit)
    message = str(err.value)
    assert named in message and "known:" in message and "\n" not in message
