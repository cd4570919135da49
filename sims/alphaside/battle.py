"""An ALPHASIDE game compiled for the engines (004 The Timeline, Activating a unit,
Movement, Attacking, Damage, Shields & defeat, Area of effect, Status effects, Push &
Pull, Abilities & Tactics cards).

:func:`compile_battle` turns two squads (1, 3 or 5 units a side: a duel is an engagement
of one unit each) into a :class:`Battle`: every static number an activation needs as
arrays over the ten unit slots ``A0..A4, B0..B4`` (side = slot // 5; a side fielding
fewer units leaves slots empty, ``present`` False) and each side's Tactics deck. The
reference and the vector engine read the same numbers and differ only in how they walk.

The board is a range track (# reading: no map is printed): side A's Base at hex 0, side
B's at ``board_length``; several units may share a hex (the track abstracts a board),
no unit moves past an enemy or off the track. Line of Sight, elevation, terrain,
Objectives, Garrisons, Rescue, Upgrades on the map and responses are abstracted away
(ASSUMPTIONS.md).

The game, as both engines walk it; the only dice are in 1 and 3f, rolled in exactly this
order, so a scripted game reads the same faces in each engine:

1. **Setup.** Every present unit starts in its Reserve with its token on time 1 (space 1
   of Phase 1); its stack order is squad order (the player "chooses which unit deploys
   first"). Each side's deck (``tactics`` in squad order) is shuffled, side A's first:
   for i = n-1 down to 1 a d(i+1) picks j = face - 1 and swaps cards i and j. Each side
   draws ``tactics_draw`` cards from the front.
2. **The Timeline.** Time t runs 1 .. phases x spaces (``rules.last_time``). When t enters
   a new Phase every side draws ``tactics_draw`` more cards (the end of every Phase but
   the last). At time t, while some token is on t: if both sides have one, the side that
   did not act most recently acts (side A when nobody has acted yet), else the side that
   has one; within a side the token that arrived first (top of the stack) acts. Its
   activation costs ``cost`` >= 1 TL: its token moves to t + cost and arrives there after
   every token already there. A token past the last time is done for the game.
3. **An activation** of unit u:
   a. Its Shields come back (active Shields = its Shields). From the Reserve it deploys
      on its Base.
   b. Abilities (policy ``ability``; each once an activation, Energy spent): ``repair``
      when damaged (heal ``value``, not above full HP); ``shields`` when an enemy is on
      the board (+``value`` active Shields).
   c. Its target: the nearest enemy on the board (ties: lower slot); when u is Engaged
      (``rules.engaged``), the nearest Engaged enemy, which every attack must include.
   d. Advance (free, once, before the primary action; with the rules parameter
      ``advance = either`` after f-g instead when the policy's weapon weighs more from
      where the unit stands: reference.py R17): ``rules.advance_hexes`` (Slow: 0 hexes,
      then Slow is removed). The goal distance is its shortest weapon range
      (policy ``close``) or its longest (``keep_range``); it moves toward the target down
      to the goal, or (keep_range) away from it up to the goal, never past an enemy nor
      off the track. Without a target it moves toward the enemy Base, stopping 1 hex
      short. Deploying, it must leave its Base: at least 1 hex.
   e. Weapons in range of the target (range >= distance). None and a target: Dash
      (``dash_tl``; ``rules.dash_hexes`` toward the goal). No target: Energize
      (``energize_tl``; +``energize_gain`` Energy).
   f. Attack with the policy's weapon (``strongest``: the most ``rules.expected_damage``
      against the target's active Shields; ``per_tl``: the most per TL; ties: the first
      weapon), paying its TL. The first card of the hand is played (its effect:
      accuracy, strength, crit_from, damage); then a ``strength`` or ``accuracy``
      ability (policy ``ability``, Energy allowing). Roll strength d10 (one block):
      ``rules.is_hit``, ``rules.is_crit``. A Disarmed attacker re-rolls every hit die
      (one d10 each, in die order; the re-roll decides the hit) and triggers no crit
      effect; Disarm is removed. With a crit (not disarmed) the weapon's crit effect
      hits every target (step 6, before damage): Damage+X (added in g), Slow, Fracture,
      Disarm (one of each status at a time), Push X (away from the attacker; running
      off the track it stops at the end and takes ``rules.collision`` damage, Shields
      applying), Pull X (toward the attacker, stopping adjacent; an adjacent target
      cannot be Pulled).
   g. Damage, target by target (an area weapon hits every enemy within ``area`` hexes of
      the target with the same roll): ``rules.combat_damage`` (hits - active Shields,
      Damage+X from the crit effect and the card after Shields, or before them with
      ``damage_x = before_shields``, Fracture), the Shields used flip off;
      at 0 HP ``rules.defeated``: the unit goes to the Reserve, its token moves
      ``rules.after_defeat``, it recovers full HP and loses its statuses (keeps its
      Energy), and the opponent scores its VP.
4. **End.** After the last time the side with more VP wins; equal VP goes to the side
   that acted last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sims.alphaside import rules
from sims.alphaside.catalog import Catalog, Squad, Unit
from sims.alphaside.params import Parameters

SIDE_SLOTS = 5  # units a side fields at most (a squad of 5)
SLOTS = tuple(f"{s}{i}" for s in "ab" for i in range(SIDE_SLOTS))
WEAPONS = 2  # weapon slots a unit carries at most
ABILITIES = 2
MAX_SHIELDS = 6  # expected damage is tabled against 0..MAX_SHIELDS + ability Shields
APPROACH = {"close": 0, "keep_range": 1}
CHOICE = {"strongest": 0, "per_tl": 1}
ABILITY = {"strength": 0, "accuracy": 1, "repair": 2, "shields": 3}
TACTIC = {"accuracy": 0, "strength": 1, "crit_from": 2, "damage": 3}


@dataclass(frozen=True, eq=False)
class Battle:
    """Everything static about one game, by unit slot (``SLOTS``) or side (a, b)."""

    params: Parameters
    label: str
    units: tuple[str, ...]  # unit id per slot ("" empty)
    present: np.ndarray  # bool[10]
    hp: np.ndarray  # int16[10]
    shields: np.ndarray  # int16[10]
    speed: np.ndarray  # int16[10]
    vp: np.ndarray  # int16[10]
    approach: np.ndarray  # int8[10] APPROACH code
    choice: np.ndarray  # int8[10] CHOICE code
    use_abilities: np.ndarray  # bool[10]
    # weapons [10, WEAPONS]: present, TL, range, strength, accuracy, area, crit effect
    # code (rules.CRIT_EFFECTS), its value, crit_from
    w_present: np.ndarray
    w_tl: np.ndarray
    w_range: np.ndarray
    w_strength: np.ndarray
    w_accuracy: np.ndarray
    w_area: np.ndarray
    w_effect: np.ndarray
    w_value: np.ndarray
    w_crit_from: np.ndarray
    # float64[10, WEAPONS, MAX_SHIELDS + 1 + 3]: rules.expected_damage of the weapon
    # (no card, no ability) against that many active Shields: the weapon choice's weight
    w_expected: np.ndarray
    # abilities [10, ABILITIES]: present, Energy cost, effect code (ABILITY), value
    a_present: np.ndarray
    a_energy: np.ndarray
    a_effect: np.ndarray
    a_value: np.ndarray
    # each side's Tactics deck in squad order [2, deck]: effect code (TACTIC), value
    t_effect: np.ndarray
    t_value: np.ndarray

    def side(self, slot: int) -> int:
        return slot // SIDE_SLOTS


def batch_key(battle: Battle) -> tuple:
    """Games with the same rules parameters share a vector call."""
    return (battle.params,)


def compile_battle(
    catalog: Catalog,
    a: Sequence[str] | Squad | str,
    b: Sequence[str] | Squad | str,
    label: str = "",
) -> Battle:
    """Side A's and side B's units: a squad (or its id) or a list of unit ids (one unit: a
    duel). A side without a squad's deck plays the first deck of squads.toml."""
    p = catalog.params
    sides, decks = [], []
    default_deck = next(iter(catalog.squads.values())).tactics
    for side in (a, b):
        if isinstance(side, str) and side in catalog.squads:
            side = catalog.squads[side]
        if isinstance(side, Squad):
            ids, deck = side.units, side.tactics
        else:
            ids, deck = tuple([side] if isinstance(side, str) else side), default_deck
        if not 1 <= len(ids) <= SIDE_SLOTS:
            raise ValueError(f"a side fields 1..{SIDE_SLOTS} units, got {len(ids)}")
        sides.append([catalog.units[u] for u in ids] + [None] * (SIDE_SLOTS - len(ids)))
        decks.append([catalog.tactics[t] for t in deck])
    slots: list[Unit | None] = sides[0] + sides[1]
    n = len(slots)

    def per(fn, dtype):
        return np.array([fn(u) if u is not None else 0 for u in slots], dtype)

    def per_weapon(fn, dtype):
        out = np.zeros((n, WEAPONS), dtype)
        for i, u in enumerate(slots):
            for k, wid in enumerate(u.weapons if u is not None else ()):
                out[i, k] = fn(catalog.weapons[wid])
        return out

    def per_ability(fn, dtype):
        out = np.zeros((n, ABILITIES), dtype)
        for i, u in enumerate(slots):
            for k, aid in enumerate(u.abilities if u is not None else ()):
                out[i, k] = fn(catalog.abilities[aid])
        return out

    expected = np.zeros((n, WEAPONS, MAX_SHIELDS + 4))
    for i, u in enumerate(slots):
        for k, wid in enumerate(u.weapons if u is not None else ()):
            w = catalog.weapons[wid]
            plus = w.crit_value if w.crit_effect == "damage" else 0
            for s in range(expected.shape[2]):
                expected[i, k, s] = float(
                    rules.expected_damage(w.strength, w.accuracy, w.crit_from, s, plus, p)
                )
    pol = [catalog.policies[u.policy] if u is not None else None for u in slots]
    deck = rules.deck_size(p)
    if any(len(d) != deck for d in decks):
        raise ValueError(f"a Tactics deck holds {deck} cards")
    return Battle(
        params=p,
        label=label or " v ".join("+".join(u.id for u in s if u is not None) for s in sides),
        units=tuple(u.id if u is not None else "" for u in slots),
        present=np.array([u is not None for u in slots]),
        hp=per(lambda u: u.hp, np.int16),
        shields=per(lambda u: u.shields, np.int16),
        speed=per(lambda u: u.speed, np.int16),
        vp=per(lambda u: u.vp, np.int16),
        approach=np.array([APPROACH[q.approach] if q else 0 for q in pol], np.int8),
        choice=np.array([CHOICE[q.weapon] if q else 0 for q in pol], np.int8),
        use_abilities=np.array([bool(q.ability) if q else False for q in pol]),
        w_present=per_weapon(lambda w: True, bool),
        w_tl=per_weapon(lambda w: w.tl, np.int16),
        w_range=per_weapon(lambda w: w.range, np.int16),
        w_strength=per_weapon(lambda w: w.strength, np.int16),
        w_accuracy=per_weapon(lambda w: w.accuracy, np.int16),
        w_area=per_weapon(lambda w: w.area, np.int16),
        w_effect=per_weapon(lambda w: rules.CRIT_EFFECTS.index(w.crit_effect), np.int8),
        w_value=per_weapon(lambda w: w.crit_value, np.int16),
        w_crit_from=per_weapon(lambda w: w.crit_from, np.int16),
        w_expected=expected,
        a_present=per_ability(lambda a: True, bool),
        a_energy=per_ability(lambda a: a.energy, np.int16),
        a_effect=per_ability(lambda a: ABILITY[a.effect], np.int8),
        a_value=per_ability(lambda a: a.value, np.int16),
        t_effect=np.array([[TACTIC[t.effect] for t in d] for d in decks], np.int8),
        t_value=np.array([[t.value for t in d] for d in decks], np.int16),
    )


