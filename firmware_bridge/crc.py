"""CRC-16 in the Rocksoft/RevEng parameter model; the link uses CRC-16/CCITT-FALSE (IBM-3740).

Parametric so the catalogue rows (XMODEM, KERMIT, the MFRC522's CRC_A, MODBUS) are checked by the
same code as the one we use, which is what makes the catalogue a meaningful test of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _reflect(value: int, width: int) -> int:
    out = 0
    for _ in range(width):
        out = (out << 1) | (value & 1)
        value >>= 1
    return out


def _table(poly: int) -> tuple[int, ...]:
    rows = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ poly) if crc & 0x8000 else (crc << 1)
        rows.append(crc & 0xFFFF)
    return tuple(rows)


@dataclass(frozen=True)
class Crc16:
    """One CRC-16 algorithm: ``Crc16(...).compute(b"123456789") == check``."""

    name: str
    poly: int
    init: int
    refin: bool
    refout: bool
    xorout: int
    check: int
    _table: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_table", _table(self.poly))

    def compute(self, data: bytes | bytearray | memoryview) -> int:
        # MSB-first register; a reflected-input CRC feeds each byte mirrored, which keeps ``init``
        # exactly as the catalogue states it.
        crc = self.init
        table = self._table
        for byte in bytes(data):
            if self.refin:
                byte = _REFLECT8[byte]
            crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
        if self.refout:
            crc = _reflect(crc, 16)
        return crc ^ self.xorout


_REFLECT8 = tuple(_reflect(b, 8) for b in range(256))

CCITT_FALSE = Crc16("CRC-16/IBM-3740", 0x1021, 0xFFFF, False, False, 0x0000, 0x29B1)
XMODEM = Crc16("CRC-16/XMODEM", 0x1021, 0x0000, False, False, 0x0000, 0x31C3)
KERMIT = Crc16("CRC-16/KERMIT", 0x1021, 0x0000, True, True, 0x0000, 0x2189)
CRC_A = Crc16("CRC-16/ISO-IEC-14443-3-A", 0x1021, 0xC6C6, True, True, 0x0000, 0xBF05)
MODBUS = Crc16("CRC-16/MODBUS", 0x8005, 0xFFFF, True, True, 0x0000, 0x4B37)
CATALOGUE = (CCITT_FALSE, XMODEM, KERMIT, CRC_A, MODBUS)


def crc16_ccitt_false(data: bytes | bytearray | memoryview) -> int:
    """The link's CRC: appended big-endian, so the CRC over frame + CRC is 0."""
    return CCITT_FALSE.compute(data)
