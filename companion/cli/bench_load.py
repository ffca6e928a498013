"""``companion bench idle`` and ``companion bench stalled``: the real server under hostile load.

Both start ``companion serve`` as its own process on 127.0.0.1 (an ephemeral port, a temporary event
log), so its memory is measured alone, and play a seeded Chaos Marauders game through
``POST /api/commands`` as a phone would (a local copy of the engine picks each legal action).

- ``idle``: an attacker process holds ``--connections`` sockets that send nothing (opening a new one
  whenever the server closes one) while a phone plays ``--rate`` commands a second, loads
  ``/api/view`` between them, and a TV streams: are they served, and how fast?
- ``stalled``: ``--streams`` clients open ``/stream`` and never read (a new one when the server closes
  one) while the phone plays ``--rate`` commands a second: the server's memory (VmRSS, VmHWM) and
  temporary files.

Every wait is bounded (a request 5 s, the run ``--seconds``); the attacker stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from companion.percentiles import percentile

PIN = "bench"
REQUEST_TIMEOUT = 5.0


def register(subparsers: argparse._SubParsersAction) -> None:
    idle = subparsers.add_parser("idle", help="phones and the TV while an attacker holds idle connections")
    idle.add_argument("--connections", type=int, default=500, help="idle sockets held (default 500)")
    idle.add_argument("--seconds", type=float, default=20.0, help="how long the attack lasts (default 20)")
    idle.add_argument("--rate", type=float, default=5.0, help="phone commands a second (default 5)")
    idle.add_argument("--seed", type=int, default=1, help="random seed of the game played")
    idle.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    idle.set_defaults(func=run_idle)
    stalled = subparsers.add_parser("stalled", help="server memory with streams that never read")
    stalled.add_argument("--streams", type=int, default=24, help="streams that never read (default 24)")
    stalled.add_argument("--seconds", type=float, default=60.0, help="how long (default 60)")
    stalled.add_argument("--rate", type=float, default=40.0, help="commands a second (default 40)")
    stalled.add_argument("--seed", type=int, default=1, help="random seed of the game played")
    stalled.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    stalled.set_defaults(func=run_stalled)


# -- the server under test ---------------------------------------------------------------------------


class ServerProcess:
    """``companion serve`` in its own process over a temporary event log."""

    def __init__(self, folder: Path) -> None:
        argv = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0"]
        argv += ["--db", str(folder / "bench.sqlite3"), "--pin", PIN, "--log-level", "WARNING"]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port = self._port()

    def _port(self) -> int:
        assert self.process.stdout is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            line = self.process.stdout.readline() if ready else ""
            if not line and self.process.poll() is not None:
                break
            found = re.search(r"TV scoreboard: http://[^:]+:(\d+)/", line)
            if found:
                return int(found.group(1))
        self.stop()
        raise RuntimeError("companion serve did not start within 30 s")

    def memory_kb(self) -> dict[str, int]:
        """VmRSS and VmHWM (the peak) of the server, in kB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return {k: int(v.split()[0]) for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(.+)$", status, re.M)}

    def temp_bytes(self) -> int:
        """Bytes in the deleted temporary files the server holds open (waitress spills big buffers)."""
        total = 0
        fds = Path(f"/proc/{self.process.pid}/fd")
        for fd in fds.iterdir():
            try:
                if os.readlink(fd).endswith("(deleted)"):
                    total += os.stat(fd).st_size
            except OSError:
                continue
        return total

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


def request(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        headers = {"Content-Type": "application/json", "X-Table-Pin": PIN}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


class Phone:
    """Plays a seeded game over HTTP, keeping a copy of the engine to pick legal actions."""

    def __init__(self, port: int, seed: int) -> None:
        from companion.demo_player import DemoBrain
        from companion.engine import Setup
        from companion.games import bundles

        self.port = port
        rng = random.Random(seed)
        bundle = next(b for b in bundles().values() if b.demo is not None)  # the first game with a demo
        kit = bundle.load_demo(rng)
        assert kit is not None
        self._brain = DemoBrain(kit, rng)
        self._game = bundle.load_engine()
        players = [dict(p) for p in kit.players][: self._game.max_players]
        self._setup_json = {"game": bundle.name, "players": players, "options": dict(kit.options)}
        self._setup = Setup.from_json(self._setup_json)
        self._state: Any = None
        self.latencies: list[float] = []
        self.failures = 0
        self.sent: list[tuple[int, float]] = []
        """(seq, time of the POST) of every accepted command."""

    def step(self) -> None:
        """One command: the next legal action, or a new game when none is left."""
        from companion.bundle import LivePosition

        action = None
        if self._state is not None and not self._game.is_over(self._state):
            position = LivePosition(0, "playing", self._game, self._state, self._setup)
            action = self._brain.next_action(position)
        body: dict[str, Any]
        if action is None:
            body = {"kind": "new_game", "payload": self._setup_json}
        else:
            body = {"kind": "act", "payload": self._game.format_action(action)}
        started = time.perf_counter()
        try:
            status, answer = request(self.port, "POST", "/api/commands", body)
        except (OSError, ValueError, http.client.HTTPException):
            self.failures += 1
            return
        if status != 200 or not answer.get("accepted"):
            self.failures += 1
            return
        self.latencies.append(time.perf_counter() - started)
        self.sent.append((int(answer["seq"]), started))
        self._state = (
            self._game.new_game(self._setup) if action is None else self._game.apply(self._state, action)[0]
        )


class Tv(threading.Thread):
    """One SSE client that reads everything: when each seq arrived."""

    def __init__(self, port: int, until: float) -> None:
        super().__init__(name="bench-tv", daemon=True)
        self.port, self.until = port, until
        self.arrivals: dict[int, float] = {}
        self.errors = 0

    def run(self) -> None:
        buffer = b""
        while time.monotonic() < self.until:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=REQUEST_TIMEOUT) as sock:
                    sock.sendall(b"GET /stream HTTP/1.1\r\nHost: bench\r\n\r\n")
                    sock.settimeout(0.5)
                    while time.monotonic() < self.until:
                        try:
                            data = sock.recv(1 << 16)
                        except TimeoutError:
                            continue
                        if not data:
                            break
                        now = time.perf_counter()
                        buffer += data
                        for seq in re.findall(rb"\nid: (\d+)\n", buffer):
                            self.arrivals.setdefault(int(seq), now)
                        buffer = buffer[-64:]
            except OSError:
                self.errors += 1
                time.sleep(0.2)  # a reconnecting TV waits a moment, as EventSource does

    def lags(self, sent: list[tuple[int, float]]) -> tuple[list[float], int]:
        """Per accepted command, POST to this TV having it (or a later view); and how many it never got."""
        times = sorted(self.arrivals.items())
        lags, missed = [], 0
        for seq, start in sent:
            arrived = min((t for s, t in times if s >= seq), default=None)
            if arrived is None:
                missed += 1
            else:
                lags.append(arrived - start)
        return lags, missed


def ms(values: list[float], q: float) -> float | None:
    return round((percentile(sorted(v * 1000 for v in values), q) or 0.0), 3) if values else None


# -- idle connections ----------------------------------------------------------------------------------


def hold_idle(port: int, count: int, seconds: float, pipe: Connection) -> None:
    """The attacker: ``count`` sockets that send nothing, each reopened when the server closes it."""
    deadline = time.monotonic() + seconds
    poller = select.poll()
    socks: dict[int, socket.socket] = {}
    opened = closed = failed = 0
    samples: list[int] = []

    def open_one() -> None:
        nonlocal opened, failed
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.connect_ex(("127.0.0.1", port))
        except OSError:
            failed += 1
            sock.close()
            return
        socks[sock.fileno()] = sock
        poller.register(sock, select.POLLIN | select.POLLRDHUP)
        opened += 1

    while len(socks) < count:
        open_one()
    next_sample = time.monotonic()
    while time.monotonic() < deadline:
        for fd, _ in poller.poll(100):
            sock = socks.pop(fd, None)
            if sock is not None:
                poller.unregister(fd)
                sock.close()
                closed += 1
        while len(socks) < count and time.monotonic() < deadline:
            open_one()
        if time.monotonic() >= next_sample:
            samples.append(len(socks))
            next_sample += 1.0
    for sock in socks.values():
        sock.close()
    pipe.send({"opened": opened, "closed_by_server": closed, "connect_failures": failed, "held": samples})


def run_idle(args: argparse.Namespace) -> int:
    figures = measure_idle(args.connections, args.seconds, args.rate, args.seed)
    report(figures, args.json)
    return 0 if figures["phone_failures"] == 0 and figures["tv_missed"] == 0 else 1


def measure_idle(connections: int, seconds: float, rate: float, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        server = ServerProcess(Path(folder))
        try:
            context = multiprocessing.get_context("spawn")
            mine, theirs = context.Pipe()
            attacker = context.Process(target=hold_idle, args=(server.port, connections, seconds + 2, theirs))
            attacker.start()
            time.sleep(2)  # the attacker's sockets open before the table is measured
            phone, views = Phone(server.port, seed), []
            tv = Tv(server.port, time.monotonic() + seconds + 1)
            tv.start()
            end = time.monotonic() + seconds
            next_at = time.monotonic()
            while time.monotonic() < end:
                phone.step()
                started = time.perf_counter()
                try:
                    request(server.port, "GET", "/api/view")
                    views.append(time.perf_counter() - started)
                except (OSError, ValueError, http.client.HTTPException):
                    phone.failures += 1
                next_at += 1.0 / rate
                time.sleep(max(0.0, next_at - time.monotonic()))  # the phone's pace
            tv.join(timeout=5)
            attack = mine.recv() if mine.poll(10) else {}
            attacker.join(timeout=5)
            memory = server.memory_kb()
        finally:
            server.stop()
    lags, missed = tv.lags(phone.sent)
    held = attack.get("held", [])
    return {
        "idle_connections": connections,
        "seconds": seconds,
        "attacker_opened": attack.get("opened"),
        "attacker_closed_by_server": attack.get("closed_by_server"),
        "attacker_held_p50": statistics.median(held) if held else None,
        "phone_commands": len(phone.latencies),
        "phone_failures": phone.failures,
        "command_p50_ms": ms(phone.latencies, 50),
        "command_p99_ms": ms(phone.latencies, 99),
        "command_max_ms": ms(phone.latencies, 100),
        "view_p50_ms": ms(views, 50),
        "view_p99_ms": ms(views, 99),
        "tv_updates": len(lags),
        "tv_missed": missed,
        "tv_lag_p50_ms": ms(lags, 50),
        "tv_lag_p99_ms": ms(lags, 99),
        "tv_reconnects": tv.errors,
        "server_rss_mb": round(memory.get("VmRSS", 0) / 1024, 1),
    }


# -- streams that never read ---------------------------------------------------------------------------


class StalledStreams:
    """Clients that open /stream and never read; one reopened whenever the server closes one."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.poller = select.poll()
        self.socks: dict[int, socket.socket] = {}
        self.closed_by_server = 0
        self.refused = 0
        self.top_up()

    def top_up(self) -> None:
        while len(self.socks) < self.count:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(REQUEST_TIMEOUT)
            try:
                sock.connect(("127.0.0.1", self.port))
                sock.sendall(b"GET /stream HTTP/1.1\r\nHost: bench\r\n\r\n")
            except OSError:
                self.refused += 1
                sock.close()
                return
            self.socks[sock.fileno()] = sock
            self.poller.register(sock, select.POLLRDHUP | select.POLLHUP)

    def reap(self) -> None:
        """Counts and replaces the streams the server closed (their unread bytes stay unread)."""
        for fd, _ in self.poller.poll(0):
            sock = self.socks.pop(fd, None)
            if sock is not None:
                self.poller.unregister(fd)
                sock.close()
                self.closed_by_server += 1
        self.top_up()

    def close(self) -> None:
        for sock in self.socks.values():
            sock.close()


def run_stalled(args: argparse.Namespace) -> int:
    figures = measure_stalled(args.streams, args.seconds, args.rate, args.seed)
    report(figures, args.json)
    return 0


def measure_stalled(streams: int, seconds: float, rate: float, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        server = ServerProcess(Path(folder))
        try:
            start_kb = server.memory_kb().get("VmRSS", 0)
            stalled = StalledStreams(server.port, streams)
            phone = Phone(server.port, seed)
            peak_temp = 0
            end = time.monotonic() + seconds
            next_at = time.monotonic()
            next_check = next_at
            while time.monotonic() < end:
                phone.step()
                if time.monotonic() >= next_check:
                    stalled.reap()
                    peak_temp = max(peak_temp, server.temp_bytes())
                    next_check += 1.0
                next_at += 1.0 / rate
                time.sleep(max(0.0, next_at - time.monotonic()))  # the commands' pace
            memory = server.memory_kb()
            temp = server.temp_bytes()
            stalled.close()
        finally:
            server.stop()
    return {
        "stalled_streams": streams,
        "seconds": seconds,
        "commands": len(phone.latencies),
        "command_failures": phone.failures,
        "command_p50_ms": ms(phone.latencies, 50),
        "command_p99_ms": ms(phone.latencies, 99),
        "streams_closed_by_server": stalled.closed_by_server,
        "streams_refused": stalled.refused,
        "rss_start_mb": round(start_kb / 1024, 1),
        "rss_end_mb": round(memory.get("VmRSS", 0) / 1024, 1),
        "rss_peak_mb": round(memory.get("VmHWM", 0) / 1024, 1),
        "temp_files_mb": round(temp / 2**20, 1),
        "temp_files_peak_mb": round(peak_temp / 2**20, 1),
    }


def report(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>26}: {value}")
