"""``/stream``: the published views as Server-Sent Events.

Every message is a whole published view (never a delta), so a client that reconnects, or misses a
view because the session coalesced them, is right again with the next message::

    retry: 2000                     (once, first: how long EventSource waits before reconnecting)

    id: 42                          (the view's seq: the last accepted input of the log)
    data: {"seq": 42, ...}          (the published view as one line of JSON)

    : keep-alive                    (a comment every SSE_KEEPALIVE seconds without a view)

The first message of every connection is the full current view (the subscription's first item).

Each stream holds one server thread while it is open, so at most ``SSE_MAX_STREAMS`` are served at
once (503 beyond, and EventSource retries; a stream stalled for ``EVICT_STALLED_SECONDS`` gives its
place to a new screen first, then the oldest stream of the address holding the most, when that is at
least two more than the new screen's address holds: one machine that opens every place, reading them
all, cannot keep the TV and the phones off); a client that goes away is normal and logged at debug.

Under ``companion serve`` the server lets the app push to a stream's connection, and one thread writes
every view to every stream (web.fanout: fast with many screens, bounded for clients that do not read);
elsewhere (the development server, Flask's test client) each stream's generator sends its own views.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import Protocol

from flask import Blueprint, Flask, Response, current_app, request
from werkzeug.exceptions import ServiceUnavailable

from companion.engine import JSON
from companion.session.contract import Subscription
from web.context import current_session
from web.fanout import PUSH_ENVIRON, Client, Fanout, Push

log = logging.getLogger(__name__)

bp = Blueprint("stream", __name__)

_STREAMS = "companion.streams"
POLL_SECONDS = 0.5
"""How often an idle stream looks up from its queue to notice a shutdown: bounds shutdown time."""
EVICT_STALLED_SECONDS = 5.0
"""With every stream taken, a new screen replaces a stream whose client has read nothing this long."""


class Place(Protocol):
    """An open stream as ``Streams`` counts it per address: closed by ``evict`` for a fairer share."""

    address: str

    def evict(self) -> None: ...


class GeneratorPlace:
    """A stream sent by its own generator (``events``): evicting it ends the generator within
    ``POLL_SECONDS``."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.evicted = threading.Event()

    def evict(self) -> None:
        self.evicted.set()


