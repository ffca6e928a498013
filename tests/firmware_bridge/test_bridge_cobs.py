"""COBS on both sides of the link: published vectors, failures, properties and random round trips."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import cobs
from firmware_bridge.errors import CobsError
from firmware_bridge.firmware import tcproto

from .framing_vectors import COBS_DECODE_FAILURES, COBS_VECTORS


@dataclass(frozen=True)
class Codec:
    name: str
    encode: Callable[[bytes], bytes]
    decode: Callable[[bytes], bytes]
    error: type[Exception]


CODECS = [
    Codec("host", cobs.encode, cobs.decode, CobsError),
    Codec("firmware", tcproto.cobs_encode, tcproto.cobs_decode, tcproto.ProtoError),
]
codecs = pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)


@codecs
@pytest.mark.parametrize(("decoded", "encoded"), COBS_VECTORS, ids=lambda v: v[:6].hex())
def test_published_vectors_encode(codec: Codec, decoded: bytes, encoded: bytes) -> None:
    assert codec.encode(decoded) == encoded


@codecs
@pytest.mark.parametrize(("decoded", "encoded"), COBS_VECTORS, ids=lambda v: v[:6].hex())
def test_published_vectors_decode(codec: Codec, decoded: bytes, encoded: bytes) -> None:
    assert codec.decode(encoded) == decoded


@codecs
@pytest.mark.parametrize("bad", COBS_DECODE_FAILURES, ids=lambda v: v.hex())
def test_decoding_fails_on_published_bad_input(codec: Codec, bad: bytes) -> None:
    with pytest.raises(codec.error):
        codec.decode(bad)


def test_host_cobs_error_is_a_value_error() -> None:
    assert issubclass(CobsError, ValueError)


@codecs
@pytest.mark.parametrize("n", [1, 2, 3, 10, 254, 255, 600])
def test_n_zero_bytes_encode_to_n_plus_one_ones(codec: Codec, n: int) -> None:
    assert codec.encode(bytes(n)) == b"\x01" * (n + 1)


@codecs
@given(st.binary(max_size=1200))
def test_round_trip_and_bounds(codec: Codec, data: bytes) -> None:
    encoded = codec.encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + 1 + len(data) // 254
    assert codec.decode(encoded) == data


@given(st.binary(max_size=600))
def test_host_and_firmware_encodings_are_identical(data: bytes) -> None:
    assert cobs.encode(data) == tcproto.cobs_encode(data)


@codecs
@given(st.binary(max_size=600))
def test_arbitrary_input_decodes_or_raises_only_the_codec_error(codec: Codec, data: bytes) -> None:
    try:
        codec.decode(data)
    except codec.error:
        pass
