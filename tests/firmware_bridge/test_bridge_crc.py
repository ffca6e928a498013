"""CRC-16: the RevEng catalogue rows, the zero residue, and the firmware's CRC agreeing with ours."""

from __future__ import annotations

import binascii
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import crc
from firmware_bridge.firmware import mfrc522, tcproto

from .framing_vectors import CHECK_INPUT, CRC16_CATALOGUE, CRC32_ISO_HDLC_CHECK


@pytest.mark.parametrize("row", CRC16_CATALOGUE, ids=lambda r: r[0])
def test_catalogue_check_values(row: tuple) -> None:
    name, poly, init, refin, refout, xorout, check = row
    algorithm = crc.Crc16(name, poly, init, refin, refout, xorout, check)
    assert algorithm.compute(CHECK_INPUT) == check


@pytest.mark.parametrize("algorithm", crc.CATALOGUE, ids=lambda a: a.name)
def test_shipped_algorithms_match_their_catalogue_row(algorithm: crc.Crc16) -> None:
    row = next(r for r in CRC16_CATALOGUE if r[0] == algorithm.name)
    assert (algorithm.poly, algorithm.init, algorithm.refin, algorithm.refout, algorithm.xorout) == row[1:6]
    assert algorithm.compute(CHECK_INPUT) == algorithm.check == row[6]


def test_link_crc_is_ccitt_false() -> None:
    assert crc.crc16_ccitt_false(CHECK_INPUT) == 0x29B1
    assert tcproto.crc16(CHECK_INPUT) == 0x29B1


def test_mfrc522_driver_crc_a_check_value() -> None:
    assert mfrc522.crc_a(CHECK_INPUT) == 0xBF05


def test_zlib_crc32_check_value_for_reference() -> None:
    # Not used by the link; pins that the catalogue's CRC-32 row is the one the standard library has.
    assert zlib.crc32(CHECK_INPUT) == CRC32_ISO_HDLC_CHECK


@given(st.binary(max_size=300))
def test_message_plus_crc_leaves_zero_residue(data: bytes) -> None:
    value = crc.crc16_ccitt_false(data)
    assert crc.crc16_ccitt_false(data + value.to_bytes(2, "big")) == 0
    assert tcproto.crc16(data + value.to_bytes(2, "big")) == 0


@given(st.binary(max_size=300))
def test_three_implementations_agree(data: bytes) -> None:
    expected = binascii.crc_hqx(data, 0xFFFF)  # the standard library's CCITT, independent of ours
    assert crc.crc16_ccitt_false(data) == expected
    assert tcproto.crc16(data) == expected
    assert crc.XMODEM.compute(data) == binascii.crc_hqx(data, 0)


@given(st.binary(max_size=64))
def test_driver_crc_a_agrees_with_the_catalogue_model(data: bytes) -> None:
    assert mfrc522.crc_a(data) == crc.CRC_A.compute(data)
