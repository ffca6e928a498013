"""``companion.cli.wiring``: which adapters the settings switch on, and that they are connected up."""

from __future__ import annotations

from pathlib import Path

from companion.cli.wiring import adapters, serial_port
from companion.engine import JSON
from companion.session import Session
from companion.session.contract import Command
from companion.settings import Settings

from .waiting import wait_until

GPIO = {"pin_factory": "mock", "shout_buttons": [17, 27], "player_leds": [5, 6], "buzzer": 12}
PLAYERS = [{"name": "Grotsnik", "colour": "#e23b3b"}, {"name": "Ugluk", "colour": "#2f7df6"}]


def test_serial_port_from_the_setting_or_a_section() -> None:
    assert serial_port(Settings()) is None
    assert serial_port(Settings(serial_port="2E8A:0005")) == "2E8A:0005"
    assert serial_port(Settings(extra={"firmware": {"port": "/dev/ttyACM0"}})) == "/dev/ttyACM0"
    assert serial_port(Settings(extra={"serial": {"port": "loop://"}})) == "loop://"


def test_a_missing_serial_device_shows_as_searching(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, serial_port=str(tmp_path / "no-such-port"))
    with Session(db) as session, adapters(settings, session) as wired:
        assert wired.link is not None
        assert wait_until(session, lambda: "firmware" in session.view()["devices"])
        firmware: dict[str, JSON] = session.view()["devices"]["firmware"]  # type: ignore[assignment]
        assert firmware["state"] == "searching"


def test_gpio_with_the_mock_pin_factory_follows_the_turn(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, extra={"hardware": {"gpio": GPIO}})
    with Session(db) as session, adapters(settings, session) as wired:
        assert wired.link is None
        assert wired.gpio is not None
        setup = {"game": "chaos-marauders", "players": PLAYERS}
        assert session.submit(Command(kind="new_game", source="control", payload=setup)).accepted
        leds = wired.gpio.leds.leds
        assert wait_until(session, lambda: [led.value for led in leds] == [1, 0], timeout=3.0)


def test_spi_readers_that_cannot_open_report_why_and_the_table_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    section = {"readers": [{"reader": 10, "spi": "7.0"}]}  # spidev absent here, or no bus 7 on a Pi
    settings = Settings(db=db, extra={"hardware": {"mfrc522": section}})
    with Session(db) as session, adapters(settings, session) as wired:
        assert "rfid-spi" in wired.sensors
        assert wait_until(session, lambda: "rfid-spi" in session.view()["devices"])
        status: dict[str, JSON] = session.view()["devices"]["rfid-spi"]  # type: ignore[assignment]
        assert status["state"] == "error"
        setup = {"game": "chaos-marauders", "players": PLAYERS}
        assert session.submit(Command(kind="new_game", source="control", payload=setup)).accepted


def test_a_sensor_section_with_a_mistake_stops_serve_with_one_line(tmp_path: Path, capsys) -> None:
    from companion.cli import main

    config = tmp_path / "table.toml"
    config.write_text('[hardware.mfrc522]\nreaders = [{ reader = 1, spi = "zero" }]\n')
    assert main(["serve", "--config", str(config), "--db", str(tmp_path / "t.sqlite3")]) == 2
    assert "expected BUS.CS" in capsys.readouterr().err


def test_keyboard_readers_not_plugged_in_are_searching(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    section = [{"reader": 20, "device": str(tmp_path / "event-kbd")}]
    settings = Settings(db=db, extra={"hardware": {"hid_readers": section}})
    with Session(db) as session, adapters(settings, session) as wired:
        assert "hid-readers" in wired.sensors
        assert wait_until(session, lambda: "hid-readers" in session.view()["devices"])
        status: dict[str, JSON] = session.view()["devices"]["hid-readers"]  # type: ignore[assignment]
        assert status["state"] == "searching"
