"""``companion bench tag``: a card tag laid on a reader until a subscriber sees its input in the view.

The whole physical path, in one process: a virtual table device (``firmware_bridge.virtual``, the
firmware's own protocol code) on a real pseudo-terminal → the real ``HostLink`` → the ``Table``
(settle window, tag registry, the game's mapper) → a real ``Session`` over a temporary event log
(SQLite commit included) → one subscriber as the SSE stream has (``session.subscribe()``).

Any game with a demo kit can be measured (``--game``; default: the first installed one): its
players play as in ``companion demo``, with their own hands on the device. Every tag they lay that
the table plays is an event, timed from the moment it is laid until the subscriber reads the view of
the input it made. Tags laid that make no input (tidying the table) are not events; a tag laid for a
move that the hands then had to enter on the control page, because the table did not play it in
time, is ``lost``.

The settle window is configured (``--settle-ms``, small by default) and **excluded**: a placement may
not count before it ends, so the figure is ``seen - laid - settle_ms``. It still includes the serial
frame over the pty, the host's decoding, the table worker's wake-up, the session's input and publish.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.bundle import GameBundle
from companion.demo_player import DemoBrain
from companion.percentiles import percentile
from companion.session.contract import Command
from companion.table import Table, TableConfig, TagRegistry

WAIT_SECONDS = 2.0
"""How long one event may take to reach the subscriber before it counts as lost."""
REMOVAL_MS = 20


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tag", help="tag on a reader to its input in the published view")
    parser.add_argument("--events", type=int, default=200, help="tags to lay (default 200)")
    parser.add_argument("--settle-ms", type=int, default=5, help="settle window, excluded (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the simulated players")
    parser.add_argument("--game", help="the game whose demo plays (default: the first installed one)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def bench_bundle(game: str | None = None) -> GameBundle:
    """The game measured: ``game``, else the first installed game whose demo lays tags."""
    from companion.games import bundles, find_bundle

    if game is not None:
        return find_bundle(game)
    return next(b for b in bundles().values() if b.demo is not None and b.mapper is not None)


class Views:
    """A subscriber, as the SSE stream is: when it read each seq (its own thread)."""

    def __init__(self, session: Any) -> None:
        self._subscription = session.subscribe()
        self._seen: dict[int, float] = {}
        self._arrived = threading.Condition()
        self._thread = threading.Thread(target=self._read, name="bench-subscriber", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._subscription.closed:
            view = self._subscription.get(timeout=0.5)
            if view is not None:
                with self._arrived:
                    self._seen.setdefault(int(view["seq"]), time.perf_counter())
                    self._arrived.notify_all()

    def first_after(self, seq: int, timeout: float) -> tuple[int, float] | None:
        """(seq, when read) of the first view read after ``seq``, waiting up to ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                later = [(s, t) for s, t in self._seen.items() if s > seq]
                if later:
                    return min(later)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._arrived.wait(left)

    def close(self) -> None:
        self._subscription.close()
        self._thread.join(2.0)


class TimedDevice:
    """The virtual device, with the moment and the session's seq of every tag laid (for the hands)."""

    def __init__(self, device: Any, session: Any) -> None:
        self._device = device
        self._session = session
        self.laid: list[tuple[float, int]] = []

    def put_tag(self, reader: int, uid: str) -> None:
        self.laid.append((time.perf_counter(), self._session.position().seq))
        self._device.put_tag(reader, uid)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._device, name)


