"""The commands and snippets of the docs that are no game's guide (tools, tables and
report, scale, architecture, adding a game) run as shown, in document order
(``tests/docs/commands.py`` says what is run and how)."""

from __future__ import annotations

import pytest

from tests.docs.commands import OTHER_COMMANDS, Command, run_in_order


@pytest.mark.parametrize("command", OTHER_COMMANDS, ids=lambda c: c.id)
def test_command_runs(command: Command, tmp_path_factory: pytest.TempPathFactory) -> None:
    run_in_order(command, tmp_path_factory)
