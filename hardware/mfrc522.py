"""The MFRC522 (NXP, 13.56 MHz ISO/IEC 14443-A reader) driven from the Pi over SPI: every tag on a reader.

Register access follows the MFRC522 datasheet (section 8.1.2): the first byte is the address
``0AAAAAA0`` to write, ``1AAAAAA0`` to read; a write transfer's following bytes all go to that address
(how the FIFO is filled in one transfer), a read transfer names the next address in each byte and gets
the previous one's value back (how several registers, or the whole FIFO, are read in one transfer).

A poll (``inventory``) reads every tag in the field, as the Pico firmware does (firmware_bridge/
firmware/mfrc522.py explains the choices; this is the same ISO/IEC 14443-3 procedure written for
CPython and for fewer SPI transfers):
  field off long enough for every tag to reset, field on, 5 ms for the tags to power up; then
  REQA (7-bit short frame: IDLE tags answer ATQA) -> per cascade level (SEL 93/95/97):
  ANTICOLLISION with the bits known so far (a collision fixes one more bit, taking 1 there) ->
  SELECT with CRC_A -> SAK (cascade bit 0x04: the UID goes on) -> HLTA, so that tag stays quiet;
  until REQA meets silence. The field goes off again, so every tag answers REQA at the next poll.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware.spi import SpiDevice

# Registers (datasheet section 9.2)
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands (section 10.3)
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# ISO/IEC 14443-3 type A
REQA = 0x26
HLTA = (0x50, 0x00)
CASCADE_TAG = 0x88
SELECT_CODES = (0x93, 0x95, 0x97)
FIELD_OFF_MS = 6
"""Long enough without field for every tag to lose power and restart IDLE (an RF reset)."""
FIELD_SETTLE_MS = 5
"""ISO 14443-3: after switching the field on, a reader waits at least 5 ms before its first request."""
KNOWN_VERSIONS = {0x88: "FM17522 clone", 0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0xB2: "FM17522 clone"}


def crc_a(data: bytes) -> int:
    """CRC_A of ISO/IEC 14443-3 (CRC-16/ISO-IEC-14443-3-A: poly 0x1021 reflected, init 0x6363)."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(data: bytes) -> bytes:
    return data + crc_a(data).to_bytes(2, "little")


def bcc(four: bytes) -> int:
    return four[0] ^ four[1] ^ four[2] ^ four[3]


def uid_from_levels(levels: list[bytes]) -> bytes:
    """The UID from each cascade level's 4 bytes: a level that continues starts with the cascade tag."""
    uid = b"".join(
        level[1:] if level[0] == CASCADE_TAG and i < len(levels) - 1 else level
        for i, level in enumerate(levels)
    )
    if len(uid) not in (4, 7, 10):
        raise ValueError(f"a {len(uid)}-byte UID: ISO 14443-3 has 4, 7 or 10")
    return uid


@dataclass(frozen=True)
class Answer:
    data: bytes
    last_bits: int
    """Valid bits in the last byte (0: all 8)."""
    collision: int | None
    """None: a clean answer; else CollReg.CollPos (1..32, from bit 0 of the first FIFO byte), 0 unknown."""


