"""Which die belongs to which player, set from a phone: the ``dice_owners`` table beside the tags.

A die with an owner answers only its owner's rolls (a roll of Ugluk's die while Grotsnik is to roll
is a notice, never Grotsnik's roll), and answers for its owner when the prompt asks several players.
A die without an owner answers whoever is to roll, as every die did before. Kept in the event log's
SQLite file with its own connection, so the owners outlive restarts, like enrolled tags.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

_SCHEMA = "CREATE TABLE IF NOT EXISTS dice_owners (die INTEGER PRIMARY KEY, seat INTEGER NOT NULL)"
MAX_DIE = 0xFFFF
MAX_SEAT = 15


class DiceOwnerError(ValueError):
    """A die or seat number out of range."""


class DiceOwners:
    """Thread-safe: the table worker reads owners while a phone sets them."""

    def __init__(self, connection: sqlite3.Connection | None = None) -> None:
        self._db = connection or sqlite3.connect(":memory:", check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute(_SCHEMA)
            self._owners = {
                int(die): int(seat) for die, seat in self._db.execute("SELECT die, seat FROM dice_owners")
            }

    @classmethod
    def open(cls, path: Path | str) -> DiceOwners:
        db = sqlite3.connect(str(path), check_same_thread=False, timeout=5.0)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return cls(db)

    def owner(self, die: int) -> int | None:
        with self._lock:
            return self._owners.get(die)

    def all(self) -> dict[int, int]:
        with self._lock:
            return dict(sorted(self._owners.items()))

    def assign(self, die: int, seat: int | None) -> None:
        """``seat`` None: the die belongs to nobody again."""
        if isinstance(die, bool) or not isinstance(die, int) or not 0 <= die <= MAX_DIE:
            raise DiceOwnerError(f"die must be a number from 0 to {MAX_DIE}, got {die!r}")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= MAX_SEAT
        ):
            raise DiceOwnerError(f"player must be a seat from 0 to {MAX_SEAT} or null, got {seat!r}")
        with self._lock, self._db:
            if seat is None:
                self._db.execute("DELETE FROM dice_owners WHERE die = ?", (die,))
                self._owners.pop(die, None)
            else:
                self._db.execute("INSERT OR REPLACE INTO dice_owners (die, seat) VALUES (?, ?)", (die, seat))
                self._owners[die] = seat

    def close(self) -> None:
        with self._lock:
            self._db.close()
