"""A log the session cannot use (damaged, from a newer program, locked) is one clear EventLogError."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from companion.session import EventLogError, Session
from companion.session.store import SCHEMA_VERSION

from .nim import find_nim


def start(path: Path) -> Session:
    session = Session(path, find_nim)
    session.start()
    return session


def one_line(exc: pytest.ExceptionInfo[EventLogError]) -> str:
    text = str(exc.value)
    assert "\n" not in text and exc.value.__cause__ is None
    return text


def test_garbage_bytes_are_a_damaged_log(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    path.write_bytes(b"\x8b\x00garbage, not SQLite" * 300)
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "damaged" in one_line(exc) and str(path) in str(exc.value)
    assert path.read_bytes().startswith(b"\x8b\x00garbage")  # left exactly as it was


def test_a_log_with_damaged_pages_is_a_damaged_log(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    start(path).stop()
    raw = bytearray(path.read_bytes())
    raw[100:] = b"\xff" * (len(raw) - 100)  # header intact, every page garbage
    path.write_bytes(bytes(raw))
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "damaged" in one_line(exc)


def test_a_log_from_a_newer_program_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert f"schema {SCHEMA_VERSION + 1} is newer" in one_line(exc)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal"


def test_a_log_another_program_holds_locked_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    start(path).stop()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")  # an exclusive lock outside WAL keeps readers out
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(EventLogError) as exc:
            start(path)
        assert "lock" in one_line(exc)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    start(path).stop()  # once released, the log opens again


def test_a_second_companion_on_the_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    first = start(path)
    try:
        with pytest.raises(EventLogError) as exc:
            start(path)
        assert "another session" in one_line(exc)
    finally:
        first.stop()


def test_a_game_this_program_does_not_know_is_a_notice_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A log whose current game comes from a newer program (a game or rules this one lacks) still
    opens: the table can start a new game, and the TV says why the old one was not resumed."""
    path = tmp_path / "table.db"
    start(path).stop()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO games (game, setup, rules_version, created) VALUES (?, ?, ?, ?)",
            ("space-orcs", '{"game": "space-orcs", "players": [{"name": "Zog"}]}', "space-orcs/9", 1.0),
        )
    session = start(path)
    try:
        notices = [n["text"] for n in session.view()["notices"]]
        assert len(notices) == 1 and "game #1 (space-orcs) cannot be resumed" in notices[0]
        assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.INFO]
    finally:
        session.stop()
