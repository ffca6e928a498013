"""Phones are server-side sessions (issue 15.3, 19.2): logging out, logging a phone out from another and a
new PIN take effect at once whatever a cookie says; the PIN, the phones and their seats survive a restart."""

from __future__ import annotations

import logging
import sqlite3
import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import Session
from web import create_app
from web.phones import describe

from .web_support import PIN, new_game_body


def phone(
    app: Flask, pin: str = PIN, agent: str = "Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile"
) -> FlaskClient:
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = agent
    assert client.post("/control/pin", data={"pin": pin}).status_code == 303
    return client


def cookie_of(client: FlaskClient) -> str:
    found = client.get_cookie("session")
    assert found is not None
    return found.value


def with_cookie(app: Flask, value: str) -> FlaskClient:
    client = app.test_client()
    client.set_cookie("session", value)
    return client


def allowed(client: FlaskClient) -> bool:
    """Whether the phone may change things (an undo with nothing to undo is 409: past the PIN check)."""
    status = client.post("/control/commands", json={"kind": "undo"}).status_code
    assert status in (403, 409), status
    return status == 409


def test_a_cookie_captured_before_logout_is_worth_nothing_after(app, session):
    ann = phone(app)
    captured = cookie_of(ann)
    assert allowed(with_cookie(app, captured))
    ann.post("/control/logout")
    assert not allowed(with_cookie(app, captured))
    assert not allowed(ann)


def test_another_phone_logs_a_phone_out_at_once(app, session):
    ann, ben = phone(app), phone(app)
    ann.post("/control/commands", json=new_game_body(2))
    ben.post("/control/seat", json={"seat": 1})
    listed = ann.get("/control/phones").json["phones"]
    assert [p["this"] for p in listed] == [True, False]
    ben_id = listed[1]["id"]
    assert listed[1]["seat"] == 1 and listed[1]["seat_name"] == "Ugluk"
    assert listed[1]["name"] == "Chrome on Android" and listed[1]["last_seen"] > 0
    assert ann.post(f"/control/phones/{ben_id}/revoke").json == {"revoked": ben_id, "this": False}
    assert not allowed(ben)
    assert ann.post(f"/control/phones/{ben_id}/revoke").status_code == 404
    assert [p["id"] for p in ann.get("/control/phones").json["phones"]] == [listed[0]["id"]]


def test_a_new_pin_logs_every_other_phone_out(tmp_path):
    with Session(tmp_path / "t.sqlite3") as session:
        app = create_app({"TESTING": True, "TRUST_DB": tmp_path / "phones.sqlite3"}, session)
        old_pin = app.config["TABLE_PIN"]
        ann, ben = phone(app, old_pin), phone(app, old_pin)
        changed = ann.post("/control/pin/change", json={"pin": "97531", "current": old_pin})
        assert changed.status_code == 200 and changed.json == {"pin": "97531", "logged_out": 1}
        assert allowed(ann) and not allowed(ben)
        assert app.test_client().post("/control/pin", data={"pin": old_pin}).status_code == 403
        assert phone(app, "97531")
        fresh = ann.post("/control/pin/change", json={}, headers={"X-Table-Pin": "97531"})
        assert fresh.json["pin"].isdigit() and len(fresh.json["pin"]) == 4
        short = ann.post("/control/pin/change", json={"pin": "12", "current": fresh.json["pin"]})
        assert short.status_code == 400


def test_a_phone_in_without_the_pin_cannot_change_it(tmp_path):
    """Found by attacking: a guest let in by a join code (never told the PIN) made a new PIN and logged
    every other phone out, the owner's too. A new PIN needs the current one."""
    with Session(tmp_path / "t.sqlite3") as session:
        app = create_app({"TESTING": True, "TRUST_DB": tmp_path / "phones.sqlite3"}, session)
        old_pin = app.config["TABLE_PIN"]
        owner, guest = phone(app, old_pin), phone(app, old_pin)
        wrong = str((int(old_pin) + 1) % 10 ** len(old_pin)).zfill(len(old_pin))
        for body in ({}, {"pin": "97531"}, {"pin": "97531", "current": wrong}, {"current": 1234}):
            refused = guest.post("/control/pin/change", json=body)
            assert refused.status_code == 403 and "current PIN" in refused.json["reason"], body
        assert app.config["TABLE_PIN"] == old_pin and allowed(owner) and allowed(guest)


