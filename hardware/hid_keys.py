"""What a USB "keyboard" RFID reader types, read from the kernel's evdev interface (linux/input.h).

Each event is a ``struct input_event``: a timeval, then ``__u16 type, __u16 code, __s32 value`` in the
machine's native layout (24 bytes on a 64-bit Pi OS, 16 on 32-bit). A card is typed as key presses
(EV_KEY, value 1) of digits or hex letters, ended by Enter. Key codes are linux/input-event-codes.h.
"""

from __future__ import annotations

import struct

EVENT = struct.Struct("@llHHi")
EV_SYN = 0x00
EV_KEY = 0x01
KEY_PRESS = 1
KEY_LEFTSHIFT = 42
KEY_RIGHTSHIFT = 54
KEY_ENTER = 28
KEY_KPENTER = 96
EVIOCGRAB = 0x40044590
"""_IOW('E', 0x90, int): while grabbed, the reader's keys reach us only (not the kiosk's browser)."""

_ROW_CODES = {
    **{code: ch for code, ch in zip(range(2, 12), "1234567890", strict=True)},
    **{code: ch for code, ch in zip(range(16, 26), "qwertyuiop", strict=True)},
    **{code: ch for code, ch in zip(range(30, 39), "asdfghjkl", strict=True)},
    **{code: ch for code, ch in zip(range(44, 51), "zxcvbnm", strict=True)},
}
_KEYPAD = {71: "7", 72: "8", 73: "9", 75: "4", 76: "5", 77: "6", 79: "1", 80: "2", 81: "3", 82: "0"}
KEYS: dict[int, str] = {**_ROW_CODES, **_KEYPAD}
"""Key code -> the character it types without shift (US layout, as the readers' firmware assumes)."""
CODES: dict[str, int] = {ch: code for code, ch in _ROW_CODES.items()}


def pack(kind: int, code: int, value: int, seconds: int = 0, micros: int = 0) -> bytes:
    return EVENT.pack(seconds, micros, kind, code, value)


class LineDecoder:
    """Key events in, typed lines out (a line ends at Enter); Shift makes letters upper case."""

    def __init__(self, max_length: int = 64) -> None:
        self._chars: list[str] = []
        self._shift = False
        self._max = max_length

    def feed(self, kind: int, code: int, value: int) -> str | None:
        if kind != EV_KEY:
            return None
        if code in (KEY_LEFTSHIFT, KEY_RIGHTSHIFT):
            self._shift = value != 0
            return None
        if value != KEY_PRESS:  # releases and auto-repeats type nothing new
            return None
        if code in (KEY_ENTER, KEY_KPENTER):
            line, self._chars = "".join(self._chars), []
            return line
        char = KEYS.get(code)
        if char is not None and len(self._chars) < self._max:  # a stuck key cannot grow a line forever
            self._chars.append(char.upper() if self._shift else char)
        return None


def events(data: bytes) -> list[tuple[int, int, int]]:
    """(type, code, value) of every whole event in ``data`` (a read returns whole events only)."""
    size = EVENT.size
    return [EVENT.unpack_from(data, offset)[2:] for offset in range(0, len(data) - size + 1, size)]
