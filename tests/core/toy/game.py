"""Coin Duel, the toy game of the core tests: its rules, catalog, exact table, claims,
engines and experiment (what ``sims/<game>/`` holds for a real game).

Rules: two fighters; every round each rolls its die and flips a coin (heads adds
``coin_bonus``); the higher total takes 1 HP from the other, a tie nothing. A fighter at
0 HP loses; after ``round_cap`` rounds the one with more HP wins, equal HP is a draw.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

from sims.core.catalog import (
    CatalogError,
    FieldSpec,
    apply_overrides,
    check_entry,
    entries,
    load_toml,
)
from sims.core.dist import Dist, exact_frame, fraction_str
from sims.core.engine import check_batch
from sims.core.params import load_params, param
from sims.core.protocol import (
    SIDES,
    Batch,
    Column,
    Engines,
    Experiment,
    Explain,
    Game,
    InputError,
    Option,
    Pivot,
    Table,
    columns,
    comma_list,
    per,
)
from sims.core.targets import (
    Estimate,
    Target,
    exact_estimates,
    score_target,
)

ROUND_OF = {1: 0, -1: 1, 0: 2}  # sign of a - b -> winner code (0 A, 1 B, 2 draw)


# ---- catalog and rules -------------------------------------------------------------------


@dataclass(frozen=True)
class Parameters:
    round_cap: int = param("rounds before more HP wins", "1", low=1, high=20)
    coin_bonus: int = param("added to the die on heads", "1", low=0, high=3)
    # a reading planted for the robustness tests: whether a fighter's HP is its own
    hp_rule: str = param(
        "each fighter's own HP (catalog) or 3 HP for everyone (equal)",
        "1",
        choices=("catalog", "equal"),
    )


@dataclass(frozen=True)
class Fighter:
    id: str
    die: int
    hp: int


@dataclass(frozen=True)
class Catalog:
    root: Path
    fighters: dict[str, Fighter]
    params: Parameters
    param_provenance: dict[str, str]
    overrides: tuple[tuple[str, Any], ...] = ()


KIND_FILES = {"fighter": "fighters.toml"}


def load_catalog(root: Path | str, overrides: Mapping[str, Any] | None = None) -> Catalog:
    folder = Path(root) / "toy"
    if not folder.is_dir():
        raise CatalogError(folder, "catalog folder not found")
    docs = {name: load_toml(folder / name) for name in ("rules.toml", "fighters.toml")}
    apply_overrides(docs, overrides or {}, KIND_FILES, "rules.toml")
    params, provenance = load_params(Parameters, folder / "rules.toml", docs["rules.toml"])
    specs = [FieldSpec("die", "int", min=2, max=20), FieldSpec("hp", "int", min=1, max=9)]
    path = folder / "fighters.toml"
    fighters = {}
    for raw in entries(docs["fighters.toml"], "fighter", path):
        e = check_entry(raw, specs, path, "fighter")
        fighters[e["id"]] = Fighter(e["id"], e["die"], e["hp"])
    return Catalog(folder, fighters, params, provenance, tuple(sorted((overrides or {}).items())))


def total(roll, heads, bonus):
    """A fighter's total in a round (ints or arrays alike)."""
    return roll + bonus * heads


# ---- exact -------------------------------------------------------------------------------


def totals(die: int, bonus: int) -> Dist:
    return Dist.die(die) + Dist.bernoulli(Fraction(1, 2)).map(lambda h: bonus * h)


def p_round(catalog: Catalog, a: str, b: str) -> Fraction:
    """P(a's total beats b's) in one round."""
    bonus = catalog.params.coin_bonus
    diff = totals(catalog.fighters[a].die, bonus) - totals(catalog.fighters[b].die, bonus)
    return diff.p(lambda d: d > 0)


def exact(catalog: Catalog) -> dict[str, pl.DataFrame]:
    rows = []
    for a in catalog.fighters:
        for b in catalog.fighters:
            p_a, p_b = p_round(catalog, a, b), p_round(catalog, b, a)
            rows.append({"a": a, "b": b, "p_a": p_a, "p_tie": 1 - p_a - p_b})
    return {"round": exact_frame(rows, ["p_a", "p_tie"])}


