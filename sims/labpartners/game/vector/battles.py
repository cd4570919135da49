"""The Battle of dealt and locked mechs on the vector engine (000 Battle): many dealt
battles compiled at once as arrays, the numbers
``vector.stack(game.reference.battles.compile_all(...)[0])`` gives, without a Python call
per game, then played with ``vector.play_stacked``.

``game.reference.battles.compile_all`` compiles each dealt game in Python (``battle.foe`` then
``battle.compile_battle``, most of a Battle-only chunk's time). Here a batch of games is
a few array steps, in the same order and with the same numbers:

- the foe of every game (:class:`Foes`): the kaiju's stat side, then each flipped Trait
  in flip order, its strength then its weakness, with ``battle.foe``'s clamps in the same
  order (a weakness never takes damage, speed or regen below 0 nor HP below 1, and a
  later strength adds on top of a clamped value); weak and resisted Forms and Types as
  boolean masks [G, Forms] and [G, Types]; then the kaiju's debuff when the finished mech
  (its locked slots, not the spares) meets the condition;
- the card table [G, C] of every game (rows 0..4 the locked slots, then the spares per
  Part-Type; battle.py's module docstring), each number from a ``rules.py`` call on the
  whole table at once;
- what does not depend on the deal (the kaiju's priority, the policy's codes, the GPA
  table) comes from ``battle.compile_battle`` itself, once per kaiju x policy, on a mech
  of gaps.

``vector.play_stacked`` plays the result; the reference engine keeps the per-game
compile (it is the oracle these arrays are tested against, field by field).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sims.labpartners import battle, rules, vector
from sims.labpartners.catalog import PARTS, SLOT_PART, SLOTS, Catalog
from sims.labpartners.game.dealt_mechs import Dealt
from sims.labpartners.game.locked_mech import Locked

# the foe's numbers that Traits and debuffs change (battle.Foe's fields)
STATS = ("hp", "speed", "attacks", "damage", "regen", "arm_bonus")
# Trait kinds (catalog.STRENGTHS / WEAKNESSES) as battle.foe applies them
# the Forms whose parts the Form table improves (Cards/Form), as battle.py reads them
# the slot's Part-Type of each card-table row's locked slots (SLOTS order)
SLOT_TYPES = tuple(PARTS.index(SLOT_PART[s]) for s in SLOTS)
# what compile_battle gives the same for every game of one kaiju x policy
FIXED = ("rebuild_when", "punch_finish", "effect", "intervene_when", "intervene_at")


@dataclass(frozen=True)
class Foes:
    """Every game's foe (``battle.Foe`` as arrays, games along the first axis)."""

    kaiju: np.ndarray  # int64[G] index into ``kaiju_ids``
    kaiju_ids: tuple[str, ...]
    hp: np.ndarray  # int64[G]
    speed: np.ndarray
    attacks: np.ndarray
    damage: np.ndarray
    regen: np.ndarray
    arm_bonus: np.ndarray
    crit_immune: np.ndarray  # bool[G]
    mech_first: np.ndarray  # bool[G]
    debuffed: np.ndarray  # bool[G]
    weak_forms: np.ndarray  # bool[G, Forms] (catalog.forms order)
    resist_forms: np.ndarray
    weak_types: np.ndarray  # bool[G, Types] (catalog.types order)
    resist_types: np.ndarray


@dataclass(frozen=True)
class Compiled:
    """A batch of dealt games compiled: their foes, whether each lesson took, and the
    numbers ``vector.stack`` would give (``stacked``)."""

    foes: Foes
    took: np.ndarray  # bool[G] the lesson took (3+ locked parts of the lesson Form)
    # rules.matchup of each card-table row's Form and Type against its game's foe
    # (+1 weak, -1 resisted, 0 neither; meaningless where ``present`` is 0)
    form_matchup: np.ndarray  # int64[G, C]
    type_matchup: np.ndarray  # int64[G, C]
    stacked: dict[str, np.ndarray]


def _codes(values, names: Sequence[str], games: int, what: str) -> np.ndarray:
    """A name, a name per game or an int array into ``names``, as int64[G]."""
    if isinstance(values, str):
        values = [values]
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        out = arr.astype(np.int64)
    else:
        index = {n: i for i, n in enumerate(names)}
        unknown = [v for v in dict.fromkeys(arr.tolist()) if v not in index]
        if unknown:
            raise ValueError(f"unknown {what} {unknown[0]!r} (known: {', '.join(names)})")
        uniq, inverse = np.unique(arr, return_inverse=True)
        out = np.array([index[u] for u in uniq.tolist()], np.int64)[inverse.reshape(-1)]
    if out.ndim == 0 or len(out) == 1:
        out = np.broadcast_to(out.reshape(-1)[:1], (games,)).copy()
    if out.shape != (games,):
        raise ValueError(f"expected one {what} or one per game ({games}), got {out.shape}")
    if games and (out.min() < 0 or out.max() >= len(names)):
        raise ValueError(f"{what} indexes must lie in 0..{len(names) - 1}")
    return out


