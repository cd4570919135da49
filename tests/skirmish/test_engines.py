"""Skirmish engines: the vectorized engine against the reference engine over many
scenarios, one matchup per call and many matchups mixed in one call; against exact.py
shot by shot; and a battle traced by hand with forced dice."""

from dataclasses import replace

import numpy as np
import pytest

from sims.skirmish import exact, reference, vector
from sims.skirmish.battle import CORE, SIDE_B, Side, batch_key, compile_battle, metrics


@pytest.fixture(scope="module")
def skirmish(skirmish_track):
    """These scenarios compare the engines on the range track (board = "track"); the
    board's scenarios are tests/skirmish/test_board_engines.py."""
    return skirmish_track


def side(kits: str, policy: str, pilots: str = "") -> Side:
    """'foreman+reaver' style kit lists; pilots likewise, or the kits' suggested ones."""
    return Side(tuple(kits.split("+")), policy, tuple(pilots.split("+")) if pilots else ())


# (id, side A, side B, rules changes): kits, pilots, policies, cover, margin; duels and teams.
NO_COVER = {"soft_cover_percent": 0, "hard_cover_percent": 0}
SCENARIOS = [
    ("foreman-gun-v-reaver-brawl", side("foreman", "gunline"), side("reaver", "brawler"), {}),
    ("courier-careful-v-bastion", side("courier", "careful"), side("bastion", "gunline"), {}),
    ("harrier-brawl-v-warden", side("harrier", "brawler"), side("warden", "careful"), {}),
    ("skiff-gun-v-lancer-gun", side("skiff", "gunline"), side("lancer", "gunline"), {}),
    ("mirror-foreman-gun", side("foreman", "gunline"), side("foreman", "gunline"), {}),
    ("mirror-reaver-brawl", side("reaver", "brawler"), side("reaver", "brawler"), {}),
    ("bastion-brawl-v-courier", side("bastion", "brawler"), side("courier", "brawler"), {}),
    ("warden-gun-v-skiff-careful", side("warden", "gunline"), side("skiff", "careful"), {}),
    ("lancer-careful-v-harrier", side("lancer", "careful"), side("harrier", "gunline"), {}),
    (
        "reaver-marrow-v-foreman",
        side("reaver", "brawler", "marrow"),
        side("foreman", "brawler"),
        {},
    ),
    ("cannon-margin-3", side("bastion", "gunline"), side("foreman", "gunline"), {"crit_margin": 3}),
    ("cannon-margin-6", side("bastion", "gunline"), side("foreman", "gunline"), {"crit_margin": 6}),
    ("no-cover", side("courier", "gunline"), side("reaver", "careful"), NO_COVER),
    (
        "heavy-cover",
        side("courier", "gunline"),
        side("reaver", "careful"),
        {"soft_cover_percent": 30, "hard_cover_percent": 50},
    ),
    (
        "glance-half",
        side("skiff", "brawler"),
        side("bastion", "careful"),
        {"glance_damage": "half"},
    ),
    ("short-game", side("lancer", "gunline"), side("warden", "brawler"), {"round_cap": 3}),
    (
        "team-kits-gun-v-brawl",
        side("courier+foreman+reaver", "gunline"),
        side("bastion+lancer+skiff", "brawler"),
        {},
    ),
    (
        "team-saints-bond",
        side("reaver+warden+courier", "brawler", "ruko+marrow+hana"),
        side("foreman+lancer+harrier", "gunline"),
        {},
    ),
    (
        "team-careful-v-gun",
        side("skiff+harrier+warden", "careful"),
        side("courier+foreman+bastion", "gunline"),
        {},
    ),
    (
        "team-bonds-margin-3",
        side("skiff+harrier+lancer", "gunline", "sable+vex+q"),
        side("foreman+courier+reaver", "careful", "dorn+hana+tamsin"),
        {"crit_margin": 3},
    ),
    (
        "team-mirror",
        side("courier+foreman+reaver", "brawler"),
        side("courier+foreman+reaver", "brawler"),
        {},
    ),
    # E5 Guard: side B's Shield-bearers escort (the Bastion and the Warden)
    (
        "team-guard-escort",
        side("courier+foreman+reaver", "gunline"),
        side("bastion+warden+skiff", "careful"),
        {"p_guard": (False, True)},
    ),
    # H5 smoke and the jump booster: the Courier and Reaver lay smoke, the Skiff jumps
    (
        "smoke-and-jump",
        side("courier+skiff", "gunline"),
        side("reaver+foreman", "brawler"),
        {"p_smoke": (True, True), "p_jump": (True, True)},
    ),
]
METRICS = [
    "score_a",
    "rounds",
    "crits",
    "destroyed",
    "hull_a",
    "hull_b",
    "weapon_hits",
    "weapon_crits",
] + [f"destroyed_{p}" for p in ("head", "right_arm", "left_arm", "core", "back", "legs")]


