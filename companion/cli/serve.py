"""``companion serve``: the table's web server (TV scoreboard, control page, API, live stream).

Served by waitress, a production WSGI server in pure Python (installs on a Pi from its wheel, no
compiler): a fixed pool of threads runs the app, one event loop does the socket I/O. Every SSE client
holds one pool thread for as long as it is connected; ``Server.stop`` ends those streams first so
shutdown never waits on a browser.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from companion.cli.hall_wiring import hall_publishing
from companion.cli.sensors import check_sensor_settings
from companion.cli.service import systemd_service
from companion.cli.wiring import adapters
from companion.datadir import EVENT_LOG, data_dir, default_db
from companion.settings import LOG_LEVELS, Settings, SettingsError, load_settings, references_path

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the TV scoreboard, control page and API")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


def port_number(text: str) -> int:
    """A TCP port for argparse: 0 (any free port) to 65535, never wrapped round."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 1 to 65535 (0: any free port)")
    return port


def log_level(text: str) -> str:
    level = text.upper()
    if level not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r}: use one of {', '.join(LOG_LEVELS)}")
    return level


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="settings file (TOML); flags override it")
    parser.add_argument("--host", help="interface to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=port_number, help="port to listen on (default 8000; 0: any free port)")
    parser.add_argument(
        "--db",
        type=Path,
        help=f"event log (SQLite file; default: {EVENT_LOG} in {data_dir()}, printed at start)",
    )
    parser.add_argument("--pin", help="the table's PIN (default: one made once and kept, printed at start)")
    parser.add_argument("--public-url", help="base URL phones use, for the QR code")
    parser.add_argument("--game", help="the game the new-game form offers first (its registry name)")
    parser.add_argument("--log-level", type=log_level, help="DEBUG, INFO, WARNING or ERROR (default INFO)")


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
        .checked_game()
    )


def configure_logging(level: str) -> None:
    """Logs to stdout for journald; configured here, at the entry point, only. Under systemd each line
    carries its syslog priority for journald (``companion.sdnotify.JournalFormatter``)."""
    from companion.sdnotify import JournalFormatter, under_journald

    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        stream=sys.stdout,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if under_journald(os.environ, sys.stdout):
        for handler in logging.getLogger().handlers:
            handler.setFormatter(JournalFormatter())


SPARE_THREADS = 8
"""Threads beyond the stream limit, kept for pages, API calls and commands while every screen streams."""

IDLE_CONNECTIONS = 1024
"""Connections beyond the threads that may sit idle (opened, no request yet, closed after 5 s) before the
oldest of them is closed for each new one (companion.cli.httpserver): browsers open spare ones, an
attacker hundreds; past this many, eviction keeps the server accepting but costs it a churn of sockets."""

FD_RESERVE = 64
"""File descriptors kept for everything but connections: the event log, its readers, serial, pipes."""

MAX_BUFFERED_BODY = 1024 * 1024
"""Bodies up to this are read whole and refused by the app (413 in JSON, see web.limits); a larger
declared body is refused by the server before it is read (its own plain-text 413). Kept small because
waitress spools what it reads to temporary files: a LAN peer sending large bodies on every socket the
server allows must not fill the Pi's card (1,024 sockets x 1 MB at worst)."""


class ServerError(RuntimeError):
    """The server cannot listen where the settings ask (the port is taken, the address is not ours)."""


def wasyncore_close_all(socket_map: dict[int, Any]) -> None:
    from waitress import wasyncore

    wasyncore.close_all(socket_map)