def _cards(dealt: Dealt, catalog: Catalog) -> dict[str, np.ndarray]:
    """The deck's cards as columns (int64[K]): Part-Type, Form, Type, Power."""
    forms, types = tuple(catalog.forms), tuple(catalog.types)
    return {
        "part": np.array([PARTS.index(c.part) for c in dealt.cards], np.int64),
        "form": np.array([forms.index(c.form) for c in dealt.cards], np.int64),
        "type": np.array([types.index(c.type) for c in dealt.cards], np.int64),
        "power": np.array([c.power for c in dealt.cards], np.int64),
    }


def _mask(names: Sequence[str], known: Sequence[str]) -> np.ndarray:
    return np.array([k in names for k in known], bool)


def foes(catalog: Catalog, dealt: Dealt, kaiju, kaiju_ids: Sequence[str] | None = None) -> Foes:
    """The foe of every game of ``dealt``: game ``i`` meets ``kaiju[i]`` (an id, or an int
    into ``kaiju_ids``, default the catalog's kaiju) with its flipped Traits and, when its
    locked mech meets the condition, its debuff (``battle.foe``, module docstring)."""
    p = catalog.params
    ids = tuple(kaiju_ids if kaiju_ids is not None else catalog.kaiju)
    G = dealt.games
    k = _codes(kaiju, ids, G, "kaiju")
    forms, types = tuple(catalog.forms), tuple(catalog.types)
    if tuple(dealt.forms) != forms:
        raise ValueError("the dealt games' Forms are not the catalog's")
    ks = [catalog.kaiju[i] for i in ids]

    def per_kaiju(values, dtype=np.int64) -> np.ndarray:
        return np.array(values, dtype)[k]

    f = {s: per_kaiju([getattr(x, s) for x in ks]) for s in STATS}
    crit_immune = per_kaiju([x.crit_immune for x in ks], bool)
    weak_f = per_kaiju([_mask(x.weak_forms, forms) for x in ks], bool)
    resist_f = per_kaiju([_mask(x.resist_forms, forms) for x in ks], bool)
    weak_t = per_kaiju([_mask(x.weak_types, types) for x in ks], bool)
    resist_t = per_kaiju([_mask(x.resist_types, types) for x in ks], bool)
    # Assembly/Traits, in flip order: each one's strength, then its weakness (rules.py's
    # trait_strength / trait_weakness and their floors; a later strength adds on top of
    # a clamped value, so the order matters, as in battle.foe)
    traits = [catalog.traits[t] for t in dealt.trait_ids]
    games = np.arange(G)
    if traits:
        s_kind = np.array([t.strength for t in traits])
        s_amount = np.array([t.strength_amount for t in traits], np.int64)
        w_kind = np.array([t.weakness for t in traits])
        w_amount = np.array([t.weakness_amount for t in traits], np.int64)
        target = {
            side: np.array([_target(t, side, forms, types) for t in traits], np.int64)
            for side in ("strength", "weakness")
        }
        for j in range(dealt.traits.shape[1]):
            t = dealt.traits[:, j].astype(np.int64)
            has = t >= 0
            t = np.maximum(t, 0)
            s, a = np.where(has, s_kind[t], ""), s_amount[t]
            for stat in rules.TRAIT_STATS:
                f[stat] = rules.trait_strength(f[stat], stat, s, a)
            on = s == "resist_type"
            resist_t[games[on], target["strength"][t[on]]] = True
            on = s == "resist_form"
            resist_f[games[on], target["strength"][t[on]]] = True
            w, a = np.where(has, w_kind[t], ""), w_amount[t]
            for stat in rules.KAIJU_FLOORS:
                f[stat] = rules.trait_weakness(f[stat], stat, w, a)
            on = w == "weak_type"
            weak_t[games[on], target["weakness"][t[on]]] = True
            on = w == "weak_form"
            weak_f[games[on], target["weakness"][t[on]]] = True
            crit_immune &= w != "crit_open"
    # the kaiju's conditional debuff (its stat side): the condition read on the finished
    # mech's locked slots (not the spares), then the effect (rules.debuff_met, debuff)
    cards = _cards(dealt, catalog)
    slot = dealt.slots.astype(np.int64)
    present = slot >= 0
    form = np.where(present, cards["form"][np.maximum(slot, 0)], -1)
    type_ = np.where(present, cards["type"][np.maximum(slot, 0)], -1)
    took = _took(form, dealt.lesson, p)
    when = per_kaiju([x.debuff_when for x in ks], object)
    value = per_kaiju(
        [
            forms.index(x.debuff_value)
            if x.debuff_when == "form_count"
            else types.index(x.debuff_value)
            if x.debuff_when == "type_count"
            else -1
            for x in ks
        ]
    )
    least = per_kaiju([x.debuff_at_least for x in ks])
    met = rules.debuff_met(
        when, took, (form == value[:, None]).sum(1), (type_ == value[:, None]).sum(1), least
    )
    effect = np.where(met, per_kaiju([x.debuff_effect for x in ks], object), "none")
    amount = per_kaiju([x.debuff_amount for x in ks])
    mech_first = effect == "mech_first"
    for stat in rules.KAIJU_FLOORS:
        f[stat] = rules.debuff(f[stat], stat, effect, amount)
    return Foes(
        kaiju=k,
        kaiju_ids=ids,
        crit_immune=crit_immune,
        mech_first=mech_first,
        debuffed=met.astype(bool),
        weak_forms=weak_f,
        resist_forms=resist_f,
        weak_types=weak_t,
        resist_types=resist_t,
        **f,
    )


