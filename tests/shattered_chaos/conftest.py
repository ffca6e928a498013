"""The real-browser fixtures (Debian's Chromium through playwright, a live table) for the screens' test."""

from tests.browser.conftest import artifacts, browser, chromium_path, page, table  # noqa: F401
