"""Whole Mech Lab Partners games (000): Assembly, the Battle, then the grades.

A batch of G games shares one deck and one seating (player policies by seat); each game
reads its row of a :class:`shuffle.Shuffle` (the random setup, common to every deck) and
meets its own kaiju. :func:`play_games` plays them in three steps:

1. Assembly by an engine's Assembly module (``assembly_reference``: one game at a time,
   rule by rule; ``assembly_vector``: the G games as arrays). Assembly is deterministic
   given the shuffle, so both lock the same mechs (``lock.Locked``);
2. the Battle of each locked mech against its kaiju with the flipped Traits (part 1's
   compile on ``lock.dealt``): the reference engine compiles each game
   (``deal.compile_game``) and plays it with ``reference.play`` (the oracle); the vector
   engine compiles the batch as arrays (``compiled.compile_games``) and plays it with
   ``vector.play_stacked``. The Battle's dice come from ``battle_rng`` alone;
3. scoring (Academy Grading Rubric, Independent Studies): the group's grade GPA, the
   group credits that hold, and each seat's study (``players.study_complete``) with its
   personal credit (``players.credits``).

The part-counting helpers here (a part once per weakness or resistance, the flipped Traits
as text) are also what the Battle-only ``battles`` study writes, so both count alike.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from sims.labpartners import battle, compiled, deal, players, reference, rules, vector
from sims.labpartners.catalog import PARTS, Catalog, Deck
from sims.labpartners.lock import Locked, dealt
from sims.labpartners.shuffle import Shuffle, deck_cards, pile

ENGINES = ("reference", "vector")
WIN = battle.RESULTS.index("win")
ARMS = (3, 4)  # the Arm slots' columns in SLOTS order


# ---- counting parts against a foe (shared with the battles study) ---------------------


def part_matches(cards: Sequence[Any], foe: battle.Foe) -> tuple[int, int]:
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


def compiled_matches(comp: compiled.Compiled, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`part_matches` for a batch compiled as arrays: the locked slots' matchups
    (``present`` bool[G, 5]), a part once weak (resisted) to its Form or its Type."""
    f, t = comp.form_matchup[:, :5], comp.type_matchup[:, :5]
    weak = (present & ((f > 0) | (t > 0))).sum(1)
    resist = (present & ((f < 0) | (t < 0))).sum(1)
    return weak, resist


def trait_lists(d: deal.Dealt) -> np.ndarray:
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
    text = np.array(
        [",".join(d.trait_ids[k] for k in d.traits[i] if k >= 0) for i in first.tolist()], object
    )
    return text[inverse.reshape(-1)]


# ---- decks ------------------------------------------------------------------------------


def alpha_samples(catalog: Catalog, k: int, sample_seed: int = 0) -> list[Deck]:
    """``k`` random decks of the alpha's size (``alpha-sample-1`` .. ``-k``): for each
    Part-Type, as many cards as the alpha holds of it, drawn without replacement from the
    full spread's cards of that type. Sample ``j`` draws from
    ``SeedSequence(sample_seed, spawn_key=(j,))``, so it is the same whatever ``k``."""
    alpha = catalog.deck("alpha")
    full = catalog.deck("full")
    decks = []
    for j in range(1, k + 1):
        rng = np.random.default_rng(np.random.SeedSequence(sample_seed, spawn_key=(j,)))
        chosen: set[str] = set()
        for part in PARTS:
            pool = [c.id for c in full.of(part)]
            take = rng.choice(len(pool), size=len(alpha.of(part)), replace=False)
            chosen.update(pool[i] for i in take.tolist())
        cards = tuple(c for c in full.cards if c.id in chosen)  # full-spread order
        decks.append(
            Deck(
                f"alpha-sample-{j}",
                cards,
                f"sampled: the alpha's counts per Part-Type from the full spread "
                f"(sample seed {sample_seed}, sample {j})",
            )
        )
    return decks


# ---- the Battle ---------------------------------------------------------------------------


