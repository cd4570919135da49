"""Self-contained HTML pages holding Altair charts, for reports that must work offline.

:func:`page` writes ONE document: the Vega, Vega-Lite and vega-embed JavaScript inlined
once (from vl-convert, matched to Altair's Vega-Lite version), then each chart's spec with
its data inline, embedded by ``vegaEmbed``. Nothing is fetched: no CDN, no data URL. A
Content-Security-Policy forbids any network access, so a reference slipped in by a later
change fails loudly in the browser instead of quietly breaking the page offline. With
``embed_options=EXPORT_OPTIONS`` each chart's actions menu offers "Save as SVG" and "Save
as PNG" (rendered in the page: nothing goes online) and nothing else.

:func:`use_offline_notebook` gives JupyterLab the same offline rendering (Altair's
default renderer loads Vega from a CDN).
"""

from __future__ import annotations

import html as html_lib
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import altair as alt
import vl_convert

from sims.core.store import write_text

__all__ = [
    "STYLE",
    "EMBED_OPTIONS",
    "EXPORT_OPTIONS",
    "javascript_bundle",
    "page",
    "write_page",
    "chart_html",
    "notebook_renderer",
    "use_offline_notebook",
    "slug",
    "chart_name",
]

EMBED_OPTIONS = {"actions": False}  # the full actions menu links to the online Vega editor
# Only the export actions: vega-embed renders the SVG or PNG from the chart in the page
# and hands it over as a download; source, compiled and editor would open pages online.
EXPORT_OPTIONS = {
    "actions": {
        "export": {"svg": True, "png": True},
        "source": False,
        "compiled": False,
        "editor": False,
    },
}

