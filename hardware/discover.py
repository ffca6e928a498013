"""What sensors this Pi has, for ``companion devices``: SPI buses, keyboard readers, cameras, Bluetooth.

Only looks (lists /dev and /sys, asks picamera2 and bleak when installed); opens nothing for long.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

BY_ID = Path("/dev/input/by-id")


def spi_devices(dev: Path = Path("/dev")) -> list[str]:
    return sorted(str(p) for p in dev.glob("spidev*"))


def keyboard_readers(by_id: Path = BY_ID) -> list[dict[str, str]]:
    """USB keyboards by their stable path: the RFID readers are among them (their names say so)."""
    if not by_id.is_dir():
        return []
    return [
        {"device": str(link), "name": link.name.removeprefix("usb-").removesuffix("-event-kbd")}
        for link in sorted(by_id.iterdir())
        if link.name.endswith("-event-kbd")
    ]


def cameras(dev: Path = Path("/dev")) -> list[dict[str, str]]:
    found = [
        {"source": f"camera:{p.name.removeprefix('video')}", "device": str(p)}
        for p in sorted(dev.glob("video[0-9]*"))
    ]
    try:
        from picamera2 import Picamera2
    except ImportError:
        return found
    for number, info in enumerate(Picamera2.global_camera_info()):
        found.insert(number, {"source": f"picam:{number}", "device": str(info.get("Model", "Pi camera"))})
    return found


def bluetooth_adapters(sys_class: Path = Path("/sys/class/bluetooth")) -> list[str]:
    return sorted(os.listdir(sys_class)) if sys_class.is_dir() else []


def scan_dice(seconds: float) -> list[dict[str, Any]]:
    """Pixels and GoDice advertising nearby (needs bleak and a Bluetooth adapter)."""
    from bleak import BleakScanner

    from hardware import godice_protocol as godice
    from hardware import pixels_protocol as pixels

    async def scan() -> list[dict[str, Any]]:
        found = await BleakScanner.discover(timeout=seconds, return_adv=True)
        dice = []
        for device, advert in found.values():
            name = advert.local_name or device.name or ""
            data = (advert.service_data or {}).get(pixels.SERVICE)
            if name.startswith(godice.NAME_PREFIX):
                dice.append({"type": "godice", "name": name, "address": device.address, "rssi": advert.rssi})
            elif data is not None or pixels.SERVICE in (advert.service_uuids or []):
                pixel_id = pixels.advertised_pixel_id(bytes(data or b""))
                dice.append({"type": "pixels", "name": name, "address": device.address, "rssi": advert.rssi,
                             "pixel_id": f"0x{pixel_id:08X}" if pixel_id is not None else None})  # fmt: skip
        return dice

    return asyncio.run(scan())
