"""The Mech Lab Partners report page, ``reports/labpartners.html`` (its analysis plugin's
``default_runs`` and ``page``; the generic report adds the flags first and the claims).

It opens with the whole-game study ``full-spread-vs-alpha`` (Assembly then Battle, every
game played with every deck on the same seeds, ``ctx.n`` games, with ``SAMPLES`` random
alpha decks beside the catalog's): what the alpha deck changes, biggest first, a sentence
each with its paired 95% interval; the decks side by side (lesson-take rate, gaps and
weakness matches, win rate and GPA per kaiju and player count, the kaiju the alpha makes
too hard or too easy, study completion, Form and Type scarcity); the exact draw odds
beside the simulated rates; and the catalog's alpha among the sampled alphas. The flags
(:mod:`analysis.labpartners.flags`) come from the same run.

Then part 1's Battle-only study ``battles`` (finished mechs dealt from each deck, ``ctx.n``
battles, policy steady): a designer's summary, win rate and GPA per kaiju and deck, what
makes a dealt mech win, the exact draw odds and catalog battles, and crits.

Both run into the store (resumable) and are read back through DuckDB
(:mod:`analysis.labpartners.queries`). Every number read from simulation carries its 95%
interval and names its run; a sentence whose interval holds 0, or whose intervals
overlap, says the data cannot decide.
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from analysis import readings, report_rests
from analysis.charts import caption, run_caption
from analysis.labpartners import charts, queries
from analysis.labpartners.flags import deck_gap_flags, win_rate_flags
from analysis.plugin import Page, ReportContext, Section
from analysis.query import connect
from analysis.report import frame_table
from sims.core.runner import RunOutcome, simulate
from sims.core.store import read_manifest, run_dir
from sims.labpartners import draws

GAME = "labpartners"
EXPERIMENT = "battles"
STUDY = queries.STUDY  # "full-spread-vs-alpha"
STUDY_KEY = "full_spread_vs_alpha"  # its outcome in run_default_experiments
# Random alpha decks the default study also plays (--alpha-samples): until a printed alpha
# list exists the headline is the distribution over these (DESIGN.md "Lab Partners' deck
# question"), the catalog's alpha one marked sample. Each adds one more deck to every game,
# so the study costs (2 + SAMPLES) / 2 times the two decks alone: at the report's 64,000
# games 16 samples (from 4) took the whole Lab Partners report from about 16-18 to about
# 39 CPU-seconds (--jobs 2), so every deck keeps the full N.
SAMPLES = 16
# The headline's metrics (paired gaps alpha - full); the largest kaiju win-rate gap of the
# catalog's alpha joins them
HEADLINE_METRICS = ("study_done", "lesson_took", "win")
POLICY = "steady"  # the default run's policy (experiments' default)
PCT = "{:.0%}"
BASE = "full"  # the deck every difference is taken against


def run_default_experiments(ctx: ReportContext) -> dict[str, RunOutcome]:
    """``full-spread-vs-alpha``: ctx.n whole games, each with the alpha, the full spread
    and SAMPLES sampled alphas; ``battles``: ctx.n dealt mechs, alpha and full, against
    every kaiju (both resumable)."""
    common = dict(
        n=ctx.n,
        seed=ctx.seed,
        catalog_root=ctx.catalog_root,
        store_root=ctx.store,
        sets=ctx.sets,
        jobs=ctx.jobs,
        progress=None,
        announce="report",
    )
    study = simulate(GAME, STUDY, options={"alpha_samples": SAMPLES}, **common)
    run = simulate(GAME, EXPERIMENT, **common)
    return {STUDY_KEY: study, EXPERIMENT: run}


def build_page(ctx: ReportContext, runs: Mapping[str, RunOutcome]) -> Page:
    """The study's sections first (and its flags), then the ``battles`` run's and the
    exact tables."""
    ids = [r.plan.run_id for r in runs.values()]
    con = connect(ctx.store, catalog=ctx.catalog_root, sets=ctx.sets, runs=ids)
    try:
        out: list[Section] = []
        flags = []
        if STUDY_KEY in runs:
            run = runs[STUDY_KEY]
            study = read_study(con, run.plan.run_id, ctx.catalog, store=ctx.store)
            out += study_sections(
                study, ctx.limits, lambda vid, text: report_rests.tagged(ctx, vid, text)
            )
            flags = study_flags(study, ctx.limits)
        if EXPERIMENT in runs:
            out += sections(ctx, con, runs[EXPERIMENT].plan.run_id)
        return Page(out, flags)
    finally:
        con.close()


def _one(frame: pl.DataFrame, run_id: str) -> pl.DataFrame:
    """One run's rows of one policy (the first, steady when present): charts draw one
    estimate per deck and kaiju."""
    frame = frame.filter(pl.col("run") == run_id)
    if "policy" in frame.columns and frame.height:
        policies = frame["policy"].unique().to_list()
        frame = frame.filter(pl.col("policy") == (POLICY if POLICY in policies else policies[0]))
    return frame


def deck_gaps(win: pl.DataFrame, a: str = "alpha", b: str = "full") -> pl.DataFrame:
    """Per kaiju: deck ``b``'s win rate minus deck ``a``'s in percentage points, with a
    normal 95% interval of the difference of two proportions (independent samples)."""
    wide = win.filter(pl.col("deck") == a).join(
        win.filter(pl.col("deck") == b), on="kaiju", suffix="_b"
    )
    rows = []
    for r in wide.iter_rows(named=True):
        rows.append(
            {
                "kaiju": r["kaiju"],
                **difference(r["wins"], r["battles"], r["wins_b"], r["battles_b"]),
            }
        )
    return pl.DataFrame(
        rows, schema={"kaiju": pl.String, "gap": pl.Float64, "low": pl.Float64, "high": pl.Float64}
    )


def difference(wins_a: int, n_a: int, wins_b: int, n_b: int) -> dict[str, float]:
    """p_b - p_a in percentage points with its normal (Wald) 95% interval."""
    p_a, p_b = wins_a / n_a, wins_b / n_b
    se = math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    gap = 100 * (p_b - p_a)
    return {"gap": gap, "low": gap - 100 * readings.Z95 * se, "high": gap + 100 * readings.Z95 * se}


def hardest_sentence(win: pl.DataFrame, deck: str) -> str:
    """The kaiju the deck's mechs beat least often, with its interval, and whether the
    next hardest can be told from it."""
    rows = (
        win.filter(pl.col("deck") == deck)
        .sort("win_rate", "kaiju")
        .rename({"win_low": "low", "win_high": "high"})
    )
    if not rows.height:
        return f"No battles from the {deck} deck."
    top = rows.row(0, named=True)
    text = (
        f"With the {deck} deck the hardest kaiju is {top['kaiju']}: win rate "
        f"{readings.interval(top['win_rate'], top['low'], top['high'], PCT)}."
    )
    if rows.height > 1:
        nxt = rows.row(1, named=True)
        text += " " + readings.compare(
            top, nxt, name="kaiju", value="win_rate", fmt=PCT, above="is beaten more often than"
        )
    return text


def summary(win: pl.DataFrame, totals: pl.DataFrame, gaps: pl.DataFrame, cap: str) -> Any:
    """Section (a): sentences, then the gap per kaiju as a chart when both decks ran."""
    decks = totals["deck"].to_list()
    items = [hardest_sentence(win, d) for d in decks]
    for r in totals.iter_rows(named=True):
        items.append(
            f"The {r['deck']} deck wins "
            f"{readings.interval(r['win_rate'], r['win_low'], r['win_high'], PCT)} "
            f"of its battles over every kaiju ({r['battles']:,} battles)."
        )
    chart = None
    if {"alpha", "full"} <= set(decks):
        a = totals.filter(pl.col("deck") == "alpha").row(0, named=True)
        b = totals.filter(pl.col("deck") == "full").row(0, named=True)
        items.append(
            readings.gap_sentence(
                difference(a["wins"], a["battles"], b["wins"], b["battles"]),
                "The full spread's win rate",
                "the alpha deck's",
                unit="percentage points",
                verb="sits",
            )
        )
        gpa = [
            {
                "deck": r["deck"],
                "mean_gpa": r["mean_gpa"],
                "low": r["mean_gpa"] - readings.Z95 * r["sd_gpa"] / math.sqrt(r["battles"]),
                "high": r["mean_gpa"] + readings.Z95 * r["sd_gpa"] / math.sqrt(r["battles"]),
            }
            for r in (a, b)
        ]
        items.append(
            readings.compare(
                gpa[1],
                gpa[0],
                name="deck",
                value="mean_gpa",
                fmt="{:.2f}",
                above="earns a higher mean GPA than",
            )
        )
        chart = charts.deck_gap_chart(gaps, cap + " Normal 95% interval of each difference.")
    text = "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in items) + "</ul>"
    return [text, chart] if chart is not None else text


BATTLE_ONLY = (
    "<p class='small'>The sections from here on are part 1's Battle-only study "
    "(<code>battles</code>): finished mechs dealt at random from each deck (lesson, gaps, "
    "spares and Traits drawn, no Assembly played), each fought once against a kaiju. The "
    "whole games above play Assembly too.</p>"
)


def _pieces(content: Any) -> list[Any]:
    return list(content) if isinstance(content, list | tuple) else [content]


def sections(ctx: ReportContext, con: Any, run_id: str) -> list[Section]:
    """Part 1's Battle-only study (finished mechs dealt from each deck) and the exact
    tables."""
    view = queries.view_of(con, EXPERIMENT)
    win = _one(queries.win_rates(con, view), run_id)
    totals = _one(queries.deck_totals(con, view), run_id)
    by = pl.concat(
        [
            _one(queries.win_by(con, f, view), run_id)
            for f in ("lesson_took", "gaps", "weak_matches")
        ]
    )
    crit = _one(queries.crits(con, view), run_id)
    policy = win["policy"][0] if win.height else POLICY
    cap = run_caption(con, run_id) + f" Policy {policy}."
    gaps = deck_gaps(win)
    frames = ctx.frames
    exact_cap = caption(source="exact")
    out = [
        Section(
            "Battle only: what should a designer know first?",
            [BATTLE_ONLY, *_pieces(summary(win, totals, gaps, cap))],
            {"deck_totals": totals, "deck_gaps": gaps.with_columns(run=pl.lit(run_id))},
        ),
        Section(
            "Battle only: how often does each deck beat each kaiju?",
            [
                charts.win_gpa_chart(
                    win,
                    cap + " Wilson 95% interval of the win rate, normal "
                    "95% interval of the mean GPA.",
                ),
                frame_table(
                    win.with_columns(pl.col(pl.Float64).round(3)),
                    [
                        "deck",
                        "kaiju",
                        "battles",
                        "wins",
                        "win_rate",
                        "win_low",
                        "win_high",
                        "mean_gpa",
                        "gpa_low",
                        "gpa_high",
                        "city_rate",
                        "destroyed_rate",
                        "mean_rounds",
                    ],
                ),
            ],
            {"win_rates": win},
        ),
        Section(
            "Battle only: what makes a dealt mech win?",
            [
                charts.factor_chart(by, cap + " Every kaiju pooled; Wilson 95% intervals."),
                "<p class='small'>A mech's lesson takes at 3+ parts of the lesson Form; gaps are "
                "slots left empty in Assembly; weakness matches count the parts whose Form or "
                "Type the kaiju (Traits applied) is weak to. These are associations across dealt "
                "mechs, not controlled changes.</p>",
            ],
            {"win_by": by},
        ),
    ]
    if "draws" in frames:
        out.append(
            Section(
                "How soon does a Form or Type show up?",
                [
                    charts.draws_chart(
                        frames["draws"],
                        exact_cap + " Hypergeometric draws from the freshly shuffled body pile.",
                    ),
                    "<p class='small'>The whole table: <a href='tables/labpartners/draws.csv'>"
                    "draws.csv</a>.</p>",
                ],
            )
        )
    if "battle" in frames:
        table = frames["battle"]
        floats = [c for c in table.columns if c.endswith("_float")]
        out.append(
            Section(
                "Each catalog mech against each kaiju (exact)",
                [
                    charts.exact_battle_chart(
                        table,
                        exact_cap + " The exact battle DP, policy steady, no Traits, no spares.",
                    ),
                    frame_table(
                        table.with_columns(pl.col(floats).cast(pl.Float64).round(3)),
                        ["mech", "kaiju", "lesson", *floats],
                    ),
                ],
            )
        )
    crit_html = ""
    if "crit" in frames:
        c = frames["crit"]
        crit_html = (
            frame_table(
                c, [x for x in ("head", "crit_immune", "accuracy", "p_crit") if x in c.columns]
            )
            + "<p class='small'>Exact P(crit) per damaging Arm by Head.</p>"
        )
    out.append(
        Section(
            "Battle only: how much do crits matter?",
            [charts.crits_chart(crit, cap + " Normal 95% interval of mean crits."), crit_html],
            {"crits": crit},
        )
    )
    return out


# ---- the whole-game study: full-spread-vs-alpha -------------------------------------------


@dataclass(frozen=True)
class Study:
    """One ``full-spread-vs-alpha`` run read back: every frame its sections, flags and
    the notebook show (each with its ``run`` column)."""

    run: str
    caption: str
    games: int  # games, each played with every deck
    decks: tuple[str, ...]  # full, alpha, other listed decks, then the sampled alphas
    means: pl.DataFrame  # queries.deck_means over every game
    by_players: pl.DataFrame  # ... by player count
    by_kaiju: pl.DataFrame  # ... by kaiju (every player count pooled)
    by_kaiju_players: pl.DataFrame  # ... by kaiju and player count
    diffs: pl.DataFrame  # queries.paired_differences, each deck against BASE, every game
    kaiju_gaps: pl.DataFrame  # ... by kaiju
    studies: pl.DataFrame  # queries.study_completion
    scarcity: pl.DataFrame  # queries.scarcity, every Form and Type listed
    lesson_dealt: pl.DataFrame  # queries.lesson_dealt with the exact odds beside (with_exact)
    lesson_seen: pl.DataFrame  # queries.lesson_seen per deck: descriptive, no exact odds

    @property
    def samples(self) -> tuple[str, ...]:
        return tuple(d for d in self.decks if d.startswith(SAMPLE_PREFIX))

    @property
    def catalog_decks(self) -> tuple[str, ...]:
        return tuple(d for d in self.decks if not d.startswith(SAMPLE_PREFIX))


SAMPLE_PREFIX = "alpha-sample-"


def alpha_and_full(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of the catalog's two decks (the side-by-side charts leave the sampled
    alphas to their own section)."""
    return frame.filter(pl.col("deck").is_in([BASE, "alpha"]))


