"""The TV survives a server restart: it says it is disconnected, then catches up by itself."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000


def test_the_tv_reconnects_after_a_restart_and_shows_the_current_state(page, table):
    seq = table.new_game()
    page.goto(f"{table.url}/tv")
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)
    banner = page.locator("#banner")
    assert banner.is_hidden()

    table.stop()
    banner.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "reconnecting" in banner.inner_text().lower()

    table.start()  # same database, same port
    assert table.session is not None
    moved = table.play(5)  # the game moved on while the TV was away
    assert moved > seq
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {moved}", timeout=TIMEOUT_MS)
    banner.wait_for(state="hidden", timeout=TIMEOUT_MS)
    shown = int(page.evaluate("document.body.dataset.seq"))
    assert shown == table.session.view()["seq"]
    prompt = table.session.view()["game"]["prompt"]
    assert page.locator("#prompt").inner_text() == prompt["text"]


def test_a_silently_dead_stream_is_caught_by_the_watchdog(page, table):
    from .browser_support import FreezingProxy

    proxy = FreezingProxy(table.port)
    try:
        page.clock.install()  # the page's timers run when the test says so
        seq = table.new_game()
        page.goto(f"{proxy.url}/tv")
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)

        proxy.freeze()  # the TV's stream is now dead without knowing it
        moved = table.play(3)
        page.clock.run_for(5_000)
        assert int(page.evaluate("document.body.dataset.seq")) == seq  # the stream did not deliver

        page.clock.run_for(30_000)  # the watchdog's check: /api/view is ahead of the stream
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {moved}", timeout=TIMEOUT_MS)
        page.clock.run_for(10_000)  # lets it open a fresh stream through the proxy
        later = table.play(2, seed=8)
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {later}", timeout=TIMEOUT_MS)
    finally:
        proxy.close()
