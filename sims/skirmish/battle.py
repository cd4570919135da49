"""The Skirmish battle model shared by both engines (003 D to I, on a map or the range
track).

``reference/`` plays one battle rule by rule; ``vector/`` plays N at once. Both read
the same compiled :class:`Battle` (static per-mech numbers, built once from the catalog
by :func:`compile_battle`) and call the same formulas below, which are written so that
they work on Python ints and on NumPy arrays alike. What differs between the engines
is only control flow: ``if`` in the reference, masks in the vector engine. Both take a
batch of battles each carrying its own matchup (``play(battles, scenario_ids, rng)``:
battle i plays ``battles[scenario_ids[i]]``); matchups of one call share a
:func:`batch_key` (``sims.core.engine.check_batch``).

The battle model (the engines' docstrings refer here):

Board. The rules parameter ``board`` names a map of ``catalogs/skirmish/maps/`` (the
standard map, ``broken``, by default) or ``track``. On a map (``board.py``, its readings
in ASSUMPTIONS.md) positions are hexes; distances, line of sight, cover, high ground and
paths are the map's geometry tables; the mechs deploy in alternation at their short ends
(side B first); a Move walks hex by hex to where the policy's weights (zone, approach,
shot, cover, flank, screen) want it to stand; a hex holds one mech; zones are scored at
the end of each round. On the track, side 0 stands at hex 0, side 1 at the front
distance (26, 003 H); the track ends ``deploy_rows - 1`` hexes behind each front, has no
terrain and no zones, and cover is drawn per Fire action.

Setup. Two sides of 1 (duel) or 3 (team) mechs. Mechs index 0..M-1: side 0's first, in
the order given. Pilot abilities are on when
another pilot of the same side shares Faction or Specialty (003 D), fixed for the battle.

Round (003 I). Initiative: each side rolls ``initiative_dice`` (2d6) + the highest
Initiative among its living pilots (+ an active ``initiative`` ability); ties reroll;
the winner activates first. Sides alternate, each activating its living, not yet
activated mechs in index order; a side with none left passes. Reactions reset at round
start; Locks end with it.

Activation (003 E), the same decision list for every mech, switched by its policy
(``policies.toml``; each step's condition is a predicate of ``policy.py``):

1. Upkeep: Brace, Overwatch and Guard end; a Shutdown mech skips this activation;
   coolant leaks add Heat. Two Quick actions (a Full action uses both). A Prone mech
   stands up: it costs its whole Move, unless it Stabilizes in step 3 (F7: free with
   Stabilize).
2. Overcharge (G3, free, once) when Heat is under the policy's threshold: a third Quick.
3. Stabilize (Full) at the policy's count of crit effects: Heat 0, one effect removed;
   else Vent (Quick) at the policy's Heat threshold: clears ``vent_heat`` (1d6) (+ ability).
   Then Break (Full, F11.5) when the policy breaks grapples and the mech is in one. A
   mech still Grappled may not Move, Boost or Charge this activation.
4. Target: the nearest living enemy (ties: lowest index); a Grappled mech's is the mech
   it grapples. On a map it moves by this target and shoots the nearest living enemy a
   weapon reaches in range and line of sight (F Declare).
5. Charge (Full, F11.3) when the policy charges, the target is 2+ hexes away and in
   reach of the Move left + Speed + 1, and a melee option exists: the Move first, only
   as far as leaves the Charge a run of its whole Speed (E: the Move splits around
   actions; the Charge's own move is not the Move, like a Boost's), then the Charge,
   whose [+] count its own hexes (on a map: to the free side hex of the target cheapest
   to reach, along a cheapest path); else Move toward the preferred distance (on a map:
   toward where its policy wants to stand), then Guard
   (Full, E5) an adjacent living ally (the lowest index) when the policy guards and the
   mech has an intact Shield arm (instead of a Boost and an attack), else Boost (Quick)
   when the policy boosts and nothing reaches (on a map: and the Move stopped short of a
   better hex). A jumping policy with jump legs or a jump booster climbs on a map.
6. Throw (Quick, F11.5) first when the policy grapples and the mech is in a grapple.
   Attack: Grapple (Full, F11.5) when the policy grapples, the target is adjacent and
   neither mech is in a grapple; else Overwatch (Full) when the policy holds it and
   nothing reaches; else Barrage
   (Full) with the two best weapons in reach if Heat stays within Reactor Cap; else
   Aimed Shot (Full, core) with a Shots-1 weapon; else Lock On (Quick, when the target
   is in Sensors and not Locked) and Fire (Quick) the best weapon in reach.
7. Spare Quick actions: Strike (once) when adjacent; else Brace when it did not Boost.

Movement triggers reactions (E6), enemies in index order, one Reaction each per round,
none while Prone: the Disengage strike (one melee attack: the best melee weapon, else a
strike) when a hostile leaves adjacency, Overwatch when a hostile ends a move in reach of
the held weapon, Marrow's riposte when a hostile ends a move adjacent (arriving or
moving within adjacency). After each Fire, Barrage or Aimed Shot, each bonded partner
with a Reaction fires Backup Fire: one shot at 1[-] from its best weapon in reach (D4).

Fire (003 F): modifier dice once per Fire action (long range, cover: on a map the
terrain's and smoke's, on the track drawn per action from the cover parameters; high
ground on a map, Engaged by any adjacent living hostile, Heavy after moving,
bond within 2 hexes, Locked target, crit and stress penalties, reaction, Aimed, Shield
against melee, Charge); per shot d20 to hit; location d20 over the bands (Aimed: core;
melee rerolls a non-core location once, twice against Prone; destroyed part: core; hard
cover: the Legs band hits the cover); penetration d6 + Pen vs Armor with the margin;
damage dice with carry-over into the Core; a crit rolls the crit table; Pulse adds
``pulse_heat`` (1d3) Heat to the target; a melee Full or Crit from a heavier class
knocks the target Prone; a missed kick may fall Prone. Heat above Reactor Cap rolls the
stress table, then Heat is 0.

Guard (E5). The guarded ally has hard cover (2[-], the Legs band hits the cover) against
ranged attacks from its enemy-facing side (on the track: an attacker level with it or
ahead of it toward the enemy; none from behind), while the guard lives, stays adjacent
to it and keeps an intact Shield arm, until the guard's next activation; it is the best
single cover (H5); melee ignores it (F11.6).

Grapple (F11.5). Grapple, Throw and Break are Piloting contests: each side rolls d20
(the acting mech first) + Piloting + its class bonus (``grapple_light`` 0,
``grapple_medium`` 1, ``grapple_heavy`` 2); the acting mech wins ties. A Grapple won
holds both mechs (one grapple at a time); a Throw won drops the other Prone, in its hex
on the track, and ends it; a Break won ends it. It also ends when either mech is
destroyed or falls Prone by anything else (knockdown, a missed kick, the stress scram).
A Charge's push of a Grappled mech is blocked (1d6 to the struck part).

End. A side with no living mech loses at once. At the end of each round on a map a side
alone in a zone controls it (1 point a zone a round). After the round cap: more points
(3 per destroyed enemy, plus the zone points) wins, then the higher Hull percentage
(current over maximum Durability over the fielded team, a destroyed mech counting 0);
still level, one sudden-death round (no zone points) and Hull again; equal is a draw
(half a win).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields

import numpy as np

from sims.skirmish import rules
from sims.skirmish.board import TRACK, Board, board_of, deployment
from sims.skirmish.catalog import EFFECT_KINDS, Catalog, Mech, Part, Policy
from sims.skirmish.rules import (  # noqa: F401 - silhouette indices and results, for the engines
    BACK,
    CORE,
    DECIDED,
    DRAW,
    HEAD,
    LEFT_ARM,
    LEGS,
    RIGHT_ARM,
    SIDE_A,
    SIDE_B,
)

MOUNTS = (RIGHT_ARM, LEFT_ARM, BACK)  # weapon slots: the two arms and the Back (E Fire)
CLASS_RANK = {"light": 0, "medium": 1, "heavy": 2}
NO_WEAPON = -1

# Crit (F7) and stress (G) effect codes, by the catalog's effect kinds: 0 is no effect,
# the others in the catalog's order (the vector engine's effect tables index by code).
EFFECT_CODES = {
    kind: i for i, kind in enumerate(("none", *(k for k in EFFECT_KINDS if k != "none")))
}


@dataclass(frozen=True)
class Side:
    """One side's fielded mechs: kit ids with optional pilot overrides and a policy."""

    kits: tuple[str, ...]
    policy: str = "gunline"
    pilots: tuple[str | None, ...] = ()

    def mechs(self, catalog: Catalog) -> list[Mech]:
        pilots = self.pilots or (None,) * len(self.kits)
        return [catalog.mech(k, p) for k, p in zip(self.kits, pilots, strict=True)]


