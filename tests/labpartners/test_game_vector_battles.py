"""Dealt battles compiled as arrays (sims/labpartners/game/vector/battles.py) against the
per-game compile they replace (``vector.stack(compile_all(...)[0])``, field by field,
``game/reference/battles.py``), one clamped foe and its card table traced by hand, ``vector.play_stacked`` against
``vector.play``, and the Battle-only study's rows unchanged by the array path.

Values by hand read catalogs/labpartners (rules.toml: lesson_bonus 1, legs/torso/head/arm
HP 4/5/3/3, base Speed 2, Beast +1, base Accuracy 1, no Head -1, Form step 1, Type x2;
kaiju.toml: Gorgadon HP 20, Speed 2, damage 5, weak to Mechsuit and Sonic, debuff
"lesson took: damage -amount"; traits.toml: Plated resist Projectile / Speed -amount,
Swift Speed +1 / weak Beast, Frenzy damage +1 / HP -amount).
"""

from __future__ import annotations

import dataclasses
import glob

import numpy as np
import pytest

from sims.core.protocol import register, registry
from sims.core.runner import simulate
from sims.labpartners import battle, experiments, vector
from sims.labpartners.battle import with_params
from sims.labpartners.catalog import load_catalog
from sims.labpartners.game import dealt_mechs
from sims.labpartners.game.reference import battles as reference_battles
from sims.labpartners.game.vector import battles as vector_battles
from tests.conftest import CATALOGS

SPECIALTIES = ("tactician", "brawler", "ace", "medic", "saboteur")
# Every Trait kind is in the shipped traits.toml except a "regen" weakness (Ancient's
# Speed weakness becomes one here); the amounts of 20 take each floor (HP 1; damage,
# Speed, regen 0) from every kaiju, and the debuffs' amounts do the same; countdowns of
# 10 flip the whole Trait deck, so every order of strengths and clamped weaknesses occurs.
CLAMPS = {
    "trait.frenzy.weakness_amount": 20,
    "trait.plated.weakness_amount": 20,
    "trait.shrouded.weakness_amount": 20,
    "trait.ancient.weakness": "regen",
    "trait.ancient.weakness_amount": 20,
    "kaiju.gorgadon.debuff_amount": 20,
    "kaiju.trivex.debuff_amount": 20,
    "kaiju.thornmaw.debuff_amount": 20,
    "kaiju.gorgadon.countdown": 10,
    "kaiju.lumenyx.countdown": 10,
}
CATALOG_CASES = {
    "shipped": {},
    "no_spares": {"spares_per_part": 0},
    "clamps": CLAMPS,
    "rebuild_none": {"rebuild_source": "none", "spares_per_part": 1},
}


def with_specialties(c):
    """One extra policy per specialty (on the steady policy), so every campaign effect
    code is compiled, besides policies.toml's own (ace_finisher, medic_keystone ...)."""
    extra = {
        f"{s}_first": dataclasses.replace(
            c.policies["steady"], id=f"{s}_first", specialty=s, intervene_when="first_round"
        )
        for s in SPECIALTIES
    }
    return dataclasses.replace(c, policies={**c.policies, **extra})


@pytest.fixture(scope="module")
def catalogs():
    return {
        name: with_specialties(load_catalog(CATALOGS, overrides=o))
        for name, o in CATALOG_CASES.items()
    }


