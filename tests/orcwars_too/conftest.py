"""The browser tests' fixtures (a real Chromium, a real server and session), shared with tests/browser."""

from tests.browser.conftest import artifacts, browser, chromium_path, page, table

__all__ = ["artifacts", "browser", "chromium_path", "page", "table"]
