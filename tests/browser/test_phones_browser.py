"""Who a phone is, in a real Chromium: the pages run under their Content-Security-Policy without one
violation, a phone joins with the code the TV shows, a phone playing a seat sees only that seat's turn
(issue 19.4), and a phone logs another out from its Phones list."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_support import PIN, LiveTable

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
ANN_MARKERS = ["0:sgt-drake-alexander", "0:raelin", "0:sonlen", "0:sgt-drake-alexander"]
BEN_MARKERS = ["1:marro-stingers", "1:marro-drudge", "1:marrden-nagrubs", "1:marro-stingers"]


def watch_for_csp(page: Any) -> list[str]:
    """Every CSP violation the page reports (Chromium logs each one as a console error)."""
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: found.append(str(e)))
    return found


def phone(browser: Any, table: LiveTable, violations: list[str] | None = None) -> Any:
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    if violations is not None:
        page.on(
            "console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None
        )
        page.on("pageerror", lambda e: violations.append(str(e)))
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("form[action='/control/pin'] button[type=submit]")
    page.wait_for_selector("#c-start", state="attached", timeout=TIMEOUT_MS)
    return page


def accepted(table: LiveTable, payload: dict[str, Any]) -> int:
    answer = table.command("act", payload)
    assert answer["accepted"], answer
    return int(answer["seq"])


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)


def test_the_pages_work_under_their_csp_without_a_single_violation(browser, page, table):
    tv_reports = watch_for_csp(page)
    table.new_game()
    page.goto(f"{table.url}/tv")
    page.wait_for_selector(".cm-player, .tv-player, .plain-player", timeout=TIMEOUT_MS)
    reports: list[str] = []
    ann = phone(browser, table, reports)
    ann.wait_for_selector("#c-draw-cards [data-card]", state="attached", timeout=TIMEOUT_MS)
    ann.click("#c-phones summary")
    ann.wait_for_selector("#c-phone-list li", timeout=TIMEOUT_MS)
    header = ann.evaluate("fetch('/control').then(r => r.headers.get('content-security-policy'))")
    assert "script-src 'self'" in header and "unsafe" not in header
    assert tv_reports == [] and reports == []
    ann.context.close()


def test_a_phone_joins_with_the_code_the_tv_shows(browser, page, table, artifacts):
    page.goto(f"{table.url}/tv")  # the kiosk on the Pi: a browser on this machine may show codes
    page.wait_for_function("!!document.body && document.body.dataset.seq !== undefined", timeout=TIMEOUT_MS)
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    newcomer = context.new_page()
    newcomer.goto(f"{table.url}/control")
    newcomer.click("#join-ask button")
    newcomer.wait_for_selector("#join-form #code", timeout=TIMEOUT_MS)
    newcomer.screenshot(path=str(artifacts / "phone-join-code.png"))
    page.wait_for_selector("#joining:not([hidden]) .joining-code", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artifacts / "tv-join-code.png"))
    code = page.locator(".joining-code").inner_text()
    assert len(code.replace(" ", "")) == 6
    newcomer.fill("#code", code)
    newcomer.click("#join-form button[type=submit]")
    newcomer.wait_for_selector("#c-start", state="attached", timeout=TIMEOUT_MS)
    page.wait_for_selector("#joining[hidden]", state="attached", timeout=TIMEOUT_MS)  # used once: gone
    context.close()


def anns_turn(table: LiveTable) -> int:
    table.new_game(2, "heroscape", {"scenario": "ominous-beginnings"})
    accepted(table, {"kind": "place_markers", "player": 0, "markers": ANN_MARKERS})
    accepted(table, {"kind": "place_markers", "player": 1, "markers": BEN_MARKERS})
    accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["20"]})
    return accepted(table, {"kind": "roll", "player": 1, "die": "d20", "faces": ["2"]})


def claim(page: Any, seat: int) -> None:
    page.select_option("#c-seat", str(seat))
    page.wait_for_function(
        "document.getElementById('c-msg').textContent.startsWith('This phone plays')", timeout=TIMEOUT_MS
    )


def test_a_phone_playing_a_seat_sees_only_its_own_turn(browser, table, artifacts):
    """Issue 19.4: Ugluk's phone showed Grotsnik's attack form, and its "End the turn" ended his turn;
    the odds hint asked to choose a seat although one was chosen."""
    seq = anns_turn(table)
    grotsnik, ugluk, shared = phone(browser, table), phone(browser, table), phone(browser, table)
    for page in (grotsnik, ugluk, shared):
        wait_for_seq(page, seq)
    claim(grotsnik, 0)
    claim(ugluk, 1)
    ugluk.wait_for_selector("text=Grotsnik's turn: they play it on their phone", timeout=TIMEOUT_MS)
    assert ugluk.locator("#hs-declare").count() == 0
    assert ugluk.locator("#c-choices button", has_text="End the turn").count() == 0
    assert "Choose your seat" not in ugluk.locator("#ctl").inner_text()
    ugluk.screenshot(path=str(artifacts / "heroscape-phone-others-turn.png"), full_page=True)

    grotsnik.wait_for_selector("#hs-declare", timeout=TIMEOUT_MS)
    assert grotsnik.locator("#c-choices button", has_text="End the turn").count() == 1
    assert "Choose your seat" not in grotsnik.locator("#ctl").inner_text()
    grotsnik.screenshot(path=str(artifacts / "heroscape-phone-own-turn.png"), full_page=True)

    # A shared phone plays the seats no phone plays: Grotsnik's is his phone's, so not his turn either.
    shared.wait_for_selector("text=Grotsnik's turn: they play it on their phone", timeout=TIMEOUT_MS)
    assert shared.locator("#hs-declare").count() == 0

    grotsnik.locator("#c-choices button", has_text="End the turn").click()
    grotsnik.wait_for_function(
        "document.getElementById('c-msg').textContent.startsWith('Done')", timeout=TIMEOUT_MS
    )
    assert table.session is not None and table.session.position().state.turn.seat == 1
    for page in (grotsnik, ugluk, shared):
        page.context.close()


def test_a_phone_logs_another_out_from_its_phones_list(browser, table, artifacts):
    table.new_game(2)
    ann, ben = phone(browser, table), phone(browser, table)
    claim(ben, 1)
    ann.click("#c-phones summary")
    ann.wait_for_function("document.querySelectorAll('#c-phone-list li').length === 2", timeout=TIMEOUT_MS)
    assert "plays Ugluk" in ann.locator("#c-phone-list").inner_text()
    ann.screenshot(path=str(artifacts / "phone-phones-list.png"), full_page=True)
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.locator("#c-phone-list li:not(.phone-this) button").click()
    ann.wait_for_function("document.querySelectorAll('#c-phone-list li').length === 1", timeout=TIMEOUT_MS)
    ben.reload()
    ben.wait_for_selector("#pin", timeout=TIMEOUT_MS)  # out at once: back to the PIN form
    ann.context.close()
    ben.context.close()


def test_a_seat_picked_before_the_first_look_at_it_returns_stays_picked(browser, table):
    """The CI run of stop 25: a phone picked Ben's seat while its first look at its seat (sent when the
    page drew the game) was still on its way; that older answer, "no seat", came back last and made the
    phone a shared one, so it drew Anna's attack form. Here that first answer is held until the pick
    is done."""
    seq = table.new_game(2)
    page = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True).new_page()
    held: list[tuple[Any, Any]] = []

    def hold_first_look(route: Any) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))  # answered by the server now, given to the page later
        else:
            route.continue_()

    page.route("**/control/seat", hold_first_look)
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("form[action='/control/pin'] button[type=submit]")
    wait_for_seq(page, seq)
    for _ in range(TIMEOUT_MS // 20):
        if held:
            break
        page.wait_for_timeout(20)  # lets Playwright run the route handler
    assert held, "the page never asked which seat it plays"
    claim(page, 1)
    ((route, first_answer),) = held
    assert first_answer.json()["seat"] is None  # the answer from before the pick
    with page.expect_event("requestfinished", lambda r: r.url.endswith("/control/seat")):
        route.fulfill(response=first_answer)
    page.evaluate("() => new Promise(done => setTimeout(done, 100))")  # its .then()s have run
    assert page.locator("#c-seat").input_value() == "1"  # was "" (all seats, shared)
    page.context.close()
