"""MFRC522 readers on the Pi's own SPI bus: polled in turn on one thread, tags in and out as observations.

Configured in table.toml::

    [hardware.mfrc522]
    reset = 25                 # BCM pin wired to every reader's RST (held high; pulsed low at start)
    poll_ms = 0                # pause after each round of all readers (0: poll back to back)
    gone_polls = 3             # a tag is gone after this many polls of its reader without it
    readers = [
      { reader = 10, spi = "0.0" },         # /dev/spidev0.0 (CE0)
      { reader = 11, spi = "0.1" },         # CE1
      { reader = 12, spi = "0", cs = 5 },   # a third reader: GPIO5 as its chip select
    ]

The reader numbers are the ones ``[[table.readers]]`` maps to zones, as for the bridge's readers.
Like the bridge's firmware, a tag is seen at once and gone only after ``gone_polls`` polls without it
(an RF read fails now and then with the card in place). The thread only reads and enqueues
(``sink``); a reader that stops answering is reported on the control page and tried again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gpiozero import DigitalOutputDevice, Factory

from companion.observations import Observation, ReaderId, TagGone, TagSeen, TagUid
from hardware.mfrc522 import KNOWN_VERSIONS, Mfrc522
from hardware.sensors import SensorConfigError, check_keys, reader_ids_unique, whole
from hardware.spi import SpiAddress, SpidevDevice, SpiDevice

log = logging.getLogger(__name__)

DEVICE_NAME = "rfid-spi"
"""The name this sensor's status has in the view's ``devices``."""
RETRY_SECONDS = 5.0
SECTION = "hardware.mfrc522"


@dataclass(frozen=True)
class SpiReader:
    reader: int
    address: SpiAddress


@dataclass(frozen=True)
class Mfrc522Config:
    readers: tuple[SpiReader, ...]
    reset: int | None = None
    poll_ms: int = 0
    gone_polls: int = 3
    max_tags: int = 12
    spi_hz: int = 1_000_000
    pin_factory: str = "lgpio"

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any]) -> Mfrc522Config:
        known = {"readers", "reset", "poll_ms", "gone_polls", "max_tags", "spi_hz", "pin_factory"}
        check_keys(section, known, SECTION)
        entries = section.get("readers")
        if not isinstance(entries, list) or not entries:
            raise SensorConfigError(
                f'[{SECTION}] readers must list at least one {{ reader = N, spi = "0.0" }}'
            )
        readers = []
        for entry in entries:
            if not isinstance(entry, Mapping):
                raise SensorConfigError(f"[{SECTION}] readers: {entry!r} is not a table")
            check_keys(entry, {"reader", "spi", "cs"}, f"{SECTION}.readers")
            reader = whole(entry, "reader", SECTION)
            if reader is None or not isinstance(entry.get("spi"), str):
                raise SensorConfigError(f'[{SECTION}] each reader needs reader = N and spi = "BUS.CS"')
            try:
                address = SpiAddress.parse(entry["spi"], whole(entry, "cs", SECTION))
            except ValueError as exc:
                raise SensorConfigError(f"[{SECTION}] reader {reader}: {exc}") from None
            readers.append(SpiReader(reader, address))
        reader_ids_unique([r.reader for r in readers], SECTION)
        selects = [(r.address.bus, r.address.device, r.address.cs_gpio) for r in readers]
        if len(set(selects)) != len(selects):
            raise SensorConfigError(f"[{SECTION}] two readers share one chip select")
        pin_factory = section.get("pin_factory", "lgpio")
        if not isinstance(pin_factory, str):
            raise SensorConfigError(f"[{SECTION}] pin_factory must be text")
        return cls(
            readers=tuple(readers),
            reset=whole(section, "reset", SECTION),
            poll_ms=whole(section, "poll_ms", SECTION, 0) or 0,
            gone_polls=whole(section, "gone_polls", SECTION, 3, low=1) or 3,
            max_tags=whole(section, "max_tags", SECTION, 12, low=1) or 12,
            spi_hz=whole(section, "spi_hz", SECTION, 1_000_000, low=10_000) or 1_000_000,
            pin_factory=pin_factory,
        )


class TagPresence:
    """Which tags lie on one reader: new ones at once, gone after ``misses`` polls in a row without them."""

    def __init__(self, misses: int) -> None:
        self._misses = misses
        self._missed: dict[TagUid, int] = {}

    @property
    def uids(self) -> list[TagUid]:
        return list(self._missed)

    def update(self, seen: list[TagUid]) -> tuple[list[TagUid], list[TagUid]]:
        """One poll's UIDs -> (arrived, gone)."""
        arrived = [uid for uid in seen if uid not in self._missed]
        gone = []
        for uid in list(self._missed):
            if uid in seen:
                self._missed[uid] = 0
            else:
                self._missed[uid] += 1
                if self._missed[uid] >= self._misses:
                    del self._missed[uid]
                    gone.append(uid)
        for uid in arrived:
            self._missed[uid] = 0
        return arrived, gone


@dataclass
class _Reader:
    spec: SpiReader
    device: SpiDevice | None = None
    chip: Mfrc522 | None = None
    version: int | None = None
    error: str | None = None
    retry_at: float = 0.0
    presence: TagPresence = field(default_factory=lambda: TagPresence(3))

    def status(self) -> dict[str, Any]:
        return {
            "reader": self.spec.reader,
            "spi": str(self.spec.address),
            "chip": KNOWN_VERSIONS.get(self.version or -1, f"0x{self.version:02X}" if self.version else None),
            "state": "ok" if self.chip is not None else "error",
            "error": self.error,
            "tags": list(self.presence.uids),
        }