@dataclass(frozen=True)
class Battle:
    """Static numbers of one matchup, per mech (index m) and weapon mount (w = 0..2).

    Every field is a NumPy array; shapes say what indexes it. Both engines read these
    and never the catalog, so a rule is only ever looked up here. Two kinds of field:
    per-mech ones (first axis M) differ between matchups; the rules ``params`` and the
    catalog-level tables named in :data:`SHARED` are the same for every matchup of one
    catalog variant, and :func:`batch_key` says which matchups may share an engine call.
    The vector engine stacks the per-mech fields of S matchups into S * M rows (row
    ``scenario * M + m``); a shared formula below reads ``b.field[m]`` with either kind
    of index."""

    params: rules.Parameters
    side: np.ndarray  # int8[M]  0 or 1
    klass: np.ndarray  # int8[M]  0 light, 1 medium, 2 heavy (F11.4 knockdown)
    grapple_bonus: np.ndarray  # int8[M]  class bonus in grapple contests (F11.5)
    bands: np.ndarray  # int8[M, 6]  location bands, silhouette order (F4)
    band_top: np.ndarray  # int8[M, 6]  last d20 face of each band (cumulative bands)
    armor: np.ndarray  # int8[M, 6]
    durability: np.ndarray  # int16[M, 6]  maximum Durability
    # pilot
    gunnery: np.ndarray  # int8[M]
    piloting: np.ndarray  # int8[M]
    systems: np.ndarray  # int8[M]
    initiative: np.ndarray  # int8[M]
    # active Additional Abilities (0 when dark), by effect kind (D)
    acc_bonus: np.ndarray  # int8[M]
    pen_bonus: np.ndarray  # int8[M]
    evasion_bonus: np.ndarray  # int8[M]
    core_armor_bonus: np.ndarray  # int8[M]
    speed_bonus: np.ndarray  # int8[M]
    vent_bonus: np.ndarray  # int8[M]
    initiative_bonus: np.ndarray  # int8[M]
    lock_bonus: np.ndarray  # int8[M]
    riposte: np.ndarray  # bool[M]
    bonded: np.ndarray  # bool[M, M]  bonded pairs on the same side (D4)
    # chassis, head, legs, back contributions (C), overload (B4)
    overload: np.ndarray  # int8[M]
    chassis_evasion: np.ndarray  # int8[M]
    legs_evasion: np.ndarray  # int8[M]
    chassis_speed: np.ndarray  # int8[M]
    legs_speed: np.ndarray  # int8[M]
    chassis_sensors: np.ndarray  # int8[M]
    head_sensors: np.ndarray  # int8[M]
    back_sensors: np.ndarray  # int8[M]
    chassis_e_def: np.ndarray  # int8[M]
    head_e_def: np.ndarray  # int8[M]
    chassis_reactor: np.ndarray  # int8[M]
    back_reactor: np.ndarray  # int8[M]
    back_smoke: np.ndarray  # bool[M]  the Back is a smoke launcher (tag smoke, 003 B, H5)
    back_jump: np.ndarray  # bool[M]  the Back is a jump booster (tag jump, 003 B, G)
    legs_jump: np.ndarray  # bool[M]  the Legs are jump legs (tag jump, 003 G)
    head_acc: np.ndarray  # int8[M]
    shield: np.ndarray  # bool[M, 6]  part is a Shield arm (F11.1, F11.6)
    # weapons per mount (right arm, left arm, back); NO_WEAPON where none
    has_weapon: np.ndarray  # bool[M, 3]
    w_range: np.ndarray  # int8[M, 3]  optimal Range (1 for melee)
    w_long: np.ndarray  # int8[M, 3]  long range reach (= Range for melee)
    w_shots: np.ndarray  # int8[M, 3]
    w_acc: np.ndarray  # int8[M, 3]
    w_pen: np.ndarray  # int8[M, 3]
    w_dice: np.ndarray  # int8[M, 3]  number of damage dice
    w_sides: np.ndarray  # int8[M, 3]  sides of each damage die
    w_bonus: np.ndarray  # int8[M, 3]  flat damage added
    w_heat: np.ndarray  # int8[M, 3]
    w_melee: np.ndarray  # bool[M, 3]
    w_heavy: np.ndarray  # bool[M, 3]
    w_pulse: np.ndarray  # bool[M, 3]
    w_indirect: np.ndarray  # bool[M, 3]  may fire at a Locked target without LOS (003 E)
    w_order: np.ndarray  # int8[M, 3]  mounts best first (by exact expected damage)
    w_rank: np.ndarray  # int8[M, 3]  each mount's place in w_order (0 best)
    # policy switches and thresholds per mech (policies.toml)
    p_adjacent: np.ndarray  # bool[M]  preferred distance: adjacent, else max optimal
    p_charge: np.ndarray  # bool[M]
    p_boost: np.ndarray  # bool[M]
    p_lock_on: np.ndarray  # bool[M]
    p_barrage: np.ndarray  # bool[M]
    p_aimed: np.ndarray  # bool[M]
    p_overwatch: np.ndarray  # bool[M]
    p_brace: np.ndarray  # bool[M]
    p_strike: np.ndarray  # bool[M]
    p_grapple: np.ndarray  # bool[M]  Grapple when adjacent, Throw while grappled (F11.5)
    p_break: np.ndarray  # bool[M]  Break out of a grapple (F11.5)
    p_guard: np.ndarray  # bool[M]  Guard an adjacent ally (E5)
    p_smoke: np.ndarray  # bool[M]  Smoke with a spare Quick action (H5)
    p_jump: np.ndarray  # bool[M]  jump out of adjacency with a jump booster (F11.8, G)
    # where it stands on a map (policies.toml weights, board.stand_score)
    p_zone: np.ndarray  # int16[M]
    p_approach: np.ndarray  # int16[M]
    p_shot: np.ndarray  # int16[M]
    p_cover: np.ndarray  # int16[M]
    p_flank: np.ndarray  # int16[M]
    p_screen: np.ndarray  # int16[M]
    p_vent_at: np.ndarray  # int16[M]  percent of Reactor Cap
    p_stabilize_at: np.ndarray  # int8[M]
    p_overcharge_below: np.ndarray  # int16[M]  percent of Reactor Cap
    # strikes (F11.1): punch [0] and kick [1]
    s_pen: np.ndarray  # int8[2]
    s_dice: np.ndarray  # int8[2]
    s_sides: np.ndarray  # int8[2]
    s_bonus: np.ndarray  # int8[2]
    # crit and stress tables: effect code and value per d6 face (index face - 1)
    crit_code: np.ndarray  # int8[6]
    crit_value: np.ndarray  # int8[6]
    stress_code: np.ndarray  # int8[6]
    stress_value: np.ndarray  # int8[6]
    # lasting crit effects are counted per kind; each counts this much (magnitudes)
    fx_sensors: int  # Sensors lost per sensors crit
    fx_speed: int  # Speed lost per speed crit
    fx_attack: int  # [-] dice per attack crit
    fx_coolant: int  # Heat per activation per coolant crit
    fx_armor: int  # Armor lost on the struck part per armor crit
    flicker_dice: int  # [-] dice on the next attack after the stress "attack_die"
    overcharge: tuple[tuple[int, int, int], ...]  # (dice, sides, bonus) per nth use
    start: np.ndarray  # int16[M]  starting hex (on a map: its flat index, board.deployment)
    wall_low: int
    wall_high: int
    board: Board | None = None  # the map played on (rules parameter board); None: the track

    @property
    def mechs(self) -> int:
        return len(self.side)


