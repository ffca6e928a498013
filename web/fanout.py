"""Every published view written to every live stream the server lets it push to, by the session's
writer thread as it publishes the view; one fan-out thread looks after the streams between views.

Why not a thread per stream: each view woke every stream's thread, and 20 to 100 threads then queued
for the interpreter lock to send the same bytes (about 80 µs a stream, most of an update's latency
with a house of screens). Why not one fan-out thread for the writes: waking it was one more hand-off
on every update, and it then raced the command's own answer (the request's thread, the server's
loop) for the interpreter lock, a millisecond or more at the tail. The writer calls the
subscription's ``notify`` right after queueing the view and sends it to each connection in turn; a
send never blocks (the server buffers what the socket cannot take at once).

How much a stream may hold: a client that does not read (a TV whose Wi-Fi froze, an attacker) must not
grow the server's buffers. A stream with more than ``MAX_UNSENT`` bytes still waiting gets nothing more
until it drains, and then only the latest view (views are complete: skipping one loses nothing); a
stream whose client has read nothing for ``stall_seconds`` while bytes waited is closed, and its
browser reconnects if it is alive.

The server hands a connection over in the WSGI environ as ``PUSH_ENVIRON`` (``Push``); ``companion
serve`` does (companion/cli/serve.py). Without one (the development server, Flask's test client) a
stream is a generator on its own thread (web.stream.events).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from companion.engine import JSON
from companion.session.contract import SessionPort, Subscription

log = logging.getLogger(__name__)

View = Mapping[str, JSON]

PUSH_ENVIRON = "companion.push"
MAX_UNSENT = 64 * 1024
"""Bytes a stream may have waiting in the server before it gets no more views until it drains: a few
views (one always goes out to a stream below it, however large), well under the size at which the server
would spill a connection's buffer to a temporary file. 64 kB, not 256: 24 stalled streams with 256 kB
each took the server to 64 MB in ``companion bench stalled`` (57 MB with 64 kB)."""
TICK_SECONDS = 0.1
"""How often the fan-out thread looks at every stream between views: catch-up of drained streams,
keep-alives, closed and stalled clients, and a session that stopped."""


class Push(Protocol):
    """A connection the app may write to from any thread, after its first chunk went out."""

    def write(self, data: bytes) -> None:
        """Queues ``data`` for the client without blocking; ConnectionError once the client is gone."""

    def unsent(self) -> int:
        """Bytes written but not yet taken by the client's socket."""

    def stalled(self) -> float:
        """Seconds the client has taken no byte while some waited (0.0 when nothing waits)."""

    def gone(self) -> bool:
        """True once the client closed its connection."""

    def drop(self) -> None:
        """Closes the connection (from any thread; the server does it on its own loop)."""


class Client:
    """One stream as the fan-out sees it."""

    def __init__(self, push: Push, view: View) -> None:
        self.push = push
        self.view = view
        """The last view written to it (the fan-out sends it the latest when this is not that)."""
        self.active = False
        self.sent = 0
        self.last_write = time.monotonic()
        self.done = threading.Event()


