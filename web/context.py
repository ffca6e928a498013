"""Where request handlers find the app's collaborators (the session), without globals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from flask import Flask, current_app

from companion.engine import JSON
from companion.session.contract import SessionPort

_SESSION = "companion.session"


class Records(Protocol):
    """What the API reads from the event log besides the SessionPort (``companion.session.Session``)."""

    def games(self) -> list[dict[str, JSON]]: ...

    def history(self, game_id: int | None = None, limit: int = 100) -> list[dict[str, JSON]]: ...

    def export_jsonl(self, game_id: int | None = None) -> Iterator[str]: ...

    def replaced_game(self, game_id: int | None = None) -> dict[str, JSON] | None: ...


def init_app(app: Flask, session: SessionPort) -> None:
    app.extensions[_SESSION] = session


def current_session() -> SessionPort:
    """The session of the app handling the current request."""
    return current_app.extensions[_SESSION]


def records() -> Records:
    """The session as a reader of the event log (history, games, export)."""
    return current_app.extensions[_SESSION]
