"""GPIO with the real Session and the Chaos Marauders engine: a shout button, the turn LED, the buzzer."""

from __future__ import annotations

import queue
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from companion.engine import Player, Setup
from companion.session import Command, Session
from companion.table import ManualClock, Table, TableConfig, TagRegistry
from hardware import GpioConfig, PlayerLeds, RejectBuzzer, TableButtons, ViewFollower

CONFIG = GpioConfig(
    pin_factory="mock", shout_buttons=(17, 27), player_leds=(5, 6), undo=25, buzzer=12, bounce_ms=0
)


def test_a_shout_button_reaches_the_engine_and_the_leds_follow_the_turn(tmp_path: Path):
    factory = MockFactory()
    db = tmp_path / "table.sqlite3"
    clock = ManualClock()
    session = Session(db)
    session.start()
    registry = TagRegistry.open(db)
    table = Table(session, TableConfig(), registry, clock=clock)
    leds = PlayerLeds(CONFIG.player_leds, factory)
    follower = ViewFollower(session, leds)
    buzzer = RejectBuzzer(CONFIG.buzzer, factory, CONFIG)
    rejected: queue.Queue[str] = queue.Queue()
    table.on_rejected(lambda outcome: rejected.put(outcome.reason or ""))
    table.on_rejected(buzzer.rejected)
    buttons = TableButtons(CONFIG, factory, table.observe, clock)
    try:
        setup = Setup("chaos-marauders", (Player("Grotsnik"), Player("Ugluk")))
        seq = session.submit(Command(kind="new_game", source="control", payload=setup.to_json())).seq
        follower.start()
        assert follower.wait_for(seq, timeout=5)
        assert [factory.pin(p).state for p in CONFIG.player_leds] == [True, False]

        factory.pin(27).drive_low()  # Ugluk shouts while Grotsnik is to draw: a false shout
        factory.pin(27).drive_high()
        table.pump()
        clock.advance(0.05)
        table.pump()
        change = session.view()["last_change"]
        assert (change["source"], change["kind"]) == ("gpio", "act")
        assert follower.wait_for(change["seq"], timeout=5)

        factory.pin(17).drive_low()  # Grotsnik may not shout in his own turn: refused, and the buzzer sounds
        factory.pin(17).drive_high()
        table.pump()
        clock.advance(0.05)
        table.pump()
        assert rejected.get(timeout=1)
        assert session.view()["seq"] == change["seq"]
    finally:
        follower.stop()
        buttons.close()
        buzzer.close()
        leds.close()
        session.stop()
        registry.close()
        factory.reset()
