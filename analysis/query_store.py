"""Reading the Parquet store for :mod:`analysis.query`: every experiment folder with its
runs (manifest, hive layouts), and which run each one-run view shows (the current
catalog's latest finished run, or the one named by ``--run``). Also the one-line
:class:`QueryError` and SQL quoting every query module shares."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any


class QueryError(ValueError):
    """A failing query or an unreadable store, described in one line."""


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0].strip() if lines else type(exc).__name__


def ident(name: str) -> str:
    """``name`` quoted as a SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# --- reading the store -------------------------------------------------------------------


@dataclass
class _Run:
    id: str
    folder: Path
    manifest: dict[str, Any]
    layouts: set[tuple[str, ...]] = field(default_factory=set)  # hive keys, "run" first

    @property
    def finished(self) -> bool:
        return bool(self.manifest.get("complete")) and bool(self.layouts)


@dataclass
class _Experiment:
    game: str
    name: str
    path: Path
    runs: dict[str, _Run] = field(default_factory=dict)
    values: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    @property
    def layouts(self) -> set[tuple[str, ...]]:
        return {keys for run in self.runs.values() for keys in run.layouts}

    @cached_property
    def declared(self) -> tuple[Any, Any] | None:
        """(game, experiment) as the installed game declares them; None for a game or
        experiment not installed (a store from elsewhere)."""
        from sims.core.protocol import UnknownGame, get_game

        try:
            game = get_game(self.game)
        except UnknownGame:
            return None
        experiment = game.experiments.get(self.name)
        return None if experiment is None else (game, experiment)


def _load_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise QueryError(f"{path}: unreadable manifest: {_one_line(exc)}") from None
    if not isinstance(data, dict):
        raise QueryError(f"{path}: unreadable manifest: expected a JSON object")
    return data


def _scan(store: Path) -> list[_Experiment]:
    """Every experiment folder of ``store`` with its runs (manifest, hive layouts)."""
    if not store.exists():
        raise QueryError(
            f"no store at {store}: nothing simulated there yet (run mechbal "
            f"simulate GAME EXPERIMENT, or give --store DIR)"
        )
    if not store.is_dir():
        raise QueryError(f"store {store} is not a folder")

    def folders(path: Path) -> list[Path]:  # hidden ones (.ipynb_checkpoints) are not games
        return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))

    experiments: list[_Experiment] = []
    for game_dir in folders(store):
        for exp_dir in folders(game_dir):
            exp = _Experiment(game_dir.name, exp_dir.name, exp_dir)
            for folder in sorted(p for p in exp_dir.glob("run=*") if p.is_dir()):
                run_id = folder.name.removeprefix("run=")
                path = folder / "manifest.json"
                manifest = _load_manifest(path) if path.is_file() else {}
                run = exp.runs[run_id] = _Run(run_id, folder, manifest)
                # Only names ending in .parquet are complete chunks (.partial is in flight).
                for chunk in folder.rglob("*.parquet"):
                    if not chunk.is_file():
                        continue
                    pairs = [
                        part.split("=", 1)
                        for part in chunk.relative_to(exp_dir).parent.parts
                        if "=" in part
                    ]  # starts with ("run", <id>)
                    run.layouts.add(tuple(key for key, _ in pairs))
                    for key, value in pairs:
                        exp.values[key].add(value)
            if exp.runs:
                experiments.append(exp)
    return experiments


# --- which run a view shows ---------------------------------------------------------------


@dataclass(frozen=True)
class Current:
    """What "the current catalog" is for the one-run views: the catalog folder (None:
    compare with nothing, each view shows its experiment's latest finished run) and the
    ``--set`` values a run must have been made with (none: the catalog as it stands)."""

    catalog: Path | None = Path("catalogs")
    sets: Mapping[str, Any] = field(default_factory=dict)


def _current_hash(exp: _Experiment, current: Current) -> tuple[str | None, str | None]:
    """(catalog hash, rules version) a run of ``exp`` made now would record, or Nones
    when there is nothing to compare with (no catalog, a game or experiment not known)."""
    from sims.core.runner import current_catalog_hash

    if current.catalog is None or not (current.catalog / exp.game).is_dir():
        return None, None
    if exp.declared is None:
        return None, None
    game, experiment = exp.declared
    return current_catalog_hash(game, experiment, current.catalog), game.rules_version


def _choose(
    exp: _Experiment, current: Current, pinned: set[str]
) -> tuple[str | None, set[str], str]:
    """(the run the experiment's view shows, the runs of the current catalog, why)."""
    named = [r for r in exp.runs if r in pinned]
    want, rules = _current_hash(exp, current)
    sets = dict(current.sets)
    matching = {
        run.id
        for run in exp.runs.values()
        if want is not None
        and run.manifest.get("catalog_hash") == want
        and run.manifest.get("rules_version") == rules
        and (run.manifest.get("set") or {}) == sets
    }
    if named:
        return named[0], matching, "named by --run"
    finished = sorted(
        (r for r in exp.runs.values() if r.finished),
        key=lambda r: (str(r.manifest.get("finished") or ""), r.id),
    )
    if want is None:
        why = (
            "latest finished run (no catalog to compare with)"
            if current.catalog is None
            else f"latest finished run (no {exp.game} catalog or experiment in "
            f"{current.catalog} to compare with)"
        )
        return (finished[-1].id if finished else None), matching, why
    chosen = [r for r in finished if r.id in matching]
    if chosen:
        what = "the current catalog" + (f" with {_sets_text(sets)}" if sets else "")
        return chosen[-1].id, matching, f"latest finished run of {what}"
    others = len(finished)
    return (
        None,
        matching,
        (
            f"no finished run of the current catalog in {current.catalog}"
            + (f" with {_sets_text(sets)}" if sets else "")
            + (
                f" ({others} of other catalogs or settings: name one with --run ID)"
                if others
                else ""
            )
        ),
    )


def _sets_text(sets: Mapping[str, Any]) -> str:
    return ", ".join(f"--set {k}={v}" for k, v in sorted(sets.items()))


def _pinned(experiments: list[_Experiment], runs: Sequence[str]) -> set[str]:
    """Full run ids for ``--run`` values (a unique prefix is enough), one per experiment."""
    out: set[str] = set()
    owner: dict[tuple[str, str], str] = {}
    everything = [(exp, run_id) for exp in experiments for run_id in exp.runs]
    for given in runs:
        found = [(exp, r) for exp, r in everything if r.startswith(given)]
        if not found:
            raise QueryError(f"--run {given}: no such run in the store (mechbal runs lists them)")
        if len(found) > 1:
            raise QueryError(f"--run {given}: {len(found)} runs start so; give more of the id")
        exp, run_id = found[0]
        key = (exp.game, exp.name)
        if key in owner and owner[key] != run_id:
            raise QueryError(
                f"--run {given}: {exp.game} {exp.name} already shows run "
                f"{owner[key]} (one run per view; its _all view holds all)"
            )
        owner[key] = run_id
        out.add(run_id)
    return out
