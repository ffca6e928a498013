"""Published framing vectors (shared/reference/framing-vectors.md), for the host and firmware codecs."""

from __future__ import annotations

CHECK_INPUT = b"123456789"

# (name, width, poly, init, refin, refout, xorout, check) from the RevEng catalogue
CRC16_CATALOGUE = [
    ("CRC-16/IBM-3740", 0x1021, 0xFFFF, False, False, 0x0000, 0x29B1),
    ("CRC-16/XMODEM", 0x1021, 0x0000, False, False, 0x0000, 0x31C3),
    ("CRC-16/KERMIT", 0x1021, 0x0000, True, True, 0x0000, 0x2189),
    ("CRC-16/ISO-IEC-14443-3-A", 0x1021, 0xC6C6, True, True, 0x0000, 0xBF05),
    ("CRC-16/MODBUS", 0x8005, 0xFFFF, True, True, 0x0000, 0x4B37),
]
CRC32_ISO_HDLC_CHECK = 0xCBF43926


def _h(text: str) -> bytes:
    return bytes.fromhex(text)


_01_FE = bytes(range(0x01, 0xFF))
COBS_VECTORS = [  # (decoded, encoded without the trailing 0x00)
    (b"", _h("01")),
    (_h("31"), _h("02 31")),
    (_h("31 32 33 34 35"), _h("06 31 32 33 34 35")),
    (_h("31 32 33 34 35 00 36 37 38 39"), _h("06 31 32 33 34 35 05 36 37 38 39")),
    (_h("00 31 32 33 34 35 00 36 37 38 39"), _h("01 06 31 32 33 34 35 05 36 37 38 39")),
    (_h("31 32 33 34 35 00 36 37 38 39 00"), _h("06 31 32 33 34 35 05 36 37 38 39 01")),
    (_h("00"), _h("01 01")),
    (_h("00 00"), _h("01 01 01")),
    (_h("00 00 00"), _h("01 01 01 01")),
    (_h("00 11 00"), _h("01 02 11 01")),
    (_h("11 22 00 33"), _h("03 11 22 02 33")),
    (_h("11 00 00 00"), _h("02 11 01 01 01")),
    (_01_FE, b"\xff" + _01_FE),
    (bytes(range(0x00, 0xFF)), b"\x01\xff" + _01_FE),
    (bytes(range(0x01, 0x100)), b"\xff" + _01_FE + b"\x02\xff"),
    (bytes(range(0x02, 0x100)) + b"\x00", b"\xff" + bytes(range(0x02, 0x100)) + b"\x01\x01"),
    (bytes(range(0x03, 0x100)) + b"\x00\x01", b"\xfe" + bytes(range(0x03, 0x100)) + b"\x02\x01"),
]
COBS_DECODE_FAILURES = [_h("00"), _h("05 31 32 33"), _h("05 31 32 33 34 00"), _h("05 31 32 00 34")]

# Golden frames of our own protocol (version 2), pinned so the host and firmware agree on the wire
# format. (type, seq, payload hex, wire hex including the 0x00 delimiter); CRCs cross-checked with
# the standard library's binascii.crc_hqx(data, 0xFFFF), an independent CCITT-FALSE implementation,
# and the COBS with a textbook encoder written apart from both codecs.
GOLDEN_FRAMES = [
    # HEARTBEAT seq 7, uptime 1000 ms
    (0x02, 0x0007, "000003e8", "0302020207010503e890da00"),
    # TAG_PRESENT seq 0xFFFF, reader 2, 7-byte UID
    (0x10, 0xFFFF, "020704a1b2c3d4e5f6", "100210ffff020704a1b2c3d4e5f6beab00"),
    # ACK of seq 0x1234 for boot 0xDEADBEEF, holding 0x1236, 0x1238 and 0x1275 after the gap at 0x1235
    # (held = bits 0, 2 and 63)
    (0x04, 0x0001, "1234deadbeef8000000000000005", "03020409011234deadbeef80010101010104050c1300"),
    # RESYNC, empty payload
    (0x42, 0x0000, "", "03024201031a6500"),
    # DIE_ROLLED seq 0x0100: die 1 came to rest on face 6
    (0x12, 0x0100, "0106", "04021201050106e0ca00"),
    # HELLO: firmware 000200 (0.2.0), boot 0000b007, next_seq 0028 (40), 04 "pico", 04 readers,
    # 02 dice: 00 with 14 (20) faces and 01 with 06, 01 button: 00
    (
        0x01,
        0x0028,
        "0002000000b0070028047069636f0402001401060100",
        "03020102280202010103b0070928047069636f0402051401060103a81800",
    ),
]

LEGACY_V1_HEARTBEAT = bytes.fromhex("0301020207010503e858af00")
"""A HEARTBEAT from firmware 0.1 (protocol version 1): intact, but not ours any more."""
