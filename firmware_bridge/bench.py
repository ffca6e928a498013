"""End-to-end link benchmark: the virtual table through the real ``HostLink`` over a pty, with faults.

Every event the device sends has a key the host observation must reproduce; the host receives in
device order, so exactly-once delivery means the received key sequence equals the sent one.

Every wait is bounded: a link that cannot keep up (a high corruption rate) gives figures that say so
(``drained`` false, ``late`` and ``lost`` events) instead of a run that never ends.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

from companion.observations import DieRolled, Observation, TagGone, TagSeen
from companion.percentiles import percentile
from firmware_bridge.host import LinkSettings
from firmware_bridge.link import HostLink
from firmware_bridge.virtual import Faults, VirtualSettings, VirtualTable

Key = tuple[str, int, str]


@dataclass(frozen=True)
class BenchOptions:
    events: int = 5000
    corrupt: float = 0.01
    duplicate: float = 0.005
    reorder: float = 0.005
    unplugs: int = 10
    unplug_ms: int = 100
    rate: float = 500.0
    """Events per second the virtual table produces."""
    tag_samples: int = 400
    seed: int = 1
    drain_timeout: float = 30.0
    """How long the faulty phase waits for the backlog after its last event; late ones still count."""
    tag_timeout: float = 2.0
    """How long one tag sample waits for its own event before it is counted as timed out."""
    tag_phase_timeout: float = 30.0
    """The whole tag phase (backlog included) stops after this, whatever it measured by then."""
    outbox_limit: int = 4096
    """Events the virtual device holds unacknowledged before it drops the oldest (the firmware's)."""


def _key(obs: Observation) -> Key | None:
    if isinstance(obs, TagSeen):
        return ("seen", obs.reader, obs.uid)
    if isinstance(obs, TagGone):
        return ("gone", obs.reader, obs.uid)
    if isinstance(obs, DieRolled):
        return ("die", obs.die, str(obs.face))
    return None


class _Recorder:
    """Collects observations (on the link's thread) and matches them to send times."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.received: list[Key] = []
        self.sent: list[Key] = []
        self.received_count: Counter[Key] = Counter()
        self.sent_count: Counter[Key] = Counter()
        self.sent_at: dict[Key, deque[tuple[float, bool]]] = {}
        self.latencies: list[tuple[float, bool, str]] = []  # (seconds, sent while connected, kind)
        self.connected = threading.Event()

    def expect(self, key: Key, connected: bool) -> None:
        with self.cond:
            self.sent.append(key)
            self.sent_count[key] += 1
            self.sent_at.setdefault(key, deque()).append((time.monotonic(), connected))

    def observe(self, obs: Observation) -> None:
        key = _key(obs)
        if key is None:
            return
        with self.cond:
            self.received.append(key)
            self.received_count[key] += 1
            pending = self.sent_at.get(key)
            if pending:
                sent, connected = pending.popleft()
                self.latencies.append((obs.at - sent, connected, key[0]))
            self.cond.notify_all()

    def status(self, status: dict[str, Any]) -> None:
        if status["state"] == "connected":
            self.connected.set()
        else:
            self.connected.clear()

    def wait_for(self, count: int, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: len(self.received) >= count, max(0.0, timeout))

    def wait_for_key(self, key: Key, timeout: float) -> bool:
        """Until every copy of ``key`` sent so far has arrived: a sample waits for its own event only,
        never for a backlog of older ones still retransmitted."""
        with self.cond:
            return self.cond.wait_for(
                lambda: self.received_count[key] >= self.sent_count[key], max(0.0, timeout)
            )


def _pace(start: float, index: int, rate: float) -> None:
    delay = start + index / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)  # pacing the simulated players, not waiting for a result


def _one_event(
    table: VirtualTable,
    rec: _Recorder,
    rng: random.Random,
    placed: list[tuple[int, bytes]],
    serial: int,
    connected: bool,
) -> None:
    roll = rng.random()
    if placed and (roll < 0.35 or len(placed) >= 8):
        reader, uid = placed.pop(rng.randrange(len(placed)))
        rec.expect(("gone", reader, uid.hex().upper()), connected)
        table.remove_tag(reader, uid)
    elif roll < 0.6:
        die = rng.choice(table.settings.dice)[0]
        face = rng.randint(1, 6)
        rec.expect(("die", die, str(face)), connected)
        table.roll(die, face)
    else:
        reader = rng.randrange(table.settings.readers)
        uid = bytes([0x04]) + serial.to_bytes(6, "big")  # unique 7-byte UID per placement
        placed.append((reader, uid))
        rec.expect(("seen", reader, uid.hex().upper()), connected)
        table.put_tag(reader, uid)


def _faulty_phase(opts: BenchOptions, table: VirtualTable, link: HostLink, rec: _Recorder) -> float:
    rng = random.Random(opts.seed)
    placed: list[tuple[int, bytes]] = []
    unplug_at = {int((k + 0.5) * opts.events / opts.unplugs) for k in range(opts.unplugs)}
    table.set_faults(Faults(opts.corrupt, opts.duplicate, opts.reorder))
    start = time.monotonic()
    for i in range(opts.events):
        _pace(start, i, opts.rate)
        if i in unplug_at:
            table.unplug()
            threading.Timer(opts.unplug_ms / 1000, table.replug).start()
        _one_event(table, rec, rng, placed, i, rec.connected.is_set() and table.plugged)
    rec.wait_for(len(rec.sent), opts.drain_timeout)
    return time.monotonic() - start


@dataclass(frozen=True)
class _TagPhase:
    latencies: list[float]
    timeouts: int
    backlog_cleared: bool
    before: int
    """How many latencies (the faulty phase's) the recorder held when the first sample was sent."""


def _backlog_cleared(table: VirtualTable, rec: _Recorder, deadline: float) -> bool:
    """True once the device holds nothing unacknowledged (before ``deadline``): every event it kept
    has arrived, and what has not arrived never will (the device dropped it, its outbox full)."""
    while table.unacknowledged():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        rec.wait_for(len(rec.sent), min(left, 0.05))  # wakes on arrivals; the timeout rechecks the device
    return True


def _tag_phase(opts: BenchOptions, table: VirtualTable, rec: _Recorder) -> _TagPhase:
    """Clean link: one tag put on or taken off a reader at a time, as a player does.

    The faulty phase's backlog is let through first (a tag queued behind it would measure the backlog,
    not the link); the phase ends at its deadline whatever it measured by then.
    """
    table.set_faults(Faults())
    deadline = time.monotonic() + opts.tag_phase_timeout
    backlog_cleared = _backlog_cleared(table, rec, deadline)
    if not backlog_cleared:
        return _TagPhase([], 0, False, len(rec.latencies))  # samples would only measure the backlog
    first = len(rec.latencies)
    timeouts = 0
    for i in range(opts.tag_samples):
        uid = bytes([0x08, 0, 0, i % 256])
        reader = i % table.settings.readers
        for kind, act in (("seen", table.put_tag), ("gone", table.remove_tag)):
            key = (kind, reader, uid.hex().upper())
            rec.expect(key, True)
            act(reader, uid)
            wait = min(opts.tag_timeout, deadline - time.monotonic())
            if not rec.wait_for_key(key, wait):
                timeouts += 1
        if time.monotonic() >= deadline:
            break
    with rec.cond:
        latencies = [s for s, _, kind in rec.latencies[first:] if kind in ("seen", "gone")]
    return _TagPhase(latencies, timeouts, True, first)


def run(opts: BenchOptions) -> dict[str, Any]:
    rec = _Recorder()
    table = VirtualTable(
        VirtualSettings(
            heartbeat_ms=100, rto_ms=30, hello_ms=100, seed=opts.seed, outbox_limit=opts.outbox_limit
        )
    )
    link = HostLink(
        table.start(),
        rec.observe,
        rec.status,
        LinkSettings(hello_timeout=0.03, backoff_initial=0.01, backoff_max=0.05, status_interval=0.0),
    )
    link.start()
    try:
        if not rec.connected.wait(5.0):
            raise RuntimeError(f"the host never connected to the virtual table: {link.status()}")
        seconds = _faulty_phase(opts, table, link, rec)
        faulty_count = len(rec.sent)
        with rec.cond:
            drained = len(rec.received) >= faulty_count
            on_time = Counter(rec.received[:faulty_count])
        tags = _tag_phase(opts, table, rec)
        counters = link.status()["counters"]
        with rec.cond:
            # Judged at the very end: an event of the faulty phase that came during the tag phase is
            # late, not lost; the faulty phase's latencies include those late ones.
            sent = Counter(rec.sent[:faulty_count])
            received = Counter(k for k in rec.received if sent[k])
            # In order: what arrived came in the order sent (events the device dropped leave gaps).
            remaining = iter(rec.sent[:faulty_count])
            in_order = all(key in remaining for key in rec.received if sent[key])
            all_ms = [s * 1000 for s, _, _ in rec.latencies[: tags.before]]
            connected_ms = [s * 1000 for s, ok, _ in rec.latencies[: tags.before] if ok]
            applied = sum((sent & received).values())
            late = sum(((sent & received) - on_time).values())
        tag_ms = [s * 1000 for s in tags.latencies]
    finally:
        link.stop()
        table.stop()
    return {
        "sent": opts.events,
        "applied": applied,
        "drained": drained,
        "late": late,
        "lost": sum((sent - received).values()),
        "duplicated": sum((received - sent).values()),
        "in_order": in_order,
        "corrupt_frames": counters["corrupt"],
        "corrupted_injected": {
            "to_host": table.counters["corrupted_tx"],
            "to_device": table.counters["corrupted_rx"],
        },
        "duplicated_injected": table.counters["duplicated"],
        "reordered_injected": table.counters["reordered"],
        "host_duplicates_dropped": counters["duplicates"],
        "device_retransmits": table.link.outbox.retransmits if table.link else None,
        "device_dropped": table.link.outbox.dropped if table.link else None,
        "reconnects": counters["reconnects"],
        "p50_ms": _round(percentile(all_ms, 50)),
        "p99_ms": _round(percentile(all_ms, 99)),
        "p99_connected_ms": _round(percentile(connected_ms, 99)),
        "tag_p50_ms": _round(percentile(tag_ms, 50)),
        "tag_p99_ms": _round(percentile(tag_ms, 99)),
        "tag_samples": len(tag_ms),
        "tag_timeouts": tags.timeouts,
        "tag_backlog_cleared": tags.backlog_cleared,
        "seconds": round(seconds, 2),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
