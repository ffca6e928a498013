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
from companion.session.store import (
    CURRENT_GAME,
    GAME_COLUMNS,
    INPUT_COLUMNS,
    LAST_MARKER,
    GameRow,
    InputRow,
    connect,
    game_row,
    input_row,
)

GAME_STATUSES = ("current", "playing", "finished", "closed", "set_aside")
"""What became of a game: ``current`` (the game the session plays; the session says ``playing`` or
``finished`` instead), ``finished`` (the rules ended it), ``closed`` (End game), ``set_aside`` (a new
game or a resume replaced it before its end: it can be resumed, and it keeps its secrets)."""

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


def _game_json(row: GameRow, inputs: int, status: str, last_at: float | None) -> dict[str, JSON]:
    return {
        "id": row.id,
        "game": row.game,
        "setup": json.loads(row.setup),
        "rules_version": row.rules_version,
        "created": row.created,
        "ended": row.ended,
        "inputs": inputs,
        "status": status,
        "resumable": status == "set_aside",
        "last_at": last_at,
    }


def status_of(row: GameRow, marker: tuple[str, str] | None, current_id: int | None) -> str:
    """One of ``GAME_STATUSES`` from the game's latest marker input (``EventLog.last_marker``)."""
    kind = marker[0] if marker else None
    if kind == "end_game":
        return "closed"
    if row.id == current_id:
        return "current"
    if kind == "set_aside" and marker is not None:
        try:
            finished = bool(json.loads(marker[1]).get("finished"))
        except (ValueError, AttributeError):
            finished = False
        return "finished" if finished else "set_aside"
    # Replaced by a new game before set-aside games were recorded as such: it counted as ended then.
    return "closed"


def _described(
    conn: sqlite3.Connection, game_ids: list[int] | None = None, current_status: str = "current"
) -> list[dict[str, JSON]]:
    """The games (all, or those of ``game_ids``), oldest first, as ``games`` lists them; the current
    game's status reads ``current_status`` (the session knows whether it is playing or finished)."""
    current = conn.execute(CURRENT_GAME).fetchone()
    current_id = int(current[0]) if current else None
    where = "" if game_ids is None else f" WHERE id IN ({', '.join('?' * len(game_ids))})"
    rows = conn.execute(
        f"SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM inputs WHERE game_id = games.id),"
        f" (SELECT max(at) FROM inputs WHERE game_id = games.id) FROM games{where} ORDER BY id",
        tuple(game_ids or ()),
    ).fetchall()
    out = []
    for r in rows:
        row = game_row(r[:6])
        marker = conn.execute(LAST_MARKER, (row.id,)).fetchone()
        status = status_of(row, (str(marker[0]), str(marker[1])) if marker else None, current_id)
        if status == "current":
            status = current_status
        out.append(_game_json(row, int(r[6]), status, r[7]))
    return out


def set_aside_games(path: str | Path) -> list[tuple[int, str]]:
    """(id, game) of every game set aside before its end (``status_of`` says ``set_aside``): the games
    that can be resumed, whose secrets stay kept. Reads only the games with an ``ended`` time."""
    conn = _open(path)
    if conn is None:
        return []
    with closing(conn):
        current = conn.execute(CURRENT_GAME).fetchone()
        current_id = int(current[0]) if current else None
        found = []
        for r in conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE ended IS NOT NULL ORDER BY id"):
            row = game_row(r)
            marker = conn.execute(LAST_MARKER, (row.id,)).fetchone()
            kept = (str(marker[0]), str(marker[1])) if marker else None
            if status_of(row, kept, current_id) == "set_aside":
                found.append((row.id, row.game))
        return found


def replaced_game(path: str | Path, game_id: int) -> dict[str, JSON] | None:
    """The game that game ``game_id`` set aside when it took the table, if its rules had ended it:
    ``{"game_id", "game", "setup", "result"}`` (the final result recorded when it was set aside), so
    its result can still be confirmed for a hall. None otherwise (a game set aside unfinished is
    resumed, not confirmed)."""
    conn = _open(path)
    if conn is None:
        return None
    with closing(conn):
        # Written in the transaction of the new game (or of the resume) just before its first input.
        rows = conn.execute(
            "SELECT game_id, payload FROM inputs WHERE kind = 'set_aside' AND seq < coalesce("
            "(SELECT max(seq) FROM inputs WHERE game_id = ? AND kind IN ('new_game', 'resume')), 0)"
            " ORDER BY seq DESC LIMIT 1",
            (game_id,),
        ).fetchall()
        if not rows:
            return None
        replaced, payload = int(rows[0][0]), str(rows[0][1])
        try:
            said = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(said, dict) or said.get("by") != game_id:
            return None
        if not isinstance(said.get("result"), dict):
            return None
        row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (replaced,)).fetchone()
    if row is None:
        return None
    game = game_row(row)
    return {"game_id": game.id, "game": game.game, "setup": json.loads(game.setup), "result": said["result"]}


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


def games(path: str | Path, current_status: str = "current") -> list[dict[str, JSON]]:
    """Every game in the log, oldest first, with its number of inputs, the time of its last input and
    its ``status`` (``GAME_STATUSES``; ``resumable`` when set aside)."""
    conn = _open(path)
    if conn is None:
        return []
    with closing(conn):
        return _described(conn, current_status=current_status)


def _resolve(conn: sqlite3.Connection, game_id: int | None) -> GameRow:
    if game_id is None:
        row = conn.execute(CURRENT_GAME).fetchone()
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


def export_jsonl(
    path: str | Path, game_id: int | None = None, redact: Redact = _keep, current_status: str = "current"
) -> Iterator[str]:
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
        header = _described(conn, [game.id], current_status)[0]
    except BaseException:
        conn.close()
        raise
    return _lines(conn, game, header, redact)


def _lines(conn: sqlite3.Connection, game: GameRow, header: dict[str, JSON], redact: Redact) -> Iterator[str]:
    with closing(conn):
        yield json.dumps({"type": "game", **header}) + "\n"
        cursor = conn.execute(
            f"SELECT {INPUT_COLUMNS} FROM inputs WHERE game_id = ? ORDER BY seq", (game.id,)
        )
        for row in cursor:
            yield json.dumps({"type": "input", **redact(input_json(input_row(row)))}) + "\n"
