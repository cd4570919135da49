"""Charts (analysis.charts, analysis.skirmish.charts), offline pages (analysis.html) and
time_to_kill, over a fake store built like tests/skirmish/fake_store.py's, the board store of
tests/skirmish/test_queries.py, and over the real exact frames."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import altair as alt
import duckdb
import numpy as np
import polars as pl
import pytest
import vl_convert

from analysis import charts as core_charts
from analysis.html import (
    chart_html,
    javascript_bundle,
    notebook_renderer,
    page,
    use_offline_notebook,
    write_page,
)
from analysis.query import connect
from analysis.skirmish import charts
from analysis.skirmish.queries import (
    crit_share,
    decided_by_map,
    destroyed_by_round,
    positions,
    score_moves,
    scores_by_map,
    time_to_kill,
    win_rates,
    zone_control,
)
from sims.skirmish.catalog import Catalog
from sims.skirmish.exact import bands_table, damage_by_range_table
from sims.skirmish.maps import Map
from tests.skirmish.test_queries import board_store

# --- a fake store --------------------------------------------------------------------------

Outcome = tuple[int, int, int]  # (winner 0 A / 1 B / 2 draw, decided 0 wipe .. 3 draw, rounds)


def battles(
    side_a: str, side_b: str, outcomes: list[Outcome], cannon: list[tuple[int, int]] | None = None
) -> pl.DataFrame:
    """Rows in the duel schema (the columns the queries read); ``cannon`` gives (hits,
    crits) of a Cannon on side A's first mount per battle, other mounts empty."""
    n = len(outcomes)
    cannon = cannon or [(0, 0)] * n
    cols: dict[str, pl.Series] = {
        "cell": pl.Series([0] * n, dtype=pl.Int32),
        "side_a": pl.Series([side_a] * n, dtype=pl.String),
        "side_b": pl.Series([side_b] * n, dtype=pl.String),
        "policy_a": pl.Series(["gunline"] * n, dtype=pl.String),
        "policy_b": pl.Series(["gunline"] * n, dtype=pl.String),
        "winner": pl.Series([o[0] for o in outcomes], dtype=pl.Int8),
        "decided": pl.Series([o[1] for o in outcomes], dtype=pl.Int8),
        "rounds": pl.Series([o[2] for o in outcomes], dtype=pl.Int8),
    }
    for side in "ab":
        for k in range(3):
            first = side == "a" and k == 0
            cols[f"weapon_{side}_{k}"] = pl.Series(
                ["cannon" if first else None] * n, dtype=pl.String
            )
            for i, stat in enumerate(("hits", "crits")):
                cols[f"{stat}_{side}_{k}"] = pl.Series(
                    [c[i] if first else 0 for c in cannon], dtype=pl.Int16
                )
    return pl.DataFrame(cols)


