"""The host protocol without a port: HELLO handshake, ACKs, dedupe, heartbeat loss, reconciliation."""

from __future__ import annotations

import pytest

from companion.observations import ButtonPressed, DieRolled, TagGone, TagSeen
from firmware_bridge import messages as m
from firmware_bridge.frames import Frame, FrameReader
from firmware_bridge.host import HostProtocol, LinkSettings

from .framing_vectors import LEGACY_V1_HEARTBEAT

UID_A = bytes.fromhex("04A1B2C3D4E5F6")
UID_B = bytes.fromhex("01020304")


class Harness:
    def __init__(self, settings: LinkSettings | None = None) -> None:
        self.now = 100.0
        self.sent: list[m.Message] = []
        self.observed: list[object] = []
        self._reader = FrameReader()
        self.host = HostProtocol(
            self._send,
            self.observed.append,
            settings or LinkSettings(),
            lambda: self.now,
            lambda: 1_700_000_000.0 + self.now,
        )
        self.host.opened("test://", "/dev/null")

    def _send(self, wire: bytes) -> None:
        for frame in self._reader.feed(wire):
            assert isinstance(frame, Frame)
            self.sent.append(m.parse(frame))

    def device(self, message: m.Message, seq: int = 0) -> None:
        self.host.receive(m.to_frame(message, seq).encode())

    def hello(self, boot_id: int = 0xB007, next_seq: int = 0, readers: int = 2) -> None:
        self.device(
            m.Hello(
                (1, 2, 3), boot_id, next_seq, "pico-1", readers, (m.DieInfo(0, 20), m.DieInfo(1, 0)), (0, 1)
            ),
            next_seq,
        )

    @property
    def acks(self) -> list[int]:
        return [msg.seq for msg in self.sent if isinstance(msg, m.Ack)]

    @property
    def state(self) -> str:
        return self.host.status.as_dict()["state"]


def test_nothing_is_trusted_before_hello() -> None:
    h = Harness()
    h.device(m.TagPresent(0, UID_A), seq=0)
    assert h.observed == [] and h.acks == []
    assert h.state == "connecting"
    assert h.host.status.counters.before_hello == 1


def test_hello_connects_and_reports_the_device() -> None:
    h = Harness()
    h.hello()
    status = h.host.status.as_dict()
    assert status["state"] == "connected"
    assert (
        status["firmware"] == "1.2.3" and status["device_id"] == "pico-1" and status["boot_id"] == "0000B007"
    )
    assert status["capabilities"] == {
        "readers": 2,
        "dice": [{"id": 0, "faces": 20}, {"id": 1, "faces": 0}],
        "buttons": [0, 1],
    }
    assert status["last_heard"] == 1_700_000_000.0 + 100.0


def test_events_become_observations_and_are_acknowledged() -> None:
    h = Harness()
    h.hello(next_seq=40)
    h.device(m.TagPresent(1, UID_A), 40)
    h.device(m.DieRolled(0, 17), 41)
    h.device(m.Button(1, True, 5_000), 42)
    h.device(m.Button(1, False, 5_100), 43)
    h.device(m.TagRemoved(1, UID_A), 44)
    assert h.observed == [
        TagSeen(1, "04A1B2C3D4E5F6", 100.0),
        DieRolled(0, 17, 100.0, faces=20),
        ButtonPressed("1", 100.0, "firmware"),  # on the host's clock (see below)
        TagGone(1, "04A1B2C3D4E5F6", 100.0),
    ]
    assert h.acks == [40, 41, 42, 43, 44]
    assert all(msg.boot_id == 0xB007 for msg in h.sent if isinstance(msg, m.Ack))


def test_duplicates_are_dropped_and_acknowledged_again() -> None:
    h = Harness()
    h.hello(next_seq=7)
    h.device(m.DieRolled(0, 3), 7)
    h.device(m.DieRolled(0, 3), 7)
    assert len(h.observed) == 1
    assert h.acks == [7, 7]
    assert h.host.status.counters.duplicates == 1
    assert h.host.status.counters.retransmits_seen == 1


def test_gap_holds_later_events_and_repeats_the_last_ack() -> None:
    h = Harness()
    h.hello(next_seq=7)
    h.device(m.DieRolled(0, 4), 8)  # 7 was lost
    assert h.observed == [] and h.acks == [6]
    assert h.host.status.counters.out_of_order == 1
    h.device(m.DieRolled(0, 3), 7)  # the re-sent 7 fills the gap: both go, in order
    assert [o.face for o in h.observed] == [3, 4]
    assert h.acks == [6, 8]


