"""USB keyboard RFID readers through evdev: real input_event records in, one observation per scan out."""

from __future__ import annotations

import os
import queue

import pytest

from companion.observations import TagGone, TagSeen, TagUid
from hardware.fake_hid import FakeKeyboardReader, key_events
from hardware.hid_keys import EV_KEY, LineDecoder, events, pack
from hardware.hid_readers import (
    HidReaderConfig,
    HidReaders,
    NotACardNumberError,
    ScanPlaces,
    card_uid,
    open_grabbed,
)
from hardware.sensors import SensorConfigError

PATH_A = "/dev/input/by-id/usb-reader-a-event-kbd"
PATH_B = "/dev/input/by-id/usb-reader-b-event-kbd"


def decode(data: bytes) -> list[str]:
    decoder = LineDecoder()
    return [
        line for kind, code, value in events(data) if (line := decoder.feed(kind, code, value)) is not None
    ]


def test_a_typed_card_number_decodes_from_the_raw_events() -> None:
    assert decode(key_events("0004321234")) == ["0004321234"]
    assert decode(key_events("04A1b2")) == ["04A1b2"]  # Shift makes capitals
    repeat = pack(EV_KEY, 2, 2)  # an auto-repeat of "1" types nothing more
    assert decode(key_events("12")[: 4 * 24] + repeat + key_events("")) == ["1"]


def test_card_numbers_become_tag_uids() -> None:
    assert card_uid("0004321234", "decimal") == TagUid("0041EFD2")
    assert card_uid("4321234", "decimal") == card_uid("0004321234", "decimal")
    assert card_uid("04a1b2c3", "hex") == TagUid("04A1B2C3")
    for line, kind in (("12ab", "decimal"), ("04a1b", "hex"), ("zz", "hex"), ("9" * 41, "decimal")):
        with pytest.raises(NotACardNumberError):
            card_uid(line, kind)


def test_a_scan_at_another_reader_is_a_move_and_a_rescan_is_nothing() -> None:
    places = ScanPlaces()
    uid = TagUid("0041EFD2")
    assert places.scanned(20, uid, 1.0) == [TagSeen(20, uid, 1.0)]  # type: ignore[arg-type]
    assert places.scanned(20, uid, 2.0) == []
    assert places.scanned(21, uid, 3.0) == [TagGone(20, uid, 3.0), TagSeen(21, uid, 3.0)]  # type: ignore[arg-type]


def seen(observation: object) -> tuple:
    return (type(observation).__name__, observation.reader, observation.uid)  # type: ignore[attr-defined]


def wait_status(statuses: queue.Queue, ok, timeout: float = 5.0) -> dict:
    while True:
        status = statuses.get(timeout=timeout)
        if ok(status):
            return status


def test_readers_turn_scans_into_observations_and_survive_an_unplug() -> None:
    fake_a, fake_b = FakeKeyboardReader(PATH_A), FakeKeyboardReader(PATH_B)
    fakes = {PATH_A: fake_a, PATH_B: fake_b}
    observed: queue.Queue = queue.Queue()
    statuses: queue.Queue = queue.Queue()
    configs = HidReaderConfig.list_from(
        [{"reader": 20, "device": PATH_A}, {"reader": 21, "device": PATH_B, "format": "hex"}]
    )
    readers = HidReaders(configs, observed.put, statuses.put, opener=lambda path: fakes[path].opener(path))
    readers.start()
    try:
        wait_status(statuses, lambda s: s["state"] == "connected")
        fake_a.show_card("0004321234")
        assert seen(observed.get(timeout=5)) == ("TagSeen", 20, "0041EFD2")
        fake_b.show_card("0041efd2")  # the same card shown to the other reader: it moved
        assert seen(observed.get(timeout=5)) == ("TagGone", 20, "0041EFD2")
        assert seen(observed.get(timeout=5)) == ("TagSeen", 21, "0041EFD2")
        fake_a.show_card("NOTACARD".lower())  # garbage: a notice, no observation
        status = wait_status(statuses, lambda s: s["notices"])
        assert "not a decimal card number" in status["notices"][0]["text"]
        fake_a.unplug()
        wait_status(statuses, lambda s: s["readers"][0]["state"] == "searching")
        fake_a.plugged = True  # plugged back in: the reader reopens it by its path
        wait_status(statuses, lambda s: s["state"] == "connected", timeout=10)
        fake_a.show_card("0004321235")
        assert seen(observed.get(timeout=5)) == ("TagSeen", 20, "0041EFD3")
        assert observed.empty()
    finally:
        readers.close()
        fake_a.close()
        fake_b.close()


def test_the_real_opener_grabs_and_says_when_it_cannot(tmp_path) -> None:
    read_end, write_end = os.pipe()
    path = f"/proc/self/fd/{read_end}"  # a pipe is no input device: EVIOCGRAB must fail, and say so
    with pytest.raises(OSError, match="cannot grab"):
        open_grabbed(path)
    os.close(read_end)
    os.close(write_end)
    with pytest.raises(FileNotFoundError):
        open_grabbed(str(tmp_path / "event99"))


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([], "must be a list"),
        ([{"reader": 1}], "needs reader = N and device"),
        ([{"reader": 1, "device": "/dev/x", "format": "bcd"}], "not decimal or hex"),
        ([{"reader": 1, "device": "/dev/x"}, {"reader": 2, "device": "/dev/x"}], "name one device"),
        ([{"reader": 1, "device": "/dev/x", "zone": "line"}], "unknown keys"),
    ],
)
def test_configuration_mistakes(entries: list, message: str) -> None:
    with pytest.raises(SensorConfigError, match=message):
        HidReaderConfig.list_from(entries)
