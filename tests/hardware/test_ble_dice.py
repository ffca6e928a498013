"""Pixels and GoDice over Bluetooth, against fake peripherals that speak the published bytes."""

from __future__ import annotations

import queue
import struct

import pytest

from companion.observations import DieRolled
from hardware import godice_protocol as godice
from hardware import pixels_protocol as pixels
from hardware.ble_dice import BleDieConfig, DiceService
from hardware.fake_ble import FakeAir, FakeGoDice, FakePixel
from hardware.sensors import SensorConfigError

PIXEL_ID = 0x1A2B3C4D


def wait_for(statuses: queue.Queue, ok, timeout: float = 5.0) -> dict:
    while True:
        status = statuses.get(timeout=timeout)
        if ok(status):
            return status


def connected(status: dict) -> bool:
    return status["state"] == "connected"


# -- the published formats --------------------------------------------------------------------------


def test_a_legacy_i_am_a_die_is_22_bytes_in_the_documented_order() -> None:
    data = FakePixel("A", "Pixel", PIXEL_ID, "d20", legacy=True).i_am_a_die()
    assert len(data) == pixels.LEGACY_I_AM_A_DIE_SIZE
    message = pixels.parse(data)
    assert message == pixels.IAmADie(PIXEL_ID, "d20", 20, pixels.ON_FACE, 0, 87, 0)


def test_a_chunked_i_am_a_die_gives_the_id_type_name_and_status() -> None:
    message = pixels.parse(FakePixel("A", "Grotsnik's d6", PIXEL_ID, "d6").i_am_a_die())
    assert isinstance(message, pixels.IAmADie)
    assert (message.pixel_id, message.die_type, message.name, message.battery_percent) == (
        PIXEL_ID, "d6", "Grotsnik's d6", 87,
    )  # fmt: skip


def test_a_chunk_that_runs_past_the_message_is_refused() -> None:
    with pytest.raises(pixels.PixelsMessageError):
        pixels.parse(bytes([pixels.I_AM_A_DIE, 40, 1, 2]))


def test_roll_state_and_battery_level_bytes() -> None:
    assert pixels.parse(bytes([3, 1, 19])) == pixels.RollState(pixels.ROLLED, 19)
    assert pixels.parse(bytes([34, 55, 2])) == pixels.BatteryLevel(55, 2)
    assert pixels.parse(bytes([29, 1, 2])) is None  # a message type we do not use
    assert pixels.who_are_you() == b"\x01"


@pytest.mark.parametrize(
    ("die_type", "index", "value", "face"),
    [
        ("d20", 19, 20, 20),
        ("d6", 0, 1, 1),
        ("d10", 0, 0, 10),
        ("d10", 7, 7, 7),
        ("d4", 5, 4, 4),
        ("d00", 3, 30, 3),
    ],
)
def test_pixels_face_values_follow_the_sdk(die_type: str, index: int, value: int, face: int) -> None:
    assert pixels.face_value(die_type, index) == value
    assert pixels.table_face(die_type, index) == face


def test_a_roll_is_a_rest_after_rolling_not_a_die_set_down() -> None:
    watcher = pixels.RollWatcher()
    assert watcher.update(pixels.RollState(pixels.ROLLED, 4)) is None  # the state it was in at connection
    assert watcher.update(pixels.RollState(pixels.HANDLING, 4)) is None
    assert watcher.update(pixels.RollState(pixels.ON_FACE, 2)) is None  # set down by hand
    assert watcher.update(pixels.RollState(pixels.ROLLING, 9)) is None
    assert watcher.update(pixels.RollState(pixels.ROLLED, 11)) == 11
    assert watcher.update(pixels.RollState(pixels.ROLLED, 11)) is None  # said again: one roll


def test_godice_events_parse_as_published() -> None:
    assert godice.parse(b"R") == godice.RollStarted()
    assert godice.parse(b"S" + bytes([0xC0, 0, 0])) == godice.Stable((-64, 0, 0), "S")
    assert godice.parse(b"MS" + bytes([0, 0, 64])) == godice.Stable((0, 0, 64), "MS")
    assert not godice.parse(b"FS\x00\x00\x40").is_roll  # type: ignore[union-attr]
    assert godice.parse(b"Bat" + bytes([42])) == godice.Battery(42)
    assert godice.parse(b"Col\x03") == godice.Colour("blue")
    with pytest.raises(godice.GoDiceMessageError):
        godice.parse(b"Q??")


@pytest.mark.parametrize("shell", ["d6", "d20", "d12", "d8", "d4", "d10", "d10x"])
def test_every_published_vector_reads_as_its_face(shell: str) -> None:
    spec = godice.shells()[shell]
    for face, vector in spec.vectors.items():
        assert spec.value(vector) == (spec.faces[face - 1] if spec.faces else face)


# -- the service, through the fake radio ----------------------------------------------------------


def service(air: FakeAir, entries: list[dict], observed: queue.Queue, statuses: queue.Queue) -> DiceService:
    return DiceService(
        BleDieConfig.list_from(entries), air, observed.put, statuses.put, reconnect_seconds=(0.05,)
    )


