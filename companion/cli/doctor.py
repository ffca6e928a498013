"""``companion doctor``: checks the whole chain a table needs and prints what to fix.

Settings -> groups -> each configured device (bridge board, SPI readers, keyboard readers, GPIO pins,
camera and mat, Bluetooth) -> the web port. When the service is already running it holds the devices:
the doctor then reads their status from the service (``/api/view``) instead of opening them.
Exit status 0 when nothing failed, 1 otherwise; ``--json`` prints ``{"ok", "checks": [{"name",
"status", "detail", "fix"}]}``.
"""

from __future__ import annotations

import argparse
import json
import socket
import urllib.request
from pathlib import Path
from typing import Any

from companion.cli.sensors import hardware_section
from companion.settings import Settings, SettingsError, load_settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check groups, devices, camera, pins and port; say what to fix"
    )
    parser.add_argument("--config", type=Path, help="settings file (default /etc/table-companion/table.toml)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for a board or a frame")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


DEFAULT_CONFIG = Path("/etc/table-companion/table.toml")


def run(args: argparse.Namespace) -> int:
    from hardware.doctor import FAIL, OK, Check

    path = args.config or (DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None)
    checks: list[Check] = []
    try:
        from companion.cli.sensors import check_sensor_settings

        settings = load_settings(path).checked_game()
        check_sensor_settings(settings)
        checks.append(Check("settings", OK, f"{path or 'defaults (no --config)'} loads"))
    except SettingsError as exc:
        checks.append(Check("settings", FAIL, str(exc), f"correct {path}"))
        return _print(checks, args.json)
    running = _running_view(settings)
    if running is not None:
        checks.append(
            Check("service", OK, f"already serving on port {settings.port}: devices read from its status")
        )
        checks += _from_service(running)
    else:
        checks += _devices(settings, args.timeout)
        checks.append(_port_free(settings))
    return _print(checks, args.json)


def _needed_groups(settings: Settings) -> dict[str, str]:
    from companion.cli.wiring import gpio_section, serial_port

    needed: dict[str, str] = {}
    if serial_port(settings):
        needed["dialout"] = "the bridge board's serial port"
    if gpio_section(settings) is not None or hardware_section(settings, "mfrc522") is not None:
        needed["gpio"] = "buttons, LEDs, the readers' reset line"
    if hardware_section(settings, "mfrc522") is not None:
        needed["spi"] = "MFRC522 readers on SPI"
    if hardware_section(settings, "hid_readers") is not None:
        needed["input"] = "USB keyboard readers"
    if settings.camera is not None:
        needed["video"] = "the camera"
    if hardware_section(settings, "ble_dice") is not None:
        needed["bluetooth"] = "Bluetooth dice (BlueZ over D-Bus)"
    return needed


def _devices(settings: Settings, timeout: float) -> list[Any]:
    from companion.cli.wiring import gpio_section, serial_port
    from hardware.doctor import check_bluetooth, check_gpio_pins, check_groups, check_node, check_spi_chip

    checks = check_groups(_needed_groups(settings))
    port = serial_port(settings)
    if port is not None:
        checks.append(_bridge(port, timeout))
    pins: list[tuple[str, int]] = []
    factory = "lgpio"
    if (section := gpio_section(settings)) is not None:
        from hardware.config import GpioConfig

        gpio = GpioConfig.from_mapping(section)
        pins += gpio.pins()
        factory = gpio.pin_factory
    if (section := hardware_section(settings, "mfrc522")) is not None:
        from hardware.rfid_spi import Mfrc522Config

        spi = Mfrc522Config.from_mapping(section)
        pins += [("readers' reset", spi.reset)] if spi.reset is not None else []
        pins += [
            (f"reader {r.reader} chip select", r.address.cs_gpio) for r in spi.readers if r.address.cs_gpio
        ]
        for reader in spi.readers:
            node = check_node(
                f"SPI {reader.address.path}", reader.address.path, f"reader {reader.reader}", "spi"
            )
            checks.append(
                node if node.status != "ok" else check_spi_chip(reader.reader, reader.address, spi.spi_hz)
            )
    checks += check_gpio_pins(pins, factory)
    if (section := hardware_section(settings, "hid_readers")) is not None:
        from hardware.hid_readers import HidReaderConfig

        for hid in HidReaderConfig.list_from(section):
            checks.append(
                check_node(f"keyboard reader {hid.reader}", hid.device, "a USB RFID reader", "input")
            )
    if settings.camera is not None:
        checks += _camera(settings, timeout)
    if hardware_section(settings, "ble_dice") is not None:
        checks.append(check_bluetooth())
    return checks


def _bridge(port: str, timeout: float) -> Any:
    import queue
    import time

    from firmware_bridge.link import HostLink
    from hardware.doctor import FAIL, OK, Check

    statuses: queue.Queue[dict[str, Any]] = queue.Queue()
    link = HostLink(port, on_observation=lambda _o: None, on_status=statuses.put)
    link.start()
    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                last = statuses.get(timeout=left)
            except queue.Empty:
                break
            if last.get("state") == "connected":
                return Check(
                    "bridge board", OK, f"{port}: firmware {last.get('firmware')}, {last.get('path')}"
                )
    finally:
        link.stop()
    error = last.get("error") or f"no HELLO within {timeout:.0f} s"
    fix = (
        "plug the Pico in (`companion devices` lists boards); deploy/install.sh names it /dev/table-bridge"
        if "does not exist" in str(error) or "no USB serial port" in str(error)
        else "is the firmware flashed (firmware_bridge/firmware/README.md)? another program on the port?"
    )
    return Check("bridge board", FAIL, f"{port}: {error}", fix)


