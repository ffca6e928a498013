"""At the table, in a real Chromium: nothing lost by one mis-tap, answers where the player looks, dice
that add up, new-game defaults that start, and a closed game that no longer looks live."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_support import PIN, LiveTable

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
PHONE = {"width": 390, "height": 844}


def phone(browser: Any, table: LiveTable) -> Any:
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    # The first view drawn: the page's script has started (its config read, the forms set up).
    page.wait_for_function("!!document.body && document.body.dataset.seq !== undefined", timeout=TIMEOUT_MS)
    return page


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)


def done(page: Any) -> None:
    page.wait_for_function(
        "document.getElementById('c-msg').textContent.startsWith('Done')", timeout=TIMEOUT_MS
    )


def in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """selector => { const box = document.querySelector(selector).getBoundingClientRect();
                return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight; }""",
            selector,
        )
    )


def test_a_new_game_asks_first_and_the_game_it_replaces_resumes_from_past_games(browser, table, artifacts):
    table.new_game()
    seq = table.play(12)
    assert table.session is not None
    first = table.session.view()["game_id"]
    page = phone(browser, table)
    wait_for_seq(page, seq)
    assert page.locator("#c-new").get_attribute("open") is None  # a game is running: the form waits
    page.click("#c-new summary")
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.click("#c-start")
    page.wait_for_function("() => true")
    assert asked and "Start a new game of Chaos Marauders?" in asked[0]
    assert "set aside, not lost: resume it from Past games" in asked[0]
    assert "Grotsnik" in asked[0] and "round" in asked[0]  # what is at stake, named
    assert table.session.view()["game_id"] == first  # a mis-tap, refused: nothing happened

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#c-start")
    page.wait_for_function(
        "document.getElementById('c-prompt').textContent === 'Grotsnik: draw a card'", timeout=TIMEOUT_MS
    )
    assert table.session.view()["game_id"] == first + 1

    page.click("#c-past summary")
    row = page.locator(f'.pastgame[data-game="{first}"]')
    row.wait_for(timeout=TIMEOUT_MS)
    assert "set aside" in row.inner_text()
    assert row.locator("a", has_text="Export").get_attribute("href") == f"/api/games/{first}/export"
    page.screenshot(path=str(artifacts / "control-past-games.png"), full_page=True)
    page.once("dialog", lambda dialog: dialog.accept())
    row.locator("button", has_text="Resume").click()
    page.wait_for_function(f"Number(document.body.dataset.seq) > {table.session.view()['seq'] - 1}")
    done(page)
    view = table.session.view()
    assert view["game_id"] == first and view["last_change"]["kind"] == "resume"
    page.locator(f'.pastgame[data-game="{first + 1}"]', has_text="set aside").wait_for(timeout=TIMEOUT_MS)


def test_after_end_game_the_tv_and_the_phone_show_the_game_closed_and_what_next(browser, table, artifacts):
    table.new_game()
    table.play(9)
    assert table.session is not None
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{table.url}/tv")
    wait_for_seq(tv, table.session.view()["seq"])
    assert tv.locator(".cm-turn").count() == 1  # live: whose turn it is
    page = phone(browser, table)
    wait_for_seq(page, table.session.view()["seq"])
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#c-end")
    done(page)
    seq = table.session.view()["seq"]
    wait_for_seq(tv, seq)
    wait_for_seq(page, seq)
    assert tv.locator("#prompt").inner_text() == "Game closed: a phone starts a new game or resumes one"
    assert tv.locator(".cm-turn").count() == 0 and tv.locator(".cm-player.is-waiting").count() == 0
    assert tv.locator(".cm-player.is-active").count() == 0
    assert tv.locator(".tile[data-card]").count() > 0  # the board as it stood
    assert tv.locator(".cm-vp-note").all_inner_texts() == ["when it was closed"] * 4  # not "if it ended now"
    tv.screenshot(path=str(artifacts / "tv-closed.png"))
    assert page.locator("#c-prompt").inner_text() == "This game was closed"
    assert page.locator("#c-draw").count() == 0 and page.locator("#c-correct").count() == 0  # no live form
    assert "Scores when the game was closed" in page.locator("#c-result").inner_text()
    assert page.locator("#c-new").get_attribute("open") is not None
    next_steps = page.locator("#c-next")
    next_steps.locator("#c-rematch").wait_for(timeout=TIMEOUT_MS)
    assert next_steps.locator("button").all_inner_texts()[:2] == ["New game", "Same players again"]
    page.screenshot(path=str(artifacts / "control-closed.png"), full_page=True)
    page.click("#c-rematch")
    names = page.locator("#c-players input[type=text]").evaluate_all("nodes => nodes.map(n => n.value)")
    assert names == ["Grotsnik", "Ugluk", "Snagla", "Bogrot"]
    page.click("#c-start")  # the game was closed: nothing to set aside, no question
    page.wait_for_function(
        "document.getElementById('c-prompt').textContent === 'Grotsnik: draw a card'", timeout=TIMEOUT_MS
    )


def test_an_answer_lands_where_the_player_looks(browser, table, artifacts):
    table.new_game()
    page = phone(browser, table)
    page.wait_for_selector("#c-draw-cards [data-card]", timeout=TIMEOUT_MS)
    # Far down the page, in the corrections: a refused correction is told on screen, not at the top.
    page.click("#c-correct summary")
    page.select_option("#c-fix-card", "hobgoblin-musician")
    page.select_option("#c-fix-slot", label="1")
    page.locator("#c-fix-place").scroll_into_view_if_needed()
    page.click("#c-fix-place")
    message = page.locator("#c-msg.msg-error")
    message.wait_for(timeout=TIMEOUT_MS)
    assert "only a Standard may stand at the left end" in message.inner_text()
    assert in_view(page, "#c-msg")
    page.screenshot(path=str(artifacts / "control-error-in-view.png"))
    # A move made far down the page brings the next question into view.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.evaluate("() => document.querySelector('#c-draw-cards [data-card]').click()")
    page.wait_for_selector(".cm-slotgrid, #c-choices button", timeout=TIMEOUT_MS)
    page.wait_for_function(
        """() => { const box = document.getElementById('c-prompt-card').getBoundingClientRect();
                   return box.top >= -1 && box.top < innerHeight / 2; }""",
        timeout=TIMEOUT_MS,
    )
    assert in_view(page, "#c-msg")


COMBAT = {"die": "combat", "count": 5, "faces": ["skull", "skull", "skull", "shield", "shield", "blank"]}
D20 = {"die": "d20", "count": 1, "faces": [str(n) for n in range(1, 21)]}
ENTRY = """([roll, seat]) => {
  window.sent = [];
  const ctx = Object.assign({}, TableControl.ctx, { act: action => window.sent.push(action) });
  const box = document.createElement('div');
  box.id = 'dice-under-test';
  box.appendChild(TableDice.entry(ctx, seat, roll));
  document.getElementById('c-prompt-card').appendChild(box);
}"""
COUNTS = """() => Array.from(document.querySelectorAll('#dice-under-test .facecount-n'))
  .map(n => Number(n.textContent))"""


def test_dice_counters_always_add_up_to_the_dice_thrown(browser, table):
    page = phone(browser, table)
    page.evaluate(ENTRY, [COMBAT, 1])
    rows = page.locator("#dice-under-test .facecount-row")
    skull = rows.filter(has_text="skull").locator("button", has_text="+")
    assert page.evaluate(COUNTS) == [0, 0, 5]  # blank holds the rest
    for _ in range(3):
        skull.click()
    rows.filter(has_text="shield").locator("button", has_text="+").click()
    assert page.evaluate(COUNTS) == [3, 1, 1]
    skull.click()
    assert page.evaluate(COUNTS) == [4, 1, 0]
    assert skull.is_disabled()  # all five dice counted: "6 of 5" cannot be entered
    rows.filter(has_text="shield").locator("button", has_text="−").click()
    assert page.evaluate(COUNTS) == [4, 0, 1]
    page.click("#dice-under-test button:has-text('Enter 5 dice')")
    sent = page.evaluate("() => window.sent")
    assert sent == [{"kind": "roll", "player": 1, "die": "combat", "faces": ["skull"] * 4 + ["blank"]}]


def test_a_d20_is_one_tap_on_a_large_grid(browser, table, artifacts):
    page = phone(browser, table)
    page.evaluate(ENTRY, [D20, 0])
    faces = page.locator("#dice-under-test .dicegrid-face")
    assert faces.all_inner_texts() == [str(n) for n in range(1, 21)]
    assert page.locator("#dice-under-test select").count() == 0  # no picker that starts at 1
    box = faces.nth(16).bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 48  # a thumb's target
    page.locator("#dice-under-test").screenshot(path=str(artifacts / "control-d20.png"))
    faces.nth(16).click()
    assert page.evaluate("() => window.sent") == [
        {"kind": "roll", "player": 0, "die": "d20", "faces": ["17"]}
    ]


MIXED = {
    "die": "sc-attack",
    "count": 3,
    "faces": ["yellow:1", "yellow:3", "red:2", "red:0v", "blue:4", "blue:0vv"],
    "policy": "together",
    "dice": ["sc-yellow", "sc-red", "sc-blue"],
}
IDOL = {"die": "cube", "count": 6, "faces": ["eye", "mark"], "policy": "one_by_one", "dice": []}


def test_different_dice_thrown_together_get_a_grid_each_and_a_die_thrown_again_one_tap_a_throw(
    browser, table
):
    page = phone(browser, table)
    page.evaluate(ENTRY, [MIXED, 2])
    heads = page.locator("#dice-under-test h4").all_inner_texts()
    assert heads == ["yellow attack die", "red attack die", "blue attack die"]  # each die by its name
    grids = page.locator("#dice-under-test .dicegrid")
    assert grids.count() == 3 and grids.nth(2).locator("button").count() == 6  # the blue die's own faces
    enter = page.locator("#dice-under-test button:has-text('Enter 3 dice')")
    for index, face in enumerate(("yellow:3", "red:2", "blue:0vv")):
        assert enter.is_disabled()
        label = page.evaluate(
            "([die, face]) => TableControl.ctx.faceName(die, face)", [MIXED["dice"][index], face]
        )
        grids.nth(index).get_by_role("button", name=label, exact=True).click()
    enter.click()
    assert page.evaluate("() => window.sent") == [
        {"kind": "roll", "player": 2, "die": "sc-attack", "faces": ["yellow:3", "red:2", "blue:0vv"]}
    ]
    # The Idol's six throws of one Cube: each throw entered as it falls, one tap, not six menus.
    page.evaluate(ENTRY, [IDOL, 0])
    buttons = page.locator("#dice-under-test").last.locator("button")
    assert buttons.count() == 2
    buttons.first.click()
    assert page.evaluate("() => window.sent") == [
        {"kind": "roll", "player": 0, "die": "cube", "faces": ["eye"]}
    ]


def test_the_new_game_defaults_start_for_every_game_and_scenario(browser, table):
    page = phone(browser, table)
    assert page.locator("#c-new").get_attribute("open") is not None  # no game: the form is open
    page.select_option("#c-game", "heroscape")
    names = page.locator("#c-players input[type=text]")
    assert names.count() in (2, 3)  # the default scenario is for 2 or 3 players, not 4
    assert "Grotsnik" not in names.evaluate_all("nodes => nodes.map(n => n.value)")
    assert page.locator("#c-players-hint").inner_text() == "2 or 3 players with these options"
    page.select_option('[data-option="scenario"]', '"a-long-wait"')
    assert names.count() == 2 and page.locator("#c-add-player").is_disabled()
    page.select_option('[data-option="scenario"]', '"rogue-hive"')
    page.click("#c-add-player")
    page.click("#c-add-player")
    assert names.count() == 4 and page.locator("#c-add-player").is_disabled()
    page.select_option('[data-option="scenario"]', '"deadly-wall-of-water"')
    assert names.count() == 3  # fitted: the nearest count that starts
    page.click("#c-start")
    page.wait_for_function("document.body.dataset.status === 'playing'", timeout=TIMEOUT_MS)
    assert table.session is not None
    assert len(table.session.view()["game"]["players"]) == 3


def test_undo_is_greyed_out_when_the_last_move_was_another_seats(browser, table):
    table.new_game()
    table.play(2)  # Grotsnik drew and placed
    assert table.session is not None
    ugluk = phone(browser, table)
    wait_for_seq(ugluk, table.session.view()["seq"])
    assert not ugluk.locator("#c-undo").is_disabled()  # a shared phone may undo it
    ugluk.select_option("#c-seat", "1")
    ugluk.wait_for_function("document.getElementById('c-undo').disabled", timeout=TIMEOUT_MS)
    assert "Grotsnik's" in ugluk.locator("#c-undo-why").inner_text()


def test_with_no_game_the_tv_shows_a_large_code_to_scan(browser, table, artifacts):
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(f"{table.url}/tv")
    qr = tv.locator(".tv-start-qr")
    qr.wait_for(timeout=TIMEOUT_MS)
    box = qr.bounding_box()
    assert box is not None and box["height"] >= 0.45 * 720  # the corner's code was 136 of 1080
    assert tv.locator(".tv-qr").evaluate("n => getComputedStyle(n).visibility") == "hidden"
    tv.screenshot(path=str(artifacts / "tv-no-game-720p.png"))


def test_the_choice_the_next_button_shows_is_large_on_the_tv(browser, table, artifacts):
    table.new_game()
    assert table.command("act", {"kind": "draw", "player": 0, "card": "crummy-snotling-slaves"})["accepted"]
    assert table.session is not None
    choices = table.session.view()["game"]["prompt"]["choices"]
    choice = {"label": choices[1]["label"], "action": choices[1]["action"], "index": 2, "count": len(choices)}
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{table.url}/tv")
    wait_for_seq(tv, table.session.view()["seq"])
    table.session.report_device("table", {"state": "ready", "choice": choice})
    hint = tv.locator("#tv-hint")
    hint.wait_for(timeout=TIMEOUT_MS)
    assert choice["label"] in hint.inner_text() and f"(2 of {len(choices)})" in hint.inner_text()
    size = tv.locator(".tv-hint-choice").evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
    assert size >= 28
    tv.screenshot(path=str(artifacts / "tv-next-button.png"))
