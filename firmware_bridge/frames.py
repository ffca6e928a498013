"""Frames on the wire: ``COBS([version u8][type u8][seq u16 BE][payload][crc16 BE]) 0x00``."""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass

from firmware_bridge import cobs
from firmware_bridge.crc import crc16_ccitt_false
from firmware_bridge.errors import CrcError, FrameError, FrameLengthError, UnknownVersionError

VERSION = 2
"""2: dice by number of faces (no die kinds on the wire) and the ACK's held bitmap (docs/protocol.md)."""
HEADER = struct.Struct(">BBH")
MIN_FRAME = HEADER.size + 2
MAX_FRAME = 512
"""Largest decoded frame (header, payload and CRC) either side accepts."""
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1


@dataclass(frozen=True)
class Frame:
    """One decoded frame. ``Frame.from_bytes(f.to_bytes()) == f``; ``encode()`` adds COBS and 0x00."""

    type: int
    seq: int
    payload: bytes = b""
    version: int = VERSION

    def __post_init__(self) -> None:
        if not (0 <= self.type <= 0xFF and 0 <= self.seq <= 0xFFFF and 0 <= self.version <= 0xFF):
            raise FrameLengthError(f"header field out of range in {self!r}")
        if len(self.payload) > MAX_FRAME - MIN_FRAME:
            raise FrameLengthError(f"payload of {len(self.payload)} bytes is over the frame limit")

    def to_bytes(self) -> bytes:
        body = HEADER.pack(self.version, self.type, self.seq) + bytes(self.payload)
        return body + crc16_ccitt_false(body).to_bytes(2, "big")

    @classmethod
    def from_bytes(cls, raw: bytes | bytearray | memoryview) -> Frame:
        raw = bytes(raw)
        if not MIN_FRAME <= len(raw) <= MAX_FRAME:
            raise FrameLengthError(f"frame of {len(raw)} bytes (allowed {MIN_FRAME}..{MAX_FRAME})")
        if crc16_ccitt_false(raw) != 0:  # CRC over message + CRC leaves a zero residue
            raise CrcError(f"CRC mismatch in {raw.hex()}")
        version, msg_type, seq = HEADER.unpack_from(raw)
        if version != VERSION:
            raise UnknownVersionError(version)
        return cls(msg_type, seq, raw[HEADER.size : -2], version)

    def encode(self) -> bytes:
        """Wire bytes, delimiter included."""
        return cobs.encode(self.to_bytes()) + b"\x00"

    @classmethod
    def decode(cls, chunk: bytes | bytearray | memoryview) -> Frame:
        """One wire chunk without its 0x00 delimiter."""
        return cls.from_bytes(cobs.decode(chunk))


class FrameReader:
    """Streaming splitter: feed it bytes as they arrive, get back frames and errors in order.

    Garbage before a 0x00 decodes to an error and is skipped, so the reader is back in step at the
    next delimiter. A run longer than any frame is dropped without buffering it (a stuck line must
    not grow memory) and reported once.
    """

    def __init__(self, max_encoded: int = MAX_ENCODED) -> None:
        self._max = max_encoded
        self._buf = bytearray()
        self._oversize = False

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame | FrameError]:
        out: list[Frame | FrameError] = []
        view = bytes(data)
        start = 0
        while True:
            zero = view.find(0, start)
            piece = view[start:] if zero < 0 else view[start:zero]
            if not self._oversize:
                self._buf += piece
                if len(self._buf) > self._max:
                    self._oversize = True
                    self._buf.clear()
            if zero < 0:
                return out
            if self._oversize:
                out.append(FrameLengthError(f"run of more than {self._max} bytes without a delimiter"))
            elif self._buf:  # empty chunks (0x00 0x00) are idle line / resync, not frames
                out.append(self._decode(self._buf))
            self._buf = bytearray()
            self._oversize = False
            start = zero + 1

    @staticmethod
    def _decode(chunk: bytes | bytearray) -> Frame | FrameError:
        try:
            return Frame.decode(chunk)
        except FrameError as exc:
            return exc


def encode_all(frames: Iterable[Frame]) -> bytes:
    return b"".join(frame.encode() for frame in frames)
