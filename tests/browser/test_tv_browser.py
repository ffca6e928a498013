"""The TV page in a real Chromium: live updates over SSE, and what a 1080p TV shows."""

from __future__ import annotations

import pytest

from companion.engine import GameResult, PlayerId, Standing

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
SNOTLING = {"kind": "place", "player": 0, "card": "crummy-snotling-slaves", "line": 0, "slot": 3}


def wait_for_seq(page, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)


def test_a_card_placed_through_the_api_appears_on_the_tv(page, table):
    seq = table.new_game()
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, seq)
    tile = '.cm-player[data-seat="0"] .line[data-line="0"] .tile[data-card="crummy-snotling-slaves"]'
    assert page.locator(tile).count() == 0
    answer = table.command("act", SNOTLING)
    assert answer["accepted"], answer
    page.wait_for_selector(tile, timeout=TIMEOUT_MS)
    placed = page.locator(tile)
    assert "tile-fresh" in placed.get_attribute("class")  # the last change pulses
    slots = page.locator('.cm-player[data-seat="0"] .line[data-line="0"] .slots > *')
    assert slots.count() == 12
    assert page.locator("#ticker li").first.inner_text().startswith("Grotsnik")


def test_the_prompt_and_whose_turn_are_shown(page, table):
    seq = table.new_game()
    page.goto(f"{table.url}/")
    wait_for_seq(page, seq)
    assert page.locator("#prompt").inner_text() == "Grotsnik: draw a card"
    assert page.locator(".cm-player.is-active .cm-name").inner_text() == "Grotsnik"
    assert page.locator("#banner").is_hidden()


def test_screenshot_of_a_game_in_progress(page, table, artifacts):
    table.new_game()
    seq = table.play(90)
    table.session.report_device("table", {"state": "ready", "readers": 12})
    table.session.report_device(
        "firmware", {"state": "connected", "battery": {"millivolts": 3900, "percent": 87}}
    )
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, seq)
    table.command("undo")
    table.command("redo")  # the last tile pulses in the picture, as after a move
    wait_for_seq(page, seq + 2)
    page.wait_for_selector(".device-connected", timeout=TIMEOUT_MS)
    assert page.locator(".tile[data-card]").count() > 10
    page.screenshot(path=str(artifacts / "tv.png"))


def test_the_final_scoreboard_names_the_winner(page, table, artifacts):
    table.new_game(players=2)
    table.play(2000, seed=3)
    view = table.session.view()
    assert view["game"]["finished"], "the simulated game should have finished"
    page.goto(f"{table.url}/tv")
    final = page.locator("#final")
    final.wait_for(state="visible", timeout=TIMEOUT_MS)
    winners = view["result"]["winners"]
    assert view["result"]["final"] and view["result"]["points_label"] == "VP"
    names = [view["game"]["players"][seat]["name"] for seat in winners]
    title = page.locator(".final-title").inner_text()
    assert all(name in title for name in names)
    assert page.locator(".final-row").count() == 2
    page.screenshot(path=str(artifacts / "tv-final.png"))


def test_device_status_and_notices_are_shown(page, table):
    seq = table.new_game()
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, seq)
    table.session.report_device(
        "table",
        {"state": "ready", "notices": [{"level": "warning", "text": "Unknown tag 04:A1:9C on reader 3"}]},
    )
    heard = 1_795_430_829.0  # the Pi's clock; the page shows it as a time of day
    table.session.report_device(
        "firmware",
        {
            "state": "lost",
            "firmware": "0.1.0",
            "last_heard": heard,
            "battery": {"millivolts": 3700, "percent": 41},
        },
    )
    page.wait_for_selector(".notice-warning", timeout=TIMEOUT_MS)
    assert page.locator(".notice-warning").inner_text() == "Unknown tag 04:A1:9C on reader 3"
    page.wait_for_selector(".device-lost", timeout=TIMEOUT_MS)
    shown_time = page.evaluate(f"new Date({heard} * 1000).toLocaleTimeString([], {{hour12: false}})")
    assert (
        page.locator(".device-lost .device-state").inner_text() == f"lost · v0.1.0 · 41% · heard {shown_time}"
    )
    assert page.locator(".device-ready .device-name").inner_text() == "table"


def test_a_tie_names_every_winner(page, table):
    page.goto(f"{table.url}/tv")
    page.wait_for_function("!!document.body && document.body.dataset.seq !== undefined", timeout=TIMEOUT_MS)
    players = [
        {"seat": seat, "name": name, "colour": "#888", "active": False, "score": {"total": 300}, "lines": []}
        for seat, name in enumerate(["Grotsnik", "Ugluk", "Snagla"])
    ]
    players[2]["score"] = {"total": 120}
    game = {"game": "chaos-marauders", "title": "Chaos Marauders", "players": players, "prompt": None}
    game["finished"] = True
    standings = []
    for p, rank in zip(players, (1, 1, 3), strict=True):
        standings.append(Standing(PlayerId(p["seat"]), p["name"], rank, p["score"]["total"]))
    result = GameResult(True, (PlayerId(0), PlayerId(1)), tuple(standings), "VP", outcome="")
    view = {
        "seq": 99,
        "status": "finished",
        "game": game,
        "result": result.to_json(),
        "game_type": None,
        "last_change": None,
        "devices": {},
        "notices": [],
    }
    page.evaluate("view => TableTV.render(view)", view)
    assert page.locator(".final-title").inner_text() == "A tie! Grotsnik & Ugluk"  # no outcome: from winners
    assert page.locator(".final-winner").count() == 2
    assert page.locator(".final-row").last.locator(".final-name").inner_text() == "Snagla"


def test_the_slot_the_tables_next_button_shows_is_outlined_with_the_card(page, table):
    table.new_game()
    answer = table.command("act", {"kind": "place", "player": 0, "card": "grivziz-dirtballs", "line": 1})
    assert answer["accepted"], answer  # no slot: the engine asks which
    view = table.session.view()
    choice = view["game"]["prompt"]["choices"][2]
    assert choice["action"]["line"] == 1
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, view["seq"])
    assert page.locator(".tile-candidate").count() == 0
    # What companion.table.Table reports while its next button shows a choice.
    table.session.report_device("table", {"state": "ready", "notices": [], "choice": choice})
    candidate = page.locator('.cm-player[data-seat="0"] .line[data-line="1"] .slots > *').nth(
        choice["action"]["slot"]
    )
    page.wait_for_selector(".tile-candidate", timeout=TIMEOUT_MS)
    assert "tile-candidate" in candidate.get_attribute("class")
    assert candidate.inner_text().split() == ["Grivziz", "Dirtballs"]  # its two lines
    table.session.report_device("table", {"state": "ready", "notices": [], "choice": None})
    page.wait_for_selector(".tile-candidate", state="detached", timeout=TIMEOUT_MS)
