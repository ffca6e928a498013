"""``companion bench hall``: many tables publishing to one hall through a real Mosquitto, with faults.

``--tables`` sessions (each over its own event log, played by the game's demo players) publish through
one shared MQTT loop, as ``companion serve`` does with ``[hall]``, to a real local broker; the hall
(``mqtt_link.subscriber`` into ``companion.hall.state``) runs in its own process, as a real hall runs
on another machine. During the run the broker is restarted twice (SIGTERM, persistence on: as for an
update) and ``--cut`` tables lose the broker for ``--cut-seconds`` (a TCP proxy in front of them drops
their connections and refuses new ones).

Figures: ``events_sent`` (inputs the tables committed), ``events_received`` (of those, the ones the
hall took, each (table, seq) once), ``lost`` (sent, never received), ``duplicated_after_dedup`` ((table,
seq) pairs the hall took more than once: its dedup failing), and ``p50_ms`` / ``p99_ms`` from a table's
commit (its submit returned) to the hall's state holding that event, over the events committed while
their table was connected (an event committed while its table was cut off waits for the reconnect by
design: it is counted in ``lost``, not in the latency).
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import random
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from companion.percentiles import percentile

HALL = "bench"
DRAIN_SECONDS = 60.0
"""After the last commit, how long the hall may take to receive everything before the rest is lost."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hall", help="tables publishing to a hall over a real Mosquitto, with broker restarts and cut-offs"
    )
    parser.add_argument("--tables", type=int, default=50, help="simulated tables (default 50)")
    parser.add_argument("--events", type=int, default=200, help="inputs each table commits (default 200)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=100.0,
        help="how long the tables play (default 100: 2 inputs a second each)",
    )
    parser.add_argument("--cut", type=int, default=5, help="tables cut off from the broker (default 5)")
    parser.add_argument("--cut-seconds", type=float, default=10.0, help="for how long (default 10)")
    parser.add_argument("--restarts", type=int, default=2, help="broker restarts during the run (default 2)")
    parser.add_argument("--game", help="the game the demo players play (default: the first game with a demo)")
    parser.add_argument("--dir", type=Path, help="where the event logs live (default: the temporary dir)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the simulated tables")
    parser.add_argument(
        "--together",
        action="store_true",
        help="every table commits at the same instant (the worst case) instead of each at its own moment",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


# ------------------------------------------------------------------------------ the hall, elsewhere


def hall_process(url: str, pipe: Connection) -> None:
    """The hall in its own process: subscribes, then records when each (table, seq) was taken."""
    from companion.hall.state import HallState
    from mqtt_link.address import Broker
    from mqtt_link.loop import MqttLoop
    from mqtt_link.subscriber import HallSubscriber

    arrivals: dict[tuple[str, int], float] = {}
    taken: dict[tuple[str, int], int] = {}
    state = HallState()

    def took(table: str, body: dict[str, Any]) -> None:
        key = (table, int(body["seq"]))
        arrivals.setdefault(key, time.perf_counter())  # CLOCK_MONOTONIC: comparable across processes
        taken[key] = taken.get(key, 0) + 1

    state.event_listeners.append(took)
    logging.basicConfig(level=logging.ERROR)  # the planned faults: no warning per lost connection
    loop = MqttLoop().start()
    subscriber = HallSubscriber(state, Broker.from_url(url), HALL, loop).start()
    while not subscriber.online:
        time.sleep(0.02)  # a child process waiting for its first connection
    pipe.send("ready")
    pipe.recv()  # "stop"
    connected_at = list(subscriber.link.connected_at)
    subscriber.stop()
    loop.stop()
    duplicated = sum(count - 1 for count in taken.values())
    pipe.send((arrivals, duplicated, connected_at))


class HallClient:
    def __init__(self, url: str) -> None:
        context = multiprocessing.get_context("spawn")  # the parent has threads: never fork it
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=hall_process, args=(url, child), daemon=True)

    def start(self) -> None:
        self._process.start()
        if not self._pipe.poll(30) or self._pipe.recv() != "ready":
            raise RuntimeError("the hall did not subscribe within 30 s")

    def finish(self) -> tuple[dict[tuple[str, int], float], int, list[float]]:
        self._pipe.send("stop")
        if not self._pipe.poll(30):
            raise RuntimeError("the hall did not answer")
        arrivals, duplicated, connected_at = self._pipe.recv()
        self._process.join(10)
        return arrivals, duplicated, connected_at


# ------------------------------------------------------------------------------ cutting tables off


