"""``/control/dice``: a phone says which die belongs to which player; hostile bodies change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.session import Session
from companion.table import ManualClock, Table, TableConfig, TagRegistry
from web import create_app

from .web_support import PIN

URL = "/control/dice"


@pytest.fixture
def table(session: Session, tmp_path: Path) -> Iterator[Table]:
    registry = TagRegistry.open(tmp_path / "table.sqlite3")
    yield Table(session, TableConfig.from_mapping({}), registry, clock=ManualClock(0.0))
    registry.close()


@pytest.fixture
def phone(session: Session, table: Table) -> FlaskClient:
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "test-secret", "TESTING": True}, session, table)
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    return client


def test_needs_the_pin(session: Session, table: Table) -> None:
    client = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "s", "TESTING": True}, session, table).test_client()
    assert client.get(URL).status_code == 403
    assert client.post(URL, json={"die": 1, "player": 0}).status_code == 403
    assert table.owners.all() == {}


def test_set_and_clear_an_owner(phone: FlaskClient, table: Table) -> None:
    answer = phone.post(URL, json={"die": 10, "player": 2})
    assert answer.status_code == 200 and answer.get_json()["owners"] == {"10": 2}
    assert table.owners.owner(10) == 2
    assert phone.post(URL, json={"die": 10, "player": None}).get_json()["owners"] == {}
    assert phone.get(URL).get_json() == {"owners": {}}


@pytest.mark.parametrize(
    "body",
    [[], {"die": 1}, {"die": "1", "player": 0}, {"die": 1, "player": 99}, {"die": -5, "player": 0},
     {"die": 1e9, "player": 0}, {"die": True, "player": 0}, {"die": 1, "player": [0]}],
)  # fmt: skip
def test_bad_bodies_answer_400_and_change_nothing(phone: FlaskClient, table: Table, body: object) -> None:
    assert phone.post(URL, json=body).status_code == 400
    assert table.owners.all() == {}