def _camera(settings: Settings, timeout: float) -> list[Any]:
    import time

    from hardware.doctor import FAIL, OK, WARN, Check

    assert settings.camera is not None
    from vision.capture import SourceError, open_source

    spec = settings.camera.source
    try:
        source = open_source(spec)
        source.open()
    except SourceError as exc:
        return [Check("camera", FAIL, str(exc), "check the cable and `[camera] source` (camera:0, picam:0)")]
    try:
        deadline = time.monotonic() + timeout
        frame = None
        while frame is None and time.monotonic() < deadline:
            frame = source.read()
    finally:
        source.close()
    if frame is None:
        return [
            Check(
                "camera",
                FAIL,
                f"{spec} opened but gave no frame in {timeout:.0f} s",
                "is another program using it?",
            )
        ]
    checks = [Check("camera", OK, f"{spec}: {frame.image.shape[1]}x{frame.image.shape[0]} frames")]
    from vision.mat import MatFinder
    from vision.zones import LayoutError, load_layout

    try:
        layout = load_layout(settings.game, settings.camera.players, settings.camera.layout)
    except LayoutError as exc:
        return [*checks, Check("mat", WARN, str(exc), "name a mat layout of your own: [camera] layout = ...")]
    view = MatFinder(layout).find(frame.image)
    if view is None:
        checks.append(
            Check(
                "mat",
                WARN,
                "the mat's markers are not in view",
                "lay the printed mat under the camera, all of it in frame and lit (companion vision mat)",
            )
        )
    else:
        checks.append(_resolution(layout, view))
    return checks


def _resolution(layout: Any, view: Any) -> Any:
    """The mat in view, and whether the camera gives its cards the pixels they are read at: every
    card (``ACCURATE_PX_PER_MM``), cards whose art differs (``READ_PX_PER_MM``), or fewer."""
    import statistics

    from hardware.doctor import OK, WARN, Check
    from vision.geometry import ACCURATE_PX_PER_MM, READ_PX_PER_MM

    px = statistics.median(view.px_per_mm(slot.centre) for zone in layout.zones for slot in zone.slots)
    seen = f"the mat is in view ({view.markers} markers read, {px:.2f} px/mm)"
    if px >= ACCURATE_PX_PER_MM:
        return Check("mat", OK, seen)
    closer = (
        f"hang the camera lower or use one with more pixels: {ACCURATE_PX_PER_MM} px/mm reads every card "
        "(docs/vision.md, Geometry)"
    )
    if px >= READ_PX_PER_MM:
        return Check("mat", WARN, f"{seen}: cards of one look (much text, small art) may go unread", closer)
    return Check("mat", WARN, f"{seen}: too few pixels to read the cards reliably", closer)


def _running_view(settings: Settings) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{settings.port}/api/view", timeout=2) as answer:
            view = json.loads(answer.read())
    except (OSError, ValueError):
        return None
    return view if isinstance(view, dict) and "devices" in view else None


def _from_service(view: dict[str, Any]) -> list[Any]:
    from hardware.doctor import FAIL, OK, WARN, Check

    checks = []
    for name, status in sorted((view.get("devices") or {}).items()):
        state = str(status.get("state", "?")) if isinstance(status, dict) else "?"
        detail = status.get("detail") or status.get("error") or "" if isinstance(status, dict) else ""
        verdict = (
            OK if state in ("connected", "ready", "ok", "running") else FAIL if state == "error" else WARN
        )
        checks.append(
            Check(
                name,
                verdict,
                f"{state} {detail}".strip(),
                None if verdict == OK else "see the control page's Devices",
            )
        )
    checks.append(Check("TV page", OK, "served (the service answered /api/view)"))
    return checks


def _port_free(settings: Settings) -> Any:
    from hardware.doctor import FAIL, OK, Check

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((settings.host if settings.host != "0.0.0.0" else "", settings.port))
        except OSError as exc:
            return Check(
                "web port",
                FAIL,
                f"port {settings.port} is taken ({exc.strerror})",
                "another program listens there: change port = in table.toml, or stop it",
            )
    return Check("web port", OK, f"port {settings.port} is free for the TV page")


SYMBOLS = {"ok": "✓", "warn": "!", "fail": "✗", "skip": "-"}


def _print(checks: list[Any], as_json: bool) -> int:
    failed = any(check.status == "fail" for check in checks)
    if as_json:
        print(json.dumps({"ok": not failed, "checks": [check.to_json() for check in checks]}))
    else:
        for check in checks:
            print(f"{SYMBOLS.get(check.status, '?')} {check.name}: {check.detail}")
            if check.fix:
                print(f"    fix: {check.fix}")
        print("all good" if not failed else "something to fix (✗ above)")
    return 1 if failed else 0
