"""The demo's physical path end to end: virtual device on a real pty → HostLink → Table → Session.

Also the entry point's wiring: ``companion serve``'s adapters with the virtual device as the
configured serial port report the firmware as connected in the view's devices.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.demo import (
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
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo, Layout, deck_tags
from companion.session import Session
from companion.settings import Settings
from companion.table import TagRegistry
from firmware_bridge.virtual import VirtualTable

from .waiting import wait_until

LAYOUT = Layout()
MAX_STEPS = 150


@pytest.fixture
def device() -> Iterator[VirtualTable]:
    table = VirtualTable(device_settings(LAYOUT.demo_layout(), Dice.load(), seed=5))
    table.start()
    yield table
    table.stop()


@pytest.fixture
def wired(tmp_path: Path, device: VirtualTable) -> Iterator[tuple[Session, Any]]:
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, serial_port=device.path, extra={"table": table_section(LAYOUT.demo_layout())})
    with Session(db) as session:
        with adapters(settings, session) as wired:
            yield session, wired


def firmware(session: Session) -> dict[str, Any]:
    return dict(session.view()["devices"].get("firmware") or {})


def test_serve_wiring_reports_the_device_connected(wired: tuple[Session, Any]) -> None:
    session, adapters_ = wired
    assert wait_until(session, lambda: firmware(session).get("state") == "connected")
    status = firmware(session)
    assert status["firmware"] == "0.2.0"
    assert status["last_heard"] is not None
    assert status["capabilities"]["readers"] == LAYOUT.readers
    assert session.view()["devices"]["table"]["readers"] == LAYOUT.readers
    assert adapters_.gpio is None  # no [hardware.gpio]: no GPIO stack


def test_demo_plays_through_the_virtual_device(wired: tuple[Session, Any], device: VirtualTable) -> None:
    session, _ = wired
    assert wait_until(session, lambda: firmware(session).get("state") == "connected")
    enrol_tags(session.db_path, "chaos-marauders", deck_tags())
    registry = TagRegistry.open(session.db_path)
    assert len(registry.tags("chaos-marauders")) == 110
    registry.close()
    rng = random.Random(7)
    kit = ChaosMaraudersDemo(rng)
    kit.layout(LAYOUT.seats)
    hands = kit.hands(SessionTable(session, Dice.load(), dice_ids(LAYOUT.demo_layout())), device)
    demo = SimulatedTable(session, find_bundle("chaos-marauders"), kit, DemoBrain(kit, rng), hands)
    demo.new_game()

    for _ in range(MAX_STEPS):
        demo.step()
        if from_table(session, "place") and from_table(session, "roll") and hands.physical >= 24:
            break
    placed = from_table(session, "place")
    assert placed, "no card was placed from a tag on a line reader"
    assert placed[0]["observation"]["type"] == "tag_placed"  # type: ignore[index]
    rolls = from_table(session, "roll")
    assert rolls, "no roll prompt was answered by the virtual Cube"
    assert rolls[0]["observation"]["type"] == "dice_rolled"  # type: ignore[index]
    # Every card the engine shows on a line lies on that line's reader, as at a real table.
    state = session.state
    on_readers = {
        reader: sorted(deck_tags()[uid] for uid in device_uids(device, reader)) for reader in range(12)
    }
    for seat in range(LAYOUT.seats):
        for line in range(3):
            cells = sorted(c for c in state.boards[seat][line] if c is not None)
            assert on_readers[LAYOUT.line_reader(seat, line)] == cells
    refused = [n for n in session.view()["notices"] if "refused" in str(n.get("text"))]
    assert refused == []
    # Slot questions were answered with the device's next and confirm buttons, not the phone.
    assert any(
        entry["source"] == "firmware" and (entry["action"] or {}).get("kind") == "place"  # type: ignore[union-attr]
        for entry in session.history(limit=1000)
    )


def from_table(session: Session, kind: str) -> list[dict[str, Any]]:
    return [
        entry
        for entry in session.history(limit=1000)
        if entry["source"] == "table" and (entry["action"] or {}).get("kind") == kind  # type: ignore[union-attr]
    ]


def device_uids(device: VirtualTable, reader: int) -> list[str]:
    return [raw.hex().upper() for raw in device.table.tags[reader]]


def test_bench_tag_measures_every_event() -> None:
    from companion.cli.bench_tag import measure

    figures = measure(events=15, settle_ms=5, seed=3)
    assert figures["lost"] == 0
    assert figures["events"] == 15
    assert 0 <= figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