# Fields of a Battle that are not per mech: the rules parameters and the catalog-level
# tables and magnitudes (strikes, crit and stress tables, fx_*, overcharge, the walls).
# Every other field is per mech (first axis M) and may differ between matchups.
SHARED = (
    "params",
    "s_pen",
    "s_dice",
    "s_sides",
    "s_bonus",
    "crit_code",
    "crit_value",
    "stress_code",
    "stress_value",
    "fx_sensors",
    "fx_speed",
    "fx_attack",
    "fx_coolant",
    "fx_armor",
    "flicker_dice",
    "overcharge",
    "wall_low",
    "wall_high",
    "board",
)
PER_MECH = tuple(f.name for f in fields(Battle) if f.name not in SHARED)


def batch_key(b: Battle) -> Hashable:
    """Battles with equal keys may share one engine call: the same number of mechs on
    each side (so the same ``side`` and ``start``), the same rules parameters and the
    same catalog-level tables (:data:`SHARED`), which the engines keep scalar."""
    shared = tuple(
        tuple(v.tolist()) if isinstance(v, np.ndarray) else v
        for v in (getattr(b, name) for name in SHARED)
    )
    return (tuple(np.bincount(b.side, minlength=2).tolist()), shared)


@functools.lru_cache(maxsize=4096)
def _weapon_rank(weapon: Part, target: Mech, params: rules.Parameters) -> float:
    """Static preference between weapons: exact expected damage per Fire action against
    ``target``, the standard Medium (``standard_medium``), at optimal range, no cover. Cached:
    every argument is a frozen dataclass, and a round robin compiles the same weapons
    over and over."""
    from sims.skirmish import exact

    return float(exact.expected_damage(weapon, target, params))


