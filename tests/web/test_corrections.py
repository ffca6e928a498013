"""Hand corrections of the table through the web: correct_place / correct_remove, and the pile picker."""

from __future__ import annotations

import pytest

from .web_support import LEGAL_PLACE, new_game_body

SNOT = "crummy-snotling-slaves"
PIG = "bozlum-pigstickers"


def act(client, url, payload, headers=None):
    return client.post(url, json={"kind": "act", "payload": payload}, headers=headers or {})


def test_the_control_pages_data_lists_the_draw_pile_cards(logged_in):
    assert logged_in.post("/control/commands", json=new_game_body()).status_code == 200
    page = logged_in.get("/control/")
    assert page.status_code == 200 and b"/games/chaos-marauders/control.js" in page.data
    assert b"c-correct" in logged_in.get("/games/chaos-marauders/control.js").data
    game = logged_in.get("/api/view").json["game"]
    pile = game["draw_pile_cards"]
    assert sum(pile.values()) == game["draw_pile"] == 110
    assert pile[SNOT] == 7 and all(n > 0 for n in pile.values())
    assert act(logged_in, "/control/commands", LEGAL_PLACE).status_code == 200
    assert logged_in.get("/api/view").json["game"]["draw_pile_cards"][SNOT] == 6


def test_correct_place_and_remove_through_the_api(playing, pin_headers, session):
    fix = {"kind": "correct_place", "player": 2, "card": PIG, "line": 1, "slot": 3, "source": "pile"}
    response = act(playing, "/api/commands", fix, pin_headers)
    assert response.status_code == 200, response.json
    game = playing.get("/api/view").json["game"]
    assert game["players"][2]["lines"][1]["slots"][3]["id"] == PIG
    assert game["active"] == 0 and game["prompt"]["kind"] == "draw"
    assert game["draw_pile_cards"][PIG] == 3
    texts = [e if isinstance(e, str) else e["text"] for e in session.history()[-1]["events"]]
    assert "Correction: Bozlum Pigstickers put in Snagla's line 2, slot 4" in texts

    response = act(
        playing, "/api/commands", {"kind": "correct_remove", "player": 2, "line": 1, "slot": 3}, pin_headers
    )
    assert response.status_code == 200, response.json
    game = playing.get("/api/view").json["game"]
    assert game["players"][2]["lines"][1]["slots"][3] is None
    assert game["discard_pile"]["count"] == 1 and game["discard_pile"]["cards"] == {PIG: 1}

    back = {"kind": "correct_place", "player": 0, "card": PIG, "line": 0, "slot": 5, "source": "discard"}
    assert act(playing, "/api/commands", back, pin_headers).status_code == 200
    assert playing.get("/api/view").json["game"]["discard_pile"]["count"] == 0


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (
            {"kind": "correct_place", "player": 1, "card": SNOT, "line": 0, "slot": 0},
            "only a Standard may stand at the left end",
        ),
        (
            {"kind": "correct_remove", "player": 1, "line": 0, "slot": 4},
            "Ugluk's line 1, slot 5 holds no card",
        ),
        (
            {"kind": "correct_place", "player": 1, "card": SNOT, "line": 0, "slot": 4, "source": "discard"},
            "No Crummy Snotling Slaves is in the discard pile",
        ),
    ],
)
def test_an_illegal_correction_is_409_with_the_message(logged_in, session, payload, reason):
    logged_in.post("/control/commands", json=new_game_body())
    before = logged_in.get("/api/view").json
    response = act(logged_in, "/control/commands", payload)
    assert response.status_code == 409
    assert response.json["error"] == "illegal"
    assert reason in response.json["reason"]
    assert logged_in.get("/api/view").json == before


def test_a_correction_undoes_like_any_input(logged_in):
    logged_in.post("/control/commands", json=new_game_body())
    fix = {"kind": "correct_place", "player": 3, "card": SNOT, "line": 2, "slot": 6}
    assert act(logged_in, "/control/commands", fix).status_code == 200
    assert logged_in.post("/control/commands", json={"kind": "undo"}).status_code == 200
    assert logged_in.get("/api/view").json["game"]["players"][3]["lines"][2]["slots"][6] is None
