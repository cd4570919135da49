"""The ``mechbal`` command (also ``python -m analysis``).

Every game-specific flag comes from what the game declares (``sims.core.protocol``): the
options of each experiment (``mechbal simulate GAME EXPERIMENT --help``) and of each
``explain`` subject (``mechbal explain GAME WHAT --help``). The command knows no game.

User errors (bad catalog, unknown game, bad value) end with one line on stderr naming
what is wrong and a non-zero exit, never a traceback, and nothing written.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from analysis.args import UserError, _assignments, _catalog_and_set_flags, _catalog_flag
from analysis.query import QueryError
from sims.core.catalog import CatalogError
from sims.core.protocol import Explain, Game, InputError, Option, game_names, get_game

EXIT_USER_ERROR = 2
EXIT_CLAIM_FAILED = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process ended by Ctrl-C


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        raise UserError(message)


def _games(name: str | None, catalog_root: str) -> list[str]:
    """The game asked for, else every known game with a folder in the catalog root (a
    designer's copy may hold some games only)."""
    if name is not None:
        get_game(name)  # raises UnknownGame with the list of known games
        return [name]
    games = [g for g in game_names() if (Path(catalog_root) / g).is_dir()]
    if not games:
        raise UserError(
            f"{catalog_root}: no game's catalog folder here (games: {', '.join(game_names())})"
        )
    return games


def _add_option(p: argparse.ArgumentParser, option: Option) -> None:
    """A declared option as an argparse flag; its parser's ValueError becomes argparse's
    one-line 'argument --flag: ...'."""
    if option.switch:
        p.add_argument(option.flag, dest=option.name, action="store_true", help=option.help)
        return

    def parse(text: str) -> Any:
        try:
            return option.parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    # argparse words its own types' errors ("invalid int value: 'ten'")
    kind = option.parse if option.parse in (int, float, str) else parse
    p.add_argument(
        option.flag,
        dest=option.name,
        type=kind,
        metavar=option.metavar,
        default=None,
        help=option.help,
    )


def _parse_rest(
    prog: str,
    options: Sequence[Option],
    args: argparse.Namespace,
    common: Any,
    description: str = "",
) -> argparse.Namespace:
    """The flags a game declares for one experiment or explain subject, read from what
    the command's own parser left over (``args.extras``), merged into ``args``. ``--help``
    shows the command's flags (``common`` adds them) with the declared ones."""
    p = _Parser(prog=prog, description=description, add_help=args.help)
    if args.help:  # the whole list: the command's flags, then the declared ones
        common(p)
    for option in options:
        _add_option(p, option)
    if args.help:
        p.print_help()
        raise SystemExit(0)
    return p.parse_args(args.extras, namespace=args)


# ---- tables, claims, report -------------------------------------------------------------


def cmd_tables(args: argparse.Namespace) -> int:
    from analysis.tables import parse_formats, write_tables

    try:  # before any work: a bad --format writes nothing
        formats = parse_formats(args.format)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    game = get_game(args.game)
    catalog = game.load_catalog(Path(args.catalog), overrides=_assignments(args.set, "--set"))
    paths = write_tables(game, game.exact(catalog), Path(args.out), formats, catalog)
    print(f"wrote {len(paths)} files to {Path(args.out) / game.name}")
    return 0


def cmd_claims(args: argparse.Namespace) -> int:
    from sims.core.claims import run_claims

    sets = _assignments(args.set, "--set")
    if sets and args.game is None:  # a name means something in one game only
        raise UserError("claims --set needs GAME (mechbal claims GAME --set NAME=VALUE)")
    failed = 0
    for name in _games(args.game, args.catalog):
        game = get_game(name)
        catalog = game.load_catalog(Path(args.catalog), overrides=sets)
        results = run_claims(game.claims_path(Path(args.catalog)), game.checks, catalog)
        with_sets = ", ".join(f"{k}={v}" for k, v in sets.items())
        print(f"{game.title} ({name})" + (f" with --set {with_sets}" if sets else ""))
        if not results:
            print("no claims\n")
            continue
        rows = [r.row() for r in results]
        widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in rows[0]}
        print("  ".join(c.ljust(widths[c]) for c in widths))
        for r in rows:
            print("  ".join(r[c].ljust(widths[c]) for c in widths))
        bad = sum(not r.passed for r in results)
        failed += bad
        print(f"{len(results) - bad} passed, {bad} failed\n")
    return EXIT_CLAIM_FAILED if failed else 0


