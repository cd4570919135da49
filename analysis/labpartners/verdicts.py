"""Mech Lab Partners' verdicts (DESIGN.md "Verdicts: what they rest on, whether they
survive"): the headlines of the report page, each recomputed from one run of the
whole-game study ``full-spread-vs-alpha`` as the page makes it (``report.SAMPLES``
random alpha decks beside the catalog's):

- the deck question, random alpha decks first: per headline measure (study completion,
  lesson-take rate, win rate) the sign of the random decks' mean gap to the full spread
  (``comparison:random:<metric>``);
- the catalog alpha's gaps (``gap:alpha:<metric>``: study completion, lesson-take, win
  rate; label the sign of the gap when its paired 95% interval excludes 0, else "no
  gap") and the kaiju it moves most (``gap:alpha:kaiju``: label that kaiju and the sign);
- whether the catalog alpha is typical of random alpha decks (``comparison:alpha_typical``:
  within their range on every headline measure, or which measures it leaves);
- the page's flags (``flag:win_rate:<kaiju>``, ``flag:deck_gap:<kaiju>``, limits.toml),
  and the easiest and hardest kaiju with the full spread (``best:kaiju``,
  ``worst:kaiju``).

Lab Partners is cooperative: there are no seats in the DESIGN sense (sides of a battle),
so every verdict has ``seats=False``. Variants: each random alpha deck standing in for
the catalog's alpha (kind ``sample``, through ``--alpha-list``), the other standalone Battle
policies of policies.toml and other seatings of players.toml (kind ``policy``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from analysis.flags import Limit, beyond
from analysis.labpartners import queries
from analysis.labpartners.flags import abs_interval
from analysis.labpartners.report import (
    BASE,
    HEADLINE_METRICS,
    SAMPLES,
    STUDY,
    largest_kaiju_gap,
    sample_distribution,
    typical,
)
from analysis.readings import wilson
from analysis.verdicts import (
    Outcome,
    RunRows,
    Variant,
    Verdict,
    flag_id,
    side_of,
    standing_verdicts,
)
from sims.labpartners.game.decks import alpha_samples

# the options of the page's study run (report.run_default_experiments): the verdicts read
# exactly that run
OPTIONS: Mapping[str, Any] = {"alpha_samples": SAMPLES}
TITLES = {"study_done": "study completion", "lesson_took": "lesson-take rate", "win": "win rate"}
# player seatings (players.toml) a variant may seat besides the page's builder,seeker
SEATINGS = ("builder", "seeker", "builder,holdout")


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _gap_label(diff: float, low: float, high: float) -> str:
    """The sign of an alpha-minus-full gap when its 95% interval excludes 0."""
    if low > 0:
        return "alpha above"
    if high < 0:
        return "alpha below"
    return "no gap"


# paired differences already read, by (run id, grouping): a run id names its rows' content
# (the run's identity), so every verdict of one run reads the query once
_READ: dict[tuple[Any, ...], pl.DataFrame] = {}


def _diffs(rows: RunRows, by: tuple[str, ...] = ()) -> pl.DataFrame:
    key = (rows.run_id, by, rows.stand_in)
    if key not in _READ:
        frame = queries.paired_differences(rows.con, rows.view, by=by, base=BASE)
        if "run" in frame.columns:
            frame = frame.filter(pl.col("run") == rows.run_id)
        # a random deck read as the alpha: every game plays every deck on the same seeds,
        # so its rows are the games a run with it as --alpha-list plays (a sample variant)
        for label, other in rows.stand_in:
            instead = frame.filter(pl.col("deck") == other).with_columns(deck=pl.lit(label))
            frame = pl.concat([frame.filter(pl.col("deck") != label), instead])
        if len(_READ) > 32:
            _READ.clear()
        _READ[key] = frame
    return _READ[key]


def _distribution(rows: RunRows) -> pl.DataFrame:
    return sample_distribution(_diffs(rows), _diffs(rows, ("kaiju",)))


def _alpha_gap(metric: str) -> Callable[[RunRows, str | None], Outcome]:
    def measure(rows: RunRows, seat: str | None) -> Outcome:
        part = _diffs(rows).filter((pl.col("deck") == "alpha") & (pl.col("metric") == metric))
        if not part.height:
            return Outcome("absent", math.nan, text="no alpha deck in the run")
        r = part.row(0, named=True)
        label = _gap_label(r["diff"], r["low"], r["high"])
        text = (
            f"the catalog alpha's {TITLES[metric]} gap to the full spread: {_pts(r['diff'])} "
            f"points (95% {_pts(r['low'])} to {_pts(r['high'])})"
        )
        # the catalog's list is one invented alpha: say where it lies among random ones
        dist = _distribution(rows).filter((pl.col("metric") == metric) & pl.col("kaiju").is_null())
        if dist.height:
            d = dist.row(0, named=True)
            text += (
                f", one invented list: further out than {d['nearer']} of {d['samples']} random "
                f"alpha decks (their mean {_pts(d['mean'])}, sd {100 * d['sd']:.1f})"
            )
        return Outcome(label, r["diff"], r["low"], r["high"], text)

    return measure


def _kaiju_gap(rows: RunRows, seat: str | None) -> Outcome:
    gaps = _diffs(rows, ("kaiju",))
    top = largest_kaiju_gap(gaps)
    if top is None:
        return Outcome("absent", math.nan, text="no alpha deck in the run")
    r = gaps.filter(
        (pl.col("deck") == "alpha") & (pl.col("metric") == "win") & (pl.col("kaiju") == top)
    ).row(0, named=True)
    sign = _gap_label(r["diff"], r["low"], r["high"])
    return Outcome(
        f"{top}: {sign}",
        r["diff"],
        r["low"],
        r["high"],
        f"the catalog alpha moves {top}'s win rate most: {_pts(r['diff'])} points "
        f"(95% {_pts(r['low'])} to {_pts(r['high'])})",
    )


def _random_mean(metric: str) -> Callable[[RunRows, str | None], Outcome]:
    def measure(rows: RunRows, seat: str | None) -> Outcome:
        dist = _distribution(rows).filter((pl.col("metric") == metric) & pl.col("kaiju").is_null())
        if not dist.height:
            return Outcome("absent", math.nan, text="no random alpha decks in the run")
        r = dist.row(0, named=True)
        half = 1.96 * r["sd"] / math.sqrt(r["samples"])  # the mean over decks' interval
        low, high = r["mean"] - half, r["mean"] + half
        label = (
            "random alphas above" if low > 0 else "random alphas below" if high < 0 else "no gap"
        )
        text = (
            f"over {r['samples']} random alpha decks the {TITLES[metric]} gap averages "
            f"{_pts(r['mean'])} points (sd {100 * r['sd']:.1f} across decks; {r['below']} "
            f"below 0, {r['above']} above)"
        )
        return Outcome(label, r["mean"], low, high, text)

    return measure


def _typical(rows: RunRows, seat: str | None) -> Outcome:
    dist = _distribution(rows)
    top = largest_kaiju_gap(_diffs(rows, ("kaiju",)))
    head = dist.filter(pl.col("kaiju").is_null() | (pl.col("kaiju") == top))
    if not head.height:
        return Outcome("absent", math.nan, text="no random alpha decks in the run")
    away = sorted(
        r["metric"] + (f":{r['kaiju']}" if r["kaiju"] else "")
        for r in head.iter_rows(named=True)
        if not typical(r)
    )
    # the value: how far out the catalog alpha is on the study-completion gap, in
    # standard deviations of the random decks
    first = head.filter(pl.col("metric") == HEADLINE_METRICS[0]).row(0, named=True)
    z = (first["alpha"] - first["mean"]) / first["sd"] if first["sd"] else math.nan
    label = "typical" if not away else "outside on " + ", ".join(away)
    k = int(head["samples"][0])
    text = (
        f"the catalog alpha lies within the {k} random alpha decks' range on every headline measure"
        if not away
        else f"the catalog alpha lies outside the {k} random alpha decks' range on {', '.join(away)}"
    )
    return Outcome(label, z, text=text)


def _full_standings(rows: RunRows, seat: str | None) -> pl.DataFrame:
    """Per kaiju, the full spread's win rate with its Wilson interval (the page's win-rate
    flags and the easiest / hardest kaiju)."""
    means = queries.deck_means(rows.con, rows.view, by=("kaiju",))
    if "run" in means.columns:
        means = means.filter(pl.col("run") == rows.run_id)
    win = means.filter((pl.col("deck") == BASE) & (pl.col("metric") == "win"))
    out = []
    for kaiju, games, total in win.select("kaiju", "games", "total").iter_rows():
        wins = int(round(total))
        low, high = wilson(wins, games)
        out.append({"subject": kaiju, "score": wins / games, "low": low, "high": high})
    return pl.DataFrame(
        out,
        schema={"subject": pl.String, "score": pl.Float64, "low": pl.Float64, "high": pl.Float64},
    )


def _deck_gap_flag(kaiju: str, limit: Limit) -> Callable[[RunRows, str | None], Outcome]:
    def measure(rows: RunRows, seat: str | None) -> Outcome:
        part = _diffs(rows, ("kaiju",)).filter(
            (pl.col("deck") == "alpha") & (pl.col("metric") == "win") & (pl.col("kaiju") == kaiju)
        )
        if not part.height:
            return Outcome("absent", math.nan, text=f"{kaiju} is not in the run")
        r = part.row(0, named=True)
        # the label from the estimate (analysis.verdicts.side_of: a smaller robust N asks
        # whether a variant moves the gap across the limit); the page's flag keeps the
        # one flag rule on the interval of |gap|
        size, low, high = abs_interval(r["diff"], r["low"], r["high"])
        label = side_of(size, limit)
        flagged = beyond(low, high, limit) is not None
        return Outcome(
            label,
            r["diff"],
            r["low"],
            r["high"],
            f"the alpha's win rate against {kaiju} is {_pts(r['diff'])} points from the full "
            f"spread's (95% {_pts(r['low'])} to {_pts(r['high'])}), {label} the deck-gap "
            f"limit of {100 * limit.max:.1f} points"
            + ("" if flagged or label == "within" else ", but its interval reaches back inside"),
        )

    return measure


def verdicts(catalog: Any, limits: Mapping[str, Limit]) -> list[Verdict]:
    """The page's headline verdicts, each reading the page's own study run."""
    opts = dict(OPTIONS)
    out = [
        Verdict(
            f"comparison:random:{metric}",
            "comparison",
            f"random alpha decks change {TITLES[metric]} against the full spread",
            STUDY,
            _random_mean(metric),
            opts,
            seats=False,
            unit="points",
        )
        for metric in HEADLINE_METRICS
    ]
    out += [
        Verdict(
            f"gap:alpha:{metric}",
            "gap",
            f"the catalog's alpha changes {TITLES[metric]} against the full spread",
            STUDY,
            _alpha_gap(metric),
            opts,
            seats=False,
            unit="points",
        )
        for metric in HEADLINE_METRICS
    ]
    out.append(
        Verdict(
            "gap:alpha:kaiju",
            "gap",
            "the kaiju whose win rate the catalog's alpha moves most",
            STUDY,
            _kaiju_gap,
            opts,
            seats=False,
            unit="points",
        )
    )
    out.append(
        Verdict(
            "comparison:alpha_typical",
            "comparison",
            "the catalog's alpha is typical of random alpha decks",
            STUDY,
            _typical,
            opts,
            seats=False,
            unit="number",
        )
    )
    kaiju = list(catalog.kaiju)
    out += standing_verdicts(
        "kaiju",
        STUDY,
        _full_standings,
        metric="beaten with the full spread",
        limit=limits.get("win_rate"),
        subjects=kaiju,
        options=opts,
        seats=False,
    )
    # best:kaiju is the easiest kaiju (the highest win rate), worst:kaiju the hardest
    if (gap := limits.get("deck_gap")) is not None:
        out += [
            Verdict(
                flag_id("deck_gap", k),
                "flag",
                f"the alpha deck moves {k}'s win rate beyond the deck-gap limit",
                STUDY,
                _deck_gap_flag(k, gap),
                opts,
                seats=False,
                unit="points",
                headline=lambda o: o.label in ("above", "below"),
            )
            for k in kaiju
        ]
    return out


def variants(catalog: Any) -> list[Variant]:
    """Each random alpha deck in place of the catalog's alpha (kind sample: the same
    sampled decks the page plays, read in the alpha's place from the same rows), and the other standalone
    Battle policies and seatings the study can play (kind policy)."""
    out = []
    for deck in alpha_samples(catalog, SAMPLES, 0):
        # the study already plays each random deck on the same seeds as the alpha: read
        # its rows in the alpha's place (what --alpha-list with its cards would play)
        out.append(
            Variant(
                f"alpha={deck.id}",
                "sample",
                f"{deck.id} (the rulebook's counts drawn from the full spread) in place of "
                "the catalog's alpha",
                stand_in={"alpha": deck.id},
                experiments=(STUDY,),
            )
        )
    for pid, pol in catalog.policies.items():
        if pid == "steady" or pol.specialty != "none":  # the page's, or campaign only
            continue
        out.append(
            Variant(
                f"policy={pid}",
                "policy",
                f"the group's Battle policy {pid} (policies.toml) in place of steady",
                options={"policy": pid},
                experiments=(STUDY,),
            )
        )
    for seats in SEATINGS:
        if all(s in catalog.players for s in seats.split(",")):
            out.append(
                Variant(
                    f"seats={seats}",
                    "policy",
                    f"the seats play {seats} (players.toml, cycled) in place of builder,seeker",
                    options={"seats": seats.split(",")},
                    experiments=(STUDY,),
                )
            )
    return out


def rests_on(catalog: Any) -> list[tuple[str, str]]:
    """What the page's numbers rest on besides the readings and placeholders."""
    return [
        (
            "format",
            "whole standalone games of 2 to 5 cadets (Assembly to the end of the countdown, "
            "then the Battle), every kaiju x player count, each game played with every deck "
            "on the same seeds",
        ),
        (
            "policies",
            "seats builder, seeker cycled (players.toml); the group's Battle policy steady "
            "(policies.toml); player models, not rules",
        ),
        (
            "decks",
            f"the catalog's alpha is an invented list (decks.toml, assumed); {SAMPLES} random "
            "alpha decks of the rulebook's counts (15/15/15/25) drawn from the full spread "
            "(sample seed 0) stand for the alpha until a printed list exists",
        ),
    ]
