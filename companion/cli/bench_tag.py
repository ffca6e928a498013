"""``companion bench tag``: a card tag laid on a reader until a subscriber sees the card in the view.

The whole physical path, in one process: a virtual table device (``firmware_bridge.virtual``, the
firmware's own protocol code) on a real pseudo-terminal → the real ``HostLink`` → the ``Table``
(settle window, tag registry, mapper) → a real ``Session`` over a temporary event log (SQLite commit
included) → one subscriber as the SSE stream has (``session.subscribe()``).

Each event is a draw: at the engine's draw prompt, the drawn card's tag is laid on the pad reader,
and the time runs until the subscriber reads a view in which the card left the draw pile. Between
events the game is moved on directly (not measured) up to the next draw prompt, and the tag is taken
off again.

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
import time
from pathlib import Path
from typing import Any

from companion.demo_player import DemoBrain
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo, Layout, deck_tags
from companion.percentiles import percentile
from companion.session.contract import Command
from companion.table import Table, TableConfig, TagRegistry

WAIT_SECONDS = 2.0
"""How long one event may take to reach the subscriber before it counts as lost."""
PLAYERS = [{"name": f"P{seat + 1}", "colour": "#888888"} for seat in range(4)]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tag", help="tag on a reader to the card in the published view")
    parser.add_argument("--events", type=int, default=200, help="tags to lay (default 200)")
    parser.add_argument("--settle-ms", type=int, default=5, help="settle window, excluded (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the simulated players")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def measure(events: int, settle_ms: int, seed: int) -> dict[str, Any]:
    from companion.session import Session
    from companion.table import normalise_uid
    from firmware_bridge.link import HostLink
    from firmware_bridge.virtual import VirtualSettings, VirtualTable

    layout = Layout(settle_ms=settle_ms, removal_ms=20)
    rng = random.Random(seed)
    brain = DemoBrain(ChaosMaraudersDemo(rng), rng)
    with tempfile.TemporaryDirectory(prefix="companion-bench-tag-") as tmp:
        db = Path(tmp) / "bench.sqlite3"
        session = Session(db)
        session.start()
        registry = TagRegistry.open(db)
        uids_of: dict[str, list[str]] = {}
        for uid, card in deck_tags().items():
            registry.enrol(normalise_uid(uid), "chaos-marauders", card)
            uids_of.setdefault(card, []).append(uid)
        table = Table(session, TableConfig.from_mapping(layout.table_section()), registry)
        device = VirtualTable(VirtualSettings(readers=layout.readers, seed=seed))
        link = HostLink(device.start(), on_observation=table.observe)
        subscription = session.subscribe()
        try:
            table.start()
            link.start()
            if not _wait(lambda: link.status()["state"] == "connected", 5.0):
                raise RuntimeError("the virtual table did not connect")
            ms: list[float] = []
            lost = 0
            last_lift: dict[str, float] = {}
            while len(ms) + lost < events:
                card = _advance_to_draw(session, brain)
                uid = uids_of[card][0]
                uids_of[card].append(uids_of[card].pop(0))  # next time, the next copy
                # The same tag back within the removal window would be a read flicker, not a new card.
                _wait(lambda u=uid: time.monotonic() - last_lift.get(u, 0.0) > 0.1, 1.0)
                before = session.view()
                pile = before["game"]["draw_pile"]
                laid = time.perf_counter()
                device.put_tag(layout.pad_reader, uid)
                seen = _wait_for_draw(subscription, before["seq"], pile)
                if seen is None:
                    lost += 1
                    session.submit(_act(session, brain))  # keep the game moving
                else:
                    ms.append((seen - laid) * 1000 - settle_ms)
                device.remove_tag(layout.pad_reader, uid)
                last_lift[uid] = time.monotonic()
        finally:
            subscription.close()
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
        "measured_from": "tag laid on the reader, minus the settle window",
    }


def _advance_to_draw(session: Any, brain: DemoBrain) -> str:
    """Plays directly until the engine asks for a draw; returns the card the player will draw."""
    for _ in range(10_000):
        position = session.position()
        if not position.playing:
            setup = {"game": "chaos-marauders", "players": PLAYERS}
            session.submit(Command(kind="new_game", source="bench", payload=setup))
            continue
        action = brain.next_action(position)
        if action is None:
            session.submit(Command(kind="end_game", source="bench"))
            continue
        payload = position.game.format_action(action)
        if payload["kind"] == "draw":
            return str(payload["card"])
        session.submit(Command(kind="act", source="bench", payload=payload))
    raise RuntimeError("the simulated game never asked for a draw")


def _act(session: Any, brain: DemoBrain) -> Command:
    position = session.position()
    action = brain.next_action(position)
    payload = position.game.format_action(action) if action is not None and position.game else {}
    return Command(kind="act", source="bench", payload=payload)


def _wait_for_draw(subscription: Any, seq: int, pile: int) -> float | None:
    """When the subscriber read a view in which the drawn card left the pile (None: not in time)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        view = subscription.get(timeout=max(0.0, deadline - time.monotonic()))
        if view is None:
            continue
        game = view.get("game") or {}
        if view["seq"] > seq and game.get("draw_pile", pile) < pile:
            return time.perf_counter()
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
    figures = measure(args.events, args.settle_ms, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