class Fanout:
    """The pushed streams of one app and the thread that writes to them (started with the first)."""

    def __init__(
        self,
        session: SessionPort,
        message: Callable[[View], bytes],
        *,
        keepalive: float,
        stall_seconds: float,
        stopping: threading.Event,
    ) -> None:
        self._session = session
        self._message = message
        self._keepalive = keepalive
        self._stall_seconds = stall_seconds
        self._stopping = stopping
        self._lock = threading.Lock()
        self._clients: list[Client] = []
        self._subscription: Subscription | None = None
        self._latest: View | None = None
        self._ended = False
        self._thread: threading.Thread | None = None

    # -- called by the streams' own threads ---------------------------------------------------------

    def open(self, push: Push) -> Client:
        """A new stream, not yet written to by the fan-out: its thread writes ``client.view`` first."""
        with self._lock:
            if self._subscription is None:
                self._subscription = self._session.subscribe(self._published)
                self._latest = self._subscription.get(timeout=0) or self._session.view()
                self._thread = threading.Thread(target=self._run, name="sse-fanout", daemon=True)
                self._thread.start()
            assert self._latest is not None
            client = Client(push, self._latest)
            if self._ended:
                client.done.set()
            else:
                self._clients.append(client)
            return client

    def activate(self, client: Client) -> None:
        """The stream's first chunk went out: from now on the fan-out writes to it."""
        with self._lock:
            if client.done.is_set():
                return
            client.active = True
            assert self._latest is not None
            if client.view is not self._latest:  # published while its first chunk was written
                self._send(client, self._latest)

    def close(self, client: Client) -> None:
        """The stream ends: once this returns, the fan-out never writes to it again."""
        with self._lock:
            self._finish(client)

    def drop_most_stalled(self, at_least: float) -> bool:
        """Closes the stream stalled longest (at least ``at_least`` seconds), to give its place to a
        new screen; False when no stream is stalled that long."""
        with self._lock:
            stalled = [
                (c.push.stalled(), i, c) for i, c in enumerate(self._clients) if c.active and c.push.unsent()
            ]
            worst = max(stalled, default=None, key=lambda item: item[:2])
            if worst is None or worst[0] < at_least:
                return False
            log.info("a stream that read nothing for %.0f s made room for a new screen", worst[0])
            worst[2].push.drop()
            self._finish(worst[2])
            return True

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._clients)

    # -- the fan-out thread -------------------------------------------------------------------------

    # -- the session's writer thread ------------------------------------------------------------------

    def _published(self) -> None:
        """A view was queued: sends it to every stream now, on the writer's thread (it must never raise
        there: a failure is logged, and the fan-out thread's next tick sends the latest view)."""
        try:
            with self._lock:
                self._send_queued()
        except Exception:
            log.exception("writing a view to the streams failed; the next tick sends it again")

    def _send_queued(self) -> None:
        """Called with the lock held."""
        subscription = self._subscription
        if subscription is None or self._ended:
            return
        view = None
        while (queued := subscription.get(timeout=0)) is not None:
            view = queued  # views are complete: only the newest one is worth sending
        if view is not None:
            self._latest = view
            for client in [c for c in self._clients if c.active]:
                self._send(client, view)

    # -- the fan-out thread -------------------------------------------------------------------------

    def _run(self) -> None:
        subscription = self._subscription
        assert subscription is not None
        try:
            while not self._stopping.wait(TICK_SECONDS) and not subscription.closed:
                with self._lock:
                    self._send_queued()  # a view a failed write left queued
                    self._tick()
        except Exception:
            log.exception("the stream fan-out failed; every stream ends and browsers reconnect")
        finally:
            subscription.close()
            with self._lock:
                self._ended = True
                for client in list(self._clients):
                    self._finish(client)

    def _send(self, client: Client, view: View) -> None:
        """Writes ``view`` to ``client`` unless too much still waits for it (then it gets the latest
        view once it drained). Called with the lock held."""
        if client.push.unsent() > MAX_UNSENT:
            return
        try:
            client.push.write(self._message(view))
        except (ConnectionError, OSError):
            self._finish(client)
            return
        except Exception:  # a bug: this stream ends (its browser reconnects), the others get the view
            log.exception("writing a view to a stream failed; that stream is closed")
            client.push.drop()
            self._finish(client)
            return
        client.view = view
        client.sent += 1
        client.last_write = time.monotonic()

    def _tick(self) -> None:
        now = time.monotonic()
        latest = self._latest
        for client in [c for c in self._clients if c.active]:
            if client.push.gone():
                self._finish(client)
            elif client.push.stalled() >= self._stall_seconds:
                log.info("closed a stream whose client read nothing for %.0f s", client.push.stalled())
                client.push.drop()
                self._finish(client)
            elif client.view is not latest and latest is not None:
                self._send(client, latest)  # it drained: the latest view only
            elif now - client.last_write >= self._keepalive and not client.push.unsent():
                try:
                    client.push.write(b": keep-alive\n\n")
                    client.last_write = now
                except (ConnectionError, OSError):
                    self._finish(client)

    def _finish(self, client: Client) -> None:
        if client in self._clients:
            self._clients.remove(client)
        client.done.set()
