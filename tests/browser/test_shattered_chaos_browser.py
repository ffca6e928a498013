"""Shattered Chaos in a real Chromium: a phone starts the adventure with its setup options; the TV shows
every adventurer's ledgers, every enemy's lives and the round counter's five sections, and nothing under
20 px or clipped at 1080p (the same picture scaled at 720p); a phone attacks with the odds before the throw
(the same figures as odds.py), enters the three dice one colour per row and picks the range die; the
enemy's reaction asks the phone what the map knows and the TV shows its decision in large type; the
final evaluation ends on the TV."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.shattered_chaos.data_loading import default_catalog
from companion.games.shattered_chaos.odds import adventurer_odds

from .browser_support import PIN, LiveTable

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
MIN_TEXT_PX = 20


def phone(browser: Any, table: LiveTable) -> Any:
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    # The first view drawn: the page's script has started (its forms set up).
    page.wait_for_function("!!document.body && document.body.dataset.seq !== undefined", timeout=TIMEOUT_MS)
    return page


def accepted(table: LiveTable, payload: dict[str, Any]) -> int:
    answer = table.command("act", payload)
    assert answer["accepted"], answer
    return int(answer["seq"])


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)


def small_or_clipped(page: Any) -> list[str]:
    return list(
        page.evaluate(
            """(least) => {
              const out = [];
              for (const node of document.querySelectorAll('.sc-table *')) {
                if (!node.getClientRects().length) continue;
                const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                if (!own) continue;
                const size = parseFloat(getComputedStyle(node).fontSize);
                if (size < least) out.push(`${size}px: ${node.textContent.trim()}`);
                if (node.scrollWidth > node.clientWidth + 1) out.push(`clipped: ${node.textContent.trim()}`);
              }
              for (const box of document.querySelectorAll('.sc-hero, .sc-box-panel, .sc-party, .sc-lower')) {
                if (box.scrollHeight > box.clientHeight + 1) out.push(`cut off: ${box.className}`);
              }
              return out;
            }""",
            MIN_TEXT_PX,
        )
    )


def test_an_adventure_on_the_tv_and_the_phones(browser, page, table, artifacts):
    ann = phone(browser, table)
    ann.select_option("#c-game", "shattered-chaos")  # the New game section is open: no game is running
    while ann.locator("#c-players li").count() > 4:  # the form offers the party of five: four play
        ann.locator("#c-players li button").last.click()
    ann.locator("#c-players li input[type=text]").first.fill("Ann")  # a typed name stays
    menus = ann.locator('[data-option="adventurers"] select')  # one menu per player, in seat order
    assert menus.count() == 4
    for index, adventurer in enumerate(("bastion", "deadeye", "raider", "stalker")):
        menus.nth(index).select_option(f'"{adventurer}"')
        if adventurer == "raider":  # the fourth seat's Raider: the two seats swap, nobody plays twice
            assert menus.nth(3).input_value() == '"mender"'
            assert ann.locator("#c-players li input[type=text]").nth(3).input_value() == "Mender"
    ann.screenshot(path=str(artifacts / "shattered-chaos-phone-new-game.png"), full_page=True)
    ann.click("#c-start")
    ann.wait_for_function(
        "document.getElementById('c-prompt').textContent.startsWith('Round 1, adventurer phase')",
        timeout=TIMEOUT_MS,
    )
    view = table.session.view()["game"]
    assert [p["adventurer"] for p in view["players"]] == ["Bastion", "Deadeye", "Raider", "Stalker"]
    # The offered seats were named after the data's adventurers: each name followed its seat's menu.
    assert [p["name"] for p in view["players"]] == ["Ann", "Deadeye", "Raider", "Stalker"]
    accepted(table, {"kind": "place_enemy", "model": 21})
    accepted(table, {"kind": "place_enemy", "model": 41})
    seq = accepted(table, {"kind": "place_condition", "condition": "destruction", "model": 41})

    page.goto(f"{table.url}/")
    wait_for_seq(page, seq)
    assert page.locator(".sc-hero").count() == 4
    assert page.locator(".sc-section").count() == 5  # the round counter's five sections
    assert page.locator('.sc-enemy[data-model="21"] .sc-enemy-lives').inner_text() == "7/7"
    assert "destruction" in page.locator('.sc-enemy[data-model="41"]').inner_text()
    deadeye = page.locator('.sc-hero[data-seat="1"]')
    assert "Chaos\n4" in deadeye.inner_text() or "4" in deadeye.locator(".sc-chaos .sc-big").inner_text()
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "shattered-chaos-tv-1080.png"))

    # Deadeye's phone: the attack form with its odds before the throw.
    ann.select_option("#c-seat", "1")
    ann.wait_for_selector("#sc-attack", timeout=TIMEOUT_MS)
    ann.select_option("#sc-target", "21")
    for _ in range(4):
        before = ann.locator("#sc-distance").inner_text()
        ann.click("#sc-farther")
        ann.wait_for_function(f"document.getElementById('sc-distance').textContent !== '{before}'")
    assert ann.locator("#sc-distance").inner_text() == "5"
    odds = adventurer_odds(default_catalog(), "Deadeye", 5, 0)
    shown = ann.locator("#sc-odds").inner_text()
    assert f"Reaches 5 spaces: {round(float(odds.reach) * 100)}%" in shown
    assert f"stuns {round(float(odds.stun) * 100)}%" in shown
    assert f"Damage expected: {float(odds.expected_damage):.1f}" in shown
    ann.screenshot(path=str(artifacts / "shattered-chaos-phone-attack.png"))
    ann.click("#sc-attack")
    page.wait_for_selector(".sc-odds", timeout=TIMEOUT_MS)
    assert "Deadeye → Gremlin 21, 5 spaces" in page.locator(".sc-middle").inner_text()

    # The throw: one colour per row; then the range die.
    for face in ("yellow:1", "red:3", "blue:4"):
        ann.click(f'[data-face="{face}"]')
    ann.screenshot(path=str(artifacts / "shattered-chaos-phone-throw.png"))
    ann.click("#sc-enter-throw")
    ann.wait_for_selector("#c-choices button", timeout=TIMEOUT_MS)
    assert "Keep the throw" in ann.locator("#c-choices").inner_text()  # a chaos hit may follow the throw
    ann.locator("#c-choices button", has_text="Keep the throw").click()
    ann.wait_for_function(
        "document.getElementById('c-choices').textContent.includes('range red')", timeout=TIMEOUT_MS
    )
    ann.locator("#c-choices button", has_text="range red").click()

    # The enemy reacts: the phone answers what the map knows; the TV shows the decision in large type.
    ann.wait_for_selector("#sc-sighted", timeout=TIMEOUT_MS)
    ann.click("#sc-seen-1")
    ann.wait_for_selector("#sc-sighted:has-text('Confirm (1)')", timeout=TIMEOUT_MS)
    ann.click("#sc-sighted")
    page.wait_for_function(
        "document.querySelector('.sc-middle .sc-decision') && "
        "document.querySelector('.sc-middle .sc-decision').textContent.includes('attacks Deadeye')",
        timeout=TIMEOUT_MS,
    )
    decision = page.locator(".sc-middle .sc-decision")
    assert decision.inner_text() == "Gremlin 21 attacks Deadeye (chaos 4) with yellow + blue"
    assert float(decision.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")) >= 40
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "shattered-chaos-tv-decision.png"))
    small = browser.new_context(viewport={"width": 1280, "height": 720})
    tv720 = small.new_page()
    tv720.goto(f"{table.url}/")
    tv720.wait_for_selector(".sc-middle .sc-decision", timeout=TIMEOUT_MS)
    tv720.screenshot(path=str(artifacts / "shattered-chaos-tv-720.png"))
    small.close()

    # The final evaluation.
    accepted(table, {"kind": "end_adventure", "outcome": "won"})
    page.wait_for_selector(".sc-middle.is-evaluation", timeout=TIMEOUT_MS)
    assert "Draw" in page.locator(".sc-evaluation-cards").inner_text()
    accepted(table, {"kind": "close_campaign"})
    page.wait_for_selector("#final:not([hidden])", timeout=TIMEOUT_MS)
    assert page.locator(".final-title").inner_text() == "Adventure 1 won in round 1"
    assert page.locator(".final-winner").count() == 4
    summary = page.locator(".final-summary").inner_text()  # the party's evaluation, nobody ranked
    assert "0 damage suffered" in summary and "draw 8 chaos cards, keep 4" in summary
    assert "Campaign log: adventures: 1W1" in summary
    page.screenshot(path=str(artifacts / "shattered-chaos-tv-final.png"))
    # Ann's phone: the same, and the new-game form carries the campaign on to adventure 2.
    ann.wait_for_selector("#c-result:not([hidden])", timeout=TIMEOUT_MS)
    assert "Campaign log: adventures: 1W1" in ann.locator("#c-result").inner_text()
    assert ann.locator("#c-result ol").count() == 0  # a co-operative party is not ranked
    assert ann.locator('[data-option="campaign"]').input_value() == "adventures: 1W1"
    assert ann.locator('[data-option="adventure"]').input_value() == "2"
    menus = ann.locator('[data-option="adventurers"] select')
    assert [menus.nth(i).input_value() for i in range(4)] == [
        '"bastion"',
        '"deadeye"',
        '"raider"',
        '"stalker"',
    ]
    ann.screenshot(path=str(artifacts / "shattered-chaos-phone-final.png"), full_page=True)
    # The form changed by hand, "Same players again" goes on with the campaign, not adventure 1 afresh.
    ann.select_option('[data-option="adventure"]', "1")
    ann.fill('[data-option="campaign"]', "")
    ann.click("#c-rematch")
    assert ann.locator('[data-option="adventure"]').input_value() == "2"
    assert ann.locator('[data-option="campaign"]').input_value() == "adventures: 1W1"
    assert ann.locator('[data-option="adventurers"] select').nth(2).input_value() == '"raider"'


def test_five_adventurers_and_a_reaction_on_the_phone(browser, page, table, artifacts):
    players = [{"name": n} for n in ("Anna", "Ben", "Cleo", "Dmitri", "Eva")]
    options = {"adventurers": ["bastion", "deadeye", "raider", "stalker", "thrasher"]}
    answer = table.command("new_game", {"game": "shattered-chaos", "players": players, "options": options})
    assert answer["accepted"], answer
    accepted(table, {"kind": "place_enemy", "model": 21})
    for seat in range(5):
        for _ in range(2):
            accepted(table, {"kind": "move", "player": seat})
    seq = accepted(table, {"kind": "sighted", "model": 21, "adventurers": [1]})  # range 3: it sees Deadeye
    # The enemy's throw is the table's: Cleo's phone (Raider's seat) may enter it for gremlin 21.
    cleo = phone(browser, table)
    cleo.select_option("#c-seat", "2")
    cleo.wait_for_selector("#sc-enter-throw", timeout=TIMEOUT_MS)
    assert "The enemy's dice" in cleo.locator("#c-rolls").inner_text()
    cleo.click('[data-face="red:1"]')
    cleo.click("#sc-enter-throw")
    seq = seq + 1
    cleo.context.close()
    page.goto(f"{table.url}/")
    wait_for_seq(page, seq)
    assert page.locator(".sc-hero").count() == 5
    assert small_or_clipped(page) == []
    assert page.locator(".sc-middle h2").inner_text().lower() == "enemy phase"
    page.screenshot(path=str(artifacts / "shattered-chaos-tv-five.png"))

    ben = phone(browser, table)
    ben.select_option("#c-seat", "1")
    ben.wait_for_selector("text=React: attack it back", timeout=TIMEOUT_MS)
    assert ben.locator("#sc-target option").count() == 1  # only the enemy that attacked
    ben.screenshot(path=str(artifacts / "shattered-chaos-phone-reaction.png"))
    ben.click("#sc-attack")
    page.wait_for_selector(".sc-middle h2:text-matches('reaction', 'i')", timeout=TIMEOUT_MS)
    assert table.session.view()["game"]["attack"]["reaction"] is True


def test_a_card_laid_at_the_table_goes_with_the_attack_the_phone_declares(browser, page, table, artifacts):
    players = [{"name": n} for n in ("Anna", "Ben", "Cleo", "Dmitri")]
    options = {"adventurers": ["bastion", "deadeye", "raider", "stalker"]}
    answer = table.command("new_game", {"game": "shattered-chaos", "players": players, "options": options})
    assert answer["accepted"], answer
    accepted(table, {"kind": "place_enemy", "model": 21})
    accepted(table, {"kind": "chaos_call", "player": 1})
    accepted(table, {"kind": "draw_card", "player": 1, "card": "b25"})
    accepted(table, {"kind": "partner", "player": 1, "partner": None})
    seq = accepted(table, {"kind": "lay_card", "player": 1, "card": "b25"})  # as the discard reader says
    page.goto(f"{table.url}/")
    wait_for_seq(page, seq)
    laid = page.locator('.sc-hero[data-seat="1"] .sc-card.is-laid')
    assert laid.inner_text() == "+2 range → attack"
    assert small_or_clipped(page) == []
    page.screenshot(path=str(artifacts / "shattered-chaos-tv-laid.png"))
    ben = phone(browser, table)
    ben.select_option("#c-seat", "1")
    ben.wait_for_selector("#sc-attack", timeout=TIMEOUT_MS)
    card = ben.locator("label.check", has_text="laid on the discard pile")
    assert card.locator("input").is_checked() and card.locator("input").is_disabled()
    odds = adventurer_odds(default_catalog(), "Deadeye", 1, 0)  # +2 range more cannot change reaching 1
    assert f"Reaches 1 space: {round(float(odds.reach) * 100)}%" in ben.locator("#sc-odds").inner_text()
    ben.screenshot(path=str(artifacts / "shattered-chaos-phone-laid.png"))
    ben.click("#sc-attack")
    page.wait_for_selector(".sc-middle .sc-instruction", timeout=TIMEOUT_MS)
    assert "Bronze 25: +2 range" in page.locator(".sc-middle").inner_text()
    assert table.session.view()["game"]["players"][1]["cards"] == []


def test_an_adventure_closed_with_end_game_says_so_and_not_what_came_next(page, table, artifacts):
    players = [{"name": n} for n in ("Anna", "Ben", "Cleo", "Dmitri")]
    answer = table.command("new_game", {"game": "shattered-chaos", "players": players, "options": {}})
    assert answer["accepted"], answer
    accepted(table, {"kind": "place_enemy", "model": 21})
    closed = table.command("end_game")
    assert closed["accepted"], closed
    page.goto(f"{table.url}/")
    wait_for_seq(page, int(closed["seq"]))
    page.wait_for_selector(".sc-round .sc-next", timeout=TIMEOUT_MS)
    assert (
        page.locator(".sc-round .sc-next").first.inner_text() == "The adventure was closed here with End game"
    )
    assert (
        "Gremlin 21" in page.locator(".sc-enemies, .sc-box-panel").first.inner_text()
    )  # the board as it stood
    assert page.locator(".sc-last").inner_text() == "No attack was made"  # no invitation to attack
    page.screenshot(path=str(artifacts / "shattered-chaos-tv-closed.png"))
