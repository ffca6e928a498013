"""HeroScape in a real Chromium: a phone starts the game, each phone places its order markers in secret
(the TV shows only that they are placed until each is revealed), an attack declared on a phone with
its exact odds before the roll and its dice on the TV, and the final result. The TV is checked for
what a 1080p screen read from 3 m needs: no text under 20 px in the game's part, nothing clipped."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from companion.games.heroscape.demo import HeroScapeDemo

from .browser_support import PIN, LiveTable

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
MIN_TEXT_PX = 20
ARMIES = {0: ["sonlen", "marro-drudge"], 1: ["tor-kul-na", "marro-stingers"]}
ORDERS = {
    0: ["0:marro-drudge", "0:sonlen", "0:marro-drudge", "0:sonlen"],
    1: ["1:marro-stingers", "1:tor-kul-na", "1:tor-kul-na", "1:marro-stingers"],
}


def phone(browser: Any, table: LiveTable) -> Any:
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#c-start", state="attached", timeout=TIMEOUT_MS)
    return page


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)


def accepted(table: LiveTable, payload: dict[str, Any]) -> int:
    answer = table.command("act", payload)
    assert answer["accepted"], answer
    return int(answer["seq"])


def armies_gathered(table: LiveTable) -> int:
    """Both pre-made armies registered (as their tags would) and placed: the markers are next."""
    for seat, cards in ARMIES.items():
        for card in cards:
            accepted(table, {"kind": "add_card", "player": seat, "card": card})
        accepted(table, {"kind": "army_ready", "player": seat})
    accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["17"]})
    return accepted(table, {"kind": "roll", "player": 1, "die": "d20", "faces": ["4"]})


def claim_and_place(page: Any, seat: int) -> None:
    page.select_option("#c-seat", str(seat))
    page.wait_for_selector("#hs-place-markers", timeout=TIMEOUT_MS)
    for marker, unit in zip("123X", ORDERS[seat], strict=True):
        page.select_option(f"#hs-marker{marker}", unit)
    page.click("#hs-place-markers")
    page.wait_for_selector(".hs-my-markers", timeout=TIMEOUT_MS)  # this phone lists its own markers


def small_or_clipped(page: Any) -> list[str]:
    """Visible text in the game's part of the TV under MIN_TEXT_PX, or cut off by its box."""
    return list(
        page.evaluate(
            """(least) => {
              const out = [];
              for (const node of document.querySelectorAll('.hs-table *')) {
                if (!node.getClientRects().length) continue;
                const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                if (!own) continue;
                const size = parseFloat(getComputedStyle(node).fontSize);
                if (size < least) out.push(`${size}px: ${node.textContent.trim()}`);
                if (node.scrollWidth > node.clientWidth + 1) out.push(`clipped: ${node.textContent.trim()}`);
              }
              for (const box of document.querySelectorAll('.hs-cards, .hs-side')) {
                if (box.scrollHeight > box.clientHeight + 1) out.push(`cut off: ${box.className}`);
              }
              return out;
            }""",
            MIN_TEXT_PX,
        )
    )


