"""The production server (waitress) under ``companion serve``: SSE through it, closed clients, limits,
and a start that cannot work (event log, port) ending with one line instead of a traceback."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main, serve
from companion.session import Session
from companion.session.store import SCHEMA_VERSION
from web import create_app
from web.stream import streams_of

from .web_support import PIN, new_game_body


@pytest.fixture
def live(tmp_path: Path) -> Iterator[serve.Server]:
    with Session(tmp_path / "live.sqlite3") as session:
        config = {"TABLE_PIN": PIN, "SECRET_KEY": "k", "SSE_MAX_STREAMS": 3, "SSE_KEEPALIVE": 0.3}
        app = create_app(config, session)
        server = serve.Server(app, "127.0.0.1", 0).start()
        try:
            yield server
        finally:
            server.stop()


def open_stream(server: serve.Server) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/stream")
    return conn.getresponse()


def next_view(response: http.client.HTTPResponse) -> dict:
    """The next ``data:`` line of the stream as JSON (a socket timeout fails the test: no hang)."""
    while True:
        line = response.fp.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return json.loads(line[len(b"data: ") :])


def post_command(server: serve.Server, body: dict) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    headers = {"Content-Type": "application/json", "X-Table-Pin": PIN}
    conn.request("POST", "/api/commands", json.dumps(body), headers)
    response = conn.getresponse()
    answer = response.status, json.loads(response.read())
    conn.close()
    return answer


def test_the_server_is_waitress_not_the_development_server(live):
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=5)
    conn.request("GET", "/api/view")
    response = conn.getresponse()
    assert response.status == 200 and response.getheader("Server") == "table-companion"
    assert live.threads == 3 + serve.SPARE_THREADS


def test_every_connection_carries_one_request(live):
    """A browser must not park its next request on an idle socket whose path may have died."""
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=5)
    conn.request("GET", "/api/view")
    response = conn.getresponse()
    assert response.getheader("Connection") == "close"
    response.read()
    assert response.isclosed() and conn.sock is None


def test_a_stream_through_the_server_gets_the_snapshot_then_each_update_at_once(live):
    stream = open_stream(live)
    assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")
    assert next_view(stream)["status"] == "no_game"  # the snapshot first
    status, outcome = post_command(live, new_game_body())
    assert status == 200
    view = next_view(stream)  # read within the socket timeout: the update was not held in a buffer
    assert view["seq"] == outcome["seq"] and view["status"] == "playing"
    stream.close()


def test_a_client_that_closes_its_stream_is_one_debug_line(live, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    stream = open_stream(live)
    next_view(stream)
    raw: socket.socket = stream.fp.raw._sock  # type: ignore[attr-defined]
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, as a TV
    stream.close()
    raw.close()
    # The next write (a view, else the keep-alive) finds the socket gone and ends the stream.
    assert post_command(live, new_game_body())[0] == 200
    assert streams_of(live.app).wait_all_closed(timeout=5)
    gone = [r for r in caplog.records if r.name == "web.stream" and "went away" in r.getMessage()]
    assert len(gone) == 1 and gone[0].levelno == logging.DEBUG
    assert not [r for r in caplog.records if r.levelno >= logging.INFO and r.name.startswith("waitress")]
    assert not [r for r in caplog.records if r.exc_info]
    assert "Traceback" not in capfd.readouterr().err


def test_streams_beyond_the_limit_are_refused_and_the_api_still_answers(live):
    streams = [open_stream(live) for _ in range(3)]
    for stream in streams:
        next_view(stream)
    refused = open_stream(live)
    assert refused.status == 503 and "3 screens" in json.loads(refused.read())["reason"]
    assert post_command(live, new_game_body())[0] == 200  # spare threads serve commands
    for stream in streams:
        assert next_view(stream)["status"] == "playing"
        stream.close()


def serve_args(db: Path, port: int = 0) -> list[str]:
    return ["serve", "--db", str(db), "--host", "127.0.0.1", "--port", str(port), "--pin", "1234"]


def one_line_failure(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and err.startswith("companion serve: ")
    return err


def test_serve_on_a_damaged_log_prints_one_line(tmp_path, capsys):
    db = tmp_path / "table.sqlite3"
    db.write_bytes(b"\x00\x01garbage" * 1000)
    assert "damaged" in one_line_failure(capsys, serve_args(db))


def test_serve_on_an_empty_log_file_prints_one_line_and_starts_nothing(tmp_path, capsys):
    db = tmp_path / "table.sqlite3"
    db.write_bytes(b"")
    assert "empty (0 bytes)" in one_line_failure(capsys, serve_args(db))
    assert db.read_bytes() == b""


def test_serve_on_a_log_from_a_newer_program_prints_one_line(tmp_path, capsys):
    db = tmp_path / "table.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 7}")
    assert "newer" in one_line_failure(capsys, serve_args(db))


def test_serve_on_a_log_another_process_holds_prints_one_line(tmp_path, capsys):
    db = tmp_path / "table.sqlite3"
    with Session(db):
        assert "another session" in one_line_failure(capsys, serve_args(db))


def test_serve_on_a_port_in_use_prints_one_line(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert f"cannot listen on 127.0.0.1:{port}" in one_line_failure(
            capsys, serve_args(tmp_path / "t.sqlite3", port)
        )


def test_a_body_the_server_reads_but_the_app_refuses_is_a_413_in_json(live):
    body = new_game_body()
    body["payload"]["players"][0]["name"] = "G" * 900_000
    status, answer = post_command(live, body)
    assert status == 413 and answer["reason"] == "the request body is larger than 65536 bytes"


def test_a_ten_megabyte_body_is_refused_by_the_server_before_it_is_read(live):
    """Waitress spools bodies to temporary files: one past serve.MAX_BUFFERED_BODY is never read."""
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=5)
    headers = {"Content-Type": "application/json", "X-Table-Pin": PIN, "Content-Length": "10000000"}
    conn.putrequest("POST", "/api/commands")
    for name, value in headers.items():
        conn.putheader(name, value)
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 413
    conn.close()


def test_a_closed_stream_frees_its_thread_without_waiting_for_a_write(tmp_path):
    """With a keep-alive of a minute and no view to send, only the server noticing the closed socket
    can end the stream: a TV switched off must not hold a pool thread until the next write."""
    with Session(tmp_path / "quiet.sqlite3") as session:
        config = {"TABLE_PIN": PIN, "SECRET_KEY": "k", "SSE_KEEPALIVE": 60.0}
        server = serve.Server(create_app(config, session), "127.0.0.1", 0).start()
        try:
            stream = open_stream(server)
            next_view(stream)
            assert streams_of(server.app).open == 1
            stream.close()
            assert streams_of(server.app).wait_all_closed(timeout=5)
        finally:
            server.stop()


def test_a_full_disk_answers_503_with_the_reason_and_the_tv_shows_it(live, caplog):
    """SQLite fails with SQLITE_FULL (``max_page_count`` caps the log where it stands, as a full disk)."""
    stream = open_stream(live)
    next_view(stream)
    assert post_command(live, new_game_body())[0] == 200
    next_view(stream)
    session = live.app.extensions["companion.session"]
    conn = session._writer.log.conn  # the writer's connection: the cap is per connection
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
    for _ in range(500):
        status, answer = post_command(live, new_game_body())
        if status != 200:
            break
        next_view(stream)
    assert status == 503
    assert answer == {
        "accepted": False,
        "seq": None,
        "events": [],
        "reason": "storage full: nothing was recorded",
        "error": "storage",
    }
    notices = next_view(stream)["notices"]
    assert {"level": "warning", "text": "storage full: nothing was recorded", "source": "session"} in notices
    assert not [r for r in caplog.records if r.exc_info]
    conn.execute("PRAGMA max_page_count = 1073741823")  # room again: the next command is recorded
    assert post_command(live, new_game_body())[0] == 200
    assert next_view(stream)["notices"] == []
    stream.close()


def raw_request(server: serve.Server, request: bytes) -> bytes:
    """Sends ``request`` as it is on one connection and reads the whole answer (the server closes)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("version", [b"HTTP/1.1", b"HTTP/1.0"])
def test_a_request_with_both_content_length_and_transfer_encoding_is_refused(live, version):
    """Issue 15.5: two servers in a row could read such a body differently (request smuggling);
    waitress alone lets Transfer-Encoding win and runs the command."""
    body = json.dumps(new_game_body()).encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    head = (
        b"POST /api/commands " + version + b"\r\nHost: table\r\nContent-Type: application/json\r\n"
        b"X-Table-Pin: " + PIN.encode() + b"\r\n"
    )
    both = head + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
    answer = raw_request(live, both)
    assert answer.split(b"\r\n", 1)[0].endswith(b"400 Bad Request"), answer[:200]
    assert b"both Content-Length and Transfer-Encoding" in answer
    assert live.app.extensions["companion.session"].games() == []
    if version == b"HTTP/1.1":  # chunked alone is fine (HTTP/1.0 has no chunked bodies)
        fine = raw_request(live, head + b"Transfer-Encoding: chunked\r\n\r\n" + chunked)
        assert fine.split(b"\r\n", 1)[0] == b"HTTP/1.1 200 OK", fine[:200]
