"""Latency samples of the table's own work (settle window excluded), summarised as percentiles."""

from __future__ import annotations

import threading
from collections import deque

from companion.percentiles import percentile


class LatencyStats:
    def __init__(self, keep: int = 2000) -> None:
        self._samples: deque[float] = deque(maxlen=keep)
        self._lock = threading.Lock()

    def record(self, seconds: float) -> None:
        with self._lock:
            self._samples.append(seconds)

    def summary(self) -> dict[str, float | int]:
        """``count``, ``p50_ms``, ``p99_ms``, ``max_ms`` over the kept samples (zeros when none)."""
        with self._lock:
            samples = list(self._samples)

        def pick(p: float) -> float:
            return round((percentile(samples, p) or 0.0) * 1000, 3)

        return {"count": len(samples), "p50_ms": pick(50), "p99_ms": pick(99), "max_ms": pick(100)}
