"""Every message type: hypothesis round trips, arbitrary payloads, and firmware/host agreement."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import messages as m
from firmware_bridge.errors import FrameError, PayloadError, UnknownMessageError
from firmware_bridge.firmware import tcproto
from firmware_bridge.frames import MAX_FRAME, VERSION, Frame
from firmware_bridge.reliability import HELD_BITS

u8 = st.integers(0, 255)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
device_ids = st.text(max_size=10).filter(lambda s: len(s.encode()) <= 32)

MESSAGES = {
    m.Hello: st.builds(
        m.Hello,
        firmware=st.tuples(u8, u8, u8),
        boot_id=u32,
        next_seq=u16,
        device_id=device_ids,
        readers=u8,
        dice=st.lists(st.builds(m.DieInfo, u8, u8), max_size=8).map(tuple),
        buttons=st.lists(u8, max_size=8).map(tuple),
    ),
    m.Heartbeat: st.builds(m.Heartbeat, u32),
    m.Battery: st.builds(m.Battery, u16, u8),
    m.Ack: st.builds(m.Ack, u16, u32, st.integers(0, 2**64 - 1)),
    m.TagPresent: st.builds(m.TagPresent, u8, uids),
    m.TagRemoved: st.builds(m.TagRemoved, u8, uids),
    m.DieRolled: st.builds(m.DieRolled, u8, st.integers(1, 255)),
    m.Button: st.builds(m.Button, u8, st.booleans(), u32),
    m.StateReport: st.builds(
        m.StateReport,
        u8,
        st.lists(st.builds(m.ReaderTags, u8, st.lists(uids, max_size=3).map(tuple)), max_size=8).map(tuple),
        st.lists(st.builds(m.DieFace, u8, u8), max_size=6).map(tuple),
    ),
    m.Led: st.builds(m.Led, u8, u8, st.tuples(u8, u8, u8)),
    m.Identify: st.builds(m.Identify, u16),
    m.Resync: st.just(m.Resync()),
}
any_message = st.one_of(*MESSAGES.values())


def test_every_message_type_has_a_strategy() -> None:
    assert set(MESSAGES) == set(m.MESSAGES.values())
    assert {cls.TYPE for cls in MESSAGES} == set(m.MsgType)


@given(any_message, u16)
def test_message_round_trip_through_frames_and_wire(message: m.Message, seq: int) -> None:
    frame = m.to_frame(message, seq)
    assert m.parse(Frame.decode(frame.encode()[:-1])) == message
    assert type(message).from_payload(message.to_payload()) == message


@given(any_message, st.binary(max_size=8))
def test_trailing_bytes_are_ignored_for_forward_compatibility(message: m.Message, extra: bytes) -> None:
    assert type(message).from_payload(message.to_payload() + extra) == message


@pytest.mark.parametrize("cls", list(MESSAGES), ids=lambda c: c.__name__)
@given(payload=st.binary(max_size=80))
def test_arbitrary_payload_raises_only_payload_errors(cls: type, payload: bytes) -> None:
    try:
        cls.from_payload(payload)
    except PayloadError:
        pass


@given(u8, st.binary(max_size=80))
def test_parse_any_frame_raises_only_frame_errors(msg_type: int, payload: bytes) -> None:
    try:
        m.parse(Frame(msg_type, 0, payload))
    except FrameError:
        pass


def test_unknown_type_and_bad_uid_are_distinct_errors() -> None:
    with pytest.raises(UnknownMessageError):
        m.parse(Frame(0x3E, 0, b""))
    with pytest.raises(PayloadError):
        m.TagPresent.from_payload(bytes([0, 5, 1, 2, 3, 4, 5]))
    with pytest.raises(PayloadError):
        m.Button.from_payload(bytes([0, 2, 0, 0, 0, 0]))


def test_reliable_range_covers_exactly_the_device_events() -> None:
    reliable = {t for t in m.MsgType if t in m.RELIABLE}
    assert reliable == {
        m.MsgType.TAG_PRESENT,
        m.MsgType.TAG_REMOVED,
        m.MsgType.DIE_ROLLED,
        m.MsgType.BUTTON,
        m.MsgType.STATE,
    }
    assert all(tcproto.is_reliable(t) == (t in m.RELIABLE) for t in range(256))


def test_firmware_type_codes_match_host() -> None:
    for t in m.MsgType:
        assert getattr(tcproto, t.name) == t.value
    assert tcproto.VERSION == VERSION and tcproto.MAX_FRAME == MAX_FRAME
    assert tcproto.SACK_BITS == HELD_BITS


def test_the_protocol_names_no_game_or_die_kind() -> None:
    """Issue 16.9: which die a device die is, and what its faces show, is table data, never wire."""
    for module in (m, tcproto):
        names = {name.lower() for name in vars(module)}
        assert not any("kind" in name for name in names if "die" in name), module
    source = (Path(tcproto.__file__).read_text() + Path(m.__file__).read_text()).lower()
    for word in ("cube", "heroscape", "combat", '"d20"', '"d6"'):
        assert word not in source


# --- what the firmware builds, the host reads (and back) -----------------------------------------


@given(MESSAGES[m.Hello])
def test_firmware_hello_payload(hello: m.Hello) -> None:
    built = tcproto.hello_payload(
        hello.firmware,
        hello.boot_id,
        hello.next_seq,
        hello.device_id,
        hello.readers,
        [(d.die, d.faces) for d in hello.dice],
        list(hello.buttons),
    )
    assert built == hello.to_payload()


@given(MESSAGES[m.TagPresent])
def test_firmware_tag_payload(tag: m.TagPresent) -> None:
    assert tcproto.tag_payload(tag.reader, tag.uid) == tag.to_payload()


@given(MESSAGES[m.DieRolled], MESSAGES[m.Button], MESSAGES[m.Heartbeat], MESSAGES[m.Battery])
def test_firmware_small_payloads(die: m.DieRolled, button: m.Button, hb: m.Heartbeat, bat: m.Battery) -> None:
    assert tcproto.die_payload(die.die, die.face) == die.to_payload()
    assert tcproto.button_payload(button.button, button.pressed, button.device_ms) == button.to_payload()
    assert tcproto.heartbeat_payload(hb.uptime_ms) == hb.to_payload()
    assert tcproto.battery_payload(bat.millivolts, bat.percent) == bat.to_payload()


@given(MESSAGES[m.StateReport])
def test_firmware_state_payload(report: m.StateReport) -> None:
    tags = [(r.reader, list(r.uids)) for r in report.readers]
    dice = [(d.die, d.face) for d in report.dice]
    assert tcproto.state_payload(report.reason, tags, dice) == report.to_payload()


@given(MESSAGES[m.Ack], MESSAGES[m.Led], MESSAGES[m.Identify])
def test_firmware_parses_host_commands(ack: m.Ack, led: m.Led, identify: m.Identify) -> None:
    assert tuple(tcproto.parse_ack(ack.to_payload())) == (ack.seq, ack.boot_id, ack.held)
    assert tcproto.parse_led(led.to_payload()) == (led.led, led.pattern, led.rgb)
    assert tcproto.parse_identify(identify.to_payload()) == identify.duration_ms


def test_firmware_refuses_bad_uid_lengths() -> None:
    with pytest.raises(tcproto.ProtoError):
        tcproto.tag_payload(0, b"\x01\x02\x03")
