"""Mech Lab Partners catalogs: schema, loading and validation (000).

A catalog folder (``catalogs/labpartners/``) holds:

- ``forms.toml``       ``[[form]]`` the five Forms and their skill buckets (Cards/Form)
- ``types.toml``       ``[[type]]`` the five Combat Types and their colours (Cards/Type)
- ``decks.toml``       ``[[deck]]`` reduced decks as card lists (the alpha deck)
- ``kaiju.toml``       ``[[kaiju]]`` the five alpha kaiju's stat sides
- ``traits.toml``      ``[[trait]]`` field reports: one strength and one weakness each
- ``studies.toml``     ``[[study]]`` Independent Studies
- ``grades.toml``      ``[[grade]]`` the GPA table by outcome
- ``credits.toml``     ``[[credit]]`` extra credit and personal honors (assumed values)
- ``specialties.toml`` ``[[specialty]]`` the five Pilot Specialties and their two uses
- ``policies.toml``    ``[[policy]]`` how the group decides rebuild-or-fire in Battle
- ``mechs.toml``       ``[[mech]]`` finished mechs the tables and explanations show
- ``players.toml``     ``[[player]]`` how a simulated cadet plays Assembly (scores, threshold)
- ``rules.toml``       rules parameter values (``params.Parameters``)
- ``claims.toml``      the rulebook's claims, checked by ``mechbal claims labpartners``

The full spread is not a file: it is generated from the Forms, Types and Power tiers
(every Form x Type for Legs, Torso and Head, every Form x Type x Power for Arms), so
it can never drift from them. A card's id says what it is: ``legs-beast-projectile``,
``arms-beast-sonic-2``. Reduced decks name full-spread ids, no card twice (Appendix:
"every alpha card is a faithful subset of the final spread").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.core.catalog import (
    CatalogError,
    FieldSpec,
    apply_overrides,
    check_entry,
    check_reference,
    entries,
    load_toml,
)
from sims.core.params import load_params
from sims.labpartners.params import Parameters

GAME = "labpartners"
PARTS = ("legs", "torso", "head", "arms")  # the Part-Types, in the rulebook's table order
SLOTS = ("legs", "torso", "head", "arm_1", "arm_2")  # five body slots: 2 Arms
SLOT_PART = {"legs": "legs", "torso": "torso", "head": "head", "arm_1": "arms", "arm_2": "arms"}
FULL = "full"  # the generated deck's id
STUDY_GOALS = (
    "form_count",
    "type_count",
    "power_total",
    "win",
    "win_intact",
    "lesson_took",
    "no_gaps",
    "combo",
    "crit",
)
DEBUFF_WHEN = ("never", "form_count", "type_count", "lesson_took")
DEBUFF_EFFECTS = ("none", "mech_first", "damage", "regen", "hp", "speed")
STRENGTHS = ("hp", "damage", "speed", "regen", "resist_type", "resist_form", "arm_bonus")
WEAKNESSES = ("hp", "damage", "speed", "regen", "weak_type", "weak_form", "crit_open")
CREDIT_WHEN = ("lesson_took", "no_gaps", "no_part_lost", "study")
REBUILD_WHEN = ("never", "armless", "missing")
BATTLE_EFFECTS = ("redirect", "max_power", "sure_crit", "restore", "null_attack")
INTERVENE_WHEN = ("never", "first_round", "armless", "kaiju_low", "torso_lost")
SPECIALTY_USES = ("assembly", "battle", "none")
PLAYER_WEIGHTS = ("fill", "lesson", "weakness", "skill", "power", "combo", "study")


@dataclass(frozen=True)
class Card:
    """One Part card: Arms carry a Power, body cards Power 0."""

    id: str
    part: str  # legs | torso | head | arms
    form: str
    type: str
    power: int = 0

    @property
    def is_body(self) -> bool:
        return self.part != "arms"


def card_id(part: str, form: str, type_: str, power: int = 0) -> str:
    return f"{part}-{form}-{type_}" + (f"-{power}" if part == "arms" else "")


@dataclass(frozen=True)
class Named:
    """A Form or a Combat Type."""

    id: str
    name: str
    note: str  # skill bucket (Form) or colour (Type)
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deck:
    id: str
    cards: tuple[Card, ...]  # in the file's order
    provenance: str

    def of(self, part: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.part == part)

    @property
    def body(self) -> tuple[Card, ...]:
        """The body pile: Legs, Torso and Head (the lesson card is drawn from it)."""
        return tuple(c for c in self.cards if c.is_body)


@dataclass(frozen=True)
class Kaiju:
    id: str
    name: str
    speed: int
    hp: int
    attacks: int  # attacks per round, each on a different intact part
    damage: int  # per attack, before Armor
    priority: tuple[str, ...]  # Part-Types in the order its attacks look for them
    weak_forms: tuple[str, ...]
    resist_forms: tuple[str, ...]
    weak_types: tuple[str, ...]
    resist_types: tuple[str, ...]
    crit_immune: bool
    regen: int  # HP healed at the end of each round
    arm_bonus: int  # damage each damaging Arm adds (not the punch)
    countdown: int  # Trait cards flipped in Assembly
    debuff_when: str
    debuff_value: str
    debuff_at_least: int
    debuff_effect: str
    debuff_amount: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Trait:
    id: str
    name: str
    strength: str
    strength_amount: int
    strength_target: str
    weakness: str
    weakness_amount: int
    weakness_target: str
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Study:
    id: str
    name: str
    text: str
    goal: str
    target: str
    at_least: int
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Grade:
    id: str
    letter: str
    gpa: str  # a decimal as printed (2.0, 1.3): exact through Fraction(gpa)
    result: str  # win | loss
    hp_left_below: int  # percent; -1 when not used
    hp_left_at_most: int  # percent; -1 when not used
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Credit:
    id: str
    name: str
    when: str
    scope: str  # group (everyone) | personal (the study's owner)
    points: str  # decimal
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Specialty:
    id: str
    name: str
    assembly_use: str
    battle_use: str
    battle_effect: str
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Policy:
    """The group's Battle decisions as data (Battle/rebuild, Pilot Specialties)."""

    id: str
    name: str
    rebuild: tuple[str, ...]  # Part-Types worth a rebuild, most wanted first
    rebuild_when: str  # never | armless (no working Arm) | missing (any listed part gone)
    punch_finish: int  # armless and the kaiju at or under this HP: punch, don't rebuild
    specialty: str  # a specialty id or "none" (campaign mode only)
    intervene_when: str
    intervene_at: int  # kaiju HP for kaiju_low
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Player:
    """How a simulated cadet plays Assembly (``players.toml``): the weights of a play's
    value, the gain that commits to it, and where the cadet spends their Specialty."""

    id: str
    name: str
    fill: int
    lesson: int
    weakness: int
    skill: int
    power: int
    combo: int
    study: int
    threshold: int
    specialty_use: str
    provenance: str
    rulebook_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mech:
    """A finished mech: a card id per slot (None for a gap) and the lesson Form."""

    id: str
    cards: tuple[str | None, ...]  # in SLOTS order
    lesson: str
    provenance: str


