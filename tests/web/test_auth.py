"""The table's PIN: header, form field or cookie; 403 without it; lock-out after repeated guesses."""

from __future__ import annotations

import pytest

from web.auth import PinGuard

from .web_support import PIN, new_game_body


def test_commands_without_a_pin_are_403_and_change_nothing(client, session):
    before = client.get("/api/view").json
    response = client.post("/api/commands", json=new_game_body())
    assert response.status_code == 403
    assert "PIN" in response.json["reason"]
    assert client.get("/api/view").json == before
    assert session.games() == []


def test_wrong_pin_is_403_with_a_clear_message(client, session):
    response = client.post("/api/commands", json=new_game_body(), headers={"X-Table-Pin": "0000"})
    assert response.status_code == 403
    assert response.json["reason"].startswith("wrong PIN")
    assert session.games() == []


def test_pin_as_a_form_field_is_accepted_but_the_body_must_still_be_json(client):
    response = client.post("/api/commands", data={"pin": PIN, "kind": "undo"})
    assert response.status_code == 400


def test_reads_need_no_pin(client):
    for url in ("/", "/tv", "/api/view", "/api/history", "/api/games", "/control"):
        assert client.get(url).status_code == 200, url


def test_the_phone_logs_in_once_and_then_commands_need_no_header(logged_in, session):
    response = logged_in.post("/control/commands", json=new_game_body())
    assert response.status_code == 200
    assert session.history()[-1]["source"] == "control"
    # The cookie works on the API too: the phone page and scripts share one rule.
    assert logged_in.post("/api/commands", json={"kind": "end_game"}).status_code == 200
    assert session.view()["status"] != "playing"


def test_wrong_pin_on_the_control_page_is_403_and_sets_no_cookie(client):
    response = client.post("/control/pin", data={"pin": "9999"})
    assert response.status_code == 403
    assert b"Wrong PIN" in response.data
    assert client.post("/control/commands", json={"kind": "undo"}).status_code == 403


def test_log_out_forgets_the_pin(logged_in):
    logged_in.post("/control/logout")
    assert logged_in.post("/control/commands", json={"kind": "undo"}).status_code == 403


def test_control_page_shows_the_pin_form_until_logged_in(client):
    assert b'name="pin"' in client.get("/control").data
    client.post("/control/pin", data={"pin": PIN})
    page = client.get("/control").data
    assert b'name="pin"' not in page
    assert b"control.js" in page


def test_a_cookie_from_another_pin_is_refused(app, session):
    from web import create_app

    other = create_app({"TABLE_PIN": "1111", "SECRET_KEY": "test-secret"}, session).test_client()
    other.post("/control/pin", data={"pin": "1111"})
    cookie = other.get_cookie("session")
    assert cookie is not None
    client = app.test_client()
    client.set_cookie("session", cookie.value)
    assert client.post("/control/commands", json={"kind": "undo"}).status_code == 403


def test_repeated_wrong_pins_lock_the_address_out(client):
    for _ in range(5):
        assert (
            client.post("/api/commands", json={"kind": "undo"}, headers={"X-Table-Pin": "0"}).status_code
            == 403
        )
    locked = client.post("/api/commands", json={"kind": "undo"}, headers={"X-Table-Pin": PIN})
    assert locked.status_code == 429


def test_the_lockout_ends_after_its_time():
    now = [100.0]
    guard = PinGuard("1234", max_failures=2, lockout_seconds=30, clock=lambda: now[0])
    assert not guard.check("0000", "phone")
    assert not guard.check("0001", "phone")
    assert guard.locked("phone")
    assert not guard.locked("tv")
    now[0] += 31
    assert not guard.locked("phone")


@pytest.mark.parametrize("candidate", ["", "123", "12345", "1234 ", "abcd"])
def test_only_the_exact_pin_passes(candidate):
    assert not PinGuard("1234").check(candidate, "x")
    assert PinGuard("1234").check("1234", "x")
