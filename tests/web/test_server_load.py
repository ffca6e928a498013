"""The real server (waitress under ``companion serve``) against idle sockets, stalled streams and a full
house of screens: the table keeps answering, and no client grows the server's buffers."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import httpserver, serve
from companion.session import Command, Session
from web import create_app
from web.fanout import MAX_UNSENT
from web.stream import streams_of

from .test_server import next_view, open_stream, post_command
from .web_support import PIN, new_game_body


def start_server(session: Session, **config: object) -> serve.Server:
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", **config}, session)
    return serve.Server(app, "127.0.0.1", 0).start()


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "load.sqlite3") as real:
        yield real


def idle_sockets(port: int, count: int) -> list[socket.socket]:
    """Connections that send nothing, as an attacker (or a crowd of forgotten browser sockets) holds."""
    return [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(count)]


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, TimeoutError):
        return False


def test_a_hundred_and_fifty_idle_sockets_do_not_stop_the_table(session):
    server = start_server(session, SSE_MAX_STREAMS=3)
    held = idle_sockets(server.port, 150)  # waitress's default limit was 100 connections in all
    try:
        stream = open_stream(server)
        next_view(stream)
        status, outcome = post_command(server, new_game_body())
        assert status == 200
        assert next_view(stream)["seq"] == outcome["seq"]
        stream.close()
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_a_hundred_streams_fit_with_room_for_commands(session):
    """Raising the stream limit to ~97 froze every stream: the connection limit follows the streams."""
    server = start_server(session, SSE_MAX_STREAMS=100)
    streams = []
    try:
        for _ in range(100):
            streams.append(open_stream(server))
            next_view(streams[-1])
        status, outcome = post_command(server, new_game_body())
        assert status == 200
        for stream in streams:
            assert next_view(stream)["seq"] == outcome["seq"]
    finally:
        for stream in streams:
            stream.close()
        server.stop()


def test_a_socket_that_sends_no_request_is_closed_within_seconds(session, monkeypatch):
    monkeypatch.setattr(httpserver, "REQUEST_SECONDS", 0.5)
    server = start_server(session)
    try:
        quiet, dribbling = idle_sockets(server.port, 2)
        dribbling.sendall(b"GET /api/view HTTP/1.1\r\nHost: x\r\n")  # a request that never ends
        started = time.monotonic()
        assert closed_by_server(quiet) and closed_by_server(dribbling)
        assert time.monotonic() - started < 3
        status, _ = post_command(server, new_game_body())
        assert status == 200
    finally:
        server.stop()


def test_past_the_connection_limit_the_oldest_idle_socket_makes_room(session, monkeypatch):
    monkeypatch.setattr(serve, "IDLE_CONNECTIONS", 10)
    server = start_server(session, SSE_MAX_STREAMS=2)  # limit: 2 streams + 8 spare + 10 idle = 20
    held = idle_sockets(server.port, 60)
    try:
        for _ in range(3):  # every new connection is served, each pushing out an idle one
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            conn.request("GET", "/api/view")
            assert conn.getresponse().status == 200
            conn.close()
        assert closed_by_server(held[0])  # the oldest went first
    finally:
        for sock in held:
            sock.close()
        server.stop()


def stalled_stream(port: int) -> socket.socket:
    """A stream whose client never reads (small buffers, so the server's side fills at once)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
    return sock


def buffered(server: serve.Server) -> int:
    """The most bytes any connection has waiting in the server."""
    return max((c.total_outbufs_len for s in server._servers for c in s.active_channels.values()), default=0)


def publish_big_views(session: Session, count: int) -> None:
    """Views of about 40 kB each (a device's long status), as fast as the session publishes them;
    returns once the session published the last."""
    for i in range(count):
        session.report_device("bulk", {"state": "ready", "blob": f"{i:06d}" + "x" * 40_000})
    session.submit(Command("redo", "test"))  # answered after the reports queued before it
    assert session.view()["devices"]["bulk"]["blob"].startswith(f"{count - 1:06d}")


def open_stream_when_there_is_room(server: serve.Server) -> http.client.HTTPResponse:
    """A screen retrying as EventSource does (bounded: 5 s), until a place is free."""
    deadline = time.monotonic() + 5
    while True:
        stream = open_stream(server)
        if stream.status == 200 or time.monotonic() > deadline:
            return stream
        stream.read()
        stream.close()


def fill_stalled(server: serve.Server, session: Session, streams: int) -> None:
    """Publishes big views until ``streams`` connections have bytes waiting in the server (their
    kernel buffers are full): the streams are stalled for real. Bounded: at most 8 MB of views."""
    for _ in range(20):
        waiting = [c for s in server._servers for c in s.active_channels.values() if c.total_outbufs_len]
        if len(waiting) >= streams:
            return
        publish_big_views(session, 10)
    raise AssertionError("the stalled streams never filled")


def test_a_stream_that_never_reads_holds_a_bounded_buffer_then_is_closed(session):
    server = start_server(session, SSE_STALL_SECONDS=1.5, SSE_KEEPALIVE=0.2)
    sock = stalled_stream(server.port)
    try:
        assert streams_of(server.app).wait_open(1, timeout=5)
        fill_stalled(server, session, 1)
        publish_big_views(session, 100)  # 4 MB more of views
        assert 0 < buffered(server) <= MAX_UNSENT + 64 * 1024
        assert streams_of(server.app).wait_all_closed(timeout=10)  # closed after 1.5 s of no reading
        healthy = open_stream(server)  # the place it held serves another screen
        assert next_view(healthy)["devices"]["bulk"]["blob"].startswith("000099")
        healthy.close()
    finally:
        sock.close()
        server.stop()


def test_with_every_place_taken_a_new_screen_replaces_a_stalled_stream(session, monkeypatch):
    monkeypatch.setattr("web.stream.EVICT_STALLED_SECONDS", 0.0)  # any stream with unread views
    server = start_server(session, SSE_MAX_STREAMS=2)
    stalled = [stalled_stream(server.port) for _ in range(2)]
    try:
        assert streams_of(server.app).wait_open(2, timeout=5)
        fill_stalled(server, session, 2)
        stream = open_stream_when_there_is_room(server)
        assert stream.status == 200
        status, outcome = post_command(server, new_game_body())
        assert status == 200
        view = next_view(stream)
        while view["seq"] != outcome["seq"]:
            view = next_view(stream)
        stream.close()
    finally:
        for sock in stalled:
            sock.close()
        server.stop()


def test_views_reach_a_reading_stream_while_another_stalls(session):
    server = start_server(session)
    stalled = stalled_stream(server.port)
    stream = open_stream(server)
    try:
        next_view(stream)
        publish_big_views(session, 50)
        status, outcome = post_command(server, new_game_body())
        assert status == 200
        seen = next_view(stream)
        while seen["seq"] != outcome["seq"]:
            seen = next_view(stream)
        assert json.dumps(seen)
    finally:
        stream.close()
        stalled.close()
        server.stop()


def stream_from(address: str, port: int, path: str = "/stream") -> http.client.HTTPResponse:
    """A stream opened from another loopback address (another machine, as the server sees it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(address, 0))
    conn.request("GET", path)
    return conn.getresponse()


def ended(stream: http.client.HTTPResponse) -> bool:
    """True once the server closed the stream (what it had sent is read first; a hang fails at 5 s)."""
    try:
        while stream.fp.readline():
            pass
    except ConnectionResetError:
        pass
    return True


def test_one_machine_holding_every_stream_place_cannot_keep_the_tv_off(session):
    """Found by attacking a running table: 24 streams from one laptop that read every view are never
    stalled, so the TV and every phone got 503 for as long as the laptop liked. Now a screen of another
    address takes the place of the greediest address's oldest stream."""
    server = start_server(session, SSE_MAX_STREAMS=3)
    greedy = [stream_from("127.0.0.2", server.port) for _ in range(3)]
    try:
        assert [s.status for s in greedy] == [200, 200, 200]
        tv = stream_from("127.0.0.1", server.port)
        assert tv.status == 200
        next_view(tv)
        assert ended(greedy[0])  # the oldest of the greedy address made room
        again = stream_from("127.0.0.2", server.port)  # the greedy one cannot take its place back
        assert again.status == 503
        phone = stream_from("127.0.0.3", server.port)  # another newcomer: the greedy one gives again
        assert phone.status == 200
        status, outcome = post_command(server, new_game_body())
        assert status == 200
        for screen in (tv, phone):
            view = next_view(screen)
            while view["seq"] != outcome["seq"]:
                view = next_view(screen)
        tv.close()
        phone.close()
    finally:
        for stream in greedy:
            stream.close()
        server.stop()