def battle_of(catalog, a, b, changes):
    """The matchup under rules changes; a change named ``p_*`` is a compiled policy switch
    given per side (side A's, side B's), for switches policies.toml does not carry."""
    rules_changes = {k: v for k, v in changes.items() if not k.startswith("p_")}
    battle = compile_battle(catalog, a, b, replace(catalog.params, **rules_changes))
    switches = {
        k: np.array([v[s] for s in battle.side], bool)
        for k, v in changes.items()
        if k.startswith("p_")
    }
    return replace(battle, **switches)


def one_matchup(n: int) -> np.ndarray:
    """Scenario ids of n battles of one matchup."""
    return np.zeros(n, np.int64)


def assert_same_distribution(
    ref: dict, vec: dict, label: str = "", keys: list[str] = METRICS
) -> None:
    """Every mean of ``keys`` (METRICS) of the two engines' samples within 4 standard
    errors."""
    for key in keys:
        r, v = ref[key], vec[key]
        # Under "same distribution" both samples estimate one variance: pool them, so a
        # rare event the smaller reference sample happened not to see still counts.
        pooled = (
            np.concatenate([r - r.mean(), v - v.mean()]).var()
            * (len(r) + len(v))
            / (len(r) + len(v) - 2)
        )
        # A rare event (a wipe before the round cap, say) seen once in the small sample
        # is no evidence: the normal approximation fails there, so the variance is at
        # least that of one such event in the smaller sample (its range squared, p = 1/n).
        n_small = min(len(r), len(v))
        spread = float(max(r.max(), v.max()) - min(r.min(), v.min()))
        pooled = max(pooled, spread**2 * (n_small - 1) / n_small**2)
        se = np.sqrt(pooled * (1 / len(r) + 1 / len(v)))
        if se == 0:
            assert r.mean() == v.mean(), f"{label} {key}"
        else:
            gap = abs(r.mean() - v.mean())
            assert gap <= 4 * se, f"{label} {key}: {r.mean():.4f} vs {v.mean():.4f} (se {se:.4f})"


@pytest.mark.parametrize(
    ("name", "side_a", "side_b", "changes"), SCENARIOS, ids=[s[0] for s in SCENARIOS]
)
def test_vector_agrees_with_reference(skirmish, name, side_a, side_b, changes):
    battle = battle_of(skirmish, side_a, side_b, changes)
    team = len(side_a.kits) > 1
    n_ref, n_vec = (300, 15_000) if team else (1000, 30_000)
    seed = sum(map(ord, name))
    ref = metrics(reference.play([battle], one_matchup(n_ref), np.random.default_rng(seed)))
    vec = metrics(vector.play([battle], one_matchup(n_vec), np.random.default_rng(seed + 1)))
    assert_same_distribution(ref, vec, name)


def scenario(name: str) -> tuple:
    return next(s for s in SCENARIOS if s[0] == name)


