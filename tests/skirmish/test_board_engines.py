"""Skirmish engines on the hex board (003 H, I4): the vectorized engine against the
reference engine on maps, within 4 standard errors on every metric (zone points, kills
and Hull among them), one matchup per call and many matchups mixed in one call; and the
board's own facts both engines must show (deployment, zone scoring, sudden death)."""

import dataclasses
from dataclasses import replace

import numpy as np
import pytest

from sims.skirmish import reference, vector
from sims.skirmish.battle import compile_battle, metrics
from tests.skirmish.test_engines import METRICS, assert_same_distribution, side

BOARD_METRICS = METRICS + [f"{k}_{s}" for k in ("kills", "points", "zones") for s in "ab"]


def battle_on(catalog, board: str, a, b, changes=None):
    """The matchup on ``board`` under rules changes; ``p_*`` changes are compiled policy
    switches per side (as in test_engines.battle_of)."""
    changes = changes or {}
    rules_changes = {k: v for k, v in changes.items() if not k.startswith("p_")}
    battle = compile_battle(catalog, a, b, replace(catalog.params, board=board, **rules_changes))
    switches = {
        k: np.array([v[s] for s in battle.side], bool)
        for k, v in changes.items()
        if k.startswith("p_")
    }
    return replace(battle, **switches)


# (id, map, side A, side B, rules changes): maps, policies (the zone players holder and
# flanker among them), duels and 3v3, Guard, smoke, jumps, grapples, margins, round caps.
SCENARIOS = [
    ("broken-gun-v-brawl", "broken", side("foreman", "gunline"), side("reaver", "brawler"), {}),
    ("broken-mirror-gun", "broken", side("foreman", "gunline"), side("foreman", "gunline"), {}),
    ("open-careful-v-brawl", "open", side("courier", "careful"), side("bastion", "brawler"), {}),
    ("urban-gun-v-careful", "urban", side("lancer", "gunline"), side("warden", "careful"), {}),
    ("urban-holder-v-flanker", "urban", side("skiff", "holder"), side("harrier", "flanker"), {}),
    (
        "large-gun-v-holder",
        "large_broken",
        side("bastion", "gunline"),
        side("foreman", "holder"),
        {},
    ),
    ("open-brawl-mirror", "open", side("reaver", "brawler"), side("reaver", "brawler"), {}),
    (
        "broken-margin-3",
        "broken",
        side("bastion", "gunline"),
        side("foreman", "careful"),
        {"crit_margin": 3},
    ),
    (
        "broken-short-game",
        "broken",
        side("courier", "flanker"),
        side("lancer", "holder"),
        {"round_cap": 3},
    ),
    (
        "team-broken-gun-v-brawl",
        "broken",
        side("courier+foreman+reaver", "gunline"),
        side("bastion+lancer+skiff", "brawler"),
        {},
    ),
    (
        "team-broken-holder-v-gun",
        "broken",
        side("courier+foreman+reaver", "holder"),
        side("courier+foreman+reaver", "gunline"),
        {},
    ),
    (
        "team-open-careful-v-flanker",
        "open",
        side("skiff+harrier+warden", "careful"),
        side("courier+foreman+bastion", "flanker"),
        {},
    ),
    (
        "team-urban-mirror-holder",
        "urban",
        side("courier+foreman+reaver", "holder"),
        side("courier+foreman+reaver", "holder"),
        {},
    ),
    (
        "team-urban-saints-bond",
        "urban",
        side("reaver+warden+courier", "brawler", "ruko+marrow+hana"),
        side("foreman+lancer+harrier", "gunline"),
        {},
    ),
    (
        "team-large-gun-v-careful",
        "large_broken",
        side("bastion+reaver+courier", "gunline"),
        side("skiff+harrier+lancer", "careful"),
        {},
    ),
    (
        "team-broken-bonds-margin-3",
        "broken",
        side("skiff+harrier+lancer", "gunline", "sable+vex+q"),
        side("foreman+courier+reaver", "careful", "dorn+hana+tamsin"),
        {"crit_margin": 3},
    ),
    # E5 Guard on a map: side B's Shield-bearers escort
    (
        "team-broken-guard",
        "broken",
        side("courier+foreman+reaver", "gunline"),
        side("bastion+warden+skiff", "careful"),
        {"p_guard": (False, True)},
    ),
    # H5 smoke and the jump booster on a map
    (
        "team-urban-smoke-jump",
        "urban",
        side("courier+skiff", "flanker"),
        side("reaver+foreman", "brawler"),
        {"p_smoke": (True, True), "p_jump": (True, True)},
    ),
    # F11.5 grapples (the brawler grapples; gunline and careful Break) and F11.3 Charges
    # with pushes over the broken map's drops (H3 falls)
    (
        "team-broken-brawl-v-careful",
        "broken",
        side("reaver+bastion+foreman", "brawler"),
        side("courier+lancer+warden", "careful"),
        {},
    ),
    (
        "team-open-flanker-v-brawl",
        "open",
        side("harrier+lancer+courier", "flanker"),
        side("reaver+bastion+foreman", "brawler"),
        {"glance_damage": "half"},
    ),
    (
        "team-2v3-broken",
        "broken",
        side("bastion+reaver", "holder"),
        side("courier+foreman+skiff", "gunline"),
        {},
    ),
]