def compile_battle(
    catalog: Catalog, side_a: Side, side_b: Side, params: rules.Parameters | None = None
) -> Battle:
    """Everything static about one matchup, as arrays (see :class:`Battle`)."""
    params = params or catalog.params
    sides = [side_a.mechs(catalog), side_b.mechs(catalog)]
    policies = [catalog.policies[side_a.policy], catalog.policies[side_b.policy]]
    mechs = sides[0] + sides[1]
    side = [0] * len(sides[0]) + [1] * len(sides[1])
    policy: list[Policy] = [policies[s] for s in side]
    on = [rules.active_pilots([m.pilot for m in team]) for team in sides]
    board = (
        None
        if params.board == TRACK
        else board_of(
            catalog.maps[params.board], catalog.terrain, params.jump_climb, params.cover_between
        )
    )
    front = rules.front_distance(params)
    return Battle(
        params=params,
        side=_arr(side),
        **_mech_fields(mechs, params),
        **_pilot_fields(mechs, side, on),
        **_weapon_fields(catalog, mechs, params),
        **_policy_fields(policy),
        **_strike_and_effect_fields(catalog, params),
        start=_arr([0 if s == 0 else front for s in side])
        if board is None
        else deployment(board, np.array(side), np.array([p.zone for p in policy])),
        wall_low=-(params.deploy_rows - 1),
        wall_high=front + params.deploy_rows - 1,
        board=board,
    )


