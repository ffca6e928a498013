"""Who a phone is and what it may do (issue 15.1, 19.4): a phone that plays a seat acts for that seat alone,
as ``Game.actor`` says; a shared phone acts for every seat but sends no secret; only the table's real
PIN acts for anyone, and a PIN offered is always checked."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import Session
from web import create_app

from .web_support import LEGAL_PLACE, PIN, new_game_body

ANN_MARKERS = ["0:sgt-drake-alexander", "0:raelin", "0:sonlen", "0:sgt-drake-alexander"]
BEN_MARKERS = ["1:marro-stingers", "1:marro-drudge", "1:marrden-nagrubs", "1:marro-stingers"]


def phone(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    return client


def act(client: FlaskClient, headers: dict[str, str] | None = None, **action: Any):
    return client.post("/control/commands", json={"kind": "act", "payload": action}, headers=headers or {})


def heroscape(client: FlaskClient) -> None:
    """Ann (heroes) and Ben (Marro) at Ominous Beginnings: armies preset, order markers first."""
    players = [{"name": "Ann", "colour": "#e23b3b"}, {"name": "Ben", "colour": "#2f7df6"}]
    body = {
        "kind": "new_game",
        "payload": {"game": "heroscape", "players": players, "options": {"scenario": "ominous-beginnings"}},
    }
    assert client.post("/api/commands", json=body, headers={"X-Table-Pin": PIN}).status_code == 200


def markers(session: Session) -> list[Any]:
    position = session.position()
    return [side.markers for side in position.state.sides]


@pytest.fixture
def seated(app: Flask) -> tuple[FlaskClient, FlaskClient, FlaskClient]:
    """(Ann's phone, Ben's phone, a shared phone) at a HeroScape game waiting for order markers."""
    ann, ben, shared = phone(app), phone(app), phone(app)
    heroscape(ann)
    assert ann.post("/control/seat", json={"seat": 0}).status_code == 200
    assert ben.post("/control/seat", json={"seat": 1}).status_code == 200
    return ann, ben, shared


def test_a_made_up_pin_header_never_lets_a_phone_act_for_another_seat(seated, session):
    """The attack of issue 15.1: Ben's cookie plus ``X-Table-Pin: x`` placed Ann's secret markers."""
    _, ben, _ = seated
    answer = act(ben, {"X-Table-Pin": "x"}, kind="place_markers", player=0, markers=ANN_MARKERS)
    assert answer.status_code == 403 and answer.json["reason"].startswith("wrong PIN")
    answer = act(ben, kind="place_markers", player=0, markers=ANN_MARKERS)
    assert (
        answer.status_code == 403
        and answer.json["reason"] == "only Ann's phone can do that: this phone plays Ben"
    )
    assert markers(session) == [None, None]


def test_a_secret_is_sent_only_from_its_own_seats_phone(seated, session):
    ann, ben, shared = seated
    refused = act(shared, kind="place_markers", player=1, markers=BEN_MARKERS)
    assert refused.status_code == 403 and "secret" in refused.json["reason"]
    assert act(ann, kind="place_markers", player=0, markers=ANN_MARKERS).status_code == 200
    assert act(ben, kind="place_markers", player=1, markers=BEN_MARKERS).status_code == 200


def test_the_tables_real_pin_acts_for_any_seat(seated, session):
    _, ben, _ = seated
    answer = act(ben, {"X-Table-Pin": PIN}, kind="place_markers", player=0, markers=ANN_MARKERS)
    assert answer.status_code == 200  # the owner's override, checked for real
    assert markers(session)[0] is not None


def anns_turn(seated) -> None:
    ann, ben, _ = seated
    act(ann, kind="place_markers", player=0, markers=ANN_MARKERS)
    act(ben, kind="place_markers", player=1, markers=BEN_MARKERS)
    assert act(ann, kind="roll", player=0, die="d20", faces=["20"]).status_code == 200
    assert act(ben, kind="roll", player=1, die="d20", faces=["1"]).status_code == 200


def test_a_phone_playing_a_seat_never_ends_another_seats_turn(seated, session):
    """Issue 19.4: Ann's turn; Ben's phone's "End the turn" ended it."""
    anns_turn(seated)
    ann, ben, _ = seated
    assert session.position().state.turn.seat == 0
    for player in (0, 1):  # whatever seat the action names, the turn is Ann's
        answer = act(ben, kind="end_turn", player=player)
        assert answer.status_code == 403 and answer.json["error"] == "forbidden", answer.json
    assert session.position().state.turn.seat == 0
    assert act(ann, kind="end_turn", player=0).status_code == 200


def test_a_shared_phone_plays_every_seat_no_phone_plays(seated, session):
    anns_turn(seated)
    ann, _, shared = seated
    refused = act(shared, kind="end_turn", player=0)
    assert refused.status_code == 403 and refused.json["reason"].startswith("Ann plays on their own phone")
    assert ann.post("/control/seat", json={"seat": None}).status_code == 200  # Ann plays on the shared one
    assert act(shared, kind="end_turn", player=0).status_code == 200


