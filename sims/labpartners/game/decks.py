"""The decks a whole game can be played with besides the catalog's: random decks of the
alpha's size drawn from the full spread (000 Appendix: "Every alpha card is a faithful
subset of the final spread"), to tell the alpha's own choice of cards from its size."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sims.core.catalog import CatalogError, load_toml
from sims.labpartners.catalog import PARTS, Catalog, Deck


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


# ---- --alpha-list FILE: the alpha deck a designer has -----------------------------------


def read_alpha_list(text: str) -> dict[str, Any]:
    """``--alpha-list FILE``: the card ids of an alpha deck, from a TOML file (``cards =
    ["legs-beast-projectile", ...]``) or a text file (ids separated by blanks, commas or
    new lines; ``#`` starts a comment). Returns ``{"file": FILE, "cards": [...]}``: the
    ids enter the run's identity, so another list is another run. Checked against the
    catalog by :func:`alpha_list_deck`."""
    path = Path(text)
    if not path.is_file():
        raise CatalogError(path, "no such file")
    if path.suffix == ".toml":
        doc = load_toml(path)
        cards = doc.get("cards")
        if set(doc) - {"cards"}:
            raise CatalogError(path, "expected only cards = [...]", field=sorted(set(doc))[0])
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise CatalogError(path, "expected a list of card ids", field="cards")
    else:
        body = "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())
        cards = [c for c in body.replace(",", " ").split() if c]
    if not cards:
        raise CatalogError(path, "lists no card")
    return {"file": str(path), "cards": [c.strip() for c in cards]}


def alpha_list_deck(catalog: Catalog, listed: Mapping[str, Any]) -> Deck:
    """The deck ``--alpha-list`` names, in place of the catalog's alpha: each id a card of
    the full spread, none twice (the alpha is a sub-multiset of the full spread, which
    holds one card of each), and the rulebook's counts per Part-Type (the catalog alpha's
    counts, Appendix: 15 Legs, 15 Torso, 15 Head, 25 Arms). CatalogError naming the file
    and the entry otherwise."""
    path = listed["file"]
    full = {c.id: c for c in catalog.deck("full").cards}
    seen: set[str] = set()
    for ident in listed["cards"]:
        if ident not in full:
            raise CatalogError(
                path, "unknown card (not in the full spread)", kind="card", entry=ident
            )
        if ident in seen:
            raise CatalogError(
                path,
                "listed twice (the full spread holds one of each card)",
                kind="card",
                entry=ident,
            )
        seen.add(ident)
    alpha = catalog.deck("alpha")
    cards = tuple(c for c in catalog.deck("full").cards if c.id in seen)  # full-spread order
    for part in PARTS:
        have, want = sum(c.part == part for c in cards), len(alpha.of(part))
        if have != want:
            raise CatalogError(
                path, f"{have} {part} cards, the alpha holds {want}", kind="part", entry=part
            )
    return Deck("alpha", cards, f"designer's alpha list ({path})")