def test_a_pin_from_the_settings_is_changed_there_only(app, session):
    ann = phone(app)
    answer = ann.post("/control/pin/change", json={"pin": "97531"})
    assert answer.status_code == 409 and "settings" in answer.json["reason"]


def restart(tmp_path: Path, session: Session, **config: object) -> Flask:
    return create_app({"TESTING": True, "TRUST_DB": tmp_path / "table-phones.sqlite3", **config}, session)


def test_the_pin_phones_and_seats_survive_a_restart(tmp_path):
    """Issue 19.2: a restart changed the PIN and logged every phone out."""
    with Session(tmp_path / "t.sqlite3") as session:
        first = restart(tmp_path, session)
        pin = first.config["TABLE_PIN"]
        ann = phone(first, pin)
        ann.post("/control/commands", json=new_game_body(2))
        ann.post("/control/seat", json={"seat": 1})
        cookie = cookie_of(ann)
        second = restart(tmp_path, session)  # no PIN and no cookie key in the settings: both were kept
        assert second.config["TABLE_PIN"] == pin
        again = with_cookie(second, cookie)
        assert allowed(again)
        assert again.get("/control/seat").json["seat"] == 1
    mode = stat.S_IMODE((tmp_path / "table-phones.sqlite3").stat().st_mode)
    assert mode == 0o600  # the PIN is in it: its owner reads it, nobody else


def test_a_new_pin_in_the_settings_logs_every_phone_out(tmp_path, caplog):
    with Session(tmp_path / "t.sqlite3") as session:
        first = restart(tmp_path, session, TABLE_PIN="1111")
        cookie = cookie_of(phone(first, "1111"))
        with caplog.at_level(logging.WARNING, logger="web.phones"):
            second = restart(tmp_path, session, TABLE_PIN="2222")
        assert "the PIN in the settings changed: 1 phones must log in again" in caplog.text
        assert not allowed(with_cookie(second, cookie))
        again = cookie_of(phone(second, "2222"))
        assert allowed(with_cookie(restart(tmp_path, session, TABLE_PIN="2222"), again))  # the same PIN: kept


def test_a_damaged_trust_file_is_kept_aside_and_the_table_starts(tmp_path, caplog):
    (tmp_path / "table-phones.sqlite3").write_bytes(b"not a database at all" * 100)
    with Session(tmp_path / "t.sqlite3") as session, caplog.at_level(logging.WARNING):
        app = restart(tmp_path, session)
        assert allowed(phone(app, app.config["TABLE_PIN"]))
    assert "is damaged" in caplog.text
    assert list(tmp_path.glob("table-phones.sqlite3.damaged-*"))


def test_the_file_holds_no_token_a_copy_could_log_in_with(tmp_path):
    with Session(tmp_path / "t.sqlite3") as session:
        app = restart(tmp_path, session)
        ann = phone(app, app.config["TABLE_PIN"])
        cookie = cookie_of(ann)
    with sqlite3.connect(tmp_path / "table-phones.sqlite3") as conn:
        dump = "\n".join(conn.iterdump())
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    token = serializer.loads(cookie)["phone"]
    assert token not in dump


def test_a_phone_not_seen_for_its_idle_days_must_come_in_again(tmp_path):
    with Session(tmp_path / "t.sqlite3") as session:
        app = restart(tmp_path, session)
        ann = phone(app, app.config["TABLE_PIN"])
        app.config["PHONE_IDLE_DAYS"] = -1  # as if a month had passed since it was last seen
        assert not allowed(ann)


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Version/17.4 Mobile Safari/604.1",
            "Safari on iPhone",
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36",
            "Chrome on Android",
        ),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"),
        ("curl/8.5.0", "curl"),
        ("", "A browser"),
    ],
)
def test_a_phone_is_named_after_its_browser(agent: str, name: str) -> None:
    assert describe(agent) == name
