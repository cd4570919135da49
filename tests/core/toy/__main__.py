"""``python -m tests.core.toy ARGS``: the mechbal command with Coin Duel registered (for
tests that need a real process: kills, entry points)."""

import sys

from analysis.cli import main
from tests.core.toy import register_toy

if __name__ == "__main__":  # worker processes import this module again: run only here
    register_toy()
    sys.exit(main(sys.argv[1:]))