def cmd_report(args: argparse.Namespace) -> int:
    from analysis.report import build_report, sets_text

    sets = _assignments(args.set, "--set")
    if sets and args.game is None:  # a name means something in one game only
        raise UserError("report --set needs GAME (mechbal report GAME --set NAME=VALUE)")
    games = _games(args.game, args.catalog)
    if args.n < 1 or args.jobs < 1:
        raise UserError("--n and --jobs must be at least 1")
    export = Path(args.export) if args.export else None
    index = build_report(
        games,
        Path(args.catalog),
        Path(args.out),
        store=Path(args.store),
        n=args.n,
        seed=args.seed,
        jobs=args.jobs,
        sets=sets,
        export=export,
        robust_budget=args.robust_budget,
    )
    print(f"report written: {index.resolve()}" + (f" (with {sets_text(sets)})" if sets else ""))
    if export is not None:
        print(f"exported (CSV tables, PNG and SVG charts): {export.resolve()}")
    return 0


# ---- explain ----------------------------------------------------------------------------


def _subject(game: Game, what: str) -> Explain:
    if not game.explain:
        raise UserError(f"explain: nothing to explain for game {game.name!r}")
    if what not in game.explain:
        raise UserError(
            f"explain {game.name}: unknown WHAT {what!r} (known: {', '.join(game.explain)})"
        )
    return game.explain[what]


def _positionals(args: argparse.Namespace, *names: str) -> None:
    """Before GAME and its NAME are known, --help is the command's own help; without
    them, a one-line error."""
    if all(getattr(args, n) for n in names):
        return
    if args.help:
        args.parser.print_help()
        raise SystemExit(0)
    words = " and ".join(n.upper() for n in names)
    raise UserError(f"{args.parser.prog} needs {words} (mechbal {args.command} --help lists them)")


def cmd_explain(args: argparse.Namespace) -> int:
    _positionals(args, "game", "what")
    game = get_game(args.game)  # an unknown game is UnknownGame, one line
    subject = _subject(game, args.what)
    opts = _parse_rest(
        f"mechbal explain {game.name} {subject.name}",
        subject.options,
        args,
        _catalog_and_set_flags,
        subject.help,
    )
    missing = [o.flag for o in subject.options if o.required and getattr(opts, o.name) is None]
    if missing:
        raise UserError(f"explain {game.name} {subject.name} needs {', '.join(missing)}")
    values = {o.name: getattr(opts, o.name) for o in subject.options}
    values = {k: v for k, v in values.items() if v is not None}
    sets = _assignments(opts.set, "--set")
    catalog = game.load_catalog(Path(opts.catalog), overrides=sets)
    if sets:  # the working below is of the edited catalog: say so
        print("with --set " + ", ".join(f"{k}={v}" for k, v in sets.items()))
    print(subject.run(catalog, **values))
    return 0


# ---- simulate ---------------------------------------------------------------------------


