"""``companion bench latency``: from a command's submit to every TV having its update, over real HTTP.

Starts the real server on 127.0.0.1 (an ephemeral port) with a real Session over a temporary event
log, connects N SSE clients (raw sockets multiplexed by one thread, in a separate process as real TVs
are on other machines, so they do not compete for the server's CPU and interpreter lock), then POSTs
E legal actions to ``/api/commands`` one at a time, each after the previous one reached every client.
For each command:

    latency = max over clients of (time the client read a message with id >= seq) - (time of the POST)

so it includes the HTTP request, the session's queue, the engine, the SQLite commit (fsync) and the
fan-out. "Received" means a message with that seq *or a later one*: every view is complete, so a
client the session coalesced past a view lost nothing. ``lost`` counts (client, seq) pairs never
covered that way before the timeout; ``coalesced`` counts pairs covered only by a later view.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import multiprocessing
import random
import selectors
import socket
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from companion.percentiles import percentile
from companion.settings import Settings

PIN = "bench"
WAIT_SECONDS = 5.0
"""How long a command may take to reach every client before its missing pairs count as lost."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("latency", help="submit-to-every-TV latency over real SSE clients")
    parser.add_argument("--clients", type=int, default=20, help="SSE clients (default 20)")
    parser.add_argument("--events", type=int, default=200, help="commands to submit (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the simulated table")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


