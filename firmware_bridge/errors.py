"""What can go wrong decoding the serial protocol: every codec failure is a ``FrameError``."""

from __future__ import annotations


class FrameError(ValueError):
    """Bytes that do not form a valid frame or message; the link counts and skips them."""


class CobsError(FrameError):
    """The COBS encoding is broken (a zero byte inside, or a block running past the end)."""


class CrcError(FrameError):
    """The CRC-16 over the frame does not match: bytes were corrupted on the wire."""


class FrameLengthError(FrameError):
    """The frame is shorter than a header and CRC, or longer than the protocol allows."""


class UnknownVersionError(FrameError):
    """The frame is intact but speaks a protocol version we do not."""

    def __init__(self, version: int) -> None:
        super().__init__(f"protocol version {version}")
        self.version = version


class UnknownMessageError(FrameError):
    """The frame is intact but its message type is not one we know."""


class PayloadError(FrameError):
    """The message type is known but its payload is malformed."""
