"""The commands and snippets of README.md and of each game's guide (``docs/<game>.md``)
run as shown, in document order (``tests/docs/commands.py`` says what is run and how)."""

from __future__ import annotations

import pytest

from tests.docs.commands import GUIDE_COMMANDS, Command, run_in_order


@pytest.mark.parametrize("command", GUIDE_COMMANDS, ids=lambda c: c.id)
def test_command_runs(command: Command, tmp_path_factory: pytest.TempPathFactory) -> None:
    run_in_order(command, tmp_path_factory)
