"""``companion bench session``: the session alone, without the web: restart time of a long game and
submit→publish latency to in-process readers.

Plain functions returning figures, printed by ``run``. They play Tally (``bench_tally``), an endless
game, because no real game lasts 10,000 inputs.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.cli.bench_tally import Tally
from companion.engine import JSON, Game
from companion.percentiles import percentile
from companion.session.contract import Command
from companion.session.session import Session

SETUP: dict[str, JSON] = {
    "game": "tally",
    "players": [{"name": n, "colour": "#336699"} for n in ("Grotsnik", "Ugluk", "Skarsnik", "Gorbad")],
    "options": {},
}


def _tally(name: str) -> Game:
    if name != "tally":
        raise ValueError(f"the benchmark plays only tally, not {name!r}")
    return Tally()


def _play(session: Session, inputs: int, rng: random.Random) -> None:
    """New game, then ``inputs - 1`` legal actions, about one in twenty an undo or redo."""
    outcome = session.submit(Command("new_game", "bench", SETUP))
    if not outcome.accepted:
        raise RuntimeError(f"the benchmark game did not start: {outcome.reason}")
    for _ in range(inputs - 1):
        roll = rng.random()
        if roll < 0.03 and session.view()["can_undo"]:
            command = Command("undo", "bench")
        elif roll < 0.05 and session.view()["can_redo"]:
            command = Command("redo", "bench")
        else:
            command = Command("act", "bench", _score(session, rng))
        outcome = session.submit(command)
        if not outcome.accepted:
            raise RuntimeError(f"the benchmark game refused {command}: {outcome.reason}")


def _score(session: Session, rng: random.Random) -> dict[str, JSON]:
    return {"kind": "score", "player": session.state.turn, "points": rng.randint(1, 3)}


def _time_start(db: Path, snapshot_every: int) -> tuple[float, Any]:
    session = Session(db, _tally, snapshot_every=snapshot_every)
    started = time.perf_counter()
    session.start()
    seconds = time.perf_counter() - started
    stats, state = session.resume_stats, session.state
    session.stop()
    return seconds, (stats, state)


def resume_time(
    inputs: int = 10_000, snapshot_every: int = 100, directory: str | Path | None = None, seed: int = 1
) -> dict[str, JSON]:
    """Seconds for ``Session.start`` on a game of ``inputs`` inputs, with snapshots and without.

    The log is built in RAM (``/dev/shm`` where there is one: fsync there is free) and then copied to
    ``directory`` (default: the system's temporary directory), where the restarts are timed.
    """
    scratch = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    with (
        tempfile.TemporaryDirectory(dir=scratch) as build,
        tempfile.TemporaryDirectory(dir=directory) as there,
    ):
        built = Path(build) / "bench.db"
        with Session(built, _tally, snapshot_every=snapshot_every) as session:
            _play(session, inputs, random.Random(seed))
            expected = session.state
        db = Path(there) / "bench.db"
        shutil.copy(built, db)
        with_snapshots, (stats, state) = _time_start(db, snapshot_every)
        if state != expected:
            raise RuntimeError("the resumed state differs from the played one")
        conn = sqlite3.connect(db)
        conn.execute("DELETE FROM snapshots")
        conn.commit()
        conn.close()
        # A huge interval: this start must replay everything and write no snapshot of its own.
        full, (full_stats, full_state) = _time_start(db, inputs * 10)
        if full_state != expected:
            raise RuntimeError("the fully replayed state differs from the played one")
        return {
            "inputs": inputs,
            "effective_actions": stats.inputs,
            "snapshot_every": snapshot_every,
            "start_seconds": round(with_snapshots, 4),
            "replayed_with_snapshots": stats.replayed,
            "start_seconds_without_snapshots": round(full, 4),
            "replayed_without_snapshots": full_stats.replayed,
            "log_directory": str(Path(there).parent),
        }


def publish_latency(
    commands: int = 500, subscribers: int = 20, directory: str | Path | None = None, seed: int = 1
) -> dict[str, JSON]:
    """Milliseconds from ``submit`` to the last of ``subscribers`` reader threads holding the view.

    The log lives in ``directory`` (default: the system's temporary directory), so the figure
    includes the real commit (fsync) of that disk.
    """
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=directory) as there:
        with Session(Path(there) / "bench.db", _tally) as session:
            session.submit(Command("new_game", "bench", SETUP))
            subscriptions = [session.subscribe() for _ in range(subscribers)]
            for subscription in subscriptions:
                subscription.get(timeout=5)  # the current view, not part of any measurement
            arrivals = _Arrivals(subscribers)
            readers = [threading.Thread(target=_read, args=(s, arrivals), daemon=True) for s in subscriptions]
            for reader in readers:
                reader.start()
            latencies = []
            for _ in range(commands):
                seq = session.view()["seq"] + 1  # the one submitter: the next input gets the next seq
                everyone = arrivals.expect(seq)
                before = time.perf_counter()
                outcome = session.submit(Command("act", "bench", _score(session, rng)))
                if outcome.seq != seq:
                    raise RuntimeError(f"the benchmark game refused an action: {outcome.reason}")
                answered = time.perf_counter()
                if not everyone.wait(10):
                    raise RuntimeError(f"not every reader got view {seq} within 10 s")
                latencies.append(arrivals.last(seq, answered) - before)
            dropped = sum(s.dropped for s in subscriptions)
        for reader in readers:
            reader.join(5)
    latencies_ms = sorted(1000 * s for s in latencies)
    return {
        "commands": commands,
        "subscribers": subscribers,
        "p50_ms": round(statistics.median(latencies_ms), 3),
        "p99_ms": round(percentile(latencies_ms, 99) or 0.0, 3),
        "max_ms": round(latencies_ms[-1], 3),
        "dropped_views": dropped,
        "log_directory": str(Path(there).parent),
    }


class _Arrivals:
    """When each reader got each view; an event fires once every reader has one."""

    def __init__(self, readers: int) -> None:
        self._readers = readers
        self._lock = threading.Lock()
        self._times: dict[int, list[float]] = {}
        self._events: dict[int, threading.Event] = {}

    def expect(self, seq: int) -> threading.Event:
        with self._lock:
            self._times[seq] = []
            event = self._events.setdefault(seq, threading.Event())
            if self._readers == 0:
                event.set()
            return event

    def arrived(self, seq: int, at: float) -> None:
        with self._lock:
            times = self._times.get(seq)
            if times is None:
                return
            times.append(at)
            if len(times) == self._readers:
                self._events[seq].set()

    def last(self, seq: int, default: float) -> float:
        """When the slowest reader got ``seq`` (``default`` without readers: the submit's return)."""
        with self._lock:
            return max(self._times[seq], default=default)


def _read(subscription: Any, arrivals: _Arrivals) -> None:
    while True:
        view = subscription.get(timeout=30)
        if view is None:
            return
        view.json.encode()  # what an SSE client does with it: bytes on the wire
        arrivals.arrived(view["seq"], time.perf_counter())


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "session", help="the session alone: restart time of a long game, submit→publish latency"
    )
    parser.add_argument("--inputs", type=int, default=10_000, help="inputs of the restarted game")
    parser.add_argument("--commands", type=int, default=500, help="commands timed for latency")
    parser.add_argument("--subscribers", type=int, default=20, help="in-process readers of every view")
    parser.add_argument("--dir", type=Path, help="where the log lives (default: the temporary directory)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the played game")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.inputs < 2 or args.commands < 1 or args.subscribers < 0:
        print("companion bench session: --inputs >= 2, --commands >= 1, --subscribers >= 0")
        return 2
    figures = {
        "resume": resume_time(args.inputs, directory=args.dir, seed=args.seed),
        "latency": publish_latency(args.commands, args.subscribers, directory=args.dir, seed=args.seed),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for part, values in figures.items():
            for key, value in values.items():
                print(f"{part + '.' + key:>40}: {value}")
    return 0
