"""Waiting on a live link without sleeping: statuses and observations arrive on queues."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from firmware_bridge.host import LinkSettings
from firmware_bridge.link import HostLink
from firmware_bridge.virtual import Faults, VirtualSettings, VirtualTable

FAST = LinkSettings(
    hello_timeout=0.05, heartbeat_timeout=2.0, backoff_initial=0.01, backoff_max=0.05, status_interval=0.0
)


class Watch:
    def __init__(self) -> None:
        self.statuses: queue.Queue[dict[str, Any]] = queue.Queue()
        self.observations: queue.Queue[object] = queue.Queue()

    def status_until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("status condition not reached in time")
            status = self.statuses.get(timeout=left)
            if predicate(status):
                return status

    def state(self, state: str, timeout: float = 5.0) -> dict[str, Any]:
        return self.status_until(lambda s: s["state"] == state, timeout)

    def next(self, timeout: float = 5.0) -> object:
        return self.observations.get(timeout=timeout)


@contextmanager
def live(
    settings: LinkSettings = FAST, device: VirtualSettings | None = None, faults: Faults | None = None
) -> Iterator[tuple[VirtualTable, HostLink, Watch]]:
    watch = Watch()
    table = VirtualTable(device or VirtualSettings(heartbeat_ms=50, hello_ms=100, rto_ms=30, seed=3), faults)
    link = HostLink(table.start(), watch.observations.put, watch.statuses.put, settings)
    link.start()
    try:
        yield table, link, watch
    finally:
        link.stop()
        table.stop()
