"""``companion serve`` as systemd runs it: READY=1 once the TV page is served, watchdog pings, STOPPING."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from .notify_socket import NotifySocket

MAIN = "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"


def test_serve_is_ready_only_when_the_tv_page_answers_and_feeds_the_watchdog(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f'port = 0\nhost = "127.0.0.1"\npin = "4711"\ndb = "{tmp_path / "t.sqlite3"}"\n')
    with NotifySocket() as sock:
        env = {**os.environ, "NOTIFY_SOCKET": sock.path, "WATCHDOG_USEC": "400000"}  # a ping every 0.2 s
        process = subprocess.Popen(
            [sys.executable, "-c", MAIN, "serve", "--config", str(config)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            ready = sock.wait_for("READY", 60)
            assert ready is not None, "no READY=1"
            url = ready["STATUS"].removeprefix("serving the TV at ")
            with urllib.request.urlopen(url, timeout=5) as page:  # served the moment READY was sent
                assert page.status == 200
            assert sock.wait_for("WATCHDOG", 5) == {"WATCHDOG": "1"}
            assert sock.wait_for("WATCHDOG", 5) == {"WATCHDOG": "1"}
            process.send_signal(signal.SIGTERM)
            assert sock.wait_for("STOPPING", 10) is not None
            assert process.wait(timeout=20) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
