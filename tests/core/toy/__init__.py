"""Coin Duel: the toy game the core tests plug in. It lives only in the tests and is
registered by ``tests/conftest.py`` (:func:`register_toy`), as an installed game would be
by its entry points: no generic module names it, yet it goes through tables, claims,
simulate, query, report and the conformance test like a real game. ``game.py`` is its
``sims`` side, ``analysis.py`` its analysis plugin, ``catalogs/toy/`` its catalog.

Rules: two fighters; every round each rolls its die and flips a coin (heads adds
``coin_bonus``); the higher total takes 1 HP from the other, a tie nothing. A fighter at
0 HP loses; after ``round_cap`` rounds the one with more HP wins, equal HP is a draw.
"""

from pathlib import Path

CATALOGS = Path(__file__).parent / "catalogs"


def register_toy() -> None:
    """Make Coin Duel known to the generic tools."""
    from analysis import plugin
    from sims.core import protocol

    protocol.register("toy", "tests.core.toy.game:GAME")
    plugin.register("toy", "tests.core.toy.analysis:ANALYSIS")
