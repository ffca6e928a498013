"""waitress as the table needs it: one request per connection, connections that cannot hold the server
hostage, and streams the app may push to (``companion serve`` builds its Server from these).

A table's server faces a room of phones on one LAN, some of them hostile. waitress alone stops
accepting at its connection limit, so 100 sockets that send nothing froze every page, command and
stream. Here:

- a connection must deliver its whole request within ``REQUEST_SECONDS`` of connecting, or it is closed;
- at the connection limit, a new connection closes the oldest one that has not sent a request yet
  (an idle or slow-loris socket), so the server never stops accepting while any of them is idle;
- an answer nobody reads for ``ANSWER_SECONDS`` is closed;
- once its request has arrived, what else a client sends on the connection is read and dropped (never
  buffered: one request per connection);
- a running stream is handed to the app as a ``web.fanout.Push`` in the WSGI environ.
"""

from __future__ import annotations

import logging
import socket
import struct
import time
from collections import deque
from typing import Any

from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError
from waitress.server import TcpWSGIServer
from waitress.task import WSGITask

from web.fanout import PUSH_ENVIRON

log = logging.getLogger(__name__)

REQUEST_SECONDS = 5.0
"""A connection that has not delivered a whole request this long after connecting is closed: a phone
sends its request within milliseconds of connecting; an idle or dribbling socket is an attack or dead."""
ANSWER_SECONDS = 30.0
"""An answer whose client has read nothing of it for this long is closed."""
SEND_BUFFER = 128 * 1024
"""Kernel send buffer per connection (Linux doubles it for its bookkeeping): plenty for a LAN, and it
bounds what a client that stops reading pins in the kernel (autotuning grows it to megabytes) and
makes its stall show sooner."""
ACCEPT_BATCH = 64
"""Connections accepted per turn of the event loop, so a burst does not wait in the backlog."""
CLOSE_BATCH = 64
"""Expired connections closed per upkeep pass (four passes a second)."""


class ChannelPush:
    """``web.fanout.Push`` over a waitress connection whose request is running (a stream)."""

    def __init__(self, task: OneRequestTask) -> None:
        self._task = task
        self._channel: OneRequestChannel = task.channel

    def write(self, data: bytes) -> None:
        # The stream's own thread wrote its first chunk (headers included); after that only the fan-out
        # writes, one call at a time. When nothing waits in waitress's buffer the bytes go straight to
        # the socket (waitress's buffer and event loop cost 40 µs a stream, most of a house of screens'
        # latency); what the socket cannot take at once waits in the buffer for the event loop.
        channel = self._channel
        if not channel.connected:
            raise ConnectionError("the stream's client went away")
        if self._task.chunked_response:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        with channel.outbuf_lock:
            if not channel.total_outbufs_len:
                try:
                    sent = channel.socket.send(data)
                except BlockingIOError:
                    sent = 0
                except OSError:
                    raise ConnectionError("the stream's client went away") from None
                channel.last_progress = time.monotonic()
                if sent == len(data):
                    return
                data = data[sent:]
            try:
                channel.write_soon(data)
            except ClientDisconnected:
                raise ConnectionError("the stream's client went away") from None

    def unsent(self) -> int:
        return int(self._channel.total_outbufs_len)

    def stalled(self) -> float:
        channel = self._channel
        if not channel.total_outbufs_len:
            return 0.0
        return max(0.0, time.monotonic() - channel.last_progress)

    def gone(self) -> bool:
        return not self._channel.connected

    def drop(self) -> None:
        self._channel.server.close_soon(self._channel)


class OneRequestTask(WSGITask):  # type: ignore[misc]
    def build_response_header(self) -> bytes:
        self.set_close_on_finish()
        return bytes(super().build_response_header())

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ.setdefault(PUSH_ENVIRON, ChannelPush(self))
        return environ


class StrictParser(HTTPRequestParser):  # type: ignore[misc]
    """Refuses a request that sends both Content-Length and Transfer-Encoding (400): RFC 9112 6.3 says
    such a message "ought to be handled as an error", as two servers in a row could read its body
    differently (request smuggling). waitress itself lets Transfer-Encoding win."""

    def parse_header(self, header_plus: bytes) -> None:
        names = {line.split(b":", 1)[0].strip().lower() for line in header_plus.split(b"\n")[1:]}
        if b"content-length" in names and b"transfer-encoding" in names:
            raise ParsingError("a request may not send both Content-Length and Transfer-Encoding")
        super().parse_header(header_plus)


