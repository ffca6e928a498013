"""USB "keyboard" RFID readers (the cheap 125 kHz and 13.56 MHz ones): one per zone, by device path.

Configured in table.toml, one entry per reader::

    [[hardware.hid_readers]]
    reader = 20                   # the reader number [[table.readers]] maps to a zone
    device = "/dev/input/by-id/usb-Sycreader_USB_Reader_08FF20140315-event-kbd"
    format = "decimal"            # what it types: "decimal" (most 125 kHz readers) or "hex"

The stable /dev/input/by-id/ path keeps each reader on its zone whichever USB port it is in. Each
reader is grabbed (EVIOCGRAB) so what it types never reaches the kiosk's browser or a console.
The events are read from evdev with the standard library (``hardware.hid_keys``): no python-evdev.

A keyboard reader says only "this card was shown to me", never "it was taken away". So a scan means
"the card lies here now": shown to another reader, it is gone from the one it was last shown to
(``ScanPlaces``), as a tag slid between two readers of the bridge. Shown again where it lies, nothing.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import select
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.observations import Observation, ReaderId, TagGone, TagSeen, TagUid
from hardware.hid_keys import EVENT, EVIOCGRAB, LineDecoder, events
from hardware.sensors import SensorConfigError, check_keys, reader_ids_unique, text, whole

log = logging.getLogger(__name__)

DEVICE_NAME = "hid-readers"
SECTION = "hardware.hid_readers"
FORMATS = ("decimal", "hex")
RETRY_SECONDS = 2.0


@dataclass(frozen=True)
class HidReaderConfig:
    reader: int
    device: str
    format: str = "decimal"

    @classmethod
    def list_from(cls, entries: Any) -> tuple[HidReaderConfig, ...]:
        if not isinstance(entries, list) or not entries:
            raise SensorConfigError(f"[[{SECTION}]] must be a list of {{ reader = N, device = PATH }}")
        readers = []
        for entry in entries:
            if not isinstance(entry, Mapping):
                raise SensorConfigError(f"[[{SECTION}]]: {entry!r} is not a table")
            check_keys(entry, {"reader", "device", "format"}, SECTION)
            reader, device = whole(entry, "reader", SECTION), text(entry, "device", SECTION)
            if reader is None or device is None:
                raise SensorConfigError(f"[[{SECTION}]] each reader needs reader = N and device = PATH")
            kind = text(entry, "format", SECTION, "decimal")
            if kind not in FORMATS:
                raise SensorConfigError(
                    f"[[{SECTION}]] reader {reader}: format {kind!r} is not decimal or hex"
                )
            readers.append(cls(reader, device, kind or "decimal"))
        reader_ids_unique([r.reader for r in readers], SECTION)
        if len({r.device for r in readers}) != len(readers):
            raise SensorConfigError(f"[[{SECTION}]] two readers name one device")
        return tuple(readers)


class NotACardNumberError(ValueError):
    """A reader typed a line that is not a card number in its configured format."""


def card_uid(line: str, kind: str) -> TagUid:
    """``"0004321234"`` (decimal) -> ``"0041EFD2"``; ``"04a1b2c3"`` (hex) -> ``"04A1B2C3"``."""
    line = line.strip()
    if kind == "decimal":
        if not line.isdigit() or len(line) > 40:
            raise NotACardNumberError(f"{line!r} is not a decimal card number")
        number = int(line)
        width = max(4, (number.bit_length() + 7) // 8)  # the 125 kHz readers print 32 bits
        return TagUid(number.to_bytes(width, "big").hex().upper())
    if not line or len(line) % 2 or len(line) > 40 or any(ch not in "0123456789abcdefABCDEF" for ch in line):
        raise NotACardNumberError(f"{line!r} is not a hexadecimal card number")
    return TagUid(line.upper())


class ScanPlaces:
    """Where each card was last shown, across the keyboard readers: a scan elsewhere is a move."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._where: dict[TagUid, int] = {}

    def scanned(self, reader: int, uid: TagUid, at: float) -> list[Observation]:
        with self._lock:
            before = self._where.get(uid)
            if before == reader:
                return []  # shown again where it lies
            self._where[uid] = reader
        moved: list[Observation] = [TagGone(ReaderId(before), uid, at)] if before is not None else []
        return [*moved, TagSeen(ReaderId(reader), uid, at)]


Opener = Callable[[str], int]


