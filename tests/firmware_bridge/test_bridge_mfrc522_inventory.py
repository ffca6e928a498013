"""``MFRC522.inventory()`` against a simulated RF field holding several ISO 14443-A tags.

The fake chip answers through the same registers the driver uses (FIFO, BitFraming, Error, Coll,
Control, TxControl) and the fake tags follow the ISO/IEC 14443-3 type A state machine (IDLE, READY,
ACTIVE, HALT, with READY*/ACTIVE* for tags woken from HALT). Answers of several tags are merged
bit by bit as on air: the first bit where they differ is a collision (CollErr, CollReg.CollPos
counted from bit 0 of the first FIFO byte, i.e. including RxAlign), and later bits read 0
(ValuesAfterColl = 0).
"""

from __future__ import annotations

import random

import pytest

from firmware_bridge.firmware import mfrc522, tablelogic, tcproto

IDLE, READY, ACTIVE, HALT = "idle", "ready", "active", "halt"


def cascade_levels(uid: bytes) -> list[bytes]:
    """The 5-byte (4 + BCC) answer of each cascade level."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [b"\x88" + uid[:3], uid[3:]]
    else:
        parts = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]
    return [p + bytes([mfrc522.bcc(p)]) for p in parts]


def bits_of(data: bytes, n: int) -> list[int]:
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(n)]


class Tag:
    def __init__(self, uid: bytes) -> None:
        self.uid = uid
        self.levels = cascade_levels(uid)
        self.state = IDLE
        self.star = False  # woken from HALT: falls back to HALT, not IDLE
        self.level = 0
        self.atqa = {4: b"\x04\x00", 7: b"\x44\x00", 10: b"\x84\x00"}[len(uid)]

    def fall_back(self) -> None:
        self.state = HALT if self.star else IDLE


class FakeField:
    """spi + cs of one MFRC522 whose antenna sees ``tags``."""

    def __init__(self, uids: list[bytes]) -> None:
        self.tags = [Tag(u) for u in uids]
        self.regs: dict[int, int] = {}
        self.fifo_in: list[int] = []
        self.fifo_out: list[int] = []
        self.pending: int | None = None
        self.frames: list[bytes] = []  # every frame sent, for bounds checks

    # -- what the test does to the table --

    def remove(self, uid: bytes) -> None:
        self.tags = [t for t in self.tags if t.uid != uid]

    def add(self, uid: bytes) -> None:
        self.tags.append(Tag(uid))

    # -- SPI --

    def value(self, _level: int) -> None:
        pass

    def write(self, data: bytes) -> None:
        reg = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            self.pending = reg
            return
        value = data[1]
        if reg == mfrc522.FIFO_DATA:
            self.fifo_in.append(value)
        elif reg == mfrc522.FIFO_LEVEL and value & 0x80:
            self.fifo_in.clear()
        elif reg == mfrc522.BIT_FRAMING and value & 0x80:
            self.regs[reg] = value & 0x7F
            self._transceive(bytes(self.fifo_in), value & 0x07, (value >> 4) & 0x07)
        elif reg == mfrc522.TX_CONTROL:
            self.regs[reg] = value
            if not value & 0x03:  # field off: every tag loses power and restarts IDLE
                for tag in self.tags:
                    tag.state, tag.star, tag.level = IDLE, False, 0
        else:
            self.regs[reg] = value

    def read(self, _n: int) -> bytes:
        reg = self.pending
        if reg == mfrc522.FIFO_DATA:
            return bytes([self.fifo_out.pop(0)])
        if reg == mfrc522.FIFO_LEVEL:
            return bytes([len(self.fifo_out)])
        return bytes([self.regs.get(reg, 0)])

    # -- RF --

    def _field_on(self) -> bool:
        return bool(self.regs.get(mfrc522.TX_CONTROL, 0) & 0x03)

    def _transceive(self, frame: bytes, tx_last: int, rx_align: int) -> None:
        self.fifo_in.clear()
        self.frames.append(frame)
        answers = self._tags_answer(frame, tx_last) if self._field_on() else []
        self._deliver(answers, rx_align)

    def _tags_answer(self, frame: bytes, tx_last: int) -> list[list[int]]:
        """Bit lists sent back by the tags (several: they collide)."""
        if tx_last == 7 and len(frame) == 1:  # short frame: REQA / WUPA
            woken = []
            for tag in self.tags:
                if (frame[0] == mfrc522.REQA and tag.state == IDLE) or (
                    frame[0] == mfrc522.WUPA and tag.state in (IDLE, HALT)
                ):
                    tag.star = tag.state == HALT
                    tag.state, tag.level = READY, 0
                    woken.append(bits_of(tag.atqa, 16))
                elif tag.state in (READY, ACTIVE):
                    tag.fall_back()
            return woken
        if frame[:2] == bytes(mfrc522.HLTA) and len(frame) == 4:
            for tag in self.tags:
                if tag.state == ACTIVE:
                    tag.state, tag.star = HALT, False
            return []
        if len(frame) >= 2 and frame[0] in mfrc522.SELECT_CODES:
            level = mfrc522.SELECT_CODES.index(frame[0])
            if frame[1] == 0x70 and len(frame) == 9:
                return self._select(frame, level)
            return self._anticollision(frame, tx_last, level)
        for tag in self.tags:  # anything else is an unexpected command
            if tag.state in (READY, ACTIVE):
                tag.fall_back()
        return []

    def _anticollision(self, frame: bytes, tx_last: int, level: int) -> list[list[int]]:
        nvb = frame[1]
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x07)
        sent = bits_of(frame[2:], known)
        assert tx_last == nvb & 0x07, "TxLastBits must match the NVB's bit count"
        out = []
        for tag in self.tags:
            if tag.state != READY or tag.level != level:
                continue
            mine = bits_of(tag.levels[level], 40)
            if mine[:known] == sent:  # only tags matching the known bits answer, with the rest
                out.append(mine[known:])
        return out

    def _select(self, frame: bytes, level: int) -> list[list[int]]:
        assert mfrc522.crc_a(frame) == 0
        out = []
        for tag in self.tags:
            if tag.state != READY or tag.level != level:
                continue
            if tag.levels[level] == frame[2:7]:
                if level + 1 < len(tag.levels):
                    tag.level += 1  # stays READY for the next cascade level
                    sak = 0x04
                else:
                    tag.state, sak = ACTIVE, 0x08
                out.append(bits_of(mfrc522.with_crc_a(bytes([sak])), 24))
            else:
                tag.fall_back()  # a SELECT for another tag
        return out

    def _deliver(self, answers: list[list[int]], rx_align: int) -> None:
        self.regs[mfrc522.ERROR] = 0
        if not answers:
            self.fifo_out = []
            self.regs[mfrc522.COM_IRQ] = 0x01  # timer: nobody answered
            return
        n = max(len(a) for a in answers)
        merged, coll = [], None
        for i in range(n):
            column = {a[i] for a in answers if i < len(a)}
            if coll is None and len(column) > 1:
                coll = i
            merged.append(0 if coll is not None and i > coll else max(column))  # OR at the collision
        stream = [0] * rx_align + merged  # RxAlign: the first received bit lands at bit rx_align
        data = bytearray((len(stream) + 7) // 8)
        for i, bit in enumerate(stream):
            data[i // 8] |= bit << (i % 8)
        self.fifo_out = list(data)
        self.regs[mfrc522.CONTROL] = len(stream) % 8
        self.regs[mfrc522.COM_IRQ] = 0x30
        if coll is not None:
            self.regs[mfrc522.ERROR] = 0x08
            pos = rx_align + coll + 1
            self.regs[mfrc522.COLL] = 0x20 if pos > 32 else pos % 32  # 0 encodes bit 32


def reader_for(field: FakeField) -> mfrc522.MFRC522:
    sleeps: list[int] = []
    reader = mfrc522.MFRC522(field, field, sleeps.append)
    reader.init()
    return reader


def uids4(n: int, seed: int = 1) -> list[bytes]:
    rng = random.Random(seed)
    out: list[bytes] = []
    while len(out) < n:
        uid = bytes(rng.randrange(256) for _ in range(4))
        if uid[0] != 0x88 and uid not in out:
            out.append(uid)
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_inventory_reads_every_four_byte_tag(n: int) -> None:
    uids = uids4(n)
    field = FakeField(uids)
    reader = reader_for(field)
    assert sorted(reader.inventory()) == sorted(uids)
    assert sorted(reader.inventory()) == sorted(uids)  # every poll, not just the first
    assert not field.regs[mfrc522.TX_CONTROL] & 0x03  # field left off between polls


def test_inventory_separates_uids_that_differ_in_one_bit() -> None:
    base = bytes.fromhex("11223344")
    uids = [base, bytes.fromhex("11223345"), bytes.fromhex("11233344"), bytes.fromhex("91223344")]
    field = FakeField(uids)
    assert sorted(reader_for(field).inventory()) == sorted(uids)


def test_inventory_resolves_a_collision_in_the_last_uid_bit() -> None:
    uids = [bytes.fromhex("A0B0C0D0"), bytes.fromhex("A0B0C050")]  # differ only in bit 31
    field = FakeField(uids)
    assert sorted(reader_for(field).inventory()) == sorted(uids)


def test_inventory_walks_cascade_levels_of_seven_and_ten_byte_uids() -> None:
    seven = [
        bytes.fromhex("04A1B2C3D4E5F6"),
        bytes.fromhex("04A1B2C3D4E5F7"),
        bytes.fromhex("04A1B3C3D4E5F6"),
    ]
    ten = [bytes(range(1, 11))]
    four = [bytes.fromhex("DEADBEEF")]
    field = FakeField(seven + ten + four)
    assert sorted(reader_for(field).inventory()) == sorted(seven + ten + four)


def test_many_random_tags_up_to_max_tags() -> None:
    uids = uids4(12, seed=7)
    field = FakeField(uids)
    reader = reader_for(field)
    assert sorted(reader.inventory()) == sorted(uids)
    assert len(reader.inventory(max_tags=5)) == 5


def test_removed_tag_gives_tag_removed_after_the_debounce() -> None:
    a, b, c = uids4(3, seed=3)
    field = FakeField([a, b])
    reader = reader_for(field)
    presence = tablelogic.Presence(misses=3)
    wire: list[bytes] = []
    link = tcproto.DeviceLink(wire.append, lambda: 0, {}, lambda: ([], []), 1)

    def poll() -> list[tuple[int, bytes]]:
        wire.clear()
        tablelogic.report_tags(link, 2, presence.update(reader.inventory()))
        events = []
        for chunk in tcproto.Splitter().feed(b"".join(wire)):
            msg_type, _seq, payload = tcproto.decode_frame(chunk)
            assert payload[0] == 2 and payload[1] == len(payload) - 2
            events.append((msg_type, bytes(payload[2:])))
        return events

    assert sorted(poll()) == sorted([(tcproto.TAG_PRESENT, a), (tcproto.TAG_PRESENT, b)])
    assert poll() == []
    field.remove(a)
    field.add(c)
    assert poll() == [(tcproto.TAG_PRESENT, c)]  # a new card shows at once...
    assert poll() == []  # ...a missing one only after three empty polls in a row
    assert poll() == [(tcproto.TAG_REMOVED, a)]
    assert presence.uids() == [b, c]


class AlwaysCollides(FakeField):
    """A broken chip (or RF noise): every answer is garbage bits with a collision flagged."""

    def __init__(self, coll_reg: int) -> None:
        super().__init__([])
        self.coll_reg = coll_reg

    def _transceive(self, frame: bytes, tx_last: int, rx_align: int) -> None:
        self.fifo_in.clear()
        self.frames.append(frame)
        self.fifo_out = [0xFF] * 5
        self.regs[mfrc522.COM_IRQ] = 0x30
        self.regs[mfrc522.ERROR] = 0x08
        self.regs[mfrc522.COLL] = (rx_align + 1) if self.coll_reg < 0 else self.coll_reg


@pytest.mark.parametrize(
    "coll_reg", [0x20, 0x01, -1], ids=["pos-not-valid", "always-bit-1", "always-next-bit"]
)
def test_inventory_is_bounded_on_a_chip_that_always_collides(coll_reg: int) -> None:
    field = AlwaysCollides(coll_reg)
    reader = reader_for(field)
    assert reader.inventory(max_tags=4) == []
    # (max_tags + 2) REQAs, each with at most 33 anticollision rounds + SELECT: bounded
    assert len(field.frames) <= 6 * 35


class SameTagForever(FakeField):
    """A tag that ignores HLTA and answers every REQA: must not be reported twice or loop forever."""

    def _tags_answer(self, frame: bytes, tx_last: int) -> list[list[int]]:
        if frame[:2] == bytes(mfrc522.HLTA):
            return []
        for tag in self.tags:
            if tag.state in (ACTIVE, HALT):
                tag.state = IDLE
        return super()._tags_answer(frame, tx_last)


def test_inventory_is_bounded_when_a_tag_ignores_hlta() -> None:
    uid = bytes.fromhex("01020304")
    field = SameTagForever([uid])
    assert reader_for(field).inventory(max_tags=3) == [uid]
    assert sum(1 for f in field.frames if f == bytes([mfrc522.REQA])) == 3 + 2  # max_tags + 2 rounds


def test_single_tag_read_uid_still_reads_one_tag() -> None:
    field = FakeField([bytes.fromhex("04A1B2C3D4E5F6")])
    assert reader_for(field).read_uid() == bytes.fromhex("04A1B2C3D4E5F6")


def test_second_collision_inside_a_partly_known_byte() -> None:
    """Collisions at bit 10 then 13: the second answer is RxAligned by 3 after one whole byte."""
    a, b, c = bytes.fromhex("00240000"), bytes.fromhex("00040000"), bytes.fromhex("00000000")
    field = FakeField([a, b, c])
    assert sorted(reader_for(field).inventory()) == sorted([a, b, c])
    assert bytes([0x93, 0x33, 0x00, 0x04]) in field.frames  # NVB 3.3: 1 byte + 3 bits of UID known


@pytest.mark.parametrize(
    ("known", "coll_pos", "bit"), [(0, 1, 0), (0, 32, 31), (1, 5, 4), (11, 6, 13), (24, 3, 26)]
)
def test_collision_bit_counts_from_the_first_fifo_byte(known: int, coll_pos: int, bit: int) -> None:
    assert mfrc522.collision_bit(known, coll_pos) == bit


def test_each_poll_is_an_rf_reset_then_a_settled_field() -> None:
    field = FakeField(uids4(2))
    sleeps: list[int] = []
    reader = mfrc522.MFRC522(field, field, sleeps.append)
    reader.init()  # leaves the field on: the first poll must switch it off and wait
    reader.inventory()
    assert sleeps == [mfrc522.FIELD_OFF_MS, mfrc522.FIELD_SETTLE_MS]
    assert reader.field_off_since is not None