# Mixed batches: matchups of one batch key (default rules), every battle its own matchup.
# The first team fields Marrow's riposte (pilot abilities switch on in teams only) and
# bonds, so a static number read from the first matchup instead of a battle's own shows.
MIXED_DUELS = [s for s in SCENARIOS if not s[3] and len(s[1].kits) == 1]
MIXED_TEAMS = sorted(
    [s for s in SCENARIOS if not s[3] and len(s[1].kits) == 3],
    key=lambda s: s[0] != "team-saints-bond",
)


def mixed_ids(matchups: int, per: int, seed: int) -> np.ndarray:
    """``per`` battles of each of ``matchups`` matchups, interleaved at random."""
    return np.random.default_rng(seed).permutation(np.repeat(np.arange(matchups), per))


@pytest.mark.parametrize(
    ("scenarios", "n_ref", "n_vec"),
    [
        (MIXED_DUELS, 200, 4000),
        (MIXED_TEAMS, 100, 3000),
    ],
    ids=["duels", "teams"],
)
def test_mixed_batch_agrees_with_reference(skirmish, scenarios, n_ref, n_vec):
    """Several matchups in one call of each engine, ids interleaved: each matchup's
    battles against the reference engine's battles of that matchup."""
    battles = [battle_of(skirmish, a, b, c) for _, a, b, c in scenarios]
    assert len(battles) >= 4 and len({batch_key(b) for b in battles}) == 1
    ref_ids = mixed_ids(len(battles), n_ref, 1)
    vec_ids = mixed_ids(len(battles), n_vec, 2)
    ref = metrics(reference.play(battles, ref_ids, np.random.default_rng(3)))
    vec = metrics(vector.play(battles, vec_ids.astype(np.int32), np.random.default_rng(4)))
    for i, (name, *_) in enumerate(scenarios):
        assert_same_distribution(
            {k: x[ref_ids == i] for k, x in ref.items()},
            {k: x[vec_ids == i] for k, x in vec.items()},
            name,
        )


# Decoys: matchups unlike the scenario of the same name in every per-mech number (kits,
# weapons, Shield arms, policies, pilots; the team's riposte and bonds).
DECOYS = {
    "foreman-gun-v-reaver-brawl": (side("skiff", "careful"), side("bastion", "gunline")),
    "team-careful-v-gun": (
        side("reaver+warden+courier", "gunline", "ruko+marrow+hana"),
        side("foreman+lancer+harrier", "brawler"),
    ),
}


@pytest.mark.parametrize(
    ("name", "decoy"),
    [
        ("foreman-gun-v-reaver-brawl", False),
        ("foreman-gun-v-reaver-brawl", True),
        ("team-careful-v-gun", True),
    ],
)
def test_copies_of_one_matchup_play_as_one(skirmish, name, decoy):
    """S separately compiled copies of a matchup, ids interleaved, give exactly the
    arrays of the one-matchup call on the same seed: the same draws in the same order.
    With a decoy first in the list, which no battle plays, a static number read by a
    mech's local index instead of its battle's key would read the decoy's."""
    n, copies = 1000, 4
    one = vector.play(
        [battle_of(skirmish, *scenario(name)[1:])], one_matchup(n), np.random.default_rng(7)
    )
    battles = [battle_of(skirmish, *scenario(name)[1:]) for _ in range(copies)]
    ids = np.random.default_rng(8).integers(0, copies, n)
    if decoy:
        battles, ids = [compile_battle(skirmish, *DECOYS[name]), *battles], ids + 1
    many = vector.play(battles, ids, np.random.default_rng(7))
    assert one.keys() == many.keys()
    for key in one:
        assert one[key].dtype == many[key].dtype and np.array_equal(one[key], many[key]), key


