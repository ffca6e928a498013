"""``companion devices``: list boards on USB and the sensors beside them, or connect to a board and show it.

Without ``--port``: the bridge boards, then what this Pi has for sensors (SPI buses for MFRC522 readers,
USB keyboard readers by their stable path, cameras, Bluetooth adapters; with ``--scan-dice S`` the
Pixels and GoDice advertising nearby), and with ``--config`` each configured sensor and whether it is
there. ``--json`` prints the boards' list; with ``--sensors`` one object with every section.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("devices", help="list table boards, or connect to one and describe it")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--port", help="serial port path, /dev/serial/by-id link or VID:PID")
    target.add_argument("--url", help="any pyserial URL (loop://, hwgrep://2E8A:0005, socket://...)")
    parser.add_argument("--all", action="store_true", help="list every USB serial port, not only Picos")
    parser.add_argument("--config", type=Path, help="settings file: also show each configured sensor")
    parser.add_argument(
        "--sensors", action="store_true", help="with --json: boards and sensors as one object"
    )
    parser.add_argument("--scan-dice", type=float, metavar="S", help="listen S seconds for Bluetooth dice")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for HELLO and state")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    spec = args.port or args.url
    if spec is None:
        return _list(args)
    return _describe(spec, args)


def _list(args: argparse.Namespace) -> int:
    from firmware_bridge.ports import RASPBERRY_PI_VID, list_candidates

    ports = [p.as_dict() for p in list_candidates(None if args.all else RASPBERRY_PI_VID)]
    if args.json and not args.sensors:
        print(json.dumps(ports))
        return 0
    sensors = _sensors(args)
    if args.json:
        print(json.dumps({"boards": ports, **sensors}))
        return 0
    print("bridge boards:" if ports else "no boards found (try --all, or plug the table in)")
    for port in ports:
        serial = f"  serial {port['serial_number']}" if port["serial_number"] else ""
        print(f"  {port['by_id'] or port['device']}  [{port['vid_pid']}] {port['description']}{serial}")
    _print_sensors(sensors)
    return 0


def _sensors(args: argparse.Namespace) -> dict[str, Any]:
    from hardware import discover

    found: dict[str, Any] = {
        "spi": discover.spi_devices(),
        "keyboards": discover.keyboard_readers(),
        "cameras": discover.cameras(),
        "bluetooth": discover.bluetooth_adapters(),
    }
    if args.scan_dice:
        try:
            found["dice"] = discover.scan_dice(args.scan_dice)
        except Exception as exc:  # no bleak, no adapter, BlueZ not running: say so and list the rest
            found["dice_error"] = f"{type(exc).__name__}: {exc}"
    if args.config is not None:
        found["configured"] = _configured(args.config)
    return found


def _configured(path: Path) -> list[dict[str, Any]]:
    """Each sensor of the settings file, with the device node it needs and whether that is there."""
    from companion.cli.sensors import hardware_section
    from companion.settings import load_settings

    settings = load_settings(path)
    rows: list[dict[str, Any]] = []
    if (section := hardware_section(settings, "mfrc522")) is not None:
        from hardware.rfid_spi import Mfrc522Config

        for reader in Mfrc522Config.from_mapping(section).readers:
            path_ = reader.address.path
            rows.append(
                {
                    "sensor": f"MFRC522 reader {reader.reader}",
                    "needs": path_,
                    "present": os.path.exists(path_),
                }
            )
    if (section := hardware_section(settings, "hid_readers")) is not None:
        from hardware.hid_readers import HidReaderConfig

        for hid in HidReaderConfig.list_from(section):
            rows.append(
                {
                    "sensor": f"keyboard reader {hid.reader}",
                    "needs": hid.device,
                    "present": os.path.exists(hid.device),
                }
            )
    if (section := hardware_section(settings, "ble_dice")) is not None:
        from hardware.ble_dice import BleDieConfig

        for die in BleDieConfig.list_from(section):
            rows.append(
                {"sensor": f"{die.type} die {die.die} ({die.label})", "needs": "Bluetooth", "present": None}
            )
    if settings.camera is not None:
        rows.append({"sensor": "camera", "needs": settings.camera.source, "present": None})
    return rows


def _print_sensors(sensors: dict[str, Any]) -> None:
    print("SPI buses (MFRC522 readers):", ", ".join(sensors["spi"]) or "none (enable SPI: raspi-config)")
    print(
        "USB keyboards (keyboard RFID readers among them):" if sensors["keyboards"] else "USB keyboards: none"
    )
    for keyboard in sensors["keyboards"]:
        print(f"  {keyboard['device']}")
    print("cameras:", ", ".join(f"{c['source']} ({c['device']})" for c in sensors["cameras"]) or "none")
    print("Bluetooth:", ", ".join(sensors["bluetooth"]) or "no adapter")
    if "dice" in sensors:
        print("Bluetooth dice nearby:" if sensors["dice"] else "Bluetooth dice nearby: none heard")
        for die in sensors["dice"]:
            which = f"pixel_id = {die['pixel_id']}" if die.get("pixel_id") else f'name = "{die["name"]}"'
            print(f"  {die['type']:7} {die['name']:24} {die['address']}  ({which})")
    if "dice_error" in sensors:
        print(f"Bluetooth dice: cannot scan ({sensors['dice_error']})")
    if "configured" in sensors:
        print("configured sensors:")
        for row in sensors["configured"]:
            mark = {True: "present", False: "MISSING", None: "-"}[row["present"]]
            print(f"  {row['sensor']}: {row['needs']} [{mark}]")


def _describe(spec: str, args: argparse.Namespace) -> int:
    from firmware_bridge.link import HostLink

    statuses: queue.Queue[dict[str, Any]] = queue.Queue()
    link = HostLink(spec, on_observation=lambda _obs: None, on_status=statuses.put)
    link.start()
    last: list[dict[str, Any]] = []
    try:
        status = _wait_for_state_report(statuses, args.timeout, last)
    finally:
        link.stop()
    if isinstance(status, str):  # the port itself is the problem, not the board
        print(f"cannot open {spec}: {status}")
        return 1
    if status is None:
        print(f"no HELLO and state report from {spec} within {args.timeout} s")
        if last and last[-1].get("error"):
            print(last[-1]["error"])  # e.g. the board's firmware speaks another protocol version
        return 1
    if args.json:
        print(json.dumps(status))
    else:
        _print(status)
    return 0


def _wait_for_state_report(
    statuses: queue.Queue[dict[str, Any]], timeout: float, seen: list[dict[str, Any]]
) -> dict[str, Any] | str | None:
    """The first state report; or why the port cannot be opened (a path that is not there answers at
    once, a port that fails to open with its last error); None when the board says nothing in time.
    ``seen`` keeps the last status of a running link (a board on another protocol version says so)."""
    import time

    from firmware_bridge.host import VERSION_ERROR_PREFIX

    deadline = time.monotonic() + timeout
    error: str | None = None
    while (left := deadline - time.monotonic()) > 0:
        try:
            status = statuses.get(timeout=left)
        except queue.Empty:
            break
        if status["state"] != "stopped":
            seen[:] = [status]
        if status["state"] == "connected" and status["counters"]["state_reports"] > 0:
            return status
        if (status.get("error") or "").startswith(VERSION_ERROR_PREFIX):
            continue  # the port opened: the board answered on another protocol, said after the wait
        error = status.get("error") or error
        if error and "does not exist" in error:
            return error
    return error


def _print(status: dict[str, Any]) -> None:
    caps = status["capabilities"]
    print(f"device    {status['device_id']}  (boot {status['boot_id']})")
    print(f"firmware  {status['firmware']}")
    print(f"port      {status['port']} -> {status['path']}")
    dice = ", ".join(f"{d['id']} ({d['faces'] or '?'} faces)" for d in caps["dice"]) or "none"
    print(f"readers   {caps['readers']}   dice {dice}   buttons {caps['buttons'] or 'none'}")
    for reader in range(caps["readers"]):
        print(f"  reader {reader}: {', '.join(status['tags'].get(str(reader), [])) or '-'}")
    for die, face in status["dice"].items():
        print(f"  die {die}: face {face}")
    if status["battery"]:
        print(f"battery   {status['battery']['millivolts']} mV ({status['battery']['percent']} %)")
