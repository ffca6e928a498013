"""One thread that runs many paho-mqtt clients (paho's external event loop API): a table needs one
connection, the hall benchmark fifty in one process, and neither wants a thread per connection.

Every paho call happens on the loop's thread: other threads hand it work with ``call``. A ``Link``
keeps one connection up: it makes a fresh paho client for every connection (so nothing paho queued
for a dead connection is sent again behind the publisher's back: the publisher re-publishes from its
event log instead) and reconnects with a growing delay after a loss.
"""

from __future__ import annotations

import logging
import selectors
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from mqtt_link.address import Broker

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
"""How often keep-alives and reconnects are looked at."""
FIRST_RETRY = 0.1
LAST_RETRY = 3.0
KEEPALIVE = 10
"""Seconds: a broker that says nothing for 1.5 times this is gone (Mosquitto closes a client after
1.5 keep-alives too, and then publishes its last will)."""


class LinkHandler(Protocol):
    def connected(self, link: Link) -> None: ...

    def disconnected(self, link: Link, reason: str) -> None: ...

    def published(self, link: Link, mid: int) -> None: ...

    def message(self, link: Link, topic: str, payload: bytes) -> None: ...


class MqttLoop:
    """The selector loop. ``start`` once, ``stop`` once; ``call`` from any thread."""

    def __init__(self) -> None:
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._calls: deque[Callable[[], None]] = deque()
        self._lock = threading.Lock()
        self._links: set[Link] = set()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mqtt-loop", daemon=True)

    def start(self) -> MqttLoop:
        self._thread.start()
        return self

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    def call(self, work: Callable[[], None]) -> None:
        """Runs ``work`` on the loop's thread soon (safe from any thread, never blocks)."""
        with self._lock:
            self._calls.append(work)
        try:
            self._wake_w.send(b"\0")
        except (BlockingIOError, OSError):
            pass  # the wake-up pipe is full: the loop is awake anyway

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        self.call(lambda: None)
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        self._wake_r.close()
        self._wake_w.close()

    # -- used by Link, on the loop's thread -----------------------------------------------------

    def add(self, link: Link) -> None:
        self._links.add(link)

    def remove(self, link: Link) -> None:
        self._links.discard(link)

    def watch(self, sock: Any, link: Link, write: bool) -> None:
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if write else 0)
        try:
            self._selector.modify(sock, events, link)
        except KeyError:
            self._selector.register(sock, events, link)

    def unwatch(self, sock: Any) -> None:
        try:
            self._selector.unregister(sock)
        except (KeyError, ValueError):
            pass

    # -- the thread ------------------------------------------------------------------------------

    def _run(self) -> None:
        next_tick = 0.0
        while not self._stopping.is_set():
            timeout = max(0.0, next_tick - time.monotonic())
            for key, mask in self._selector.select(timeout):
                if key.data is None:
                    try:
                        while self._wake_r.recv(4096):
                            pass
                    except (BlockingIOError, OSError):
                        pass
                    continue
                key.data.ready(mask)
            self._run_calls()
            if time.monotonic() >= next_tick:
                for link in tuple(self._links):
                    link.tick()
                next_tick = time.monotonic() + TICK_SECONDS
        self._run_calls()
        for link in tuple(self._links):
            link.close()

    def _run_calls(self) -> None:
        while True:
            with self._lock:
                if not self._calls:
                    return
                work = self._calls.popleft()
            try:
                work()
            except Exception:
                log.exception("MQTT loop work failed")