class CutProxy:
    """A TCP proxy in front of the broker for the tables to cut off: ``cut`` drops every connection
    through it and refuses new ones for a while, as a table's Wi-Fi going away does."""

    def __init__(self, target_port: int) -> None:
        self._target = target_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        self.port = int(self._listener.getsockname()[1])
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._pairs: dict[socket.socket, socket.socket] = {}
        self._refuse_until = 0.0
        self._cut_now = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cut-proxy", daemon=True)
        self._thread.start()

    def cut(self, seconds: float) -> None:
        self._refuse_until = time.monotonic() + seconds
        self._cut_now.set()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _drop(self, sock: socket.socket) -> None:
        other = self._pairs.pop(sock, None)
        for each in (sock, other):
            if each is None:
                continue
            self._pairs.pop(each, None)
            try:
                self._selector.unregister(each)
            except (KeyError, ValueError):
                pass
            each.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._cut_now.is_set():
                self._cut_now.clear()
                for sock in list(self._pairs):
                    self._drop(sock)
            for key, _ in self._selector.select(0.05):
                if key.data is None:
                    try:
                        client, _ = self._listener.accept()
                    except BlockingIOError:
                        continue
                    if time.monotonic() < self._refuse_until:
                        client.close()  # the network is away
                        continue
                    try:
                        upstream = socket.create_connection(("127.0.0.1", self._target), timeout=2)
                    except OSError:
                        client.close()
                        continue
                    for a, b in ((client, upstream), (upstream, client)):
                        a.setblocking(False)
                        self._pairs[a] = b
                        self._selector.register(a, selectors.EVENT_READ, "pipe")
                    continue
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                other = self._pairs.get(sock)
                if not data or other is None:
                    self._drop(sock)
                    continue
                try:
                    other.setblocking(True)
                    other.sendall(data)
                    other.setblocking(False)
                except OSError:
                    self._drop(sock)
        for sock in list(self._pairs):
            self._drop(sock)
        self._listener.close()


# ------------------------------------------------------------------------------ the tables


class SimTable:
    """One table: a session over its own log, its publisher, and its demo players."""

    def __init__(self, index: int, folder: Path, game: str, seed: int) -> None:
        from companion.demo_player import DemoBrain
        from companion.games import find_bundle
        from companion.session import Session

        self.id = f"t{index:02d}"
        self.session = Session(folder / f"{self.id}.sqlite3")
        bundle = find_bundle(game)
        self.rng = random.Random(seed * 1000 + index)
        kit = bundle.load_demo(self.rng)
        if kit is None:
            raise SystemExit(f"companion bench hall: {bundle.title} has no demo players")
        self.brain = DemoBrain(kit, self.rng)
        seats = min(len(kit.players), bundle.load_engine().max_players)
        self.setup = {
            "game": game,
            "players": [dict(p) for p in kit.players[:seats]],
            "options": dict(kit.options),
        }
        self.publisher: Any = None
        self.commits: list[tuple[int, float, bool]] = []

    def step(self) -> None:
        from companion.session import Command

        position = self.session.position()
        action = self.brain.next_action(position) if position.playing else None
        if action is not None and position.game is not None:
            command = Command("act", "demo", position.game.format_action(action))
        else:
            command = Command("new_game", "demo", self.setup)
        up = bool(self.publisher.link.connected)
        outcome = self.session.submit(command, timeout=30)
        committed = time.perf_counter()
        if not outcome.accepted:
            raise RuntimeError(f"table {self.id} refused its demo move: {outcome.reason}")
        self.commits.append((int(outcome.seq or 0), committed, up and bool(self.publisher.link.connected)))


def _play(tables: list[tuple[SimTable, float]], events: int, seconds: float, stop: threading.Event) -> None:
    """Each table commits ``events`` inputs, spread evenly over ``seconds``, each at its own phase
    (a fraction of the interval between two of its inputs)."""
    started = time.monotonic()
    interval = seconds / events
    for n in range(events):
        for table, phase in tables:
            wait = started + (n + phase) * interval - time.monotonic()
            if wait > 0 and stop.wait(wait):
                return
            table.step()


