"""Firmware logic that needs no Pico, under CPython: debouncing, presence, dice, MFRC522 helpers."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.firmware import mfrc522, tablelogic, tcproto


def test_debouncer_ignores_bounces_and_reports_edges() -> None:
    d = tablelogic.Debouncer(hold_ms=20)
    assert d.update(True, 0) is None
    assert d.update(False, 3) is None  # bounce
    assert d.update(True, 5) is None
    assert d.update(True, 24) is None
    assert d.update(True, 25) is True
    assert d.update(True, 100) is None
    assert d.update(False, 200) is None
    assert d.update(False, 221) is False


def test_presence_needs_several_misses_per_tag_and_keeps_several_tags() -> None:
    a, b = b"\x01\x02\x03\x04", b"\x05\x06\x07\x08"
    p = tablelogic.Presence(misses=3)
    assert p.update([a]) == [("present", a)]
    assert p.update(None) == [] and p.update([]) == []
    assert p.update([a]) == []  # a flaky read, not a removal
    assert p.update([a, b]) == [("present", b)]  # a second card on the line does not displace the first
    assert p.uids() == [a, b]
    assert p.update([b]) == [] and p.update([b]) == []
    assert p.update([b]) == [("removed", a)]  # a alone missed three polls in a row
    assert [p.update([]) for _ in range(3)][-1] == [("removed", b)]
    assert p.uids() == []


@pytest.mark.parametrize(
    ("readers", "dice", "wanted", "expected"), [(4, 2, 12, 12), (8, 2, 12, 7), (1, 0, 99, 62)]
)
def test_max_tags_per_reader_keeps_a_full_state_in_one_frame(
    readers: int, dice: int, wanted: int, expected: int
) -> None:
    got = tablelogic.max_tags_per_reader(readers, dice, wanted, tcproto.MAX_FRAME)
    assert got == expected
    uid = bytes(7)
    payload = tcproto.state_payload(
        0, [(r, [uid] * got) for r in range(readers)], [(d, 20) for d in range(dice)]
    )
    assert len(tcproto.encode_frame(tcproto.STATE, 0, payload)) > 0
    assert 6 + len(payload) <= tcproto.MAX_FRAME


def test_a_config_naming_a_die_kind_gets_a_clear_message() -> None:
    assert tablelogic.die_faces({"id": 1, "faces": 6, "pin": 11}) == 6
    with pytest.raises(
        ValueError, match=r'die 1 needs its number of faces, e.g. "faces": 6.*\[table\.dice\]'
    ):
        tablelogic.die_faces({"id": 1, "kind": "cube", "pin": 11})


def test_die_tumbles_then_settles_on_a_face_in_range() -> None:
    rng = random.Random(4)
    die = tablelogic.Die(0, 20, rng.randint, tumble_ms=300)
    assert die.update(0) is None
    die.press(1000)
    assert die.update(1100) is None and 1 <= die.showing <= 20
    die.press(1200)  # pressing again mid-tumble does not restart it
    face = die.update(1300)
    assert face is not None and 1 <= face <= 20 and die.face == face
    assert die.update(1400) is None


@pytest.mark.parametrize(("mv", "percent"), [(3000, 0), (3300, 0), (3750, 50), (4200, 100), (4400, 100)])
def test_battery_percent(mv: int, percent: int) -> None:
    assert tablelogic.battery_percent(mv) == percent


def test_bcc_and_cascade_uid_assembly() -> None:
    assert mfrc522.bcc(b"\x88\x04\xa1\xb2") == 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2
    assert mfrc522.assemble_uid([b"\x01\x02\x03\x04"]) == b"\x01\x02\x03\x04"
    seven = mfrc522.assemble_uid([b"\x88\x04\xa1\xb2", b"\xc3\xd4\xe5\xf6"])
    assert seven.hex().upper() == "04A1B2C3D4E5F6"
    ten = mfrc522.assemble_uid([b"\x88\x01\x02\x03", b"\x88\x04\x05\x06", b"\x07\x08\x09\x0a"])
    assert ten == bytes(range(1, 11))
    with pytest.raises(ValueError):
        mfrc522.assemble_uid([b"\x88\x01\x02\x03"] * 2 + [b"\x01\x02"])


def test_select_frame_carries_crc_a_low_byte_first() -> None:
    frame = mfrc522.with_crc_a(b"\x93\x70\x01\x02\x03\x04\x04")
    crc = mfrc522.crc_a(frame[:-2])
    assert frame[-2:] == bytes([crc & 0xFF, crc >> 8])
    assert mfrc522.crc_a(frame) == 0  # the residue the driver checks on each SAK


def test_firmware_and_host_agree_on_every_message_type_number() -> None:
    """The two sides keep their own constants (MicroPython has no enum): they must never drift."""
    from firmware_bridge.messages import MsgType

    for member in MsgType:
        assert getattr(tcproto, member.name) == member.value, member.name
