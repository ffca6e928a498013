"""The Pi's own MFRC522 driver against a fake SPI bus that answers the chip's register protocol exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import mfrc522 as m
from hardware.fake_mfrc522 import FakeMfrc522, cascade_levels
from hardware.mfrc522 import Mfrc522, crc_a

SEVEN = bytes.fromhex("04A1B2C3D4E5F6")


def no_sleep(_ms: float) -> None:
    pass


def driver(chip: FakeMfrc522) -> Mfrc522:
    reader = Mfrc522(chip, no_sleep)
    assert reader.init() == 0x92
    return reader


def test_the_wire_protocol_reads_a_register_one_byte_later_and_bursts_writes() -> None:
    chip = FakeMfrc522()
    assert chip.transfer(bytes([0x80 | (m.VERSION << 1), 0x00])) == bytes([0x00, 0x92])
    chip.transfer(bytes([m.FIFO_DATA << 1, 1, 2, 3]))  # three bytes into the FIFO in one transfer
    read = bytes([0x80 | (m.FIFO_LEVEL << 1)] + [0x80 | (m.FIFO_DATA << 1)] * 3 + [0])
    assert chip.transfer(read) == bytes([0, 3, 1, 2, 3])


def test_crc_a_matches_the_iso_14443_example() -> None:
    # ISO/IEC 14443-3 Annex B: CRC_A of 0x00 0x00 is 0x1EA0; of 0x12 0x34 it is 0xCF26.
    assert crc_a(b"\x00\x00") == 0x1EA0
    assert crc_a(b"\x12\x34") == 0xCF26


@pytest.mark.parametrize("uid", [bytes.fromhex("DEADBEEF"), SEVEN, bytes.fromhex("0811223344556677889A")])
def test_one_tag_of_each_uid_length(uid: bytes) -> None:
    assert driver(FakeMfrc522([uid])).inventory() == [uid]


def test_an_empty_field_reads_nothing_and_leaves_the_field_off() -> None:
    chip = FakeMfrc522()
    assert driver(chip).inventory() == []
    assert not chip.field_on


def test_tags_whose_uids_share_their_first_bytes_are_all_read() -> None:
    uids = [
        bytes.fromhex(h) for h in ("04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3D4E5F0", "04A1B2FFD4E5F6")
    ]
    assert sorted(driver(FakeMfrc522(uids)).inventory()) == sorted(uids)


def test_each_poll_sees_what_lies_there_now() -> None:
    chip = FakeMfrc522([SEVEN])
    reader = driver(chip)
    assert reader.inventory() == [SEVEN]
    other = bytes.fromhex("04000000000001")
    chip.place(other)
    assert sorted(reader.inventory()) == sorted([SEVEN, other])  # SEVEN was halted last poll: field reset
    chip.lift(SEVEN)
    assert reader.inventory() == [other]


def test_max_tags_bounds_one_poll() -> None:
    uids = [bytes([0x04, i, 2, 3, 4, 5, 6]) for i in range(6)]
    assert len(driver(FakeMfrc522(uids)).inventory(max_tags=4)) == 4


def test_a_missing_chip_reads_as_version_zero() -> None:
    class Silent:
        def transfer(self, data: bytes) -> bytes:
            return bytes(len(data))

        def close(self) -> None:
            pass

    assert Mfrc522(Silent(), no_sleep).init() == 0


def test_cascade_levels_carry_the_cascade_tag_and_bcc() -> None:
    levels = cascade_levels(SEVEN)
    assert levels[0][:4] == bytes([0x88]) + SEVEN[:3]
    assert levels[1][:4] == SEVEN[3:]
    assert all(level[4] == level[0] ^ level[1] ^ level[2] ^ level[3] for level in levels)


uid_lists = st.lists(
    st.one_of(
        st.binary(min_size=4, max_size=4),
        st.binary(min_size=7, max_size=7),
        st.binary(min_size=10, max_size=10),
    ),
    min_size=0,
    max_size=8,
    unique=True,
).filter(lambda uids: all(u[0] != 0x88 for u in uids))  # 0x88 first is the cascade tag, not a UID byte


@settings(max_examples=60)
@given(uid_lists)
def test_every_tag_in_the_field_is_read_whatever_their_uids(uids: list[bytes]) -> None:
    assert sorted(driver(FakeMfrc522(uids)).inventory()) == sorted(uids)
