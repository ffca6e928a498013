"""``companion serve``: the table's web server (TV scoreboard, control page, API, live stream).

Served by werkzeug's threaded WSGI server: one thread per connection. A table has a TV and a few
phones, so a dozen threads, each mostly asleep on its stream's queue, is far below what a Pi handles,
and it needs no extra dependency or async rewrite. Every SSE client holds one thread for as long as it
is connected; ``Server.stop`` ends those streams first so shutdown never waits on a browser.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from companion.cli.wiring import adapters
from companion.settings import Settings, SettingsError, load_settings

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the TV scoreboard, control page and API")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="settings file (TOML); flags override it")
    parser.add_argument("--host", help="interface to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, help="port to listen on (default 8000)")
    parser.add_argument("--db", type=Path, help="event log (SQLite file)")
    parser.add_argument("--pin", help="the table's PIN (default: a new one, printed at start)")
    parser.add_argument("--public-url", help="base URL phones use, for the QR code")
    parser.add_argument("--game", help="the game the new-game form offers first (e.g. heroscape)")
    parser.add_argument("--log-level", help="DEBUG, INFO, WARNING (default INFO)")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The settings file (if any), then the flags given, with a PIN surely set."""
    return (
        load_settings(args.config)
        .with_overrides(
            host=args.host,
            port=args.port,
            db=args.db,
            pin=args.pin,
            public_url=args.public_url,
            log_level=args.log_level,
            game=args.game,
        )
        .resolved_pin()
        .checked_game()
    )


def configure_logging(level: str) -> None:
    """Logs to stdout for journald; configured here, at the entry point, only."""
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        stream=sys.stdout,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request drowns the log


def _request_handler() -> type:
    from werkzeug.serving import WSGIRequestHandler

    class RequestHandler(WSGIRequestHandler):
        """Sends each SSE message in one packet, at once.

        werkzeug writes a chunk as four small writes (size, CRLF, data, CRLF) and then flushes: with a
        socket file buffer larger than a view they leave as one send, and without Nagle's algorithm
        that send never waits for the TV to acknowledge the previous message.
        """

        wbufsize = 1 << 18  # a Chaos Marauders view is 5-30 KB

        def setup(self) -> None:
            super().setup()
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    return RequestHandler


class Server:
    """The Flask app on a threaded werkzeug server, run on a background thread."""

    def __init__(self, app: Any, host: str, port: int) -> None:
        from werkzeug.serving import make_server

        self.app = app
        self._server = make_server(host, port, app, threaded=True, request_handler=_request_handler())
        self._thread = threading.Thread(target=self._server.serve_forever, name="http", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_port)

    def start(self) -> Server:
        self._thread.start()
        return self

    def stop(self) -> None:
        from web.stream import stop_streams

        stop_streams(self.app)
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent: UDP connect only picks a route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def base_url(settings: Settings, port: int) -> str:
    if settings.public_url:
        return settings.public_url.rstrip("/")
    host = settings.host
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    return f"http://{host}:{port}"


def open_session(settings: Settings) -> Any:
    """The real session over the settings' event log, started (resumes the game in the log)."""
    from companion.session import Session

    settings.db.parent.mkdir(parents=True, exist_ok=True)
    session = Session(settings.db)
    session.start()
    return session


@contextmanager
def serving(settings: Settings, session: Any, table: Any = None) -> Iterator[Server]:
    """The web app over ``session`` (and ``table``, for enrolment) served until the block ends."""
    from web import create_app

    app = create_app(settings.web_config(), session, table)
    server = Server(app, settings.host, settings.port)
    if not settings.public_url and settings.host in ("0.0.0.0", "", "::"):
        # The TV on the Pi opens 127.0.0.1, which a phone cannot reach: the QR code needs the LAN address.
        app.config["PUBLIC_URL"] = base_url(settings, server.port)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def print_banner(settings: Settings, port: int) -> None:
    url = base_url(settings, port)
    print(f"TV scoreboard: {url}/", flush=True)
    print(f"Control page:  {url}/control", flush=True)
    print(f"Table PIN:     {settings.pin}", flush=True)


@contextmanager
def stop_on_signal() -> Iterator[threading.Event]:
    """An event set by SIGTERM (systemd stop) or SIGINT (Ctrl-C) while the block runs."""
    stop = threading.Event()

    def handle(signum: int, frame: FrameType | None) -> None:
        log.info("signal %s: shutting down", signal.Signals(signum).name)
        stop.set()

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
    except SettingsError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    with stop_on_signal() as stop:
        session = open_session(settings)
        try:
            with adapters(settings, session) as wired, serving(settings, session, wired.table) as server:
                print_banner(settings, server.port)
                while not stop.wait(timeout=1.0):  # a timed wait lets the signal handler run promptly
                    pass
        finally:
            session.stop()
    log.info("stopped")
    return 0