class _QuietDisconnects(logging.Filter):
    """A screen that closes its stream is normal: web.stream logs one debug line for it, so waitress's
    own INFO line per closed client is dropped (every other waitress record passes)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Client disconnected while serving")


_QUIET = _QuietDisconnects()


class Server:
    """The Flask app on waitress: a production WSGI server whose event loop runs on a background thread.

    waitress reads requests and writes answers from one event loop, and runs the app on a fixed pool
    of threads. Each SSE client holds one pool thread for as long as it is connected (it waits while
    web.fanout's one thread writes its views), so the pool is sized from the app's stream limit
    (``SSE_MAX_STREAMS``, whose excess streams are refused with 503) plus SPARE_THREADS for everything
    else: a full house of TVs never starves the phones' commands. The connection limit adds room for
    IDLE_CONNECTIONS sockets without a request; companion.cli.httpserver keeps idle, slow and unread
    connections from holding the server (one request per connection, deadlines, eviction).
    """

    def __init__(self, app: Any, host: str, port: int) -> None:
        from waitress.adjustments import Adjustments
        from waitress.task import ThreadedTaskDispatcher

        from companion.cli.httpserver import ANSWER_SECONDS, OneRequestServer

        self.app = app
        self._map: dict[int, Any] = {}
        self._stopping = threading.Event()
        threads = int(app.config.get("SSE_MAX_STREAMS", 24)) + SPARE_THREADS
        adj = Adjustments(
            host=host,
            port=port,
            threads=threads,
            # Every stream, every spare thread's request and a crowd of idle sockets: sized with the
            # stream limit (waitress's default of 100 froze the server at 97 streams, or 100 idle sockets).
            connection_limit=connection_limit(threads + IDLE_CONNECTIONS),
            # waitress's own upkeep, every second: the tighter limits are OneRequestServer.tidy's.
            cleanup_interval=1,
            channel_timeout=int(ANSWER_SECONDS),
            max_request_body_size=MAX_BUFFERED_BODY,
            ident="table-companion",
            # A socket error is a client gone mid-answer (a TV switched off while its stream was
            # written): normal at a table, so no traceback; web.stream logs the stream's end.
            log_socket_errors=False,
            # Keeps a connection with a running request readable, so a closed socket is seen at once
            # and a stream ends (web.stream asks waitress.client_disconnected) instead of holding its
            # thread until its next write.
            channel_request_lookahead=1,
        )
        self._dispatcher = ThreadedTaskDispatcher()
        self._dispatcher.set_thread_count(adj.threads)
        server_class = OneRequestServer
        try:
            # One listening socket per address the host resolves to (as waitress's create_server).
            self._servers = [
                server_class(app, self._map, dispatcher=self._dispatcher, adj=adj, sockinfo=sockinfo)
                for sockinfo in adj.listen
            ]
        except OSError as exc:
            wasyncore_close_all(self._map)
            raise ServerError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        self._server = self._servers[0]
        logging.getLogger("waitress").addFilter(_QUIET)
        self._thread = threading.Thread(target=self._run, name="http", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def running(self) -> bool:
        """The server's loop thread is alive (the systemd watchdog asks)."""
        return self._thread.is_alive()

    @property
    def threads(self) -> int:
        return int(self._server.adj.threads)

    def start(self) -> Server:
        # What start-up made (the app, the games' catalogues, the resumed game) lives as long as the
        # server: frozen out of the cyclic collector, whose full passes over it took 15 ms here, in
        # the middle of whichever command they met (bench latency's p99). Later objects are collected.
        gc.collect()
        gc.freeze()
        self._thread.start()
        return self

    def _run(self) -> None:
        from waitress import wasyncore

        # One poll at a time, so a stop is noticed within the poll timeout and everything closes here,
        # on the loop's own thread (waitress's run() only ends when its map is emptied under it).
        next_tidy = 0.0
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.2, map=self._map, use_poll=True, count=1)
            if self._servers[0].to_close or time.monotonic() >= next_tidy:
                for server in self._servers:
                    server.tidy()
                next_tidy = time.monotonic() + 0.25
        self._dispatcher.shutdown(timeout=5)
        wasyncore.close_all(self._map)

    def stop(self) -> None:
        from web.stream import stop_streams, streams_of

        stop_streams(self.app)
        # Streams end within web.stream.POLL_SECONDS; their final chunk still goes out through the loop.
        streams_of(self.app).wait_all_closed(timeout=5)
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        else:  # never started: only the listening sockets to close
            wasyncore_close_all(self._map)


def connection_limit(wanted: int) -> int:
    """``wanted`` connections, raising this process's open-file limit to fit them when the system
    allows (a Pi's default soft limit is 1024), else as many as fit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + FD_RESERVE
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft - FD_RESERVE))


def lan_address() -> str:
    """This machine's address on the LAN (web.qr finds it; imported here only when asked)."""
    from web.qr import lan_address as find

    return find()


def base_url(settings: Settings, port: int) -> str:
    if settings.public_url:
        return settings.public_url.rstrip("/")
    host = settings.host
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    return f"http://{host}:{port}"