def measure(events: int, settle_ms: int, seed: int, game: str | None = None) -> dict[str, Any]:
    from companion.cli.demo import SessionTable, device_settings, dice_ids, table_section
    from companion.dice import Dice
    from companion.session import Session
    from companion.table import normalise_uid
    from firmware_bridge.link import HostLink
    from firmware_bridge.virtual import VirtualTable

    bundle = bench_bundle(game)
    rng = random.Random(seed)
    kit = bundle.load_demo(rng)
    assert kit is not None
    seats = min(len(kit.players), bundle.load_engine().max_players)
    layout = kit.layout(seats)
    section = {**table_section(layout), "settle_ms": settle_ms, "removal_ms": REMOVAL_MS}
    dice = Dice.load()
    brain = DemoBrain(kit, rng)
    setup = {
        "game": bundle.name,
        "players": [dict(p) for p in kit.players[:seats]],
        "options": dict(kit.options),
    }
    ms: list[float] = []
    lost = 0
    with tempfile.TemporaryDirectory(prefix="companion-bench-tag-") as tmp:
        db = Path(tmp) / "bench.sqlite3"
        session = Session(db)
        session.start()
        registry = TagRegistry.open(db)
        for uid, card in kit.tags().items():
            registry.enrol(normalise_uid(uid), bundle.name, card)
        table = Table(session, TableConfig.from_mapping(section), registry)
        device = VirtualTable(device_settings(layout, dice, seed=seed))
        link = HostLink(device.start(), on_observation=table.observe)
        views = Views(session)
        try:
            table.start()
            link.start()
            if not _wait(lambda: link.status()["state"] == "connected", 5.0):
                raise RuntimeError("the virtual table did not connect")
            timed = TimedDevice(device, session)
            hands = kit.hands(SessionTable(session, dice, dice_ids(layout)), timed)
            while len(ms) + lost < events:
                position = session.position()
                if not position.playing:
                    hands.clear()
                    session.submit(Command(kind="new_game", source="bench", payload=setup))
                    continue
                action = brain.next_action(position)
                if action is None:
                    session.submit(Command(kind="end_game", source="bench"))
                    continue
                timed.laid.clear()
                hands.enact(action, position)
                measured, missed = _timings(timed.laid, views, session, settle_ms)
                ms.extend(measured[: events - len(ms) - lost])
                lost += min(missed, events - len(ms) - lost)
        finally:
            views.close()
            link.stop()
            table.stop()
            device.stop()
            registry.close()
            session.stop()
    return {
        "events": events,
        "p50_ms": round(statistics.median(ms), 3) if ms else None,
        "p99_ms": round(percentile(ms, 99) or 0.0, 3) if ms else None,
        "max_ms": round(max(ms), 3) if ms else None,
        "lost": lost,
        "settle_ms": settle_ms,
        "game": bundle.name,
        "measured_from": "tag laid on the reader, minus the settle window",
    }


def _timings(
    laid: list[tuple[float, int]], views: Views, session: Any, settle_ms: int
) -> tuple[list[float], int]:
    """The events among the tags one move laid: each tag the table played, timed to the view of its
    input (the input after the seq at the moment it was laid, made by the table); and how many were
    lost (the move was entered on the control page after a tag was laid for it)."""
    measured: list[float] = []
    missed = 0
    for index, (at, seq) in enumerate(laid):
        next_seq = laid[index + 1][1] if index + 1 < len(laid) else None
        if next_seq is not None and next_seq == seq:
            continue  # tidying the table: no input followed this tag before the next one was laid
        seen = views.first_after(seq, WAIT_SECONDS)
        if seen is None or (next_seq is not None and seen[0] > next_seq):
            continue
        source = _source_of(session, seen[0])
        if source == "table":
            measured.append((seen[1] - at) * 1000 - settle_ms)
        elif source == "control":
            missed += 1
    return measured, missed


def _source_of(session: Any, seq: int) -> str | None:
    for entry in session.history(limit=20):
        if entry["seq"] == seq:
            return str(entry["source"])
    return None


def _wait(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)  # a benchmark's own pacing between events, never inside a measurement
    return True


def run(args: argparse.Namespace) -> int:
    if args.events < 1:
        print("companion bench tag: --events must be at least 1")
        return 2
    figures = measure(args.events, args.settle_ms, args.seed, args.game)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
