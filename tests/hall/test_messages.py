"""What a hall reads: topics, and every payload checked as hostile before it is read."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hall.messages import (
    MAX_BYTES,
    MessageError,
    event_message,
    read_message,
    result_message,
    status_message,
)
from companion.hall.topics import (
    TableId,
    TableTopics,
    TopicError,
    hall_id,
    parse_topic,
    subscriptions,
    table_id,
)

ITEM = {
    "seq": 5,
    "game_id": 1,
    "at": 1.5,
    "kind": "act",
    "source": "table",
    "action": {"kind": "take"},
    "events": ["Ann took 1"],
    "target": None,
    "observation": {"uid": "04A1"},
    "reverted": False,
}
VIEW = {
    "seq": 5,
    "game_id": 1,
    "status": "playing",
    "game": {
        "game": "nim",
        "title": "Nim",
        "round": 2,
        "players": [{"name": "Ann", "colour": "#112233"}, {"name": "Bob", "colour": "#445566"}],
    },
}


def test_topics_of_a_table_and_what_a_hall_subscribes_to():
    topics = TableTopics(hall_id("club"), table_id("t1"))
    assert topics.events == "hall/club/tables/t1/events"
    assert topics.status == "hall/club/tables/t1/status"
    assert subscriptions(hall_id("club")) == tuple(
        f"hall/club/tables/+/{leaf}" for leaf in ("events", "view", "status", "result")
    )
    parsed = parse_topic(hall_id("club"), "hall/club/tables/t1/view")
    assert parsed is not None and parsed.table == "t1" and parsed.leaf == "view"


@pytest.mark.parametrize(
    "topic",
    [
        "hall/other/tables/t1/view",
        "hall/club/tables/t1/secrets",
        "hall/club/tables/T1/view",
        "hall/club/tables/t1/view/extra",
        "hall/club/tables//view",
        "x/club/tables/t1/view",
    ],
)
def test_a_topic_outside_the_tree_is_dropped(topic):
    assert parse_topic(hall_id("club"), topic) is None


@pytest.mark.parametrize("bad", ["", "T1", "a/b", "a+b", "#", "-t", "x" * 41, "table 1"])
def test_ids_that_could_break_a_topic_are_refused(bad):
    with pytest.raises(TopicError):
        table_id(bad)


def test_an_event_travels_without_the_observation_and_reads_back():
    message = event_message("t1", "log1", 0, ITEM)
    assert "observation" not in message
    read = read_message(TableId("t1"), "events", json.dumps(message).encode())
    assert read.body["seq"] == 5 and read.body["events"] == ["Ann took 1"]


def test_status_and_result_messages_read_back():
    status = status_message("t1", "Table 1", "log1", True, VIEW)
    assert status["players"] == [{"name": "Ann", "colour": "#112233"}, {"name": "Bob", "colour": "#445566"}]
    assert read_message(TableId("t1"), "status", json.dumps(status).encode()).body["round"] == 2
    result = {
        "final": True,
        "winners": [0],
        "standings": [{"seat": 0, "rank": 1, "points": 3}, {"seat": 1, "rank": 2, "points": 1}],
    }
    body = result_message("t1", "log1", VIEW, result, "abc", [0, 1])
    assert body["confirmed"] is True and body["players"] == ["Ann", "Bob"]
    assert read_message(TableId("t1"), "result", json.dumps(body).encode()).body["digest"] == "abc"


def test_a_table_cannot_publish_as_another():
    message = event_message("t2", "log1", 0, ITEM)
    with pytest.raises(MessageError, match="names table 't2'"):
        read_message(TableId("t1"), "events", json.dumps(message).encode())


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"x" * (MAX_BYTES["events"] + 1), "more than"),
        (b"[" * 5000 + b"]" * 5000, "nested deeper"),
        (b"[" * 40 + b"]" * 40, "nested deeper"),
        (b"not json", "not JSON"),
        (b'{"seq": NaN}', "not JSON"),
        (b"1e999", "not JSON"),
        (b"[]", "not a JSON object"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_hostile_payloads_are_refused_with_a_reason(payload, reason):
    with pytest.raises(MessageError, match=reason):
        read_message(TableId("t1"), "events", payload)


@pytest.mark.parametrize(
    "change",
    [
        {"seq": -1},
        {"seq": 2**70},
        {"seq": True},
        {"kind": "drop_table"},
        {"events": [1, 2]},
        {"events": ["x" * 5000]},
        {"action": "take"},
        {"since": 9},
        {"log": None},
    ],
)
def test_events_of_the_wrong_shape_are_refused(change):
    message = {**event_message("t1", "log1", 0, ITEM), **change}
    with pytest.raises(MessageError):
        read_message(TableId("t1"), "events", json.dumps(message).encode())


def test_a_result_with_standings_that_do_not_match_its_players_is_refused():
    result = {"final": True, "winners": [0], "standings": [{"seat": 0, "rank": 1, "points": 3}]}
    body = result_message("t1", "log1", VIEW, result, "abc", [])
    with pytest.raises(MessageError, match="one standing per player"):
        read_message(TableId("t1"), "result", json.dumps(body).encode())
    body = result_message("t1", "log1", VIEW, {**result, "standings": result["standings"] * 2}, "abc", [5])
    with pytest.raises(MessageError, match="confirmed_by"):
        read_message(TableId("t1"), "result", json.dumps(body).encode())


@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_never_crash(payload):
    for leaf in ("events", "view", "status", "result"):
        try:
            read_message(TableId("t1"), leaf, payload)
        except MessageError:
            pass


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested deeper"),
        (b'{"seq": 1, "status": "lost"}', "status"),
        (b"[]", "not a JSON object"),
    ],
)
def test_a_view_is_checked_when_it_is_read(payload, reason):
    from companion.hall.messages import read_view

    with pytest.raises(MessageError, match=reason):
        read_view(payload)


def test_a_hostile_view_is_never_relayed():
    from companion.hall.state import HallState

    state = HallState()
    state.apply(read_message(TableId("t1"), "view", b"[" * 5000 + b"]" * 5000))
    assert state.view_json("t1") is None and state.tiles()[0]["players"] == []
    assert state.refused == 1 and "nested deeper" in state.problems[-1]
