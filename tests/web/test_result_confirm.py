"""Players confirm a finished game's result on their phones, for the hall (``/control/result``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session import Command, Session
from tests.hall.hallkit import find_result_nim
from tests.session.nim import setup_json
from web import create_app

from .web_support import PIN

CONFIG = {"TABLE_PIN": PIN, "SECRET_KEY": "test-secret", "TESTING": True, "HALL_CONFIRM": True}


@pytest.fixture
def nim(tmp_path: Path):
    with Session(tmp_path / "table.sqlite3", find_result_nim) as session:
        yield session


def finish(session: Session) -> None:
    assert session.submit(Command("new_game", "test", setup_json(piles=[1], players=2))).accepted
    assert session.submit(
        Command("act", "test", {"kind": "take", "player": 0, "pile": 0, "count": 1})
    ).accepted


def phone(app, seat=None):
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    if seat is not None:
        # Seats are claimed while the game is played; the tests claim before the last move.
        assert client.post("/control/seat", json={"seat": seat}).status_code == 200
    return client


def test_each_phone_confirms_its_own_seat_and_the_result_is_then_final(nim):
    app = create_app(CONFIG, nim)
    assert nim.submit(Command("new_game", "test", setup_json(piles=[1], players=2))).accepted
    ann, bob = phone(app, 0), phone(app, 1)
    assert nim.submit(Command("act", "test", {"kind": "take", "player": 0, "pile": 0, "count": 1})).accepted
    state = ann.get("/control/result").json
    assert state["may_confirm"] == [0] and [s["confirmed"] for s in state["seats"]] == [False, False]
    assert ann.post("/control/result/confirm", json={"seat": 1}).status_code == 403
    answer = ann.post("/control/result/confirm", json={"seat": 0, "digest": state["digest"]})
    assert answer.status_code == 200 and not answer.json["confirmed"]
    again = ann.post("/control/result/confirm", json={"seat": 0})
    assert again.status_code == 200  # confirming twice records one note
    notes = [h for h in nim.history(limit=20) if h["kind"] == "note"]
    assert len(notes) == 1 and notes[0]["events"] == ["Ann confirmed the result: Ann wins"]
    assert bob.post("/control/result/confirm", json={"seat": 1}).json["confirmed"] is True


def test_a_shared_phone_confirms_seats_no_phone_holds_and_the_pin_any(nim):
    app = create_app(CONFIG, nim)
    finish(nim)
    shared = phone(app)
    assert shared.get("/control/result").json["may_confirm"] == [0, 1]
    client = app.test_client()
    answer = client.post("/control/result/confirm", json={"seat": 1}, headers={"X-Table-Pin": PIN})
    assert answer.status_code == 200


def test_nothing_to_confirm_while_playing_and_a_stale_digest_is_refused(nim):
    app = create_app(CONFIG, nim)
    assert nim.submit(Command("new_game", "test", setup_json(piles=[3], players=2))).accepted
    owner = {"X-Table-Pin": PIN}
    client = app.test_client()
    assert client.get("/control/result", headers=owner).json["seats"] == []
    assert client.post("/control/result/confirm", json={"seat": 0}, headers=owner).status_code == 409
    assert nim.submit(Command("act", "test", {"kind": "take", "player": 0, "pile": 0, "count": 3})).accepted
    stale = client.post("/control/result/confirm", json={"seat": 0, "digest": "0" * 16}, headers=owner)
    assert stale.status_code == 409 and "changed" in stale.json["reason"]


def test_without_a_hall_there_is_nothing_to_confirm_and_strangers_get_nothing(nim):
    app = create_app({**CONFIG, "HALL_CONFIRM": False}, nim)
    finish(nim)
    owner = {"X-Table-Pin": PIN}
    assert app.test_client().get("/control/result", headers=owner).json == {"enabled": False}
    assert (
        app.test_client().post("/control/result/confirm", json={"seat": 0}, headers=owner).status_code == 404
    )
    hall_app = create_app(CONFIG, nim)
    assert hall_app.test_client().get("/control/result").status_code == 403
    assert hall_app.test_client().post("/control/result/confirm", json={"seat": 0}).status_code == 403


def test_a_finished_game_a_new_game_set_aside_is_still_confirmed_on_the_phones(nim):
    app = create_app(CONFIG, nim)
    assert nim.submit(Command("new_game", "test", setup_json(piles=[1], players=2))).accepted
    ann, bob = phone(app, 0), phone(app, 1)
    assert nim.submit(Command("act", "test", {"kind": "take", "player": 0, "pile": 0, "count": 1})).accepted
    finished = nim.view()["game_id"]
    # One tap on the new-game form (it opens by itself once a game is over) before anyone confirmed.
    assert nim.submit(Command("new_game", "test", setup_json(piles=[3], players=2))).accepted
    assert nim.view()["game_id"] == finished + 1
    state = ann.get("/control/result").json
    assert state["game_id"] == finished and state["replaced"] and state["outcome"] == "Ann wins"
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob"] and state["may_confirm"] == [0]
    assert bob.post("/control/result/confirm", json={"seat": 0}).status_code == 403  # Ann's seat
    assert ann.post("/control/result/confirm", json={"seat": 0, "digest": state["digest"]}).status_code == 200
    answer = bob.post("/control/result/confirm", json={"seat": 1})
    assert answer.status_code == 200 and answer.json["confirmed"] is True
    notes = [h for h in nim.history(limit=20) if h["kind"] == "note"]
    assert [n["action"]["data"]["game_id"] for n in notes] == [finished, finished]  # noted in the new game
    # Confirmed by every seat: said until the new game moves on, then nothing more to show.
    assert ann.get("/control/result").json["confirmed"] is True
    assert nim.submit(Command("act", "test", {"kind": "take", "player": 0, "pile": 0, "count": 1})).accepted
    assert ann.get("/control/result").json["seats"] == []


def test_a_game_set_aside_before_its_end_is_resumed_not_confirmed(nim):
    app = create_app(CONFIG, nim)
    assert nim.submit(Command("new_game", "test", setup_json(piles=[3], players=2))).accepted
    assert nim.submit(Command("new_game", "test", setup_json(piles=[3], players=2))).accepted
    assert nim.replaced_game() is None
    owner = {"X-Table-Pin": PIN}
    assert app.test_client().get("/control/result", headers=owner).json["seats"] == []
