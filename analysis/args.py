"""What every command of ``mechbal`` shares: the one-line user error and the common
flags (``--catalog``, ``--set``) with their parsing. ``analysis.cli`` builds the commands;
the designer tools (``diff``, ``tune``, ``dominance``) add theirs with these, without
importing the command line itself."""

from __future__ import annotations

import argparse
from typing import Any


class UserError(Exception):
    """A mistake in what the user asked for: reported in one line."""


def _catalog_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--catalog",
        default="catalogs",
        help="folder holding one folder per game (default: catalogs)",
    )


def _set_flag(p: argparse.ArgumentParser) -> None:
    """--set as simulate takes it: the catalog is loaded with these edits."""
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="a rules parameter or KIND.ID.FIELD (repeatable)",
    )


def _catalog_and_set_flags(p: argparse.ArgumentParser) -> None:
    _catalog_flag(p)
    _set_flag(p)


def _assignments(items: list[str] | None, flag: str) -> dict[str, Any]:
    from sims.core.catalog import parse_assignment, parse_value

    out: dict[str, Any] = {}
    for item in items or []:
        name, text = parse_assignment(item, flag)
        if flag == "--sweep":
            values = [parse_value(v) for v in text.split(",") if v.strip()]
            if not values:
                raise UserError(f"{flag} {item!r}: no values")
            out[name] = values
        else:
            out[name] = parse_value(text)
    return out