@dataclass(frozen=True)
class Catalog:
    root: Path
    forms: dict[str, Named]
    types: dict[str, Named]
    cards: dict[str, Card]  # the full spread, generated
    decks: dict[str, Deck]  # "full" and every reduced deck of decks.toml
    kaiju: dict[str, Kaiju]
    traits: dict[str, Trait]
    studies: dict[str, Study]
    grades: tuple[Grade, ...]
    credits: dict[str, Credit]
    specialties: dict[str, Specialty]
    policies: dict[str, Policy]
    mechs: dict[str, Mech]
    players: dict[str, Player]
    params: Parameters
    param_provenance: dict[str, str]
    overrides: tuple[tuple[str, Any], ...] = ()

    def deck(self, ident: str) -> Deck:
        if ident not in self.decks:
            raise KeyError(f"unknown deck {ident!r} (known: {', '.join(self.decks)})")
        return self.decks[ident]


def full_spread(forms: tuple[str, ...], types: tuple[str, ...], tiers: int) -> dict[str, Card]:
    """Appendix: every Form x Type for Legs, Torso and Head, every Form x Type x Power
    for Arms (25 + 25 + 25 + 75 = 150 with five of each and three tiers)."""
    cards: dict[str, Card] = {}
    for part in PARTS:
        for form in forms:
            for type_ in types:
                for power in range(1, tiers + 1) if part == "arms" else (0,):
                    card = Card(card_id(part, form, type_, power), part, form, type_, power)
                    cards[card.id] = card
    return cards


