"""A real table for browser tests: Session over a SQLite file, the web app on a real HTTP server."""

from __future__ import annotations

import json
import random
import shutil
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.cli.serve import Server
from companion.demo_player import DemoBrain
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo
from companion.session import Command, Session
from web import create_app

PIN = "1357"
PLAYERS = [
    {"name": "Grotsnik", "colour": "#e23b3b"},
    {"name": "Ugluk", "colour": "#2f7df6"},
    {"name": "Snagla", "colour": "#2fb84f"},
    {"name": "Bogrot", "colour": "#f2b01e"},
]


def find_chromium() -> str | None:
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def chromium_or_skip(path: str | None, environ: Mapping[str, str]) -> str:
    """The browser to drive; skips without one, or fails when the environment requires a browser."""
    if path is None:
        message = "no Chromium: install Debian's chromium (apt-get install chromium)"
        if environ.get("COMPANION_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{message}; COMPANION_REQUIRE_BROWSER=1 makes this a failure")
        pytest.skip(message)
    return path


class LiveTable:
    """Start, stop and restart (same database, same port) the companion under test."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = 0  # the first start picks a free port; restarts reuse it
        self.session: Session | None = None
        self.server: Server | None = None
        self.scanner: Any = None
        """The phone scanner the app gets (``web.scan``), set before ``start``."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.session = Session(self.db)
        self.session.start()
        app = create_app(
            {"TABLE_PIN": PIN, "SECRET_KEY": "browser-tests"}, self.session, scanner=self.scanner
        )
        self.server = Server(app, "127.0.0.1", self.port).start()
        self.port = self.server.port

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.session is not None:
            self.session.stop()
            self.session = None

    def command(self, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """POSTs a command to the API over HTTP, as a phone or script would; returns the Outcome."""
        body = json.dumps({"kind": kind, "payload": payload or {}}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/commands",
            data=body,
            headers={"Content-Type": "application/json", "X-Table-Pin": PIN},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answer: dict[str, Any] = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            answer = json.loads(exc.read())
        return answer

    def new_game(
        self, players: int = 4, game: str = "chaos-marauders", options: dict[str, Any] | None = None
    ) -> int:
        payload = {"game": game, "players": PLAYERS[:players], "options": options or {}}
        answer = self.command("new_game", payload)
        assert answer["accepted"], answer
        return int(answer["seq"])

    def play(
        self, actions: int, seed: int = 7, kit: Callable[[random.Random], Any] = ChaosMaraudersDemo
    ) -> int:
        """Lets the simulated table (``kit``: a game's demo kit) make ``actions`` moves through the
        session; the last seq."""
        assert self.session is not None
        rng = random.Random(seed)
        brain = DemoBrain(kit(rng), rng)
        seq = 0
        for _ in range(actions):
            position = self.session.position()
            action = brain.next_action(position)
            if action is None or position.game is None:
                break
            outcome = self.session.submit(Command("act", "demo", position.game.format_action(action)))
            assert outcome.accepted, outcome
            seq = int(outcome.seq or 0)
        return seq

    def play_until(
        self, done, seed: int = 7, limit: int = 3000, kit: Callable[[random.Random], Any] = ChaosMaraudersDemo
    ) -> None:
        """Lets the simulated table play through the session until ``done(position)``."""
        assert self.session is not None
        rng = random.Random(seed)
        brain = DemoBrain(kit(rng), rng)
        for _ in range(limit):
            position = self.session.position()
            if position.prompt is not None and done(position):
                return
            action = brain.next_action(position)
            assert action is not None and position.game is not None, "the game ended first"
            outcome = self.session.submit(Command("act", "demo", position.game.format_action(action)))
            assert outcome.accepted, outcome
        raise AssertionError("the position never came")


class FreezingProxy:
    """A TCP proxy in front of the server that can freeze its open connections without closing them:
    what a TV sees when the Pi loses power (no reset ever arrives). New connections still pass."""

    def __init__(self, target_port: int) -> None:
        self._target = target_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._frozen: list[threading.Event] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def freeze(self) -> None:
        """Every connection open now stops passing data, silently and for good."""
        with self._lock:
            for event in self._frozen:
                event.set()

    def close(self) -> None:
        self._closing.set()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self._target))
            frozen = threading.Event()
            with self._lock:
                self._frozen.append(frozen)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink, frozen), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, frozen: threading.Event) -> None:
        try:
            while data := source.recv(1 << 16):
                if frozen.is_set():
                    continue  # swallowed: the other end never hears of it
                sink.sendall(data)
        except OSError:
            pass