def write_run(
    store: Path,
    experiment: str,
    run_id: str,
    chunks: dict[str, pl.DataFrame],
    *,
    set_: dict[str, Any] | None = None,
    sweep: dict[str, list[Any]] | None = None,
) -> None:
    run_dir = store / "skirmish" / experiment / f"run={run_id}"
    rows = 0
    for rel, df in chunks.items():
        (run_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        df.write_parquet(run_dir / rel)
        rows += df.height
    manifest = {
        "run_id": run_id,
        "game": "skirmish",
        "experiment": experiment,
        "engine": "vector",
        "engine_version": "1",
        "rules_version": "skirmish-1",
        "seed": 7,
        "n": rows,
        "n_per_cell": 1,
        "chunk_size": 1000,
        "chunks": len(chunks),
        "set": set_ or {},
        "sweep": sweep or {},
        "catalog_hash": "abc123",
        "created": "2025-01-01T00:00:00",
        "finished": "2025-01-01T00:01:00",
        "complete": True,
        "rows": rows,
    }
    (run_dir / "manifest.json").write_text(json.dumps(manifest))


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    store = tmp_path_factory.mktemp("store")
    # Duel d1: side A's score 0.375, 0.75, 0.5, 0.5; B wiped in rounds 3, 5 (bastion v
    # foreman) and 2 (the foreman mirror).
    write_run(
        store,
        "duel",
        "d1",
        {
            "part-00000.parquet": pl.concat(
                [
                    battles("foreman", "bastion", [(1, 0, 3), (0, 1, 7), (2, 3, 7), (1, 0, 5)]),
                    battles("bastion", "foreman", [(0, 0, 3), (0, 0, 5), (1, 1, 7), (0, 2, 7)]),
                    battles("foreman", "foreman", [(0, 0, 2), (1, 0, 4)]),
                    battles("bastion", "bastion", [(2, 3, 7), (2, 3, 7)]),
                ]
            )
        },
    )
    # Crit-margin cm sweeps 3, 4, 5; run cs sets margin 6. Foreman wipes the bastion in
    # rounds 2 and 4 of 4 battles at margin 3, round 6 of 2 at 4, never at 5, round 1 at 6.
    write_run(
        store,
        "crit-margin",
        "cm",
        {
            "crit_margin=3/part-00000.parquet": pl.concat(
                [
                    battles(
                        "foreman",
                        "bastion",
                        [(0, 0, 2), (0, 0, 4), (0, 1, 7), (1, 0, 3)],
                        cannon=[(2, 1), (2, 1), (0, 0), (1, 0)],
                    ),
                    battles("bastion", "foreman", [(1, 0, 5), (2, 3, 7)]),
                ]
            ),
            "crit_margin=4/part-00000.parquet": battles(
                "foreman", "bastion", [(0, 0, 6), (0, 2, 7)], cannon=[(3, 1), (1, 0)]
            ),
            "crit_margin=5/part-00000.parquet": battles(
                "foreman", "bastion", [(1, 0, 3)], cannon=[(2, 0)]
            ),
        },
        sweep={"crit_margin": [3, 4, 5]},
    )
    write_run(
        store,
        "crit-margin",
        "cs",
        {"part-00000.parquet": battles("foreman", "bastion", [(0, 0, 1)], cannon=[(1, 0)])},
        set_={"crit_margin": 6},
    )
    connection = connect(store, catalog=None)  # hand-made runs: no catalog made them
    yield connection
    connection.close()


# --- spec helpers --------------------------------------------------------------------------


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every dict in a spec, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def axis_titles(spec: dict[str, Any]) -> set[str]:
    return {
        enc[ch]["title"]
        for d in walk(spec)
        if isinstance(enc := d.get("encoding"), dict)
        for ch in ("x", "y")
        if isinstance(enc.get(ch), dict) and "title" in enc[ch]
    }


def inline_values(spec: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The inline datasets; fails on any data URL (a page must not fetch data)."""
    data = [d["data"] for d in walk(spec) if isinstance(d.get("data"), dict)]
    assert data and all(set(d) == {"values"} for d in data)
    assert "datasets" not in spec and '"url"' not in json.dumps(spec)
    return [d["values"] for d in data]


def check_title(spec: dict[str, Any], question: str, caption_text: str) -> None:
    title = spec["title"]
    assert title["text"] == question
    assert " ".join(title["subtitle"]) == caption_text


def render_svg(chart: alt.TopLevelMixin, *texts: str) -> str:
    svg = vl_convert.vegalite_to_svg(chart.to_json())
    assert svg.lstrip().startswith("<svg")
    assert 'class="marks"' in svg
    for text in texts:
        assert text in svg
    return svg


NETWORK_ATTR = re.compile(r"""\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


def assert_offline(doc: str) -> None:
    """No network reference: no http(s) or protocol-relative src/href anywhere, no CDN,
    and outside the (minified) bundle no element loading anything by src or href."""
    assert not NETWORK_ATTR.search(doc)
    assert "cdn" not in doc.lower()
    own = doc.replace(javascript_bundle(), "")
    assert not re.search(r"""<(?:script|link|img|iframe)[^>]*\b(?:src|href)=""", own, re.I)


# --- queries -------------------------------------------------------------------------------


def test_time_to_kill(con: duckdb.DuckDBPyConnection) -> None:
    df = time_to_kill(con, "crit_margin_all")
    assert df.columns == [
        "run",
        "side_a",
        "crit_margin",
        "battles",
        "wipes",
        "share_wiped",
        "mean_rounds_to_kill",
    ]
    assert df["run"].n_unique() == 2  # one row per run, kit and margin
    df = df.drop("run").sort("side_a", "crit_margin")
    # Side A's wipes are winner 0 with decided 0: the points win (0, 1, 7) and the Hull win
    # (0, 2, 7) do not count, nor side A being wiped (1, 0, r). Run cs's --set margin 6 joins
    # the swept margins of run cm.
    assert df.rows() == [
        ("bastion", 3, 2, 0, 0.0, None),
        ("foreman", 3, 4, 2, 0.5, 3.0),
        ("foreman", 4, 2, 1, 0.5, 6.0),
        ("foreman", 5, 1, 0, 0.0, None),
        ("foreman", 6, 1, 1, 1.0, 1.0),
    ]
    # No crit_margin column in the duel view: one row per kit with a NULL margin.
    duel = (
        time_to_kill(con, "duel")
        .group_by("side_a", "crit_margin")
        .agg(pl.col("battles").sum(), pl.col("wipes").sum())
        .sort("side_a")
    )
    duel = duel.with_columns(share_wiped=pl.col("wipes") / pl.col("battles"))
    assert duel.select("side_a", "crit_margin", "battles", "wipes", "share_wiped").rows() == [
        ("bastion", None, 6, 2, pytest.approx(2 / 6)),
        ("foreman", None, 6, 1, pytest.approx(1 / 6)),
    ]


# --- captions ------------------------------------------------------------------------------


def test_caption() -> None:
    text = core_charts.caption(
        source="simulated",
        n=20000,
        seed=1,
        params={"crit_margin": 4},
        run="1a2b3c",
        engine="vector",
    )
    assert text == "Simulated (vector engine): 20,000 battles, seed 1, crit_margin 4, run 1a2b3c."
    assert core_charts.caption(source="exact") == "Exact: from the catalog, no simulation."
    assert (
        core_charts.caption(source="Exact", params={"target": "foreman"})
        == "Exact: from the catalog, no simulation, target foreman."
    )
    swept = core_charts.caption(source="simulated", n=500, params={"crit_margin": [2, 3, 4, 5, 6]})
    assert swept == "Simulated: 500 battles, crit_margin 2–6."
    assert core_charts.caption(source="simulated", params={"m": [2, 4]}) == "Simulated: m 2/4."
    with pytest.raises(ValueError, match="'simulated' or 'exact'"):
        core_charts.caption(source="guessed")


def test_run_caption(con: duckdb.DuckDBPyConnection) -> None:
    assert core_charts.run_caption(con, "cm") == (
        "Simulated (vector engine): 9 battles, seed 7, swept crit_margin 3–5, run cm."
    )
    assert core_charts.run_caption(con, "cs", {"policy": "gunline"}) == (
        "Simulated (vector engine): 1 battle, seed 7, crit_margin 6, policy gunline, run cs."
    )
    with pytest.raises(ValueError, match="no run 'nope'"):
        core_charts.run_caption(con, "nope")


# --- charts --------------------------------------------------------------------------------


def test_win_rate_heatmap(con: duckdb.DuckDBPyConnection) -> None:
    text = core_charts.caption(source="simulated", n=12, seed=7, run="d1", engine="vector")
    chart = charts.win_rate_heatmap(win_rates(con), text)
    spec = chart.to_dict()
    check_title(spec, "Which kit wins each duel?", text)
    assert axis_titles(spec) == {"Kit (side A)", "Opponent kit"}
    color = next(d["color"] for d in walk(spec) if "scale" in d.get("color", {}))
    assert color["field"] == "score_a"
    assert color["scale"]["domain"] == [0, 1] and color["scale"]["domainMid"] == 0.5
    tooltips = [d["tooltip"] for d in walk(spec) if isinstance(d.get("tooltip"), list)]
    assert tooltips
    for tooltip in tooltips:
        fields = {t["field"] for t in tooltip}
        assert {"score_a", "score_low", "score_high", "interval", "battles"} <= fields
        assert "mean_rounds" in fields
    assert any(d.get("text", {}).get("format") == ".0%" for d in walk(spec))
    (values,) = inline_values(spec)
    cells = {(v["side_a"], v["side_b"]): v for v in values}
    assert len(cells) == 4
    assert cells[("bastion", "foreman")]["score_a"] == 0.75
    assert cells[("foreman", "bastion")]["score_a"] == 0.375
    low, high = (
        cells[("bastion", "foreman")]["score_low"],
        cells[("bastion", "foreman")]["score_high"],
    )
    assert cells[("bastion", "foreman")]["interval"] == (
        f"{round(low * 100, 1)}% – {round(high * 100, 1)}%"
    )
    render_svg(chart, "Which kit wins each duel?", "75%", "Opponent kit")


def test_heatmap_refuses_overlapping_runs(con: duckdb.DuckDBPyConnection) -> None:
    rates = win_rates(con)
    twice = pl.concat([rates, rates.with_columns(run=pl.lit("d2"))])
    with pytest.raises(ValueError, match="2 rows for side_a bastion, side_b bastion"):
        charts.win_rate_heatmap(twice, "x")


def test_destroyed_by_round_chart(con: duckdb.DuckDBPyConnection) -> None:
    text = core_charts.run_caption(con, "d1")
    chart = charts.destroyed_by_round_chart(destroyed_by_round(con), text)
    spec = chart.to_dict()
    check_title(spec, "How fast does each kit destroy each opponent?", text)
    assert axis_titles(spec) == {"Round", "Destroyed by this round or sooner"}
    (param,) = spec["params"]
    assert param["name"] == "kit_a" and param["value"] == "bastion"
    assert param["bind"]["input"] == "select"
    assert param["bind"]["options"] == ["bastion", "foreman"]
    filters = [d["filter"] for d in walk(spec) if "filter" in d]
    assert filters == ["(datum.side_a === kit_a)"]
    (values,) = inline_values(spec)
    curve = sorted(
        (v["round"], v["share_wiped_b"])
        for v in values
        if (v["side_a"], v["side_b"]) == ("bastion", "foreman")
    )
    assert curve == [(1, 0), (2, 0), (3, 0.25), (4, 0.25), (5, 0.5), (6, 0.5), (7, 0.5)]
    render_svg(chart, "How fast does each kit destroy each opponent?")


def test_damage_by_range_chart(skirmish: Catalog) -> None:
    frame = damage_by_range_table(skirmish, target="foreman")
    text = core_charts.caption(source="exact", params={"target": "foreman"})
    chart = charts.damage_by_range_chart(frame, text)
    spec = chart.to_dict()
    check_title(spec, "How much damage does each kit deal at each range?", text)
    assert axis_titles(spec) == {"Range (hexes)", "Expected damage per Fire action"}
    fields = {t["field"] for d in walk(spec) for t in d.get("tooltip", []) if "field" in t}
    assert {"kit", "distance", "weapon", "expected_damage_float", "expected_damage"} <= fields
    (values,) = inline_values(spec)
    assert len(values) == frame.height
    render_svg(chart, "Range (hexes)")


def test_strike_frequency_chart(skirmish: Catalog) -> None:
    bands = bands_table(skirmish)
    text = core_charts.caption(source="exact")
    chart = charts.strike_frequency_chart(bands, text)
    spec = chart.to_dict()
    check_title(spec, "Which parts get hit, with and without hard cover?", text)
    assert spec["facet"]["field"] == "kit"
    enc = spec["spec"]["encoding"]
    assert enc["x"]["title"] == "Hit location (d20 bands)"
    assert enc["y"]["title"] == "Share of hits struck"
    assert enc["x"]["sort"] == ["Head", "Right Arm", "Left Arm", "Core", "Back", "Legs", "Cover"]
    assert enc["xOffset"]["field"] == "cover_name"
    assert enc["color"]["sort"] == ["No cover", "Hard cover"]
    (values,) = inline_values(spec)
    assert len(values) == bands.height
    foreman = {
        (v["cover"], v["location"]): (v["d20"], v["p_strike"])
        for v in values
        if v["kit"] == "foreman"
    }
    # The rulebook's standard Medium: Legs 16-20, which hard cover turns into the cover.
    assert foreman[("none", "Legs")] == ("16–20", "1/4")
    assert foreman[("hard", "Cover")] == ("16–20", "1/4")
    assert foreman[("none", "Head")] == ("1", "1/20")
    render_svg(chart, "Which parts get hit, with and without hard cover?", "Right Arm")


def test_crit_margin_chart(con: duckdb.DuckDBPyConnection) -> None:
    text = core_charts.run_caption(con, "cm")
    every = "crit_margin_all"  # both crit-margin runs
    chart = charts.crit_margin_chart(crit_share(con, every), time_to_kill(con, every), text)
    spec = chart.to_dict()
    check_title(spec, "What does the crit margin do to crits and time-to-kill?", text)
    (param,) = spec["params"]
    assert param["name"] == "margin"
    assert param["value"] == 4  # the rulebook's margin, swept here
    assert param["bind"] == {
        "input": "range",
        "min": 3,
        "max": 6,
        "step": 1,
        "name": "Crit margin ",
    }
    assert {"Crit margin", "Share of hits that crit", "Rounds to destroy the opponent"} <= (
        axis_titles(spec)
    )
    # The bars and the emphasized points follow the slider; the rule sits at its value.
    assert [d["filter"] for d in walk(spec) if "filter" in d] == ["(datum.crit_margin === margin)"]
    assert any(d.get("calculate") == "margin" for d in walk(spec))
    tests = [d["test"] for d in walk(spec) if "test" in d]
    assert tests and all(t == "(datum.crit_margin === margin)" for t in tests)
    values = inline_values(spec)
    crit_rows = next(v for v in values if v and "weapon" in v[0])
    assert [(r["crit_margin"], r["hits"], r["crits"]) for r in crit_rows] == [
        (3, 5, 2),
        (4, 4, 1),
        (5, 2, 0),
        (6, 1, 0),
    ]
    ttk_rows = next(v for v in values if v and "mean_rounds_to_kill" in v[0])
    assert len(ttk_rows) == 5
    render_svg(chart, "Crit margin", "Rounds to destroy the opponent")


def test_crit_margin_slider_without_margin_4(con: duckdb.DuckDBPyConnection) -> None:
    """Margins 3 and 5 only: the slider starts at the lowest and steps by 2; rows without
    a margin (NULL) are left off the slider."""
    keep = pl.col("crit_margin").is_in([3, 5]) | pl.col("crit_margin").is_null()
    crit = crit_share(con, "crit_margin_all").filter(keep)
    ttk = pl.concat([time_to_kill(con, "crit_margin_all").filter(keep), time_to_kill(con, "duel")])
    spec = charts.crit_margin_chart(crit, ttk, "c").to_dict()
    (param,) = spec["params"]
    assert param["value"] == 3
    assert (param["bind"]["min"], param["bind"]["max"], param["bind"]["step"]) == (3, 5, 2)
    for rows in inline_values(spec):
        assert all(r.get("crit_margin", 3) is not None for r in rows)
        assert all(r.get("crit_margin", 3) in (3, 5) for r in rows)


def test_build_team_cap_chart() -> None:
    big = 11452184524588380451  # past 2^63 and 2^53: a float would round it
    rows = [
        {
            "team_cap": cap,
            "light": mix[0],
            "medium": mix[1],
            "heavy": mix[2],
            "teams": Decimal(teams),
            "piloted": Decimal(teams * 165),
        }
        for mix, series in (
            ((1, 1, 1), [0, 7, big]),
            ((0, 0, 3), [0, 0, 0]),
            ((3, 0, 0), [4, 5, 6]),
        )
        for cap, teams in zip((144, 145, 146), series, strict=True)
    ]
    counts = pl.DataFrame(
        rows, schema_overrides={"teams": pl.Decimal(38, 0), "piloted": pl.Decimal(38, 0)}
    )
    text = core_charts.caption(source="exact", params={"parts": "full"})
    text += " At the Team Cap 145: 12."
    chart = charts.build_team_cap_chart(counts, text)
    spec = chart.to_dict()
    check_title(spec, "How many teams of builds does the Team Cap admit?", text)
    assert axis_titles(spec) == {"Team Cap", "Legal fielded teams (builds, log scale)"}
    ys = [d["y"] for d in walk(spec) if isinstance(d.get("y"), dict) and "field" in d["y"]]
    assert ys and all(y["field"] == "teams_float" for y in ys)
    assert all(y["scale"]["type"] == "log" for y in ys if "scale" in y)
    assert any(y.get("scale", {}).get("type") == "log" for y in ys)
    color = next(d["color"] for d in walk(spec) if isinstance(d.get("color"), dict))
    assert color["field"] == "mix" and color["sort"] == ["3L 0M 0H", "1L 1M 1H"]
    tooltips = [d["tooltip"] for d in walk(spec) if isinstance(d.get("tooltip"), list)]
    assert tooltips
    for tooltip in tooltips:
        assert {"mix", "team_cap", "teams_exact", "piloted_exact"} <= {t["field"] for t in tooltip}
        assert all(t["type"] == "nominal" for t in tooltip if t["field"].endswith("_exact"))
    (values,) = inline_values(spec)
    # zeros have no place on a log scale; the mix no cap admits is left out
    assert sorted((v["mix"], v["team_cap"]) for v in values) == [
        ("1L 1M 1H", 145),
        ("1L 1M 1H", 146),
        ("3L 0M 0H", 144),
        ("3L 0M 0H", 145),
        ("3L 0M 0H", 146),
    ]
    top = next(v for v in values if (v["mix"], v["team_cap"]) == ("1L 1M 1H", 146))
    assert top["teams_exact"] == str(big) and top["piloted_exact"] == str(big * 165)
    assert top["teams_float"] == float(big) and int(top["teams_float"]) != big
    render_svg(chart, "How many teams of builds does the Team Cap admit?", "Team Cap")
    with pytest.raises(ValueError, match="lacks column.*teams"):
        charts.build_team_cap_chart(counts.drop("teams"), text)
    with pytest.raises(ValueError, match="no cap admits any team"):
        charts.build_team_cap_chart(counts.filter(pl.col("heavy") == 3), text)


# --- pages ---------------------------------------------------------------------------------


def small_chart(text: str) -> alt.Chart:
    return (
        alt.Chart(alt.Data(values=[{"a": 1, "b": 2}]))
        .mark_point()
        .encode(x="a:Q", y="b:Q")
        .properties(title=alt.TitleParams("t", subtitle=text))
    )


def test_page(con: duckdb.DuckDBPyConnection) -> None:
    heat = charts.win_rate_heatmap(win_rates(con), core_charts.run_caption(con, "d1"))
    # A caption that tries to close the script element must stay inside the JSON.
    sneaky = small_chart("</script><script>alert(1)</script> & <!--")
    doc = page(
        "Balance <report>",
        [("Win rates", heat), ("Notes", "<p>Plain <b>HTML</b>.</p>"), ("Sneaky", sneaky)],
        intro_html="<p class='small'>intro</p>",
    )
    assert doc.startswith("<!DOCTYPE html>")
    assert "<title>Balance &lt;report&gt;</title>" in doc
    bundle = javascript_bundle()
    assert doc.count(bundle) == 1
    assert doc.count("window.vegaEmbed=") == 1
    assert re.findall(r'<div class="chart" id="(chart-\d+)"></div>', doc) == ["chart-1", "chart-2"]
    assert doc.count("vegaEmbed('#chart-1',") == 1 and doc.count("vegaEmbed('#chart-2',") == 1
    assert doc.count('{"actions": false}') == 2
    assert "<p>Plain <b>HTML</b>.</p>" in doc and "<p class='small'>intro</p>" in doc
    assert doc.count("<script") == doc.count("</script>") == 3
    assert "alert(1)" in doc and "<!--" not in doc
    assert "Which kit wins each duel?" in doc
    assert_offline(doc)
    # Without a chart there is no bundle to carry.
    assert bundle not in page("Text", [("Only", "<p>x</p>")])
    with pytest.raises(TypeError, match="section 'Bad'"):
        page("x", [("Bad", 3)])  # type: ignore[list-item]


def test_write_page_is_atomic(tmp_path: Path) -> None:
    target = tmp_path / "out" / "index.html"
    assert write_page(target, "<p>one</p>") == target
    write_page(target, "<p>two</p>")
    assert target.read_text(encoding="utf-8") == "<p>two</p>"
    assert [p.name for p in target.parent.iterdir()] == ["index.html"]  # no temp left
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # readable as any new file


def test_chart_html_and_notebook_renderer(con: duckdb.DuckDBPyConnection) -> None:
    every = "crit_margin_all"
    chart = charts.crit_margin_chart(crit_share(con, every), time_to_kill(con, every), "c")
    doc = chart_html(chart)
    assert doc.count("window.vegaEmbed=") == 1 and '"input": "range"' in doc
    assert '"actions": false' in doc
    assert_offline(doc)
    out = notebook_renderer(chart.to_dict())["text/html"]
    assert "if (!window.vegaEmbed)" in out and out.count("window.vegaEmbed=") == 1
    assert_offline(out)
    before = alt.renderers.active
    try:
        use_offline_notebook()
        assert alt.renderers.active == "mechbal"
    finally:
        alt.renderers.enable(before)


# --- the board (003 H, I4), over the hand-made store of tests/skirmish/test_queries.py -----


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = connect(board_store(tmp_path_factory.mktemp("board")), catalog=None)
    yield connection
    connection.close()


def tiny_map(id_: str, length: int, depth: int, zone: tuple[tuple[int, int], ...]) -> Map:
    """A map of open ground with one foliage hex at (0, 0) and an obstacle at (1, 0)."""
    terrain = np.zeros((depth, length), dtype=np.int8)
    terrain[0, 0], terrain[0, 1] = 1, 2
    flat = np.zeros((depth, length), dtype=np.int8)
    return Map(
        id=id_,
        name=id_,
        provenance="assumed",
        length=length,
        depth=depth,
        elevation=flat,
        terrain=terrain,
        obstacle=flat,
        zones=(zone,),
        deploy=1,
        max_elevation=3,
    )


def encodings(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [d["encoding"] for d in walk(spec) if isinstance(d.get("encoding"), dict)]


def test_win_rate_by_map_chart(board: duckdb.DuckDBPyConnection) -> None:
    text = core_charts.run_caption(board, "tf")
    chart = charts.win_rate_by_map_chart(scores_by_map(board, "teamfight"), text)
    spec = chart.to_dict()
    check_title(spec, "Which map favours whom?", text)
    bars = next(e for e in encodings(spec) if "yOffset" in e and e["x"]["field"] == "score")
    assert (bars["y"]["field"], bars["yOffset"]["field"], bars["color"]["field"]) == (
        "side",
        "board",
        "board",
    )
    assert bars["x"]["scale"]["domain"] == [0, 1]
    assert any(
        e.get("x", {}).get("field") == "low" and e.get("x2", {}).get("field") == "high"
        for e in encodings(spec)
    )
    values = [v for vs in inline_values(spec) for v in vs if "side" in v]
    t1 = next(v for v in values if (v["board"], v["side"]) == ("open", "t1"))
    assert t1["score"] == pytest.approx(3.5 / 6) and t1["battles"] == 6
    assert t1["interval"] == f"{round(t1['low'] * 100, 1)}% – {round(t1['high'] * 100, 1)}%"
    render_svg(chart, "Which map favours whom?", "t1")


def test_decided_by_map_chart(board: duckdb.DuckDBPyConnection) -> None:
    frame = pl.concat(
        [
            decided_by_map(board, "teamfight").with_columns(fight=pl.lit("team fights")),
            decided_by_map(board, "duel_all", runs=["dm", "dt"]).with_columns(
                fight=pl.lit("duels")
            ),
        ]
    )
    chart = charts.decided_by_map_chart(frame, "cap")
    spec = chart.to_dict()
    check_title(spec, "Where are battles won: zones, kills or Hull?", "cap")
    (enc,) = encodings(spec)
    assert enc["x"]["field"] == "share" and enc["x"]["stack"] == "zero"
    assert enc["y"]["sort"] == [
        "team fights on broken",
        "team fights on open",
        "duels on broken",
        "duels on track",
    ]
    assert enc["color"]["scale"]["domain"] == [
        "Wipe (kills)",
        "Points: zones",
        "Points: kills",
        "Hull",
        "Draw",
    ]
    assert enc["order"]["field"] == "rank"
    (values,) = inline_values(spec)
    zones = next(v for v in values if v["label"] == "team fights on open" and v["how"] == "zones")
    assert (zones["way"], zones["rank"], zones["games"]) == ("Points: zones", 1, 3)
    render_svg(chart, "Where are battles won", "duels on track")


def test_zone_control_chart(board: duckdb.DuckDBPyConnection) -> None:
    chart = charts.zone_control_chart(zone_control(board, "teamfight"), "cap")
    spec = chart.to_dict()
    check_title(spec, "Who holds the zones, round by round?", "cap")
    assert spec["facet"]["column"]["field"] == "board"
    assert spec["facet"]["column"]["sort"] == ["broken", "open"]
    encs = encodings(spec)
    assert {e["x"]["field"] for e in encs if "x" in e} == {"round"}
    assert any(e.get("y", {}).get("field") == "low" and e["y2"]["field"] == "high" for e in encs)
    assert any(e.get("y", {}).get("field") == "mean_zones" for e in encs)
    assert all(e["color"]["field"] == "side_name" for e in encs if "color" in e)
    (values,) = inline_values(spec)
    point = next(v for v in values if (v["board"], v["round"], v["side"]) == ("open", 2, "b"))
    assert point["side_name"] == "Side B" and point["mean_zones"] == pytest.approx(4 / 6)
    render_svg(chart, "Who holds the zones", "Side A")


def test_map_grid_and_positions_heatmap(board: duckdb.DuckDBPyConnection) -> None:
    maps = [tiny_map("open", 4, 4, ((1, 1), (2, 1))), tiny_map("broken", 5, 5, ((2, 2),))]
    grid = charts.map_grid(maps)
    assert grid.height == 16 + 25
    assert grid.filter(board="open", row=0).sort("col")["terrain"].to_list() == [
        "foliage",
        "obstacle",
        "open",
        "open",
    ]
    assert sorted(grid.filter("zone").select("board", "col", "row").rows()) == [
        ("broken", 2, 2),
        ("open", 1, 1),
        ("open", 2, 1),
    ]
    pos = positions(board, "teamfight", lengths={"open": 4, "broken": 5})
    chart = charts.positions_heatmap(pos, grid, "cap")
    spec = chart.to_dict()
    check_title(spec, "Where do mechs stand and fall?", "cap")
    assert spec["facet"]["row"]["field"] == "state"
    assert spec["facet"]["row"]["sort"] == ["standing", "destroyed"]
    assert spec["facet"]["column"]["field"] == "board"
    marks = [d["mark"] for d in walk(spec) if isinstance(d.get("mark"), dict)]
    assert len(marks) == 3 and all(m["shape"] == charts.HEX for m in marks)
    encs = encodings(spec)
    assert all(e["x"]["field"] == "x" and e["y"]["field"] == "row" for e in encs)
    assert all(e["y"]["scale"]["reverse"] is True for e in encs)
    (color,) = [e["color"] for e in encs if "color" in e]
    assert color["field"] == "mechs" and color["scale"]["type"] == "log"
    (values,) = inline_values(spec)
    mechs = {
        (v["board"], v["state"], v["col"], v["row"]): v for v in values if v["layer"] == "mechs"
    }
    # both sides add up: open (1, 2) holds side B's first mech standing in 6 battles; odd
    # rows sit half a hex right, so (2, 1) is drawn at x = 2.5
    assert mechs["open", "standing", 1, 2]["mechs"] == 6
    assert mechs["open", "standing", 2, 1]["x"] == 2.5
    assert mechs["open", "standing", 1, 2]["x"] == 1
    assert mechs["open", "destroyed", 2, 2]["share"] == pytest.approx(1 / 3)  # of 3 destroyed
    assert mechs["broken", "standing", 2, 2]["zone"] is True
    ground = [v for v in values if v["layer"] == "ground"]
    assert len(ground) == 2 * (16 + 25)  # the ground under each state's panel
    render_svg(chart, "Where do mechs stand and fall?", "standing", "destroyed")
    with pytest.raises(ValueError, match="no positions on any map"):
        charts.positions_heatmap(pos, grid.filter(board="urban"), "cap")


def test_kit_moves_chart(board: duckdb.DuckDBPyConnection) -> None:
    moves = score_moves(board, "duel_all", default_board="broken", runs=["dm", "dt"])
    chart = charts.kit_moves_chart(moves, "cap")
    spec = chart.to_dict()
    check_title(spec, "How did the kit win rates move against the track?", "cap")
    encs = encodings(spec)
    kits = [e["y"] for e in encs if "y" in e]  # all but the zero line
    assert len(kits) == 6 and all(y["field"] == "side" and y["sort"] == ["k1", "k2"] for y in kits)
    assert any(
        e.get("x", {}).get("field") == "base_score" and e["x2"]["field"] == "score" for e in encs
    )
    assert any(
        e.get("x", {}).get("field") == "change_low" and e["x2"]["field"] == "change_high"
        for e in encs
    )
    values = [v for vs in inline_values(spec) for v in vs if "side" in v]
    k1 = next(v for v in values if v["side"] == "k1")
    assert k1["change"] == pytest.approx(2 / 3 - 0.375)
    render_svg(chart, "How did the kit win rates move", "k1", "Change")
    with pytest.raises(ValueError, match="2 rows for side k1"):
        charts.kit_moves_chart(pl.concat([moves, moves]), "cap")
