"""Enrolment: tags offered for pairing with a card, as the control page sees them.

While enrolment is on, every tag that settles on any reader is offered here and nothing is played.
While it is off, only unknown tags are offered (with a notice), so a stray card can be enrolled
mid-game. Thread-safe: the worker offers tags while web requests list and enrol them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from companion.engine import JSON
from companion.observations import TagUid

MAX_PENDING = 64
"""Enough for a whole deck laid out one by one; older offers drop off first."""


@dataclass(frozen=True)
class PendingTag:
    uid: TagUid
    place: str
    """Where it was seen, for people: "Grotsnik's line 2"."""
    seen_at: float
    card_id: str | None = None
    """What it is already enrolled as (re-enrolling a known tag), None for an unknown tag."""

    def to_json(self) -> dict[str, JSON]:
        return {"uid": self.uid, "place": self.place, "seen_at": self.seen_at, "card_id": self.card_id}


class Enrolment:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = False
        self._game: str | None = None
        self._pending: dict[TagUid, PendingTag] = {}

    def start(self, game: str) -> None:
        with self._lock:
            self._active = True
            self._game = game

    def stop(self) -> None:
        with self._lock:
            self._active = False

    @property
    def active(self) -> bool:
        with self._lock:
            return self._active

    @property
    def game(self) -> str | None:
        """The game being enrolled for (set by ``start``)."""
        with self._lock:
            return self._game

    def offer(self, tag: PendingTag) -> None:
        with self._lock:
            self._pending.pop(tag.uid, None)
            self._pending[tag.uid] = tag
            while len(self._pending) > MAX_PENDING:
                del self._pending[next(iter(self._pending))]

    def withdraw(self, uid: TagUid) -> None:
        with self._lock:
            self._pending.pop(uid, None)

    def pending(self) -> list[PendingTag]:
        """Newest first: the tag just put down is the one the person is looking at."""
        with self._lock:
            return list(reversed(self._pending.values()))

    def to_json(self) -> dict[str, JSON]:
        with self._lock:
            return {
                "active": self._active,
                "game": self._game,
                "pending": [t.to_json() for t in reversed(self._pending.values())],
            }