def test_phones_start_heroscape_and_place_their_order_markers_in_secret(browser, page, table, artifacts):
    ann = phone(browser, table)
    ann.select_option("#c-game", "heroscape")  # the New game section is open: no game is running
    ann.select_option('[data-option="scenario"]', '"custom"')  # the engine's setup options, as data
    ann.select_option('[data-option="army"]', '"premade"')
    while ann.locator("#c-players li").count() > 2:
        ann.locator("#c-players li button").last.click()  # two players
    ann.click("#c-start")
    ann.wait_for_function(
        "document.getElementById('c-prompt').textContent.startsWith('Gather your armies')", timeout=TIMEOUT_MS
    )
    view = table.session.view()
    assert view["game"]["game"] == "heroscape" and view["game"]["scenario"]["id"] == "custom"
    assert [p["name"] for p in view["game"]["players"]] == ["Player 1", "Player 2"]  # not orc names

    seq = armies_gathered(table)
    page.goto(f"{table.url}/")
    wait_for_seq(page, seq)
    assert page.locator("#prompt").inner_text() == "Place your order markers on your phones"
    assert page.locator(".hs-placed.is-done").count() == 0

    ugluk = phone(browser, table)
    wait_for_seq(ann, seq)
    wait_for_seq(ugluk, seq)
    ugluk.select_option("#c-seat", "1")
    ugluk.wait_for_selector("#hs-place-markers", timeout=TIMEOUT_MS)
    ugluk.screenshot(path=str(artifacts / "heroscape-phone-markers.png"))
    assert "in secret" in ann.locator("#c-game-prompt").inner_text()  # no seat yet: no marker form
    claim_and_place(ann, 0)
    ann.wait_for_selector("text=Your markers are placed", timeout=TIMEOUT_MS)
    page.wait_for_selector('.hs-player[data-seat="0"] .hs-placed.is-done', timeout=TIMEOUT_MS)
    assert page.locator('.hs-player[data-seat="1"] .hs-placed:not(.is-done)').count() == 1
    assert page.locator(".hs-marker").count() == 0  # placed, face down: nothing revealed on the TV
    history = table.session.history()
    assert history[-1]["action"] == {"kind": "place_markers", "player": 0}

    claim_and_place(ugluk, 1)
    assert "Marker 1" not in ugluk.locator("#c-game-prompt").inner_text()
    mine = ugluk.locator(".hs-my-markers").inner_text()
    assert "1 Marro Stingers" in mine and "Sonlen" not in mine  # a phone sees its own markers only
    page.wait_for_function("document.getElementById('prompt').textContent.startsWith('Initiative')")
    accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["15"]})
    seq = accepted(table, {"kind": "roll", "player": 1, "die": "d20", "faces": ["9"]})
    wait_for_seq(page, seq)
    revealed = page.locator(".hs-marker")
    assert revealed.count() == 1
    assert revealed.first.inner_text() == "1"
    card = page.locator(".hs-card:has(.hs-marker)").get_attribute("data-unit")
    assert card == "0:marro-drudge"
    assert page.locator(".hs-order-item").count() == 2
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "heroscape-tv-markers.png"))
    ann.context.close()
    ugluk.context.close()


def test_an_attack_declared_on_a_phone_shows_its_odds_then_its_dice_on_the_tv(
    browser, page, table, artifacts
):
    table.new_game(players=2, game="heroscape", options={"scenario": "custom", "army": "premade"})
    armies_gathered(table)
    for seat, units in ORDERS.items():
        accepted(table, {"kind": "place_markers", "player": seat, "markers": units})
    accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["15"]})
    seq = accepted(table, {"kind": "roll", "player": 1, "die": "d20", "faces": ["9"]})
    grotsnik = phone(browser, table)
    wait_for_seq(grotsnik, seq)
    grotsnik.click("#c-choices button:has-text('Done moving')")
    grotsnik.wait_for_selector("#hs-declare", timeout=TIMEOUT_MS)
    grotsnik.select_option("#hs-attacker", "0:marro-drudge/1")
    grotsnik.select_option("#hs-target", "1:tor-kul-na/1")
    grotsnik.select_option("#hs-height", "attacker")
    grotsnik.click("#hs-declare")
    grotsnik.wait_for_selector(".hs-odds", timeout=TIMEOUT_MS)
    pending = table.session.view()["game"]["pending_attack"]
    assert pending["attack_dice"] == 3  # Drudge's 2 + 1 for height
    odds = grotsnik.locator(".hs-odds").inner_text()
    percent = f"{pending['odds']['p_at_least_one'] * 100:.1f}%"
    assert odds.startswith(f"3 attack vs {pending['defense_dice']} defense: {percent} to wound")
    grotsnik.screenshot(path=str(artifacts / "heroscape-phone-attack.png"))

    page.goto(f"{table.url}/")
    wait_for_seq(page, table.session.view()["seq"])
    assert re.search(r"\d+% to wound", page.locator(".hs-attack").inner_text())
    assert page.locator(".hs-attack .hs-die-waiting").count() == 3
    # The odds say which modifiers the dice include.
    assert page.locator(".hs-dice-parts").first.inner_text() == "Attack 2 · +1 height advantage"
    assert "Attack dice: Attack 2, +1 height advantage" in grotsnik.locator(".hs-odds-parts").inner_text()
    # Two armies of two cards: the rows grow into the panels, two large lines each.
    assert page.locator(".hs-cards.is-compact").count() == 0
    heights = page.locator(".hs-card").evaluate_all("(rows) => rows.map(r => r.offsetHeight)")
    assert min(heights) >= 96, heights
    # Three combat dice entered on the phone by counting faces: 2 skulls, and the rest (1) blank.
    counter = grotsnik.locator(".facecount-row")
    counter.filter(has_text="skull").locator("button:has-text('+')").click()
    counter.filter(has_text="skull").locator("button:has-text('+')").click()
    grotsnik.click("button:has-text('Enter 3 dice')")
    page.wait_for_selector(".hs-attack .hs-die-skull", timeout=TIMEOUT_MS)
    assert page.locator(".hs-attack svg.hs-die").count() == 3
    assert page.locator(".hs-attack svg.hs-die-skull.counts").count() == 2
    seq = accepted(table, {"kind": "roll", "player": 1, "die": "combat", "faces": ["shield"] + ["blank"] * 4})
    wait_for_seq(page, seq)
    assert page.locator(".hs-attack h2").inner_text().lower() == "last attack"
    assert page.locator(".hs-result").inner_text() == "2 skulls against 1 shield, 1 wound"
    assert page.locator('.hs-card[data-unit="1:tor-kul-na"] .hs-life.is-wounded').count() == 1
    row = page.locator('.hs-card[data-unit="1:tor-kul-na"] .hs-stats').inner_text()
    assert row == "Attack 6 · Defense 5 · 5 of 6 life"  # as the event says: "5 of 6 life left"
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "heroscape-tv.png"))
    small = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    small.goto(f"{table.url}/")
    wait_for_seq(small, seq)
    assert small_or_clipped(small) == []  # the same 1080p layout, scaled: nothing cut or too small
    small.screenshot(path=str(artifacts / "heroscape-tv-720.png"))
    small.context.close()
    grotsnik.context.close()


