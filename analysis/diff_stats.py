"""What moved between two versions of a game: the comparisons behind ``mechbal diff``
(:mod:`analysis.diff` runs them and writes the page). Generic: it reads what the protocol
declares (a table's column kinds, an experiment's labels, a run's manifest and rows) and
names no game.

Exact tables (:func:`exact_changes`): both versions' frames joined on the table's id
columns (and its count columns too where the id columns alone repeat, as in a
distribution table whose rows are outcomes), every probability, expectation and count
column compared as an exact fraction; rows present on one side only are listed as such.
Enumerations (runs without randomness, :func:`enumeration_changes`) are compared the
same way, keyed by their leading columns.

Simulated runs (:func:`run_changes`): both runs' rows grouped by cell (the columns the
run's manifest lists for its cells, the swept values among them, and any column that
tells apart the rows of one game, such as a row per variant played on the same setup);
every numeric result column compared by its mean, every outcome column (the experiment's
``labels``) by the share of each label. The difference carries a 95% interval: paired
by (cell, game index) when both runs hold the same cells and games (common random
numbers: game i of a cell draws from the same stream on both sides, so the paired
interval is tight and identical inputs give a difference of exactly 0), Welch's
otherwise. A difference counts as moved when its interval excludes zero. Each metric is
also compared over every cell the two runs share (``cell`` :data:`EVERY_CELL`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sims.core.protocol import EXACT_KINDS, Table

RESERVED = ("cell", "seed", "chunk")  # row columns the runner and the grid write
EVERY_CELL = "every cell"
# Games a side needs before a quantity with the same value in every game of both sides is
# read as fixed (its difference exact, interval of width 0) rather than as a few games that
# happen to agree (interval unknown: never counted as moved).
MIN_FIXED = 10
Z = 0.975  # two-sided 95%

EXACT_SCHEMA = {
    "source": pl.String,
    "kind": pl.String,
    "row": pl.String,
    "column": pl.String,
    "base": pl.String,
    "change": pl.String,
    "difference": pl.String,
    "base_float": pl.Float64,
    "change_float": pl.Float64,
    "difference_float": pl.Float64,
    "size": pl.Float64,
}
SIM_SCHEMA = {
    "run": pl.String,
    "experiment": pl.String,
    "cell": pl.String,
    "metric": pl.String,
    "kind": pl.String,
    "base": pl.Float64,
    "change": pl.Float64,
    "difference": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "half": pl.Float64,
    "n_base": pl.Int64,
    "n_change": pl.Int64,
    "test": pl.String,
    "moved": pl.Boolean,
    "effect": pl.Float64,
}


# ---- exact tables ------------------------------------------------------------------------


def _fraction(value: Any) -> Fraction:
    return Fraction(str(value))


def _row_text(frame: pl.DataFrame, key: Sequence[str]) -> pl.Series:
    """``weapon cannon, target x``: each row's key as words (empty without a key)."""
    if not key:
        return pl.Series([""] * frame.height, dtype=pl.String)
    parts = [
        pl.concat_str([pl.lit(f"{k} "), pl.col(k).cast(pl.String).fill_null("-")]) for k in key
    ]
    return frame.select(pl.concat_str(parts, separator=", ").alias("row"))["row"]


def unique_key(
    frames: Sequence[pl.DataFrame], start: Sequence[str], extra: Sequence[str]
) -> list[str]:
    """``start`` extended, one column at a time in order, by ``extra`` until it tells every
    row of every frame apart (every column given when nothing shorter does)."""
    key = list(start)
    rest = [c for c in extra if c not in key]
    while True:
        if key and all(f.select(key).is_unique().all() for f in frames if f.height):
            return key
        if not rest:
            return key
        key.append(rest.pop(0))