TABLES = (
    Table(
        "round",
        "One round: P(a's die plus coin beats b's), and a tie.",
        columns(("a", "id"), ("b", "id"), ("p_a", "probability"), ("p_tie", "probability")),
        Pivot((), "a", "b", lambda row: row["p_a"], note="Each cell: P(a wins the round)."),
    ),
)


def explain_round(catalog: Catalog, a: str, b: str) -> str:
    for name in (a, b):
        if name not in catalog.fighters:
            raise InputError(f"unknown fighter {name!r} (known: {', '.join(catalog.fighters)})")
    return f"P({a} wins a round against {b}) = {fraction_str(p_round(catalog, a, b))}"


# ---- engines -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Duel:
    params: Parameters
    die: np.ndarray  # int16[2]  each side's die
    hp: np.ndarray  # int16[2]


EQUAL_HP = 3  # hp_rule = equal


def compile_duel(catalog: Catalog, a: str, b: str) -> Duel:
    f = catalog.fighters
    hp = [EQUAL_HP, EQUAL_HP] if catalog.params.hp_rule == "equal" else [f[a].hp, f[b].hp]
    return Duel(catalog.params, np.array([f[a].die, f[b].die]), np.array(hp))


def batch_key(duel: Duel) -> Any:
    return duel.params


