"""A fake systemd notify socket: a real AF_UNIX datagram socket that collects what a service sends."""

from __future__ import annotations

import socket
import tempfile
import time
from pathlib import Path
from types import TracebackType


class NotifySocket:
    """Bound in a short temporary folder (a socket path must fit in 108 bytes)."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="sdn-", dir="/tmp")
        self.path = str(Path(self._dir.name) / "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.messages: list[dict[str, str]] = []

    def receive(self, timeout: float) -> dict[str, str] | None:
        """The next datagram as ``{KEY: VALUE}``, or None when none came within ``timeout``."""
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(4096)
        except TimeoutError:
            return None
        message = dict(line.split("=", 1) for line in data.decode().splitlines() if "=" in line)
        self.messages.append(message)
        return message

    def wait_for(self, key: str, timeout: float) -> dict[str, str] | None:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is not None and key in message:
                return message
        return None

    def close(self) -> None:
        self.sock.close()
        self._dir.cleanup()

    def __enter__(self) -> NotifySocket:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
