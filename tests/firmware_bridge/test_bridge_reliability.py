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


def test_outbox_window_timeout_and_cumulative_ack() -> None:
    sent: list[int] = []
    box = tcproto.Outbox(
        lambda wire: sent.append(tcproto.decode_frame(wire[:-1])[1]), window=3, rto_ms=50, first_seq=65534
    )
    for _ in range(5):
        box.push(tcproto.TAG_PRESENT, tcproto.tag_payload(0, b"\x01\x02\x03\x04"), now=0)
    assert sent == [65534, 65535, 0]  # window of 3, wrapping
    box.pump(49)
    assert sent == [65534, 65535, 0]
    box.pump(50)  # timeout: go back N
    assert sent[3:] == [65534, 65535, 0]
    assert box.retransmits == 3
    box.ack(65535, 60)  # cumulative: two acknowledged, two more may go
    assert box.base() == 0
    assert sent[6:] == [1, 2]
    box.ack(2, 70)
    assert box.entries == [] and box.base() == 3


def test_duplicate_ack_resends_at_once_unless_just_sent() -> None:
    sent: list[int] = []
    box = tcproto.Outbox(lambda wire: sent.append(tcproto.decode_frame(wire[:-1])[1]), window=4, rto_ms=40)
    box.push(tcproto.DIE_ROLLED, b"\x00\x06\x03", now=0)
    box.push(tcproto.DIE_ROLLED, b"\x00\x06\x04", now=0)
    box.ack(65535, 2)  # the host still waits for 0, but we sent it 2 ms ago
    assert sent == [0, 1]
    box.ack(65535, 10)  # a quarter of the timeout later: the host really lost it (and holds 1)
    assert sent == [0, 1, 0]


def test_outbox_full_drops_and_device_owes_a_state_report() -> None:
    clock = Clock()
    link = tcproto.DeviceLink(lambda wire: None, clock, _INFO, lambda: ([(0, [])], []), boot_id=1, limit=4)
    for i in range(6):
        link.die_rolled(0, 6, 1 + i % 6)
    assert link.outbox.dropped == 2 and link.owe_state
    link.outbox.entries.clear()
    link.poll()
    assert not link.owe_state
    assert link.outbox.entries[0][1] == tcproto.STATE


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
        lambda: ([(0, [b"\x01\x02\x03\x04"])], [(0, 6, 0)]),
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