def test_the_ack_names_every_event_held_after_the_gap() -> None:
    h = Harness()
    h.hello(next_seq=65534)
    for seq in (65535, 1, 2, 62, 63):  # 65534 is missing; 63 is past what the bitmap covers
        h.device(m.DieRolled(0, 1), seq)
    last = [msg for msg in h.sent if isinstance(msg, m.Ack)][-1]
    # bit i: event 65534 + 1 + i is held (across the wrap: 65535 is bit 0, 0 would be bit 1)
    assert (last.seq, last.held) == (65533, 1 << 0 | 1 << 2 | 1 << 3 | 1 << 63)
    h.device(m.DieRolled(0, 1), 65534)
    h.device(m.DieRolled(0, 1), 0)
    last = [msg for msg in h.sent if isinstance(msg, m.Ack)][-1]
    assert (last.seq, last.held) == (2, 1 << 58 | 1 << 59)  # 62 and 63 after the gap at 3


def test_a_corrupt_frame_is_answered_at_once_with_what_the_host_holds() -> None:
    """A NAK: the damaged frame may have been an event, so the device hears now what is missing."""
    h = Harness()
    h.hello(next_seq=10)
    h.device(m.DieRolled(0, 4), 11)  # 10 was lost
    wire = bytearray(m.to_frame(m.DieRolled(0, 2), 12).encode())
    wire[5] ^= 0x01
    h.host.receive(bytes(wire))
    acks = [msg for msg in h.sent if isinstance(msg, m.Ack)]
    assert [(a.seq, a.held) for a in acks] == [(9, 0b1), (9, 0b1)]


def test_no_nak_before_hello() -> None:
    h = Harness()
    h.host.receive(b"\x05garbage\x00")
    assert h.acks == [] and h.host.status.counters.corrupt == 1


def test_sequence_wraps() -> None:
    h = Harness()
    h.hello(next_seq=65535)
    h.device(m.DieRolled(0, 1), 65535)
    h.device(m.DieRolled(0, 2), 0)
    h.device(m.DieRolled(0, 1), 65535)  # a late duplicate from before the wrap
    assert [o.face for o in h.observed] == [1, 2]
    assert h.acks == [65535, 0, 0]


def test_same_boot_hello_keeps_the_dedup_window_new_boot_resets_it() -> None:
    h = Harness()
    h.hello(boot_id=1, next_seq=10)
    h.device(m.DieRolled(0, 1), 10)
    h.hello(boot_id=1, next_seq=10)  # reconnect: the device had not seen our ACK yet
    h.device(m.DieRolled(0, 1), 10)
    assert len(h.observed) == 1
    h.hello(boot_id=2, next_seq=10)  # restarted: seq 10 is a new event now
    h.device(m.DieRolled(0, 5), 10)
    assert [o.face for o in h.observed] == [1, 5]
    assert h.host.status.counters.device_restarts == 1


def test_state_report_reconciles_tags_but_never_replays_dice() -> None:
    h = Harness()
    h.hello(next_seq=0)
    h.device(m.TagPresent(0, UID_A), 0)
    h.device(m.TagPresent(1, UID_B), 1)
    h.observed.clear()
    report = m.StateReport(
        m.StateReport.RESYNC, (m.ReaderTags(0, (UID_A,)), m.ReaderTags(1, ())), (m.DieFace(0, 12),)
    )
    h.device(report, 2)
    assert h.observed == [TagGone(1, "01020304", 100.0)]
    status = h.host.status.as_dict()
    assert status["tags"] == {"0": ["04A1B2C3D4E5F6"]} and status["dice"] == {"0": 12}
    h.device(m.StateReport(m.StateReport.HELLO, (m.ReaderTags(0, (UID_A, UID_B)),), ()), 3)
    assert h.observed[1:] == [TagSeen(0, "01020304", 100.0)]


def test_resync_sent_when_hello_does_not_come() -> None:
    h = Harness(LinkSettings(hello_timeout=0.5))
    h.now += 0.4
    h.host.tick()
    assert h.sent == []
    h.now += 0.2
    h.host.tick()
    assert h.sent == [m.Resync()]
    h.now += 0.5
    h.host.tick()
    assert h.sent == [m.Resync(), m.Resync()]
    assert h.host.status.counters.resyncs_sent == 2


def test_missing_heartbeat_marks_the_device_lost_then_hello_recovers() -> None:
    h = Harness(LinkSettings(heartbeat_timeout=2.0))
    h.hello()
    h.now += 1.5
    h.device(m.Heartbeat(1500))
    h.now += 1.9
    h.host.tick()
    assert h.state == "connected"
    h.now += 0.2
    h.host.tick()
    assert h.state == "lost"
    assert h.sent[-1] == m.Resync()  # ask straight away
    h.device(m.TagPresent(0, UID_A), 0)
    assert h.observed == []  # not trusted while lost
    h.hello()
    assert h.state == "connected"