def deck_order(decks: Iterable[str]) -> tuple[str, ...]:
    """Full, alpha, other catalog decks, then the sampled alphas in number order."""

    def key(d: str) -> tuple[int, int, str]:
        if d.startswith(SAMPLE_PREFIX) and d[len(SAMPLE_PREFIX) :].isdigit():
            return 3, int(d[len(SAMPLE_PREFIX) :]), d
        return {BASE: 0, "alpha": 1}.get(d, 2), 0, d

    return tuple(sorted(set(decks), key=key))


def sample_cards(catalog: Any, notes: Mapping[str, Any] | None) -> dict[str, list[Any]]:
    """The sampled alphas' cards, from the run's manifest notes (``alpha_samples``: deck
    id -> card ids)."""
    listed = (notes or {}).get("alpha_samples") or {}
    return {deck: [catalog.cards[c] for c in ids] for deck, ids in listed.items()}


def exact_lesson_dealt(
    cards: Sequence[Any], forms: Sequence[str], dealt: Iterable[int]
) -> dict[int, Fraction]:
    """P(a body card of the lesson Form among the first k body cards of the shuffled body
    pile) for each k in ``dealt``: the lesson is the top body card shuffled back (000
    Assembly), so it is Form F with F's share of the body pile, and then the pile is a
    fresh shuffle: the sum over F of P(lesson = F) x P(at least one F among k)
    (draws.p_at_least_one, hypergeometric). A k beyond the pile is left out."""
    body = draws.body_pile(cards)
    odds = draws.lesson_form_odds(cards, forms)
    counts = Counter(c.form for c in body)
    return {
        k: sum(
            (odds[f] * draws.p_at_least_one(len(body), counts[f], k) for f in forms), Fraction(0)
        )
        for k in dealt
        if 0 <= k <= len(body)
    }