class Mfrc522:
    """One reader chip on an SPI device. ``sleep_ms`` is injected (a test passes a no-op)."""

    def __init__(
        self,
        spi: SpiDevice,
        sleep_ms: Callable[[float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.spi = spi
        self._sleep_ms = sleep_ms or _sleep_ms
        self._clock = clock
        self._off_since: float | None = None
        """When the field last went off; None while it is on (or its state is unknown)."""

    # -- registers --------------------------------------------------------------------------

    def write(self, register: int, *values: int) -> None:
        self.spi.transfer(bytes([(register << 1) & 0x7E, *values]))

    def read_many(self, *registers: int) -> list[int]:
        addresses = bytes(0x80 | ((r << 1) & 0x7E) for r in registers)
        return list(self.spi.transfer(addresses + b"\x00")[1:])

    def read(self, register: int) -> int:
        return self.read_many(register)[0]

    # -- set-up -----------------------------------------------------------------------------

    def init(self) -> int:
        """Soft reset and configuration; returns VersionReg (0x91/0x92 genuine, 0x00 or 0xFF: no chip)."""
        self.write(COMMAND, SOFT_RESET)
        for _ in range(50):  # PowerDown (bit 4) clears when the reset is done, ~40 us
            if not self.read(COMMAND) & 0x10:
                break
        # Timer: starts at the end of each transmission (TAuto), 40 kHz ticks (prescaler 0x0A9 of
        # 13.56 MHz), 80 ticks: a 2 ms receive timeout. A tag answers within 1 ms.
        self.write(T_MODE, 0x80)
        self.write(T_PRESCALER, 0xA9)
        self.write(T_RELOAD_H, 0x00)
        self.write(T_RELOAD_L, 0x50)
        self.write(TX_ASK, 0x40)  # 100 % ASK, as type A needs
        self.write(MODE, 0x3D)
        self.write(COLL, self.read(COLL) & 0x7F)  # ValuesAfterColl = 0: bits after a collision read 0
        self.antenna(False)
        return self.read(VERSION)

    def antenna(self, on: bool) -> None:
        value = self.read(TX_CONTROL)
        self.write(TX_CONTROL, value | 0x03 if on else value & ~0x03 & 0xFF)
        self._off_since = None if on else self._clock()

    # -- one exchange with the tags ---------------------------------------------------------

    def transceive(self, frame: bytes, tx_last_bits: int = 0, rx_align: int = 0) -> Answer | None:
        """Sends ``frame``; the tags' answer, or None (no answer within 2 ms, or a garbled one)."""
        framing = (rx_align << 4) | tx_last_bits
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)  # clear every interrupt flag
        self.write(FIFO_LEVEL, 0x80)  # flush
        self.write(FIFO_DATA, *frame)
        self.write(BIT_FRAMING, framing)
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, 0x80 | framing)  # StartSend
        for _ in range(200):  # bounded: a wedged chip must not hang the table
            irq = self.read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer arrived
                break
            if irq & 0x01:  # TimerIRq: silence
                return None
        else:
            return None
        self.write(BIT_FRAMING, framing)  # StartSend off
        error, level, control = self.read_many(ERROR, FIFO_LEVEL, CONTROL)
        if error & 0x13:  # BufferOvfl, ParityErr, ProtocolErr: garbage
            return None
        collision = None
        if error & 0x08:  # CollErr: tags sent different bits at once
            coll = self.read(COLL)
            collision = 0 if coll & 0x20 else (coll & 0x1F) or 32
        data = bytes(self.read_many(*([FIFO_DATA] * level))) if level else b""
        return Answer(data, control & 0x07, collision)

    # -- ISO/IEC 14443-3 --------------------------------------------------------------------

    def anticollision(self, select: int) -> bytes | None:
        """One cascade level among the READY tags: 4 UID bytes + BCC of one of them, or None.

        ``known`` bits of the level are fixed (LSB first, as on air, kept in an int); the tags whose
        level starts with them answer the rest. A collision fixes the common bits and a 1 at the first
        differing bit, which silences the tags with a 0 there until the next REQA.
        """
        value, known = 0, 0
        for _ in range(33):
            if known == 32:  # every UID bit fixed by collisions: the BCC follows
                four = value.to_bytes(4, "little")
                return four + bytes([bcc(four)])
            whole, bits = divmod(known, 8)
            sent = value.to_bytes(5, "little")[: whole + (1 if bits else 0)]
            answer = self.transceive(bytes([select, ((2 + whole) << 4) | bits]) + sent, bits, bits)
            if answer is None or not answer.data:
                return None
            received = int.from_bytes(answer.data, "little") >> bits  # the tag's bits, from level bit `known`
            mine = value & ((1 << known) - 1)
            if answer.collision is None:
                level = (mine | (received << known)).to_bytes(8, "little")[:5]
                return level if bcc(level[:4]) == level[4] else None
            if answer.collision == 0:
                return None  # a collision the chip could not place: the next poll tries again
            position = 8 * whole + answer.collision - 1
            if not known <= position < 32:
                return None  # no progress, or a collision in the BCC alone: a confused chip
            value = mine | ((received << known) & ((1 << position) - 1)) | (1 << position)
            known = position + 1
        return None

    def select_one(self) -> bytes | None:
        """After REQA: resolve and SELECT one answering tag over its cascade levels; its UID or None."""
        levels = []
        for select in SELECT_CODES:
            level = self.anticollision(select)
            if level is None:
                return None
            sak = self.transceive(with_crc(bytes([select, 0x70]) + level))
            if (
                sak is None
                or len(sak.data) != 3
                or crc_a(sak.data[:1]) != int.from_bytes(sak.data[1:], "little")
            ):
                return None
            levels.append(level[:4])
            if not sak.data[0] & 0x04:  # cascade bit clear: the UID is complete
                break
        try:
            return uid_from_levels(levels)
        except ValueError:
            return None

    def inventory(self, max_tags: int = 12) -> list[bytes]:
        """Every tag in the field (at most ``max_tags``), in the order read."""
        # The RF reset: with several readers polled in turn, each field was off while the others were
        # read, usually long enough already; otherwise wait out the rest.
        if self._off_since is None:
            self.antenna(False)
        off_ms = (self._clock() - (self._off_since or self._clock())) * 1000
        if off_ms < FIELD_OFF_MS:
            self._sleep_ms(FIELD_OFF_MS - off_ms)
        self.antenna(True)
        self._sleep_ms(FIELD_SETTLE_MS)
        uids: list[bytes] = []
        try:
            for _ in range(max_tags + 2):  # +2: a garbled round may be retried, never forever
                if len(uids) >= max_tags or self.transceive(bytes([REQA]), tx_last_bits=7) is None:
                    break  # silence: every tag in the field has been read and halted
                uid = self.select_one()
                if uid is None:
                    continue
                self.transceive(with_crc(bytes(HLTA)))  # a halted tag does not answer: a timeout
                if uid not in uids:
                    uids.append(uid)
        finally:
            self.antenna(False)
        return uids


def _sleep_ms(ms: float) -> None:
    time.sleep(ms / 1000)
