"""Latency samples of the table's own work (settle window excluded), summarised as percentiles."""

from __future__ import annotations

import threading
from collections import deque


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
            ordered = sorted(self._samples)
        if not ordered:
            return {"count": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}

        def pick(q: float) -> float:
            return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 3)

        return {"count": len(ordered), "p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": pick(1.0)}