class OneRequestChannel(HTTPChannel):  # type: ignore[misc]
    task_class = OneRequestTask
    parser_class = StrictParser

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.opened_at = self.last_progress = time.monotonic()
        self.got_request = False
        super().__init__(*args, **kwargs)

    def received(self, data: bytes) -> bool:
        if self.got_request:
            return True  # one request per connection: the rest is read and dropped, never buffered
        result = bool(super().received(data))
        if self.requests:
            self.got_request = True
        return result

    def write_soon(self, data: Any) -> int:
        if not self.total_outbufs_len:
            self.last_progress = time.monotonic()  # nothing was waiting: the client is not behind
        return int(super().write_soon(data))

    def _flush_some(self, do_close: bool = True) -> bool:
        sent = bool(super()._flush_some(do_close=do_close))
        if sent:
            self.last_progress = time.monotonic()
        return sent


class OneRequestServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server answering one request per connection (``Connection: close``).

    Why not keep-alive: a browser reuses an idle kept-alive socket for its next request, and a socket
    whose path died silently (the TV's Wi-Fi re-associated, a phone moved between access points) swallows
    that request until the browser gives up. The pages' watchdog and the phones' commands rely on a
    fresh connection answering at once or failing at once; a new TCP connection on a LAN costs ~1 ms.
    """

    channel_class = OneRequestChannel

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.to_close: deque[OneRequestChannel] = deque()
        self._evicted = 0
        self._next_report = 0.0
        super().__init__(*args, **kwargs)

    def close_soon(self, channel: OneRequestChannel) -> None:
        """Closes ``channel`` on the event loop's thread (safe to call from any thread)."""
        self.to_close.append(channel)
        self.pull_trigger()

    def set_socket_options(self, conn: socket.socket) -> None:
        super().set_socket_options(conn)  # Nagle off
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    def readable(self) -> bool:
        # Runs waitress's own upkeep, but never stops accepting while an idle connection can make room.
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        if not self.accepting:
            return False
        return len(self.active_channels) < self.adj.connection_limit or self._oldest_idle() is not None

    def handle_accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                accepted = self.accept()
                if accepted is None:
                    return
                conn, addr = accepted
                self.set_socket_options(conn)
            except OSError:
                return  # a peer that vanished before it was accepted
            self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
            if len(self.active_channels) > self.adj.connection_limit:
                oldest = self._oldest_idle()
                if oldest is None:
                    return
                self._close(oldest)
                self._evicted += 1
                self._report()

    def tidy(self) -> None:
        """On the loop's thread: closes what was asked, connections without a request in time, and
        answers nobody reads."""
        while self.to_close:
            self._close(self.to_close.popleft(), abort=True)
        now = time.monotonic()
        expired = [
            channel
            for channel in self.active_channels.values()
            if isinstance(channel, OneRequestChannel)
            and not channel.requests
            and (
                now - channel.opened_at > REQUEST_SECONDS
                if not channel.got_request
                else channel.total_outbufs_len and now - channel.last_progress > ANSWER_SECONDS
            )
        ]
        # A few at a time: hundreds of sockets opened together expire together, and closing them all
        # in one turn of the loop would hold up every answer behind them.
        for channel in expired[:CLOSE_BATCH]:
            self._close(channel, abort=channel.got_request)

    def _oldest_idle(self) -> OneRequestChannel | None:
        idle = [
            c for c in self.active_channels.values() if isinstance(c, OneRequestChannel) and not c.got_request
        ]
        return min(idle, key=lambda c: c.opened_at, default=None)

    def _close(self, channel: HTTPChannel, abort: bool = False) -> None:
        """Closes ``channel``; ``abort`` resets it instead, for a client that stopped reading: a
        graceful close would leave its unread bytes (and the close itself) queued in the kernel behind a
        shut window for minutes, and the client would never learn it was dropped."""
        if self._map.get(channel._fileno) is not channel:
            return
        if abort:
            try:
                channel.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass
        channel.handle_close()

    def _report(self) -> None:
        """One line a minute at most while connections are being pushed out: an attack, or far too
        many devices for this table."""
        now = time.monotonic()
        if now >= self._next_report:
            log.warning(
                "%d connections open (the limit): closed %d idle ones to keep accepting new ones",
                len(self.active_channels),
                self._evicted,
            )
            self._next_report = now + 60.0
            self._evicted = 0
