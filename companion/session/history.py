"""Reading the event log for people: games, a game's history, JSON Lines export.

These run on the caller's thread (a web request, the CLI) with their own read-only connection;
WAL lets them read while the writer writes, and they never see an uncommitted input.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

from companion.engine import JSON
from companion.session.store import INPUT_COLUMNS, GameRow, InputRow, connect, game_row, input_row

GAME_COLUMNS = "id, game, setup, rules_version, created, ended"

Redact = Callable[[dict[str, JSON]], dict[str, JSON]]
"""Rewrites an input as ``input_json`` gives it for a reader who may not see it all (secret actions)."""


def _keep(item: dict[str, JSON]) -> dict[str, JSON]:
    return item


class UnknownGameIdError(LookupError):
    """The event log holds no game with that id."""


def _open(path: str | Path) -> sqlite3.Connection | None:
    if not Path(path).exists():
        return None
    return connect(path, readonly=True)


def _game_json(row: GameRow, inputs: int) -> dict[str, JSON]:
    return {
        "id": row.id,
        "game": row.game,
        "setup": json.loads(row.setup),
        "rules_version": row.rules_version,
        "created": row.created,
        "ended": row.ended,
        "inputs": inputs,
    }


def input_json(row: InputRow) -> dict[str, JSON]:
    """One input as history and export show it."""
    return {
        "seq": row.seq,
        "game_id": row.game_id,
        "at": row.at,
        "source": row.source,
        "kind": row.kind,
        "action": json.loads(row.payload) if row.kind in ("act", "new_game", "note") else None,
        "observation": None if row.observation is None else json.loads(row.observation),
        "events": [e["text"] for e in json.loads(row.events)],
        "reverted": row.reverted,
        "target": row.target,
        "rules_version": row.rules_version,
    }


def games(path: str | Path) -> list[dict[str, JSON]]:
    """Every game in the log, oldest first, with its number of inputs."""
    conn = _open(path)
    if conn is None:
        return []
    with closing(conn):
        rows = conn.execute(
            f"SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM inputs WHERE game_id = games.id) FROM games"
            " ORDER BY id"
        ).fetchall()
    return [_game_json(game_row(r[:6]), int(r[6])) for r in rows]


def _resolve(conn: sqlite3.Connection, game_id: int | None) -> GameRow:
    if game_id is None:
        row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1").fetchone()
    else:
        row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGameIdError("no game yet" if game_id is None else f"no game #{game_id}")
    return game_row(row)


def history(
    path: str | Path, game_id: int | None = None, limit: int = 100, redact: Redact = _keep
) -> list[dict[str, JSON]]:
    """The last ``limit`` inputs of a game (default: the current one), in log order."""
    conn = _open(path)
    if conn is None:
        return []
    with closing(conn):
        try:
            game = _resolve(conn, game_id)
        except UnknownGameIdError:
            if game_id is None:
                return []
            raise
        rows = conn.execute(
            f"SELECT {INPUT_COLUMNS} FROM inputs WHERE game_id = ? ORDER BY seq DESC LIMIT ?",
            (game.id, max(0, limit)),
        ).fetchall()
    return [redact(input_json(input_row(r))) for r in reversed(rows)]


def inputs_after(
    path: str | Path, seq: int, limit: int = 256, redact: Redact = _keep, game_id: int | None = None
) -> list[dict[str, JSON]]:
    """At most ``limit`` inputs with a seq above ``seq``, in log order (of ``game_id`` only, if given)."""
    conn = _open(path)
    if conn is None:
        return []
    where, params = ("seq > ?", [seq]) if game_id is None else ("seq > ? AND game_id = ?", [seq, game_id])
    with closing(conn):
        rows = conn.execute(
            f"SELECT {INPUT_COLUMNS} FROM inputs WHERE {where} ORDER BY seq LIMIT ?", (*params, max(0, limit))
        ).fetchall()
    return [redact(input_json(input_row(r))) for r in rows]


class LogReader:
    """``inputs_after`` over one read-only connection kept open, for a reader that asks after every
    input (the hall publisher): opening a connection per question costs more than the question. Used by
    one thread at a time."""

    def __init__(self, path: str | Path, redact: Callable[[], Redact]) -> None:
        self.path = Path(path)
        self._redact = redact
        self._conn: sqlite3.Connection | None = None

    def inputs_after(self, seq: int, limit: int = 256, game_id: int | None = None) -> list[dict[str, JSON]]:
        if self._conn is None:
            self._conn = _open(self.path)
            if self._conn is None:
                return []
        where, params = ("seq > ?", [seq]) if game_id is None else ("seq > ? AND game_id = ?", [seq, game_id])
        rows = self._conn.execute(
            f"SELECT {INPUT_COLUMNS} FROM inputs WHERE {where} ORDER BY seq LIMIT ?", (*params, max(0, limit))
        ).fetchall()
        redact = self._redact()
        return [redact(input_json(input_row(r))) for r in rows]

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def export_jsonl(path: str | Path, game_id: int | None = None, redact: Redact = _keep) -> Iterator[str]:
    """A game as JSON Lines, each line ending in a newline: a header, then every input in order.

    The header is ``{"type": "game", ...games()-entry}``; each input is ``{"type": "input", ...}`` as in
    ``history``. Reverted inputs are included (with ``"reverted": true``), so undo stays auditable.
    Raises UnknownGameIdError before yielding anything when the game does not exist.
    """
    conn = _open(path)
    if conn is None:
        raise UnknownGameIdError("the event log does not exist yet")
    try:
        game = _resolve(conn, game_id)
        count = conn.execute("SELECT COUNT(*) FROM inputs WHERE game_id = ?", (game.id,)).fetchone()[0]
    except BaseException:
        conn.close()
        raise
    return _lines(conn, game, int(count), redact)


def _lines(conn: sqlite3.Connection, game: GameRow, count: int, redact: Redact) -> Iterator[str]:
    with closing(conn):
        yield json.dumps({"type": "game", **_game_json(game, count)}) + "\n"
        cursor = conn.execute(
            f"SELECT {INPUT_COLUMNS} FROM inputs WHERE game_id = ? ORDER BY seq", (game.id,)
        )
        for row in cursor:
            yield json.dumps({"type": "input", **redact(input_json(input_row(row)))}) + "\n"
