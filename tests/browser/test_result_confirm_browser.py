"""The phone's "Confirm the result for the hall" card in a real Chromium: a finished game's result, and
the same result still confirmed after a new game set that game aside before anyone confirmed it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.serve import Server
from companion.session import Command, Session
from tests.hall.hallkit import find_result_nim
from tests.session.nim import setup_json
from web import create_app

from .browser_support import PIN

pytestmark = pytest.mark.browser
TIMEOUT_MS = 10_000


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Session, str]]:
    session = Session(tmp_path / "t.sqlite3", find_result_nim)
    session.start()
    config = {"TABLE_PIN": PIN, "SECRET_KEY": "browser-tests", "HALL_CONFIRM": True}
    server = Server(create_app(config, session), "127.0.0.1", 0).start()
    try:
        yield session, f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()
        session.stop()


def card_says(page: Any, text: str) -> None:
    page.wait_for_function(
        """text => { const card = document.getElementById('c-confirm'), head = card.querySelector('h2');
            return !card.hidden && head !== null && head.textContent === text; }""",
        arg=text,
        timeout=TIMEOUT_MS,
    )


def test_a_result_set_aside_by_a_new_game_is_still_confirmed_on_a_phone(
    browser: Any, served, artifacts
) -> None:
    session, url = served
    assert session.submit(Command("new_game", "test", setup_json(piles=[1], players=2))).accepted
    assert session.submit(
        Command("act", "test", {"kind": "take", "player": 0, "pile": 0, "count": 1})
    ).accepted
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    card_says(page, "Confirm the result for the hall")
    # Someone starts the next game from the form that opened by itself, before anyone confirmed.
    assert session.submit(Command("new_game", "test", setup_json(piles=[5], players=2))).accepted
    card_says(page, "Confirm the last game's result for the hall")
    assert "Ann wins" in page.locator("#c-confirm").inner_text()
    page.locator("#c-confirm").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "control-confirm-last-game.png"))
    page.click("#c-confirm button:has-text('Confirm for Ann')")  # a shared phone: seats no phone holds
    page.wait_for_selector("#c-confirm button:has-text('Confirm for Bob')", timeout=TIMEOUT_MS)
    page.click("#c-confirm button:has-text('Confirm for Bob')")
    card_says(page, "The last game's result confirmed for the hall")
    notes = [h for h in session.history(limit=20) if h["kind"] == "note"]
    assert len(notes) == 2 and {n["game_id"] for n in notes} == {session.view()["game_id"]}
    # The new game moves on: nothing more to confirm, the card goes.
    move = {"kind": "take", "player": 0, "pile": 0, "count": 1}
    assert session.submit(Command("act", "test", move)).accepted
    page.wait_for_function("document.getElementById('c-confirm').hidden", timeout=TIMEOUT_MS)
    context.close()