def data_folder(settings: Settings) -> None:
    """Makes the table's own data folder the first time; a folder named in the settings must exist
    (a mistyped ``--db`` must not quietly start an empty table somewhere new). EventLogError if not."""
    from companion.session import EventLogError

    folder = settings.db.parent
    if folder.is_dir():
        return
    if settings.db != default_db():
        raise EventLogError(
            f"{settings.db}: the folder {folder} does not exist (create it, or leave --db out)"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EventLogError(f"cannot create the data folder {folder} ({exc.strerror})") from None
    log.info("created the data folder %s", folder)


def open_session(settings: Settings) -> Any:
    """The real session over the settings' event log, started (resumes the game in the log)."""
    from companion.games import game_finder
    from companion.session import Session

    data_folder(settings)

    # EventLogError when the log is damaged, newer or locked; engines use the owner's [data] files.
    session = Session(settings.db, game_finder(settings.game_data))
    session.start()
    return session


@contextmanager
def serving(
    settings: Settings, session: Any, table: Any = None, web: Mapping[str, Any] | None = None
) -> Iterator[Server]:
    """The web app over ``session`` (and ``table``, for enrolment) served until the block ends;
    ``web`` overrides app settings (the latency bench raises ``SSE_MAX_STREAMS`` to its client count)."""
    from web import create_app

    app = create_app({**settings.web_config(), **(web or {})}, session, table, photo_scanner(settings))
    server = Server(app, settings.host, settings.port)
    if not settings.public_url:
        # The QR code carries this machine's address, never a Host header a request made up (and the TV
        # on the Pi opens 127.0.0.1, which a phone cannot reach).
        app.config["PUBLIC_URL"] = base_url(settings, server.port)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def photo_scanner(settings: Settings) -> Any:
    """The phone scanner (``vision.phone_scans``) over the enrolled faces the camera also reads."""
    camera = settings.camera

    def faces_of(game: str) -> Path:
        return camera.references_for(settings.db, game) if camera else references_path(settings.db, game)

    scans: Any = None

    def scanner(data: bytes, game: str) -> dict[str, Any]:
        nonlocal scans
        if scans is None:  # OpenCV loaded at the first photo, not at every start (web.scan: one at a time)
            try:
                from vision.phone_scans import PhotoScans
            except ImportError as exc:  # a broken install: said to the phone (409), the table plays on
                raise LookupError(f"the card scanner cannot start ({exc})") from None
            scans = PhotoScans(faces_of)
        return scans(data, game)  # type: ignore[no-any-return]

    return scanner


def print_banner(settings: Settings, server: Server) -> None:
    """Where to point the TV and the phones, and the PIN (the settings', else the one the table keeps
    from start to start: phones stay logged in, and the TV lets new ones join without it)."""
    url = base_url(settings, server.port)
    print(f"TV scoreboard: {url}/", flush=True)
    print(f"Control page:  {url}/control", flush=True)
    kept = "" if settings.pin else "  (kept from start to start; change it on the control page)"
    print(f"Table PIN:     {server.app.config['TABLE_PIN']}{kept}", flush=True)
    print(f"Event log:     {settings.db.resolve()}", flush=True)


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


MALLOC_ARENAS = 2
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter (malloc.h)."""


def fewer_malloc_arenas(count: int = MALLOC_ARENAS) -> None:
    """Caps glibc's heaps ("arenas") at ``count``, before the server's threads start. glibc gives each
    thread that allocates a heap of its own, up to eight per core (32 on a Pi 4), and a heap holding
    a few long-lived objects keeps its freed pages: the session's writer, which writes every view to
    the streams, kept 3 to 4 MB more with 24 stalled streams (``bench stalled``) than the fan-out
    thread that wrote them before. With every thread waiting on one interpreter lock, two heaps cost
    no speed. Elsewhere than glibc (musl, macOS) there is nothing to tune."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_ARENA_MAX, count)


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
        check_sensor_settings(settings)
    except SettingsError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    fewer_malloc_arenas()
    configure_logging(settings.log_level)
    from companion.session import EventLogError

    with stop_on_signal() as stop:
        try:
            session = open_session(settings)
        except EventLogError as exc:
            print(f"companion serve: {exc}", file=sys.stderr)
            return 1
        try:
            with (
                adapters(settings, session) as wired,
                hall_publishing(settings, session),
                serving(settings, session, wired.table) as server,
            ):
                print_banner(settings, server)
                with systemd_service(session, server, base_url(settings, server.port)):
                    while not stop.wait(timeout=1.0):  # a timed wait lets the signal handler run promptly
                        pass
        except ServerError as exc:
            print(f"companion serve: {exc}", file=sys.stderr)
            return 1
        finally:
            session.stop()
    log.info("stopped")
    return 0