def test_the_final_result_stays_on_the_tv(page, table, artifacts):
    table.new_game(players=2, game="heroscape", options={"scenario": "deadly-wall-of-water"})
    table.play(3000, seed=5, kit=HeroScapeDemo)
    view = table.session.view()
    assert view["game"]["finished"], view["game"]["prompt"]
    page.goto(f"{table.url}/")
    page.locator("#final").wait_for(state="visible", timeout=TIMEOUT_MS)
    names = [view["game"]["players"][seat]["name"] for seat in view["result"]["winners"]]
    title = page.locator(".final-title").inner_text()
    assert names and all(name in title for name in names)
    assert page.locator(".final-row").count() == 2
    page.screenshot(path=str(artifacts / "heroscape-tv-final.png"))


BIG_ARMIES = [
    ["marrden-nagrubs"] * 4 + ["marro-drudge"] * 4 + ["shiori"],
    ["sgt-drake-alexander", "tor-kul-na"],
    ["marro-stingers"] * 3 + ["marrden-nagrubs"] * 3,
    ["marro-hive", "raelin"],
]


def test_four_players_with_a_big_army_fit_the_tv(page, table, artifacts):
    table.new_game(
        players=4,
        game="heroscape",
        options={"scenario": "custom", "army": "premade", "sets": 4, "points": 400},
    )
    for seat, cards in enumerate(BIG_ARMIES):
        for card in cards:
            accepted(table, {"kind": "add_card", "player": seat, "card": card})
        accepted(table, {"kind": "army_ready", "player": seat})
    for seat in range(4):
        seq = accepted(table, {"kind": "roll", "player": seat, "die": "d20", "faces": [str(20 - seat)]})
    page.goto(f"{table.url}/")
    wait_for_seq(page, seq)
    assert page.locator('.hs-player[data-seat="0"] .hs-card').count() == 9
    assert page.locator('.hs-player[data-seat="0"] .hs-cards.is-two-columns').count() == 1
    copies = page.locator('.hs-player[data-seat="0"] .hs-card-title').all_inner_texts()
    assert len(set(copies)) == 9  # every copy keeps its number, however short the title gets
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "heroscape-tv-four.png"))


