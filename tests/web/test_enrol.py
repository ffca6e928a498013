"""``/control/enrol``: the table's enrolment API from the control page, over a real Table and session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.observations import ReaderId, TagSeen
from companion.session import Session
from companion.table import ManualClock, Table, TableConfig, TagRegistry
from web import create_app

from .web_support import PIN, new_game_body

URL = "/control/enrol"
LAYOUT = {"settle_ms": 100, "readers": [{"reader": 0, "zone": "line", "player": 0, "line": 0}]}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(0.0)


@pytest.fixture
def table(session: Session, tmp_path: Path, clock: ManualClock) -> Iterator[Table]:
    registry = TagRegistry.open(tmp_path / "table.sqlite3")
    # Pumped by hand on a manual clock: the test decides when a tag has settled, no sleeping.
    yield Table(session, TableConfig.from_mapping(LAYOUT), registry, clock=clock)
    registry.close()


@pytest.fixture
def phone(session: Session, table: Table) -> FlaskClient:
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "test-secret", "TESTING": True}, session, table)
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    assert client.post("/api/commands", json=new_game_body(), headers={"X-Table-Pin": PIN}).status_code == 200
    return client


def lay(table: Table, clock: ManualClock, uid: str) -> None:
    table.observe(TagSeen(ReaderId(0), uid, clock()))
    table.pump()
    clock.advance(0.2)
    table.pump()


def test_needs_the_pin(session: Session, table: Table) -> None:
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "s", "TESTING": True}, session, table)
    client = app.test_client()
    assert client.get(URL).status_code == 403
    assert client.post(URL, json={"op": "start"}).status_code == 403


def test_without_a_table_answers_409(logged_in: FlaskClient) -> None:
    response = logged_in.get(URL, headers={"Accept": "application/json"})
    assert response.status_code == 409


def test_start_offer_enrol_and_forget(phone: FlaskClient, table: Table, clock: ManualClock) -> None:
    started = phone.post(URL, json={"op": "start"})
    assert started.status_code == 200, started.json
    assert started.json["state"]["active"] is True
    assert started.json["state"]["game"] == "chaos-marauders"
    snotlings = {"id": "crummy-snotling-slaves", "title": "Crummy Snotling Slaves"}
    assert snotlings in started.json["state"]["cards"]

    lay(table, clock, "04A1B2C3")
    pending = phone.get(URL).json["pending"]
    assert [tag["uid"] for tag in pending] == ["04A1B2C3"]

    enrolled = phone.post(URL, json={"op": "enrol", "uid": "04:a1:b2:c3", "card": "Crummy Snotling Slaves"})
    assert enrolled.status_code == 200, enrolled.json
    assert enrolled.json["tag"]["card_id"] == "crummy-snotling-slaves"
    table.pump()
    assert enrolled.json["state"]["pending"] == []

    forgotten = phone.post(URL, json={"op": "forget", "uid": "04A1B2C3"})
    assert forgotten.json["forgotten"] is True
    assert phone.post(URL, json={"op": "stop"}).json["state"]["active"] is False


@pytest.mark.parametrize(
    "body",
    [
        None,
        {"op": "dance"},
        {"op": "enrol", "uid": "not-hex", "card": "Crummy Snotling Slaves"},
        {"op": "enrol", "uid": "04A1B2C3", "card": "No Such Card"},
        {"op": "enrol", "uid": "04A1B2C3"},
        {"op": "forget", "uid": 7},
    ],
)
def test_bad_requests_answer_400(phone: FlaskClient, body: object) -> None:
    response = phone.post(URL, json=body, headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert response.json["accepted"] is False


def test_deeply_nested_json_is_a_400(phone: FlaskClient) -> None:
    body = '{"op": "enrol", "uid": ' + "[" * 5000 + "]" * 5000 + "}"
    response = phone.post(URL, data=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "nested deeper than" in response.json["reason"]
