"""``companion bench hall`` end to end on a small scale: a real broker restarted, a table cut off, and
nothing lost or taken twice."""

from __future__ import annotations

import pytest

from companion.cli.bench_hall import measure

pytestmark = [pytest.mark.mosquitto, pytest.mark.slow]

KEYS = ["tables", "events_sent", "events_received", "lost", "duplicated_after_dedup", "p50_ms", "p99_ms"]


def test_a_small_hall_survives_a_broker_restart_and_a_cut_off(mosquitto, tmp_path):
    figures = measure(
        tables=3,
        events=16,
        seconds=4.0,
        cut=1,
        cut_seconds=1.0,
        restarts=1,
        game="chaos-marauders",
        directory=tmp_path,
        seed=2,
    )
    assert list(figures) == KEYS
    assert figures["events_sent"] == 48
    assert figures["lost"] == 0 and figures["events_received"] == 48
    assert figures["duplicated_after_dedup"] == 0
    assert figures["p50_ms"] is not None and figures["p50_ms"] <= figures["p99_ms"]
