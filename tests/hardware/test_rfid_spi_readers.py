"""MFRC522 readers on the Pi's SPI: tags in and out as observations, per reader, debounced as the bridge."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.observations import ReaderId, TagGone, TagSeen, TagUid
from hardware.fake_mfrc522 import FakeMfrc522, FakeSpiBus
from hardware.rfid_spi import Mfrc522Config, SpiReaders, TagPresence
from hardware.sensors import SensorConfigError
from hardware.spi import SpiAddress, SpidevDevice

A = bytes.fromhex("04A1B2C3D4E5F6")
B = bytes.fromhex("04A1B2C3D4E5F7")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def config(**extra: Any) -> Mfrc522Config:
    return Mfrc522Config.from_mapping(
        {"readers": [{"reader": 10, "spi": "0.0"}, {"reader": 11, "spi": "0.1"}], "gone_polls": 2, **extra}
    )


def readers(bus: FakeSpiBus, observed: list, statuses: list, **extra: Any) -> SpiReaders:
    return SpiReaders(
        config(**extra),
        lambda address: bus.device(address.device or 0),
        observed.append,
        statuses.append,
        pin_factory=MockFactory(),
        clock=Clock(),
        sleep_ms=lambda _ms: None,
    )


def test_tags_are_seen_at_once_and_gone_after_the_polls_without_them() -> None:
    bus = FakeSpiBus({0: FakeMfrc522([A]), 1: FakeMfrc522()})
    observed: list = []
    spi = readers(bus, observed, [])
    spi.open()  # no thread: the test drives the polls
    observed.clear()
    spi.poll_once()
    assert [(type(o), o.reader, o.uid) for o in observed] == [(TagSeen, 10, TagUid(A.hex().upper()))]
    bus.device(0).lift(A)
    bus.device(1).place(A)  # slid from reader 10 to reader 11
    observed.clear()
    spi.poll_once()
    assert [(type(o), o.reader) for o in observed] == [(TagSeen, 11)]  # 10 misses it once: a flicker so far
    observed.clear()
    spi.poll_once()
    assert [(type(o), o.reader) for o in observed] == [(TagGone, 10)]


def test_the_status_lists_each_reader_its_chip_and_its_tags() -> None:
    bus = FakeSpiBus({0: FakeMfrc522([A, B]), 1: FakeMfrc522()})
    statuses: list = []
    spi = readers(bus, [], statuses)
    spi.open()
    spi.poll_once()
    status = statuses[-1]
    assert status["state"] == "connected" and status["detail"] == "2 of 2 readers"
    first = status["readers"][0]
    assert first["chip"] == "MFRC522 v2.0" and first["spi"] == "0.0"
    assert sorted(first["tags"]) == sorted([A.hex().upper(), B.hex().upper()])


def test_a_reader_that_does_not_answer_is_reported_and_retried() -> None:
    class LooseWire(FakeMfrc522):
        loose = True

        def transfer(self, data: bytes) -> bytes:
            return bytes(len(data)) if self.loose else super().transfer(data)

    chips: dict[int, Any] = {0: FakeMfrc522([A]), 1: LooseWire()}
    statuses: list = []
    observed: list = []
    clock = Clock()
    spi = SpiReaders(config(), lambda a: chips[a.device or 0], observed.append, statuses.append,
                     clock=clock, sleep_ms=lambda _ms: None)  # fmt: skip
    spi.open()
    spi.poll_once()
    assert statuses[-1]["state"] == "partial"
    assert "no MFRC522 answers on SPI 0.1" in statuses[-1]["readers"][1]["error"]
    assert statuses[-1]["notices"][0]["text"].startswith("RFID reader 11")
    assert [o.reader for o in observed] == [ReaderId(10)]  # the working reader reads on
    chips[1].loose = False  # the wire is fixed
    clock.now += 10
    spi.poll_once()
    spi.poll_once()
    assert statuses[-1]["state"] == "connected"


def test_the_reset_line_is_pulsed_and_held_high() -> None:
    factory = MockFactory()
    spi = SpiReaders(config(reset=25), lambda a: FakeMfrc522(), lambda o: None, pin_factory=factory,
                     sleep_ms=lambda _ms: None)  # fmt: skip
    spi.start()
    try:
        pin = factory.pin(25)
        assert pin.state == 1
        assert [state for _, state in pin.states][-2:] == [False, True]
    finally:
        spi.close()


def test_presence_debounce() -> None:
    presence = TagPresence(3)
    assert presence.update([TagUid("A")]) == ([TagUid("A")], [])
    assert presence.update([]) == ([], [])
    assert presence.update([TagUid("A")]) == ([], [])  # back before the third miss: never gone
    assert presence.update([]) == ([], [])
    assert presence.update([]) == ([], [])
    assert presence.update([]) == ([], [TagUid("A")])


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({}, "readers must list"),
        ({"readers": [{"reader": 1, "spi": "0.0"}], "colour": 1}, "unknown keys"),
        ({"readers": [{"reader": 1, "spi": "x"}]}, "expected BUS.CS"),
        ({"readers": [{"reader": 1, "spi": "0"}]}, "name the chip select"),
        ({"readers": [{"reader": 1, "spi": "0.0"}, {"reader": 1, "spi": "0.1"}]}, "listed twice"),
        ({"readers": [{"reader": 1, "spi": "0.0"}, {"reader": 2, "spi": "0.0"}]}, "share one chip select"),
        ({"readers": [{"reader": 1, "spi": "0.0", "cs": 5}]}, "has a hardware chip select"),
        ({"readers": [{"reader": 1, "spi": "0.0"}], "gone_polls": 0}, "at least 1"),
    ],
)
def test_configuration_mistakes_are_one_sentence(section: dict, message: str) -> None:
    with pytest.raises(SensorConfigError, match=message):
        Mfrc522Config.from_mapping(section)


def test_a_gpio_chip_select_frames_every_transfer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real spidev backend, over a stand-in for the spidev C module: CS goes low around each transfer."""
    factory = MockFactory()
    levels: list[int] = []

    class SpiDev:
        no_cs = False

        def open(self, bus: int, device: int) -> None:
            self.opened = (bus, device)

        def xfer2(self, data: list[int]) -> list[int]:
            levels.append(factory.pin(5).state)
            return [0] * len(data)

        def close(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=SpiDev))
    device = SpidevDevice(SpiAddress.parse("0", cs_gpio=5), pin_factory=factory)
    device.open()
    assert factory.pin(5).state == 1  # idle high
    device.transfer(b"\x00\x00")
    assert levels == [0] and factory.pin(5).state == 1
    device.close()
