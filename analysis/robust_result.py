"""A robustness pass's result (:class:`RobustResult`): its tags and checks as frames, as
JSON and back, and the files ``mechbal robust`` writes (``reports/robust/GAME.json``,
the CSVs, the page) and the report reads back (:func:`latest`). Names no game."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from analysis.robust_tags import Check, Tag
from analysis.verdicts import Outcome, Variant
from sims.core import store as store_io
from sims.core.runner import catalog_hash


@dataclass
class RobustResult:
    game: str
    n: int
    seed: int
    sets: dict[str, Any]
    catalog: str  # the catalog's content hash (the page uses a result of its own catalog)
    budget: float | None
    seconds: float
    variants: list[Variant]
    tags: list[Tag]
    checks: list[Check]
    placeholder_draws: list[dict[str, int]] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)  # verdict ids checked

    def tag(self, verdict_id: str) -> Tag | None:
        return next((t for t in self.tags if t.verdict == verdict_id), None)

    @property
    def complete(self) -> bool:
        return not any(c.status == "unchecked" for c in self.checks)

    def verdict_checks(self, verdict_id: str) -> pl.DataFrame:
        """One verdict's checks (a notebook's table): each variant, whether the verdict
        holds there, and what it reads instead."""
        return (
            self.checks_frame()
            .filter(pl.col("verdict") == verdict_id)
            .select("variant", "kind", "status", "holds", "label", "value", "low", "high", "text")
        )

    def checks_frame(self) -> pl.DataFrame:
        rows = [asdict(c) for c in self.checks]
        schema = {
            "verdict": pl.String,
            "variant": pl.String,
            "kind": pl.String,
            "status": pl.String,
            "holds": pl.Boolean,
            "label": pl.String,
            "value": pl.Float64,
            "low": pl.Float64,
            "high": pl.Float64,
            "text": pl.String,
        }
        return pl.DataFrame(rows, schema=schema)

    def tags_frame(self) -> pl.DataFrame:
        return pl.DataFrame(
            [
                {
                    "verdict": t.verdict,
                    "claim": t.claim,
                    "kind": t.kind,
                    "label": t.base.label,
                    "value": t.base.value,
                    "low": t.base.low,
                    "high": t.base.high,
                    "status": t.status,
                    "tag": t.words,
                }
                for t in self.tags
            ],
            schema={
                "verdict": pl.String,
                "claim": pl.String,
                "kind": pl.String,
                "label": pl.String,
                "value": pl.Float64,
                "low": pl.Float64,
                "high": pl.Float64,
                "status": pl.String,
                "tag": pl.String,
            },
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "n": self.n,
            "seed": self.seed,
            "sets": self.sets,
            "catalog": self.catalog,
            "budget": self.budget,
            "seconds": round(self.seconds, 1),
            "complete": self.complete,
            "headlines": self.headlines,
            "variants": [asdict(v) for v in self.variants],
            "placeholder_draws": self.placeholder_draws,
            "tags": [
                {**asdict(t), "base": asdict(t.base), "flips": [asdict(c) for c in t.flips]}
                for t in self.tags
            ],
            "checks": [asdict(c) for c in self.checks],
        }


def from_json(doc: Mapping[str, Any]) -> RobustResult:
    """A result written by :func:`write` (the report reads the latest pass back)."""
    tags = [
        Tag(
            t["verdict"],
            t["claim"],
            t["kind"],
            Outcome(**t["base"]),
            t["status"],
            t["words"],
            tuple(Check(**c) for c in t["flips"]),
            tuple(tuple(m) for m in t.get("moved_by") or ()),
        )
        for t in doc["tags"]
    ]
    return RobustResult(
        doc["game"],
        doc["n"],
        doc["seed"],
        dict(doc["sets"]),
        doc["catalog"],
        doc["budget"],
        doc["seconds"],
        [Variant(**{**v, "experiments": _tuple(v.get("experiments"))}) for v in doc["variants"]],
        tags,
        [Check(**c) for c in doc["checks"]],
        list(doc.get("placeholder_draws") or []),
        list(doc.get("headlines") or []),
    )


def _tuple(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


# ---- files -------------------------------------------------------------------------------


def result_path(reports: Path | str, game: str) -> Path:
    return Path(reports) / "robust" / f"{game}.json"


def write(result: RobustResult, reports: Path | str) -> dict[str, Path]:
    """``reports/robust/GAME.json`` (what the report reads back), ``GAME-checks.csv`` and
    ``GAME-tags.csv`` (to take away), ``reports/robust-GAME.html`` (the page)."""
    from analysis.robust_page import write_page

    folder = Path(reports) / "robust"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": store_io.write_text(
            result_path(reports, result.game), json.dumps(result.to_json(), indent=1, default=str)
        ),
        "checks": folder / f"{result.game}-checks.csv",
        "tags": folder / f"{result.game}-tags.csv",
    }
    result.checks_frame().write_csv(paths["checks"])
    result.tags_frame().write_csv(paths["tags"])
    paths["page"] = write_page(result, Path(reports))
    return paths


def latest(
    reports: Path | str, game: str, catalog_root: Path | str, sets: Mapping[str, Any]
) -> RobustResult | None:
    """The pass last written for ``game`` if it was made from this catalog and these
    --set edits (else None: a page never tags its verdicts from another catalog)."""
    path = result_path(reports, game)
    if not path.is_file():
        return None
    try:
        result = from_json(json.loads(path.read_text()))
    except (ValueError, KeyError, TypeError):
        return None
    if result.catalog != catalog_hash(Path(catalog_root), game) or result.sets != dict(sets):
        return None
    return result
