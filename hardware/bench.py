"""``companion bench sensors``: each sensor's fake, in real time, to the table's door (reader -> table).

For each sensor the fake makes the physical event (a tag laid on an MFRC522's field, a card shown to a
keyboard reader, a Pixel or a GoDice rolled) at a random moment; the figure is the time until the
observation arrives at ``sink`` (``Table.observe`` in the CLI). What is measured is this code's own
path: the poll cycle and the driver (MFRC522), the evdev decode (keyboard), the asyncio hop and the
protocol decode (dice). The fakes answer at once, so the radio's and the bus's own time on a real Pi
(SPI at 1 MHz, BLE connection intervals of 15-30 ms) comes on top.
"""

from __future__ import annotations

import queue
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.observations import Observation

Sink = Callable[[Observation], None]


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "events": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


def _arrivals(sink: Sink | None) -> tuple[queue.Queue[tuple[Observation, float]], Sink]:
    arrived: queue.Queue[tuple[Observation, float]] = queue.Queue()

    def record(observation: Observation) -> None:
        arrived.put((observation, time.perf_counter()))
        if sink is not None:
            sink(observation)

    return arrived, record


def bench_mfrc522(events: int, readers: int, seed: int, sink: Sink | None = None) -> dict[str, Any]:
    from hardware.fake_mfrc522 import FakeMfrc522
    from hardware.rfid_spi import Mfrc522Config, SpiReaders

    rng = random.Random(seed)
    chips = {i: FakeMfrc522() for i in range(readers)}
    config = Mfrc522Config.from_mapping(
        {"readers": [{"reader": i, "spi": f"{i // 2}.{i % 2}"} for i in range(readers)], "gone_polls": 1}
    )
    arrived, record = _arrivals(sink)
    spi = SpiReaders(config, lambda a: chips[a.bus * 2 + (a.device or 0)], record)
    spi.start()
    samples = []
    try:
        for n in range(events):
            chip = chips[rng.randrange(readers)]
            uid = bytes([0x04, n & 0xFF, (n >> 8) & 0xFF, 1, 2, 3, 4])
            time.sleep(rng.uniform(0, 0.05))  # a card laid at any moment of the poll cycle
            laid = time.perf_counter()
            chip.place(uid)
            samples.append(_wait(arrived, "TagSeen", uid.hex().upper()) - laid)
            chip.lift(uid)
            _wait(arrived, "TagGone", uid.hex().upper())
    finally:
        spi.close()
    return {
        "sensor": f"MFRC522 on SPI ({readers} readers, fake bus)",
        **_summary(samples),
        "polls": spi.polls,
    }


def bench_keyboard(events: int, seed: int, sink: Sink | None = None) -> dict[str, Any]:
    from hardware.fake_hid import FakeKeyboardReader
    from hardware.hid_readers import HidReaderConfig, HidReaders

    rng = random.Random(seed)
    fake = FakeKeyboardReader("/dev/input/by-id/usb-bench-event-kbd")
    arrived, record = _arrivals(sink)
    statuses: queue.Queue[dict[str, Any]] = queue.Queue()
    configs = HidReaderConfig.list_from([{"reader": 20, "device": fake.path}])
    readers = HidReaders(configs, record, statuses.put, opener=fake.opener)
    readers.start()
    samples = []
    try:
        while statuses.get(timeout=10)["state"] != "connected":
            pass
        for n in range(events):
            time.sleep(rng.uniform(0, 0.02))
            number = 4_000_000 + n
            shown = time.perf_counter()
            fake.show_card(f"{number:010d}")
            samples.append(_wait(arrived, "TagSeen", f"{number:08X}") - shown)
    finally:
        readers.close()
        fake.close()
    return {"sensor": "USB keyboard reader (fake evdev events)", **_summary(samples)}


def bench_dice(kind: str, events: int, seed: int, sink: Sink | None = None) -> dict[str, Any]:
    from hardware.ble_dice import BleDieConfig, DiceService
    from hardware.fake_ble import FakeAir, FakeGoDice, FakePixel

    rng = random.Random(seed)
    if kind == "pixels":
        die: Any = FakePixel("AA:00:00:00:00:01", "Pixel d20", 0x1234, "d20")
        entry = {"die": 1, "type": "pixels", "pixel_id": 0x1234}
    else:
        die = FakeGoDice("AA:00:00:00:00:02", "GoDice_BENCH_R_v03", shell="d20", seed=seed)
        entry = {"die": 2, "type": "godice", "name": die.name, "shell": "d20"}
    arrived, record = _arrivals(sink)
    statuses: queue.Queue[dict[str, Any]] = queue.Queue()
    service = DiceService(BleDieConfig.list_from([entry]), FakeAir([die]), record, statuses.put)
    service.start()
    samples = []
    try:
        while statuses.get(timeout=10)["state"] != "connected":
            pass
        for _ in range(events):
            time.sleep(rng.uniform(0, 0.02))
            face = rng.randrange(20)
            rolled = time.perf_counter()
            die.roll(face if kind == "pixels" else face + 1)
            samples.append(_wait(arrived, "DieRolled", None) - rolled)
    finally:
        service.close()
    title = "Pixels die (fake BLE peripheral)" if kind == "pixels" else "GoDice (fake BLE peripheral)"
    return {"sensor": title, **_summary(samples)}


def _wait(arrived: queue.Queue[tuple[Observation, float]], kind: str, uid: str | None) -> float:
    while True:
        observation, at = arrived.get(timeout=10)
        if type(observation).__name__ == kind and (uid is None or getattr(observation, "uid", None) == uid):
            return at
