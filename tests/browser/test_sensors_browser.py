"""The sensors beside the bridge as a phone and the TV see them: their status, and whose die is which."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.serve import Server
from companion.session import Command, Session
from companion.table import Table, TableConfig, TagRegistry
from web import create_app

from .browser_support import PIN, PLAYERS

pytestmark = pytest.mark.browser
TIMEOUT_MS = 10_000

DICE = {
    "state": "partial",
    "detail": "1 of 2 dice",
    "dice": [
        {
            "die": 10,
            "name": "Pixel d20",
            "type": "pixels",
            "kind": "d20",
            "state": "connected",
            "battery": 81,
        },
        {"die": 11, "name": "GoDice_1A2B3C_R_v03", "type": "godice", "kind": "d6", "state": "searching"},
    ],
}

NEW_GAME = Command(kind="new_game", source="control", payload={"game": "chaos-marauders", "players": PLAYERS})


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Session, Table, str]]:
    session = Session(tmp_path / "t.sqlite3")
    session.start()
    registry = TagRegistry.open(tmp_path / "t.sqlite3")
    table = Table(session, TableConfig.from_mapping({}), registry)
    table.start()
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "browser-tests"}, session, table)
    server = Server(app, "127.0.0.1", 0).start()
    try:
        yield session, table, f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()
        table.stop()
        registry.close()
        session.stop()


def report_sensors(session: Session) -> None:
    session.report_device("ble-dice", DICE)
    session.report_device("rfid-spi", {"state": "connected", "detail": "4 of 4 readers"})
    session.report_device("hid-readers", {"state": "searching", "detail": "0 of 1 readers"})


def test_a_phone_sees_the_sensors_and_says_whose_die_is_which(browser: Any, served, artifacts) -> None:
    session, table, url = served
    assert session.submit(NEW_GAME).accepted
    report_sensors(session)
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#c-dice-head:not([hidden])", timeout=TIMEOUT_MS)
    devices = page.locator("#c-devices").inner_text()
    assert "ble-dice: partial · 1 of 2 dice" in devices
    assert "rfid-spi: connected · 4 of 4 readers" in devices
    picker = page.get_by_label("Whose die is Pixel d20 (d20)")
    assert picker.input_value() == ""  # anyone's, until a phone says otherwise
    picker.select_option(label="Ugluk")
    said = "document.getElementById('c-msg').textContent === 'Die 10 belongs to Ugluk'"
    page.wait_for_function(said, timeout=TIMEOUT_MS)
    assert table.owners.owner(10) == 1
    page.locator("#c-devices").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "control-sensors.png"), full_page=True)
    page.reload()  # the owner comes back from the table's report, not from the page's memory
    page.wait_for_selector("#c-dice-head:not([hidden])", timeout=TIMEOUT_MS)
    page.wait_for_function("document.querySelector('#c-dice select').value === '1'", timeout=TIMEOUT_MS)
    context.close()


def test_the_tv_lists_the_sensors_and_the_kiosk_hides_the_cursor(browser: Any, served, artifacts) -> None:
    session, _table, url = served
    assert session.submit(NEW_GAME).accepted
    report_sensors(session)
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{url}/?kiosk=1")
        listed = "document.getElementById('devices').textContent.includes('ble-dice')"
        page.wait_for_function(listed, timeout=TIMEOUT_MS)
        assert page.evaluate("getComputedStyle(document.body).cursor") == "none"
        page.screenshot(path=str(artifacts / f"tv-sensors-{height}p.png"))
        context.close()
