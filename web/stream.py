"""``/stream``: the published views as Server-Sent Events.

Every message is a whole published view (never a delta), so a client that reconnects, or misses a
view because the session coalesced them, is right again with the next message::

    retry: 2000                     (once, first: how long EventSource waits before reconnecting)

    id: 42                          (the view's seq: the last accepted input of the log)
    data: {"seq": 42, ...}          (the published view as one line of JSON)

    : keep-alive                    (a comment every SSE_KEEPALIVE seconds without a view)

The first message of every connection is the full current view (the subscription's first item).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping

from flask import Blueprint, Flask, Response, current_app

from companion.engine import JSON
from companion.session.contract import Subscription
from web.context import current_session

bp = Blueprint("stream", __name__)

_STREAMS = "companion.streams"
POLL_SECONDS = 0.5
"""How often an idle stream looks up from its queue to notice a shutdown: bounds shutdown time."""


class Streams:
    """The open streams of one app: counted, all ended at once on shutdown, and sharing the encoded
    message of the latest view (every client sends the same bytes: encode once, not once per TV)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._open = 0
        self._last: tuple[Mapping[str, JSON] | None, bytes] = (None, b"")

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

    def opened(self) -> None:
        with self._lock:
            self._open += 1

    def closed(self) -> None:
        with self._lock:
            self._open -= 1


def init_app(app: Flask) -> None:
    app.extensions[_STREAMS] = Streams()


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
) -> Iterator[bytes]:
    """The text of one stream; closes the subscription when the client goes or the app stops."""
    now = time.monotonic
    streams.opened()
    try:
        yield f"retry: {retry_ms}\n\n".encode()
        quiet_since = now()
        # A closed subscription (the session stopped) answers None at once: end instead of spinning.
        while not streams.stopping.is_set() and not subscription.closed:
            view = subscription.get(timeout=min(POLL_SECONDS, keepalive))
            if view is not None:
                yield streams.message(view)
                quiet_since = now()
            elif now() - quiet_since >= keepalive:
                # Keeps proxies and the browser from timing out, and finds a vanished client:
                # writing to its closed socket ends this generator.
                yield b": keep-alive\n\n"
                quiet_since = now()
    finally:
        subscription.close()
        streams.closed()


@bp.get("/stream")
def stream() -> Response:
    subscription = current_session().subscribe()
    body = events(
        subscription,
        streams_of(current_app),  # type: ignore[arg-type]  # the proxy is the app
        keepalive=float(current_app.config["SSE_KEEPALIVE"]),
        retry_ms=int(current_app.config["SSE_RETRY_MS"]),
    )
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
