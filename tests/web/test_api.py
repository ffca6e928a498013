"""The JSON API: reads without a PIN, commands with one, status codes from the session's outcome."""

from __future__ import annotations

import json

from web import create_app

from .web_support import PIN, new_game_body


def test_view_is_the_published_view(client, session):
    response = client.get("/api/view")
    assert response.status_code == 200
    assert response.json == dict(session.view())
    assert response.json["status"] == "no_game"


def test_new_game_then_view_shows_it(client, pin_headers):
    response = client.post("/api/commands", json=new_game_body(), headers=pin_headers)
    assert response.status_code == 200
    assert response.json["accepted"] is True
    view = client.get("/api/view").json
    assert view["status"] == "playing"
    assert view["seq"] == response.json["seq"]
    assert [p["name"] for p in view["game"]["players"]] == ["Grotsnik", "Ugluk", "Snagla", "Bogrot"]


def test_legal_action_is_accepted_with_source_api(playing, pin_headers, legal_action, session):
    response = playing.post(
        "/api/commands", json={"kind": "act", "payload": legal_action}, headers=pin_headers
    )
    assert response.status_code == 200, response.json
    assert response.json["seq"] == playing.get("/api/view").json["seq"]
    assert session.history()[-1]["source"] == "api"


def test_illegal_action_is_409_with_the_engines_reason(playing, pin_headers, illegal_action):
    before = playing.get("/api/view").json
    response = playing.post(
        "/api/commands", json={"kind": "act", "payload": illegal_action}, headers=pin_headers
    )
    assert response.status_code == 409
    assert response.json["accepted"] is False
    assert response.json["error"] == "illegal"
    assert response.json["reason"]
    assert playing.get("/api/view").json == before


def test_undo_without_a_game_is_409(client, pin_headers):
    response = client.post("/api/commands", json={"kind": "undo"}, headers=pin_headers)
    assert response.status_code == 409
    assert response.json["error"] == "no_game"


def test_redo_with_nothing_to_redo_is_409(playing, pin_headers):
    response = playing.post("/api/commands", json={"kind": "redo"}, headers=pin_headers)
    assert response.status_code == 409
    assert response.json["error"] == "nothing_to_redo"


def test_undo_and_redo_round_trip(playing, pin_headers, legal_action):
    placed = playing.post("/api/commands", json={"kind": "act", "payload": legal_action}, headers=pin_headers)
    after_place = playing.get("/api/view").json["game"]
    assert playing.post("/api/commands", json={"kind": "undo"}, headers=pin_headers).status_code == 200
    assert playing.get("/api/view").json["game"] != after_place
    assert playing.get("/api/view").json["can_redo"] is True
    assert playing.post("/api/commands", json={"kind": "redo"}, headers=pin_headers).status_code == 200
    assert playing.get("/api/view").json["game"] == after_place
    assert placed.status_code == 200


def test_bad_setup_is_400(client, pin_headers):
    body = new_game_body()
    body["payload"]["players"] = body["payload"]["players"][:1]
    response = client.post("/api/commands", json=body, headers=pin_headers)
    assert response.status_code == 400
    assert response.json["error"] == "setup"


def test_history_lists_the_last_inputs_in_log_order(playing, pin_headers, legal_action):
    playing.post("/api/commands", json={"kind": "act", "payload": legal_action}, headers=pin_headers)
    playing.post("/api/commands", json={"kind": "undo"}, headers=pin_headers)
    history = playing.get("/api/history?limit=5").json["history"]
    assert [item["kind"] for item in history] == ["new_game", "act", "undo"]
    assert history[1]["reverted"] is True
    assert history[1]["action"] == legal_action | {"target": None}
    assert playing.get("/api/history?limit=1").json["history"][0]["kind"] == "undo"


def test_history_of_an_unknown_game_is_404(client):
    assert client.get("/api/history?game_id=42").status_code == 404


def test_history_limit_must_be_a_sane_number(client):
    assert client.get("/api/history?limit=abc").status_code == 400
    assert client.get("/api/history?limit=0").status_code == 400
    assert client.get("/api/history?limit=100000").status_code == 400


def test_games_and_export_as_json_lines(playing, pin_headers, legal_action):
    playing.post("/api/commands", json={"kind": "act", "payload": legal_action}, headers=pin_headers)
    games = playing.get("/api/games").json["games"]
    assert games
    game_id = games[-1]["id"]
    response = playing.get(f"/api/games/{game_id}/export")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert lines


def test_export_of_an_unknown_game_is_404(client):
    assert client.get("/api/games/999/export").status_code == 404
    assert client.get("/api/games/abc/export").status_code == 400  # not an id at all (test_limits)


def test_card_catalog_of_chaos_marauders(client):
    response = client.get("/api/cards/chaos-marauders")
    assert response.status_code == 200
    cards = response.json["cards"]
    assert {"id", "title", "colour", "copies", "attack", "vp"} <= set(cards[0])
    assert sum(c["copies"] for c in cards) == 110


def test_card_catalog_of_an_unknown_game_is_404(client):
    response = client.get("/api/cards/no-such-game")
    assert response.status_code == 404
    assert "no-such-game" in response.json["reason"]


def test_dice_names_for_the_control_page(client):
    assert client.get("/api/dice").json["dice"]["cube"]["faces"] == {
        "eye": "Orcish Eye",
        "mark": "Mark of Chaos",
    }


def test_dice_names_follow_the_owners_corrected_dice(session, tmp_path):
    # The table's [data] file for a game corrects a die's faces: the phone names them as the table reads them.
    owner = tmp_path / "owner.toml"
    owner.write_text(
        '[dice.sc-blue]\nfaces = ["blue:1", "blue:2", "blue:3", "blue:4", "blue:6", "blue:0vv"]\n'
        'names = { "blue:6" = "blue 6" }\nprovenance = "my blue die"\n',
        encoding="utf-8",
    )
    app = create_app({"TABLE_PIN": PIN, "TESTING": True, "GAME_DATA": {"shattered-chaos": owner}}, session)
    faces = app.test_client().get("/api/dice").json["dice"]["sc-blue"]["faces"]
    assert faces["blue:6"] == "blue 6" and "blue:5" not in faces


def test_unknown_api_route_is_a_json_404(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.json["error"] == "not_found"


def test_wrong_method_is_405_not_500(client):
    assert client.get("/api/commands").status_code == 405
    assert client.delete("/api/view").status_code == 405