class Link:
    """One connection to the broker, kept up by the loop. Methods other than ``start`` and ``close``
    run on the loop's thread."""

    def __init__(
        self,
        loop: MqttLoop,
        broker: Broker,
        client_id: str,
        handler: LinkHandler,
        *,
        clean: bool = True,
        will: Callable[[], tuple[str, bytes, int, bool]] | None = None,
        subscriptions: tuple[tuple[str, int], ...] = (),
        max_inflight: int = 100,
    ) -> None:
        self.loop = loop
        self.broker = broker
        self.client_id = client_id
        self.handler = handler
        self.clean = clean
        self.will = will
        self.subscriptions = subscriptions
        self.max_inflight = max_inflight
        self.client: mqtt.Client | None = None
        self.connected = False
        self._closed = False
        self._retry_at = 0.0
        self._delay = FIRST_RETRY
        self.connections = 0
        """Successful connections so far (the first and every reconnect)."""
        self.connected_at: deque[float] = deque(maxlen=16)
        """When the latest connections were made (``time.perf_counter``): the benchmark reads them."""
        self.last_problem = ""

    def start(self) -> None:
        self.loop.call(self._begin)

    def _begin(self) -> None:
        self.loop.add(self)
        self._connect()

    # -- connecting ------------------------------------------------------------------------------

    def _new_client(self) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=self.clean,
            protocol=mqtt.MQTTv311,
        )
        client.max_inflight_messages_set(self.max_inflight)
        if self.broker.username is not None:
            client.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            client.tls_set(ca_certs=str(self.broker.cafile) if self.broker.cafile else None)
        if self.will is not None:
            topic, payload, qos, retain = self.will()
            client.will_set(topic, payload, qos, retain)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.on_socket_open = self._on_socket_open
        client.on_socket_close = self._on_socket_close
        client.on_socket_register_write = self._on_register_write
        client.on_socket_unregister_write = self._on_unregister_write
        return client

    def _connect(self) -> None:
        if self._closed:
            return
        client = self._new_client()
        self.client = client
        try:
            client.connect(self.broker.host, self.broker.port, keepalive=KEEPALIVE)
        except (OSError, ssl.SSLError, ValueError) as exc:
            self._lost(client, f"cannot reach {self.broker.url}: {exc}")

    def _lost(self, client: mqtt.Client, reason: str) -> None:
        if client is not self.client:
            return
        if client.socket() is not None:
            self.loop.unwatch(client.socket())
        was = self.connected
        self.connected = False
        self.client = None
        if reason != self.last_problem and not self._closed:
            log.warning("MQTT %s: %s", self.client_id, reason)
            self.last_problem = reason
        self._retry_at = time.monotonic() + self._delay
        self._delay = min(self._delay * 2, LAST_RETRY)
        if was:
            self.handler.disconnected(self, reason)

    def tick(self) -> None:
        client = self.client
        if client is None:
            if not self._closed and time.monotonic() >= self._retry_at:
                self._connect()
            return
        client.loop_misc()

    def ready(self, mask: int) -> None:
        client = self.client
        if client is None:
            return
        if mask & selectors.EVENT_READ:
            client.loop_read(max_packets=64)
            sock = client.socket() if self.client is client else None
            while isinstance(sock, ssl.SSLSocket) and sock.pending() and self.client is client:
                client.loop_read(max_packets=64)
        if mask & selectors.EVENT_WRITE and self.client is client:
            client.loop_write()

    # -- paho's callbacks (on the loop's thread) ---------------------------------------------------

    def _on_socket_open(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        if client is self.client:
            try:  # small packets (an input, a PUBACK) go at once, not after the peer's delayed ACK
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):
                pass
            self.loop.watch(sock, self, write=False)

    def _on_socket_close(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.loop.unwatch(sock)

    def _on_register_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        if client is self.client:
            self.loop.watch(sock, self, write=True)

    def _on_unregister_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        if client is self.client:
            self.loop.watch(sock, self, write=False)

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if client is not self.client:
            return
        if reason.is_failure:
            self.last_problem = ""  # say it again below
            self._lost(client, f"{self.broker.url} refused the connection: {reason}")
            client.disconnect()
            return
        self.connected = True
        self.connections += 1
        self.connected_at.append(time.perf_counter())
        self._delay = FIRST_RETRY
        if self.last_problem:
            log.info("MQTT %s: connected to %s again", self.client_id, self.broker.url)
        self.last_problem = ""
        for topic, qos in self.subscriptions:
            client.subscribe(topic, qos)
        self.handler.connected(self)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        self._lost(client, f"connection to {self.broker.url} lost ({reason})")

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        if client is self.client:
            self.handler.published(self, mid)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if client is self.client:
            self.handler.message(self, message.topic, message.payload)

    # -- used by handlers --------------------------------------------------------------------------

    def publish(self, topic: str, payload: bytes | str, qos: int = 1, retain: bool = False) -> int | None:
        """The message id of a message handed to the connection, or None while disconnected."""
        client = self.client
        if client is None or not self.connected:
            return None
        info = client.publish(topic, payload, qos=qos, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return None
        return int(info.mid)

    def flush(self) -> None:
        """Writes what paho queued, now: paho only asks the loop to watch for a writable socket, and
        the loop gets there after every other piece of work queued for this turn (fifty tables' pumps
        after a round of play), which held a table's input back for tens of milliseconds."""
        client = self.client
        if client is not None and self.connected and client.want_write():
            client.loop_write()

    def close(self, last: Callable[[Link], None] | None = None) -> None:
        """Stops reconnecting; ``last`` may publish a final message first (a clean offline status)."""
        if self._closed:
            return
        self._closed = True
        client = self.client
        if client is not None:
            if last is not None and self.connected:
                try:
                    last(self)
                    client.loop_write()
                except Exception:
                    log.exception("MQTT %s: the last message failed", self.client_id)
            try:
                client.disconnect()
                client.loop_write()
            except Exception:
                pass
            if client.socket() is not None:
                self.loop.unwatch(client.socket())
        self.connected = False
        self.client = None
        self.loop.remove(self)

    def close_soon(self, last: Callable[[Link], None] | None = None, timeout: float = 5.0) -> None:
        """``close`` on the loop's thread, waiting for it (from any other thread)."""
        done = threading.Event()

        def work() -> None:
            try:
                self.close(last)
            finally:
                done.set()

        self.loop.call(work)
        done.wait(timeout)