@pytest.mark.parametrize(
    ("name", "board", "side_a", "side_b", "changes"), SCENARIOS, ids=[s[0] for s in SCENARIOS]
)
def test_vector_agrees_with_reference_on_the_board(skirmish, name, board, side_a, side_b, changes):
    battle = battle_on(skirmish, board, side_a, side_b, changes)
    team = len(side_a.kits) > 1
    # the reference sample carries the standard error (1/200 + 1/5,000 is 1.02 x 1/200)
    n_ref, n_vec = (200, 5_000) if team else (500, 10_000)
    seed = sum(map(ord, name))
    ref = metrics(reference.play([battle], np.zeros(n_ref, np.int64), np.random.default_rng(seed)))
    vec = metrics(vector.play([battle], np.zeros(n_vec, np.int64), np.random.default_rng(seed + 1)))
    assert_same_distribution(ref, vec, name, BOARD_METRICS)


def test_mixed_board_batch_agrees_with_reference(skirmish):
    """Several 3v3 matchups of one map in one call, each battle its own matchup: every
    matchup's metrics agree with the reference playing it alone."""
    names = ["team-broken-gun-v-brawl", "team-broken-holder-v-gun", "team-broken-guard"]
    chosen = [s for s in SCENARIOS if s[0] in names]
    battles = [battle_on(skirmish, s[1], s[2], s[3], s[4]) for s in chosen]
    rng = np.random.default_rng(15)
    ids = rng.permutation(np.repeat(np.arange(len(battles)), 5_000))
    vec = vector.play(battles, ids, np.random.default_rng(16))
    for i, s in enumerate(chosen):
        ref = metrics(
            reference.play([battles[i]], np.zeros(100, np.int64), np.random.default_rng(17 + i))
        )
        mine = {k: v[ids == i] for k, v in vec.items()}
        assert_same_distribution(ref, metrics(mine), s[0], BOARD_METRICS)


def test_scenarios_cover_the_maps_and_policies(skirmish):
    assert len(SCENARIOS) >= 20
    assert {s[1] for s in SCENARIOS} == set(skirmish.maps)
    policies = {s[k].policy for s in SCENARIOS for k in (2, 3)}
    assert policies == set(skirmish.policies)


# ---- facts of the board, in both engines -----------------------------------------------


