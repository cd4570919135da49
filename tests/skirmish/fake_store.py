"""The fake Skirmish store of the named-query tests: the bouts of tests/core/test_query.py
(same outcomes) named as Skirmish duels (kits, policies, --set crit_margin), with the
mech parts and weapon mounts Skirmish's rows carry, and a crit-margin sweep, written by
hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from tests.core.test_query import R1, R2_X, R2_Y, wilson, write_run
from tests.core.test_query import battles as bouts

__all__ = ["battles", "fake_store", "wilson", "write_run"]

PARTS = ("head", "right_arm", "left_arm", "core", "back", "legs")
COURIER = ("courier", "reaver", "gunline", "brawler")
MIRROR = ("reaver", "reaver", "brawler", "brawler")


def battles(
    side_a: str,
    side_b: str,
    policy_a: str,
    policy_b: str,
    outcomes: list[tuple[int, int, int]],
    *,
    cell: int = 0,
    chunk: int = 0,
    weapons: list[dict[str, Any]] | None = None,
) -> pl.DataFrame:
    """Rows of one cell in the duel schema; outcomes are (winner, decided, rounds);
    ``weapons`` gives each battle's mounts (weapon, hits, crits per side, 3 mounts)."""
    df = bouts(side_a, side_b, policy_a, policy_b, outcomes, cell=cell, chunk=chunk)
    n = df.height
    cols: dict[str, pl.Series] = {}
    for side in "ab":
        for part in PARTS:
            cols[f"destroyed_{side}_{part}"] = pl.Series([0] * n, dtype=pl.Int16)
    weapons = weapons or [{}] * n
    for side in "ab":
        for k in range(3):
            cols[f"weapon_{side}_{k}"] = pl.Series(
                [w.get(f"weapon_{side}", [None] * 3)[k] for w in weapons], dtype=pl.String
            )
            for stat in ("hits", "crits"):
                cols[f"{stat}_{side}_{k}"] = pl.Series(
                    [w.get(f"{stat}_{side}", [0] * 3)[k] for w in weapons], dtype=pl.Int16
                )
    return df.hstack([s.alias(name) for name, s in cols.items()])


# Run r3 (crit-margin, --sweep crit_margin=2,3, --set part.cannon.pen=5): weapon mounts.
CM2 = [
    {
        "weapon_a": ["rifle", "cannon", None],
        "hits_a": [3, 2, 0],
        "crits_a": [1, 1, 0],
        "weapon_b": ["cannon", "blade", None],
        "hits_b": [4, 1, 0],
        "crits_b": [2, 0, 0],
    },
    {
        "weapon_a": ["rifle", "cannon", None],
        "hits_a": [1, 0, 0],
        "crits_a": [0, 0, 0],
        "weapon_b": ["cannon", "blade", None],
        "hits_b": [2, 3, 0],
        "crits_b": [1, 1, 0],
    },
]
CM3 = [
    {
        "weapon_a": ["rifle", "cannon", None],
        "hits_a": [2, 5, 0],
        "crits_a": [0, 3, 0],
        "weapon_b": ["rifle", None, None],
        "hits_b": [3, 0, 0],
        "crits_b": [1, 0, 0],
    },
]


def fake_store(tmp_path: Path) -> Path:
    """Three duel-shaped runs and a crit-margin sweep: r1 (--set crit_margin=3) courier
    (gunline) vs reaver (brawler), R1's 10 battles; r2 (nothing set) the same matchup
    (R2_X) and a reaver mirror (R2_Y); r3 the sweep."""
    root = tmp_path / "data"
    # One rifle on side A in one battle of each duel run, for crit_share by --set margin.
    rifle_2_1 = {"weapon_a": ["rifle", None, None], "hits_a": [2, 0, 0], "crits_a": [1, 0, 0]}
    rifle_3_0 = {"weapon_a": ["rifle", None, None], "hits_a": [3, 0, 0], "crits_a": [0, 0, 0]}
    r1 = battles(*COURIER, R1, weapons=[rifle_2_1] + [{}] * 9)
    run1 = write_run(
        root,
        "skirmish",
        "duel",
        "r1",
        {"part-00000.parquet": r1.head(6), "part-00001.parquet": r1.tail(4)},
        set_={"crit_margin": 3},
    )
    # An unfinished chunk: its rows must never be counted.
    r1.write_parquet(run1 / "part-00009.parquet.partial")
    write_run(
        root,
        "skirmish",
        "duel",
        "r2",
        {
            "part-00000.parquet": pl.concat(
                [
                    battles(*COURIER, R2_X, cell=0, weapons=[rifle_3_0] + [{}] * 3),
                    battles(*MIRROR, R2_Y, cell=1),
                ]
            )
        },
    )
    write_run(
        root,
        "skirmish",
        "crit-margin",
        "r3",
        {
            "crit_margin=2/part-00000.parquet": battles(
                "foreman", "bastion", "gunline", "gunline", [(0, 1, 7), (1, 0, 5)], weapons=CM2
            ),
            "crit_margin=3/part-00000.parquet": battles(
                "foreman", "bastion", "gunline", "gunline", [(2, 3, 7)], cell=1, weapons=CM3
            ),
        },
        set_={"part.cannon.pen": 5},
        sweep={"crit_margin": [2, 3]},
    )
    return root
