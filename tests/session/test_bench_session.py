"""The benchmark functions return sound figures (their speed is not judged here)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.bench_session import publish_latency, resume_time


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


def test_the_command_prints_both_parts_as_json(tmp_path: Path, capsys) -> None:
    from companion.cli import main

    argv = ["bench", "session", "--inputs", "60", "--commands", "5", "--subscribers", "2"]
    assert main([*argv, "--dir", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["resume"]["inputs"] == 60 and figures["latency"]["commands"] == 5
