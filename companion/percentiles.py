"""Percentiles of measured samples, one definition for every benchmark and latency summary."""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float], p: float) -> float | None:
    """The nearest-rank percentile: the smallest value with at least p% of the values at or below it
    (``p`` from 0 to 100; None without values)."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]
