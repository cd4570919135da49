"""The ``mechbal`` command (also ``python -m analysis``).

User errors (bad catalog, unknown game, bad value) end with one line on stderr naming
what is wrong and a non-zero exit, never a traceback, and nothing written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sims.core.catalog import CatalogError
from sims.core.protocol import UnknownGame, game_names, get_game

EXIT_USER_ERROR = 2
EXIT_CLAIM_FAILED = 1


class UserError(Exception):
    """A mistake in what the user asked for: reported in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        raise UserError(message)


def _games(name: str | None) -> list[str]:
    if name is None:
        return game_names()
    get_game(name)  # raises UnknownGame with the list of known games
    return [name]


def cmd_tables(args: argparse.Namespace) -> int:
    from analysis.tables import write_tables

    game = get_game(args.game)
    catalog = game.load_catalog(Path(args.catalog))
    frames = game.tables(catalog)
    paths = write_tables(frames, dict(game.table_docs), Path(args.out), game.name, game.title)
    print(f"wrote {len(paths)} files to {Path(args.out) / game.name}")
    return 0


def cmd_claims(args: argparse.Namespace) -> int:
    from sims.core.claims import run_claims

    failed = 0
    for name in _games(args.game):
        game = get_game(name)
        catalog = game.load_catalog(Path(args.catalog))
        results = run_claims(game.claims_path(Path(args.catalog)), game.checks, catalog)
        rows = [r.row() for r in results]
        widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in rows[0]}
        print(f"{game.title} ({name})")
        print("  ".join(c.ljust(widths[c]) for c in widths))
        for r in rows:
            print("  ".join(r[c].ljust(widths[c]) for c in widths))
        bad = sum(not r.passed for r in results)
        failed += bad
        print(f"{len(results) - bad} passed, {bad} failed\n")
    return EXIT_CLAIM_FAILED if failed else 0


def cmd_report(args: argparse.Namespace) -> int:
    from analysis.report import build_report

    games = _games(args.game)
    index = build_report(games, Path(args.catalog), Path(args.out))
    print(f"report written: {index.resolve()}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from sims.skirmish.explain import WHATS, ExplainError, explain_shot, to_text

    game = get_game(args.game)  # an unknown game is UnknownGame, one line
    if game.name != "skirmish":
        raise UserError(f"explain: nothing to explain for game {game.name!r} yet (only skirmish)")
    if args.what not in WHATS:
        raise UserError(
            f"explain {game.name}: unknown WHAT {args.what!r} (known: {', '.join(WHATS)})"
        )
    missing = [f"--{f}" for f in ("attacker", "weapon", "target") if getattr(args, f) is None]
    if missing:
        raise UserError(f"explain {game.name} shot needs {', '.join(missing)}")
    catalog = game.load_catalog(Path(args.catalog))
    try:
        shot = explain_shot(
            catalog, args.attacker, args.weapon, args.target, distance=args.range,
            cover=args.cover, modifier=args.modifier, braced=args.braced,
        )  # fmt: skip
    except ExplainError as exc:
        raise UserError(str(exc)) from None
    print(to_text(shot))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mechbal", description="Balance analytics for tabletop mech games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def catalog_flag(p: argparse.ArgumentParser) -> None:
        p.add_argument("--catalog", default="catalogs",
                       help="folder holding one folder per game (default: catalogs)")  # fmt: skip

    p = sub.add_parser("tables", help="write a game's exact rulebook tables (CSV + Markdown)")
    p.add_argument("game")
    p.add_argument("--out", default="reports/tables", help="output folder (default reports/tables)")
    catalog_flag(p)
    p.set_defaults(func=cmd_tables)

    p = sub.add_parser("claims", help="check every rulebook claim; non-zero exit on a failure")
    p.add_argument("game", nargs="?")
    catalog_flag(p)
    p.set_defaults(func=cmd_claims)

    p = sub.add_parser("report", help="write reports/index.html with tables and claims")
    p.add_argument("game", nargs="?")
    p.add_argument("--out", default="reports", help="report folder (default reports)")
    catalog_flag(p)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("explain", help="show the working of one resolution, e.g. one shot")
    p.add_argument("game")
    p.add_argument("what", help="what to explain (skirmish: shot)")
    p.add_argument("--attacker", help="attacking kit id")
    p.add_argument("--weapon", help="weapon part id mounted on the attacker")
    p.add_argument("--target", help="target kit id")
    p.add_argument("--range", type=int,
                   help="distance in hexes (default: the weapon's Range, 1 for melee)")  # fmt: skip
    p.add_argument("--cover", default="none", help="target cover: none, soft or hard")
    p.add_argument("--modifier", type=int, default=0,
                   help="extra signed modifier dice ([+] positive)")  # fmt: skip
    p.add_argument("--braced", action="store_true", help="the target is Braced (+Armor)")
    catalog_flag(p)
    p.set_defaults(func=cmd_explain)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (CatalogError, UnknownGame, UserError) as exc:
        print(f"mechbal: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