def test_mixed_batch_records_no_hits_on_empty_mounts(skirmish):
    """A mount without a weapon in a battle's own matchup never records a hit or a crit,
    though the first matchup (the Harrier's) carries a weapon on every mount."""
    pairs = [
        ("harrier", "harrier"),
        ("foreman", "bastion"),
        ("bastion", "warden"),
        ("courier", "foreman"),
        ("warden", "reaver"),
    ]
    battles = [
        compile_battle(skirmish, Side((a,), "gunline"), Side((b,), "brawler")) for a, b in pairs
    ]
    ids = mixed_ids(len(battles), 1500, 5)
    res = vector.play(battles, ids, np.random.default_rng(6))
    armed = np.stack([b.has_weapon for b in battles])[ids]  # [N, M, 3]
    for key in ("mount_hits", "mount_crits"):
        assert not res[key][~armed].any(), key
    assert res["mount_hits"][ids == 0][:, :, 1:].sum() > 0  # the Harrier's other mounts fire


def test_engines_refuse_mixed_rules(skirmish):
    """Battles with different rules parameters, or side sizes, may not share a call."""
    a, b = side("foreman", "gunline"), side("reaver", "brawler")
    plain, margin_3 = battle_of(skirmish, a, b, {}), battle_of(skirmish, a, b, {"crit_margin": 3})
    team = battle_of(
        skirmish,
        side("courier+foreman+reaver", "gunline"),
        side("bastion+lancer+skiff", "brawler"),
        {},
    )
    assert batch_key(plain) != batch_key(margin_3)
    ids = np.array([0, 1, 0, 1])
    for play in (vector.play, reference.play):
        for other in (margin_3, team):
            with pytest.raises(ValueError, match="cannot share an engine call"):
                play([plain, other], ids, np.random.default_rng(1))
        with pytest.raises(ValueError, match="scenario ids"):
            play([plain], ids, np.random.default_rng(1))


def test_scenarios_cover_what_the_issue_names(skirmish):
    assert len(SCENARIOS) >= 20
    policies = {s.policy for _, a, b, _ in SCENARIOS for s in (a, b)}
    assert policies == {"brawler", "gunline", "careful"}
    # F11.5: the brawler grapples, the others break grapples (policies.toml), so every
    # brawler-against-gunline scenario plays grapples, Throws and Breaks; E5: a Guard
    assert skirmish.policies["brawler"].grapple and skirmish.policies["gunline"].break_grapple
    assert any("p_guard" in c for *_, c in SCENARIOS)
    assert any(len(a.kits) == 3 for _, a, _, _ in SCENARIOS)
    assert any("crit_margin" in c for *_, c in SCENARIOS)
    assert any("hard_cover_percent" in c for *_, c in SCENARIOS)
    assert any(a.pilots for _, a, _, _ in SCENARIOS)


