"""The event log on disk: SQLite in WAL mode, written only by the session's writer thread.

Schema and meaning are documented in ``docs/event-log.md``. Every write happens inside
``transaction()``; with ``synchronous=FULL`` a commit has reached the disk when it returns, which is
what lets the session publish only durable inputs.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1


class EventLogError(RuntimeError):
    """The event log cannot be opened: damaged, written by a newer program, or held by another process."""


SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    rules_version TEXT NOT NULL,
    created REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS inputs (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    observation TEXT,
    rules_version TEXT NOT NULL,
    events TEXT NOT NULL,
    reverted INTEGER NOT NULL DEFAULT 0,
    target INTEGER
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    rules_version TEXT NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

INDEXES = "CREATE INDEX IF NOT EXISTS inputs_by_game ON inputs (game_id, seq);"
"""Derived from the tables: recreated if missing, never a sign of damage."""

TABLES = {
    "games": ("id", "game", "setup", "rules_version", "created", "ended"),
    "inputs": (
        "seq",
        "game_id",
        "at",
        "source",
        "kind",
        "payload",
        "observation",
        "rules_version",
        "events",
        "reverted",
        "target",
    ),
    "snapshots": ("game_id", "seq", "rules_version", "state"),
}
"""Every table and column of a schema-1 log: a log missing any of them has lost data."""

SET_ASIDE = "it is left as it is: move it aside (keep it for recovery) to start a new log"

INPUT_COLUMNS = (
    "seq, game_id, at, source, kind, payload, observation, rules_version, events, reverted, target"
)


GAME_COLUMNS = "id, game, setup, rules_version, created, ended"

CURRENT_GAME = f"""
SELECT {GAME_COLUMNS} FROM games
WHERE id = coalesce((SELECT game_id FROM inputs ORDER BY seq DESC LIMIT 1), (SELECT max(id) FROM games))
"""
"""The current game: the one of the latest input (every game starts with its ``new_game`` input, and a
resumed game gets a ``resume`` input), so a game resumed from the history is still current after a
restart. A log whose newest game has no input yet (never written by this program) falls back to it."""

MARKERS = ("set_aside", "end_game", "resume")
"""Inputs that say what became of a game: set aside by a new game or a resume (its payload says
whether the rules had ended it), closed with End game, or resumed."""

LAST_MARKER = (
    "SELECT kind, payload FROM inputs WHERE game_id = ? AND kind IN ('set_aside', 'end_game', 'resume')"
    " ORDER BY seq DESC LIMIT 1"
)

ReplayRow = tuple[int, str, str, str, bool, int | None]
"""(seq, kind, payload, events, reverted, target): the columns a restart reads, as plain tuples."""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    setup: str
    """JSON text of ``Setup.to_json()``."""
    rules_version: str
    created: float
    ended: float | None


@dataclass(frozen=True)
class InputRow:
    seq: int
    game_id: int
    at: float
    source: str
    kind: str
    payload: str
    observation: str | None
    rules_version: str
    events: str
    reverted: bool
    target: int | None


def connect(path: str | Path, *, readonly: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit); readers never create the file."""
    if readonly:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    else:
        # Opened by ``Session.start`` then handed to the writer thread: used by one thread at a time.
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    # A reader may meet the writer mid-checkpoint; wait instead of failing.
    conn.execute("PRAGMA busy_timeout = 2000")
    return conn