def test_a_d20_power_is_a_choice_on_the_phone_and_its_roll_is_entered_there(browser, page, table):
    table.new_game(players=2, game="heroscape", options={"scenario": "custom", "army": "premade"})
    armies_gathered(table)
    accepted(table, {"kind": "place_markers", "player": 0, "markers": ["0:sonlen"] * 4})
    accepted(table, {"kind": "place_markers", "player": 1, "markers": ORDERS[1]})
    accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["15"]})
    seq = accepted(table, {"kind": "roll", "player": 1, "die": "d20", "faces": ["9"]})
    grotsnik = phone(browser, table)
    wait_for_seq(grotsnik, seq)
    swoop = grotsnik.locator("#c-choices button", has_text="Dragon Swoop")
    assert swoop.count() >= 2  # one per figure it may aim at
    swoop.first.click()
    grotsnik.wait_for_function(
        "document.getElementById('c-prompt').textContent.includes('d20')", timeout=TIMEOUT_MS
    )
    prompt = table.session.view()["game"]["prompt"]
    assert prompt["roll"]["die"] == "d20" and prompt["players"] == [0]
    grotsnik.click("#c-rolls .dicegrid-face[data-action*='[\"17\"]']")  # a d20 is one tap on a grid
    grotsnik.wait_for_function(
        "!document.getElementById('c-prompt').textContent.includes('d20')", timeout=TIMEOUT_MS
    )
    last = table.session.history()[-1]
    assert last["source"] == "control" and last["action"]["faces"] == ["17"]
    grotsnik.context.close()


def first_turn(table: LiveTable) -> int:
    """Both armies gathered, markers placed, Grotsnik (seat 0) wins the initiative: his Drudge's turn."""
    table.new_game(players=2, game="heroscape", options={"scenario": "custom", "army": "premade"})
    armies_gathered(table)
    for seat, units in ORDERS.items():
        accepted(table, {"kind": "place_markers", "player": seat, "markers": units})
    accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["15"]})
    return accepted(table, {"kind": "roll", "player": 1, "die": "d20", "faces": ["9"]})


def cli_odds(attack: int, defense: int) -> dict[str, Any]:
    """`companion odds heroscape --attack A --defense D --json`, as a user runs it."""
    command = [sys.executable, "-m", "companion", "odds", "heroscape"]
    command += ["--attack", str(attack), "--defense", str(defense), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return {"attack": attack, "defense": defense, **json.loads(done.stdout)}


def live_odds(page: Any) -> dict[str, Any]:
    line = page.locator(".hs-odds-live .hs-odds")
    line.wait_for(timeout=TIMEOUT_MS)
    data = line.evaluate("(n) => ({...n.dataset})")
    return {
        "attack": int(data["attack"]),
        "defense": int(data["defense"]),
        "p_at_least_one": float(data["p"]),
        "expected": float(data["expected"]),
        "distribution": json.loads(data["distribution"]),
        "text": line.inner_text(),
    }


def same_odds(phone_odds: dict[str, Any], cli: dict[str, Any]) -> bool:
    close = lambda a, b: abs(a - b) < 1e-9  # noqa: E731  (floats: the phone sums in binary)
    return (
        (phone_odds["attack"], phone_odds["defense"]) == (cli["attack"], cli["defense"])
        and close(phone_odds["p_at_least_one"], cli["p_at_least_one"])
        and close(phone_odds["expected"], cli["expected"])
        and len(phone_odds["distribution"]) == len(cli["distribution"])
        and all(close(a, b) for a, b in zip(phone_odds["distribution"], cli["distribution"], strict=True))
    )


def test_the_attack_form_shows_the_engines_odds_while_it_is_filled_in(browser, table, artifacts):
    seq = first_turn(table)
    grotsnik = phone(browser, table)
    wait_for_seq(grotsnik, seq)
    grotsnik.click("#c-choices button:has-text('Done moving')")
    grotsnik.wait_for_selector("#hs-declare", timeout=TIMEOUT_MS)
    assert "Choose your seat" in grotsnik.locator(".hs-odds-live").inner_text()  # a shared phone
    grotsnik.select_option("#c-seat", "0")
    grotsnik.select_option("#hs-attacker", "0:marro-drudge/1")
    grotsnik.select_option("#hs-target", "1:tor-kul-na/1")
    seen = live_odds(grotsnik)
    assert (seen["attack"], seen["defense"]) == (2, 5)  # Drudge's Attack 2, Tor-Kul-Na's Defense 5
    assert same_odds(seen, cli_odds(2, 5))
    grotsnik.select_option("#hs-height", "attacker")
    grotsnik.wait_for_function(
        "document.querySelector('.hs-odds-live .hs-odds').dataset.attack === '3'", timeout=TIMEOUT_MS
    )
    grotsnik.check('input[data-condition="swamp-water-attacker"]')  # Swamp Water Strength: +1 / +1
    grotsnik.wait_for_function(
        "document.querySelector('.hs-odds-live .hs-odds').dataset.attack === '4'", timeout=TIMEOUT_MS
    )
    seen = live_odds(grotsnik)
    assert same_odds(seen, cli_odds(4, 5)), seen
    included = grotsnik.locator(".hs-odds-live .hs-odds-parts").inner_text()
    assert "Attack dice: Attack 2, +1 height advantage, +1 Swamp Water Strength" in included
    assert "Defense dice: Defense 5" in included
    assert seen["text"].startswith(f"4 attack vs 5 defense: {cli_odds(4, 5)['p_at_least_one'] * 100:.1f}%")
    grotsnik.screenshot(path=str(artifacts / "heroscape-phone-live-odds.png"))
    grotsnik.click("#hs-declare")
    grotsnik.wait_for_selector("#c-rolls", timeout=TIMEOUT_MS)
    pending = table.session.view()["game"]["pending_attack"]
    assert (pending["attack_dice"], pending["defense_dice"]) == (4, 5)  # what the phone showed
    grotsnik.context.close()


def test_a_roll_off_is_asked_on_a_phone_rolled_and_shown_on_the_tv(browser, page, table, artifacts):
    seq = first_turn(table)
    ugluk = phone(browser, table)
    wait_for_seq(ugluk, seq)
    ugluk.select_option("#c-seat", "1")
    ugluk.click(".hs-rolloff-form summary")
    ugluk.select_option("#hs-ro-about", "line-of-sight")
    assert ugluk.locator("#hs-ro-against option").all_inner_texts() == ["Grotsnik"]
    ugluk.click("#hs-rolloff")
    ugluk.wait_for_function(
        "document.getElementById('c-prompt').textContent.startsWith('Line of sight: Ugluk rolls')",
        timeout=TIMEOUT_MS,
    )
    page.goto(f"{table.url}/")
    ugluk.click("#c-rolls .dicegrid-face[data-action*='[\"17\"]']")  # a d20 is one tap on a grid
    page.wait_for_selector(".hs-rolloff .hs-order-roll:has-text('d20 17')", timeout=TIMEOUT_MS)
    assert page.locator("#prompt").inner_text().startswith("Line of sight: Grotsnik rolls the d20")
    seq = accepted(table, {"kind": "roll", "player": 0, "die": "d20", "faces": ["9"]})
    wait_for_seq(page, seq)
    assert page.locator(".hs-rolloff-result").inner_text() == "Line of sight: Ugluk wins 17–9"
    assert page.locator("#prompt").inner_text().startswith("Grotsnik's turn 1")  # the turn goes on
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "heroscape-tv-rolloff.png"))
    ugluk.context.close()


