"""The adapters a table runs with, built from the settings and started around the web server.

Wiring only: which adapter exists is decided by configuration, what each does lives in its package.

* the Table (always): ``[table]`` layout, tags in the event log's SQLite file;
* the serial link (when a port is configured: ``serial_port = ...``, or ``port`` in a ``[firmware]``
  or ``[serial]`` section): its status becomes the view's ``devices["firmware"]``, its observations go
  to the table;
* the GPIO stack (when ``[hardware.gpio]`` is present);
* the camera (when ``[camera]`` is present): its cards go to the table on their own path, its status
  becomes the view's ``devices["camera"]``; it follows the game being played (that game's mat and
  faces); a camera that cannot start says why there and the table plays on;
* the sensors beside the bridge (``[hardware.mfrc522]``, ``[[hardware.hid_readers]]``,
  ``[[hardware.ble_dice]]``), built by ``companion.cli.sensors``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from companion.cli.sensors import start_sensors
from companion.dice import Dice
from companion.session.contract import SessionPort
from companion.settings import Settings
from companion.table import DiceOwners, Table, TableConfig, TagRegistry

log = logging.getLogger(__name__)

FIRMWARE_DEVICE = "firmware"
"""The name the serial device's status has in the view's ``devices`` (the TV shows it)."""
CAMERA_DEVICE = "camera"


@dataclass
class Adapters:
    table: Table
    link: Any | None = None
    """The ``firmware_bridge.link.HostLink`` when a serial port is configured."""
    gpio: Any | None = None
    """The ``hardware.stack.GpioStack`` when ``[hardware.gpio]`` is configured."""
    camera: Any | None = None
    """The ``vision.service.CameraService`` when ``[camera]`` is configured (and could start)."""
    sensors: dict[str, Any] = field(default_factory=dict)
    """The sensors beside the bridge that started (``companion.cli.sensors``), by device name."""


def serial_port(settings: Settings) -> str | None:
    """The configured port spec (path, by-id link, ``VID:PID`` or pyserial URL), if any."""
    if settings.serial_port:
        return settings.serial_port
    for section in ("serial", "firmware"):
        value = settings.extra.get(section, {})
        port = value.get("port") if isinstance(value, Mapping) else None
        if isinstance(port, str) and port:
            return port
    return None


def gpio_section(settings: Settings) -> Mapping[str, Any] | None:
    hardware = settings.extra.get("hardware", {})
    section = hardware.get("gpio") if isinstance(hardware, Mapping) else None
    return section if isinstance(section, Mapping) else None


@contextmanager
def adapters(settings: Settings, session: SessionPort, frames: Any | None = None) -> Iterator[Adapters]:
    """Builds and starts the configured adapters; stops them (last started first) when the block ends.

    ``frames`` is the camera's frame source when the caller made it (the demo's rendered table)."""
    with ExitStack() as stack:
        registry = TagRegistry.open(settings.db)
        stack.callback(registry.close)
        owners = DiceOwners.open(settings.db)
        stack.callback(owners.close)
        table = Table(
            session,
            TableConfig.from_mapping(settings.extra.get("table", {})),
            registry,
            dice=Dice.load(
                owner_data=settings.game_data
            ),  # the owner's corrected faces, as the engines read them
            owners=owners,
        )
        table.start()
        stack.callback(table.stop)
        wired = Adapters(table)
        port = serial_port(settings)
        if port is not None:
            wired.link = _start_link(port, session, table)
            stack.callback(wired.link.stop)
        section = gpio_section(settings)
        if section is not None:
            wired.gpio = _start_gpio(section, session, table)
            stack.callback(wired.gpio.close)
        if settings.camera is not None:
            wired.camera = _start_camera(settings, session, table, frames)
            if wired.camera is not None:
                stack.callback(wired.camera.stop)
        wired.sensors = start_sensors(settings, session, table.observe, stack)
        yield wired


def _start_link(port: str, session: SessionPort, table: Table) -> Any:
    from firmware_bridge.link import HostLink

    def report(status: dict[str, Any]) -> None:
        session.report_device(FIRMWARE_DEVICE, status)

    link = HostLink(port, on_observation=table.observe, on_status=report)
    report(link.status())  # "searching" on the TV from the first moment, not after the first attempt
    link.start()
    log.info("serial link on %s", port)
    return link


def _start_gpio(section: Mapping[str, Any], session: SessionPort, table: Table) -> Any:
    from hardware.config import GpioConfig
    from hardware.stack import GpioStack

    gpio = GpioStack(GpioConfig.from_mapping(section), session, table.observe)
    table.on_rejected(gpio.rejected)
    gpio.start()
    return gpio


def _start_camera(settings: Settings, session: SessionPort, table: Table, frames: Any | None) -> Any:
    from vision.service import CameraSetupError, camera_service

    def report(status: dict[str, Any]) -> None:
        session.report_device(CAMERA_DEVICE, status)

    camera_settings = settings.camera
    assert camera_settings is not None
    game = session.position().game_name or settings.game  # the game being played, else the default

    def references_of(name: str) -> Any:
        return camera_settings.references_for(settings.db, name)

    try:
        camera = camera_service(
            camera_settings,
            game,
            references_of(game),
            table.observe,
            report,
            frames,
            follow=lambda: session.position().game_name,
            references_of=references_of,
            move_s=table.config.move_ms / 1000,
        )
    except CameraSetupError as exc:
        log.error("camera not started: %s", exc)
        report(
            {
                "state": "error",
                "detail": str(exc),
                "notices": [{"level": "warning", "text": f"Camera: {exc}"}],
            }
        )
        return None
    camera.start()
    return camera