def with_exact(
    lesson: pl.DataFrame, cards: Mapping[str, Sequence[Any]], forms: Sequence[str], hand_size: int
) -> pl.DataFrame:
    """``queries.lesson_dealt`` with the body cards in the opening hands (``dealt`` =
    hand_size x players: Assembly deals each player a full hand before anyone chooses),
    the exact odds at that many cards (``exact``, a float; null for a deck whose cards are
    unknown) and how far the simulated rate is from them in standard errors of the exact
    odds (``z``: (rate - exact) / sqrt(exact (1 - exact) / games); null when exact is 0 or
    1)."""
    dealt = [hand_size * int(n) for n in lesson["players"].to_list()]
    exact: list[float | None] = []
    for deck, k in zip(lesson["deck"].to_list(), dealt, strict=True):
        p = exact_lesson_dealt(cards[deck], forms, [k]).get(k) if deck in cards else None
        exact.append(None if p is None else float(p))
    out = lesson.with_columns(
        pl.Series("dealt", dealt, dtype=pl.Int64), pl.Series("exact", exact, dtype=pl.Float64)
    )
    se = (pl.col("exact") * (1 - pl.col("exact")) / pl.col("games")).sqrt()
    z = pl.when(se > 0).then((pl.col("rate") - pl.col("exact")) / se)
    return out.with_columns(z.alias("z"))


FAR = 4  # standard errors: a group this far from the exact odds is worth a look


def lesson_check(lesson: pl.DataFrame) -> str:
    """How many (deck, player count) groups of ``with_exact`` lie more than FAR standard
    errors from the exact odds, and the largest gap with its group."""
    scored = lesson.filter(pl.col("z").is_not_null())
    far = scored.filter(pl.col("z").abs() > FAR)
    text = (
        f"{far.height} of {lesson.height} (deck, player count) groups lie more than "
        f"{FAR} standard errors from the exact odds"
    )
    if not scored.height:
        return text + "."
    top = scored.sort(pl.col("z").abs(), descending=True).row(0, named=True)
    return (
        f"{text}; the largest gap is {top['z']:+.2f} standard errors ({top['deck']} at "
        f"{top['players']} players, {top['dealt']} cards dealt)."
    )


