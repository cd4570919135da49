"""mechbal robust on Coin Duel, the toy game (analysis.robust): a verdict planted to flip
under one reading is tagged fragile naming that reading, one that holds everywhere is
tagged robust; the classifier's words; the budget; resuming; the report's tags.

The planted numbers (9,000 bouts, seed 1; tests/core/toy): with each fighter's own HP
brute leads the standings (56.9%, knave 48.1%, pawn 45.1%); with hp_rule = equal every
fighter has 3 HP and the d8 knave leads (81.4%) while brute falls to 15.6%. Heads adding
0 or 3 instead of 1 leaves brute first (55.5%, 62.7%). Knave scores above 40% under each.
"""

from __future__ import annotations

import math

import pytest

from analysis.robust import Check, classify, latest, robust, write
from analysis.verdicts import Outcome, Variant, Verdict
from tests.core.toy import CATALOGS

KINDS = ("seat", "reading")  # the placeholders move invented HP: tested apart


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return tmp_path_factory.mktemp("store")


@pytest.fixture(scope="module")
def result(store):
    return robust(
        "toy", catalog_root=CATALOGS, store=store, n=3000, seed=1, budget=None, kinds=KINDS
    )


def test_the_planted_verdicts_are_classified(result):
    tags = {t.verdict: t for t in result.tags}
    best = tags["best:fighter"]
    assert best.base.label == "brute"
    assert best.status == "fragile"
    assert [c.variant for c in best.flips] == ["hp_rule=equal"]
    assert best.flips[0].label == "knave"
    assert best.words.startswith("fragile: depends on hp_rule=equal (knave, ")
    assert best.flips[0].value > 0.75  # the d8 knave with 3 HP like everyone (81% at 9,000)
    knave = tags["other:knave"]
    assert knave.status == "robust"
    assert (
        knave.words == "robust: holds under all 5 variants (both seats and 3 reading alternatives)"
    )


def test_every_headline_is_checked_under_every_variant(result):
    assert [v.id for v in result.variants] == [
        "seat=a",
        "seat=b",
        "hp_rule=equal",
        "coin_bonus=0",
        "coin_bonus=3",
    ]
    for tag in result.tags:
        done = {
            c.variant for c in result.checks if c.verdict == tag.verdict and c.status == "checked"
        }
        assert done == {v.id for v in result.variants}
    # no fighter's standing lies beyond 30%..70% on the catalog: no flag is a headline
    assert not any(t.verdict.startswith("flag:") for t in result.tags)


def test_a_second_pass_reads_the_stored_runs(store, result):
    again = robust("toy", catalog_root=CATALOGS, store=store, n=3000, seed=1, budget=0, kinds=KINDS)
    # budget 0 starts no rerun, yet every run is in the store already: all checked
    assert [(t.verdict, t.status) for t in again.tags] == [
        (t.verdict, t.status) for t in result.tags
    ]


def test_a_spent_budget_leaves_variants_unchecked(tmp_path):
    out = robust("toy", catalog_root=CATALOGS, store=tmp_path, n=600, seed=2, budget=0, kinds=KINDS)
    knave = next(t for t in out.tags if t.verdict == "other:knave")
    assert knave.status == "unconfirmed"  # the seats read the baseline's rows: checked
    assert knave.words == "holds where checked (both seats); 3 variants not checked (budget)"
    assert not out.complete


def test_a_variant_that_does_not_load_is_reported(tmp_path):
    from analysis import plugin
    from tests.core.toy import analysis as toy

    bad = Variant(
        "fighter.knave.hp=99", "policy", "an HP out of range", sets={"fighter.knave.hp": 99}
    )
    plugin.register("toy", "tests.core.toy.analysis:ANALYSIS")
    old = toy.ANALYSIS
    try:
        import dataclasses

        toy.ANALYSIS = dataclasses.replace(old, variants=lambda catalog: [bad])
        out = robust(
            "toy",
            catalog_root=CATALOGS,
            store=tmp_path,
            n=300,
            seed=1,
            budget=None,
            kinds=("policy",),
        )
    finally:
        toy.ANALYSIS = old
    invalid = [c for c in out.checks if c.status == "invalid"]
    assert invalid and all("fighter 'knave', field 'hp'" in c.text for c in invalid)
    assert all(
        t.words.endswith("(1 variants did not load)") or t.status == "unchecked" for t in out.tags
    )


