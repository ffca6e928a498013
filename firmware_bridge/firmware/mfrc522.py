"""A minimal MFRC522 driver: find the one ISO 14443-A tag on a reader and read its 4/7/10-byte UID.

What it does, per ``read_uid()``:
  WUPA (wakes idle *and* halted tags, so a tag left on the reader answers every poll)
  -> ATQA
  -> for each cascade level (SEL 0x93, 0x95, 0x97):
       ANTICOLLISION  [SEL, 0x20]                  -> 4 UID bytes + BCC (their XOR)
       SELECT         [SEL, 0x70, 4 bytes, BCC] + CRC_A -> SAK (+ CRC_A)
       SAK bit 0x04 set: the UID goes on; the 4 bytes began with the cascade tag 0x88
  -> HLTA, so the tag sleeps until the next WUPA.
What it does not: bit-level collision resolution. Two tags on one reader is a collision that we
report as "no read" rather than guess between them; our readers sit under one card slot each.
CRC_A is computed in software (cheaper than driving the chip's coprocessor over SPI for 9 bytes).

``spi`` and ``cs`` are injected (machine.SPI / machine.Pin on the Pico): the module imports no
MicroPython-only names, so the pure parts are tested under CPython.
"""

# Registers (datasheet section 9)
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
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
WUPA = 0x52
HLTA = (0x50, 0x00)
CASCADE_TAG = 0x88
SELECT_CODES = (0x93, 0x95, 0x97)


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


class MFRC522:
    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs

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
        """UID of the tag on this reader, or None (no tag, a collision, or a garbled answer)."""
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