def _run_flags(p: argparse.ArgumentParser) -> None:
    """The flags every experiment takes (DESIGN.md "Commands")."""
    p.add_argument("--n", type=int, help="total games, split over the grid's cells")
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="a rules parameter or KIND.ID.FIELD (repeatable)",
    )
    p.add_argument(
        "--sweep",
        action="append",
        metavar="NAME=V1,V2,...",
        help="run the grid at each value (repeatable)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="local worker processes")
    p.add_argument("--backend", default="local", help="local or dask")
    p.add_argument("--scheduler", help="Dask scheduler address (with --backend dask)")
    p.add_argument("--engine", default="vector", help="vector or reference")
    p.add_argument("--out", default="data", help="the store root (default data)")
    p.add_argument(
        "--label",
        help="a short name for the run (mechbal runs lists it); never part of its identity",
    )
    p.add_argument(
        "--describe",
        action="store_true",
        help="print the experiment's grid and row columns, run nothing",
    )
    _catalog_flag(p)


def cmd_simulate(args: argparse.Namespace) -> int:
    from sims.core.runner import experiment_of, simulate

    _positionals(args, "game", "experiment")
    game = get_game(args.game)
    exp = experiment_of(game, args.experiment)
    opts = _parse_rest(
        f"mechbal simulate {game.name} {exp.name}", exp.options, args, _run_flags, exp.summary
    )
    if opts.describe:
        print(f"{game.name} {exp.name}: {exp.summary}")
        flags = ", ".join(o.flag for o in exp.options) or "none"
        print(f"chunk size {exp.chunk_size:,} rows; options: {flags}")
        if exp.default_sweep:
            print(f"default sweep: {dict(exp.default_sweep)}")
        print(exp.describe())
        return 0
    sets = _assignments(opts.set, "--set")
    sweeps = _assignments(opts.sweep, "--sweep")
    options = {
        o.name: getattr(opts, o.name)
        for o in exp.options
        if getattr(opts, o.name) not in (None, False)
    }
    if not exp.needs_n:
        ignored = [
            f
            for f, given in (
                ("--n", opts.n is not None),
                ("--seed", opts.seed != 1),
                ("--engine", opts.engine != "vector"),
            )
            if given
        ]
        if ignored:  # said, not refused: the one run of this content is made or reused
            verb = "do" if len(ignored) > 1 else "does"
            print(
                f"note: {exp.name} enumerates without randomness: {', '.join(ignored)} "
                f"{verb} not apply",
                file=sys.stderr,
            )
    outcome = simulate(
        game.name,
        exp.name,
        n=opts.n,
        seed=opts.seed,
        catalog_root=opts.catalog,
        store_root=opts.out,
        sets=sets,
        sweeps=sweeps,
        options=options,
        engine=opts.engine,
        jobs=opts.jobs,
        backend=opts.backend,
        scheduler=opts.scheduler,
        progress=None,
        label=opts.label,
    )
    plan = outcome.plan
    rate = outcome.rows / outcome.seconds if outcome.ran and outcome.seconds else 0.0
    label = f" ({opts.label})" if opts.label else ""
    print(
        f"run {plan.run_id}{label}: {len(plan.cells)} cells, {len(plan.chunks)} chunks "
        f"({outcome.ran} run now, {outcome.kept} kept), {outcome.rows:,} rows"
    )
    print(f"store: {plan.folder}")
    if outcome.ran:
        print(f"{outcome.seconds:.1f} s ({rate:,.0f} rows/s overall)")
    return 0


def _listing() -> str:
    """Every installed game's experiments and explain subjects, for --help."""
    lines = []
    for name in game_names():
        try:
            game = get_game(name)
        except Exception as exc:  # a broken plugin must not break --help for the others
            lines.append(f"  {name}: cannot be loaded ({exc})")
            continue
        lines.append(
            f"  {name} ({game.title}): experiments {', '.join(game.experiments) or '-'};"
            f" explain {', '.join(game.explain) or '-'}"
        )
    return "games:\n" + "\n".join(lines)


def _help_flag(p: argparse.ArgumentParser) -> None:
    """-h/--help read as a flag: the command prints the game's flags with its own."""
    p.add_argument("-h", "--help", action="store_true", help="show the flags, with the game's")


def build_parser(listing: str = "") -> argparse.ArgumentParser:
    """The parser; ``listing`` (games, experiments, explain subjects) ends the help."""
    parser = _Parser(
        prog="mechbal",
        description="Balance analytics for tabletop mech games.",
        epilog=listing,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser(
        "tables", help="write a game's exact rulebook tables (CSV + Markdown, or an Excel workbook)"
    )
    p.add_argument("game")
    p.add_argument("--out", default="reports/tables", help="output folder (default reports/tables)")
    p.add_argument(
        "--format",
        action="append",
        metavar="FORMATS",
        help="csv, md and/or xlsx, repeatable or comma-separated (default csv,md); "
        "xlsx writes one workbook GAME-tables.xlsx",
    )
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_tables)

    p = sub.add_parser("claims", help="check every rulebook claim; non-zero exit on a failure")
    p.add_argument("game", nargs="?")
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_claims)

    p = sub.add_parser(
        "simulate",
        help="run an experiment into the Parquet store (resumable)",
        add_help=False,
        description="Run GAME's EXPERIMENT into the store. Its own flags: mechbal simulate "
        "GAME EXPERIMENT --help.",
        epilog=listing,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", nargs="?")
    p.add_argument("experiment", nargs="?")
    _help_flag(p)
    _run_flags(p)
    p.set_defaults(func=cmd_simulate, extras_allowed=True, parser=p)

    from analysis.query_cli import add_query_parser, add_runs_parser

    add_query_parser(sub)
    add_runs_parser(sub)

    from analysis import diff, dominance, tune

    diff.add_parser(sub)  # mechbal diff GAME --base A --change B
    tune.add_parser(sub)  # mechbal tune GAME --param ... --target ...
    dominance.add_parser(sub)  # mechbal dominated GAME

    from analysis.robust_cli import add_parsers as add_robust_parsers

    add_robust_parsers(sub)  # mechbal robust GAME, mechbal readings GAME

    p = sub.add_parser(
        "report",
        help="run the default experiments and write the report "
        "(reports/index.html and a page per game)",
    )
    p.add_argument("game", nargs="?")
    p.add_argument("--out", default="reports", help="report folder (default reports)")
    p.add_argument("--store", default="data", help="the Parquet store for its runs")
    p.add_argument(
        "--n", type=int, default=64_000, help="games per default experiment (small unless told)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument(
        "--export",
        metavar="DIR",
        help="also write each page's tables as CSV and every chart as PNG and SVG into DIR/GAME/",
    )
    p.add_argument(
        "--robust-budget",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="seconds per game for a robustness pass whose tags the page prints (default 0: "
        "read back the last mechbal robust of this catalog, else say not checked)",
    )
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "explain",
        help="show the working of one resolution, e.g. one shot",
        add_help=False,
        description="Show the working of one resolution. Its own flags: mechbal explain GAME "
        "WHAT --help.",
        epilog=listing,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", nargs="?")
    p.add_argument("what", nargs="?", help="what to explain (see the games below)")
    _help_flag(p)
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_explain, extras_allowed=True, parser=p)
    return parser