@pytest.mark.parametrize("engine", [reference, vector], ids=["reference", "vector"])
def test_zone_points_add_up(skirmish, engine):
    """I4: points are 3 per enemy destroyed plus 1 per zone-round; zone-rounds are the
    rounds' zones summed; a side holds at most 3 zones a round, and both sides together
    at most 3."""
    battle = battle_on(
        skirmish,
        "broken",
        side("courier+foreman+reaver", "holder"),
        side("bastion+lancer+skiff", "gunline"),
    )
    res = engine.play(
        [battle], np.zeros(60 if engine is reference else 3_000, np.int64), np.random.default_rng(3)
    )
    assert (res["points"] == 3 * res["kills"] + res["zones"]).all()
    assert (res["zones_by_round"].sum(axis=1) == res["zones"]).all()
    assert res["zones_by_round"].max() <= 3
    assert (res["zones_by_round"].sum(axis=2) <= 3).all()
    assert res["zones"].sum() > 0  # zones are taken at all
    hexes = res["hexes"]
    assert ((hexes >= 0) & (hexes < 32 * 20)).all()


@pytest.mark.parametrize("engine", [reference, vector], ids=["reference", "vector"])
def test_no_two_mechs_share_a_hex(skirmish, engine):
    """A hex holds one mech (a reading): the living mechs' end hexes all differ."""
    battle = battle_on(
        skirmish,
        "urban",
        side("courier+foreman+reaver", "brawler"),
        side("bastion+lancer+skiff", "brawler"),
    )
    res = engine.play(
        [battle], np.zeros(40 if engine is reference else 2_000, np.int64), np.random.default_rng(4)
    )
    for hexes, down in zip(res["hexes"], res["down"], strict=True):
        standing = hexes[~down]
        assert len(set(standing.tolist())) == len(standing)


@pytest.mark.parametrize("engine", [reference, vector], ids=["reference", "vector"])
def test_a_level_game_goes_to_sudden_death(skirmish, engine):
    """I4: level on points and Hull after the round cap: one sudden-death round, then
    Hull again; still level, a draw. Two Foremen whose policy weighs nothing stay on
    their deployment hexes, 26 apart (H), out of every weapon's reach (the Foreman's
    longest reaches 1.5 x 8 = 12), score no zone and lose no Durability: every game
    plays cap + 1 rounds and is drawn."""
    sitter = dataclasses.replace(
        skirmish.policies["gunline"], id="sitter", zone=0, approach=0, shot=0, cover=0
    )
    catalog = dataclasses.replace(skirmish, policies={**skirmish.policies, "sitter": sitter})
    battle = battle_on(
        catalog, "open", side("foreman", "sitter"), side("foreman", "sitter"), {"round_cap": 3}
    )
    res = engine.play([battle], np.zeros(5, np.int64), np.random.default_rng(6))
    assert res["rounds"].tolist() == [4] * 5
    assert res["decided"].tolist() == [3] * 5  # draw
    assert res["points"].tolist() == [[0, 0]] * 5
    assert res["hull"].tolist() == [[1.0, 1.0]] * 5


@pytest.mark.parametrize("engine", [reference, vector], ids=["reference", "vector"])
def test_sudden_death_only_after_a_level_game(skirmish, engine):
    """I4: a battle reaching the cap level on points and Hull plays the sudden-death
    round (rounds = cap + 1) and is then decided by a wipe or Hull, else drawn, with its
    points at the cap, so level; no draw without that round, and no such round after a
    game that was not level."""
    cap = 3
    battle = battle_on(
        skirmish, "open", side("foreman", "holder"), side("foreman", "holder"), {"round_cap": cap}
    )
    res = engine.play(
        [battle], np.zeros(60 if engine is reference else 3_000, np.int64), np.random.default_rng(6)
    )
    sudden = res["rounds"] == cap + 1
    assert res["rounds"].max() <= cap + 1
    points, hull, decided = res["points"], res["hull"], res["decided"]
    assert (points[sudden, 0] == points[sudden, 1]).all()
    assert np.isin(decided[sudden], [0, 2, 3]).all()  # wipe, Hull or draw
    assert (sudden[decided == 3]).all()  # a draw only after the sudden-death round
    ended = ~sudden & (decided != 0)  # reached the cap and decided there
    level = (points[ended, 0] == points[ended, 1]) & (hull[ended, 0] == hull[ended, 1])
    assert not level.any()


