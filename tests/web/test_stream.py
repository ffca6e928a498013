"""``/stream``: a full view on connect, then one SSE message per published view, keep-alives, shutdown."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from companion.session import Command
from companion.session.views import PublishedView
from web import create_app
from web.stream import format_view, stop_streams, streams_of

from .web_support import LEGAL_PLACE, PIN, new_game_body


def messages(response) -> Iterator[str]:
    """The stream's messages as text (the app yields one whole message per chunk)."""
    for chunk in response.response:
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def parse(message: str) -> tuple[int, dict]:
    fields = dict(line.split(": ", 1) for line in message.strip().splitlines())
    return int(fields["id"]), json.loads(fields["data"])


def test_connect_sends_the_retry_hint_then_the_full_current_view(playing, session):
    response = playing.get("/stream")
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    stream = messages(response)
    assert next(stream) == "retry: 2000\n\n"
    seq, view = parse(next(stream))
    assert seq == session.view()["seq"] == view["seq"]
    assert view == dict(session.view())
    response.close()


def test_each_accepted_command_reaches_the_stream_with_its_seq(playing, session):
    response = playing.get("/stream")
    stream = messages(response)
    next(stream), next(stream)
    outcome = session.submit(Command(kind="act", source="test", payload=LEGAL_PLACE))
    assert outcome.accepted
    seq, view = parse(next(stream))
    assert seq == outcome.seq
    assert view["game"]["players"][0]["lines"][0]["slots"][3]["id"] == "crummy-snotling-slaves"
    assert view["last_change"]["seq"] == outcome.seq
    response.close()


def test_a_refused_command_sends_nothing(playing, session, pin_headers):
    response = playing.get("/stream")
    stream = messages(response)
    next(stream), next(stream)
    bad = playing.post("/api/commands", json={"kind": "redo"}, headers=pin_headers)
    assert bad.status_code == 409
    good = session.submit(Command(kind="act", source="test", payload=LEGAL_PLACE))
    assert parse(next(stream))[0] == good.seq  # the next message is the accepted one, nothing between
    response.close()


def test_an_idle_stream_sends_keep_alive_comments(session):
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", "SSE_KEEPALIVE": 0.05}, session)
    response = app.test_client().get("/stream")
    stream = messages(response)
    next(stream), next(stream)
    assert next(stream) == ": keep-alive\n\n"
    response.close()


def test_closing_the_client_closes_its_subscription(app, client):
    response = client.get("/stream")
    stream = messages(response)
    next(stream)
    assert streams_of(app).open == 1
    response.close()
    assert streams_of(app).open == 0


def test_stop_streams_ends_every_stream(app, client):
    response = client.get("/stream")
    stream = messages(response)
    next(stream), next(stream)
    stop_streams(app)
    assert list(stream) == []  # ends within one poll interval, without a message
    assert streams_of(app).open == 0


def test_a_stopped_session_ends_the_stream(tmp_path):
    from companion.session import Session

    session = Session(tmp_path / "s.sqlite3")
    session.start()
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k"}, session)
    response = app.test_client().get("/stream")
    stream = messages(response)
    next(stream), next(stream)
    session.stop()
    assert list(stream) == []


@pytest.mark.parametrize(
    "view", [{"seq": 7, "text": "two\nlines"}, PublishedView({"seq": 7, "text": "two\nlines"})]
)
def test_a_view_is_one_message_with_one_data_line(view):
    message = format_view(view)
    assert message.endswith("\n\n")
    lines = message[:-2].split("\n")
    assert lines[0] == "id: 7"
    assert len(lines) == 2 and lines[1].startswith("data: ")
    assert json.loads(lines[1][len("data: ") :]) == {"seq": 7, "text": "two\nlines"}


def test_a_new_game_is_streamed_to_a_client_connected_before_it(client, pin_headers):
    response = client.get("/stream")
    stream = messages(response)
    next(stream)
    assert parse(next(stream))[1]["status"] == "no_game"
    client.post("/api/commands", json=new_game_body(2), headers=pin_headers)
    view = parse(next(stream))[1]
    assert view["status"] == "playing"
    assert [p["name"] for p in view["game"]["players"]] == ["Grotsnik", "Ugluk"]
    response.close()
