"""Which RFID tag is which card: the ``tags`` table, kept in the same SQLite file as the event log.

The registry has its own connection and its own table; it never reads or writes the session's
tables. Enrolments are the table owner's data (a physical card carries its tag for life), so they
outlive games and restarts.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion.observations import TagUid

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    card_id TEXT NOT NULL,
    enrolled_at REAL NOT NULL
)
"""


class InvalidTagUidError(ValueError):
    """A tag UID must be hexadecimal (separators and case are normalised away)."""


def normalise_uid(text: str) -> TagUid:
    """``"04:a1:b2:c3"`` -> ``"04A1B2C3"``; raises InvalidTagUidError for anything but hex bytes."""
    cleaned = "".join(ch for ch in text if ch not in ":- ").upper()
    if not cleaned or len(cleaned) % 2 or any(ch not in "0123456789ABCDEF" for ch in cleaned):
        raise InvalidTagUidError(f"{text!r} is not a tag UID (hex bytes, e.g. 04A1B2C3)")
    return TagUid(cleaned)


@dataclass(frozen=True)
class EnrolledTag:
    uid: TagUid
    game: str
    card_id: str
    enrolled_at: float
    """Wall-clock seconds (UNIX time): shown to people, never used for ordering."""

    def to_json(self) -> dict[str, object]:
        return {"uid": self.uid, "game": self.game, "card_id": self.card_id, "enrolled_at": self.enrolled_at}


class TagRegistry:
    """Thread-safe: the table worker looks tags up while the control page enrols them."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute(_SCHEMA)

    @classmethod
    def open(cls, path: Path | str) -> TagRegistry:
        db = sqlite3.connect(str(path), check_same_thread=False, timeout=5.0)
        db.execute("PRAGMA journal_mode=WAL")  # the session's writer shares the file
        db.execute("PRAGMA synchronous=NORMAL")
        return cls(db)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def lookup(self, uid: TagUid) -> EnrolledTag | None:
        with self._lock:
            row = self._db.execute(
                "SELECT uid, game, card_id, enrolled_at FROM tags WHERE uid = ?", (uid,)
            ).fetchone()
        return EnrolledTag(*row) if row else None

    def enrol(self, uid: TagUid, game: str, card_id: str, at: float | None = None) -> EnrolledTag:
        """Records (or replaces) what card a tag belongs to; durable when this returns."""
        tag = EnrolledTag(uid, game, card_id, time.time() if at is None else at)
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO tags (uid, game, card_id, enrolled_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(uid) DO UPDATE SET game = excluded.game, card_id = excluded.card_id, "
                "enrolled_at = excluded.enrolled_at",
                (tag.uid, tag.game, tag.card_id, tag.enrolled_at),
            )
        return tag

    def forget(self, uid: TagUid) -> bool:
        """Removes a tag's enrolment; False when it was not enrolled."""
        with self._lock, self._db:
            return self._db.execute("DELETE FROM tags WHERE uid = ?", (uid,)).rowcount > 0

    def tags(self, game: str | None = None) -> list[EnrolledTag]:
        query = "SELECT uid, game, card_id, enrolled_at FROM tags"
        params: tuple[str, ...] = ()
        if game is not None:
            query += " WHERE game = ?"
            params = (game,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY game, card_id, uid", params).fetchall()
        return [EnrolledTag(*row) for row in rows]
