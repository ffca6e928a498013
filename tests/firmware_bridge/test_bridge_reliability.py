"""Reliable delivery without I/O: the firmware's go-back-N outbox against the host's receiver."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import tcproto
from firmware_bridge.reliability import Receiver, Verdict, seq_before


class Clock:
    def __init__(self, ms: int = 0) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


def test_seq_before_across_the_wrap() -> None:
    assert seq_before(65535, 0)
    assert seq_before(65530, 3)
    assert not seq_before(3, 65530)
    assert not seq_before(7, 7)
    assert tcproto.seq_before(65535, 0) and not tcproto.seq_before(0, 65535)


@given(st.integers(0, 0xFFFF), st.integers(1, 0x7FFF))
def test_seq_before_is_antisymmetric(a: int, d: int) -> None:
    b = (a + d) & 0xFFFF
    assert seq_before(a, b) and not seq_before(b, a)


def test_receiver_delivers_in_order_across_the_wrap() -> None:
    rx = Receiver(65534)
    for seq in (65534, 65535, 0, 1):
        assert rx.classify(seq) is Verdict.DELIVER
        rx.advance()
    assert rx.last_delivered == 1
    assert rx.classify(65535) is Verdict.DUPLICATE
    assert rx.classify(0) is Verdict.DUPLICATE
    assert rx.classify(3) is Verdict.AHEAD


def test_receiver_holds_frames_after_a_gap_and_releases_them_in_order() -> None:
    rx = Receiver[str](65535)
    assert rx.accept(1, "b") == (Verdict.AHEAD, [])
    assert rx.accept(1, "b-again") == (Verdict.AHEAD, [])  # held once only
    assert rx.accept(2, "c") == (Verdict.AHEAD, [])
    assert rx.held == 2
    assert rx.accept(65535, "z") == (Verdict.DELIVER, ["z"])
    assert rx.accept(0, "a") == (Verdict.DELIVER, ["a", "b", "c"])
    assert rx.expected == 3 and rx.held == 0
    assert rx.accept(1, "b") == (Verdict.DUPLICATE, [])


def test_receiver_does_not_hold_far_ahead() -> None:
    rx = Receiver[int](0)
    assert rx.accept(5000, 1) == (Verdict.AHEAD, [])
    assert rx.held == 0


def test_receiver_counts_retransmits_by_highest_seen() -> None:
    rx = Receiver(10)
    assert not rx.is_retransmit(10)
    assert not rx.is_retransmit(12)
    assert rx.is_retransmit(11)  # older than the highest seen: it was sent before
    assert rx.is_retransmit(12)


def _outbox(
    window: int = 4, rto_ms: int = 40, first_seq: int = 0, **kw: int
) -> tuple[tcproto.Outbox, list[int]]:
    sent: list[int] = []
    box = tcproto.Outbox(
        lambda wire: sent.append(tcproto.decode_frame(wire[:-1])[1]),
        window=window,
        rto_ms=rto_ms,
        first_seq=first_seq,
        **kw,
    )
    return box, sent


def _push(box: tcproto.Outbox, n: int, now: int = 0) -> None:
    for _ in range(n):
        box.push(tcproto.TAG_PRESENT, tcproto.tag_payload(0, b"\x01\x02\x03\x04"), now)


def test_outbox_window_and_cumulative_ack_across_the_wrap() -> None:
    box, sent = _outbox(window=3, first_seq=65534)
    _push(box, 5)
    assert sent == [65534, 65535, 0]  # window of 3, wrapping
    box.ack(65535, 5)  # cumulative: two acknowledged, two more may go
    assert box.base() == 0 and sent[3:] == [1, 2]
    box.ack(2, 7)
    assert box.entries == [] and box.base() == 3


def test_each_event_has_its_own_timer_and_only_the_late_one_goes_again() -> None:
    box, sent = _outbox(window=4, rto_ms=40)
    _push(box, 1, now=0)
    _push(box, 1, now=30)
    box.pump(39)
    assert sent == [0, 1]
    box.pump(40)  # event 0's timer ran out; event 1 (sent at 30) still has time: no go-back-N
    assert sent == [0, 1, 0] and box.retransmits == 1
    box.pump(70)
    assert sent == [0, 1, 0, 1]


def test_events_the_host_holds_are_not_sent_again() -> None:
    box, sent = _outbox(window=4, rto_ms=40)
    _push(box, 4)
    box.ack(65535, 2, held=0b101)  # the host waits for 0 and holds 1 and 3 (bit i: seq 1 + i)
    assert [e.held for e in box.entries] == [False, True, False, True]
    assert sent[4:] == [0, 2]  # both were sent before 3, which arrived: lost
    box.pump(200)  # timers run out: still only the missing ones
    assert sent[6:] == [0, 2]
    box.ack(65535, 201, held=0b001)  # the host no longer holds 3 (it restarted): 3 is due again
    assert sent[8:] == [3]


def test_an_event_sent_before_one_that_arrived_is_lost_and_goes_again_at_once() -> None:
    box, sent = _outbox(window=4, rto_ms=1000)
    _push(box, 3)
    box.ack(65535, 2, held=0b1)  # 1 arrived, 0 (sent before it) did not: lost, no timer needed
    assert sent == [0, 1, 2, 0]
    box.ack(65535, 3, held=0b1)  # nothing newer arrived since the re-send: no evidence, no storm
    assert sent == [0, 1, 2, 0]
    box.ack(65535, 4, held=0b11)  # 2 arrived, but it was sent before the re-sent 0: still no evidence
    assert sent == [0, 1, 2, 0]


def test_the_timeout_follows_the_measured_round_trip() -> None:
    box, sent = _outbox(window=8, rto_ms=50, rto_min_ms=10, rto_max_ms=250)
    for t in range(0, 40, 4):  # events answered 2 ms after they were sent
        _push(box, 1, now=t)
        box.ack(box.entries[-1].seq, t + 2)
    assert box.srtt() == 2 and box.rto == 10  # 2 + 4 x deviation, but never under the floor
    _push(box, 1, now=100)
    box.pump(109)
    assert len(sent) == 11
    box.pump(110)
    assert len(sent) == 12


def test_an_ack_after_a_lost_ack_is_no_round_trip_sample() -> None:
    box, _sent = _outbox(window=8, rto_ms=50)
    _push(box, 1, now=0)
    box.ack(0, 2)
    _push(box, 1, now=10)
    _push(box, 1, now=12)  # the ACK for 1 is lost; the one for 2 covers both
    box.ack(2, 14)
    assert box.srtt() == 2  # from event 2 (sent at 12), not event 1's 4 ms of waiting


def test_backoff_doubles_while_the_host_is_silent_and_resets_when_it_speaks() -> None:
    box, sent = _outbox(window=4, rto_ms=20, rto_min_ms=10, rto_max_ms=100)
    _push(box, 2, now=0)
    times = []
    for now in range(1, 400):
        before = sent.count(0)
        box.pump(now)
        if sent.count(0) > before:
            times.append(now)
    assert times == [20, 60, 140, 240, 340]  # 20, 40, 80, then capped at 100
    box.ack(65535, 341, held=0b1)  # the host answers: 1 arrived, so 0 is lost and goes at once
    assert sent[-1] == 0 and box.entries[0].backoff == 0
    count = len(sent)
    box.pump(360)
    assert len(sent) == count
    box.pump(361)  # and its timer is the round trip's again (20 ms), not the backed-off 100
    assert sent[count:] == [0]


def test_resync_sends_everything_again_behind_the_hello() -> None:
    frames: list[tuple[int, int]] = []
    clock = Clock()
    link = tcproto.DeviceLink(
        lambda w: frames.append(tcproto.decode_frame(w[:-1])[:2]),
        clock,
        _INFO,
        lambda: ([(0, [])], []),
        boot_id=1,
        first_seq=9,
    )
    link.tag_present(0, b"\x01\x02\x03\x04")
    link.feed(tcproto.encode_frame(tcproto.ACK, 0, b"\x00\x08" + (1).to_bytes(4, "big")))
    frames.clear()
    clock.ms = 5  # well within the timer: without the resync nothing would go
    link.feed(tcproto.encode_frame(tcproto.RESYNC, 0, b""))
    assert frames == [(tcproto.HELLO, 10), (tcproto.TAG_PRESENT, 9), (tcproto.STATE, 10)]


def test_outbox_full_drops_and_device_owes_a_state_report() -> None:
    clock = Clock()
    link = tcproto.DeviceLink(lambda wire: None, clock, _INFO, lambda: ([(0, [])], []), boot_id=1, limit=4)
    for i in range(6):
        link.die_rolled(0, 1 + i % 6)
    assert link.outbox.dropped == 2 and link.owe_state
    link.outbox.entries.clear()
    link.poll()
    assert not link.owe_state
    assert link.outbox.entries[0].msg_type == tcproto.STATE


_INFO = {"firmware": (1, 0, 0), "device_id": "t", "readers": 1, "dice": [(0, 6)], "buttons": []}


def test_device_ignores_acks_for_another_boot() -> None:
    clock = Clock()
    link = tcproto.DeviceLink(
        lambda wire: None, clock, _INFO, lambda: ([(0, [])], []), boot_id=7, first_seq=5
    )
    link.tag_present(0, b"\x01\x02\x03\x04")
    link.feed(tcproto.encode_frame(tcproto.ACK, 0, b"\x00\x05" + (8).to_bytes(4, "big")))
    assert len(link.outbox.entries) == 1 and not link.host_heard
    link.feed(tcproto.encode_frame(tcproto.ACK, 0, b"\x00\x05" + (7).to_bytes(4, "big")))
    assert link.outbox.entries == [] and link.host_heard


def test_hello_queues_one_state_report_behind_pending_events() -> None:
    frames: list[tuple[int, int, bytes]] = []
    link = tcproto.DeviceLink(
        lambda w: frames.append(tcproto.decode_frame(w[:-1])),
        Clock(),
        _INFO,
        lambda: ([(0, [b"\x01\x02\x03\x04"])], [(0, 0)]),
        boot_id=1,
        first_seq=9,
    )
    link.tag_present(0, b"\x01\x02\x03\x04")
    link.hello()
    link.hello()  # a second hello does not queue a second report
    types = [t for t, _, _ in frames]
    assert types == [tcproto.TAG_PRESENT, tcproto.HELLO, tcproto.STATE, tcproto.HELLO]
    hello_payload = frames[1][2]
    assert int.from_bytes(hello_payload[7:9], "big") == 9  # next_seq: the oldest unacknowledged event


@pytest.mark.parametrize("seed", range(5))
def test_resync_from_the_host_is_answered_with_hello_and_state(seed: int) -> None:
    frames: list[int] = []
    link = tcproto.DeviceLink(
        lambda w: frames.append(tcproto.decode_frame(w[:-1])[0]),
        Clock(),
        _INFO,
        lambda: ([(0, [])], []),
        boot_id=seed,
    )
    link.feed(tcproto.encode_frame(tcproto.RESYNC, seed, b""))
    assert frames == [tcproto.HELLO, tcproto.STATE] and link.resyncs == 1


# --- the whole loop, in memory, with a hostile wire ----------------------------------------------


@settings(max_examples=40)
@given(
    st.integers(0, 2**32 - 1), st.integers(0, 0xFFFF), st.floats(0, 0.3), st.floats(0, 0.2), st.floats(0, 0.2)
)
def test_exactly_once_in_order_over_a_lossy_wire(
    seed: int, first_seq: int, loss: float, dup: float, swap: float
) -> None:
    from firmware_bridge.host import HostProtocol, LinkSettings

    rng = random.Random(seed)
    clock = Clock()
    to_host: list[bytes] = []
    to_device: list[bytes] = []
    observed: list[tuple[str, str]] = []
    on_reader: list[bytes] = []
    host = HostProtocol(
        to_device.append,
        lambda o: observed.append((type(o).__name__, o.uid)),
        LinkSettings(),
        lambda: clock.ms / 1000,
        lambda: 0.0,
    )
    device = tcproto.DeviceLink(
        to_host.append,
        clock,
        _INFO,
        lambda: ([(0, list(on_reader))], []),
        boot_id=seed,
        first_seq=first_seq,
        window=4,
        rto_ms=30,
    )
    host.opened("mem://", None)

    def wire(queue: list[bytes]) -> list[bytes]:
        out: list[bytes] = []
        for frame in queue:
            if rng.random() < loss:
                continue
            out.append(frame)
            if rng.random() < dup:
                out.append(frame)
        for i in range(len(out) - 1):
            if rng.random() < swap:
                out[i], out[i + 1] = out[i + 1], out[i]
        queue.clear()
        return out

    uids = [bytes([0, 0, i >> 8, i & 0xFF]) for i in range(30)]
    expected = [(kind, u.hex().upper()) for u in uids for kind in ("TagSeen", "TagGone")]
    for step in range(3000):
        if step < len(uids):  # each tag comes and goes: the state report must agree with the events
            on_reader.append(uids[step])
            device.tag_present(0, uids[step])
            on_reader.remove(uids[step])
            device.tag_removed(0, uids[step])
        clock.ms += 5
        device.poll()
        for frame in wire(to_host):
            host.receive(frame)
        host.tick()
        for frame in wire(to_device):
            device.feed(frame)
        if len(observed) >= len(expected) and not device.outbox.entries:
            break
    assert observed == expected


def test_a_line_corrupting_four_frames_in_ten_keeps_up_with_the_table() -> None:
    """Issue 15: at 40 % corruption each way, go-back-N on one timer repaired one hole per timeout and
    fell behind a table making 500 events/s (a median of seconds). On a simulated clock (1 ms each
    way), every event must now arrive within a few round trips: median ≤ 10 ms, none over 100 ms."""
    from firmware_bridge.host import HostProtocol, LinkSettings

    rng = random.Random(15)
    clock = Clock()
    to_host: list[bytes] = []
    to_device: list[bytes] = []
    arrived: dict[str, int] = {}
    host = HostProtocol(
        to_device.append,
        lambda o: arrived.setdefault(o.uid, clock.ms),
        LinkSettings(),
        lambda: clock.ms / 1000,
        lambda: 0.0,
    )
    device = tcproto.DeviceLink(
        to_host.append, clock, _INFO, lambda: ([(0, [])], []), boot_id=15, rto_ms=30, limit=4096
    )
    host.opened("mem://", None)

    def corrupt(queue: list[bytes]) -> list[bytes]:
        out = []
        for wire in queue:
            if rng.random() < 0.4:
                damaged = bytearray(wire)
                damaged[rng.randrange(len(wire) - 1)] ^= rng.randrange(1, 256)
                wire = bytes(damaged)
            out.append(wire)
        queue.clear()
        return out

    for _ in range(10_000):  # connect first: the handshake is not what this measures
        if host.status.state.value == "connected":
            break
        clock.ms += 1
        device.poll()
        host.receive(b"".join(corrupt(to_host)))
        host.tick()
        for wire in corrupt(to_device):
            device.feed(wire)
    assert host.status.state.value == "connected"
    sent: dict[str, int] = {}
    for step in range(60_000):
        if step % 2 == 0 and len(sent) < 2000:
            uid = (len(sent)).to_bytes(4, "big")
            sent[uid.hex().upper()] = clock.ms
            device.tag_present(0, uid)
        clock.ms += 1
        device.poll()
        host.receive(b"".join(corrupt(to_host)))
        host.tick()
        for wire in corrupt(to_device):
            device.feed(wire)
        if len(arrived) >= len(sent) == 2000:
            break
    latencies = sorted(arrived[uid] - at for uid, at in sent.items() if uid in arrived)
    assert len(latencies) == 2000
    assert latencies[1000] <= 10 and latencies[-1] <= 100, (latencies[1000], latencies[-1])


def test_a_host_slower_than_the_timeout_still_teaches_the_device_its_round_trip() -> None:
    """A busy Pi that reads the port every 50 ms gets every event sent within 50 ms twice; Karn's
    rule (no sample from a re-sent event) would then never give a sample, the timeout would stay
    under the round trip, and every event would go two or three times. The device backs off until
    an event sent once is answered."""
    from firmware_bridge.host import HostProtocol, LinkSettings

    clock = Clock()
    to_host: list[bytes] = []
    to_device: list[bytes] = []
    seen: list[object] = []
    host = HostProtocol(to_device.append, seen.append, LinkSettings(), lambda: clock.ms / 1000, lambda: 0.0)
    device = tcproto.DeviceLink(to_host.append, clock, _INFO, lambda: ([(0, [])], []), boot_id=3, rto_ms=30)
    host.opened("mem://", None)
    for step in range(4000):
        if 1000 <= step < 3000 and step % 4 == 0:
            device.tag_present(0, step.to_bytes(4, "big"))
        clock.ms += 1
        device.poll()
        if clock.ms % 50 == 0:  # the host's thread gets the CPU every 50 ms
            host.receive(b"".join(to_host))
            to_host.clear()
            host.tick()
        for wire in to_device:
            device.feed(wire)
        to_device.clear()
    assert len([o for o in seen if type(o).__name__ == "TagSeen"]) == 500
    srtt = device.outbox.srtt()
    assert srtt is not None and device.outbox.rto > 50
    assert device.outbox.retransmits < 100  # of 500 events; without the back-off: ~600