def unreadable(path: Path, exc: sqlite3.Error) -> EventLogError:
    """The one-line EventLogError for an SQLite failure while opening or reading the log at start."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return EventLogError(f"{path}: another program holds a lock on the event log ({text})")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return EventLogError(f"{path}: not a readable event log, the file is damaged ({text})")
    return EventLogError(f"{path}: cannot open the event log ({text})")


def game_row(row: tuple) -> GameRow:
    return GameRow(*row)


def input_row(row: tuple) -> InputRow:
    values = list(row)
    values[9] = bool(values[9])
    return InputRow(*values)


class EventLog:
    """The writer's handle on the log. Not thread-safe: only the writer thread calls it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        self._lock_fd: int | None = None
        self.created = False
        """True when ``open`` made a new log (no file was there)."""

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the event log is not open")
        return self._conn

    def open(self) -> None:
        """Opens (or creates) the log for writing; EventLogError with a one-line reason when it cannot."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EventLogError(f"{self.path}: cannot create its folder ({exc.strerror})") from None
        self._lock()
        try:
            if not self.path.exists():
                self._create()
            self._conn = self._connect()
        except sqlite3.Error as exc:
            self._unlock()
            raise unreadable(self.path, exc) from None
        except BaseException:
            self._unlock()
            raise

    def _lock(self) -> None:
        """Two writers on one log would each believe their own position; the second one must not start."""
        try:
            fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise EventLogError(f"{self.path}: cannot open its lock file ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise EventLogError(
                f"{self.path}: another session is already writing this event log (stop that companion first)"
            ) from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the lock (and the OS releases it on a crash)
            self._lock_fd = None

    def _create(self) -> None:
        """A new, empty log, built beside the path and renamed into place: a log at ``path`` is always
        a whole one, so an empty or schema-less file there is damage, never a start cut short."""
        building = self.path.with_name(f"{self.path.name}.new")
        for leftover in (building, *(Path(f"{building}{end}") for end in ("-journal", "-wal", "-shm"))):
            leftover.unlink(missing_ok=True)  # a start killed while creating: begin again
        conn = sqlite3.connect(str(building), isolation_level=None)
        try:
            conn.executescript(f"BEGIN; {SCHEMA} {INDEXES} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        finally:
            conn.close()
        fd = os.open(building, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(building, self.path)
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself survives a power cut
        finally:
            os.close(folder)
        self.created = True

    def _connect(self) -> sqlite3.Connection:
        # Asked before SQLite opens it: SQLite takes an empty file for a new database (and discards a
        # WAL beside it), which would start over a lost log without a word.
        if self.path.stat().st_size == 0:
            raise EventLogError(
                f"{self.path}: the event log is empty (0 bytes), so the games it held are lost; {SET_ASIDE}"
            )
        conn = connect(self.path)
        try:
            # Asked first: a log from a newer program is left exactly as it is, WAL mode included.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise EventLogError(
                    f"{self.path}: event log schema {version} is newer than this program's"
                    f" ({SCHEMA_VERSION}): update the companion to open it"
                )
            self._check_schema(conn, version)
            conn.execute("PRAGMA journal_mode = WAL")
            # FULL: the WAL is synced at every commit, so an input is on disk before it is published.
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.executescript(SCHEMA + INDEXES)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_schema(self, conn: sqlite3.Connection, version: int) -> None:
        """EventLogError unless the file is a whole event log (or an SQLite file with nothing in it)."""
        found = {
            name: tuple(row[1] for row in conn.execute(f"PRAGMA table_info({name})"))
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if version == 0:
            if not found:
                return  # an empty SQLite database: nothing to lose, it becomes the log
            if not set(found) & set(TABLES):
                names = ", ".join(sorted(found)[:5])
                raise EventLogError(f"{self.path}: not an event log (it holds the tables {names})")
        for table, columns in TABLES.items():
            if table not in found:
                raise EventLogError(
                    f"{self.path}: the event log is damaged: its table '{table}' is missing; {SET_ASIDE}"
                )
            missing = [c for c in columns if c not in found[table]]
            if missing:
                raise EventLogError(
                    f"{self.path}: the event log is damaged: table '{table}' lacks"
                    f" {', '.join(missing)}; {SET_ASIDE}"
                )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._unlock()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside are committed (durably) together, or none are."""
        if self.conn.in_transaction:  # a rollback that failed after an error (disk full) left it open
            self.conn.execute("ROLLBACK")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error as exc:  # the first error is the one to report
                    logger.warning("rollback of the event log failed (%s); retried at the next write", exc)
            raise

    # -- writes (inside a transaction) -------------------------------------------------------

    def add_game(self, game: str, setup: str, rules_version: str, at: float) -> int:
        cur = self.conn.execute(
            "INSERT INTO games (game, setup, rules_version, created) VALUES (?, ?, ?, ?)",
            (game, setup, rules_version, at),
        )
        return int(cur.lastrowid or 0)

    def end_game(self, game_id: int, at: float) -> None:
        self.conn.execute("UPDATE games SET ended = ? WHERE id = ? AND ended IS NULL", (at, game_id))

    def reopen_game(self, game_id: int) -> None:
        """A set-aside game resumed: it is open again."""
        self.conn.execute("UPDATE games SET ended = NULL WHERE id = ?", (game_id,))

    def add_input(
        self,
        *,
        game_id: int,
        at: float,
        source: str,
        kind: str,
        payload: str,
        observation: str | None,
        rules_version: str,
        events: str,
        target: int | None = None,
    ) -> int:
        cur = self.conn.execute(
            "INSERT INTO inputs (game_id, at, source, kind, payload, observation, rules_version, events,"
            " target) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, at, source, kind, payload, observation, rules_version, events, target),
        )
        return int(cur.lastrowid or 0)

    def set_reverted(self, seq: int, reverted: bool) -> None:
        self.conn.execute("UPDATE inputs SET reverted = ? WHERE seq = ?", (int(reverted), seq))

    def drop_snapshots_from(self, game_id: int, seq: int) -> None:
        """Snapshots at or after ``seq`` include an input being undone: they are no longer true."""
        self.conn.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, seq))

    def save_snapshot(self, game_id: int, seq: int, rules_version: str, state: bytes) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, seq, rules_version, state) VALUES (?, ?, ?, ?)",
            (game_id, seq, rules_version, state),
        )

    # -- reads ---------------------------------------------------------------------------------

    def current_game(self) -> GameRow | None:
        """The game of the latest input (a resumed game is current again), else the newest game."""
        row = self.conn.execute(CURRENT_GAME).fetchone()
        return game_row(row) if row else None

    def game(self, game_id: int) -> GameRow | None:
        row = self.conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return game_row(row) if row else None

    def last_marker(self, game_id: int) -> tuple[str, str] | None:
        """(kind, payload) of the game's latest ``set_aside``, ``end_game`` or ``resume`` input."""
        row = self.conn.execute(LAST_MARKER, (game_id,)).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def replay_rows(self, game_id: int) -> list[ReplayRow]:
        """(seq, kind, payload, events, reverted, target) of a game's inputs: just what a restart needs."""
        return self.conn.execute(
            "SELECT seq, kind, payload, events, reverted, target FROM inputs WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()

    def last_input(self) -> InputRow | None:
        row = self.conn.execute(f"SELECT {INPUT_COLUMNS} FROM inputs ORDER BY seq DESC LIMIT 1").fetchone()
        return input_row(row) if row else None

    def snapshots(self, game_id: int, rules_version: str) -> Iterator[tuple[int, bytes]]:
        """Snapshots of this game under these rules, newest first (the caller stops at the first good one)."""
        cur = self.conn.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND rules_version = ? ORDER BY seq DESC",
            (game_id, rules_version),
        )
        for seq, state in cur:
            yield int(seq), bytes(state)
