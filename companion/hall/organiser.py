"""The organiser's side of a hall: the event (league or tournament) kept in a JSON file, confirmed
results recorded into it as they arrive, and the organiser's own changes (a new event, the next
round's pairings, a result confirmed or struck by hand).

Thread-safe: results arrive on the MQTT reader's thread, the organiser's changes on web threads.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.hall.swiss import PairingError
from companion.hall.tournament import Tournament, TournamentError, record_from_result

log = logging.getLogger(__name__)


class Organiser:
    """Holds the hall's ``Tournament`` (or None) and saves it after every change."""

    def __init__(self, path: Path | None, on_change: Callable[[], None] = lambda: None) -> None:
        self.path = path
        self._on_change = on_change
        self._lock = threading.Lock()
        self._event: Tournament | None = None
        self.unmatched: deque[str] = deque(maxlen=20)
        """Confirmed results the event could not take, one sentence each (names that are not players)."""
        if path is not None and path.exists():
            try:
                self._event = Tournament.from_json(json.loads(path.read_text()))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                aside = path.with_name(path.name + ".damaged")
                path.replace(aside)
                log.warning("the hall's event file %s could not be read (%s): moved to %s", path, exc, aside)

    @property
    def event(self) -> Tournament | None:
        return self._event

    def _set(self, event: Tournament | None) -> None:
        self._event = event
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".new")
            with temporary.open("w") as out:
                json.dump(None if event is None else event.to_json(), out)
                out.flush()
                os.fsync(out.fileno())
            temporary.replace(self.path)
        self._on_change()

    def create(self, **fields: Any) -> Tournament:
        event = Tournament.create(**fields)
        with self._lock:
            self._set(event)
        return event

    def clear(self) -> None:
        with self._lock:
            self._set(None)

    def next_round(self, hall_tables: list[str]) -> Tournament:
        """Pairs the next round; TournamentError or PairingError with the reason."""
        with self._lock:
            event = self._require()
            new = event.next_round(hall_tables)
            self._set(new)
            return new

    def confirmed(self, table: str, body: dict[str, Any], by: str = "players") -> str | None:
        """Records a confirmed result (``messages`` result body); the reason when the event cannot
        take it, None once recorded (or when no event runs or the result is not final and confirmed)."""
        result = body.get("result") or {}
        if not result.get("final") or (by == "players" and not body.get("confirmed")):
            return None
        with self._lock:
            event = self._event
            if event is None:
                return None
            if body.get("game") != event.game:
                return None  # another game played in the hall: not this event's
            try:
                new = event.record(record_from_result(table, body, by))
            except TournamentError as exc:
                reason = f"table {table}, game {body.get('game_id')}: {exc}"
                if reason not in self.unmatched:
                    self.unmatched.append(reason)
                return reason
            if new != event:
                self._set(new)
        return None

    def strike(self, table: str, log_id: str, game_id: int) -> None:
        with self._lock:
            self._set(self._require().unrecord(table, log_id, game_id))

    def _require(self) -> Tournament:
        if self._event is None:
            raise TournamentError("no event yet: create one first")
        return self._event


__all__ = ["Organiser", "PairingError", "TournamentError"]