def _arr(values: Sequence, dtype: type = np.int16) -> np.ndarray:
    return np.array(values, dtype=dtype)


def _mech_fields(mechs: list[Mech], params: rules.Parameters) -> dict[str, np.ndarray]:
    """The mechs' stats (003 C) and the parts' numbers the engines read as the game goes:
    class, silhouette bands (F4), Armor and Durability per part, Evasion, Speed, Sensors,
    E-Def and reactor terms, Head Acc, the Back's tags, Shield arms (F11.6)."""
    stats = [rules.mech_stats(m, params) for m in mechs]
    return dict(
        klass=_arr([CLASS_RANK[s.klass] for s in stats]),
        grapple_bonus=_arr([rules.grapple_bonus(CLASS_RANK[s.klass], params) for s in stats]),
        bands=_arr([s.bands for s in stats]),
        band_top=_arr([rules.band_top(s.bands) for s in stats]),
        armor=_arr([s.armor for s in stats]),
        durability=_arr([s.durability for s in stats]),
        overload=_arr([s.overload for s in stats]),
        chassis_evasion=_arr([m.chassis.evasion for m in mechs]),
        legs_evasion=_arr([m.legs.evasion for m in mechs]),
        chassis_speed=_arr([m.chassis.speed for m in mechs]),
        legs_speed=_arr([m.legs.speed for m in mechs]),
        chassis_sensors=_arr([m.chassis.sensors for m in mechs]),
        head_sensors=_arr([m.head.sensors for m in mechs]),
        back_sensors=_arr([m.back.sensors for m in mechs]),
        chassis_e_def=_arr([m.chassis.e_def for m in mechs]),
        head_e_def=_arr([m.head.e_def for m in mechs]),
        chassis_reactor=_arr([m.chassis.reactor for m in mechs]),
        back_reactor=_arr([m.back.reactor for m in mechs]),
        back_smoke=_arr(["smoke" in m.back.tags for m in mechs], bool),
        back_jump=_arr(["jump" in m.back.tags for m in mechs], bool),
        legs_jump=_arr(["jump" in m.legs.tags for m in mechs], bool),
        head_acc=_arr([m.head.acc for m in mechs]),
        shield=_arr([[p.kind == "shield" for p in rules.silhouette(m)] for m in mechs], bool),
    )


