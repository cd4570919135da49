"""``mechbal robust GAME`` and ``mechbal readings GAME``: the command line of
:mod:`analysis.robust` and :mod:`sims.core.readings`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from analysis.args import UserError, _assignments, _catalog_and_set_flags, _catalog_flag
from analysis.verdicts import VARIANT_KINDS


def cmd_robust(args: argparse.Namespace) -> int:
    from analysis.robust import robust, write
    from sims.core.protocol import get_game

    get_game(args.game)
    sets = _assignments(args.set, "--set")
    if args.n < 1 or args.jobs < 1:
        raise UserError("--n and --jobs must be at least 1")
    if args.budget is not None and args.budget < 0:
        raise UserError("--budget must be 0 or more seconds")
    kinds = _kinds(args.only)
    result = robust(
        args.game,
        catalog_root=Path(args.catalog),
        store=Path(args.store),
        n=args.n,
        seed=args.seed,
        sets=sets,
        budget=args.budget,
        jobs=args.jobs,
        draws=args.draws,
        kinds=kinds,
        progress=None,
        announce="robust",
    )
    paths = write(result, Path(args.out))
    width = max((len(t.claim) for t in result.tags), default=10)
    for t in result.tags:
        print(f"{t.claim.ljust(width)}  {t.status:<11}  {t.words}")
    counts = {
        s: sum(t.status == s for t in result.tags)
        for s in ("robust", "fragile", "unconfirmed", "unchecked")
    }
    summary = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
    print(
        f"{len(result.tags)} verdicts ({summary or 'none'}); {len(result.variants)} variants; "
        f"{result.seconds:.0f} s; page: {paths['page']}"
    )
    return 0


def _kinds(only: str | None) -> tuple[str, ...]:
    if not only:
        return VARIANT_KINDS
    kinds = tuple(k.strip() for k in only.split(",") if k.strip())
    bad = [k for k in kinds if k not in VARIANT_KINDS]
    if bad:
        raise UserError(f"--only {bad[0]!r}: not one of {', '.join(VARIANT_KINDS)}")
    return kinds


def cmd_readings(args: argparse.Namespace) -> int:
    from sims.core import readings as rd
    from sims.core.protocol import get_game

    game = get_game(args.game)
    root = Path(args.catalog)
    readings = rd.load(root, game.name)
    if not readings.readings:
        raise UserError(f"{readings.path}: no readings (the file is missing or empty)")
    if args.write:
        changed = rd.write_assumptions(readings, root / game.name / "ASSUMPTIONS.md")
        print(
            ("rewrote" if changed else "unchanged:")
            + f" the readings section of {root / game.name / 'ASSUMPTIONS.md'}"
        )
        return 0
    switchable = [r for r in readings.readings if r.switchable]
    print(
        f"{game.title}: {len(readings.readings)} readings, {len(switchable)} switchable ({readings.path})"
    )
    for r in readings.readings:
        if r.switchable:
            alts = ", ".join(str(a) for a in r.alternatives)
            print(f"  {r.id}: {r.title} [--set {r.parameter}={r.taken}; alternatives: {alts}]")
        else:
            print(f"  {r.id}: {r.title} [no alternative: {r.reason}]")
    problems = rd.problems(readings, game.load_catalog, root)
    for p in problems:
        print(f"problem: {p}")
    return 1 if problems else 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "robust",
        help="rerun each headline verdict under every reading, policy, seat and placeholder "
        "draw: robust or fragile (OUT/robust-GAME.html)",
        description="Each headline verdict of GAME's page (flags, best and worst choices, gaps) "
        "rerun with common random numbers under both seats, every alternative reading "
        "(readings.toml), every shipped policy and Latin-hypercube draws of the assumed "
        "catalog values, and tagged robust, fragile (naming what flips it) or unconfirmed "
        "(the budget ran out). Resumable: rerun the same command to go on.",
    )
    p.add_argument("game")
    p.add_argument("--n", type=int, default=16_000, help="games per run (default 16000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--budget",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="start no rerun after this many seconds (default 300); the rest is reported "
        "as not checked",
    )
    p.add_argument("--draws", type=int, help="placeholder draws (default: readings.toml's)")
    p.add_argument(
        "--only",
        metavar="KINDS",
        help=f"variant kinds to run, comma-separated ({', '.join(VARIANT_KINDS)})",
    )
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--store", default="data", help="the Parquet store for its runs")
    p.add_argument("--out", default="reports", help="report folder (default reports)")
    _catalog_and_set_flags(p)
    p.set_defaults(func=cmd_robust)

    p = sub.add_parser(
        "readings",
        help="list a game's readings of silent rules (readings.toml) and check them; "
        "--write regenerates ASSUMPTIONS.md's readings section",
    )
    p.add_argument("game")
    p.add_argument("--write", action="store_true", help="rewrite ASSUMPTIONS.md's readings section")
    _catalog_flag(p)
    p.set_defaults(func=cmd_readings)
