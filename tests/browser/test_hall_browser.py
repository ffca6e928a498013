"""The hall page in a real Chromium over a real Mosquitto: a table playing Chaos Marauders shows as a
tile, its TV is relayed with the TV's own renderer, and the organiser starts an event, all under the
pages' strict CSP."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.serve import Server
from companion.demo_player import DemoBrain
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo
from companion.hall.organiser import Organiser
from companion.hall.state import HallState
from companion.session import Command, Session
from mqtt_link.address import Broker
from mqtt_link.broker import EmbeddedBroker
from mqtt_link.loop import MqttLoop
from mqtt_link.publisher import PublisherConfig, TablePublisher
from mqtt_link.subscriber import HallSubscriber
from tests.hall.hallkit import binary, mosquitto_or_skip, wait_until
from web.hall import HallContext, create_hall_app

from .browser_support import PLAYERS

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]
PIN = "8642"
TIMEOUT_MS = 10_000


class LiveHall:
    def __init__(self, folder: Path) -> None:
        self.broker = EmbeddedBroker(
            folder / "broker", binary=mosquitto_or_skip(binary(), os.environ)
        ).start()
        self.loop = MqttLoop().start()
        self.organiser = Organiser(folder / "event.json", on_change=lambda: self.state.touch())
        self.state = HallState(on_result=self.organiser.confirmed)
        self.subscriber = HallSubscriber(
            self.state, Broker.from_url(self.broker.url), "club", self.loop
        ).start()
        context = HallContext(
            "club", self.state, self.organiser, self.broker.url, lambda: self.subscriber.online, "Club night"
        )
        self.server = Server(
            create_hall_app({"HALL_PIN": PIN, "SECRET_KEY": "browser"}, context), "127.0.0.1", 0
        ).start()
        self.session = Session(folder / "t1.sqlite3")
        self.session.start()
        config = PublisherConfig(Broker.from_url(self.broker.url), "club", "t1", "Table 1")
        self.publisher = TablePublisher(self.session, config, self.loop).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def play(self, moves: int) -> int:
        rng = random.Random(5)
        brain = DemoBrain(ChaosMaraudersDemo(rng), rng)
        setup = {"game": "chaos-marauders", "players": PLAYERS, "options": {}}
        seq = int(self.session.submit(Command("new_game", "demo", setup)).seq or 0)
        for _ in range(moves):
            position = self.session.position()
            action = brain.next_action(position)
            assert action is not None and position.game is not None
            seq = int(
                self.session.submit(Command("act", "demo", position.game.format_action(action))).seq or 0
            )
        return seq

    def stop(self) -> None:
        self.server.stop()
        self.publisher.stop()
        self.subscriber.stop()
        self.loop.stop()
        self.session.stop()
        self.broker.stop()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[LiveHall]:
    live = LiveHall(tmp_path)
    yield live
    live.stop()


def csp_violations(page: Any) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def test_a_table_is_a_live_tile_and_its_tv_is_relayed(page, hall, artifacts):
    violations = csp_violations(page)
    seq = hall.play(40)
    wait_until(lambda: hall.state.table("t1") is not None and hall.state.table("t1").seq == seq)
    page.goto(hall.url)
    tile = page.locator('.tile[data-table="t1"]')
    tile.wait_for(timeout=TIMEOUT_MS)
    text = tile.inner_text()
    assert "Table 1" in text and "Chaos Marauders" in text and "Grotsnik" in text and "playing" in text
    more = hall.play(3)
    page.wait_for_function(
        "Number(document.body.dataset.seq) > 0 && document.querySelector('.tile') !== null"
    )
    wait_until(lambda: hall.state.table("t1").seq == more)
    page.screenshot(path=str(artifacts / "hall.png"))
    tile.click()
    page.wait_for_selector(".cm-player", timeout=TIMEOUT_MS)  # the game's own TV renderer
    assert page.locator(".cm-player").count() == 4
    assert "relayed by the hall" in page.locator(".tv-qr").inner_text()
    last = hall.play(2)
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {last}", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artifacts / "hall-tv.png"))
    assert violations == []


def test_the_organiser_starts_an_event_and_pairs_a_round(page, hall, artifacts):
    violations = csp_violations(page)
    hall.play(1)
    page.goto(hall.url)
    assert page.locator("#h-new").count() == 0  # read-only without the PIN
    page.fill("input[name=pin]", PIN)
    page.click("text=Log in")
    page.wait_for_selector("#h-new", timeout=TIMEOUT_MS)
    page.fill("textarea[name=players]", "\n".join(p["name"] for p in PLAYERS))
    page.fill("input[name=seats]", "4")
    page.click("text=Start the event")
    page.wait_for_selector("#h-standings-body tr", timeout=TIMEOUT_MS)
    page.click("#h-round")
    page.wait_for_selector(".round li", timeout=TIMEOUT_MS)
    assert "t1: " in page.locator(".round li").first.inner_text()
    assert page.locator("#h-standings-body tr").count() == 4
    page.screenshot(path=str(artifacts / "hall-event.png"), full_page=True)
    assert violations == []
