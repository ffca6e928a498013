"""Real headless Chromium (Debian's) driven by Playwright, against a real server and session.

Guard: without a Chromium the browser tests skip, unless COMPANION_REQUIRE_BROWSER=1 (CI), where a
missing browser fails them. Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_support import LiveTable, chromium_or_skip, find_chromium

ROOT = Path(__file__).resolve().parents[2]

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "artifacts"


FUNCTION = re.compile(r"^\s*(async\s+)?(function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


@pytest.fixture(scope="session", autouse=True)
def waits_that_pass_the_csp() -> Iterator[None]:
    """The pages' Content-Security-Policy forbids evaluating strings (no 'unsafe-eval'), and Playwright
    polls a ``wait_for_function`` expression by evaluating it as a string; a function it calls
    instead. Every wait is made a function here, so every browser test runs under the real CSP."""
    from playwright.sync_api import Page

    original = Page.wait_for_function

    def wait_for_function(self: Any, expression: str, *args: Any, **kwargs: Any) -> Any:
        if not FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return original(self, expression, *args, **kwargs)

    Page.wait_for_function = wait_for_function  # type: ignore[method-assign]
    yield
    Page.wait_for_function = original  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return chromium_or_skip(find_chromium(), os.environ)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    live = LiveTable(tmp_path / "table.sqlite3")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