def _target(trait, side: str, forms, types) -> int:
    """The Form or Type index a Trait's side names (0 when it names none)."""
    kind, name = getattr(trait, side), getattr(trait, f"{side}_target")
    if kind.endswith("_form"):
        return forms.index(name)
    return types.index(name) if kind.endswith("_type") else 0


def _took(form: np.ndarray, lesson: np.ndarray, p) -> np.ndarray:
    """Assembly/lesson on the locked slots' Forms [G, 5] (-1 a gap)."""
    return np.asarray(rules.lesson_took((form == lesson[:, None]).sum(1), p), bool)


def _card_rows(dealt: Dealt, spares: int) -> np.ndarray:
    """[G, 5 + 4 * spares]: the locked slots, then each Part-Type's spares in the order
    a rebuild takes them (a missing one -1, after the ones there are)."""
    pile = dealt.spares.astype(np.int64)
    if pile.shape[2] != spares:
        raise ValueError(
            f"the games were dealt {pile.shape[2]} spares per Part-Type, the rules say {spares}"
        )
    pile = np.take_along_axis(pile, np.argsort(pile < 0, axis=2, kind="stable"), 2)
    return np.concatenate([dealt.slots.astype(np.int64), pile.reshape(len(pile), 4 * spares)], 1)


def compile_games(
    catalog: Catalog, dealt: Dealt, kaiju, policy="steady", kaiju_ids: Sequence[str] | None = None
) -> Compiled:
    """Every game of ``dealt``, game ``i`` against ``kaiju[i]`` under ``policy`` (one
    policy id, one per game, or ints into the catalog's policies): the foes and exactly
    ``vector.stack(game.reference.battles.compile_all(catalog, dealt, kaiju, policy)[0])``."""
    p = catalog.params
    G = dealt.games
    foe = foes(catalog, dealt, kaiju, kaiju_ids)
    policies = tuple(catalog.policies)
    pol = _codes(policy, policies, G, "policy")
    cards = _cards(dealt, catalog)
    rows = _card_rows(dealt, p.spares_per_part)
    present = rows >= 0
    c = np.maximum(rows, 0)
    expected = np.array(
        list(SLOT_TYPES) + [t for t in range(len(PARTS)) for _ in range(p.spares_per_part)]
    )
    wrong = present & (cards["part"][c] != expected)
    if wrong.any():
        g, r = np.argwhere(wrong)[0]
        raise ValueError(
            f"game {g}: card {dealt.cards[rows[g, r]].id} in row {r} is not "
            f"a {PARTS[expected[r]]} card"
        )
    part = np.where(present, cards["part"][c], 0)
    form_i, type_i = cards["form"][c], cards["type"][c]
    forms = tuple(catalog.forms)
    took = _took(np.where(present[:, :5], form_i[:, :5], -1), dealt.lesson, p)
    # battle._card_numbers, every card of every game at once
    matches = form_i == dealt.lesson[:, None]
    bonus = rules.lesson_bonus(matches, took[:, None], p).astype(np.int64)
    g = np.arange(G)[:, None]
    form_m = rules.matchup(
        foe.weak_forms[g, form_i].astype(np.int64), foe.resist_forms[g, form_i].astype(np.int64)
    )
    type_m = rules.matchup(
        foe.weak_types[g, type_i].astype(np.int64), foe.resist_types[g, type_i].astype(np.int64)
    )
    power = np.where(present, cards["power"][c], 0)
    n = rules.card_numbers(
        part,
        np.array(forms)[form_i],
        power,
        bonus,
        form_m,
        type_m,
        foe.crit_immune.astype(np.int64)[:, None],
        p,
    )
    hp, speed, acc = n["hp"], n["speed"], n["acc"]
    dmg = {k: n[k] for k in ("dmg_head", "dmg_nohead", "max_head", "max_nohead")}
    on = present.astype(np.int64)
    st: dict[str, np.ndarray] = {
        "present": on,
        "part": part,
        "hp": hp * on,
        "power": power,
        **{k: v * on for k, v in dmg.items()},
        "speed": speed * on,
        "acc": acc * on,
    }
    st = {k: np.ascontiguousarray(v, np.int64) for k, v in st.items()}
    # the foe's numbers, then what compile_battle gives every game of a kaiju x policy
    st["kaiju_hp"], st["kaiju_speed"] = foe.hp.copy(), foe.speed.copy()
    pairs, pair = np.unique(foe.kaiju * len(policies) + pol, return_inverse=True)
    fixed = _fixed(
        catalog,
        [(foe.kaiju_ids[q // len(policies)], policies[q % len(policies)]) for q in pairs.tolist()],
    )
    st["attacks"] = foe.attacks.copy()
    st["damage"], st["regen"] = foe.damage.copy(), foe.regen.copy()
    st["arm_bonus"] = foe.arm_bonus.copy()
    st["mech_first"] = foe.mech_first.astype(np.int64)
    for name in (*FIXED, "priority", "rebuild_order", "gpa"):
        st[name] = fixed[name][pair.reshape(-1)]
    order = (*vector.CARD_FIELDS, *vector.SCENARIO_FIELDS, "priority", "rebuild_order", "gpa")
    return Compiled(
        foes=foe,
        took=took,
        form_matchup=form_m,
        type_matchup=type_m,
        stacked={name: st[name] for name in order},
    )


def stacked(
    catalog: Catalog, dealt: Dealt, kaiju, policy="steady", kaiju_ids: Sequence[str] | None = None
) -> dict[str, np.ndarray]:
    """``compile_games(...).stacked``: what ``vector.play_stacked`` plays."""
    return compile_games(catalog, dealt, kaiju, policy, kaiju_ids).stacked


def _fixed(catalog: Catalog, pairs: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
    """The numbers of a compiled battle that only its kaiju and policy decide (priority,
    policy codes, the GPA table), per (kaiju, policy) pair: read off
    ``battle.compile_battle`` on a mech of gaps, so they are its own."""
    gaps = (None,) * len(SLOTS)
    out: dict[str, list] = {name: [] for name in (*FIXED, "priority", "rebuild_order", "gpa")}
    for k, pid in pairs:
        f = battle.foe(catalog.kaiju[k], (), gaps, "", catalog.params)
        b = battle.compile_battle(catalog, gaps, "", f, catalog.policies[pid])
        for name, values in out.items():
            values.append(getattr(b, name))
    return {name: np.array(v, np.float64 if name == "gpa" else np.int64) for name, v in out.items()}


def compiled_matches(comp: Compiled, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``game.reference.battles.part_matches`` for a batch compiled as arrays: the locked slots' matchups
    (``present`` bool[G, 5]), a part once weak (resisted) to its Form or its Type."""
    f, t = comp.form_matchup[:, :5], comp.type_matchup[:, :5]
    weak = (present & ((f > 0) | (t > 0))).sum(1)
    resist = (present & ((f < 0) | (t < 0))).sum(1)
    return weak, resist


def play_locked(
    catalog: Catalog, locked: Locked, d: Dealt, kaiju: np.ndarray, battle_rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Each locked mech's Battle (``d``: ``locked`` as :class:`Dealt`) against its kaiju,
    the batch compiled as arrays and played by ``vector.play_stacked``, and the counts the
    rows report: the lesson took, weak and resisted parts, the kaiju's HP."""
    present = locked.slots >= 0
    comp = compile_games(catalog, d, kaiju, locked.battle_policy)
    res = vector.play_stacked(comp.stacked, catalog.params, catalog.grades, battle_rng)
    weak, resist = compiled_matches(comp, present)
    took, kaiju_hp = comp.took, comp.stacked["kaiju_hp"]
    return {
        **res,
        "lesson_took": np.asarray(took, bool),
        "weak_matches": weak,
        "resist_matches": resist,
        "kaiju_hp": np.asarray(kaiju_hp),
    }
