"""``companion devices``: list boards on USB, or connect to one and show what it reports."""

from __future__ import annotations

import argparse
import json
import queue
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("devices", help="list table boards, or connect to one and describe it")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--port", help="serial port path, /dev/serial/by-id link or VID:PID")
    target.add_argument("--url", help="any pyserial URL (loop://, hwgrep://2E8A:0005, socket://...)")
    parser.add_argument("--all", action="store_true", help="list every USB serial port, not only Picos")
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
    if args.json:
        print(json.dumps(ports))
    elif not ports:
        print("no boards found (try --all, or plug the table in)")
    for port in [] if args.json else ports:
        print(f"{port['by_id'] or port['device']}  [{port['vid_pid']}] {port['description']}")
    return 0


def _describe(spec: str, args: argparse.Namespace) -> int:
    from firmware_bridge.link import HostLink

    statuses: queue.Queue[dict[str, Any]] = queue.Queue()
    link = HostLink(spec, on_observation=lambda _obs: None, on_status=statuses.put)
    link.start()
    try:
        status = _wait_for_state_report(statuses, args.timeout)
    finally:
        link.stop()
    if isinstance(status, str):  # the port itself is the problem, not the board
        print(f"cannot open {spec}: {status}")
        return 1
    if status is None:
        print(f"no HELLO and state report from {spec} within {args.timeout} s")
        return 1
    if args.json:
        print(json.dumps(status))
    else:
        _print(status)
    return 0


def _wait_for_state_report(
    statuses: queue.Queue[dict[str, Any]], timeout: float
) -> dict[str, Any] | str | None:
    """The first state report; or why the port cannot be opened (a path that is not there answers at
    once, a port that fails to open with its last error); None when the board says nothing in time."""
    import time

    deadline = time.monotonic() + timeout
    error: str | None = None
    while (left := deadline - time.monotonic()) > 0:
        try:
            status = statuses.get(timeout=left)
        except queue.Empty:
            break
        if status["state"] == "connected" and status["counters"]["state_reports"] > 0:
            return status
        error = status.get("error") or error
        if error and "does not exist" in error:
            return error
    return error


def _print(status: dict[str, Any]) -> None:
    caps = status["capabilities"]
    print(f"device    {status['device_id']}  (boot {status['boot_id']})")
    print(f"firmware  {status['firmware']}")
    print(f"port      {status['port']} -> {status['path']}")
    dice = ", ".join(f"{d['id']}:{d['kind']}" for d in caps["dice"]) or "none"
    print(f"readers   {caps['readers']}   dice {dice}   buttons {caps['buttons'] or 'none'}")
    for reader in range(caps["readers"]):
        print(f"  reader {reader}: {', '.join(status['tags'].get(str(reader), [])) or '-'}")
    for die, face in status["dice"].items():
        print(f"  die {die}: face {face}")
    if status["battery"]:
        print(f"battery   {status['battery']['millivolts']} mV ({status['battery']['percent']} %)")
