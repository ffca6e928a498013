"""The table-wide PIN limit: many addresses cannot share out the guessing, the owner keeps the table."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import Session
from web import create_app
from web.auth import PinGuard

from .web_support import PIN, new_game_body


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table_app(session: Session, clock: Clock) -> Flask:
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", "TESTING": True}, session)
    # The app's own guard, on a clock the test moves (same limits as the app's settings).
    app.extensions["companion.pin_guard"] = PinGuard(
        PIN, max_failures=5, lockout_seconds=30, table_max_failures=20, table_window_seconds=600, clock=clock
    )
    return app


def command(client: FlaskClient, address: str, pin: str, body: dict | None = None) -> int:
    response = client.post(
        "/api/commands",
        json=body or {"kind": "undo"},
        headers={"X-Table-Pin": pin},
        environ_base={"REMOTE_ADDR": address},
    )
    return response.status_code


def guess_from_many_addresses(client: FlaskClient, wrong: int) -> None:
    """``wrong`` wrong PINs, four per address: never enough to lock any one address out."""
    for i in range(wrong):
        assert command(client, f"10.0.{i // 4}.1", f"{i:04d}" if f"{i:04d}" != PIN else "x") == 403


def test_wrong_pins_from_many_addresses_pause_pin_entry_for_new_devices(table_app):
    client = table_app.test_client()
    guess_from_many_addresses(client, 20)
    response = client.post(
        "/api/commands",
        json={"kind": "undo"},
        headers={"X-Table-Pin": PIN},
        environ_base={"REMOTE_ADDR": "10.9.9.9"},
    )
    assert response.status_code == 429 and "too many wrong PINs at this table" in response.json["reason"]
    login = client.post("/control/pin", data={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.9.9.8"})
    assert login.status_code == 429  # the right PIN too: a guesser would otherwise learn it is right


def test_the_owner_keeps_the_table_during_the_pause(table_app, session):
    owner_script = table_app.test_client()
    assert command(owner_script, "192.168.1.20", PIN, new_game_body()) == 200  # trusted from now on
    phone = table_app.test_client()
    assert (
        phone.post(
            "/control/pin", data={"pin": PIN}, environ_base={"REMOTE_ADDR": "192.168.1.30"}
        ).status_code
        == 303
    )
    guess_from_many_addresses(table_app.test_client(), 20)
    assert command(table_app.test_client(), "10.0.99.1", "0000") == 429
    assert command(owner_script, "192.168.1.20", PIN) == 409  # let through (nothing to undo), not 429
    cookie = phone.post(
        "/control/commands", json={"kind": "end_game"}, environ_base={"REMOTE_ADDR": "192.168.1.30"}
    )
    assert cookie.status_code == 200  # a logged-in phone never asks the guard
    view = session.view()
    assert view["devices"]["pin"]["state"] == "locked"
    assert [n["text"][:15] for n in view["notices"] if n["source"] == "pin"] == ["Many wrong PINs"]


def test_the_pause_ends_when_the_wrong_pins_age_out_and_the_tv_notice_clears(table_app, session, clock):
    client = table_app.test_client()
    guess_from_many_addresses(client, 20)
    assert command(client, "10.9.9.9", PIN) == 429
    clock.now += 601
    assert command(client, "10.9.9.9", PIN, new_game_body()) == 200
    view = session.view()
    assert view["devices"]["pin"] == {"state": "ready"} and not [
        n for n in view["notices"] if n["source"] == "pin"
    ]


def test_a_guard_forgets_quiet_addresses():
    clock = Clock()
    guard = PinGuard("1234", table_max_failures=10**9, table_window_seconds=60, clock=clock)
    for i in range(10_000):
        guard.check("0000", f"addr-{i}")
        clock.now += 0.1
        guard.locked(f"addr-{i}")
    assert len(guard._failures) <= 4096 + 600  # bounded: quiet addresses are dropped


def test_the_per_address_lockout_still_applies_to_a_trusted_address(clock):
    guard = PinGuard("1234", max_failures=2, lockout_seconds=30, table_max_failures=3, clock=clock)
    assert guard.check("1234", "owner")
    assert not guard.check("0000", "owner") and not guard.check("0001", "owner")
    assert "from this device" in (guard.locked("owner") or "")
    assert not guard.check("0002", "stranger")
    assert "at this table" in (guard.locked("newcomer") or "")
    clock.now += 31
    assert guard.locked("owner") is None and guard.locked("newcomer") is not None