def _named(path: Path, kind: str, note: str, doc: dict[str, Any]) -> dict[str, Named]:
    specs = [FieldSpec("name", "str"), FieldSpec(note, "str")]
    out = {}
    for raw in entries(doc, kind, path):
        vals = check_entry(raw, specs, path, kind)
        vals["note"] = vals.pop(note)
        out[raw["id"]] = Named(**vals)
    return out


def card_problem(text: str, cards: Mapping[str, Card], forms, types, tiers: int) -> str | None:
    """Why ``text`` names no card of the full spread, in the designer's terms."""
    if text in cards:
        return None
    bits = text.split("-")
    if not bits or bits[0] not in PARTS:
        return f"{text!r}: unknown Part-Type {bits[0]!r} (known: {', '.join(PARTS)})"
    want = 4 if bits[0] == "arms" else 3
    if len(bits) != want:
        shape = "arms-FORM-TYPE-POWER" if bits[0] == "arms" else f"{bits[0]}-FORM-TYPE"
        return f"{text!r} is not a card id ({shape})"
    if bits[1] not in forms:
        return f"{text!r}: unknown Form {bits[1]!r} (known: {', '.join(forms)})"
    if bits[2] not in types:
        return f"{text!r}: unknown Type {bits[2]!r} (known: {', '.join(types)})"
    return f"{text!r} is not a card of the full spread (Arms have Power 1..{tiers})"


def _load_decks(
    path: Path, doc: dict[str, Any], cards: dict[str, Card], forms, types, tiers: int
) -> dict[str, Deck]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("counts", "table"),
        FieldSpec("cards", "list[str]"),
    ]
    decks: dict[str, Deck] = {}
    for raw in entries(doc, "deck", path):
        vals = check_entry(raw, specs, path, "deck")
        ident = raw["id"]

        def fail(message: str, field: str = "cards", ident: str = ident) -> CatalogError:
            return CatalogError(path, message, kind="deck", entry=ident, field=field)

        if ident == FULL:
            raise fail("'full' is the generated full spread; name a reduced deck otherwise", "id")
        counts = vals["counts"]
        for part in PARTS:
            if isinstance(counts.get(part), bool) or not isinstance(counts.get(part), int):
                raise fail(
                    f"expected a whole number of {part} cards, got {counts.get(part)!r}", "counts"
                )
        if unknown := sorted(set(counts) - set(PARTS)):
            raise fail(f"unknown Part-Type {unknown[0]!r} (known: {', '.join(PARTS)})", "counts")
        for text in vals["cards"]:
            if problem := card_problem(text, cards, forms, types, tiers):
                raise fail(problem)
        twice = [c for c, k in Counter(vals["cards"]).items() if k > 1]
        if twice:
            raise fail(f"{twice[0]!r} is listed twice (a reduced deck holds each card once)")
        listed = Counter(cards[c].part for c in vals["cards"])
        for part in PARTS:
            if listed[part] != counts[part]:
                raise fail(f"{listed[part]} {part} cards listed, but counts says {counts[part]}")
        decks[ident] = Deck(ident, tuple(cards[c] for c in vals["cards"]), vals["provenance"])
    return decks


def _ids(
    values: tuple[str, ...],
    known: Mapping[str, Any],
    path: Path,
    kind: str,
    ident: str,
    field: str,
    what: str,
) -> None:
    for v in values:
        check_reference(v, known, path, kind, ident, field, what)


