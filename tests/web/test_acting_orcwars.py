"""ORCWARS TOO! through the web's seats (``Game.actor``, companion/session/senders.py): a chief's phone sends
only his own strategy and his own leaders' orders, whatever seat the action names; a shared phone gives
every chief's orders but no secret; the table's PIN acts for anyone. Hands stay on their own phones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.engine import PlayerId
from companion.session import Command, Session

from .web_support import PIN


def phone(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    return client


def act(client: FlaskClient, **action: Any):
    return client.post("/control/commands", json={"kind": "act", "payload": action})


def owner(session: Session, **action: Any) -> None:
    """What the table (readers, dice) or its owner enters."""
    outcome = session.submit(Command(kind="act", source="table", payload=action))
    assert outcome.accepted, (action, outcome.reason)


@pytest.fixture
def chiefs(app: Flask, session: Session) -> tuple[FlaskClient, FlaskClient, FlaskClient]:
    """(Ann's phone, Ben's phone, a shared phone) in Ann's B3 of turn 1: Ben's Ulruk holds Yellow
    Orcland, Ann's Thar stands at home in Red Orcland with a troop."""
    ann, ben, shared = phone(app), phone(app), phone(app)
    players = [{"name": "Ann", "colour": "#e23b3b"}, {"name": "Ben", "colour": "#2f7df6"}]
    body = {"kind": "new_game", "payload": {"game": "orcwars-too", "players": players, "options": {}}}
    assert ann.post("/api/commands", json=body, headers={"X-Table-Pin": PIN}).status_code == 200
    assert ann.post("/control/seat", json={"seat": 0}).status_code == 200
    assert ben.post("/control/seat", json={"seat": 1}).status_code == 200
    for seat, boss, troops in ((0, "thar", "red-orcs"), (1, "ulruk", "yellow-orcs")):
        owner(session, kind="take_bosses", player=seat, leaders=[boss])
        owner(session, kind="draw", player=seat, counters=[troops] * 4 + ["bugbears"])
        owner(session, kind="done", player=seat)
    owner(session, kind="roll", player=1, die="d6", faces=["6"])
    owner(session, kind="roll", player=0, die="d6", faces=["1"])  # Ben goes first
    owner(session, kind="draw", player=1, counters=["ogres", "gnolls", "spy"])
    owner(session, kind="done", player=1)
    owner(session, kind="levy", player=1, leader="ulruk", counters=["yellow-orcs#1"])
    owner(session, kind="done", player=1)  # campaign
    owner(session, kind="done", player=1)  # rampage: on to Ann's turn
    owner(session, kind="draw", player=0, counters=["trolls", "black-orcs", "moor-orcs"])
    owner(session, kind="done", player=0)
    owner(session, kind="levy", player=0, leader="thar", counters=["red-orcs#1"])
    return ann, ben, shared


def test_a_chief_gives_only_his_own_leaders_orders(chiefs, session):
    ann, ben, _ = chiefs
    for player in (0, 1):  # whatever seat Ben's phone names, Thar is Ann's
        answer = act(ben, kind="move", player=player, leader="thar", to="yellow-orcland")
        assert answer.status_code == 403 and answer.json["error"] == "forbidden", answer.json
    assert session.position().state.army("thar").territory == "red-orcland"
    assert act(ann, kind="move", player=0, leader="thar", to="yellow-orcland").status_code == 200
    assert session.position().state.battle is not None  # an orcland with Ben's troops: battle


def test_a_shared_phone_gives_the_orders_of_chiefs_no_phone_plays_but_sends_no_secret(chiefs, session):
    ann, _, shared = chiefs
    refused = act(shared, kind="move", player=0, leader="thar", to="yellow-orcland")
    assert refused.status_code == 403 and refused.json["error"] == "forbidden"  # Ann plays her own phone
    assert ann.post("/control/seat", json={"seat": None}).status_code == 200  # Ann plays on the shared one
    assert act(shared, kind="move", player=0, leader="thar", to="yellow-orcland").status_code == 200
    refused = act(shared, kind="strategy", player=1, strategy="charge")
    assert refused.status_code == 403 and "secret" in refused.json["reason"]
    refused = act(shared, kind="draw", player=0, counters=["ogres"])
    assert refused.status_code == 403 and "secret" in refused.json["reason"]


def test_each_strategy_only_from_its_own_chiefs_phone(chiefs, session):
    ann, ben, _ = chiefs
    assert act(ann, kind="move", player=0, leader="thar", to="yellow-orcland").status_code == 200
    stolen = act(ann, kind="strategy", player=1, strategy="careful")
    assert (
        stolen.status_code == 403
        and stolen.json["reason"] == "only Ben's phone can do that: this phone plays Ann"
    )
    assert act(ann, kind="strategy", player=0, strategy="charge").status_code == 200
    assert act(ben, kind="strategy", player=1, strategy="clever").status_code == 200
    battle = session.position().state.battle
    assert (battle.attacker.proposed, battle.defender.proposed) == ("charge", "clever")


def test_a_chosen_strategy_and_the_hands_reach_only_their_own_phone(chiefs, app, session):
    ann, ben, shared = chiefs
    act(ann, kind="move", player=0, leader="thar", to="yellow-orcland")
    act(ann, kind="strategy", player=0, strategy="careful")
    view = session.view()
    side = view["game"]["battle"]["attacker"]
    assert side["chosen"] and side["proposed"] is None and side["proposed_name"] is None
    assert view["last_change"]["action"] == {"kind": "strategy", "player": 0}  # its public form
    public = json.dumps(view)
    assert "black-orcs" not in public and "moor-orcs" not in public  # Ann's hand
    mine = ann.get("/control/private").json["private"]
    assert mine["strategy"] == "careful" and {c["id"] for c in mine["hand"]} >= {"black-orcs#1"}
    theirs = ben.get("/control/private").json["private"]
    assert theirs["strategy"] is None and "black-orcs" not in json.dumps(theirs["hand"])
    assert shared.get("/control/private").status_code == 403  # a shared phone has no hand
    history = json.dumps(ben.get("/api/history").json)
    assert "careful" not in history and "black-orcs" not in history
    assert session.position().state.hands[PlayerId(0)].counters  # the hand is there, only hidden
