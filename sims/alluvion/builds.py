"""Every legal Alluvion loadout (001 The Systems), with its pools.

A loadout is a chassis, a count of systems per kind (0..``systems_per_kind`` of each of
the seven kinds, at least one system, no more than the chassis's slots) and 0..
``rockets_max`` single-shot rockets; ``rules.loadout_problem`` is the one test of
legality, so the enumeration and the catalog's check cannot disagree. The pools come from
``rules.py`` too: this module only walks the combinations.
"""

from __future__ import annotations

import itertools

import polars as pl

from sims.alluvion import rules
from sims.alluvion.catalog import KINDS, Catalog, Loadout
from sims.core.protocol import Table, columns

TABLE = Table(
    stem="loadouts",
    doc=(
        "Every legal loadout of every chassis: 0..2 systems of each of the seven kinds "
        "(at least one, no more than the chassis's slots) and 0..2 single-shot rockets. "
        "Pools as the rulebook builds them: the first weapon system of any kind 1d6 Attack "
        "and each later one 1d8 (rockets 1d8 each, when used); the first defensive system "
        "2d6 Defense and each later one 1d6 (ecm_pool: the dice that may meet a Smart "
        "weapon, ECM systems counted first); 1d6 Move per movement system and 1d8 for a "
        "frame with neither Direct Fire nor Smart systems; 1d6 Spot per surveillance "
        "system. The 2d6 Skill dice come on top of every loadout."
    ),
    columns=columns(
        ("chassis", "id"),
        ("code", "id"),
        *((k, "count") for k in KINDS),
        ("rockets", "count"),
        ("systems", "count"),
        ("attack_pool", "id"),
        ("rocket_pool", "id"),
        ("defense_pool", "id"),
        ("ecm_pool", "id"),
        ("move_pool", "id"),
        ("spot_pool", "id"),
        ("attacks", "id"),
    ),
)


def every_loadout(catalog: Catalog) -> list[Loadout]:
    """Each legal loadout of each chassis (chassis in catalog order, then counts in
    KINDS order, then rockets), named by its code."""
    p = catalog.params
    out = []
    for chassis in catalog.chassis.values():
        for counts in itertools.product(range(p.systems_per_kind + 1), repeat=len(KINDS)):
            for rockets in range(p.rockets_max + 1):
                if rules.loadout_problem(counts, rockets, chassis.slots, p) is None:
                    code = rules.loadout_code(chassis.id, counts, rockets)
                    out.append(Loadout(code, chassis.id, counts, rockets))
    return out


def pools(loadout: Loadout, catalog: Catalog) -> dict[str, str]:
    """A loadout's pools written like ``1d6+1d8`` (``0`` an empty pool)."""
    p = catalog.params
    ecm, resistive = rules.defense_dice(loadout.counts, p)
    return {
        "attack_pool": rules.pool_text(rules.attack_dice(loadout.counts, p)),
        "rocket_pool": rules.pool_text(rules.rocket_dice(loadout.rockets, p)),
        "defense_pool": rules.pool_text(ecm + resistive),
        "ecm_pool": rules.pool_text(ecm),
        "move_pool": rules.pool_text(rules.move_dice(loadout.counts, p)),
        "spot_pool": rules.pool_text(rules.spot_dice(loadout.counts, p)),
    }


def frame(catalog: Catalog) -> pl.DataFrame:
    """The ``loadouts`` table: one row per legal loadout."""
    rows = []
    for lo in every_loadout(catalog):
        rows.append(
            {
                "chassis": lo.chassis,
                "code": lo.code,
                **dict(zip(KINDS, lo.counts, strict=True)),
                "rockets": lo.rockets,
                "systems": sum(lo.counts),
                **pools(lo, catalog),
                "attacks": ",".join(rules.attack_kinds(lo.counts)) or "none",
            }
        )
    order = {c: i for i, c in enumerate(catalog.chassis)}
    return (
        pl.DataFrame(rows)
        .with_columns(pl.col("chassis").replace_strict(order).alias("_order"))
        .sort("_order", "systems", "code", maintain_order=True)
        .select(TABLE.file_columns())
    )
