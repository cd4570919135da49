"""An Alluvion battle compiled for the engines (001 Initiative, Actions, Attacking,
Damage, Grappling, Cover, Foot Soldiers, Morale, Batteries).

:func:`compile_battle` turns two sides (one or two Armors each, by loadout) and the
scenario's terms into a :class:`Battle`: every static number the round needs as small
arrays over the four Armor slots ``A0, A1, B0, B1`` (a side fielding one Armor leaves its
second slot empty, ``present`` False). The reference engine and the vector engine read
the same numbers and differ only in how they walk the rounds.

The battle is played on a line (# reading: the rulebook's map is not printed): side A's
Armors start at hex 0, side B's at ``range``; squads stay where their side started.

The round, as both engines walk it (ASSUMPTIONS.md "The battle"); the dice are rolled in
exactly this order, so a scripted battle reads the same faces in each engine:

1. **Pools** (Skill, Wild Dice; Attacking; Defending; Move). Each operable Armor in slot
   order rolls, in order: its Skill dice; its Attack dice (``rules.attack_dice`` of its
   usable systems), then one rocket die when it has a rocket left and its policy fires
   from this round on (the rocket is spent with the roll); its Defense dice, ECM dice
   first (``rules.defense_dice``); its Move dice; its Spot dice. Usable systems are those
   not destroyed, less one of the kind a grapple has disabled. A die is spent once
   assigned. Spot values on targets are cleared.
2. **Initiative.** In round 1 of an ambush only the ambushing side acts (the other still
   defends). Otherwise the side whose highest Skill die (its "Ace") is higher goes
   first; on equal Aces the larger sum of Skill dice (``initiative_tie = sum``; with
   ``roll`` straight to the d2); still equal, a d2 (1: A first).
3. **Turns.** The sides in initiative order, each side's operable Armors in slot order,
   each taking ``actions`` actions. The target is the first operable enemy Armor (slot
   order); ``d`` is the distance to it. Each action is the first of these that applies:
   a. grappled, first action: try to break free (highest unspent Skill die against the
      grappler's, neither spent; breaks free only when higher).
   b. policy ``clear_infantry``, last action, an enemy squad with soldiers within direct
      fire range: dedicate the highest unspent Attack die (else Skill die; with none
      left, none fall) to the first such squad; that many soldiers fall
      (``rules.soldiers_fall``). Clearing is not counted as an attack.
   c. policy ``spotter``, last action, a Spot or Skill die unspent, an operable ally yet
      to take its turn this round, and the target within reach (``reach.toml``, by
      usable surveillance systems): Spot the target with the highest unspent Spot die
      (else Skill die); a higher Spot on a target replaces a lower one.
   d. policy ``grapple``, ``d <= 1``, neither grappling nor grappled, the target not
      grappled, a Skill die unspent: the highest Skill die (spent) against the target's
      highest unspent Move die (else Skill die, else 0; spent); ``rules.grapples``. The
      grappled loses the use of one system from the next round's pools: at each round's
      pools step, the first kind it still has of movement, surveillance, resistive, ecm,
      hand_to_hand, direct_fire, smart, for that whole round. A grapple ends when either
      Armor is out.
   e. move, when not ``hold``, not grappled, ``d > goal`` and either the policy
      ``approach``es with a usable Hand-to-Hand system (goal 1), or no attack reaches the
      target (goal 1), or ``d`` is beyond direct fire range (goal ``direct_fire_range``):
      the highest unspent Move die (else Skill die, else 0) is spent and the Armor moves
      ``rules.hexes_moved`` hexes toward the target, stopping at the goal. Moving without
      a usable movement system leaves cover (# reading of "allows you to move through
      cover").
   f. attack, when an attack reaches: ``close`` with a usable Hand-to-Hand system at
      ``d <= 1``, else ``smart`` with a usable Smart system, else ``ranged`` with a usable
      Direct Fire system or this round's rocket die unspent; and an Attack or Skill die
      is unspent. The attack value is the highest unspent Attack die (rocket included),
      else the highest Skill die. The target's Spot (from the attacker's side) is added
      and consumed. A non-close attack beyond direct fire range rolls the Opportunity die
      (added to the defense). The defender assigns a die by its policy from the dice
      that may meet the attack (a Smart attack: ECM dice only, when ``smart_defense`` is
      ``ecm``): ``block`` the smallest that makes it miss, else the smallest; ``highest``
      the highest; Resistive dice before ECM dice at equal faces; no such die left: its
      highest Skill die; none: 0. A hit rolls ``rules.margin`` damage dice; faces from
      ``rules.direct_from(case)`` are Direct Hits. Against a target in cover (a ranged
      non-smart attack) each other die costs the cover 1 OH; against a grappler, from the
      grappled's allies (not the grappled itself), the grappled Armor is the cover and
      takes each other die as a Direct Hit (before the grappler's own cover). Direct
      Hits accumulate on an Armor; each ``hits_per_system`` destroy a system: with
      ``system_loss = roll`` a loss die each (``rules.loss_target``: the pilot on a 6,
      who is out of the fight at 0 HP), with ``choice`` the attacker's
      ``rules.chosen_kind``. An Armor with no system left is inoperable.
   g. otherwise the action is lost.
   "Else Skill die" above is ``skill_dice_use = fill``. With ``any`` every die an action
   spends from a pool (Attack, Move, Spot, the target's Move pool against a grapple) is
   the pool's highest or the highest Skill die, whichever is higher (the pool's at equal
   faces; ``rules.skill_replaces``), and the defender chooses from its Defense dice and
   its Skill dice together (a Defense die first at equal faces). With ``direct_hits_carry
   = attack`` the Direct Hits of one attack count toward ``hits_per_system`` alone.
   After its turn a depleted Armor rolls the battery die; ``rules.shuts_down`` takes it
   out of the battle.
4. **Foot soldiers.** Sides with squads left roll ``squad_initiative_die`` (A then B; a
   side's roll only when both sides have squads) + Morale; higher first, ties to the
   side that went first. Each squad with soldiers attacks the first operable enemy
   Armor within direct fire range with one ``squad_die`` (Spot from its side's Armors
   added and consumed), ranged non-smart, defended and damaged as in 3f.
5. **Morale.** Each side (A then B) with a rating, not yet checked, that has lost half
   its Armors or its lead (slot 0) rolls ``morale_dice`` d6 once (even when all its
   Armors are out); ``rules.routs`` ends the battle for it.
6. **End.** A side is beaten when all its Armors are out (inoperable, pilot down, shut
   down) or it routed. One side beaten: the other wins; both: a draw; neither after
   ``round_cap`` rounds: a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sims.alluvion import rules
from sims.alluvion.catalog import Catalog, Loadout, Scenario
from sims.alluvion.params import Parameters
from sims.alluvion.policy import DEFENSE

SLOTS = ("a0", "a1", "b0", "b1")  # the four Armor slots: side = slot // 2
AMBUSH = {"none": -1, "a": 0, "b": 1}
# 3d: the system a grappled Armor gives up (the one it needs least while held)
GRAPPLE_LOSS = (
    rules.MOVEMENT,
    rules.SURVEILLANCE,
    rules.RESISTIVE,
    rules.ECM,
    rules.HAND_TO_HAND,
    rules.DIRECT_FIRE,
    rules.SMART,
)


@dataclass(frozen=True, eq=False)
class Battle:
    """Everything static about one battle, by Armor slot (``SLOTS``) or side (a, b)."""

    params: Parameters
    label: str
    present: np.ndarray  # bool[4]
    counts: np.ndarray  # int8[4, 7] systems per kind (KINDS order)
    rockets: np.ndarray  # int8[4]
    base_move: np.ndarray  # int16[4] meters
    approach: np.ndarray  # bool[4] (policy fields, policies.toml)
    spotter: np.ndarray  # bool[4]
    grapple: np.ndarray  # bool[4]
    clear_infantry: np.ndarray  # bool[4]
    rockets_from: np.ndarray  # int8[4] (0 never)
    defense: np.ndarray  # int8[4] DEFENSE code
    hold: np.ndarray  # bool[4]
    cover_oh: np.ndarray  # int16[4] OH of the cover it starts behind (0 exposed)
    depleted: np.ndarray  # bool[4]
    squads: np.ndarray  # int8[2] squads per side
    morale: np.ndarray  # int8[2] rating, 0 never checks
    ambush: int  # AMBUSH code
    range: int  # hexes between the sides at the start
    reach_range: np.ndarray  # int16[S+1] by usable surveillance systems (0 anywhere)
    reach_cover: np.ndarray  # bool[S+1]

    def side(self, slot: int) -> int:
        return slot // 2


def batch_key(battle: Battle) -> tuple:
    """Battles with the same rules parameters share a vector call."""
    return (battle.params,)


def compile_battle(
    catalog: Catalog,
    a: Sequence[Loadout | str],
    b: Sequence[Loadout | str],
    *,
    squads: tuple[int, int] = (0, 0),
    morale: tuple[int, int] = (0, 0),
    ambush: str = "none",
    cover: tuple[str, str] = ("none", "none"),
    depleted: tuple[bool, bool] = (False, False),
    range_: int = 0,
    label: str = "",
) -> Battle:
    """Side A's and side B's Armors (loadouts or their ids/codes) and the terms."""
    p = catalog.params
    sides = []
    for side in (a, b):
        armors = [catalog.loadout(x) if isinstance(x, str) else x for x in side]
        if not 1 <= len(armors) <= rules.MAX_ARMORS:
            raise ValueError(f"a side fields 1..{rules.MAX_ARMORS} Armors, got {len(armors)}")
        sides.append(armors + [None] * (rules.MAX_ARMORS - len(armors)))
    slots: list[Loadout | None] = sides[0] + sides[1]
    present = np.array([x is not None for x in slots])
    pol = [catalog.policies[x.policy] if x is not None else None for x in slots]

    def per_slot(fn, dtype):
        return np.array(
            [fn(x, q) if x is not None else 0 for x, q in zip(slots, pol, strict=True)], dtype
        )

    oh = [catalog.cover[c].oh if c != "none" else 0 for c in cover]
    reach = catalog.reach
    return Battle(
        params=p,
        label=label or " v ".join("+".join(x.id for x in s if x is not None) for s in sides),
        present=present,
        counts=np.array([x.counts if x is not None else (0,) * 7 for x in slots], np.int8),
        rockets=per_slot(lambda x, q: x.rockets, np.int8),
        base_move=per_slot(lambda x, q: catalog.chassis[x.chassis].base_move, np.int16),
        approach=per_slot(lambda x, q: q.approach, bool),
        spotter=per_slot(lambda x, q: q.spotter, bool),
        grapple=per_slot(lambda x, q: q.grapple, bool),
        clear_infantry=per_slot(lambda x, q: q.clear_infantry, bool),
        rockets_from=per_slot(lambda x, q: q.rockets_from, np.int8),
        defense=per_slot(lambda x, q: DEFENSE[q.defense], np.int8),
        hold=per_slot(lambda x, q: q.hold, bool),
        cover_oh=np.array([oh[i // 2] if present[i] else 0 for i in range(4)], np.int16),
        depleted=np.array([depleted[i // 2] and present[i] for i in range(4)]),
        squads=np.array(squads, np.int8),
        morale=np.array(morale, np.int8),
        ambush=AMBUSH[ambush],
        range=range_ or p.start_range,
        reach_range=np.array([r.range for r in reach], np.int16),
        reach_cover=np.array([r.cover for r in reach]),
    )


def scenario_battle(catalog: Catalog, scenario: Scenario | str) -> Battle:
    """A battle of ``scenarios.toml``."""
    s = catalog.scenarios[scenario] if isinstance(scenario, str) else scenario
    return compile_battle(
        catalog,
        s.a,
        s.b,
        squads=(s.squads_a, s.squads_b),
        morale=(s.morale_a, s.morale_b),
        ambush=s.ambush,
        cover=(s.cover_a, s.cover_b),
        depleted=(s.depleted_a, s.depleted_b),
        range_=s.range,
        label=s.id,
    )


def duel(catalog: Catalog, a: Loadout | str, b: Loadout | str, **terms) -> Battle:
    """One Armor a side: the loadouts study's battle."""
    return compile_battle(catalog, [a], [b], **terms)


