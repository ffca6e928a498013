"""Request limits (web.limits): oversized, deeply nested or odd JSON and bad ids are refused with a
one-line reason (400, 404 or 413), never a 500, and the game is unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from web.limits import check_shape

from .web_support import PIN, new_game_body

JSON_HEADERS = {"X-Table-Pin": PIN, "Content-Type": "application/json"}


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def refused(response, status: int) -> str:
    assert response.status_code == status, response.data[:200]
    body = response.get_json()
    assert body["accepted"] is False and "\n" not in body["reason"]
    return body["reason"]


@pytest.mark.parametrize("levels", [40, 970, 5000, 30000])
@pytest.mark.parametrize("url", ["/api/commands", "/control/commands", "/control/seat"])
def test_deeply_nested_json_is_a_400(logged_in, url, levels):
    body = '{"kind": "act", "payload": {"x": ' + nested(levels) + "}}"
    response = logged_in.post(url, data=body, headers=JSON_HEADERS)
    assert "nested deeper than 32 levels" in refused(response, 400)


def test_a_body_nested_within_the_limit_reaches_the_session(playing):
    payload = {"kind": "place", "x": json.loads(nested(25))}
    response = playing.post("/api/commands", json={"kind": "act", "payload": payload}, headers=JSON_HEADERS)
    assert response.status_code == 400 and response.get_json()["error"] == "malformed"  # the engine's say


def test_a_ten_megabyte_player_name_is_a_413_in_json(client, session):
    body = new_game_body()
    body["payload"]["players"][0]["name"] = "G" * 10_000_000
    response = client.post("/api/commands", json=body, headers=JSON_HEADERS)
    assert refused(response, 413) == "the request body is larger than 65536 bytes"
    assert session.view()["status"] == "no_game"


def test_a_player_name_longer_than_the_limit_is_a_400(client, session):
    body = new_game_body()
    body["payload"]["players"][1]["name"] = "Ugluk the Unreasonably Long-Named"
    response = client.post("/api/commands", json=body, headers=JSON_HEADERS)
    assert refused(response, 400) == "player 2's name is longer than 32 characters"
    assert session.view()["status"] == "no_game"
    body["payload"]["players"][1]["name"] = "U" * 32
    assert client.post("/api/commands", json=body, headers=JSON_HEADERS).status_code == 200


def test_a_long_text_anywhere_in_the_body_is_a_400(playing, session):
    seq = session.view()["seq"]
    observation = {"reader": 1, "note": "x" * 201}
    body = {"kind": "undo", "observation": observation}
    assert "'note' is longer than 200 characters" in refused(
        playing.post("/api/commands", json=body, headers=JSON_HEADERS), 400
    )
    assert session.view()["seq"] == seq


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "1" * 5000])
def test_numbers_json_cannot_carry_back_are_a_400(playing, number):
    body = '{"kind": "undo", "observation": {"reader": ' + number + "}}"
    assert "not valid JSON" in refused(playing.post("/api/commands", data=body, headers=JSON_HEADERS), 400)


def test_a_body_that_is_not_utf8_is_a_400(playing):
    response = playing.post("/api/commands", data=b'{"kind": "\xff"}', headers=JSON_HEADERS)
    assert "not valid JSON" in refused(response, 400)


@pytest.mark.parametrize("raw", [str(2**63), str(2**64), "9" * 40, str(2**62 + 1), "0"])
def test_export_of_an_id_no_game_can_have_is_a_404(client, raw):
    assert "no game #" in refused(client.get(f"/api/games/{raw}/export"), 404)


@pytest.mark.parametrize("raw", ["-1", "abc", "1.5", "1e3", "%C2%B3"])
def test_export_of_an_id_that_is_not_a_whole_number_is_a_400(client, raw):
    assert "a game id is a whole number" in refused(client.get(f"/api/games/{raw}/export"), 400)


@pytest.mark.parametrize("raw", [str(2**63), "-1", "abc", "0"])
def test_history_of_a_bad_game_id_is_a_400(client, raw):
    refused(client.get(f"/api/history?game_id={raw}"), 400)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda kids: st.lists(kids) | st.dictionaries(st.text(max_size=3), kids),
        max_leaves=30,
    )
)
def test_check_shape_refuses_exactly_what_is_too_deep_or_too_long(value):
    def depth(v) -> int:
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0

    def longest(v) -> int:
        if isinstance(v, str):
            return len(v)
        if isinstance(v, list):
            return max(map(longest, v), default=0)
        if isinstance(v, dict):
            return max([len(k) for k in v] + [longest(x) for x in v.values()], default=0)
        return 0

    from werkzeug.exceptions import BadRequest

    for max_depth, max_text in ((2, 3), (4, 4), (100, 100)):
        ok = depth(value) <= max_depth and longest(value) <= max_text
        try:
            check_shape(value, max_depth, max_text)
            assert ok
        except BadRequest:
            assert not ok