def compare_frames(
    source: str,
    base: pl.DataFrame,
    change: pl.DataFrame,
    key: Sequence[str],
    values: Mapping[str, str],
) -> pl.DataFrame:
    """Rows of ``base`` and ``change`` joined on ``key``; every column of ``values``
    (name -> kind: probability, expectation or count) compared exactly. One row per
    moved value and per row found on one side only (``kind`` removed / added), in
    :data:`EXACT_SCHEMA`."""
    key = list(key)
    cols = [c for c in values if c in base.columns and c in change.columns]
    b = base.select([*key, *cols]).with_columns(pl.lit(True).alias("__b"))
    c = change.select([*key, *cols]).with_columns(pl.lit(True).alias("__c"))
    if key:
        joined = b.join(c, on=key, how="full", coalesce=True, nulls_equal=True, suffix="__change")
    else:  # nothing to join on: row by row
        joined = pl.concat([b, c.rename({x: f"{x}__change" for x in c.columns})], how="horizontal")
        joined = joined.rename({"__c__change": "__c"})
    text = _row_text(joined, key)
    out: list[dict[str, Any]] = []
    one_side = joined.with_columns(text.alias("__row")).filter(
        pl.col("__b").is_null() | pl.col("__c").is_null()
    )
    for row in one_side.iter_rows(named=True):
        added = row["__b"] is None
        out.append(
            {
                "source": source,
                "kind": "added" if added else "removed",
                "row": row["__row"],
                "column": "(row)",
                "base": "" if added else "present",
                "change": "present" if added else "",
                "difference": "",
                "size": math.inf,
            }
        )
    both = joined.with_columns(text.alias("__row")).filter(
        pl.col("__b").is_not_null() & pl.col("__c").is_not_null()
    )
    for name in cols:
        other = f"{name}__change"
        moved = both.filter(pl.col(name).cast(pl.String).ne_missing(pl.col(other).cast(pl.String)))
        for row_text, old, new in moved.select("__row", name, other).iter_rows():
            if old is None or new is None:
                out.append(
                    {
                        "source": source,
                        "kind": values[name],
                        "row": row_text,
                        "column": name,
                        "base": "" if old is None else str(old),
                        "change": "" if new is None else str(new),
                        "difference": "",
                        "size": math.inf,
                    }
                )
                continue
            a, z = _fraction(old), _fraction(new)
            if a == z:
                continue
            delta = z - a
            scale = 1 if values[name] == "probability" else max(abs(a), abs(z))
            out.append(
                {
                    "source": source,
                    "kind": values[name],
                    "row": row_text,
                    "column": name,
                    "base": str(old),
                    "change": str(new),
                    "difference": _exact_text(delta),
                    "base_float": float(a),
                    "change_float": float(z),
                    "difference_float": float(delta),
                    "size": float(abs(delta) / scale),
                }
            )
    return pl.DataFrame(out, schema=EXACT_SCHEMA) if out else empty_exact()


def _exact_text(value: Fraction) -> str:
    """An exact difference as the tables write fractions: ``a/b`` (a whole number as such),
    with its sign."""
    text = str(value)
    return text if text.startswith("-") else f"+{text}"


def empty_exact() -> pl.DataFrame:
    return pl.DataFrame(schema=EXACT_SCHEMA)


def exact_changes(
    tables: Sequence[Table], base: Mapping[str, pl.DataFrame], change: Mapping[str, pl.DataFrame]
) -> pl.DataFrame:
    """Every declared table of both versions compared (:func:`compare_frames`), keyed by
    its id columns, then its count columns where the ids repeat."""
    found = []
    for table in tables:
        if table.stem not in base or table.stem not in change:
            continue
        b, c = base[table.stem], change[table.stem]
        ids = [col.name for col in table.columns if col.kind == "id"]
        counts = [col.name for col in table.columns if col.kind == "count"]
        rest = [col.name for col in table.columns if col.kind not in ("id", "count")]
        key = unique_key([b, c], ids, [*counts, *rest])
        values = {
            col.name: col.kind
            for col in table.columns
            if col.name not in key and (col.kind in EXACT_KINDS or col.kind == "count")
        }
        found.append(compare_frames(table.stem, b, c, key, values))
    return sort_exact(pl.concat(found) if found else empty_exact())


