"""Telling systemd how the service is doing: ``sd_notify`` and the watchdog, with the standard library only.

systemd's notify protocol (sd_notify(3)): the service manager passes ``NOTIFY_SOCKET`` (a path, or an
abstract socket written ``@name``); the service sends newline-separated ``KEY=VALUE`` datagrams to it:
``READY=1`` once it serves, ``STATUS=...`` for ``systemctl status``, ``WATCHDOG=1`` at least every
``WATCHDOG_USEC`` microseconds (sd_watchdog_enabled(3): only if ``WATCHDOG_PID`` is unset or is ours),
``STOPPING=1`` when it shuts down. Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing.

The watchdog is pinged only while the service is really alive: ``Watchdog`` asks a health check
(the session's writer loop answers a probe, the web server's thread runs) before every ping, so a
writer stuck on a lock or a dead server stops the pings and systemd restarts the service
(``Restart=on-failure``).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping
from typing import IO

log = logging.getLogger(__name__)

HealthCheck = Callable[[], str | None]
"""Returns None when healthy, else a sentence saying what is wrong (logged, and no ping is sent)."""


class Notifier:
    """Sends notify datagrams to systemd's socket; every method is a no-op without one."""

    def __init__(self, address: str | None) -> None:
        self.address = address

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> Notifier:
        return cls(environ.get("NOTIFY_SOCKET") or None)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, **fields: str | int) -> bool:
        """``notify(READY=1, STATUS="serving")``; True once the datagram was sent."""
        if self.address is None:
            return False
        message = "\n".join(f"{key}={value}" for key, value in fields.items()).encode()
        # A leading "@" names a socket in the abstract namespace (its first byte is NUL on the wire).
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, target)
        except OSError as exc:  # systemd went away or the socket is not ours: never fatal
            log.warning("cannot notify systemd at %s: %s", self.address, exc)
            return False
        return True

    def ready(self, status: str) -> bool:
        return self.notify(READY=1, STATUS=status)

    def status(self, status: str) -> bool:
        return self.notify(STATUS=status)

    def stopping(self) -> bool:
        return self.notify(STOPPING=1, STATUS="stopping")


def watchdog_interval(environ: Mapping[str, str], pid: int | None = None) -> float | None:
    """Seconds between pings (half of ``WATCHDOG_USEC``, as sd_watchdog_enabled(3) advises), or None."""
    usec = environ.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    owner = environ.get("WATCHDOG_PID", "")
    if owner and owner != str(os.getpid() if pid is None else pid):
        return None  # meant for another process (our parent, a wrapper script)
    return int(usec) / 2_000_000


class Watchdog:
    """A thread that pings ``WATCHDOG=1`` every ``interval`` seconds while ``healthy()`` says so."""

    def __init__(self, notifier: Notifier, interval: float, healthy: HealthCheck) -> None:
        self._notifier = notifier
        self._interval = interval
        self._healthy = healthy
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.pings = 0
        self.missed = 0

    def check_and_ping(self) -> bool:
        """One round: ask the health check, ping if it passed. True when a ping was sent."""
        try:
            problem = self._healthy()
        except Exception as exc:  # a check that fails is a failed check, never a dead watchdog thread
            problem = f"the health check failed: {exc}"
        if problem is not None:
            self.missed += 1
            log.error("not pinging the watchdog: %s", problem)
            return False
        sent = self._notifier.notify(WATCHDOG=1)
        self.pings += sent
        return sent

    def start(self) -> None:
        def run() -> None:
            while not self._stop.wait(self._interval):
                self.check_and_ping()

        self.check_and_ping()  # the first ping at once: startup may have used much of the budget
        self._thread = threading.Thread(target=run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None


def journal_priority(levelno: int) -> int:
    """The syslog priority journald reads from a ``<N>`` line prefix (SyslogLevelPrefix=, on by default)."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    if levelno >= logging.INFO:
        return 6
    return 7


class JournalFormatter(logging.Formatter):
    """``<3>companion.session: ...``: journald files the line under its priority (``journalctl -p err``)
    and stamps the time itself, so the line carries neither a time nor a level name."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"<{journal_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in text.splitlines() or [""])


def under_journald(environ: Mapping[str, str], stream: IO[str]) -> bool:
    """True when ``stream`` is the journal stream systemd connected (``JOURNAL_STREAM=dev:inode``)."""
    device, _, inode = environ.get("JOURNAL_STREAM", "").partition(":")
    if not device.isdigit() or not inode.isdigit():
        return False
    try:
        stat = os.fstat(stream.fileno())
    except (OSError, ValueError):  # a stream without a file (captured output): not the journal
        return False
    return stat.st_dev == int(device) and stat.st_ino == int(inode)