def _verdict() -> Verdict:
    return Verdict("best:x", "best", "the best x", "bout", lambda rows, seat: Outcome("a", 0.6))


def _check(
    variant: str, kind: str, holds: bool | None, status: str = "checked", label: str = "a"
) -> Check:
    return Check("best:x", variant, kind, status, holds, label, 0.5, 0.4, 0.6, f"{label} leads")


def test_the_classifier_words():
    base = Outcome("a", 0.6, 0.55, 0.65, "a leads")
    v = _verdict()
    robust_tag = classify(
        v,
        base,
        [
            _check("seat=a", "seat", True),
            _check("seat=b", "seat", True),
            _check("r=1", "reading", True),
        ],
        [],
        [],
        [],
    )
    assert (robust_tag.status, robust_tag.words) == (
        "robust",
        "robust: holds under all 3 variants (both seats and 1 reading alternative)",
    )
    fragile = classify(
        v,
        base,
        [
            _check("r=1", "reading", False, label="b"),
            _check("p#1", "placeholder", True),
            _check("p#2", "placeholder", False, label="b"),
        ],
        [],
        [],
        [],
    )
    assert fragile.status == "fragile"
    assert (
        fragile.words
        == "fragile: depends on r=1 (b, 50.0%); the placeholders (1 of 2 draws flip it); "
        "holds under 1 placeholder draw"
    )
    none = classify(v, base, [_check("r=1", "reading", None, status="unchecked")], [], [], [])
    assert (none.status, none.words) == (
        "unchecked",
        "not checked: the budget ran out before any variant",
    )


def test_the_page_and_files_are_written_and_read_back(result, tmp_path):
    paths = write(result, tmp_path)
    assert paths["page"].name == "robust-toy.html"
    page = paths["page"].read_text()
    assert (
        "Which variants flip which verdict" in page
        and "How far each variant moves each verdict" in page
    )
    back = latest(tmp_path, "toy", CATALOGS, {})
    assert back is not None and [t.words for t in back.tags] == [t.words for t in result.tags]
    assert latest(tmp_path, "toy", CATALOGS, {"coin_bonus": 2}) is None  # another catalog
    tags = paths["tags"].read_text().splitlines()
    assert tags[0] == "verdict,claim,kind,label,value,low,high,status,tag"
    assert not math.isnan(result.tags[0].base.value)


def test_the_report_opens_with_what_it_rests_on_and_tags_its_verdicts(tmp_path):
    from analysis.report import build_report

    index = build_report(
        ["toy"],
        CATALOGS,
        tmp_path / "reports",
        store=tmp_path / "data",
        n=1200,
        seed=1,
        robust_budget=60,
    )
    page = (tmp_path / "reports" / "toy.html").read_text()
    assert page.index("What these numbers rest on") < page.index("What is out of balance")
    # fighters 3 entries (1 rulebook) and 6 fields (2 rulebook); round_cap assumed;
    # hp_rule and coin_bonus switched by readings, and the tie read in the code
    assert "Of the 13 catalog entries" in page
    assert "3 are the rulebook&#x27;s, 7 are assumed" in page and "and 3 are readings" in page
    assert "fragile: depends on hp_rule=equal" in page
    assert "What these numbers rest on" in index.read_text()
    # the bout reads the fighters: 9 of their values, and the 3 rules parameters with
    # the reading read in the code: 3 rulebook, 7 assumed, 3 readings
    assert "<td>bout</td><td>fighter</td><td>3</td><td>7</td><td>3</td>" in page