def open_grabbed(path: str) -> int:
    """Opens an evdev node and grabs it; OSError with a sentence when either fails."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, EVIOCGRAB, 1)
    except OSError as exc:
        os.close(fd)
        raise OSError(exc.errno, f"cannot grab {path} (another program holds it?): {exc.strerror}") from None
    return fd


class HidReader:
    """One keyboard reader: its thread reads key events, decodes lines, hands scans to ``on_scan``."""

    def __init__(
        self,
        config: HidReaderConfig,
        on_scan: Callable[[int, TagUid], None],
        on_change: Callable[[], None],
        opener: Opener = open_grabbed,
    ) -> None:
        self.config = config
        self._on_scan = on_scan
        self._on_change = on_change
        self._opener = opener
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.state = "searching"
        self.error: str | None = None
        self.last_uid: TagUid | None = None
        self.scans = 0

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._run, name=f"hid-reader-{self.config.reader}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def _set(self, state: str, error: str | None) -> None:
        if (state, error) != (self.state, self.error):
            self.state, self.error = state, error
            if error:
                log.warning("keyboard reader %d: %s", self.config.reader, error)
            self._on_change()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                fd = self._opener(self.config.device)
            except OSError as exc:
                missing = exc.errno in (errno.ENOENT, errno.ENODEV)
                self._set("searching" if missing else "error", f"{self.config.device}: {exc.strerror}")
                self._stop.wait(RETRY_SECONDS)
                continue
            self._set("connected", None)
            try:
                self._read(fd)
            finally:
                os.close(fd)

    def _read(self, fd: int) -> None:
        decoder = LineDecoder()
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                data = os.read(fd, 64 * EVENT.size)  # whole events only
            except BlockingIOError:
                continue
            except OSError as exc:  # unplugged: ENODEV; it comes back under the same by-id path
                self._set("searching", f"{self.config.device}: {exc.strerror}")
                return
            if not data:  # end of a stream (only a fake's pipe ends): the reader is gone
                self._set("searching", f"{self.config.device}: closed")
                self._stop.wait(RETRY_SECONDS)
                return
            for kind, code, value in events(data):
                line = decoder.feed(kind, code, value)
                if line is not None and line.strip():
                    self._line(line)

    def _line(self, line: str) -> None:
        try:
            uid = card_uid(line, self.config.format)
        except NotACardNumberError as exc:
            self._set("connected", f"typed {exc} (check format = in [[{SECTION}]])")
            return
        self.last_uid = uid
        self.scans += 1
        self._set("connected", None)
        self._on_scan(self.config.reader, uid)

    def status(self) -> dict[str, Any]:
        return {
            "reader": self.config.reader,
            "device": self.config.device,
            "state": self.state,
            "error": self.error,
            "last_uid": self.last_uid,
            "scans": self.scans,
        }


class HidReaders:
    """Every keyboard reader of the table: their scans as observations, their status as one device."""

    def __init__(
        self,
        configs: tuple[HidReaderConfig, ...],
        sink: Callable[[Observation], None],
        on_status: Callable[[dict[str, Any]], None] | None = None,
        opener: Opener = open_grabbed,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._sink = sink
        self._on_status = on_status
        self._clock = clock
        self._places = ScanPlaces()
        self._status_lock = threading.Lock()
        self.readers = [HidReader(config, self._scanned, self._report, opener) for config in configs]

    def _scanned(self, reader: int, uid: TagUid) -> None:
        for observation in self._places.scanned(reader, uid, self._clock()):
            self._sink(observation)

    def status(self) -> dict[str, Any]:
        readers = [reader.status() for reader in self.readers]
        working = sum(r["state"] == "connected" for r in readers)
        state = "connected" if working == len(readers) else "searching" if working == 0 else "partial"
        return {
            "state": state,
            "detail": f"{working} of {len(readers)} readers",
            "readers": readers,
            "notices": [
                {"level": "warning", "text": f"Keyboard reader {r['reader']}: {r['error']}"}
                for r in readers
                if r["error"]
            ],
        }

    def _report(self) -> None:
        if self._on_status is None:
            return
        with self._status_lock:
            status = self.status()
        try:
            self._on_status(status)
        except Exception:
            log.exception("reporting the keyboard readers' status failed")

    def start(self) -> None:
        self._report()
        for reader in self.readers:
            reader.start()

    def close(self) -> None:
        for reader in self.readers:
            reader.stop()
