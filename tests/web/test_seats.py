"""A phone's seat: private views, secret actions only from their own seat's phone, redacted history."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.engine import (
    JSON,
    Action,
    ActionCodec,
    Event,
    Game,
    IllegalActionError,
    PlayerId,
    Prompt,
    Setup,
)
from companion.session import Session
from web import create_app

from .web_support import PIN


@dataclass(frozen=True)
class Hide(Action):
    """Each player hides a number face down."""

    kind: ClassVar[str] = "hide"
    player: PlayerId
    number: int


@dataclass(frozen=True)
class Hidden:
    numbers: tuple[int | None, ...]


class SecretGame(Game[Hidden]):
    name = "secret"
    title = "Secret numbers"
    min_players = 2
    max_players = 4
    actions = ActionCodec(Hide)
    rules_version = "secret-1"

    def new_game(self, setup: Setup) -> Hidden:
        return Hidden((None,) * len(setup.players))

    def apply(self, state: Hidden, action: Action) -> tuple[Hidden, tuple[Event, ...]]:
        assert isinstance(action, Hide)
        if state.numbers[action.player] is not None:
            raise IllegalActionError("already hidden")
        numbers = list(state.numbers)
        numbers[action.player] = action.number
        return Hidden(tuple(numbers)), (Event("NumberHidden", f"Seat {action.player + 1} hid a number"),)

    def legal_actions(self, state: Hidden) -> Sequence[Action]:
        return []

    def prompt(self, state: Hidden) -> Prompt | None:
        waiting = tuple(PlayerId(s) for s, n in enumerate(state.numbers) if n is None)
        return Prompt("hide", waiting, "Hide your numbers") if waiting else None

    def is_over(self, state: Hidden) -> bool:
        return all(n is not None for n in state.numbers)

    def view(self, state: Hidden) -> dict[str, JSON]:
        return {"game": "secret", "hidden": [n is not None for n in state.numbers], "players": []}

    def actor(self, state: Hidden, action: Action) -> PlayerId | None:
        assert isinstance(action, Hide)
        return action.player

    def private_view(self, state: Hidden, seat: PlayerId) -> dict[str, JSON] | None:
        return {"number": state.numbers[seat]}

    def public_action(self, action: Action) -> dict[str, JSON]:
        assert isinstance(action, Hide)
        return {"kind": "hide", "player": action.player}


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "table.sqlite3", find_game=lambda name: SecretGame()) as real:
        yield real


@pytest.fixture
def app(session: Session) -> Flask:
    return create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", "TESTING": True}, session)


def phone(app: Flask) -> FlaskClient:
    """A phone logged in with the PIN (its own cookie jar)."""
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    return client


def published(session: Session, wanted) -> bool:
    """Waits (bounded) for a published view with the notice text ``wanted`` or passing ``wanted``:
    device reports reach the view through the writer's queue."""
    check = wanted if callable(wanted) else lambda view: wanted in [n["text"] for n in view["notices"]]
    feed = session.subscribe()
    try:
        while (view := feed.get(timeout=5)) is not None:
            if check(view):
                return True
        return False
    finally:
        feed.close()


def start(client: FlaskClient) -> None:
    body = {"kind": "new_game", "payload": {"game": "secret", "players": [{"name": "Ann"}, {"name": "Bo"}]}}
    assert client.post("/control/commands", json=body).status_code == 200


def hide(client: FlaskClient, player: int, number: int):
    body = {"kind": "act", "payload": {"kind": "hide", "player": player, "number": number}}
    return client.post("/control/commands", json=body)


def test_a_phone_claims_a_seat_and_reads_only_that_seats_secret(app, session):
    ann = phone(app)
    start(ann)
    assert ann.get("/control/private").status_code == 403  # no seat yet
    assert ann.post("/control/seat", json={"seat": 0}).json["seat"] == 0
    assert hide(ann, 0, 7).status_code == 200
    assert ann.get("/control/private").json == {"seat": 0, "private": {"number": 7}}
    assert published(session, lambda view: view["devices"].get("phones", {}).get("seats") == [0])


def test_a_secret_action_comes_only_from_its_own_seats_phone(app, session):
    ann, bo = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    refused = hide(ann, 1, 3)
    assert refused.status_code == 403 and "Bo's phone" in refused.json["reason"]
    assert hide(bo, 1, 3).status_code == 403  # Bo's phone has not claimed a seat
    bo.post("/control/seat", json={"seat": 1})
    assert hide(bo, 1, 3).status_code == 200


def test_a_seat_held_by_another_phone_needs_a_take_over_the_tv_announces(app, session):
    ann, thief = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    assert thief.post("/control/seat", json={"seat": 0}).status_code == 409
    assert thief.post("/control/seat", json={"seat": 0, "take_over": True}).status_code == 200
    assert published(session, "Ann's seat was taken over by another phone")
    assert ann.get("/control/private").status_code == 403


@pytest.mark.parametrize(
    "body", [{"seat": 5}, {"seat": "0"}, {"seat": True}, {"seat": 0, "take_over": 1}, []]
)
def test_bad_seat_requests_are_refused_with_a_reason(app, session, body):
    ann = phone(app)
    start(ann)
    answer = ann.post("/control/seat", json=body)
    assert answer.status_code == 400 and answer.json["reason"]


def test_the_history_shows_a_secret_action_only_in_its_public_form_until_the_game_ends(app, session):
    ann, bo = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    bo.post("/control/seat", json={"seat": 1})
    hide(ann, 0, 7)
    actions = [item["action"] for item in bo.get("/api/history").json["history"] if item["kind"] == "act"]
    assert actions == [{"kind": "hide", "player": 0}]
    exported = bo.get(f"/api/games/{session.view()['game_id']}/export").get_data(as_text=True)
    assert '"number"' not in exported
    hide(bo, 1, 3)  # the game is over: nothing is secret any more
    actions = [item["action"] for item in bo.get("/api/history").json["history"] if item["kind"] == "act"]
    assert actions == [{"kind": "hide", "player": 0, "number": 7}, {"kind": "hide", "player": 1, "number": 3}]


