"""A fake USB keyboard RFID reader: it writes real ``struct input_event`` records, as the kernel would.

``FakeKeyboardReader.opener`` stands in for ``hid_readers.open_grabbed``: it hands the reader the read
end of a pipe, and ``show_card`` writes what a real reader types for a card (each key pressed,
released, a SYN_REPORT after each; Enter last), so the reader's own decoding runs unchanged.
"""

from __future__ import annotations

import os

from hardware.hid_keys import CODES, EV_KEY, EV_SYN, KEY_ENTER, KEY_LEFTSHIFT, pack


def key_events(text: str) -> bytes:
    """The events a reader sends to type ``text`` and Enter (capitals with Shift held)."""
    out = bytearray()
    for char in text:
        code = CODES[char.lower()]
        shifted = char.isupper()
        if shifted:
            out += pack(EV_KEY, KEY_LEFTSHIFT, 1) + pack(EV_SYN, 0, 0)
        out += pack(EV_KEY, code, 1) + pack(EV_SYN, 0, 0) + pack(EV_KEY, code, 0) + pack(EV_SYN, 0, 0)
        if shifted:
            out += pack(EV_KEY, KEY_LEFTSHIFT, 0) + pack(EV_SYN, 0, 0)
    out += pack(EV_KEY, KEY_ENTER, 1) + pack(EV_SYN, 0, 0) + pack(EV_KEY, KEY_ENTER, 0) + pack(EV_SYN, 0, 0)
    return bytes(out)


class FakeKeyboardReader:
    def __init__(self, path: str) -> None:
        self.path = path
        self._read_end: int | None = None
        self._write_end: int | None = None
        self.plugged = True
        self.opens = 0

    def opener(self, path: str) -> int:
        """For ``HidReader(opener=...)``: the device node, if it is this reader's and plugged in."""
        if path != self.path or not self.plugged:
            raise FileNotFoundError(2, "No such file or directory", path)
        self._read_end, self._write_end = os.pipe()
        self.opens += 1
        return os.dup(self._read_end)

    def show_card(self, text: str) -> None:
        """A card held to the reader: it types ``text`` and Enter, in one write (as one USB report burst)."""
        if self._write_end is None:
            raise RuntimeError("the reader was never opened")
        os.write(self._write_end, key_events(text))

    def type_raw(self, data: bytes) -> None:
        assert self._write_end is not None
        os.write(self._write_end, data)

    def unplug(self) -> None:
        self.plugged = False
        self.close()

    def close(self) -> None:
        for fd in (self._read_end, self._write_end):
            if fd is not None:
                os.close(fd)
        self._read_end = self._write_end = None
