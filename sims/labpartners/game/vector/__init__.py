"""Whole Lab Partners games on the vector engine: a batch of games as NumPy arrays, game
for game the same as the reference (``game/reference/``).

- ``cards.py``    what the players look at, packed one int per card, and a seat's values;
- ``assembly.py`` Assembly in lock step over the games (setup, the deal, each turn's
                  steps, the end of each round);
- ``lock.py``     what the locked mechs leave for the Battle (spares, the Battle policy);
- ``battles.py``  the batch's Battles compiled as arrays and played by
                  ``vector.play_stacked``.
"""
