"""The benchmark functions return sound figures (their speed is not judged here)."""

from __future__ import annotations

from pathlib import Path

from companion.session.bench import publish_latency, resume_time


def test_resume_time_uses_snapshots_and_checks_the_resumed_state(tmp_path: Path) -> None:
    figures = resume_time(inputs=300, snapshot_every=50, directory=tmp_path)
    assert figures["inputs"] == 300
    assert 0 < figures["effective_actions"] < 300  # some undo among the inputs
    assert figures["replayed_with_snapshots"] < 50
    assert figures["replayed_without_snapshots"] == figures["effective_actions"]
    assert figures["start_seconds"] > 0 and figures["start_seconds_without_snapshots"] > 0


def test_publish_latency_measures_every_reader(tmp_path: Path) -> None:
    figures = publish_latency(commands=20, subscribers=3, directory=tmp_path)
    assert (figures["commands"], figures["subscribers"]) == (20, 3)
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["dropped_views"] == 0