def _load_kaiju(path: Path, doc: dict[str, Any], forms, types) -> dict[str, Kaiju]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("speed", "int", min=0, max=10),
        FieldSpec("hp", "int", min=1, max=200),
        FieldSpec("attacks", "int", min=0, max=5),
        FieldSpec("damage", "int", min=0, max=30),
        FieldSpec("priority", "list[str]", choices=PARTS),
        FieldSpec("weak_forms", "list[str]", required=False, default=()),
        FieldSpec("resist_forms", "list[str]", required=False, default=()),
        FieldSpec("weak_types", "list[str]", required=False, default=()),
        FieldSpec("resist_types", "list[str]", required=False, default=()),
        FieldSpec("crit_immune", "bool", required=False, default=False),
        FieldSpec("regen", "int", required=False, default=0, min=0, max=20),
        FieldSpec("arm_bonus", "int", required=False, default=0, min=-5, max=10),
        FieldSpec("countdown", "int", min=0, max=12),
        FieldSpec("debuff_when", "str", required=False, default="never", choices=DEBUFF_WHEN),
        FieldSpec("debuff_value", "str", required=False, default=""),
        FieldSpec("debuff_at_least", "int", required=False, default=0, min=0, max=5),
        FieldSpec("debuff_effect", "str", required=False, default="none", choices=DEBUFF_EFFECTS),
        FieldSpec("debuff_amount", "int", required=False, default=0, min=0, max=20),
    ]
    out = {}
    for raw in entries(doc, "kaiju", path):
        if isinstance(raw.get("hp"), int) and not isinstance(raw["hp"], bool) and raw["hp"] < 1:
            raise CatalogError(
                path,
                f"{raw['hp']} hit points: a kaiju needs at least 1",
                kind="kaiju",
                entry=raw["id"],
                field="hp",
            )
        vals = check_entry(raw, specs, path, "kaiju")
        ident = raw["id"]
        pr = vals["priority"]
        if len(set(pr)) != len(pr) or set(pr) != set(PARTS):
            raise CatalogError(
                path,
                f"must name each Part-Type once ({', '.join(PARTS)}), got {', '.join(pr)}",
                kind="kaiju",
                entry=ident,
                field="priority",
            )
        for field in ("weak_forms", "resist_forms"):
            _ids(vals[field], forms, path, "kaiju", ident, field, "Form")
        for field in ("weak_types", "resist_types"):
            _ids(vals[field], types, path, "kaiju", ident, field, "Type")
        when, value = vals["debuff_when"], vals["debuff_value"]
        if when == "form_count":
            check_reference(value, forms, path, "kaiju", ident, "debuff_value", "Form")
        if when == "type_count":
            check_reference(value, types, path, "kaiju", ident, "debuff_value", "Type")
        out[ident] = Kaiju(**vals)
    return out


def _load_traits(path: Path, doc: dict[str, Any], forms, types) -> dict[str, Trait]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("strength", "str", choices=STRENGTHS),
        FieldSpec("strength_amount", "int", required=False, default=0, min=0, max=20),
        FieldSpec("strength_target", "str", required=False, default=""),
        FieldSpec("weakness", "str", choices=WEAKNESSES),
        FieldSpec("weakness_amount", "int", required=False, default=0, min=0, max=20),
        FieldSpec("weakness_target", "str", required=False, default=""),
    ]
    out = {}
    for raw in entries(doc, "trait", path):
        vals = check_entry(raw, specs, path, "trait")
        for side in ("strength", "weakness"):
            kind, target = vals[side], vals[f"{side}_target"]
            if kind.endswith("_form"):
                check_reference(target, forms, path, "trait", raw["id"], f"{side}_target", "Form")
            if kind.endswith("_type"):
                check_reference(target, types, path, "trait", raw["id"], f"{side}_target", "Type")
        out[raw["id"]] = Trait(**vals)
    return out


def _load_studies(path: Path, doc: dict[str, Any], forms, types) -> dict[str, Study]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("text", "str"),
        FieldSpec("goal", "str", choices=STUDY_GOALS),
        FieldSpec("target", "str", required=False, default=""),
        FieldSpec("at_least", "int", required=False, default=1, min=0, max=20),
    ]
    out = {}
    for raw in entries(doc, "study", path):
        vals = check_entry(raw, specs, path, "study")
        if vals["goal"] == "form_count":
            check_reference(vals["target"], forms, path, "study", raw["id"], "target", "Form")
        if vals["goal"] == "type_count":
            check_reference(vals["target"], types, path, "study", raw["id"], "target", "Type")
        out[raw["id"]] = Study(**vals)
    return out


