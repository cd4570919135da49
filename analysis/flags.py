"""Balance flags: what falls outside ``catalogs/<game>/limits.toml``, with the evidence.

A flag is one sentence a designer can act on, with the number behind it and how it
was computed, listed first in the report ("what is out of balance").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sims.core.catalog import CatalogError, FieldSpec, check_value, load_toml

LIMIT_NAMES = ("crit_share", "win_rate")


@dataclass(frozen=True)
class Limit:
    name: str
    meaning: str
    min: float
    max: float
    provenance: str


@dataclass(frozen=True)
class Flag:
    subject: str  # a weapon or kit id
    limit: str
    value: float
    sentence: str  # what a designer reads
    evidence: str  # how it was computed


def load_limits(path: Path) -> dict[str, Limit]:
    """Read limits.toml: each limit a table with meaning, min, max and provenance."""
    doc = load_toml(path)
    out = {}
    for name, body in doc.items():
        if name not in LIMIT_NAMES:
            raise CatalogError(path, f"unknown limit (known: {', '.join(LIMIT_NAMES)})",
                               kind="limit", entry=name)  # fmt: skip
        if not isinstance(body, dict):
            raise CatalogError(path, "expected a table", kind="limit", entry=name)
        extra = set(body) - {"meaning", "min", "max", "provenance"}
        if extra:
            raise CatalogError(path, "unknown field", kind="limit", entry=name,
                               field=sorted(extra)[0])  # fmt: skip
        values = {}
        for field in ("min", "max"):
            value = body.get(field)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise CatalogError(path, f"expected a number from 0 to 1, got {value!r}",
                                   kind="limit", entry=name, field=field)  # fmt: skip
            values[field] = float(value)
        if values["min"] > values["max"]:
            raise CatalogError(path, "min is above max", kind="limit", entry=name, field="min")
        spec = FieldSpec("provenance", "str", choices=("rulebook", "assumed"))
        provenance = check_value(spec, body.get("provenance"), path, "limit", name)
        meaning = check_value(FieldSpec("meaning", "str"), body.get("meaning"), path, "limit", name)
        out[name] = Limit(name, meaning, values["min"], values["max"], provenance)
    return out


def outside(value: float, limit: Limit) -> tuple[str, float] | None:
    """("above", max) or ("below", min) when ``value`` leaves the limit, else None."""
    if value > limit.max:
        return "above", limit.max
    if value < limit.min:
        return "below", limit.min
    return None


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def crit_share_flags(weapon_vs_kit: pl.DataFrame, limit: Limit, margin: int) -> list[Flag]:
    """Weapons whose exact crit share, averaged over every kit, leaves the limits."""
    per_weapon = (
        weapon_vs_kit.group_by("weapon", maintain_order=True)
        .agg(pl.col("crit_share_float").mean().alias("share"), pl.len().alias("kits"))
    )  # fmt: skip
    flags = []
    for weapon, share, kits in per_weapon.iter_rows():
        if (out := outside(share, limit)) is None:
            continue
        side, bound = out
        evidence = (
            "exact: weapon_vs_kit.csv attacker (Gunnery 2, no Head Acc, no modifier dice, "
            f"no cover), averaged over {kits} kits at crit margin {margin}"
        )
        flags.append(Flag(weapon, "crit_share", share,
                          f"The {weapon} crits on {_pct(share)} of its hits, {side} the "
                          f"limit of {_pct(bound)}.", evidence))  # fmt: skip
    return flags


def win_rate_flags(win_rates: pl.DataFrame, limit: Limit, caption: str) -> list[Flag]:
    """Kits whose duel score against every other kit leaves the limits. Both seats
    count: a kit's score as side A, and one minus its opponent's as side B."""
    others = win_rates.filter(pl.col("side_a") != pl.col("side_b"))
    as_a = others.select(pl.col("side_a").alias("kit"), pl.col("score_a").alias("score"),
                         pl.col("battles"))  # fmt: skip
    as_b = others.select(pl.col("side_b").alias("kit"), (1 - pl.col("score_a")).alias("score"),
                         pl.col("battles"))  # fmt: skip
    both = pl.concat([as_a, as_b])
    per_kit = (
        both.group_by("kit", maintain_order=True)
        .agg(((pl.col("score") * pl.col("battles")).sum() / pl.col("battles").sum()).alias("score"),
             pl.col("battles").sum())
        .sort("score")
    )  # fmt: skip
    flags = []
    for kit, score, battles in per_kit.iter_rows():
        if (out := outside(score, limit)) is None:
            continue
        side, bound = out
        # a 95% interval by the normal approximation; battles are many
        half = 1.96 * (score * (1 - score) / battles) ** 0.5
        flags.append(Flag(kit, "win_rate", score,
                          f"The {kit} scores {_pct(score)} in its duels "
                          f"(95% interval {_pct(score - half)} to {_pct(score + half)}), {side} "
                          f"the limit of {_pct(bound)}.",
                          f"simulated: {battles:,} duels against every other kit, both "
                          f"seats; {caption}"))  # fmt: skip
    return flags