def _battles(
    catalog: Catalog,
    locked: Locked,
    shuffle: Shuffle,
    kaiju: np.ndarray,
    engine: str,
    battle_rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    """Each locked mech's Battle against its kaiju (the Traits flipped in Assembly), and
    the counts the rows report: the lesson took, weak and resisted parts, the kaiju's HP."""
    d = dealt(catalog, locked, shuffle)
    G = locked.games
    present = locked.slots >= 0
    policies = tuple(catalog.policies)
    if engine == "vector":
        comp = compiled.compile_games(catalog, d, kaiju, locked.battle_policy)
        res = vector.play_stacked(comp.stacked, catalog.params, catalog.grades, battle_rng)
        weak, resist = compiled_matches(comp, present)
        took, kaiju_hp = comp.took, comp.stacked["kaiju_hp"]
    else:
        battles, took = [], np.zeros(G, bool)
        weak, resist = np.zeros(G, np.int64), np.zeros(G, np.int64)
        for i in range(G):
            policy = policies[int(locked.battle_policy[i])]
            b, foe = deal.compile_game(catalog, d, i, str(kaiju[i]), policy)
            cards = d.mech(i)
            battles.append(b)
            took[i] = bool(
                rules.lesson_took(battle.lesson_matches(cards, d.lesson_of(i)), catalog.params)
            )
            weak[i], resist[i] = part_matches(cards, foe)
        kaiju_hp = np.array([b.kaiju_hp for b in battles], np.int64)
        res = (
            reference.play(battles, np.arange(G, dtype=np.int64), battle_rng)
            if G
            else {k: np.zeros(0, t) for k, t in reference.FIELDS.items()}
        )
    return {
        **res,
        "lesson_took": np.asarray(took, bool),
        "weak_matches": weak,
        "resist_matches": resist,
        "kaiju_hp": np.asarray(kaiju_hp),
        "traits": trait_lists(d),
    }


# ---- scoring ------------------------------------------------------------------------------


def _card_columns(catalog: Catalog) -> dict[str, np.ndarray]:
    """The full spread's cards as columns (catalog.cards order), a last row for a gap."""
    forms, types = list(catalog.forms), list(catalog.types)
    cards = list(catalog.cards.values())
    return {
        "form": np.array([forms.index(c.form) for c in cards] + [-1], np.int64),
        "type": np.array([types.index(c.type) for c in cards] + [-1], np.int64),
        "power": np.array([c.power for c in cards] + [0], np.int64),
    }


def _study_columns(catalog: Catalog) -> dict[str, np.ndarray]:
    """Every study (catalog.studies order) as codes: its goal, the Form or Type it
    counts (-1 when it counts neither) and its at_least."""
    forms, types = list(catalog.forms), list(catalog.types)
    studies = list(catalog.studies.values())
    return {
        "goal": np.array([players.GOAL[s.goal] for s in studies], np.int64),
        "form": np.array(
            [forms.index(s.target) if s.goal == "form_count" else -1 for s in studies], np.int64
        ),
        "type": np.array(
            [types.index(s.target) if s.goal == "type_count" else -1 for s in studies], np.int64
        ),
        "at_least": np.array([s.at_least for s in studies], np.int64),
    }


def body_forms(catalog: Catalog, deck: Deck, shuffle: Shuffle) -> np.ndarray:
    """int64[G, B]: the Form of each card of each game's body pile, top first."""
    return _card_columns(catalog)["form"][pile(shuffle.keys, deck_cards(catalog, deck, "body"))]


def lesson_among(forms: np.ndarray, lesson: np.ndarray, first: np.ndarray) -> np.ndarray:
    """bool[G]: a body card of the ``lesson`` Form is among the first ``first`` cards of
    each game's body pile (``forms``: :func:`body_forms`)."""
    top = np.arange(forms.shape[1])[None, :] < np.asarray(first)[:, None]
    return ((forms == lesson[:, None]) & top).any(1)


def lesson_seen(
    catalog: Catalog, deck: Deck, shuffle: Shuffle, locked: Locked, forms: np.ndarray | None = None
) -> np.ndarray:
    """bool[G]: the lesson Form is among the body cards that left the pile (hands,
    refills, Ace draws). How many left depends on the players' choices, which depend on
    the lesson, so this rate is descriptive; :func:`lesson_dealt` is the exact test."""
    forms = body_forms(catalog, deck, shuffle) if forms is None else forms
    return lesson_among(forms, locked.lesson, locked.body_seen)


def lesson_dealt(
    catalog: Catalog,
    deck: Deck,
    shuffle: Shuffle,
    locked: Locked,
    seats: int,
    forms: np.ndarray | None = None,
) -> np.ndarray:
    """bool[G]: the lesson Form is among the opening hands (the first ``hand_size`` x
    seats body cards, before any choice): exactly the hypergeometric draw odds of
    ``draws.csv`` at that many cards, the lesson Form drawn independently."""
    forms = body_forms(catalog, deck, shuffle) if forms is None else forms
    dealt = np.full(locked.games, catalog.params.hand_size * seats)
    return lesson_among(forms, locked.lesson, dealt)


def score(
    catalog: Catalog, shuffle: Shuffle, locked: Locked, seats: int, fought: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """Each seat's study (index into catalog.studies), whether it is complete after the
    Battle, and the seat's GPA: the group's grade GPA, the group credits that hold and
    the personal credit of a completed study (Academy Grading Rubric; credits.toml)."""
    cards, studies = _card_columns(catalog), _study_columns(catalog)
    slot = np.where(locked.slots >= 0, locked.slots, len(catalog.cards))  # a gap: last row
    form, type_, power = cards["form"][slot], cards["type"][slot], cards["power"][slot]
    present = locked.slots >= 0
    arms = power[:, ARMS]
    gaps = (~present).sum(1)
    combo = (locked.slots[:, ARMS] >= 0).all(1) & (arms[:, 0] == arms[:, 1])
    won = fought["result"] == WIN
    study = shuffle.studies[:, :seats].astype(np.int64)
    done = np.zeros(study.shape, bool)
    for k in range(seats):
        s = study[:, k]
        done[:, k] = players.study_complete(
            studies["goal"][s],
            studies["at_least"][s],
            (present & (form == studies["form"][s][:, None])).sum(1),
            (present & (type_ == studies["type"][s][:, None])).sum(1),
            arms.sum(1),
            won,
            fought["parts_lost"],
            fought["lesson_took"],
            gaps,
            combo,
            fought["crits"],
        )
    group = np.asarray(fought["gpa"], np.float64)[:, None]
    extra = players.credits(
        catalog,
        fought["lesson_took"][:, None],
        gaps[:, None],
        np.asarray(fought["parts_lost"])[:, None],
        done,
    )
    seat_gpa = np.broadcast_to(group + extra, done.shape).astype(np.float32)
    return {"study": study, "study_done": done, "seat_gpa": seat_gpa}


# ---- whole games --------------------------------------------------------------------------


def assembly(engine: str) -> Any:
    """The Assembly module of ``engine`` (its ``play(catalog, deck, shuffle, kaiju, seats,
    mode, battle_policy) -> lock.Locked``)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (reference or vector)")
    return importlib.import_module(f"sims.labpartners.assembly_{engine}")


def play_games(
    catalog: Catalog,
    deck: Deck | str,
    shuffle: Shuffle,
    kaiju: Sequence[str],
    seats: Sequence[str],
    mode: str = "standalone",
    battle_policy: str = "steady",
    engine: str = "vector",
    battle_rng: np.random.Generator | None = None,
) -> dict[str, np.ndarray]:
    """G whole games (module docstring): game ``i`` reads ``shuffle`` row ``i`` and meets
    ``kaiju[i]``; seat ``k`` plays the player policy ``seats[k]``. Returns arrays over the
    games: the locked mech (``slots`` as full-spread card indices, -1 a gap; ``lesson``,
    ``battle_policy`` as catalog indices), what Assembly did, the Battle's results, and
    per seat ``study``, ``study_done`` and ``seat_gpa`` ([G, seats])."""
    d = catalog.deck(deck) if isinstance(deck, str) else deck
    kaiju = np.asarray(kaiju, object)
    if len(kaiju) != shuffle.games:
        raise ValueError(f"{shuffle.games} games but {len(kaiju)} kaiju: give one per game")
    locked = assembly(engine).play(
        catalog, d, shuffle, kaiju.tolist(), list(seats), mode, battle_policy
    )
    rng = battle_rng if battle_rng is not None else np.random.default_rng()
    fought = _battles(catalog, locked, shuffle, kaiju, engine, rng)
    forms = body_forms(catalog, d, shuffle)
    out = {
        "slots": locked.slots,
        "lesson": locked.lesson,
        "gaps": (locked.slots < 0).sum(1),
        "assembly_rounds": locked.rounds,
        "traits_flipped": locked.flips,
        "body_seen": locked.body_seen,
        "lesson_seen": lesson_seen(catalog, d, shuffle, locked, forms),
        "lesson_dealt": lesson_dealt(catalog, d, shuffle, locked, len(seats), forms),
        "battle_policy": locked.battle_policy,
        **fought,
    }
    return {**out, **score(catalog, shuffle, locked, len(seats), fought)}
