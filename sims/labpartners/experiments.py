"""Mech Lab Partners experiments for ``mechbal simulate labpartners EXPERIMENT``.

``battles``: finished mechs dealt from each deck (``deal.py``: the lesson Form, the
locked slots with gaps, the spares a rebuild takes, the flipped Traits) against every
kaiju, one row per Battle. The grid's cells are deck x kaiju x policy; ``--n`` is the
total number of battles, each cell gets ceil(N / cells). The whole chunk is one engine
call (each battle is its own compiled scenario).

Row columns (one row per battle; run options such as --gap-percent are in the run's
manifest; see ``mechbal query``):
  cell            int32   the grid cell (manifest.json lists each cell's values)
  deck            str     the deck the mech was dealt from: alpha (the 70-card alpha
                          deck) or full (the 150-card full spread)
  kaiju           str     the kaiju id (catalogs/labpartners/kaiju.toml)
  policy          str     the group's Battle policy (policies.toml)
  game            int64   index of the battle within its cell
  lesson          str     the lesson Form (the top body card's Form, Assembly)
  lesson_took     bool    3+ parts of the lesson Form: the lesson took
  gaps            int8    empty slots of the locked mech (0..5)
  weak_matches    int8    parts whose Form or Type the kaiju (Traits applied) is weak
                          to, a part counted once
  resist_matches  int8    parts whose Form or Type the kaiju resists, a part counted once
  traits          str     the flipped Trait ids in flip order, comma-separated
  legs, torso, head, arm_1, arm_2  str  the card id in each slot (null for a gap)
  result          int8    0 win, 1 city (the kaiju reached the city after the last
                          round), 2 destroyed (no intact part left); the query views
                          show win, city, destroyed
  gpa             float32 the group's GPA from the grade of the outcome (grades.toml)
  rounds          int8    rounds played (the round the battle ended in)
  kaiju_hp        int16   the kaiju's HP at the start (Traits and debuff applied)
  kaiju_hp_left   int16   the kaiju's HP at the end (0 when defeated)
  parts_lost      int8    parts destroyed in the battle (a part rebuilt and destroyed
                          again counts twice)
  rebuilds        int8    rebuilds made (a turn without firing each)
  crits           int16   crits landed
  punches         int8    wimpy punches thrown
  seed            int64   the run's seed (chunk k draws SeedSequence(seed, spawn_key=(k,)))
  chunk           int32   the chunk the row came from
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core.catalog import CatalogError
from sims.core.protocol import Batch, Experiment, Option, comma_list
from sims.labpartners import battle, compiled, deal, rules, vector
from sims.labpartners.catalog import SLOTS, Catalog

DECKS = ("alpha", "full")
BATTLE_CHUNK = 5_000  # about 0.07 s a chunk (vector, dealt battles compiled as arrays)


def _known(catalog: Catalog, kind: str, names: list[str], known: Mapping[str, Any]) -> None:
    for name in names:
        if name not in known:
            raise CatalogError(f"--{kind}", f"unknown {kind.rstrip('s')} {name!r} "
                                            f"(known: {', '.join(known)})")  # fmt: skip


def battle_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every chosen deck x kaiju x policy."""
    decks = list(options.get("decks") or DECKS)
    kaiju = list(options.get("kaiju") or catalog.kaiju)
    policies = list(options.get("policy") or ["steady"])
    _known(catalog, "decks", decks, catalog.decks)
    _known(catalog, "kaiju", kaiju, catalog.kaiju)
    _known(catalog, "policy", policies, catalog.policies)
    return [{"deck": d, "kaiju": k, "policy": p} for d in decks for k in kaiju for p in policies]


def _engine(name: str) -> Any:
    # imported on use: the engines are heavy and only a chunk needs one
    return importlib.import_module(f"sims.labpartners.{name}")


def _matches(cards, foe: battle.Foe) -> tuple[int, int]:
    """(parts the foe is weak to, parts it resists) by Form or Type, a part once
    (rules.matchup: a Form or Type both weak and resisted counts as neither)."""
    weak = resist = 0
    for c in cards:
        if c is None:
            continue
        f = rules.matchup(c.form in foe.weak_forms, c.form in foe.resist_forms)
        t = rules.matchup(c.type in foe.weak_types, c.type in foe.resist_types)
        weak += f > 0 or t > 0
        resist += f < 0 or t < 0
    return weak, resist


