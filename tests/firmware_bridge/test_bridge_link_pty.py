"""HostLink against the virtual table over a real pseudo-terminal (and loop:// where it fits)."""

from __future__ import annotations

import os
from pathlib import Path

import serial

from companion.observations import DieRolled, TagGone, TagSeen
from firmware_bridge import messages as m
from firmware_bridge.host import LinkSettings
from firmware_bridge.link import HostLink
from firmware_bridge.virtual import Faults, VirtualSettings

from .link_helpers import FAST, Watch, live

UID = "04A1B2C3D4E5F6"


def test_no_io_before_start(tmp_path: Path) -> None:
    opened: list[str] = []

    def opener(spec: str, baudrate: int, timeout: float) -> serial.SerialBase:
        opened.append(spec)
        raise AssertionError("opened in __init__")

    link = HostLink(str(tmp_path / "nothing"), print, opener=opener)
    assert opened == [] and link.status()["state"] == "searching"


def test_handshake_then_events_arrive_as_observations() -> None:
    with live() as (table, _link, watch):
        status = watch.state("connected")
        assert status["device_id"] == "virtual-table" and status["firmware"] == "0.2.0"
        assert status["path"] == table.pts and status["port"] == table.path
        table.put_tag(2, UID)
        seen = watch.next()
        assert isinstance(seen, TagSeen) and (seen.reader, seen.uid) == (2, UID)
        table.roll(0, 17)
        rolled = watch.next()
        assert isinstance(rolled, DieRolled) and (rolled.die, rolled.face, rolled.faces) == (0, 17, 20)


def test_reconnect_after_the_pty_closes_and_reopens_on_a_new_path() -> None:
    with live() as (table, _link, watch):
        watch.state("connected")
        first_pts = table.pts
        table.unplug()
        watch.state("searching")
        assert not os.path.exists(table.path)  # like /dev/serial/by-id while unplugged
        table.put_tag(0, UID)  # happens while unplugged: queued on the device
        table.replug()
        status = watch.state("connected")
        seen = watch.next()
        assert isinstance(seen, TagSeen) and seen.uid == UID
        assert status["counters"]["reconnects"] == 1
        assert status["path"] == table.pts and first_pts is not None


def test_heartbeat_loss_marks_lost_and_recovers() -> None:
    settings = LinkSettings(
        hello_timeout=0.05, heartbeat_timeout=0.3, backoff_initial=0.01, status_interval=0.0
    )
    with live(settings) as (table, _link, watch):
        watch.state("connected")
        table.freeze()
        lost = watch.state("lost")
        assert lost["last_heard"] is not None
        table.freeze(False)
        watch.state("connected")


def test_corrupt_frames_are_counted_and_skipped_without_loss() -> None:
    with live(faults=Faults(corrupt=0.2, duplicate=0.1, reorder=0.1)) as (table, _link, watch):
        watch.state("connected")
        uids = [f"0400000000{i:04X}" for i in range(40)]
        for i, uid in enumerate(uids):
            table.put_tag(i % 4, uid)
        seen = [watch.next(timeout=10) for _ in uids]
        assert [getattr(o, "uid", None) for o in seen] == uids
        status = watch.status_until(lambda s: s["counters"]["corrupt"] > 0)
        assert status["counters"]["corrupt"] > 0 and table.counters["corrupted_tx"] > 0


def test_resync_reconciles_after_a_device_restart() -> None:
    with live() as (table, link, watch):
        watch.state("connected")
        table.put_tag(0, UID)
        table.put_tag(1, "01020304")
        assert {getattr(watch.next(), "uid", None) for _ in range(2)} == {UID, "01020304"}
        # The device restarts and, while it was down, the tag on reader 1 was taken away.
        with table._lock:
            table.table.tags[1] = []
            table.reboot()
        gone = watch.next()
        assert isinstance(gone, TagGone) and (gone.reader, gone.uid) == (1, "01020304")
        status = watch.status_until(
            lambda s: s["counters"]["device_restarts"] == 1 and s["tags"] == {"0": [UID]}
        )
        assert status["state"] == "connected"
        reports = status["counters"]["state_reports"]
        assert link.resync()
        watch.status_until(lambda s: s["counters"]["state_reports"] > reports)
        assert watch.observations.empty()  # nothing changed: a resync adds no observations


def test_led_and_identify_reach_the_device() -> None:
    with live() as (table, link, watch):
        watch.state("connected")
        assert link.led(m.Led.BLINK, (0, 255, 0))
        assert link.identify(1500)
        assert table.wait_for(
            lambda: table.identified == [1500] and table.leds.get(0) == (2, (0, 255, 0)), 5.0
        )


