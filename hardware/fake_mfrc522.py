"""A fake SPI bus of MFRC522 chips, each with an RF field of ISO/IEC 14443-A tags: for tests, demos, benches.

It answers the bytes a real chip answers (datasheet section 8.1.2: an address byte ``1AAAAAA0`` reads,
``0AAAAAA0`` writes; a read transfer returns each named register's value one byte later; a write
transfer's bytes all go to its address) and keeps the registers the driver uses: CommandReg (Idle,
Transceive, SoftReset), ComIrqReg (Set1 and clear-by-one), FIFODataReg/FIFOLevelReg (FlushBuffer),
BitFramingReg (StartSend, RxAlign, TxLastBits), ErrorReg, CollReg, ControlReg (RxLastBits),
TxControlReg (antenna), VersionReg.

The tags follow ISO/IEC 14443-3 type A: IDLE -REQA-> READY -SELECT-> ACTIVE -HLTA-> HALT, a READY tag
not selected drops back to IDLE, and a tag without field loses power (IDLE again when it returns).
Several tags answering at once are merged bit by bit as on air: the first differing bit is a
collision (CollErr; CollPos counted from bit 0 of the first FIFO byte, RxAlign included), later bits
read 0 (ValuesAfterColl = 0). Frames with a bad CRC_A or an unknown command get no answer (the timer
runs out), as from real tags.
"""

from __future__ import annotations

import threading

from hardware import mfrc522 as m

IDLE, READY, ACTIVE, HALT = "idle", "ready", "active", "halt"
_ATQA = {4: b"\x04\x00", 7: b"\x44\x00", 10: b"\x84\x00"}
_FINAL_SAK = {4: 0x08, 7: 0x00, 10: 0x00}  # MIFARE Classic 1K; NTAG/Ultralight