class Streams:
    """The open streams of one app: counted, all ended at once on shutdown, and sharing the encoded
    message of the latest view (every client sends the same bytes: encode once, not once per TV)."""

    def __init__(self, limit: int = 24) -> None:
        self.stopping = threading.Event()
        self.limit = limit
        self._lock = threading.Condition()
        self._open = 0
        self._last: tuple[Mapping[str, JSON] | None, bytes] = (None, b"")
        self.fanout: Fanout | None = None
        """The pushed streams' writer, made with the first of them."""
        self._by_address: dict[str, list[Place]] = {}
        """The pushed streams each client address holds, oldest first (for a fair share of places)."""

    def message(self, view: Mapping[str, JSON]) -> bytes:
        """The SSE message of ``view`` as bytes, encoded by the first stream that sends it."""
        last_view, data = self._last  # one tuple read: no lock needed for a cache hit
        if last_view is view:
            return data
        data = format_view(view).encode()
        self._last = (view, data)
        return data

    @property
    def open(self) -> int:
        with self._lock:
            return self._open

    def reserve(self, timeout: float = 0.0) -> bool:
        """Counts a stream about to open; False (nothing counted) when ``limit`` stay open for
        ``timeout`` seconds."""
        with self._lock:
            if not self._lock.wait_for(lambda: self._open < self.limit, timeout):
                return False
            self._open += 1
            self._lock.notify_all()
            return True

    def fanout_for(self, make: Callable[[], Fanout]) -> Fanout:
        with self._lock:
            if self.fanout is None:
                self.fanout = make()
            return self.fanout

    def wait_open(self, count: int, timeout: float) -> bool:
        """True once at least ``count`` streams are open (within ``timeout`` seconds)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._open >= count, timeout)

    def closed(self) -> None:
        with self._lock:
            self._open -= 1
            self._lock.notify_all()

    def hold(self, place: Place) -> None:
        with self._lock:
            self._by_address.setdefault(place.address, []).append(place)

    def release(self, place: Place) -> None:
        with self._lock:
            held = self._by_address.get(place.address, [])
            if place in held:
                held.remove(place)
            if not held:
                self._by_address.pop(place.address, None)

    def oldest_of_greediest(self, address: str) -> Place | None:
        """The oldest stream of the address holding the most, when it holds at least two more than
        ``address`` (a new screen's) does: the one to close for it. None when the places are shared."""
        with self._lock:
            mine = len(self._by_address.get(address, ()))
            greedy = max(self._by_address.values(), key=len, default=[])
            return greedy[0] if len(greedy) >= mine + 2 else None

    def wait_all_closed(self, timeout: float) -> bool:
        """True once no stream is open (within ``timeout`` seconds)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._open == 0, timeout)


def init_app(app: Flask) -> None:
    app.extensions[_STREAMS] = Streams(limit=int(app.config["SSE_MAX_STREAMS"]))


def streams_of(app: Flask) -> Streams:
    return app.extensions[_STREAMS]


def stop_streams(app: Flask) -> None:
    """Ends every open stream (within POLL_SECONDS) so the server can stop and browsers reconnect."""
    streams_of(app).stopping.set()


def format_view(view: Mapping[str, JSON]) -> str:
    """One SSE message carrying a published view, its ``id`` the view's seq."""
    # The session encodes each view once for all subscribers (``PublishedView.json``); a plain
    # mapping (a fake, a test) is encoded here. Compact JSON is one line: one ``data:`` field.
    data = getattr(view, "json", None)
    if not isinstance(data, str):
        data = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
    return f"id: {view.get('seq', 0)}\ndata: {data}\n\n"


def events(
    subscription: Subscription,
    streams: Streams,
    *,
    keepalive: float,
    retry_ms: int,
    client_gone: Callable[[], bool] = lambda: False,
    place: GeneratorPlace | None = None,
) -> Generator[bytes, None, None]:
    """The text of one stream (counted in ``streams`` already, see ``Streams.reserve``); closes the
    subscription when the client goes, the app stops or ``place`` is evicted."""
    now = time.monotonic
    sent = 0
    if place is not None:
        streams.hold(place)
    try:
        yield f"retry: {retry_ms}\n\n".encode()
        quiet_since = now()
        # A closed subscription (the session stopped) answers None at once: end instead of spinning.
        while not streams.stopping.is_set() and not subscription.closed:
            if client_gone():  # the server saw the socket close: free this thread now, not at the
                log.debug("a stream client went away after %d views", sent)  # next write
                return
            if place is not None and place.evicted.is_set():
                return
            view = subscription.get(timeout=min(POLL_SECONDS, keepalive))
            if view is not None:
                yield streams.message(view)
                sent += 1
                quiet_since = now()
            elif now() - quiet_since >= keepalive:
                # Keeps proxies and the browser from timing out, and finds a vanished client:
                # writing to its closed socket ends this generator.
                yield b": keep-alive\n\n"
                quiet_since = now()
    except GeneratorExit:
        # The server closes the generator when the client went away (a TV switched off, a phone
        # locked): normal at a table, so one debug line and no traceback.
        log.debug("a stream client went away after %d views", sent)
        raise
    finally:
        subscription.close()
        if place is not None:
            streams.release(place)
        streams.closed()


class StartedStream:
    """A stream's generator, started, as the WSGI body: closing it runs the generator's ``finally``
    (subscription closed, stream uncounted) even when the server closes it before iterating once,
    which an unstarted generator would skip."""

    def __init__(self, body: Generator[bytes, None, None]) -> None:
        self._body = body
        self._first = next(body)  # enters its try block

    def __iter__(self) -> Iterator[bytes]:
        yield self._first
        yield from self._body

    def close(self) -> None:
        self._body.close()


class PushedStream:
    """A stream written by the fan-out: this (the server's thread for the request) writes the retry hint
    and the first view, hands the connection to the fan-out, and waits until the stream ends."""

    def __init__(
        self, streams: Streams, fanout: Fanout, push: Push, retry_ms: int, address: str = ""
    ) -> None:
        self._streams = streams
        self._fanout = fanout
        self._client: Client = fanout.open(push)
        self._retry_ms = retry_ms
        self._closed = False
        self.address = address
        streams.hold(self)

    def evict(self) -> None:
        """Ends this stream for a screen of another address (its browser reconnects if it is alive)."""
        self._client.push.drop()
        self._fanout.close(self._client)

    def __iter__(self) -> Iterator[bytes]:
        client = self._client
        yield f"retry: {self._retry_ms}\n\n".encode() + self._streams.message(client.view)
        self._fanout.activate(client)  # the first chunk is out: the fan-out writes the rest
        while not client.done.wait(POLL_SECONDS) and not self._streams.stopping.is_set():
            pass
        self._fanout.close(client)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._streams.release(self)
        self._fanout.close(self._client)
        # Said before the stream stops counting: whoever waits for the count sees the line too.
        log.debug("a stream client went away after %d views", self._client.sent)
        self._streams.closed()


def reserve_place(streams: Streams, address: str) -> bool:
    """Counts a new stream from ``address``, making room if every place is taken: by closing a stalled
    one, else the oldest of an address holding at least two more (``Streams.oldest_of_greediest``).
    False (nothing counted) when there is no room."""
    if streams.reserve():
        return True
    fanout = streams.fanout
    if fanout is not None and fanout.drop_most_stalled(EVICT_STALLED_SECONDS) and streams.reserve(2.0):
        return True
    greedy = streams.oldest_of_greediest(address)
    if greedy is not None:
        log.warning("every stream place is taken, most by %s: its oldest stream made room", greedy.address)
        greedy.evict()
        return streams.reserve(2.0)
    return False


def _reserve(streams: Streams, address: str) -> None:
    if reserve_place(streams, address):
        return
    raise ServiceUnavailable(f"{streams.limit} screens are streaming already: close one and retry")


@bp.get("/stream")
def stream() -> Response:
    streams = streams_of(current_app)  # type: ignore[arg-type]  # the proxy is the app
    config = current_app.config
    address = request.remote_addr or ""
    _reserve(streams, address)
    push = request.environ.get(PUSH_ENVIRON)
    body: Iterable[bytes]
    try:
        session = current_session()
        if push is not None:
            fanout = streams.fanout_for(
                lambda: Fanout(
                    session,
                    streams.message,
                    keepalive=float(config["SSE_KEEPALIVE"]),
                    stall_seconds=float(config["SSE_STALL_SECONDS"]),
                    stopping=streams.stopping,
                )
            )
            body = PushedStream(streams, fanout, push, int(config["SSE_RETRY_MS"]), address)
        else:
            body = StartedStream(
                events(
                    session.subscribe(),
                    streams,
                    keepalive=float(config["SSE_KEEPALIVE"]),
                    retry_ms=int(config["SSE_RETRY_MS"]),
                    # waitress tells when the client's socket closed (other servers: at the next write).
                    client_gone=request.environ.get("waitress.client_disconnected") or (lambda: False),
                    place=GeneratorPlace(address),
                )
            )
    except BaseException:
        streams.closed()
        raise
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
