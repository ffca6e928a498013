"""web.fanout with a real session: each view is written to every pushed stream by the session's writer
as it publishes it (before the command's answer), and a stream that fails never fails a command."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session import Session
from companion.session.views import PublishedView
from tests.session.nim import Nim
from tests.session.sessionkit import new_nim
from web.fanout import Fanout
from web.stream import format_view


class RecordingPush:
    """A connection that takes every byte at once (``web.fanout.Push``)."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        if self.fail:
            raise RuntimeError("a bug in the connection")
        self.written.append(data)

    def unsent(self) -> int:
        return 0

    def stalled(self) -> float:
        return 0.0

    def gone(self) -> bool:
        return False

    def drop(self) -> None:
        pass


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "fanout.sqlite3", lambda name: Nim()) as running:
        yield running


@pytest.fixture
def stopping() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


def fanout(session: Session, stopping: threading.Event) -> Fanout:
    def message(view: PublishedView) -> bytes:
        return format_view(view).encode()

    return Fanout(session, message, keepalive=60.0, stall_seconds=60.0, stopping=stopping)


def test_every_stream_has_the_view_when_the_command_is_answered(session, stopping):
    writer = fanout(session, stopping)
    pushes = [RecordingPush() for _ in range(3)]
    for push in pushes:
        writer.activate(writer.open(push))
    outcome = new_nim(session)
    for push in pushes:
        assert push.written and push.written[-1].startswith(f"id: {outcome.seq}\n".encode())


def test_a_stream_that_fails_never_fails_the_command_nor_the_other_streams(session, stopping, caplog):
    writer = fanout(session, stopping)
    broken, working = RecordingPush(fail=True), RecordingPush()
    broken_client = writer.open(broken)
    writer.activate(broken_client)
    writer.activate(writer.open(working))
    outcome = new_nim(session)  # asserts the command was accepted
    assert working.written[-1].startswith(f"id: {outcome.seq}\n".encode())
    assert broken_client.done.is_set() and writer.count == 1  # closed: its browser reconnects
    assert "writing a view to a stream failed" in caplog.text
    assert session.running and new_nim(session).accepted
