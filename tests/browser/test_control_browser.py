"""The phone control page in a real Chromium: PIN, new game, draw and place, undo."""

from __future__ import annotations

import pytest

from .browser_support import PIN

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000


def test_a_phone_logs_in_starts_a_game_places_a_card_and_undoes_it(browser, table, artifacts):
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", "0000")
    page.click("button[type=submit]")
    assert "Wrong PIN" in page.locator(".msg-error").inner_text()
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#c-start", state="attached", timeout=TIMEOUT_MS)

    page.click("#c-new summary")
    page.click("#c-start")
    page.wait_for_function(
        "document.getElementById('c-prompt').textContent === 'Grotsnik: draw a card'", timeout=TIMEOUT_MS
    )
    assert table.session is not None
    assert [p["name"] for p in table.session.view()["game"]["players"]] == [
        "Grotsnik",
        "Ugluk",
        "Snagla",
        "Bogrot",
    ]

    page.wait_for_selector("#c-draw-card option[value=crummy-snotling-slaves]", state="attached")
    page.select_option("#c-draw-card", value="crummy-snotling-slaves")
    # Playwright matches a value string against labels too; the pickers count from 1 for people.
    page.select_option("#c-draw-line", label="1")
    page.select_option("#c-draw-slot", label="4")
    page.click("#c-draw-place")
    page.wait_for_function(
        "document.getElementById('c-msg').textContent.startsWith('Done')", timeout=TIMEOUT_MS
    )
    slots = table.session.view()["game"]["players"][0]["lines"][0]["slots"]
    assert slots[3]["id"] == "crummy-snotling-slaves"
    assert table.session.history()[-1]["source"] == "control"

    page.wait_for_function("!document.getElementById('c-undo').disabled", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artifacts / "control.png"), full_page=True)
    page.click("#c-undo")
    page.wait_for_function("!document.getElementById('c-redo').disabled", timeout=TIMEOUT_MS)
    assert table.session.view()["game"]["players"][0]["lines"][0]["slots"][3] is None
    context.close()


def test_a_refused_action_shows_the_engines_reason(browser, table):
    table.new_game()
    context = browser.new_context(viewport={"width": 412, "height": 915})
    page = context.new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#c-draw:not([hidden])", timeout=TIMEOUT_MS)
    page.wait_for_selector("#c-draw-card option[value=hobgoblin-musician]", state="attached")
    page.select_option("#c-draw-card", value="hobgoblin-musician")
    page.select_option("#c-draw-slot", label="1")  # only a Standard may stand at the left end
    page.click("#c-draw-place")
    message = page.locator("#c-msg.msg-error")
    message.wait_for(timeout=TIMEOUT_MS)
    assert "Standard" in message.inner_text()
    context.close()


def test_a_card_removed_by_hand_leaves_the_tv(browser, table, artifacts):
    table.new_game()
    fix = {"kind": "correct_place", "player": 1, "card": "bozlum-pigstickers", "line": 1, "slot": 3}
    answer = table.command("act", fix)
    assert answer["accepted"], answer
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{table.url}/tv")
    tile = '.cm-player[data-seat="1"] .line[data-line="1"] .tile[data-card="bozlum-pigstickers"]'
    tv.wait_for_selector(tile, timeout=TIMEOUT_MS)

    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.click("#c-correct summary")
    page.wait_for_selector("#c-fix-seat option[value='1']", state="attached", timeout=TIMEOUT_MS)
    page.select_option("#c-fix-seat", value="1")
    remove = "#c-fix-tiles button[data-card=bozlum-pigstickers]"
    page.click(remove)  # the first tap arms the tile
    page.wait_for_selector(f"{remove}.armed", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artifacts / "control-correct.png"), full_page=True)
    page.click(remove)
    page.wait_for_function(
        "document.getElementById('c-msg').textContent.startsWith('Done')", timeout=TIMEOUT_MS
    )
    tv.wait_for_selector(tile, state="detached", timeout=TIMEOUT_MS)
    game = table.session.view()["game"]
    assert game["players"][1]["lines"][1]["slots"][3] is None
    assert game["prompt"]["text"] == "Grotsnik: draw a card"  # the turn is untouched

    # Put it back from the discard pile with the picker.
    page.select_option("#c-fix-source", value="discard")
    page.wait_for_selector("#c-fix-card option[value=bozlum-pigstickers]", state="attached")
    page.select_option("#c-fix-card", value="bozlum-pigstickers")
    page.select_option("#c-fix-line", label="2")
    page.select_option("#c-fix-slot", label="4")
    page.click("#c-fix-place")
    tv.wait_for_selector(tile, timeout=TIMEOUT_MS)
    assert table.session.view()["game"]["discard_pile"]["count"] == 0

    # An illegal correction shows the engine's reason.
    page.select_option("#c-fix-source", value="pile")
    page.select_option("#c-fix-card", value="hobgoblin-musician")
    page.select_option("#c-fix-slot", label="1")
    page.click("#c-fix-place")
    message = page.locator("#c-msg.msg-error")
    message.wait_for(timeout=TIMEOUT_MS)
    assert "only a Standard may stand at the left end" in message.inner_text()
    context.close()
    tv.context.close()