def battle_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator,
                engine: str, gap_percent: float | None = None) -> pa.Table:  # fmt: skip
    """Deal and compile a chunk's battles (each deck's games dealt together), play them in
    one engine call, one row per battle (module docstring). The vector engine takes the
    games compiled as arrays (``compiled.py``); the reference engine compiles each game
    with ``battle.compile_battle`` (the oracle the arrays are tested against)."""
    options = batch.cells[0]
    gap = float(options.get("gap_percent", 10) if gap_percent is None else gap_percent)
    n = batch.rows
    cell_deck = np.array([c["deck"] for c in batch.cells])
    cell_kaiju = np.array([c["kaiju"] for c in batch.cells], object)
    cell_policy = np.array([c["policy"] for c in batch.cells], object)
    row_deck = cell_deck[batch.cell]
    dealt = []
    for deck in dict.fromkeys(cell_deck.tolist()):
        rows = np.flatnonzero(row_deck == deck)
        kaiju = cell_kaiju[batch.cell[rows]]
        counts = [catalog.kaiju[k].countdown for k in kaiju.tolist()]
        dealt.append((rows, kaiju, cell_policy[batch.cell[rows]],
                      deal.deal(catalog, deck, counts, rng, gap)))  # fmt: skip
    if engine == "vector":
        cols, res = _vector_battles(catalog, n, dealt, rng)
    else:
        cols, res = _compiled_battles(catalog, n, dealt, rng, engine)
    cell_numbers = np.array([c.get("cell", -1) for c in batch.cells], np.int32)
    out: dict[str, Any] = {
        "cell": cell_numbers[batch.cell],
        "deck": batch.column("deck"),
        "kaiju": batch.column("kaiju"),
        "policy": batch.column("policy"),
        "game": batch.index,
        "lesson": pa.array(cols["lesson"]).dictionary_encode(),
        "lesson_took": cols["took"],
        "gaps": cols["gaps"],
        "weak_matches": cols["weak"],
        "resist_matches": cols["resist"],
        "traits": pa.array(cols["traits"]).dictionary_encode(),
    }
    for s, slot in enumerate(SLOTS):
        out[slot] = pa.array(cols["slots"][:, s], pa.string()).dictionary_encode()
    out.update({
        "result": np.asarray(res["result"]).astype(np.int8),
        "gpa": np.asarray(res["gpa"]).astype(np.float32),
        "rounds": np.asarray(res["rounds"]).astype(np.int8),
        "kaiju_hp": cols["kaiju_hp"].astype(np.int16),
        "kaiju_hp_left": np.asarray(res["kaiju_hp_left"]).astype(np.int16),
        "parts_lost": np.asarray(res["parts_lost"]).astype(np.int8),
        "rebuilds": np.asarray(res["rebuilds"]).astype(np.int8),
        "crits": np.asarray(res["crits"]).astype(np.int16),
        "punches": np.asarray(res["punches"]).astype(np.int8),
    })  # fmt: skip
    return pa.table(out)


def _row_columns(n: int) -> dict[str, np.ndarray]:
    """The per-battle columns both paths fill (strings as object arrays, None a gap)."""
    return {
        "slots": np.full((n, len(SLOTS)), None, object),
        "lesson": np.full(n, "", object),
        "traits": np.full(n, "", object),
        "took": np.zeros(n, bool),
        "gaps": np.zeros(n, np.int8),
        "weak": np.zeros(n, np.int8),
        "resist": np.zeros(n, np.int8),
        "kaiju_hp": np.zeros(n, np.int64),
    }


