"""Whole Lab Partners games on the vector engine: a batch of games as NumPy arrays, game
for game the same as the reference (``game/reference/``).

- ``cards.py``    what the players look at, packed one int per card, and a seat's values;
- ``assembly.py`` Assembly in lock step over the games (setup, the deal, each turn's
                  steps, the end of each round, the lock);
- ``spares.py``   the spares a rebuild takes, read off the locked batch's piles;
- ``battles.py``  the batch's Battles compiled as arrays and played by
                  ``vector.play_stacked``.
"""