def dealt_games(cat, deck: str, gap: float, games: int, seed: int):
    """``games`` games cycling over every kaiju and (offset) every policy."""
    kaiju = [list(cat.kaiju)[i % len(cat.kaiju)] for i in range(games)]
    policies = list(cat.policies)
    policy = [policies[(i // len(cat.kaiju) + i) % len(policies)] for i in range(games)]
    counts = [cat.kaiju[k].countdown for k in kaiju]
    return dealt_mechs.deal(cat, deck, counts, np.random.default_rng(seed), gap), kaiju, policy


def per_game(cat, dealt, kaiju, policy):
    return [
        reference_battles.compile_game(cat, dealt, i, kaiju[i], policy[i])
        for i in range(dealt.games)
    ]


def assert_same(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for f in want:
        assert got[f].dtype == want[f].dtype, f
        assert got[f].shape == want[f].shape, f
        bad = np.argwhere(got[f] != want[f])
        assert not len(bad), f"{f}: first differing [game, ...] {bad[0]}"


# ---- the array compile equals the per-game compile ------------------------------------


@pytest.mark.parametrize("case", list(CATALOG_CASES))
@pytest.mark.parametrize("deck", ["alpha", "full"])
@pytest.mark.parametrize("gap", [0.0, 10.0, 50.0])
def test_array_compile_equals_the_per_game_compile(catalogs, case, deck, gap):
    cat = catalogs[case]
    seed = list(CATALOG_CASES).index(case) * 1000 + len(deck) * 100 + int(gap)
    dealt, kaiju, policy = dealt_games(cat, deck, gap, 400, seed)
    battles = [b for b, _ in per_game(cat, dealt, kaiju, policy)]
    assert_same(vector_battles.stacked(cat, dealt, kaiju, policy), vector.stack(battles))


def test_kaiju_and_policy_as_ints_or_one_name(catalogs):
    cat = catalogs["shipped"]
    dealt, kaiju, _ = dealt_games(cat, "full", 10.0, 100, seed=3)
    want = vector.stack(reference_battles.compile_all(cat, dealt, kaiju, "keystone")[0])
    ids = tuple(cat.kaiju)
    as_ints = np.array([ids.index(k) for k in kaiju])
    assert_same(vector_battles.stacked(cat, dealt, as_ints, "keystone"), want)
    pol = np.full(dealt.games, list(cat.policies).index("keystone"))
    assert_same(vector_battles.stacked(cat, dealt, kaiju, pol), want)
    # a kaiju list of its own: ints index it
    mine = ("trivex", "gorgadon")
    pick = np.arange(dealt.games) % 2
    want = vector.stack(
        reference_battles.compile_all(cat, dealt, [mine[i] for i in pick], "keystone")[0]
    )
    assert_same(vector_battles.stacked(cat, dealt, pick, "keystone", kaiju_ids=mine), want)


def test_foes_equal_battle_foe(catalogs):
    cat = catalogs["clamps"]
    for deck in ("alpha", "full"):
        dealt, kaiju, policy = dealt_games(cat, deck, 30.0, 500, seed=11)
        got = vector_battles.foes(cat, dealt, kaiju)
        forms, types = list(cat.forms), list(cat.types)
        for i, (_, f) in enumerate(per_game(cat, dealt, kaiju, policy)):
            for name in vector_battles.STATS:
                assert getattr(got, name)[i] == getattr(f, name), (i, name)
            assert (got.crit_immune[i], got.mech_first[i], got.debuffed[i]) == (
                f.crit_immune,
                f.mech_first,
                f.debuffed,
            )
            assert got.kaiju_ids[got.kaiju[i]] == f.id
            for name, names in (
                ("weak_forms", forms),
                ("resist_forms", forms),
                ("weak_types", types),
                ("resist_types", types),
            ):
                assert {
                    n for n, on in zip(names, getattr(got, name)[i], strict=True) if on
                } == getattr(f, name)


def test_the_clamp_catalog_reaches_every_floor(catalogs):
    """Not a vacuous comparison: the clamped deals hold foes at each floor, a Speed
    clamped to 0 by Plated then raised by a later Swift, and every debuff applied."""
    cat = catalogs["clamps"]
    dealt, kaiju, policy = dealt_games(cat, "alpha", 0.0, 500, seed=11)
    foes = [f for _, f in per_game(cat, dealt, kaiju, policy)]
    assert any(f.hp == 1 for f in foes)
    for stat in ("damage", "speed", "regen"):
        assert any(getattr(f, stat) == 0 for f in foes), stat
    order = [dealt.trait_list(i) for i in range(dealt.games)]
    assert any("plated" in o and "swift" in o[o.index("plated") :] for o in order)
    assert {f.id for f in foes if f.debuffed} == set(cat.kaiju)


def test_a_clamped_foe_and_its_card_table_by_hand(catalogs):
    """Gorgadon flipping Plated, Swift, Frenzy against an all-Beast mech (lesson Beast)
    with an empty arm_2, under the clamp amounts:
    Plated: resists Projectile (already); Speed max(2 - 20, 0) = 0. Swift: Speed 0 + 1
    = 1; weak to Beast. Frenzy: damage 5 + 1 = 6; HP max(20 - 20, 1) = 1. Four Beast
    parts: the lesson took, so the debuff: damage max(6 - 20, 0) = 0.
    Card table: Legs HP 4, Speed 2 + Beast 1 + lesson 1 = 4. Torso HP 5 + lesson 1 = 6.
    Head HP 3, Accuracy 1 + lesson 1 = 2. Arm (Beast Sonic Power 2) HP 3: with a Head
    (2 + lesson 1 + Beast weak 1) x Sonic 2 = 8, without (2 + 1 - 1 + 1) x 2 = 6; at max
    Power 3: (3 + 1 + 1) x 2 = 10 and (3 + 1 - 1 + 1) x 2 = 8. The gap: all 0."""
    cat = catalogs["clamps"]
    deck = cat.deck("full")
    ids = [c.id for c in deck.cards]
    slots = ["legs-beast-melee", "torso-beast-energy", "head-beast-magic", "arms-beast-sonic-2"]
    trait_ids = tuple(cat.traits)
    dealt = dealt_mechs.Dealt(
        deck="full",
        cards=deck.cards,
        slots=np.array([[ids.index(c) for c in slots] + [-1]], np.int16),
        lesson=np.array([list(cat.forms).index("beast")], np.int16),
        forms=tuple(cat.forms),
        spares=np.full((1, 4, cat.params.spares_per_part), -1, np.int16),
        traits=np.array([[trait_ids.index(t) for t in ("plated", "swift", "frenzy")]], np.int16),
        trait_ids=trait_ids,
    )
    out = vector_battles.compile_games(cat, dealt, ["gorgadon"], "steady")
    f, st = out.foes, out.stacked
    assert (f.hp[0], f.speed[0], f.damage[0], f.regen[0]) == (1, 1, 0, 0)
    assert bool(f.debuffed[0]) and bool(out.took[0])
    weak = {n for n, on in zip(cat.forms, f.weak_forms[0], strict=True) if on}
    assert weak == {"mechsuit", "beast"}
    assert (st["kaiju_hp"][0], st["kaiju_speed"][0], st["damage"][0]) == (1, 1, 0)
    assert st["hp"][0, :5].tolist() == [4, 6, 3, 3, 0]
    assert st["speed"][0, :5].tolist() == [4, 0, 0, 0, 0]
    assert st["acc"][0, :5].tolist() == [0, 0, 2, 0, 0]
    assert [st[k][0, 3] for k in ("dmg_head", "dmg_nohead", "max_head", "max_nohead")] == [
        8,
        6,
        10,
        8,
    ]
    assert st["present"][0].tolist() == [1, 1, 1, 1, 0] + [0] * 8


def test_unknown_names_are_refused(catalogs):
    cat = catalogs["shipped"]
    dealt, kaiju, _ = dealt_games(cat, "alpha", 10.0, 5, seed=1)
    with pytest.raises(ValueError, match="unknown kaiju 'mothra'"):
        vector_battles.stacked(cat, dealt, ["mothra"] * 5)
    with pytest.raises(ValueError, match="unknown policy 'yolo'"):
        vector_battles.stacked(cat, dealt, kaiju, "yolo")
    with pytest.raises(ValueError, match="one per game"):
        vector_battles.stacked(cat, dealt, kaiju[:3])


# ---- play_stacked plays what play plays ----------------------------------------------


@pytest.mark.parametrize("case", ["shipped", "no_spares", "rebuild_none", "clamps"])
def test_play_stacked_equals_play(catalogs, case):
    cat = catalogs[case]
    dealt, kaiju, policy = dealt_games(cat, "full", 20.0, 600, seed=5)
    battles = [b for b, _ in per_game(cat, dealt, kaiju, policy)]
    ids = np.random.default_rng(9).integers(len(battles), size=3000)
    want = vector.play(battles, ids, np.random.default_rng(1))
    got = vector.play_stacked(
        vector_battles.stacked(cat, dealt, kaiju, policy),
        cat.params,
        cat.grades,
        np.random.default_rng(1),
        ids,
    )
    assert_same(got, want)
    # each scenario once, in order, by default; a Dice as well as a Generator
    from sims.core.batch import Dice

    want = vector.play(battles, np.arange(len(battles)), np.random.default_rng(2))
    got = vector.play_stacked(
        vector.stack(battles), cat.params, cat.grades, Dice(np.random.default_rng(2))
    )
    assert_same(got, want)


def test_spares_ready_counts_leading_spares_only(catalogs):
    """Spares taken k = 0, 1, ... up to the first missing one; none when rebuild_source
    is "none" (Battle.spares)."""
    cat = catalogs["shipped"]
    b = battle.catalog_battle(
        cat,
        "gappy",
        "gorgadon",
        (),
        "keystone",
        ((), ("torso-vehicle-energy",), (), ("arms-mechsuit-melee-2", "arms-beast-energy-1")),
    )
    st = vector.stack([b])
    assert vector.spares_ready(st["present"], cat.params).tolist() == [[0, 1, 0, 2]]
    none = with_params(b, rebuild_source="none")
    assert vector.spares_ready(st["present"], none.params).tolist() == [[0, 0, 0, 0]]


def test_play_stacked_refuses_what_stack_would_not_give(catalogs):
    cat = catalogs["shipped"]
    st = vector.stack([battle.catalog_battle(cat, "gappy", "gorgadon")])
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="lack gpa"):
        vector.play_stacked(
            {k: v for k, v in st.items() if k != "gpa"}, cat.params, cat.grades, rng
        )
    with pytest.raises(ValueError, match="'hp' has shape"):
        vector.play_stacked({**st, "hp": st["hp"][:, :5]}, cat.params, cat.grades, rng)
    with pytest.raises(ValueError, match=r"lie in 0\.\.0"):
        vector.play_stacked(st, cat.params, cat.grades, rng, np.array([0, 1]))
    with pytest.raises(ValueError, match="grades"):
        vector.play_stacked(st, cat.params, cat.grades[:2], rng)


# ---- the study's rows -------------------------------------------------------------------


@pytest.fixture(scope="module")
def game():
    if "labpartners" not in registry():
        register("labpartners", "sims.labpartners:GAME")
    return "labpartners"


def test_study_rows_are_the_per_game_compiles(game, tmp_path, monkeypatch):
    """The same seed gives byte-identical row files whether the vector engine's chunks
    compile as arrays or game by game (``battle.compile_battle``)."""
    options = {"policy": "steady,keystone,all_in,ace_finisher,medic_keystone", "gap_percent": 30.0}

    def run(folder):
        out = simulate(
            game,
            "battles",
            n=3000,
            seed=3,
            catalog_root=CATALOGS,
            store_root=folder,
            options=options,
            chunk_size=1000,
        )
        files = sorted(glob.glob(str(out.plan.folder / "**" / "*.parquet"), recursive=True))
        return [open(f, "rb").read() for f in files]

    arrays = run(tmp_path / "arrays")
    monkeypatch.setattr(
        experiments,
        "_vector_battles",
        lambda cat, n, dealt, rng: experiments._compiled_battles(cat, n, dealt, rng, "vector"),
    )
    games = run(tmp_path / "games")
    assert len(arrays) == 3 and arrays == games


def test_trait_lists_join_each_games_flips(catalogs):
    """The rows' traits column: each game's flipped Trait ids in flip order, by one
    number per sequence or (a Trait deck too big for that) by the sequences."""
    cat = catalogs["clamps"]
    dealt, _, _ = dealt_games(cat, "alpha", 10.0, 600, seed=4)
    want = [",".join(dealt.trait_list(i)) for i in range(dealt.games)]
    assert dealt_mechs.trait_lists(dealt).tolist() == want
    big = dataclasses.replace(dealt, trait_ids=dealt.trait_ids * 100)  # 1,000 "Traits"
    assert dealt_mechs.trait_lists(big).tolist() == want
