"""Whole Mech Lab Partners games (000): Assembly, the Battle, then the grades.

"A game runs in two rounds: Assembly (build the mech against a ticking countdown) and
Battle (the finished mech fights the kaiju ...). Then you check Independent Studies."
The Battle's engines are the game's own (``battle.py``, ``reference.py``, ``vector.py``);
this package plays the whole game around them, on two engines like the Battle's, the
same split as Skirmish's ``reference/`` and ``vector/``:

- ``random_setup.py`` every random draw of a batch of games (the piles' order, the
                      lesson, the Trait order, the seats' studies and Specialties), made
                      once over the full spread so every deck plays the same games;
- ``reference/``      one game at a time, rule by rule (the oracle):
                      ``assembly.py`` the Assembly rounds and the lock;
                      ``battles.py`` each game's Battle compiled in Python and played;
- ``vector/``         the batch as arrays: ``assembly.py`` the Assembly rounds,
                      ``cards.py`` what the players look at, packed, ``spares.py`` a
                      rebuild's spares, ``battles.py`` the batch's Battles compiled as
                      arrays and played;
- ``locked_mech.py``  the mech as Assembly locks it (what both Assembly engines return);
- ``dealt_mechs.py``  finished mechs as the Battle reads them, and the Battle-only
                      study's deal of finished mechs from a deck;
- ``scoring.py``      the grades: Independent Studies, credits, each seat's GPA;
- ``decks.py``        random decks of the alpha's size drawn from the full spread;
- ``play.py``         :func:`play_games`: the three steps on either engine.

The cadets' choices in Assembly are ``policy.py``'s predicates.
"""
