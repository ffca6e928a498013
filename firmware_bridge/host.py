"""The host side of the protocol without I/O: bytes in, ACKs and observations out, timers on ``tick``.

``HostLink`` owns the port and the thread; this class owns the meaning, so it can be driven by a
test byte by byte with a fake clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from companion.observations import (
    ButtonId,
    ButtonPressed,
    DieId,
    DieRolled,
    Observation,
    ReaderId,
    TagGone,
    TagSeen,
    TagUid,
)
from firmware_bridge import messages as m
from firmware_bridge.clock import DeviceClock
from firmware_bridge.errors import FrameError, PayloadError, UnknownMessageError, UnknownVersionError
from firmware_bridge.frames import VERSION, Frame, FrameReader
from firmware_bridge.reliability import Receiver, Verdict
from firmware_bridge.status import DeviceStatus, LinkState

log = logging.getLogger(__name__)

VERSION_ERROR_PREFIX = "the board speaks serial protocol"


@dataclass(frozen=True)
class LinkSettings:
    baudrate: int = 115200
    hello_timeout: float = 0.25
    """Seconds to wait for HELLO after opening (and between RESYNCs) before asking again."""
    heartbeat_timeout: float = 2.0
    """Seconds without a valid frame before a connected device is marked lost."""
    backoff_initial: float = 0.05
    backoff_max: float = 2.0
    read_timeout: float = 0.02
    status_interval: float = 1.0
    """Least seconds between status reports when only counters changed (state changes go at once)."""


def uid_hex(uid: bytes) -> TagUid:
    return TagUid(uid.hex().upper())


class HostProtocol:
    def __init__(
        self,
        send: Callable[[bytes], None],
        observe: Callable[[Observation], None],
        settings: LinkSettings,
        clock: Callable[[], float],
        wall_clock: Callable[[], float],
    ) -> None:
        self._send = send
        self._observe = observe
        self.settings = settings
        self._clock = clock
        self._wall = wall_clock
        self.status = DeviceStatus()
        self._reader = FrameReader()
        self._rx: Receiver[Frame] | None = None
        self._boot_id: int | None = None
        self._tags: set[tuple[int, bytes]] = set()
        self._last_frame = 0.0
        self._next_resync = 0.0
        self._tx_seq = 0
        self._faces: dict[int, int] = {}
        """Faces of each die, from the HELLO (the table's dice data says what they show)."""
        self.device_clock = DeviceClock()
        """The board's millisecond stamps on our monotonic clock (``ButtonPressed.at``)."""
        self.changed = True
        """Set when the status changed; ``HostLink`` clears it when it reports."""
        self.state_changed = True
        self._ack_due = False
        self.greeted = False
        """True once a HELLO arrived since the port was last opened."""

    # -- port events --

    def opened(self, port: str, path: str | None) -> None:
        self._reader = FrameReader()  # whatever half-frame was buffered belongs to the old port
        self.status.port, self.status.path, self.status.error = port, path, None
        self._next_resync = self._clock() + self.settings.hello_timeout
        self.greeted = False
        self._set_state(LinkState.CONNECTING)

    def closed(self, error: str | None, state: LinkState = LinkState.SEARCHING) -> None:
        self.status.error = error
        self.status.path = None
        self._set_state(state)

    # -- incoming --

    def receive(self, data: bytes) -> None:
        for item in self._reader.feed(data):
            if isinstance(item, Frame):
                self._frame(item)
            elif isinstance(item, UnknownVersionError):
                self._count("unknown_versions")
                self._wrong_version(item.version)
            else:
                self._count("corrupt")
                # A NAK: the damaged frame may have been an event, so say at once what we hold and
                # the device re-sends what is missing instead of waiting for its timer.
                if self.status.state is LinkState.CONNECTED:
                    self._ack_due = True
        # One cumulative ACK per batch read covers every event in it, and its bitmap names the
        # events held after a gap: half the frames of one ACK per event.
        if self._ack_due and self._rx is not None and self._boot_id is not None:
            self._ack_due = False
            self._send_message(m.Ack(self._rx.last_delivered, self._boot_id, self._rx.held_bitmap()))

    def _frame(self, frame: Frame) -> None:
        now = self._clock()
        self._last_frame = now
        self.status.last_heard = self._wall()
        self._count("frames_ok")
        if frame.type in m.RELIABLE:
            self._event(frame)
            return
        try:
            msg = m.parse(frame)
        except FrameError as exc:
            self._bad(exc)
            return
        if isinstance(msg, m.Hello):
            self._hello(msg)
        elif isinstance(msg, m.Heartbeat):
            self.status.uptime_ms = msg.uptime_ms
            self.device_clock.sample(msg.uptime_ms, now)
        elif isinstance(msg, m.Battery):
            self.status.battery = (msg.millivolts, msg.percent)
            self.changed = True

    def _hello(self, hello: m.Hello) -> None:
        if hello.boot_id != self._boot_id:
            # A new boot (or a host that never met this one): its sequence starts where it says.
            if self._boot_id is not None:
                self._count("device_restarts")
            self._boot_id = hello.boot_id
            self._rx = Receiver[Frame](hello.next_seq)
            self.device_clock.reset()  # a new boot counts its uptime from zero again
            log.info(
                "device %s firmware %s boot %08X", hello.device_id, hello.firmware_version, hello.boot_id
            )
        self.status.hello = hello
        self._faces = {d.die: d.faces for d in hello.dice if d.faces}
        if self.status.error is not None and self.status.error.startswith(VERSION_ERROR_PREFIX):
            self.status.error = None
        self.greeted = True
        self._set_state(LinkState.CONNECTED)

    def _event(self, frame: Frame) -> None:
        rx = self._rx
        if self.status.state is not LinkState.CONNECTED or rx is None or self._boot_id is None:
            self._count("before_hello")  # not acknowledged: the device sends it again after HELLO
            return
        if rx.is_retransmit(frame.seq):
            self._count("retransmits_seen")
        verdict, ready = rx.accept(frame.seq, frame)
        if verdict is Verdict.DUPLICATE:
            self._count("duplicates")
        elif verdict is Verdict.AHEAD:
            self._count("out_of_order")
        for event in ready:
            self._count("events")
            try:
                self._apply(m.parse(event))
            except FrameError as exc:
                # Acknowledged all the same: an event we cannot read must not block the ones behind it.
                self._bad(exc)
        self._ack_due = True

    def _wrong_version(self, version: int) -> None:
        """Intact frames of another protocol: the board needs other firmware (or we are too old)."""
        if version < VERSION:
            advice = "copy the firmware in firmware_bridge/firmware onto the board (its README: Flashing)"
        else:
            advice = "update the companion"
        error = f"{VERSION_ERROR_PREFIX} {version} and this companion speaks {VERSION}: {advice}"
        if self.status.error != error:
            log.warning("%s", error)
            self.status.error = error
            self.state_changed = True
        self.changed = True

    def _bad(self, exc: FrameError) -> None:
        self._count("unknown_types" if isinstance(exc, UnknownMessageError) else "bad_payloads")
        if isinstance(exc, PayloadError):
            log.warning("bad payload: %s", exc)

    def _apply(self, msg: m.Message) -> None:
        at = self._clock()
        if isinstance(msg, m.TagRemoved):  # before TagPresent: TagRemoved subclasses it
            self._tags.discard((msg.reader, msg.uid))
            self._sync_tags()
            self._observe(TagGone(ReaderId(msg.reader), uid_hex(msg.uid), at))
        elif isinstance(msg, m.TagPresent):
            self._tags.add((msg.reader, msg.uid))
            self._sync_tags()
            self._observe(TagSeen(ReaderId(msg.reader), uid_hex(msg.uid), at))
        elif isinstance(msg, m.DieRolled):
            self.status.dice[msg.die] = msg.face
            self._observe(DieRolled(DieId(msg.die), msg.face, at, self._faces.get(msg.die)))
        elif isinstance(msg, m.Button):
            # Every edge bounds the clock offset (it was sent no earlier than it was stamped).
            self.device_clock.sample(msg.device_ms, at)
            if msg.pressed:
                pressed_at = self.device_clock.to_host(msg.device_ms)  # never None: just sampled
                when = at if pressed_at is None else pressed_at
                self._observe(ButtonPressed(ButtonId(str(msg.button)), when, "firmware"))
        elif isinstance(msg, m.StateReport):
            self._count("state_reports")
            self._reconcile(msg, at)

    def _reconcile(self, report: m.StateReport, at: float) -> None:
        """Make our picture the device's: tags it no longer has are gone, new ones are seen.

        Die faces only update the status: a face that is up is not a new roll, and a roll must never
        be applied twice.
        """
        present = {(r.reader, uid) for r in report.readers for uid in r.uids}
        for reader, uid in sorted(self._tags - present):
            self._observe(TagGone(ReaderId(reader), uid_hex(uid), at))
        for reader, uid in sorted(present - self._tags):
            self._observe(TagSeen(ReaderId(reader), uid_hex(uid), at))
        self._tags = present
        self._sync_tags()
        self.status.dice = {d.die: d.face for d in report.dice if d.face}

    def _sync_tags(self) -> None:
        tags: dict[int, list[str]] = {}
        for reader, uid in sorted(self._tags):
            tags.setdefault(reader, []).append(uid_hex(uid))
        self.status.tags = tags
        self.changed = True

    # -- outgoing --

    def _send_message(self, msg: m.Message) -> None:
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF  # informational: host frames are not acknowledged
        self._send(m.to_frame(msg, self._tx_seq).encode())

    def send_message(self, msg: m.Message) -> None:
        """LED, IDENTIFY or RESYNC from the application."""
        if isinstance(msg, m.Resync):
            self._count("resyncs_sent")
        self._send_message(msg)

    # -- timers --

    def tick(self) -> None:
        now = self._clock()
        state = self.status.state
        if state is LinkState.CONNECTED and now - self._last_frame > self.settings.heartbeat_timeout:
            log.warning("no heartbeat for %.1f s: device lost", now - self._last_frame)
            self._set_state(LinkState.LOST)
            state = LinkState.LOST
            self._next_resync = now
        if state in (LinkState.CONNECTING, LinkState.LOST) and now >= self._next_resync:
            # Opening the port may have reset the board, or its HELLO fell before we listened: ask.
            self._next_resync = now + self.settings.hello_timeout
            self.send_message(m.Resync())

    # -- helpers --

    def _set_state(self, state: LinkState) -> None:
        if state is not self.status.state:
            self.status.state = state
            self.state_changed = True
        self.changed = True

    def _count(self, name: str) -> None:
        counters = self.status.counters
        setattr(counters, name, getattr(counters, name) + 1)
        self.changed = True
