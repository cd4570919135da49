"""The ``mechbal`` command (also ``python -m analysis``).

User errors (bad catalog, unknown game, bad value) end with one line on stderr naming
what is wrong and a non-zero exit, never a traceback, and nothing written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from analysis.query import QueryError
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
    if args.n < 1 or args.jobs < 1:
        raise UserError("--n and --jobs must be at least 1")
    index = build_report(games, Path(args.catalog), Path(args.out), store=Path(args.store),
                         n=args.n, seed=args.seed, jobs=args.jobs)  # fmt: skip
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


def cmd_simulate(args: argparse.Namespace) -> int:
    from sims.core.runner import simulate

    game = get_game(args.game)
    if args.describe:
        exp = game.experiments.get(args.experiment)
        if exp is None:
            raise UserError(f"unknown experiment {args.experiment!r} for {args.game} "
                            f"(known: {', '.join(sorted(game.experiments))})")  # fmt: skip
        print(f"{args.game} {exp.name}: {exp.summary}")
        print(f"chunk size {exp.chunk_size:,}; options: {', '.join(exp.option_names) or 'none'}")
        if exp.default_sweep:
            print(f"default sweep: {dict(exp.default_sweep)}")
        print(exp.schema)
        return 0
    sets = _assignments(args.set, "--set")
    sweeps = _assignments(args.sweep, "--sweep")
    options: dict[str, Any] = {}
    for name in ("kits", "policy", "teams", "parts", "custom"):
        value = getattr(args, name)
        if value:
            options[name] = [v.strip() for v in value.split(",") if v.strip()]
    outcome = simulate(args.game, args.experiment, n=args.n, seed=args.seed,
                       catalog_root=args.catalog, store_root=args.out, sets=sets,
                       sweeps=sweeps, options=options, engine=args.engine, jobs=args.jobs,
                       backend=args.backend, scheduler=args.scheduler, progress=None)  # fmt: skip
    plan = outcome.plan
    rate = outcome.rows / outcome.seconds if outcome.ran and outcome.seconds else 0.0
    print(f"run {plan.run_id}: {len(plan.cells)} cells, {len(plan.chunks)} chunks "
          f"({outcome.ran} run now, {outcome.kept} kept), {outcome.rows:,} rows")  # fmt: skip
    print(f"store: {plan.folder}")
    if outcome.ran:
        print(f"{outcome.seconds:.1f} s ({rate:,.0f} rows/s overall)")
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

    p = sub.add_parser("simulate", help="run an experiment into the Parquet store (resumable)")
    p.add_argument("game")
    p.add_argument("experiment")
    p.add_argument("--n", type=int, help="total games, split over the grid's cells")
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="a rules parameter or KIND.ID.FIELD (repeatable)")  # fmt: skip
    p.add_argument("--sweep", action="append", metavar="NAME=V1,V2,...",
                   help="run the grid at each value (repeatable)")  # fmt: skip
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="local worker processes")
    p.add_argument("--backend", default="local", help="local or dask")
    p.add_argument("--scheduler", help="Dask scheduler address (with --backend dask)")
    p.add_argument("--engine", default="vector", help="vector or reference")
    p.add_argument("--out", default="data", help="the store root (default data)")
    p.add_argument("--kits", help="kit ids for duel grids, comma-separated (default all)")
    p.add_argument("--policy", help="policies, comma-separated (default gunline)")
    p.add_argument("--teams", help="teams for teamfight: k1+k2+k3,k4+k5+k6")
    p.add_argument("--parts", help="builds: the part list, full (default) or playable")
    p.add_argument("--custom", help="ratings: add this many strong custom teams")
    p.add_argument("--describe", action="store_true",
                   help="print the experiment's grid and row columns, run nothing")  # fmt: skip
    catalog_flag(p)
    p.set_defaults(func=cmd_simulate)

    from analysis.query import add_query_parser

    add_query_parser(sub)

    p = sub.add_parser("report", help="run the default experiments and write the report "
                                      "(reports/index.html and a page per game)")  # fmt: skip
    p.add_argument("game", nargs="?")
    p.add_argument("--out", default="reports", help="report folder (default reports)")
    p.add_argument("--store", default="data", help="the Parquet store for its runs")
    p.add_argument("--n", type=int, default=64_000,
                   help="battles per default experiment (small unless told)")  # fmt: skip
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
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
    except (CatalogError, UnknownGame, UserError, QueryError) as exc:
        print(f"mechbal: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