class StreamReader:
    """One SSE client on a non-blocking socket: records when it read each seq.

    Parsing stays minimal so the clients cost the machine little: a message ends at a blank line
    ("\\n\\n"), which neither the chunked framing ("\\r\\n") nor the one-line JSON contains.
    """

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(b"GET /stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        self.sock.setblocking(False)
        self.seen: dict[int, float] = {}
        self.highest = -1
        self._buffer = b""

    def read(self) -> bool:
        """Reads what arrived; False once the server closed the stream."""
        data = self.sock.recv(1 << 16)
        if not data:
            return False
        now = time.perf_counter()  # CLOCK_MONOTONIC: comparable with the submitting process
        self._buffer += data
        while (end := self._buffer.find(b"\n\n")) >= 0:
            message, self._buffer = self._buffer[:end], self._buffer[end + 2 :]
            at = message.find(b"id: ")
            if at >= 0:
                seq = int(message[at + 4 : message.index(b"\n", at)])
                self.seen.setdefault(seq, now)
                self.highest = max(self.highest, seq)
        return True


def clients_process(port: int, count: int, pipe: Connection) -> None:
    """The SSE clients, in their own process as real TVs are on other machines, so they do not take
    the server's CPU time and interpreter lock; one thread multiplexes them all with a selector.

    Tells the parent the lowest seq every client has reached whenever it rises; on "stop" sends back
    every client's arrivals ({seq: time} in reading order) and errors.
    """
    readers = [StreamReader(port) for _ in range(count)]
    errors: list[str] = []
    with selectors.DefaultSelector() as selector:
        for reader in readers:
            selector.register(reader.sock, selectors.EVENT_READ, reader)
        selector.register(pipe.fileno(), selectors.EVENT_READ, None)
        reported = -1
        running = True
        while running:
            for key, _ in selector.select():
                if key.data is None:  # the parent says stop
                    running = False
                    continue
                try:
                    if not key.data.read():
                        selector.unregister(key.fileobj)
                except OSError as exc:
                    errors.append(str(exc))
                    selector.unregister(key.fileobj)
            low = min(r.highest for r in readers)
            if low > reported:
                reported = low
                pipe.send(("reached", low))
    pipe.recv()
    pipe.send(("done", [r.seen for r in readers], errors))
    for reader in readers:
        reader.sock.close()


class Clients:
    """The client process, seen from the submitter: wait until every client has a seq, then collect."""

    def __init__(self, port: int, count: int) -> None:
        context = multiprocessing.get_context("spawn")  # the parent has threads: never fork it
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=clients_process, args=(port, count, child), daemon=True)
        self.reached = -1

    def start(self, first_seq: int) -> None:
        self._process.start()
        if not self.wait_for(first_seq, WAIT_SECONDS * 4):  # includes starting a Python
            raise RuntimeError("the SSE clients did not all connect")

    def wait_for(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.reached < seq:
            left = deadline - time.monotonic()
            if left <= 0 or not self._pipe.poll(left):
                return False
            _, self.reached = self._pipe.recv()
        return True

    def finish(self) -> tuple[list[dict[int, float]], list[str]]:
        self._pipe.send("stop")
        while True:
            message = self._pipe.recv()
            if message[0] == "done":
                self._process.join(timeout=5)
                return message[1], message[2]


class Submitter:
    """POSTs commands to the API over one keep-alive connection, as a phone or script would."""

    def __init__(self, port: int) -> None:
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        body = json.dumps({"kind": kind, "payload": payload})
        headers = {"Content-Type": "application/json", "X-Table-Pin": PIN}
        self._connection.request("POST", "/api/commands", body=body, headers=headers)
        response = self._connection.getresponse()
        answer: dict[str, Any] = json.loads(response.read())
        return answer

    def close(self) -> None:
        self._connection.close()


def measure(clients: int, events: int, seed: int) -> dict[str, Any]:
    """Runs the benchmark and returns its figures (milliseconds)."""
    from companion.cli.serve import serving
    from companion.demo_player import DemoBrain
    from companion.games import bundles
    from companion.session import Session

    rng = random.Random(seed)
    bundle = next(b for b in bundles().values() if b.demo is not None)  # the first game with a demo
    kit = bundle.load_demo(rng)
    assert kit is not None
    brain = DemoBrain(kit, rng)
    players = [dict(p) for p in kit.players][: bundle.load_engine().max_players]
    setup = {"game": bundle.name, "players": players, "options": dict(kit.options)}
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        settings = Settings(host="127.0.0.1", port=0, pin=PIN, db=Path(tmp) / "bench.sqlite3")
        streams = {"SSE_MAX_STREAMS": max(clients, 24)}  # every client a TV, none refused
        with Session(settings.db) as session, serving(settings, session, web=streams) as server:
            submitter = Submitter(server.port)
            readers = Clients(server.port, clients)
            submitter.post("new_game", setup)
            readers.start(session.view()["seq"])
            submits: list[float] = []
            sent: list[tuple[int, float]] = []
            try:
                for _ in range(events):
                    position = session.position()
                    action = brain.next_action(position) if position.playing else None
                    if action is not None and position.game is not None:
                        kind, payload = "act", position.game.format_action(action)
                    else:
                        kind, payload = "new_game", setup
                    start = time.perf_counter()
                    answer = submitter.post(kind, payload)
                    submits.append(time.perf_counter() - start)
                    if not answer["accepted"]:
                        raise RuntimeError(f"the session refused a legal action: {answer}")
                    seq = int(answer["seq"])
                    sent.append((seq, start))
                    readers.wait_for(seq, WAIT_SECONDS)
            finally:
                submitter.close()
                seen, errors = readers.finish()
    latencies, lost, coalesced = analyse(seen, sent)
    ms = [x * 1000 for x in latencies]
    return {
        "clients": clients,
        "events": events,
        "p50_ms": round(statistics.median(ms), 3) if ms else None,
        "p99_ms": round(percentile(ms, 99) or 0.0, 3) if ms else None,
        "max_ms": round(max(ms), 3) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 3) if ms else None,
        "submit_p50_ms": round(statistics.median(submits) * 1000, 3) if submits else None,
        "lost": lost,
        "coalesced": coalesced,
        "client_errors": len(errors),
    }


def analyse(seen: list[dict[int, float]], sent: list[tuple[int, float]]) -> tuple[list[float], int, int]:
    """Per command, the time until the last client had it; (client, seq) pairs lost and coalesced.

    A client "has" seq once it read seq or any later view (views are complete); ``coalesced`` counts
    pairs only covered that way, ``lost`` pairs never covered.
    """
    latencies: list[float] = []
    lost = coalesced = 0
    for seq, start in sent:
        arrivals = []
        for arrived in seen:
            at = arrived.get(seq)
            if at is None:
                at = min((t for s, t in arrived.items() if s > seq), default=None)
                if at is None:
                    lost += 1
                    continue
                coalesced += 1
            arrivals.append(at)
        if len(arrivals) == len(seen):
            latencies.append(max(arrivals) - start)
    return latencies, lost, coalesced


def run(args: argparse.Namespace) -> int:
    if args.clients < 1 or args.events < 1:
        print("companion bench latency: --clients and --events must be at least 1")
        return 2
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request in the figures
    figures = measure(args.clients, args.events, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>14}: {value}")
    return 0 if figures["lost"] == 0 and figures["client_errors"] == 0 else 1