def test_leaving_ones_seat_is_no_way_to_play_anothers(seated, session):
    """Found by attacking a running table: Ben's phone, refused on Ann's turn, left its seat (a shared
    phone then) and ended her turn, with no take-over recorded. Undo the same."""
    anns_turn(seated)
    ann, ben, _ = seated
    assert ben.post("/control/seat", json={"seat": None}).status_code == 200
    refused = act(ben, kind="end_turn", player=0)
    assert refused.status_code == 403 and refused.json["error"] == "forbidden"
    assert session.position().state.turn.seat == 0
    assert act(ann, kind="end_turn", player=0).status_code == 200
    undo = ben.post("/control/commands", json={"kind": "undo"})
    assert undo.status_code == 403 and "Ann plays on their own phone" in undo.json["reason"]
    assert session.position().state.turn.seat == 1


def test_a_phone_playing_a_seat_still_corrects_the_table(seated, session):
    anns_turn(seated)
    _, ben, _ = seated
    answer = act(ben, kind="correct_wounds", player=0, figure="0:sgt-drake-alexander/1", wounds=1)
    assert answer.status_code == 200, answer.json


def test_undoing_another_seats_secret_is_that_seats_action(seated, session):
    """Issue 15.2: undo included. Ben's markers stand; neither Ann's phone nor a shared one undoes them."""
    ann, ben, shared = seated
    assert act(ben, kind="place_markers", player=1, markers=BEN_MARKERS).status_code == 200
    for other in (ann, shared):
        answer = other.post("/control/commands", json={"kind": "undo"})
        assert answer.status_code == 403, answer.json
    assert markers(session)[1] is not None
    assert ben.post("/control/commands", json={"kind": "undo"}).status_code == 200
    assert markers(session)[1] is None
    redo = ann.post("/control/commands", json={"kind": "redo"})
    assert redo.status_code == 403 and "redo" in redo.json["reason"]


def test_a_phone_playing_a_seat_undoes_its_own_moves_and_the_tables(app, session):
    grotsnik, ugluk = phone(app), phone(app)
    grotsnik.post("/control/commands", json=new_game_body(2))
    grotsnik.post("/control/seat", json={"seat": 0})
    ugluk.post("/control/seat", json={"seat": 1})
    assert act(grotsnik, **LEGAL_PLACE).status_code == 200
    assert ugluk.post("/control/commands", json={"kind": "undo"}).status_code == 403
    assert grotsnik.post("/control/commands", json={"kind": "undo"}).status_code == 200
    correction = {"kind": "correct_place", "player": 0, "card": "bozlum-pigstickers", "line": 1, "slot": 3}
    assert act(ugluk, **correction).status_code == 200  # a correction is the table's
    assert ugluk.post("/control/commands", json={"kind": "undo"}).status_code == 200


def test_a_chaos_marauders_phone_draws_only_in_its_own_turn(app, session):
    grotsnik, ugluk = phone(app), phone(app)
    grotsnik.post("/control/commands", json=new_game_body(2))
    ugluk.post("/control/seat", json={"seat": 1})
    answer = act(ugluk, **LEGAL_PLACE)  # Grotsnik's draw and placement
    assert (
        answer.status_code == 403
        and answer.json["reason"] == "only Grotsnik's phone can do that: this phone plays Ugluk"
    )
    assert act(grotsnik, **LEGAL_PLACE).status_code == 200  # no seat: a shared phone


def test_the_table_may_keep_rolls_off_players_phones(tmp_path):
    with Session(tmp_path / "t.sqlite3") as session:
        app = create_app(
            {"TABLE_PIN": PIN, "SECRET_KEY": "k", "TESTING": True, "PLAYER_ROLLS": False}, session
        )
        ann, ben, shared = phone(app), phone(app), phone(app)
        heroscape(ann)
        ann.post("/control/seat", json={"seat": 0})
        ben.post("/control/seat", json={"seat": 1})
        act(ann, kind="place_markers", player=0, markers=ANN_MARKERS)
        act(ben, kind="place_markers", player=1, markers=BEN_MARKERS)
        refused = act(ann, kind="roll", player=0, die="d20", faces=["20"])
        assert refused.status_code == 403 and "dice" in refused.json["reason"]
        assert act(shared, kind="roll", player=0, die="d20", faces=["20"]).status_code == 200
        assert '"playerRolls": false' in ann.get("/control").get_data(as_text=True)


def test_a_client_cannot_write_the_companions_notes(app, session):
    ann = phone(app)
    ann.post("/control/commands", json=new_game_body(2))
    note = {"event": "SeatTakenOver", "text": "Ugluk's seat was taken over by another phone", "data": {}}
    for client, headers in ((ann, {}), (app.test_client(), {"X-Table-Pin": PIN})):
        answer = client.post("/api/commands", json={"kind": "note", "payload": note}, headers=headers)
        assert answer.status_code == 400 and "'kind' must be one of" in answer.json["reason"]
    assert [item["kind"] for item in session.history()] == ["new_game"]
