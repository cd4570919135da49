"""Mecha Skirmish reference engine: one battle at a time, rule by rule, in plain Python.

This is the oracle the vectorized engine is tested against, so it favours reading over
speed. The battle model it plays is written down in ``battle.py``; each step cites the
rulebook section (seed 003) it implements. Dice come from a :class:`Dice` source passed
in explicitly: :class:`RandomDice` over a ``numpy.random.Generator`` for play,
:class:`ScriptedDice` for hand-traced battles in tests. Every rule is a call to
``rules.py`` (through ``battle.py`` for a Battle's numbers); a Fire action's modifier
dice come from ``modifiers.net_dice``; every choice a mech makes is a ``policy.py``
predicate.

Entry points: :func:`play_battle` plays one battle with a Dice source or a Generator;
:func:`play` is the engine contract shared with ``vector.play``: a batch of battles, each
carrying its own matchup by scenario id, played one after another on one Generator.

The engine class :class:`Game` is composed of one part per kind of work, a module each,
the same split as the vectorized engine's (``sims/skirmish/vector/``):

- ``dice.py``     where the dice come from (random or scripted);
- ``state.py``    a mech's changing state, a battle's result, and the readings of state
                  every part uses (distances, derived stats now, weapons in reach);
- ``turns.py``    the game (I): initiative, rounds, the order of activations;
- ``actions.py``  the activation (E): move and reactions, the decision list, Lock On,
                  Stabilize, Charge;
- ``attack.py``   a Fire action or Strike (F): modifier dice, hit, location,
                  penetration, and Backup Fire;
- ``effects.py``  what a hit or Heat does (F6, F7, G): damage, crits, heat and stress;
- ``scoring.py``  the end (I4): Hull and the result;
- ``game.py``     :class:`Game` put together, :func:`play_battle`, :func:`play`.
"""

from sims.skirmish.reference.dice import Dice, RandomDice, ScriptedDice
from sims.skirmish.reference.game import ENGINE_VERSION, Game, play, play_battle
from sims.skirmish.reference.state import BattleResult, MechState

__all__ = [
    "ENGINE_VERSION",
    "BattleResult",
    "Dice",
    "Game",
    "MechState",
    "RandomDice",
    "ScriptedDice",
    "play",
    "play_battle",
]