def play_reference(
    duels: Sequence[Duel], scenario_ids: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    scenario, p = check_batch(duels, scenario_ids, batch_key), duels[0].params
    n = len(scenario)
    out = {
        "winner": np.zeros(n, np.int8),
        "rounds": np.zeros(n, np.int8),
        "hp": np.zeros((n, 2), np.int16),
    }
    for i, s in enumerate(scenario):
        d = duels[s]
        hp = [int(d.hp[0]), int(d.hp[1])]
        rounds = 0
        while rounds < p.round_cap and min(hp) > 0:
            rounds += 1
            ta = total(int(rng.integers(1, d.die[0] + 1)), int(rng.integers(0, 2)), p.coin_bonus)
            tb = total(int(rng.integers(1, d.die[1] + 1)), int(rng.integers(0, 2)), p.coin_bonus)
            if ta != tb:
                hp[1 if ta > tb else 0] -= 1
        out["winner"][i] = ROUND_OF[(hp[0] > hp[1]) - (hp[0] < hp[1])]
        out["rounds"][i], out["hp"][i] = rounds, hp
    return out


def play_vector(
    duels: Sequence[Duel], scenario_ids: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    scenario, p = check_batch(duels, scenario_ids, batch_key), duels[0].params
    die = np.stack([d.die for d in duels])[scenario]  # [N, 2] gathered by scenario id
    hp = np.stack([d.hp for d in duels])[scenario].astype(np.int16)
    rounds = np.zeros(len(scenario), np.int8)
    for _ in range(p.round_cap):
        live = np.flatnonzero(hp.min(axis=1) > 0)
        if not len(live):
            break
        rounds[live] += 1
        t = total(rng.integers(1, die[live] + 1), rng.integers(0, 2, (len(live), 2)), p.coin_bonus)
        hp[live, 1] -= t[:, 0] > t[:, 1]
        hp[live, 0] -= t[:, 1] > t[:, 0]
    winner = np.vectorize(ROUND_OF.get, otypes=[np.int8])(np.sign(hp[:, 0] - hp[:, 1])).astype(
        np.int8
    )
    return {"winner": winner, "rounds": rounds, "hp": hp}


def metrics(res: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    score = np.where(res["winner"] == 0, 1.0, np.where(res["winner"] == 2, 0.5, 0.0))
    return {
        "score_a": score,
        "rounds": res["rounds"].astype(float),
        "hp_a": res["hp"][:, 0].astype(float),
        "hp_b": res["hp"][:, 1].astype(float),
    }


def scenarios(catalog: Catalog) -> list[tuple[str, Duel]]:
    return [
        (f"{a} v {b}", compile_duel(catalog, a, b))
        for a, b in (("pawn", "knave"), ("brute", "pawn"), ("knave", "knave"))
    ]


# ---- what mechbal tune can aim at ---------------------------------------------------------


def _pairs(catalog: Catalog) -> dict[str, list[str]]:
    return {"fighter": list(catalog.fighters), "opponent": list(catalog.fighters)}


def round_target(
    catalog: Catalog, filters: Mapping[str, str], n: int, seed: int, jobs: int, store: Path
) -> list[Estimate]:
    return exact_estimates(
        filters, _pairs(catalog), lambda fighter, opponent: p_round(catalog, fighter, opponent)
    )


TARGETS = {
    "p_round": Target(
        "P(the fighter's total beats the opponent's) in one round. Exact.",
        ("fighter", "opponent"),
        True,
        _pairs,
        round_target,
    ),
    "win_rate": score_target(
        "toy",
        "bout",
        "side",
        "fighters",
        ("fighter", "opponent"),
        lambda catalog: catalog.fighters,
        "The fighter's score (win 1, draw 1/2) against the opponent in the "
        "bout experiment, either seat; opponent omitted: every other fighter. "
        "Simulated.",
    ),
}


# ---- the experiment ----------------------------------------------------------------------

DOC = "``bout``: every fighter against every fighter, both seats, mirrors included."
COLUMNS = (
    Column("cell", "id", "the grid cell", pa.int32()),
    per(SIDES, Column("side_<side>", "id", "fighter ids", pa.dictionary(pa.int32(), pa.string()))),
    Column("game", "id", "the game's number within its cell", pa.int64()),
    Column("winner", "label", "the side that won, or a draw", pa.int8(), ("a", "b", "draw")),
    Column("rounds", "count", "rounds played", pa.int8()),
    per(SIDES, Column("hp_<side>", "count", "HP left", pa.int16())),
)


def seconds(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise ValueError(f"expected seconds (0 or more), got {text!r}")
    return value


def duel_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    names = options.get("fighters") or list(catalog.fighters)
    for name in names:
        if name not in catalog.fighters:
            raise CatalogError("--fighters", f"unknown fighter {name!r}")
    # --delay reaches the chunks through their cells (not a row column)
    delay = {"delay": options["delay"]} if options.get("delay") else {}
    return [{"side_a": a, "side_b": b, **delay} for a in names for b in names]


def duel_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    duels = [compile_duel(catalog, c["side_a"], c["side_b"]) for c in batch.cells]
    time.sleep(max(c.get("delay", 0) for c in batch.cells))  # slow chunks for the tests
    play = play_vector if engine == "vector" else play_reference
    res = play(duels, batch.cell, rng)
    return pa.table(
        {
            "cell": np.array([c["cell"] for c in batch.cells], np.int32)[batch.cell],
            "side_a": batch.column("side_a"),
            "side_b": batch.column("side_b"),
            "game": batch.index,
            "winner": res["winner"],
            "rounds": res["rounds"],
            "hp_a": res["hp"][:, 0],
            "hp_b": res["hp"][:, 1],
        }
    )


GAME = Game(
    name="toy",
    title="Coin Duel",
    rulebook="tests/core/toy/__init__.py",
    load_catalog=load_catalog,
    tables=TABLES,
    exact=exact,
    checks={"p_round": p_round, "die": lambda catalog, fighter: catalog.fighters[fighter].die},
    rules_version="toy-1",
    kind_files=KIND_FILES,
    engines=Engines(
        scenarios,
        play_reference,
        play_vector,
        metrics,
        batch_key,
        "toy-ref-1",
        "toy-vec-1",
        play_dice=None,  # both engines draw straight from the Generator, in other orders
    ),
    experiments={
        "bout": Experiment(
            "bout",
            "every fighter against every fighter",
            DOC,
            1_000,
            duel_cells,
            duel_rows,
            options=(
                Option("fighters", "fighter ids, comma-separated", comma_list),
                Option(
                    "delay",
                    "seconds each chunk sleeps (tests of interruptions)",
                    seconds,
                    metavar="SECONDS",
                ),
            ),
            columns=COLUMNS,
        )
    },
    explain={
        "round": Explain(
            "round",
            "one round's odds",
            (
                Option("a", "first fighter", required=True),
                Option("b", "second fighter", required=True),
            ),
            explain_round,
        )
    },
    targets=TARGETS,
    vocabulary=("toy", "coin", "fighter", "fighters", "pawn", "knave", "brute"),
)
