"""A real Mosquitto broker in its own process, on a free loopback port, with a generated config:
``companion hall --embedded-broker`` (a single machine's try), the tests and the benchmark.

Persistence is on, so a restart (``restart``) keeps retained messages and the hall's queued events,
as a real hall's broker does. Optional password and ACL files make it check tables like a real hall.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from companion.hall.broker_files import mosquitto_conf

MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


class BrokerError(RuntimeError):
    """Mosquitto is missing, or did not start."""


def find_mosquitto() -> str | None:
    for path in MOSQUITTO_PATHS:
        if Path(path).exists():
            return path
    return shutil.which("mosquitto")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class EmbeddedBroker:
    def __init__(
        self,
        directory: Path,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        password_file: Path | None = None,
        acl_file: Path | None = None,
        binary: str | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.host = host
        self.port = port or free_port(host)
        self.binary = binary or find_mosquitto()
        if self.binary is None:
            raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.password_file = password_file
        self.acl_file = acl_file
        self.process: subprocess.Popen[bytes] | None = None
        self.config = self.directory / "mosquitto.conf"
        self.log = self.directory / "mosquitto.log"

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> EmbeddedBroker:
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "data").mkdir(exist_ok=True)
        self.config.write_text(
            mosquitto_conf(
                port=self.port,
                bind=self.host,
                persistence=self.directory / "data",
                password_path=self.password_file,
                acl_path=self.acl_file,
                log_dest=f"file {self.log}",
                user=getpass.getuser(),  # this process's user owns the folder it writes to
            )
        )
        assert self.binary is not None
        self.process = subprocess.Popen(
            [self.binary, "-c", str(self.config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C at the terminal stops us, and we stop it
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = (self.process.stderr.read() if self.process.stderr else b"").decode(errors="replace")
                tail = self.log.read_text()[-500:] if self.log.exists() else ""
                raise BrokerError(f"mosquitto exited at start: {(error or tail).strip()[:500]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)  # polling a child process's port; not a test wait
        self.stop()
        raise BrokerError(f"mosquitto did not listen on {self.host}:{self.port} within {timeout:.0f} s")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM: Mosquitto saves its persistence file, as a broker shut down for an update does."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
        if process.stderr is not None:
            process.stderr.close()

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