def half_turned(m):
    """The map turned half round: (col, row) -> (length - 1 - col, depth - 1 - row), its
    zones listed west to east again (the odd-r grid with an even number of rows is the
    same after a half turn)."""
    L, D = m.length, m.depth
    zones = tuple(tuple((L - 1 - c, D - 1 - r) for c, r in flower) for flower in m.zones[::-1])
    return dataclasses.replace(
        m,
        id=f"{m.id}_turned",
        zones=zones,
        elevation=m.elevation[::-1, ::-1].copy(),
        terrain=m.terrain[::-1, ::-1].copy(),
        obstacle=m.obstacle[::-1, ::-1].copy(),
    )


@pytest.mark.parametrize("policy", ["gunline", "holder"])
def test_the_engine_favours_neither_side(skirmish, policy):
    """Both sides play by the same rules: a mirror match on a map, seen from side A, is
    the same as seen from side B on the map turned half round (side B then stands where
    side A stood). The shipped maps are not themselves the same after a half turn (their
    middle zone sits half a hex off), so this compares the two maps, not the two sides
    of one; tie-breaks in direction and hex order turn with the side (board._directions)."""
    m = skirmish.maps["broken"]
    turned = half_turned(m)
    catalog = dataclasses.replace(skirmish, maps={**skirmish.maps, turned.id: turned})
    team = side("courier+foreman+reaver", policy)
    scores = []
    for board, seed in ((m.id, 31), (turned.id, 32)):
        battle = battle_on(catalog, board, team, team)
        res = vector.play([battle], np.zeros(20_000, np.int64), np.random.default_rng(seed))
        scores.append(metrics(res))
    seen_from_b = {
        "score_a": 1 - scores[1]["score_a"],
        "zones_a": scores[1]["zones_b"],
        "kills_a": scores[1]["kills_b"],
        "hull_a": scores[1]["hull_b"],
    }
    assert_same_distribution(
        scores[0], seen_from_b, f"{policy} on broken", ["score_a", "zones_a", "kills_a", "hull_a"]
    )


def test_an_indirect_weapon_fires_without_sight_only_at_a_locked_target(skirmish):
    """003 E Lock On: "Indirect weapons may fire at it without LOS". The Harrier's missile
    rack (Back, mount 2) is Indirect, range 12. On the broken map (10,4) does not see
    (16,10) (`explain skirmish shot --map broken --from 10,4 --to 16,10`: the rock at
    (14,8), top 2, stands above the sight height 4/3), 9 hexes apart: nothing reaches
    the unlocked Foreman; the Locked one is reached by the rack alone, in both engines."""
    battle = battle_on(skirmish, "broken", side("harrier", "gunline"), side("foreman", "gunline"))
    geo = battle.board.geo
    a, t = geo.index(10, 4), geo.index(16, 10)
    assert not geo.los[a, t] and geo.dist[a, t] == 9
    assert battle.w_indirect[0].tolist() == [False, False, True]
    game = reference.Game(battle, reference.ScriptedDice([]))
    game.mechs[0].pos, game.mechs[1].pos = a, t
    engine = vector.Engine([battle], np.zeros(2, np.int64), None)
    engine.s.pos[:, 0], engine.s.pos[:, 1] = a, t
    engine.s.locked[1, 1] = True  # battle 1: the Foreman is Locked
    ix, m, f = np.arange(2), np.zeros(2, np.int64), np.ones(2, np.int64)
    assert engine.reach(ix, m, f)[0].tolist() == [-1, 2]
    assert game.reach(0, 1) == []
    game.mechs[1].locked = True
    assert game.reach(0, 1) == [2]
