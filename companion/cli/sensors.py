"""The sensors beside the bridge, built from ``[hardware.*]`` settings and started with the other adapters.

Wiring only: MFRC522 readers on the Pi's SPI (``[hardware.mfrc522]``), USB keyboard RFID readers
(``[[hardware.hid_readers]]``), Bluetooth dice (``[[hardware.ble_dice]]``). Each one's observations go
to the table like the bridge's, its status to the view's ``devices`` under its own name. A sensor that
cannot start says why there and the table plays on: hand entry on the control page replaces it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from typing import Any

from companion.session.contract import SessionPort
from companion.settings import Settings, SettingsError

log = logging.getLogger(__name__)


def hardware_section(settings: Settings, name: str) -> Any:
    hardware = settings.extra.get("hardware", {})
    return hardware.get(name) if isinstance(hardware, Mapping) else None


def check_sensor_settings(settings: Settings) -> None:
    """Parses every sensor section now, so a mistake stops start-up with one sentence (SettingsError)."""
    from hardware.sensors import SensorConfigError

    try:
        for parse, section in _sections(settings):
            parse(section)
    except SensorConfigError as exc:
        raise SettingsError(str(exc)) from None


def _sections(settings: Settings) -> list[tuple[Callable[[Any], Any], Any]]:
    from hardware.hid_readers import HidReaderConfig
    from hardware.rfid_spi import Mfrc522Config

    found: list[tuple[Callable[[Any], Any], Any]] = []
    if (section := hardware_section(settings, "mfrc522")) is not None:
        found.append((Mfrc522Config.from_mapping, section))
    if (section := hardware_section(settings, "hid_readers")) is not None:
        found.append((HidReaderConfig.list_from, section))
    if (section := hardware_section(settings, "ble_dice")) is not None:
        from hardware.ble_dice import BleDieConfig

        found.append((BleDieConfig.list_from, section))
    return found


def start_sensors(
    settings: Settings, session: SessionPort, sink: Callable[[Any], None], stack: ExitStack
) -> dict[str, Any]:
    """Starts every configured sensor; each one's ``close`` joins ``stack``. Returns them by device name."""
    started: dict[str, Any] = {}
    if (section := hardware_section(settings, "mfrc522")) is not None:
        readers = _start_mfrc522(section, session, sink)
        if readers is not None:
            stack.callback(readers.close)
            started["rfid-spi"] = readers
    if (section := hardware_section(settings, "hid_readers")) is not None:
        from hardware.hid_readers import DEVICE_NAME, HidReaderConfig, HidReaders

        keyboards = HidReaders(HidReaderConfig.list_from(section), sink, _reporter(session, DEVICE_NAME))
        keyboards.start()  # a reader not plugged in is "searching" on the control page, never an error here
        stack.callback(keyboards.close)
        started[DEVICE_NAME] = keyboards
    if (section := hardware_section(settings, "ble_dice")) is not None:
        dice = _start_ble_dice(section, session, sink)
        stack.callback(dice.close)
        started["ble-dice"] = dice
    return started


def _start_ble_dice(section: Any, session: SessionPort, sink: Callable[[Any], None]) -> Any:
    from hardware.ble_bleak import BleakTransport
    from hardware.ble_dice import DEVICE_NAME, BleDieConfig, DiceService

    # bleak is imported only when a die is looked for: without it each die says so on the control page.
    dice = DiceService(
        BleDieConfig.list_from(section), BleakTransport(), sink, _reporter(session, DEVICE_NAME)
    )
    dice.start()
    return dice


def _reporter(session: SessionPort, name: str) -> Callable[[dict[str, Any]], None]:
    def report(status: dict[str, Any]) -> None:
        session.report_device(name, status)

    return report


def _failed(session: SessionPort, name: str, what: str, exc: Exception) -> None:
    log.error("%s not started: %s", what, exc)
    session.report_device(
        name,
        {"state": "error", "detail": str(exc), "notices": [{"level": "warning", "text": f"{what}: {exc}"}]},
    )


def _start_mfrc522(section: Any, session: SessionPort, sink: Callable[[Any], None]) -> Any:
    from hardware.config import make_pin_factory
    from hardware.rfid_spi import DEVICE_NAME, Mfrc522Config, SpiReaders, spidev_opener

    config = Mfrc522Config.from_mapping(section)
    try:
        factory = (
            make_pin_factory(config.pin_factory)
            if config.reset is not None or any(r.address.cs_gpio is not None for r in config.readers)
            else None
        )
        readers = SpiReaders(
            config, spidev_opener(config.spi_hz, factory), sink, _reporter(session, DEVICE_NAME), factory
        )
        readers.start()
    except Exception as exc:  # a pin in use, no GPIO library: the table plays on without these readers
        _failed(session, DEVICE_NAME, "RFID readers on SPI", exc)
        return None
    return readers