def measure(
    tables: int,
    events: int,
    seconds: float,
    cut: int,
    cut_seconds: float,
    restarts: int,
    game: str,
    directory: Path | None,
    seed: int,
    together: bool = False,
) -> dict[str, Any]:
    from mqtt_link.address import Broker
    from mqtt_link.broker import EmbeddedBroker
    from mqtt_link.loop import MqttLoop
    from mqtt_link.publisher import PublisherConfig, TablePublisher

    with tempfile.TemporaryDirectory(prefix="companion-bench-hall-", dir=directory) as tmp:
        folder = Path(tmp)
        broker = EmbeddedBroker(folder / "broker").start()
        hall = HallClient(broker.url)
        proxy = CutProxy(broker.port)
        loop = MqttLoop().start()
        sims = [SimTable(i, folder, game, seed) for i in range(tables)]
        try:
            hall.start()
            for index, sim in enumerate(sims):
                sim.session.start()
                port = proxy.port if index < cut else broker.port
                config = PublisherConfig(Broker.from_url(f"mqtt://127.0.0.1:{port}"), HALL, sim.id, sim.id)
                sim.publisher = TablePublisher(sim.session, config, loop).start()
            _wait(lambda: all(s.publisher.link.connected for s in sims), 30, "the tables did not connect")
            cut_ids = {s.id for s in sims[:cut]}
            faults, windows = _faults(broker, proxy, seconds, cut, cut_seconds, restarts, cut_ids)
            stop = threading.Event()
            # Tables are separate machines whose players act when they act: table i commits at phase
            # i/tables of each interval. --together makes every table commit at the same instant, a
            # worst case no hall sees (fifty tables in step, to the millisecond).
            phased = [(sim, 0.0 if together else i / tables) for i, sim in enumerate(sims)]
            drivers = [
                threading.Thread(target=_play, args=(phased[i::4], events, seconds, stop), daemon=True)
                for i in range(min(4, tables))
            ]
            faults.start()
            for driver in drivers:
                driver.start()
            for driver in drivers:
                driver.join()
            faults.join()
            sent = {(s.id, seq) for s in sims for seq, _, _ in s.commits}
            last = {s.id: max(seq for seq, _, _ in s.commits) for s in sims}
            _wait(lambda: all(s.publisher.acked >= last[s.id] for s in sims), DRAIN_SECONDS, None)
            time.sleep(0.5)  # the hall's last deliveries, after the broker acknowledged the tables'
            arrivals, duplicated, hall_connects = hall.finish()
            table_connects = {s.id: list(s.publisher.link.connected_at) for s in sims}
        finally:
            for sim in sims:
                if sim.publisher is not None:
                    sim.publisher.stop()
                sim.session.stop()
            loop.stop()
            proxy.close()
            broker.stop()
    affected = _fault_spans(windows, table_connects, hall_connects)
    latencies = [
        (arrivals[(s.id, seq)] - at) * 1000
        for s in sims
        for seq, at, up in s.commits
        if up and (s.id, seq) in arrivals and not any(a <= at <= b for a, b in affected.get(s.id, ()))
    ]
    received = len(sent & arrivals.keys())
    missing = sorted(sent - arrivals.keys())
    if missing:
        logging.getLogger(__name__).error("never received: %s", missing[:40])
    return {
        "tables": tables,
        "events_sent": len(sent),
        "events_received": received,
        "lost": len(sent) - received,
        "duplicated_after_dedup": duplicated,
        "p50_ms": round(statistics.median(latencies), 3) if latencies else None,
        "p99_ms": round(percentile(sorted(latencies), 99) or 0.0, 3) if latencies else None,
    }


def _wait(done: Callable[[], bool], timeout: float, failure: str | None) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            if failure:
                raise RuntimeError(failure)
            return
        time.sleep(0.05)  # polling other threads' progress in a benchmark, not a test


Window = tuple[float, set[str] | None, bool]
"""When a fault began (perf_counter), the tables it cut off (None: all of them, the broker went), and
whether the hall lost the broker too."""


def _faults(
    broker: Any,
    proxy: CutProxy,
    seconds: float,
    cut: int,
    cut_seconds: float,
    restarts: int,
    cut_ids: set[str],
) -> tuple[threading.Thread, list[Window]]:
    """Broker restarts spread over the run, and the cut-off in between; ``windows`` fills as they begin."""
    plan: list[tuple[float, Callable[[], None], set[str] | None, bool]] = []
    for n in range(restarts):
        at = (n + 1) / (restarts + 1) * seconds + (cut_seconds if n else 0)
        plan.append((at, broker.restart, None, True))
    if cut:
        plan.append((0.15 * seconds, lambda: proxy.cut(cut_seconds), cut_ids, False))
    plan.sort(key=lambda item: item[0])
    windows: list[Window] = []

    def run() -> None:
        started = time.monotonic()
        for at, fault, tables, hall_too in plan:
            wait = started + at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            windows.append((time.perf_counter(), tables, hall_too))
            fault()

    return threading.Thread(target=run, name="faults", daemon=True), windows


def _fault_spans(
    windows: list[Window], table_connects: dict[str, list[float]], hall_connects: list[float]
) -> dict[str, list[tuple[float, float]]]:
    """Per table, the spans from a fault's start until the table (and the hall, when the broker went)
    were connected again: events committed then wait for a reconnect by design."""
    spans: dict[str, list[tuple[float, float]]] = {}
    for began, tables, hall_too in windows:
        hall_back = min((t for t in hall_connects if t >= began), default=float("inf")) if hall_too else began
        for table, connects in table_connects.items():
            if tables is not None and table not in tables:
                continue
            back = min((t for t in connects if t >= began), default=float("inf"))
            spans.setdefault(table, []).append((began, max(back, hall_back)))
    return spans


def run(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.events < 1 or not 0 <= args.cut <= args.tables or args.seconds <= 0:
        print("companion bench hall: --tables and --events >= 1, 0 <= --cut <= --tables, --seconds > 0")
        return 2
    logging.basicConfig(level=logging.ERROR)  # the faults are planned: no warning per lost connection
    # Fifty tables are fifty machines; here they share one interpreter lock, whose default 5 ms turns
    # would make the MQTT loop queue behind fifty session writers at every I/O call it makes.
    sys.setswitchinterval(0.0005)
    from companion.games import bundles

    game = args.game or next(b.name for b in bundles().values() if b.demo is not None)
    figures = measure(
        args.tables,
        args.events,
        args.seconds,
        args.cut,
        args.cut_seconds,
        args.restarts,
        game,
        args.dir,
        args.seed,
        args.together,
    )
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
    return 0 if figures["lost"] == 0 and figures["duplicated_after_dedup"] == 0 else 1
