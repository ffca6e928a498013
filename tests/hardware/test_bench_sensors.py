"""``companion bench sensors`` prints a figure per sensor (a few events: the command works, not a timing)."""

from __future__ import annotations

import json

from companion.cli import main


def test_bench_sensors_prints_each_sensors_figures(capsys) -> None:
    assert main(["bench", "sensors", "--events", "3", "--readers", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["sensor"].split(" (")[0] for row in rows] == [
        "MFRC522 on SPI", "USB keyboard reader", "Pixels die", "GoDice",
    ]  # fmt: skip
    for row in rows:
        assert row["events"] == 3 and 0 <= row["p50_ms"] <= row["max_ms"]
