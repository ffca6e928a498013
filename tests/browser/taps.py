"""How many taps the phone needs to play a game of Chaos Marauders by hand (no readers, no camera).

A seeded demo game (the demo's deck, dice and choices) is played through the real control page in a
real Chromium with a phone's screen (390 x 844): for each move the script finds the control that sends
exactly that move (its ``data-action``), taps what a player would tap to reach it (a card's first
letter, a card tab) and counts. A control below the screen's edge costs a swipe, counted apart. Moves
the page offers no control for are sent over the API and counted as "not on the phone".

    .venv/bin/python -m tests.browser.taps --seed 1 [--players 4] [--actions N] [--json]

Prints taps per turn (a turn starts with a draw), taps per card drawn (the draw and the move that puts
it on the table or in the discards) and how the taps are spread. ``legacy`` figures are the page
before this change, modelled on the same moves: the draw was a 43-item drop-down (two taps to open and
pick, none when it already showed the card) and a "Drawn" button; every other move was one tap as now.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.demo_player import DemoBrain
from companion.engine import Action, Game
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo
from companion.session import Command

from .browser_support import PIN, LiveTable, find_chromium

PHONE = {"width": 390, "height": 844}
WAIT_MS = 10_000
CARD_ENDS = ("place", "discard", "make_room", "pick")
"""Moves that settle a card just drawn: placed, discarded, room made for it, or a Git assassinated."""


@dataclass
class Count:
    """Taps per move kind, per turn and per card, with the same for the page before (legacy)."""

    taps: Counter[str] = field(default_factory=Counter)
    moves: Counter[str] = field(default_factory=Counter)
    legacy: Counter[str] = field(default_factory=Counter)
    swipes: Counter[str] = field(default_factory=Counter)
    not_on_phone: Counter[str] = field(default_factory=Counter)
    draws: list[int] = field(default_factory=list)
    """Taps of each card drawn: the draw and the move that settled it."""
    legacy_draws: list[int] = field(default_factory=list)
    turns: int = 0

    def report(self) -> dict[str, Any]:
        total, legacy = sum(self.taps.values()), sum(self.legacy.values())
        cards = len(self.draws)
        return {
            "moves": sum(self.moves.values()),
            "turns": self.turns,
            "taps": total,
            "swipes": sum(self.swipes.values()),
            "swipes_by_move": dict(self.swipes),
            "taps_per_turn": round(total / max(self.turns, 1), 2),
            "taps_per_card": round(sum(self.draws) / max(cards, 1), 2),
            "cards_in_two_taps_or_fewer": round(sum(1 for t in self.draws if t <= 2) / max(cards, 1), 3),
            "card_taps": dict(sorted(Counter(self.draws).items())),
            "by_move": {kind: [self.moves[kind], self.taps[kind]] for kind in sorted(self.moves)},
            "not_on_phone": dict(self.not_on_phone),
            "legacy_taps": legacy,
            "legacy_taps_per_turn": round(legacy / max(self.turns, 1), 2),
            "legacy_taps_per_card": round(sum(self.legacy_draws) / max(cards, 1), 2),
        }


def canonical(game: Game, data: Any) -> str:
    return json.dumps(game.format_action(game.parse_action(data)), sort_keys=True)


def find_control(page: Any, game: Game, wanted: str) -> Any:
    """The visible control whose data-action is the move ``wanted`` (canonical JSON), or None."""
    for handle in page.query_selector_all("[data-action]"):
        if not handle.is_visible() or handle.is_disabled():
            continue
        try:
            if canonical(game, json.loads(handle.get_attribute("data-action"))) == wanted:
                return handle
        except Exception:
            continue
    return None


def find_control_soon(page: Any, game: Game, wanted: str, within_ms: int = 2_000) -> Any:
    """``find_control`` after a tap that changes the page (a letter, a card's tab): the page draws the
    controls it opens on its next frame, so a look right after the tap may find none yet."""
    deadline = time.monotonic() + within_ms / 1000
    while True:
        handle = find_control(page, game, wanted)
        if handle is not None or time.monotonic() >= deadline:
            return handle
        page.wait_for_timeout(50)


def on_screen(page: Any, handle: Any) -> bool:
    box = handle.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


class Phone:
    """The control page on a phone-sized screen, a shared phone (it may act for every seat)."""

    def __init__(self, browser: Any, table: LiveTable) -> None:
        self.page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        self.page.goto(f"{table.url}/control")
        self.page.fill("#pin", PIN)
        self.page.click("button[type=submit]")
        self.page.wait_for_selector("#c-start", state="attached", timeout=WAIT_MS)
        self.legacy_card: str | None = None

    def wait_for(self, seq: int) -> None:
        self.page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {seq}", timeout=WAIT_MS)

    def reach(self, handle: Any) -> int:
        """Swipes needed to bring ``handle`` into view (0 or 1)."""
        if on_screen(self.page, handle):
            return 0
        handle.scroll_into_view_if_needed()
        return 1

    def play(self, game: Game, action: Action, position: Any, count: Count) -> int | None:
        """Sends ``action`` by tapping the page: the taps it took, or None when no control sends it."""
        data = game.format_action(action)
        kind = str(data["kind"])
        self.page.evaluate("() => window.scrollTo(0, 0)")
        if kind == "roll" and len(data["faces"]) > 1:
            return self._rolls(game, data, count)
        wanted = canonical(game, data)
        taps = 0
        handle = find_control(self.page, game, wanted)
        if handle is None and kind == "draw" and self._by_letter(position, str(data["card"])):
            taps += 1
            handle = find_control_soon(self.page, game, wanted)
        if handle is None and kind == "place" and self._card_tab(str(data["card"])):
            taps += 1
            handle = find_control_soon(self.page, game, wanted)
        if handle is None:
            return None
        count.swipes[kind] += self.reach(handle)
        handle.click()
        taps += 1
        count.taps[kind] += taps
        count.moves[kind] += 1
        return taps

    def _by_letter(self, position: Any, card: str) -> int:
        title = next(c.title for c in position.game.facts.catalog.cards if c.id == card)
        letter = self.page.query_selector(f'#c-draw-letters [data-letter="{title[0].upper()}"]')
        if letter is None:
            return 0
        letter.click()
        return 1

    def _card_tab(self, card: str) -> int:
        tab = self.page.query_selector(f'.cm-cardtab[data-card="{card}"]')
        if tab is None or "is-picked" in (tab.get_attribute("class") or ""):
            return 0
        tab.click()
        return 1

    def _rolls(self, game: Game, data: dict[str, Any], count: Count) -> int | None:
        """Several throws of the one Cube: one tap per throw (the page asks for one at a time)."""
        for face in data["faces"]:
            handle = find_control(self.page, game, canonical(game, {**data, "faces": [face]}))
            if handle is None:
                return None
            seq = int(self.page.evaluate("() => Number(document.body.dataset.seq)"))
            handle.click()
            count.taps["roll"] += 1
            self.wait_for(seq + 1)
        count.moves["roll"] += 1
        return len(data["faces"])


def legacy_taps(kind: str, data: dict[str, Any], pile: dict[str, int], phone: Phone, throws: int) -> int:
    """What the page before this change needed for the same move."""
    if kind == "draw":
        shown = phone.legacy_card if phone.legacy_card in pile else min(pile)  # the drop-down's default
        phone.legacy_card = str(data["card"])
        return (0 if shown == data["card"] else 2) + 1
    return max(throws, 1)


def measure(browser: Any, table: LiveTable, seed: int, players: int, actions: int) -> Count:
    assert table.session is not None
    table.new_game(players)
    rng = random.Random(seed)
    brain = DemoBrain(ChaosMaraudersDemo(rng), rng)
    phone = Phone(browser, table)
    count = Count()
    card_taps: int | None = None
    legacy_card: int | None = None
    for _ in range(actions):
        position = table.session.position()
        action = brain.next_action(position)
        if action is None or position.game is None:
            break
        game = position.game
        data = game.format_action(action)
        kind = str(data["kind"])
        phone.wait_for(position.seq)
        if kind == "draw":
            count.turns += 1
        pile = dict(table.session.view()["game"]["draw_pile_cards"])
        throws = len(data.get("faces", ())) if kind == "roll" else 1
        legacy = legacy_taps(kind, data, pile, phone, throws)
        spent = phone.play(game, action, position, count)
        if spent is None:
            count.not_on_phone[kind] += 1
            outcome = table.session.submit(Command("act", "api", data))
            assert outcome.accepted, outcome
        count.legacy[kind] += legacy
        # A card drawn: its draw, then the move that puts it on the table or in the discards.
        if kind == "draw":
            card_taps, legacy_card = spent or 0, legacy
        elif card_taps is not None and legacy_card is not None and kind in CARD_ENDS:
            count.draws.append(card_taps + (spent or 0))
            count.legacy_draws.append(legacy_card + legacy)
            card_taps = legacy_card = None
        phone.wait_for(position.seq + 1)  # the move is in the log and on the page
    phone.page.context.close()
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--actions", type=int, default=3000, help="stop after this many moves")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("no Chromium: install Debian's chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from .conftest import CHROMIUM_ARGS

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        table = LiveTable(Path(folder) / "taps.sqlite3")
        table.start()
        try:
            report = measure(browser, table, args.seed, args.players, args.actions).report()
        finally:
            table.stop()
            browser.close()
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['turns']} turns, {report['moves']} moves: {report['taps_per_turn']} taps per turn"
            f" ({report['legacy_taps_per_turn']} before), {report['taps_per_card']} per card drawn"
            f" ({report['legacy_taps_per_card']} before); {report['cards_in_two_taps_or_fewer']:.0%} of cards"
            f" in two taps or fewer; {report['swipes']} swipes {report['swipes_by_move']};"
            f" not on the phone: {report['not_on_phone']}"
        )
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
