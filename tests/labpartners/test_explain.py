"""Lab Partners explain subjects: the working shows the hand-derived numbers, and a bad
request is one InputError line naming the bad value."""

import pytest

from sims.core.protocol import InputError
from sims.labpartners.catalog import load_catalog
from sims.labpartners.explain import EXPLAIN, arm_text, battle_text
from tests.conftest import CATALOGS


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOGS)


def test_subjects_and_options():
    assert set(EXPLAIN) == {"arm", "battle"}
    assert [o.flag for o in EXPLAIN["arm"].options] == [
        "--card",
        "--kaiju",
        "--lesson",
        "--no-head",
        "--traits",
    ]
    assert [o.flag for o in EXPLAIN["battle"].options] == [
        "--mech",
        "--kaiju",
        "--lesson",
        "--traits",
        "--policy",
    ]


def test_arm_steps(catalog):
    # gorgadon: weak mechsuit, weak sonic. Power 2, +1 Form -> 3, x2 Type -> 6; a plain
    # Head: Accuracy 1, P(crit) 1/20, crit 12; expected 19/20 x 6 + 1/20 x 12 = 63/10.
    text = EXPLAIN["arm"].run(
        catalog, card="arms-mechsuit-sonic-2", kaiju="gorgadon", lesson=False, no_head=False
    )
    steps = [ln.split()[:2] for ln in text.splitlines() if ln.startswith("  ")]
    steps = [s for s in steps if s[0] in ("Power", "Form", "Type")]
    assert steps == [["Power", "2"], ["Form", "3"], ["Type", "6"]]
    assert "P(crit) = 1/20 (5.0%)" in text
    assert "6 x 2 = 12" in text
    assert text.rstrip().endswith("= 63/10 (6.300)")


def test_arm_no_head_resisted_zero(catalog):
    # 1 - 1 (no Head) - 1 (vehicle resisted) -> 0; resisted 0 stays 0; no die.
    text = arm_text(catalog, "arms-vehicle-projectile-1", "gorgadon", no_head=True)
    assert "0 stays 0" in text
    assert "no d20 is rolled" in text
    assert text.rstrip().endswith("  0")


def test_arm_traits_and_bonus(catalog):
    # trivex per-Arm bonus +1; Spined takes 1 off it (0) and opens crits (already open).
    # arms-ghost_crystal-energy-1: (1 + 1 lesson + 1 Form) x 2 = 6; hit 6, crit 12:
    # 19/20 x 6 + 1/20 x 12 = 63/10.
    text = arm_text(
        catalog, "arms-ghost_crystal-energy-1", "trivex", lesson=True, traits=["spined"]
    )
    assert "Traits flipped: spined" in text
    assert "per-Arm bonus +0" in text
    assert text.rstrip().endswith("= 63/10 (6.300)")


def test_arm_crit_immune(catalog):
    text = arm_text(catalog, "arms-beast-projectile-3", "lumenyx")
    assert "lumenyx is crit-immune" in text
    assert text.rstrip().endswith("  6")  # 3, projectile weak x2, no crit


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"card": "arms-beast-sonic-9", "kaiju": "gorgadon"}, "'arms-beast-sonic-9'"),
        ({"card": "arms-robot-sonic-2", "kaiju": "gorgadon"}, "'robot'"),
        ({"card": "legs-beast-melee", "kaiju": "gorgadon"}, "not an Arm"),
        ({"card": "arms-beast-sonic-2", "kaiju": "godzilla"}, "'godzilla'"),
        ({"card": "arms-beast-sonic-2", "kaiju": "gorgadon", "traits": ["wings"]}, "'wings'"),
    ],
)
def test_arm_bad_requests(catalog, kwargs, named):
    with pytest.raises(InputError) as err:
        arm_text(catalog, **kwargs)
    message = str(err.value)
    assert named in message and "\n" not in message


def test_battle_trivex(catalog):
    # Hand-derived in test_exact.test_battle_mechsuit_lesson_v_trivex: a win in round 2
    # after any crit of round 1 (19/100), else in round 3 (81/100).
    text = battle_text(catalog, "mechsuit_lesson", "trivex")
    assert "HP 19, Speed 4, 2 attack(s) of 4" in text  # 22 - 3: the lesson took
    assert "debuff (hp 3) when the lesson took: applies" in text
    assert "Speed 3 (2 base +1 lesson)" in text
    assert "Accuracy 2 (1 base +1 Clockwork): P(crit) 1/10 (10.0%)" in text
    assert "Power 2: damage 6" in text and "Power 2: damage 1" in text
    assert "the kaiju acts first" in text
    assert "P(win)        = 1 (100.0%)" in text
    assert "expected rounds = 281/100 (2.810)" in text
    assert "2  19/100 (19.0%)" in text and "3  81/100 (81.0%)" in text


def test_battle_card_list_default_lesson(catalog):
    # Five cards with 3 Beast (Legs, Torso, Arm 1): the default lesson is beast and takes.
    cards = "legs-beast-melee,torso-beast-projectile,head-clockwork-energy,arms-beast-melee-1,gap"
    text = battle_text(catalog, cards, "gorgadon")
    assert "lesson beast: default: the most common Form among the cards (3 of 4" in text
    assert "the lesson takes" in text
    assert "arm_2  gap" in text
    # --lesson overrides it: 1 Clockwork part, no bonus
    text = battle_text(catalog, cards, "gorgadon", lesson="clockwork")
    assert "lesson clockwork: given (--lesson)" in text
    assert "below 3, no bonus" in text


def test_battle_gappy(catalog):
    # test_exact.test_battle_gappy_v_gorgadon: destroyed in round 3, GPA 0 (F).
    text = battle_text(catalog, "gappy", "gorgadon")
    assert "P(destroyed)  = 1 (100.0%)" in text
    assert "F   0.0  1 (100.0%)" in text
    assert " 3  1 (100.0%)" in text


@pytest.mark.parametrize(
    ("mech", "kwargs", "named"),
    [
        ("nope", {}, "'nope'"),
        ("legs-beast-melee,gap,gap", {}, "got 3"),
        ("head-beast-melee,gap,gap,gap,gap", {}, "slot legs"),
        ("legs-beast-lava,gap,gap,gap,gap", {}, "'lava'"),
        ("gappy", {"kaiju": "godzilla"}, "'godzilla'"),
        ("gappy", {"traits": ["wings"]}, "'wings'"),
        ("gappy", {"policy": "yolo"}, "'yolo'"),
        ("gappy", {"lesson": "robot"}, "'robot'"),
    ],
)
def test_battle_bad_requests(catalog, mech, kwargs, named):
    kaiju = kwargs.pop("kaiju", "gorgadon")
    with pytest.raises(InputError) as err:
        battle_text(catalog, mech, kaiju, **kwargs)
    message = str(err.value)
    assert named in message and "\n" not in message
