"""The Battle of dealt and locked mechs on the reference engine, one game at a time (000
Battle): each game's foe and Battle compiled in Python (``battle.foe``, then
``battle.compile_battle``: the oracle that ``game.vector.battles`` is tested against
field by field), then played with ``reference.play``; and the parts of a mech its foe
is weak to or resists, counted once each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sims.labpartners import battle, reference, rules
from sims.labpartners.catalog import Catalog
from sims.labpartners.game.dealt_mechs import Dealt
from sims.labpartners.game.locked_mech import Locked


def compile_game(
    catalog: Catalog, dealt: Dealt, i: int, kaiju: str, policy: str = "steady"
) -> tuple[battle.Battle, battle.Foe]:
    """Game ``i`` of ``dealt`` against ``kaiju``: its foe (the flipped Traits and the
    debuff applied) and its compiled Battle."""
    cards = dealt.mech(i)
    lesson = dealt.lesson_of(i)
    traits = [catalog.traits[t] for t in dealt.trait_list(i)]
    foe = battle.foe(catalog.kaiju[kaiju], traits, cards, lesson, catalog.params)
    compiled = battle.compile_battle(
        catalog, cards, lesson, foe, catalog.policies[policy], dealt.spare_cards(i)
    )
    return compiled, foe


def compile_all(
    catalog: Catalog, dealt: Dealt, kaiju: Sequence[str], policy: str = "steady"
) -> tuple[list[battle.Battle], list[battle.Foe]]:
    """Every game of ``dealt``, game ``i`` against ``kaiju[i]``."""
    out = [compile_game(catalog, dealt, i, kaiju[i], policy) for i in range(dealt.games)]
    return [b for b, _ in out], [f for _, f in out]


def part_matches(cards: Sequence[Any], foe: battle.Foe) -> tuple[int, int]:
    """(parts the foe is weak to, parts it resists) by Form or Type, a part once
    (rules.matchup: a Form or Type both weak and resisted counts as neither)."""
    weak = resist = 0
    for c in cards:
        if c is None:
            continue
        f = rules.matchup(c.form in foe.weak_forms, c.form in foe.resist_forms)
        t = rules.matchup(c.type in foe.weak_types, c.type in foe.resist_types)
        weak += f > 0 or t > 0
        resist += f < 0 or t < 0
    return weak, resist


def play_locked(
    catalog: Catalog, locked: Locked, d: Dealt, kaiju: np.ndarray, battle_rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Each locked mech's Battle (``d``: ``locked`` as :class:`Dealt`) against its kaiju,
    compiled game by game and played by ``reference.play``, and the counts the rows
    report: the lesson took, weak and resisted parts, the kaiju's HP."""
    G = locked.games
    policies = tuple(catalog.policies)
    battles, took = [], np.zeros(G, bool)
    weak, resist = np.zeros(G, np.int64), np.zeros(G, np.int64)
    for i in range(G):
        policy = policies[int(locked.battle_policy[i])]
        b, foe = compile_game(catalog, d, i, str(kaiju[i]), policy)
        cards = d.mech(i)
        battles.append(b)
        took[i] = bool(
            rules.lesson_took(battle.lesson_matches(cards, d.lesson_of(i)), catalog.params)
        )
        weak[i], resist[i] = part_matches(cards, foe)
    kaiju_hp = np.array([b.kaiju_hp for b in battles], np.int64)
    res = (
        reference.play(battles, np.arange(G, dtype=np.int64), battle_rng)
        if G
        else {k: np.zeros(0, t) for k, t in reference.FIELDS.items()}
    )
    return {
        **res,
        "lesson_took": np.asarray(took, bool),
        "weak_matches": weak,
        "resist_matches": resist,
        "kaiju_hp": np.asarray(kaiju_hp),
    }