def test_a_phone_shows_its_teammates_markers_read_only(browser, table):
    table.new_game(
        players=4, game="heroscape", options={"scenario": "custom", "army": "premade", "teams": "12-34"}
    )
    armies = [["raelin"], ["tor-kul-na"], ["shiori"], ["major-q10"]]
    for seat, cards in enumerate(armies):
        for card in cards:
            accepted(table, {"kind": "add_card", "player": seat, "card": card})
        accepted(table, {"kind": "army_ready", "player": seat})
    for seat in range(4):
        accepted(table, {"kind": "roll", "player": seat, "die": "d20", "faces": [str(20 - seat)]})
    for seat in (1, 2):
        seq = accepted(
            table, {"kind": "place_markers", "player": seat, "markers": [f"{seat}:{armies[seat][0]}"] * 4}
        )
    names = [p["name"] for p in table.session.view()["game"]["players"]]
    first = phone(browser, table)
    wait_for_seq(first, seq)
    first.select_option("#c-seat", "0")
    mate = first.locator(".hs-mate-markers")
    mate.wait_for(timeout=TIMEOUT_MS)
    assert mate.count() == 1 and mate.get_attribute("data-seat") == "1"
    assert mate.inner_text().startswith(f"{names[1]}'s markers: 1 Tor-Kul-Na")
    first.wait_for_selector("#hs-place-markers", timeout=TIMEOUT_MS)  # drawn with the seat's view
    assert first.locator("#hs-place-markers").count() == 1  # Grotsnik still places only his own
    third = phone(browser, table)
    wait_for_seq(third, seq)
    third.select_option("#c-seat", "2")
    third.wait_for_selector(".hs-my-markers", timeout=TIMEOUT_MS)
    assert third.locator(".hs-mate-markers").count() == 0  # Player 4 has not placed; Player 2 is an opponent
    assert "Tor-Kul-Na" not in third.locator(".hs-my-markers").inner_text()
    first.context.close()
    third.context.close()
