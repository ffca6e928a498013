"""A virtual table device on a real pseudo-terminal, speaking the exact protocol of the Pico.

It runs the firmware's own ``DeviceLink`` (``firmware/tcproto.py``), so reliability, state reports
and heartbeats behave as on the board; only the table (readers, dice, buttons) is simulated. The host
opens ``start()``'s path like a real port. That path is a symlink we control, standing in for
/dev/serial/by-id: it survives ``unplug()``/``replug()`` although the /dev/pts/N behind it changes.

Faults are injected per frame, in both directions: corruption, and (device → host) duplication and
reordering.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pty
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.firmware import tcproto

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Faults:
    corrupt: float = 0.0
    """Probability that a frame is corrupted, applied to each direction separately."""
    duplicate: float = 0.0
    """Probability that a device frame is sent twice."""
    reorder: float = 0.0
    """Probability that a device frame is held back and sent after the next one."""


@dataclass(frozen=True)
class VirtualSettings:
    readers: int = 4
    dice: tuple[tuple[int, int], ...] = ((0, 20), (1, 6))
    """(die number, how many faces it has): what the board's CONFIG says. ``[table.dice]`` on the
    host names each die; the device never does."""
    buttons: tuple[int, ...] = (0, 1)
    device_id: str = "virtual-table"
    firmware: tuple[int, int, int] = (0, 2, 0)
    window: int = 64
    rto_ms: int = 50
    """Retransmit timeout before the first round trip is measured (then srtt + 4 rttvar)."""
    rto_min_ms: int = 10
    rto_max_ms: int = 250
    heartbeat_ms: int = 500
    hello_ms: int = 1000
    outbox_limit: int = 4096
    first_seq: int | None = None
    """Sequence number of the first event after boot; random when None (as on the board)."""
    seed: int | None = None


@dataclass
class Table:
    """What lies on the simulated table."""

    tags: dict[int, list[bytes]] = field(default_factory=dict)
    faces: dict[int, int] = field(default_factory=dict)


def _uid(uid: bytes | str) -> bytes:
    raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
    if len(raw) not in tcproto.UID_LENGTHS:
        raise ValueError(f"a UID is 4, 7 or 10 bytes, not {len(raw)}")
    return raw


class VirtualTable:
    def __init__(
        self,
        settings: VirtualSettings | None = None,
        faults: Faults | None = None,
        link_dir: str | os.PathLike[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings or VirtualSettings()
        self.faults = faults or Faults()
        self._link_dir = Path(link_dir) if link_dir else None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._clock = clock
        self._rng = random.Random(self.settings.seed)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._rx_split = tcproto.Splitter()
        self._held: bytes | None = None
        self._frozen = False
        self.table = Table()
        self.link: tcproto.DeviceLink | None = None
        self.leds: dict[int, tuple[int, tuple[int, int, int]]] = {}
        self.identified: list[int] = []
        self.counters = {
            "frames_sent": 0,
            "corrupted_tx": 0,
            "corrupted_rx": 0,
            "duplicated": 0,
            "reordered": 0,
            "unplugs": 0,
            "reboots": 0,
        }

    # -- lifecycle --

    @property
    def path(self) -> str:
        """The stable port path the host opens (a symlink to the current /dev/pts/N)."""
        base = self._link_dir or (Path(self._tmp.name) if self._tmp else None)
        if base is None:
            raise RuntimeError("VirtualTable not started")
        return str(base / "ttyVIRT")

    @property
    def pts(self) -> str | None:
        """The current pseudo-terminal behind ``path`` (None while unplugged)."""
        with self._lock:
            return os.ttyname(self._slave) if self._slave is not None else None

    def start(self) -> str:
        if self._thread is not None:
            raise RuntimeError("VirtualTable already started")
        if self._link_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="virtual-table-")
        with self._lock:
            self.table = Table(
                {r: [] for r in range(self.settings.readers)}, {d: 0 for d, _ in self.settings.dice}
            )
            self._boot()
            self._plug()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="VirtualTable", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        with self._lock:
            self._unplug()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> VirtualTable:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the table --

    def put_tag(self, reader: int, uid: bytes | str) -> None:
        raw = _uid(uid)
        with self._lock:
            on_reader = self.table.tags[reader]
            if raw not in on_reader:
                on_reader.append(raw)
                self._device.tag_present(reader, raw)

    def remove_tag(self, reader: int, uid: bytes | str | None = None) -> None:
        """Take one tag (or every tag) off a reader."""
        with self._lock:
            on_reader = self.table.tags[reader]
            for raw in [_uid(uid)] if uid is not None else list(on_reader):
                if raw in on_reader:
                    on_reader.remove(raw)
                    self._device.tag_removed(reader, raw)

    def roll(self, die: int, face: int | None = None) -> int:
        """Roll a die (a random face unless given); returns the face."""
        faces = dict(self.settings.dice)[die]
        with self._lock:
            face = face if face is not None else self._rng.randint(1, faces)
            self.table.faces[die] = face
            self._device.die_rolled(die, face)
        return face

    def press(self, button: int) -> None:
        with self._lock:
            self._device.button(button, True)

    def release(self, button: int) -> None:
        with self._lock:
            self._device.button(button, False)

    def battery(self, millivolts: int, percent: int) -> None:
        with self._lock:
            self._device.battery(millivolts, percent)

    def random_event(self) -> str:
        """One random, plausible action (for demos): returns what happened."""
        with self._lock:
            reader = self._rng.randrange(self.settings.readers)
            choice = self._rng.random()
            if choice < 0.5:
                if self.table.tags[reader]:
                    self.remove_tag(reader)
                    return f"removed tag from reader {reader}"
                uid = bytes([0x04, *self._rng.randbytes(6)])
                self.put_tag(reader, uid)
                return f"put {uid.hex().upper()} on reader {reader}"
            if choice < 0.8 and self.settings.dice:
                die = self._rng.choice(self.settings.dice)[0]
                return f"rolled die {die}: {self.roll(die)}"
            button = self._rng.choice(self.settings.buttons)
            self.press(button)
            self.release(button)
            return f"pressed button {button}"

    # -- faults --

    def set_faults(self, faults: Faults) -> None:
        with self._lock:
            self.faults = faults

    def unplug(self) -> None:
        """Pull the cable: the pty closes and the stable path disappears. The device keeps running."""
        with self._lock:
            self.counters["unplugs"] += 1
            self._unplug()

    def replug(self) -> None:
        """Plug back in: a new pty behind the same stable path; the device says hello again.

        A no-op while plugged in (two overlapping unplug windows): a second pty would leave the first
        one's master open, so a host still reading it would wait forever for a device that moved on.
        """
        with self._lock:
            if self._master is not None:
                return
            self._plug()
            self._device.link_dropped()

    def reboot(self) -> None:
        """Power cycle: new boot id, queued events lost, die faces forgotten, tags still on readers."""
        with self._lock:
            self.counters["reboots"] += 1
            self.table.faces = {d: 0 for d in self.table.faces}
            self._boot()
            self._device.hello()

    def freeze(self, frozen: bool = True) -> None:
        """A hung firmware: sends nothing, reads nothing (for heartbeat-loss tests)."""
        with self._lock:
            self._frozen = frozen

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` (checked whenever the host sent us something) holds."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout)

    def unacknowledged(self) -> int:
        """Events the device still holds (and re-sends) because the host has not acknowledged them."""
        with self._lock:
            return len(self.link.outbox.entries) if self.link is not None else 0

    @property
    def plugged(self) -> bool:
        return self._master is not None

    # -- internals --

    @property
    def _device(self) -> tcproto.DeviceLink:
        if self.link is None:
            raise RuntimeError("VirtualTable not started")
        return self.link

    def _boot(self) -> None:
        s = self.settings
        first = s.first_seq if s.first_seq is not None and self.link is None else self._rng.randrange(65536)
        self.link = tcproto.DeviceLink(
            self._write,
            lambda: int(self._clock() * 1000),
            {
                "firmware": s.firmware,
                "device_id": s.device_id,
                "readers": s.readers,
                "dice": [(d, faces) for d, faces in s.dice],
                "buttons": list(s.buttons),
            },
            self._snapshot,
            self._rng.getrandbits(32),
            first,
            s.window,
            s.rto_ms,
            s.heartbeat_ms,
            s.hello_ms,
            s.outbox_limit,
            self._led,
            self.identified.append,
            rto_min_ms=s.rto_min_ms,
            rto_max_ms=s.rto_max_ms,
        )

    def _snapshot(self) -> tuple[list[tuple[int, list[bytes]]], list[tuple[int, int]]]:
        tags = [(r, list(uids)) for r, uids in sorted(self.table.tags.items())]
        return tags, sorted(self.table.faces.items())

    def _led(self, led: int, pattern: int, rgb: tuple[int, int, int]) -> None:
        self.leds[led] = (pattern, rgb)

    def _plug(self) -> None:
        master, slave = pty.openpty()
        # Raw at once: a cooked pty would echo our frames back to us and turn 0x0D into 0x0A.
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._rx_split = tcproto.Splitter()
        tmp_link = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_link)
        os.symlink(os.ttyname(slave), tmp_link)
        os.replace(tmp_link, self.path)  # atomic: the host never sees a half-made link

    def _unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError, RuntimeError):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._held = None

    def _write(self, frame: bytes) -> None:
        if self._frozen or self._master is None:
            return  # nobody listening: the outbox re-sends after the timeout
        faults = self.faults
        copies = [frame]
        if faults.duplicate and self._rng.random() < faults.duplicate:
            self.counters["duplicated"] += 1
            copies.append(frame)
        if self._held is None and faults.reorder and self._rng.random() < faults.reorder:
            self.counters["reordered"] += 1
            self._held = frame
            return
        held, self._held = self._held, None
        if held is not None:
            copies.append(held)
        for copy in copies:
            if faults.corrupt and self._rng.random() < faults.corrupt:
                self.counters["corrupted_tx"] += 1
                copy = self._corrupt(copy)
            self._raw_write(copy)

    def _corrupt(self, frame: bytes) -> bytes:
        data = bytearray(frame)
        at = self._rng.randrange(len(data) - 1)  # keep the delimiter so only this frame suffers
        data[at] ^= self._rng.randrange(1, 256)
        return bytes(data)

    def _raw_write(self, data: bytes) -> None:
        if self._master is None:
            return
        self.counters["frames_sent"] += 1
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError):
            pass  # the pty buffer is full (no reader): as on USB, the bytes are lost

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            data = b""
            if master is not None:
                try:
                    ready, _, _ = select.select([master], [], [], 0.005)
                    if ready:
                        data = os.read(master, 4096)
                except (OSError, ValueError):
                    data = b""  # unplugged under us
            else:
                self._stop.wait(0.005)
            with self._lock:
                if self._frozen:
                    continue
                if data:
                    self._receive(data)
                    self._changed.notify_all()
                if self._held is not None:  # never keep a reordered frame back for long
                    held, self._held = self._held, None
                    self._raw_write(held)
                self._device.poll()

    def _receive(self, data: bytes) -> None:
        for chunk in self._rx_split.feed(data):
            if self.faults.corrupt and self._rng.random() < self.faults.corrupt:
                self.counters["corrupted_rx"] += 1
                chunk = self._corrupt(chunk + b"\x00")[:-1]
            self._device.feed(chunk + b"\x00")
