"""sd_notify and the watchdog against a fake notify socket (a real AF_UNIX datagram socket)."""

from __future__ import annotations

import io
import logging
import os
import socket
import threading
from pathlib import Path

from companion.cli.service import health_check, systemd_service
from companion.sdnotify import JournalFormatter, Notifier, Watchdog, under_journald, watchdog_interval
from companion.session import Session

from .notify_socket import NotifySocket


def test_ready_status_and_stopping_reach_the_socket() -> None:
    with NotifySocket() as sock:
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": sock.path})
        assert notifier.ready("serving the TV")
        assert sock.receive(2) == {"READY": "1", "STATUS": "serving the TV"}
        assert notifier.stopping()
        assert sock.receive(2) == {"STOPPING": "1", "STATUS": "stopping"}


def test_an_abstract_socket_address_is_written_with_an_at_sign() -> None:
    name = f"table-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert Notifier(f"@{name}").notify(READY=1)
        assert sock.recv(100) == b"READY=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    assert not Notifier.from_environment({}).ready("x")
    assert not Notifier(str(tmp_path / "gone")).ready("x")  # a socket that vanished: logged, not raised


def test_the_watchdog_interval_is_half_the_period_and_only_for_us() -> None:
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "2"}, pid=2) == 15.0


def test_the_watchdog_pings_only_while_healthy() -> None:
    problem: list[str | None] = [None]
    with NotifySocket() as sock:
        watchdog = Watchdog(Notifier(sock.path), 60.0, lambda: problem[0])
        assert watchdog.check_and_ping()
        assert sock.receive(2) == {"WATCHDOG": "1"}
        problem[0] = "the session's writer loop did not answer"
        assert not watchdog.check_and_ping()
        assert sock.receive(0.2) is None
        assert (watchdog.pings, watchdog.missed) == (1, 1)


def test_a_health_check_that_raises_counts_as_unhealthy() -> None:
    def broken() -> str | None:
        raise RuntimeError("boom")

    with NotifySocket() as sock:
        assert not Watchdog(Notifier(sock.path), 60.0, broken).check_and_ping()
        assert sock.receive(0.2) is None


def test_the_session_answers_the_probe_only_while_its_writer_loop_runs(tmp_path: Path) -> None:
    session = Session(tmp_path / "t.sqlite3")
    assert not session.responsive(0.1)  # not started
    session.start()
    try:
        assert session.responsive(2.0)
        release = threading.Event()
        entered = threading.Event()
        original = session._device

        def stuck(report: object) -> None:  # the writer blocks, as on a lock that is never released
            entered.set()
            release.wait(10)
            original(report)  # type: ignore[arg-type]

        session._device = stuck  # type: ignore[method-assign]
        session.report_device("x", {"state": "ok"})
        assert entered.wait(2)
        assert not session.responsive(0.2)
        release.set()
        assert session.responsive(2.0)
    finally:
        session.stop()
    assert not session.responsive(0.1)


class _Server:
    def __init__(self, running: bool) -> None:
        self.running = running


class _Session:
    def __init__(self, answers: bool) -> None:
        self.answers = answers

    def responsive(self, timeout: float) -> bool:
        return self.answers


def test_the_health_check_names_what_stopped() -> None:
    assert health_check(_Session(True), _Server(True), 1.0) is None
    assert "web server" in str(health_check(_Session(True), _Server(False), 1.0))
    assert "writer loop" in str(health_check(_Session(False), _Server(True), 1.0))


def test_systemd_service_feeds_the_watchdog_and_says_stopping() -> None:
    with NotifySocket() as sock:
        environ = {"NOTIFY_SOCKET": sock.path, "WATCHDOG_USEC": "100000"}  # a ping every 0.05 s
        with systemd_service(_Session(True), _Server(True), "http://pi:8000", environ):
            assert sock.wait_for("READY", 2) is not None
            assert sock.wait_for("WATCHDOG", 2) == {"WATCHDOG": "1"}
            assert sock.wait_for("WATCHDOG", 2) == {"WATCHDOG": "1"}
        assert sock.wait_for("STOPPING", 2) is not None
    ready = [m for m in sock.messages if "READY" in m]
    assert ready[0]["STATUS"] == "serving the TV at http://pi:8000/"


def test_journal_lines_carry_their_priority() -> None:
    record = logging.LogRecord("companion.x", logging.ERROR, __file__, 1, "bad\nsecond line", None, None)
    assert JournalFormatter().format(record) == "<3>companion.x: bad\n<3>second line"
    record.levelno = logging.INFO
    assert JournalFormatter().format(record).startswith("<6>")


def test_journald_is_recognised_by_the_stream_it_connected(tmp_path: Path) -> None:
    with (tmp_path / "log").open("w") as stream:
        stat = os.fstat(stream.fileno())
        assert under_journald({"JOURNAL_STREAM": f"{stat.st_dev}:{stat.st_ino}"}, stream)
        assert not under_journald({"JOURNAL_STREAM": f"{stat.st_dev}:{stat.st_ino + 1}"}, stream)
        assert not under_journald({}, stream)
    assert not under_journald({"JOURNAL_STREAM": "1:2"}, io.StringIO())  # captured output has no file
