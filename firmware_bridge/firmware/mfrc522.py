"""A minimal MFRC522 driver: every ISO 14443-A tag in a reader's field, with 4/7/10-byte UIDs.

Our readers sit one per battle line or play area, with all of that line's cards on the antenna, so
a reader must report every tag, not one. ``inventory()`` does, per poll:
  field off >= 6 ms (an RF reset: every tag restarts IDLE), field on, 5 ms settle
  repeat, at most max_tags + 2 times:
    REQA (7-bit short frame; only IDLE tags answer)      -> ATQA (colliding bits are fine)
    for each cascade level (SEL 0x93, 0x95, 0x97):
      ANTICOLLISION [SEL, NVB, known bits] -> the rest of the UID bits + BCC. On a collision
        CollReg gives the first differing bit: we keep the bits before it, choose 1 there, and ask
        again with NVB/TxLastBits/RxAlign covering the bits known, until the level has no collision.
      SELECT [SEL, 0x70, 4 bytes, BCC] + CRC_A -> SAK (+ CRC_A); the other tags drop back to IDLE
      SAK bit 0x04 set: the UID goes on; the 4 bytes began with the cascade tag 0x88
    HLTA the selected tag, so it stays quiet for the rest of this poll
  until REQA meets silence; field off, so every tag is IDLE again for the next poll.
``read_uid()`` is the old single-tag read (WUPA, no collision resolution), kept for bench checks.
CRC_A is computed in software (cheaper than driving the chip's coprocessor over SPI for 9 bytes).

``spi``, ``cs`` and ``sleep_ms`` are injected (machine.SPI / machine.Pin / time.sleep_ms on the
Pico; ticks_ms falls back to time.monotonic): it needs no MicroPython-only module, so it is tested
under CPython against a simulated field of tags (tests/firmware_bridge/test_bridge_mfrc522_inventory.py).
"""

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython, for the tests
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


# Registers (datasheet section 9)
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

# Commands
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# ISO 14443-A
REQA = 0x26
WUPA = 0x52
HLTA = (0x50, 0x00)
CASCADE_TAG = 0x88
SELECT_CODES = (0x93, 0x95, 0x97)
FIELD_SETTLE_MS = 5  # ISO 14443-3: a PCD waits >= 5 ms after switching the field on
# Off this long, a tag's supply collapses and it restarts IDLE (an "RF reset"; readers use 5-10 ms).
FIELD_OFF_MS = 6


