"""Alluvion explain subjects: the working shows the hand-derived numbers, and a bad
request is one InputError line naming the bad value."""

import pytest

from sims.alluvion.catalog import load_catalog
from sims.alluvion.explain import EXPLAIN, attack_text, parse_pool
from sims.core.protocol import InputError
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def test_subjects_and_options():
    assert set(EXPLAIN) == {"attack"}
    assert [o.flag for o in EXPLAIN["attack"].options] == [
        "--attack",
        "--defense",
        "--spot",
        "--case",
    ]
    spot, case = EXPLAIN["attack"].options[2:]
    assert spot.parse("3") == 3 and case.parse("cover") == "cover"
    with pytest.raises(ValueError):
        case.parse("far")


def test_d6_against_d6(catalog):
    # P(hit) = P(A > D) = 15/36 = 5/12. Margin k = A - D for k = 1..5: (6-k)/36, a miss
    # 21/36 = 7/12. Expected dice = (1x5 + 2x4 + 3x3 + 4x2 + 5x1)/36 = 35/36; exposed, a
    # die is a Direct Hit on 5-6 (1/3): 35/36 x 1/3 = 35/108.
    text = EXPLAIN["attack"].run(catalog, attack="1d6", defense="1d6")
    assert "Attack 1d6 against Defense 1d6, Spot 0, case exposed" in text
    assert "  = 5/12 (41.7%)" in text
    margin = [ln.split()[:2] for ln in text.splitlines() if ln.startswith("    ")]
    assert margin[-6:] == [
        ["0", "7/12"],
        ["1", "5/36"],
        ["2", "1/9"],
        ["3", "1/12"],
        ["4", "1/18"],
        ["5", "1/36"],
    ]
    assert "expected damage dice 35/36 (0.972)" in text
    assert "on 5-6, 2 face(s) of 6 = 1/3" in text
    assert text.rstrip().endswith("= 35/108 (0.324)")


def test_highest_dice_shown(catalog):
    # max of 1d6+1d8: P(= x) = (2x-1)/48 for x <= 6, 1/8 for 7 and 8; max of 2d6
    # (2x-1)/36.
    text = attack_text(catalog, "1d6+1d8", "2d6", spot=1, case="cover")
    assert "min(x,6)/6 x min(x,8)/8" in text
    assert "    6   11/48 (22.9%)" in text and "    8   1/8 (12.5%)" in text
    assert "    6   11/36 (30.6%)" in text
    assert "where a + 1 - d >= 1" in text
    assert "on a 6, 1 face(s) of 6 = 1/6" in text


def test_empty_defense_and_spot(catalog):
    # 1d6 against nothing: every face hits; margin = face + spot 2: 3..8, mean 11/2;
    # smart 4-6 (1/2): 11/4 Direct Hits.
    text = attack_text(catalog, "1d6", "0", spot=2, case="smart")
    assert "Defense pool 0: no dice, the value is 0" in text
    assert "  = 1 (100.0%)" in text
    assert "expected damage dice 11/2 (5.500)" in text
    assert text.rstrip().endswith("= 11/4 (2.750)")


def test_spot_not_in_margin():
    cat = load_catalog(CATALOGS, overrides={"spot_adds_to_margin": "off"})
    # without Spot in the margin, 1d6 v 0 rolls the face: mean 7/2, exposed 7/6.
    text = attack_text(cat, "1d6", "0", spot=2)
    assert "Attack - Defense (spot_adds_to_margin off)" in text
    assert text.rstrip().endswith("= 7/6 (1.167)")


def test_parse_pool():
    assert parse_pool("2d6+1d8", "attack") == (6, 6, 8)
    assert parse_pool(" 1d8 + d6 ", "attack") == (6, 8)
    assert parse_pool("0", "defense") == ()


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"attack": "2x6", "defense": "0"}, "attack pool '2x6'"),
        ({"attack": "1d6", "defense": "3d6+"}, "defense pool '3d6+'"),
        ({"attack": "", "defense": "0"}, "attack pool ''"),
        ({"attack": "0d6", "defense": "0"}, "attack pool '0d6'"),
        ({"attack": "1d1", "defense": "0"}, "attack pool '1d1'"),
        ({"attack": "99d6", "defense": "0"}, "attack pool '99d6'"),
        ({"attack": "1d6", "defense": "0", "case": "far"}, "'far'"),
    ],
)
def test_bad_requests(catalog, kwargs, named):
    with pytest.raises(InputError) as err:
        attack_text(catalog, **kwargs)
    message = str(err.value)
    assert named in message and "\n" not in message