@pytest.mark.parametrize(
    ("attacker", "weapon_mount", "target"),
    [
        ("bastion", 0, "foreman"),  # the cannon
        ("courier", 0, "bastion"),  # the repeater: a 3-shot burst
        ("foreman", 0, "skiff"),  # the rifle against the most evasive kit
    ],
)
def test_vector_shots_match_exact(skirmish, attacker, weapon_mount, target):
    """One million Fire actions at optimal range without cover: P(hit) and the
    distribution of a hit over (part, outcome) match exact.py within 4 standard errors."""
    params = replace(skirmish.params, soft_cover_percent=0, hard_cover_percent=0)
    battle = compile_battle(skirmish, Side((attacker,)), Side((target,)), params)
    n = 1_000_000
    engine = vector.Engine([battle], one_matchup(n), np.random.default_rng(11))
    engine.s.pos[:, 1] = battle.w_range[0, weapon_mount]  # optimal range
    engine.record = []
    ix = np.arange(n)
    zeros, ones = np.zeros(n, np.int64), np.ones(n, np.int64)
    engine.attack(ix, zeros, ones, zeros + weapon_mount, zeros - 1)
    hit_rows = np.concatenate([r[0] for r in engine.record])
    parts = np.concatenate([r[1] for r in engine.record])
    outcomes = np.concatenate([r[2] for r in engine.record])
    mech = skirmish.mech(attacker)
    weapon = [mech.right_arm, mech.left_arm, mech.back][weapon_mount]
    acc = mech.pilot.gunnery + weapon.acc + mech.head.acc
    target_mech = skirmish.mech(target)
    from sims.skirmish import rules

    evasion = rules.mech_stats(target_mech, params).evasion
    p_hit, _ = rules.hit_chances(acc, evasion, 0)
    first_shots = engine.s.shots[:, 0].sum()
    hits = engine.s.hits[:, 0].sum()
    assert first_shots == n * weapon.shots
    p = float(p_hit)
    assert abs(hits / first_shots - p) <= 4 * np.sqrt(p * (1 - p) / first_shots)
    # Only first shots: later shots of a burst may meet a damaged target.
    first = np.zeros(len(hit_rows), bool)
    _, idx = np.unique(hit_rows, return_index=True)
    first[idx] = True
    expected = exact.strike_outcomes(weapon, target_mech, params, accuracy=acc)
    m = first.sum()
    for (part, outcome), q in expected.items():
        code = ("glance", "full", "crit").index(outcome)
        pi = rules.SILHOUETTE.index(part)
        seen = ((parts[first] == pi) & (outcomes[first] == code)).mean()
        q = float(q)
        assert abs(seen - q) <= 4 * np.sqrt(max(q * (1 - q), 1e-12) / m) + 1e-9, (part, outcome)


def test_hand_traced_battle(skirmish):
    """Foreman (Dorn, gunline) against Reaver (Ruko, brawler), one round, every die forced.

    Initiative 6+6+1 = 13 against 1+1+2 = 4: the Foreman first. It walks 5 hexes toward
    its rifle's Range 8, nothing reaches at 21, so it Boosts 5 more (hex 10; 16 apart).
    The Reaver (brawler) Overcharges at Heat 0 (+1 Heat, a third Quick), runs 6, nothing
    reaches at 10, Boosts 6 (hex 14; 4 apart), and Fires the scattergun at long range
    (Range 3, long 4): one [-] die, cover d100 = 100 (none), modifier -2. Accuracy 2 + 1 +
    0 = 3 against Evasion 9. Shot 1: natural 20 hits; location 10 is the Core (8-13);
    penetration 6 + Pen 1 + 1 (natural 20) = 8 against Armor 5: full (a crit needs 9);
    damage 1d6 = 4: Core 16 -> 12. Shot 2: natural 1 misses. Heat 1 + 1 = 2.
    After the round cap of 1 nobody is destroyed: Hull 48/52 against 47/47, the Reaver wins.
    """
    params = replace(skirmish.params, round_cap=1)
    battle = compile_battle(
        skirmish, Side(("foreman",), "gunline"), Side(("reaver",), "brawler"), params
    )
    script = [
        (6, 6),
        (6, 6),
        (6, 1),
        (6, 1),  # initiative
        (100, 100),
        (6, 2),  # cover, modifier die
        (20, 20),
        (20, 10),
        (6, 6),
        (6, 4),  # shot 1: hit, location, penetration, damage
        (20, 1),
    ]  # shot 2: natural 1
    dice = reference.ScriptedDice(script)
    game = reference.Game(battle, dice)
    result = game.play()
    assert dice.used == len(script)
    assert [s.pos for s in game.mechs] == [10, 14]
    assert game.mechs[0].dur[CORE] == 12
    assert game.mechs[1].heat == 2 and game.mechs[1].overcharges == 1
    assert (result.winner, result.rounds, result.decided) == (SIDE_B, 1, 2)
    assert result.hull == [48 / 52, 1.0]
    assert (result.shots, result.hits, result.crits) == ([0, 2], [0, 1], [0, 0])
