"""What the table trusts, kept across restarts: the PIN, the cookie key, the phones let in, their seats,
and the seat take-overs of the game being played (docs/api.md, Phones).

A SQLite file of its own beside the event log (``<db>-phones.sqlite3``, readable by its owner only), so
a restart keeps every phone logged in and in its seat; the event log stays the record of play, written
by the session alone. Without a path (tests, one-off tools) it lives in memory. Everything is also kept
in memory: the file is written through on every change and read once at start, so a request never
waits on the disk to read, and a write that fails (a full disk) costs only what a restart would forget.

A phone is known by a random token in its cookie; the file holds only the token's SHA-256, so a copy of
the file lets nobody in.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS phones (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    address TEXT NOT NULL,
    created REAL NOT NULL,
    last_seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    phone_id TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS takeovers (
    game_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    round INTEGER,
    at REAL NOT NULL,
    text TEXT NOT NULL
);
"""

SEEN_EVERY = 60.0
"""Seconds between writes of a phone's ``last_seen`` (every request would be a disk write)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Phone:
    """A browser the table trusts: it entered the PIN or a pairing code."""

    id: str
    """Public name for lists and revoking (never the cookie's token)."""
    name: str
    user_agent: str
    address: str
    created: float
    last_seen: float


@dataclass(frozen=True)
class TakeOver:
    """A seat moved to another phone during a game: the TV says so for the rest of that round."""

    game_id: int
    seat: int
    round: int | None
    at: float
    text: str


class TrustStore:
    """The trusted phones, their seats and the table's secrets. Thread-safe (requests run on many threads)."""

    def __init__(self, path: Path | None, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self._clock = clock
        self._lock = threading.RLock()
        self._written = True  # False after a write failed: logged once until one succeeds again
        self._conn = self._open()

    def _load(self, conn: sqlite3.Connection) -> None:
        self._settings: dict[str, str] = dict(conn.execute("SELECT key, value FROM settings"))
        self._phones: dict[str, Phone] = {}
        self._by_hash: dict[str, str] = {}
        for row in conn.execute(
            "SELECT id, token_hash, name, user_agent, address, created, last_seen FROM phones"
        ):
            phone = Phone(row[0], row[2], row[3], row[4], row[5], row[6])
            self._phones[phone.id] = phone
            self._by_hash[row[1]] = phone.id
        self._seen_written: dict[str, float] = {p.id: p.last_seen for p in self._phones.values()}
        self._seats: dict[tuple[int, int], str] = {
            (g, s): p for g, s, p in conn.execute("SELECT game_id, seat, phone_id FROM seats")
        }
        self._takeovers = [
            TakeOver(*row) for row in conn.execute("SELECT game_id, seat, round, at, text FROM takeovers")
        ]

    # -- the file ------------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            conn.executescript(SCHEMA)
            self._load(conn)
            return conn
        try:
            conn = self._connect(self.path)
            try:
                self._load(conn)
            except BaseException:
                conn.close()
                raise
            return conn
        except sqlite3.DatabaseError as exc:
            # A damaged file must not keep the table from starting: set it aside, say so, start afresh.
            aside = self.path.with_name(f"{self.path.name}.damaged-{int(self._clock())}")
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            log.warning("%s is damaged (%s): kept as %s; phones log in again", self.path, exc, aside.name)
            conn = self._connect(self.path)
            self._load(conn)
            return conn

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))  # the PIN is in it: owner only
        conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 2000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")  # a PIN printed at start survives a power cut
            conn.executescript(SCHEMA)
        except BaseException:
            conn.close()
            raise
        return conn

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction; a failure (a full disk) is logged once, and the memory keeps the change."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            yield self._conn
            self._conn.execute("COMMIT")
            if not self._written:
                log.warning("%s is written again", self.path)
            self._written = True
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            if self._written:
                log.warning("cannot write %s (%s): phones and seats hold until a restart", self.path, exc)
            self._written = False

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- settings: the PIN and the cookie key ---------------------------------------------------

    def setting(self, key: str) -> str | None:
        with self._lock:
            return self._settings.get(key)

    def set_setting(self, key: str, value: str) -> None:
        with self._lock:
            self._settings[key] = value
            with self._writing() as conn:
                conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    # -- phones ---------------------------------------------------------------------------------

    def add_phone(self, phone: Phone, token: str) -> None:
        with self._lock:
            self._phones[phone.id] = phone
            self._by_hash[token_hash(token)] = phone.id
            self._seen_written[phone.id] = phone.last_seen
            with self._writing() as conn:
                conn.execute(
                    "INSERT INTO phones (id, token_hash, name, user_agent, address, created, last_seen)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (phone.id, token_hash(token), phone.name, phone.user_agent, phone.address, phone.created,
                     phone.last_seen),
                )  # fmt: skip

    def phone_of(
        self, token: str, address: str | None = None, idle_seconds: float | None = None
    ) -> Phone | None:
        """The phone whose cookie holds ``token``, marked as seen now (from ``address``); None if unknown,
        or if it was not seen for ``idle_seconds`` (then it is forgotten: a lost phone stays out)."""
        with self._lock:
            phone_id = self._by_hash.get(token_hash(token))
            phone = self._phones.get(phone_id) if phone_id is not None else None
            if phone is None:
                return None
            now = self._clock()
            if idle_seconds is not None and now - phone.last_seen > idle_seconds:
                self.remove_phones([phone.id])
                return None
            phone = replace(phone, last_seen=now, address=address or phone.address)
            self._phones[phone.id] = phone
            if now - self._seen_written.get(phone.id, 0.0) >= SEEN_EVERY:
                self._seen_written[phone.id] = now
                with self._writing() as conn:
                    conn.execute(
                        "UPDATE phones SET last_seen = ?, address = ? WHERE id = ?",
                        (now, phone.address, phone.id),
                    )
            return phone

    def phone(self, phone_id: str) -> Phone | None:
        with self._lock:
            return self._phones.get(phone_id)

    def phones(self) -> list[Phone]:
        with self._lock:
            return sorted(self._phones.values(), key=lambda p: p.created)

    def remove_phones(self, ids: list[str]) -> list[Phone]:
        """Forgets these phones (their cookies stop working at once); returns the ones that were known.
        Their seats stay held by them: taking such a seat is a take-over, recorded like any other."""
        with self._lock:
            gone = [self._phones.pop(i) for i in ids if i in self._phones]
            for token, phone_id in list(self._by_hash.items()):
                if phone_id in ids:
                    del self._by_hash[token]
            with self._writing() as conn:
                conn.executemany("DELETE FROM phones WHERE id = ?", [(p.id,) for p in gone])
            return gone

    def forget_idle(self, idle_seconds: float) -> list[Phone]:
        """Phones not seen for ``idle_seconds`` are forgotten (a phone sold or lost stays out)."""
        with self._lock:
            now = self._clock()
            return self.remove_phones(
                [p.id for p in self._phones.values() if now - p.last_seen > idle_seconds]
            )

    # -- seats ----------------------------------------------------------------------------------

    def holders(self, game_id: int) -> dict[int, str]:
        """Seat -> the phone id holding it, in one game."""
        with self._lock:
            return {s: p for (g, s), p in sorted(self._seats.items()) if g == game_id}

    def seat_of(self, game_id: int, phone_id: str) -> int | None:
        with self._lock:
            return next((s for (g, s), p in self._seats.items() if g == game_id and p == phone_id), None)

    def hold(self, game_id: int, seat: int | None, phone_id: str) -> None:
        """``phone_id`` plays ``seat`` of the game (None: no seat), leaving any other seat it held there."""
        with self._lock:
            mine = [k for k, p in self._seats.items() if k[0] == game_id and p == phone_id]
            for key in mine:
                del self._seats[key]
            if seat is not None:
                self._seats[(game_id, seat)] = phone_id
            with self._writing() as conn:
                conn.execute("DELETE FROM seats WHERE game_id = ? AND phone_id = ?", (game_id, phone_id))
                if seat is not None:
                    conn.execute(
                        "INSERT OR REPLACE INTO seats (game_id, seat, phone_id) VALUES (?, ?, ?)",
                        (game_id, seat, phone_id),
                    )

    def release_everywhere(self, phone_id: str) -> None:
        """A phone logging itself out leaves every seat it held."""
        with self._lock:
            for key in [k for k, p in self._seats.items() if p == phone_id]:
                del self._seats[key]
            with self._writing() as conn:
                conn.execute("DELETE FROM seats WHERE phone_id = ?", (phone_id,))

    # -- take-overs -----------------------------------------------------------------------------

    def add_takeover(self, takeover: TakeOver) -> None:
        with self._lock:
            self._takeovers.append(takeover)
            with self._writing() as conn:
                conn.execute(
                    "INSERT INTO takeovers (game_id, seat, round, at, text) VALUES (?, ?, ?, ?, ?)",
                    (takeover.game_id, takeover.seat, takeover.round, takeover.at, takeover.text),
                )

    def takeovers(self) -> list[TakeOver]:
        with self._lock:
            return list(self._takeovers)

    def keep_takeovers(self, keep: Callable[[TakeOver], bool]) -> list[TakeOver]:
        """Drops the take-overs ``keep`` rejects (their round is over); returns those kept."""
        with self._lock:
            kept = [t for t in self._takeovers if keep(t)]
            if len(kept) != len(self._takeovers):
                self._takeovers = kept
                with self._writing() as conn:
                    conn.execute("DELETE FROM takeovers")
                    conn.executemany(
                        "INSERT INTO takeovers (game_id, seat, round, at, text) VALUES (?, ?, ?, ?, ?)",
                        [(t.game_id, t.seat, t.round, t.at, t.text) for t in kept],
                    )
            return kept