def _pilot_fields(
    mechs: list[Mech], side: list[int], on: list[frozenset[str]]
) -> dict[str, np.ndarray]:
    """The pilots' four stats (003 C), the abilities of the pilots switched on (``on``, per
    side: D) and the bonds between pilots of a side (D4)."""

    def ability(kind: str) -> np.ndarray:
        return _arr(
            [
                m.pilot.ability_value if m.pilot.ability_kind == kind and m.pilot.id in on[s] else 0
                for m, s in zip(mechs, side, strict=True)
            ]
        )

    M = len(mechs)
    bonded = np.zeros((M, M), dtype=bool)
    for i, a in enumerate(mechs):
        for j, b in enumerate(mechs):
            bonded[i, j] = i != j and side[i] == side[j] and b.pilot.id in a.pilot.bonds
    return dict(
        gunnery=_arr([m.pilot.gunnery for m in mechs]),
        piloting=_arr([m.pilot.piloting for m in mechs]),
        systems=_arr([m.pilot.systems for m in mechs]),
        initiative=_arr([m.pilot.initiative for m in mechs]),
        acc_bonus=ability("acc"),
        pen_bonus=ability("pen"),
        evasion_bonus=ability("evasion"),
        core_armor_bonus=ability("armor"),
        speed_bonus=ability("speed"),
        vent_bonus=ability("vent"),
        initiative_bonus=ability("initiative"),
        lock_bonus=ability("lock_on"),
        riposte=ability("riposte") > 0,
        bonded=bonded,
    )


def _weapon_fields(
    catalog: Catalog, mechs: list[Mech], params: rules.Parameters
) -> dict[str, np.ndarray]:
    """The weapons on the three mounts (right arm, left arm, Back) of each mech: their
    profile (003 B, F Declare ranges, F6 damage dice, tags) and the mounts in the order
    the engines try them, best weapon first against the standard Medium (F4)."""
    mounts = [[m.right_arm, m.left_arm, m.back] for m in mechs]
    W = [[p if p.is_weapon else None for p in row] for row in mounts]
    dice = [[rules.simple_dice(w.damage) if w else (0, 1, 0) for w in row] for row in W]

    def wfield(fn, dtype: type = np.int16) -> np.ndarray:
        return np.array([[fn(w) if w else 0 for w in row] for row in W], dtype=dtype)

    standard = catalog.mech(params.standard_medium)  # rules.toml: the standard Medium (F4)
    rank = {p.id: _weapon_rank(p, standard, params) for row in W for p in row if p}
    order = [
        sorted(range(3), key=lambda k, row=row: (-(rank[row[k].id] if row[k] else -1.0), k))
        for row in W
    ]
    return dict(
        has_weapon=_arr([[w is not None for w in row] for row in W], bool),
        w_range=wfield(lambda w: 1 if w.is_melee else w.range),
        w_long=wfield(lambda w: 1 if w.is_melee else rules.long_range(w.range, params)),
        w_shots=wfield(lambda w: w.shots),
        w_acc=wfield(lambda w: w.acc),
        w_pen=wfield(lambda w: w.pen),
        w_dice=_arr([[d[0] for d in row] for row in dice]),
        w_sides=_arr([[d[1] for d in row] for row in dice]),
        w_bonus=_arr([[d[2] for d in row] for row in dice]),
        w_heat=wfield(lambda w: w.heat),
        w_melee=wfield(lambda w: w.is_melee, bool),
        w_heavy=wfield(lambda w: "heavy" in w.tags, bool),
        w_pulse=wfield(lambda w: "pulse" in w.tags, bool),
        w_indirect=wfield(lambda w: "indirect" in w.tags, bool),
        w_order=_arr(order),
        w_rank=_arr([np.argsort(row) for row in order]),
    )


