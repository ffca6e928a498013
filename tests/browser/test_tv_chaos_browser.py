"""Chaos Marauders on a real TV page, as players across the room see it: type large enough to read,
nothing cut off or spilling out at 1080p and 720p, marks that need no emoji font, the Idol's rolls told
as rolls, and a final scoreboard that stays up while the demo pauses."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.cli import demo
from companion.demo_player import DemoBrain
from companion.games import find_bundle
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo

from .browser_support import PLAYERS, LiveTable

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000
LONG_NAMES = ["Grotsnik the Truly Magnificent", "Ugluk", "Snagla", "Bogrotbogrotbogrotbogrotbogrot"]
NOTICE = "Unknown tag 04:A1:9C:7F:22:10:80 on reader 3 — enrol it on the control page before playing it"

# Every element showing text of its own, with its computed size (px).
TEXT_SIZES = """() => {
  const out = [];
  for (const node of document.querySelectorAll('body *')) {
    const own = Array.from(node.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    const box = node.getBoundingClientRect();
    if (!own || !box.width || !box.height) continue;
    out.push([node.className || node.tagName, node.textContent.trim().slice(0, 40),
              parseFloat(getComputedStyle(node).fontSize)]);
  }
  return out;
}"""

# Every shown element whose content is cut off by its box, or which reaches outside the screen.
CUT_OFF = """() => {
  const bad = [];
  for (const node of document.querySelectorAll('body *')) {
    if (!(node instanceof HTMLElement)) continue;
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const name = (node.className || node.tagName) + ' "' + node.textContent.trim().slice(0, 30) + '"';
    const style = getComputedStyle(node);
    const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
    if (clips && (node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1)) {
      bad.push('cut off: ' + name + ' ' + node.scrollWidth + 'x' + node.scrollHeight
               + ' in ' + node.clientWidth + 'x' + node.clientHeight);
    }
    if (box.left < -1 || box.top < -1 || box.right > innerWidth + 1 || box.bottom > innerHeight + 1) {
      bad.push('off screen: ' + name);
    }
  }
  return bad;
}"""

# Characters every font has: Latin-1 and the common punctuation (dashes, ellipsis, quotes).
ODD_CHARACTERS = """() => {
  const code = ch => ch.codePointAt(0);
  const plain = ch => code(ch) <= 0xff || (code(ch) >= 0x2010 && code(ch) <= 0x2027);
  const odd = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    for (const ch of walker.currentNode.textContent) if (!plain(ch)) odd.push(ch);
  }
  for (const node of document.querySelectorAll('body *')) {
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(node, pseudo).content;
      if (content && content !== 'none' && content !== 'normal') {
        for (const ch of content) if (!plain(ch)) odd.push(ch);
      }
    }
  }
  return odd;
}"""


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=TIMEOUT_MS)


def start_game(table: LiveTable, players: int, names: list[str] | None = None) -> int:
    chosen = [dict(p, name=(names or [])[i] if names else p["name"]) for i, p in enumerate(PLAYERS[:players])]
    answer = table.command("new_game", {"game": "chaos-marauders", "players": chosen})
    assert answer["accepted"], answer
    return int(answer["seq"])


def report_devices(table: LiveTable) -> None:
    assert table.session is not None
    table.session.report_device(
        "table", {"state": "ready", "notices": [{"level": "warning", "text": NOTICE}]}
    )
    table.session.report_device(
        "firmware",
        {"state": "connected", "firmware": "0.1.0", "last_heard": 1_795_430_829, "battery": {"percent": 87}},
    )


def tv_page(browser: Any, table: LiveTable, width: int, height: int, seq: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, seq)
    page.wait_for_selector(".device-connected", timeout=TIMEOUT_MS)
    return page


def test_no_text_on_the_tv_is_smaller_than_20_px(browser, table, artifacts):
    start_game(table, 4)
    seq = table.play(150)
    report_devices(table)
    page = tv_page(browser, table, 1920, 1080, seq)
    sizes = page.evaluate(TEXT_SIZES)
    assert any(cls.startswith("tile-line") for cls, _, _ in sizes), "the game in progress shows cards"
    small = [(cls, text, size) for cls, text, size in sizes if size < 20]
    assert not small, small
    page.screenshot(path=str(artifacts / "tv-4-players.png"))
    page.context.close()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("screen", [(1920, 1080), (1280, 720)], ids=["1080p", "720p"])
def test_nothing_on_the_tv_is_cut_off_or_spills_out(browser, table, artifacts, players, screen):
    start_game(table, players, LONG_NAMES[:players])
    seq = table.play(60 * players, seed=players)
    report_devices(table)
    page = tv_page(browser, table, *screen, seq)
    assert page.locator(".tile[data-card]").count() > 6
    problems = page.evaluate(CUT_OFF)
    page.screenshot(path=str(artifacts / f"tv-{players}-players-{screen[1]}p.png"))
    assert not problems, problems
    # A name too long for its box is shown whole at a smaller size, never cut: all its words are there.
    assert page.locator(".cm-name").first.inner_text().split() == LONG_NAMES[0].split()
    page.context.close()


# Twelve cards in a line for each of four players: every long title of the deck, as late in a game.
MIDDLES = [
    ["monggos-meat-grinders", "garok-varokroksenrok", "spittledung-xxxxx"],
    ["boneshaker-left", "boneshaker-right", "shaman-of-aaaaaaaag"],
    ["smasher-left", "smasher-right", "smasher-crew"],
    ["spoil-heap", "shaman-of-aaaaaaaag", "odlugg-spleenripper"],
]
COMMON = [
    "hak-veinthrobs-volunteers",
    "spattznatts-suicide-squad",
    "crummy-snotling-slaves",
    "blightskabb-plague-lords",
    "bozlum-pigstickers",
    "claws-of-malal",
    "grivziz-dirtballs",
]

# What every card tile shows, line by line, and how large.
TILE_TEXT = """() => Array.from(document.querySelectorAll('.tile[data-card]')).map(tile => ({
  card: tile.dataset.card,
  lines: Array.from(tile.querySelectorAll('.tile-line')).map(l => l.textContent),
  px: parseFloat(getComputedStyle(tile.querySelector('.tile-name')).fontSize),
}))"""


def twelve_in_a_line(table: LiveTable) -> int:
    start_game(table, 4, LONG_NAMES)
    seq = 0
    for seat, middle in enumerate(MIDDLES):
        cards = ["orc-regimental-standard", *COMMON, *middle, "orc-regimental-musician"]
        assert len(cards) == 12
        for slot, card in enumerate(cards):
            fix = {"kind": "correct_place", "player": seat, "card": card, "line": 1, "slot": slot}
            answer = table.command("act", fix)
            assert answer["accepted"], (seat, card, answer)
            seq = int(answer["seq"])
    return seq


@pytest.mark.parametrize("screen", [(1920, 1080), (1280, 720)], ids=["1080p", "720p"])
def test_twelve_cards_in_a_line_stay_identifiable_from_the_sofa(browser, table, artifacts, screen):
    seq = twelve_in_a_line(table)
    report_devices(table)
    page = tv_page(browser, table, *screen, seq)
    tiles = page.evaluate(TILE_TEXT)
    assert len(tiles) == 48
    shortened = [t for t in tiles if any("…" in line for line in t["lines"])]
    assert not shortened, shortened  # no "Hobgo…", no "10 S…": every name whole, on its two lines
    assert all(t["px"] >= 20 for t in tiles), [t for t in tiles if t["px"] < 20]
    assert all(len(t["lines"]) >= 1 and t["lines"][0] for t in tiles)
    titles = {t["card"]: " ".join(t["lines"]) for t in tiles}
    assert titles["crummy-snotling-slaves"] == "Snotling Slaves"  # not "C. S. Slaves"
    assert titles["boneshaker-right"] == "Boneshaker right"
    problems = page.evaluate(CUT_OFF)
    page.screenshot(path=str(artifacts / f"tv-twelve-in-a-line-{screen[1]}p.png"))
    assert not problems, problems
    # A legend of the colours and marks, and the VP said for what it is.
    legend = page.locator(".cm-legend")
    assert legend.locator(".cm-swatch").count() == 5
    assert legend.locator("svg.line-shield").count() == 1 and legend.locator(".cm-legend-dot").count() == 1
    for word in ("booty", "war machine", "attack", "VP", "owner's colour", "Horned Rat"):
        assert word in legend.inner_text()
    assert page.locator(".cm-vp-note").all_inner_texts() == ["if it ended now"] * 4
    page.context.close()


def test_a_card_of_another_tribe_wears_its_owners_colour(page, table):
    seq = start_game(table, 3)
    fix = {"kind": "correct_place", "player": 1, "card": "sneaky-git", "line": 0, "slot": 4, "owner": 2}
    answer = table.command("act", fix)
    assert answer["accepted"], answer
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, int(answer["seq"]))
    dot = page.locator('.cm-player[data-seat="1"] .tile[data-card="sneaky-git"] .tile-owner')
    colour = dot.evaluate("n => getComputedStyle(n).backgroundColor")
    assert colour == "rgb(47, 184, 79)"  # Snagla's green (#2fb84f), the Git's owner
    assert seq < int(answer["seq"])


def test_the_final_scoreboard_fits_with_long_names(browser, table, artifacts):
    start_game(table, 4, LONG_NAMES)
    table.play(3000, seed=2)
    assert table.session is not None and table.session.view()["game"]["finished"]
    report_devices(table)
    page = tv_page(browser, table, 1280, 720, table.session.view()["seq"])
    page.locator("#final").wait_for(state="visible", timeout=TIMEOUT_MS)
    assert page.locator(".final-row").count() == 4
    problems = page.evaluate(CUT_OFF)
    page.screenshot(path=str(artifacts / "tv-final-720p.png"))
    assert not problems, problems
    page.context.close()


def test_marks_are_drawn_without_any_emoji_font(page, table):
    seq = start_game(table, 3)
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, seq)
    assert table.session is not None
    view = dict(table.session.view())  # a copy: the published view is shared
    view["game"]["players"][1]["lines"][2]["protected"] = True  # a line under Bilge's shield
    view["game"]["finished"] = True
    view["result"] = {**view["result"], "final": True, "winners": [0], "tie": False}
    page.evaluate("view => TableTV.render(view)", view)
    shield = page.locator('.cm-player[data-seat="1"] .line[data-line="2"] svg.line-shield')
    assert shield.locator("path").count() == 1
    box = shield.bounding_box()
    assert box is not None and box["width"] >= 20 and box["height"] >= 20
    assert page.locator(".final-winner svg.final-star path").count() == 1
    assert page.evaluate(ODD_CHARACTERS) == []


def idol_rolls(table: LiveTable) -> int:
    """Plays until a player must roll the Cube for the Idol; returns that seat."""
    assert table.session is not None
    for seed in range(1, 30):
        start_game(table, 4)
        try:
            table.play_until(lambda position: "Idol!" in position.prompt.text, seed=seed)
        except AssertionError:
            continue  # this game ended without anyone rolling for the Idol
        return int(table.session.position().prompt.players[0])
    pytest.fail("no seed led to the Idol's rolls")


def test_the_idols_rolls_read_as_rolls(browser, table):
    seat = idol_rolls(table)
    assert table.session is not None
    name = table.session.view()["game"]["players"][seat]["name"]
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{table.url}/tv")
    wait_for_seq(tv, table.session.view()["seq"])
    assert "the Idol! Roll the Cube 6 more times" in tv.locator("#prompt").inner_text()
    assert tv.locator(".cm-turn").inner_text() == "roll the Cube!"
    for number, (face, shown) in enumerate((("eye", "an Orcish Eye"), ("mark", "a Mark of Chaos")), start=1):
        answer = table.command("act", {"kind": "roll", "player": seat, "die": "cube", "faces": [face]})
        assert answer["accepted"], answer
        wait_for_seq(tv, int(answer["seq"]))
        tv.wait_for_function(
            "text => document.querySelector('#ticker .tick-new').textContent === text",
            arg=f"{name} rolled {shown} for the Idol ({number} of 6)",
            timeout=TIMEOUT_MS,
        )
    assert "4 more times" in tv.locator("#prompt").inner_text()
    assert "Move played" not in tv.locator("#ticker").inner_text()
    tv.context.close()


def test_the_demo_leaves_the_final_scoreboard_up_until_its_pause_is_over(page, table):
    assert table.session is not None
    rng = random.Random(3)
    kit = ChaosMaraudersDemo(rng)
    now = [0.0]
    simulated = demo.SimulatedTable(
        table.session, find_bundle("chaos-marauders"), kit, DemoBrain(kit, rng), seats=2, clock=lambda: now[0]
    )
    simulated.step()  # no game yet: the demo starts one
    for _ in range(3000):
        if table.session.view()["game"]["finished"]:
            break
        simulated.step()
    finished = table.session.view()
    assert finished["game"]["finished"], "the demo's game should have ended"
    page.goto(f"{table.url}/tv")
    wait_for_seq(page, finished["seq"])
    page.locator("#final").wait_for(state="visible", timeout=TIMEOUT_MS)
    while now[0] < demo.GAME_OVER_SECONDS - 1:  # the demo keeps stepping through its pause
        simulated.step()
        now[0] += 0.375  # a step at --speed 4
    assert table.session.view()["seq"] == finished["seq"]
    assert page.locator("#final").is_visible()
    assert demo.GAME_OVER_SECONDS >= 20  # long enough to read every score from the sofa
    now[0] += 2
    simulated.step()
    simulated.step()
    page.locator("#final").wait_for(state="hidden", timeout=TIMEOUT_MS)  # then the next game starts
