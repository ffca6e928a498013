"""One clock for buttons (issue 16.8): presses on the Pi's GPIO and on the board, ordered together.

The GPIO buttons (gpiozero's MockFactory), the board (the virtual table over a real pty, running the
firmware's protocol code) and the host link share one stepped clock, so the test decides which press
came first, by how much, without sleeping.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.observations import ButtonPressed
from companion.table import ManualClock
from firmware_bridge.host import LinkSettings
from firmware_bridge.link import HostLink
from firmware_bridge.virtual import VirtualSettings, VirtualTable
from hardware import GpioConfig, TableButtons

CONFIG = GpioConfig(pin_factory="mock", shout_buttons=(17,), bounce_ms=0)
LINK = LinkSettings(hello_timeout=0.05, backoff_initial=0.01, backoff_max=0.05, status_interval=0.0)


class Table:
    def __init__(self, clock: ManualClock, factory: MockFactory) -> None:
        self.presses: queue.Queue[ButtonPressed] = queue.Queue()
        self.statuses: queue.Queue[dict] = queue.Queue()
        self.board = VirtualTable(VirtualSettings(seed=16), clock=clock)
        self.link = HostLink(self.board.start(), self._observe, self.statuses.put, LINK, clock=clock)
        self.gpio = TableButtons(CONFIG, factory, self.presses.put, clock)

    def _observe(self, observation: object) -> None:
        if isinstance(observation, ButtonPressed):
            self.presses.put(observation)

    def connected(self, clock: ManualClock) -> None:
        for _ in range(100):  # bounded: each empty wait steps the clock so the hello timers can fire
            try:
                if self.statuses.get(timeout=0.05)["state"] == "connected":
                    return
            except queue.Empty:
                clock.advance(0.1)
        raise AssertionError("the host never connected to the virtual board")

    def next_press(self) -> ButtonPressed:
        return self.presses.get(timeout=5)

    def close(self) -> None:
        self.gpio.close()
        self.link.stop()
        self.board.stop()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=5_000.0)


@pytest.fixture
def table(clock: ManualClock) -> Iterator[Table]:
    factory = MockFactory()
    table = Table(clock, factory)
    table.factory = factory  # type: ignore[attr-defined]
    table.link.start()
    try:
        yield table
    finally:
        table.close()
        factory.reset()


def test_a_gpio_press_and_a_board_press_compare_on_one_clock(table: Table, clock: ManualClock) -> None:
    table.connected(clock)
    pin = table.factory.pin(17)  # type: ignore[attr-defined]
    clock.advance(10.0)
    pin.drive_low()  # seat 0's shout on the Pi's pins ...
    gpio = table.next_press()
    clock.advance(0.004)
    table.board.press(1)  # ... and 4 ms later a button on the board
    board = table.next_press()
    assert (gpio.source, board.source) == ("gpio", "firmware")
    assert board.at - gpio.at == pytest.approx(0.004, abs=1e-6)  # was the board's uptime: 10 s "earlier"

    clock.advance(1.0)
    table.board.press(0)  # the board first this time
    first = table.next_press()
    clock.advance(0.003)
    pin.drive_high()
    pin.drive_low()
    second = table.next_press()
    assert (first.source, second.source) == ("firmware", "gpio")
    assert second.at - first.at == pytest.approx(0.003, abs=1e-6)
