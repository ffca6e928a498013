"""Consistent Overhead Byte Stuffing (Cheshire & Baker): frames without 0x00, so 0x00 delimits them."""

from __future__ import annotations

from firmware_bridge.errors import CobsError


def encode(data: bytes | bytearray | memoryview) -> bytes:
    """COBS-encode ``data``; the result holds no 0x00 and is at most ``len + 1 + len // 254`` long."""
    data = bytes(data)
    out = bytearray()
    start = 0
    n = len(data)
    while True:
        # One block: up to 254 non-zero bytes, then (implied) the zero that ended them.
        end = start
        while end < n and data[end] != 0 and end - start < 254:
            end += 1
        out.append(end - start + 1)
        out += data[start:end]
        if end == n:
            return bytes(out)
        if end - start == 254:  # a full block implies no zero: carry on from the same place
            start = end
            continue
        start = end + 1  # skip the zero this block stands for
        if start == n:  # a trailing zero needs a final empty block to say so
            out.append(1)
            return bytes(out)


def decode(data: bytes | bytearray | memoryview) -> bytes:
    """Inverse of ``encode``; raises ``CobsError`` for anything ``encode`` cannot have produced."""
    data = bytes(data)
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise CobsError(f"zero byte at offset {i}")
        end = i + code
        if end > n:
            raise CobsError(f"block at offset {i} needs {code - 1} bytes, {n - i - 1} left")
        block = data[i + 1 : end]
        if 0 in block:
            raise CobsError(f"zero byte inside the block at offset {i}")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