def _unwritable(exc: OSError, args: argparse.Namespace | None) -> str | None:
    """The path an OSError names when it stands on the way to, or inside, a folder the
    command writes (``--out``; the report's ``--store`` too); None for any other (a bug,
    or a file read elsewhere: not worded as a user's error)."""
    if exc.filename is None or args is None:
        return None
    roots = [getattr(args, "out", None)]
    if args.command in ("report", "robust"):
        roots.append(args.store)
    path = Path(os.fsdecode(exc.filename)).absolute()
    for root in (Path(r).absolute() for r in roots if isinstance(r, str | Path)):
        if path == root or root in path.parents or path in root.parents:
            return os.fsdecode(exc.filename)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = None
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        # the games are listed only for --help: loading them all costs time
        listing = _listing() if {"-h", "--help"} & set(words) else ""
        parser = build_parser(listing)
        # simulate and explain leave the flags their game declares for a second parser
        args, extras = parser.parse_known_args(words)
        if extras and not getattr(args, "extras_allowed", False):
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
        args.extras = extras
        return args.func(args)
    except (CatalogError, InputError, UserError, QueryError) as exc:
        print(f"mechbal: error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # the reader went away (mechbal ... | head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # an unwritable --out: one line; any other OSError propagates
        path = _unwritable(exc, args)
        if path is None:
            raise
        print(f"mechbal: error: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt as exc:  # Ctrl-C: one line, the exit status of a SIGINT
        runner = sys.modules.get("sims.core.runner")  # a run interrupted has imported it
        if runner is not None and isinstance(exc, runner.Interrupted):
            print(
                f"mechbal: interrupted: {exc}; run the same command again to resume",
                file=sys.stderr,
            )
        else:
            print("mechbal: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
