"""The phone control page and its command endpoint; never a 500, and a refusal changes nothing."""

from __future__ import annotations

import random

import pytest

from .web_support import LEGAL_PLACE, new_game_body


def test_the_control_page_lists_the_registered_games(logged_in):
    page = logged_in.get("/control").get_data(as_text=True)
    assert 'value="chaos-marauders"' in page
    assert 'data-min="2"' in page and 'data-max="4"' in page
    assert "Orcish Eye" in page  # the Cube's face names, for the roll buttons


def test_control_commands_are_recorded_as_source_control(logged_in, session):
    assert logged_in.post("/control/commands", json=new_game_body()).status_code == 200
    response = logged_in.post("/control/commands", json={"kind": "act", "payload": LEGAL_PLACE})
    assert response.status_code == 200
    assert session.history()[-1]["source"] == "control"
    assert session.view()["game"]["players"][0]["lines"][0]["slots"][3]["id"] == "crummy-snotling-slaves"


def test_an_illegal_action_answers_409_with_the_engines_message(logged_in, session, illegal_action):
    logged_in.post("/control/commands", json=new_game_body())
    before = dict(session.view())
    response = logged_in.post("/control/commands", json={"kind": "act", "payload": illegal_action})
    assert response.status_code == 409
    assert response.json["reason"] == "It is Grotsnik's turn"
    assert dict(session.view()) == before


def test_a_roll_nobody_asked_for_is_409(logged_in, session):
    logged_in.post("/control/commands", json=new_game_body(2))
    roll = {"kind": "roll", "player": 0, "die": "cube", "faces": ["eye"]}
    response = logged_in.post("/control/commands", json={"kind": "act", "payload": roll})
    assert response.status_code == 409  # the first position waits for a draw, not the Cube
    assert response.json["error"] == "illegal"


def test_new_game_with_too_many_players_is_400(logged_in):
    body = new_game_body()
    body["payload"]["players"].append({"name": "Fifth", "colour": "#fff"})
    response = logged_in.post("/control/commands", json=body)
    assert response.status_code == 400
    assert "2 to 4 players" in response.json["reason"]


def test_end_game_closes_the_game(logged_in, session):
    logged_in.post("/control/commands", json=new_game_body())
    assert logged_in.post("/control/commands", json={"kind": "end_game"}).status_code == 200
    assert session.view()["status"] != "playing"


BAD_BODIES: list[object] = [
    None,
    [],
    "undo",
    42,
    {},
    {"kind": None},
    {"kind": "fly"},
    {"kind": "act"},
    {"kind": "act", "payload": None},
    {"kind": "act", "payload": []},
    {"kind": "act", "payload": "place"},
    {"kind": "act", "payload": {}},
    {"kind": "act", "payload": {"kind": "teleport"}},
    {"kind": "act", "payload": {"kind": "place"}},
    {"kind": "act", "payload": {"kind": "place", "player": "0", "card": 1, "line": 0}},
    {"kind": "act", "payload": {"kind": "place", "player": 0, "card": "nope", "line": 0}},
    {"kind": "act", "payload": {"kind": "place", "player": 0, "card": "crummy-snotling-slaves", "line": 7}},
    {"kind": "act", "payload": {"kind": "place", "player": 9, "card": "crummy-snotling-slaves", "line": 0}},
    {
        "kind": "act",
        "payload": {"kind": "place", "player": 0, "card": "crummy-snotling-slaves", "line": 0, "slot": -1},
    },
    {
        "kind": "act",
        "payload": {"kind": "place", "player": 0, "card": "crummy-snotling-slaves", "line": 0, "slot": 99},
    },
    {"kind": "act", "payload": {"kind": "roll", "player": 0, "die": "cube", "faces": ["six"]}},
    {"kind": "act", "payload": {"kind": "roll", "player": 0, "die": "cube", "faces": "eye"}},
    {"kind": "act", "payload": {"kind": "reorganise", "player": 0, "lines": [[None] * 12] * 5}},
    {"kind": "act", "payload": {"kind": "draw", "player": True, "card": "crummy-snotling-slaves"}},
    {"kind": "act", "payload": {"kind": "draw", "player": 0, "card": "crummy-snotling-slaves", "x": 1}},
    {"kind": "act", "payload": {"kind": "draw", "player": 2**70, "card": "crummy-snotling-slaves"}},
    {"kind": "new_game", "payload": {}},
    {"kind": "new_game", "payload": {"game": "chess", "players": [{"name": "a"}, {"name": "b"}]}},
    {"kind": "new_game", "payload": {"game": "chaos-marauders", "players": "ab"}},
    {"kind": "new_game", "payload": {"game": "chaos-marauders", "players": [{"name": "a"}, {"name": "a"}]}},
    {"kind": "new_game", "payload": {"game": "chaos-marauders", "players": [1, 2]}},
    {"kind": "new_game", "payload": {"game": "chaos-marauders", "players": [{"colour": "#fff"}] * 2}},
    {"kind": "new_game", "payload": {"game": ["x"], "players": []}},
    {"kind": "undo", "payload": 5},
    {"kind": "undo", "observation": "seen"},
    {"kind": "undo", "extra": True},
    {"kind": "redo"},
]


def random_json(rng: random.Random, depth: int = 0) -> object:
    choices = [None, True, -1, 0, 3, 2**40, 1.5, "", "place", "crummy-snotling-slaves", "eye"]
    if depth < 3:
        choices += [
            [random_json(rng, depth + 1) for _ in range(rng.randrange(3))],
            {
                k: random_json(rng, depth + 1)
                for k in rng.sample(
                    ["kind", "player", "card", "line", "slot", "faces", "die", "target", "lines"],
                    rng.randrange(5),
                )
            },
        ]
    return rng.choice(choices)


@pytest.mark.parametrize("url", ["/api/commands", "/control/commands"])
def test_bad_bodies_never_500_and_change_nothing(playing, pin_headers, session, url):
    before = dict(session.view())
    rng = random.Random(1987)
    bodies = BAD_BODIES + [{"kind": "act", "payload": random_json(rng)} for _ in range(150)]
    for body in bodies:
        response = playing.post(url, json=body, headers=pin_headers)
        assert response.status_code in (400, 409), (body, response.status_code, response.json)
        assert response.json["accepted"] is False
        assert response.json["reason"], body
    assert dict(session.view()) == before


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"{", "application/json"),
        (b"\xff\xfe", "application/json"),
        (b"undo", "text/plain"),
        (b"kind=undo", "application/x-www-form-urlencoded"),
        (b"", "application/json"),
        (b'{"kind": "undo"', "application/json"),
        (b"[1, 2", "application/json"),
        (b"NaN", "application/json"),
    ],
)
def test_malformed_requests_are_400(playing, pin_headers, session, data, content_type):
    before = dict(session.view())
    response = playing.post("/api/commands", data=data, content_type=content_type, headers=pin_headers)
    assert response.status_code == 400
    assert response.json["error"] == "bad_request"
    assert dict(session.view()) == before


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("GET", "/nowhere"),
        ("GET", "/api/"),
        ("POST", "/api/view"),
        ("PUT", "/api/commands"),
        ("GET", "/control/commands"),
        ("GET", "/api/games/-1/export"),
        ("GET", "/api/cards/"),
        ("GET", "/static/../web/auth.py"),
        ("POST", "/control/pin"),
    ],
)
def test_odd_routes_are_4xx_never_500(client, method, url):
    response = client.open(url, method=method)
    assert 400 <= response.status_code < 500, (url, response.status_code)