def test_corrupt_unknown_version_and_unknown_type_are_counted_and_skipped() -> None:
    h = Harness()
    h.hello(next_seq=0)
    wire = bytearray(m.to_frame(m.DieRolled(0, 2), 0).encode())
    wire[3] ^= 0x40
    h.host.receive(bytes(wire))
    h.host.receive(Frame(0x02, 0, b"\x00\x00\x00\x01", version=9).encode())
    h.host.receive(Frame(0x09, 0, b"").encode())  # unknown control message: skipped, no ACK
    h.host.receive(Frame(0x3A, 0, b"future").encode())  # unknown event: acknowledged, so none block
    h.device(m.DieRolled(0, 2), 1)
    counters = h.host.status.counters
    assert (counters.corrupt, counters.unknown_versions, counters.unknown_types) == (1, 1, 2)
    assert h.acks == [65535, 0, 1]  # the corrupt frame is answered at once (a NAK), see below
    assert [o.face for o in h.observed] == [2]


def test_a_die_reports_its_number_and_face_and_the_faces_the_hello_gave() -> None:
    h = Harness()
    h.hello(next_seq=0)
    h.device(m.DieRolled(1, 3), 0)  # die 1 did not say how many faces it has
    h.device(m.DieRolled(0, 20), 1)
    assert h.observed == [DieRolled(1, 3, 100.0, faces=None), DieRolled(0, 20, 100.0, faces=20)]


def test_a_board_with_the_first_protocol_is_told_to_update_its_firmware(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 16.9 changed the wire (dice by faces, no kinds): a board still on firmware 0.1 is not
    silently ignored; the status says what to do, once, and the next good HELLO clears it."""
    h = Harness()
    for _ in range(3):
        h.host.receive(LEGACY_V1_HEARTBEAT)
    status = h.host.status.as_dict()
    assert status["state"] == "connecting" and status["counters"]["unknown_versions"] == 3
    assert [r.levelname for r in caplog.records] == ["WARNING"]  # logged once, not per heartbeat
    assert status["error"] == (
        "the board speaks serial protocol 1 and this companion speaks 2: copy the firmware in"
        " firmware_bridge/firmware onto the board (its README: Flashing)"
    )
    h.host.receive(Frame(0x02, 0, b"\x00\x00\x00\x01", version=3).encode())
    assert h.host.status.error is not None and "update the companion" in h.host.status.error
    h.hello()
    assert h.host.status.as_dict()["error"] is None


def test_presses_are_on_the_host_clock_at_the_moment_they_were_made() -> None:
    """Issue 16.8: ``ButtonPressed.at`` was the board's uptime in seconds, compared in a shout race
    with GPIO presses on the host's monotonic clock. It is the host's clock now, for every press."""
    h = Harness()
    h.hello(next_seq=0)
    h.now = 100.0
    h.device(m.Heartbeat(7_000))  # the board's 7.000 s is (at most) our 100.000
    h.now = 100.4
    h.device(m.Heartbeat(7_400))  # a slower one: the offset stays
    h.now = 101.9  # two presses 4 ms apart, delivered late, the second first in time of arrival
    h.device(m.Button(0, True, 7_512), 0)
    h.device(m.Button(0, False, 7_600), 1)
    h.device(m.Button(1, True, 7_516), 2)
    presses = [o for o in h.observed if isinstance(o, ButtonPressed)]
    assert [(p.button, p.source) for p in presses] == [("0", "firmware"), ("1", "firmware")]
    assert presses[0].at == pytest.approx(100.512) and presses[1].at == pytest.approx(100.516)


def test_a_new_boot_starts_a_new_clock() -> None:
    h = Harness()
    h.hello(boot_id=1)
    h.device(m.Heartbeat(900_000))
    h.now = 200.0
    h.hello(boot_id=2)  # restarted: its uptime counts from zero again
    h.device(m.Heartbeat(300))
    h.device(m.Button(0, True, 300), 0)
    assert h.observed[-1] == ButtonPressed("0", 200.0, "firmware")


def test_battery_and_uptime_reach_the_status() -> None:
    h = Harness()
    h.hello()
    h.device(m.Battery(3900, 66))
    h.device(m.Heartbeat(12_345))
    status = h.host.status.as_dict()
    assert status["battery"] == {"millivolts": 3900, "percent": 66} and status["uptime_ms"] == 12_345
