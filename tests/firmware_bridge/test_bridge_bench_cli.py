"""The link benchmark and ``companion devices`` end to end over a pty."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.percentiles import percentile
from firmware_bridge.bench import BenchOptions, run
from firmware_bridge.virtual import VirtualTable


def test_percentile() -> None:
    assert percentile([], 99) is None
    assert percentile([5.0], 50) == 5.0
    assert percentile([float(i) for i in range(101)], 99) == 99.0


@pytest.mark.slow
def test_bench_delivers_exactly_once_through_faults_and_unplugs() -> None:
    figures = run(
        BenchOptions(
            events=400,
            corrupt=0.02,
            duplicate=0.02,
            reorder=0.02,
            unplugs=2,
            unplug_ms=50,
            rate=2000,
            tag_samples=20,
        )
    )
    assert (figures["sent"], figures["applied"], figures["lost"], figures["duplicated"]) == (400, 400, 0, 0)
    # Two unplugs 100 ms apart: a host still in its reconnect back-off when the second comes never
    # opens the pty of the first re-plug (a busy machine), so it reconnects once or twice.
    assert figures["in_order"] and 1 <= figures["reconnects"] <= 2
    assert figures["corrupt_frames"] > 0 and figures["tag_samples"] == 40
    assert figures["tag_p99_ms"] is not None and figures["p99_ms"] >= figures["p50_ms"]


def test_bench_link_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bench", "link", "--events", "60", "--unplugs", "1", "--unplug-ms", "30", "--rate", "3000", "--json"]
    )
    figures = json.loads(capsys.readouterr().out)
    assert code == 0 and figures["sent"] == 60 and figures["lost"] == 0 and figures["duplicated"] == 0


def test_devices_connects_and_describes_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    with VirtualTable() as table:
        table.put_tag(3, "04A1B2C3D4E5F6")
        table.roll(1, 5)
        assert main(["devices", "--port", table.path, "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["state"] == "connected" and status["firmware"] == "0.2.0"
    assert status["capabilities"]["readers"] == 4
    assert status["tags"] == {"3": ["04A1B2C3D4E5F6"]} and status["dice"] == {"1": 5}


def test_devices_text_output_and_missing_port(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    with VirtualTable() as table:
        assert main(["devices", "--port", table.path]) == 0
    out = capsys.readouterr().out
    assert "firmware  0.2.0" in out and "reader 3: -" in out
    assert main(["devices", "--port", str(tmp_path / "ttyNONE"), "--timeout", "0.3"]) == 1


def test_devices_lists_no_boards_without_hardware(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    from firmware_bridge import ports

    monkeypatch.setattr(ports.list_ports, "comports", lambda: [])
    assert main(["devices"]) == 0
    assert "no boards found" in capsys.readouterr().out


@pytest.mark.timeout(90)
def test_bench_under_heavy_corruption_ends_promptly_with_honest_figures() -> None:
    """A link that cannot keep up (60 % of frames corrupted, the device's outbox overflowing) must end
    with figures that say so, not wait two seconds per tag sample for events that never come. The outbox
    is small so that it overflows however fast this machine repairs the corrupt frames."""
    figures = run(
        BenchOptions(
            events=5000,
            corrupt=0.6,
            duplicate=0.0,
            reorder=0.0,
            unplugs=0,
            rate=5000,
            tag_samples=30,
            drain_timeout=0.5,
            outbox_limit=32,
        )
    )
    assert figures["drained"] is False and figures["lost"] > 0 and figures["device_dropped"] > 0
    assert figures["applied"] + figures["lost"] == figures["sent"] and figures["duplicated"] == 0
    assert figures["late"] <= figures["applied"]  # (order: the state re-sync after an overflow may
    # report a dropped tag's presence later, out of the order the events were made)
    assert figures["tag_backlog_cleared"] and figures["tag_samples"] == 60 and figures["tag_timeouts"] == 0
    assert figures["seconds"] < 10  # the faulty phase is bounded by its drain timeout


def test_bench_link_command_fails_when_events_are_lost(capsys: pytest.CaptureFixture[str]) -> None:
    faults = [
        "--corrupt",
        "0.6",
        "--unplugs",
        "0",
        "--rate",
        "5000",
        "--drain-timeout",
        "0.2",
        "--outbox",
        "32",
    ]
    code = main(["bench", "link", "--events", "5000", *faults, "--tag-samples", "5", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert code == 1 and figures["lost"] > 0 and figures["sent"] == 5000


def test_a_board_on_another_protocol_is_no_hello_with_its_reason_not_a_port_that_cannot_open() -> None:
    import queue

    from companion.cli.devices import _wait_for_state_report
    from firmware_bridge.host import VERSION_ERROR_PREFIX

    old = f"{VERSION_ERROR_PREFIX} 1 and this companion speaks 2: flash the firmware"
    statuses: queue.Queue = queue.Queue()
    statuses.put({"state": "connecting", "error": old, "counters": {"state_reports": 0}})
    seen: list = []
    assert _wait_for_state_report(statuses, 0.05, seen) is None  # "no HELLO", then the reason below
    assert seen[-1]["error"] == old
    statuses.put(
        {"state": "searching", "error": "/dev/ttyNOPE does not exist", "counters": {"state_reports": 0}}
    )
    assert _wait_for_state_report(statuses, 0.05, []) == "/dev/ttyNOPE does not exist"
