"""``HostLink``: owns the serial port and one reader thread; reconnects with capped back-off.

Usage::

    link = HostLink("2E8A:0005", on_observation=queue.put, on_status=report)
    link.start()   # no I/O happens before this
    ...
    link.stop()

The port spec is anything ``ports.resolve`` takes: a path, a /dev/serial/by-id link, ``VID:PID``
or a pyserial URL (``loop://``, ``hwgrep://2E8A:0005``, ``socket://``...).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from companion.observations import Observation
from firmware_bridge import messages as m
from firmware_bridge.host import HostProtocol, LinkSettings
from firmware_bridge.ports import PortNotFoundError, open_port
from firmware_bridge.status import LinkState

log = logging.getLogger(__name__)

Opener = Callable[[str, int, float], serial.SerialBase]
StatusCallback = Callable[[dict[str, Any]], None]


def backoff_delay(attempt: int, settings: LinkSettings) -> float:
    """Seconds before reopening after ``attempt`` failures in a row: doubling, capped."""
    return min(settings.backoff_max, settings.backoff_initial * 2 ** min(attempt, 30))


class HostLink:
    def __init__(
        self,
        port: str,
        on_observation: Callable[[Observation], None],
        on_status: StatusCallback | None = None,
        settings: LinkSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        opener: Opener = open_port,
    ) -> None:
        self.port = port
        self.settings = settings or LinkSettings()
        self._on_status = on_status
        self._clock = clock
        self._opener = opener
        self._lock = threading.RLock()  # guards the protocol and the port between thread and callers
        self._serial: serial.SerialBase | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_report = float("-inf")
        self._opened_once = False
        self._on_observation = on_observation
        self.protocol = HostProtocol(self._write, self._observe, self.settings, clock, wall_clock)
        self.protocol.status.port = port

    # -- lifecycle --

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("HostLink already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"HostLink({self.port})", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        with self._lock:
            self._close(None, LinkState.STOPPED)
        self._report(force=True)

    def __enter__(self) -> HostLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- application side --

    def status(self) -> dict[str, Any]:
        with self._lock:
            return self.protocol.status.as_dict()

    def resync(self) -> bool:
        """Ask the device for HELLO and a full state report; False when no port is open."""
        return self._command(m.Resync())

    def identify(self, duration_ms: int = 3000) -> bool:
        return self._command(m.Identify(duration_ms))

    def led(self, pattern: int, rgb: tuple[int, int, int] = (255, 255, 255), led: int = 0) -> bool:
        return self._command(m.Led(led, pattern, rgb))

    def _command(self, msg: m.Message) -> bool:
        with self._lock:
            if self._serial is None:
                return False
            self.protocol.send_message(msg)
            return True

    # -- the thread --

    def _run(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            if self._open():
                self._pump()
                # Back-off starts from the bottom again only if the device actually said hello, so a
                # port that opens and dies at once does not make us spin.
                if self.protocol.greeted:
                    attempt = 0
                    continue
            delay = backoff_delay(attempt, self.settings)
            attempt += 1
            self._report(force=False)
            self._stop.wait(delay)

    def _open(self) -> bool:
        try:
            port = self._opener(self.port, self.settings.baudrate, self.settings.read_timeout)
        except (PortNotFoundError, serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self._close(str(exc), LinkState.SEARCHING)
            return False
        with self._lock:
            self._serial = port
            if self._opened_once:
                self.protocol.status.counters.reconnects += 1
            self._opened_once = True
            name = getattr(port, "port", None)
            # Show which device the spec led to (/dev/serial/by-id/... -> /dev/ttyACM0).
            self.protocol.opened(self.port, os.path.realpath(name) if name and os.path.exists(name) else name)
        log.info("opened %s", self.port)
        self._report(force=True)
        return True

    def _pump(self) -> None:
        """Read until the port fails or we are stopped; timers run between reads."""
        port = self._serial
        assert port is not None
        while not self._stop.is_set():
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial's posix read after the fd vanished under it.
                log.warning("port %s failed: %s", self.port, exc)
                with self._lock:
                    self._close(str(exc), LinkState.SEARCHING)
                self._report(force=True)
                return
            with self._lock:
                if data:
                    self.protocol.receive(data)
                self.protocol.tick()
            self._report(force=False)

    def _observe(self, observation: Observation) -> None:
        try:
            self._on_observation(observation)
        except Exception:  # a consumer's bug must not kill the reader thread and with it the table
            log.exception("on_observation failed for %r", observation)

    def _write(self, data: bytes) -> None:
        port = self._serial
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            # The read side will notice the dead port too; a lost ACK only costs a retransmit.
            log.debug("write to %s failed: %s", self.port, exc)

    def _close(self, error: str | None, state: LinkState) -> None:
        if self._serial is not None:
            try:
                self._serial.close()
            except (serial.SerialException, OSError):
                pass
            self._serial = None
        self.protocol.closed(error, state)

    def _report(self, force: bool) -> None:
        proto = self.protocol
        now = self._clock()
        with self._lock:
            due = proto.state_changed or (
                proto.changed and now - self._last_report >= self.settings.status_interval
            )
            if not (due or force) or self._on_status is None:
                return
            proto.changed = proto.state_changed = False
            self._last_report = now
            status = proto.status.as_dict()
        try:
            self._on_status(status)
        except Exception:
            log.exception("on_status failed")