def lesson_seen_sentence(seen: pl.DataFrame) -> str:
    """Per deck, how often the lesson's Form was among all the body cards that left the
    pile (descriptive: not compared with exact odds)."""
    bits = [
        f"{r['rate']:.1%} of {r['games']:,} games with {deck_name(r['deck'])} (95% "
        f"{r['low']:.1%} to {r['high']:.1%}; {r['body_seen']:.1f} body cards left the pile "
        f"a game on average)"
        for r in seen.iter_rows(named=True)
    ]
    return (
        (
            "The lesson's Form was among all the body cards that left the draw pile in "
            "Assembly in " + ", and ".join(bits) + "."
        )
        if bits
        else ""
    )


def complete_scarcity(
    scarce: pl.DataFrame,
    decks: Sequence[str],
    games: Mapping[str, int],
    forms: Sequence[str],
    types: Sequence[str],
    run: str,
) -> pl.DataFrame:
    """``queries.scarcity`` with a row for every Form and Type of every deck: a value no
    locked mech held shows as 0 (with its Wilson interval), not as a missing row."""
    rows = []
    for deck in decks:
        for attribute, names in (("form", forms), ("type", types)):
            for value in names:
                rows.append(
                    {
                        "run": run,
                        "deck": deck,
                        "attribute": attribute,
                        "value": value,
                        "games": games[deck],
                    }
                )
    grid = pl.DataFrame(
        rows,
        schema={
            "run": pl.String,
            "deck": pl.String,
            "attribute": pl.String,
            "value": pl.String,
            "games": pl.Int64,
        },
    )
    held = scarce.select("run", "deck", "attribute", "value", "mechs")
    out = grid.join(held, on=["run", "deck", "attribute", "value"], how="left").with_columns(
        pl.col("mechs").fill_null(0).cast(pl.Int64)
    )
    bounds = [readings.wilson(m, g) for m, g in out.select("mechs", "games").iter_rows()]
    return out.with_columns(
        (pl.col("mechs") / pl.col("games")).alias("share"),
        pl.Series("low", [b[0] for b in bounds], dtype=pl.Float64),
        pl.Series("high", [b[1] for b in bounds], dtype=pl.Float64),
    )


def study_caption(con: Any, run_id: str, games: int, decks: int) -> str:
    """``Simulated (vector engine): 64,000 whole games, each played with all 6 decks on
    the same seeds, seed 1, run 1a2b3c.``: the study's caption (``run_caption`` would
    count its rows, games x decks, as battles)."""
    rows = con.execute(
        "SELECT engine, seed, set_json, label FROM runs WHERE run_id = ?", [run_id]
    ).fetchall()
    if not rows:
        raise ValueError(f"no run {run_id!r} in the store")
    engine, seed, set_json, label = rows[0]
    text = caption(
        source="simulated",
        seed=seed,
        params=json.loads(set_json or "{}"),
        run=run_id,
        engine=engine,
        label=label,
    )
    head, tail = text.split(": ", 1)
    return (
        f"{head}: {games:,} whole games, each played with all {decks} decks on the same "
        f"seeds, {tail}"
    )


