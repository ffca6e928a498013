"""The table's sense of time: a monotonic clock, injectable so tests step time instead of sleeping."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Clock = Callable[[], float]
"""Monotonic seconds, like ``time.monotonic``."""

monotonic: Clock = time.monotonic


class ManualClock:
    """A clock that moves only when told: ``clock.advance(0.3)``. Safe to read from any thread."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, now: float) -> None:
        with self._lock:
            self._now = now