def sample_scenarios(catalog: Catalog) -> list[tuple[str, Battle]]:
    """Every battle of scenarios.toml: duels, an ambush, a fight in cover, squads with
    morale, depleted batteries (the conformance test plays each on both engines)."""
    return [(sid, scenario_battle(catalog, sid)) for sid in catalog.scenarios]


# The results both engines return, one number a game: name -> dtype, in this order.
FIELDS = {
    "winner": np.int8,
    "rounds": np.int8,
    "routed_a": np.int8,
    "routed_b": np.int8,
    "systems_lost_a": np.int16,
    "systems_lost_b": np.int16,
    "pilot_hits_a": np.int16,
    "pilot_hits_b": np.int16,
    "attacks_a": np.int16,
    "attacks_b": np.int16,
    "hits_a": np.int16,
    "hits_b": np.int16,
    "direct_hits_a": np.int16,
    "direct_hits_b": np.int16,
    "soldiers_lost_a": np.int16,
    "soldiers_lost_b": np.int16,
    "shutdowns_a": np.int8,
    "shutdowns_b": np.int8,
    "grapples_a": np.int16,
    "grapples_b": np.int16,
    "armors_left_a": np.int8,
    "armors_left_b": np.int8,
}


def metrics(results: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The per-battle numbers both engines must agree on (float arrays): each side's win
    and the draw (``rules.RESULTS``), and every other result."""
    w = results["winner"]
    out = {
        "win_a": (w == rules.SIDE_A).astype(np.float64),
        "win_b": (w == rules.SIDE_B).astype(np.float64),
        "draw": (w == rules.DRAW).astype(np.float64),
    }
    out.update({k: v.astype(np.float64) for k, v in results.items() if k != "winner"})
    return out