def test_a_pixel_rolls_reach_the_table_as_die_rolled_and_reconnect() -> None:
    pixel = FakePixel("AA:BB:CC:DD:EE:01", "Pixel d20", PIXEL_ID, "d20")
    air = FakeAir([pixel])
    observed: queue.Queue = queue.Queue()
    statuses: queue.Queue = queue.Queue()
    dice = service(air, [{"die": 10, "type": "pixels", "pixel_id": PIXEL_ID}], observed, statuses)
    dice.start()
    try:
        status = wait_for(statuses, lambda s: connected(s) and s["dice"][0]["kind"] == "d20")
        assert pixel.written[0] == b"\x01"  # WhoAreYou first
        assert status["dice"][0]["battery"] == 87
        pixel.put_down(5)
        pixel.roll(16)
        rolled = observed.get(timeout=5)
        assert isinstance(rolled, DieRolled)
        assert (rolled.die, rolled.face, rolled.faces) == (10, 17, 20)
        air.drop(pixel.address)  # out of range
        wait_for(statuses, lambda s: s["dice"][0]["state"] == "searching")
        wait_for(statuses, connected)  # found and connected again
        pixel.roll(0)
        assert observed.get(timeout=5).face == 1
        assert observed.empty()  # no roll from the put-down, none re-sent on reconnect
    finally:
        dice.close()


def test_a_legacy_pixel_says_its_six_faces_so_it_answers_the_cube() -> None:
    pixel = FakePixel("AA:BB:CC:DD:EE:02", "Cube", 7, "d6", legacy=True)
    observed: queue.Queue = queue.Queue()
    statuses: queue.Queue = queue.Queue()
    dice = service(FakeAir([pixel]), [{"die": 3, "type": "pixels", "name": "Cube"}], observed, statuses)
    dice.start()
    try:
        wait_for(statuses, lambda s: connected(s) and s["dice"][0]["rolls"] == 0 and pixel.written)
        wait_for(statuses, lambda s: s["dice"][0]["battery"] == 87)
        pixel.roll(2)
        rolled = observed.get(timeout=5)
        assert (rolled.die, rolled.face, rolled.faces) == (3, 3, 6)
        pixel.low_battery(9)
        status = wait_for(statuses, lambda s: s["dice"][0]["battery"] == 9)
        assert status["notices"] == [{"level": "info", "text": "Cube: battery 9 %"}]
    finally:
        dice.close()


def test_a_godice_reads_its_shell_and_ignores_a_nudge() -> None:
    die = FakeGoDice("AA:BB:CC:DD:EE:03", "GoDice_1A2B3C_R_v03", shell="d20")
    observed: queue.Queue = queue.Queue()
    statuses: queue.Queue = queue.Queue()
    entries = [{"die": 4, "type": "godice", "name": "GoDice_1A2B3C_R_v03", "shell": "d20"}]
    dice = service(FakeAir([die]), entries, observed, statuses)
    dice.start()
    try:
        wait_for(statuses, lambda s: connected(s) and s["dice"][0]["battery"] == 87)
        assert die.written == [bytes([3])]
        die.nudge(5)
        for value in (20, 1, 13):
            die.roll(value)
            rolled = observed.get(timeout=5)
            assert (rolled.die, rolled.face, rolled.faces) == (4, value, 20)
        assert observed.empty()
    finally:
        dice.close()


def test_a_die_switched_off_is_searched_for_until_it_appears() -> None:
    die = FakeGoDice("AA:BB:CC:DD:EE:04", "GoDice_00AA11_K_v03", shell="d6")
    die.switched_on = False
    air = FakeAir([die])
    statuses: queue.Queue = queue.Queue()
    dice = service(
        air, [{"die": 5, "type": "godice", "address": die.address, "shell": "d6"}], queue.Queue(), statuses
    )
    dice.start()
    try:
        wait_for(statuses, lambda s: s["dice"][0]["error"] and "not heard" in s["dice"][0]["error"])
        die.switched_on = True
        wait_for(statuses, connected)
        assert air.scans >= 2
    finally:
        dice.close()


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([{"die": 1, "type": "dicey", "name": "x"}], "type = "),
        ([{"die": 1, "type": "pixels"}], "say which die"),
        ([{"die": 1, "type": "godice", "name": "GoDice_1"}], "needs shell"),
        ([{"die": 1, "type": "pixels", "name": "a", "shell": "d6"}], "knows its own type"),
        (
            [{"die": 1, "type": "pixels", "name": "a"}, {"die": 1, "type": "pixels", "name": "b"}],
            "one number",
        ),
    ],
)
def test_configuration_mistakes(entries: list, message: str) -> None:
    with pytest.raises(SensorConfigError, match=message):
        BleDieConfig.list_from(entries)


def test_an_advert_matches_by_pixel_id_in_its_service_data() -> None:
    config = BleDieConfig(die=1, type="pixels", pixel_id=PIXEL_ID)
    assert config.matches(FakePixel("X", "any", PIXEL_ID).advert())
    assert not config.matches(FakePixel("X", "any", PIXEL_ID + 1).advert())
    assert (
        struct.unpack("<I", FakePixel("X", "any", PIXEL_ID).advert().service_data[pixels.SERVICE][:4])[0]
        == PIXEL_ID
    )


def test_without_bleak_each_die_says_what_to_install() -> None:
    class NoRadio:
        async def find(self, match, timeout):
            raise ModuleNotFoundError("No module named 'bleak'", name="bleak")

        async def connect(self, address, on_disconnect):
            raise AssertionError("never reached")

    statuses: queue.Queue = queue.Queue()
    entries = [{"die": 1, "type": "pixels", "name": "Pixel"}]
    dice = DiceService(
        BleDieConfig.list_from(entries), NoRadio(), lambda o: None, statuses.put, reconnect_seconds=(5,)
    )
    dice.start()
    try:
        status = wait_for(statuses, lambda s: s["dice"][0]["state"] == "error")
        assert "bleak is not installed" in status["dice"][0]["error"]
    finally:
        dice.close()


def test_a_die_kind_in_the_sensor_section_points_to_table_dice() -> None:
    with pytest.raises(SensorConfigError, match=r'\[table.dice\] \("3" = \["cube"\]\)'):
        BleDieConfig.list_from([{"die": 3, "type": "pixels", "name": "Cube", "kind": "cube"}])
