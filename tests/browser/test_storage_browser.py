"""A full disk as the players see it: the phone that sent the command and the TV both say that nothing
was recorded, and both stop saying it once a command is recorded again."""

from __future__ import annotations

import pytest

from .browser_support import PIN

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
FULL = "storage full: nothing was recorded"


def test_the_phone_and_the_tv_say_storage_full_then_recover(browser, page, table, artifacts):
    table.new_game()
    table.play(1)
    page.goto(f"{table.url}/")
    page.wait_for_function("document.body.dataset.status === 'playing'", timeout=TIMEOUT_MS)
    phone = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    control = phone.new_page()
    control.goto(f"{table.url}/control")
    control.fill("#pin", PIN)
    control.click("button[type=submit]")
    control.wait_for_function("!document.getElementById('c-undo').disabled", timeout=TIMEOUT_MS)

    assert table.session is not None
    conn = table.session._writer.log.conn  # SQLite fails with SQLITE_FULL past this size, as a full disk
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    button = None
    for _ in range(500):  # undo and redo until one no longer fits: the phone's same command will not
        if table.command("undo")["error"] == "storage":
            button = "#c-undo"
            break
        if table.command("redo")["error"] == "storage":
            button = "#c-redo"
            break
    assert button is not None
    control.wait_for_function(f"!document.querySelector({button!r}).disabled", timeout=TIMEOUT_MS)
    control.click(button)
    control.wait_for_function(
        f"document.getElementById('c-msg').textContent.includes({FULL!r})", timeout=TIMEOUT_MS
    )
    page.wait_for_selector(".notice-warning", timeout=TIMEOUT_MS)
    assert page.locator(".notice-warning").inner_text() == FULL
    control.screenshot(path=str(artifacts / "storage-full-phone.png"))
    page.screenshot(path=str(artifacts / "storage-full-tv.png"))

    conn.execute("PRAGMA max_page_count = 1073741823")
    table.new_game()
    page.wait_for_selector(".notice-warning", state="detached", timeout=TIMEOUT_MS)
    phone.close()