def enumeration_changes(source: str, base: pl.DataFrame, change: pl.DataFrame) -> pl.DataFrame:
    """Two enumeration runs' rows (no randomness: every number exact) compared: keyed by
    the shortest run of leading columns that tells their rows apart, every other numeric
    column compared exactly."""
    cols = [c for c in base.columns if c not in RESERVED and c in change.columns]
    key = unique_key([base.select(cols), change.select(cols)], [], cols)
    values = {
        c: "count"
        for c in cols
        if c not in key and (base.schema[c].is_numeric() or base.schema[c] == pl.Boolean)
    }
    return sort_exact(compare_frames(source, base, change, key, values))


def sort_exact(frame: pl.DataFrame) -> pl.DataFrame:
    """Biggest first: rows on one side only, then by size (a probability's change in
    points, any other value's relative to the larger of its two values)."""
    return frame.sort(
        ["size", "source", "row", "column"], descending=[True, False, False, False], nulls_last=True
    )


# ---- simulated runs ----------------------------------------------------------------------


def read_rows(folder: Path) -> pl.DataFrame:
    """A run's rows (every ``part-*.parquet`` under its folder), swept values from the hive
    folders as text columns, outcome and id columns as text (not categoricals)."""
    frames = []
    for path in sorted(Path(folder).rglob("part-*.parquet")):
        frame = pl.read_parquet(path)
        for part in path.relative_to(folder).parts[:-1]:
            name, _, value = part.partition("=")
            frame = frame.with_columns(pl.lit(value).alias(name))
        frames.append(frame.with_columns(pl.col(pl.Categorical).cast(pl.String)))
    return pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()


def cell_columns(manifest: Mapping[str, Any], rows: pl.DataFrame) -> list[str]:
    """The row columns that name a run's cell: those its manifest lists for each cell (the
    grid's values and swept values), in the rows' order."""
    named: set[str] = set()
    for cell in manifest.get("cells") or []:
        named.update(k for k in cell if k != "cell")
    return [c for c in rows.columns if c in named and c not in RESERVED]


def index_column(rows: pl.DataFrame, key: Sequence[str], per_cell: int | None) -> str | None:
    """The column numbering the games of a cell (0 .. per_cell - 1 in every cell): the
    first integer column, in the rows' order, that does."""
    if not per_cell or not rows.height:
        return None
    group = list(key) or [pl.lit(0).alias("__all")]
    for name, dtype in rows.schema.items():
        if name in RESERVED or name in key or not dtype.is_integer():
            continue
        spans = rows.group_by(group).agg(
            lo=pl.col(name).min(), hi=pl.col(name).max(), k=pl.col(name).n_unique()
        )
        if (
            (spans["lo"] == 0).all()
            and (spans["hi"] == per_cell - 1).all()
            and (spans["k"] == per_cell).all()
        ):
            return name
    return None


def game_columns(rows: pl.DataFrame, key: Sequence[str], index: str) -> list[str]:
    """Text columns that tell apart the rows of one game (cell and index), e.g. a row per
    variant played on the same setup: each of its values once in every game."""
    found: list[str] = []
    while rows.height and not rows.select([*key, *found, index]).is_unique().all():
        per_game = rows.group_by([*key, *found, index]).len()["len"]
        if per_game.n_unique() != 1:
            return found
        size = int(per_game[0])
        for name, dtype in rows.schema.items():
            if name in (*key, *found, index, *RESERVED) or dtype != pl.String:
                continue
            if (
                rows[name].n_unique() == size
                and rows.select([*key, *found, index, name]).is_unique().all()
            ):
                found.append(name)
                break
        else:
            return found
    return found


