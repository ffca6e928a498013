"""The virtual table: a stable path over changing ptys, the firmware's protocol, injected faults."""

from __future__ import annotations

import os

import pytest
import serial

from firmware_bridge import messages as m
from firmware_bridge.frames import Frame, FrameReader
from firmware_bridge.virtual import Faults, VirtualSettings, VirtualTable


def _read_messages(port: serial.SerialBase, want: int) -> list[m.Message]:
    reader = FrameReader()
    out: list[m.Message] = []
    for _ in range(200):  # bounded by the port's read timeout, not by sleeping
        for item in reader.feed(port.read(256)):
            if isinstance(item, Frame):
                out.append(m.parse(item))
        if len(out) >= want:
            break
    return out


def test_stable_path_survives_replug_on_a_new_pty(tmp_path) -> None:
    table = VirtualTable(link_dir=tmp_path)
    assert table.path == str(tmp_path / "ttyVIRT")  # known before start, nothing opened yet
    path = table.start()
    try:
        first = os.path.realpath(path)
        keep = serial.Serial(path, timeout=0.05)  # holding the old pty keeps its number taken
        table.unplug()
        assert not os.path.exists(path) and not table.plugged
        table.replug()
        assert os.path.realpath(path) != first and os.path.realpath(path) == table.pts
        keep.close()
    finally:
        table.stop()


def test_overlapping_unplugs_plug_back_in_once(tmp_path) -> None:
    """Two unplug windows that overlap (a fast bench) end with one pty: a second one would leave the
    first one's master open, and a host that opened the first would wait on it forever."""
    table = VirtualTable(link_dir=tmp_path)
    path = table.start()
    try:
        table.unplug()
        table.unplug()
        table.replug()
        pts, master = table.pts, table._master
        with serial.Serial(path, timeout=0.05):
            table.replug()  # the second window's end: already plugged in
            assert (table.pts, table._master) == (pts, master) and os.path.realpath(path) == pts
    finally:
        table.stop()


def test_speaks_hello_state_and_events_to_a_plain_serial_port() -> None:
    with VirtualTable(VirtualSettings(heartbeat_ms=10_000, seed=1)) as table:
        table.put_tag(1, "01020304")
        port = serial.Serial(table.path, timeout=0.05)
        try:
            port.write(m.to_frame(m.Resync(), 1).encode())
            got = _read_messages(port, 3)
        finally:
            port.close()
    hello = next(x for x in got if isinstance(x, m.Hello))
    assert hello.readers == 4 and hello.device_id == "virtual-table"
    # The report may predate the tag (taken at the first hello, before put_tag): then the tag's own
    # event follows it. Either way, report + later events give the table as it is.
    at = next(i for i, x in enumerate(got) if isinstance(x, m.StateReport))
    report = got[at]
    assert isinstance(report, m.StateReport)
    picture = {(r.reader, uid) for r in report.readers for uid in r.uids}
    picture |= {(x.reader, x.uid) for x in got[at:] if type(x) is m.TagPresent}
    assert picture == {(1, bytes.fromhex("01020304"))}


def test_uids_are_validated() -> None:
    with VirtualTable() as table, pytest.raises(ValueError):
        table.put_tag(0, "0102")


def test_fault_injection_counts() -> None:
    with VirtualTable(VirtualSettings(seed=2), Faults(corrupt=1.0, duplicate=1.0)) as table:
        for face in range(1, 7):
            table.roll(1, face)
        assert table.counters["duplicated"] >= 6 and table.counters["corrupted_tx"] >= 12


def test_random_events_keep_the_table_consistent() -> None:
    with VirtualTable(VirtualSettings(seed=9)) as table:
        for _ in range(50):
            table.random_event()
        tags, dice = table._snapshot()
        assert len(tags) == 4 and all(len(uids) <= 50 for _, uids in tags)
        assert {d for d, _ in dice} == {0, 1}
