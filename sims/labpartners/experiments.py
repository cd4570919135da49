"""Mech Lab Partners experiments for ``mechbal simulate labpartners EXPERIMENT``.

``battles``: finished mechs dealt from each deck (``game/dealt_mechs.py``: the lesson
Form, the locked slots with gaps, the spares a rebuild takes, the flipped Traits) against
every kaiju, one row per Battle. The grid's cells are deck x kaiju x policy; ``--n`` is the
total number of battles, each cell gets ceil(N / cells). The whole chunk is one engine
call (each battle is its own compiled scenario).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core.catalog import CatalogError
from sims.core.protocol import (
    TEXT,
    Batch,
    Column,
    Each,
    Experiment,
    Option,
    comma_list,
    per,
    whole_number,
)
from sims.labpartners import battle, rules, vector
from sims.labpartners.catalog import SLOTS, Catalog, Deck
from sims.labpartners.game import random_setup
from sims.labpartners.game.dealt_mechs import deal, trait_lists
from sims.labpartners.game.decks import alpha_list_deck, alpha_samples, read_alpha_list
from sims.labpartners.game.play import play_games
from sims.labpartners.game.reference.battles import compile_game, part_matches
from sims.labpartners.game.vector.battles import compile_games, compiled_matches
from sims.labpartners.params import MODES

DECKS = ("alpha", "full")
BATTLE_CHUNK = 5_000  # about 0.07 s a chunk (vector, dealt battles compiled as arrays)


def _known(catalog: Catalog, kind: str, names: list[str], known: Mapping[str, Any]) -> None:
    for name in names:
        if name not in known:
            raise CatalogError(
                f"--{kind}", f"unknown {kind.rstrip('s')} {name!r} (known: {', '.join(known)})"
            )


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


def battle_rows(
    catalog: Catalog,
    batch: Batch,
    rng: np.random.Generator,
    engine: str,
    gap_percent: float | None = None,
) -> pa.Table:
    """Deal and compile a chunk's battles (each deck's games dealt together), play them in
    one engine call, one row per battle (module docstring). The vector engine takes the
    games compiled as arrays (``game/vector/battles.py``); the reference engine compiles
    each game with ``battle.compile_battle`` (the oracle the arrays are tested against)."""
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
        dealt.append(
            (rows, kaiju, cell_policy[batch.cell[rows]], deal(catalog, deck, counts, rng, gap))
        )
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
    out.update(
        {
            "result": np.asarray(res["result"]).astype(np.int8),
            "gpa": np.asarray(res["gpa"]).astype(np.float32),
            "rounds": np.asarray(res["rounds"]).astype(np.int8),
            "kaiju_hp": cols["kaiju_hp"].astype(np.int16),
            "kaiju_hp_left": np.asarray(res["kaiju_hp_left"]).astype(np.int16),
            "parts_lost": np.asarray(res["parts_lost"]).astype(np.int8),
            "rebuilds": np.asarray(res["rebuilds"]).astype(np.int8),
            "crits": np.asarray(res["crits"]).astype(np.int16),
            "punches": np.asarray(res["punches"]).astype(np.int8),
        }
    )
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


def _vector_battles(
    catalog: Catalog, n: int, dealt: list, rng: np.random.Generator
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Each deck's games compiled as arrays, stacked in row order, one engine call."""
    cols = _row_columns(n)
    stacked: dict[str, np.ndarray] = {}
    for rows, kaiju, policy, d in dealt:
        comp = compile_games(catalog, d, kaiju, policy)
        for f, values in comp.stacked.items():
            if f not in stacked:
                stacked[f] = np.zeros((n, *values.shape[1:]), values.dtype)
            stacked[f][rows] = values
        present = d.slots >= 0
        ids = np.array([c.id for c in d.cards] + [None], object)  # -1 (a gap) reads None
        cols["slots"][rows] = ids[d.slots]
        cols["lesson"][rows] = np.array(d.forms, object)[d.lesson]
        cols["traits"][rows] = trait_lists(d)
        cols["took"][rows] = comp.took
        cols["gaps"][rows] = (~present).sum(1)
        cols["weak"][rows], cols["resist"][rows] = compiled_matches(comp, present)
        cols["kaiju_hp"][rows] = comp.stacked["kaiju_hp"]
    res = vector.play_stacked(stacked, catalog.params, catalog.grades, rng)
    return cols, res


