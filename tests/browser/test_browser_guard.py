"""The browser guard: skip without Chromium, fail instead when CI requires a browser."""

from __future__ import annotations

import pytest

from .browser_support import chromium_or_skip


def test_a_missing_browser_skips():
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        chromium_or_skip(None, {})


def test_a_missing_browser_fails_when_one_is_required():
    with pytest.raises(pytest.fail.Exception, match="COMPANION_REQUIRE_BROWSER=1"):
        chromium_or_skip(None, {"COMPANION_REQUIRE_BROWSER": "1"})


def test_a_present_browser_is_used_either_way():
    assert chromium_or_skip("/usr/bin/chromium", {"COMPANION_REQUIRE_BROWSER": "1"}) == "/usr/bin/chromium"
    assert chromium_or_skip("/usr/bin/chromium", {}) == "/usr/bin/chromium"
