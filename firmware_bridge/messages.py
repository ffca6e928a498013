"""Typed messages of the protocol, each with paired ``to_payload()`` / ``from_payload()``.

Receivers ignore trailing payload bytes so a later minor version may append fields.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar, Self

from firmware_bridge.errors import PayloadError, UnknownMessageError
from firmware_bridge.frames import Frame


class MsgType(IntEnum):
    HELLO = 0x01
    HEARTBEAT = 0x02
    BATTERY = 0x03
    ACK = 0x04
    TAG_PRESENT = 0x10
    TAG_REMOVED = 0x11
    DIE_ROLLED = 0x12
    BUTTON = 0x13
    STATE = 0x14
    LED = 0x40
    IDENTIFY = 0x41
    RESYNC = 0x42


RELIABLE = range(0x10, 0x40)
"""Device events: sequenced, acknowledged and delivered in order (unknown ones too, then skipped)."""

UID_LENGTHS = (4, 7, 10)


class _Cursor:
    """Reads fields off a payload; running short is a ``PayloadError``, never an IndexError."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise PayloadError(f"payload ends at {len(self.data)}, field needs {self.at + n}")
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def u8(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return int.from_bytes(self.take(2), "big")

    def u32(self) -> int:
        return int.from_bytes(self.take(4), "big")

    def uid(self) -> bytes:
        n = self.u8()
        if n not in UID_LENGTHS:
            raise PayloadError(f"UID length {n} (must be 4, 7 or 10)")
        return self.take(n)


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise PayloadError(what)


def _u8(*values: int) -> None:
    _check(all(0 <= v <= 0xFF for v in values), f"u8 out of range in {values}")


def _uid(uid: bytes) -> None:
    _check(len(uid) in UID_LENGTHS, f"UID of {len(uid)} bytes (must be 4, 7 or 10)")


@dataclass(frozen=True)
class DieInfo:
    """A die the device has: its number and how many faces it has (0: the device does not know).
    What each face shows is the table's dice data; the protocol names no game's dice."""

    die: int
    faces: int

    def __post_init__(self) -> None:
        _u8(self.die, self.faces)


@dataclass(frozen=True)
class Hello:
    """Device → host, unsequenced: who I am, what I have, where my event sequence resumes."""

    TYPE: ClassVar[MsgType] = MsgType.HELLO
    firmware: tuple[int, int, int]
    boot_id: int
    next_seq: int
    device_id: str
    readers: int
    dice: tuple[DieInfo, ...] = ()
    buttons: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _u8(*self.firmware, self.readers, *self.buttons)
        _check(len(self.firmware) == 3, "firmware is (major, minor, patch)")
        _check(0 <= self.boot_id <= 0xFFFFFFFF and 0 <= self.next_seq <= 0xFFFF, "boot_id/next_seq range")
        _check(len(self.device_id.encode()) <= 32, "device_id longer than 32 bytes")
        _check(len(self.dice) <= 255 and len(self.buttons) <= 255, "too many dice or buttons")

    @property
    def firmware_version(self) -> str:
        return ".".join(map(str, self.firmware))

    def to_payload(self) -> bytes:
        name = self.device_id.encode()
        out = struct.pack(">BBBIH", *self.firmware, self.boot_id, self.next_seq)
        out += bytes([len(name)]) + name + bytes([self.readers, len(self.dice)])
        out += b"".join(bytes([d.die, d.faces]) for d in self.dice)
        return out + bytes([len(self.buttons), *self.buttons])

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        firmware = (c.u8(), c.u8(), c.u8())
        boot_id, next_seq = c.u32(), c.u16()
        try:
            device_id = c.take(c.u8()).decode()
        except UnicodeDecodeError as exc:
            raise PayloadError(f"device id is not UTF-8: {exc}") from None
        readers = c.u8()
        dice = tuple(DieInfo(c.u8(), c.u8()) for _ in range(c.u8()))
        buttons = tuple(c.take(c.u8()))
        return cls(firmware, boot_id, next_seq, device_id, readers, dice, buttons)


@dataclass(frozen=True)
class Heartbeat:
    """Device → host every 500 ms: I am alive (uptime in ms, wraps at 2**32)."""

    TYPE: ClassVar[MsgType] = MsgType.HEARTBEAT
    uptime_ms: int

    def __post_init__(self) -> None:
        _check(0 <= self.uptime_ms <= 0xFFFFFFFF, "uptime range")

    def to_payload(self) -> bytes:
        return self.uptime_ms.to_bytes(4, "big")

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        return cls(_Cursor(payload).u32())


@dataclass(frozen=True)
class Battery:
    """Device → host: battery voltage in mV and charge in percent (255 = not known)."""

    TYPE: ClassVar[MsgType] = MsgType.BATTERY
    millivolts: int
    percent: int

    def __post_init__(self) -> None:
        _check(0 <= self.millivolts <= 0xFFFF, "millivolts range")
        _u8(self.percent)

    def to_payload(self) -> bytes:
        return struct.pack(">HB", self.millivolts, self.percent)

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        return cls(c.u16(), c.u8())


@dataclass(frozen=True)
class Ack:
    """Host → device: every event of boot ``boot_id`` up to and including ``seq`` arrived in order,
    and the host holds event ``seq + 2 + i`` (after the gap at ``seq + 1``) for each bit i of ``held``.

    Cumulative. The boot id makes a device that restarted ignore ACKs meant for its previous life.
    ``held`` (selective acknowledgement) lets the device re-send only what is missing.
    """

    TYPE: ClassVar[MsgType] = MsgType.ACK
    seq: int
    boot_id: int
    held: int = 0

    def __post_init__(self) -> None:
        _check(0 <= self.seq <= 0xFFFF and 0 <= self.boot_id <= 0xFFFFFFFF, "seq/boot_id range")
        _check(0 <= self.held < 1 << 64, "held bitmap range")

    def to_payload(self) -> bytes:
        return struct.pack(">HIQ", self.seq, self.boot_id, self.held)

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        seq, boot_id = c.u16(), c.u32()
        return cls(seq, boot_id, int.from_bytes(c.take(8), "big") if len(payload) >= 14 else 0)


@dataclass(frozen=True)
class TagPresent:
    """Device event: a tag arrived on a reader."""

    TYPE: ClassVar[MsgType] = MsgType.TAG_PRESENT
    reader: int
    uid: bytes

    def __post_init__(self) -> None:
        _u8(self.reader)
        _uid(self.uid)

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    def to_payload(self) -> bytes:
        return bytes([self.reader, len(self.uid)]) + self.uid

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        return cls(c.u8(), c.uid())


@dataclass(frozen=True)
class TagRemoved(TagPresent):
    """Device event: a tag left a reader."""

    TYPE: ClassVar[MsgType] = MsgType.TAG_REMOVED


@dataclass(frozen=True)
class DieRolled:
    """Device event: die number ``die`` came to rest on face index ``face`` (1-based)."""

    TYPE: ClassVar[MsgType] = MsgType.DIE_ROLLED
    die: int
    face: int

    def __post_init__(self) -> None:
        _u8(self.die, self.face)
        _check(self.face >= 1, "a rolled face is 1-based")

    def to_payload(self) -> bytes:
        return bytes([self.die, self.face])

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        return cls(c.u8(), c.u8())


@dataclass(frozen=True)
class Button:
    """Device event: a button edge, timed on the device clock (ms, wraps at 2**32)."""

    TYPE: ClassVar[MsgType] = MsgType.BUTTON
    button: int
    pressed: bool
    device_ms: int

    def __post_init__(self) -> None:
        _u8(self.button)
        _check(0 <= self.device_ms <= 0xFFFFFFFF, "device_ms range")

    def to_payload(self) -> bytes:
        return struct.pack(">BBI", self.button, int(self.pressed), self.device_ms)

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        button, edge, device_ms = c.u8(), c.u8(), c.u32()
        _check(edge in (0, 1), f"button edge {edge}")
        return cls(button, bool(edge), device_ms)


@dataclass(frozen=True)
class ReaderTags:
    reader: int
    uids: tuple[bytes, ...] = ()

    def __post_init__(self) -> None:
        _u8(self.reader, len(self.uids))
        for uid in self.uids:
            _uid(uid)


@dataclass(frozen=True)
class DieFace:
    die: int
    face: int
    """0 when the device does not know the face (never rolled since boot)."""

    def __post_init__(self) -> None:
        _u8(self.die, self.face)


@dataclass(frozen=True)
class StateReport:
    """Device event: everything on the readers and every die face now (after HELLO or RESYNC)."""

    TYPE: ClassVar[MsgType] = MsgType.STATE
    reason: int
    readers: tuple[ReaderTags, ...] = ()
    dice: tuple[DieFace, ...] = ()

    HELLO: ClassVar[int] = 0
    RESYNC: ClassVar[int] = 1
    OVERFLOW: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _u8(self.reason, len(self.readers), len(self.dice))

    def to_payload(self) -> bytes:
        out = bytearray([self.reason, len(self.readers)])
        for r in self.readers:
            out += bytes([r.reader, len(r.uids)])
            for uid in r.uids:
                out += bytes([len(uid)]) + uid
        out.append(len(self.dice))
        for d in self.dice:
            out += bytes([d.die, d.face])
        return bytes(out)

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        reason = c.u8()
        readers = []
        for _ in range(c.u8()):
            reader = c.u8()
            readers.append(ReaderTags(reader, tuple(c.uid() for _ in range(c.u8()))))
        dice = tuple(DieFace(c.u8(), c.u8()) for _ in range(c.u8()))
        return cls(reason, tuple(readers), dice)


@dataclass(frozen=True)
class Led:
    """Host → device: set an LED (0 = status LED) to a pattern and colour."""

    TYPE: ClassVar[MsgType] = MsgType.LED
    led: int
    pattern: int
    rgb: tuple[int, int, int] = (255, 255, 255)

    OFF: ClassVar[int] = 0
    ON: ClassVar[int] = 1
    BLINK: ClassVar[int] = 2
    PULSE: ClassVar[int] = 3

    def __post_init__(self) -> None:
        _u8(self.led, self.pattern, *self.rgb)
        _check(len(self.rgb) == 3, "rgb is three bytes")

    def to_payload(self) -> bytes:
        return bytes([self.led, self.pattern, *self.rgb])

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        c = _Cursor(payload)
        led, pattern = c.u8(), c.u8()
        return cls(led, pattern, (c.u8(), c.u8(), c.u8()))


@dataclass(frozen=True)
class Identify:
    """Host → device: blink so a person can tell which board this is."""

    TYPE: ClassVar[MsgType] = MsgType.IDENTIFY
    duration_ms: int = 3000

    def __post_init__(self) -> None:
        _check(0 <= self.duration_ms <= 0xFFFF, "duration range")

    def to_payload(self) -> bytes:
        return self.duration_ms.to_bytes(2, "big")

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        return cls(_Cursor(payload).u16())


@dataclass(frozen=True)
class Resync:
    """Host → device: say HELLO again and report your full state."""

    TYPE: ClassVar[MsgType] = MsgType.RESYNC

    def to_payload(self) -> bytes:
        return b""

    @classmethod
    def from_payload(cls, payload: bytes) -> Self:
        return cls()


Message = (
    Hello
    | Heartbeat
    | Battery
    | Ack
    | TagPresent
    | TagRemoved
    | DieRolled
    | Button
    | StateReport
    | Led
    | Identify
    | Resync
)
MESSAGES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        Heartbeat,
        Battery,
        Ack,
        TagPresent,
        TagRemoved,
        DieRolled,
        Button,
        StateReport,
        Led,
        Identify,
        Resync,
    )
}


def parse(frame: Frame) -> Message:
    """The message a frame carries; ``UnknownMessageError`` / ``PayloadError`` otherwise."""
    cls = MESSAGES.get(frame.type)
    if cls is None:
        raise UnknownMessageError(f"message type 0x{frame.type:02X}")
    return cls.from_payload(frame.payload)


def to_frame(message: Message, seq: int) -> Frame:
    return Frame(message.TYPE, seq & 0xFFFF, message.to_payload())
