from pathlib import Path

import pytest

from sims.skirmish.catalog import Catalog, load_catalog
from tests.core.toy import register_toy

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "catalogs"

# Coin Duel, the toy game of tests/core, is known to every test (and to the worker
# processes they start, which import it by its registered path).
register_toy()


@pytest.fixture(scope="session")
def skirmish() -> Catalog:
    return load_catalog(CATALOGS)


# The range track (rules parameter board = "track"): the model of the tests that trace a
# battle die by die (cover drawn per Fire action, no terrain) and compare the engines on it.
TRACK = {"board": "track"}


@pytest.fixture(scope="session")
def skirmish_track() -> Catalog:
    return load_catalog(CATALOGS, overrides=TRACK)
