"""A real table for browser tests: Session over a SQLite file, the web app on a real HTTP server."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from companion.cli.serve import Server
from companion.demo_player import DemoDeck, next_action
from companion.games import find_game
from companion.session import Command, Session
from web import create_app

PIN = "1357"
PLAYERS = [
    {"name": "Grotsnik", "colour": "#e23b3b"},
    {"name": "Ugluk", "colour": "#2f7df6"},
    {"name": "Snagla", "colour": "#2fb84f"},
    {"name": "Bogrot", "colour": "#f2b01e"},
]


class LiveTable:
    """Start, stop and restart (same database, same port) the companion under test."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = 0  # the first start picks a free port; restarts reuse it
        self.session: Session | None = None
        self.server: Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.session = Session(self.db)
        self.session.start()
        app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "browser-tests"}, self.session)
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

    def new_game(self, players: int = 4) -> int:
        answer = self.command("new_game", {"game": "chaos-marauders", "players": PLAYERS[:players]})
        assert answer["accepted"], answer
        return int(answer["seq"])

    def play(self, actions: int, seed: int = 7) -> int:
        """Lets the simulated table make ``actions`` moves through the session; the last seq."""
        assert self.session is not None
        game, rng = find_game("chaos-marauders"), random.Random(seed)
        deck = DemoDeck(rng)
        seq = 0
        for _ in range(actions):
            action = next_action(game, self.session.state, deck, rng)
            if action is None:
                break
            outcome = self.session.submit(Command("act", "demo", game.format_action(action)))
            assert outcome.accepted, outcome
            seq = int(outcome.seq or 0)
        return seq