def test_loop_url_reads_frames_written_into_it() -> None:
    port = serial.serial_for_url("loop://", timeout=0.02)
    watch = Watch()
    link = HostLink("loop://", watch.observations.put, watch.statuses.put, FAST, opener=lambda *a: port)
    link.start()
    try:
        watch.state("connecting")
        # On loop:// our own RESYNC and ACKs come back to us: the host must ignore its own messages.
        port.write(m.to_frame(m.Hello((2, 0, 0), 5, 100, "loop", 1), 100).encode())
        watch.state("connected")
        port.write(m.to_frame(m.TagPresent(0, bytes.fromhex(UID)), 100).encode())
        seen = watch.next()
        assert isinstance(seen, TagSeen) and seen.uid == UID
        status = watch.status_until(lambda s: s["counters"]["events"] == 1)
        assert status["counters"]["unknown_types"] == 0
    finally:
        link.stop()
    assert watch.observations.empty()


def test_searching_while_the_port_is_missing(tmp_path: Path) -> None:
    watch = Watch()
    link = HostLink(str(tmp_path / "ttyNONE"), watch.observations.put, watch.statuses.put, FAST)
    link.start()
    try:
        status = watch.state("searching")
        assert "does not exist" in status["error"]
    finally:
        link.stop()
    assert link.status()["state"] == "stopped"


def test_device_restart_resets_dedup_so_new_events_are_not_dropped() -> None:
    device = VirtualSettings(heartbeat_ms=50, hello_ms=100, rto_ms=30, seed=5, first_seq=100)
    with live(device=device) as (table, _link, watch):
        watch.state("connected")
        table.roll(0, 3)
        assert getattr(watch.next(), "face", None) == 3
        table.reboot()  # new boot id and a fresh random first sequence number
        table.roll(0, 4)
        assert getattr(watch.next(), "face", None) == 4
        watch.status_until(lambda s: s["counters"]["device_restarts"] == 1)


def test_backoff_doubles_up_to_the_cap() -> None:
    from firmware_bridge.link import backoff_delay

    settings = LinkSettings(backoff_initial=0.05, backoff_max=2.0)
    assert [backoff_delay(a, settings) for a in range(8)] == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0]
    assert backoff_delay(10_000, settings) == 2.0


def test_a_failing_consumer_does_not_stop_the_link() -> None:
    watch = Watch()
    calls: list[object] = []

    def flaky(observation: object) -> None:
        calls.append(observation)
        if len(calls) == 1:
            raise RuntimeError("consumer bug")
        watch.observations.put(observation)

    with live() as (table, _link, outer):
        outer.state("connected")
        link = HostLink(table.path, flaky, watch.statuses.put, FAST)
        _link.stop()  # one host at a time on the pty
        link.start()
        try:
            watch.state("connected")
            table.roll(0, 1)
            table.roll(0, 2)
            assert getattr(watch.next(), "face", None) == 2
        finally:
            link.stop()


def test_four_frames_in_ten_corrupted_each_way_still_deliver_everything_once_in_order() -> None:
    with live(faults=Faults(corrupt=0.4, duplicate=0.05, reorder=0.05)) as (table, _link, watch):
        watch.state("connected", timeout=10)
        uids = [f"0400000001{i:04X}" for i in range(60)]
        for i, uid in enumerate(uids):
            table.put_tag(i % 4, uid)
            table.roll(1, 1 + i % 6)
        seen = [watch.next(timeout=10) for _ in range(2 * len(uids))]
        assert [getattr(o, "uid", None) for o in seen[::2]] == uids
        assert [getattr(o, "face", None) for o in seen[1::2]] == [1 + i % 6 for i in range(60)]
        assert table.counters["corrupted_tx"] > 0 and table.counters["corrupted_rx"] > 0


def test_a_board_press_is_stamped_on_the_host_clock_even_when_it_arrives_late() -> None:
    import time

    from companion.observations import ButtonPressed

    with live() as (table, _link, watch):
        watch.state("connected")
        before = time.monotonic()
        table.press(1)
        after = time.monotonic()
        pressed = watch.next()
        assert isinstance(pressed, ButtonPressed) and pressed.source == "firmware"
        assert before - 0.002 <= pressed.at <= after + 0.02  # the board's ms stamp, on our clock
        table.unplug()
        watch.state("searching")
        before = time.monotonic()
        table.press(0)  # while the cable is out: it reaches the host after the reconnect
        after = time.monotonic()
        table.replug()
        late = watch.next()
        assert isinstance(late, ButtonPressed) and late.button == "0"
        assert before - 0.002 <= late.at <= after + 0.02  # when it was pressed, not when it came
