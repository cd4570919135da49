"""The decks a whole game can be played with besides the catalog's: random decks of the
alpha's size drawn from the full spread (000 Appendix: "Every alpha card is a faithful
subset of the final spread"), to tell the alpha's own choice of cards from its size."""

from __future__ import annotations

import numpy as np

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
