"""Pixels dice (Systemic Games) over Bluetooth LE: the published message formats, encoded and decoded.

Source: "Pixels Communications Protocol", GameWithPixels/.github doc/CommunicationsProtocol.md, and the
open-source firmware's src/bluetooth/bluetooth_messages.h (GameWithPixels/DiceFirmware) and SDK
(GameWithPixels/pixels-js, packages/pixels-core-connect: Messages.ts, PixelRollState.ts, DiceUtils.ts).
Messages are little endian; the first byte is the message type.

- Service ``6e400001-b5a3-f393-e0a9-e50e24dcca9e``; the die notifies on the characteristic of the same
  UUID and is written to on ``6e400002-...``.
- WhoAreYou (1, no data) -> IAmADie (2). Legacy firmware answers 22 bytes: LED count, colorway, die
  type, data-set hash (4), Pixel ID (4), available flash (2), build timestamp (4), roll state, face
  index, battery %, battery state. Current firmware answers in chunks, each led by its own size byte:
  version info, die info (Pixel ID (4), chip model, die type, LED count, colorway), custom design
  name, die name, settings info, status info (battery %, battery state, roll state, face index).
- RollState (3): roll state, face index; sent whenever either changes. RequestRollState is 23.
- BatteryLevel (34): battery %, battery state; RequestBatteryLevel is 33.
- Roll states (pixels-js PixelRollState): 0 unknown, 1 rolled, 2 handling, 3 rolling, 4 crooked,
  5 on face (resting without having been rolled). Legacy firmware had no "rolled": 1 was "on face",
  the rest after any movement. Either way a roll is a 1 after a 3 (rolling): see ``RollWatcher``.
- Die types (0 unknown, 1 d4, 2 d6, 3 d8, 4 d10, 5 d00, 6 d12, 7 d20, 8 d6 pipped, 9 d6 fudge) and face
  values from the face index (DiceUtils.faceFromIndex): index + 1, except d10 (index, 0..9),
  d00 (index x 10) and d4 (a d6 body: index 2 -> 2, 3 -> 3, 5 -> 4, else 1).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
REQUEST_BATTERY_LEVEL = 33
BATTERY_LEVEL = 34

ROLLED = 1
HANDLING = 2
ROLLING = 3
CROOKED = 4
ON_FACE = 5
ROLL_STATE_NAMES = {0: "unknown", 1: "rolled", 2: "handling", 3: "rolling", 4: "crooked", 5: "on face"}
DIE_TYPES = {
    0: "unknown",
    1: "d4",
    2: "d6",
    3: "d8",
    4: "d10",
    5: "d00",
    6: "d12",
    7: "d20",
    8: "d6",
    9: "d6-fudge",
}
LEGACY_I_AM_A_DIE_SIZE = 22
_LEGACY = struct.Struct("<BBBBIIHIBBBB")


class PixelsMessageError(ValueError):
    """Bytes from a Pixel that do not make the message their type byte names."""


@dataclass(frozen=True)
class IAmADie:
    pixel_id: int
    die_type: str
    led_count: int
    roll_state: int
    face_index: int
    battery_percent: int
    battery_state: int
    name: str = ""


@dataclass(frozen=True)
class RollState:
    state: int
    face_index: int


@dataclass(frozen=True)
class BatteryLevel:
    percent: int
    state: int


PixelsMessage = IAmADie | RollState | BatteryLevel


def who_are_you() -> bytes:
    return bytes([WHO_ARE_YOU])


def request_battery_level() -> bytes:
    return bytes([REQUEST_BATTERY_LEVEL])


def request_roll_state() -> bytes:
    return bytes([REQUEST_ROLL_STATE])


def parse(data: bytes) -> PixelsMessage | None:
    """The message in a notification, or None for a type we do not use (animations, telemetry...)."""
    if not data:
        raise PixelsMessageError("an empty notification")
    kind = data[0]
    if kind == I_AM_A_DIE:
        return _legacy_i_am_a_die(data) if len(data) == LEGACY_I_AM_A_DIE_SIZE else _chunked_i_am_a_die(data)
    if kind == ROLL_STATE:
        if len(data) < 3:
            raise PixelsMessageError(f"RollState needs 3 bytes, got {len(data)}")
        return RollState(data[1], data[2])
    if kind == BATTERY_LEVEL:
        if len(data) < 3:
            raise PixelsMessageError(f"BatteryLevel needs 3 bytes, got {len(data)}")
        return BatteryLevel(min(data[1], 100), data[2])
    return None


def _legacy_i_am_a_die(data: bytes) -> IAmADie:
    (_, leds, _colorway, die_type, _hash, pixel_id, _flash, _build, roll, face, battery, battery_state) = (
        _LEGACY.unpack(data)
    )
    return IAmADie(
        pixel_id, DIE_TYPES.get(die_type, "unknown"), leds, roll, face, min(battery, 100), battery_state
    )


def _chunked_i_am_a_die(data: bytes) -> IAmADie:
    chunks = []
    offset = 1
    while offset < len(data) and len(chunks) < 6:
        size = data[offset]
        if size == 0 or offset + size > len(data):
            raise PixelsMessageError(f"IAmADie: a chunk of {size} bytes at {offset} runs past {len(data)}")
        chunks.append(data[offset + 1 : offset + size])  # the size byte counts itself
        offset += size
    if len(chunks) < 6:
        raise PixelsMessageError(f"IAmADie: {len(chunks)} chunks, expected 6")
    _version, die_info, _design, name, _settings, status = chunks
    if len(die_info) < 8 or len(status) < 4:
        raise PixelsMessageError("IAmADie: the die info or status chunk is too short")
    pixel_id, _chip, die_type, leds = struct.unpack_from("<IBBB", die_info)
    battery, battery_state, roll, face = status[:4]
    text = name.split(b"\0", 1)[0].decode("utf-8", "replace")
    return IAmADie(
        pixel_id, DIE_TYPES.get(die_type, "unknown"), leds, roll, face, min(battery, 100), battery_state, text
    )


def face_value(die_type: str, face_index: int) -> int:
    """The number the die shows (DiceUtils.faceFromIndex)."""
    if die_type == "d4":
        return {2: 2, 3: 3, 5: 4}.get(face_index, 1)
    if die_type == "d10":
        return face_index
    if die_type == "d00":
        return face_index * 10
    return face_index + 1


def table_face(die_type: str, face_index: int) -> int:
    """The 1-based face the table's dice data counts (companion/data/dice.toml: a d10's 0 is face 10)."""
    value = face_value(die_type, face_index)
    if die_type == "d10":
        return value or 10
    if die_type == "d00":
        return value // 10 or 10
    return value


class RollWatcher:
    """Roll states in, finished rolls out: a face counts only when the die came to rest after rolling."""

    def __init__(self) -> None:
        self._rolling = False

    def update(self, message: RollState) -> int | None:
        """The face index of a finished roll, or None."""
        if message.state == ROLLING:
            self._rolling = True
        elif message.state == ROLLED and self._rolling:
            self._rolling = False
            return message.face_index
        elif message.state in (ON_FACE, CROOKED):
            self._rolling = False  # put down, or cocked: no result to read
        return None


def advertised_pixel_id(service_data: bytes) -> int | None:
    """The Pixel ID in the advertisement's service data (its first 4 bytes, little endian)."""
    return int.from_bytes(service_data[:4], "little") if len(service_data) >= 4 else None
