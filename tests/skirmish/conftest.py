"""Skirmish's fixtures: its catalog, loaded once per test process (session scope: loading
is cheap, and the tests only read it)."""

import pytest

from sims.skirmish.catalog import Catalog, load_catalog
from tests.conftest import CATALOGS


@pytest.fixture(scope="session")
def skirmish() -> Catalog:
    return load_catalog(CATALOGS)


# The range track (rules parameter board = "track"): the model of the tests that trace a
# battle die by die (cover drawn per Fire action, no terrain) and compare the engines on it.
TRACK = {"board": "track"}


@pytest.fixture(scope="session")
def skirmish_track() -> Catalog:
    return load_catalog(CATALOGS, overrides=TRACK)
