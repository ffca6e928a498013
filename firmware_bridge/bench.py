"""End-to-end link benchmark: the virtual table through the real ``HostLink`` over a pty, with faults.

Every event the device sends has a key the host observation must reproduce; the host receives in
device order, so exactly-once delivery means the received key sequence equals the sent one.
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
        self.sent_at: dict[Key, deque[tuple[float, bool]]] = {}
        self.latencies: list[tuple[float, bool, str]] = []  # (seconds, sent while connected, kind)
        self.connected = threading.Event()

    def expect(self, key: Key, connected: bool) -> None:
        with self.cond:
            self.sent.append(key)
            self.sent_at.setdefault(key, deque()).append((time.monotonic(), connected))

    def observe(self, obs: Observation) -> None:
        key = _key(obs)
        if key is None:
            return
        with self.cond:
            self.received.append(key)
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
            return self.cond.wait_for(lambda: len(self.received) >= count, timeout)


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


def _tag_phase(opts: BenchOptions, table: VirtualTable, rec: _Recorder) -> list[float]:
    """Clean link: one tag put on or taken off a reader at a time, as a player does."""
    table.set_faults(Faults())
    first = len(rec.latencies)
    for i in range(opts.tag_samples):
        uid = bytes([0x08, 0, 0, i % 256])
        reader = i % table.settings.readers
        target = len(rec.sent) + 1
        rec.expect(("seen", reader, uid.hex().upper()), True)
        table.put_tag(reader, uid)
        rec.wait_for(target, 2.0)
        rec.expect(("gone", reader, uid.hex().upper()), True)
        table.remove_tag(reader, uid)
        rec.wait_for(target + 1, 2.0)
    return [s for s, _, kind in rec.latencies[first:] if kind in ("seen", "gone")]


def run(opts: BenchOptions) -> dict[str, Any]:
    rec = _Recorder()
    table = VirtualTable(VirtualSettings(heartbeat_ms=100, rto_ms=30, hello_ms=100, seed=opts.seed))
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
        with rec.cond:
            sent, received = Counter(rec.sent), Counter(rec.received)
            in_order = rec.received == rec.sent
            all_ms = [s * 1000 for s, _, _ in rec.latencies]
            connected_ms = [s * 1000 for s, ok, _ in rec.latencies if ok]
            applied = sum((sent & received).values())
        tag_ms = [s * 1000 for s in _tag_phase(opts, table, rec)]
        counters = link.status()["counters"]
    finally:
        link.stop()
        table.stop()
    return {
        "sent": opts.events,
        "applied": applied,
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
        "reconnects": counters["reconnects"],
        "p50_ms": _round(percentile(all_ms, 50)),
        "p99_ms": _round(percentile(all_ms, 99)),
        "p99_connected_ms": _round(percentile(connected_ms, 99)),
        "tag_p50_ms": _round(percentile(tag_ms, 50)),
        "tag_p99_ms": _round(percentile(tag_ms, 99)),
        "tag_samples": len(tag_ms),
        "seconds": round(seconds, 2),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