def _policy_fields(policy: list[Policy]) -> dict[str, np.ndarray]:
    """Each mech's policy (policies.toml): the switches and thresholds ``policy.py``'s
    predicates read at each step of the activation (003 E)."""
    return dict(
        p_adjacent=_arr([p.preferred == "adjacent" for p in policy], bool),
        p_charge=_arr([p.charge for p in policy], bool),
        p_boost=_arr([p.boost for p in policy], bool),
        p_lock_on=_arr([p.lock_on for p in policy], bool),
        p_barrage=_arr([p.barrage for p in policy], bool),
        p_aimed=_arr([p.aimed for p in policy], bool),
        p_overwatch=_arr([p.overwatch for p in policy], bool),
        p_brace=_arr([p.brace for p in policy], bool),
        p_strike=_arr([p.strike for p in policy], bool),
        p_grapple=_arr([p.grapple for p in policy], bool),
        p_break=_arr([p.break_grapple for p in policy], bool),
        # policies.toml's guard field, once the catalog reads it; until then none Guards
        p_guard=_arr([p.guard for p in policy], bool),
        # policies.toml's smoke and jump fields, once the catalog reads them; off until then
        p_smoke=_arr([p.smoke for p in policy], bool),
        p_jump=_arr([p.jump for p in policy], bool),
        p_zone=_arr([p.zone for p in policy]),
        p_approach=_arr([p.approach for p in policy]),
        p_shot=_arr([p.shot for p in policy]),
        p_cover=_arr([p.cover for p in policy]),
        p_flank=_arr([p.flank for p in policy]),
        p_screen=_arr([p.screen for p in policy]),
        p_vent_at=_arr([p.vent_at_percent for p in policy]),
        p_stabilize_at=_arr([p.stabilize_at_effects for p in policy]),
        p_overcharge_below=_arr([p.overcharge_below_percent for p in policy]),
    )


def _strike_and_effect_fields(catalog: Catalog, params: rules.Parameters) -> dict[str, object]:
    """What every mech shares: the punch and kick (003 F11.1), the crit and stress tables
    (F6, G) with the size of each effect, and the Heat of each Overcharge (G3)."""
    punch, kick = catalog.strikes["punch"], catalog.strikes["kick"]
    sdice = [rules.simple_dice(punch.damage), rules.simple_dice(kick.damage)]

    def magnitude(kind: str, rows=catalog.crit) -> int:
        return max((abs(r.effect_value) for r in rows if r.effect_kind == kind), default=0)

    return dict(
        s_pen=_arr([punch.pen, kick.pen]),
        s_dice=_arr([d[0] for d in sdice]),
        s_sides=_arr([d[1] for d in sdice]),
        s_bonus=_arr([d[2] for d in sdice]),
        crit_code=_arr([EFFECT_CODES[r.effect_kind] for r in catalog.crit]),
        crit_value=_arr([r.effect_value for r in catalog.crit]),
        stress_code=_arr([EFFECT_CODES[r.effect_kind] for r in catalog.stress]),
        stress_value=_arr([r.effect_value for r in catalog.stress]),
        fx_sensors=magnitude("sensors"),
        fx_speed=magnitude("speed"),
        fx_attack=magnitude("attack_die"),
        fx_coolant=magnitude("heat_per_activation"),
        fx_armor=magnitude("armor"),
        flicker_dice=magnitude("attack_die", catalog.stress),
        overcharge=tuple(
            rules.simple_dice(e if "d" in e else f"0d1+{e}") for e in params.overcharge_heat
        ),
    )


# ---- the rules of rules.py, read from a Battle (ints or arrays alike) ---------------
# Each passes a Battle's per-mech numbers (``b.field[m]``, m an int or an index array)
# and the state that changes them to the one formula in rules.py.


def alive_parts(dur):
    """A part at 0 Durability is destroyed (F6)."""
    return dur > 0


def evasion_now(b: Battle, m, legs_alive, prone):
    """003 C Evasion, less the Legs' share once they are gone (F7) and Prone (F7)."""
    return rules.evasion(
        b.chassis_evasion[m],
        b.legs_evasion[m],
        b.piloting[m],
        b.overload[m],
        b.params,
        legs_alive=legs_alive,
        prone=prone,
        bonus=b.evasion_bonus[m],
    )


def speed_now(b: Battle, m, legs_alive, speed_penalty):
    """003 C Speed (F7 lost Legs: ``legs_lost_speed``), never below 0 on the track."""
    return np.maximum(
        0,
        rules.speed(
            b.chassis_speed[m],
            b.legs_speed[m],
            b.overload[m],
            b.params,
            legs_alive=legs_alive,
            bonus=b.speed_bonus[m],
            penalty=speed_penalty,
        ),
    )