DeviceOpener = Callable[[SpiAddress], SpiDevice]


def spidev_opener(hz: int, pin_factory: Factory | None) -> DeviceOpener:
    def open_device(address: SpiAddress) -> SpiDevice:
        device = SpidevDevice(address, hz, pin_factory)
        device.open()
        return device

    return open_device


class SpiReaders:
    """Owns the readers and their polling thread; ``close()`` stops it and releases SPI and pins."""

    def __init__(
        self,
        config: Mfrc522Config,
        open_device: DeviceOpener,
        sink: Callable[[Observation], None],
        on_status: Callable[[dict[str, Any]], None] | None = None,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep_ms: Callable[[float], None] | None = None,
    ) -> None:
        self.config = config
        self._open = open_device
        self._sink = sink
        self._on_status = on_status
        self._pin_factory = pin_factory
        self._clock = clock
        self._sleep_ms = sleep_ms
        self._readers = [_Reader(spec, presence=TagPresence(config.gone_polls)) for spec in config.readers]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reset: DigitalOutputDevice | None = None
        self._last_status: dict[str, Any] | None = None
        self.polls = 0

    def open(self) -> None:
        """Resets the chips and connects every reader (no thread: ``poll_once`` reads them)."""
        if self.config.reset is not None:
            # RST low resets (hard power-down), high runs: a pulse leaves every chip freshly reset.
            self._reset = DigitalOutputDevice(
                self.config.reset, initial_value=False, pin_factory=self._pin_factory
            )
            time.sleep(0.01)
            self._reset.on()
            time.sleep(0.05)  # the oscillator starts within ~40 us; leave it plenty
        for reader in self._readers:
            self._connect(reader)
        self._report()

    def start(self) -> None:
        self.open()
        self._thread = threading.Thread(target=self._run, name="rfid-spi", daemon=True)
        self._thread.start()

    def _connect(self, reader: _Reader) -> None:
        try:
            if reader.device is None:
                reader.device = self._open(reader.spec.address)
            chip = Mfrc522(reader.device, self._sleep_ms, self._clock)
            version = chip.init()
        except OSError as exc:
            self._fail(reader, str(exc))
            return
        reader.version = version
        if version in (0x00, 0xFF):
            self._fail(
                reader, f"no MFRC522 answers on SPI {reader.spec.address} (wiring, 3.3 V, chip select?)"
            )
            return
        reader.chip, reader.error = chip, None
        log.info(
            "reader %d: %s on SPI %s",
            reader.spec.reader,
            KNOWN_VERSIONS.get(version, hex(version)),
            reader.spec.address,
        )

    def _fail(self, reader: _Reader, error: str) -> None:
        if reader.error != error:
            log.warning("reader %d: %s", reader.spec.reader, error)
        reader.chip, reader.error = None, error
        reader.retry_at = self._clock() + RETRY_SECONDS
        at = self._clock()
        for uid in reader.presence.uids:  # what we cannot read any more is not known to lie there
            self._sink(TagGone(ReaderId(reader.spec.reader), uid, at))
        reader.presence = TagPresence(self.config.gone_polls)

    def poll_once(self) -> None:
        """One round over every reader (the thread's loop body; tests call it directly)."""
        for reader in self._readers:
            if reader.chip is None:
                if self._clock() >= reader.retry_at:
                    self._connect(reader)
                continue
            try:
                uids = [TagUid(uid.hex().upper()) for uid in reader.chip.inventory(self.config.max_tags)]
            except OSError as exc:
                self._fail(reader, f"SPI {reader.spec.address}: {exc}")
                continue
            arrived, gone = reader.presence.update(uids)
            at = self._clock()
            for uid in gone:
                self._sink(TagGone(ReaderId(reader.spec.reader), uid, at))
            for uid in arrived:
                self._sink(TagSeen(ReaderId(reader.spec.reader), uid, at))
        self.polls += 1
        self._report()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # the readers are one input among several: log, never take the table down
                log.exception("polling the SPI readers failed")
                self._stop.wait(1.0)
            if self.config.poll_ms:
                self._stop.wait(self.config.poll_ms / 1000)

    def status(self) -> dict[str, Any]:
        readers = [reader.status() for reader in self._readers]
        working = sum(r["state"] == "ok" for r in readers)
        state = "connected" if working == len(readers) else "error" if working == 0 else "partial"
        errors = [f"reader {r['reader']}: {r['error']}" for r in readers if r["error"]]
        return {
            "state": state,
            "detail": f"{working} of {len(readers)} readers",
            "readers": readers,
            "notices": [{"level": "warning", "text": f"RFID {error}"} for error in errors],
        }

    def _report(self) -> None:
        status = self.status()
        if status != self._last_status and self._on_status is not None:
            self._last_status = status
            try:
                self._on_status(status)
            except Exception:
                log.exception("reporting the SPI readers' status failed")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        for reader in self._readers:
            if reader.device is not None:
                reader.device.close()
                reader.device = None
        if self._reset is not None:
            self._reset.close()
            self._reset = None
