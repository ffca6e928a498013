"""Fixtures for the web app: a real session over a temporary event log, the app over it, clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import Session
from web import create_app

from .web_support import LEGAL_PLACE, PIN, new_game_body


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "table.sqlite3") as real:
        yield real


@pytest.fixture
def app(session: Session) -> Flask:
    return create_app({"TABLE_PIN": PIN, "SECRET_KEY": "test-secret", "TESTING": True}, session)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def pin_headers() -> dict[str, str]:
    return {"X-Table-Pin": PIN}


@pytest.fixture
def logged_in(client: FlaskClient) -> FlaskClient:
    """A client that entered the PIN on the control page (the phone's cookie)."""
    response = client.post("/control/pin", data={"pin": PIN})
    assert response.status_code == 303
    return client


@pytest.fixture
def playing(client: FlaskClient, pin_headers: dict[str, str]) -> FlaskClient:
    """A client of an app whose session has a four-player Chaos Marauders game running."""
    response = client.post("/api/commands", json=new_game_body(), headers=pin_headers)
    assert response.status_code == 200, response.json
    return client


@pytest.fixture
def legal_action() -> dict:
    """An action the first position accepts: Grotsnik lays a Snotling straight on line 1, slot 4."""
    return dict(LEGAL_PLACE)


@pytest.fixture
def illegal_action() -> dict:
    """A well-formed action the rules refuse in the first position: it is not Ugluk's turn."""
    return {"kind": "draw", "player": 1, "card": "crummy-snotling-slaves"}
