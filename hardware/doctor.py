"""``companion doctor``'s device checks: what the service user may open, what is plugged in, what is free.

Each check returns a ``Check`` with what was found and, when something is wrong, the command or step
that fixes it. Nothing here changes anything: a GPIO pin is claimed and released at once, a device
node is only opened to see that it can be.
"""

from __future__ import annotations

import grp
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

OK, WARN, FAIL, SKIP = "ok", "warn", "fail", "skip"
SERVICE_USER = "table-companion"


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    detail: str
    fix: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "fix": self.fix}


def check_groups(needed: dict[str, str], user: str | None = None) -> list[Check]:
    """``needed``: group -> what it is for. Root may open anything, but the service does not run as root."""
    mine = set(os.getgroups()) | {os.getgid()}
    who = user or SERVICE_USER
    checks = []
    for group, purpose in needed.items():
        try:
            gid = grp.getgrnam(group).gr_gid
        except KeyError:
            checks.append(
                Check(
                    f"group {group}",
                    WARN,
                    f"no group {group} on this system ({purpose})",
                    "on Raspberry Pi OS it exists; elsewhere the device may need a udev rule",
                )
            )
            continue
        if gid in mine:
            checks.append(Check(f"group {group}", OK, f"this user is in {group} ({purpose})"))
        elif os.geteuid() == 0:
            checks.append(
                Check(
                    f"group {group}",
                    WARN,
                    f"running as root: cannot tell for the service ({purpose})",
                    f"run the doctor as the service: sudo -u {who} companion doctor ...",
                )
            )
        else:
            checks.append(
                Check(
                    f"group {group}",
                    FAIL,
                    f"this user is not in {group} ({purpose})",
                    f"sudo usermod -aG {group} {who}; then restart the service (or log in again)",
                )
            )
    return checks


def check_node(name: str, path: str, purpose: str, group: str) -> Check:
    """A device node exists and this user may read and write it."""
    if not os.path.exists(path):
        return Check(name, FAIL, f"{path} is missing ({purpose})", _missing_fix(path))
    if not os.access(path, os.R_OK | os.W_OK):
        return Check(
            name,
            FAIL,
            f"{path} is there but not ours to open",
            f"add the user to group {group} (sudo usermod -aG {group} {SERVICE_USER})",
        )
    return Check(name, OK, f"{path} ({purpose})")


def _missing_fix(path: str) -> str:
    if path.startswith("/dev/spidev"):
        return "enable SPI: sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in config.txt), then reboot"
    if path.startswith("/dev/input/"):
        return "plug the reader in; ls /dev/input/by-id/ shows its name (…-event-kbd)"
    if path.startswith("/dev/table-bridge"):
        return (
            "plug the Pico in (with the firmware flashed); deploy/install.sh installs the udev rule naming it"
        )
    return "plug it in, or correct the path in table.toml"


def check_gpio_pins(pins: Iterable[tuple[str, int]], factory_name: str) -> list[Check]:
    """Each configured pin can be claimed now (and is released at once)."""
    pins = list(pins)
    if not pins:
        return []
    from hardware.config import make_pin_factory

    try:
        factory = make_pin_factory(factory_name)
    except Exception as exc:
        return [Check("GPIO", FAIL, f"pin library {factory_name!r} does not start: {exc}",
                      "on a Pi: sudo apt install python3-lgpio (the venv sees system packages)")]  # fmt: skip
    checks = []
    try:
        for role, pin in pins:
            try:
                factory.pin(pin).close()
            except Exception as exc:
                checks.append(
                    Check(
                        f"GPIO{pin}",
                        FAIL,
                        f"{role}: cannot claim GPIO{pin}: {exc}",
                        "another program holds it (the service? stop it first), or the pin is wrong",
                    )
                )
            else:
                checks.append(Check(f"GPIO{pin}", OK, f"{role}: free"))
    finally:
        factory.close()
    return checks


def check_spi_chip(reader: int, address: Any, hz: int) -> Check:
    """An MFRC522 answers on its chip select (VersionReg)."""
    from hardware.mfrc522 import KNOWN_VERSIONS, Mfrc522
    from hardware.spi import SpidevDevice

    device = SpidevDevice(address, hz)
    try:
        device.open()
        version = Mfrc522(device).init()
    except OSError as exc:
        return Check(f"RFID reader {reader}", FAIL, str(exc), _missing_fix(address.path))
    finally:
        device.close()
    if version in (0x00, 0xFF):
        return Check(
            f"RFID reader {reader}",
            FAIL,
            f"no MFRC522 answers on SPI {address}",
            "check SDA(CS)/SCK/MOSI/MISO wiring and 3.3 V power (never 5 V)",
        )
    return Check(f"RFID reader {reader}", OK, f"{KNOWN_VERSIONS.get(version, hex(version))} on SPI {address}")


def check_bluetooth() -> Check:
    adapters = sorted(os.listdir("/sys/class/bluetooth")) if os.path.isdir("/sys/class/bluetooth") else []
    if not adapters:
        return Check(
            "Bluetooth",
            FAIL,
            "no Bluetooth adapter (hci0)",
            "sudo rfkill unblock bluetooth; is bluez installed?",
        )
    try:
        import bleak  # noqa: F401
    except ImportError:
        return Check(
            "Bluetooth",
            FAIL,
            f"adapter {adapters[0]} present, but bleak is not installed",
            "pip install 'table-companion[pi]' in the service's venv (deploy/install.sh does)",
        )
    return Check("Bluetooth", OK, f"adapter {adapters[0]}, bleak installed")