def test_a_game_set_aside_by_a_new_game_keeps_its_secrets_until_it_is_over(app, session):
    ann, bo = phone(app), phone(app)
    start(ann)
    first = session.view()["game_id"]
    ann.post("/control/seat", json={"seat": 0})
    hide(ann, 0, 7)
    start(bo)  # a new game: the first is set aside, resumable, not over
    exported = bo.get(f"/api/games/{first}/export").get_data(as_text=True)
    assert '"number"' not in exported and '"status": "set_aside"' in exported
    history = bo.get(f"/api/history?game_id={first}").json["history"]
    assert [i["action"] for i in history if i["kind"] == "act"] == [{"kind": "hide", "player": 0}]
    resumed = bo.post("/control/commands", json={"kind": "resume", "payload": {"game_id": first}})
    assert resumed.status_code == 200, resumed.json
    assert '"number"' not in bo.get(f"/api/games/{first}/export").get_data(as_text=True)
    assert bo.post("/control/commands", json={"kind": "end_game"}).status_code == 200
    assert '"number": 7' in bo.get(f"/api/games/{first}/export").get_data(as_text=True)  # closed: shown


def test_the_table_owners_scripts_with_the_pin_may_send_any_action(app, session):
    ann = phone(app)
    start(ann)
    body = {"kind": "act", "payload": {"kind": "hide", "player": 1, "number": 2}}
    answer = ann.post("/api/commands", json=body, headers={"X-Table-Pin": PIN})
    assert answer.status_code == 200


def notices(session: Session) -> list[str]:
    return [n["text"] for n in session.view()["notices"]]


def test_a_take_over_is_in_the_event_log_and_the_server_log(app, session, caplog):
    ann, thief = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    with caplog.at_level(logging.WARNING, logger="web.seats"):
        assert thief.post("/control/seat", json={"seat": 0, "take_over": True}).status_code == 200
    thief_id = next(p["id"] for p in thief.get("/control/phones").json["phones"] if p["this"])
    assert f"seat 0 (Ann) taken over by phone {thief_id}" in caplog.text
    (note,) = [item for item in session.history() if item["kind"] == "note"]
    assert note["events"] == ["Ann's seat was taken over by another phone"]
    assert note["action"]["data"] == {"seat": 0, "round": None} and note["source"] == "control"


def test_the_tv_keeps_the_take_over_notice_when_the_taker_moves_on(app, session):
    """Issue 15.2: the warning disappeared as soon as the taker re-claimed its own seat."""
    ann, thief = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    thief.post("/control/seat", json={"seat": 0, "take_over": True})
    thief.post("/control/seat", json={"seat": 1})
    thief.post("/control/seat", json={"seat": None})
    assert published(session, "Ann's seat was taken over by another phone")
    assert "Ann's seat was taken over by another phone" in notices(session)


def test_a_seat_whose_phone_was_logged_out_is_taken_over_on_the_record(app, session):
    ann, ben = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    ann_id = next(p["id"] for p in ann.get("/control/phones").json["phones"] if p["this"])
    ben.post(f"/control/phones/{ann_id}/revoke")
    assert ben.post("/control/seat", json={"seat": 0}).status_code == 409  # still held
    assert ben.post("/control/seat", json={"seat": 0, "take_over": True}).status_code == 200
    assert published(session, "Ann's seat moved to another phone (its phone was logged out)")


def test_a_phone_that_logs_itself_out_leaves_its_seat(app, session):
    ann, ben = phone(app), phone(app)
    start(ann)
    ann.post("/control/seat", json={"seat": 0})
    ann.post("/control/logout")
    assert ben.post("/control/seat", json={"seat": 0}).status_code == 200
    assert [item for item in session.history() if item["kind"] == "note"] == []


def test_the_pin_header_plays_no_seat(app, session):
    ann = phone(app)
    start(ann)
    answer = app.test_client().post("/control/seat", json={"seat": 0}, headers={"X-Table-Pin": PIN})
    assert answer.status_code == 400 and "phones" in answer.json["reason"]


def test_the_take_over_notice_lasts_for_the_rest_of_the_round(tmp_path):
    """A Chaos Marauders round: the notice shows until the round ends, then goes by itself."""
    import random

    from companion.demo_player import DemoBrain
    from companion.games.chaos_marauders.demo import ChaosMaraudersDemo
    from companion.session import Command

    from .web_support import new_game_body

    with Session(tmp_path / "t.sqlite3") as session:
        app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", "TESTING": True}, session)
        ann, thief = phone(app), phone(app)
        assert ann.post("/control/commands", json=new_game_body(2)).status_code == 200
        ann.post("/control/seat", json={"seat": 1})
        thief.post("/control/seat", json={"seat": 1, "take_over": True})
        text = "Ugluk's seat was taken over by another phone"
        assert published(session, text)
        (note,) = [item for item in session.history() if item["kind"] == "note"]
        taken_in = note["action"]["data"]["round"]
        assert taken_in == session.view()["game"]["round"]
        rng = random.Random(3)
        brain = DemoBrain(ChaosMaraudersDemo(rng), rng)
        while session.view()["game"]["round"] == taken_in:
            assert text in notices(session) or published(session, text)
            position = session.position()
            action = brain.next_action(position)
            assert session.submit(Command("act", "demo", position.game.format_action(action))).accepted
        assert published(session, lambda view: text not in [n["text"] for n in view["notices"]])
