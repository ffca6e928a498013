"""``companion demo --game heroscape`` end to end: the demo kit plays a whole game by itself through the
virtual device on a real pty → HostLink → Table → Session, and the final result stays on the TV.

Army cards are tags laid on the players' army readers, every die comes from the device's e-dice, the
next button ends moves and turns; order markers and attack declarations go through the control page as
the phones would send them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.demo import (
    GAME_OVER_SECONDS,
    SessionTable,
    SimulatedTable,
    device_settings,
    dice_ids,
    enrol_tags,
    table_section,
)
from companion.cli.wiring import adapters
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.games import find_bundle
from companion.games.heroscape.demo import HeroScapeDemo, card_tags
from companion.session import Session
from companion.settings import Settings
from companion.table import TagRegistry
from firmware_bridge.virtual import VirtualTable
from tests.integration.waiting import wait_until

MAX_STEPS = 5000
"""A game takes a few hundred inputs (two players: Deadly Wall of Water; four: Rogue Hive); this bounds
a game that never ends."""


class Clock:
    """The demo's clock, moved by hand: the final result's pause passes without sleeping."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=[2, 4], ids=["two players", "four players"])
def seats(request: pytest.FixtureRequest) -> int:
    return int(request.param)


@pytest.fixture
def kit(seats: int) -> HeroScapeDemo:
    demo = HeroScapeDemo(random.Random(11))
    demo.layout(seats)
    return demo


@pytest.fixture
def device(kit: HeroScapeDemo, seats: int) -> Iterator[VirtualTable]:
    layout = kit.layout(seats)
    table = VirtualTable(device_settings(layout, Dice.load(), seed=11))
    table.start()
    yield table
    table.stop()


@pytest.fixture
def wired(tmp_path: Path, kit: HeroScapeDemo, device: VirtualTable, seats: int) -> Iterator[Session]:
    db = tmp_path / "table.sqlite3"
    section = table_section(kit.layout(seats))
    settings = Settings(db=db, serial_port=device.path, game="heroscape", extra={"table": section})
    with Session(db) as session:
        with adapters(settings, session):
            yield session


def firmware(session: Session) -> dict[str, Any]:
    return dict(session.view()["devices"].get("firmware") or {})


def inputs(session: Session, source: str, kind: str) -> list[dict[str, Any]]:
    return [
        entry
        for entry in session.history(limit=5000)
        if entry["source"] == source and (entry["action"] or {}).get("kind") == kind  # type: ignore[union-attr]
    ]


def test_the_demo_plays_a_whole_game_through_the_virtual_device(
    wired: Session, kit: HeroScapeDemo, device: VirtualTable, seats: int
) -> None:
    session = wired
    assert wait_until(session, lambda: firmware(session).get("state") == "connected")
    enrol_tags(session.db_path, "heroscape", card_tags())
    registry = TagRegistry.open(session.db_path)
    assert len(registry.tags("heroscape")) == len(card_tags())
    registry.close()
    assert firmware(session)["capabilities"]["dice"] == [{"id": 0, "faces": 6}, {"id": 1, "faces": 20}]
    dice = dice_ids(kit.layout(seats))
    assert dice == {"heroscape-combat": 0, "d20": 1}
    rng = random.Random(11)
    hands = kit.hands(SessionTable(session, Dice.load(), dice), device)
    clock = Clock()
    demo = SimulatedTable(
        session, find_bundle("heroscape"), kit, DemoBrain(kit, rng), hands, seats=seats, clock=clock
    )
    demo.new_game()

    for _ in range(MAX_STEPS):
        demo.step()
        if session.position().status == "finished":
            break
    view = session.view()
    game = view["game"]
    assert view["status"] == "finished", game["prompt"]
    assert game["finished"] and game["result"]["reason"]
    assert game["result"]["winners"] or game["result"]["tie"] is False

    # Every card of each army came from a tag on that player's army reader, and lies there still.
    added = inputs(session, "table", "add_card")
    assert added and all(entry["observation"]["type"] == "tag_placed" for entry in added)  # type: ignore[index]
    tags = card_tags()
    for seat in range(seats):
        on_reader = sorted(tags[raw.hex().upper()] for raw in device.table.tags[seat])
        assert on_reader == sorted(u["card"] for u in game["players"][seat]["army"])
    # Every die was thrown on the device: initiative, attack and defence rolls.
    rolls = inputs(session, "table", "roll")
    assert {entry["action"]["die"] for entry in rolls} == {"combat", "d20"}  # type: ignore[index]
    assert not inputs(session, "control", "roll") and not inputs(session, "demo", "roll")
    several = [e for e in rolls if len(e["action"]["faces"]) > 1]  # type: ignore[index]
    assert several, "the combat dice of an attack are gathered into one roll"
    # The next button moved play on; order markers came from the phones, secretly.
    assert inputs(session, "firmware", "end_turn")
    assert inputs(session, "control", "place_markers")
    # A roll-off (line of sight, simultaneous powers) asked from a phone: its d20s came from the e-dice.
    assert inputs(session, "control", "dispute")
    assert hands.physical > hands.direct
    assert len(game["players"]) == seats
    assert game["round"] >= 2 and len(session.history(limit=5000)) > 100
    notices = [str(n.get("text")) for n in view["notices"]]
    assert not [n for n in notices if "refused" in n or "internal error" in n]

    # The final result stays on the TV through the pause, then the next game starts.
    finished_seq = view["seq"]
    demo.step()  # the pause starts
    clock.now += GAME_OVER_SECONDS - 1
    demo.step()
    assert session.view()["seq"] == finished_seq and session.view()["status"] == "finished"
    clock.now += 2
    demo.step()
    assert session.view()["status"] == "playing"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_without_the_device_the_demo_plays_any_table_to_the_end(tmp_path: Path, players: int) -> None:
    """``companion demo --no-device``: no layout is asked for, every action goes straight to the session."""
    rng = random.Random(players)
    kit = HeroScapeDemo(rng)
    with Session(tmp_path / "table.sqlite3") as session:
        demo = SimulatedTable(session, find_bundle("heroscape"), kit, DemoBrain(kit, rng), seats=players)
        demo.new_game()
        for _ in range(MAX_STEPS):
            demo.step()
            if session.position().status == "finished":
                break
        view = session.view()
    assert view["status"] == "finished", view["game"]["prompt"]
    assert len(view["game"]["players"]) == players
