"""The load benchmarks run end to end on a small scale and print their figures (speed is not judged)."""

from __future__ import annotations

import json

from companion.cli import main


def test_bench_idle_serves_the_phone_and_the_tv_while_sockets_sit_idle(capsys):
    argv = ["bench", "idle", "--connections", "30", "--seconds", "2", "--rate", "5", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["phone_failures"] == 0 and figures["tv_missed"] == 0
    assert figures["phone_commands"] >= 5 and figures["attacker_opened"] >= 30
    assert figures["command_p50_ms"] > 0 and figures["server_rss_mb"] > 0


def test_bench_stalled_reports_the_servers_memory(capsys):
    argv = ["bench", "stalled", "--streams", "3", "--seconds", "2", "--rate", "10", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["commands"] >= 10 and figures["command_failures"] == 0
    assert 0 < figures["rss_start_mb"] <= figures["rss_peak_mb"]
    assert figures["temp_files_peak_mb"] >= 0
