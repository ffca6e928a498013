"""Joining without the PIN (issue 19.2): a code for the asking phone, shown only on trusted displays, bound
to that phone, tried a few times, expiring, used once; the public view never carries it."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import TooManyRequests

from web import DEFAULTS
from web.pairing import CODE_DIGITS, Pairing

from .web_support import PIN

LAN = "192.168.1.57"
"""A phone's address on the table's network (the test client's default is 127.0.0.1: the Pi itself)."""


def stranger(app: Flask, address: str = LAN) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    client.environ_base["HTTP_USER_AGENT"] = (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Safari/604.1"
    )
    return client


def ask(client: FlaskClient) -> None:
    assert client.post("/control/join").status_code == 303


def codes_on_the_tv(app: Flask) -> list[dict]:
    kiosk = app.test_client()  # 127.0.0.1: the kiosk browser on the Pi
    answer = kiosk.get("/tv/pairing")
    assert answer.status_code == 200
    return answer.json["joining"]


def allowed(client: FlaskClient) -> bool:
    status = client.post("/control/commands", json={"kind": "undo"}).status_code
    return status == 409


def test_a_phone_joins_with_the_code_the_tv_shows(app, session):
    phone = stranger(app)
    assert not allowed(phone)
    ask(phone)
    page = phone.get("/control").get_data(as_text=True)
    assert 'id="join-form"' in page and "The TV shows a code for this phone" in page
    (shown,) = codes_on_the_tv(app)
    assert (
        shown["name"] == "Safari on iPhone" and len(shown["code"]) == 6 and 0 < shown["seconds_left"] <= 120
    )
    spaced = shown["code"][:3] + " " + shown["code"][3:]  # typed as the TV shows it
    assert phone.post("/control/join/code", data={"code": spaced}).status_code == 303
    assert allowed(phone)
    assert codes_on_the_tv(app) == []  # used once


def test_the_public_view_says_a_phone_asks_but_never_the_code(app, session):
    ask(stranger(app))
    (shown,) = codes_on_the_tv(app)
    feed = session.subscribe()
    try:
        while (view := feed.get(timeout=5)) is not None and view["devices"].get("pairing", {}).get(
            "waiting"
        ) != 1:
            pass
    finally:
        feed.close()
    assert view is not None
    assert shown["code"] not in json.dumps(dict(view))
    assert view["notices"][-1]["text"].startswith("A phone asks to join")
    assert shown["code"] not in app.test_client().get("/api/view").get_data(as_text=True)


def test_codes_show_only_on_a_trusted_display(app, session):
    ask(stranger(app))
    assert stranger(app, "192.168.1.80").get("/tv/pairing").status_code == 403  # a TV or laptop on the LAN
    logged_in = stranger(app, "192.168.1.81")
    logged_in.post("/control/pin", data={"pin": PIN})
    assert len(logged_in.get("/tv/pairing").json["joining"]) == 1  # a phone already in
    assert len(logged_in.get("/control/phones").json["joining"]) == 1
    app.config["PAIR_LOCAL_DISPLAY"] = False
    assert app.test_client().get("/tv/pairing").status_code == 403


def test_a_code_works_only_in_the_browser_that_asked(app, session):
    asker, thief = stranger(app), stranger(app, "192.168.1.66")
    ask(asker)
    ask(thief)  # its own request: another code
    codes = {c["address"]: c["code"] for c in codes_on_the_tv(app)}
    assert thief.post("/control/join/code", data={"code": codes[LAN]}).status_code == 403
    assert not allowed(thief)
    assert asker.post("/control/join/code", data={"code": codes[LAN]}).status_code == 303


def test_three_wrong_codes_void_the_request(app, session):
    phone = stranger(app)
    ask(phone)
    (shown,) = codes_on_the_tv(app)
    wrong = f"{(int(shown['code']) + 1) % 10**6:06d}"
    first = phone.post("/control/join/code", data={"code": wrong})
    assert first.status_code == 403 and "2 tries left" in first.get_data(as_text=True)
    phone.post("/control/join/code", data={"code": wrong})
    last = phone.post("/control/join/code", data={"code": wrong})
    assert "no longer valid" in last.get_data(as_text=True)
    assert phone.post("/control/join/code", data={"code": shown["code"]}).status_code == 403
    assert codes_on_the_tv(app) == [] and not allowed(phone)


def test_a_code_without_a_request_lets_nobody_in(app, session):
    assert stranger(app).post("/control/join/code", data={"code": "123456"}).status_code == 403


def test_asking_again_keeps_the_same_code_and_an_address_may_ask_only_so_often(app, session):
    phone = stranger(app)
    ask(phone)
    ask(phone)
    assert len(codes_on_the_tv(app)) == 1
    phone.post("/control/join/cancel")
    for _ in range(2):
        other = stranger(app)
        ask(other)
        other.post("/control/join/cancel")
    refused = stranger(app).post("/control/join")
    assert refused.status_code == 429 and "asked to join too often" in refused.get_data(as_text=True)


def test_few_requests_wait_at_once_and_the_table_limits_them_all():
    table = Pairing(pending_max=2, table_max=3, per_address=9)
    table.ask("a", "A", "10.0.0.1")
    table.ask("b", "B", "10.0.0.2")
    with pytest.raises(TooManyRequests, match="several phones are asking"):
        table.ask("c", "C", "10.0.0.3")
    table.cancel("a")
    table.ask("c", "C", "10.0.0.3")
    table.cancel("b")
    with pytest.raises(TooManyRequests, match="many phones asked to join lately"):
        table.ask("d", "D", "10.0.0.4")


def test_a_code_expires():
    now = [0.0]
    table = Pairing(seconds=120, clock=lambda: now[0])
    code = table.ask("a", "A", "10.0.0.1").code
    now[0] = 119.0
    assert table.request_of("a") is not None
    now[0] = 120.0
    assert table.redeem("a", code) == (False, None)
    assert table.waiting() == []


def test_with_the_defaults_a_guesser_gets_few_chances_per_hour():
    """The sums in web.pairing's docstring: the table's requests per hour, each with a few tries at a
    million codes; a 4-digit PIN under the PIN limits gives far more."""
    per_hour = 3600 / DEFAULTS["JOIN_WINDOW_SECONDS"] * DEFAULTS["JOIN_TABLE_MAX"]
    chance = per_hour * DEFAULTS["JOIN_TRIES"] / 10**CODE_DIGITS
    pin_chance = 3600 / DEFAULTS["PIN_TABLE_WINDOW_SECONDS"] * DEFAULTS["PIN_TABLE_MAX_FAILURES"] / 10**4
    assert chance < 1 / 2500 and pin_chance > 30 * chance


def test_the_tv_and_phone_pages_show_the_join_forms(app, session):
    phone = stranger(app)
    page = phone.get("/control").get_data(as_text=True)
    assert 'action="/control/join"' in page and 'name="pin"' in page
    assert 'id="joining"' in app.test_client().get("/tv").get_data(as_text=True)


def test_a_phone_that_finds_the_pin_after_asking_leaves_no_code_behind(app, session):
    phone = stranger(app)
    ask(phone)
    assert len(codes_on_the_tv(app)) == 1
    phone.post("/control/join/cancel")
    ask(phone)
    assert phone.post("/control/pin", data={"pin": PIN}).status_code == 303
    assert codes_on_the_tv(app) == [] and allowed(phone)