def metric_columns(
    rows: pl.DataFrame, skip: Sequence[str], labels: Mapping[str, Sequence[str]]
) -> dict[str, pl.Expr]:
    """Each compared metric as an expression: every numeric or boolean result column (its
    mean), and for each outcome column the indicator of each of its labels (its share)."""
    out: dict[str, pl.Expr] = {}
    for name, dtype in rows.schema.items():
        if name in skip or name in RESERVED:
            continue
        if name in labels:
            for code, label in enumerate(labels[name]):
                out[f"{name}={label}"] = (pl.col(name) == code).cast(pl.Float64)
        elif dtype.is_numeric() or dtype == pl.Boolean:
            out[name] = pl.col(name).cast(pl.Float64)
    return out


def t_quantile(df: np.ndarray) -> np.ndarray:
    """The 97.5% point of Student's t with ``df`` degrees of freedom (NaN below 1)."""
    from scipy import stats  # loaded when a diff compares, not with every command

    df = np.asarray(df, dtype=float)
    out = np.full(df.shape, np.nan)
    ok = np.isfinite(df) & (df >= 1)
    out[ok] = stats.t.ppf(Z, df[ok])
    big = np.isinf(df) & (df > 0)
    out[big] = stats.norm.ppf(Z)
    return out


def _finish(frame: pl.DataFrame) -> pl.DataFrame:
    """Interval, moved flag and effect size from the columns every test fills: base,
    change, difference, se, df, var_base, var_change."""
    se = frame["se"].to_numpy().astype(float)
    df = frame["df"].to_numpy().astype(float)
    vb = frame["var_base"].fill_null(math.nan).to_numpy().astype(float)
    vc = frame["var_change"].fill_null(math.nan).to_numpy().astype(float)
    nb = frame["n_base"].to_numpy().astype(float)
    nc = frame["n_change"].to_numpy().astype(float)
    # Paired differences without spread while the values themselves vary (a few games
    # that happen to move alike): not evidence of an exact shift; Welch's interval instead.
    # A quantity without spread on either side (a fixed value) keeps its exact difference.
    with np.errstate(divide="ignore", invalid="ignore"):
        qb, qc = vb / nb, vc / nc
        welch_se = np.sqrt(qb + qc)
        welch_df = (qb + qc) ** 2 / (qb**2 / (nb - 1) + qc**2 / (nc - 1))
    varies = (np.nan_to_num(vb) > 0) | (np.nan_to_num(vc) > 0)
    fallback = (se == 0) & varies
    se = np.where(fallback, welch_se, se)
    df = np.where(fallback, welch_df, df)
    # No spread at all is read as a fixed value only with enough games to say so.
    few = (se == 0) & ~varies & (np.minimum(nb, nc) < MIN_FIXED)
    se = np.where(few, np.nan, se)
    q = t_quantile(df)
    half = np.where(se == 0, 0.0, q * se)  # NaN se (too few games): NaN half
    diff = frame["difference"].to_numpy()
    sd = np.sqrt(
        (frame["var_base"].fill_null(0).to_numpy() + frame["var_change"].fill_null(0).to_numpy())
        / 2
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = np.where(sd > 0, np.abs(diff) / sd, np.where(diff != 0, np.inf, 0.0))
    low, high = diff - half, diff + half
    moved = (low > 0) | (high < 0)  # NaN (a single game) never counts
    return frame.with_columns(
        low=pl.Series(low),
        high=pl.Series(high),
        half=pl.Series(half),
        moved=pl.Series(moved),
        effect=pl.Series(effect),
    ).with_columns(pl.col(c).fill_nan(None) for c in ("low", "high", "half"))


def _paired(joined: pl.DataFrame, key: Sequence[str], metrics: Sequence[str]) -> pl.DataFrame:
    """Per group of ``key`` (all rows when empty): the paired comparison of each metric."""
    aggs = []
    for k in range(len(metrics)):
        b, c = pl.col(f"b{k}"), pl.col(f"c{k}")
        aggs += [
            b.mean().alias(f"mb{k}"),
            c.mean().alias(f"mc{k}"),
            (c - b).mean().alias(f"d{k}"),
            (c - b).std().alias(f"sd{k}"),
            b.var().alias(f"vb{k}"),
            c.var().alias(f"vc{k}"),
        ]
    grouped = (
        joined.group_by(key, maintain_order=True).agg([pl.len().alias("n"), *aggs])
        if key
        else joined.select([pl.len().alias("n"), *aggs])
    )
    pieces = []
    for k, m in enumerate(metrics):
        pieces.append(
            grouped.select(
                *key,
                pl.lit(m).alias("metric"),
                pl.col(f"mb{k}").alias("base"),
                pl.col(f"mc{k}").alias("change"),
                pl.col(f"d{k}").alias("difference"),
                (pl.col(f"sd{k}").fill_null(math.nan) / pl.col("n").sqrt()).alias("se"),
                (pl.col("n") - 1).cast(pl.Float64).alias("df"),
                pl.col(f"vb{k}").alias("var_base"),
                pl.col(f"vc{k}").alias("var_change"),
                pl.col("n").alias("n_base"),
                pl.col("n").alias("n_change"),
            )
        )
    return pl.concat(pieces) if pieces else pl.DataFrame()


def _summaries(
    frame: pl.DataFrame, key: Sequence[str], metrics: Sequence[str], prefix: str
) -> pl.DataFrame:
    aggs = [pl.len().alias("n")]
    for k, _ in enumerate(metrics):
        col = pl.col(f"{prefix}{k}")
        aggs += [col.mean().alias(f"m{k}"), col.var().alias(f"v{k}")]
    return frame.group_by(key, maintain_order=True).agg(aggs) if key else frame.select(aggs)


def _welch(
    b: pl.DataFrame, c: pl.DataFrame, key: Sequence[str], metrics: Sequence[str]
) -> pl.DataFrame:
    """Per group of ``key`` on both sides: Welch's comparison of each metric's means."""
    sb, sc = _summaries(b, key, metrics, "b"), _summaries(c, key, metrics, "c")
    joined = (
        sb.join(sc, on=key, how="inner", nulls_equal=True, suffix="_c")
        if key
        else pl.concat([sb, sc.rename({x: f"{x}_c" for x in sc.columns})], how="horizontal")
    )
    pieces = []
    for k, m in enumerate(metrics):
        vb, vc = pl.col(f"v{k}").fill_null(math.nan), pl.col(f"v{k}_c").fill_null(math.nan)
        nb, nc = pl.col("n").cast(pl.Float64), pl.col("n_c").cast(pl.Float64)
        qb, qc = vb / nb, vc / nc
        pieces.append(
            joined.select(
                *key,
                pl.lit(m).alias("metric"),
                pl.col(f"m{k}").alias("base"),
                pl.col(f"m{k}_c").alias("change"),
                (pl.col(f"m{k}_c") - pl.col(f"m{k}")).alias("difference"),
                (qb + qc).sqrt().alias("se"),
                ((qb + qc) ** 2 / (qb**2 / (nb - 1) + qc**2 / (nc - 1))).alias("df"),
                vb.alias("var_base"),
                vc.alias("var_change"),
                pl.col("n").alias("n_base"),
                pl.col("n_c").alias("n_change"),
            )
        )
    return pl.concat(pieces) if pieces else pl.DataFrame()


def run_changes(
    name: str,
    experiment: str,
    base: pl.DataFrame,
    change: pl.DataFrame,
    *,
    base_manifest: Mapping[str, Any],
    change_manifest: Mapping[str, Any],
    labels: Mapping[str, Sequence[str]],
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Two runs of one experiment compared cell by cell and over every shared cell (module
    docstring); returns the comparisons in :data:`SIM_SCHEMA` and notes on how they were
    made (``test``, ``key``, ``index``, cells on one side only)."""
    key = [c for c in cell_columns(base_manifest, base) if c in change.columns]
    per_cell = base_manifest.get("n_per_cell")
    same_n = per_cell and per_cell == change_manifest.get("n_per_cell")
    index = index_column(base, key, per_cell) if same_n else None
    if index is not None and index_column(change, key, per_cell) != index:
        index = None
    if index is not None:
        key += [c for c in game_columns(base, key, index) if c in change.columns]
    skip = {*key, *([index] if index else [])}
    exprs = metric_columns(base, skip, labels)
    exprs = {m: e for m, e in exprs.items() if m.split("=")[0] in change.columns}
    metrics = list(exprs)
    b = base.select(
        *key, *([index] if index else []), *(e.alias(f"b{k}") for k, e in enumerate(exprs.values()))
    )
    c = change.select(
        *key, *([index] if index else []), *(e.alias(f"c{k}") for k, e in enumerate(exprs.values()))
    )
    cells_b = b.select(key).unique() if key else pl.DataFrame()
    cells_c = c.select(key).unique() if key else pl.DataFrame()
    only_base = cells_b.join(cells_c, on=key, how="anti", nulls_equal=True) if key else cells_b
    only_change = cells_c.join(cells_b, on=key, how="anti", nulls_equal=True) if key else cells_c
    test = "welch"
    joined = None
    if index is not None:
        on = [*key, index]
        joined = b.join(c, on=on, how="inner", nulls_equal=True)
        unique = b.select(on).is_unique().all() and c.select(on).is_unique().all()
        if unique and joined.height == b.height == c.height:
            test = "paired"
    if key and (only_base.height or only_change.height):  # compare the shared cells only
        b = b.join(cells_c, on=key, how="semi", nulls_equal=True)
        c = c.join(cells_b, on=key, how="semi", nulls_equal=True)
    if not metrics or not b.height or not c.height:
        frame = pl.DataFrame(schema=SIM_SCHEMA)
    else:
        if test == "paired":
            per = _paired(joined, key, metrics)
            pooled = _paired(joined, [], metrics)
        else:
            per = _welch(b, c, key, metrics)
            pooled = _welch(b, c, [], metrics)
        shown = [k for k in key if b[k].n_unique() > 1 or c[k].n_unique() > 1]
        per = per.with_columns(_row_text(per, shown).alias("cell"))
        parts = [per.drop(key)]
        if shown:  # more than one cell: the comparison over all of them too
            parts.append(pooled.with_columns(pl.lit(EVERY_CELL).alias("cell")))
        frame = _finish(pl.concat(parts, how="diagonal_relaxed"))
        frame = (
            frame.with_columns(
                pl.lit(name).alias("run"),
                pl.lit(experiment).alias("experiment"),
                pl.lit(test).alias("test"),
                pl.when(pl.col("metric").str.contains("=", literal=True))
                .then(pl.lit("share"))
                .otherwise(pl.lit("mean"))
                .alias("kind"),
            )
            .select(list(SIM_SCHEMA))
            .cast(SIM_SCHEMA)
        )
    notes = {
        "test": test,
        "key": key,
        "index": index,
        "only_base": _row_text(only_base, key).to_list() if key else [],
        "only_change": _row_text(only_change, key).to_list() if key else [],
    }
    return frame, notes


def sort_simulated(frame: pl.DataFrame) -> pl.DataFrame:
    """Moved first, then by effect size (the difference in standard deviations of the
    metric), then by how many half-widths the difference stands from zero."""
    score = (pl.col("difference").abs() / pl.col("half")).fill_nan(None)
    return (
        frame.with_columns(score.alias("__z"))
        .sort(
            ["moved", "effect", "__z", "run", "metric", "cell"],
            descending=[True, True, True, False, False, False],
            nulls_last=True,
        )
        .drop("__z")
    )
