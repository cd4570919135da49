from pathlib import Path

import pytest

from sims.skirmish.catalog import Catalog, load_catalog

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "catalogs"


@pytest.fixture(scope="session")
def skirmish() -> Catalog:
    return load_catalog(CATALOGS)