# Vega compiles expressions with Function() (hence 'unsafe-eval'); everything else is
# inline. default-src 'none' blocks every fetch, image, font and frame from the network.
CSP = (
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; "
    "style-src 'unsafe-inline'; img-src data: blob:; font-src data:"
)

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:72rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.8rem;margin-bottom:.25rem}h2{margin-top:2.5rem;border-bottom:1px solid #ddd;
padding-bottom:.25rem}
nav ul{padding-left:1.2rem;columns:2}nav a,a{color:#1f5fa8}
.chart{margin:1rem 0 2rem;overflow-x:auto}
.chart .vega-bindings{margin-top:.5rem;font-size:.95rem}
.chart .vega-bind{margin-right:1.5rem}.chart .vega-bind-name{font-weight:600}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}.small{color:#555;font-size:.9em}
.stale{border-left:5px solid #b00020;background:#fff3f3;padding:.25rem 1rem;margin:1rem 0}
.sets{border-left:5px solid #c77700;background:#fff8ec;padding:.5rem 1rem}
.downloads{margin:.25rem 0 1rem}
"""


@cache
def javascript_bundle() -> str:
    """Vega + Vega-Lite + vega-embed as one classic script defining ``window.vegaEmbed``,
    at the Vega-Lite version Altair writes specs for (about 0.9 MB; cached)."""
    # Altair's SCHEMA_VERSION "v6.4.1" is vl-convert's "v6_4".
    version = "_".join(alt.SCHEMA_VERSION.split(".")[:2])
    bundle = vl_convert.javascript_bundle(vl_version=version)
    # "</script" inside the bundle would end the script element early.
    return bundle.replace("</script", "<\\/script")


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element: '<', '>' and '&' written as \\u escapes, so
    no string in a spec (a caption, a kit name) can close the element or open a comment."""
    text = json.dumps(value, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    return chart.to_dict()  # validates against the Vega-Lite schema


def slug(text: str) -> str:
    """A file-name stem for a heading: lower case, words joined by ``-`` (``Who wins each
    matchup?`` -> ``who-wins-each-matchup``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def chart_name(heading: str, k: int = 1) -> str:
    """The file stem of a section's ``k``-th chart: its heading's :func:`slug`, then
    ``-2``, ``-3`` ... for further charts."""
    return slug(heading) + (f"-{k}" if k > 1 else "")


def page(
    title: str,
    sections: Sequence[tuple[str, str | alt.TopLevelMixin | Sequence[str | alt.TopLevelMixin]]],
    *,
    intro_html: str = "",
    embed_options: Mapping[str, Any] | None = None,
) -> str:
    """One self-contained HTML document: ``title``, ``intro_html``, then each section's
    heading followed by its HTML (a string, inserted as is), chart (in ``<div
    class="chart" id="chart-N">``, N counting charts from 1), or a list of both in order.

    ``embed_options`` go to every ``vegaEmbed`` (default :data:`EMBED_OPTIONS`, no
    actions menu); with actions on, a chart saves under its section's :func:`slug`."""
    options = dict(EMBED_OPTIONS if embed_options is None else embed_options)
    nav, body = [], []
    charts = 0
    for i, (heading, content) in enumerate(sections, start=1):
        anchor = f"section-{i}"
        nav.append(f'<li><a href="#{anchor}">{html_lib.escape(heading)}</a></li>')
        body.append(f'<section id="{anchor}">\n<h2>{html_lib.escape(heading)}</h2>')
        pieces = [content] if isinstance(content, str | alt.TopLevelMixin) else content
        if not isinstance(pieces, Sequence):
            pieces = [content]  # refused below, naming the section
        here = 0  # charts of this section so far
        for piece in pieces:
            if isinstance(piece, str):
                body.append(piece)
            elif isinstance(piece, alt.TopLevelMixin):
                charts, here = charts + 1, here + 1
                div = f"chart-{charts}"
                chart_options = dict(options)
                if options.get("actions"):
                    chart_options["downloadFileName"] = chart_name(heading, here)
                body.append(f'<div class="chart" id="{div}"></div>')
                body.append(
                    '<script type="text/javascript">\n'
                    f"vegaEmbed('#{div}', {_script_json(_spec(piece))}, "
                    f"{_script_json(chart_options)}).catch(console.error);\n"
                    "</script>"
                )
            else:
                raise TypeError(
                    f"section {heading!r}: expected an HTML string or an Altair chart, "
                    f"got {type(piece).__name__}"
                )
        body.append("</section>")
    contents = f"<nav><ul>\n{chr(10).join(nav)}\n</ul></nav>" if len(sections) > 1 else ""
    # The bundle goes in only when a chart needs it: a text-only page stays small.
    bundle = (
        f'<script type="text/javascript">\n{javascript_bundle()}\n</script>\n' if charts else ""
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html_lib.escape(title)}</title>\n<style>{STYLE}</style>\n"
        f"{bundle}</head>\n<body>\n<h1>{html_lib.escape(title)}</h1>\n"
        f"{intro_html}\n{contents}\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def write_page(path: Path | str, html: str) -> Path:
    """Write a page atomically (``sims.core.store.write_text``)."""
    return write_text(path, html)


def chart_html(chart: alt.TopLevelMixin) -> str:
    """A standalone offline page for one chart (Altair's inline template: the JavaScript
    bundle inlined, no network reference)."""
    return chart.to_html(inline=True, embed_options=EMBED_OPTIONS)


# --- JupyterLab ----------------------------------------------------------------------------


def notebook_renderer(spec: dict[str, Any], **metadata: Any) -> dict[str, str]:
    """One chart as notebook HTML that needs no network.

    Every output carries the bundle, so any output renders alone (a cleared cell above
    does not break the ones below), but runs it only when no output has yet: wrapped in
    a function, its top-level declarations cannot clash with an earlier copy's.
    """
    div = f"mechbal-{uuid.uuid4().hex}"
    options = {**EMBED_OPTIONS, **metadata.get("embed_options", {})}
    script = (
        "(function () {\n"
        f"if (!window.vegaEmbed) {{ (function () {{\n{javascript_bundle()}\n}}).call(window); }}\n"
        f"vegaEmbed('#{div}', {_script_json(spec)}, {_script_json(options)})"
        ".catch(console.error);\n})();"
    )
    return {
        "text/html": f'<div id="{div}"></div>\n<script type="text/javascript">\n{script}\n</script>'
    }


def use_offline_notebook() -> None:
    """Render Altair charts in JupyterLab without a CDN (and keep sliders and dropdowns
    working): registers and enables the ``mechbal`` renderer."""
    alt.renderers.register("mechbal", notebook_renderer)
    alt.renderers.enable("mechbal")