def _compiled_battles(
    catalog: Catalog, n: int, dealt: list, rng: np.random.Generator, engine: str
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Each game compiled by ``battle.compile_battle``, one engine call."""
    cols = _row_columns(n)
    battles: list[battle.Battle | None] = [None] * n
    for rows, kaiju, policy, d in dealt:
        for i, r in enumerate(rows):
            b, foe = compile_game(catalog, d, i, kaiju[i], policy[i])
            cards = d.mech(i)
            battles[r] = b
            cols["slots"][r] = d.slot_ids(i)
            cols["lesson"][r] = d.lesson_of(i)
            cols["traits"][r] = ",".join(foe.traits)
            cols["took"][r] = bool(
                rules.lesson_took(battle.lesson_matches(cards, d.lesson_of(i)), catalog.params)
            )
            cols["gaps"][r] = sum(c is None for c in cards)
            cols["weak"][r], cols["resist"][r] = part_matches(cards, foe)
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


DECKS_OPTION = Option(
    "decks",
    "decks, comma-separated: alpha, full or a deck of decks.toml (default alpha,full)",
    comma_list,
    default="alpha,full",
    metavar="D1,D2",
)
KAIJU_OPTION = Option(
    "kaiju", "kaiju ids, comma-separated (default: every kaiju)", comma_list, metavar="K1,K2,..."
)
POLICY_OPTION = Option(
    "policy",
    "the group's Battle policies of policies.toml, comma-separated (default steady)",
    comma_list,
    default="steady",
    metavar="P1,P2",
)
GAP_OPTION = Option(
    "gap_percent",
    "chance in percent that each slot is left a gap (a late, sloppy Assembly; default 10)",
    _percent,
    default=10.0,
    metavar="PCT",
)


def _cell_column() -> Column:
    return Column(
        "cell", "id", "the grid cell (manifest.json lists each cell's values)", pa.int32()
    )


def _mech_columns(parts: str) -> tuple[Column, ...]:
    """The dealt or locked mech: ``parts`` says which parts count."""
    return (
        Column("lesson", "id", "the lesson Form (the top body card's Form, Assembly)", TEXT),
        Column(
            "lesson_took",
            "probability",
            f"3+ {parts} of the lesson Form: the lesson took",
            pa.bool_(),
        ),
        Column("gaps", "count", "empty slots of the locked mech (0..5)", pa.int8()),
        Column(
            "weak_matches",
            "count",
            f"{parts} whose Form or Type the kaiju (Traits applied) is weak to, a part "
            "counted once",
            pa.int8(),
        ),
        Column(
            "resist_matches",
            "count",
            f"{parts} whose Form or Type the kaiju resists, a part counted once",
            pa.int8(),
        ),
    )


TRAITS = Column("traits", "id", "the flipped Trait ids in flip order, comma-separated", TEXT)
SLOT_COLUMNS = tuple(
    Column(slot, "id", f"the card id in the {slot} slot (null for a gap)", TEXT) for slot in SLOTS
)
# The Battle's outcome (battle.py), the same in both experiments.
BATTLE_COLUMNS = (
    Column(
        "result",
        "label",
        "how the battle ended: won, the kaiju reached the city after the last round, or the "
        "mech destroyed (no intact part left)",
        pa.int8(),
        rules.RESULTS,
    ),
    Column(
        "gpa",
        "expectation",
        "the group's GPA from the grade of the outcome (grades.toml)",
        pa.float32(),
    ),
    Column("rounds", "count", "Battle rounds played (the round the battle ended in)", pa.int8()),
    Column(
        "kaiju_hp", "count", "the kaiju's HP at the start (Traits and debuff applied)", pa.int16()
    ),
    Column("kaiju_hp_left", "count", "the kaiju's HP at the end (0 when defeated)", pa.int16()),
    Column(
        "parts_lost",
        "count",
        "parts destroyed in the battle (a part rebuilt and destroyed again counts twice)",
        pa.int8(),
    ),
    Column("rebuilds", "count", "rebuilds made (a turn without firing each)", pa.int8()),
    Column("crits", "count", "crits landed", pa.int16()),
    Column("punches", "count", "wimpy punches thrown", pa.int8()),
)
BATTLES_COLUMNS = (
    _cell_column(),
    Column(
        "deck",
        "id",
        "the deck the mech was dealt from: alpha (the 70-card alpha deck) or full (the "
        "150-card full spread)",
        TEXT,
    ),
    Column("kaiju", "id", "the kaiju id (catalogs/labpartners/kaiju.toml)", TEXT),
    Column("policy", "id", "the group's Battle policy (policies.toml)", TEXT),
    Column("game", "id", "index of the battle within its cell", pa.int64()),
    *_mech_columns("parts"),
    TRAITS,
    *SLOT_COLUMNS,
    *BATTLE_COLUMNS,
)


def _cells_with_gap(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    # The gap chance travels in every cell (the chunk reads it); it is a run option, so the
    # views show it as the run's, not as a column of the rows.
    gap = float(options.get("gap_percent", 10.0))
    return [{**c, "gap_percent": gap} for c in battle_cells(catalog, options)]


# ---- full-spread-vs-alpha: whole games, every game with every deck ----------------------

GAMES_DOC = """\
``full-spread-vs-alpha``: whole games (game/play.py: Assembly played by the seats' player
policies, the Battle of the locked mech, then the grades), every game played with every
deck on the same random setup (common random numbers: one random_setup.Shuffle per chunk
read by every deck, the Battle's dice from identically seeded generators). The grid's cells
are kaiju x players; ``--n`` is the total number of games, each cell gets ceil(N / cells)
and every game writes one row per deck (--decks, then the --alpha-samples decks
alpha-sample-1..K: the alpha's count of each Part-Type drawn from the full spread; their
card lists are in the run's manifest notes). ``--alpha-list FILE`` plays a designer's
alpha list as the deck ``alpha`` in place of the catalog's.
"""

# games a chunk (each written once per deck): about 0.5 s with the vector engine and two
# decks, each more deck about 0.25 s more
GAMES_CHUNK = 10_000
MAX_SEATS = 5  # Setup: 2..5 cadets at one build station
PLAYER_COUNTS = (2, 3, 4, 5)
SEAT_KEYS = ("study", "study_done", "seat_gpa")  # play_games' per-seat arrays


def _players(text: str) -> list[int]:
    counts = []
    for item in comma_list(text):
        if not item.isdigit() or not 2 <= int(item) <= MAX_SEATS:
            raise ValueError(f"expected player counts 2..{MAX_SEATS}, got {item!r}")
        counts.append(int(item))
    return counts


def _mode(text: str) -> str:
    if text not in MODES:
        raise ValueError(f"expected {' or '.join(MODES)}, got {text!r}")
    return text


def seating(seats: list[str], players: int) -> list[str]:
    """The player policy of each seat: ``seats`` cycled over ``players`` seats."""
    return [seats[k % len(seats)] for k in range(players)]


def game_cells(catalog: Catalog, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every chosen kaiju x player count; the run's options travel in every cell (the
    chunk reads them), the seating as the row column shows it."""
    decks = list(options.get("decks") or DECKS)
    kaiju = list(options.get("kaiju") or catalog.kaiju)
    counts = list(options.get("players") or PLAYER_COUNTS)
    seats = list(options.get("seats") or ["builder", "seeker"])
    policy = options.get("policy") or "steady"
    samples = int(options.get("alpha_samples") or 0)
    _known(catalog, "decks", decks, catalog.decks)
    _known(catalog, "kaiju", kaiju, catalog.kaiju)
    _known(catalog, "seats", seats, catalog.players)
    _known(catalog, "policy", [policy], catalog.policies)
    if samples and "alpha" not in catalog.decks:
        raise CatalogError("--alpha-samples", "the catalog has no alpha deck to sample like")
    listed = options.get("alpha_list")
    if listed:
        if "alpha" not in decks:
            raise CatalogError(
                "--alpha-list", "it replaces the alpha deck, which --decks leaves out"
            )
        alpha_list_deck(catalog, listed)  # checked before anything is written
    run = {
        "mode": options.get("mode") or "standalone",
        "policy": policy,
        "decks": decks,
        "alpha_samples": samples,
        "sample_seed": int(options.get("sample_seed") or 0),
    }
    if listed:  # only when given: the cells of a run without it stay as they were
        run["alpha_list"] = listed
    return [
        {"kaiju": k, "players": n, "seats": ",".join(seating(seats, n)), **run}
        for k in kaiju
        for n in counts
    ]


def chunk_decks(catalog: Catalog, options: Mapping[str, Any]) -> list[Deck]:
    """The decks every game is played with: the listed ones, then the alpha samples."""
    listed = [
        alpha_list_deck(catalog, options["alpha_list"])
        if d == "alpha" and options.get("alpha_list")
        else catalog.deck(d)
        for d in options["decks"]
    ]
    return listed + alpha_samples(catalog, options["alpha_samples"], options["sample_seed"])


def _sample_notes(catalog: Catalog, options: Mapping[str, Any]) -> dict[str, Any]:
    """The sampled alphas' card lists, and the designer's alpha list when given (the
    report reads the alpha's exact draw odds from it)."""
    out: dict[str, Any] = {}
    if options.get("alpha_list"):
        out["alpha_list"] = dict(options["alpha_list"])
    samples = int(options.get("alpha_samples") or 0)
    if not samples:
        return out
    decks = alpha_samples(catalog, samples, int(options.get("sample_seed") or 0))
    return {**out, "alpha_samples": {d.id: [c.id for c in d.cards] for d in decks}}


def _strings(values: np.ndarray) -> pa.Array:
    return pa.array(values, pa.string()).dictionary_encode()


def game_rows(catalog: Catalog, batch: Batch, rng: np.random.Generator, engine: str) -> pa.Table:
    """One chunk: G games (one Shuffle), each played with every deck; the Battle's dice
    of each deck from ``default_rng(bseed)`` (GAMES_DOC)."""
    options = batch.cells[0]
    decks = chunk_decks(catalog, options)
    G = batch.rows
    setup = random_setup.shuffle(catalog, G, rng)
    bseed = int(rng.integers(2**63))
    kaiju = np.array([c["kaiju"] for c in batch.cells], object)[batch.cell]
    seating_of = np.array([c["seats"] for c in batch.cells], object)[batch.cell]
    table = np.array([len(c["seats"].split(",")) for c in batch.cells])[batch.cell]
    # one Assembly call per seating (its kaiju vary game by game), in order of appearance
    groups = [
        (text.split(","), np.flatnonzero(seating_of == text))
        for text in dict.fromkeys(seating_of.tolist())
    ]
    cards = np.array([*catalog.cards, None], object)  # -1 (a gap) reads None
    forms, studies = np.array(list(catalog.forms), object), np.array(list(catalog.studies))
    policies = np.array(list(catalog.policies), object)
    cell_numbers = np.array([c.get("cell", -1) for c in batch.cells], np.int32)
    common = {
        "cell": pa.array(cell_numbers[batch.cell]),
        "game": pa.array(batch.index),
    }
    per_cell = {
        "kaiju": batch.column("kaiju"),
        "players": pa.array(table.astype(np.int8)),
        "mode": batch.column("mode"),
        "seats": batch.column("seats"),
    }
    out = []
    for deck in decks:
        dice = np.random.default_rng(bseed)  # the same dice for every deck
        cols: dict[str, np.ndarray] = {}
        for seats, rows in groups:
            got = play_games(
                catalog,
                deck,
                setup.rows(rows),
                kaiju[rows],
                seats,
                options["mode"],
                options["policy"],
                engine,
                dice,
            )
            for name, values in got.items():
                if name not in cols:  # per seat: MAX_SEATS columns, the empty ones masked
                    shape = (MAX_SEATS,) if name in SEAT_KEYS else values.shape[1:]
                    cols[name] = np.zeros((G, *shape), values.dtype)
                if name in SEAT_KEYS:
                    cols[name][rows, : values.shape[1]] = values
                else:
                    cols[name][rows] = values
        row: dict[str, Any] = {**common, "deck": _strings(np.full(G, deck.id, object)), **per_cell}
        row.update(
            {
                "lesson": _strings(forms[cols["lesson"]]),
                "lesson_took": pa.array(cols["lesson_took"]),
                "gaps": pa.array(cols["gaps"].astype(np.int8)),
                "weak_matches": pa.array(cols["weak_matches"].astype(np.int8)),
                "resist_matches": pa.array(cols["resist_matches"].astype(np.int8)),
                "assembly_rounds": pa.array(cols["assembly_rounds"].astype(np.int8)),
                "traits_flipped": pa.array(cols["traits_flipped"].astype(np.int8)),
                "traits": _strings(cols["traits"]),
                "body_seen": pa.array(cols["body_seen"].astype(np.int16)),
                "lesson_seen": pa.array(cols["lesson_seen"]),
                "lesson_dealt": pa.array(cols["lesson_dealt"]),
            }
        )
        for s, slot in enumerate(SLOTS):
            row[slot] = _strings(cards[cols["slots"][:, s]])
        row.update(
            {
                "battle_policy": _strings(policies[cols["battle_policy"]]),
                "result": pa.array(cols["result"].astype(np.int8)),
                "gpa": pa.array(cols["gpa"].astype(np.float32)),
                "rounds": pa.array(cols["rounds"].astype(np.int8)),
                "kaiju_hp": pa.array(cols["kaiju_hp"].astype(np.int16)),
                "kaiju_hp_left": pa.array(cols["kaiju_hp_left"].astype(np.int16)),
                "parts_lost": pa.array(cols["parts_lost"].astype(np.int8)),
                "rebuilds": pa.array(cols["rebuilds"].astype(np.int8)),
                "crits": pa.array(cols["crits"].astype(np.int16)),
                "punches": pa.array(cols["punches"].astype(np.int8)),
            }
        )
        for k in range(MAX_SEATS):
            empty = table <= k  # seat k + 1 is not at this table
            row[f"study_{k + 1}"] = _strings(np.where(empty, None, studies[cols["study"][:, k]]))
            row[f"study_done_{k + 1}"] = pa.array(cols["study_done"][:, k], mask=empty)
            row[f"gpa_{k + 1}"] = pa.array(cols["seat_gpa"][:, k].astype(np.float32), mask=empty)
        out.append(pa.table(row))
    return pa.concat_tables(out)


GAMES_OPTIONS = (
    DECKS_OPTION,
    Option(
        "alpha_samples",
        "random decks of the alpha's counts per Part-Type drawn from "
        "the full spread, played too as alpha-sample-1..K (default 0)",
        whole_number,
        default=0,
        metavar="K",
    ),
    Option(
        "alpha_list",
        "a file of the card ids of the alpha deck a designer has (TOML cards = [...], or "
        "ids one a line); it replaces the catalog's alpha: the rulebook's counts per "
        "Part-Type, cards of the full spread, none twice",
        read_alpha_list,
        metavar="FILE",
    ),
    Option(
        "sample_seed",
        "the samples' seed: sample k draws from SeedSequence(S, spawn_key=(k,)) (default 0)",
        whole_number,
        default=0,
        metavar="S",
    ),
    KAIJU_OPTION,
    Option(
        "players",
        "player counts, comma-separated (default 2,3,4,5)",
        _players,
        default="2,3,4,5",
        metavar="P1,P2",
    ),
    Option(
        "seats",
        "player policies of players.toml cycled over the seats (default builder,seeker)",
        comma_list,
        default="builder,seeker",
        metavar="ID1,ID2",
    ),
    Option(
        "mode",
        "standalone or campaign (default standalone)",
        _mode,
        default="standalone",
        metavar="MODE",
    ),
    Option(
        "policy",
        "the group's Battle policy in standalone play (policies.toml; default steady)",
        str,
        default="steady",
        metavar="POLICY",
    ),
)

SEAT = Each("seat", tuple(range(1, MAX_SEATS + 1)))
GAMES_COLUMNS = (
    _cell_column(),
    Column(
        "game", "id", "index of the game within its cell (the same game in every deck)", pa.int64()
    ),
    Column(
        "deck",
        "id",
        "the deck played: alpha, full, a deck of decks.toml or alpha-sample-<k>",
        TEXT,
    ),
    Column("kaiju", "id", "the kaiju id (catalogs/labpartners/kaiju.toml)", TEXT),
    Column("players", "count", "seats at the table (2..5)", pa.int8()),
    Column("mode", "id", "standalone or campaign (--mode)", TEXT),
    Column(
        "seats",
        "id",
        "each seat's player policy (players.toml), comma-separated in seat order (--seats "
        "cycled over the seats)",
        TEXT,
    ),
    *_mech_columns("locked parts"),
    Column(
        "assembly_rounds",
        "count",
        "Assembly rounds played (the countdown; fewer after a campaign early stop)",
        pa.int8(),
    ),
    Column("traits_flipped", "count", "Trait cards flipped (applied to the kaiju)", pa.int8()),
    TRAITS,
    Column(
        "body_seen",
        "count",
        "body cards that left the draw pile (hands, refills, Ace draws)",
        pa.int16(),
    ),
    Column(
        "lesson_seen",
        "probability",
        "a body card of the lesson Form was among those body_seen cards",
        pa.bool_(),
    ),
    Column(
        "lesson_dealt",
        "probability",
        "a body card of the lesson Form was in the opening hands (the first 5 x players "
        "body cards: the exact draw odds apply)",
        pa.bool_(),
    ),
    *SLOT_COLUMNS,
    Column(
        "battle_policy",
        "id",
        "the group's Battle policy (policies.toml; campaign: the one of the Specialty a seat "
        "brings to Battle)",
        TEXT,
    ),
    *BATTLE_COLUMNS,
    per(
        SEAT,
        Column(
            "study_<seat>", "id", "that seat's Independent Study id (null for an empty seat)", TEXT
        ),
        Column(
            "study_done_<seat>",
            "probability",
            "that seat's study is complete (null for an empty seat)",
            pa.bool_(),
        ),
        Column(
            "gpa_<seat>",
            "expectation",
            "that seat's GPA: the group's grade GPA + the group credits that hold + the "
            "personal credit of a completed study (credits.toml; null for an empty seat)",
            pa.float32(),
        ),
    ),
)

EXPERIMENTS = {
    "battles": Experiment(
        name="battles",
        summary="finished mechs dealt from each deck (alpha, full) against every kaiju",
        doc=__doc__ or "",
        chunk_size=BATTLE_CHUNK,
        cells=_cells_with_gap,
        run_chunk=_chunk,
        columns=BATTLES_COLUMNS,
        rows="one row per battle; run options such as --gap-percent are in the run's "
        "manifest; see ``mechbal query``",
        options=(DECKS_OPTION, KAIJU_OPTION, POLICY_OPTION, GAP_OPTION),
    ),
    "full-spread-vs-alpha": Experiment(
        name="full-spread-vs-alpha",
        summary="whole games (Assembly, Battle, grades), every game with every deck",
        doc=GAMES_DOC,
        chunk_size=GAMES_CHUNK,
        cells=game_cells,
        run_chunk=game_rows,
        columns=GAMES_COLUMNS,
        rows="one row per game and deck; see ``mechbal query``",
        options=GAMES_OPTIONS,
        identity_files=("studies.toml", "credits.toml", "players.toml"),
        run_notes=_sample_notes,
    ),
}
