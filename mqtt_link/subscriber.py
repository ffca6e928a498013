"""The hall's side: one connection that takes every table's messages into ``companion.hall.state``.

A persistent MQTT session (a fixed client id, clean session off): while the hall is away the broker
keeps its QoS 1 events, and the retained view, status and result of every table come back whenever
it subscribes. Each payload is checked (``companion.hall.messages.read_message``) before the hall
reads it; a refused one is counted and told on the hall page, and logged at most once a minute.
"""

from __future__ import annotations

import logging
import time

from companion.hall.messages import MessageError, read_message
from companion.hall.state import HallState
from companion.hall.topics import hall_id, parse_topic, subscriptions
from mqtt_link.address import Broker
from mqtt_link.loop import Link, MqttLoop

log = logging.getLogger(__name__)

LOG_EVERY = 60.0


class HallSubscriber:
    def __init__(
        self, state: HallState, broker: Broker, hall: str, loop: MqttLoop, client_id: str | None = None
    ) -> None:
        self.state = state
        self.hall = hall_id(hall)
        self.link = Link(
            loop,
            broker,
            client_id or f"hall-{hall}",
            self,
            clean=False,
            subscriptions=tuple((topic, 1) for topic in subscriptions(self.hall)),
        )
        self._logged_at = 0.0
        self.received = 0

    def start(self) -> HallSubscriber:
        self.link.start()
        return self

    def stop(self) -> None:
        self.link.close_soon()

    @property
    def online(self) -> bool:
        return self.link.connected

    def connected(self, link: Link) -> None:
        log.info("hall %s: subscribed at %s", self.hall, link.broker.url)

    def disconnected(self, link: Link, reason: str) -> None:
        pass

    def published(self, link: Link, mid: int) -> None:
        pass

    def message(self, link: Link, topic: str, payload: bytes) -> None:
        self.received += 1
        parsed = parse_topic(self.hall, topic)
        if parsed is None:
            self._refuse(f"a message on {topic[:80]!r}, which is not a table topic of hall {self.hall}")
            return
        try:
            message = read_message(parsed.table, parsed.leaf, payload)
        except MessageError as exc:
            self._refuse(f"table {parsed.table} {parsed.leaf}: {exc}")
            return
        self.state.apply(message)

    def _refuse(self, reason: str) -> None:
        self.state.refuse(reason)
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY:
            self._logged_at = now
            log.warning(
                "hall %s refused a message: %s (refused so far: %d)", self.hall, reason, self.state.refused
            )
