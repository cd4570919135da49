"""Report pages in a real headless Chromium (DESIGN.md "Tests, CI and the browser"):
Debian's chromium driven by Playwright for Python, never ``playwright install``. Without
Chromium the tests skip with the reason, except under ``CI=true``, where a missing
browser is a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
LOCAL = ("file:", "data:", "blob:")  # what a page may load: nothing from the network


def browser_or_skip() -> Any:
    """``sync_playwright``, or a skip (a failure under CI) naming what is missing."""
    missing = None
    if not CHROMIUM.exists():
        missing = "Debian's chromium is missing (.ci/run installs it: apt-get install chromium)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = missing or "playwright (Python) is not installed"
        sync_playwright = None
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser test cannot run under CI: {missing}")
        pytest.skip(missing)
    return sync_playwright


@dataclass
class Opened:
    """A page opened in Chromium, with what its console said and what it fetched."""

    page: Any
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def wait_for_charts(self, expected: int | None = None) -> int:
        """Every ``div.chart`` drawn (an SVG or canvas with class ``marks``); returns the
        count, asserted to be ``expected`` when given."""
        count = self.page.locator("div.chart").count()
        if expected is not None:
            assert count == expected
        self.page.wait_for_function(
            "n => document.querySelectorAll("
            "'div.chart svg.marks, div.chart canvas.marks').length >= n",
            arg=count,
            timeout=60_000,
        )
        return count


@contextmanager
def opened(path: Path, width: int = 1300, height: int = 1000) -> Iterator[Opened]:
    """The file at ``path`` in headless Chromium; console errors, page errors and any
    request off the machine are collected on the :class:`Opened`."""
    sync_playwright = browser_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            seen = Opened(page)
            page.on("console", lambda m: seen.errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: seen.errors.append(str(e)))
            page.on(
                "request",
                lambda r: seen.requests.append(r.url) if not r.url.startswith(LOCAL) else None,
            )
            page.goto(Path(path).as_uri())
            yield seen
        finally:
            browser.close()