def _vector_battles(catalog: Catalog, n: int, dealt: list, rng: np.random.Generator
                    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:  # fmt: skip
    """Each deck's games compiled as arrays, stacked in row order, one engine call."""
    cols = _row_columns(n)
    stacked: dict[str, np.ndarray] = {}
    for rows, kaiju, policy, d in dealt:
        comp = compiled.compile_games(catalog, d, kaiju, policy)
        for f, values in comp.stacked.items():
            if f not in stacked:
                stacked[f] = np.zeros((n, *values.shape[1:]), values.dtype)
            stacked[f][rows] = values
        present = d.slots >= 0
        ids = np.array([c.id for c in d.cards] + [None], object)  # -1 (a gap) reads None
        cols["slots"][rows] = ids[d.slots]
        cols["lesson"][rows] = np.array(d.forms, object)[d.lesson]
        cols["traits"][rows] = _trait_lists(d)
        cols["took"][rows] = comp.took
        cols["gaps"][rows] = (~present).sum(1)
        # a part once: weak (resisted) to its Form or its Type (rules.matchup; _matches)
        f, t = comp.form_matchup[:, :5], comp.type_matchup[:, :5]
        cols["weak"][rows] = (present & ((f > 0) | (t > 0))).sum(1)
        cols["resist"][rows] = (present & ((f < 0) | (t < 0))).sum(1)
        cols["kaiju_hp"][rows] = comp.stacked["kaiju_hp"]
    res = vector.play_stacked(stacked, catalog.params, catalog.grades, rng)
    return cols, res


def _trait_lists(d: deal.Dealt) -> np.ndarray:
    """Each game's flipped Trait ids in flip order, comma-separated (one join per
    distinct flip sequence)."""
    if not d.traits.shape[1]:
        return np.full(d.games, "", object)
    # each flip sequence as one number (base: the Trait deck's size + 1; -1 reads 0)
    # when that fits in int64, else the rows themselves
    base, flips = len(d.trait_ids) + 1, d.traits.shape[1]
    if flips * np.log2(base) < 62:
        key = ((d.traits.astype(np.int64) + 1) * base ** np.arange(flips)).sum(1)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(d.traits, axis=0, return_index=True, return_inverse=True)
    text = np.array([",".join(d.trait_ids[k] for k in d.traits[i] if k >= 0)
                     for i in first.tolist()], object)  # fmt: skip
    return text[inverse.reshape(-1)]


def _compiled_battles(
    catalog: Catalog, n: int, dealt: list, rng: np.random.Generator, engine: str
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Each game compiled by ``battle.compile_battle``, one engine call."""
    cols = _row_columns(n)
    battles: list[battle.Battle | None] = [None] * n
    for rows, kaiju, policy, d in dealt:
        for i, r in enumerate(rows):
            b, foe = deal.compile_game(catalog, d, i, kaiju[i], policy[i])
            cards = d.mech(i)
            battles[r] = b
            cols["slots"][r] = d.slot_ids(i)
            cols["lesson"][r] = d.lesson_of(i)
            cols["traits"][r] = ",".join(foe.traits)
            cols["took"][r] = bool(rules.lesson_took(battle.lesson_matches(cards, d.lesson_of(i)),
                                                     catalog.params))  # fmt: skip
            cols["gaps"][r] = sum(c is None for c in cards)
            cols["weak"][r], cols["resist"][r] = _matches(cards, foe)
            cols["kaiju_hp"][r] = b.kaiju_hp
    res = _engine(engine).play(battles, np.arange(n, dtype=np.int64), rng)
    return cols, res


def _chunk(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    return battle_rows(catalog, batch, rng, engine)


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a percentage 0..100, got {text!r}") from None
    if not 0 <= value <= 100:
        raise ValueError(f"expected a percentage 0..100, got {text!r}")
    return value


DECKS_OPTION = Option("decks", "decks, comma-separated: alpha, full or a deck of decks.toml "
                      "(default alpha,full)", comma_list, default="alpha,full",
                      metavar="D1,D2")  # fmt: skip
KAIJU_OPTION = Option("kaiju", "kaiju ids, comma-separated (default: every kaiju)", comma_list,
                      metavar="K1,K2,...")  # fmt: skip
POLICY_OPTION = Option("policy", "the group's Battle policies of policies.toml, "
                       "comma-separated (default steady)", comma_list, default="steady",
                       metavar="P1,P2")  # fmt: skip
GAP_OPTION = Option("gap_percent", "chance in percent that each slot is left a gap "
                    "(a late, sloppy Assembly; default 10)", _percent, default=10.0,
                    metavar="PCT")  # fmt: skip

# The codes of the outcome column, in code order: the query views show these words.
LABELS = {"result": battle.RESULTS}


def _cells_with_gap(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    # The gap chance travels in every cell (the chunk reads it); it is a run option, so the
    # views show it as the run's, not as a column of the rows.
    gap = float(options.get("gap_percent", 10.0))
    return [{**c, "gap_percent": gap} for c in battle_cells(catalog, options)]


EXPERIMENTS = {
    "battles": Experiment(
        name="battles",
        summary="finished mechs dealt from each deck (alpha, full) against every kaiju",
        schema=__doc__ or "",
        chunk_size=BATTLE_CHUNK,
        cells=_cells_with_gap,
        run_chunk=_chunk,
        labels=LABELS,
        options=(DECKS_OPTION, KAIJU_OPTION, POLICY_OPTION, GAP_OPTION),
    ),
}