def duel(catalog: Catalog, a: str, b: str) -> Battle:
    """An engagement of one unit a side over the whole game."""
    return compile_battle(catalog, [a], [b], label=f"{a} v {b}")


# The sample games the conformance test plays on both engines: duels across the roles
# (melee, long range, area and push, pull and Slow) and squads of 3 and of 5.
SAMPLES = (
    ("ace", "brawler"),
    ("sniper", "raider"),
    ("artillery", "bulwark"),
    ("grunt", "drone"),
    ("federation_line", "zeon_strike"),
    ("federation_battery", "zeon_swarm"),
)


def sample_scenarios(catalog: Catalog) -> list[tuple[str, Battle]]:
    """The battles of SAMPLES, by name (the conformance test plays each on both engines)."""
    out = []
    for a, b in SAMPLES:
        if a in catalog.squads:
            out.append((f"{a} v {b}", compile_battle(catalog, a, b, label=f"{a} v {b}")))
        else:
            out.append((f"{a} v {b}", duel(catalog, a, b)))
    return out


# The results both engines return, one number a game: name -> dtype, in this order.
FIELDS = {
    "winner": np.int8,
    "vp_a": np.int16,
    "vp_b": np.int16,
    "defeats_a": np.int16,
    "defeats_b": np.int16,
    "damage_a": np.int16,
    "damage_b": np.int16,
    "attacks_a": np.int16,
    "attacks_b": np.int16,
    "hits_a": np.int16,
    "hits_b": np.int16,
    "crits_a": np.int16,
    "crits_b": np.int16,
    "tl_attack_a": np.int16,
    "tl_attack_b": np.int16,
    "activations_a": np.int16,
    "activations_b": np.int16,
    "first_defeat_a": np.int8,
    "first_defeat_b": np.int8,
    "damage_w0_a": np.int16,
    "damage_w1_a": np.int16,
    "damage_w0_b": np.int16,
    "damage_w1_b": np.int16,
    "tl_w0_a": np.int16,
    "tl_w1_a": np.int16,
    "tl_w0_b": np.int16,
    "tl_w1_b": np.int16,
}


def metrics(results: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The per-game numbers both engines must agree on (float arrays): side A's win
    (``rules.RESULTS``) and every other result."""
    out = {"win_a": (results["winner"] == rules.SIDE_A).astype(np.float64)}
    out.update({k: v.astype(np.float64) for k, v in results.items() if k != "winner"})
    return out
