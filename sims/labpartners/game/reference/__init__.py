"""Whole Lab Partners games on the reference engine, one game at a time, rule by rule:
the oracle the vectorized whole game (``game/vector/``) is tested against.

- ``assembly.py`` Assembly (setup, the seats' turns, the end of each round, the lock);
- ``battles.py``  each locked or dealt mech's Battle compiled in Python
                  (``battle.compile_battle``) and played by ``reference.play``.
"""