def cascade_levels(uid: bytes) -> list[bytes]:
    """Each cascade level's 4 UID bytes + BCC, as the tag sends them in anticollision."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([m.CASCADE_TAG]) + uid[:3], uid[3:]]
    elif len(uid) == 10:
        parts = [bytes([m.CASCADE_TAG]) + uid[:3], bytes([m.CASCADE_TAG]) + uid[3:6], uid[6:]]
    else:
        raise ValueError("an ISO 14443-A UID has 4, 7 or 10 bytes")
    return [part + bytes([m.bcc(part)]) for part in parts]


class FakeTag:
    def __init__(self, uid: bytes) -> None:
        self.uid = uid
        self.levels = cascade_levels(uid)
        self.state = IDLE
        self.level = 0  # the cascade level being resolved

    def answer(self, frame: bytes, bits: int) -> list[int] | None:
        """The bits (LSB first) this tag sends back to a frame of ``bits`` bits, or None (silence)."""
        if bits == 7 and frame[:1] == bytes([m.REQA]):
            if self.state != IDLE:
                if self.state != HALT:  # unexpected in READY or ACTIVE: back to IDLE, silently
                    self.state = IDLE
                return None
            self.state, self.level = READY, 0
            return _bits(_ATQA[len(self.uid)], 16)
        if len(frame) < 2 or frame[0] not in m.SELECT_CODES or self.state != READY:
            return self._halt(frame, bits)
        level = m.SELECT_CODES.index(frame[0])
        if level != self.level or level >= len(self.levels):
            return None
        mine = self.levels[level]
        if frame[1] == 0x70 and bits == 9 * 8:  # SELECT: this tag's level, with CRC_A
            if m.with_crc(frame[:7]) != frame or frame[2:7] != mine:
                self.state = IDLE  # a SELECT of another tag sends the others back to IDLE
                return None
            final = level == len(self.levels) - 1
            sak = _FINAL_SAK[len(self.uid)] if final else 0x04
            self.state, self.level = (ACTIVE, level) if final else (READY, level + 1)
            return _bits(m.with_crc(bytes([sak])), 24)
        known = (frame[1] >> 4) * 8 - 16 + (frame[1] & 0x0F)  # NVB: bytes (with SEL, NVB) and bits sent
        if known != bits - 16 or not 0 <= known < 40:
            return None
        level_bits = _bits(mine, 40)
        if _bits(frame[2:], known) != level_bits[:known]:
            return None  # its UID does not start with the bits sent: it keeps quiet
        return level_bits[known:]

    def _halt(self, frame: bytes, bits: int) -> None:
        if bits == 32 and frame == m.with_crc(bytes(m.HLTA)) and self.state == ACTIVE:
            self.state = HALT
        return None


class FakeMfrc522:
    """One chip and its field. ``place``/``lift`` are the test laying and lifting cards."""

    VERSION = 0x92

    def __init__(self, uids: list[bytes] | None = None) -> None:
        self.tags = [FakeTag(uid) for uid in uids or []]
        self.frames: list[bytes] = []  # every frame the driver sent, for tests that count exchanges
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        self.regs = dict.fromkeys(range(64), 0)
        self.regs[m.VERSION] = self.VERSION
        self.regs[m.FIFO_LEVEL] = 0
        self.fifo: list[int] = []

    # -- the table ---------------------------------------------------------------------------

    def place(self, uid: bytes) -> None:
        with self._lock:
            self.tags.append(FakeTag(uid))

    def lift(self, uid: bytes) -> None:
        with self._lock:
            self.tags = [tag for tag in self.tags if tag.uid != uid]

    def close(self) -> None:
        pass  # an SpiDevice: nothing to release

    @property
    def field_on(self) -> bool:
        return bool(self.regs[m.TX_CONTROL] & 0x03)

    # -- the SPI wire ------------------------------------------------------------------------

    def transfer(self, data: bytes) -> bytes:
        with self._lock:
            if not data:
                return b""
            address = (data[0] >> 1) & 0x3F
            if not data[0] & 0x80:
                for value in data[1:]:
                    self._write(address, value)
                return bytes(len(data))
            out = [0]
            for byte in data[1:]:
                out.append(self._read(address))
                address = (byte >> 1) & 0x3F
            return bytes(out)

    def _read(self, register: int) -> int:
        if register == m.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if register == m.FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[register]

    def _write(self, register: int, value: int) -> None:
        if register == m.FIFO_DATA:
            self.fifo.append(value)
        elif register == m.FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif register == m.COM_IRQ:
            flags = value & 0x7F
            current = self.regs[m.COM_IRQ]
            self.regs[m.COM_IRQ] = current | flags if value & 0x80 else current & ~flags
        elif register == m.COMMAND:
            if value & 0x0F == m.SOFT_RESET:
                self._reset()
            else:
                self.regs[m.COMMAND] = value & 0x0F
        elif register == m.TX_CONTROL:
            self.regs[register] = value
            if not value & 0x03:
                for tag in self.tags:  # no field, no power: every tag restarts IDLE
                    tag.state = IDLE
        elif register == m.VERSION:
            pass  # read-only
        else:
            self.regs[register] = value
            if register == m.BIT_FRAMING and value & 0x80 and self.regs[m.COMMAND] == m.TRANSCEIVE:
                self._transceive(value)

    def _transceive(self, framing: int) -> None:
        tx_last = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        frame = bytes(self.fifo)
        self.fifo.clear()
        self.frames.append(frame)
        bits = len(frame) * 8 - ((8 - tx_last) if tx_last else 0)
        answers = [a for tag in self.tags if self.field_on and (a := tag.answer(frame, bits)) is not None]
        self.regs[m.ERROR] = 0
        self.regs[m.COLL] &= 0x80
        if not answers:
            self.regs[m.COM_IRQ] |= 0x01  # TimerIRq: the 2 ms ran out in silence
            return
        merged, collision = _merge(answers)
        stream = [0] * rx_align + merged  # the first received bit lands at bit RxAlign of byte 0
        self.fifo = [
            sum(bit << i for i, bit in enumerate(stream[k : k + 8])) for k in range(0, len(stream), 8)
        ]
        self.regs[m.CONTROL] = (self.regs[m.CONTROL] & ~0x07) | (len(stream) % 8)
        if collision is not None:
            self.regs[m.ERROR] |= 0x08
            position = rx_align + collision + 1  # CollPos, 1-based from bit 0 of the first FIFO byte
            self.regs[m.COLL] |= 0x20 if position > 32 else position % 32
        self.regs[m.COM_IRQ] |= 0x30  # RxIRq | IdleIRq


class FakeSpiBus:
    """Chips by chip select: ``bus.device(0)`` is what the driver of the reader on CE0 talks to."""

    def __init__(self, chips: dict[int, FakeMfrc522]) -> None:
        self.chips = chips

    def device(self, select: int) -> FakeMfrc522:
        return self.chips[select]


def _bits(data: bytes, count: int) -> list[int]:
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(count)]


def _merge(answers: list[list[int]]) -> tuple[list[int], int | None]:
    """Answers sent at once, as the reader hears them: bits up to the first difference, then zeros."""
    length = max(len(a) for a in answers)
    merged: list[int] = []
    for i in range(length):
        column = {a[i] for a in answers if i < len(a)}
        if len(column) > 1:
            return merged + [0] * (length - i), i
        merged.append(column.pop())
    return merged, None
