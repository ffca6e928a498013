"""Finding the board: a port spec is a path, a /dev/serial/by-id link, ``VID:PID`` or a pyserial URL."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import serial
from serial.tools import list_ports

RASPBERRY_PI_VID = 0x2E8A
"""USB vendor of the RP2040; MicroPython on a Pico enumerates as 2E8A:0005."""
BY_ID = Path("/dev/serial/by-id")
_VID_PID = re.compile(r"^(?:usb:)?([0-9A-Fa-f]{4}):([0-9A-Fa-f]{4})$")


class PortNotFoundError(LookupError):
    """No serial port matches the spec (yet): the link keeps searching."""


@dataclass(frozen=True)
class PortInfo:
    device: str
    by_id: str | None
    vid: int | None
    pid: int | None
    serial_number: str | None
    description: str

    def as_dict(self) -> dict[str, str | int | None]:
        return {
            "device": self.device,
            "by_id": self.by_id,
            "vid_pid": f"{self.vid:04X}:{self.pid:04X}"
            if self.vid is not None and self.pid is not None
            else None,
            "serial_number": self.serial_number,
            "description": self.description,
        }


def _by_id_links() -> dict[str, str]:
    """Real device path → its stable /dev/serial/by-id link (which survives re-enumeration)."""
    if not BY_ID.is_dir():
        return {}
    return {os.path.realpath(link): str(link) for link in sorted(BY_ID.iterdir())}


def list_candidates(vid: int | None = RASPBERRY_PI_VID, pid: int | None = None) -> list[PortInfo]:
    """Serial ports that look like our board (any USB serial port when ``vid`` is None)."""
    links = _by_id_links()
    found = []
    for port in list_ports.comports():
        if port.vid is None or (vid is not None and port.vid != vid) or (pid is not None and port.pid != pid):
            continue
        found.append(
            PortInfo(
                port.device,
                links.get(os.path.realpath(port.device)),
                port.vid,
                port.pid,
                port.serial_number,
                port.description or "",
            )
        )
    return found


def resolve(spec: str) -> str:
    """The URL or path to hand to ``serial.serial_for_url`` for ``spec``, or ``PortNotFoundError``.

    ``VID:PID`` (optionally ``usb:VID:PID``) is looked up now, on every attempt, because the board's
    /dev/ttyACMn can change each time it is plugged in. Paths must exist; URLs pass through.
    """
    match = _VID_PID.match(spec)
    if match:
        vid, pid = int(match[1], 16), int(match[2], 16)
        ports = list_candidates(vid, pid)
        if not ports:
            raise PortNotFoundError(f"no USB serial port with VID:PID {spec}")
        return ports[0].by_id or ports[0].device
    if "://" in spec:
        return spec
    if not os.path.exists(spec):
        raise PortNotFoundError(f"{spec} does not exist")
    return spec


def open_port(spec: str, baudrate: int = 115200, timeout: float = 0.02) -> serial.SerialBase:
    """Open ``spec`` (see ``resolve``); raises ``PortNotFoundError`` or ``serial.SerialException``."""
    return serial.serial_for_url(resolve(spec), baudrate=baudrate, timeout=timeout, write_timeout=0.5)
