from pathlib import Path

from tests.core.toy import register_toy

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "catalogs"

# Coin Duel, the toy game of tests/core, is known to every test (and to the worker
# processes they start, which import it by its registered path).
register_toy()