def crc_a(data):
    """CRC_A of ISO/IEC 14443-3 (init 0x6363 reflected, i.e. 0xC6C6 in the catalogue model)."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc & 0xFFFF


def with_crc_a(data):
    crc = crc_a(data)
    return bytes(data) + bytes([crc & 0xFF, crc >> 8])  # sent low byte first


def bcc(four):
    return four[0] ^ four[1] ^ four[2] ^ four[3]


def assemble_uid(levels):
    """The UID from the 4-byte answers of each cascade level (cascade tags dropped)."""
    uid = bytearray()
    for i, four in enumerate(levels):
        last = i == len(levels) - 1
        uid += four if last else four[1:]
    if len(uid) not in (4, 7, 10):
        raise ValueError("not a 4, 7 or 10 byte UID")
    return bytes(uid)


def collision_bit(known_bits, coll_pos):
    """0-based bit of the cascade level (of 32 UID bits) where the answering tags first differ.

    ``coll_pos`` is CollReg.CollPos (1..32) of an anticollision answer sent after ``known_bits``
    bits. The chip counts it from bit 0 of the first FIFO byte; with RxAlign = known_bits % 8 the
    tag's first bit lands at bit RxAlign of that byte, so the count starts at the last whole byte
    we sent, not at our last bit (NXP's own RC523 HAL reads it so: CollPos - 1 = valid FIFO bits).
    This is the one hardware assumption the simulated tests cannot check: if a bench shows tags
    whose UIDs share their first byte being missed, this is the place to look.
    """
    return 8 * (known_bits // 8) + coll_pos - 1


def _no_sleep(_ms):
    pass


class MFRC522:
    def __init__(self, spi, cs, sleep_ms=None):
        self.spi = spi
        self.cs = cs
        self.sleep_ms = sleep_ms if sleep_ms is not None else _no_sleep
        self.field_off_since = None  # ticks_ms() when inventory() last switched the field off

    # -- registers over SPI: address byte is 0AAAAAA0 to write, 1AAAAAA0 to read --

    def write(self, reg, value):
        self.cs.value(0)
        self.spi.write(bytes([(reg << 1) & 0x7E, value]))
        self.cs.value(1)

    def read(self, reg):
        self.cs.value(0)
        self.spi.write(bytes([((reg << 1) & 0x7E) | 0x80]))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    def set_bits(self, reg, mask):
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write(reg, self.read(reg) & ~mask)

    def init(self):
        """Reset and configure; returns the chip version (0x91/0x92 for genuine parts, 0 if absent)."""
        self.write(COMMAND, SOFT_RESET)
        for _ in range(100):  # the soft reset takes ~40 us; PowerDown (bit 4) clears when done
            if not self.read(COMMAND) & 0x10:
                break
        self.write(T_MODE, 0x80)  # timer starts after each transmission...
        self.write(T_PRESCALER, 0xA9)  # ...ticking every 25 us...
        # ...for 80 ticks: a 2 ms receive timeout. A tag answers within ~0.1-1 ms; an empty reader
        # costs one timeout per poll, and the poll cycle over all readers is our tag latency.
        self.write(T_RELOAD_H, 0x00)
        self.write(T_RELOAD_L, 0x50)
        self.write(TX_ASK, 0x40)  # 100 % ASK modulation, as type A needs
        self.write(MODE, 0x3D)  # CRC preset 0x6363 (only matters if the coprocessor is used)
        # ValuesAfterColl = 0: received bits after a collision read as 0 (what anticollision needs)
        self.clear_bits(COLL, 0x80)
        self.set_bits(TX_CONTROL, 0x03)  # antenna drivers on
        return self.read(VERSION)

    def transceive(self, data, tx_last_bits=0):
        """Send ``data`` and return (received bytes, valid bits in the last byte) or None."""
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)  # clear interrupt flags
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            self.write(FIFO_DATA, byte)
        self.write(BIT_FRAMING, tx_last_bits)
        self.write(COMMAND, TRANSCEIVE)
        self.set_bits(BIT_FRAMING, 0x80)  # StartSend
        for _ in range(2000):  # bounded: a wedged chip must not hang the whole table
            irq = self.read(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                break
            if irq & 0x01:  # TimerIRq: no tag answered within 2 ms
                return None
        else:
            return None
        self.clear_bits(BIT_FRAMING, 0x80)
        if self.read(ERROR) & 0x1B:  # buffer overflow, collision, parity or protocol error
            return None
        n = self.read(FIFO_LEVEL)
        rx_last_bits = self.read(CONTROL) & 0x07
        return bytes(self.read(FIFO_DATA) for _ in range(n)), rx_last_bits

    def read_uid(self):
        """Single-tag read: the UID, or None (no tag, two or more tags, or a garbled answer).

        Kept for bench checks of one card; the firmware uses ``inventory()``.
        """
        if self.transceive(bytes([WUPA]), tx_last_bits=7) is None:  # short frame: 7 bits
            return None
        levels = []
        for sel in SELECT_CODES:
            answer = self.transceive(bytes([sel, 0x20]))
            if answer is None or len(answer[0]) != 5 or bcc(answer[0]) != answer[0][4]:
                return None
            four = answer[0][:4]
            sak = self.transceive(with_crc_a(bytes([sel, 0x70]) + answer[0]))
            if sak is None or len(sak[0]) != 3 or crc_a(sak[0]) != 0:  # CRC_A residue of a good answer
                return None
            levels.append(four)
            if not sak[0][0] & 0x04:  # cascade bit clear: UID complete
                break
        self.transceive(with_crc_a(bytes(HLTA)))  # the tag does not answer HLTA: a timeout is expected
        try:
            return assemble_uid(levels)
        except ValueError:
            return None

    # -- multi-tag inventory (ISO/IEC 14443-3 type A, bit-oriented anticollision) --

    def antenna(self, on):
        if on:
            self.set_bits(TX_CONTROL, 0x03)
        else:
            self.clear_bits(TX_CONTROL, 0x03)

    def exchange(self, data, tx_last_bits=0, rx_align=0):
        """Like ``transceive`` but a collision is an answer, not a failure.

        Returns None (timeout, wedged chip, overflow/parity/protocol error) or
        (bytes, valid bits in the last byte, collision) where collision is None (clean answer),
        0 (colliding answers, position unknown) or CollPos 1..32: the first colliding bit, counted
        from bit 0 of the first FIFO byte. With RxAlign = r the first received bit sits at bit r of
        that byte, so CollPos counts the r bits we sent ourselves too (as NXP's RC523 HAL reads it).
        """
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)
        self.write(FIFO_LEVEL, 0x80)
        for byte in data:
            self.write(FIFO_DATA, byte)
        self.write(BIT_FRAMING, (rx_align << 4) | tx_last_bits)
        self.write(COMMAND, TRANSCEIVE)
        self.set_bits(BIT_FRAMING, 0x80)
        for _ in range(2000):  # bounded, as in transceive
            irq = self.read(COM_IRQ)
            if irq & 0x30:
                break
            if irq & 0x01:
                return None
        else:
            return None
        self.clear_bits(BIT_FRAMING, 0x80)
        error = self.read(ERROR)
        if error & 0x13:  # buffer overflow, parity or protocol error: the answer is garbage
            return None
        collision = None
        if error & 0x08:  # CollErr: two tags sent different bits at the same time
            coll = self.read(COLL)
            collision = 0 if coll & 0x20 else (coll & 0x1F) or 32  # CollPosNotValid; 0 means bit 32
        n = self.read(FIFO_LEVEL)
        rx_last_bits = self.read(CONTROL) & 0x07
        return bytes(self.read(FIFO_DATA) for _ in range(n)), rx_last_bits, collision

    def anticollision(self, sel):
        """Resolve one cascade level among the READY tags: their 4 UID bytes + BCC, or None.

        Each round sends the bits known so far ([SEL, NVB, known bits], NVB = bytes.bits sent);
        only tags whose UID starts with those bits answer, with the rest of theirs. On a collision
        the bits before it are common to all answering tags; we append a 1 for the colliding bit
        (ISO's "typical" choice), which silences the tags with a 0 there until a later REQA.
        Every round fixes at least one more bit, so 32 bits need at most 32 rounds (+1).
        """
        level = bytearray(5)  # 4 UID bytes + BCC, least significant bit first as on air
        known = 0
        for _ in range(33):
            if known == 32:  # every UID bit fixed by collisions: the BCC follows from them
                level[4] = bcc(level)
                return bytes(level)
            nbytes, nbits = known // 8, known % 8
            frame = bytes([sel, ((2 + nbytes) << 4) | nbits]) + bytes(level[: nbytes + (1 if nbits else 0)])
            # TxLastBits: send only the known bits of the partial byte; RxAlign: the tag's answer
            # starts right after them, so its first bit lands at bit ``nbits`` of the first FIFO byte.
            answer = self.exchange(frame, tx_last_bits=nbits, rx_align=nbits)
            if answer is None or not answer[0]:
                return None  # the tag(s) left the field, or the answer was garbled
            data, _, collision = answer
            for i, byte in enumerate(data):
                j = nbytes + i
                if j >= 5:
                    break
                if i == 0 and nbits:  # the bits below RxAlign are ours, not the tag's
                    keep = (1 << nbits) - 1
                    byte = (level[j] & keep) | (byte & ~keep & 0xFF)
                level[j] = byte
            if collision is None:
                if nbytes + len(data) != 5 or bcc(level) != level[4]:
                    return None
                return bytes(level)
            if not collision:
                return None  # a collision we cannot locate: give up this cycle, the next retries
            pos = collision_bit(known, collision)
            if pos < known or pos >= 32:
                return None  # no progress (or a collision in the BCC alone): a confused chip
            byte, bit = pos // 8, pos % 8
            # Take branch 1 at the colliding bit; bits after it are not known yet (the chip clears
            # them, ValuesAfterColl = 0, but we do not rely on that).
            level[byte] = (level[byte] & ((1 << bit) - 1)) | (1 << bit)
            for k in range(byte + 1, 5):
                level[k] = 0
            known = pos + 1
        return None

    def select_one(self):
        """After REQA/WUPA: resolve, SELECT and return the UID of one of the answering tags, or None.

        The tag is left ACTIVE (the caller halts it); every other READY tag went back to IDLE on
        the SELECT that was not for it, so the next REQA brings them back.
        """
        levels = []
        for sel in SELECT_CODES:
            level = self.anticollision(sel)
            if level is None:
                return None
            sak = self.transceive(with_crc_a(bytes([sel, 0x70]) + level))
            if sak is None or len(sak[0]) != 3 or crc_a(sak[0]) != 0:
                return None
            levels.append(level[:4])
            if not sak[0][0] & 0x04:  # cascade bit clear: UID complete
                break
        try:
            return assemble_uid(levels)
        except ValueError:
            return None

    def inventory(self, max_tags=12):
        """UIDs of every tag in this reader's field (at most ``max_tags``), in a stable order.

        A field reset puts every tag into IDLE: the field is switched on here and off again at
        the end, so the tags lose power while the other readers are polled (which also keeps
        neighbouring readers from radiating at once); it is kept off at least FIELD_OFF_MS.
        Then, per tag: REQA (answered by IDLE tags only) -> anticollision/SELECT over the cascade
        levels -> HLTA, which keeps that tag quiet for the rest of this poll. A WUPA would not do
        here: it also wakes the tags we halted, and a woken tag that is not selected falls back to
        HALT, not IDLE, so the next REQA would miss it. The loop stops when no tag answers REQA, or
        after ``max_tags`` + 2 rounds, so a
        chip or tag that misbehaves cannot keep us here.
        """
        uids = []
        # The RF reset: usually the other readers' polls kept this field off long enough already;
        # with a single reader (or the first poll after init(), field on) we wait out the rest.
        if self.field_off_since is None:
            self.antenna(False)
            off_for = 0
        else:
            off_for = ticks_diff(ticks_ms(), self.field_off_since)
        if off_for < FIELD_OFF_MS:
            self.sleep_ms(FIELD_OFF_MS - off_for)
        self.antenna(True)
        self.sleep_ms(FIELD_SETTLE_MS)  # ISO 14443-3: give the tags 5 ms of field before a REQ
        try:
            for _ in range(max_tags + 2):  # +2: a garbled round may be retried, never forever
                if len(uids) >= max_tags:
                    break
                atqa = self.exchange(bytes([REQA]), tx_last_bits=7)  # short frame: 7 bits
                if atqa is None:
                    break  # silence: every tag in the field has been read (and halted)
                # A collision in the ATQA just means tags of different types: go on regardless.
                uid = self.select_one()
                if uid is None:
                    continue  # garbled or a tag left mid-way; tags not halted may answer again
                self.transceive(with_crc_a(bytes(HLTA)))  # no answer expected: a timeout
                if uid not in uids:
                    uids.append(uid)
        finally:
            self.antenna(False)
            self.field_off_since = ticks_ms()
        return uids
