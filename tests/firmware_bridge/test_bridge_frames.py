"""Frames: paired to_bytes/from_bytes, golden wire bytes shared with the firmware, FrameReader."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import cobs
from firmware_bridge.errors import (
    CobsError,
    CrcError,
    FrameError,
    FrameLengthError,
    UnknownVersionError,
)
from firmware_bridge.firmware import tcproto
from firmware_bridge.frames import MAX_FRAME, Frame, FrameReader, encode_all

from .framing_vectors import GOLDEN_FRAMES, LEGACY_V1_HEARTBEAT

frames = st.builds(
    Frame,
    type=st.integers(0, 255),
    seq=st.integers(0, 0xFFFF),
    payload=st.binary(max_size=MAX_FRAME - 6),
)


@pytest.mark.parametrize(("msg_type", "seq", "payload", "wire"), GOLDEN_FRAMES)
def test_golden_frames_host(msg_type: int, seq: int, payload: str, wire: str) -> None:
    frame = Frame(msg_type, seq, bytes.fromhex(payload))
    assert frame.encode().hex() == wire
    assert Frame.decode(bytes.fromhex(wire)[:-1]) == frame


@pytest.mark.parametrize(("msg_type", "seq", "payload", "wire"), GOLDEN_FRAMES)
def test_golden_frames_firmware(msg_type: int, seq: int, payload: str, wire: str) -> None:
    assert tcproto.encode_frame(msg_type, seq, bytes.fromhex(payload)).hex() == wire
    assert tcproto.decode_frame(bytes.fromhex(wire)[:-1]) == (msg_type, seq, bytes.fromhex(payload))


def test_frames_of_the_first_protocol_are_refused_on_both_sides() -> None:
    with pytest.raises(UnknownVersionError):
        Frame.decode(LEGACY_V1_HEARTBEAT[:-1])
    with pytest.raises(tcproto.ProtoError, match="version"):
        tcproto.decode_frame(LEGACY_V1_HEARTBEAT[:-1])


@given(frames)
def test_frame_round_trip(frame: Frame) -> None:
    assert Frame.from_bytes(frame.to_bytes()) == frame
    assert Frame.decode(frame.encode()[:-1]) == frame


@given(frames)
def test_firmware_and_host_frames_interoperate(frame: Frame) -> None:
    wire = tcproto.encode_frame(frame.type, frame.seq, frame.payload)
    assert wire == frame.encode()
    assert tcproto.decode_frame(frame.encode()[:-1]) == (frame.type, frame.seq, frame.payload)


@given(st.binary(max_size=700))
def test_arbitrary_bytes_raise_only_frame_errors(data: bytes) -> None:
    for parse in (Frame.from_bytes, Frame.decode):
        try:
            parse(data)
        except FrameError:
            pass


@given(st.binary(max_size=700))
def test_firmware_decoder_raises_only_its_error(data: bytes) -> None:
    try:
        tcproto.decode_frame(data)
    except tcproto.ProtoError:
        pass


def test_distinct_errors() -> None:
    good = Frame(0x02, 1, b"\x00\x00\x00\x01").to_bytes()
    with pytest.raises(CrcError):
        Frame.from_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(FrameLengthError):
        Frame.from_bytes(good[:5])
    with pytest.raises(UnknownVersionError) as raised:
        Frame.from_bytes(Frame(0x02, 1, b"", version=1).to_bytes())
    assert raised.value.version == 1
    with pytest.raises(CobsError):
        Frame.decode(b"\x05\x01")


@given(frames, st.integers(0, 10_000), st.integers(1, 255))
def test_any_single_byte_corruption_is_detected(frame: Frame, where: int, flip: int) -> None:
    raw = bytearray(frame.to_bytes())
    raw[where % len(raw)] ^= flip
    with pytest.raises(FrameError):
        Frame.from_bytes(raw)


def _payloads(items: list[Frame | FrameError]) -> list[bytes]:
    return [item.payload for item in items if isinstance(item, Frame)]


@given(st.binary(max_size=200), st.lists(frames, max_size=8), st.integers(1, 64))
def test_reader_recovers_after_garbage(garbage: bytes, sent: list[Frame], chunk: int) -> None:
    stream = garbage + b"\x00" + encode_all(sent)
    reader = FrameReader()
    out: list[Frame | FrameError] = []
    for i in range(0, len(stream), chunk):  # arbitrary splits, as a serial port delivers them
        out += reader.feed(stream[i : i + chunk])
    # Garbage may by chance hold a valid frame; everything after the delimiter must be exact.
    payloads = _payloads(out)
    assert payloads[len(payloads) - len(sent) :] == [f.payload for f in sent]
    assert len(payloads) - len(sent) <= 1


def test_reader_n_frames_give_exactly_n_payloads() -> None:
    sent = [Frame(0x10, i, bytes([i % 256]) * (i % 40)) for i in range(50)]
    out = FrameReader().feed(b"\x13\x37garbage\xff" + b"\x00" + encode_all(sent))
    assert _payloads(out) == [f.payload for f in sent]
    assert sum(isinstance(item, FrameError) for item in out) == 1  # the garbage, reported once


def test_reader_ignores_empty_chunks_and_splits_byte_by_byte() -> None:
    wire = b"\x00\x00" + Frame(0x02, 5, b"\x00\x00\x00\x00").encode() + b"\x00"
    reader = FrameReader()
    out = [item for byte in wire for item in reader.feed(bytes([byte]))]
    assert out == [Frame(0x02, 5, b"\x00\x00\x00\x00")]


def test_reader_drops_oversize_run_then_resyncs() -> None:
    reader = FrameReader(max_encoded=64)
    good = Frame(0x02, 9, b"\x00\x00\x00\x07")
    out = reader.feed(b"\x01" * 1000) + reader.feed(b"\x00" + good.encode())
    assert isinstance(out[0], FrameLengthError)
    assert out[1:] == [good]
    assert len(reader._buf) == 0


def test_oversize_frames_are_refused_on_both_sides() -> None:
    with pytest.raises(FrameLengthError):
        Frame(0x10, 0, bytes(MAX_FRAME))
    too_long = cobs.encode(bytes(MAX_FRAME + 1))
    with pytest.raises(FrameLengthError):
        Frame.decode(too_long)
    with pytest.raises(tcproto.ProtoError):
        tcproto.decode_frame(too_long)


def test_firmware_splitter_matches_reader() -> None:
    sent = [Frame(0x11, i, bytes([i]) * 5) for i in range(10)]
    splitter = tcproto.Splitter()
    chunks = splitter.feed(b"junk\x00" + encode_all(sent))
    assert [tcproto.decode_frame(c)[2] for c in chunks[1:]] == [f.payload for f in sent]
