"""A session stand-in for the GPIO tests: a fixed view and a subscription fed by the test."""

from __future__ import annotations

import queue
from collections.abc import Mapping


class FeedSession:
    def __init__(self) -> None:
        self.views: queue.Queue[Mapping | None] = queue.Queue()
        self.closed = False

    def subscribe(self) -> FeedSession:
        return self

    def get(self, timeout: float | None = None) -> Mapping | None:
        try:
            return self.views.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.closed = True
        self.views.put(None)  # like a real subscription, closing wakes a waiting get()


def view(seq: int, active: int | None, players: int = 4) -> dict:
    return {
        "seq": seq,
        "status": "playing" if active is not None else "no_game",
        "game": {
            "game": "chaos-marauders",
            "players": [{"seat": s, "name": f"P{s + 1}", "active": s == active} for s in range(players)],
            "prompt": None,
        }
        if active is not None
        else None,
    }
