"""``/control/dice``: a phone says which die belongs to which player; hostile bodies change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.session import Session
from companion.table import ManualClock, Table, TableConfig, TagRegistry
from web import create_app

from .web_support import PIN, new_game_body

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


def test_a_phone_that_plays_a_seat_gives_dice_only_to_and_from_its_own_seat(
    session: Session, table: Table
) -> None:
    """A die's owner decides whose rolls it answers: Ben's phone could give itself Ann's die (her rolls
    became his, or a notice), or give a free die to Ann. Found by attacking a running demo table."""
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "test-secret", "TESTING": True}, session, table)
    ann, ben, shared = (app.test_client() for _ in range(3))
    for client in (ann, ben, shared):
        assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    assert ann.post("/api/commands", json=new_game_body(), headers={"X-Table-Pin": PIN}).status_code == 200
    assert ann.post("/control/seat", json={"seat": 0}).status_code == 200
    assert ben.post("/control/seat", json={"seat": 1}).status_code == 200
    assert ann.post(URL, json={"die": 1, "player": 0}).status_code == 200

    taken = ben.post(URL, json={"die": 1, "player": 1})
    assert taken.status_code == 403 and "only Grotsnik's phone" in taken.get_json()["reason"]
    assert ben.post(URL, json={"die": 1, "player": None}).status_code == 403
    given = ben.post(URL, json={"die": 2, "player": 0})
    assert given.status_code == 403 and "this phone plays Ugluk" in given.get_json()["reason"]
    assert table.owners.all() == {1: 0}

    assert ben.post(URL, json={"die": 2, "player": 1}).status_code == 200  # a free die, for itself
    assert ben.post(URL, json={"die": 2, "player": None}).status_code == 200  # and back
    assert shared.post(URL, json={"die": 1, "player": None}).status_code == 403  # Grotsnik plays his phone
    assert shared.post(URL, json={"die": 3, "player": 1}).status_code == 403  # and Ugluk his
    assert shared.post(URL, json={"die": 3, "player": 2}).status_code == 200  # Snagla plays no phone
    assert ann.post(URL, json={"die": 1, "player": None}, headers={"X-Table-Pin": PIN}).status_code == 200
    assert table.owners.all() == {3: 2}