def _decimal(vals: dict[str, Any], field: str, path: Path, kind: str) -> None:
    from fractions import Fraction

    try:
        Fraction(vals[field])
    except ValueError:
        raise CatalogError(
            path,
            f"expected a decimal like 1.3, got {vals[field]!r}",
            kind=kind,
            entry=vals["id"],
            field=field,
        ) from None


def _load_grades(path: Path, doc: dict[str, Any]) -> tuple[Grade, ...]:
    specs = [
        FieldSpec("letter", "str"),
        FieldSpec("gpa", "str"),
        FieldSpec("result", "str", choices=("win", "loss")),
        FieldSpec("hp_left_below", "int", required=False, default=-1, min=-1, max=101),
        FieldSpec("hp_left_at_most", "int", required=False, default=-1, min=-1, max=100),
    ]
    out = []
    for raw in entries(doc, "grade", path):
        vals = check_entry(raw, specs, path, "grade")
        _decimal(vals, "gpa", path, "grade")
        bounds = (vals["hp_left_below"] >= 0) + (vals["hp_left_at_most"] >= 0)
        if vals["result"] == "loss" and bounds != 1:
            raise CatalogError(
                path,
                "a loss grade needs exactly one of hp_left_below and hp_left_at_most",
                kind="grade",
                entry=raw["id"],
                field="hp_left_below",
            )
        out.append(Grade(**vals))
    if not any(g.result == "win" for g in out):
        raise CatalogError(path, 'no grade for a win (result = "win")')
    return tuple(out)


def _load_credits(path: Path, doc: dict[str, Any]) -> dict[str, Credit]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("when", "str", choices=CREDIT_WHEN),
        FieldSpec("scope", "str", choices=("group", "personal")),
        FieldSpec("points", "str"),
    ]
    out = {}
    for raw in entries(doc, "credit", path):
        vals = check_entry(raw, specs, path, "credit")
        _decimal(vals, "points", path, "credit")
        out[raw["id"]] = Credit(**vals)
    return out


def _load_specialties(path: Path, doc: dict[str, Any]) -> dict[str, Specialty]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("assembly_use", "str"),
        FieldSpec("battle_use", "str"),
        FieldSpec("battle_effect", "str", choices=BATTLE_EFFECTS),
    ]
    return {
        raw["id"]: Specialty(**check_entry(raw, specs, path, "specialty"))
        for raw in entries(doc, "specialty", path)
    }


def _load_policies(path: Path, doc: dict[str, Any], specialties) -> dict[str, Policy]:
    specs = [
        FieldSpec("name", "str"),
        FieldSpec("rebuild", "list[str]", choices=PARTS),
        FieldSpec("rebuild_when", "str", choices=REBUILD_WHEN),
        FieldSpec("punch_finish", "int", required=False, default=0, min=0, max=200),
        FieldSpec("specialty", "str", required=False, default="none"),
        FieldSpec("intervene_when", "str", required=False, default="never", choices=INTERVENE_WHEN),
        FieldSpec("intervene_at", "int", required=False, default=0, min=0, max=200),
    ]
    out = {}
    for raw in entries(doc, "policy", path):
        vals = check_entry(raw, specs, path, "policy")
        if vals["specialty"] != "none":
            check_reference(
                vals["specialty"], specialties, path, "policy", raw["id"], "specialty", "specialty"
            )
        out[raw["id"]] = Policy(**vals)
    return out


def _load_mechs(
    path: Path, doc: dict[str, Any], cards: dict[str, Card], forms, types, tiers: int
) -> dict[str, Mech]:
    specs = [FieldSpec(s, "str") for s in SLOTS] + [FieldSpec("lesson", "str")]
    out = {}
    for raw in entries(doc, "mech", path):
        vals = check_entry(raw, specs, path, "mech")
        ident = raw["id"]
        slots: list[str | None] = []
        for slot in SLOTS:
            text = vals[slot]
            if text in ("", "gap"):
                slots.append(None)
                continue
            if problem := card_problem(text, cards, forms, types, tiers):
                raise CatalogError(path, problem, kind="mech", entry=ident, field=slot)
            if cards[text].part != SLOT_PART[slot]:
                raise CatalogError(
                    path,
                    f"{text!r} is a {cards[text].part} card, not {SLOT_PART[slot]}",
                    kind="mech",
                    entry=ident,
                    field=slot,
                )
            slots.append(text)
        check_reference(vals["lesson"], forms, path, "mech", ident, "lesson", "Form")
        out[ident] = Mech(ident, tuple(slots), vals["lesson"], vals["provenance"])
    return out


