"""``companion bench start`` and ``companion bench rss``: the service as a Pi runs it, measured from outside.

``start``: a fresh ``companion serve`` process (a new event log, the settings a Pi installs) under a fake
systemd notify socket; seconds from spawning it to READY=1 and to the TV page answering 200, over
``--runs`` cold process starts (each a new interpreter; with ``--drop-caches`` the OS file cache is
emptied first, as after a boot).

``rss``: ``companion demo`` plays a whole ``--players`` game at ``--speed``; the process's resident
memory (VmRSS, and its peak VmHWM, from /proc) once the game is finished.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

_URL = re.compile(r"TV scoreboard: (http://\S+?)/?$")


def register(sub: argparse._SubParsersAction) -> None:
    start = sub.add_parser("start", help="service start to TV page served (seconds, cold process)")
    start.add_argument("--runs", type=int, default=3, help="process starts to time (default 3)")
    start.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one start")
    start.add_argument(
        "--drop-caches",
        action="store_true",
        help="empty the OS file cache before each start (root): a boot-cold start",
    )
    start.add_argument("--json", action="store_true")
    start.set_defaults(func=run_start)
    rss = sub.add_parser("rss", help="resident memory of the service after a whole demo game")
    rss.add_argument("--players", type=int, default=4)
    rss.add_argument("--speed", type=float, default=50.0)
    rss.add_argument("--seed", type=int, default=1)
    rss.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the game to end")
    rss.add_argument("--json", action="store_true")
    rss.set_defaults(func=run_rss)


def _companion() -> list[str]:
    return [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"]


def _get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def time_one_start(workdir: Path, timeout: float) -> dict[str, float]:
    """One cold ``companion serve``: seconds to READY=1 and to the TV page served (200)."""
    config = workdir / "table.toml"
    config.write_text(f'port = 0\nhost = "127.0.0.1"\npin = "4711"\ndb = "{workdir / "table.sqlite3"}"\n')
    with tempfile.TemporaryDirectory(prefix="sdn-", dir="/tmp") as folder:
        path = str(Path(folder) / "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(path)
            env = {**os.environ, "NOTIFY_SOCKET": path, "PYTHONUNBUFFERED": "1"}
            began = time.perf_counter()
            process = subprocess.Popen(
                [*_companion(), "serve", "--config", str(config)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            try:
                notify.settimeout(timeout)
                status = ""
                while "READY=1" not in status:
                    status = notify.recv(4096).decode()
                ready = time.perf_counter() - began
                url = status.split("STATUS=serving the TV at ", 1)[1].splitlines()[0]
                code, _ = _get(url)
                served = time.perf_counter() - began
                if code != 200:
                    raise RuntimeError(f"the TV page answered {code}")
            finally:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
    return {"ready_s": ready, "tv_page_s": served}


def run_start(args: argparse.Namespace) -> int:
    runs = []
    for _ in range(args.runs):
        if args.drop_caches:
            os.sync()
            try:
                Path("/proc/sys/vm/drop_caches").write_text("3\n")
            except OSError as exc:
                print(
                    f"companion bench start: cannot drop the file cache ({exc.strerror}): run as root",
                    file=sys.stderr,
                )
                return 1
        with tempfile.TemporaryDirectory() as folder:
            runs.append(time_one_start(Path(folder), args.timeout))
    figures = {
        "runs": len(runs),
        "file_cache": "dropped" if args.drop_caches else "warm",
        "ready_s": {
            "median": statistics.median(r["ready_s"] for r in runs),
            "max": max(r["ready_s"] for r in runs),
        },
        "tv_page_s": {
            "median": statistics.median(r["tv_page_s"] for r in runs),
            "max": max(r["tv_page_s"] for r in runs),
        },
    }
    if args.json:
        print(json.dumps(figures))
    else:
        cache = "file cache emptied before each" if args.drop_caches else "file cache warm"
        print(f"service start ({len(runs)} cold process starts, fresh event log, {cache}):")
        for key, label in (("ready_s", "READY=1 sent  "), ("tv_page_s", "TV page served")):
            figure = figures[key]
            print(f"  {label}  median {figure['median']:.2f} s   max {figure['max']:.2f} s")
    return 0


def memory_of(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in KiB (Linux /proc)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def run_rss(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as folder:
        command = [
            *_companion(), "demo", "--players", str(args.players), "--speed", str(args.speed),
            "--seed", str(args.seed), "--port", "0", "--host", "127.0.0.1", "--pin", "4711",
            "--db", str(Path(folder) / "table.sqlite3"),
        ]  # fmt: skip
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            url = _read_url(process)
            began = time.perf_counter()
            view = _wait_finished(url, args.timeout)
            played = time.perf_counter() - began
            memory = memory_of(process.pid)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    figures: dict[str, Any] = {
        "players": args.players,
        "game": view.get("game", {}).get("game") if isinstance(view.get("game"), dict) else None,
        "inputs": view.get("seq"),
        "game_seconds": round(played, 1),
        "rss_mib": round(memory["VmRSS"] / 1024, 1),
        "peak_rss_mib": round(memory["VmHWM"] / 1024, 1),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"after a {args.players}-player {figures['game']} game ({figures['inputs']} inputs, "
            f"{figures['game_seconds']} s): RSS {figures['rss_mib']} MiB, peak {figures['peak_rss_mib']} MiB"
        )
    return 0


def _read_url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    for line in process.stdout:
        match = _URL.search(line.strip())
        if match:
            return match[1]
    raise RuntimeError("companion demo ended before it printed its TV URL")


def _wait_finished(url: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code, body = _get(f"{url}/api/view")
        if code == 200:
            view = json.loads(body)
            if view.get("status") == "finished":
                return dict(view)
        time.sleep(0.5)  # a benchmark polling a live game over HTTP, not a test
    raise RuntimeError(f"the demo game did not finish within {timeout} s")
