"""Mecha Skirmish vectorized engine: N battles at once over NumPy arrays, each battle
carrying its own matchup (a chunk of a round robin is one call; sims/core/protocol.py).

It plays exactly the battle model of ``battle.py`` that the reference engine
(``sims/skirmish/reference/``) plays one battle at a time, and is tested against it.
Entry point: ``play(battles, scenario_ids, rng)``, where battle i plays the compiled matchup
``battles[scenario_ids[i]]``. The layout:

- State is :class:`State`, a frozen dataclass of arrays indexed ``[battle, mech, ...]``
  (dtype, shape and encoding beside each field), the mech by its local index ``m`` in
  0..M-1 (every matchup of a call has M mechs, side 0's first). Formulas come from
  ``battle.py`` / ``rules.py``; every choice a mech makes is a ``policy.py`` predicate.
- Static numbers come from ``Engine.b``: with one matchup its compiled
  :class:`~sims.skirmish.battle.Battle` itself; with S matchups the stacked Battle of
  :func:`stack`, whose per-mech fields hold S * M rows, row ``scenario * M + m``
  (catalog-level fields, ``battle.SHARED``, are equal across the call and kept as they
  are). A static number of mech ``m`` in battles ``ix`` is read at the key
  ``Engine.key(ix, m)``: ``scenario[ix] * M + m``, or ``m`` itself with one matchup (no
  extra work, the same arithmetic). State is always read with the local ``m``, never
  the key. ``bonded`` stacks to [S * M, M]: its row is a key, its column a local mech.
- Every step works on a subset of battles given as an index array ``ix`` (unique battle
  indices) with per-battle mech indices (``m``, ``t``: arrays of the same length).
  Where the reference branches with ``if``, this engine splits ``ix`` with a mask and
  calls the same step on each part. Python loops run over rounds, activations, mechs,
  shots and rerolls, never over battles. Finished battles drop out of ``ix``.
- Randomness comes from one ``numpy.random.Generator`` passed in; :class:`Dice` (the
  counting dice of ``sims.core.batch``) draws from it in blocks and counts what it draws
  (the benchmark's random-number floor). The masked gathers (``keep``, ``Grid``) are
  ``sims.core.batch``'s too.
  Tests pass ``Engine(..., dice=ScriptedDice(script))`` instead: the faces of a batch of
  one battle, read from a script as ``reference.ScriptedDice`` reads it.
- Every rule is a call to ``rules.py`` (through ``battle.py`` for a Battle's numbers);
  a Fire action's modifier dice come from ``modifiers.net_dice``.

The engine class :class:`Engine` is composed of one part per kind of work, a module
each, the same split as the reference engine's, method names following it:

- ``dice.py``     blocks of dice from a Generator, or a script;
- ``state.py``    :class:`State`, and the readings of state every part uses (static
                  rows by key, distances, derived stats now, weapons in reach);
- ``turns.py``    the game (I): initiative, rounds, the order of activations;
- ``actions.py``  the activation (E): move and reactions, the decision list, Lock On,
                  Stabilize, Charge;
- ``attack.py``   Fire actions and Strikes (F): modifier dice, hit, location,
                  penetration, and Backup Fire;
- ``effects.py``  what hits and Heat do (F6, F7, G): damage, crits, heat and stress;
- ``scoring.py``  the end (I4): Hull and the result arrays;
- ``engine.py``   :class:`Engine` put together, :func:`stack`, :func:`play`.
"""

from sims.skirmish.vector.dice import Dice, ScriptedDice
from sims.skirmish.vector.engine import ENGINE_VERSION, Engine, attack_profiles, play, stack
from sims.skirmish.vector.state import State

__all__ = [
    "ENGINE_VERSION",
    "Dice",
    "Engine",
    "ScriptedDice",
    "State",
    "attack_profiles",
    "play",
    "stack",
]