FILES = (
    "rules.toml",
    "forms.toml",
    "types.toml",
    "decks.toml",
    "kaiju.toml",
    "traits.toml",
    "studies.toml",
    "grades.toml",
    "credits.toml",
    "specialties.toml",
    "policies.toml",
    "mechs.toml",
    "players.toml",
)
# --set KIND.ID.FIELD: the file each kind lives in
KIND_FILES = {
    "form": "forms.toml",
    "type": "types.toml",
    "deck": "decks.toml",
    "kaiju": "kaiju.toml",
    "trait": "traits.toml",
    "study": "studies.toml",
    "grade": "grades.toml",
    "credit": "credits.toml",
    "specialty": "specialties.toml",
    "policy": "policies.toml",
    "mech": "mechs.toml",
    "player": "players.toml",
}


def _load_players(path: Path, doc: dict[str, Any]) -> dict[str, Player]:
    specs = [FieldSpec("name", "str")]
    specs += [FieldSpec(w, "int", min=-10, max=20) for w in PLAYER_WEIGHTS]
    specs += [
        FieldSpec("threshold", "int", min=-20, max=40),
        FieldSpec("specialty_use", "str", choices=SPECIALTY_USES),
    ]
    return {
        raw["id"]: Player(**check_entry(raw, specs, path, "player"))
        for raw in entries(doc, "player", path)
    }


def load_catalog(
    root: Path | str, game_dir: bool = False, overrides: Mapping[str, Any] | None = None
) -> Catalog:
    """Load and validate the Lab Partners catalog (``root`` holds one folder per game,
    or with ``game_dir=True`` is the ``labpartners`` folder itself); ``overrides`` are
    designer edits (``{"battle_rounds": 6, "kaiju.gorgadon.hp": 30}``) applied first."""
    folder = Path(root) if game_dir else Path(root) / GAME
    if not folder.is_dir():
        raise CatalogError(folder, "catalog folder not found")
    docs = {name: load_toml(folder / name) for name in FILES}
    if overrides:
        apply_overrides(docs, overrides, KIND_FILES, "rules.toml")
    params, provenance = load_params(Parameters, folder / "rules.toml", docs["rules.toml"])
    forms = _named(folder / "forms.toml", "form", "skill", docs["forms.toml"])
    types = _named(folder / "types.toml", "type", "color", docs["types.toml"])
    cards = full_spread(tuple(forms), tuple(types), params.power_tiers)
    decks = {FULL: Deck(FULL, tuple(cards.values()), "rulebook")}
    decks.update(
        _load_decks(
            folder / "decks.toml", docs["decks.toml"], cards, forms, types, params.power_tiers
        )
    )
    specialties = _load_specialties(folder / "specialties.toml", docs["specialties.toml"])
    return Catalog(
        root=folder,
        forms=forms,
        types=types,
        cards=cards,
        decks=decks,
        kaiju=_load_kaiju(folder / "kaiju.toml", docs["kaiju.toml"], forms, types),
        traits=_load_traits(folder / "traits.toml", docs["traits.toml"], forms, types),
        studies=_load_studies(folder / "studies.toml", docs["studies.toml"], forms, types),
        grades=_load_grades(folder / "grades.toml", docs["grades.toml"]),
        credits=_load_credits(folder / "credits.toml", docs["credits.toml"]),
        specialties=specialties,
        policies=_load_policies(folder / "policies.toml", docs["policies.toml"], specialties),
        mechs=_load_mechs(
            folder / "mechs.toml", docs["mechs.toml"], cards, forms, types, params.power_tiers
        ),
        players=_load_players(folder / "players.toml", docs["players.toml"]),
        params=params,
        param_provenance=provenance,
        overrides=tuple(sorted((overrides or {}).items())),
    )