def reactor_now(b: Battle, m, back_alive):
    """003 C Reactor Cap = Chassis Reactor + Back Reactor (lost with the Back, F7)."""
    return rules.reactor_cap(b.chassis_reactor[m], b.back_reactor[m], back_alive=back_alive)


def sensors_now(b: Battle, m, head_alive, back_alive, sensors_penalty):
    """003 C Sensors, parts lost (F7) and sensor crits counted."""
    return rules.sensors(
        b.chassis_sensors[m],
        b.head_sensors[m],
        b.back_sensors[m],
        head_alive=head_alive,
        back_alive=back_alive,
        penalty=sensors_penalty,
    )


def e_def_now(b: Battle, m, head_alive):
    """003 C E-Def, the Head's share lost with it (F7)."""
    return rules.e_def(b.chassis_e_def[m], b.head_e_def[m], b.systems[m], head_alive=head_alive)


def accuracy(b: Battle, m, melee, weapon_acc, head_alive):
    """003 C: Gunnery (Piloting for melee, F11) + weapon Acc + Head Acc (lost with the
    Head, F7) + an active ``acc`` ability."""
    return rules.accuracy(
        b.gunnery[m],
        b.piloting[m],
        melee,
        weapon_acc,
        b.head_acc[m],
        head_alive=head_alive,
        bonus=b.acc_bonus[m],
    )


def wins_contest(b: Battle, m, roll, o, other_roll):
    """003 F11.5: ``m`` (the acting mech) against ``o``, each d20 + Piloting + class
    bonus; ``m`` wins ties."""
    return rules.wins_contest(
        roll, b.piloting[m], b.grapple_bonus[m], other_roll, b.piloting[o], b.grapple_bonus[o]
    )


def facing(side):
    """Which way a side's enemies lie on the track: +1 for side A (hex 0 up), -1 for B."""
    return 1 - 2 * side


# The rules the engines call by these names (one definition each, in rules.py).
hit = rules.hits  # 003 F Hit
outcome_code = rules.outcome_code  # 003 F5
reach_band = rules.range_code  # 003 F Declare


def hull_percent(dur, max_total):
    """003 I4 tiebreak: current over maximum Durability (destroyed parts count 0)."""
    return rules.hull_fraction(dur, max_total)


def sample_scenarios(catalog: Catalog) -> list[tuple[str, Battle]]:
    """A few matchups covering each policy, a duel mirror and a team fight (the
    conformance test plays each on both engines)."""
    sides = [
        (Side(("foreman",), "gunline"), Side(("reaver",), "brawler")),
        (Side(("courier",), "careful"), Side(("courier",), "careful")),
        (
            Side(("courier", "foreman", "reaver"), "gunline"),
            Side(("bastion", "lancer", "skiff"), "careful"),
        ),
    ]
    return [
        (
            "+".join(a.kits) + f"({a.policy}) v " + "+".join(b.kits) + f"({b.policy})",
            compile_battle(catalog, a, b),
        )
        for a, b in sides
    ]


def metrics(results: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per-battle numbers both engines are compared on (and designers read):
    side A's score (1 win, 1/2 draw), rounds, crits, parts destroyed (all, and per
    silhouette location over both sides), hull left per side, and per side the kills,
    points and zone-rounds held (I4)."""
    winner = results["winner"]
    destroyed = results["destroyed"].sum(axis=1)  # [N, 6] over both sides
    out = {
        "score_a": np.where(winner == SIDE_A, 1.0, np.where(winner == DRAW, 0.5, 0.0)),
        "rounds": results["rounds"].astype(float),
        "crits": results["crits"].sum(axis=1).astype(float),
        "destroyed": destroyed.sum(axis=1).astype(float),
        "hull_a": results["hull"][:, 0],
        "hull_b": results["hull"][:, 1],
        "weapon_hits": results["mount_hits"].sum(axis=(1, 2)).astype(float),
        "weapon_crits": results["mount_crits"].sum(axis=(1, 2)).astype(float),
    }
    for i, part in enumerate(("head", "right_arm", "left_arm", "core", "back", "legs")):
        out[f"destroyed_{part}"] = destroyed[:, i].astype(float)
    for key in ("kills", "points", "zones"):  # I4: the score and what makes it
        for s, side in enumerate("ab"):
            out[f"{key}_{side}"] = results[key][:, s].astype(float)
    return out