def read_study(
    con: Any, run_id: str, catalog: Any, store: Path | None = None, view: str | None = None
) -> Study:
    """Read one ``full-spread-vs-alpha`` run (``run_id`` on a connection from
    ``analysis.query.connect``) into a :class:`Study`; ``store`` is where its manifest
    (the sampled alphas' card lists, for their exact draw odds) is found."""
    view = view or queries.view_of(con, STUDY)

    def one(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.filter(pl.col("run") == run_id)

    means = one(queries.deck_means(con, view))
    decks = deck_order(means["deck"].unique().to_list())
    wins = means.filter(pl.col("metric") == "win")
    games = dict(zip(wins["deck"].to_list(), wins["games"].to_list(), strict=True))
    notes = (
        (read_manifest(run_dir(store, GAME, STUDY, run_id)) or {}).get("notes") if store else None
    )
    cards: dict[str, Sequence[Any]] = {
        d: catalog.decks[d].cards for d in decks if d in catalog.decks
    }
    cards.update(sample_cards(catalog, notes))
    listed = (notes or {}).get("alpha_list")  # --alpha-list: the designer's alpha
    if listed and "alpha" in cards:
        ids = set(listed["cards"])
        cards["alpha"] = [c for c in catalog.decks[BASE].cards if c.id in ids]
    forms, types = list(catalog.forms), list(catalog.types)
    n_games = games.get(BASE, max(games.values(), default=0))
    text = study_caption(con, run_id, n_games, len(decks))
    return Study(
        run=run_id,
        caption=text,
        games=n_games,
        decks=decks,
        means=means,
        by_players=one(queries.deck_means(con, view, by=("players",))),
        by_kaiju=one(queries.deck_means(con, view, by=("kaiju",))),
        by_kaiju_players=one(queries.deck_means(con, view, by=("kaiju", "players"))),
        diffs=one(queries.paired_differences(con, view, base=BASE)),
        kaiju_gaps=one(queries.paired_differences(con, view, by=("kaiju",), base=BASE)),
        studies=one(queries.study_completion(con, view)),
        scarcity=complete_scarcity(
            one(queries.scarcity(con, view)), decks, games, forms, types, run_id
        ),
        lesson_dealt=with_exact(
            one(queries.lesson_dealt(con, view)), cards, forms, catalog.params.hand_size
        ),
        lesson_seen=one(queries.lesson_seen(con, view)),
    )


# ---- sentences -----------------------------------------------------------------------------


def deck_name(deck: str) -> str:
    return {"alpha": "the alpha deck", "full": "the full spread"}.get(deck, deck)


def effect_size(row: Mapping[str, Any]) -> float:
    """A difference in units of the metric's own spread (|diff| / pooled standard
    deviation): how the page ranks differences measured in unlike units (rates, parts
    per mech, GPA). A difference where the metric never varies is infinite (or 0)."""
    if row["sd_pooled"]:
        return abs(row["diff"]) / row["sd_pooled"]
    return math.inf if row["diff"] else 0.0


def biggest_first(diffs: pl.DataFrame, deck: str = "alpha") -> pl.DataFrame:
    """One deck's paired differences, biggest (by :func:`effect_size`) first."""
    rows = diffs.filter(pl.col("deck") == deck)
    size = [effect_size(r) for r in rows.iter_rows(named=True)]
    return rows.with_columns(pl.Series("effect_size", size, dtype=pl.Float64)).sort(
        "effect_size", "metric", descending=[True, False]
    )


def decimals(*values: float, least: int = 1) -> int:
    """Decimals enough to show the largest of ``values`` with two significant digits
    (at least ``least``): 0.0021 needs 4, 12.5 needs ``least``."""
    top = max((abs(v) for v in values), default=0.0)
    if top <= 0 or not math.isfinite(top):
        return least
    return max(least, 1 - math.floor(math.log10(top)))


def difference_sentence(row: Mapping[str, Any], base: str = BASE) -> str:
    """One paired difference (``metric``, ``deck``, ``diff``, ``low``, ``high``, ``games``,
    ``mean_deck``, ``mean_base``) in one sentence with its 95% interval; when the interval
    holds 0 the data cannot decide whether the decks differ. Rates are stated in
    percentage points, the rest in their units, with decimals enough for the interval."""
    metric = row["metric"]
    scale, unit = charts.difference_units(metric)
    label = charts.METRIC_TITLES.get(metric, metric)
    rate = metric in charts.RATE_METRICS
    size, low, high = (scale * row[k] for k in ("diff", "low", "high"))
    places = decimals(low, high, least=1 if rate else 2)
    level = "{:.1%}" if rate else f"{{:.{decimals(row['mean_deck'], least=2)}f}}"
    side = "above" if size > 0 else "below" if size < 0 else "level with"
    amount = f"{abs(size):.{places}f} {unit} " if size else ""
    text = (
        f"{label}: {deck_name(row['deck'])} is {amount}{side} {deck_name(base)} "
        f"(95% {low:+.{places}f} to {high:+.{places}f}), {level.format(row['mean_deck'])} "
        f"against {level.format(row['mean_base'])} over the same {row['games']:,} games"
    )
    if row["low"] <= 0 <= row["high"]:
        return text + ": the interval holds 0, so the data cannot decide whether they differ."
    return text + "."


def kaiju_gap_sentence(gaps: pl.DataFrame, deck: str = "alpha") -> str:
    """The kaiju whose win rate the deck moves most against the full spread, with its
    paired interval."""
    rows = gaps.filter((pl.col("deck") == deck) & (pl.col("metric") == "win"))
    if not rows.height:
        return f"No games with {deck_name(deck)}."
    hard = rows.sort("diff", "kaiju").row(0, named=True)
    easy = rows.sort("diff", "kaiju", descending=[True, False]).row(0, named=True)
    out = []
    for r, word in ((hard, "harder"), (easy, "easier")):
        if (word == "harder") != (r["diff"] < 0):
            continue
        decided = (
            ""
            if not r["low"] <= 0 <= r["high"]
            else (": the interval holds 0, so the data cannot decide")
        )
        gap = readings.interval(100 * r["diff"], 100 * r["low"], 100 * r["high"], "{:+.1f}")
        out.append(
            f"{deck_name(deck).capitalize()} makes {r['kaiju']} {word} most: win rate "
            f"{gap} percentage points against the full spread{decided}."
        )
    return " ".join(out) or "The deck moves no kaiju's win rate."


def samples_table(by_kaiju: pl.DataFrame) -> pl.DataFrame:
    """Per kaiju: the win rate of the full spread, of the catalog's alpha, and of the
    sampled alphas (lowest, median, highest), and how many samples the alpha beats."""
    win = by_kaiju.filter(pl.col("metric") == "win")
    rows = []
    for kaiju in sorted(win["kaiju"].unique().to_list()):
        part = win.filter(pl.col("kaiju") == kaiju)
        rate = dict(zip(part["deck"].to_list(), part["mean"].to_list(), strict=True))
        sampled = sorted(v for d, v in rate.items() if d.startswith(SAMPLE_PREFIX))
        if not sampled:
            continue
        alpha = rate.get("alpha")
        rows.append(
            {
                "kaiju": kaiju,
                "full": rate.get(BASE),
                "alpha": alpha,
                "samples": len(sampled),
                "sample_low": sampled[0],
                "sample_median": float(sorted(sampled)[len(sampled) // 2])
                if len(sampled) % 2
                else (sampled[len(sampled) // 2 - 1] + sampled[len(sampled) // 2]) / 2,
                "sample_high": sampled[-1],
                "samples_below_alpha": None if alpha is None else sum(v < alpha for v in sampled),
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "kaiju": pl.String,
            "full": pl.Float64,
            "alpha": pl.Float64,
            "samples": pl.Int64,
            "sample_low": pl.Float64,
            "sample_median": pl.Float64,
            "sample_high": pl.Float64,
            "samples_below_alpha": pl.Int64,
        },
    )


def samples_sentence(table: pl.DataFrame) -> str:
    """Where the catalog's alpha sits among the sampled alphas, kaiju by kaiju."""
    if not table.height:
        return "This run plays no sampled alphas (mechbal simulate ... --alpha-samples K)."
    outside = [
        r["kaiju"]
        for r in table.iter_rows(named=True)
        if r["alpha"] is not None and not r["sample_low"] <= r["alpha"] <= r["sample_high"]
    ]
    k = table["samples"][0]
    text = (
        f"Against each kaiju the {k} sampled alphas' win rates span "
        + "; ".join(
            f"{r['kaiju']} {r['sample_low']:.0%} to {r['sample_high']:.0%} "
            f"(catalog alpha {r['alpha']:.0%})"
            for r in table.iter_rows(named=True)
        )
        + "."
    )
    if outside:
        text += (
            f" The catalog's alpha lies outside the samples' range against "
            f"{', '.join(outside)}: there its card choice, not only its size, matters."
        )
    else:
        text += " The catalog's alpha lies within the samples' range against every kaiju."
    return text + (f" Only {k} samples: a range, not a distribution." if k < 10 else "")


# ---- the deck question: the random alpha decks first ------------------------------------


def sample_distribution(diffs: pl.DataFrame, kaiju_gaps: pl.DataFrame) -> pl.DataFrame:
    """The alpha-against-full gap of every random alpha deck (``alpha-sample-k``) as a
    distribution, with the catalog's alpha as one marked sample: per headline metric
    (:data:`HEADLINE_METRICS`, every game) and per kaiju's win rate. Columns: ``metric``,
    ``kaiju`` (null for every game), ``samples``, ``mean`` and ``sd`` (standard deviation
    across decks) of the gap, ``lowest``/``highest``, how many decks' gaps are above /
    below 0 (``above``, ``below``) and how many have a paired 95% interval wholly above /
    below 0 (``sure_above``, ``sure_below``); the catalog alpha's gap with its interval
    (``alpha``, ``alpha_low``, ``alpha_high``) and ``nearer``: how many random decks lie
    nearer the random decks' mean than the catalog's alpha (it is further out than they)."""
    parts = [
        diffs.filter(pl.col("metric").is_in(list(HEADLINE_METRICS))).with_columns(
            kaiju=pl.lit(None, pl.String)
        ),
        kaiju_gaps.filter(pl.col("metric") == "win"),
    ]
    rows = []
    for frame in parts:
        keys = frame.select("metric", "kaiju").unique(maintain_order=True).rows()
        for metric, kaiju in keys:
            part = frame.filter(
                (pl.col("metric") == metric)
                & (pl.col("kaiju").is_null() if kaiju is None else pl.col("kaiju") == kaiju)
            )
            sampled = part.filter(pl.col("deck").str.starts_with(SAMPLE_PREFIX))
            if not sampled.height:
                continue
            d = sampled["diff"].to_list()
            mean = sum(d) / len(d)
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else 0.0
            alpha = part.filter(pl.col("deck") == "alpha")
            a = alpha.row(0, named=True) if alpha.height else None
            rows.append(
                {
                    "metric": metric,
                    "kaiju": kaiju,
                    "samples": len(d),
                    "mean": mean,
                    "sd": sd,
                    "lowest": min(d),
                    "highest": max(d),
                    "above": sum(x > 0 for x in d),
                    "below": sum(x < 0 for x in d),
                    "sure_above": int((sampled["low"] > 0).sum()),
                    "sure_below": int((sampled["high"] < 0).sum()),
                    "alpha": None if a is None else a["diff"],
                    "alpha_low": None if a is None else a["low"],
                    "alpha_high": None if a is None else a["high"],
                    "nearer": None
                    if a is None
                    else sum(abs(x - mean) < abs(a["diff"] - mean) for x in d),
                }
            )
    schema = {
        "metric": pl.String,
        "kaiju": pl.String,
        "samples": pl.Int64,
        "mean": pl.Float64,
        "sd": pl.Float64,
        "lowest": pl.Float64,
        "highest": pl.Float64,
        "above": pl.Int64,
        "below": pl.Int64,
        "sure_above": pl.Int64,
        "sure_below": pl.Int64,
        "alpha": pl.Float64,
        "alpha_low": pl.Float64,
        "alpha_high": pl.Float64,
        "nearer": pl.Int64,
    }
    order = {m: i for i, m in enumerate(HEADLINE_METRICS)}
    rows.sort(key=lambda r: (r["kaiju"] is not None, order.get(r["metric"], 99), r["kaiju"] or ""))
    return pl.DataFrame(rows, schema=schema)


def largest_kaiju_gap(kaiju_gaps: pl.DataFrame, deck: str = "alpha") -> str | None:
    """The kaiju whose win rate the deck moves most (largest |gap|) against the full spread."""
    rows = kaiju_gaps.filter((pl.col("deck") == deck) & (pl.col("metric") == "win"))
    if not rows.height:
        return None
    return rows.with_columns(size=pl.col("diff").abs()).sort(
        "size", "kaiju", descending=[True, False]
    )["kaiju"][0]


def _signed(x: float) -> str:
    """``+1.0``, ``-11.0``; a value that rounds to zero prints ``0.0`` (not ``-0.0``)."""
    return "0.0" if round(x, 1) == 0 else f"{x:+.1f}"


def random_sentence(row: Mapping[str, Any]) -> str:
    """One headline measure over the random alpha decks: "Study completion: over 16
    random alpha decks the gap to the full spread averages ... (sd ...)"."""
    scale, unit = charts.difference_units(row["metric"])
    label = charts.METRIC_TITLES.get(row["metric"], row["metric"])
    if row["kaiju"]:
        label = f"{label} against {row['kaiju']}"
    return (
        f"{label}: over {row['samples']} random alpha decks the gap to the full spread "
        f"averages {_signed(scale * row['mean'])} {unit} (sd {scale * row['sd']:.1f} across "
        f"decks, {_signed(scale * row['lowest'])} to {_signed(scale * row['highest'])}); "
        f"{row['below']} decks below 0 and {row['above']} above ({row['sure_below']} and "
        f"{row['sure_above']} with the 95% interval wholly on that side)."
    )


def alpha_sentence(row: Mapping[str, Any]) -> str:
    """The catalog's alpha as one marked sample of the same measure: "The catalog's alpha
    (one sample): -11.0 (95% ...) percentage points, further out than 15 of 16 random
    alpha decks" (further from the random decks' mean)."""
    if row["alpha"] is None:
        return ""
    scale, unit = charts.difference_units(row["metric"])
    k = row["samples"]
    gap = readings.interval(
        scale * row["alpha"], scale * row["alpha_low"], scale * row["alpha_high"], "{:+.1f}"
    )
    where = (
        f"further out than {row['nearer']} of {k} random alpha decks"
        if row["nearer"]
        else f"nearer their mean than any of the {k} random alpha decks"
    )
    return f"The catalog's alpha (one sample): {gap} {unit}, {where}."


def distribution_sentence(row: Mapping[str, Any]) -> str:
    """One headline measure over the random alpha decks first, then the catalog's alpha
    as one marked sample of it."""
    return " ".join(x for x in (random_sentence(row), alpha_sentence(row)) if x)


def typical(row: Mapping[str, Any]) -> bool:
    """Whether the catalog alpha's gap lies within the random alpha decks' range."""
    return row["alpha"] is not None and row["lowest"] <= row["alpha"] <= row["highest"]


def headline_rows(study: Study) -> pl.DataFrame:
    """The headline's rows of :func:`sample_distribution`: the metrics over every game,
    then the kaiju whose win rate the catalog's alpha moves most."""
    dist = sample_distribution(study.diffs, study.kaiju_gaps)
    top = largest_kaiju_gap(study.kaiju_gaps)
    return dist.filter(pl.col("kaiju").is_null() | (pl.col("kaiju") == top))


def headline_gaps(study: Study) -> pl.DataFrame:
    """Every deck's gap (alpha, alpha-sample-k) on the headline's measures, for the chart."""
    top = largest_kaiju_gap(study.kaiju_gaps)
    every = study.diffs.filter(pl.col("metric").is_in(list(HEADLINE_METRICS))).with_columns(
        kaiju=pl.lit(None, pl.String)
    )
    kaiju = study.kaiju_gaps.filter((pl.col("metric") == "win") & (pl.col("kaiju") == top))
    cols = ["deck", "metric", "kaiju", "diff", "low", "high"]
    both = pl.concat([every.select(cols), kaiju.select(cols)])
    return both.filter((pl.col("deck") == "alpha") | pl.col("deck").str.starts_with(SAMPLE_PREFIX))


def _ul(items: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in items) + "</ul>"


def _round(frame: pl.DataFrame, digits: int = 4) -> pl.DataFrame:
    return frame.with_columns(pl.col(pl.Float64, pl.Float32).round(digits))


# ---- flags and sections ------------------------------------------------------------------


def study_flags(study: Study, limits: Mapping[str, Any]) -> list:
    """Kaiju outside ``win_rate`` with the full spread, and outside ``deck_gap`` between
    the alpha and the full spread (limits.toml), from the study's run."""
    flags = []
    cap = study.caption
    if "win_rate" in limits:
        full = study.by_kaiju.filter((pl.col("deck") == BASE) & (pl.col("metric") == "win"))
        win = full.select("kaiju", "games", pl.col("total").round(0).cast(pl.Int64).alias("wins"))
        flags += win_rate_flags(win, limits["win_rate"], cap)
    if "deck_gap" in limits:
        gaps = study.kaiju_gaps.filter((pl.col("deck") == "alpha") & (pl.col("metric") == "win"))
        flags += deck_gap_flags(gaps, limits["deck_gap"], cap)
    return flags


def _untagged(verdict_id: str, sentence: str) -> str:
    return sentence


def study_sections(
    study: Study,
    limits: Mapping[str, Any] | None = None,
    tag: Callable[[str, str], str] = _untagged,
) -> list[Section]:
    """The whole-game study's sections, in the page's order; ``tag(verdict_id, html)``
    puts a headline's robustness tag after it (analysis.report_rests.tagged)."""
    limits = limits or {}
    cap, run = study.caption, study.run
    two = [d for d in (BASE, "alpha") if d in study.decks]

    def of(frame: pl.DataFrame, decks: Sequence[str] = two) -> pl.DataFrame:
        return frame.filter(pl.col("deck").is_in(list(decks)))

    out: list[Section] = []
    ranked = biggest_first(study.diffs, "alpha")
    gap_limit = limits.get("deck_gap")
    rate_limit = limits.get("win_rate")
    bits = [difference_sentence(r) for r in ranked.iter_rows(named=True)]
    intro = (
        f"<p>{study.games:,} whole games (Assembly then Battle), each played once with the "
        f"alpha deck and once with the full spread on the same seeds: same kaiju, Trait "
        f"order, studies and seats, and the alpha's shuffle is the full spread's with the "
        f"other cards taken out. Each difference is the mean over games of (alpha - full) "
        f"in the same game, with its paired 95% interval (1.96 standard errors of the "
        f"per-game difference). Biggest first, by the difference over the metric's own "
        f"spread.</p>"
    )
    flagged = (
        [
            f"{len(study_flags(study, limits))} balance flag(s) from this run are listed "
            f"at the top of the page (kaiju outside the win-rate limit with the full "
            f"spread, or with an alpha-full gap beyond the deck-gap limit; only where the "
            f"95% interval lies wholly outside).",
            kaiju_gap_sentence(study.kaiju_gaps),
        ]
        if limits
        else [kaiju_gap_sentence(study.kaiju_gaps)]
    )
    head = headline_rows(study)
    if head.height:
        k = int(head["samples"][0])
        heads = []  # each sentence with its verdict's tag (analysis/labpartners/verdicts.py)
        for r in head.iter_rows(named=True):
            rand, alpha = html.escape(random_sentence(r)), html.escape(alpha_sentence(r))
            if r["kaiju"] is None:
                rand = tag(f"comparison:random:{r['metric']}", rand)
                alpha = tag(f"gap:alpha:{r['metric']}", alpha) if alpha else alpha
            else:
                alpha = tag("gap:alpha:kaiju", alpha) if alpha else alpha
            heads.append(f"<li>{rand} {alpha}</li>")
        away = [
            charts.METRIC_TITLES.get(r["metric"], r["metric"])
            + (f" against {r['kaiju']}" if r["kaiju"] else "")
            for r in head.iter_rows(named=True)
            if not typical(r)
        ]
        verdict = (
            f"The catalog's alpha lies outside the {k} random decks' range on: "
            f"{', '.join(away)}: there its choice of cards, not only its size, decides."
            if away
            else f"The catalog's alpha lies within the {k} random decks' range on every "
            "headline measure: it is typical of random alpha decks."
        )
        out.append(
            Section(
                "The alpha deck against the full spread: random alpha decks first",
                [
                    f"<p>No alpha card list is printed yet, so the alpha side is a "
                    f"distribution: {k} random alpha decks with the rulebook's counts (15 Legs, "
                    f"15 Torso, 15 Head, 25 Arms) drawn from the full spread (--alpha-samples), "
                    f"each played in the same {study.games:,} games as the full spread. The "
                    f"catalog's alpha is one invented list among them, marked as one sample; "
                    f"a designer's list can replace it (mechbal simulate labpartners "
                    f"full-spread-vs-alpha --alpha-list FILE).</p>"
                    + "<ul>"
                    + "".join(heads)
                    + "</ul>"
                    + f"<p>{tag('comparison:alpha_typical', html.escape(verdict))}</p>",
                    charts.sample_gaps_chart(
                        headline_gaps(study),
                        cap + " Grey: each random alpha deck; orange: the catalog's "
                        "alpha with its paired 95% interval.",
                    ),
                    frame_table(_round(head, 4)),
                ],
                {
                    "alpha_sample_gaps": _round(
                        sample_distribution(study.diffs, study.kaiju_gaps).with_columns(
                            run=pl.lit(run)
                        ),
                        6,
                    )
                },
            )
        )
    out.append(
        Section(
            "What the catalog's alpha changes (one sample of an alpha list)",
            [
                intro + _ul(bits) + _ul(flagged),
                charts.difference_chart(ranked, cap + " Paired 95% intervals."),
            ],
            {"deck_differences": _round(ranked)},
        )
    )

    out.append(
        Section(
            "How does each deck build its mechs?",
            [
                charts.build_chart(
                    of(study.by_players),
                    cap + " Wilson 95% interval of the "
                    "lesson-take rate, normal 95% intervals of the means.",
                ),
                "<p class='small'>The lesson takes at 3+ locked parts of the lesson Form; gaps are "
                "slots still empty when the countdown ran out; weakness matches count the locked "
                "parts whose Form or Type the kaiju (Traits applied) is weak to.</p>",
            ],
            {"study_by_players": _round(of(study.by_players, study.decks))},
        )
    )

    kp = of(study.by_kaiju_players)
    win_kp = kp.filter(pl.col("metric").is_in(["win", "gpa"]))
    out.append(
        Section(
            "How often does each deck beat each kaiju, at each player count?",
            [
                charts.kaiju_players_chart(
                    win_kp,
                    cap + " Wilson 95% interval of the win rate, "
                    "normal 95% interval of the mean GPA.",
                ),
                frame_table(
                    _round(
                        win_kp.pivot(
                            on="metric", index=["deck", "kaiju", "players"], values="mean"
                        ),
                        3,
                    )
                ),
            ],
            {
                "study_by_kaiju_players": _round(of(study.by_kaiju_players, study.decks)),
                "study_by_kaiju": _round(of(study.by_kaiju, study.decks)),
            },
        )
    )

    gaps = study.kaiju_gaps.filter(pl.col("metric") == "win")
    alpha_gaps = gaps.filter(pl.col("deck") == "alpha")
    gap_text = [kaiju_gap_sentence(study.kaiju_gaps)]
    if rate_limit is not None:
        gap_text.append(
            f"Limit (limits.toml, {rate_limit.provenance}): every kaiju beaten "
            f"{rate_limit.min:.0%} to {rate_limit.max:.0%} of the time with the "
            f"full spread."
        )
    if gap_limit is not None:
        gap_text.append(
            f"Limit (limits.toml, {gap_limit.provenance}): the alpha's win rate "
            f"within {100 * gap_limit.max:.0f} percentage points of the full "
            f"spread's against every kaiju."
        )
    out.append(
        Section(
            "Which kaiju does the alpha deck make too hard or too easy?",
            [
                _ul(gap_text),
                charts.kaiju_gap_chart(
                    alpha_gaps,
                    cap + " Paired 95% intervals (every player count "
                    "pooled); red: the deck-gap limit.",
                    gap_limit.max if gap_limit is not None else None,
                ),
                frame_table(
                    _round(alpha_gaps.with_columns(pl.col("diff", "low", "high") * 100), 2),
                    ["kaiju", "games", "mean_deck", "mean_base", "diff", "low", "high"],
                ),
                "<p class='small'>diff, low and high in percentage points (alpha minus full).</p>",
            ],
            {"kaiju_gaps": _round(study.kaiju_gaps)},
        )
    )

    out.append(
        Section(
            "Which Independent Studies get completed?",
            [
                charts.study_chart(
                    of(study.studies),
                    cap + " Every seat that held the study; Wilson 95% intervals.",
                ),
                frame_table(
                    _round(of(study.studies), 3),
                    ["deck", "study", "seats", "done", "rate", "low", "high"],
                ),
            ],
            {"study_completion": _round(of(study.studies, study.decks))},
        )
    )

    out.append(
        Section(
            "Which Forms and Types are scarce in the locked mechs?",
            [
                charts.scarcity_chart(
                    of(study.scarcity),
                    cap + " Share of locked mechs holding at "
                    "least one part of each Form (Type); Wilson 95% intervals.",
                ),
                "<p class='small'>A mech's Form or Type counts once however many of its parts "
                "carry it. A share near 0 for the alpha deck only is the reduced deck at work "
                "(Appendix: The Full Spread).</p>",
            ],
            {"scarcity": _round(of(study.scarcity, study.decks))},
        )
    )

    dealt = of(study.lesson_dealt)
    seen = of(study.lesson_seen)
    hand = dealt["dealt"][0] // dealt["players"][0] if dealt.height else "hand_size"
    out.append(
        Section(
            "Does the lesson's Form show up as often as the exact draw odds say?",
            [
                "<p>Exact: P(a body card of the lesson Form among the first k body cards) = the sum "
                "over Forms F of P(lesson = F) x P(at least one F among k) (hypergeometric, "
                "sims/labpartners/draws.py), the lesson being the top body card shuffled back, at "
                f"k = the opening hands ({hand} body cards a player). Simulated: the rate of "
                "<code>lesson_dealt</code> per deck and player count, with its Wilson 95% interval; "
                "z is the gap in standard errors of the exact odds. The deal is the exact test "
                "because it happens before any choice, whereas how many body cards are seen later "
                "depends on the players' choices, which themselves read the lesson. "
                f"{html.escape(lesson_check(dealt))}</p>",
                charts.lesson_odds_chart(
                    dealt, cap + " Black ticks: exact; points: simulated with Wilson 95% intervals."
                ),
                frame_table(
                    _round(dealt, 4),
                    [
                        "deck",
                        "players",
                        "dealt",
                        "games",
                        "hits",
                        "rate",
                        "low",
                        "high",
                        "exact",
                        "z",
                    ],
                ),
                f"<p class='small'>Descriptive only, not a test of the odds: "
                f"{html.escape(lesson_seen_sentence(seen))}</p>",
            ],
            {
                "lesson_dealt": _round(of(study.lesson_dealt, study.decks)),
                "lesson_seen": _round(of(study.lesson_seen, study.decks)),
            },
        )
    )

    table = samples_table(study.by_kaiju)
    if study.samples:
        win = study.by_kaiju.filter(pl.col("metric") == "win")
        out.append(
            Section(
                "How much does the answer depend on which 70 cards the alpha holds?",
                [
                    f"<p>{html.escape(samples_sentence(table))}</p>",
                    charts.alpha_samples_chart(
                        win,
                        cap + f" {len(study.samples)} sampled alphas "
                        "(--alpha-samples): the alpha's count of each "
                        "Part-Type drawn from the full spread. Wilson 95% "
                        "intervals.",
                    ),
                    frame_table(_round(table, 3)),
                ],
                {"alpha_samples": _round(table.with_columns(run=pl.lit(run)))},
            )
        )
    else:
        out.append(
            Section(
                "How much does the answer depend on which 70 cards the alpha holds?",
                f"<p>{html.escape(samples_sentence(table))}</p>",
            )
        )
    return out
